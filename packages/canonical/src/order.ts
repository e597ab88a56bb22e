import { z } from 'zod';
import { addressSchema } from './address.ts';
import { currencySchema, moneySchema } from './money.ts';

/**
 * Canonical order status. Each connector maps its platform's statuses onto these:
 * pending (awaiting payment), processing (paid, not yet fulfilled), on-hold, completed (fulfilled),
 * cancelled, refunded, failed (payment failed).
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

export const paymentStatuses = [
  'pending',
  'authorized',
  'paid',
  'partially_paid',
  'partially_refunded',
  'refunded',
  'voided',
] as const;

export const fulfillmentStatuses = ['unfulfilled', 'partial', 'fulfilled'] as const;

export const orderLineSchema = z.strictObject({
  /** The source platform's line-item id, as a string. */
  id: z.string().min(1),
  /** Source id of the ordered product, or null when it no longer exists at the source. */
  productId: z.string().min(1).nullable(),
  /** Source id of the ordered variant, or null for a simple product or a deleted one. */
  variantId: z.string().min(1).nullable(),
  sku: z.string(),
  /** Product name as it was on the order. */
  name: z.string().min(1),
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
  updatedAt: z.iso.datetime({ offset: true }).nullable(),
  currency: currencySchema,
  /** Source id of the customer account, or null for a guest order. */
  customerId: z.string().min(1).nullable(),
  /** E-mail of the buyer ('' only when the source had none). */
  email: z.string(),
  status: z.enum(orderStatuses),
  paymentStatus: z.enum(paymentStatuses),
  fulfillmentStatus: z.enum(fulfillmentStatuses),
  lines: z.array(orderLineSchema).min(1),
  shippingLines: z.array(shippingLineSchema),
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
  billingAddress: addressSchema.nullable(),
  shippingAddress: addressSchema.nullable(),
  /** Customer's note on the order, '' when none. */
  note: z.string(),
});
export type Order = z.infer<typeof orderSchema>;
