import type { Kysely, Migration } from 'kysely';

/**
 * Free demo migrations: a few records of each selected type moved before payment, through the
 * same engine, into the real destination.
 * - `engine_runs.kind`: 'migration' (the owner's run, which moves the migration through its
 *   lifecycle) or 'demo' (leaves the migration where it is);
 * - `engine_runs.stats`: JSON of what a finished run did per entity (migrated, skipped, failed),
 *   kept on the run because the id map's rows move to the run that last touched them;
 * - `engine_jobs.kind`: the kind of run the job carries out.
 */
export const demoRuns: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('engine_runs')
      .addColumn('kind', 'text', (c) => c.notNull().defaultTo('migration'))
      .execute();
    await db.schema.alterTable('engine_runs').addColumn('stats', 'text').execute();
    await db.schema
      .alterTable('engine_jobs')
      .addColumn('kind', 'text', (c) => c.notNull().defaultTo('migration'))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_jobs').dropColumn('kind').execute();
    await db.schema.alterTable('engine_runs').dropColumn('stats').execute();
    await db.schema.alterTable('engine_runs').dropColumn('kind').execute();
  },
};
