import type { Kysely, Selectable } from 'kysely';
import type { Db } from './database.ts';
import { newId } from './migrations-repository.ts';
import type { Database, NotificationsTable } from './schema.ts';

export interface StoredNotification {
  id: string;
  userId: string;
  type: string;
  title: string;
  message: string;
  migrationId: string | null;
  readAt: string | null;
  createdAt: string;
}

export interface NewNotification {
  userId: string;
  type: string;
  title: string;
  message: string;
  migrationId?: string | null;
}

function fromRow(row: Selectable<NotificationsTable>): StoredNotification {
  return {
    id: row.id,
    userId: row.user_id,
    type: row.type,
    title: row.title,
    message: row.message,
    migrationId: row.migration_id,
    readAt: row.read_at,
    createdAt: row.created_at,
  };
}

/** A user's notifications; every query is scoped by owner like the migrations repository. */
export class NotificationsRepository {
  readonly #db: Db;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.#db = db;
    this.#now = now;
  }

  /**
   * Inserts one notification. `within` is an open transaction of the caller, so a notification
   * can be part of the change it reports (it exists exactly when the change does).
   */
  async create(input: NewNotification, within?: Kysely<Database>): Promise<StoredNotification> {
    const row = await (within ?? this.#db.kysely)
      .insertInto('notifications')
      .values({
        id: newId(),
        user_id: input.userId,
        type: input.type,
        title: input.title,
        message: input.message,
        migration_id: input.migrationId ?? null,
        read_at: null,
        created_at: this.#now().toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return fromRow(row);
  }

  /** Newest first (ties broken by id, so pages are stable). */
  async listForUser(userId: string, limit = 50): Promise<StoredNotification[]> {
    const rows = await this.#db.kysely
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(fromRow);
  }

  async unreadCount(userId: string): Promise<number> {
    const row = await this.#db.kysely
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Marks one of the user's notifications read; false when it is not theirs or does not exist. */
  async markRead(id: string, userId: string): Promise<boolean> {
    const found = await this.#db.kysely
      .selectFrom('notifications')
      .select('read_at')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!found) return false;
    if (found.read_at === null) {
      await this.#db.kysely
        .updateTable('notifications')
        .set({ read_at: this.#now().toISOString() })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('read_at', 'is', null)
        .execute();
    }
    return true;
  }

  async markAllRead(userId: string): Promise<number> {
    const result = await this.#db.kysely
      .updateTable('notifications')
      .set({ read_at: this.#now().toISOString() })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async deleteAllForUser(userId: string): Promise<number> {
    const result = await this.#db.kysely
      .deleteFrom('notifications')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
