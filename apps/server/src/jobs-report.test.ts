import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresSchema, testDialects } from '@replatform/db/test-databases';
import { buildApp, type App } from './app.ts';
import { parseConfig } from './config.ts';
import { startMigration } from './jobs/start-migration.ts';
import { treatAsSandbox } from './testing/woocommerce-migration.ts';
import { jobsReport } from './jobs-report.ts';
import { sealCredentials } from './migrations/store-credentials.ts';

describe.each(testDialects())('npm run jobs on %s', (dialect) => {
  let env: Record<string, string>;
  let dataDir: string;
  let dropSchema: (() => Promise<void>) | undefined;
  let app: App;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'replatform-jobs-report-'));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres')
      ({ url: databaseUrl, drop: dropSchema } = await createPostgresSchema());
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      SANDBOX_STORES: 'false',
      WORKERS: '0',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    app = await buildApp(parseConfig(env));
  });
  afterAll(async () => {
    await app?.close();
    await dropSchema?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function started(name: string) {
    const { migrations, vault, engine } = app.services;
    const m = await migrations.create({ userId: 'owner', email: 'o@x.io', storeName: name });
    const seal = (side: 'source' | 'destination') =>
      sealCredentials(vault, m.id, side, {
        platform: 'woocommerce',
        secrets: {
          storeUrl: `https://${side}.example.com`,
          consumerKey: 'ck',
          consumerSecret: 's',
        },
      });
    const ready = await migrations.update(m.id, 'owner', {
      sourceStore: 'woocommerce',
      destinationStore: 'woocommerce',
      sourceStoreUrl: 'https://source.example.com',
      destinationStoreUrl: 'https://destination.example.com',
      sourceCredentials: seal('source'),
      destinationCredentials: seal('destination'),
      sourceVerified: true,
      destinationVerified: true,
      dataTypes: { products: true },
      currentStep: 3,
    });
    const free = treatAsSandbox(
      engine,
      'https://source.example.com',
      'https://destination.example.com',
    );
    return (await startMigration(free, ready!, { isDemo: false })).job;
  }

  it('lists queued, running (worker and heartbeat) and failed jobs with their reason', async () => {
    const { engine } = app.services;
    const waiting = await started('Waiting Store');
    const running = await started('Running Store');
    const failed = await started('Failed Store');
    await engine.jobs.beginAttempt(running.id, 'host-a:4242:w1');
    await engine.cancel(failed.migrationId, 'Stopped by the operator.');

    const text = await jobsReport(env);
    expect(text).toContain('1 queued, 1 running, 0 waiting for a top-up, 1 failed');
    expect(text).toMatch(new RegExp(`${waiting.migrationId}  Waiting Store  waiting \\d+ s`));
    expect(text).toMatch(
      new RegExp(`${running.migrationId}  Running Store  worker host-a:4242:w1, heartbeat`),
    );
    expect(text).toMatch(
      new RegExp(`${failed.migrationId}  Failed Store  \\d+ s ago: Stopped by the operator\\.`),
    );
    expect(text).toContain(dialect === 'postgres' ? 'pg-boss on PostgreSQL' : 'embedded runner');
  });
});
