import type { Kysely, Migration } from 'kysely';

/**
 * Undo:
 * - `engine_undo_records` holds, per undo run, how each record (or asset) the migration created
 *   ended: removed, gone (the store no longer had it), kept (the owner changed it since, or the
 *   platform cannot delete it) or failed, with the reason. An undo run resumes by taking the
 *   id-map rows it has no record for yet. Assets are kept under entity 'assets' with their kind
 *   and key as the source id. A record left in the store keeps, in `refs`, the records it uses
 *   (JSON [entity, destination id] pairs), which the undo then leaves too, also after a resume;
 * - `engine_assets.owner_entity`/`owner_id`: the record whose write stored a file or term, so an
 *   undo keeps what a record it keeps (the owner changed it since) still shows.
 */
export const undoRecords: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('engine_undo_records')
      .addColumn('migration_id', 'text', (c) =>
        c.notNull().references('migrations.id').onDelete('cascade'),
      )
      .addColumn('run_id', 'text', (c) => c.notNull())
      .addColumn('entity', 'text', (c) => c.notNull())
      .addColumn('source_id', 'text', (c) => c.notNull())
      .addColumn('destination_id', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('refs', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('engine_undo_records_pk', ['run_id', 'entity', 'source_id'])
      .execute();
    await db.schema
      .createIndex('engine_undo_records_migration')
      .on('engine_undo_records')
      .columns(['migration_id'])
      .execute();
    await db.schema.alterTable('engine_assets').addColumn('owner_entity', 'text').execute();
    await db.schema.alterTable('engine_assets').addColumn('owner_id', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_assets').dropColumn('owner_id').execute();
    await db.schema.alterTable('engine_assets').dropColumn('owner_entity').execute();
    await db.schema.dropTable('engine_undo_records').execute();
  },
};
