import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrateToLatest, type Db } from './database.ts';
import { listTables } from './migrations.ts';
import { MigrationsRepository } from './migrations-repository.ts';
import { openTestDatabase, testDialects } from './test-databases.ts';

describe.each(testDialects())('migrations repository on %s', (dialect) => {
  let db: Db;
  let repo: MigrationsRepository;

  beforeEach(async () => {
    db = await openTestDatabase(dialect);
    repo = new MigrationsRepository(db);
  });
  afterEach(async () => {
    await db.close();
  });

  it('applies the versioned migrations once', async () => {
    expect(await listTables(db.kysely)).toContain('migrations');
    expect(await migrateToLatest(db)).toEqual([]);
  });

  it('creates a migration as spec.md describes a new one', async () => {
    const created = await repo.create({
      userId: 'u1',
      email: 'a@example.com',
      storeName: '  My Store ',
    });
    expect(created.id).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(created).toMatchObject({
      storeName: 'My Store',
      sourceStore: '',
      destinationStore: '',
      currentStep: 1,
      status: 'pending',
      dataTypes: {},
      sourceVerified: false,
      paymentInfo: null,
      completedAt: null,
    });
  });

  it('refuses an empty store name', async () => {
    await expect(repo.create({ userId: 'u1', email: '', storeName: '   ' })).rejects.toThrow(
      /storeName/,
    );
  });

  it('scopes every read and write to the owner', async () => {
    const mine = await repo.create({ userId: 'alice', email: 'a@x.io', storeName: 'A' });
    await repo.create({ userId: 'bob', email: 'b@x.io', storeName: 'B' });

    expect(await repo.findForUser(mine.id, 'bob')).toBeUndefined();
    expect((await repo.listForUser('bob')).map((m) => m.storeName)).toEqual(['B']);
    expect(await repo.update(mine.id, 'bob', { storeName: 'stolen' })).toBeUndefined();
    expect(await repo.delete(mine.id, 'bob')).toBe(false);
    expect((await repo.findForUser(mine.id, 'alice'))?.storeName).toBe('A');
  });

  it('round-trips JSON, booleans and dates through update', async () => {
    const m = await repo.create({ userId: 'u', email: '', storeName: 'S' });
    const updated = await repo.update(m.id, 'u', {
      sourceStore: 'woocommerce',
      sourceVerified: true,
      dataTypes: { products: true, customers: false, orders: true },
      entityCounts: { products: 1500, customers: 750, orders: 250 },
      migrationStats: { products: { total: 1500, migrated: 10, failed: 1 } },
      paymentInfo: { paymentStatus: 'paid', amount: 12400, currency: 'usd' },
      completedAt: '2026-01-02T03:04:05.000Z',
    });
    expect(updated).toMatchObject({
      sourceStore: 'woocommerce',
      sourceVerified: true,
      dataTypes: { products: true, customers: false, orders: true },
      entityCounts: { products: 1500, customers: 750, orders: 250 },
      migrationStats: { products: { total: 1500, migrated: 10, failed: 1 } },
      paymentInfo: { paymentStatus: 'paid', amount: 12400, currency: 'usd' },
      completedAt: '2026-01-02T03:04:05.000Z',
      version: 2,
    });
  });

  it('rejects a stale optimistic update', async () => {
    const m = await repo.create({ userId: 'u', email: '', storeName: 'S' });
    expect(await repo.update(m.id, 'u', { currentStep: 2 }, m.version)).toBeDefined();
    expect(await repo.update(m.id, 'u', { currentStep: 3 }, m.version)).toBeUndefined();
    expect((await repo.findForUser(m.id, 'u'))?.currentStep).toBe(2);
  });

  it('lists newest first and deletes all of a user', async () => {
    let tick = 0;
    const clocked = new MigrationsRepository(
      db,
      () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)),
    );
    await clocked.create({ userId: 'u', email: '', storeName: 'first' });
    await clocked.create({ userId: 'u', email: '', storeName: 'second' });
    expect((await clocked.listForUser('u')).map((m) => m.storeName)).toEqual(['second', 'first']);
    expect(await clocked.deleteAllForUser('u')).toBe(2);
    expect(await clocked.listForUser('u')).toEqual([]);
  });
});
