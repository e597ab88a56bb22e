import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from './database.ts';
import {
  ContactMessagesRepository,
  EnterpriseQuotesRepository,
  UserPreferencesRepository,
} from './forms-repository.ts';
import { listTables } from './migrations.ts';
import { openTestDatabase, testDialects } from './test-databases.ts';

describe.each(testDialects())('form repositories on %s', (dialect) => {
  let db: Db;
  let tick: number;
  const clock = () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++));

  beforeEach(async () => {
    db = await openTestDatabase(dialect);
    tick = 0;
  });
  afterEach(async () => {
    await db.close();
  });

  it('creates the tables', async () => {
    expect(await listTables(db.kysely)).toEqual(
      expect.arrayContaining(['contact_messages', 'enterprise_quotes', 'user_preferences']),
    );
  });

  describe('contact messages', () => {
    const message = (userId: string, subject: string) => ({
      userId,
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      company: '',
      phone: '+1 555 0100',
      subject,
      message: 'Can you move 40,000 orders?',
      priority: 'high',
    });

    it('stores a message, lists a user’s own newest first and everyone’s for the operator', async () => {
      const repo = new ContactMessagesRepository(db, clock);
      const first = await repo.create(message('alice', 'First'));
      await repo.create(message('bob', 'Bob’s'));
      await repo.create(message('alice', 'Second'));
      expect(first).toMatchObject({
        userId: 'alice',
        subject: 'First',
        priority: 'high',
        phone: '+1 555 0100',
        emailedAt: null,
        createdAt: '2026-01-01T00:00:00.000Z',
      });
      expect(first.id).toMatch(/^[A-Za-z0-9]{20}$/);
      expect((await repo.listForUser('alice')).map((m) => m.subject)).toEqual(['Second', 'First']);
      expect((await repo.listRecent(2)).map((m) => m.subject)).toEqual(['Second', 'Bob’s']);
    });

    it('records when the operator’s copy went out, and deletes a user’s messages', async () => {
      const repo = new ContactMessagesRepository(db, clock);
      const created = await repo.create(message('alice', 'Hello'));
      await repo.create(message('bob', 'Stays'));
      await repo.markEmailed(created.id);
      expect((await repo.listForUser('alice'))[0]?.emailedAt).toBe('2026-01-01T00:00:02.000Z');
      expect(await repo.deleteAllForUser('alice')).toBe(1);
      expect(await repo.listForUser('alice')).toEqual([]);
      expect(await repo.listForUser('bob')).toHaveLength(1);
    });
  });

  describe('enterprise quotes', () => {
    it('stores quote requests and lists them newest first', async () => {
      const repo = new EnterpriseQuotesRepository(db, clock);
      const quote = await repo.create({
        name: 'Grace Hopper',
        email: 'grace@example.com',
        storeName: 'Big Store',
        storeSize: '100k-500k',
        comments: '',
      });
      await repo.create({
        name: 'Alan Turing',
        email: 'alan@example.com',
        storeName: 'Other',
        storeSize: '500k+',
        comments: 'Multi-store',
      });
      expect(quote).toMatchObject({ storeName: 'Big Store', storeSize: '100k-500k' });
      await repo.markEmailed(quote.id);
      const list = await repo.listRecent();
      expect(list.map((q) => q.name)).toEqual(['Alan Turing', 'Grace Hopper']);
      expect(list[1]?.emailedAt).not.toBeNull();
      expect(list[0]?.emailedAt).toBeNull();
    });
  });

  describe('user preferences', () => {
    it('is empty until saved, then keeps each group apart', async () => {
      const repo = new UserPreferencesRepository(db, clock);
      expect(await repo.find('alice')).toBeNull();

      const first = await repo.save('alice', { notifications: { marketingEmails: true } });
      expect(first).toEqual({
        userId: 'alice',
        notifications: { marketingEmails: true },
        preferences: {},
        updatedAt: '2026-01-01T00:00:00.000Z',
      });

      // Saving the other group keeps the first one as it was.
      const second = await repo.save('alice', { preferences: { theme: 'dark' } });
      expect(second.notifications).toEqual({ marketingEmails: true });
      expect(second.preferences).toEqual({ theme: 'dark' });
      expect(second.updatedAt).toBe('2026-01-01T00:00:01.000Z');

      // A group is replaced whole.
      await repo.save('alice', { notifications: { emailNotifications: false } });
      expect((await repo.find('alice'))?.notifications).toEqual({ emailNotifications: false });

      expect(await repo.find('bob')).toBeNull();
      expect(await repo.delete('alice')).toBe(true);
      expect(await repo.find('alice')).toBeNull();
      expect(await repo.delete('alice')).toBe(false);
    });

    it('reads a damaged stored value as an empty group rather than failing', async () => {
      const repo = new UserPreferencesRepository(db, clock);
      await repo.save('alice', { preferences: { theme: 'dark' } });
      await db.kysely
        .withTables<{ user_preferences: { user_id: string; notifications: string } }>()
        .updateTable('user_preferences')
        .set({ notifications: 'not json' })
        .where('user_id', '=', 'alice')
        .execute();
      expect(await repo.find('alice')).toMatchObject({
        notifications: {},
        preferences: { theme: 'dark' },
      });
    });
  });
});
