import { describe, expect, it } from 'vitest';
import { BigCommerceSpec } from './openapi-validator.ts';

const spec = new BigCommerceSpec();
const headers = {
  'X-Auth-Token': 'token',
  Accept: 'application/json',
  'Content-Type': 'application/json',
};
const post = (path: string, body: unknown) =>
  spec.validateRequest({
    method: 'POST',
    url: `https://api.bigcommerce.com/stores/abc123${path}`,
    headers,
    body: JSON.stringify(body),
  });

describe('BigCommerce request bodies are checked closed', () => {
  it('accepts a product with nested variants, images and custom fields', () => {
    expect(
      post('/v3/catalog/products', {
        name: 'Shirt',
        type: 'physical',
        weight: 1,
        price: 10,
        custom_url: { url: '/shirt/', is_customized: true },
        images: [{ image_url: 'https://cdn.example.com/a.png', is_thumbnail: true }],
        custom_fields: [{ name: 'Material', value: 'Cotton' }],
        variants: [{ sku: 'S-1', option_values: [{ option_display_name: 'Size', label: 'S' }] }],
      }),
    ).toEqual([]);
  });

  it('refuses properties the schema does not declare, at any depth and through allOf', () => {
    const base = { name: 'Shirt', type: 'physical', weight: 1, price: 10 };
    expect(post('/v3/catalog/products', { ...base, colour: 'red' }).join('\n')).toContain(
      "('colour')",
    );
    expect(
      post('/v3/catalog/products', {
        ...base,
        variants: [{ sku: 'S-1', shade: 'x', option_values: [] }],
      }).join('\n'),
    ).toContain("data/variants/0 must NOT have unevaluated properties ('shade')");
    expect(
      post('/v3/customers', [
        { email: 'a@example.com', first_name: 'A', last_name: 'B', nickname: 'x' },
      ]).join('\n'),
    ).toContain("('nickname')");
    expect(
      post('/v2/orders', {
        billing_address: { zip: '1', floor: '2' },
        products: [{ name: 'x', quantity: 1, price_inc_tax: 1, price_ex_tax: 1 }],
      }).join('\n'),
    ).toContain("data/billing_address must NOT have unevaluated properties ('floor')");
  });

  it('keeps answers open: fields the platform adds later do not fail a response', () => {
    const url = 'https://api.bigcommerce.com/stores/abc123/v3/catalog/brands';
    expect(
      spec.validateResponse('GET', url, {
        status: 200,
        body: {
          data: [{ id: 1, name: 'Acme', brand_new_field: true }],
          meta: {
            pagination: { total: 1, count: 1, per_page: 50, current_page: 1, total_pages: 1 },
          },
        },
      }),
    ).toEqual([]);
  });
});

describe('the marketing description kept with the project (coupons)', () => {
  const coupon = {
    name: 'Ten off',
    code: 'TEN_OFF 2024-A',
    type: 'per_total_discount',
    amount: '10',
    applies_to: { entity: 'categories', ids: [0] },
  };
  const get = (path: string) =>
    spec.validateRequest({
      method: 'GET',
      url: `https://api.bigcommerce.com/stores/abc123${path}`,
      headers,
    });

  it('checks coupon bodies, codes by the characters its text allows', () => {
    expect(post('/v2/coupons', coupon)).toEqual([]);
    expect(post('/v2/coupons', { ...coupon, code: '10%OFF' }).join('\n')).toContain(
      'data/code must match pattern',
    );
    expect(post('/v2/coupons', { ...coupon, code: '' }).join('\n')).toContain('data/code');
    const { applies_to: _appliesTo, ...partial } = coupon;
    expect(post('/v2/coupons', partial).join('\n')).toContain("'applies_to'");
    expect(post('/v2/coupons', { ...coupon, id: 3 }).join('\n')).toContain("('id')");
  });

  it("reads OpenAPI 3.0's boolean exclusive bounds as no bound", () => {
    expect(get('/v2/coupons?min_id=3&limit=50&page=2')).toEqual([]);
    expect(get('/v2/coupons?min_id=three').join('\n')).toContain("query 'min_id=three'");
    expect(get('/v2/coupons/count')).toEqual([]);
  });
});

describe('product reviews (products_catalog.v3.yml)', () => {
  const review = { title: 'Great', date_reviewed: '2024-05-06T07:08:09+00:00', rating: 5 };
  const path = '/v3/catalog/products/12/reviews';

  it('checks review bodies closed, with the fields the base requires', () => {
    expect(post(path, { ...review, text: 'Works', email: 'a@example.com', name: 'A' })).toEqual([]);
    expect(post(path, { rating: 5 }).join('\n')).toContain("'title'");
    expect(post(path, { ...review, product_id: 12 }).join('\n')).toContain("('product_id')");
    expect(post(path, { ...review, rating: '5' }).join('\n')).toContain('data/rating');
    const put = spec.validateRequest({
      method: 'PUT',
      url: `https://api.bigcommerce.com/stores/abc123${path}/3`,
      headers,
      body: JSON.stringify({ rating: 4 }),
    });
    expect(put.join('\n')).toContain("'date_reviewed'");
  });
});
