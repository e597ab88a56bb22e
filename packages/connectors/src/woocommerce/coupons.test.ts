import { describe, expect, it } from 'vitest';
import { checkRequest } from '@replatform/emulators/woocommerce/testing/spec';
import { couponBody, type CouponRefs } from './from-canonical.ts';
import { markers } from './markers.ts';
import { coupon, usd } from './test-records.ts';
import { couponToCanonical } from './to-canonical.ts';
import { wcCouponSchema } from './wc-schemas.ts';

/** Coupons between WooCommerce's answers and bodies and the canonical model. */

const answer = (fields: Record<string, unknown>) =>
  wcCouponSchema.parse({
    id: 41,
    code: 'spring15',
    amount: '15.00',
    status: 'publish',
    date_created: '2023-02-20T13:30:00',
    date_created_gmt: '2023-02-20T12:30:00',
    discount_type: 'fixed_cart',
    description: 'Spring',
    date_expires: null,
    date_expires_gmt: null,
    usage_count: 2,
    individual_use: false,
    product_ids: [],
    excluded_product_ids: [],
    usage_limit: null,
    usage_limit_per_user: null,
    limit_usage_to_x_items: null,
    free_shipping: false,
    product_categories: [],
    excluded_product_categories: [],
    exclude_sale_items: false,
    minimum_amount: '0.00',
    maximum_amount: '0.00',
    email_restrictions: [],
    used_by: [],
    meta_data: [],
    ...fields,
  });

const refs = (over: Partial<CouponRefs> = {}): CouponRefs => ({
  currency: 'USD',
  product: (id) => ({ p1: '101', p2: '102' })[id],
  category: (id) => ({ c1: '201' })[id],
  now: Date.parse('2026-06-01T00:00:00Z'),
  ...over,
});

describe('WooCommerce coupons to canonical', () => {
  it('reads each kind, its limits and restrictions', () => {
    const fixed = couponToCanonical(
      answer({
        date_expires_gmt: '2023-05-31T23:59:59',
        minimum_amount: '75.00',
        usage_limit: 500,
        usage_limit_per_user: 1,
        individual_use: true,
        exclude_sale_items: true,
        product_ids: [7, 8],
        excluded_product_categories: [9],
        email_restrictions: ['*@staff.example.com'],
        meta_data: [
          { id: 1, key: 'campaign', value: 'spring' },
          { id: 2, key: markers.sourceId, value: '5' },
        ],
      }),
      'USD',
    );
    expect(fixed).toEqual({
      ok: true,
      losses: [],
      record: expect.objectContaining({
        id: '41',
        code: 'spring15',
        discountType: 'fixed_cart',
        percentOff: null,
        amountOff: usd(1500),
        enabled: true,
        startsAt: null,
        expiresAt: '2023-05-31T23:59:59.000Z',
        minimumSpend: usd(7500),
        maximumSpend: null,
        usageLimit: 500,
        usageLimitPerCustomer: 1,
        usageCount: 2,
        itemLimit: null,
        individualUse: true,
        excludeSaleItems: true,
        productIds: ['7', '8'],
        excludedCategoryIds: ['9'],
        allowedEmails: ['*@staff.example.com'],
        metafields: [
          { namespace: 'woocommerce', key: 'campaign', value: 'spring', type: 'string' },
        ],
        createdAt: '2023-02-20T12:30:00.000Z',
      }),
    });
    const percent = couponToCanonical(answer({ discount_type: 'percent', amount: '12.50' }), 'USD');
    expect(percent.ok && percent.record).toMatchObject({ percentOff: 12.5, amountOff: null });
    const each = couponToCanonical(
      answer({ discount_type: 'fixed_product', amount: '5.00', limit_usage_to_x_items: 3 }),
      'USD',
    );
    expect(each.ok && each.record).toMatchObject({ amountOff: usd(500), itemLimit: 3 });
    const shipping = couponToCanonical(answer({ amount: '0.00', free_shipping: true }), 'USD');
    expect(shipping.ok && shipping.record).toMatchObject({
      discountType: 'fixed_cart',
      amountOff: usd(0),
      freeShipping: true,
    });
  });

  it('reads every status but publish as switched off, and reports who used the coupon as not carried', () => {
    for (const status of ['draft', 'pending', 'private', 'future']) {
      const read = couponToCanonical(answer({ status }), 'USD');
      expect(read.ok && read.record.enabled, status).toBe(false);
    }
    const used = couponToCanonical(answer({ used_by: ['3', 'guest@example.com'] }), 'USD');
    expect(used.ok && used.losses.map((l) => l.field)).toEqual(['used_by']);
  });

  it('reads e-mail restrictions PHP answered as an object, and refuses a kind a plugin added', () => {
    const read = couponToCanonical(
      answer({ email_restrictions: { '1': 'ok@example.com' } }),
      'USD',
    );
    expect(read.ok && read.record.allowedEmails).toEqual(['ok@example.com']);
    const plugin = couponToCanonical(answer({ discount_type: 'recurring_percent' }), 'USD');
    expect(plugin).toMatchObject({ ok: false });
  });
});

