import {
  paymentInfoSchema,
  type EntityCounts,
  type PaymentInfo,
  countsByType,
  dataTypeNames,
} from '@replatform/contracts/migration';
import { paymentCurrency } from '@replatform/contracts/payments';
import { PER_RECORD_CENTS, priceFor } from '@replatform/contracts/pricing';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import type { StoredQuote } from '@replatform/db/payments-repository';
import { paidRecordLimit } from '@replatform/engine/payment-limit';

/**
 * Stripe's minimum charge in USD. A top-up for fewer records would be refused by Stripe, so a
 * top-up always buys at least this much: the owner pays the same per-record price and gets the
 * few extra records as headroom, never a fee for nothing.
 */
export const MINIMUM_CHARGE_CENTS = 50;

export interface QuoteTerms {
  kind: 'initial' | 'top_up' | 'remigration' | 'none';
  /** For a re-migration: which one (2, 3, ...; the first is free). */
  remigrationNumber?: number;
  /** Records of the selected types in the source now. */
  records: number;
  paidRecords: number;
  /** Records the payment buys (0 when nothing is due). */
  recordsBought: number;
  baseCents: number;
  volumeCents: number;
  taxCents: number;
  amountCents: number;
  currency: typeof paymentCurrency;
}

/** Only the data types the owner selected count (spec.md section 9, decisions.md section 3). */
export function selectedCounts(
  dataTypes: Record<string, boolean>,
  counts: Partial<EntityCounts>,
): EntityCounts {
  return countsByType(dataTypeNames.map((name) => (dataTypes[name] ? (counts[name] ?? 0) : 0)));
}

export function isPaidMigration(migration: StoredMigration): boolean {
  return migration.paymentInfo?.paymentStatus === 'paid';
}

/** Records the owner has paid for, by the engine's own rule (the run never goes beyond them). */
export function paidRecordsOf(migration: StoredMigration): number {
  return paidRecordLimit(migration.paymentInfo);
}

/**
 * What the next payment is: the full price before the first payment; a re-migration beyond the
 * free first one (`remigrationDue`: its number), priced like a migration of the records counted
 * now, which also covers what the source gained; the per-record price of the records missing
 * when the source grew after payment (at least the minimum charge); or nothing.
 */
export function quoteTerms(
  counts: EntityCounts,
  migration: StoredMigration,
  options: { remigrationDue?: number | undefined } = {},
): QuoteTerms {
  const price = priceFor(counts);
  const paidRecords = paidRecordsOf(migration);
  const none = { baseCents: 0, volumeCents: 0, taxCents: 0, amountCents: 0, recordsBought: 0 };
  if (isPaidMigration(migration) && options.remigrationDue !== undefined) {
    return {
      kind: 'remigration',
      remigrationNumber: options.remigrationDue,
      records: price.records,
      paidRecords,
      // Added to the records paid for: the growth this payment also covers.
      recordsBought: Math.max(0, price.records - paidRecords),
      baseCents: price.baseCents,
      volumeCents: price.volumeCents,
      taxCents: price.taxCents,
      amountCents: price.totalCents,
      currency: paymentCurrency,
    };
  }
  if (!isPaidMigration(migration)) {
    return {
      kind: 'initial',
      records: price.records,
      paidRecords: 0,
      recordsBought: price.records,
      baseCents: price.baseCents,
      volumeCents: price.volumeCents,
      taxCents: price.taxCents,
      amountCents: price.totalCents,
      currency: paymentCurrency,
    };
  }
  if (price.records <= paidRecords) {
    return {
      kind: 'none',
      records: price.records,
      paidRecords,
      ...none,
      currency: paymentCurrency,
    };
  }
  const missing = price.records - paidRecords;
  const recordsBought = Math.max(missing, Math.ceil(MINIMUM_CHARGE_CENTS / PER_RECORD_CENTS));
  const volumeCents = recordsBought * PER_RECORD_CENTS;
  return {
    kind: 'top_up',
    records: price.records,
    paidRecords,
    recordsBought,
    baseCents: 0,
    volumeCents,
    taxCents: 0,
    amountCents: volumeCents,
    currency: paymentCurrency,
  };
}

