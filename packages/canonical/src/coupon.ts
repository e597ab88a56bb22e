import { z } from 'zod';
import { metafieldSchema } from './metafield.ts';
import { moneySchema } from './money.ts';

/**
 * How a coupon takes money off: a percentage of the items it applies to, a fixed amount off the
 * order, or a fixed amount off each unit of the products it applies to. A coupon that only gives
 * free shipping is 'fixed_cart' with an amount of 0 and freeShipping set.
 */
export const couponDiscountTypes = ['percent', 'fixed_cart', 'fixed_product'] as const;
export type CouponDiscountType = (typeof couponDiscountTypes)[number];

/**
 * A discount code a customer enters at checkout (WooCommerce coupon, Shopify discount code,
 * BigCommerce coupon, Magento cart price rule with its coupon).
 */
export const couponSchema = z
  .strictObject({
    /** The source platform's id, as a string. */
    id: z.string().min(1),
    /** The code the customer types. The natural key: codes are unique in a store, in any case. */
    code: z.string().min(1),
    /** The merchant's description of the coupon, '' when none. */
    description: z.string(),
    discountType: z.enum(couponDiscountTypes),
    /** Percent off (0 to 100) for 'percent'; null for the fixed kinds. */
    percentOff: z.number().min(0).max(100).nullable(),
    /** Amount off the order ('fixed_cart') or off each unit ('fixed_product'); null for 'percent'. */
    amountOff: moneySchema.nullable(),
    /** Whether the coupon also makes shipping free. */
    freeShipping: z.boolean(),
    /** False for a coupon the merchant switched off or left as a draft: it cannot be used. */
    enabled: z.boolean(),
    /** From when the code can be used (ISO-8601), null when from the start. */
    startsAt: z.iso.datetime({ offset: true }).nullable(),
    /** When the code stops working (ISO-8601), null when never. */
    expiresAt: z.iso.datetime({ offset: true }).nullable(),
    /** Smallest order subtotal the code accepts, null when none. */
    minimumSpend: moneySchema.nullable(),
    /** Largest order subtotal the code accepts, null when none. */
    maximumSpend: moneySchema.nullable(),
    /** How many times the code can be used in all, null when unlimited. */
    usageLimit: z.number().int().nonnegative().nullable(),
    /** How many times one customer can use it, null when unlimited. */
    usageLimitPerCustomer: z.number().int().nonnegative().nullable(),
    /** How many times it has been used so far. */
    usageCount: z.number().int().nonnegative(),
    /** How many units of the order a per-item discount applies to at most, null when all. */
    itemLimit: z.number().int().nonnegative().nullable(),
    /** True when the code cannot be combined with other coupons. */
    individualUse: z.boolean(),
    /** True when items on sale do not get the discount. */
    excludeSaleItems: z.boolean(),
    /** Source ids of the products the code is limited to, [] for all. */
    productIds: z.array(z.string().min(1)),
    /** Source ids of products the code never applies to. */
    excludedProductIds: z.array(z.string().min(1)),
    /** Source ids of the categories the code is limited to, [] for all. */
    categoryIds: z.array(z.string().min(1)),
    /** Source ids of categories the code never applies to. */
    excludedCategoryIds: z.array(z.string().min(1)),
    /** Billing e-mail addresses (or patterns such as '*@example.com') allowed to use it, [] for all. */
    allowedEmails: z.array(z.string().min(1)),
    /** Custom fields of the coupon (see metafieldSchema). */
    metafields: z.array(metafieldSchema),
    /** When the coupon was created at the source (ISO-8601), null when the platform does not say. */
    createdAt: z.iso.datetime({ offset: true }).nullable(),
  })
  .refine((coupon) => (coupon.discountType === 'percent') === (coupon.percentOff !== null), {
    message: 'percentOff is set exactly for percent coupons',
    path: ['percentOff'],
  })
  .refine((coupon) => (coupon.discountType === 'percent') === (coupon.amountOff === null), {
    message: 'amountOff is set exactly for fixed coupons',
    path: ['amountOff'],
  });
export type Coupon = z.infer<typeof couponSchema>;
