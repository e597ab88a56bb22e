import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '@replatform/db/database';
import { MigrationsRepository } from '@replatform/db/migrations-repository';
import { NotificationsRepository } from '@replatform/db/notifications-repository';
import { openTestDatabase, testDialects } from '@replatform/db/test-databases';
import { seedDemoMigrations, seedDemoNotifications } from './demo.ts';

describe.each(testDialects())('demo account samples on %s', (dialect) => {
  let db: Db;
  const user = { id: 'demo-user', email: 'demo@demo.replatform.invalid' };
  const now = new Date('2026-03-01T12:00:00.000Z');

  beforeEach(async () => {
    db = await openTestDatabase(dialect);
  });
  afterEach(async () => {
    await db.close();
  });

  it('gives the sample migrations a bell history: newest first, some unread, each about one', async () => {
    const samples = await seedDemoMigrations(new MigrationsRepository(db), user, now);
    await seedDemoNotifications(db, user, samples, now);

    const repo = new NotificationsRepository(db);
    const list = await repo.listForUser(user.id);
    const unread = (n: { readAt: string | null }) => n.readAt === null;
    expect(list.map((n) => [n.title, n.migrationId, unread(n)])).toEqual([
      ['Migration started', samples.running.id, true],
      ['Payment received', samples.running.id, true],
      ['Migration failed', samples.failed.id, true],
      ['Payment received', samples.failed.id, false],
      ['Migration completed', samples.completed.id, false],
      ['Payment received', samples.completed.id, false],
    ]);
    expect(await repo.unreadCount(user.id)).toBe(3);
    // Dated when the samples say it happened: the completed run 72 hours ago.
    expect(list.find((n) => n.title === 'Migration completed')?.createdAt).toBe(
      '2026-02-26T12:00:00.000Z',
    );
    expect(list.find((n) => n.title === 'Migration completed')?.message).toBe(
      `${samples.completed.storeName}: 2,500 records migrated.`,
    );
    expect(list[1]?.message).toBe(
      'Demo payment of $124.00 for "Outdoor Gear Shop" recorded. No money was charged.',
    );
    expect(list.find((n) => n.title === 'Migration failed')?.message).toContain(
      samples.failed.storeName,
    );
    // Nobody else sees them.
    expect(await repo.listForUser('someone-else')).toEqual([]);
  });

  it('connects the failed sample to the sandbox stores it is given, so its Restart can run', async () => {
    const repo = new MigrationsRepository(db);
    const asked: string[] = [];
    const samples = await seedDemoMigrations(repo, user, now, async (id, side, platform) => {
      asked.push(`${id} ${side} ${platform}`);
      return { address: `sandbox-${platform}-${side}`, credentials: `sealed-${id}-${side}` };
    });
    const failed = await repo.findForUser(samples.failed.id, user.id);
    expect(failed).toMatchObject({
      sourceStore: 'bigcommerce',
      sourceStoreUrl: 'sandbox-bigcommerce-source',
      sourceCredentials: `sealed-${samples.failed.id}-source`,
      destinationStore: 'woocommerce',
      destinationStoreUrl: 'sandbox-woocommerce-destination',
      destinationCredentials: `sealed-${samples.failed.id}-destination`,
      status: 'failed',
    });
    expect(asked).toContain(`${samples.failed.id} destination woocommerce`);
  });
});
