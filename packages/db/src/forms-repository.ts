import type { Kysely, Selectable } from 'kysely';
import type { Db } from './database.ts';
import { newId } from './migrations-repository.ts';
import type { Database } from './schema.ts';

/** Tables of migration 0007_forms, as stored (dates ISO text, JSON as text). */
export interface ContactMessagesTable {
  id: string;
  user_id: string;
  name: string;
  email: string;
  company: string;
  phone: string;
  subject: string;
  message: string;
  /** 'low' | 'medium' | 'high' */
  priority: string;
  created_at: string;
  /** When the operator's copy went out; null when none was sent (or it failed). */
  emailed_at: string | null;
}

export interface EnterpriseQuotesTable {
  id: string;
  name: string;
  email: string;
  store_name: string;
  /** '10k-50k' | '50k-100k' | '100k-500k' | '500k+' */
  store_size: string;
  comments: string;
  created_at: string;
  emailed_at: string | null;
}

export interface UserPreferencesTable {
  user_id: string;
  /** JSON object of notification preferences; fields never saved are absent. */
  notifications: string;
  /** JSON object of display preferences (theme, language, timezone, date format). */
  preferences: string;
  updated_at: string;
}

// A type alias, not an interface: Kysely's withTables needs the implicit index signature.
export type FormTables = {
  contact_messages: ContactMessagesTable;
  enterprise_quotes: EnterpriseQuotesTable;
  user_preferences: UserPreferencesTable;
};

type FormsDb = Kysely<Database & FormTables>;
const formsDb = (db: Db): FormsDb => db.kysely.withTables<FormTables>();

export interface ContactMessageInput {
  userId: string;
  name: string;
  email: string;
  company: string;
  phone: string;
  subject: string;
  message: string;
  priority: string;
}

export interface StoredContactMessage extends ContactMessageInput {
  id: string;
  createdAt: string;
  emailedAt: string | null;
}

const contactFromRow = (row: Selectable<ContactMessagesTable>): StoredContactMessage => ({
  id: row.id,
  userId: row.user_id,
  name: row.name,
  email: row.email,
  company: row.company,
  phone: row.phone,
  subject: row.subject,
  message: row.message,
  priority: row.priority,
  createdAt: row.created_at,
  emailedAt: row.emailed_at,
});

/** Messages from the contact page; a user sees only their own, the operator all. */
export class ContactMessagesRepository {
  readonly #db: FormsDb;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.#db = formsDb(db);
    this.#now = now;
  }

  async create(input: ContactMessageInput): Promise<StoredContactMessage> {
    const row = await this.#db
      .insertInto('contact_messages')
      .values({
        id: newId(),
        user_id: input.userId,
        name: input.name,
        email: input.email,
        company: input.company,
        phone: input.phone,
        subject: input.subject,
        message: input.message,
        priority: input.priority,
        created_at: this.#now().toISOString(),
        emailed_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return contactFromRow(row);
  }

  async markEmailed(id: string): Promise<void> {
    await this.#db
      .updateTable('contact_messages')
      .set({ emailed_at: this.#now().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /** Newest first (ties broken by id). */
  async listForUser(userId: string, limit = 50): Promise<StoredContactMessage[]> {
    const rows = await this.#db
      .selectFrom('contact_messages')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(contactFromRow);
  }

  /** Everyone's, newest first: the operator's inbox. */
  async listRecent(limit = 50): Promise<StoredContactMessage[]> {
    const rows = await this.#db
      .selectFrom('contact_messages')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(contactFromRow);
  }

  async deleteAllForUser(userId: string): Promise<number> {
    const result = await this.#db
      .deleteFrom('contact_messages')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

export interface EnterpriseQuoteInput {
  name: string;
  email: string;
  storeName: string;
  storeSize: string;
  comments: string;
}

export interface StoredEnterpriseQuote extends EnterpriseQuoteInput {
  id: string;
  createdAt: string;
  emailedAt: string | null;
}

const quoteFromRow = (row: Selectable<EnterpriseQuotesTable>): StoredEnterpriseQuote => ({
  id: row.id,
  name: row.name,
  email: row.email,
  storeName: row.store_name,
  storeSize: row.store_size,
  comments: row.comments,
  createdAt: row.created_at,
  emailedAt: row.emailed_at,
});

/** Quote requests from the public enterprise page (no account needed). */
export class EnterpriseQuotesRepository {
  readonly #db: FormsDb;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.#db = formsDb(db);
    this.#now = now;
  }

  async create(input: EnterpriseQuoteInput): Promise<StoredEnterpriseQuote> {
    const row = await this.#db
      .insertInto('enterprise_quotes')
      .values({
        id: newId(),
        name: input.name,
        email: input.email,
        store_name: input.storeName,
        store_size: input.storeSize,
        comments: input.comments,
        created_at: this.#now().toISOString(),
        emailed_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return quoteFromRow(row);
  }

  async markEmailed(id: string): Promise<void> {
    await this.#db
      .updateTable('enterprise_quotes')
      .set({ emailed_at: this.#now().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  async listRecent(limit = 50): Promise<StoredEnterpriseQuote[]> {
    const rows = await this.#db
      .selectFrom('enterprise_quotes')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(quoteFromRow);
  }
}

export interface StoredPreferences {
  userId: string;
  notifications: Record<string, unknown>;
  preferences: Record<string, unknown>;
  updatedAt: string;
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/**
 * A user's saved preferences, one row per user. The repository keeps whatever object it is given
 * per group; the API decides the fields and their defaults.
 */
export class UserPreferencesRepository {
  readonly #db: FormsDb;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.#db = formsDb(db);
    this.#now = now;
  }

  async find(userId: string): Promise<StoredPreferences | null> {
    const row = await this.#db
      .selectFrom('user_preferences')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row) return null;
    return {
      userId: row.user_id,
      notifications: parseObject(row.notifications),
      preferences: parseObject(row.preferences),
      updatedAt: row.updated_at,
    };
  }

  /**
   * Replaces the groups given and keeps the other as it was, in one statement, so two saves of
   * different groups (the two settings tabs) never undo each other.
   */
  async save(
    userId: string,
    groups: { notifications?: object; preferences?: object },
  ): Promise<StoredPreferences> {
    const now = this.#now().toISOString();
    const notifications =
      groups.notifications === undefined ? undefined : JSON.stringify(groups.notifications);
    const preferences =
      groups.preferences === undefined ? undefined : JSON.stringify(groups.preferences);
    await this.#db
      .insertInto('user_preferences')
      .values({
        user_id: userId,
        notifications: notifications ?? '{}',
        preferences: preferences ?? '{}',
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({
          ...(notifications === undefined ? {} : { notifications }),
          ...(preferences === undefined ? {} : { preferences }),
          updated_at: now,
        }),
      )
      .execute();
    const saved = await this.find(userId);
    if (!saved) throw new Error('Preferences vanished right after they were saved.');
    return saved;
  }

  async delete(userId: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('user_preferences')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
