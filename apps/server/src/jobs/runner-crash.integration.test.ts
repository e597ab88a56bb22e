import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import { buildApp, type App } from '../app.ts';
import { parseConfig } from '../config.ts';
import { readyWooCommerceMigration, treatAsSandbox } from '../testing/woocommerce-migration.ts';
import { startMigration } from './start-migration.ts';

/**
 * The server's job runner killed for real: a server process runs a migration between two emulated
 * WooCommerce stores (hosted by this test) over a SQLite file and is killed with SIGKILL mid-run;
 * a second server process starts, takes the dead process's job over before its lease runs out
 * (same machine, process gone, heartbeat stopped) and finishes it. The destination must hold
 * exactly one copy of every record.
 */
const fixture = fileURLToPath(new URL('./runner-process.fixture.ts', import.meta.url));
const sample = { seed: 21, products: 400, customers: 60, orders: 40 };
// A lease far longer than the test waits: only the same-machine takeover can explain a resume.
const runner = { leaseMs: 120_000, heartbeatMs: 250 };

describe('the job runner killed with SIGKILL mid-run (integration)', () => {
  let source: RunningWooCommerceEmulator;
  let destination: RunningWooCommerceEmulator;
  let dir: string;
  let app: App;
  let env: Record<string, string>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    source = await startWooCommerceEmulator({ seed: sample, latencyMs: 2 });
    // One product batch at a time, each taking a while, so the run is killed with batches still
    // to go.
    destination = await startWooCommerceEmulator({
      seed: 'empty',
      latencyMs: 2,
      capacity: {
        workers: 1,
        costMs: ({ method, path }) =>
          method === 'POST' && path.endsWith('/products/batch') ? 300 : 0,
      },
    });
    dir = mkdtempSync(join(tmpdir(), 'replatform-runner-crash-'));
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dir,
      SANDBOX_STORES: 'false',
      EGRESS_ALLOWLIST: `${source.url},${destination.url}`,
      EGRESS_ALLOW_HTTP: 'true',
    };
    app = await buildApp(parseConfig(env));
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await app?.close();
    await source?.close();
    await destination?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A server process running jobs; resolves with its lease owner name once it runs. */
  function serverProcess(): { child: ChildProcess; owner: Promise<string> } {
    const child = spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', fixture, JSON.stringify(runner)],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
    );
    children.push(child);
    let output = '';
    const owner = new Promise<string>((resolve, reject) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /^runner (\S+)$/m.exec(output);
        if (match?.[1]) resolve(match[1]);
      });
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', (code) => reject(new Error(`server process exited (${code}): ${output}`)));
    });
    return { child, owner };
  }

  async function waitFor(probe: () => Promise<boolean> | boolean, ms: number, what: string) {
    const until = Date.now() + ms;
    while (!(await probe())) {
      if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('resumes in a second process and leaves exactly one copy of every record', async () => {
    const { migrations, engine, db } = app.services;
    const created = await readyWooCommerceMigration(
      app,
      { source, destination },
      { userId: 'owner', storeName: 'K' },
    );
    const { job } = await startMigration(
      treatAsSandbox(engine, source.url, destination.url),
      created,
      { isDemo: false },
    );
    const began = Date.now();

    const first = serverProcess();
    const firstOwner = await first.owner;
    // Killed once products are being written and committed.
    const committed = async () => {
      const row = await db.kysely
        .selectFrom('engine_id_map')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('migration_id', '=', created.id)
        .where('entity', '=', 'products')
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    await waitFor(async () => (await committed()) >= 25, 60_000, 'the first products');
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const killedAt = Date.now();
    const atKill = await engine.jobs.find(job.id);
    expect(atKill).toMatchObject({ state: 'running', leaseOwner: firstOwner });
    const rowsAtKill = await committed();
    expect(rowsAtKill).toBeLessThan(sample.products);
    expect(Date.parse(atKill?.leaseExpiresAt ?? '')).toBeGreaterThan(killedAt + 60_000);

    const second = serverProcess();
    const secondOwner = await second.owner;
    await waitFor(
      async () => (await engine.jobs.find(job.id))?.leaseOwner === secondOwner,
      30_000,
      'the second process to take the job over',
    );
    const tookOverAfterMs = Date.now() - killedAt;
    await waitFor(
      async () => (await engine.jobs.find(job.id))?.state === 'done',
      60_000,
      'the migration to finish',
    );
    second.child.kill('SIGTERM');

    expect(await engine.jobs.find(job.id)).toMatchObject({ state: 'done', crashes: 1 });
    expect(await migrations.findForUser(created.id, 'owner')).toMatchObject({
      status: 'completed',
      currentStep: 5,
    });
    const sourceCounts = source.store.counts();
    const destinationCounts = destination.store.counts();
    for (const entity of ['products', 'variations', 'customers', 'orders', 'categories'] as const)
      expect(destinationCounts[entity], entity).toBe(sourceCounts[entity]);
    const ids = await db.kysely
      .selectFrom('engine_id_map')
      .select(['entity', 'destination_id'])
      .where('migration_id', '=', created.id)
      .execute();
    for (const entity of ['products', 'customers', 'orders']) {
      const rows = ids.filter((r) => r.entity === entity);
      expect(rows, entity).toHaveLength(sample[entity as 'products']);
      expect(new Set(rows.map((r) => r.destination_id)).size, entity).toBe(rows.length);
    }
    console.log(
      `runner crash test: SIGKILL after ${rowsAtKill} products committed; the second process took the job over ${tookOverAfterMs} ms later (lease of ${runner.leaseMs / 1000} s not expired) and finished; ${destinationCounts.products} products, ${destinationCounts.customers} customers, ${destinationCounts.orders} orders, one copy each; ${((Date.now() - began) / 1000).toFixed(1)} s`,
    );
  }, 90_000);
});
