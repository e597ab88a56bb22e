import type { Coupon } from '@replatform/canonical/coupon';
import { couponDefaults } from '@replatform/canonical/defaults';
import type { EntityType } from '@replatform/canonical/entities';
import { adminSchema } from '@replatform/emulators/magento2/admin-schema';
import {
  startMagentoEmulator,
  type MagentoEmulator,
} from '@replatform/emulators/magento2/magento-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection, ConnectorHttpRequest, IdMap, Page } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { magentoConnector } from './magento-connector.ts';

const recorded: ConnectorHttpRequest[][] = [];

function connect(emulator: MagentoEmulator): Connection {
  const http = loopbackHttp();
  recorded.push(http.requests);
  return magentoConnector.connect({ storeUrl: emulator.url, ...emulator.credentials }, { http });
}

const coupon = (id: string, code: string, over: Partial<Coupon> = {}): Coupon => ({
  ...couponDefaults(),
  id,
  code,
  discountType: 'percent',
  percentOff: 10,
  amountOff: null,
  createdAt: '2024-05-06T07:08:09Z',
  ...over,
});

/** An id map of what an earlier run wrote, plus the coupons this test writes. */
class TestIdMap implements IdMap {
  readonly entries = new Map<string, string>();
  get(entity: EntityType, sourceId: string) {
    return this.entries.get(`${entity}:${sourceId}`);
  }
  set(entity: EntityType, sourceId: string, destinationId: string) {
    this.entries.set(`${entity}:${sourceId}`, destinationId);
  }
}

