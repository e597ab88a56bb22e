import { PostgresAdapter, sql, type ColumnDataType, type Kysely, type Migration } from 'kysely';

/**
 * Accounts and sign-in (better-auth's user, session, account and verification models, mapped to
 * our snake_case names) and the development mail outbox.
 *
 * better-auth's Kysely adapter hands PostgreSQL real Date and boolean values but SQLite ISO text
 * and 0/1, so these tables use timestamptz/boolean on PostgreSQL and text/integer on SQLite.
 * Either way better-auth reads them back as Date and boolean.
 */
export const authTables: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const time: ColumnDataType = postgres ? 'timestamptz' : 'text';
    const bool: ColumnDataType = postgres ? 'boolean' : 'integer';
    const no = postgres ? sql`false` : sql`0`;

    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('email_verified', bool, (c) => c.notNull().defaultTo(no))
      .addColumn('image', 'text')
      .addColumn('is_demo', bool, (c) => c.notNull().defaultTo(no))
      .addColumn('demo_expires_at', time)
      .addColumn('created_at', time, (c) => c.notNull())
      .addColumn('updated_at', time, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('users_demo_expires_at_idx')
      .on('users')
      .column('demo_expires_at')
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token', 'text', (c) => c.notNull().unique())
      .addColumn('expires_at', time, (c) => c.notNull())
      .addColumn('ip_address', 'text')
      .addColumn('user_agent', 'text')
      .addColumn('created_at', time, (c) => c.notNull())
      .addColumn('updated_at', time, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user_id_idx').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('accounts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('provider_id', 'text', (c) => c.notNull())
      .addColumn('access_token', 'text')
      .addColumn('refresh_token', 'text')
      .addColumn('id_token', 'text')
      .addColumn('access_token_expires_at', time)
      .addColumn('refresh_token_expires_at', time)
      .addColumn('scope', 'text')
      .addColumn('password', 'text')
      .addColumn('created_at', time, (c) => c.notNull())
      .addColumn('updated_at', time, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('accounts_user_id_idx').on('accounts').column('user_id').execute();

    await db.schema
      .createTable('verifications')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('identifier', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('expires_at', time, (c) => c.notNull())
      .addColumn('created_at', time, (c) => c.notNull())
      .addColumn('updated_at', time, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('verifications_identifier_idx')
      .on('verifications')
      .column('identifier')
      .execute();

    // Mail that could not go out by SMTP because none is configured; read by the operator.
    await db.schema
      .createTable('mail_outbox')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('to_address', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('text_body', 'text', (c) => c.notNull())
      .addColumn('html_body', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('mail_outbox_created_at_idx')
      .on('mail_outbox')
      .column('created_at')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['mail_outbox', 'verifications', 'accounts', 'sessions', 'users']) {
      await db.schema.dropTable(table).execute();
    }
  },
};
