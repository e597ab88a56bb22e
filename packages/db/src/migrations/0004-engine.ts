import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The migration engine's state: runs, the id map (one row per source record: where it went and
 * how it ended), the read checkpoints of each run, and the durable job queue of the embedded
 * runner. Everything hangs off a migration and goes when it is deleted.
 */
export const engineTables: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('engine_runs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('migration_id', 'text', (c) =>
        c.notNull().references('migrations.id').onDelete('cascade'),
      )
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('phase', 'text', (c) => c.notNull())
      .addColumn('entities', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('finished_at', 'text')
      .addColumn('error_code', 'text')
      .addColumn('error_message', 'text')
      .addColumn('verification', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('engine_runs_migration_idx')
      .on('engine_runs')
      .columns(['migration_id', 'started_at'])
      .execute();

    await db.schema
      .createTable('engine_id_map')
      .addColumn('migration_id', 'text', (c) =>
        c.notNull().references('migrations.id').onDelete('cascade'),
      )
      .addColumn('entity', 'text', (c) => c.notNull())
      .addColumn('source_id', 'text', (c) => c.notNull())
      .addColumn('destination_id', 'text')
      .addColumn('content_hash', 'text')
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('run_id', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('verify_fields', 'text')
      .addPrimaryKeyConstraint('engine_id_map_pk', ['migration_id', 'entity', 'source_id'])
      .execute();
    await db.schema
      .createIndex('engine_id_map_destination_idx')
      .on('engine_id_map')
      .columns(['migration_id', 'entity', 'destination_id'])
      .execute();

    await db.schema
      .createTable('engine_checkpoints')
      .addColumn('run_id', 'text', (c) =>
        c.notNull().references('engine_runs.id').onDelete('cascade'),
      )
      .addColumn('entity', 'text', (c) => c.notNull())
      .addColumn('checkpoint', 'text')
      .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('engine_checkpoints_pk', ['run_id', 'entity'])
      .execute();

    await db.schema
      .createTable('engine_jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('migration_id', 'text', (c) =>
        c.notNull().references('migrations.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('unlimited', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lease_owner', 'text')
      .addColumn('lease_expires_at', 'text')
      .addColumn('lease_version', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('engine_jobs_state_idx')
      .on('engine_jobs')
      .columns(['state', 'lease_expires_at'])
      .execute();
    // At most one live job per migration, so a double click or two servers cannot run it twice.
    await db.schema
      .createIndex('engine_jobs_live_migration_idx')
      .on('engine_jobs')
      .column('migration_id')
      .unique()
      .where(sql.ref('state'), 'in', sql`('queued', 'running')`)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['engine_jobs', 'engine_checkpoints', 'engine_id_map', 'engine_runs']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
