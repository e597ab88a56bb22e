import type { Kysely, Migration } from 'kysely';

/**
 * `migrations.migration_options`: the owner's additional options of Select Data (JSON, e.g.
 * `{ "keepSlugs": false, "notifyCustomers": true }`); `{}` leaves every option at its default.
 */
export const migrationOptions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('migrations')
      .addColumn('migration_options', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('migrations').dropColumn('migration_options').execute();
  },
};
