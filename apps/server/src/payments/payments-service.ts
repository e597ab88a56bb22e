import type { FastifyBaseLogger } from 'fastify';
import Stripe from 'stripe';
import { hasSelectedData, storesReady } from '@replatform/contracts/lifecycle';
import {
  dataTypeNames,
  normaliseStatus,
  type EntityCounts,
  type PaymentInfo,
  countsByType,
} from '@replatform/contracts/migration';
import {
  cardBrandOf,
  declinedTestCard,
  isExpired,
  type DemoPaymentRequest,
  type PaymentSummary,
  type PaymentsConfig,
} from '@replatform/contracts/payments';
import { BASE_FEE_CENTS, formatUsd, PER_RECORD_CENTS } from '@replatform/contracts/pricing';
import type { Db } from '@replatform/db/database';
import type { MigrationsRepository, StoredMigration } from '@replatform/db/migrations-repository';
import {
  PaymentsRepository,
  type FulfilmentResult,
  type PaymentDetails,
  type StoredQuote,
} from '@replatform/db/payments-repository';
import { RemigrationsRepository } from '@replatform/db/remigrations-repository';
import { countable } from '../migrations/countable.ts';
import type { CurrentUser } from '../auth/require-user.ts';
import type { Config } from '../config.ts';
import type { StoreConnections } from '../connections/store-connections.ts';
import { ApiError } from '../http/errors.ts';
import type { NotificationsService } from '../notifications/notifications.ts';
import {
  isPaidMigration,
  paymentInfoAfter,
  paymentInfoFrom,
  quoteFromPaymentInfo,
  quoteStillCurrent,
  quoteTerms,
  type QuoteTerms,
} from './quotes.ts';
import { receiptPdf } from './receipt-document.ts';

// spec.md section 8's texts.
export const MIGRATION_NOT_FOUND = 'Migration ID not found';
export const INITIATE_FAILED = 'Failed to initiate payment. Please try again.';
export const RECORD_FAILED = 'Failed to record payment status. Please contact support.';
export const STRIPE_NOT_INITIALIZED = 'Stripe not initialized.';

/** The simulated processing time of a demo payment (spec.md section 9). */
export const DEMO_PAYMENT_DELAY_MS = 1500;

/** An open Checkout Session is reused for the same terms while younger than this. */
const REUSE_SESSION_MS = 23 * 60 * 60 * 1000;

/**
 * How long an open demo quote counts as a payment in flight (stores and data cannot change). A
 * demo payment ends within seconds; one whose process stopped midway stops counting after this.
 */
export const DEMO_PAYMENT_IN_FLIGHT_MS = 2 * 60 * 1000;

export const STORES_NOT_CONNECTED =
  'Connect both your source and destination stores before paying.';
export const NO_DATA_SELECTED = 'Select the data to migrate before paying.';

/**
 * Both stores verified and data selected: only then is there something to price and pay for, and
 * nothing a payment would lock is still missing.
 */
export function assertPayable(migration: StoredMigration): void {
  const facts = {
    currentStep: migration.currentStep,
    status: normaliseStatus(migration.status),
    sourceStore: migration.sourceStore,
    destinationStore: migration.destinationStore,
    sourceVerified: migration.sourceVerified,
    destinationVerified: migration.destinationVerified,
    dataTypes: migration.dataTypes,
    paid: isPaidMigration(migration),
  };
  if (!storesReady(facts)) throw new ApiError(409, 'stores_not_connected', STORES_NOT_CONNECTED);
  if (!hasSelectedData(facts.dataTypes))
    throw new ApiError(409, 'no_data_selected', NO_DATA_SELECTED);
}

