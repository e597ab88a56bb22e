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
  /** JSON `{ products, customers, orders, coupons, reviews, brands }` of booleans. */
  data_types: string;
  /** JSON `{ products, customers, orders, coupons, reviews, brands }` of counts. */
  entity_counts: string;
  /** JSON map of data type to `{ total, migrated, failed }`. */
  migration_stats: string;
  /** JSON paymentInfo of spec.md section 3, or null. */
  payment_info: string | null;
  total_entities: number;
  migrated_entities: number;
  created_at: string;
  last_updated: string;
  /** When the current run was started (migration 0012_run_start); null before the first start. */
  started_at: string | null;
  completed_at: string | null;
  version: Generated<number>;
  /** JSON of the owner's value mappings, `{}` for none (migration 0016_field_mappings). */
  field_mappings: Generated<string>;
  /** JSON of the owner's additional options, `{}` for defaults (0021_migration_options). */
  migration_options: Generated<string>;
}

/**
 * Accounts and sign-in, written by better-auth (migration 0002_auth). Unlike our own tables,
 * PostgreSQL stores these times as timestamptz and flags as boolean (better-auth's adapter sends
 * native values there), SQLite as ISO text and 0/1; readers must accept both.
 */
type AuthTime = Date | string;
type AuthFlag = boolean | number;

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  email_verified: AuthFlag;
  image: string | null;
  /** A visitor's throw-away demo account, deleted with its data after demo_expires_at. */
  is_demo: AuthFlag;
  demo_expires_at: AuthTime | null;
  created_at: AuthTime;
  updated_at: AuthTime;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token: string;
  expires_at: AuthTime;
  ip_address: string | null;
  user_agent: string | null;
  created_at: AuthTime;
  updated_at: AuthTime;
}

export interface AccountsTable {
  id: string;
  user_id: string;
  account_id: string;
  provider_id: string;
  access_token: string | null;
  refresh_token: string | null;
  id_token: string | null;
  access_token_expires_at: AuthTime | null;
  refresh_token_expires_at: AuthTime | null;
  scope: string | null;
  /** Password hash (scrypt) of the e-mail and password sign-in; null for Google accounts. */
  password: string | null;
  created_at: AuthTime;
  updated_at: AuthTime;
}

export interface VerificationsTable {
  id: string;
  identifier: string;
  value: string;
  expires_at: AuthTime;
  created_at: AuthTime;
  updated_at: AuthTime;
}

/** Mail kept in the database because no SMTP server is configured. */
export interface MailOutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  created_at: string;
}

/** Notifications of the top-bar bell (migration 0003_notifications). */
export interface NotificationsTable {
  id: string;
  user_id: string;
  /** 'success' | 'info' | 'warning' | 'error' */
  type: string;
  title: string;
  message: string;
  migration_id: string | null;
  /** When the user read it; null while unread. */
  read_at: string | null;
  created_at: string;
}

/** A price the server computed from its own count of the source (migration 0005_payments). */
export interface PaymentQuotesTable {
  id: string;
  migration_id: string;
  user_id: string;
  /** 'initial' | 'top_up' */
  kind: string;
  /** 'stripe' | 'demo' */
  provider: string;
  /** JSON `{ products, customers, orders }` counted when the quote was made. */
  counts: string;
  records_total: number;
  previously_paid_records: number;
  records_bought: number;
  amount_cents: number;
  currency: string;
  /** 'open' | 'paid' | 'expired' */
  status: string;
  checkout_session_id: string | null;
  checkout_url: string | null;
  payment_intent_id: string | null;
  charge_id: string | null;
  receipt_url: string | null;
  /** JSON `{ type, card?: { brand, last4 } }` once paid. */
  payment_method: string | null;
  customer_email: string | null;
  created_at: string;
  paid_at: string | null;
  /** For kind 'remigration': the re-migration (2, 3, ...) it pays for (migration 0006). */
  remigration_number: Generated<number | null>;
}

/** A run started again on a completed migration (migration 0006_remigrations). */
export interface RemigrationsTable {
  id: string;
  migration_id: string;
  /** 1 for the first re-migration, then 2, 3, ... */
  number: number;
  /** Why it may run: 'first' (free), 'demo', 'sandbox' (free), 'paid' (quote_id bought it). */
  basis: string;
  quote_id: string | null;
  created_at: string;
}

/** Stripe webhook events already received, by event id (migration 0005_payments). */
export interface StripeEventsTable {
  id: string;
  type: string;
  object_id: string | null;
  received_at: string;
  processed_at: string | null;
}

/** One run of the engine over a migration (the first run, a resume continues it; a re-run is new). */
export interface EngineRunsTable {
  id: string;
  migration_id: string;
  /** running | completed | failed | payment_required */
  status: string;
  /** migrate | verify | done */
  phase: string;
  /** JSON array of the entity types the run moves, in dependency order. */
  entities: string;
  started_at: string;
  finished_at: string | null;
  error_code: string | null;
  error_message: string | null;
  /** JSON result of the verification pass, or null until it ran. */
  verification: string | null;
  updated_at: string;
  /** JSON list of what the destination did to prepare and finish the import (0006). */
  notes: Generated<string | null>;
  /** JSON of the store the run waits for (StoreOutage), null when none (0011). */
  waiting: Generated<string | null>;
  /** JSON list of [epoch ms, records done] over the run, for its rate (0011). */
  samples: Generated<string | null>;
  /** full | incremental: how a run reopened for verification compares; null: default (0012). */
  verify_mode: Generated<string | null>;
  /** source | destination: the store that set the pace at the last sample; null: none (0015). */
  limited_by: Generated<string | null>;
  /** migration | demo | undo: demo and undo runs leave the migration's lifecycle alone (0018). */
  kind: Generated<string>;
  /** JSON of what a finished run did per entity: { migrated, skipped, failed } (0018). */
  stats: Generated<string | null>;
}

