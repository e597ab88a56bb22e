import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSampleStore } from '../framework/sample-store.ts';
import {
  startBigCommerceEmulator,
  type RunningBigCommerceEmulator,
} from './bigcommerce-emulator.ts';
import { BigCommerceSpec } from './openapi-validator.ts';

const spec = new BigCommerceSpec();
const sample = { seed: 11, products: 12, customers: 4, orders: 8 };

interface Answer {
  status: number;
  body: unknown;
}

/** Requests checked against marketing.v2.yml, and answers too when the platform accepted them. */
function client(emulator: RunningBigCommerceEmulator, token = emulator.accessToken) {
  return async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const url = `${emulator.url}/stores/${emulator.storeHash}${path}`;
    const headers = {
      'X-Auth-Token': token,
      Accept: 'application/json',
      'Content-Type': 'application/json',
    };
    const text = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(url, { method, headers, body: text });
    const raw = await response.text();
    const parsed: unknown = raw ? JSON.parse(raw) : undefined;
    if (response.status < 300) {
      expect(spec.validateRequest({ method, url, headers, body: text })).toEqual([]);
      expect(spec.validateResponse(method, url, { status: response.status, body: parsed })).toEqual(
        [],
      );
    }
    return { status: response.status, body: parsed };
  };
}

type Coupon = Record<string, unknown> & { id: number; code: string };
const list = (answer: Answer) => answer.body as Coupon[];

const newCoupon = {
  name: 'Ten off',
  code: 'TENOFF',
  type: 'per_total_discount',
  amount: '10',
  applies_to: { entity: 'categories', ids: [0] },
};

