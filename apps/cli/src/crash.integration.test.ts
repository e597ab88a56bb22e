import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '@replatform/db/database';
import { EngineRepository } from '@replatform/db/engine-repository';
import { MigrationsRepository } from '@replatform/db/migrations-repository';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import { Random } from '@replatform/emulators/framework/random';

/**
 * The crash test of the engine: the CLI runs a migration between two emulated WooCommerce
 * stores (hosted by this test process) as a real child process, which is killed with SIGKILL at
 * random moments while the engine works, at least 20 times, with the stores injecting 429s,
 * 5xx, resets and time-outs all along; then it is left to finish. The destination must hold
 * exactly one copy of every source record and the report must account for every record.
 */
const cli = fileURLToPath(new URL('./main.ts', import.meta.url));
const sample = { seed: 11, products: 300, customers: 150, orders: 100 };
const KILLS = 20;

interface Attempt {
  child: ChildProcess;
  started: Promise<boolean>;
  exited: Promise<number | null>;
}

describe('crash test: the CLI killed at random moments during one migration', () => {
  let source: RunningWooCommerceEmulator;
  let destination: RunningWooCommerceEmulator;
  let dir: string;

  beforeAll(async () => {
    source = await startWooCommerceEmulator({ seed: sample, faultSeed: 3 });
    destination = await startWooCommerceEmulator({ seed: 'empty', faultSeed: 4 });
    dir = mkdtempSync(join(tmpdir(), 'replatform-crash-'));
  });
  afterAll(async () => {
    await source?.close();
    await destination?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function launch(): Attempt {
    const child = spawn(
      process.execPath,
      [
        // As the launcher (bin/replatform.mjs) runs the CLI; this process is the one killed.
        '--max-semi-space-size=4',
        '--disable-warning=ExperimentalWarning',
        cli,
        'migrate',
        '--from',
        'woocommerce',
        '--from-url',
        source.url,
        '--to',
        'woocommerce',
        '--to-url',
        destination.url,
        '--allow',
        source.url,
        '--allow',
        destination.url,
        '--state',
        join(dir, 'state.sqlite'),
        '--report',
        join(dir, 'report.csv'),
        '--timeout',
        '2',
      ],
      {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          REPLATFORM_FROM_CONSUMER_KEY: source.consumerKey,
          REPLATFORM_FROM_CONSUMER_SECRET: source.consumerSecret,
          REPLATFORM_TO_CONSUMER_KEY: destination.consumerKey,
          REPLATFORM_TO_CONSUMER_SECRET: destination.consumerSecret,
        },
      },
    );
    let output = '';
    const started = new Promise<boolean>((resolve) => {
      // The banner line comes once both stores answered and the engine begins.
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(' -> ')) resolve(true);
      };
      child.stderr?.on('data', onData);
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', () => resolve(false));
    });
    const exited = new Promise<number | null>((resolve) => {
      child.on('exit', (code) => {
        if (code !== null && code !== 0 && code !== 2) console.error(output);
        resolve(code);
      });
    });
    return { child, started, exited };
  }

  async function runPhase(): Promise<string> {
    const db = openDatabase({ sqlitePath: join(dir, 'state.sqlite') });
    try {
      const [migration] = await new MigrationsRepository(db).listForUser('cli');
      if (!migration) return 'none';
      const run = await new EngineRepository(db).latestRun(migration.id);
      return run ? `${run.status}/${run.phase}` : 'none';
    } catch {
      return 'none';
    } finally {
      await db.close();
    }
  }

  it('leaves exactly one copy of every record and a report that accounts for each', async () => {
    const faults = {
      rate429: 0.03,
      rate5xx: 0.03,
      resetRate: 0.01,
      timeoutRate: 0.002,
      retryAfterSeconds: 0,
    };
    source.setFaults(faults);
    destination.setFaults(faults);
    const dice = new Random(2026);
    const began = Date.now();
    let kills = 0;
    let attempts = 0;
    while (kills < KILLS) {
      attempts += 1;
      expect(attempts, 'the migration finished before it could be killed 20 times').toBeLessThan(
        80,
      );
      const attempt = launch();
      const started = await attempt.started;
      if (started) {
        await new Promise((r) => setTimeout(r, 150 + Math.floor(dice.next() * 900)));
      }
      const phase = await runPhase();
      if (attempt.child.exitCode === null && attempt.child.signalCode === null) {
        attempt.child.kill('SIGKILL');
        await attempt.exited;
        // Only kills during the migration itself count (not during a later re-run).
        if (phase === 'none' || phase.endsWith('/migrate') || phase.endsWith('/verify')) kills += 1;
      } else {
        await attempt.exited;
        throw new Error(
          `the CLI ended on its own (exit ${attempt.child.exitCode}) after ${kills} kills`,
        );
      }
    }
    const killedAfterMs = Date.now() - began;
    const last = launch();
    const code = await last.exited;
    // 2: finished, with differences the verification reports (WooCommerce adjusts stock
    // when orders are imported); what matters here is that nothing is duplicated or lost.
    expect([0, 2]).toContain(code);
    source.setFaults(undefined);
    destination.setFaults(undefined);

    const sourceCounts = source.store.counts();
    const destinationCounts = destination.store.counts();
    for (const entity of ['products', 'variations', 'customers', 'orders'] as const) {
      expect(destinationCounts[entity], entity).toBe(sourceCounts[entity]);
    }
    expect(destinationCounts.categories).toBe(sourceCounts.categories);

    const rows = readFileSync(join(dir, 'report.csv'), 'utf8')
      .trim()
      .split('\r\n')
      .slice(1)
      .map((line) => line.split(','));
    const expected: Record<string, number> = {
      category: sourceCounts.categories - 1,
      product: sample.products,
      customer: sample.customers,
      order: sample.orders,
    };
    for (const [type, count] of Object.entries(expected)) {
      const ofType = rows.filter((r) => r[0] === type);
      expect(ofType, type).toHaveLength(count);
      expect(new Set(ofType.map((r) => r[1])).size, `${type} source ids`).toBe(count);
      expect(new Set(ofType.map((r) => r[2])).size, `${type} destination ids`).toBe(count);
      expect(
        ofType.filter((r) => r[3] !== 'migrated' && r[3] !== 'skipped'),
        type,
      ).toEqual([]);
    }
    const faultsInjected = source.stats.faultsInjected + destination.stats.faultsInjected;
    console.log(
      `crash test: ${kills} kills (SIGKILL) in ${attempts} attempts over ${(killedAfterMs / 1000).toFixed(1)} s, ` +
        `${faultsInjected} faults injected; destination holds ${destinationCounts.products} products ` +
        `(${destinationCounts.variations} variations), ${destinationCounts.customers} customers, ` +
        `${destinationCounts.orders} orders, ${destinationCounts.categories - 1} categories; ` +
        `report rows ${rows.length}, no duplicates, total ${((Date.now() - began) / 1000).toFixed(1)} s`,
    );
  }, 180_000);
});
