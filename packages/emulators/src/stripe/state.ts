import { createHash, randomBytes } from 'node:crypto';
import { stripeApiVersion } from './stripe-spec.ts';

/**
 * The emulated Stripe account: Checkout Sessions, the PaymentIntents and Charges their payments
 * create, and the events those changes raise. Objects are kept in their API shape (API version
 * 2023-08-16) and handed out as copies.
 */

export type StripeObject = Record<string, unknown>;

/** A Stripe API error, answered as `{ error: { type, code, message, param } }`. */
export class StripeApiError extends Error {
  readonly status: number;
  readonly type: string;
  readonly code: string | undefined;
  readonly param: string | undefined;
  readonly declineCode: string | undefined;

  constructor(
    status: number,
    message: string,
    options: { type?: string; code?: string; param?: string; declineCode?: string } = {},
  ) {
    super(message);
    this.status = status;
    this.type = options.type ?? 'invalid_request_error';
    this.code = options.code;
    this.param = options.param;
    this.declineCode = options.declineCode;
  }

  toBody(): StripeObject {
    const error: StripeObject = { type: this.type, message: this.message };
    if (this.code) {
      error.code = this.code;
      error.doc_url = `https://stripe.com/docs/error-codes/${this.code.replace(/_/g, '-')}`;
    }
    if (this.param) error.param = this.param;
    if (this.declineCode) error.decline_code = this.declineCode;
    return { error };
  }
}

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Unique like Stripe's ids (never seeded: a restarted emulator must not repeat event ids). */
export function stripeId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let id = '';
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return `${prefix}_${id}`;
}

export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export interface CustomerInput {
  email: string;
  name?: string | undefined;
  country?: string | undefined;
  postalCode?: string | undefined;
}

/**
 * 'paid' settles at once like a card. 'processing' completes the session unpaid, as delayed
 * payment methods do, until settleAsyncPayment() succeeds or fails it.
 */
export type PaymentOutcome = 'paid' | 'processing';

/** Stripe's brand name for a card number, by its leading digits. */
export function brandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^3[47]/.test(number)) return 'amex';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(number)) return 'mastercard';
  if (/^(6011|65|64[4-9])/.test(number)) return 'discover';
  if (/^35(2[89]|[3-8]\d)/.test(number)) return 'jcb';
  if (/^3(0[0-5]|[689])/.test(number)) return 'diners';
  if (/^62/.test(number)) return 'unionpay';
  return 'unknown';
}

function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Stripe's test cards that fail, with the error Stripe gives for each. */
const failingCards: Record<string, { message: string; declineCode: string }> = {
  '4000000000000002': { message: 'Your card was declined.', declineCode: 'generic_decline' },
  '4000000000009995': {
    message: 'Your card has insufficient funds.',
    declineCode: 'insufficient_funds',
  },
  '4000000000009987': { message: 'Your card was declined.', declineCode: 'lost_card' },
  '4000000000000069': { message: 'Your card has expired.', declineCode: 'expired_card' },
};

/** Checks a card as Checkout's form does; throws the error Stripe would show. */
export function checkCard(card: CardDetails, nowSeconds: number): void {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) {
    throw new StripeApiError(402, 'Your card number is invalid.', {
      type: 'card_error',
      code: 'incorrect_number',
    });
  }
  const now = new Date(nowSeconds * 1000);
  const expired =
    card.expYear < now.getUTCFullYear() ||
    (card.expYear === now.getUTCFullYear() && card.expMonth < now.getUTCMonth() + 1);
  if (!(card.expMonth >= 1 && card.expMonth <= 12) || expired) {
    throw new StripeApiError(402, "Your card's expiration date is invalid or in the past.", {
      type: 'card_error',
      code: 'invalid_expiry_year',
    });
  }
  if (!/^\d{3,4}$/.test(card.cvc)) {
    throw new StripeApiError(402, "Your card's security code is incomplete.", {
      type: 'card_error',
      code: 'incomplete_cvc',
    });
  }
  const failing = failingCards[number];
  if (failing) {
    throw new StripeApiError(402, failing.message, {
      type: 'card_error',
      code: failing.declineCode === 'expired_card' ? 'expired_card' : 'card_declined',
      declineCode: failing.declineCode,
    });
  }
}

