import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSampleStore } from '../framework/sample-store.ts';
import { checkResource } from './testing/spec.ts';
import { wcClient } from './testing/signed-fetch.ts';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from './woocommerce-emulator.ts';

/**
 * The coupons routes (GET/POST coupons, coupons/{id}, coupons/batch) as a real WooCommerce 11.0.1
 * store answers them (real-store/observed-behaviour.ts checks the same on a real store).
 */

type Obj = Record<string, unknown>;
const counts = { products: 6, customers: 3, orders: 6 };

function client(emu: RunningWooCommerceEmulator) {
  return wcClient({
    baseUrl: emu.url,
    consumerKey: emu.consumerKey,
    consumerSecret: emu.consumerSecret,
  });
}

describe('WooCommerce emulator coupons of a seeded store', () => {
  let emu: RunningWooCommerceEmulator;
  let wc: ReturnType<typeof client>;
  const sample = generateSampleStore(counts);
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({ seed: counts });
    wc = client(emu);
  });
  afterAll(async () => {
    await emu.close();
  });

  it("holds the sample's coupons, lists drafts only when asked, and answers the route's schema", async () => {
    const listed = await wc.call('GET', '/coupons', { query: { per_page: 100 } });
    const all = await wc.call('GET', '/coupons', {
      query: { per_page: 100, status: 'any', context: 'edit', orderby: 'id', order: 'asc' },
    });
    const coupons = all.body as Obj[];
    expect(coupons.map((c) => c.code)).toEqual(sample.coupons.map((c) => c.code.toLowerCase()));
    // A draft is neither listed without a status nor found by its code.
    expect((listed.body as Obj[]).map((c) => c.code)).not.toContain('staff-only');
    expect((listed.body as Obj[]).length).toBe(sample.coupons.length - 1);
    expect((await wc.call('GET', '/coupons', { query: { code: 'STAFF-ONLY' } })).body).toEqual([]);
    for (const coupon of coupons)
      expect(checkResource('/wc/v3/coupons', coupon), String(coupon.code)).toEqual([]);
    const staff = coupons.find((c) => c.code === 'staff-only') as Obj;
    expect(staff).toMatchObject({
      status: 'draft',
      discount_type: 'percent',
      amount: '30.00',
      usage_limit: 50,
      email_restrictions: ['*@staff.example.com'],
    });
    const products = (await wc.call('GET', '/products', { query: { per_page: 100 } }))
      .body as Obj[];
    const bySku = new Map(products.map((p) => [p.sku, p.id]));
    const restricted = sample.products.slice(0, 2).map((p) => bySku.get(p.sku));
    expect(staff.product_ids).toEqual(restricted);
    const five = coupons.find((c) => c.code === 'fiveoffeach') as Obj;
    expect(five).toMatchObject({ discount_type: 'fixed_product', limit_usage_to_x_items: 3 });
    expect((five.product_categories as number[]).length).toBe(1);
    const spring = coupons.find((c) => c.code === 'spring15') as Obj;
    expect(spring).toMatchObject({
      minimum_amount: '75.00',
      maximum_amount: '0.00',
      usage_limit: 500,
      usage_limit_per_user: null,
      date_expires_gmt: '2023-05-31T23:59:59',
      date_created_gmt: '2023-02-20T12:30:00',
    });
    const used = sample.orders.filter((o) => o.discount?.code === 'SPRING15').length;
    expect(spring.usage_count).toBe(used);
  });

  it('has no coupons when empty', async () => {
    const empty = await startWooCommerceEmulator({ seed: 'empty' });
    try {
      const r = await client(empty).call('GET', '/coupons', { query: { status: 'any' } });
      expect(r.body).toEqual([]);
    } finally {
      await empty.close();
    }
  });
});

