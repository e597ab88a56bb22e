import type { Kysely, Migration } from 'kysely';

/**
 * `engine_jobs.queue_job_id`: on PostgreSQL a migration's job is queued, claimed, kept alive and
 * retried by pg-boss; this is the id of its pg-boss job (a UUID), so the engine can fence its
 * commits on that job's claim and operators can find it in pg-boss's tables. Null for jobs of the
 * embedded runner (SQLite), which keeps its own lease columns.
 */
export const queueJobs: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_jobs').addColumn('queue_job_id', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_jobs').dropColumn('queue_job_id').execute();
  },
};
