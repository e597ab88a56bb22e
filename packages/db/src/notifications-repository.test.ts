import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from './database.ts';
import { listTables } from './migrations.ts';
import { NotificationsRepository } from './notifications-repository.ts';
import { openTestDatabase, testDialects } from './test-databases.ts';

describe.each(testDialects())('notifications repository on %s', (dialect) => {
  let db: Db;
  let repo: NotificationsRepository;
  let tick: number;

  beforeEach(async () => {
    db = await openTestDatabase(dialect);
    tick = 0;
    repo = new NotificationsRepository(db, () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)));
  });
  afterEach(async () => {
    await db.close();
  });

  const raise = (userId: string, title: string, migrationId?: string) =>
    repo.create({ userId, type: 'info', title, message: `${title}!`, migrationId });

  it('creates the table', async () => {
    expect(await listTables(db.kysely)).toContain('notifications');
  });

  it('lists a user’s notifications newest first with the unread count, never another user’s', async () => {
    await raise('alice', 'first', 'm1');
    await raise('bob', 'not hers');
    await raise('alice', 'second');
    const list = await repo.listForUser('alice');
    expect(list.map((n) => n.title)).toEqual(['second', 'first']);
    expect(list[1]).toMatchObject({ migrationId: 'm1', readAt: null, message: 'first!' });
    expect(list[0]?.migrationId).toBeNull();
    expect(await repo.unreadCount('alice')).toBe(2);
    expect(await repo.listForUser('alice', 1)).toHaveLength(1);
  });

  it('marks one read only for its owner, then all', async () => {
    const first = await raise('alice', 'first');
    await raise('alice', 'second');
    expect(await repo.markRead(first.id, 'bob')).toBe(false);
    expect(await repo.unreadCount('alice')).toBe(2);
    expect(await repo.markRead(first.id, 'alice')).toBe(true);
    expect(await repo.markRead(first.id, 'alice')).toBe(true);
    expect(await repo.unreadCount('alice')).toBe(1);
    expect(await repo.markRead('missing', 'alice')).toBe(false);
    expect(await repo.markAllRead('alice')).toBe(1);
    expect(await repo.unreadCount('alice')).toBe(0);
    expect((await repo.listForUser('alice')).every((n) => n.readAt !== null)).toBe(true);
  });

  it('inserts inside a caller’s transaction, and not at all when it rolls back', async () => {
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await repo.create({ userId: 'u', type: 'success', title: 't', message: 'm' }, trx);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await repo.listForUser('u')).toEqual([]);
    await db.kysely.transaction().execute(async (trx) => {
      await repo.create({ userId: 'u', type: 'success', title: 't', message: 'm' }, trx);
    });
    expect(await repo.unreadCount('u')).toBe(1);
    expect(await repo.deleteAllForUser('u')).toBe(1);
  });
});
