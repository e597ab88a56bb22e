import type { Kysely, Migration } from 'kysely';

/**
 * Payments: the server's price quotes (what a checkout charges, from the server's own count of
 * the source) and the Stripe webhook events already handled, kept by event id so a redelivered
 * event is recognised.
 */
export const paymentTables: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('payment_quotes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('migration_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('provider', 'text', (c) => c.notNull())
      .addColumn('counts', 'text', (c) => c.notNull())
      .addColumn('records_total', 'integer', (c) => c.notNull())
      .addColumn('previously_paid_records', 'integer', (c) => c.notNull())
      .addColumn('records_bought', 'integer', (c) => c.notNull())
      .addColumn('amount_cents', 'integer', (c) => c.notNull())
      .addColumn('currency', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('checkout_session_id', 'text', (c) => c.unique())
      .addColumn('checkout_url', 'text')
      .addColumn('payment_intent_id', 'text')
      .addColumn('charge_id', 'text')
      .addColumn('receipt_url', 'text')
      .addColumn('payment_method', 'text')
      .addColumn('customer_email', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('paid_at', 'text')
      .execute();
    await db.schema
      .createIndex('payment_quotes_migration_idx')
      .on('payment_quotes')
      .columns(['migration_id', 'created_at'])
      .execute();

    await db.schema
      .createTable('stripe_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('object_id', 'text')
      .addColumn('received_at', 'text', (c) => c.notNull())
      .addColumn('processed_at', 'text')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('stripe_events').execute();
    await db.schema.dropTable('payment_quotes').execute();
  },
};
