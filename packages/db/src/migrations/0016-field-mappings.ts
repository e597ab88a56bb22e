import type { Kysely, Migration } from 'kysely';

/**
 * `migrations.field_mappings`: the owner's mappings of values between the two stores (JSON, e.g.
 * `{ "orderStatuses": { "on-hold": "processing" } }`), chosen on Select Data and applied by the
 * engine to every record it reads from the source; `{}` keeps every value as it is.
 */
export const fieldMappings: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('migrations')
      .addColumn('field_mappings', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('migrations').dropColumn('field_mappings').execute();
  },
};
