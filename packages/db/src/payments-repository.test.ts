import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from './database.ts';
import { listTables } from './migrations.ts';
import { MigrationsRepository } from './migrations-repository.ts';
import { NotificationsRepository } from './notifications-repository.ts';
import { PaymentsRepository, type NewQuote, type StoredQuote } from './payments-repository.ts';
import { openTestDatabase, testDialects } from './test-databases.ts';

describe.each(testDialects())('payments repository on %s', (dialect) => {
  let db: Db;
  let repo: PaymentsRepository;
  let migrations: MigrationsRepository;
  let notifications: NotificationsRepository;

  beforeEach(async () => {
    db = await openTestDatabase(dialect);
    repo = new PaymentsRepository(db);
    migrations = new MigrationsRepository(db);
    notifications = new NotificationsRepository(db);
  });
  afterEach(async () => {
    await db.close();
  });

  const terms = (migrationId: string, overrides: Partial<NewQuote> = {}): NewQuote => ({
    migrationId,
    userId: 'u1',
    kind: 'initial',
    provider: 'stripe',
    counts: { products: 10, customers: 5, orders: 0 },
    recordsTotal: 15,
    previouslyPaidRecords: 0,
    recordsBought: 15,
    amountCents: 9915,
    currency: 'usd',
    ...overrides,
  });

  const summarise = (paid: StoredQuote[]) => ({
    paymentStatus: 'paid',
    amount: paid.reduce((sum, q) => sum + q.amountCents, 0),
    paidRecords: paid.reduce((sum, q) => sum + q.recordsBought, 0),
  });

  it('creates its tables', async () => {
    const tables = await listTables(db.kysely);
    expect(tables).toContain('payment_quotes');
    expect(tables).toContain('stripe_events');
  });

  it('stores a quote and links one Checkout Session to it, never a second', async () => {
    const m = await migrations.create({ userId: 'u1', email: '', storeName: 'S' });
    const quote = await repo.createQuote(terms(m.id));
    expect(quote).toMatchObject({
      status: 'open',
      counts: { products: 10 },
      checkoutSessionId: null,
    });
    expect(await repo.attachCheckoutSession(quote.id, 'cs_1', 'https://pay/1')).toBe(true);
    expect(await repo.attachCheckoutSession(quote.id, 'cs_1', 'https://pay/1')).toBe(true);
    expect(await repo.attachCheckoutSession(quote.id, 'cs_2', 'https://pay/2')).toBe(false);
    expect((await repo.findQuoteBySession('cs_1'))?.id).toBe(quote.id);
    expect(await repo.findQuoteBySession('cs_2')).toBeUndefined();
  });

  it('finds a reusable open quote only for the same terms and age', async () => {
    const m = await migrations.create({ userId: 'u1', email: '', storeName: 'S' });
    const quote = await repo.createQuote(terms(m.id));
    const same = { ...terms(m.id) };
    expect((await repo.findOpenQuote(same, '2000-01-01T00:00:00.000Z'))?.id).toBe(quote.id);
    expect(
      await repo.findOpenQuote({ ...same, amountCents: 1 }, '2000-01-01T00:00:00.000Z'),
    ).toBeUndefined();
    expect(await repo.findOpenQuote(same, '2999-01-01T00:00:00.000Z')).toBeUndefined();
    expect(await repo.expireQuote(quote.id)).toBe(true);
    expect(await repo.findOpenQuote(same, '2000-01-01T00:00:00.000Z')).toBeUndefined();
  });

  it('fulfils a quote exactly once under concurrent calls and sums the paid quotes', async () => {
    const m = await migrations.create({ userId: 'u1', email: '', storeName: 'S' });
    const quote = await repo.createQuote(terms(m.id));
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        repo.fulfil(
          quote.id,
          {
            paidAt: new Date().toISOString(),
            paymentMethod: { type: 'card', card: { brand: 'visa', last4: '4242' } },
          },
          {
            paymentInfo: summarise,
            within: async (trx) => {
              await notifications.create(
                { userId: 'u1', type: 'success', title: 'Paid', message: '' },
                trx,
              );
            },
          },
        ),
      ),
    );
    expect(results.filter((r) => r.fulfilled)).toHaveLength(1);
    expect(results.every((r) => r.paymentInfo?.amount === 9915)).toBe(true);
    expect(await notifications.unreadCount('u1')).toBe(1);
    const stored = await migrations.findForUser(m.id, 'u1');
    expect(stored?.paymentInfo).toEqual({ paymentStatus: 'paid', amount: 9915, paidRecords: 15 });
    expect(stored?.version).toBe(2);

    // A top-up adds to the totals; an expired quote that is paid after all still counts.
    const topUp = await repo.createQuote(
      terms(m.id, {
        kind: 'top_up',
        recordsTotal: 30,
        previouslyPaidRecords: 15,
        recordsBought: 50,
        amountCents: 50,
      }),
    );
    await repo.expireQuote(topUp.id);
    const second = await repo.fulfil(
      topUp.id,
      { paidAt: new Date().toISOString() },
      { paymentInfo: summarise },
    );
    expect(second.fulfilled).toBe(true);
    expect(second.paymentInfo).toEqual({ paymentStatus: 'paid', amount: 9965, paidRecords: 65 });
    expect(await repo.expireQuote(topUp.id)).toBe(false);
    expect((await repo.paidQuotes(m.id)).map((q) => q.id)).toEqual([quote.id, topUp.id]);
  });

  it('rolls the whole fulfilment back when the transaction fails', async () => {
    const m = await migrations.create({ userId: 'u1', email: '', storeName: 'S' });
    const quote = await repo.createQuote(terms(m.id));
    await expect(
      repo.fulfil(
        quote.id,
        { paidAt: new Date().toISOString() },
        {
          paymentInfo: summarise,
          within: async () => {
            throw new Error('notification failed');
          },
        },
      ),
    ).rejects.toThrow('notification failed');
    expect((await repo.findQuote(quote.id))?.status).toBe('open');
    expect((await migrations.findForUser(m.id, 'u1'))?.paymentInfo).toBeNull();
    const retried = await repo.fulfil(
      quote.id,
      { paidAt: new Date().toISOString() },
      { paymentInfo: summarise },
    );
    expect(retried.fulfilled).toBe(true);
  });

  it('recognises webhook events already handled', async () => {
    expect(
      await repo.recordEvent({ id: 'evt_1', type: 'checkout.session.completed', objectId: 'cs_1' }),
    ).toBe('new');
    expect(await repo.recordEvent({ id: 'evt_1', type: 'checkout.session.completed' })).toBe(
      'unfinished',
    );
    await repo.markEventProcessed('evt_1');
    expect(await repo.recordEvent({ id: 'evt_1', type: 'checkout.session.completed' })).toBe(
      'processed',
    );
    const many = await Promise.all(
      Array.from({ length: 8 }, () => repo.recordEvent({ id: 'evt_2', type: 'x' })),
    );
    expect(many.filter((r) => r === 'new')).toHaveLength(1);
  });
});
