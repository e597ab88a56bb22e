import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase } from '@replatform/db/database';
import { outboxMailer, passwordResetMail } from './auth/mailer.ts';
import { parseConfig } from './config.ts';
import { outboxText } from './outbox.ts';

describe('npm run outbox', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'replatform-outbox-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints the stored mails, optionally for one address', async () => {
    const env = { DATA_DIR: dataDir };
    expect(await outboxText(env)).toBe('The outbox is empty.');

    const config = parseConfig(env);
    const db = openDatabase({ sqlitePath: config.sqlitePath });
    await migrateToLatest(db);
    const mailer = outboxMailer(db, pino({ level: 'silent' }));
    await mailer.send(
      passwordResetMail({
        to: 'ada@example.com',
        name: 'Ada',
        url: 'http://localhost:4001/login?mode=reset&token=abc',
        expiresInMinutes: 60,
      }),
    );
    await db.close();

    const all = await outboxText(env);
    expect(all).toContain('to ada@example.com');
    expect(all).toContain('Subject: Reset your Replatform password');
    expect(all).toContain('http://localhost:4001/login?mode=reset&token=abc');
    expect(await outboxText(env, 'grace@example.com')).toBe(
      'No mail to grace@example.com in the outbox.',
    );
    expect(await outboxText(env, 'ADA@example.com')).toContain('Subject: Reset');
  });
});
