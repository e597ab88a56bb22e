import type { Kysely, Migration } from 'kysely';

/**
 * `engine_runs.limited_by`: the store that set the run's pace at its last sample ('source' or
 * 'destination': its API limit was in full use, or requests waited for it to answer), null when
 * the run itself was the limit. The Migrate step says so beside the time left.
 */
export const runPace: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_runs').addColumn('limited_by', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_runs').dropColumn('limited_by').execute();
  },
};
