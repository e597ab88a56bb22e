import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresSchema } from '@replatform/db/test-databases';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import { buildApp, type App } from '../app.ts';
import { parseConfig } from '../config.ts';
import { readyWooCommerceMigration, treatAsSandbox } from '../testing/woocommerce-migration.ts';
import type { PgBossRunner } from './pg-boss-runner.ts';
import { startMigration } from './start-migration.ts';

/**
 * A worker killed for real on PostgreSQL: a web-only server (WORKERS=0) queues three migrations
 * between emulated WooCommerce stores, two `npm run worker` processes run them, and one worker
 * is killed with SIGKILL in the middle of a run. pg-boss's heartbeat monitor fails its silent
 * job, the other worker takes it over and resumes it from its last committed batch: every
 * migration finishes within 60 s of the kill, with one copy of every record, and pg-boss's job
 * table shows the jobs completed.
 */
const worker = fileURLToPath(new URL('../worker.ts', import.meta.url));
const sample = { seed: 8, products: 90, customers: 20, orders: 15 };

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'a worker process killed on postgres (integration)',
  () => {
    let source: RunningWooCommerceEmulator;
    const destinations: RunningWooCommerceEmulator[] = [];
    let dir: string;
    let app: App;
    let env: Record<string, string>;
    let dropSchema: (() => Promise<void>) | undefined;
    const children: ChildProcess[] = [];

    beforeAll(async () => {
      source = await startWooCommerceEmulator({ seed: sample, latencyMs: 15 });
      for (let i = 0; i < 3; i++)
        destinations.push(await startWooCommerceEmulator({ seed: 'empty', latencyMs: 15 }));
      dir = mkdtempSync(join(tmpdir(), 'replatform-takeover-'));
      const schema = await createPostgresSchema();
      dropSchema = schema.drop;
      env = {
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        DATA_DIR: dir,
        SANDBOX_STORES: 'false',
        EGRESS_ALLOWLIST: [source, ...destinations].map((s) => s.url).join(','),
        EGRESS_ALLOW_HTTP: 'true',
        DATABASE_URL: schema.url,
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

    function workerProcess() {
      const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', worker], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...env, WORKERS: '2' },
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

    async function waitFor(probe: () => Promise<boolean> | boolean, ms: number, what: string) {
      const until = Date.now() + ms;
      while (!(await probe())) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }

    it('finishes the migration of a worker killed with SIGKILL on the other worker within 60 s, one copy of every record', async () => {
      const { migrations, engine } = app.services;
      const [victim, survivor] = [workerProcess(), workerProcess()];
      await waitFor(
        () => victim.runner() !== '' && survivor.runner() !== '',
        60_000,
        'both workers to start',
      );
      const ids: string[] = [];
      const jobs: { id: string; queueJobId: string | null }[] = [];
      for (const [i, destination] of destinations.entries()) {
        const ready = await readyWooCommerceMigration(
          app,
          { source, destination },
          { userId: 'owner', storeName: `Takeover ${i + 1}` },
        );
        // Free, as runs between sandbox stores are (demo accounts may start nothing else).
        const { job } = await startMigration(
          treatAsSandbox(engine, source.url, destination.url),
          ready,
          { isDemo: false },
        );
        ids.push(ready.id);
        jobs.push(job);
      }
      // Mid-run: the victim holds a migration that has committed some batches.
      let target = '';
      await waitFor(
        async () => {
          for (const id of victim.claimed) {
            const current = await migrations.findForUser(id, 'owner');
            if (current && current.migratedEntities >= 20 && current.status === 'in-progress') {
              target = id;
              return true;
            }
          }
          return false;
        },
        60_000,
        'the victim to be mid-run',
      );
      victim.child.kill('SIGKILL');
      const killedAt = Date.now();
      const atKill = (await migrations.findForUser(target, 'owner'))!.migratedEntities;

      await waitFor(
        async () => {
          const states = await Promise.all(ids.map((id) => engine.jobs.latestJob(id)));
          return states.every((job) => job?.state === 'done');
        },
        60_000,
        'every migration to finish after the kill',
      ).catch((error: unknown) => {
        throw new Error(`${String(error)}\n${survivor.output()}`);
      });
      const finishedAfterMs = Date.now() - killedAt;
      expect(finishedAfterMs).toBeLessThan(60_000);
      expect(survivor.claimed).toContain(target);
      expect(await engine.jobs.latestJob(target)).toMatchObject({
        state: 'done',
        crashes: 1,
        failures: 0,
      });

      const expected = source.store.counts();
      for (const destination of destinations) {
        const counts = destination.store.counts();
        for (const entity of [
          'products',
          'variations',
          'customers',
          'orders',
          'categories',
        ] as const)
          expect(counts[entity], entity).toBe(expected[entity]);
      }
      // pg-boss's own table holds the jobs, completed; the killed attempt was retried once.
      const schema = (engine.runner as PgBossRunner).schema;
      const { rows } = await sql<{ id: string; state: string; retry_count: number }>`
        select id::text, state::text, retry_count from ${sql.table(`${schema}.job`)}
        where id = any(${jobs.map((j) => j.queueJobId)}::uuid[])`.execute(app.services.db.kysely);
      expect(rows.map((r) => r.state)).toEqual(['completed', 'completed', 'completed']);
      const targetJob = jobs[ids.indexOf(target)]!;
      expect(rows.find((r) => r.id === targetJob.queueJobId)?.retry_count).toBe(1);

      survivor.child.kill('SIGTERM');
      expect(await survivor.exited).toBe(0);
      console.log(
        `worker takeover on postgres: SIGKILL after ${atKill} records of one migration; the other worker finished all three ${(finishedAfterMs / 1000).toFixed(1)} s after the kill, one copy of every record`,
      );
    }, 180_000);
  },
);
