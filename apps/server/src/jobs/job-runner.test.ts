import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityTypes } from '@replatform/canonical/entities';
import { createPostgresSchema, testDialects } from '@replatform/db/test-databases';
import { MemoryStore, memoryConnector, sampleData } from '@replatform/engine/testing/memory-store';
import { buildApp, type App } from '../app.ts';
import { parseConfig } from '../config.ts';
import { createEngineServices } from './engine-services.ts';
import { startMigration } from './start-migration.ts';

const SOURCE = 'https://source.example.com';
const DESTINATION = 'https://destination.example.com';

async function waitFor(probe: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(testDialects())('job runner on %s', (dialect) => {
  let dataDir: string;
  let databaseUrl: string | undefined;
  let dropSchema: (() => Promise<void>) | undefined;
  let sourceStore: MemoryStore;
  let destinationStore: MemoryStore;
  const apps: App[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'replatform-runner-'));
    if (dialect === 'postgres')
      ({ url: databaseUrl, drop: dropSchema } = await createPostgresSchema());
  });
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => {});
    await dropSchema?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A server process over the shared database and stores (a restart is a second one). */
  async function server(): Promise<App> {
    const config = parseConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    // Slow writes, so that the run is still going when the process goes away.
    const connector = memoryConnector(
      { [SOURCE]: sourceStore, [DESTINATION]: destinationStore },
      { delayMs: 15, batchSize: 3 },
    );
    const app = await buildApp(config, { registry: { woocommerce: connector } });
    apps.push(app);
    return app;
  }

  async function readyMigration(app: App): Promise<string> {
    const { migrations, vault } = app.services;
    const { sealCredentials } = await import('../migrations/store-credentials.ts');
    const m = await migrations.create({ userId: 'owner-1', email: 'o@x.io', storeName: 'Runner' });
    const seal = (side: 'source' | 'destination', storeUrl: string) =>
      sealCredentials(vault, m.id, side, {
        platform: 'woocommerce',
        secrets: { storeUrl, consumerKey: 'ck', consumerSecret: 'secret' },
      });
    await migrations.update(m.id, 'owner-1', {
      sourceStore: 'woocommerce',
      destinationStore: 'woocommerce',
      sourceStoreUrl: SOURCE,
      destinationStoreUrl: DESTINATION,
      sourceCredentials: seal('source', SOURCE),
      destinationCredentials: seal('destination', DESTINATION),
      sourceVerified: true,
      destinationVerified: true,
      dataTypes: { products: true, customers: true, orders: true },
      currentStep: 3,
    });
    return m.id;
  }

  function expectOneCopyOfEach() {
    for (const entity of entityTypes) {
      expect(destinationStore.records[entity].size, entity).toBe(sourceStore.records[entity].size);
    }
  }

  it('resumes a running migration after a restart, and takes over the lease of a dead worker', async () => {
    sourceStore = MemoryStore.seeded(sampleData({ products: 40, customers: 20, orders: 30 }));
    destinationStore = new MemoryStore();
    const first = await server();
    const id = await readyMigration(first);
    const migration = (await first.services.migrations.findForUser(id, 'owner-1'))!;
    await startMigration(first.services.engine, migration, { isDemo: true });
    first.services.engine.runner.start();
    await waitFor(async () => destinationStore.records.products.size >= 10);

    // A graceful restart: the job is interrupted at a batch boundary and handed back.
    await first.close();
    const written = destinationStore.records.products.size;
    expect(written).toBeLessThan(40);

    const second = await server();
    // This worker claims the job and dies without a word (its lease simply runs out).
    const dead = await second.services.engine.jobs.claim('dead-worker', 300);
    expect(dead?.migrationId).toBe(id);

    // A runner with a short lease, as a second process on the same database would be.
    const takeover = createEngineServices({
      db: second.services.db,
      migrations: second.services.migrations,
      connections: second.services.connections,
      log: second.log,
      notifier: () => undefined,
      leaseMs: 1_000,
      pollMs: 50,
    });
    takeover.runner.start();
    try {
      await waitFor(
        async () => (await second.services.engine.jobs.latestJob(id))?.state === 'done',
      );
    } finally {
      await takeover.runner.stop();
    }
    expectOneCopyOfEach();
    const job = await second.services.engine.jobs.latestJob(id);
    expect(job).toMatchObject({ state: 'done', attempts: 3 });
    expect(await second.services.migrations.findForUser(id, 'owner-1')).toMatchObject({
      status: 'completed',
      currentStep: 5,
    });
    const run = await second.services.engine.repository.latestRun(id);
    expect(run).toMatchObject({ status: 'completed', phase: 'done' });
  });

  it('parks a run that would go beyond the payment, and finishes it after a top-up', async () => {
    sourceStore = MemoryStore.seeded(sampleData({ products: 10, customers: 5, orders: 5 }));
    destinationStore = new MemoryStore();
    const app = await server();
    const id = await readyMigration(app);
    const { migrations, engine } = app.services;
    // Paid for the 20 records counted, but the store has grown since.
    await migrations.update(id, 'owner-1', {
      entityCounts: { products: 10, customers: 5, orders: 5 },
      paymentInfo: {
        paymentStatus: 'paid',
        amount: 9920,
        currency: 'usd',
        paymentDate: null,
        paidRecords: 20,
      },
    });
    for (const p of sampleData({ products: 12, customers: 0, orders: 0 }).products.slice(10))
      sourceStore.records.products.set(p.id, p);
    await startMigration(engine, (await migrations.findForUser(id, 'owner-1'))!, { isDemo: false });
    engine.runner.start();
    await waitFor(async () => (await engine.jobs.latestJob(id))?.state === 'parked');
    await engine.runner.stop();
    expect(destinationStore.records.products.size).toBe(0);
    expect((await migrations.findForUser(id, 'owner-1'))?.status).toBe('in-progress');
    const run = await engine.repository.latestRun(id);
    expect(run).toMatchObject({ status: 'payment_required', errorCode: 'payment_required' });
    expect(run?.errorMessage).toMatch(/22 records but 20 were paid for/);

    // After a top-up the owner starts it again and it completes.
    await migrations.update(id, 'owner-1', {
      entityCounts: { products: 12, customers: 5, orders: 5 },
      paymentInfo: {
        paymentStatus: 'paid',
        amount: 9922,
        currency: 'usd',
        paymentDate: null,
        paidRecords: 22,
      },
    });
    await startMigration(engine, (await migrations.findForUser(id, 'owner-1'))!, { isDemo: false });
    engine.runner.start();
    await waitFor(async () => (await engine.jobs.latestJob(id))?.state === 'done');
    await engine.runner.stop();
    expectOneCopyOfEach();
  });
});
