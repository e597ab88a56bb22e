import type { Kysely, Selectable } from 'kysely';
import type { Db } from './database.ts';
import { migrationFromRow, newId, type StoredMigration } from './migrations-repository.ts';
import type { Database, PaymentQuotesTable } from './schema.ts';

/**
 * initial: the first payment. top_up: records the source gained after it. remigration: a run
 * started again on a completed migration, beyond the free first one.
 */
export type QuoteKind = 'initial' | 'top_up' | 'remigration';
export type QuoteProvider = 'stripe' | 'demo';
export type QuoteStatus = 'open' | 'paid' | 'expired';

export interface PaymentMethodDetails {
  type: string;
  card?: { brand: string; last4: string };
}

export interface StoredQuote {
  id: string;
  migrationId: string;
  userId: string;
  kind: QuoteKind;
  provider: QuoteProvider;
  counts: {
    products: number;
    customers: number;
    orders: number;
    coupons?: number;
    reviews?: number;
    brands?: number;
  };
  /** Records the source held when the quote was made. */
  recordsTotal: number;
  /** Records already paid for before this quote. */
  previouslyPaidRecords: number;
  /** Records this quote pays for (added to the paid total once paid). */
  recordsBought: number;
  amountCents: number;
  currency: string;
  status: QuoteStatus;
  checkoutSessionId: string | null;
  checkoutUrl: string | null;
  paymentIntentId: string | null;
  chargeId: string | null;
  receiptUrl: string | null;
  paymentMethod: PaymentMethodDetails | null;
  customerEmail: string | null;
  createdAt: string;
  paidAt: string | null;
  /** For a 'remigration' quote: which re-migration (2, 3, ...) it pays for. */
  remigrationNumber: number | null;
}

export type NewQuote = Pick<
  StoredQuote,
  | 'migrationId'
  | 'userId'
  | 'kind'
  | 'provider'
  | 'counts'
  | 'recordsTotal'
  | 'previouslyPaidRecords'
  | 'recordsBought'
  | 'amountCents'
  | 'currency'
> &
  Partial<Pick<StoredQuote, 'remigrationNumber'>>;

export interface PaymentDetails {
  paidAt: string;
  paymentIntentId?: string | null;
  chargeId?: string | null;
  receiptUrl?: string | null;
  paymentMethod?: PaymentMethodDetails | null;
  customerEmail?: string | null;
}

export interface FulfilmentHooks {
  /**
   * The migration's paymentInfo given all its paid quotes (this one included), oldest first, and
   * the paymentInfo it had before this payment.
   */
  paymentInfo: (
    paidQuotes: StoredQuote[],
    before: Record<string, unknown> | undefined,
  ) => Record<string, unknown>;
  /**
   * Asked inside the fulfilling transaction, with the payments and the migration as they are
   * now: false when the quote was priced against payments or stores that changed since (another
   * payment was recorded meanwhile, a store was replaced), and it is then expired instead of
   * paid. For payments that took no money (demo); a real charge is always recorded.
   */
  stillCurrent?: (now: {
    paymentInfo: Record<string, unknown> | undefined;
    paidQuotes: StoredQuote[];
    migration: StoredMigration | undefined;
  }) => boolean;
  /** Runs inside the fulfilling transaction, only for the call that fulfilled. */
  within?: (trx: Kysely<Database>, fulfilled: FulfilmentResult) => Promise<void>;
}

export interface FulfilmentResult {
  /** True for exactly one call per quote: the one that recorded the payment. */
  fulfilled: boolean;
  /** Refused by `stillCurrent`: other payments were recorded after this quote was made. */
  stale?: true;
  quote: StoredQuote;
  /** The migration's paymentInfo after the payment (undefined when the migration is gone). */
  paymentInfo: Record<string, unknown> | undefined;
}

export type EventReceipt = 'new' | 'unfinished' | 'processed';

function fromRow(row: Selectable<PaymentQuotesTable>): StoredQuote {
  return {
    id: row.id,
    migrationId: row.migration_id,
    userId: row.user_id,
    kind: row.kind as QuoteKind,
    provider: row.provider as QuoteProvider,
    counts: JSON.parse(row.counts),
    recordsTotal: Number(row.records_total),
    previouslyPaidRecords: Number(row.previously_paid_records),
    recordsBought: Number(row.records_bought),
    amountCents: Number(row.amount_cents),
    currency: row.currency,
    status: row.status as QuoteStatus,
    checkoutSessionId: row.checkout_session_id,
    checkoutUrl: row.checkout_url,
    paymentIntentId: row.payment_intent_id,
    chargeId: row.charge_id,
    receiptUrl: row.receipt_url,
    paymentMethod: row.payment_method === null ? null : JSON.parse(row.payment_method),
    customerEmail: row.customer_email,
    createdAt: row.created_at,
    paidAt: row.paid_at,
    remigrationNumber: row.remigration_number === null ? null : Number(row.remigration_number),
  };
}

/**
 * Quotes and their fulfilment. A quote is the server's own price for a migration's records; a
 * payment (Stripe or demo) is recorded against exactly one quote, exactly once.
 */
