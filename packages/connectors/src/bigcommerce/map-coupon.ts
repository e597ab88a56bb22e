import type { Coupon } from '@replatform/canonical/coupon';
import { couponDefaults } from '@replatform/canonical/defaults';
import { fromMinor, toMinor, type Money } from '@replatform/canonical/money';
import { couponExtras, readExtras, writeExtras } from './extras.ts';
import { isoDate } from './map-catalog.ts';
import { rfc2822 } from './map-order.ts';
import type { Json } from './native.ts';
import type { BcCoupon } from './payloads.ts';

/**
 * BigCommerce coupons (marketing.v2.yml) <-> canonical coupons.
 *
 * - Kinds: percentage_discount is 'percent', per_total_discount 'fixed_cart', per_item_discount
 *   'fixed_product', free_shipping a 'fixed_cart' of 0 with free shipping. A BigCommerce coupon
 *   gives a discount or free shipping, never both: a coupon with both keeps its discount, and the
 *   lost free shipping is a warning. A discount on the shipping cost (shipping_discount) and the
 *   coupons of promotions have no place in the model and are not read.
 * - The name, which BigCommerce requires and keeps unique, is the description; a coupon without
 *   one is named by its code, and a name that is the code reads as no description.
 * - applies_to takes products or categories: `categories [0]` is the whole store. A coupon
 *   limited to products and to categories cannot be written; neither can one limited to a
 *   product or category that was not migrated (it would arrive broader than it was).
 * - Amounts are in the store's default currency, the only one coupons work in.
 * - Limits of 0 are none. BigCommerce's country and shipping-method limits travel as custom
 *   fields of namespace bigcommerce_fields (extras.ts).
 */

/** marketing.v2.yml coupon_Base.code: "Only letters, numbers, white space, underscores, and hyphens". */
const codePattern = /^[a-zA-Z0-9_ -]+$/;
export const codeMaxLength = 50;
export const nameMaxLength = 100;

export function couponToCanonical(c: BcCoupon, raw: Json, currency: string): Coupon {
  const money = (value: string): Money => ({ amount: toMinor(value, currency), currency });
  const positive = (value: number | null | undefined) => (value && value > 0 ? value : null);
  const applies = c.applies_to;
  if (!applies) throw new Error(`coupon ${c.code} applies to nothing (applies_to is empty)`);
  const everything = applies.entity === 'categories' && applies.ids.includes(0);
  if (!everything && applies.ids.length === 0)
    throw new Error(`coupon ${c.code} applies to no ${applies.entity}`);
  const ids = everything ? [] : applies.ids.map(String);
  const kind = (): Pick<Coupon, 'discountType' | 'percentOff' | 'amountOff' | 'freeShipping'> => {
    switch (c.type) {
      case 'percentage_discount':
        return {
          discountType: 'percent',
          percentOff: Number(c.amount),
          amountOff: null,
          freeShipping: false,
        };
      case 'per_total_discount':
      case 'per_item_discount':
        return {
          discountType: c.type === 'per_item_discount' ? 'fixed_product' : 'fixed_cart',
          percentOff: null,
          amountOff: money(c.amount),
          freeShipping: false,
        };
      case 'free_shipping':
        return {
          discountType: 'fixed_cart',
          percentOff: null,
          amountOff: { amount: 0, currency },
          freeShipping: true,
        };
      case 'shipping_discount':
        throw new Error(
          `coupon ${c.code} takes money off the shipping cost, which the model has no place for (type shipping_discount)`,
        );
      case 'promotion':
        throw new Error(
          `coupon ${c.code} belongs to a promotion, which is not migrated (type promotion)`,
        );
    }
  };
  const minimum = money(c.min_purchase);
  return {
    ...couponDefaults(),
    id: String(c.id),
    code: c.code,
    description: c.name === c.code ? '' : c.name,
    ...kind(),
    enabled: c.enabled,
    expiresAt: isoDate(c.expires),
    minimumSpend: minimum.amount > 0 ? minimum : null,
    usageLimit: positive(c.max_uses),
    usageLimitPerCustomer: positive(c.max_uses_per_customer),
    usageCount: c.num_uses,
    productIds: applies.entity === 'products' ? ids : [],
    categoryIds: applies.entity === 'categories' ? ids : [],
    metafields: readExtras(raw, couponExtras),
    createdAt: isoDate(c.date_created),
  };
}

export interface CouponRefs {
  /** The destination store's currency. */
  currency: string;
  /** Destination id of a migrated product or category, undefined when it is not there. */
  productId(sourceId: string): string | undefined;
  categoryId(sourceId: string): string | undefined;
}

export type CouponWrite =
  { ok: true; body: Json; warnings: string[] } | { ok: false; reason: string };

