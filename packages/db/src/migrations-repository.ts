import { randomBytes } from 'node:crypto';
import type { Selectable, Updateable } from 'kysely';
import type { Db } from './database.ts';
import type { MigrationsTable } from './schema.ts';

export interface StoredMigration {
  id: string;
  userId: string;
  email: string;
  storeName: string;
  sourceStore: string;
  destinationStore: string;
  sourceStoreUrl: string;
  destinationStoreUrl: string;
  /** Sealed (encrypted) credentials of each side; opened only by the server's credential vault. */
  sourceCredentials: string | null;
  destinationCredentials: string | null;
  sourceVerified: boolean;
  destinationVerified: boolean;
  currentStep: number;
  status: string;
  dataTypes: Record<string, boolean>;
  entityCounts: Record<string, number>;
  /** The owner's value mappings (see 0016_field_mappings), `{}` for none. */
  fieldMappings: Record<string, unknown>;
  /** The owner's additional options (see 0021_migration_options), `{}` for defaults. */
  migrationOptions: Record<string, unknown>;
  migrationStats: Record<string, { total: number; migrated: number; failed: number }>;
  paymentInfo: Record<string, unknown> | null;
  totalEntities: number;
  migratedEntities: number;
  createdAt: string;
  lastUpdated: string;
  /** When the current run was started: a re-run or a run after a failure starts it anew. */
  startedAt: string | null;
  completedAt: string | null;
  version: number;
}

export type MigrationChanges = Partial<
  Omit<StoredMigration, 'id' | 'userId' | 'createdAt' | 'lastUpdated' | 'version'>
>;

/** 20-character ids, like the document ids of spec.md section 9, from a CSPRNG. */
export function newId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(20);
  let id = '';
  for (const byte of bytes) id += alphabet[byte % alphabet.length];
  return id;
}

/** A row of the migrations table as the rest of the code reads it. */
export function migrationFromRow(row: Selectable<MigrationsTable>): StoredMigration {
  return {
    id: row.id,
    userId: row.user_id,
    email: row.email,
    storeName: row.store_name,
    sourceStore: row.source_store,
    destinationStore: row.destination_store,
    sourceStoreUrl: row.source_store_url,
    destinationStoreUrl: row.destination_store_url,
    sourceCredentials: row.source_credentials,
    destinationCredentials: row.destination_credentials,
    sourceVerified: Number(row.source_verified) === 1,
    destinationVerified: Number(row.destination_verified) === 1,
    currentStep: Number(row.current_step),
    status: row.status,
    dataTypes: JSON.parse(row.data_types),
    entityCounts: JSON.parse(row.entity_counts),
    fieldMappings: JSON.parse(row.field_mappings),
    migrationOptions: JSON.parse(row.migration_options),
    migrationStats: JSON.parse(row.migration_stats),
    paymentInfo: row.payment_info === null ? null : JSON.parse(row.payment_info),
    totalEntities: Number(row.total_entities),
    migratedEntities: Number(row.migrated_entities),
    createdAt: row.created_at,
    lastUpdated: row.last_updated,
    startedAt: row.started_at,
    completedAt: row.completed_at,
    version: Number(row.version),
  };
}

