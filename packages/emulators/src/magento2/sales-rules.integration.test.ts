import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSampleStore } from '../framework/sample-store.ts';
import { adminSchema } from './admin-schema.ts';
import { startMagentoEmulator, type MagentoEmulator } from './magento-emulator.ts';
import { searchQuery, signedFetch, type SignedFetchOptions } from './testing/signed-fetch.ts';

const sample = { seed: 3, products: 6, customers: 2, orders: 4 };

/** A rule as a REST client sends it: every field the description marks as required. */
const rule = (extra: Record<string, unknown> = {}) => ({
  rule: {
    name: 'Ten off',
    website_ids: [1],
    customer_group_ids: [0, 1],
    uses_per_customer: 0,
    is_active: true,
    stop_rules_processing: false,
    is_advanced: true,
    sort_order: 0,
    simple_action: 'by_percent',
    discount_amount: 10,
    discount_step: 0,
    apply_to_shipping: false,
    times_used: 0,
    is_rss: true,
    coupon_type: 'SPECIFIC_COUPON',
    use_auto_generation: false,
    uses_per_coupon: 0,
    ...extra,
  },
});
const coupon = (ruleId: number, code: string, extra: Record<string, unknown> = {}) => ({
  coupon: { rule_id: ruleId, code, times_used: 0, is_primary: true, type: 0, ...extra },
});

