import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresSchema, testDialects } from '@replatform/db/test-databases';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import { buildApp, type App } from '../app.ts';
import { parseConfig } from '../config.ts';
import { readyWooCommerceMigration, treatAsSandbox } from '../testing/woocommerce-migration.ts';
import { startMigration } from './start-migration.ts';

/**
 * `npm run worker` for real: a web server that runs no migrations itself (WORKERS=0) queues four
 * migrations between emulated WooCommerce stores, and two worker processes on the same database
 * share them. Every migration must finish once, in one attempt, with one copy of every record,
 * and both workers must have taken part.
 */
const worker = fileURLToPath(new URL('../worker.ts', import.meta.url));
const sample = { seed: 5, products: 30, customers: 12, orders: 10 };

describe.each(testDialects())('worker processes on %s (integration)', (dialect) => {
  let source: RunningWooCommerceEmulator;
  const destinations: RunningWooCommerceEmulator[] = [];
  let dir: string;
  let app: App;
  let env: Record<string, string>;
  let dropSchema: (() => Promise<void>) | undefined;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    source = await startWooCommerceEmulator({ seed: sample, latencyMs: 5 });
    for (let i = 0; i < 4; i++)
      destinations.push(await startWooCommerceEmulator({ seed: 'empty', latencyMs: 5 }));
    dir = mkdtempSync(join(tmpdir(), 'replatform-workers-'));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres')
      ({ url: databaseUrl, drop: dropSchema } = await createPostgresSchema());
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATA_DIR: dir,
      SANDBOX_STORES: 'false',
      EGRESS_ALLOWLIST: [source, ...destinations].map((s) => s.url).join(','),
      EGRESS_ALLOW_HTTP: 'true',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    app = await buildApp(parseConfig({ ...env, LOG_LEVEL: 'silent', WORKERS: '0' }));
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await app?.close();
    await source?.close();
    for (const destination of destinations) await destination.close();
    await dropSchema?.();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A worker process; collects the jobs it claimed from its log. */
  function workerProcess() {
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', worker], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env, WORKERS: '1' },
    });
    children.push(child);
    const claimed: string[] = [];
    let runner = '';
    let output = '';
    let buffered = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        output += `${line}\n`;
        const entry = JSON.parse(line) as { msg?: string; migrationId?: string; runner?: string };
        if (entry.msg === 'migration job claimed' && entry.migrationId)
          claimed.push(entry.migrationId);
        if (entry.msg === 'Replatform worker is running migrations') runner = entry.runner ?? '';
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { child, claimed, exited, runner: () => runner, output: () => output };
  }

  async function waitFor(probe: () => Promise<boolean>, ms: number, what: string) {
    const until = Date.now() + ms;
    while (!(await probe())) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('shares queued migrations between worker processes, each run once', async () => {
    const { migrations, engine } = app.services;
    const workers = [workerProcess(), workerProcess()];
    await waitFor(
      async () => workers.every((w) => w.runner() !== ''),
      60_000,
      'both workers to start',
    );
    const began = Date.now();
    const ids: string[] = [];
    for (const [i, destination] of destinations.entries()) {
      const ready = await readyWooCommerceMigration(
        app,
        { source, destination },
        { userId: 'owner', storeName: `Shared ${i + 1}` },
      );
      await startMigration(treatAsSandbox(engine, source.url, destination.url), ready, {
        isDemo: false,
      });
      ids.push(ready.id);
    }
    // The web server itself runs none of them.
    expect(engine.runner.started).toBe(false);

    await waitFor(
      async () => {
        const jobs = await Promise.all(ids.map((id) => engine.jobs.latestJob(id)));
        return jobs.every((job) => job?.state === 'done');
      },
      120_000,
      'all four migrations to finish',
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${workers.map((w) => w.output()).join('\n')}`);
    });
    const seconds = (Date.now() - began) / 1000;

    for (const w of workers) w.child.kill('SIGTERM');
    const codes = await Promise.all(workers.map((w) => w.exited));
    expect(codes, workers.map((w) => w.output()).join('\n')).toEqual([0, 0]);

    // Each migration was claimed once, by one worker, and both workers took part.
    const claims = workers.flatMap((w) => w.claimed);
    expect([...claims].sort()).toEqual([...ids].sort());
    expect(workers.every((w) => w.claimed.length > 0)).toBe(true);
    expect(new Set(workers.map((w) => w.runner())).size).toBe(2);
    for (const id of ids) {
      expect(await engine.jobs.latestJob(id)).toMatchObject({ attempts: 1, crashes: 0 });
      expect(await migrations.findForUser(id, 'owner')).toMatchObject({
        status: 'completed',
        currentStep: 5,
      });
    }
    const expected = source.store.counts();
    for (const destination of destinations) {
      const counts = destination.store.counts();
      for (const entity of ['products', 'variations', 'customers', 'orders', 'categories'] as const)
        expect(counts[entity], entity).toBe(expected[entity]);
    }
    console.log(
      `worker processes on ${dialect}: 4 migrations (${sample.products} products, ${sample.customers} customers, ${sample.orders} orders each) shared ${workers.map((w) => w.claimed.length).join(' + ')} by two workers, each run once, in ${seconds.toFixed(1)} s`,
    );
  }, 150_000);
});
