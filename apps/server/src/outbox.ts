import { migrateToLatest, openDatabase } from '@replatform/db/database';
import { readOutbox } from './auth/mailer.ts';
import { ConfigError, parseConfig } from './config.ts';

/**
 * The newest mails kept in the outbox when no SMTP_URL is configured (password reset links, e-mail
 * change notices), as text, for the operator of an instance without a mail server. Reads the same
 * configuration as the server (DATA_DIR, DATABASE_URL).
 */
export async function outboxText(
  env: Record<string, string | undefined>,
  to?: string,
  limit = 10,
): Promise<string> {
  const config = parseConfig(env);
  const db = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath });
  try {
    await migrateToLatest(db);
    const mails = await readOutbox(db, to, limit);
    if (!mails.length) return to ? `No mail to ${to} in the outbox.` : 'The outbox is empty.';
    return mails
      .reverse()
      .map((m) => `--- ${m.createdAt}  to ${m.to}\nSubject: ${m.subject}\n\n${m.text}`)
      .join('\n');
  } finally {
    await db.close();
  }
}

// `npm run outbox` (the newest 10) or `npm run outbox -- ada@example.com` (one address).
if (import.meta.main) {
  try {
    console.log(await outboxText(process.env, process.argv[2]));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}