function toColumns(changes: MigrationChanges): Updateable<MigrationsTable> {
  const columns: Updateable<MigrationsTable> = {};
  if (changes.email !== undefined) columns.email = changes.email;
  if (changes.storeName !== undefined) columns.store_name = changes.storeName;
  if (changes.sourceStore !== undefined) columns.source_store = changes.sourceStore;
  if (changes.destinationStore !== undefined) columns.destination_store = changes.destinationStore;
  if (changes.sourceStoreUrl !== undefined) columns.source_store_url = changes.sourceStoreUrl;
  if (changes.destinationStoreUrl !== undefined)
    columns.destination_store_url = changes.destinationStoreUrl;
  if (changes.sourceCredentials !== undefined)
    columns.source_credentials = changes.sourceCredentials;
  if (changes.destinationCredentials !== undefined)
    columns.destination_credentials = changes.destinationCredentials;
  if (changes.sourceVerified !== undefined)
    columns.source_verified = changes.sourceVerified ? 1 : 0;
  if (changes.destinationVerified !== undefined)
    columns.destination_verified = changes.destinationVerified ? 1 : 0;
  if (changes.currentStep !== undefined) columns.current_step = changes.currentStep;
  if (changes.status !== undefined) columns.status = changes.status;
  if (changes.dataTypes !== undefined) columns.data_types = JSON.stringify(changes.dataTypes);
  if (changes.entityCounts !== undefined)
    columns.entity_counts = JSON.stringify(changes.entityCounts);
  if (changes.fieldMappings !== undefined)
    columns.field_mappings = JSON.stringify(changes.fieldMappings);
  if (changes.migrationOptions !== undefined)
    columns.migration_options = JSON.stringify(changes.migrationOptions);
  if (changes.migrationStats !== undefined)
    columns.migration_stats = JSON.stringify(changes.migrationStats);
  if (changes.paymentInfo !== undefined)
    columns.payment_info =
      changes.paymentInfo === null ? null : JSON.stringify(changes.paymentInfo);
  if (changes.totalEntities !== undefined) columns.total_entities = changes.totalEntities;
  if (changes.migratedEntities !== undefined) columns.migrated_entities = changes.migratedEntities;
  if (changes.startedAt !== undefined) columns.started_at = changes.startedAt;
  if (changes.completedAt !== undefined) columns.completed_at = changes.completedAt;
  return columns;
}

/**
 * Every read and write is scoped by owner: a migration that belongs to someone else is simply
 * not found, so routes answer 404 without a separate ownership check that could be forgotten.
 */
export class MigrationsRepository {
  readonly #db: Db;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.#db = db;
    this.#now = now;
  }

  async create(input: {
    userId: string;
    email: string;
    storeName: string;
  }): Promise<StoredMigration> {
    const storeName = input.storeName.trim();
    if (!storeName) throw new Error('storeName is required');
    const now = this.#now().toISOString();
    const row = await this.#db.kysely
      .insertInto('migrations')
      .values({
        id: newId(),
        user_id: input.userId,
        email: input.email,
        store_name: storeName,
        source_store: '',
        destination_store: '',
        source_store_url: '',
        destination_store_url: '',
        source_credentials: null,
        destination_credentials: null,
        source_verified: 0,
        destination_verified: 0,
        current_step: 1,
        status: 'pending',
        data_types: '{}',
        entity_counts: '{}',
        migration_stats: '{}',
        payment_info: null,
        total_entities: 0,
        migrated_entities: 0,
        created_at: now,
        last_updated: now,
        started_at: null,
        completed_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return migrationFromRow(row);
  }

  async findForUser(id: string, userId: string): Promise<StoredMigration | undefined> {
    const row = await this.#db.kysely
      .selectFrom('migrations')
      .selectAll()
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row ? migrationFromRow(row) : undefined;
  }

  async listForUser(userId: string): Promise<StoredMigration[]> {
    const rows = await this.#db.kysely
      .selectFrom('migrations')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
    return rows.map(migrationFromRow);
  }

  /**
   * Applies changes to the owner's migration. With `expectedVersion`, the update happens only if
   * nobody changed the row since it was read (optimistic concurrency); otherwise undefined.
   */
  async update(
    id: string,
    userId: string,
    changes: MigrationChanges,
    expectedVersion?: number,
  ): Promise<StoredMigration | undefined> {
    let query = this.#db.kysely
      .updateTable('migrations')
      .set({
        ...toColumns(changes),
        last_updated: this.#now().toISOString(),
        version: (eb) => eb('version', '+', 1),
      })
      .where('id', '=', id)
      .where('user_id', '=', userId);
    if (expectedVersion !== undefined) query = query.where('version', '=', expectedVersion);
    const row = await query.returningAll().executeTakeFirst();
    return row ? migrationFromRow(row) : undefined;
  }

  async delete(id: string, userId: string): Promise<boolean> {
    const result = await this.#db.kysely
      .deleteFrom('migrations')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteAllForUser(userId: string): Promise<number> {
    const result = await this.#db.kysely
      .deleteFrom('migrations')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
