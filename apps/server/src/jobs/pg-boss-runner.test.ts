import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityTypes } from '@replatform/canonical/entities';
import { LeaseLostError } from '@replatform/db/engine-repository';
import { createPostgresSchema } from '@replatform/db/test-databases';
import { MemoryStore, memoryConnector, sampleData } from '@replatform/engine/testing/memory-store';
import { buildApp, type App } from '../app.ts';
import { parseConfig } from '../config.ts';
import { SANDBOX_STORES_GONE } from './job-runner.ts';
import { GIVEN_UP_QUEUE, MIGRATION_QUEUE, PgBossRunner, pinnedQueue } from './pg-boss-runner.ts';
import type { JobHandler } from './runner.ts';
import { treatAsSandbox } from '../testing/woocommerce-migration.ts';
import { startMigration } from './start-migration.ts';

const SOURCE = 'https://source.example.com';
const DESTINATION = 'https://destination.example.com';

async function waitFor(probe: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The job runner on PostgreSQL: pg-boss queues, claims, retries and dead-letters the jobs. */
describe.skipIf(!process.env.TEST_DATABASE_URL)('pg-boss job runner on postgres', () => {
  let dataDir: string;
  let databaseUrl: string;
  let dropSchema: () => Promise<void>;
  let sourceStore: MemoryStore;
  let destinationStore: MemoryStore;
  const apps: App[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'replatform-pgboss-'));
    ({ url: databaseUrl, drop: dropSchema } = await createPostgresSchema());
  });
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => {});
    await dropSchema?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A server process on the shared database (a restart is a second one). */
  async function server(): Promise<App> {
    const config = parseConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      SANDBOX_STORES: 'false',
      DATABASE_URL: databaseUrl,
    });
    // Slow writes, so that the run is still going when the test acts.
    const connector = memoryConnector(
      { [SOURCE]: sourceStore, [DESTINATION]: destinationStore },
      { delayMs: 25, batchSize: 3 },
    );
    const app = await buildApp(config, { registry: { woocommerce: connector } });
    apps.push(app);
    return app;
  }

  async function readyMigration(app: App): Promise<string> {
    const { migrations, vault } = app.services;
    const { sealCredentials } = await import('../migrations/store-credentials.ts');
    const m = await migrations.create({ userId: 'owner-1', email: 'o@x.io', storeName: 'Queue' });
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

  /** The pg-boss row of a job, as operators see it in pg-boss's tables. */
  async function queueRow(app: App, queueJobId: string | null) {
    const runner = app.services.engine.runner as PgBossRunner;
    const { rows } = await sql<{
      name: string;
      state: string;
      retry_count: number;
      output: unknown;
    }>`select name, state, retry_count, output from ${sql.table(`${runner.schema}.job`)}
       where id = ${queueJobId}::uuid`.execute(app.services.db.kysely);
    return rows[0];
  }

  function expectOneCopyOfEach() {
    for (const entity of entityTypes) {
      expect(destinationStore.records[entity].size, entity).toBe(sourceStore.records[entity].size);
    }
  }

  it('runs each migration as one pg-boss job, hands it back at once on a graceful stop, and another server finishes it', async () => {
    // Enough products that the run is still writing them when the first server stops, also on
    // a busy machine.
    sourceStore = MemoryStore.seeded(sampleData({ products: 120, customers: 10, orders: 10 }));
    destinationStore = new MemoryStore();
    const first = await server();
    expect(first.services.engine.runner.kind).toBe('pg-boss');
    const id = await readyMigration(first);
    const migration = (await first.services.migrations.findForUser(id, 'owner-1'))!;
    // Free, as a run between sandbox stores is; demo accounts may run nothing else.
    const engine = treatAsSandbox(first.services.engine, SOURCE, DESTINATION);
    const started = await startMigration(engine, migration, { isDemo: false });
    // Starting again answers the live job; the exclusive queue holds one job per migration.
    const again = await startMigration(engine, migration, { isDemo: false });
    expect(again).toMatchObject({ alreadyRunning: true, job: { id: started.job.id } });
    expect(started.job.queueJobId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await queueRow(first, started.job.queueJobId)).toMatchObject({
      name: MIGRATION_QUEUE,
      state: 'created',
    });

    first.services.engine.runner.start();
    await waitFor(async () => destinationStore.records.products.size >= 10);
    await first.close();
    const written = destinationStore.records.products.size;
    expect(written).toBeLessThan(120);

    const second = await server();
    // Handed back, not failed: ready now, and neither a crash nor a failure.
    expect(await second.services.engine.jobs.latestJob(id)).toMatchObject({
      state: 'queued',
      leaseOwner: null,
      crashes: 0,
      failures: 0,
    });
    expect((await queueRow(second, started.job.queueJobId))?.state).toBe('created');
    const handedBackAt = Date.now();
    second.services.engine.runner.start();
    await waitFor(async () => (await second.services.engine.jobs.latestJob(id))?.state === 'done');
    expect(Date.now() - handedBackAt).toBeLessThan(20_000);
    await second.services.engine.runner.stop();
    expectOneCopyOfEach();
    expect(await second.services.engine.jobs.latestJob(id)).toMatchObject({
      state: 'done',
      attempts: 2,
      crashes: 0,
      failures: 0,
    });
    expect(await queueRow(second, started.job.queueJobId)).toMatchObject({
      state: 'completed',
      output: { state: 'done' },
    });
    expect(await second.services.migrations.findForUser(id, 'owner-1')).toMatchObject({
      status: 'completed',
      currentStep: 5,
    });
  });

  it('counts crashes and failures apart, and gives a job up into the dead-letter queue with its reason', async () => {
    const app = await server();
    const { engine, migrations } = app.services;
    const givenUp: string[] = [];
    const failuresSeen: number[] = [];
    const handler: JobHandler = {
      async run({ job }) {
        failuresSeen.push(job.failures);
        throw new Error(`attempt ${failuresSeen.length} failed`);
      },
      async giveUp(_job, reason) {
        givenUp.push(reason);
      },
    };
    const runner = new PgBossRunner({
      pool: app.services.db.pool!,
      jobs: engine.jobs,
      handler,
      log: app.log,
      pollSeconds: 0.5,
      retryDelaySeconds: 1,
      maxCrashes: 2,
      maxFailures: 3,
    });
    await runner.prepare();
    const start = async (id: string) => {
      const m = (await migrations.findForUser(id, 'owner-1'))!;
      const result = await engine.jobs.startJob({
        migrationId: id,
        userId: 'owner-1',
        unlimited: true,
        expectedVersion: m.version,
        lifecycle: { status: 'in-progress', currentStep: 4, completedAt: null },
        ...runner.queueing(undefined),
      });
      if (result.outcome !== 'started') throw new Error(result.outcome);
      return result.job;
    };
    // An earlier attempt died with its worker: one crash, which leaves the failures untouched.
    const failing = await start(await readyMigration(app));
    await app.services.db.kysely
      .updateTable('engine_jobs')
      .set({ lease_owner: 'elsewhere:1:gone', state: 'running' })
      .where('id', '=', failing.id)
      .execute();
    // This one's worker died three times: past the crash limit before it runs.
    const crashing = await start(await readyMigration(app));
    await app.services.db.kysely
      .updateTable('engine_jobs')
      .set({ lease_owner: 'elsewhere:2:gone', state: 'running', crashes: 2 })
      .where('id', '=', crashing.id)
      .execute();

    runner.start();
    try {
      await waitFor(async () =>
        (await Promise.all([failing, crashing].map((j) => engine.jobs.find(j.id)))).every(
          (j) => j?.state === 'failed',
        ),
      );
    } finally {
      await runner.stop();
      await runner.close();
    }
    expect(failuresSeen).toEqual([0, 1, 2]);
    expect(givenUp.sort()).toEqual([
      'it failed 3 times, last with: attempt 3 failed',
      'it stopped the server process 3 times',
    ]);
    expect(await engine.jobs.find(failing.id)).toMatchObject({
      crashes: 1,
      failures: 3,
      attempts: 3,
      lastError: 'Gave up after repeated failures.',
    });
    expect(await engine.jobs.find(crashing.id)).toMatchObject({
      crashes: 3,
      failures: 0,
      lastError: 'Gave up after repeated crashes.',
    });
    // pg-boss retried the failed attempts, then both went to the dead-letter queue.
    expect(await queueRow(app, failing.queueJobId)).toMatchObject({
      state: 'failed',
      retry_count: 2,
    });
    const boss = (app.services.engine.runner as PgBossRunner).boss;
    const dead = await boss.findJobs(GIVEN_UP_QUEUE, {});
    expect(
      dead.map((job) => (job.data as { jobId: string }).jobId).sort((a, b) => a.localeCompare(b)),
    ).toEqual([failing.id, crashing.id].sort((a, b) => a.localeCompare(b)));
  });

  it('refuses every commit of a worker whose job was cancelled, and the migration stops', async () => {
    sourceStore = MemoryStore.seeded(sampleData({ products: 60, customers: 5, orders: 5 }));
    destinationStore = new MemoryStore();
    const app = await server();
    const { engine, migrations } = app.services;
    const id = await readyMigration(app);
    const { job } = await startMigration(
      treatAsSandbox(engine, SOURCE, DESTINATION),
      (await migrations.findForUser(id, 'owner-1'))!,
      { isDemo: false },
    );
    engine.runner.start();
    await waitFor(async () => destinationStore.records.products.size >= 6);
    const attempt = (await queueRow(app, job.queueJobId))!.retry_count;
    expect(await engine.cancel(id, 'Stopped by the operator.')).toBe(true);
    await waitFor(async () => engine.runner.active.length === 0);
    const after = destinationStore.records.products.size;
    await new Promise((r) => setTimeout(r, 300));
    expect(destinationStore.records.products.size).toBe(after);
    expect(after).toBeLessThan(60);
    expect(await engine.jobs.find(job.id)).toMatchObject({
      state: 'failed',
      lastError: 'Stopped by the operator.',
    });
    expect((await queueRow(app, job.queueJobId))?.state).toBe('cancelled');

    // The cancelled attempt's fence refuses a late commit.
    const run = await engine.repository.latestRun(id);
    await expect(
      engine.repository.commitBatch({
        migrationId: id,
        runId: run!.id,
        entity: 'products',
        rows: [],
        fence: {
          jobId: job.id,
          queue: {
            schema: (engine.runner as PgBossRunner).schema,
            name: MIGRATION_QUEUE,
            id: job.queueJobId!,
            attempt,
          },
        },
      }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    await engine.runner.stop();
  });

  it('fails a job pinned to a runner whose process is gone, saying why', async () => {
    const app = await server();
    const { engine, migrations, notifications } = app.services;
    const id = await readyMigration(app);
    const gone = `${hostname()}:${spawnSync(process.execPath, ['-e', '']).pid}:sandbox`;
    // Queued on a server that held its sandbox stores and has since died.
    const m = (await migrations.findForUser(id, 'owner-1'))!;
    const dead = new PgBossRunner({
      pool: app.services.db.pool!,
      jobs: engine.jobs,
      handler: { run: async () => ({ state: 'done' }), giveUp: async () => {} },
      log: app.log,
    });
    await dead.prepare();
    await dead.boss.createQueue(pinnedQueue(gone), { policy: 'exclusive' });
    const started = await engine.jobs.startJob({
      migrationId: id,
      userId: 'owner-1',
      unlimited: true,
      expectedVersion: m.version,
      lifecycle: { status: 'in-progress', currentStep: 4, completedAt: null },
      pinnedTo: gone,
      ...dead.queueing(gone),
    });
    await dead.close();
    expect(started.outcome).toBe('started');

    const sweeper = new PgBossRunner({
      pool: app.services.db.pool!,
      jobs: engine.jobs,
      handler: {
        run: async () => ({ state: 'done' }),
        giveUp: async (job, _reason, message) => {
          await notifications.notify({
            userId: job.userId,
            type: 'error',
            title: 'Migration failed',
            message: message ?? '',
            migrationId: job.migrationId,
          });
        },
      },
      log: app.log,
    });
    await sweeper.prepare();
    sweeper.start();
    try {
      await waitFor(async () => (await engine.jobs.latestJob(id))?.state === 'failed');
    } finally {
      await sweeper.stop();
      await sweeper.close();
    }
    expect(await engine.jobs.latestJob(id)).toMatchObject({
      lastError: 'Its sandbox stores were lost when the server restarted.',
    });
    const told = (await notifications.list('owner-1')).notifications.find(
      (n) => n.migrationId === id && n.title === 'Migration failed',
    );
    expect(told?.message).toBe(SANDBOX_STORES_GONE);
  });
});
