import { describe, expect, it } from 'vitest';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import type { StoredQuote } from '@replatform/db/payments-repository';
import {
  paymentInfoAfter,
  paymentInfoFrom,
  quoteStillCurrent,
  quoteTerms,
  selectedCounts,
} from './quotes.ts';

const migration = (paymentInfo: Record<string, unknown> | null) =>
  ({ paymentInfo, totalEntities: 0 }) as StoredMigration;

describe('quote terms', () => {
  it('counts only the selected data types', () => {
    expect(
      selectedCounts({ products: true, orders: true }, { products: 5, customers: 7, orders: 2 }),
    ).toEqual({
      products: 5,
      customers: 0,
      orders: 2,
      coupons: 0,
      reviews: 0,
      brands: 0,
      pages: 0,
      posts: 0,
    });
  });

  it('charges the full price before the first payment (FAQ: 1,000 records cost $109)', () => {
    expect(quoteTerms({ products: 1000, customers: 0, orders: 0 }, migration(null))).toMatchObject({
      kind: 'initial',
      records: 1000,
      recordsBought: 1000,
      baseCents: 9900,
      volumeCents: 1000,
      taxCents: 0,
      amountCents: 10_900,
      currency: 'usd',
    });
  });

  it('charges nothing while the source holds no more than was paid for', () => {
    const paid = migration({ paymentStatus: 'paid', amount: 10_900, paidRecords: 1000 });
    expect(quoteTerms({ products: 900, customers: 100, orders: 0 }, paid)).toMatchObject({
      kind: 'none',
      amountCents: 0,
    });
  });

  it('charges the difference, at least Stripe’s minimum charge, when the source grew', () => {
    const paid = migration({ paymentStatus: 'paid', amount: 10_900, paidRecords: 1000 });
    expect(quoteTerms({ products: 1003, customers: 0, orders: 0 }, paid)).toMatchObject({
      kind: 'top_up',
      paidRecords: 1000,
      recordsBought: 50,
      baseCents: 0,
      amountCents: 50,
    });
    expect(quoteTerms({ products: 1500, customers: 0, orders: 0 }, paid)).toMatchObject({
      kind: 'top_up',
      recordsBought: 500,
      amountCents: 500,
    });
    // A payment recorded without paidRecords covers what its amount buys.
    const legacy = migration({ paymentStatus: 'paid', amount: 9900 + 200 });
    expect(quoteTerms({ products: 260, customers: 0, orders: 0 }, legacy)).toMatchObject({
      paidRecords: 200,
      recordsBought: 60,
    });
  });

  it('sums every paid quote into paymentInfo and marks demo payments', () => {
    const base = {
      currency: 'usd',
      paymentMethod: { type: 'card', card: { brand: 'visa', last4: '4242' } },
      customerEmail: 'a@example.com',
    } as Partial<StoredQuote>;
    const info = paymentInfoFrom([
      {
        ...base,
        provider: 'stripe',
        amountCents: 10_900,
        recordsBought: 1000,
        paidAt: '2026-01-01T00:00:00.000Z',
      },
      {
        ...base,
        provider: 'stripe',
        amountCents: 50,
        recordsBought: 50,
        paidAt: '2026-01-02T00:00:00.000Z',
      },
    ] as StoredQuote[]);
    expect(info).toEqual({
      paymentStatus: 'paid',
      amount: 10_950,
      currency: 'usd',
      paymentDate: '2026-01-02T00:00:00.000Z',
      paymentMethod: { type: 'card', card: { brand: 'visa', last4: '4242' } },
      customerEmail: 'a@example.com',
      paidRecords: 1050,
    });
    expect(
      paymentInfoFrom([
        {
          ...base,
          provider: 'demo',
          amountCents: 1,
          recordsBought: 1,
          paidAt: null,
        } as StoredQuote,
      ]).demo,
    ).toBe(true);
  });

  it('prices a paid re-migration like a migration of every record counted, covering growth', () => {
    const paid = migration({ paymentStatus: 'paid', amount: 10_900, paidRecords: 1000 });
    expect(
      quoteTerms({ products: 1200, customers: 0, orders: 0 }, paid, { remigrationDue: 2 }),
    ).toMatchObject({
      kind: 'remigration',
      remigrationNumber: 2,
      records: 1200,
      paidRecords: 1000,
      recordsBought: 200,
      baseCents: 9900,
      volumeCents: 1200,
      amountCents: 11_100,
    });
    // Nothing due without a re-migration to pay for; before the first payment, the first one.
    expect(quoteTerms({ products: 900, customers: 0, orders: 0 }, paid).kind).toBe('none');
    expect(
      quoteTerms({ products: 900, customers: 0, orders: 0 }, migration(null), {
        remigrationDue: 2,
      }).kind,
    ).toBe('initial');
  });

  it('tells a quote priced against payments that changed since', () => {
    const quote = (kind: StoredQuote['kind'], previouslyPaidRecords: number, n: number | null) =>
      ({ id: `q-${kind}`, kind, previouslyPaidRecords, remigrationNumber: n }) as StoredQuote;
    const unpaid = undefined;
    const paid = { paymentStatus: 'paid', amount: 9915, paidRecords: 15 };
    expect(quoteStillCurrent(quote('initial', 0, null), unpaid, [])).toBe(true);
    expect(quoteStillCurrent(quote('initial', 0, null), paid, [])).toBe(false);
    expect(quoteStillCurrent(quote('top_up', 15, null), paid, [])).toBe(true);
    expect(quoteStillCurrent(quote('top_up', 10, null), paid, [])).toBe(false);
    expect(quoteStillCurrent(quote('top_up', 15, null), unpaid, [])).toBe(false);
    const other = { id: 'other', kind: 'remigration', remigrationNumber: 2 } as StoredQuote;
    expect(quoteStillCurrent(quote('remigration', 15, 2), paid, [])).toBe(true);
    expect(quoteStillCurrent(quote('remigration', 15, 2), paid, [other])).toBe(false);
    expect(quoteStillCurrent(quote('remigration', 15, 3), paid, [other])).toBe(true);
  });

  it('keeps a payment recorded without a quote in the totals after a later one', () => {
    const owner = {
      id: 'm1',
      userId: 'u1',
      createdAt: '2026-01-01T00:00:00.000Z',
      paymentInfo: null,
    } as StoredMigration;
    const before = {
      paymentStatus: 'paid',
      amount: 9930,
      currency: 'usd',
      paymentDate: '2026-01-01T00:00:00.000Z',
      paidRecords: 30,
    };
    const q2 = {
      id: 'q2',
      provider: 'demo',
      kind: 'remigration',
      amountCents: 9930,
      recordsBought: 0,
      currency: 'usd',
      paidAt: '2026-01-02T00:00:00.000Z',
    } as StoredQuote;
    const after = paymentInfoAfter(owner, [q2], before, 'q2');
    expect(after).toMatchObject({ amount: 19_860, paidRecords: 30, demo: true });
    const q3 = { ...q2, id: 'q3', amountCents: 50, recordsBought: 50 };
    expect(paymentInfoAfter(owner, [q2, q3], after, 'q3')).toMatchObject({
      amount: 19_910,
      paidRecords: 80,
    });
    // Payments made only through quotes: their sum, as before.
    expect(paymentInfoAfter(owner, [q2], undefined, 'q2')).toMatchObject({
      amount: 9930,
      paidRecords: 0,
    });
  });
});