describe('WooCommerce coupon bodies', () => {
  const valid = (body: Record<string, unknown>) =>
    checkRequest({
      method: 'POST',
      url: 'http://127.0.0.1/wp-json/wc/v3/coupons/batch',
      body: JSON.stringify({ create: [body] }),
    });

  it('writes each kind with its limits, restrictions through the destination ids, valid for the batch route', () => {
    const percent = couponBody(
      coupon('1', {
        code: 'VIP20',
        description: 'Regulars',
        percentOff: 20,
        expiresAt: '2027-03-31T12:30:00.000Z',
        maximumSpend: usd(50000),
        usageLimitPerCustomer: 2,
        individualUse: true,
        excludeSaleItems: true,
        productIds: ['p1'],
        excludedProductIds: ['p2'],
        categoryIds: ['c1'],
        allowedEmails: ['*@staff.example.com'],
        metafields: [{ namespace: 'shopify', key: 'custom.note', value: 'x', type: 'string' }],
      }),
      refs(),
    );
    expect(percent).toEqual({
      ok: true,
      warnings: [
        "WooCommerce keeps coupon codes in lower case: 'VIP20' is kept as 'vip20' (customers may type it in any case).",
      ],
      body: {
        code: 'VIP20',
        description: 'Regulars',
        discount_type: 'percent',
        amount: '20',
        free_shipping: false,
        status: 'publish',
        date_expires: '2027-03-31T12:30:00.000Z',
        minimum_amount: '',
        maximum_amount: '500',
        usage_limit: 0,
        usage_limit_per_user: 2,
        limit_usage_to_x_items: 0,
        individual_use: true,
        exclude_sale_items: true,
        product_ids: [101],
        excluded_product_ids: [102],
        product_categories: [201],
        excluded_product_categories: [],
        email_restrictions: ['*@staff.example.com'],
        meta_data: [{ key: 'shopify.custom.note', value: 'x' }],
      },
    });
    expect(percent.ok && valid(percent.body)).toEqual([]);
    const each = couponBody(
      coupon('2', {
        code: 'each',
        discountType: 'fixed_product',
        percentOff: null,
        amountOff: usd(550),
        itemLimit: 3,
        usageLimit: 40,
      }),
      refs(),
    );
    expect(each.ok && each.body).toMatchObject({
      discount_type: 'fixed_product',
      amount: '5.5',
      limit_usage_to_x_items: 3,
      usage_limit: 40,
      date_expires: '',
    });
    expect(each.ok && each.warnings).toEqual([]);
    const shipping = couponBody(
      coupon('3', {
        code: 'ship',
        discountType: 'fixed_cart',
        percentOff: null,
        amountOff: usd(0),
        freeShipping: true,
        minimumSpend: usd(5000),
        enabled: false,
      }),
      refs(),
    );
    expect(shipping.ok && shipping.body).toMatchObject({
      discount_type: 'fixed_cart',
      amount: '0',
      free_shipping: true,
      minimum_amount: '50',
      status: 'draft',
    });
    for (const written of [each, shipping]) expect(written.ok && valid(written.body)).toEqual([]);
  });

  it('fails a coupon limited to products or categories that were not migrated, exclusions too', () => {
    expect(couponBody(coupon('1', { productIds: ['p1', 'p9'] }), refs())).toEqual({
      ok: false,
      reason:
        'The coupon is limited to products or categories that were not migrated (product p9): select Products too, so the coupon does not apply to more than at the source.',
    });
    const excluded = couponBody(
      coupon('1', { excludedProductIds: ['p8'], excludedCategoryIds: ['c9'] }),
      refs(),
    );
    expect(excluded.ok === false && excluded.reason).toContain(
      '(excluded product p8, excluded category c9): select Products and Categories too',
    );
  });

  it("fails amounts in another currency than the destination's", () => {
    const euro = couponBody(
      coupon('1', {
        discountType: 'fixed_cart',
        percentOff: null,
        amountOff: { amount: 500, currency: 'EUR' },
      }),
      refs(),
    );
    expect(euro).toEqual({
      ok: false,
      reason:
        "The coupon's amounts are in EUR and the destination store's currency is USD; an amount off cannot be converted between currencies.",
    });
    const spend = couponBody(
      coupon('1', { minimumSpend: { amount: 100, currency: 'GBP' } }),
      refs(),
    );
    expect(spend.ok).toBe(false);
  });

  it('writes a coupon that starts later, or may be used 0 times, as a draft, and says why, as it says that usage limits start afresh', () => {
    const later = couponBody(
      coupon('1', { code: 'later', startsAt: '2027-01-01T00:00:00.000Z' }),
      refs(),
    );
    expect(later.ok && later.body.status).toBe('draft');
    expect(later.ok && later.warnings[0]).toContain('written as a draft');
    const started = couponBody(
      coupon('1', { code: 'started', startsAt: '2020-01-01T00:00:00.000Z' }),
      refs(),
    );
    expect(started.ok && started.body.status).toBe('publish');
    expect(started.ok && started.warnings).toEqual([
      "WooCommerce coupons have no start date; the coupon's start (2020-01-01T00:00:00.000Z) was not copied.",
    ]);
    const used = couponBody(
      coupon('1', { code: 'used', usageLimit: 500, usageLimitPerCustomer: 1, usageCount: 120 }),
      refs(),
    );
    expect(used.ok && used.warnings).toEqual([
      'The coupon was used 120 times at the source; WooCommerce counts its uses from 0 at the destination, so its limits (500 uses in all, 1 per customer) start afresh there.',
    ]);
    const never = couponBody(coupon('1', { code: 'never', usageLimit: 0 }), refs());
    expect(never.ok && never.body.status).toBe('draft');
  });

  it('fails an e-mail restriction WooCommerce would drop', () => {
    const bad = couponBody(
      coupon('1', { allowedEmails: ['ok@example.com', 'not an address'] }),
      refs(),
    );
    expect(bad.ok === false && bad.reason).toContain('(not an address)');
  });
});
