import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSON_SCHEMA, load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { couponSchema as canonicalCoupon, type Coupon } from '@replatform/canonical/coupon';
import { couponDefaults } from '@replatform/canonical/defaults';
import { BigCommerceSpec } from '@replatform/emulators/bigcommerce/openapi-validator';
import { projectSpecsDir } from '@replatform/emulators/bigcommerce/project-specs';
import { fieldsNamespace } from './extras.ts';
import { nativeLosses } from './losses.ts';
import { couponToBc, couponToCanonical, distinctName, type CouponRefs } from './map-coupon.ts';
import { bigCommerceNativeFields } from './native-fields.ts';
import { couponSchema } from './payloads.ts';

const spec = new BigCommerceSpec();

/** Checks a body against marketing.v2.yml, as the real API would see it. */
function specProblems(method: string, path: string, body: unknown): string[] {
  return spec.validateRequest({
    method,
    url: `https://api.bigcommerce.com/stores/abc123/v2${path}`,
    headers: {
      'X-Auth-Token': 't',
      Accept: 'application/json',
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  });
}

/** The coupons BigCommerce documents as the answer of GET /coupons. */
function documented(): Record<string, unknown>[] {
  const doc = load(readFileSync(join(projectSpecsDir(), 'marketing.v2.yml'), 'utf8'), {
    schema: JSON_SCHEMA,
  }) as {
    paths: Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>>;
  };
  const content = doc.paths['/coupons']?.get?.responses['200']?.content as {
    'application/json': { example: Record<string, unknown>[] };
  };
  return content['application/json'].example;
}

const read = (raw: Record<string, unknown>, currency = 'USD'): Coupon => {
  const coupon = couponToCanonical(couponSchema.parse(raw), raw, currency);
  expect(canonicalCoupon.safeParse(coupon).error).toBeUndefined();
  return coupon;
};

const usd = (amount: number) => ({ amount, currency: 'USD' });

const coupon = (over: Partial<Coupon>): Coupon => ({
  ...couponDefaults(),
  id: '7',
  code: 'SAVE10',
  discountType: 'percent',
  percentOff: 10,
  amountOff: null,
  createdAt: '2024-01-02T03:04:05.000Z',
  ...over,
});

/** Products 1 and 2 and category 5 were migrated (to 101, 102 and 505). */
const refs: CouponRefs = {
  currency: 'USD',
  productId: (id) => ({ '1': '101', '2': '102' })[id],
  categoryId: (id) => ({ '5': '505' })[id],
};

const written = (c: Coupon, r: CouponRefs = refs) => {
  const result = couponToBc(c, r);
  if (!result.ok) throw new Error(result.reason);
  expect(specProblems('POST', '/coupons', result.body)).toEqual([]);
  expect(specProblems('PUT', '/coupons/3', result.body)).toEqual([]);
  return result;
};

const refused = (c: Coupon, r: CouponRefs = refs) => {
  const result = couponToBc(c, r);
  if (result.ok) throw new Error(`written: ${JSON.stringify(result.body)}`);
  return result.reason;
};

describe('BigCommerce coupons -> canonical', () => {
  it('reads the documented examples', () => {
    const [five, location] = documented().map((raw) => read(raw));
    expect(five).toMatchObject({
      id: '1',
      code: 'S2549JM0Y',
      description: '$5 off',
      discountType: 'fixed_cart',
      amountOff: usd(500),
      percentOff: null,
      freeShipping: false,
      enabled: true,
      expiresAt: null,
      minimumSpend: null,
      usageLimit: null,
      usageCount: 2,
      productIds: [],
      categoryIds: [],
      createdAt: '2018-03-13T16:18:59.000Z',
      metafields: [],
    });
    // BigCommerce's own limits travel as its custom fields.
    expect(location).toMatchObject({ minimumSpend: usd(2500), usageLimit: 25 });
    expect(location?.metafields).toEqual([
      {
        namespace: fieldsNamespace,
        key: 'restricted_to',
        value: '{"countries":"AU"}',
        type: 'json',
      },
      {
        namespace: fieldsNamespace,
        key: 'shipping_methods',
        value: '["shipping_endicia"]',
        type: 'json',
      },
    ]);
  });

  it('reads each kind, limits and restrictions', () => {
    const base = {
      id: 9,
      name: 'Spring sale',
      code: 'SPRING',
      amount: '15.0000',
      min_purchase: '0.0000',
      expires: 'Wed, 31 May 2023 23:59:59 +0000',
      enabled: false,
      applies_to: { entity: 'categories', ids: [0] },
      num_uses: 4,
      max_uses: 0,
      max_uses_per_customer: 1,
      restricted_to: {},
      shipping_methods: [],
      date_created: 'Tue, 13 Mar 2018 16:18:59 +0000',
    };
    expect(read({ ...base, type: 'percentage_discount' })).toMatchObject({
      discountType: 'percent',
      percentOff: 15,
      amountOff: null,
      enabled: false,
      expiresAt: '2023-05-31T23:59:59.000Z',
      usageLimit: null,
      usageLimitPerCustomer: 1,
      usageCount: 4,
    });
    expect(
      read({ ...base, type: 'per_item_discount', applies_to: { entity: 'products', ids: [3, 4] } }),
    ).toMatchObject({
      discountType: 'fixed_product',
      amountOff: usd(1500),
      productIds: ['3', '4'],
      categoryIds: [],
    });
    expect(
      read({ ...base, type: 'per_total_discount', applies_to: { entity: 'categories', ids: [8] } }),
    ).toMatchObject({ discountType: 'fixed_cart', categoryIds: ['8'], productIds: [] });
    expect(read({ ...base, type: 'free_shipping', amount: '0.0000' }, 'JPY')).toMatchObject({
      discountType: 'fixed_cart',
      amountOff: { amount: 0, currency: 'JPY' },
      freeShipping: true,
    });
    // A name that is only the code is no description.
    expect(read({ ...base, type: 'percentage_discount', name: 'SPRING' }).description).toBe('');
  });

  it('does not read what the model has no place for', () => {
    const raw = documented()[0] ?? {};
    const parse = (over: Record<string, unknown>) => () =>
      couponToCanonical(couponSchema.parse({ ...raw, ...over }), raw, 'USD');
    expect(parse({ type: 'shipping_discount' })).toThrow(/shipping cost/);
    expect(parse({ type: 'promotion' })).toThrow(/promotion/);
    expect(parse({ applies_to: { entity: 'products', ids: [] } })).toThrow(/no products/);
  });

  it('declares every field of the documented coupons, and reports none as lost', () => {
    for (const raw of documented())
      expect(nativeLosses(raw, bigCommerceNativeFields.coupons ?? {})).toEqual([]);
  });
});

describe('canonical coupons -> BigCommerce', () => {
  it('writes each kind as BigCommerce takes it', () => {
    expect(written(coupon({ description: 'Ten percent off' })).body).toEqual({
      name: 'Ten percent off',
      code: 'SAVE10',
      type: 'percentage_discount',
      amount: '10',
      min_purchase: '0',
      expires: '',
      enabled: true,
      applies_to: { entity: 'categories', ids: [0] },
      max_uses: 0,
      max_uses_per_customer: 0,
    });
    const fixed = { percentOff: null, amountOff: usd(1550) };
    expect(
      written(coupon({ ...fixed, discountType: 'fixed_cart', minimumSpend: usd(7500) })).body,
    ).toMatchObject({
      name: 'SAVE10',
      type: 'per_total_discount',
      amount: '15.50',
      min_purchase: '75.00',
    });
    expect(written(coupon({ ...fixed, discountType: 'fixed_product' })).body).toMatchObject({
      type: 'per_item_discount',
      amount: '15.50',
    });
  });

  it('writes a free-shipping-only coupon as free_shipping, and reports free shipping beside a discount', () => {
    const free = written(
      coupon({
        discountType: 'fixed_cart',
        percentOff: null,
        amountOff: usd(0),
        freeShipping: true,
      }),
    );
    expect(free.body).toMatchObject({ type: 'free_shipping', amount: '0' });
    expect(free.warnings).toEqual([]);
    const both = written(coupon({ freeShipping: true }));
    expect(both.body).toMatchObject({ type: 'percentage_discount', amount: '10' });
    expect(both.warnings).toEqual([expect.stringMatching(/free shipping.*\(freeShipping\)$/)]);
  });

  it('writes the limits and the expiry date', () => {
    const body = written(
      coupon({
        enabled: false,
        expiresAt: '2027-12-31T23:59:59.000Z',
        usageLimit: 500,
        usageLimitPerCustomer: 1,
      }),
    ).body;
    expect(body).toMatchObject({
      enabled: false,
      expires: 'Fri, 31 Dec 2027 23:59:59 +0000',
      max_uses: 500,
      max_uses_per_customer: 1,
    });
  });

  it('limits the coupon to the migrated products or categories, through the id map', () => {
    expect(written(coupon({ productIds: ['1', '2'] })).body.applies_to).toEqual({
      entity: 'products',
      ids: [101, 102],
    });
    expect(written(coupon({ categoryIds: ['5'] })).body.applies_to).toEqual({
      entity: 'categories',
      ids: [505],
    });
  });

  it('fails a coupon whose restriction was not migrated, rather than write it broader', () => {
    expect(refused(coupon({ productIds: ['1', '3'] }))).toBe(
      'limited to products that were not migrated (3): select Products too',
    );
    expect(refused(coupon({ categoryIds: ['6'] }))).toBe(
      'limited to categories that were not migrated (6): select Categories too',
    );
    expect(refused(coupon({ productIds: ['1'], categoryIds: ['5'] }))).toMatch(
      /products and to categories/,
    );
  });

  it("fails a coupon in another currency than the store's", () => {
    const fixed = { discountType: 'fixed_cart' as const, percentOff: null };
    expect(refused(coupon({ ...fixed, amountOff: { amount: 500, currency: 'EUR' } }))).toMatch(
      /in EUR, the destination store's currency is USD/,
    );
    expect(refused(coupon({ minimumSpend: { amount: 500, currency: 'GBP' } }))).toMatch(/GBP/);
  });

  it('fails a code BigCommerce cannot take', () => {
    expect(refused(coupon({ code: '10%OFF' }))).toMatch(/'10%OFF' cannot be written/);
    expect(refused(coupon({ code: 'X'.repeat(51) }))).toMatch(/at most 50/);
    expect(written(coupon({ code: 'SPRING SALE_2024-B' })).body.code).toBe('SPRING SALE_2024-B');
  });

  it('names the coupon by its description, shortened to 100 characters', () => {
    const long = written(coupon({ description: `${'Very long '.repeat(12)}description` }));
    expect(String(long.body.name).length).toBeLessThanOrEqual(100);
    expect(long.warnings).toEqual([expect.stringMatching(/100 characters.*\(description\)$/)]);
    expect(distinctName('Ten percent off', 'SAVE10')).toBe('Ten percent off (SAVE10)');
    expect(distinctName('N'.repeat(100), 'SAVE10')).toHaveLength(100);
  });

  it("writes BigCommerce's own fields back and reports other custom fields", () => {
    const result = written(
      coupon({
        metafields: [
          {
            namespace: fieldsNamespace,
            key: 'restricted_to',
            value: '{"countries":"AU"}',
            type: 'json',
          },
          { namespace: 'woo', key: 'campaign', value: 'spring', type: 'single_line_text_field' },
        ],
      }),
    );
    expect(result.body.restricted_to).toEqual({ countries: 'AU' });
    expect(result.warnings).toEqual([expect.stringMatching(/woo\/campaign \(metafields\)$/)]);
  });

  it('reads back what it writes', () => {
    const source = coupon({
      description: 'Five off each',
      discountType: 'fixed_product',
      percentOff: null,
      amountOff: usd(500),
      minimumSpend: usd(2000),
      expiresAt: '2027-01-01T00:00:00.000Z',
      usageLimit: 10,
      categoryIds: ['5'],
    });
    const body = written(source).body;
    const back = read({
      ...body,
      id: 33,
      num_uses: 0,
      date_created: 'Tue, 13 Mar 2018 16:18:59 +0000',
    });
    expect(back).toMatchObject({
      description: 'Five off each',
      discountType: 'fixed_product',
      amountOff: usd(500),
      minimumSpend: usd(2000),
      expiresAt: '2027-01-01T00:00:00.000Z',
      usageLimit: 10,
      categoryIds: ['505'],
    });
  });
});
