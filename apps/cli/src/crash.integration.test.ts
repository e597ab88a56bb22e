import { parse } from 'csv-parse/sync';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '@replatform/db/database';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';

/**
 * The crash test of the engine: the CLI runs a migration between two emulated WooCommerce
 * stores (hosted by this test process) as a real child process, with the stores injecting 429s,
 * 5xx, resets and time-outs all along, and is killed with SIGKILL again and again, each time
 * once the migration has made a given amount of new progress: records accepted by the
 * destination but not yet recorded, batches committed, half-written variable products, and
 * requests into the verification. Every stream (categories, customers, products, orders) and the
 * verification are killed at least once, 20 times or more in all; then it is left to finish,
 * and run once more with the faults off. The destination must hold exactly one copy of every
 * source record, the report must account for every record, and the verification must pass.
 */
const cli = fileURLToPath(new URL('./main.ts', import.meta.url));
// CRASH_TEST_TRACE=<file> appends each kill as it happens, to follow a slow run.
const trace = (line: string) => {
  if (process.env.CRASH_TEST_TRACE) appendFileSync(process.env.CRASH_TEST_TRACE, `${line}\n`);
};
const sample = { seed: 11, products: 400, customers: 150, orders: 150 };
const MIN_KILLS = 20;
// Products alone could take most of the kills; past this many the rest of the run gets its turn.
const MAX_PRODUCT_KILLS = 14;
const faults = {
  rate429: 0.03,
  rate5xx: 0.03,
  resetRate: 0.01,
  timeoutRate: 0.002,
  retryAfterSeconds: 0,
};

type Stage = 'categories' | 'customers' | 'products' | 'orders' | 'verify';

type ProductTrigger = (
  grew: (key: 'products' | 'variations') => number,
  committed: (entity: string) => number,
) => false | { trigger: string };

/**
 * Products are killed in turn once a batch was committed, once the destination accepted a
 * batch not yet recorded, and half-way through a batch's variations.
 */
const productTriggers: ProductTrigger[] = [
  (_grew, committed) => committed('products') >= 1 && { trigger: 'a batch committed' },
  (grew) => grew('products') >= 1 && { trigger: 'a batch accepted, not yet recorded' },
  (_grew, committed) => committed('products') >= 1 && { trigger: 'a batch committed' },
  (grew) => grew('variations') >= 10 && { trigger: 'half-way through variations' },
];

/**
 * How far into a verification it is killed: requests the destination answered since the
 * attempt entered verification (a verification after a run reads back by id what it wrote; a
 * full one reads both stores page by page).
 */
const verifyDepths = [5, 40, 120];

/** Progress as the killer sees it: the state file's rows and what the destination holds. */
interface Progress {
  phase: string;
  mapped: Record<string, number>;
  held: {
    categories: number;
    products: number;
    variations: number;
    customers: number;
    orders: number;
  };
}

interface Kill {
  stage: Stage;
  trigger: string;
  mapped: number;
  atMs: number;
}

