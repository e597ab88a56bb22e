import { z } from 'zod';
import type { CatalogContext } from './catalog.ts';
import { BcHttpError, fromUnits, toUnits, v2Date } from './http.ts';
import type { BcCoupon } from './state.ts';

/**
 * v2 coupons (marketing.v2.yml, kept in specs/bigcommerce). Codes and names are unique in a
 * store ("The value must be unique"); a repeat is refused with 409. The description lists the
 * fields a create requires (name, code, type, amount, applies_to) and the kinds a create takes
 * (every type but `promotion`, which belongs to a promotion of the promotions API).
 */

const couponTypes = [
  'per_item_discount',
  'per_total_discount',
  'shipping_discount',
  'free_shipping',
  'percentage_discount',
  'promotion',
] as const;

const amount = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const n = typeof v === 'number' ? v : Number(v);
  if ((typeof v === 'string' && v.trim() === '') || !Number.isFinite(n) || n < 0) {
    ctx.addIssue({ code: 'custom', message: "can't be negative or non-numeric" });
    return z.NEVER;
  }
  return toUnits(n);
});

/** coupon_Base.code: "Only letters, numbers, white space, underscores, and hyphens are allowed." */
const code = z
  .string()
  .min(1)
  .max(50)
  .regex(/^[a-zA-Z0-9_ -]+$/, 'only letters, numbers, white space, underscores and hyphens');

/** coupon_Base.expires: '' or an RFC 2822 date. */
const expires = z.string().refine((v) => v === '' || isRfc2822(v), 'must be an RFC 2822 date');

const rfc2822Pattern =
  /^(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), )?\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}(?::\d{2})? (?:[+-]\d{4}|GMT|UT)$/;

function isRfc2822(value: string): boolean {
  return rfc2822Pattern.test(value) && Number.isFinite(Date.parse(value));
}

const appliesTo = z.strictObject({
  entity: z.enum(['categories', 'products']),
  ids: z.array(z.number().int().nonnegative()),
});

const couponFields = {
  name: z.string().trim().min(1).max(100),
  code,
  type: z.enum(couponTypes),
  amount,
  min_purchase: amount.optional(),
  expires: expires.optional(),
  enabled: z.boolean().optional(),
  applies_to: appliesTo,
  max_uses: z.number().int().nonnegative().optional(),
  max_uses_per_customer: z.number().int().nonnegative().optional(),
  restricted_to: z.strictObject({ countries: z.string().optional() }).optional(),
  shipping_methods: z.array(z.string()).optional(),
};

/** POST /v2/coupons; fields the description does not declare (read-only ones too) are refused. */
export const couponCreateSchema = z.strictObject(couponFields);
export type CouponCreate = z.infer<typeof couponCreateSchema>;

/**
 * PUT /v2/coupons/{id} takes coupon_Base too, with its required fields: a coupon is written
 * whole. (Its text adds that an applies_to left out is cleared; a body without it is refused.)
 */
export const couponUpdateSchema = couponCreateSchema;
export type CouponUpdate = z.infer<typeof couponUpdateSchema>;

const key = (text: string) => text.trim().toLowerCase();

function checkCoupon(ctx: CatalogContext, coupon: Omit<BcCoupon, 'id'>, exceptId?: number): void {
  const { state } = ctx;
  const other = (c: BcCoupon) => c.id !== exceptId;
  if (state.coupons.some((c) => other(c) && key(c.code) === key(coupon.code)))
    throw new BcHttpError(409, `The coupon code '${coupon.code}' is already in use`, {
      code: 'must be unique',
    });
  if (state.coupons.some((c) => other(c) && key(c.name) === key(coupon.name)))
    throw new BcHttpError(409, `The coupon name '${coupon.name}' is already in use`, {
      name: 'must be unique',
    });
  if (coupon.type === 'percentage_discount' && coupon.amount > toUnits(100))
    throw new BcHttpError(422, 'JSON data is missing or invalid', {
      amount: 'a percentage discount is at most 100',
    });
  const { entity, ids } = coupon.applies_to;
  const known =
    entity === 'products'
      ? (id: number) => state.product(id) !== undefined
      : (id: number) => id === 0 || state.categories.some((c) => c.category_id === id);
  const unknown = ids.filter((id) => !known(id));
  if (unknown.length)
    throw new BcHttpError(422, 'JSON data is missing or invalid', {
      'applies_to.ids': `no ${entity} with id ${unknown.join(', ')}`,
    });
}

export function createCoupon(ctx: CatalogContext, input: CouponCreate): BcCoupon {
  if (input.type === 'promotion')
    throw new BcHttpError(422, 'JSON data is missing or invalid', {
      type: 'promotion coupons are made with their promotion',
    });
  const fields: Omit<BcCoupon, 'id'> = {
    name: input.name,
    code: input.code,
    type: input.type,
    amount: input.amount,
    min_purchase: input.min_purchase ?? 0,
    expires: input.expires ?? '',
    enabled: input.enabled ?? true,
    applies_to: input.applies_to,
    num_uses: 0,
    max_uses: input.max_uses ?? 0,
    max_uses_per_customer: input.max_uses_per_customer ?? 0,
    restricted_to: input.restricted_to ?? {},
    shipping_methods: input.shipping_methods ?? [],
    date_created: ctx.now(),
  };
  checkCoupon(ctx, fields);
  const coupon = { id: ctx.state.nextId('coupon'), ...fields };
  ctx.state.coupons.push(coupon);
  return coupon;
}

export function updateCoupon(ctx: CatalogContext, coupon: BcCoupon, input: CouponUpdate): void {
  if (input.type === 'promotion' && coupon.type !== 'promotion')
    throw new BcHttpError(422, 'JSON data is missing or invalid', {
      type: 'promotion coupons are made with their promotion',
    });
  const changed: BcCoupon = {
    ...coupon,
    ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
  };
  checkCoupon(ctx, changed, coupon.id);
  Object.assign(coupon, changed);
}

/** coupon_Full as the API answers it. */
export function couponJson(c: BcCoupon): Record<string, unknown> {
  return {
    id: c.id,
    name: c.name,
    type: c.type,
    amount: fromUnits(c.amount),
    min_purchase: fromUnits(c.min_purchase),
    expires: c.expires,
    enabled: c.enabled,
    code: c.code,
    applies_to: { entity: c.applies_to.entity, ids: [...c.applies_to.ids] },
    num_uses: c.num_uses,
    max_uses: c.max_uses,
    max_uses_per_customer: c.max_uses_per_customer,
    restricted_to: { ...c.restricted_to },
    shipping_methods: [...c.shipping_methods],
    date_created: v2Date(c.date_created),
  };
}
