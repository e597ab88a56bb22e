import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrateToLatest, openDatabase, type Db, type Dialect } from './database.ts';

/**
 * The dialects every database suite runs against: SQLite always, PostgreSQL whenever
 * TEST_DATABASE_URL is set (CI starts a server and sets it). Each opened database is private to
 * the caller: a temporary SQLite file, or a fresh PostgreSQL schema dropped on close.
 */
export function testDialects(): Dialect[] {
  return process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export async function openTestDatabase(dialect: Dialect): Promise<Db> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'replatform-db-'));
    const db = openDatabase({ sqlitePath: join(dir, 'test.sqlite') });
    await migrateToLatest(db);
    return {
      ...db,
      close: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const { url, drop } = await createPostgresSchema();
  const db = openDatabase({ databaseUrl: url, sqlitePath: '' });
  await migrateToLatest(db);
  return {
    ...db,
    close: async () => {
      await db.close();
      await drop();
    },
  };
}

/** A fresh, empty PostgreSQL schema on TEST_DATABASE_URL and a URL whose search_path points at it. */
export async function createPostgresSchema(): Promise<{ url: string; drop: () => Promise<void> }> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.end();
  const url = new URL(baseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: baseUrl });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA "${schema}" CASCADE`);
      // The job queue's own schema beside it (see pg-boss-runner.ts), when a test started one.
      await cleanup.query(`DROP SCHEMA IF EXISTS "${schema}_pgboss" CASCADE`);
      await cleanup.end();
    },
  };
}
