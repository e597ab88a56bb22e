import type { Coupon } from '@replatform/canonical/coupon';
import { couponSchema } from '@replatform/canonical/coupon';
import { couponDefaults } from '@replatform/canonical/defaults';
import { describe, expect, it } from 'vitest';
import {
  couponToCanonical,
  dayBoundary,
  ruleConditions,
  rulePayload,
  storeDay,
  type CouponReadContext,
  type CouponWriteContext,
} from './coupon-mapping.ts';
import type { Json } from './native.ts';

const combine = 'Magento\\SalesRule\\Model\\Rule\\Condition\\Combine';
const address = 'Magento\\SalesRule\\Model\\Rule\\Condition\\Address';
const productCombine = 'Magento\\SalesRule\\Model\\Rule\\Condition\\Product\\Combine';
const product = 'Magento\\SalesRule\\Model\\Rule\\Condition\\Product';

const coupon = (over: Partial<Coupon> = {}): Coupon => ({
  ...couponDefaults(),
  id: '7',
  code: 'SAVE10',
  discountType: 'percent',
  percentOff: 10,
  amountOff: null,
  createdAt: null,
  ...over,
});
const usd = (amount: number) => ({ amount, currency: 'USD' });

const writing: CouponWriteContext = {
  currency: 'USD',
  timeZone: 'America/Chicago',
  websiteIds: [1],
  customerGroupIds: [0, 1, 2, 3],
  skuOf: (id) => ({ '11': 'TEE-1', '12': 'TEE-2' })[id],
  categoryOf: (id) => ({ '3': '30', '4': '40' })[id],
};

const reading: CouponReadContext = {
  currency: 'USD',
  timeZone: 'America/Chicago',
  idsBySku: new Map([
    ['tee-1', '11'],
    ['tee-2', '12'],
  ]),
};

function written(record: Coupon): Json {
  const payload = rulePayload(record, writing);
  if ('error' in payload) throw new Error(payload.error);
  return payload.rule;
}

/** What a store answers for a rule this connector wrote: the payload with its ids. */
const stored = (rule: Json, code: string, extra: Json = {}): Json => ({
  ...rule,
  rule_id: 7,
  coupon: {
    coupon_id: 70,
    rule_id: 7,
    code,
    times_used: rule.times_used,
    is_primary: true,
    created_at: '2024-01-02 03:04:05',
  },
  ...extra,
});

function read(native: Json): Coupon {
  const result = couponToCanonical(native, reading);
  if ('reason' in result) throw new Error(result.reason);
  expect(couponSchema.safeParse(result.record).success).toBe(true);
  return result.record;
}

