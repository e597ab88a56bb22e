import type { Kysely, Migration } from 'kysely';

/**
 * What visitors and users send us through the public and help pages (decisions.md section 5:
 * stored, not just logged): contact messages of signed-in users, enterprise quote requests, and
 * each user's notification and display preferences.
 */
export const formTables: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('contact_messages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('company', 'text', (c) => c.notNull())
      .addColumn('phone', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('priority', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('emailed_at', 'text')
      .execute();
    await db.schema
      .createIndex('contact_messages_user_created_idx')
      .on('contact_messages')
      .columns(['user_id', 'created_at'])
      .execute();
    // The operator reads the newest first.
    await db.schema
      .createIndex('contact_messages_created_idx')
      .on('contact_messages')
      .column('created_at')
      .execute();

    await db.schema
      .createTable('enterprise_quotes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('store_name', 'text', (c) => c.notNull())
      .addColumn('store_size', 'text', (c) => c.notNull())
      .addColumn('comments', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('emailed_at', 'text')
      .execute();
    await db.schema
      .createIndex('enterprise_quotes_created_idx')
      .on('enterprise_quotes')
      .column('created_at')
      .execute();

    await db.schema
      .createTable('user_preferences')
      .addColumn('user_id', 'text', (c) => c.primaryKey())
      // JSON objects; a field never saved is absent and reads as its default.
      .addColumn('notifications', 'text', (c) => c.notNull())
      .addColumn('preferences', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('user_preferences').execute();
    await db.schema.dropTable('enterprise_quotes').execute();
    await db.schema.dropTable('contact_messages').execute();
  },
};