describe('BigCommerce emulator: coupons (marketing.v2)', () => {
  let store: RunningBigCommerceEmulator;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    store = await startBigCommerceEmulator({ seed: sample, plan: 'unlimited' });
    call = client(store);
  });
  afterAll(async () => {
    await store.close();
  });

  it("seeds the sample's coupons, limited to the seeded products and categories", async () => {
    const generated = generateSampleStore(sample);
    const coupons = list(await call('GET', '/v2/coupons?limit=250'));
    expect(coupons.map((c) => c.code)).toEqual(generated.coupons.map((c) => c.code));
    expect((await call('GET', '/v2/coupons/count')).body).toEqual({ count: 6 });
    const byCode = new Map(coupons.map((c) => [c.code, c]));
    expect(byCode.get('WELCOME10')).toMatchObject({
      name: 'Ten percent off a first order.',
      type: 'percentage_discount',
      amount: '10.0000',
      max_uses_per_customer: 1,
      applies_to: { entity: 'categories', ids: [0] },
    });
    expect(byCode.get('SPRING15')).toMatchObject({
      type: 'per_total_discount',
      min_purchase: '75.0000',
      expires: 'Wed, 31 May 2023 23:59:59 +0000',
      max_uses: 500,
    });
    expect(byCode.get('SHIPFREE')).toMatchObject({ type: 'free_shipping', amount: '0.0000' });
    expect(byCode.get('FIVEOFFEACH')).toMatchObject({ type: 'per_item_discount' });
    const staff = byCode.get('STAFF-ONLY');
    expect(staff).toMatchObject({ enabled: false, applies_to: { entity: 'products' } });
    const products = (
      (await call('GET', '/v3/catalog/products?limit=250&include_fields=sku')).body as {
        data: { id: number; sku: string }[];
      }
    ).data;
    const staffSkus = (staff?.applies_to as { ids: number[] }).ids.map(
      (id) => products.find((p) => p.id === id)?.sku,
    );
    expect(staffSkus).toEqual(generated.products.slice(0, 2).map((p) => p.sku));
    // The orders that used a code name the store's coupon.
    const used = generated.orders.findIndex((o) => o.discount);
    const orderCoupons = list(await call('GET', `/v2/orders/${used + 1}/coupons`));
    expect(orderCoupons[0]?.coupon_id).toBe(
      byCode.get(generated.orders[used]?.discount?.code ?? '')?.id,
    );
  });

  it('finds coupons by code, id and type', async () => {
    const found = list(await call('GET', '/v2/coupons?code=vip20'));
    expect(found.map((c) => c.code)).toEqual(['VIP20']);
    const byId = list(await call('GET', `/v2/coupons?id=${found[0]?.id}`));
    expect(byId.map((c) => c.code)).toEqual(['VIP20']);
    const percent = list(await call('GET', '/v2/coupons?type=percentage_discount'));
    expect(percent.map((c) => c.code).sort()).toEqual(['STAFF-ONLY', 'VIP20', 'WELCOME10']);
    const page = list(await call('GET', '/v2/coupons?page=2&limit=4'));
    expect(page).toHaveLength(2);
  });

  it('creates, updates and deletes a coupon', async () => {
    const created = await call('POST', '/v2/coupons', {
      ...newCoupon,
      min_purchase: '20',
      expires: 'Fri, 31 Dec 2027 23:59:59 +0000',
      max_uses: 100,
    });
    expect(created.status).toBe(201);
    const coupon = created.body as Coupon;
    expect(coupon).toMatchObject({
      code: 'TENOFF',
      amount: '10.0000',
      min_purchase: '20.0000',
      enabled: true,
      num_uses: 0,
      max_uses: 100,
    });
    const updated = await call('PUT', `/v2/coupons/${coupon.id}`, {
      ...newCoupon,
      amount: '12.5',
      enabled: false,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      amount: '12.5000',
      code: 'TENOFF',
      enabled: false,
      max_uses: 100,
    });
    // coupon_Base, which a PUT takes, requires the coupon whole.
    expect((await call('PUT', `/v2/coupons/${coupon.id}`, { enabled: true })).status).toBe(422);
    expect((await call('DELETE', `/v2/coupons/${coupon.id}`)).status).toBe(204);
    expect(list(await call('GET', '/v2/coupons?code=TENOFF'))).toEqual([]);
    expect((await call('PUT', `/v2/coupons/${coupon.id}`, newCoupon)).status).toBe(404);
  });

  it('refuses a second coupon with a code or a name already in use', async () => {
    const code = await call('POST', '/v2/coupons', { ...newCoupon, name: 'Other', code: 'vip20' });
    expect(code.status).toBe(409);
    expect(code.body).toEqual([
      {
        status: 409,
        message: expect.stringContaining("The coupon code 'vip20' is already in use"),
      },
    ]);
    const name = await call('POST', '/v2/coupons', {
      ...newCoupon,
      name: 'Twenty percent off for our regulars.',
    });
    expect(name.status).toBe(409);
    const first = list(await call('GET', '/v2/coupons?code=WELCOME10'))[0];
    const renamed = await call('PUT', `/v2/coupons/${first?.id}`, {
      ...newCoupon,
      code: 'SPRING15',
    });
    expect(renamed.status).toBe(409);
    expect(store.countStored('coupons')).toBe(6);
  });

  it('refuses invalid coupons with 422, as the description defines them', async () => {
    const refused = async (body: unknown) => {
      const answer = await call('POST', '/v2/coupons', body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      return JSON.stringify(answer.body);
    };
    const { applies_to: _appliesTo, ...noAppliesTo } = newCoupon;
    expect(await refused(noAppliesTo)).toContain('applies_to');
    const { name: _name, ...noName } = newCoupon;
    expect(await refused(noName)).toContain('name');
    expect(await refused({ ...newCoupon, code: 'TEN%OFF' })).toContain('code');
    expect(await refused({ ...newCoupon, code: 'X'.repeat(51) })).toContain('code');
    expect(await refused({ ...newCoupon, name: 'N'.repeat(101) })).toContain('name');
    expect(await refused({ ...newCoupon, type: 'buy_one_get_one' })).toContain('type');
    expect(await refused({ ...newCoupon, type: 'promotion' })).toContain('promotion');
    expect(await refused({ ...newCoupon, amount: 'ten' })).toContain('amount');
    expect(await refused({ ...newCoupon, type: 'percentage_discount', amount: '150' })).toContain(
      '100',
    );
    expect(await refused({ ...newCoupon, expires: '2027-12-31' })).toContain('RFC 2822');
    expect(
      await refused({ ...newCoupon, applies_to: { entity: 'products', ids: [987654] } }),
    ).toContain('987654');
    expect(await refused({ ...newCoupon, num_uses: 3 })).toContain('num_uses');
    // The validator refuses what the emulator refuses: a field the description does not declare.
    expect(
      spec.validateRequest({
        method: 'POST',
        url: `${store.url}/stores/${store.storeHash}/v2/coupons`,
        headers: {
          'X-Auth-Token': 't',
          Accept: 'application/json',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ ...newCoupon, num_uses: 3 }),
      }),
    ).toEqual([expect.stringContaining("('num_uses')")]);
    expect(store.countStored('coupons')).toBe(6);
  });

  it('needs the Marketing scope', async () => {
    const readOnly = await startBigCommerceEmulator({
      seed: 'empty',
      plan: 'unlimited',
      apiAccounts: [{ accessToken: 'reader', scopes: ['store_v2_marketing_read_only'] }],
    });
    const noMarketing = await startBigCommerceEmulator({
      seed: 'empty',
      plan: 'unlimited',
      apiAccounts: [{ accessToken: 'products', scopes: ['store_v2_products'] }],
    });
    try {
      const reader = client(readOnly, 'reader');
      expect(list(await reader('GET', '/v2/coupons'))).toEqual([]);
      expect((await reader('POST', '/v2/coupons', newCoupon)).status).toBe(403);
      expect((await client(noMarketing, 'products')('GET', '/v2/coupons')).status).toBe(403);
    } finally {
      await readOnly.close();
      await noMarketing.close();
    }
  });
});
