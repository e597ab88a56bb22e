import { z } from 'zod';
import { entityCountsSchema, paymentInfoSchema } from './migration.ts';

/**
 * Step 3 (Payment) between the web app and the server. Prices are always computed on the server
 * from its own count of the source store (decisions.md section 3); anything price-like that the
 * browser sends is ignored.
 */

export const paymentCurrency = 'usd';

const migrationIdSchema = z.string().trim().min(1).max(64);

/** POST /api/stripe/create-checkout-session. `entriesCount` is the sketch's field; it is ignored. */
export const createCheckoutSessionRequestSchema = z.object({
  migrationId: migrationIdSchema,
  entriesCount: z.unknown().optional(),
});
export type CreateCheckoutSessionRequest = z.infer<typeof createCheckoutSessionRequestSchema>;

/** The browser goes to `url` (Stripe's hosted checkout); `id` is the Checkout Session id. */
export const checkoutSessionResponseSchema = z.object({
  url: z.string(),
  id: z.string(),
});
export type CheckoutSessionResponse = z.infer<typeof checkoutSessionResponseSchema>;

/** POST /api/stripe/payment-success, sent on return with `?payment=success&session_id=…`. */
export const paymentSuccessRequestSchema = z.object({
  migrationId: migrationIdSchema,
  sessionId: z.string().trim().min(1).max(255),
});
export type PaymentSuccessRequest = z.infer<typeof paymentSuccessRequestSchema>;

export const paymentRecordedResponseSchema = z.object({
  paymentStatus: z.literal('paid'),
  paymentInfo: paymentInfoSchema,
});
export type PaymentRecordedResponse = z.infer<typeof paymentRecordedResponseSchema>;

/** GET /api/stripe/receipt/{migrationId}: Stripe's receipt, or ours (a PDF) for demo payments. */
export const receiptResponseSchema = z.object({ receiptUrl: z.string() });
export type ReceiptResponse = z.infer<typeof receiptResponseSchema>;

/**
 * GET /api/payments/config[?migrationId=…]. `stripe`: real payments through Stripe Checkout.
 * `demo`: no Stripe key is configured on this server, so only simulated payments exist.
 * `demoPaymentsAllowed` says whether the signed-in user may use the simulated card form: always in
 * `demo` mode; with Stripe configured only for demo accounts and for a migration between the
 * built-in sandbox stores, so mock mode in the browser never skips a real payment.
 */
export const paymentsConfigSchema = z.object({
  mode: z.enum(['stripe', 'demo']),
  demoPaymentsAllowed: z.boolean(),
  currency: z.literal(paymentCurrency),
  baseFeeCents: z.number().int(),
  perRecordCents: z.number().int(),
});
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;

/**
 * GET /api/payments/summary?migrationId=…: what the owner is about to pay, from the server's own
 * count of the selected data types. `kind` is 'initial' before the first payment, 'top_up' when
 * the source grew beyond what was paid for, 'remigration' when a re-migration after the free one
 * is to be paid (priced like a first payment), 'none' when everything is paid.
 */
export const paymentSummarySchema = z.object({
  counts: entityCountsSchema,
  records: z.number().int().nonnegative(),
  paidRecords: z.number().int().nonnegative(),
  kind: z.enum(['initial', 'top_up', 'remigration', 'none']),
  /** Records the next payment covers (a top-up may cover a few more than missing, see minimum). */
  recordsDue: z.number().int().nonnegative(),
  baseCents: z.number().int().nonnegative(),
  volumeCents: z.number().int().nonnegative(),
  taxCents: z.number().int().nonnegative(),
  amountDueCents: z.number().int().nonnegative(),
  currency: z.literal(paymentCurrency),
});
export type PaymentSummary = z.infer<typeof paymentSummarySchema>;

/** Countries of the demo card form (spec.md section 2, Step 3). */
export const demoCountries = ['US', 'CA', 'GB', 'AU', 'DE', 'FR', 'ES', 'IT', 'NL', 'SE'] as const;

const digitsOnly = (value: string) => value.replace(/[\s-]/g, '');

/** Luhn check: the test numbers of the demo form are real-looking card numbers. */
export function passesLuhn(number: string): boolean {
  const digits = digitsOnly(number);
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export type CardBrand =
  'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay' | 'unknown';

/** The card network of a number by its leading digits, named as Stripe names card brands. */
export function cardBrandOf(number: string): CardBrand {
  const d = digitsOnly(number);
  const prefix = (n: number) => Number(d.slice(0, n));
  if (d.startsWith('4')) return 'visa';
  if (/^3[47]/.test(d)) return 'amex';
  if ((prefix(2) >= 51 && prefix(2) <= 55) || (prefix(4) >= 2221 && prefix(4) <= 2720))
    return 'mastercard';
  if (d.startsWith('6011') || d.startsWith('65') || (prefix(3) >= 644 && prefix(3) <= 649))
    return 'discover';
  if (/^3(0[0-5]|[689])/.test(d)) return 'diners';
  if (prefix(4) >= 3528 && prefix(4) <= 3589) return 'jcb';
  if (d.startsWith('62')) return 'unionpay';
  return 'unknown';
}

/** Stripe's test number for a declined card; the demo form declines it the same way. */
export const declinedTestCard = '4000000000000002';

/**
 * POST /api/payments/demo: the simulated card form (or PayPal) of demo mode. Only the brand and
 * the last four digits of the number are kept.
 */
export const demoPaymentRequestSchema = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('card'),
    migrationId: migrationIdSchema,
    cardNumber: z.string().trim().max(30).refine(passesLuhn, 'Enter a valid card number'),
    expiry: z
      .string()
      .trim()
      .regex(/^(0[1-9]|1[0-2])\/\d{2}$/, 'Use MM/YY'),
    cvc: z
      .string()
      .trim()
      .regex(/^\d{3,4}$/, 'Enter the 3 or 4 digit security code'),
    cardholderName: z.string().trim().min(1).max(200),
    email: z.email().max(320),
    address: z.string().trim().max(300).optional(),
    city: z.string().trim().max(120).optional(),
    zip: z.string().trim().max(20).optional(),
    country: z.enum(demoCountries).optional(),
  }),
  z.object({
    method: z.literal('paypal'),
    migrationId: migrationIdSchema,
    email: z.email().max(320),
  }),
]);
export type DemoPaymentRequest = z.infer<typeof demoPaymentRequestSchema>;

/** Whether a MM/YY expiry lies in the past (a card is valid through the end of its month). */
export function isExpired(expiry: string, now: Date = new Date()): boolean {
  const match = /^(\d{2})\/(\d{2})$/.exec(expiry.trim());
  if (!match) return true;
  const month = Number(match[1]);
  const year = 2000 + Number(match[2]);
  return (
    year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)
  );
}
