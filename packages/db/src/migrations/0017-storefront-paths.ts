import type { Kysely, Migration } from 'kysely';

/**
 * Where each migrated product and category is shown on the storefronts, for the redirect map:
 * - `engine_id_map.source_path`: its path on the source store ('/product/blue-shirt/') when it
 *   was last written, null when the source gives none (a draft);
 * - `engine_id_map.destination_path`: its path on the destination as the verification pass last
 *   read it, null until then;
 * - `engine_id_map.linked`: 1 when the destination record is the merchant's own, which the
 *   migration linked to without changing it, so no later run changes it either.
 */
export const storefrontPaths: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_id_map').addColumn('source_path', 'text').execute();
    await db.schema.alterTable('engine_id_map').addColumn('destination_path', 'text').execute();
    await db.schema
      .alterTable('engine_id_map')
      .addColumn('linked', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('engine_id_map').dropColumn('linked').execute();
    await db.schema.alterTable('engine_id_map').dropColumn('destination_path').execute();
    await db.schema.alterTable('engine_id_map').dropColumn('source_path').execute();
  },
};
