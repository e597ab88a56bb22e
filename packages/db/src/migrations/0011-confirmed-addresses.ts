import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * New accounts now sign in only once their address is confirmed. Accounts made before that could
 * already sign in: they count as confirmed, so nobody is locked out by the change. Demo accounts
 * never sign in by password and are left as they are.
 */
export const confirmedAddresses: Migration = {
  async up(db: Kysely<unknown>) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    const yes = postgres ? sql`true` : sql`1`;
    const no = postgres ? sql`false` : sql`0`;
    await sql`update users set email_verified = ${yes} where is_demo = ${no}`.execute(db);
  },
  async down() {
    // Which accounts were confirmed by this migration is not recorded; nothing to undo.
  },
};
