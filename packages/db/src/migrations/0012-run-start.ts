import { sql, type Kysely, type Migration } from 'kysely';

/**
 * `migrations.started_at`: when the migration's current run was started, so its start time,
 * duration and pace can be shown next to `completed_at`. Migrations that already ran take the
 * start of their latest engine run; the others have none until they start.
 */
export const runStart: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('migrations').addColumn('started_at', 'text').execute();
    await sql`update migrations set started_at = (select max(r.started_at) from engine_runs r where r.migration_id = migrations.id)`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('migrations').dropColumn('started_at').execute();
  },
};