export class PaymentsRepository {
  readonly #db: Db;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.#db = db;
    this.#now = now;
  }

  async createQuote(input: NewQuote): Promise<StoredQuote> {
    const row = await this.#db.kysely
      .insertInto('payment_quotes')
      .values({
        id: newId(),
        migration_id: input.migrationId,
        user_id: input.userId,
        kind: input.kind,
        provider: input.provider,
        counts: JSON.stringify(input.counts),
        records_total: input.recordsTotal,
        previously_paid_records: input.previouslyPaidRecords,
        records_bought: input.recordsBought,
        amount_cents: input.amountCents,
        currency: input.currency,
        status: 'open',
        checkout_session_id: null,
        checkout_url: null,
        payment_intent_id: null,
        charge_id: null,
        receipt_url: null,
        payment_method: null,
        customer_email: null,
        created_at: this.#now().toISOString(),
        paid_at: null,
        remigration_number: input.remigrationNumber ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return fromRow(row);
  }

  async findQuote(id: string): Promise<StoredQuote | undefined> {
    const row = await this.#db.kysely
      .selectFrom('payment_quotes')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async findQuoteBySession(sessionId: string): Promise<StoredQuote | undefined> {
    const row = await this.#db.kysely
      .selectFrom('payment_quotes')
      .selectAll()
      .where('checkout_session_id', '=', sessionId)
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  /** Every quote of a migration, oldest first. */
  async listQuotes(migrationId: string): Promise<StoredQuote[]> {
    const rows = await this.#db.kysely
      .selectFrom('payment_quotes')
      .selectAll()
      .where('migration_id', '=', migrationId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
    return rows.map(fromRow);
  }

  async paidQuotes(migrationId: string): Promise<StoredQuote[]> {
    return (await this.listQuotes(migrationId)).filter((q) => q.status === 'paid');
  }

  /**
   * The newest open quote for exactly these terms made after `since`, so pressing Checkout twice
   * reuses one Checkout Session instead of opening a second one that could also be paid.
   */
  async findOpenQuote(
    terms: Pick<
      NewQuote,
      | 'migrationId'
      | 'provider'
      | 'kind'
      | 'recordsBought'
      | 'previouslyPaidRecords'
      | 'amountCents'
    >,
    since: string,
  ): Promise<StoredQuote | undefined> {
    const row = await this.#db.kysely
      .selectFrom('payment_quotes')
      .selectAll()
      .where('migration_id', '=', terms.migrationId)
      .where('provider', '=', terms.provider)
      .where('status', '=', 'open')
      .where('records_bought', '=', terms.recordsBought)
      .where('previously_paid_records', '=', terms.previouslyPaidRecords)
      .where('amount_cents', '=', terms.amountCents)
      .where('kind', '=', terms.kind)
      .where('created_at', '>', since)
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  /**
   * Whether a demo payment of the migration is being processed: an open demo quote made after
   * `since` (one whose process stopped midway stops counting once it is older).
   */
  async demoPaymentInFlight(migrationId: string, since: string): Promise<boolean> {
    const row = await this.#db.kysely
      .selectFrom('payment_quotes')
      .select('id')
      .where('migration_id', '=', migrationId)
      .where('provider', '=', 'demo')
      .where('status', '=', 'open')
      .where('created_at', '>', since)
      .executeTakeFirst();
    return row !== undefined;
  }

  async openQuotes(migrationId: string): Promise<StoredQuote[]> {
    return (await this.listQuotes(migrationId)).filter((q) => q.status === 'open');
  }

  /** Links the Checkout Session made for a quote; a quote never changes session once it has one. */
  async attachCheckoutSession(quoteId: string, sessionId: string, url: string): Promise<boolean> {
    const result = await this.#db.kysely
      .updateTable('payment_quotes')
      .set({ checkout_session_id: sessionId, checkout_url: url })
      .where('id', '=', quoteId)
      .where((eb) =>
        eb.or([eb('checkout_session_id', 'is', null), eb('checkout_session_id', '=', sessionId)]),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** An open quote that can no longer be paid (its session expired); a paid one stays paid. */
  async expireQuote(quoteId: string): Promise<boolean> {
    const result = await this.#db.kysely
      .updateTable('payment_quotes')
      .set({ status: 'expired' })
      .where('id', '=', quoteId)
      .where('status', '=', 'open')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Records the payment of a quote and the migration's new paymentInfo in one transaction. The
   * quote moves to 'paid' through one conditional update, so of any number of concurrent callers
   * exactly one gets `fulfilled: true`; the others see the payment already recorded.
   */
  async fulfil(
    quoteId: string,
    details: PaymentDetails,
    hooks: FulfilmentHooks,
  ): Promise<FulfilmentResult> {
    return this.#db.kysely.transaction().execute(async (trx) => {
      const quote = await trx
        .selectFrom('payment_quotes')
        .selectAll()
        .where('id', '=', quoteId)
        .executeTakeFirst();
      if (!quote) throw new Error(`quote ${quoteId} does not exist`);

      // Serialises fulfilments of one migration's quotes, so the paid totals below include every
      // committed payment. SQLite needs nothing: its one connection runs one transaction at a time.
      if (this.#db.dialect === 'postgres') {
        await trx
          .selectFrom('migrations')
          .select('id')
          .where('id', '=', quote.migration_id)
          .forUpdate()
          .execute();
      }

      if (hooks.stillCurrent && quote.status === 'open') {
        const paidQuotes = await trx
          .selectFrom('payment_quotes')
          .selectAll()
          .where('migration_id', '=', quote.migration_id)
          .where('status', '=', 'paid')
          .orderBy('paid_at', 'asc')
          .orderBy('created_at', 'asc')
          .execute();
        const row = await trx
          .selectFrom('migrations')
          .selectAll()
          .where('id', '=', quote.migration_id)
          .executeTakeFirst();
        const migration = row ? migrationFromRow(row) : undefined;
        const paymentInfo = migration?.paymentInfo ?? undefined;
        if (!hooks.stillCurrent({ paymentInfo, paidQuotes: paidQuotes.map(fromRow), migration })) {
          await trx
            .updateTable('payment_quotes')
            .set({ status: 'expired' })
            .where('id', '=', quoteId)
            .where('status', '=', 'open')
            .execute();
          return {
            fulfilled: false,
            stale: true as const,
            quote: { ...fromRow(quote), status: 'expired' as const },
            paymentInfo,
          };
        }
      }

      const paid = await trx
        .updateTable('payment_quotes')
        .set({
          status: 'paid',
          paid_at: details.paidAt,
          payment_intent_id: details.paymentIntentId ?? null,
          charge_id: details.chargeId ?? null,
          receipt_url: details.receiptUrl ?? null,
          payment_method: details.paymentMethod ? JSON.stringify(details.paymentMethod) : null,
          customer_email: details.customerEmail ?? null,
        })
        .where('id', '=', quoteId)
        .where('status', '<>', 'paid')
        .returningAll()
        .executeTakeFirst();

      if (!paid) {
        const migration = await trx
          .selectFrom('migrations')
          .select('payment_info')
          .where('id', '=', quote.migration_id)
          .executeTakeFirst();
        return {
          fulfilled: false,
          quote: fromRow(quote),
          paymentInfo: migration?.payment_info ? JSON.parse(migration.payment_info) : undefined,
        };
      }

      const paidRows = await trx
        .selectFrom('payment_quotes')
        .selectAll()
        .where('migration_id', '=', paid.migration_id)
        .where('status', '=', 'paid')
        .orderBy('paid_at', 'asc')
        .orderBy('created_at', 'asc')
        .execute();
      const current = await trx
        .selectFrom('migrations')
        .select('payment_info')
        .where('id', '=', paid.migration_id)
        .executeTakeFirst();
      const paymentInfo = hooks.paymentInfo(
        paidRows.map(fromRow),
        current?.payment_info
          ? (JSON.parse(current.payment_info) as Record<string, unknown>)
          : undefined,
      );
      const updated = await trx
        .updateTable('migrations')
        .set({
          payment_info: JSON.stringify(paymentInfo),
          last_updated: this.#now().toISOString(),
          version: (eb) => eb('version', '+', 1),
        })
        .where('id', '=', paid.migration_id)
        .where('user_id', '=', paid.user_id)
        .executeTakeFirst();

      const result: FulfilmentResult = {
        fulfilled: true,
        quote: fromRow(paid),
        paymentInfo: Number(updated.numUpdatedRows) > 0 ? paymentInfo : undefined,
      };
      await hooks.within?.(trx, result);
      return result;
    });
  }

  /** For account deletion: payment records stay (bookkeeping) without the owner's e-mail. */
  async forgetCustomerEmails(userId: string): Promise<number> {
    const result = await this.#db.kysely
      .updateTable('payment_quotes')
      .set({ customer_email: null })
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Notes a webhook event by id. 'new' the first time; 'unfinished' when it was received before
   * but its handling never completed (handle it again); 'processed' when it is a redelivery.
   */
  async recordEvent(event: {
    id: string;
    type: string;
    objectId?: string | null;
  }): Promise<EventReceipt> {
    const inserted = await this.#db.kysely
      .insertInto('stripe_events')
      .values({
        id: event.id,
        type: event.type,
        object_id: event.objectId ?? null,
        received_at: this.#now().toISOString(),
        processed_at: null,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) return 'new';
    const seen = await this.#db.kysely
      .selectFrom('stripe_events')
      .select('processed_at')
      .where('id', '=', event.id)
      .executeTakeFirst();
    return seen?.processed_at ? 'processed' : 'unfinished';
  }

  async markEventProcessed(id: string): Promise<void> {
    await this.#db.kysely
      .updateTable('stripe_events')
      .set({ processed_at: this.#now().toISOString() })
      .where('id', '=', id)
      .where('processed_at', 'is', null)
      .execute();
  }
}