describe('crash test: the CLI killed by committed progress during one migration', () => {
  let source: RunningWooCommerceEmulator;
  let destination: RunningWooCommerceEmulator;
  let dir: string;
  let state: Db | undefined;

  beforeAll(async () => {
    source = await startWooCommerceEmulator({ seed: sample, faultSeed: 3 });
    destination = await startWooCommerceEmulator({ seed: 'empty', faultSeed: 4 });
    dir = mkdtempSync(join(tmpdir(), 'replatform-crash-'));
  });
  afterAll(async () => {
    await state?.close();
    await source?.close();
    await destination?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function launch(): {
    child: ChildProcess;
    started: Promise<boolean>;
    exited: Promise<number | null>;
    output: () => string;
  } {
    const child = spawn(
      process.execPath,
      [
        // As the launcher (bin/replatform.mjs) runs the CLI; this process is the one killed.
        '--max-semi-space-size=4',
        '--max-old-space-size=1024',
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
        // Batches of 25 commit often enough for the kills this test makes at each stage.
        '--batch-size',
        '25',
      ],
      {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          MALLOC_ARENA_MAX: '2',
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
      child.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(' -> ')) resolve(true);
      });
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.on('exit', () => resolve(false));
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { child, started, exited, output: () => output };
  }

  async function progress(): Promise<Progress> {
    const counts = destination.store.counts();
    const held = {
      // 'Uncategorized' is WooCommerce's own, present in every store.
      categories: counts.categories - 1,
      products: counts.products,
      variations: counts.variations,
      customers: counts.customers,
      orders: counts.orders,
    };
    const path = join(dir, 'state.sqlite');
    const none = { phase: 'none', mapped: {}, held };
    try {
      if (!state && existsSync(path)) state = openDatabase({ sqlitePath: path });
      if (!state) return none;
      const run = await state.kysely
        .selectFrom('engine_runs')
        .select(['phase'])
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      const rows = await state.kysely
        .selectFrom('engine_id_map')
        .select(['entity', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('entity')
        .execute();
      return {
        phase: run?.phase ?? 'none',
        mapped: Object.fromEntries(rows.map((r) => [r.entity, Number(r.n)])),
        held,
      };
    } catch {
      // The first attempt is still making the file and its tables.
      return none;
    }
  }

  const total = (p: Progress) => Object.values(p.mapped).reduce((a, b) => a + b, 0);

  it('leaves exactly one copy of every record, a report that accounts for each, and a passed verification', async () => {
    source.setFaults(faults);
    destination.setFaults(faults);
    const began = Date.now();
    const kills: Kill[] = [];
    let attempts = 0;
    let finished: { code: number | null; output: string } | undefined;

    while (!finished) {
      attempts += 1;
      expect(attempts, 'attempts').toBeLessThan(60);
      const attempt = launch();
      const launchedAt = Date.now();
      const base = await progress();
      const killed = (stage: Stage) => kills.filter((k) => k.stage === stage).length;
      let kill: { stage: Stage; trigger: string } | undefined;
      let verifyingSince: number | undefined;
      for (;;) {
        if (attempt.child.exitCode !== null || attempt.child.signalCode !== null) break;
        const now = await progress();
        const grew = (key: keyof Progress['held']) => now.held[key] - base.held[key];
        const committed = (entity: string) =>
          (now.mapped[entity] ?? 0) - (base.mapped[entity] ?? 0);
        // Alternately once the destination accepted new records (not yet recorded, unless the
        // batch was quick) and once a batch was committed (new records, or those in flight at
        // the last kill): whichever the stream does next, it is progress.
        const accepted = (entity: keyof Progress['held'], n: number) =>
          n % 2 === 0
            ? (grew(entity) >= 1 && { trigger: 'accepted, not yet recorded' }) ||
              (committed(entity) >= 1 && { trigger: 'a quick batch committed' })
            : committed(entity) >= 1 && { trigger: 'a batch committed' };
        if (now.phase === 'verify') {
          // Each verification starts over, so it is interrupted at growing depths.
          verifyingSince ??= destination.stats.requests;
          const depth = verifyDepths[killed('verify')];
          if (depth !== undefined && destination.stats.requests - verifyingSince >= depth)
            kill = { stage: 'verify', trigger: `${depth}+ destination requests into verifying` };
        } else if (now.phase === 'migrate') {
          const customersDone = (now.mapped.customers ?? 0) >= sample.customers;
          const byStage: [Stage, false | { trigger: string }][] = [
            ['categories', killed('categories') < 2 && accepted('categories', 0)],
            ['customers', killed('customers') < 2 && accepted('customers', killed('customers'))],
            [
              'products',
              (killed('customers') >= 2 || customersDone) &&
                killed('products') < MAX_PRODUCT_KILLS &&
                (productTriggers[killed('products') % productTriggers.length] as ProductTrigger)(
                  grew,
                  committed,
                ),
            ],
            ['orders', killed('orders') < 6 && accepted('orders', killed('orders'))],
          ];
          const hit = byStage.find(([, fired]) => fired);
          if (hit?.[1]) kill = { stage: hit[0], trigger: hit[1].trigger };
        }
        if (kill) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      if (kill && attempt.child.exitCode === null && attempt.child.signalCode === null) {
        attempt.child.kill('SIGKILL');
        await attempt.exited;
        const at = await progress();
        kills.push({ ...kill, mapped: total(at), atMs: Date.now() - began });
        trace(
          `kill ${kills.length}: ${kill.stage} (${kill.trigger}) ${Date.now() - launchedAt} ms after launch, ${total(at)} rows`,
        );
      } else {
        finished = { code: await attempt.exited, output: attempt.output() };
      }
    }
    const killedFor = Date.now() - began;

    // The run that ended on its own (faults still on): finished, maybe with records to retry.
    expect([0, 2], finished.output).toContain(finished.code);
    expect(kills.length, 'kills').toBeGreaterThanOrEqual(MIN_KILLS);
    expect([...new Set(kills.map((k) => k.stage))].sort()).toEqual([
      'categories',
      'customers',
      'orders',
      'products',
      'verify',
    ]);

    // Once more without faults: whatever a fault left out (an image the store could not fetch,
    // a record that failed) is written now, and the verification passes.
    source.setFaults(undefined);
    destination.setFaults(undefined);
    const rerun = launch();
    const rerunCode = await rerun.exited;
    const rerunOutput = rerun.output();
    expect(rerunOutput).toContain('Verification: passed');
    expect(rerunCode, rerunOutput).toBe(0);
    const repaired = /products\s+(\d+) migrated/.exec(rerunOutput)?.[1] ?? '0';

    const sourceCounts = source.store.counts();
    const destinationCounts = destination.store.counts();
    for (const entity of ['products', 'variations', 'customers', 'orders', 'categories'] as const) {
      expect(destinationCounts[entity], entity).toBe(sourceCounts[entity]);
    }
    const rows = parse(readFileSync(join(dir, 'report.csv'), 'utf8'), {
      from_line: 2,
    }).filter((r) => r[0] !== 'import');
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
    const incomplete = await state!.kysely
      .selectFrom('engine_id_map')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('outcome', '=', 'migrated')
      .where('content_hash', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(incomplete.n), 'records still marked incomplete').toBe(0);

    const byStage = (stage: Stage) => kills.filter((k) => k.stage === stage).length;
    const faultsInjected = source.stats.faultsInjected + destination.stats.faultsInjected;
    console.log(
      [
        `crash test: ${kills.length} kills (SIGKILL) in ${attempts} attempts over ${(killedFor / 1000).toFixed(1)} s, ${faultsInjected} faults injected`,
        `  kills by stage: categories ${byStage('categories')}, customers ${byStage('customers')}, products ${byStage('products')}, orders ${byStage('orders')}, verification ${byStage('verify')}`,
        `  id-map rows at each kill: ${kills.map((k) => k.mapped).join(', ')}`,
        `  kill moments (s): ${kills.map((k) => (k.atMs / 1000).toFixed(1)).join(', ')}`,
        `  triggers: ${[...new Set(kills.map((k) => `${k.stage}: ${k.trigger}`))].join('; ')}`,
        `  run that ended on its own: exit ${finished.code}; re-run without faults: exit ${rerunCode}, ${repaired} products written again`,
        `  destination holds ${destinationCounts.products} products (${destinationCounts.variations} variations), ${destinationCounts.customers} customers, ${destinationCounts.orders} orders, ${destinationCounts.categories - 1} categories; report rows ${rows.length}, no duplicates, verification passed; total ${((Date.now() - began) / 1000).toFixed(1)} s`,
      ].join('\n'),
    );
  }, 180_000);
});
