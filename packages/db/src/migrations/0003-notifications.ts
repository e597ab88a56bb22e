import type { Kysely, Migration } from 'kysely';

/** Notifications of the top-bar bell, raised by payments and migration events. */
export const notificationsTable: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('notifications')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('migration_id', 'text')
      .addColumn('read_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    // The bell lists a user's newest first and counts the unread ones.
    await db.schema
      .createIndex('notifications_user_created_idx')
      .on('notifications')
      .columns(['user_id', 'created_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('notifications').execute();
  },
};
