import { z } from 'zod';
import { addressSchema } from './address.ts';
import { metafieldSchema } from './metafield.ts';
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
  /**
   * Source id of the ordered product, or null when it no longer exists at the source. A line
   * whose product is gone is still part of the order: destinations write it as a custom line
   * with its name, SKU and price, never drop the order for it.
   */
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
  /** Tax class of the line, '' for the standard class. */
  taxClass: z.string(),
  /**
   * What the line says about itself besides its product: the chosen option values of a variant
   * ('Size': 'M'), personalisation text, custom fields of the line.
   */
  meta: z.array(z.strictObject({ key: z.string().min(1), value: z.string() })),
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
  /** Amount taken off the order, before tax. */
  amount: moneySchema,
  /** Tax taken off with it. */
  tax: moneySchema,
});
export type Discount = z.infer<typeof discountSchema>;

/** A charge or credit on the order that is neither a product nor shipping ('Gift wrap'). */
export const feeLineSchema = z.strictObject({
  name: z.string(),
  /** Positive for a charge, negative for a credit; before tax. */
  amount: moneySchema,
  /** Tax charged on it. */
  tax: moneySchema,
  /** Tax class, '' for the standard class. */
  taxClass: z.string(),
  /** 'taxable' or 'none'. */
  taxStatus: z.enum(['taxable', 'none']),
});
export type FeeLine = z.infer<typeof feeLineSchema>;

/** Money given back on an order. An order may have several. */
export const refundSchema = z.strictObject({
  /** The source platform's refund id, as a string. */
  id: z.string().min(1),
  /** When it was refunded (ISO-8601). */
  createdAt: z.iso.datetime({ offset: true }),
  /** Amount given back (positive). */
  amount: moneySchema,
  /** Why, as the merchant wrote it, '' when no reason was given. */
  reason: z.string(),
  /** Lines given back, by the source id of the order line; [] for an amount-only refund. */
  lines: z.array(
    z.strictObject({
      lineId: z.string().min(1),
      /** Units given back (positive). */
      quantity: z.number().int().nonnegative(),
      /** Amount of this line given back (positive), before tax. */
      amount: moneySchema,
      /** Tax of this line given back (positive). */
      tax: moneySchema,
    }),
  ),
});
export type Refund = z.infer<typeof refundSchema>;

/** A note on the order: the merchant's own, or one sent to the customer. */
export const orderNoteSchema = z.strictObject({
  /** The note as written. */
  content: z.string().min(1),
  /** True when the customer was shown or sent it. */
  customerNote: z.boolean(),
  /** Who wrote it ('' for the store itself or when unknown). */
  author: z.string(),
  /** When it was written (ISO-8601). */
  createdAt: z.iso.datetime({ offset: true }),
});
export type OrderNote = z.infer<typeof orderNoteSchema>;

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
  /** Fees and credits, [] when none. */
  fees: z.array(feeLineSchema),
  /** Refunds in the order they were made, [] when none. */
  refunds: z.array(refundSchema),
  /** Sum of line totals before order discounts, shipping and tax. */
  subtotal: moneySchema,
  /** Total tax of the order. */
  taxTotal: moneySchema,
  /** Total shipping charged, before tax. */
  shippingTotal: moneySchema,
  /** Total of order-level discounts. */
  discountTotal: moneySchema,
  /** Total of fees and credits, before tax. */
  feeTotal: moneySchema,
  /** Total refunded so far (positive). */
  refundTotal: moneySchema,
  /** What the customer paid: subtotal - discounts + shipping + fees + tax. */
  grandTotal: moneySchema,
  /** Address the order was billed to, null when the source had none. */
  billingAddress: addressSchema.nullable(),
  /** Address the order was shipped to, null when nothing was shipped. */
  shippingAddress: addressSchema.nullable(),
  /** Customer's note on the order (given at checkout), '' when none. */
  note: z.string(),
  /** Notes added after the order was placed, oldest first. */
  notes: z.array(orderNoteSchema),
  /** Payment method code ('bacs', 'stripe') and its title as shown, '' when none. */
  paymentMethod: z.string(),
  paymentMethodTitle: z.string(),
  /** The payment gateway's transaction id, '' when none. */
  transactionId: z.string(),
  /** When it was paid (ISO-8601), null when not paid or unknown. */
  paidAt: z.iso.datetime({ offset: true }).nullable(),
  /** When it was completed (ISO-8601), null when not completed or unknown. */
  completedAt: z.iso.datetime({ offset: true }).nullable(),
  /** Whether the amounts were entered including tax. */
  pricesIncludeTax: z.boolean(),
  /** Where the order was placed from: the buyer's IP address and browser, '' when unknown. */
  customerIpAddress: z.string(),
  customerUserAgent: z.string(),
  /** How the order was created at the source ('checkout', 'admin', 'rest-api'), '' if unknown. */
  createdVia: z.string(),
  /** Custom fields of the order (see metafieldSchema). */
  metafields: z.array(metafieldSchema),
});
export type Order = z.infer<typeof orderSchema>;