/**
 * The body of POST /v2/coupons (and of PUT, which takes the coupon whole), or why the coupon
 * cannot be written without changing what it does. Fields BigCommerce has no place for are
 * reported by the caller from destinationFields; warnings here name what is lost in the mapping.
 */
export function couponToBc(coupon: Coupon, refs: CouponRefs): CouponWrite {
  const fail = (reason: string): CouponWrite => ({ ok: false, reason });
  const warnings: string[] = [];
  if (coupon.code.length > codeMaxLength || !codePattern.test(coupon.code))
    return fail(
      `BigCommerce coupon codes have only letters, digits, spaces, underscores and hyphens, at most ${codeMaxLength}: '${coupon.code}' cannot be written`,
    );
  for (const money of [coupon.amountOff, coupon.minimumSpend])
    if (money && money.currency !== refs.currency)
      return fail(
        `the coupon's amounts are in ${money.currency}, the destination store's currency is ${refs.currency}: BigCommerce coupons work in the store's currency only`,
      );

  if (coupon.productIds.length > 0 && coupon.categoryIds.length > 0)
    return fail(
      'the coupon is limited to products and to categories; a BigCommerce coupon applies to products or to categories, not both',
    );
  const map = (
    sourceIds: string[],
    lookUp: (id: string) => string | undefined,
    what: 'products' | 'categories',
  ): number[] | string => {
    const missing = sourceIds.filter((id) => lookUp(id) === undefined);
    if (missing.length)
      return `limited to ${what} that were not migrated (${missing.join(', ')}): select ${what === 'products' ? 'Products' : 'Categories'} too`;
    return sourceIds.map((id) => Number(lookUp(id)));
  };
  let appliesTo: { entity: 'products' | 'categories'; ids: number[] } = {
    entity: 'categories',
    ids: [0],
  };
  if (coupon.productIds.length > 0) {
    const ids = map(coupon.productIds, refs.productId, 'products');
    if (typeof ids === 'string') return fail(ids);
    appliesTo = { entity: 'products', ids };
  } else if (coupon.categoryIds.length > 0) {
    const ids = map(coupon.categoryIds, refs.categoryId, 'categories');
    if (typeof ids === 'string') return fail(ids);
    appliesTo = { entity: 'categories', ids };
  }

  const decimal = (money: Money) => fromMinor(money.amount, money.currency);
  const off = coupon.amountOff?.amount ?? 0;
  let type: string;
  let amount: string;
  if (coupon.discountType === 'percent') {
    type = 'percentage_discount';
    amount = String(coupon.percentOff ?? 0);
  } else if (coupon.discountType === 'fixed_cart' && off === 0 && coupon.freeShipping) {
    type = 'free_shipping';
    amount = '0';
  } else {
    type = coupon.discountType === 'fixed_product' ? 'per_item_discount' : 'per_total_discount';
    amount = coupon.amountOff ? decimal(coupon.amountOff) : '0';
  }
  if (coupon.freeShipping && type !== 'free_shipping')
    warnings.push(
      'the coupon also gave free shipping, which was not kept: a BigCommerce coupon gives a discount or free shipping, not both (freeShipping)',
    );

  let name = coupon.description.trim() || coupon.code;
  if (name.length > nameMaxLength) {
    name = name.slice(0, nameMaxLength).trimEnd();
    warnings.push(
      `the description was shortened to ${nameMaxLength} characters, the length of a BigCommerce coupon name (description)`,
    );
  }
  const body: Json = {
    name,
    code: coupon.code,
    type,
    amount,
    min_purchase: coupon.minimumSpend ? decimal(coupon.minimumSpend) : '0',
    expires: coupon.expiresAt ? rfc2822(coupon.expiresAt) : '',
    enabled: coupon.enabled,
    applies_to: appliesTo,
    max_uses: coupon.usageLimit ?? 0,
    max_uses_per_customer: coupon.usageLimitPerCustomer ?? 0,
  };
  const extras = writeExtras(coupon.metafields, couponExtras);
  for (const [field, value] of extras.fields) if (value !== null) body[field] = value;
  if (extras.unknown.length)
    warnings.push(
      `BigCommerce coupon fields it does not know were left out: ${extras.unknown.join(', ')} (metafields)`,
    );
  const foreign = coupon.metafields.filter((m) => !m.namespace.startsWith('bigcommerce'));
  if (foreign.length)
    warnings.push(
      `custom fields of the coupon were not kept (BigCommerce coupons have none): ${[...new Set(foreign.map((m) => `${m.namespace}/${m.key}`))].join(', ')} (metafields)`,
    );
  return { ok: true, body, warnings };
}

/** The name a coupon takes when another coupon of the store already has its own. */
export function distinctName(name: string, code: string): string {
  const suffix = ` (${code})`;
  return `${name.slice(0, nameMaxLength - suffix.length).trimEnd()}${suffix}`;
}
