import type { Kysely, Migration } from 'kysely';

/** The Migration entity of spec.md section 3. */
export const migrationsTable: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('migrations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('store_name', 'text', (c) => c.notNull())
      .addColumn('source_store', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('destination_store', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('source_store_url', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('destination_store_url', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('source_credentials', 'text')
      .addColumn('destination_credentials', 'text')
      .addColumn('source_verified', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('destination_verified', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('current_step', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
      .addColumn('data_types', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('entity_counts', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('migration_stats', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('payment_info', 'text')
      .addColumn('total_entities', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('migrated_entities', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_updated', 'text', (c) => c.notNull())
      .addColumn('completed_at', 'text')
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema
      .createIndex('migrations_user_id_idx')
      .on('migrations')
      .columns(['user_id', 'created_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('migrations').execute();
  },
};
