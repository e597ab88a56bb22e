import { z } from 'zod';
import { addressSchema } from './address.ts';
import { currencySchema, moneySchema } from './money.ts';

/**
 * Canonical order status: where the order stands as a whole. Each connector maps its platform's
 * statuses onto these (and states its table next to the mapping):
 * - pending: placed, payment not received yet (awaiting payment or its confirmation);
 * - processing: paid (or payment authorised and accepted), not fulfilled yet;
 * - on-hold: held by the merchant or awaiting confirmation (a bank transfer, a fraud check);
 * - completed: fulfilled, nothing left to do;
 * - cancelled: cancelled before completion (by the merchant, the customer, or unpaid);
 * - refunded: paid and then refunded in full;
 * - failed: payment failed or was declined.
 */
export const orderStatuses = [
  'pending',
  'processing',
  'on-hold',
  'completed',
  'cancelled',
  'refunded',
  'failed',
] as const;

/**
 * Where the money stands, independently of the order status:
 * - pending: nothing received or authorised yet;
 * - authorized: the payment was authorised (funds reserved) but not captured;
 * - paid: captured in full;
 * - partially_paid: part of the total captured (deposits, split payments);
 * - partially_refunded: paid, and part of it refunded;
 * - refunded: paid, and refunded in full;
 * - voided: an authorisation cancelled, or a payment that expired before capture.
 */
export const paymentStatuses = [
  'pending',
  'authorized',
  'paid',
  'partially_paid',
  'partially_refunded',
  'refunded',
  'voided',
] as const;

/**
 * Whether the goods went out: unfulfilled (nothing shipped), partial (some lines or some units
 * shipped), fulfilled (everything shipped or handed over).
 */
export const fulfillmentStatuses = ['unfulfilled', 'partial', 'fulfilled'] as const;

export const orderLineSchema = z.strictObject({
  /** The source platform's line-item id, as a string. */
  id: z.string().min(1),
  /** Source id of the ordered product, or null when it no longer exists at the source. */
  productId: z.string().min(1).nullable(),
  /** Source id of the ordered variant, or null for a simple product or a deleted one. */
  variantId: z.string().min(1).nullable(),
  /** SKU of what was ordered, as it was on the order ('' when it had none). */
  sku: z.string(),
  /** Product name as it was on the order. */
  name: z.string().min(1),
  /** Units ordered, at least one. */
  quantity: z.number().int().positive(),
  /** Price of one unit before discounts and tax. */
  unitPrice: moneySchema,
  /** Tax charged on the whole line. */
  tax: moneySchema,
  /** Line total after line discounts, before tax (unitPrice x quantity - discounts). */
  total: moneySchema,
});
export type OrderLine = z.infer<typeof orderLineSchema>;

export const shippingLineSchema = z.strictObject({
  /** Method name shown to the customer ('Flat rate'). */
  title: z.string(),
  /** Carrier or method code, '' when none. */
  code: z.string(),
  /** Shipping charged, before tax. */
  price: moneySchema,
  /** Tax charged on this shipping line. */
  tax: moneySchema,
});
export type ShippingLine = z.infer<typeof shippingLineSchema>;

export const discountSchema = z.strictObject({
  /** Coupon code or discount title. */
  code: z.string(),
  /** Amount taken off the order. */
  amount: moneySchema,
});
export type Discount = z.infer<typeof discountSchema>;

/** A historical order, imported as a record of what was sold (never re-charged or re-notified). */
export const orderSchema = z.strictObject({
  /** The source platform's id, as a string. */
  id: z.string().min(1),
  /** Order number shown to the customer ('1001', '#100000023'), without a leading '#'. */
  number: z.string().min(1),
  /** When the order was placed (ISO-8601). */
  createdAt: z.iso.datetime({ offset: true }),
  /** When the order was last changed at the source (ISO-8601), null when unknown. */
  updatedAt: z.iso.datetime({ offset: true }).nullable(),
  /** Currency of every amount of the order. */
  currency: currencySchema,
  /** Source id of the customer account, or null for a guest order. */
  customerId: z.string().min(1).nullable(),
  /** E-mail of the buyer ('' only when the source had none). */
  email: z.string(),
  /** Where the order stands as a whole (see orderStatuses). */
  status: z.enum(orderStatuses),
  /** Where the payment stands (see paymentStatuses). */
  paymentStatus: z.enum(paymentStatuses),
  /** Whether the goods went out (see fulfillmentStatuses). */
  fulfillmentStatus: z.enum(fulfillmentStatuses),
  /** Product lines, at least one, in the order the source lists them. */
  lines: z.array(orderLineSchema).min(1),
  /** Shipping charged, one line per method ([] when nothing was shipped or charged). */
  shippingLines: z.array(shippingLineSchema),
  /** Order-level discounts (coupons, automatic discounts), [] when none. */
  discounts: z.array(discountSchema),
  /** Sum of line totals before order discounts, shipping and tax. */
  subtotal: moneySchema,
  /** Total tax of the order. */
  taxTotal: moneySchema,
  /** Total shipping charged, before tax. */
  shippingTotal: moneySchema,
  /** Total of order-level discounts. */
  discountTotal: moneySchema,
  /** What the customer paid: subtotal - discounts + shipping + tax. */
  grandTotal: moneySchema,
  /** Address the order was billed to, null when the source had none. */
  billingAddress: addressSchema.nullable(),
  /** Address the order was shipped to, null when nothing was shipped. */
  shippingAddress: addressSchema.nullable(),
  /** Customer's note on the order, '' when none. */
  note: z.string(),
});
export type Order = z.infer<typeof orderSchema>;
