import { describe, expect, it } from 'vitest';
import { couponSchema as canonicalCoupon, type Coupon } from '@replatform/canonical/coupon';
import { couponDefaults } from '@replatform/canonical/defaults';
import { couponSchema, type ShopifyCoupon } from './documents.ts';
import { couponInput, type CouponContext } from './from-canonical.ts';
import { couponToCanonical } from './to-canonical.ts';

/** Coupons both ways: Shopify code discounts to the model, and the model to discount inputs. */

const page = <T>(nodes: T[]) => ({ pageInfo: { hasNextPage: false, endCursor: null }, nodes });
const usd = (amount: string) => ({ amount, currencyCode: 'USD' });
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- GraphQL inputs navigated in assertions
type Loose = Record<string, any>;

const common = {
  title: 'WELCOME10',
  startsAt: '2024-01-01T00:00:00Z',
  endsAt: null,
  createdAt: '2023-12-20T10:00:00Z',
  usageLimit: null,
  appliesOncePerCustomer: false,
  asyncUsageCount: 0,
  tags: [],
  codes: { nodes: [{ code: 'WELCOME10' }] },
  codesCount: { count: 1 },
  combinesWith: { orderDiscounts: true, productDiscounts: true, shippingDiscounts: true },
  context: { __typename: 'DiscountBuyerSelectionAll' },
  minimumRequirement: null,
};

function basic(overrides: Loose = {}, gets: Loose = {}): ShopifyCoupon {
  return couponSchema.parse({
    id: 'gid://shopify/DiscountCodeNode/1',
    discount: {
      __typename: 'DiscountCodeBasic',
      ...common,
      customerGets: {
        value: { __typename: 'DiscountPercentage', percentage: 0.1 },
        items: { __typename: 'AllDiscountItems' },
        ...gets,
      },
      ...overrides,
    },
    metafields: page([]),
  });
}

function read(node: ShopifyCoupon): Coupon {
  const mapped = couponToCanonical(node, 'USD');
  if ('rejected' in mapped) throw new Error(mapped.rejected);
  expect(canonicalCoupon.safeParse(mapped.record).success).toBe(true);
  return mapped.record;
}