/**
 * Whether a quote still describes the migration's payments as they are now (nothing was paid
 * since it was priced): an initial quote while unpaid, a top-up or re-migration while the
 * records paid for are those it was priced against, and a re-migration only once.
 */
export function quoteStillCurrent(
  quote: StoredQuote,
  paymentInfo: Record<string, unknown> | undefined,
  paidQuotes: readonly StoredQuote[],
): boolean {
  const paid = paymentInfo?.paymentStatus === 'paid';
  if (quote.kind === 'initial') return !paid;
  if (!paid || paidRecordLimit(paymentInfo) !== quote.previouslyPaidRecords) return false;
  return !paidQuotes.some(
    (q) =>
      q.id !== quote.id &&
      quote.kind === 'remigration' &&
      q.kind === 'remigration' &&
      q.remigrationNumber === quote.remigrationNumber,
  );
}

/**
 * The paymentInfo after the payment of quote `paidNow`: the totals of every paid quote, plus what
 * was recorded as paid without a quote before (a demo account's sample migrations, a payment set
 * by an operator), which would otherwise drop out of the totals.
 */
export function paymentInfoAfter(
  migration: StoredMigration,
  paidQuotes: StoredQuote[],
  before: Record<string, unknown> | undefined,
  paidNow: string,
): PaymentInfo {
  const recorded = quoteFromPaymentInfo({ ...migration, paymentInfo: before ?? null });
  const earlier = paidQuotes.filter((q) => q.id !== paidNow);
  if (recorded) {
    const amount = recorded.amountCents - earlier.reduce((n, q) => n + q.amountCents, 0);
    const records = recorded.recordsBought - earlier.reduce((n, q) => n + q.recordsBought, 0);
    if (amount > 0 || records > 0) {
      const withoutQuote = {
        ...recorded,
        amountCents: Math.max(0, amount),
        recordsBought: Math.max(0, records),
        recordsTotal: Math.max(0, records),
      };
      return paymentInfoFrom([withoutQuote, ...paidQuotes]);
    }
  }
  return paymentInfoFrom(paidQuotes);
}

/** The migration's paymentInfo from all its paid quotes (oldest first): totals, latest method. */
export function paymentInfoFrom(paidQuotes: StoredQuote[]): PaymentInfo {
  const latest = paidQuotes.at(-1);
  if (!latest) throw new Error('paymentInfoFrom needs at least one paid quote');
  return paymentInfoSchema.parse({
    paymentStatus: 'paid',
    amount: paidQuotes.reduce((sum, q) => sum + q.amountCents, 0),
    currency: latest.currency,
    paymentDate: latest.paidAt,
    ...(latest.paymentMethod ? { paymentMethod: latest.paymentMethod } : {}),
    ...(latest.customerEmail ? { customerEmail: latest.customerEmail } : {}),
    ...(latest.provider === 'demo' ? { demo: true } : {}),
    paidRecords: paidQuotes.reduce((sum, q) => sum + q.recordsBought, 0),
  });
}

/**
 * A paid migration whose payment was recorded without a quote (the demo account's sample
 * migrations are created paid): its paymentInfo as the one payment, so it has a receipt too.
 */
export function quoteFromPaymentInfo(migration: StoredMigration): StoredQuote | undefined {
  const parsed = paymentInfoSchema.safeParse(migration.paymentInfo);
  if (!parsed.success || parsed.data.paymentStatus !== 'paid') return undefined;
  const info = parsed.data;
  const records = paidRecordLimit(info);
  const paidAt = info.paymentDate ?? null;
  return {
    id: migration.id,
    migrationId: migration.id,
    userId: migration.userId,
    kind: 'initial',
    provider: info.demo ? 'demo' : 'stripe',
    counts: countsByType([]),
    recordsTotal: records,
    previouslyPaidRecords: 0,
    recordsBought: records,
    amountCents: info.amount,
    currency: info.currency,
    status: 'paid',
    checkoutSessionId: null,
    checkoutUrl: null,
    paymentIntentId: null,
    chargeId: null,
    receiptUrl: null,
    paymentMethod: info.paymentMethod ?? null,
    customerEmail: info.customerEmail ?? null,
    createdAt: paidAt ?? migration.createdAt,
    paidAt,
    remigrationNumber: null,
  };
}