describe('Magento coupon mapping', () => {
  it.each([
    ['percent', { discountType: 'percent', percentOff: 12.5, amountOff: null }, 'by_percent', 12.5],
    [
      'fixed_cart',
      { discountType: 'fixed_cart', percentOff: null, amountOff: usd(1500) },
      'cart_fixed',
      15,
    ],
    [
      'fixed_product',
      { discountType: 'fixed_product', percentOff: null, amountOff: usd(250) },
      'by_fixed',
      2.5,
    ],
  ] as const)('writes and reads back a %s coupon', (_kind, over, action, amount) => {
    const record = coupon(over);
    const rule = written(record);
    expect(rule).toMatchObject({
      name: 'SAVE10',
      simple_action: action,
      discount_amount: amount,
      coupon_type: 'SPECIFIC_COUPON',
      use_auto_generation: false,
      website_ids: [1],
      customer_group_ids: [0, 1, 2, 3],
      simple_free_shipping: '0',
    });
    const back = read(stored(rule, 'SAVE10'));
    expect(back).toEqual({ ...record, createdAt: '2024-01-02T03:04:05Z' });
  });

  it('writes a free-shipping-only code as a cart_fixed rule of 0 with free shipping for the whole shipment', () => {
    const record = coupon({
      discountType: 'fixed_cart',
      percentOff: null,
      amountOff: usd(0),
      freeShipping: true,
    });
    const rule = written(record);
    expect(rule).toMatchObject({
      simple_action: 'cart_fixed',
      discount_amount: 0,
      simple_free_shipping: '2',
    });
    expect(read(stored(rule, 'SAVE10'))).toMatchObject({
      discountType: 'fixed_cart',
      amountOff: usd(0),
      freeShipping: true,
    });
    // Free shipping for the matching items only is free shipping too.
    expect(read(stored({ ...rule, simple_free_shipping: '1' }, 'SAVE10')).freeShipping).toBe(true);
  });

  it('writes limits: uses, uses per customer, items, spend, individual use and the days it works', () => {
    const record = coupon({
      usageLimit: 500,
      usageLimitPerCustomer: 1,
      usageCount: 42,
      itemLimit: 3,
      individualUse: true,
      enabled: false,
      minimumSpend: usd(7500),
      maximumSpend: usd(50000),
      startsAt: '2023-03-01T00:00:00-06:00',
      expiresAt: '2023-05-31T23:59:59-05:00',
      description: 'Spring',
    });
    const rule = written(record);
    expect(rule).toMatchObject({
      uses_per_coupon: 500,
      uses_per_customer: 1,
      times_used: 42,
      discount_qty: 3,
      stop_rules_processing: true,
      is_active: false,
      from_date: '2023-03-01',
      to_date: '2023-05-31',
      description: 'Spring',
      condition: {
        condition_type: combine,
        aggregator_type: 'all',
        value: '1',
        conditions: [
          {
            condition_type: address,
            attribute_name: 'base_subtotal',
            operator: '>=',
            value: '75.00',
          },
          {
            condition_type: address,
            attribute_name: 'base_subtotal',
            operator: '<=',
            value: '500.00',
          },
        ],
      },
    });
    expect(rulePayload(record, writing)).toMatchObject({ warnings: [] });
    expect(read(stored(rule, 'SAVE10'))).toEqual({ ...record, createdAt: '2024-01-02T03:04:05Z' });
  });

  it('keeps the day of a time of day, with a warning, and a code that stops at midnight stops the day before', () => {
    const payload = rulePayload(
      coupon({ startsAt: '2023-03-01T15:00:00Z', expiresAt: '2023-06-01T05:00:00Z' }),
      writing,
    );
    if ('error' in payload) throw new Error(payload.error);
    // 2023-06-01T05:00Z is midnight in Chicago: the last day it works is May 31.
    expect(payload.rule).toMatchObject({ from_date: '2023-03-01', to_date: '2023-05-31' });
    expect(payload.warnings).toEqual([expect.stringContaining('(startsAt)')]);
    const late = rulePayload(coupon({ expiresAt: '2023-05-31T12:00:00Z' }), writing);
    expect('warnings' in late && late.warnings).toEqual([expect.stringContaining('(expiresAt)')]);
  });

  it('reads days as the start and end of the day in the store’s time zone', () => {
    expect(dayBoundary('2023-03-01', 'America/Chicago', false)).toBe('2023-03-01T00:00:00-06:00');
    expect(dayBoundary('2023-05-31', 'America/Chicago', true)).toBe('2023-05-31T23:59:59-05:00');
    expect(dayBoundary('2023-05-31', 'UTC', true)).toBe('2023-05-31T23:59:59+00:00');
    expect(storeDay('2023-06-01T04:59:59Z', 'America/Chicago')).toBe('2023-05-31');
  });

  it('limits the items through the id map: included products and categories in one any-group, excluded ones apart', () => {
    const record = coupon({
      productIds: ['11'],
      categoryIds: ['3', '4'],
      excludedProductIds: ['12'],
      excludedCategoryIds: ['4'],
    });
    const rule = written(record);
    expect(rule.action_condition).toEqual({
      condition_type: productCombine,
      aggregator_type: 'all',
      operator: '',
      value: '1',
      conditions: [
        {
          condition_type: productCombine,
          aggregator_type: 'any',
          operator: '',
          value: '1',
          conditions: [
            { condition_type: product, attribute_name: 'sku', operator: '()', value: 'TEE-1' },
            {
              condition_type: product,
              attribute_name: 'category_ids',
              operator: '()',
              value: '30, 40',
            },
          ],
        },
        { condition_type: product, attribute_name: 'sku', operator: '!()', value: 'TEE-2' },
        { condition_type: product, attribute_name: 'category_ids', operator: '!()', value: '40' },
      ],
    });
    // Read back in a store where the categories are 30 and 40 and the SKUs are its products'.
    const back = read(stored(rule, 'SAVE10'));
    expect(back).toMatchObject({
      productIds: ['11'],
      excludedProductIds: ['12'],
      categoryIds: ['30', '40'],
      excludedCategoryIds: ['40'],
    });
  });

  it('fails a coupon limited to a product or category that was not migrated', () => {
    expect(rulePayload(coupon({ productIds: ['11', '99'] }), writing)).toEqual({
      error: 'limited to products that were not migrated (source id 99): select Products too',
    });
    expect(rulePayload(coupon({ excludedCategoryIds: ['8'] }), writing)).toEqual({
      error: 'limited to categories that were not migrated (source id 8): select Categories too',
    });
  });

  it('fails a coupon whose amounts are in another currency than the store’s', () => {
    const euros = { amount: 500, currency: 'EUR' };
    expect(
      rulePayload(
        coupon({ discountType: 'fixed_cart', percentOff: null, amountOff: euros }),
        writing,
      ),
    ).toEqual({
      error:
        "its amount is in EUR and this store's base currency is USD: Magento would read it as USD",
    });
    expect(rulePayload(coupon({ minimumSpend: euros }), writing)).toMatchObject({
      error: expect.stringContaining('minimum spend is in EUR'),
    });
  });

  it('warns of what a rule cannot hold: allowed e-mails, sale items, custom fields', () => {
    const payload = rulePayload(
      coupon({
        allowedEmails: ['*@staff.example.com'],
        excludeSaleItems: true,
        metafields: [
          { namespace: 'woocommerce', key: 'note', value: 'x', type: 'string' },
          { namespace: 'magento', key: 'sort_order', value: '4', type: 'number' },
        ],
      }),
      writing,
    );
    if ('error' in payload) throw new Error(payload.error);
    expect(payload.warnings).toEqual([
      expect.stringContaining('(allowedEmails)'),
      expect.stringContaining('(excludeSaleItems)'),
      expect.stringContaining('custom field woocommerce.note not migrated'),
    ]);
    expect(payload.rule.sort_order).toBe(4);
  });

  it('keeps a rule’s own settings as magento metafields when they are not what a written rule gets', () => {
    const rule = written(coupon());
    const back = read(
      stored({ ...rule, name: 'Spring sale', sort_order: 2, store_labels: [] }, 'SAVE10'),
    );
    expect(back.metafields).toEqual([
      { namespace: 'magento', key: 'name', value: 'Spring sale', type: 'string' },
      { namespace: 'magento', key: 'sort_order', value: '2', type: 'number' },
    ]);
  });

  it('refuses generated pools, buy X get Y rules and a product limit on a SKU the store lacks', () => {
    const rule = stored(written(coupon()), 'SAVE10');
    expect(couponToCanonical({ ...rule, use_auto_generation: true }, reading)).toEqual({
      reason: expect.stringContaining('a pool of generated coupon codes'),
    });
    expect(couponToCanonical({ ...rule, simple_action: 'buy_x_get_y' }, reading)).toEqual({
      reason: expect.stringContaining('buy X get Y'),
    });
    const gone = {
      ...rule,
      action_condition: {
        condition_type: productCombine,
        aggregator_type: 'all',
        value: '1',
        conditions: [
          { condition_type: product, attribute_name: 'sku', operator: '()', value: 'OLD' },
        ],
      },
    };
    expect(couponToCanonical(gone, reading)).toEqual({
      reason: expect.stringContaining("product 'OLD', which the store does not have"),
    });
  });

  it('names the conditions the model cannot hold and keeps those it can', () => {
    const conditions = ruleConditions({
      condition: {
        condition_type: combine,
        aggregator_type: 'all',
        value: '1',
        conditions: [
          { condition_type: address, attribute_name: 'base_subtotal', operator: '>=', value: '20' },
          { condition_type: address, attribute_name: 'country_id', operator: '==', value: 'US' },
        ],
      },
      action_condition: {
        condition_type: productCombine,
        aggregator_type: 'all',
        value: '1',
        conditions: [
          { condition_type: product, attribute_name: 'sku', operator: '()', value: 'TEE-1' },
          { condition_type: product, attribute_name: 'category_ids', operator: '==', value: '3' },
          { condition_type: product, attribute_name: 'color', operator: '==', value: '5' },
        ],
      },
    });
    expect(conditions).toMatchObject({ minimumSpend: '20', skus: ['TEE-1'], categoryIds: ['3'] });
    expect(conditions.lost).toEqual([
      "cart condition 'country_id == US'",
      "item condition 'color == 5'",
      'item limits that must all hold at once (the model allows an item matching any of them)',
    ]);
    // A tree whose conditions must be false is not a list of limits: all of it is reported.
    expect(
      ruleConditions({
        condition: {
          condition_type: combine,
          aggregator_type: 'all',
          value: '0',
          conditions: [
            {
              condition_type: address,
              attribute_name: 'base_subtotal',
              operator: '>=',
              value: '9',
            },
            { condition_type: address, attribute_name: 'weight', operator: '>=', value: '9' },
          ],
        },
      }),
    ).toMatchObject({ minimumSpend: null, lost: [expect.stringContaining('cart conditions')] });
  });
});