describe('Shopify discount -> coupon', () => {
  it('reads a percentage off the order, named by its code, that combines with others', () => {
    expect(read(basic())).toEqual({
      ...couponDefaults(),
      id: 'gid://shopify/DiscountCodeNode/1',
      code: 'WELCOME10',
      discountType: 'percent',
      percentOff: 10,
      amountOff: null,
      startsAt: '2024-01-01T00:00:00.000Z',
      createdAt: '2023-12-20T10:00:00.000Z',
    });
  });

  it('reads an amount off the order or off each item, limits, dates and its title', () => {
    const coupon = read(
      basic(
        {
          title: '15 off in spring',
          endsAt: '2024-05-31T23:59:59Z',
          usageLimit: 500,
          appliesOncePerCustomer: true,
          asyncUsageCount: 12,
          tags: ['spring'],
          combinesWith: {
            orderDiscounts: false,
            productDiscounts: false,
            shippingDiscounts: false,
          },
          minimumRequirement: {
            __typename: 'DiscountMinimumSubtotal',
            greaterThanOrEqualToSubtotal: usd('75.0'),
          },
        },
        {
          value: { __typename: 'DiscountAmount', amount: usd('15.0'), appliesOnEachItem: false },
        },
      ),
    );
    expect(coupon).toMatchObject({
      description: '15 off in spring',
      discountType: 'fixed_cart',
      amountOff: { amount: 1500, currency: 'USD' },
      percentOff: null,
      expiresAt: '2024-05-31T23:59:59.000Z',
      usageLimit: 500,
      usageLimitPerCustomer: 1,
      usageCount: 12,
      individualUse: true,
      minimumSpend: { amount: 7500, currency: 'USD' },
      metafields: [{ namespace: 'shopify', key: 'tags', value: '["spring"]', type: 'json' }],
    });
    const each = read(
      basic(
        {},
        {
          value: { __typename: 'DiscountAmount', amount: usd('5.0'), appliesOnEachItem: true },
          items: {
            __typename: 'DiscountCollections',
            collections: page([{ id: 'gid://shopify/Collection/7' }]),
          },
        },
      ),
    );
    expect(each).toMatchObject({
      discountType: 'fixed_product',
      amountOff: { amount: 500, currency: 'USD' },
      categoryIds: ['gid://shopify/Collection/7'],
      productIds: [],
    });
  });

  it('reads a free shipping discount as a free-shipping-only coupon', () => {
    const node = couponSchema.parse({
      id: 'gid://shopify/DiscountCodeNode/2',
      discount: {
        __typename: 'DiscountCodeFreeShipping',
        ...common,
        codes: { nodes: [{ code: 'SHIPFREE' }] },
        combinesWith: { orderDiscounts: true, productDiscounts: true, shippingDiscounts: false },
        maximumShippingPrice: null,
        destinationSelection: { __typename: 'DiscountCountryAll', allCountries: true },
      },
      metafields: page([]),
    });
    expect(read(node)).toMatchObject({
      code: 'SHIPFREE',
      discountType: 'fixed_cart',
      amountOff: { amount: 0, currency: 'USD' },
      freeShipping: true,
      individualUse: false,
    });
  });

  it('reads product restrictions and the e-mail addresses of chosen customers', () => {
    const coupon = read(
      basic(
        {
          context: {
            __typename: 'DiscountCustomers',
            customers: [{ defaultEmailAddress: { emailAddress: 'ann@example.com' } }],
          },
        },
        {
          items: {
            __typename: 'DiscountProducts',
            products: page([{ id: 'gid://shopify/Product/3' }, { id: 'gid://shopify/Product/4' }]),
            productVariants: page([]),
          },
        },
      ),
    );
    expect(coupon.productIds).toEqual(['gid://shopify/Product/3', 'gid://shopify/Product/4']);
    expect(coupon.allowedEmails).toEqual(['ann@example.com']);
  });

  it('rejects what has no coupon form, and reports the codes beyond the first', () => {
    const bxgy = couponSchema.parse({
      id: 'gid://shopify/DiscountCodeNode/9',
      discount: { __typename: 'DiscountCodeBxgy' },
      metafields: page([]),
    });
    expect(couponToCanonical(bxgy, 'USD')).toEqual({
      rejected: expect.stringContaining("'buy X get Y' discount has no coupon form"),
    });
    const variants = basic(
      {},
      {
        items: {
          __typename: 'DiscountProducts',
          products: page([]),
          productVariants: page([{ id: 'gid://shopify/ProductVariant/5' }]),
        },
      },
    );
    expect(couponToCanonical(variants, 'USD')).toEqual({
      rejected: expect.stringContaining('single variants'),
    });
    const many = couponToCanonical(basic({ codesCount: { count: 3 } }), 'USD');
    expect('losses' in many && many.losses).toEqual([
      {
        field: 'discount.codesCount',
        reason: expect.stringContaining('3 codes'),
      },
    ]);
  });
});

const ctx = (overrides: Partial<CouponContext> = {}): CouponContext => ({
  currency: 'USD',
  now: Date.parse('2026-11-01T00:00:00Z'),
  productId: (id) => (id === 'p1' ? 'gid://shopify/Product/101' : undefined),
  collectionId: (id) => (id === 'c1' ? 'gid://shopify/Collection/201' : undefined),
  ...overrides,
});

const coupon = (overrides: Partial<Coupon> = {}): Coupon => ({
  ...couponDefaults(),
  id: '55',
  code: 'SAVE',
  discountType: 'percent',
  percentOff: 12.5,
  amountOff: null,
  createdAt: '2025-02-01T09:00:00.000Z',
  ...overrides,
});

function write(c: Coupon, context = ctx()) {
  const built = couponInput(c, context);
  if ('failure' in built) throw new Error(built.failure);
  return { ...built.input, input: built.input.input as Loose, warnings: built.warnings };
}