describe('Magento emulator cart price rules and coupons (integration, 127.0.0.1)', () => {
  let emulator: MagentoEmulator;
  let empty: MagentoEmulator;
  const spec = adminSchema();
  const on = (target: () => MagentoEmulator) => {
    return async (method: string, path: string, options: SignedFetchOptions = {}) => {
      const e = target();
      const answer = await signedFetch(e.url, e.credentials, method, path, options);
      if (answer.status === 200)
        expect(spec.checkResponse(method, `${e.url}${path}`, 200, answer.body)).toEqual([]);
      return answer;
    };
  };
  const call = on(() => emulator);
  const callEmpty = on(() => empty);

  beforeAll(async () => {
    emulator = await startMagentoEmulator({ seed: sample });
    empty = await startMagentoEmulator({ seed: 'empty' });
  });
  afterAll(async () => {
    await emulator?.close();
    await empty?.close();
  });

  it('is seeded with the sample coupons as rules for a specific coupon, and an empty store has none', async () => {
    const rules = await call('GET', `/rest/V1/salesRules/search?${searchQuery({})}`);
    const coupons = await call('GET', `/rest/V1/coupons/search?${searchQuery({})}`);
    const codes = generateSampleStore(sample).coupons.map((c) => c.code);
    expect((coupons.body as { items: { code: string }[] }).items.map((c) => c.code)).toEqual(codes);
    const items = (rules.body as { items: Record<string, unknown>[] }).items;
    expect(items.map((r) => r.coupon_type)).toEqual(codes.map(() => 'SPECIFIC_COUPON'));
    const spring = items.find((r) => r.description === '15.00 off orders over 75.00 in spring.');
    expect(spring).toMatchObject({
      simple_action: 'cart_fixed',
      discount_amount: 15,
      from_date: '2023-03-01',
      to_date: '2023-05-31',
      uses_per_coupon: 500,
      condition: {
        conditions: [{ attribute_name: 'base_subtotal', operator: '>=', value: '75.00' }],
      },
    });
    const five = items.find((r) => r.simple_action === 'by_fixed');
    expect(five?.action_condition).toMatchObject({
      conditions: [{ attribute_name: 'category_ids', operator: '()' }],
    });
    expect((await callEmpty('GET', `/rest/V1/salesRules/search?${searchQuery({})}`)).body).toEqual(
      expect.objectContaining({ items: [], total_count: 0 }),
    );
    expect(emulator.store.countCanonical('coupons')).toBe(codes.length);
    expect(empty.store.countCanonical('coupons')).toBe(0);
  });

  it('searches rules by their stored coupon type and coupons by code, whatever its case', async () => {
    await call('POST', '/rest/V1/salesRules', { body: rule({ coupon_type: 'NO_COUPON' }) });
    const specific = await call(
      'GET',
      `/rest/V1/salesRules/search?${searchQuery({ groups: [[['coupon_type', '2,3', 'in']]] })}`,
    );
    expect((specific.body as { total_count: number }).total_count).toBe(6);
    const found = await call(
      'GET',
      `/rest/V1/coupons/search?${searchQuery({ groups: [[['code', 'welcome10']]] })}`,
    );
    expect((found.body as { items: { code: string }[] }).items.map((c) => c.code)).toEqual([
      'WELCOME10',
    ]);
  });

  it('creates a rule and its coupon, which takes the rule’s limits and end date', async () => {
    const created = await callEmpty('POST', '/rest/V1/salesRules', {
      body: rule({ uses_per_coupon: 5, uses_per_customer: 1, to_date: '2030-01-31' }),
    });
    expect(created.status).toBe(200);
    const ruleId = (created.body as { rule_id: number }).rule_id;
    expect(created.body).toMatchObject({
      condition: { condition_type: 'Magento\\SalesRule\\Model\\Rule\\Condition\\Combine' },
      action_condition: {
        condition_type: 'Magento\\SalesRule\\Model\\Rule\\Condition\\Product\\Combine',
      },
    });
    const saved = await callEmpty('POST', '/rest/V1/coupons', {
      body: coupon(ruleId, 'SAVE10', { usage_limit: 99, created_at: '2024-02-03 04:05:06' }),
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      rule_id: ruleId,
      code: 'SAVE10',
      usage_limit: 5,
      usage_per_customer: 1,
      expiration_date: '2030-01-31',
      is_primary: true,
      created_at: '2024-02-03 04:05:06',
    });
    // A rule update merges into the stored rule and reaches its coupon's copies.
    const updated = await callEmpty('PUT', `/rest/V1/salesRules/${ruleId}`, {
      body: { rule: { ...rule().rule, uses_per_coupon: 7 } },
    });
    expect(updated.body).toMatchObject({ uses_per_coupon: 7, to_date: '2030-01-31' });
    const couponId = (saved.body as { coupon_id: number }).coupon_id;
    const again = await callEmpty('GET', `/rest/V1/coupons/${couponId}`);
    expect(again.body).toMatchObject({ usage_limit: 7 });
  });

  it('refuses a code that exists, whatever its case, as Magento does', async () => {
    const created = await callEmpty('POST', '/rest/V1/salesRules', { body: rule() });
    const ruleId = (created.body as { rule_id: number }).rule_id;
    expect(
      (await callEmpty('POST', '/rest/V1/coupons', { body: coupon(ruleId, 'DUP') })).status,
    ).toBe(200);
    const other = await callEmpty('POST', '/rest/V1/salesRules', { body: rule() });
    const duplicate = await callEmpty('POST', '/rest/V1/coupons', {
      body: coupon((other.body as { rule_id: number }).rule_id, 'dup'),
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ message: 'Coupon with the same code already exists.' });
    const second = await callEmpty('POST', '/rest/V1/coupons', { body: coupon(ruleId, 'DUP-2') });
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ message: 'Unique constraint violation found' });
  });

  it.each([
    [
      'a field the rule interface does not have',
      '/rest/V1/salesRules',
      rule({ coupon_code: 'X' }),
      'Property "%1" does not have accessor method "%2" in class "%3".',
    ],
    [
      'an action Magento does not know',
      '/rest/V1/salesRules',
      rule({ simple_action: 'by_magic' }),
      'Invalid value of "%value" provided for the %fieldName field.',
    ],
    [
      'a coupon type Magento does not know',
      '/rest/V1/salesRules',
      rule({ coupon_type: 'SOME_COUPON' }),
      'Invalid value of "%value" provided for the %fieldName field.',
    ],
    [
      'a customer group the store does not have',
      '/rest/V1/salesRules',
      rule({ customer_group_ids: [42] }),
      'Invalid value of "%value" provided for the %fieldName field.',
    ],
    [
      'a rule without a name',
      '/rest/V1/salesRules',
      rule({ name: ' ' }),
      '"%fieldName" is required. Enter and try again.',
    ],
    [
      'an end before the start',
      '/rest/V1/salesRules',
      rule({ from_date: '2030-02-01', to_date: '2030-01-01' }),
      'End Date must follow Start Date.',
    ],
    [
      'a condition of a model Magento does not have',
      '/rest/V1/salesRules',
      rule({
        condition: { condition_type: 'Vendor\\Rule\\Condition', operator: '==', value: '1' },
      }),
      'Condition type "%1" is not supported.',
    ],
    [
      'a coupon of a rule that does not exist',
      '/rest/V1/coupons',
      coupon(9999, 'NOPE'),
      'Error occurred when saving coupon: %1',
    ],
  ])('refuses %s with a 400', async (_label, path, body, message) => {
    const answer = await callEmpty('POST', path, { body });
    expect(answer.status).toBe(400);
    expect((answer.body as { message: string }).message).toBe(message);
  });

  it('refuses a coupon for a rule without coupons, or a typed code for a generated pool', async () => {
    const none = await callEmpty('POST', '/rest/V1/salesRules', {
      body: rule({ coupon_type: 'NO_COUPON' }),
    });
    const refused = await callEmpty('POST', '/rest/V1/coupons', {
      body: coupon((none.body as { rule_id: number }).rule_id, 'AUTO-1'),
    });
    expect(refused.body).toEqual({
      message: 'Error occurred when saving coupon: %1',
      parameters: ['Specified rule does not allow coupons'],
    });
    const pool = await callEmpty('POST', '/rest/V1/salesRules', {
      body: rule({ coupon_type: 'AUTO' }),
    });
    expect(pool.body).toMatchObject({ use_auto_generation: true });
    const typed = await callEmpty('POST', '/rest/V1/coupons', {
      body: coupon((pool.body as { rule_id: number }).rule_id, 'TYPED'),
    });
    expect(typed.body).toEqual({
      message: 'Error occurred when saving coupon: %1',
      parameters: ['Specified rule only allows auto generated coupons'],
    });
  });

  it('answers 404 for a rule or coupon that does not exist', async () => {
    expect((await callEmpty('GET', '/rest/V1/salesRules/777')).status).toBe(404);
    expect((await callEmpty('PUT', '/rest/V1/coupons/777', { body: coupon(1, 'X') })).status).toBe(
      404,
    );
  });

  it('guards the routes with the Magento_SalesRule::quote resource', async () => {
    const narrow = await startMagentoEmulator({
      seed: 'empty',
      resources: ['Magento_Catalog::products'],
    });
    try {
      const answer = await signedFetch(
        narrow.url,
        narrow.credentials,
        'GET',
        `/rest/V1/coupons/search?${searchQuery({})}`,
      );
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        message: "The consumer isn't authorized to access %resources.",
        parameters: { resources: 'Magento_SalesRule::quote' },
      });
    } finally {
      await narrow.close();
    }
  });
});
