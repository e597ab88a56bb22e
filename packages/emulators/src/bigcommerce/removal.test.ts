import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  startBigCommerceEmulator,
  type RunningBigCommerceEmulator,
} from './bigcommerce-emulator.ts';
import { BigCommerceSpec } from './openapi-validator.ts';

/** The delete routes undo uses, with BigCommerce's rules: what cascades, what is refused. */

const spec = new BigCommerceSpec();

interface Answer {
  status: number;
  body: unknown;
}

function client(emulator: RunningBigCommerceEmulator) {
  return async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const url = `${emulator.url}/stores/${emulator.storeHash}${path}`;
    const headers = {
      'X-Auth-Token': emulator.accessToken,
      Accept: 'application/json',
      'Content-Type': 'application/json',
    };
    const text = body === undefined ? undefined : JSON.stringify(body);
    expect(spec.validateRequest({ method, url, headers, body: text })).toEqual([]);
    const response = await fetch(url, { method, headers, body: text });
    const raw = await response.text();
    return { status: response.status, body: raw ? (JSON.parse(raw) as unknown) : undefined };
  };
}

const data = (answer: Answer) => (answer.body as { data: Record<string, unknown>[] }).data;

describe('BigCommerce emulator deletes', () => {
  let store: RunningBigCommerceEmulator;
  let call: ReturnType<typeof client>;

  beforeEach(async () => {
    store = await startBigCommerceEmulator({
      seed: { seed: 3, products: 6, customers: 4, orders: 3 },
      plan: 'unlimited',
    });
    call = client(store);
  });
  afterEach(async () => {
    await store.close();
  });

  it('deletes products by id:in with their reviews, and needs a filter of at most 250 ids', async () => {
    const products = data(await call('GET', '/v3/catalog/products?limit=250'));
    const [first, second] = products.map((p) => Number(p.id));
    const review = await call('POST', `/v3/catalog/products/${first}/reviews`, {
      title: 'Good',
      rating: 5,
      date_reviewed: '2024-01-01T00:00:00Z',
    });
    expect(review.status).toBe(200);
    const reviewsBefore = store.countStored('reviews');

    expect(
      (await call('DELETE', `/v3/catalog/products?id:in=${first},${second},99999`)).status,
    ).toBe(204);
    expect(store.countStored('products')).toBe(products.length - 2);
    const reviewId = (review.body as { data: { id: number } }).data.id;
    expect((await call('GET', `/v3/catalog/products/${first}/reviews/${reviewId}`)).status).toBe(
      404,
    );
    expect(store.countStored('reviews')).toBeLessThan(reviewsBefore);

    // Without a filter nothing goes; more than 250 ids are refused.
    const before = store.countStored('products');
    expect((await call('DELETE', '/v3/catalog/products')).status).toBe(422);
    const many = Array.from({ length: 251 }, (_, i) => i + 1).join(',');
    expect((await call('DELETE', `/v3/catalog/products?id:in=${many}`)).status).toBe(422);
    expect(store.countStored('products')).toBe(before);
  });

  it('deletes a review alone, then answers 404 for it', async () => {
    const [product] = data(await call('GET', '/v3/catalog/products?limit=1'));
    const created = await call('POST', `/v3/catalog/products/${String(product?.id)}/reviews`, {
      title: 'Fine',
      rating: 4,
      date_reviewed: '2024-01-01T00:00:00Z',
    });
    const id = (created.body as { data: { id: number } }).data.id;
    const path = `/v3/catalog/products/${String(product?.id)}/reviews/${id}`;
    expect((await call('DELETE', path)).status).toBe(204);
    expect((await call('GET', path)).status).toBe(404);
    expect((await call('DELETE', path)).status).toBe(404);
  });

  it('deletes a category with its subtree through the trees API (202)', async () => {
    const made = await call('POST', '/v3/catalog/trees/categories', [
      { name: 'Parent Undo', tree_id: 1, parent_id: 0 },
    ]);
    const parent = Number(data(made)[0]?.category_id);
    const child = await call('POST', '/v3/catalog/trees/categories', [
      { name: 'Child Undo', tree_id: 1, parent_id: parent },
    ]);
    const childId = Number(data(child)[0]?.category_id);
    const before = store.countStored('categories');
    expect(
      (await call('DELETE', `/v3/catalog/trees/categories?category_id:in=${parent}`)).status,
    ).toBe(202);
    expect(store.countStored('categories')).toBe(before - 2);
    const left = data(
      await call('GET', `/v3/catalog/trees/categories?category_id:in=${parent},${childId}`),
    );
    expect(left).toEqual([]);
  });

  it('archives an order: no longer listed, counted or found, and a second delete is 404', async () => {
    const orders = (await call('GET', '/v2/orders?limit=250')).body as { id: number }[];
    const id = orders[0]?.id ?? 0;
    expect((await call('DELETE', `/v2/orders/${id}`)).status).toBe(204);
    expect(store.countStored('orders')).toBe(orders.length - 1);
    expect(((await call('GET', '/v2/orders/count')).body as { count: number }).count).toBe(
      orders.length - 1,
    );
    expect((await call('GET', `/v2/orders/${id}`)).status).toBe(404);
    expect((await call('DELETE', `/v2/orders/${id}`)).status).toBe(404);
  });

  it('deletes customers by id:in (204 for unknown ids too) and requires id:in', async () => {
    const customers = data(await call('GET', '/v3/customers?limit=250'));
    const id = Number(customers[0]?.id);
    expect((await call('DELETE', `/v3/customers?id:in=${id},99999`)).status).toBe(204);
    expect(store.countStored('customers')).toBe(customers.length - 1);
    expect((await call('DELETE', `/v3/customers?id:in=${id}`)).status).toBe(204);
  });

  it('deletes customer attributes with every value customers held of them', async () => {
    const made = await call('POST', '/v3/customers/attributes', [
      { name: 'Undo size', type: 'string' },
    ]);
    const attribute = Number(data(made)[0]?.id);
    const customer = await call('POST', '/v3/customers', [
      {
        email: 'undo@example.com',
        first_name: 'Undo',
        last_name: 'Owner',
        attributes: [{ attribute_id: attribute, attribute_value: 'M' }],
      },
    ]);
    const customerId = Number(data(customer)[0]?.id);
    const values = data(
      await call('GET', `/v3/customers/attribute-values?attribute_id:in=${attribute}`),
    );
    expect(values.map((v) => v.customer_id)).toEqual([customerId]);
    expect((await call('DELETE', `/v3/customers/attributes?id:in=${attribute}`)).status).toBe(204);
    expect(
      data(await call('GET', `/v3/customers/attribute-values?attribute_id:in=${attribute}`)),
    ).toEqual([]);
    const names = data(await call('GET', '/v3/customers/attributes')).map((a) => a.name);
    expect(names).not.toContain('Undo size');
  });

  it('deletes brands, coupons, pages and blog posts one by one, 404 once gone', async () => {
    const brand = await call('POST', '/v3/catalog/brands', { name: 'Undo Brand' });
    const brandPath = `/v3/catalog/brands/${(brand.body as { data: { id: number } }).data.id}`;
    expect((await call('DELETE', brandPath)).status).toBe(204);
    expect((await call('DELETE', brandPath)).status).toBe(404);

    const post = await call('POST', '/v2/blog/posts', { title: 'Undo post', body: '<p>x</p>' });
    const postPath = `/v2/blog/posts/${(post.body as { id: number }).id}`;
    expect((await call('DELETE', postPath)).status).toBe(204);
    expect((await call('DELETE', postPath)).status).toBe(404);

    const page = await call('POST', '/v3/content/pages', {
      name: 'Undo page',
      type: 'page',
      body: '<p>x</p>',
    });
    const pageId = (page.body as { data: { id: number } }).data.id;
    expect((await call('DELETE', `/v3/content/pages?id:in=${pageId}`)).status).toBe(204);
    expect((await call('DELETE', `/v3/content/pages?id:in=${pageId}`)).status).toBe(404);
  });
});