describe('coupon -> Shopify discount', () => {
  it('writes a percentage as a share off all items, open to every buyer, combining with others', () => {
    const { kind, input, warnings } = write(coupon());
    expect(kind).toBe('basic');
    expect(input).toEqual({
      title: 'SAVE',
      code: 'SAVE',
      startsAt: '2025-02-01T09:00:00.000Z',
      endsAt: null,
      usageLimit: null,
      appliesOncePerCustomer: false,
      context: { all: 'ALL' },
      combinesWith: { orderDiscounts: true, productDiscounts: true, shippingDiscounts: true },
      minimumRequirement: null,
      customerGets: { value: { percentage: 0.125 }, items: { all: true } },
    });
    expect(warnings).toEqual([]);
  });

  it('writes amounts off the order or each item, limits, dates and individual use', () => {
    const { input } = write(
      coupon({
        description: 'Spring',
        discountType: 'fixed_cart',
        percentOff: null,
        amountOff: { amount: 1500, currency: 'USD' },
        startsAt: '2026-03-01T00:00:00.000Z',
        expiresAt: '2026-05-31T23:59:59.000Z',
        minimumSpend: { amount: 7500, currency: 'USD' },
        usageLimit: 500,
        usageLimitPerCustomer: 1,
        individualUse: true,
      }),
    );
    expect(input).toMatchObject({
      title: 'Spring',
      startsAt: '2026-03-01T00:00:00.000Z',
      endsAt: '2026-05-31T23:59:59.000Z',
      usageLimit: 500,
      appliesOncePerCustomer: true,
      combinesWith: { orderDiscounts: false, productDiscounts: false, shippingDiscounts: false },
      minimumRequirement: { subtotal: { greaterThanOrEqualToSubtotal: '75.00' } },
      customerGets: {
        value: { discountAmount: { amount: '15.00', appliesOnEachItem: false } },
        items: { all: true },
      },
    });
    const each = write(
      coupon({
        discountType: 'fixed_product',
        percentOff: null,
        amountOff: { amount: 500, currency: 'USD' },
        categoryIds: ['c1'],
      }),
    );
    expect(each.input.customerGets).toEqual({
      value: { discountAmount: { amount: '5.00', appliesOnEachItem: true } },
      items: { collections: { add: ['gid://shopify/Collection/201'] } },
    });
  });

  it('writes a free-shipping-only coupon as a free shipping discount', () => {
    const { kind, input } = write(
      coupon({
        discountType: 'fixed_cart',
        percentOff: null,
        amountOff: { amount: 0, currency: 'USD' },
        freeShipping: true,
        minimumSpend: { amount: 5000, currency: 'USD' },
      }),
    );
    expect(kind).toBe('freeShipping');
    expect(input.customerGets).toBeUndefined();
    expect(input.combinesWith).toEqual({
      orderDiscounts: true,
      productDiscounts: true,
      shippingDiscounts: false,
    });
    expect(input.minimumRequirement).toEqual({
      subtotal: { greaterThanOrEqualToSubtotal: '50.00' },
    });
  });

  it('limits to the destination products through the id map, and fails for one not migrated', () => {
    expect(write(coupon({ productIds: ['p1'] })).input.customerGets.items).toEqual({
      products: { productsToAdd: ['gid://shopify/Product/101'] },
    });
    expect(couponInput(coupon({ productIds: ['p1', 'p2'] }), ctx())).toEqual({
      failure: expect.stringContaining(
        "limited to products that were not migrated ('p2'): select Products too",
      ),
    });
    expect(couponInput(coupon({ categoryIds: ['c9'] }), ctx())).toEqual({
      failure: expect.stringContaining(
        "limited to categories that were not migrated ('c9'): select Categories too",
      ),
    });
  });

  it('fails an amount in another currency than the shop’s', () => {
    const euros = coupon({
      discountType: 'fixed_cart',
      percentOff: null,
      amountOff: { amount: 1000, currency: 'EUR' },
    });
    expect(couponInput(euros, ctx())).toEqual({
      failure:
        "The coupon's amount off is in EUR, the destination store's currency is USD: it was not converted.",
    });
    expect(
      couponInput(coupon({ minimumSpend: { amount: 100, currency: 'EUR' } }), ctx()),
    ).toMatchObject({ failure: expect.stringContaining('minimum spend is in EUR') });
  });

  it('warns of what Shopify cannot hold, and keeps the amount off of a coupon that also ships free', () => {
    const { kind, warnings } = write(
      coupon({
        freeShipping: true,
        maximumSpend: { amount: 50000, currency: 'USD' },
        itemLimit: 3,
        excludeSaleItems: true,
        excludedProductIds: ['p1'],
        allowedEmails: ['*@staff.example.com'],
        usageLimitPerCustomer: 2,
        usageCount: 4,
      }),
    );
    expect(kind).toBe('basic');
    expect(warnings).toEqual([
      expect.stringContaining('also makes shipping free'),
      expect.stringContaining('no maximum order subtotal'),
      expect.stringContaining('item limit'),
      expect.stringContaining('items on sale'),
      expect.stringContaining('excluded products'),
      expect.stringContaining('not to e-mail addresses'),
      expect.stringContaining('limit of 2 uses per customer'),
      expect.stringContaining('4 uses at the source'),
    ]);
  });

  it('starts a coupon without a start date when it was created, and refuses one taking nothing off', () => {
    expect(write(coupon({ createdAt: null })).input.startsAt).toBe('2026-11-01T00:00:00.000Z');
    expect(couponInput(coupon({ percentOff: 0 }), ctx())).toEqual({
      failure: expect.stringContaining('takes nothing off'),
    });
  });
});
