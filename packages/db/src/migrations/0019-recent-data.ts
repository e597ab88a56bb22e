import type { Kysely, Migration } from 'kysely';

/**
 * "Recent data" re-migrations: `engine_jobs.changed_since` holds the day (ISO date) the owner
 * chose; records an earlier run wrote that the source has not changed since then are left as
 * they are. Null for a run of everything.
 */
export const recentData: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_jobs').addColumn('changed_since', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_jobs').dropColumn('changed_since').execute();
  },
};
