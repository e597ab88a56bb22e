import type { Kysely, Migration } from 'kysely';

/**
 * Fidelity records of a migration:
 * - `engine_record_differences`: per record, each field the destination could not hold (or the
 *   model could not carry) with the reason, so the report names them record by record and the
 *   detail page counts them by field;
 * - `engine_assets`: shared files (product images) stored once at the destination, by their
 *   identity at the source, so every later record that shows one reuses the copy;
 * - `engine_runs.waiting`: the store a run is waiting for (down for an update, a hosting hiccup)
 *   and when it is probed next, so the owner sees why nothing moves;
 * - `engine_runs.samples`: records done over time, for the rate chart and the time left;
 * - `engine_id_map.source_fields`: what each record looked like at the source when it was last
 *   written (a hash per field), so a verification after a run compares the destination with it
 *   instead of reading the whole source again;
 * - `engine_id_map.created`: 1 when this migration created the destination record (rather than
 *   finding it there), so undoing a migration removes only what it created.
 */
export const fidelityTables: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('engine_record_differences')
      .addColumn('migration_id', 'text', (c) =>
        c.notNull().references('migrations.id').onDelete('cascade'),
      )
      .addColumn('entity', 'text', (c) => c.notNull())
      .addColumn('source_id', 'text', (c) => c.notNull())
      .addColumn('field', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('engine_record_differences_pk', [
        'migration_id',
        'entity',
        'source_id',
        'field',
      ])
      .execute();
    await db.schema
      .createTable('engine_assets')
      .addColumn('migration_id', 'text', (c) =>
        c.notNull().references('migrations.id').onDelete('cascade'),
      )
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('source_key', 'text', (c) => c.notNull())
      .addColumn('destination_id', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('engine_assets_pk', ['migration_id', 'kind', 'source_key'])
      .execute();
    await db.schema.alterTable('engine_runs').addColumn('waiting', 'text').execute();
    await db.schema.alterTable('engine_runs').addColumn('samples', 'text').execute();
    await db.schema.alterTable('engine_id_map').addColumn('source_fields', 'text').execute();
    await db.schema
      .alterTable('engine_id_map')
      .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_id_map').dropColumn('created').execute();
    await db.schema.alterTable('engine_id_map').dropColumn('source_fields').execute();
    await db.schema.alterTable('engine_runs').dropColumn('samples').execute();
    await db.schema.alterTable('engine_runs').dropColumn('waiting').execute();
    await db.schema.dropTable('engine_assets').execute();
    await db.schema.dropTable('engine_record_differences').execute();
  },
};