/** The stores, their sealed credentials and the data selection a quote was priced for. */
function sameRun(a: StoredMigration, b: StoredMigration): boolean {
  const selected = (m: StoredMigration) =>
    JSON.stringify([m.dataTypes.products, m.dataTypes.customers, m.dataTypes.orders].map(Boolean));
  return (
    a.sourceStore === b.sourceStore &&
    a.sourceStoreUrl === b.sourceStoreUrl &&
    a.sourceCredentials === b.sourceCredentials &&
    a.sourceVerified === b.sourceVerified &&
    a.destinationStore === b.destinationStore &&
    a.destinationStoreUrl === b.destinationStoreUrl &&
    a.destinationCredentials === b.destinationCredentials &&
    a.destinationVerified === b.destinationVerified &&
    selected(a) === selected(b)
  );
}

/**
 * Why a Checkout Session cannot be recorded as a payment for a migration. Each is final: asking
 * Stripe again will not change the answer (a delayed payment settles through another event).
 */
export class PaymentRejected extends Error {
  readonly reason: 'unknown_session' | 'foreign_session' | 'not_paid' | 'amount_mismatch';
  constructor(reason: PaymentRejected['reason'], message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Why a demo payment was not recorded although its card was accepted. */
type StaleReason = 'paid_meanwhile' | 'stores_changed' | 'not_sandbox';

function staleRefusal(reason: StaleReason): ApiError {
  switch (reason) {
    case 'paid_meanwhile':
      return new ApiError(
        409,
        'already_paid',
        'This migration was paid for meanwhile; nothing more was recorded.',
      );
    case 'stores_changed':
      return new ApiError(
        409,
        'stores_changed',
        'The stores or the data of this migration changed during the payment; nothing was recorded. Please review them and pay again.',
      );
    case 'not_sandbox':
      return new ApiError(
        403,
        'demo_payments_not_allowed',
        'Demo payments are only available in demo mode. Please check out with Stripe.',
      );
  }
}

export interface PaymentsServiceDeps {
  config: Config;
  db: Db;
  migrations: MigrationsRepository;
  connections: StoreConnections;
  notifications: NotificationsService;
  log: FastifyBaseLogger;
  stripe: Stripe | undefined;
  /** Whether both stores of a migration are built-in sandbox stores (nothing real moves). */
  isSandbox?: (migration: StoredMigration) => boolean;
  now?: () => Date;
}

export interface WebhookOutcome {
  received: true;
  duplicate?: true;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/**
 * Step 3. Prices come from the server's own count of the source; a payment is recorded only by
 * fulfil(), which checks the Checkout Session Stripe reports (paid, amount, currency, migration)
 * and records it through one conditional update, however many times and by whichever path
 * (webhook or the browser's return) it is called.
 */
export class PaymentsService {
  readonly quotes: PaymentsRepository;
  readonly #remigrations: RemigrationsRepository;
  readonly #deps: PaymentsServiceDeps;
  readonly #now: () => Date;

  constructor(deps: PaymentsServiceDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? (() => new Date());
    this.quotes = new PaymentsRepository(deps.db, this.#now);
    this.#remigrations = new RemigrationsRepository(deps.db);
  }

  get mode(): 'stripe' | 'demo' {
    return this.#deps.stripe ? 'stripe' : 'demo';
  }

  /**
   * Demo payments never replace a real one. With Stripe configured they are only for migrations
   * between the built-in sandbox stores, decided here on the server from the credentials sealed
   * on the migration; neither a demo account nor the browser's mock-mode flag grants more.
   * Without a migration to judge, the answer is the UI's hint: a demo account uses them.
   */
  demoAllowedFor(user: CurrentUser | null, migration?: StoredMigration): boolean {
    if (!this.#deps.stripe) return true;
    if (!migration) return Boolean(user?.isDemo);
    return Boolean(this.#deps.isSandbox?.(migration));
  }

  async paymentsConfig(user: CurrentUser | null, migrationId?: string): Promise<PaymentsConfig> {
    const migration =
      user && migrationId
        ? await this.#deps.migrations.findForUser(migrationId, user.id)
        : undefined;
    return {
      mode: this.mode,
      demoPaymentsAllowed: this.demoAllowedFor(user, migration),
      currency: 'usd',
      baseFeeCents: BASE_FEE_CENTS,
      perRecordCents: PER_RECORD_CENTS,
    };
  }

  #stripe(): Stripe {
    const stripe = this.#deps.stripe;
    if (!stripe) throw new ApiError(503, 'stripe_not_configured', STRIPE_NOT_INITIALIZED);
    return stripe;
  }

  async #ownMigration(user: CurrentUser, migrationId: string): Promise<StoredMigration> {
    const migration = await this.#deps.migrations.findForUser(migrationId, user.id);
    if (!migration) throw new ApiError(404, 'not_found', MIGRATION_NOT_FOUND);
    return migration;
  }

  /** Counts the selected data types in the source store itself (never the browser's numbers). */
  async #countSource(migration: StoredMigration, failure: string): Promise<EntityCounts> {
    if (!hasSelectedData(migration.dataTypes)) {
      throw new ApiError(409, 'no_data_selected', 'Select at least one data type.');
    }
    const source = this.#deps.connections.connectSide(migration, 'source');
    try {
      const access = this.#deps.connections.contentAccess(migration);
      const found = await Promise.all(
        dataTypeNames.map((entity) =>
          migration.dataTypes[entity] === true && countable(migration, entity, access)
            ? source.count(entity)
            : 0,
        ),
      );
      return countsByType(found);
    } catch (error) {
      this.#deps.log.warn({ err: error, migrationId: migration.id }, 'counting the source failed');
      throw new ApiError(502, 'source_count_failed', failure);
    }
  }

  /**
   * The number of the re-migration the owner would have to pay for to run the migration again:
   * it is completed, the free first re-migration was used and the next is not paid yet. Never for
   * demo accounts or sandbox stores (always free).
   */
  async #remigrationDue(migration: StoredMigration): Promise<number | undefined> {
    if (normaliseStatus(migration.status) !== 'completed' || !isPaidMigration(migration)) return;
    if (this.#deps.isSandbox?.(migration)) return;
    const used = await this.#remigrations.count(migration.id);
    if (used < 1) return;
    const bought = await this.#remigrations.paidQuoteFor(migration.id, used + 1);
    return bought ? undefined : used + 1;
  }

  async #terms(
    migration: StoredMigration,
    failure: string,
  ): Promise<{ counts: EntityCounts; terms: QuoteTerms }> {
    const counts = await this.#countSource(migration, failure);
    const remigrationDue = await this.#remigrationDue(migration);
    return { counts, terms: quoteTerms(counts, migration, { remigrationDue }) };
  }

  /** Keeps the counts a payment was priced on, for the Migrate step and the start check. */
  async #keepCounts(migration: StoredMigration, counts: EntityCounts): Promise<void> {
    await this.#deps.migrations.update(migration.id, migration.userId, {
      entityCounts: counts,
      totalEntities: counts.products + counts.customers + counts.orders,
    });
  }

  async summary(user: CurrentUser, migrationId: string): Promise<PaymentSummary> {
    const migration = await this.#ownMigration(user, migrationId);
    const { counts, terms } = await this.#terms(migration, INITIATE_FAILED);
    return {
      counts,
      records: terms.records,
      paidRecords: terms.paidRecords,
      kind: terms.kind,
      recordsDue: terms.recordsBought,
      baseCents: terms.baseCents,
      volumeCents: terms.volumeCents,
      taxCents: terms.taxCents,
      amountDueCents: terms.amountCents,
      currency: terms.currency,
    };
  }

  /**
   * POST /api/stripe/create-checkout-session: a quote from the server's count, then a Checkout
   * Session for exactly that amount. Before the first payment the full price; after it, only the
   * records the source gained (a top-up).
   */
  async createCheckout(
    user: CurrentUser,
    migrationId: string,
  ): Promise<{ url: string; id: string }> {
    const stripe = this.#stripe();
    const migration = await this.#ownMigration(user, migrationId);
    assertPayable(migration);
    const { counts, terms } = await this.#terms(migration, INITIATE_FAILED);
    if (terms.kind === 'none') {
      throw new ApiError(409, 'already_paid', 'This migration is already paid for.');
    }
    await this.#keepCounts(migration, counts);
    const quoteTermsKey = {
      migrationId: migration.id,
      provider: 'stripe' as const,
      kind: terms.kind,
      recordsBought: terms.recordsBought,
      previouslyPaidRecords: terms.paidRecords,
      amountCents: terms.amountCents,
    };
    const since = new Date(this.#now().getTime() - REUSE_SESSION_MS).toISOString();
    let quote = await this.quotes.findOpenQuote(quoteTermsKey, since);

    try {
      if (quote?.checkoutSessionId) {
        const existing = await stripe.checkout.sessions.retrieve(quote.checkoutSessionId);
        if (existing.status === 'open' && existing.url)
          return { url: existing.url, id: existing.id };
        if (existing.status === 'complete') {
          // Paid moments ago, before the webhook arrived: record it rather than charge again.
          await this.fulfilCheckoutSession(existing.id, {
            migrationId: migration.id,
            userId: user.id,
          }).catch((error: unknown) => {
            if (error instanceof PaymentRejected && error.reason === 'not_paid') {
              throw new ApiError(
                409,
                'payment_processing',
                'Your payment is still being processed. Please try again shortly.',
              );
            }
            throw error;
          });
          throw new ApiError(409, 'already_paid', 'This migration is already paid for.');
        }
        if (existing.status === 'expired') await this.quotes.expireQuote(quote.id);
        quote = undefined;
      }
      quote ??= await this.quotes.createQuote({
        ...quoteTermsKey,
        userId: user.id,
        counts,
        recordsTotal: terms.records,
        currency: terms.currency,
        remigrationNumber: terms.remigrationNumber ?? null,
      });

      const publicUrl = this.#deps.config.publicUrl;
      const page = `${publicUrl}/migrations/${encodeURIComponent(migration.id)}`;
      const metadata = { migration_id: migration.id, quote_id: quote.id };
      const description =
        terms.kind === 'top_up'
          ? `${terms.recordsBought.toLocaleString('en-US')} additional records at ${formatUsd(PER_RECORD_CENTS)} each`
          : `${terms.records.toLocaleString('en-US')} records (${formatUsd(terms.baseCents)} base fee + ${formatUsd(PER_RECORD_CENTS)} per record)`;
      const productName =
        terms.kind === 'initial'
          ? `Store migration: ${migration.storeName}`
          : terms.kind === 'remigration'
            ? `Re-migration ${terms.remigrationNumber ?? ''}: ${migration.storeName}`
            : `Additional records: ${migration.storeName}`;
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: terms.currency,
                unit_amount: terms.amountCents,
                product_data: { name: productName, description },
              },
            },
          ],
          customer_email: user.email || undefined,
          client_reference_id: migration.id,
          metadata,
          payment_intent_data: { metadata, description: `Replatform migration ${migration.id}` },
          // Literal {CHECKOUT_SESSION_ID}: Stripe puts the session id there on redirect.
          success_url: `${page}?payment=success&session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${page}?payment=cancelled`,
        },
        { idempotencyKey: `replatform-checkout-${quote.id}` },
      );
      if (!session.url) throw new Error('Stripe answered a Checkout Session without a URL');
      await this.quotes.attachCheckoutSession(quote.id, session.id, session.url);
      return { url: session.url, id: session.id };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      this.#deps.log.error(
        { err: error, migrationId: migration.id },
        'creating a Checkout Session failed',
      );
      throw new ApiError(502, 'payment_initiation_failed', INITIATE_FAILED);
    }
  }

  /**
   * The one fulfilment of a Checkout Session, shared by the webhook and the return call. Asks
   * Stripe for the session (the caller's word counts for nothing), checks it against our quote,
   * then records it; `fulfilled` is true for exactly one call per session.
   */
  async fulfilCheckoutSession(
    sessionId: string,
    expected: { migrationId?: string; userId?: string } = {},
  ): Promise<FulfilmentResult> {
    const stripe = this.#stripe();
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.retrieve(sessionId, {
        expand: ['payment_intent.latest_charge'],
      });
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) {
        throw new PaymentRejected('unknown_session', 'Stripe knows no such Checkout Session.');
      }
      throw error;
    }

    const quoteId = session.metadata?.quote_id;
    const quote = quoteId ? await this.quotes.findQuote(quoteId) : undefined;
    if (
      !quote ||
      quote.provider !== 'stripe' ||
      session.metadata?.migration_id !== quote.migrationId ||
      (quote.checkoutSessionId !== null && quote.checkoutSessionId !== session.id) ||
      (expected.migrationId !== undefined && expected.migrationId !== quote.migrationId) ||
      (expected.userId !== undefined && expected.userId !== quote.userId)
    ) {
      throw new PaymentRejected(
        'foreign_session',
        'This Checkout Session is not for this migration.',
      );
    }
    if (
      session.mode !== 'payment' ||
      session.status !== 'complete' ||
      session.payment_status !== 'paid'
    ) {
      throw new PaymentRejected('not_paid', 'The payment has not been completed.');
    }
    const intent = typeof session.payment_intent === 'object' ? session.payment_intent : null;
    const charge = intent && typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
    if (
      session.amount_total !== quote.amountCents ||
      session.currency !== quote.currency ||
      intent === null ||
      intent.status !== 'succeeded' ||
      intent.amount_received !== quote.amountCents ||
      intent.currency !== quote.currency
    ) {
      this.#deps.log.error(
        {
          sessionId: session.id,
          quoteId: quote.id,
          amount: session.amount_total,
          currency: session.currency,
        },
        'a paid Checkout Session does not match its quote',
      );
      throw new PaymentRejected('amount_mismatch', 'The amount paid does not match the price.');
    }
    // A session made for the quote whose id was not saved (the server stopped in between).
    if (quote.checkoutSessionId === null) {
      await this.quotes.attachCheckoutSession(quote.id, session.id, session.url ?? '');
    }

    const card = charge?.payment_method_details?.card;
    const details: PaymentDetails = {
      // When Stripe took the money, not when we heard of it.
      paidAt: (charge ? new Date(charge.created * 1000) : this.#now()).toISOString(),
      paymentIntentId: idOf(session.payment_intent),
      chargeId: charge?.id ?? idOf(intent?.latest_charge),
      receiptUrl: charge?.receipt_url ?? null,
      paymentMethod: {
        type: charge?.payment_method_details?.type ?? 'card',
        ...(card?.brand && card.last4 ? { card: { brand: card.brand, last4: card.last4 } } : {}),
      },
      customerEmail: session.customer_details?.email ?? charge?.billing_details?.email ?? null,
    };
    const result = await this.#record(quote, details);
    if (result.fulfilled) await this.#expireOtherSessions(quote);
    return result;
  }

  /**
   * Records a verified payment of a quote once, with its notification in the same transaction.
   * `onlyIfCurrent` (for demo payments, which take no money) refuses, inside that transaction, a
   * quote made before another payment was recorded (two at once must not both count), or whose
   * migration no longer has the stores and data it was priced for, or whose stores may no longer
   * be paid for with a demo payment; it answers why through `refused`.
   */
  async #record(
    quote: StoredQuote,
    details: PaymentDetails,
    options: {
      onlyIfCurrent?: { pricedFor: StoredMigration; refused: (reason: StaleReason) => void };
    } = {},
  ): Promise<FulfilmentResult> {
    const migration = await this.#deps.migrations.findForUser(quote.migrationId, quote.userId);
    const storeName = migration?.storeName ?? 'your migration';
    const amount = formatUsd(quote.amountCents);
    const message =
      quote.provider === 'demo'
        ? `Demo payment of ${amount} for "${storeName}" recorded. No money was charged.`
        : quote.kind === 'top_up'
          ? `Your payment of ${amount} for "${storeName}" was received. It covers ${quote.recordsBought.toLocaleString('en-US')} more records.`
          : quote.kind === 'remigration'
            ? `Your payment of ${amount} for re-migration ${quote.remigrationNumber ?? ''} of "${storeName}" was received. You can start it now.`
            : `Your payment of ${amount} for "${storeName}" was received. You can start the migration now.`;
    const current = options.onlyIfCurrent;
    return this.quotes.fulfil(quote.id, details, {
      ...(current
        ? {
            stillCurrent: (now: {
              paymentInfo: Record<string, unknown> | undefined;
              paidQuotes: StoredQuote[];
              migration: StoredMigration | undefined;
            }) => {
              if (!quoteStillCurrent(quote, now.paymentInfo, now.paidQuotes)) {
                current.refused('paid_meanwhile');
                return false;
              }
              if (!now.migration || !sameRun(current.pricedFor, now.migration)) {
                current.refused('stores_changed');
                return false;
              }
              if (!this.demoAllowedFor(null, now.migration)) {
                current.refused('not_sandbox');
                return false;
              }
              return true;
            },
          }
        : {}),
      paymentInfo: (paid, before) =>
        migration ? paymentInfoAfter(migration, paid, before, quote.id) : paymentInfoFrom(paid),
      within: async (trx) => {
        await this.#deps.notifications.notify(
          {
            userId: quote.userId,
            type: 'success',
            title: 'Payment received',
            message,
            migrationId: quote.migrationId,
          },
          { within: trx },
        );
      },
    });
  }

  /** Other open sessions of the migration could be paid too; close them (best effort). */
  async #expireOtherSessions(paid: StoredQuote): Promise<void> {
    const stripe = this.#deps.stripe;
    if (!stripe) return;
    for (const open of await this.quotes.openQuotes(paid.migrationId)) {
      if (open.id === paid.id || open.provider !== 'stripe') continue;
      try {
        if (open.checkoutSessionId) await stripe.checkout.sessions.expire(open.checkoutSessionId);
        await this.quotes.expireQuote(open.id);
      } catch (error) {
        this.#deps.log.warn(
          { err: error, quoteId: open.id },
          'could not expire an unused Checkout Session',
        );
      }
    }
  }

  /** POST /api/stripe/payment-success: the browser's return, for the signed-in owner only. */
  async confirmReturn(
    user: CurrentUser,
    migrationId: string,
    sessionId: string,
  ): Promise<PaymentInfo> {
    this.#stripe();
    const migration = await this.#ownMigration(user, migrationId);
    try {
      const result = await this.fulfilCheckoutSession(sessionId, {
        migrationId: migration.id,
        userId: user.id,
      });
      if (!result.paymentInfo) throw new ApiError(404, 'not_found', MIGRATION_NOT_FOUND);
      return result.paymentInfo as PaymentInfo;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      if (error instanceof PaymentRejected) {
        this.#deps.log.warn({ migrationId, reason: error.reason }, 'payment return refused');
        throw new ApiError(409, `payment_${error.reason}`, RECORD_FAILED, [error.message]);
      }
      this.#deps.log.error({ err: error, migrationId }, 'recording a payment failed');
      throw new ApiError(502, 'payment_record_failed', RECORD_FAILED);
    }
  }

  /**
   * POST /api/stripe/webhook. The signature is checked over the raw body; each event is handled
   * once by id, and only by re-reading the session from Stripe, so events that arrive late, twice
   * or out of order change nothing that is already settled.
   */
  async handleWebhook(rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
    const secret = this.#deps.config.stripe.webhookSecret;
    const stripe = this.#deps.stripe;
    if (!stripe || !secret) {
      throw new ApiError(
        503,
        'webhook_not_configured',
        'Stripe webhooks are not configured on this server.',
      );
    }
    let event: Stripe.Event;
    try {
      event = stripe.webhooks.constructEvent(rawBody, signature ?? '', secret);
    } catch (error) {
      this.#deps.log.warn({ reason: (error as Error).message }, 'webhook signature refused');
      throw new ApiError(400, 'invalid_signature', 'The webhook signature could not be verified.');
    }

    const handled = [
      'checkout.session.completed',
      'checkout.session.async_payment_succeeded',
      'checkout.session.async_payment_failed',
      'checkout.session.expired',
    ];
    if (!handled.includes(event.type)) return { received: true };
    const sessionId = (event.data.object as { id?: string }).id ?? '';
    const seen = await this.quotes.recordEvent({
      id: event.id,
      type: event.type,
      objectId: sessionId,
    });
    if (seen === 'processed') return { received: true, duplicate: true };

    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        try {
          await this.fulfilCheckoutSession(sessionId);
        } catch (error) {
          // Final answers are acknowledged (a retry would get the same); anything else (Stripe or
          // the database unreachable) answers 500 so Stripe delivers the event again.
          if (!(error instanceof PaymentRejected)) throw error;
          const level = error.reason === 'not_paid' ? 'info' : 'warn';
          this.#deps.log[level](
            { eventId: event.id, sessionId, reason: error.reason },
            'webhook did not record a payment',
          );
        }
        break;
      case 'checkout.session.expired':
        await this.#sessionExpired(sessionId);
        break;
      case 'checkout.session.async_payment_failed':
        await this.#asyncPaymentFailed(sessionId);
        break;
    }
    await this.quotes.markEventProcessed(event.id);
    return { received: true };
  }

  async #sessionExpired(sessionId: string): Promise<void> {
    const quote = await this.quotes.findQuoteBySession(sessionId);
    if (!quote || quote.status !== 'open') return;
    const session = await this.#stripe().checkout.sessions.retrieve(sessionId);
    if (session.status === 'expired') await this.quotes.expireQuote(quote.id);
  }

  async #asyncPaymentFailed(sessionId: string): Promise<void> {
    const quote = await this.quotes.findQuoteBySession(sessionId);
    if (!quote || quote.status === 'paid') return;
    await this.#deps.notifications.notify({
      userId: quote.userId,
      type: 'error',
      title: 'Payment failed',
      message:
        'Your bank did not complete the payment. Please try again with another payment method.',
      migrationId: quote.migrationId,
    });
  }

  /** GET /api/stripe/receipt/{id}: Stripe's receipt of the latest payment, ours for demo ones. */
  async receiptUrl(user: CurrentUser, migrationId: string): Promise<string> {
    const migration = await this.#ownMigration(user, migrationId);
    const paid = await this.quotes.paidQuotes(migration.id);
    const latest = paid.at(-1);
    const ours = `${this.#deps.config.publicUrl}/api/receipts/${encodeURIComponent(migration.id)}.pdf`;
    if (!latest) {
      if (quoteFromPaymentInfo(migration)) return ours;
      throw new ApiError(404, 'receipt_not_available', 'Receipt not available');
    }
    if (latest.provider === 'demo') return ours;
    if (latest.receiptUrl) return latest.receiptUrl;
    const stripe = this.#stripe();
    try {
      if (latest.chargeId) {
        const charge = await stripe.charges.retrieve(latest.chargeId);
        if (charge.receipt_url) return charge.receipt_url;
      }
    } catch (error) {
      this.#deps.log.warn({ err: error, migrationId }, 'could not read the receipt from Stripe');
    }
    throw new ApiError(
      404,
      'receipt_not_available',
      'Receipt not yet available. Please try again in a few minutes.',
    );
  }

  /** GET /api/receipts/{id}.pdf: our own receipt document, for the owner only. */
  async receiptDocument(user: CurrentUser, migrationId: string): Promise<Buffer> {
    const migration = await this.#ownMigration(user, migrationId);
    let paid = await this.quotes.paidQuotes(migration.id);
    if (paid.length === 0) {
      const recorded = quoteFromPaymentInfo(migration);
      if (!recorded) throw new ApiError(404, 'receipt_not_available', 'Receipt not available');
      paid = [recorded];
    }
    return await receiptPdf({
      migration,
      paidQuotes: paid,
      publicUrl: this.#deps.config.publicUrl,
      now: this.#now(),
    });
  }

  /**
   * POST /api/payments/demo: a clearly marked simulated payment (paymentInfo.demo), through the
   * same quote and fulfilment as a real one, after the sketch's 1.5 s of "processing". The quote
   * is made first, so while it is open the migration's stores and data cannot change (the verify
   * routes and PATCH refuse); the fulfilment then records it only if the migration still has the
   * stores and data it was priced for, and, with Stripe on, only if both are still sandbox stores.
   */
  async demoPay(user: CurrentUser, input: DemoPaymentRequest): Promise<PaymentInfo> {
    const migration = await this.#ownMigration(user, input.migrationId);
    if (!this.demoAllowedFor(user, migration)) {
      throw new ApiError(
        403,
        'demo_payments_not_allowed',
        'Demo payments are only available in demo mode. Please check out with Stripe.',
      );
    }
    assertPayable(migration);
    if (await this.demoPaymentInFlight(migration.id)) {
      throw new ApiError(
        409,
        'payment_in_flight',
        'A payment for this migration is already being processed. Please wait a moment.',
      );
    }
    const { counts, terms } = await this.#terms(migration, INITIATE_FAILED);
    if (terms.kind === 'none')
      throw new ApiError(409, 'already_paid', 'This migration is already paid for.');
    if (input.method === 'card' && isExpired(input.expiry, this.#now())) {
      throw new ApiError(402, 'expired_card', 'Your card has expired.');
    }
    const quote = await this.quotes.createQuote({
      migrationId: migration.id,
      userId: user.id,
      kind: terms.kind,
      provider: 'demo',
      counts,
      recordsTotal: terms.records,
      previouslyPaidRecords: terms.paidRecords,
      recordsBought: terms.recordsBought,
      amountCents: terms.amountCents,
      currency: terms.currency,
      remigrationNumber: terms.remigrationNumber ?? null,
    });
    try {
      await sleep(DEMO_PAYMENT_DELAY_MS);
      const digits = input.method === 'card' ? input.cardNumber.replace(/[\s-]/g, '') : '';
      if (digits === declinedTestCard)
        throw new ApiError(402, 'card_declined', 'Your card was declined.');

      let refusal: StaleReason = 'paid_meanwhile';
      const result = await this.#record(
        quote,
        {
          paidAt: this.#now().toISOString(),
          paymentMethod:
            input.method === 'card'
              ? { type: 'card', card: { brand: cardBrandOf(digits), last4: digits.slice(-4) } }
              : { type: 'paypal' },
          customerEmail: input.email,
        },
        { onlyIfCurrent: { pricedFor: migration, refused: (reason) => (refusal = reason) } },
      );
      if (result.stale) throw staleRefusal(refusal);
      if (!result.paymentInfo) throw new ApiError(404, 'not_found', MIGRATION_NOT_FOUND);
      await this.#keepCounts(migration, counts);
      return result.paymentInfo as PaymentInfo;
    } finally {
      // Declined or refused: the quote can no longer be paid (a paid one stays paid).
      await this.quotes.expireQuote(quote.id);
    }
  }

  /** Whether a demo payment of the migration is being processed right now (by any process). */
  demoPaymentInFlight(migrationId: string): Promise<boolean> {
    const since = new Date(this.#now().getTime() - DEMO_PAYMENT_IN_FLIGHT_MS).toISOString();
    return this.quotes.demoPaymentInFlight(migrationId, since);
  }
}
