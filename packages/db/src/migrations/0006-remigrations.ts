import type { Kysely, Migration } from 'kysely';

/**
 * Re-migrations and sturdier jobs:
 * - `remigrations`: one row per run started again on a completed migration (the first is free;
 *   later ones are bought with a 'remigration' quote, whose number binds it to that run);
 * - `payment_quotes.remigration_number`: which re-migration a 'remigration' quote pays for;
 * - `engine_jobs.crashes` / `failures`: attempts that died with their process versus attempts
 *   that ended in an error, each with its own limit (`attempts` keeps counting claims);
 * - `engine_runs.notes`: what the destination did to prepare and finish the import (JSON list).
 */
export const remigrationTables: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('remigrations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('migration_id', 'text', (c) =>
        c.notNull().references('migrations.id').onDelete('cascade'),
      )
      .addColumn('number', 'integer', (c) => c.notNull())
      /** 'first' | 'demo' | 'sandbox' | 'paid' */
      .addColumn('basis', 'text', (c) => c.notNull())
      .addColumn('quote_id', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // Two starts racing for the same re-migration: exactly one insert succeeds.
    await db.schema
      .createIndex('remigrations_number_idx')
      .on('remigrations')
      .columns(['migration_id', 'number'])
      .unique()
      .execute();
    // A paid quote buys one re-migration, never two.
    await db.schema
      .createIndex('remigrations_quote_idx')
      .on('remigrations')
      .column('quote_id')
      .unique()
      .execute();

    await db.schema
      .alterTable('payment_quotes')
      .addColumn('remigration_number', 'integer')
      .execute();
    await db.schema
      .alterTable('engine_jobs')
      .addColumn('crashes', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('engine_jobs')
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('engine_runs').addColumn('notes', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_runs').dropColumn('notes').execute();
    await db.schema.alterTable('engine_jobs').dropColumn('failures').execute();
    await db.schema.alterTable('engine_jobs').dropColumn('crashes').execute();
    await db.schema.alterTable('payment_quotes').dropColumn('remigration_number').execute();
    await db.schema.dropTable('remigrations').execute();
  },
};