/**
 * The id map and per-record outcomes: where each source record went, the hash of the canonical
 * record last written, and how it ended in the run that last touched it.
 */
export interface EngineIdMapTable {
  migration_id: string;
  entity: string;
  source_id: string;
  destination_id: string | null;
  content_hash: string | null;
  /** migrated | skipped | failed */
  outcome: string;
  reason: string | null;
  run_id: string;
  updated_at: string;
  /** Field hashes of the destination record, written by the verification pass. */
  verify_fields: string | null;
  /** Field hashes of the source record when it was last written (0011). */
  source_fields: Generated<string | null>;
  /** 1 when this migration created the destination record, 0 when it found it there (0011). */
  created: Generated<number>;
  /** Storefront path of the record at the source when last written (0017), for redirects. */
  source_path: Generated<string | null>;
  /** Storefront path of its copy at the destination as last verified (0017). */
  destination_path: Generated<string | null>;
  /** 1 when the destination record is the merchant's own, linked and never changed (0017). */
  linked: Generated<number>;
}

/** Where a run's read stream of one entity stands; moves in the transaction of its batch. */
export interface EngineCheckpointsTable {
  run_id: string;
  entity: string;
  /** JSON Checkpoint of the connector, null = from the start. */
  checkpoint: string | null;
  done: number;
  updated_at: string;
}

/** Durable jobs of the embedded runner, claimed with a lease that a heartbeat extends. */
export interface EngineRecordDifferencesTable {
  migration_id: string;
  entity: string;
  source_id: string;
  /** Canonical path of the field ('variants.downloads') or the source platform's own name. */
  field: string;
  reason: string;
}

export interface EngineAssetsTable {
  migration_id: string;
  /** 'image', 'term' or 'redirect' (see AssetRecord) */
  kind: string;
  /** Its identity at the source (an image's URL, a term's taxonomy and name, a redirect's path). */
  source_key: string;
  destination_id: string;
  /** The entity and source id of the record whose write stored it, or null (0020). */
  owner_entity: Generated<string | null>;
  owner_id: Generated<string | null>;
  updated_at: string;
}

/** How each record an undo run looked at ended (0020). */
export interface EngineUndoRecordsTable {
  migration_id: string;
  run_id: string;
  /** The record's entity, or 'assets' for a file or term (source_id is then 'kind:key'). */
  entity: string;
  source_id: string;
  destination_id: string;
  /** removed | gone | kept | failed */
  outcome: string;
  reason: string | null;
  /** A record left in the store: JSON [entity, destination id] pairs of the records it uses. */
  refs: string | null;
  updated_at: string;
}

export interface EngineJobsTable {
  id: string;
  migration_id: string;
  user_id: string;
  /** queued | running | parked | done | failed */
  state: string;
  /** 1 when the run has no payment limit (demo account or sandbox stores), decided at start. */
  unlimited: number;
  lease_owner: string | null;
  lease_expires_at: string | null;
  lease_version: Generated<number>;
  attempts: Generated<number>;
  /** Attempts whose process died holding the lease (found when the job is claimed again). */
  crashes: Generated<number>;
  /** Attempts that ended with an error the worker caught. */
  failures: Generated<number>;
  last_error: string | null;
  /** The runner that alone may run the job (sandbox stores live in its process), or null. */
  pinned_to: string | null;
  /** The pg-boss job (a UUID) that queues this job on PostgreSQL; null on the embedded runner. */
  queue_job_id: string | null;
  created_at: string;
  updated_at: string;
  /** migration | demo | undo: the kind of run the job carries out (0018, undo 0020). */
  kind: Generated<string>;
  /** A recent-data run: the day (ISO date) since which the source's changes are moved (0019). */
  changed_since: string | null;
}

export interface RateLimitEventsTable {
  key: string;
  /** Epoch milliseconds (a string from PostgreSQL's bigint). */
  at: number | string;
}

export interface Database {
  migrations: MigrationsTable;
  engine_runs: EngineRunsTable;
  engine_id_map: EngineIdMapTable;
  engine_checkpoints: EngineCheckpointsTable;
  engine_jobs: EngineJobsTable;
  engine_record_differences: EngineRecordDifferencesTable;
  engine_assets: EngineAssetsTable;
  engine_undo_records: EngineUndoRecordsTable;
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  mail_outbox: MailOutboxTable;
  notifications: NotificationsTable;
  payment_quotes: PaymentQuotesTable;
  remigrations: RemigrationsTable;
  stripe_events: StripeEventsTable;
  rate_limit_events: RateLimitEventsTable;
}
