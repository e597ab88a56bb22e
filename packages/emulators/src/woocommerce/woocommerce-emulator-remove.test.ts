import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wcClient } from './testing/signed-fetch.ts';
import {
  defaultApplicationPassword,
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from './woocommerce-emulator.ts';

/**
 * Deleting what a store holds (wc/v3 DELETE and batch deletes, wp/v2 DELETE), as a real
 * WooCommerce 11.0.1 store on WordPress 7.1 answers it (real-store/remove-behaviour.ts of the
 * connector checks the same on a real store): force or the bin, what goes with a record, what is
 * refused, and a missing id in a batch.
 */

type Obj = Record<string, unknown>;

describe('WooCommerce emulator deletes', () => {
  let emu: RunningWooCommerceEmulator;
  let wc: ReturnType<typeof wcClient>;
  let auth = '';
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({ seed: 'empty' });
    wc = wcClient({
      baseUrl: emu.url,
      consumerKey: emu.consumerKey,
      consumerSecret: emu.consumerSecret,
    });
    auth = `Basic ${Buffer.from(`admin:${defaultApplicationPassword}`).toString('base64')}`;
  });
  afterAll(async () => {
    await emu.close();
  });

  const wp = async (method: string, path: string, body?: Obj) => {
    const response = await fetch(`${emu.url}/wp-json/wp/v2${path}`, {
      method,
      headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as Obj };
  };
  const create = async (path: string, body: Obj) =>
    (await wc.call('POST', path, { body })).body as Obj & { id: number };

  it('puts a product in the bin without force and deletes it with force, then answers 404', async () => {
    const p = await create('/products', { name: 'Bin me', regular_price: '3' });
    const soft = await wc.call('DELETE', `/products/${p.id}`);
    expect(soft.status).toBe(200);
    expect(emu.store.counts().products).toBe(0);
    expect(emu.store.products.has(p.id)).toBe(true);
    expect(
      (await wc.call('DELETE', `/products/${p.id}`, { query: { force: 'true' } })).status,
    ).toBe(200);
    expect(emu.store.products.has(p.id)).toBe(false);
    expect(
      await wc.call('DELETE', `/products/${p.id}`, { query: { force: 'true' } }),
    ).toMatchObject({
      status: 404,
      body: { code: 'woocommerce_rest_product_invalid_id' },
    });
  });

  it('batch-deletes a variable product with its variations and reviews; a missing id is a 404 item', async () => {
    const attr = await create('/products/attributes', { name: 'Size', slug: 'size' });
    const v = await create('/products', {
      name: 'Shirt',
      type: 'variable',
      attributes: [{ id: attr.id, variation: true, options: ['S', 'M'] }],
    });
    await wc.call('POST', `/products/${v.id}/variations/batch`, {
      body: {
        create: [
          { regular_price: '1', attributes: [{ id: attr.id, option: 'S' }] },
          { regular_price: '2', attributes: [{ id: attr.id, option: 'M' }] },
        ],
      },
    });
    await create('/products/reviews', {
      product_id: v.id,
      review: 'Fine',
      reviewer: 'Ann',
      reviewer_email: 'ann@example.com',
      rating: 4,
    });
    expect(emu.store.variationsOf(v.id)).toHaveLength(2);
    const batch = await wc.call('POST', '/products/batch', { body: { delete: [v.id, 987654] } });
    const items = (batch.body as { delete: Obj[] }).delete;
    expect(items[0]).toMatchObject({ id: v.id, name: 'Shirt' });
    expect(items[1]).toEqual({
      id: 987654,
      error: {
        code: 'woocommerce_rest_product_invalid_id',
        message: 'Invalid ID.',
        data: { status: 404 },
      },
    });
    expect(emu.store.variationsOf(v.id)).toHaveLength(0);
    expect(emu.store.counts().reviews).toBe(0);
  });

  it('refuses more than 100 deletes in one batch', async () => {
    const ids = Array.from({ length: 101 }, (_, i) => 5000 + i);
    expect(await wc.call('POST', '/products/batch', { body: { delete: ids } })).toMatchObject({
      status: 413,
      body: { code: 'woocommerce_rest_request_entity_too_large' },
    });
  });

  it('deletes a customer who has orders, leaving the orders as guest orders', async () => {
    const c = await create('/customers', { email: 'buyer@example.com', first_name: 'B' });
    const o = await create('/orders', {
      customer_id: c.id,
      fee_lines: [{ name: 'Fee', total: '3' }],
    });
    expect(await wc.call('DELETE', `/customers/${c.id}`), 'customers take no bin').toMatchObject({
      status: 501,
      body: { code: 'woocommerce_rest_trash_not_supported' },
    });
    const batch = await wc.call('POST', '/customers/batch', { body: { delete: [c.id, 98765] } });
    const items = (batch.body as { delete: Obj[] }).delete;
    expect(items[0]).toMatchObject({ id: c.id });
    expect(items[1]).toMatchObject({ id: 98765, error: { code: 'wc_user_invalid_id' } });
    expect(emu.store.orders.get(o.id)?.customerId).toBe(0);
    // An order in the bin is deleted for good by a batch delete.
    await wc.call('DELETE', `/orders/${o.id}`);
    expect(emu.store.orders.get(o.id)?.status).toBe('trash');
    const orders = await wc.call('POST', '/orders/batch', { body: { delete: [o.id, 98765] } });
    expect((orders.body as { delete: Obj[] }).delete[1]).toMatchObject({
      error: { code: 'woocommerce_rest_shop_order_invalid_id', data: { status: 404 } },
    });
    expect(emu.store.orders.has(o.id)).toBe(false);
  });

  it('puts a coupon in the bin without force', async () => {
    const c = await create('/coupons', { code: 'bin10', amount: '1' });
    expect((await wc.call('DELETE', `/coupons/${c.id}`)).status).toBe(200);
    expect(emu.store.coupons.get(c.id)?.status).toBe('trash');
    const batch = await wc.call('POST', '/coupons/batch', { body: { delete: [c.id, 98765] } });
    expect((batch.body as { delete: Obj[] }).delete[1]).toMatchObject({
      error: { code: 'woocommerce_rest_shop_coupon_invalid_id', data: { status: 404 } },
    });
    expect(emu.store.coupons.has(c.id)).toBe(false);
  });

  it('deletes terms only with force, moves children up, and refuses the default category', async () => {
    const tag = await create('/products/tags', { name: 'Linen' });
    expect(await wc.call('DELETE', `/products/tags/${tag.id}`)).toMatchObject({
      status: 501,
      body: { code: 'woocommerce_rest_trash_not_supported' },
    });
    const tags = await wc.call('POST', '/products/tags/batch', {
      body: { delete: [tag.id, 98765] },
    });
    expect((tags.body as { delete: Obj[] }).delete[1]).toMatchObject({
      error: { code: 'woocommerce_rest_term_invalid', data: { status: 404 } },
    });
    const parent = await create('/products/categories', { name: 'Parent' });
    const child = await create('/products/categories', { name: 'Child', parent: parent.id });
    await wc.call('DELETE', `/products/categories/${parent.id}`, { query: { force: 'true' } });
    expect(((await wc.call('GET', `/products/categories/${child.id}`)).body as Obj).parent).toBe(0);
    const batch = await wc.call('POST', '/products/categories/batch', {
      body: { delete: [emu.store.defaultCategoryId] },
    });
    expect((batch.body as { delete: Obj[] }).delete[0]).toMatchObject({
      error: { code: 'woocommerce_rest_cannot_delete' },
    });
  });

  it('deletes an attribute without force, and its terms with it', async () => {
    const attr = await create('/products/attributes', { name: 'Color' });
    const red = await create(`/products/attributes/${attr.id}/terms`, { name: 'Red' });
    expect(
      await wc.call('DELETE', `/products/attributes/${attr.id}/terms/${red.id}`),
    ).toMatchObject({ status: 501 });
    expect((await wc.call('DELETE', `/products/attributes/${attr.id}`)).status).toBe(200);
    expect(emu.store.attributes.has(attr.id)).toBe(false);
    expect(
      await wc.call('DELETE', `/products/attributes/${attr.id}/terms/${red.id}`, {
        query: { force: 'true' },
      }),
    ).toMatchObject({ status: 404, body: { code: 'woocommerce_rest_taxonomy_invalid' } });
  });

  it('wp/v2: a page in the bin keeps its children; deleted for good, they move up', async () => {
    const parent = (await wp('POST', '/pages', { title: 'Par', status: 'publish' })).body;
    const kid = (await wp('POST', '/pages', { title: 'Kid', status: 'publish', parent: parent.id }))
      .body;
    expect((await wp('DELETE', `/pages/${String(parent.id)}`)).body).toMatchObject({
      status: 'trash',
    });
    expect((await wp('GET', `/pages/${String(kid.id)}?context=edit`)).body.parent).toBe(parent.id);
    expect((await wp('DELETE', `/pages/${String(parent.id)}?force=true`)).body).toMatchObject({
      deleted: true,
      previous: { id: parent.id },
    });
    expect((await wp('GET', `/pages/${String(kid.id)}?context=edit`)).body.parent).toBe(0);
    expect(await wp('DELETE', `/pages/${String(parent.id)}?force=true`)).toMatchObject({
      status: 404,
      body: { code: 'rest_post_invalid_id' },
    });
  });

  it('wp/v2: terms need force; the default category is refused; media need force', async () => {
    const cat = (await wp('POST', '/categories', { name: 'News' })).body;
    expect(await wp('DELETE', `/categories/${String(cat.id)}`)).toMatchObject({
      status: 501,
      body: { code: 'rest_trash_not_supported' },
    });
    expect((await wp('DELETE', `/categories/${String(cat.id)}?force=true`)).body).toMatchObject({
      deleted: true,
    });
    expect(await wp('DELETE', `/categories/${String(cat.id)}?force=true`)).toMatchObject({
      status: 404,
      body: { code: 'rest_term_invalid' },
    });
    expect(await wp('DELETE', '/categories/1?force=true')).toMatchObject({
      status: 403,
      body: { code: 'rest_cannot_delete' },
    });
    const upload = await fetch(`${emu.url}/wp-json/wp/v2/media`, {
      method: 'POST',
      headers: {
        authorization: auth,
        'content-type': 'image/png',
        'content-disposition': 'attachment; filename="a.png"',
      },
      body: Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        'base64',
      ),
    });
    const media = (await upload.json()) as Obj;
    expect(await wp('DELETE', `/media/${String(media.id)}`)).toMatchObject({ status: 501 });
    expect((await wp('DELETE', `/media/${String(media.id)}?force=true`)).body).toMatchObject({
      deleted: true,
      previous: { id: media.id },
    });
    expect(await wp('DELETE', `/media/${String(media.id)}?force=true`)).toMatchObject({
      status: 404,
    });
  });
});
