import type { Generated } from 'kysely';

// Table shapes as stored. Both dialects store dates as ISO-8601 text, JSON as text and booleans
// as 0/1 integers, so repositories behave identically on SQLite and PostgreSQL.

export interface MigrationsTable {
  id: string;
  user_id: string;
  email: string;
  store_name: string;
  source_store: string;
  destination_store: string;
  source_store_url: string;
  destination_store_url: string;
  /** AES-256-GCM sealed JSON of the source store's credentials, or null. */
  source_credentials: string | null;
  /** AES-256-GCM sealed JSON of the destination store's credentials, or null. */
  destination_credentials: string | null;
  source_verified: number;
  destination_verified: number;
  current_step: number;
  status: string;
  /** JSON `{ products, customers, orders }` of booleans. */
  data_types: string;
  /** JSON `{ products, customers, orders }` of counts. */
  entity_counts: string;
  /** JSON map of data type to `{ total, migrated, failed }`. */
  migration_stats: string;
  /** JSON paymentInfo of spec.md section 3, or null. */
  payment_info: string | null;
  total_entities: number;
  migrated_entities: number;
  created_at: string;
  last_updated: string;
  completed_at: string | null;
  version: Generated<number>;
}

export interface Database {
  migrations: MigrationsTable;
}
