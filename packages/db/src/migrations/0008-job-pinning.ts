import type { Kysely, Migration } from 'kysely';

/**
 * `engine_jobs.pinned_to`: the runner that alone may run a job, or null for any runner. A
 * migration between the built-in sandbox stores can only run in the process that holds those
 * stores (they live in its memory), so its job names that process's runner; worker processes and
 * other servers on the same database leave it alone.
 */
export const jobPinning: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_jobs').addColumn('pinned_to', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_jobs').dropColumn('pinned_to').execute();
  },
};
