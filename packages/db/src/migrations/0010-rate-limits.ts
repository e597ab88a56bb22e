import type { Kysely, Migration } from 'kysely';

/**
 * `rate_limit_events`: the counted events of the abuse limits (sign-in, sign-up, reset, demo,
 * contact and quote), one row per event and key, so every server on one database enforces the
 * same limit instead of each counting its own share. `at` is epoch milliseconds.
 */
export const rateLimitTables: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rate_limit_events')
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('rate_limit_events_key_at_idx')
      .on('rate_limit_events')
      .columns(['key', 'at'])
      .execute();
    // The sweep removes old events by time alone.
    await db.schema
      .createIndex('rate_limit_events_at_idx')
      .on('rate_limit_events')
      .column('at')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('rate_limit_events').execute();
  },
};