const copy = <T>(value: T): T => structuredClone(value);

export interface StateOptions {
  /** Base URL of the emulator as browsers reach it (hosted pages, receipts). */
  baseUrl: () => string;
  /** Current time in seconds. */
  now: () => number;
  /** Called for every event raised, in order. */
  onEvent: (event: StripeObject) => void;
}

interface SessionExtras {
  paymentIntentData: { metadata: Record<string, string>; description: string | null };
  lineItems: StripeObject[];
}

export class StripeState {
  readonly sessions = new Map<string, StripeObject>();
  readonly paymentIntents = new Map<string, StripeObject>();
  readonly charges = new Map<string, StripeObject>();
  readonly events: StripeObject[] = [];
  readonly #extras = new Map<string, SessionExtras>();
  readonly #receipts = new Map<string, string>();
  /** Payments of completed sessions whose money has not moved yet, by session id. */
  readonly #pending = new Map<
    string,
    { cardDetails: StripeObject; customer: CustomerInput; paymentMethodId: string }
  >();
  readonly #options: StateOptions;

  constructor(options: StateOptions) {
    this.#options = options;
  }

  #raise(type: string, object: StripeObject): StripeObject {
    const event: StripeObject = {
      id: stripeId('evt'),
      object: 'event',
      api_version: stripeApiVersion,
      created: this.#options.now(),
      data: { object: copy(object) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    };
    this.events.push(event);
    this.#options.onEvent(copy(event));
    return event;
  }