describe('WooCommerce emulator coupon writes', () => {
  let emu: RunningWooCommerceEmulator;
  let wc: ReturnType<typeof client>;
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({ seed: 'empty' });
    wc = client(emu);
  });
  afterAll(async () => {
    await emu.close();
  });

  it('keeps codes and e-mail restrictions lower case and refuses a code taken in any case', async () => {
    const created = await wc.call('POST', '/coupons', {
      body: {
        code: 'Summer10',
        amount: '10',
        discount_type: 'percent',
        email_restrictions: ['Anna@Example.com', '*@Staff.example.com'],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      code: 'summer10',
      amount: '10.00',
      email_restrictions: ['anna@example.com', '*@staff.example.com'],
    });
    for (const code of ['SUMMER10', ' summer10 ']) {
      const again = await wc.call('POST', '/coupons', { body: { code } });
      expect(again.status, code).toBe(400);
      expect(again.body).toMatchObject({
        code: 'woocommerce_rest_coupon_code_already_exists',
        message: 'The coupon code already exists',
      });
    }
    // Only a published coupon takes its code: a draft of it may exist beside it.
    const draft = await wc.call('POST', '/coupons', {
      body: { code: 'summer10', status: 'draft' },
    });
    expect(draft.status).toBe(400);
    const first = await wc.call('POST', '/coupons', { body: { code: 'autumn', status: 'draft' } });
    const second = await wc.call('POST', '/coupons', { body: { code: 'autumn' } });
    expect([first.status, second.status]).toEqual([201, 201]);
  });

  it('refuses invalid input the way WooCommerce does', async () => {
    const missing = await wc.call('POST', '/coupons', { body: { amount: '5' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'rest_missing_callback_param' });
    const empty = await wc.call('POST', '/coupons', { body: { code: ' ' } });
    expect(empty.body).toMatchObject({ code: 'woocommerce_rest_empty_coupon_code' });
    const kind = await wc.call('POST', '/coupons', {
      body: { code: 'k1', discount_type: 'bogus' },
    });
    expect(kind.status).toBe(400);
    expect(kind.body).toMatchObject({ code: 'rest_invalid_param' });
    const limit = await wc.call('POST', '/coupons', { body: { code: 'k2', usage_limit: 'abc' } });
    expect(limit.body).toMatchObject({ code: 'rest_invalid_param' });
  });

  it('sets the expiry only through date_expires, clears it with an empty string, ignores null', async () => {
    const r = await wc.call('POST', '/coupons', {
      body: { code: 'exp', date_expires: '2027-03-31T12:30:00+02:00' },
    });
    const id = (r.body as Obj).id as number;
    expect(r.body).toMatchObject({
      date_expires: '2027-03-31T10:30:00',
      date_expires_gmt: '2027-03-31T10:30:00',
    });
    const kept = await wc.call('PUT', `/coupons/${id}`, { body: { date_expires: null } });
    expect((kept.body as Obj).date_expires_gmt).toBe('2027-03-31T10:30:00');
    const cleared = await wc.call('PUT', `/coupons/${id}`, { body: { date_expires: '' } });
    expect((cleared.body as Obj).date_expires_gmt).toBeNull();
  });

  it('drops an e-mail restriction that is no address and answers the rest by position', async () => {
    const r = await wc.call('POST', '/coupons', {
      body: { code: 'mails', email_restrictions: ['not-an-address', 'ok@example.com'] },
    });
    expect((r.body as Obj).email_restrictions).toEqual({ '1': 'ok@example.com' });
  });

  it('writes through coupons/batch with an answer per item, unchecked types included', async () => {
    const existing = await wc.call('POST', '/coupons', { body: { code: 'batch-old' } });
    const id = (existing.body as Obj).id as number;
    const r = await wc.call('POST', '/coupons/batch', {
      body: {
        create: [
          { code: 'batch-new', amount: '3', usage_limit: 'abc' },
          { code: 'BATCH-OLD' },
          { amount: '1' },
        ],
        update: [
          { id, amount: '7', minimum_amount: '20' },
          { id: 999999, amount: '1' },
          { id, discount_type: 'nope' },
        ],
      },
    });
    expect(r.status).toBe(200);
    const body = r.body as { create: Obj[]; update: Obj[] };
    expect(body.create[0]).toMatchObject({ code: 'batch-new', amount: '3.00', usage_limit: null });
    expect(body.create[1]).toMatchObject({
      id: 0,
      error: { code: 'woocommerce_rest_coupon_code_already_exists' },
    });
    expect(body.create[2]).toMatchObject({
      error: { code: 'woocommerce_rest_empty_coupon_code' },
    });
    expect(body.update[0]).toMatchObject({ id, amount: '7.00', minimum_amount: '20.00' });
    expect(body.update[1]).toMatchObject({
      id: 999999,
      error: { code: 'woocommerce_rest_shop_coupon_invalid_id' },
    });
    expect(body.update[2]).toMatchObject({ error: { code: 'coupon_invalid_discount_type' } });
    const tooMany = await wc.call('POST', '/coupons/batch', {
      body: { create: Array.from({ length: 101 }, (_, i) => ({ code: `c${i}` })) },
    });
    expect(tooMany.status).toBe(413);
  });

  it('refuses to apply an expired coupon or one whose minimum spend the order is under', async () => {
    await wc.call('POST', '/coupons', {
      body: { code: 'gone', amount: '5', date_expires: '2020-01-01T00:00:00Z' },
    });
    await wc.call('POST', '/coupons', {
      body: { code: 'big', amount: '5', minimum_amount: '1000' },
    });
    for (const [code, message] of [
      ['gone', 'Coupon &quot;gone&quot; has expired.'],
      ['big', 'The minimum spend for coupon &quot;big&quot; is 1000.'],
    ]) {
      const order = await wc.call('POST', '/orders', {
        body: {
          line_items: [{ product_id: -1, name: 'Thing', quantity: 1, total: '10', subtotal: '10' }],
          coupon_lines: [{ code }],
        },
      });
      expect(order.status, code).toBe(400);
      expect(order.body).toMatchObject({ code: 'woocommerce_rest_invalid_coupon', message });
    }
  });
});
