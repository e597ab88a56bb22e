import type { Kysely, Migration, MigrationProvider } from 'kysely';
import { migrationsTable } from './migrations/0001-migrations.ts';
import { authTables } from './migrations/0002-auth.ts';
import { notificationsTable } from './migrations/0003-notifications.ts';
import { engineTables } from './migrations/0004-engine.ts';
import { paymentTables } from './migrations/0005-payments.ts';
import { remigrationTables } from './migrations/0006-remigrations.ts';
import { formTables } from './migrations/0007-forms.ts';
import { jobPinning } from './migrations/0008-job-pinning.ts';
import { queueJobs } from './migrations/0009-queue-jobs.ts';
import { rateLimitTables } from './migrations/0010-rate-limits.ts';
import { confirmedAddresses } from './migrations/0011-confirmed-addresses.ts';
import { runStart } from './migrations/0012-run-start.ts';
import { fidelityTables } from './migrations/0013-fidelity.ts';
import { verifyAgain } from './migrations/0014-verify-again.ts';
import { runPace } from './migrations/0015-run-pace.ts';
import { fieldMappings } from './migrations/0016-field-mappings.ts';
import { storefrontPaths } from './migrations/0017-storefront-paths.ts';
import { demoRuns } from './migrations/0018-demo-runs.ts';
import { recentData } from './migrations/0019-recent-data.ts';
import { undoRecords } from './migrations/0020-undo.ts';
import { migrationOptions } from './migrations/0021-migration-options.ts';

/**
 * Versioned schema migrations, applied in name order at start, one file each in migrations/.
 * Never edit a migration that has shipped: add the next one. Column types are chosen to mean the
 * same on SQLite and PostgreSQL.
 */
const migrations: Record<string, Migration> = {
  '0001_migrations': migrationsTable,
  '0002_auth': authTables,
  '0003_notifications': notificationsTable,
  '0004_engine': engineTables,
  '0005_payments': paymentTables,
  '0006_remigrations': remigrationTables,
  '0007_forms': formTables,
  '0008_job_pinning': jobPinning,
  '0009_queue_jobs': queueJobs,
  '0010_rate_limits': rateLimitTables,
  '0011_confirmed_addresses': confirmedAddresses,
  '0012_run_start': runStart,
  '0013_fidelity': fidelityTables,
  '0014_verify_again': verifyAgain,
  '0015_run_pace': runPace,
  '0016_field_mappings': fieldMappings,
  '0017_storefront_paths': storefrontPaths,
  '0018_demo_runs': demoRuns,
  '0019_recent_data': recentData,
  '0020_undo': undoRecords,
  '0021_migration_options': migrationOptions,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

/** Used by tests to prove both dialects accept the same DDL. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database's tables
export async function listTables(db: Kysely<any>): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables.map((t) => t.name).sort();
}
