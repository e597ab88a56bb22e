import { describe, expect, it } from 'vitest';
import { adminSchema } from './admin-schema.ts';

const headers = {
  authorization: 'OAuth oauth_signature_method="HMAC-SHA256"',
  'content-type': 'application/json',
};
const post = (path: string, body: unknown) =>
  adminSchema().checkRequest({
    method: 'POST',
    url: `https://shop.example.com${path}`,
    headers,
    body: JSON.stringify(body),
  });

describe('Magento request bodies are checked closed', () => {
  it('accepts what the data interfaces declare', () => {
    expect(
      post('/rest/all/V1/products', {
        product: {
          sku: 'a',
          name: 'A',
          price: 1,
          extension_attributes: { website_ids: [1] },
          custom_attributes: [{ attribute_code: 'description', value: 'x' }],
        },
      }),
    ).toEqual([]);
  });

  it('refuses invented properties, as ServiceInputProcessor does', () => {
    expect(post('/rest/all/V1/products', { product: { sku: 'a', colour: 'red' } })).toEqual([
      "POST /rest/all/V1/products body/product must NOT have additional properties ('colour')",
    ]);
    expect(post('/rest/all/V1/products', { product: { sku: 'a' }, replace: true })).toEqual([
      "POST /rest/all/V1/products body must NOT have additional properties ('replace')",
    ]);
    // The category extension interface declares nothing, so it takes nothing.
    expect(
      post('/rest/all/V1/categories', { category: { name: 'A', extension_attributes: { x: 1 } } }),
    ).toEqual([
      "POST /rest/all/V1/categories body/category/extension_attributes must NOT have additional properties ('x')",
    ]);
    // Items of an async bulk request are synchronous bodies, closed the same way.
    expect(
      post('/rest/default/async/bulk/V1/customers/', [
        { customer: { email: 'a@example.com', firstname: 'A', lastname: 'B', nickname: 'n' } },
      ]),
    ).toEqual([
      "POST /rest/default/async/bulk/V1/customers/ body[0]/customer must NOT have additional properties ('nickname')",
    ]);
  });

  it('checks answers open', () => {
    expect(
      adminSchema().checkResponse('GET', 'https://shop.example.com/rest/V1/store/storeViews', 200, [
        {
          id: 1,
          code: 'default',
          name: 'Default',
          website_id: 1,
          store_group_id: 1,
          is_active: 1,
          extra: 'x',
        },
      ]),
    ).toEqual([]);
  });
});