describe('Magento coupons (integration with the emulator)', () => {
  let destination: MagentoEmulator;
  let connection: Connection;
  const idMap = new TestIdMap();
  let productId: number;
  let productSku: string;
  let categoryId: number;

  beforeAll(async () => {
    // A store whose catalogue an earlier run wrote, without coupons yet.
    destination = await startMagentoEmulator({
      seed: { seed: 9, products: 3, customers: 1, orders: 0, coupons: false },
    });
    connection = connect(destination);
    const product = [...destination.store.catalog.products.values()][0];
    const category = [...destination.store.catalog.categories.values()].find((c) => c.level >= 2);
    if (!product || !category) throw new Error('the sample store has a product and a category');
    productId = product.id;
    productSku = product.sku;
    categoryId = category.id;
    idMap.set('products', 'p1', String(productId));
    idMap.set('categories', 'c1', String(categoryId));
  });
  afterAll(async () => {
    await destination?.close();
  });

  const rules = () => destination.store.salesRules;
  const ruleOf = (code: string) => {
    const found = rules().byCode(code);
    return found ? rules().getRule(found.rule_id) : undefined;
  };

  it('writes each coupon once as a rule with its primary coupon, and fails or skips the others with their reason', async () => {
    // The merchant's own code, already in the store.
    const theirs = rules().saveRule({
      rule: {
        name: 'Merchant',
        website_ids: [1],
        customer_group_ids: [1],
        coupon_type: 'SPECIFIC_COUPON',
      },
    });
    rules().saveCoupon({ coupon: { rule_id: theirs.rule_id, code: 'HOUSE', is_primary: true } });
    const records = [
      coupon('1', 'TEE10', { productIds: ['p1'], usageLimit: 5, usageCount: 2 }),
      coupon('2', 'CAT5', {
        discountType: 'fixed_product',
        percentOff: null,
        amountOff: { amount: 500, currency: 'USD' },
        categoryIds: ['c1'],
        itemLimit: 3,
        freeShipping: true,
        minimumSpend: { amount: 2000, currency: 'USD' },
        allowedEmails: ['*@staff.example.com'],
      }),
      coupon('3', 'GONE', { productIds: ['not-migrated'] }),
      coupon('4', 'EUROS', {
        discountType: 'fixed_cart',
        percentOff: null,
        amountOff: { amount: 500, currency: 'EUR' },
      }),
      coupon('5', 'house'),
      coupon('6', 'tee10'),
    ];
    const outcomes = await connection.write('coupons', records, idMap);
    expect(outcomes.map((o) => [o.sourceId, o.outcome])).toEqual([
      ['1', 'created'],
      ['2', 'created'],
      ['3', 'failed'],
      ['4', 'failed'],
      ['5', 'skipped'],
      ['6', 'failed'],
    ]);
    expect(outcomes[2]?.reason).toBe(
      'limited to products that were not migrated (source id not-migrated): select Products too',
    );
    expect(outcomes[3]?.reason).toContain('EUR');
    expect(outcomes[4]).toMatchObject({
      destinationId: String(theirs.rule_id),
      reason: 'already at destination, left unchanged',
    });
    expect(outcomes[5]?.reason).toContain('another coupon in this batch has the code');
    expect(outcomes[1]?.warnings).toEqual([expect.stringContaining('(allowedEmails)')]);
    expect(ruleOf('HOUSE')).toMatchObject({ name: 'Merchant', customer_group_ids: [1] });

    const tee = ruleOf('TEE10');
    expect(String(tee?.rule_id)).toBe(outcomes[0]?.destinationId);
    expect(tee).toMatchObject({
      coupon_type: 2,
      simple_action: 'by_percent',
      uses_per_coupon: 5,
      customer_group_ids: [...destination.store.customers.groups.keys()],
      website_ids: [1],
      action_condition: {
        conditions: [{ attribute_name: 'sku', operator: '()', value: productSku }],
      },
    });
    expect(rules().byCode('TEE10')).toMatchObject({
      is_primary: true,
      times_used: 2,
      usage_limit: 5,
      created_at: '2024-05-06 07:08:09',
    });
    expect(ruleOf('CAT5')).toMatchObject({
      simple_action: 'by_fixed',
      discount_amount: 5,
      discount_qty: 3,
      simple_free_shipping: '2',
      condition: {
        conditions: [{ attribute_name: 'base_subtotal', operator: '>=', value: '20.00' }],
      },
      action_condition: {
        conditions: [{ attribute_name: 'category_ids', operator: '()', value: String(categoryId) }],
      },
    });
    for (const [i, o] of outcomes.entries())
      if (o.outcome !== 'failed') idMap.set('coupons', records[i]?.id ?? '', o.destinationId ?? '');
  });

  it('updates what it wrote on a run again, and puts back a coupon the rule update lost', async () => {
    const before = destination.store.countCanonical('coupons');
    const teeRule = ruleOf('TEE10');
    const lost = rules().byCode('CAT5');
    // PUT /V1/salesRules/{id} can empty a rule's coupon code (magento/magento2#35298).
    if (lost) rules().coupons.delete(lost.coupon_id);
    const outcomes = await connection.write(
      'coupons',
      [
        coupon('1', 'TEE10', { productIds: ['p1'], usageLimit: 9, usageCount: 3 }),
        coupon('2', 'CAT5', {
          discountType: 'fixed_product',
          percentOff: null,
          amountOff: { amount: 500, currency: 'USD' },
          categoryIds: ['c1'],
        }),
      ],
      idMap,
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['updated', 'created']);
    expect(ruleOf('TEE10')?.rule_id).toBe(teeRule?.rule_id);
    expect(rules().byCode('TEE10')).toMatchObject({ usage_limit: 9, times_used: 3 });
    expect(destination.store.countCanonical('coupons')).toBe(before);
    // The coupon without a code in the store was put back on its own rule, not on a new one.
    expect(outcomes[1]?.destinationId).toBe(idMap.get('coupons', '2'));
  });

  it('takes up a rule an earlier run left without its coupon instead of creating another', async () => {
    const orphan = rules().saveRule({
      rule: {
        name: 'HALFWAY',
        website_ids: [1],
        customer_group_ids: [0],
        coupon_type: 'SPECIFIC_COUPON',
      },
    });
    const before = destination.store.countCanonical('coupons');
    const [outcome] = await connection.write('coupons', [coupon('9', 'HALFWAY')], idMap);
    expect(outcome).toMatchObject({ outcome: 'created', destinationId: String(orphan.rule_id) });
    expect(destination.store.countCanonical('coupons')).toBe(before);
    // A rule that generates its codes and has none yet is the merchant's pool, not taken up.
    const pool = rules().saveRule({
      rule: {
        name: 'POOLED',
        website_ids: [1],
        customer_group_ids: [0],
        coupon_type: 'SPECIFIC_COUPON',
        use_auto_generation: true,
      },
    });
    const [pooled] = await connection.write('coupons', [coupon('10', 'POOLED')], idMap);
    expect(pooled?.outcome).toBe('created');
    expect(pooled?.destinationId).not.toBe(String(pool.rule_id));
    expect(rules().getRule(pool.rule_id).customer_group_ids).toEqual([0]);
    expect(ruleOf('HALFWAY')?.customer_group_ids).toEqual([
      ...destination.store.customers.groups.keys(),
    ]);
  });

  it('reads rules for a specific coupon, refusing pools and reporting what the model cannot hold', async () => {
    const pool = rules().saveRule({
      rule: { name: 'Pool', website_ids: [1], customer_group_ids: [1], coupon_type: 'AUTO' },
    });
    rules().saveRule({
      rule: {
        name: 'Automatic',
        website_ids: [1],
        customer_group_ids: [1],
        coupon_type: 'NO_COUPON',
      },
    });
    const pages: Page<'coupons'>[] = [];
    for await (const page of connection.read('coupons', null)) pages.push(page);
    const records = pages.flatMap((p) => p.records);
    const rejected = pages.flatMap((p) => p.rejected ?? []);
    const losses = pages.flatMap((p) => p.losses ?? []);
    expect(records.map((r) => r.code).sort()).toEqual([
      'CAT5',
      'HALFWAY',
      'HOUSE',
      'POOLED',
      'TEE10',
    ]);
    expect(rejected.map((r) => r.reason)).toEqual([
      expect.stringContaining('generated coupon codes'),
      expect.stringContaining('generated coupon codes'),
    ]);
    expect(rejected.map((r) => r.sourceId)).toContain(String(pool.rule_id));
    expect(await connection.count('coupons')).toBe(records.length + rejected.length);
    const house = String(ruleOf('HOUSE')?.rule_id);
    expect(losses.filter((l) => l.sourceId === house).map((l) => l.field)).toEqual([
      'customer_group_ids',
    ]);
    expect(records.find((r) => r.code === 'TEE10')).toMatchObject({
      productIds: [String(productId)],
      usageLimit: 9,
      usageCount: 3,
      createdAt: '2024-05-06T07:08:09Z',
    });
  });

  it('sent only requests that admin-schema-2.4.9.yaml describes', () => {
    const spec = adminSchema();
    const requests = recorded.flat();
    expect(requests.some((r) => r.method === 'POST' && r.url.includes('/V1/salesRules'))).toBe(
      true,
    );
    expect([...new Set(requests.flatMap((r) => spec.checkRequest(r)))]).toEqual([]);
  });
});
