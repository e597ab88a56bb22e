import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityTypes } from '@replatform/canonical/entities';
import { MemoryStore, memoryConnector, sampleData } from '@replatform/engine/testing/memory-store';
import { buildApp, type App } from '../app.ts';
import { parseConfig } from '../config.ts';
import { createEngineServices, type EngineServicesOptions } from './engine-services.ts';
import {
  isDeadLocalHolder,
  JobRunner,
  SANDBOX_STORES_GONE,
  type JobHandler,
} from './job-runner.ts';
import { treatAsSandbox } from '../testing/woocommerce-migration.ts';
import { startMigration } from './start-migration.ts';

const SOURCE = 'https://source.example.com';
const DESTINATION = 'https://destination.example.com';

/** Another runner over an app's database and stores, as a second process on them would have. */
function engineOf(app: App, options: Partial<EngineServicesOptions> = {}) {
  return createEngineServices({
    db: app.services.db,
    migrations: app.services.migrations,
    connections: app.services.connections,
    log: app.log,
    notifier: () => undefined,
    ...options,
  });
}

async function waitFor(probe: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

// The embedded runner runs on SQLite only; PostgreSQL's jobs run on pg-boss (pg-boss-runner.test.ts).
describe('embedded job runner on sqlite', () => {
  let dataDir: string;
  let sourceStore: MemoryStore;
  let destinationStore: MemoryStore;
  const apps: App[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'replatform-runner-'));
  });
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A server process over the shared database and stores (a restart is a second one). */
  async function server(): Promise<App> {
    const config = parseConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      // These tests bring their own stores; the built-in sandbox stores only cost start-up time.
      SANDBOX_STORES: 'false',
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
    await startMigration(treatAsSandbox(first.services.engine, SOURCE, DESTINATION), migration, {
      isDemo: false,
    });
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
    const takeover = engineOf(second, { leaseMs: 1_000, pollMs: 50 });
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

  it('takes over at once the lease of its own previous incarnation, not that of a live process', async () => {
    sourceStore = MemoryStore.seeded(sampleData({ products: 12, customers: 4, orders: 4 }));
    destinationStore = new MemoryStore();
    const app = await server();
    const id = await readyMigration(app);
    const { engine, migrations } = app.services;
    await startMigration(
      treatAsSandbox(engine, SOURCE, DESTINATION),
      (await migrations.findForUser(id, 'owner-1'))!,
      { isDemo: false },
    );
    // Held for a minute by a runner of another live process of this machine (the test runner's
    // parent): it is left alone.
    const alive = `${hostname()}:${process.ppid}:elsewhere`;
    expect(isDeadLocalHolder(alive, 'me')).toBe(false);
    const held = await engine.jobs.claim(alive, 60_000);
    expect(held?.migrationId).toBe(id);
    const restarted = engineOf(app, { leaseMs: 60_000, heartbeatMs: 50, pollMs: 50 });
    restarted.runner.start();
    try {
      await new Promise((r) => setTimeout(r, 600));
      expect((await engine.jobs.find(held!.id))?.leaseOwner).toBe(alive);

      // Now held, for a minute, by this process id's earlier runner (a restart that kept the
      // pid, as a container's first process does): taken over after two missed heartbeats.
      const previous = `${hostname()}:${process.pid}:previous`;
      await app.services.db.kysely
        .updateTable('engine_jobs')
        .set({ lease_owner: previous })
        .where('id', '=', held!.id)
        .execute();
      const before = Date.now();
      await waitFor(async () => (await engine.jobs.latestJob(id))?.state === 'done', 10_000);
      expect(Date.now() - before).toBeLessThan(30_000);
    } finally {
      await restarted.runner.stop();
    }
    expect(await engine.jobs.latestJob(id)).toMatchObject({ state: 'done', crashes: 1 });
    expectOneCopyOfEach();
  });

  it('gives up a job that keeps taking its process down, after its own limit', async () => {
    sourceStore = MemoryStore.seeded(sampleData({ products: 3, customers: 1, orders: 1 }));
    destinationStore = new MemoryStore();
    const app = await server();
    const id = await readyMigration(app);
    const { engine, migrations, notifications } = app.services;
    await startMigration(
      treatAsSandbox(engine, SOURCE, DESTINATION),
      (await migrations.findForUser(id, 'owner-1'))!,
      { isDemo: false },
    );
    // Two attempts on other machines died holding the lease.
    for (const holder of ['elsewhere-1:1:a', 'elsewhere-2:1:b']) {
      expect(await engine.jobs.claim(holder, 20)).toBeDefined();
      await new Promise((r) => setTimeout(r, 40));
    }
    const runner = engineOf(app, {
      notifier: () => notifications,
      pollMs: 50,
      maxCrashes: 1,
    }).runner;
    runner.start();
    try {
      await waitFor(async () => (await engine.jobs.latestJob(id))?.state === 'failed');
    } finally {
      await runner.stop();
    }
    expect(await engine.jobs.latestJob(id)).toMatchObject({
      crashes: 2,
      failures: 0,
      lastError: 'Gave up after repeated crashes.',
    });
    expect(destinationStore.records.products.size).toBe(0);
    expect((await migrations.findForUser(id, 'owner-1'))?.status).toBe('failed');
    const failed = (await notifications.list('owner-1')).notifications.find(
      (n) => n.migrationId === id && n.title === 'Migration failed',
    );
    expect(failed?.message).toMatch(/stopped the server process 2 times/);
  });

  it('counts failed attempts apart from crashes: earlier crashes do not use up the retries', async () => {
    const app = await server();
    const id = await readyMigration(app);
    const { engine } = app.services;
    await engine.jobs.enqueue(id, 'owner-1');
    for (let crash = 0; crash < 5; crash++) {
      expect(await engine.jobs.claim(`elsewhere:${crash}:x`, 10)).toBeDefined();
      await new Promise((r) => setTimeout(r, 20));
    }
    const attempts: number[] = [];
    const givenUp: string[] = [];
    const handler: JobHandler = {
      async run({ job }) {
        attempts.push(job.failures);
        throw new Error(`attempt ${attempts.length} failed`);
      },
      async giveUp(_job, reason) {
        givenUp.push(reason);
      },
    };
    const runner = new JobRunner({
      jobs: engine.jobs,
      handler,
      log: app.log,
      pollMs: 20,
      retryDelayMs: 10,
      maxCrashes: 5,
      maxFailures: 3,
    });
    runner.start();
    try {
      await waitFor(async () => (await engine.jobs.latestJob(id))?.state === 'failed');
    } finally {
      await runner.stop();
    }
    expect(attempts).toEqual([0, 1, 2]);
    expect(givenUp).toEqual(['it failed 3 times, last with: attempt 3 failed']);
    expect(await engine.jobs.latestJob(id)).toMatchObject({
      crashes: 5,
      failures: 2,
      attempts: 8,
      lastError: 'Gave up after repeated failures.',
    });
  });
  it('runs a pinned job only on the runner it names, and fails it with a reason once that process is gone', async () => {
    const app = await server();
    const { engine, migrations, notifications } = app.services;
    const ran: { job: string; runner: string }[] = [];
    const gaveUp: { job: string; message: string | undefined }[] = [];
    const runner = (runsPinned: boolean) => {
      const made: JobRunner = new JobRunner({
        jobs: engine.jobs,
        handler: {
          async run({ job }) {
            ran.push({ job: job.id, runner: made.owner });
            return { state: 'done' };
          },
          async giveUp(job, _reason, message) {
            gaveUp.push({ job: job.id, message });
          },
        },
        log: app.log,
        pollMs: 20,
        runsPinned,
      });
      return made;
    };
    const general = runner(false);
    const holder = runner(true);
    // Pinned to a runner of another live process of this machine (the test runner's parent),
    // to this runner, and to a runner of another machine.
    const alive = `${hostname()}:${process.ppid}:sandbox`;
    const otherMachine = 'elsewhere:4242:sandbox';
    const ids = await Promise.all(['alive', 'own', 'other'].map(() => readyMigration(app)));
    const [onAlive, onHolder, onOther] = await Promise.all(
      ids.map((id, i) =>
        engine.jobs.enqueue(id, 'owner-1', {
          pinnedTo: [alive, holder.owner, otherMachine][i]!,
        }),
      ),
    );
    general.start();
    holder.start();
    try {
      await waitFor(async () => (await engine.jobs.find(onHolder!.job.id))?.state === 'done');
      await new Promise((r) => setTimeout(r, 300));
    } finally {
      await general.stop();
    }
    expect(ran).toEqual([{ job: onHolder!.job.id, runner: holder.owner }]);
    expect((await engine.jobs.find(onAlive!.job.id))?.state).toBe('queued');
    expect((await engine.jobs.find(onOther!.job.id))?.state).toBe('queued');
    expect(gaveUp).toEqual([]);

    // The process holding the first job's sandbox stores dies: its job can never run, and any
    // runner of this machine fails it with a reason instead of leaving it queued for ever.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    await app.services.db.kysely
      .updateTable('engine_jobs')
      .set({ pinned_to: `${hostname()}:${gone}:sandbox` })
      .where('id', '=', onAlive!.job.id)
      .execute();
    const sweeper = runner(false);
    sweeper.start();
    try {
      await waitFor(async () => (await engine.jobs.find(onAlive!.job.id))?.state === 'failed');
    } finally {
      await sweeper.stop();
      await holder.stop();
    }
    expect(gaveUp).toEqual([{ job: onAlive!.job.id, message: SANDBOX_STORES_GONE }]);
    expect(await engine.jobs.find(onAlive!.job.id)).toMatchObject({
      lastError: 'Its sandbox stores were lost when the server restarted.',
    });
    expect((await engine.jobs.find(onOther!.job.id))?.state).toBe('queued');
    expect(ran).toHaveLength(1);

    // Through the migration handler, the owner reads why and what to do.
    const handled = engineOf(app, { notifier: () => notifications, pollMs: 20 });
    await app.services.db.kysely
      .updateTable('migrations')
      .set({ status: 'in-progress', current_step: 4 })
      .where('id', '=', ids[0]!)
      .execute();
    await engine.jobs.enqueue(ids[0]!, 'owner-1', { pinnedTo: `${hostname()}:${gone}:again` });
    handled.runner.start();
    try {
      await waitFor(async () => (await engine.jobs.latestJob(ids[0]!))?.state === 'failed');
    } finally {
      await handled.runner.stop();
    }
    expect((await migrations.findForUser(ids[0]!, 'owner-1'))?.status).toBe('failed');
    const told = (await notifications.list('owner-1')).notifications.find(
      (n) => n.migrationId === ids[0] && n.title === 'Migration failed',
    );
    expect(told?.message).toContain(SANDBOX_STORES_GONE);
  });
});
