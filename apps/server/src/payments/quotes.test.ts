import { describe, expect, it } from 'vitest';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import type { StoredQuote } from '@replatform/db/payments-repository';
import { paymentInfoFrom, quoteTerms, selectedCounts } from './quotes.ts';

const migration = (paymentInfo: Record<string, unknown> | null) =>
  ({ paymentInfo, totalEntities: 0 }) as StoredMigration;

describe('quote terms', () => {
  it('counts only the selected data types', () => {
    expect(
      selectedCounts({ products: true, orders: true }, { products: 5, customers: 7, orders: 2 }),
    ).toEqual({ products: 5, customers: 0, orders: 2 });
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
});
