import type { Kysely, Migration } from 'kysely';

/**
 * `engine_runs.verify_mode`: how the verification of a run reopened for it compares ('full' when
 * the owner asked to verify a finished migration again, re-reading both stores), so a worker that
 * takes the job over after a crash verifies the same way. Null: the engine's default.
 */
export const verifyAgain: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_runs').addColumn('verify_mode', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_runs').dropColumn('verify_mode').execute();
  },
};
