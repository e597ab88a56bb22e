import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, type App, type AppOptions } from '../app.ts';
import { parseConfig } from '../config.ts';

/**
 * A fully built app on a private database: a temporary SQLite file, or a fresh PostgreSQL schema
 * when `dialect` is 'postgres' (TEST_DATABASE_URL must be set).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  dialect: 'sqlite' | 'postgres' = 'sqlite',
  options: AppOptions = {},
): Promise<{ app: App; close: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'replatform-app-'));
  let databaseUrl: string | undefined;
  let dropSchema: (() => Promise<void>) | undefined;
  if (dialect === 'postgres') {
    const { createPostgresSchema } = await import('@replatform/db/test-databases');
    ({ url: databaseUrl, drop: dropSchema } = await createPostgresSchema());
  }
  const config = parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    // Each sandbox is eight seeded emulators: only the tests about it switch it on.
    SANDBOX_STORES: 'false',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const app = await buildApp(config, options);
  return {
    app,
    close: async () => {
      await app.close();
      await dropSchema?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