  /** POST /v1/checkout/sessions with params already checked against the spec (and coerced). */
  createCheckoutSession(params: StripeObject): StripeObject {
    const mode = params.mode as string | undefined;
    if (mode !== 'payment') {
      throw new StripeApiError(400, 'This emulator implements Checkout in `payment` mode only.', {
        param: 'mode',
      });
    }
    const successUrl = params.success_url as string;
    const cancelUrl = (params.cancel_url as string | undefined) ?? null;
    for (const [param, url] of [
      ['success_url', successUrl],
      ['cancel_url', cancelUrl],
    ] as const) {
      if (url !== null && !/^https?:\/\//.test(url)) {
        throw new StripeApiError(400, `Not a valid URL`, { param, code: 'url_invalid' });
      }
    }
    const items = (params.line_items as StripeObject[] | undefined) ?? [];
    if (items.length === 0) {
      throw new StripeApiError(400, 'You must provide at least one line item.', {
        param: 'line_items',
      });
    }
    let currency: string | undefined;
    let total = 0;
    const lineItems = items.map((item, index) => {
      const priceData = item.price_data as StripeObject | undefined;
      if (!priceData) {
        throw new StripeApiError(400, 'This emulator supports line items with `price_data` only.', {
          param: `line_items[${index}][price]`,
        });
      }
      const itemCurrency = String(priceData.currency).toLowerCase();
      if (currency && itemCurrency !== currency) {
        throw new StripeApiError(400, 'All line items must be in the same currency.', {
          param: `line_items[${index}][price_data][currency]`,
        });
      }
      currency = itemCurrency;
      const unitAmount = priceData.unit_amount;
      if (typeof unitAmount !== 'number' || unitAmount < 0) {
        throw new StripeApiError(400, 'Missing required param: unit_amount.', {
          param: `line_items[${index}][price_data][unit_amount]`,
        });
      }
      const quantity = typeof item.quantity === 'number' ? item.quantity : NaN;
      if (!Number.isInteger(quantity) || quantity < 1) {
        throw new StripeApiError(400, 'Quantity is required and must be at least 1.', {
          param: `line_items[${index}][quantity]`,
        });
      }
      const product = priceData.product_data as StripeObject | undefined;
      total += unitAmount * quantity;
      return {
        id: stripeId('li'),
        object: 'item',
        amount_subtotal: unitAmount * quantity,
        amount_total: unitAmount * quantity,
        currency: itemCurrency,
        description: (product?.name as string | undefined) ?? '',
        quantity,
        unit_amount: unitAmount,
      };
    });
    const requested = (params.currency as string | undefined)?.toLowerCase();
    if (requested && requested !== currency) {
      throw new StripeApiError(400, 'The currency must match the line items.', {
        param: 'currency',
      });
    }
    // Stripe's minimum charge for USD (and most currencies) is 50 minor units.
    if (total < 50) {
      throw new StripeApiError(
        400,
        `The Checkout Session's total amount due must add up to at least $0.50 ${currency ?? 'usd'}`,
        { code: 'amount_too_small' },
      );
    }
    const metadata = (params.metadata as Record<string, string> | undefined) ?? {};
    checkMetadata(metadata, 'metadata');
    const pid = (params.payment_intent_data as StripeObject | undefined) ?? {};
    const pidMetadata = (pid.metadata as Record<string, string> | undefined) ?? {};
    checkMetadata(pidMetadata, 'payment_intent_data[metadata]');

    const now = this.#options.now();
    const expiresAt = typeof params.expires_at === 'number' ? params.expires_at : now + 24 * 3600;
    if (expiresAt < now + 30 * 60 || expiresAt > now + 24 * 3600) {
      throw new StripeApiError(400, 'expires_at must be 30 minutes to 24 hours from now.', {
        param: 'expires_at',
      });
    }
    const id = stripeId('cs_test', 58);
    const session: StripeObject = {
      id,
      object: 'checkout.session',
      after_expiration: null,
      allow_promotion_codes: null,
      amount_subtotal: total,
      amount_total: total,
      automatic_tax: { enabled: false, status: null },
      billing_address_collection: null,
      cancel_url: cancelUrl,
      client_reference_id: (params.client_reference_id as string | undefined) ?? null,
      consent: null,
      consent_collection: null,
      created: now,
      currency,
      currency_conversion: null,
      custom_fields: [],
      custom_text: { shipping_address: null, submit: null },
      customer: null,
      customer_creation: 'if_required',
      customer_details: null,
      customer_email: (params.customer_email as string | undefined) ?? null,
      expires_at: expiresAt,
      invoice: null,
      invoice_creation: {
        enabled: false,
        invoice_data: {
          account_tax_ids: null,
          custom_fields: null,
          description: null,
          footer: null,
          metadata: {},
          rendering_options: null,
        },
      },
      livemode: false,
      locale: (params.locale as string | undefined) ?? null,
      metadata,
      mode: 'payment',
      payment_intent: null,
      payment_link: null,
      payment_method_collection: 'always',
      payment_method_options: {},
      payment_method_types: ['card'],
      payment_status: 'unpaid',
      phone_number_collection: { enabled: false },
      recovered_from: null,
      setup_intent: null,
      shipping_address_collection: null,
      shipping_cost: null,
      shipping_details: null,
      shipping_options: [],
      status: 'open',
      submit_type: (params.submit_type as string | undefined) ?? null,
      subscription: null,
      success_url: successUrl,
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      url: `${this.#options.baseUrl()}/c/pay/${id}`,
    };
    this.sessions.set(id, session);
    this.#extras.set(id, {
      paymentIntentData: {
        metadata: pidMetadata,
        description: (pid.description as string | undefined) ?? null,
      },
      lineItems,
    });
    return copy(session);
  }

  /** The live session (expired first if its time is up); throws resource_missing. */
  #session(id: string): StripeObject {
    const session = this.sessions.get(id);
    if (!session) {
      throw new StripeApiError(404, `No such checkout.session: '${id}'`, {
        code: 'resource_missing',
        param: 'session',
      });
    }
    if (session.status === 'open' && (session.expires_at as number) <= this.#options.now()) {
      this.#expire(session);
    }
    return session;
  }

  #expire(session: StripeObject): void {
    session.status = 'expired';
    session.url = null;
    this.#raise('checkout.session.expired', session);
  }

  retrieveSession(id: string): StripeObject {
    return copy(this.#session(id));
  }

  lineItems(id: string): StripeObject[] {
    this.#session(id);
    return copy(this.#extras.get(id)?.lineItems ?? []);
  }

  expireSession(id: string): StripeObject {
    const session = this.#session(id);
    if (session.status !== 'open') {
      throw new StripeApiError(
        400,
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`,
      );
    }
    this.#expire(session);
    return copy(session);
  }

  /**
   * What the hosted checkout page does when the customer pays: checks the card, creates the
   * PaymentIntent (and the Charge once the money moved) and completes the session.
   */
  completeSession(
    id: string,
    card: CardDetails,
    customer: CustomerInput,
    outcome: PaymentOutcome = 'paid',
  ): StripeObject {
    const session = this.#session(id);
    if (session.status !== 'open') {
      throw new StripeApiError(400, `This Checkout Session is ${String(session.status)}.`, {
        code: 'checkout_session_not_open',
      });
    }
    const now = this.#options.now();
    checkCard(card, now);
    const number = card.number.replace(/[\s-]/g, '');
    const extras = this.#extras.get(id);
    const amount = session.amount_total as number;
    const currency = session.currency as string;
    const paymentMethodId = stripeId('pm');
    const brand = brandOf(number);
    const cardDetails = {
      brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      exp_month: card.expMonth,
      exp_year: card.expYear,
      fingerprint: createHash('sha256').update(number).digest('base64url').slice(0, 16),
      funding: 'credit',
      installments: null,
      last4: number.slice(-4),
      mandate: null,
      network: brand,
      network_token: { used: false },
      three_d_secure: null,
      wallet: null,
    };
    const intentId = stripeId('pi');
    const intent: StripeObject = {
      id: intentId,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_details: { tip: {} },
      amount_received: 0,
      application: null,
      application_fee_amount: null,
      automatic_payment_methods: null,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: 'automatic',
      client_secret: `${intentId}_secret_${stripeId('x').slice(2)}`,
      confirmation_method: 'automatic',
      created: now,
      currency,
      customer: null,
      description: extras?.paymentIntentData.description ?? null,
      invoice: null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: { ...(extras?.paymentIntentData.metadata ?? {}) },
      next_action: null,
      on_behalf_of: null,
      payment_method: paymentMethodId,
      payment_method_options: {},
      payment_method_types: ['card'],
      processing: null,
      receipt_email: null,
      review: null,
      setup_future_usage: null,
      shipping: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: 'processing',
      transfer_data: null,
      transfer_group: null,
    };
    this.paymentIntents.set(intentId, intent);
    this.#pending.set(id, { cardDetails, customer, paymentMethodId });

    session.status = 'complete';
    session.url = null;
    session.payment_intent = intentId;
    session.customer_details = {
      address: {
        city: null,
        country: customer.country ?? null,
        line1: null,
        line2: null,
        postal_code: customer.postalCode ?? null,
        state: null,
      },
      email: customer.email,
      name: customer.name ?? null,
      phone: null,
      tax_exempt: 'none',
      tax_ids: [],
    };
    if (outcome === 'paid') {
      this.#settle(session, true, false);
    } else {
      this.#raise('payment_intent.processing', intent);
      this.#raise('checkout.session.completed', session);
    }
    return copy(session);
  }

  /** Settles a session completed with outcome 'processing' (a delayed payment method). */
  settleAsyncPayment(id: string, succeeded: boolean): StripeObject {
    const session = this.#session(id);
    if (session.status !== 'complete' || session.payment_status !== 'unpaid') {
      throw new StripeApiError(400, 'This Checkout Session has no payment awaiting settlement.');
    }
    this.#settle(session, succeeded, true);
    return copy(session);
  }

  #settle(session: StripeObject, succeeded: boolean, async: boolean): void {
    const pending = this.#pending.get(session.id as string);
    const intent = this.paymentIntents.get(session.payment_intent as string);
    if (!pending || !intent) throw new Error('no payment to settle');
    this.#pending.delete(session.id as string);
    const now = this.#options.now();
    if (!succeeded) {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = {
        type: 'card_error',
        code: 'payment_intent_payment_attempt_failed',
        message: 'The payment failed.',
      };
      this.#raise('payment_intent.payment_failed', intent);
      this.#raise('checkout.session.async_payment_failed', session);
      return;
    }
    const chargeId = stripeId('ch');
    const receiptToken = stripeId('rcpt', 40).slice(5);
    this.#receipts.set(receiptToken, chargeId);
    const amount = intent.amount as number;
    const charge: StripeObject = {
      id: chargeId,
      object: 'charge',
      amount,
      amount_captured: amount,
      amount_refunded: 0,
      application: null,
      application_fee: null,
      application_fee_amount: null,
      balance_transaction: stripeId('txn'),
      billing_details: {
        address: {
          city: null,
          country: pending.customer.country ?? null,
          line1: null,
          line2: null,
          postal_code: pending.customer.postalCode ?? null,
          state: null,
        },
        email: pending.customer.email,
        name: pending.customer.name ?? null,
        phone: null,
      },
      calculated_statement_descriptor: 'REPLATFORM',
      captured: true,
      created: now,
      currency: intent.currency,
      customer: null,
      description: intent.description,
      disputed: false,
      failure_balance_transaction: null,
      failure_code: null,
      failure_message: null,
      fraud_details: {},
      invoice: null,
      livemode: false,
      metadata: { ...(intent.metadata as Record<string, string>) },
      on_behalf_of: null,
      outcome: {
        network_status: 'approved_by_network',
        reason: null,
        risk_level: 'normal',
        risk_score: 20,
        seller_message: 'Payment complete.',
        type: 'authorized',
      },
      paid: true,
      payment_intent: intent.id,
      payment_method: pending.paymentMethodId,
      payment_method_details: { card: pending.cardDetails, type: 'card' },
      radar_options: {},
      receipt_email: pending.customer.email,
      receipt_number: null,
      receipt_url: `${this.#options.baseUrl()}/receipts/payment/${receiptToken}`,
      refunded: false,
      refunds: {
        object: 'list',
        data: [],
        has_more: false,
        url: `/v1/charges/${chargeId}/refunds`,
      },
      review: null,
      shipping: null,
      source_transfer: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: 'succeeded',
      transfer_data: null,
      transfer_group: null,
    };
    this.charges.set(chargeId, charge);
    intent.status = 'succeeded';
    intent.amount_received = amount;
    intent.latest_charge = chargeId;
    session.payment_status = 'paid';
    this.#raise('charge.succeeded', charge);
    this.#raise('payment_intent.succeeded', intent);
    this.#raise(
      async ? 'checkout.session.async_payment_succeeded' : 'checkout.session.completed',
      session,
    );
  }

  retrievePaymentIntent(id: string): StripeObject {
    const intent = this.paymentIntents.get(id);
    if (!intent) {
      throw new StripeApiError(404, `No such payment_intent: '${id}'`, {
        code: 'resource_missing',
        param: 'intent',
      });
    }
    return copy(intent);
  }

  retrieveCharge(id: string): StripeObject {
    const charge = this.charges.get(id);
    if (!charge) {
      throw new StripeApiError(404, `No such charge: '${id}'`, {
        code: 'resource_missing',
        param: 'charge',
      });
    }
    return copy(charge);
  }

  retrieveEvent(id: string): StripeObject {
    const event = this.events.find((e) => e.id === id);
    if (!event) {
      throw new StripeApiError(404, `No such event: '${id}'`, {
        code: 'resource_missing',
        param: 'id',
      });
    }
    return copy(event);
  }

  chargeForReceipt(token: string): StripeObject | undefined {
    const chargeId = this.#receipts.get(token);
    return chargeId ? copy(this.charges.get(chargeId)) : undefined;
  }

  /** Any object by id, for `expand[]` (the id prefix tells the type). */
  byId(id: string): StripeObject | undefined {
    if (id.startsWith('pi_')) return this.paymentIntents.get(id);
    if (id.startsWith('ch_')) return this.charges.get(id);
    if (id.startsWith('cs_')) return this.sessions.get(id);
    return undefined;
  }
}

function checkMetadata(metadata: Record<string, string>, param: string): void {
  const entries = Object.entries(metadata);
  if (entries.length > 50) {
    throw new StripeApiError(400, 'Metadata can have at most 50 keys.', { param });
  }
  for (const [key, value] of entries) {
    if (key.length > 40) {
      throw new StripeApiError(400, 'Metadata keys can be at most 40 characters.', {
        param: `${param}[${key}]`,
      });
    }
    if (value.length > 500) {
      throw new StripeApiError(400, 'Metadata values can be at most 500 characters.', {
        param: `${param}[${key}]`,
      });
    }
  }
}
