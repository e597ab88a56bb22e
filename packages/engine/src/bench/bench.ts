import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Platform } from '@replatform/contracts/migration';
import { startBenchStore, type BenchStore } from './bench-stores.ts';
import type { WorkerResult, WorkerTask } from './bench-worker.ts';

/**
 * npm run bench: migrates 10,000 products (with variants and images), 5,000 customers and
 * 5,000 orders between emulated stores.
 *   (a) no latency and no limits: the engine's own cost (target >= 20,000 records/min);
 *   (b) each destination's published rate limit and a realistic latency: how close the run
 *       comes to the bound the limit allows (target >= 90 %).
 * The engine runs in a child process so that its peak RSS is measured alone (target < 256 MB,
 * flat as the store grows: the RSS at each quarter of the run is printed).
 *
 * Options: --only a|b, --scale <fraction> for (a), --limited-scale <fraction> for (b) (default
 * 0.05: BigCommerce's 150 requests per 30 s make the full store a run of about an hour),
 * --from / --to platforms for (a), --latency <ms> for (b), --concurrency <n> (batches in flight
 * per stream), --trace-heap (live heap after a full GC at each quarter, on stderr).
 */
const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    scale: { type: 'string', default: '1' },
    'limited-scale': { type: 'string', default: '0.05' },
    // BigCommerce's emulator costs the least per record, so (a) shows the engine's own cost best.
    from: { type: 'string', default: 'bigcommerce' },
    to: { type: 'string', default: 'bigcommerce' },
    latency: { type: 'string', default: '100' },
    concurrency: { type: 'string' },
    'trace-heap': { type: 'boolean', default: false },
  },
});

const full = { products: 10_000, customers: 5_000, orders: 5_000 };
const worker = fileURLToPath(new URL('./bench-worker.ts', import.meta.url));

function scaled(scale: number) {
  return {
    seed: 2024,
    products: Math.round(full.products * scale),
    customers: Math.round(full.customers * scale),
    orders: Math.round(full.orders * scale),
  };
}

function runWorker(task: WorkerTask): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        // The runtime flags of the CLI launcher (apps/cli/bin/replatform.mjs).
        '--max-semi-space-size=4',
        '--disable-warning=ExperimentalWarning',
        ...(task.traceHeap ? ['--expose-gc'] : []),
        worker,
        JSON.stringify(task),
      ],
      // The environment the CLI launcher gives the CLI (apps/cli/bin/replatform.mjs).
      { stdio: ['ignore', 'pipe', 'inherit'], env: { MALLOC_ARENA_MAX: '2', ...process.env } },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line) as WorkerResult);
      } catch {
        reject(new Error(`benchmark worker exited with ${code}: ${out}`));
      }
    });
  });
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

interface Scenario {
  label: string;
  from: Platform;
  to: Platform;
  scale: number;
  latencyMs: number;
  limited: boolean;
}

async function scenario(s: Scenario): Promise<{ ok: boolean }> {
  const sample = scaled(s.scale);
  console.log(
    `\n${s.label}: ${s.from} -> ${s.to}, ${fmt(sample.products)} products, ${fmt(sample.customers)} customers, ${fmt(sample.orders)} orders` +
      (s.limited
        ? `, published rate limits, ${s.latencyMs} ms latency per request`
        : ', no latency, no limits'),
  );
  const seededAt = performance.now();
  const source: BenchStore = await startBenchStore(s.from, {
    seed: sample,
    latencyMs: s.latencyMs,
  });
  const destination: BenchStore = await startBenchStore(s.to, {
    seed: 'empty',
    latencyMs: s.latencyMs,
    limited: s.limited,
  });
  console.log(`  stores seeded in ${((performance.now() - seededAt) / 1000).toFixed(1)} s`);
  const dir = mkdtempSync(join(tmpdir(), 'replatform-bench-'));
  try {
    const before = destination.admittedRequests();
    const emulatorCpu = process.cpuUsage();
    const result = await runWorker({
      source: source.address,
      destination: destination.address,
      statePath: join(dir, 'state.sqlite'),
      ...(values.concurrency ? { concurrency: Number(values.concurrency) } : {}),
      traceHeap: values['trace-heap'],
    });
    const admitted = destination.admittedRequests() - before;
    const storesCpu = process.cpuUsage(emulatorCpu);
    const storesCpuMs = (storesCpu.user + storesCpu.system) / 1000;
    const minutes = result.elapsedMs / 60_000;
    const perMinute = result.records / minutes;
    const stored = ['products', 'customers', 'orders'] as const;
    const copies = stored.map((e) => `${e} ${fmt(destination.countStored(e))}`).join(', ');
    console.log(
      `  ${result.status}: ${fmt(result.records)} records in ${(result.elapsedMs / 1000).toFixed(1)} s = ${fmt(perMinute)} records/min (${result.failed} failed; destination holds ${copies})`,
    );
    if (result.message) console.log(`  ${result.message}`);
    for (const failure of result.failures) console.log(`  failed: ${failure}`);
    console.log(
      `  CPU: engine process ${(result.cpuMs / 1000).toFixed(1)} s (${fmt(result.records / (result.cpuMs / 60_000))} records per CPU-minute), emulated stores ${(storesCpuMs / 1000).toFixed(1)} s (${Math.round((storesCpuMs / result.elapsedMs) * 100)} % of a core)`,
    );
    console.log(
      `  peak RSS ${result.peakRssMb} MB; RSS at 25/50/75/100 % of the records: ${result.rssByQuarterMb.join(' / ')} MB`,
    );
    let ok = result.status === 'completed' && result.peakRssMb < 256;
    if (s.limited && destination.requestsPerSecond) {
      // The bound: every second of the destination's published limit spent on this run's
      // requests (as many as it needed), i.e. admitted requests / limit.
      const boundSeconds = admitted / destination.requestsPerSecond;
      const boundPerMinute = result.records / (boundSeconds / 60);
      const ratio = boundSeconds / (result.elapsedMs / 1000);
      console.log(
        `  limit ${destination.requestsPerSecond} requests/s; ${fmt(admitted)} requests admitted; bound ${fmt(boundPerMinute)} records/min; achieved ${(ratio * 100).toFixed(1)} % of the bound (target >= 90 %)`,
      );
      ok &&= ratio >= 0.9;
    } else {
      console.log(`  target >= 20,000 records/min: ${perMinute >= 20_000 ? 'met' : 'NOT met'}`);
      ok &&= perMinute >= 20_000;
    }
    return { ok };
  } finally {
    await source.close();
    await destination.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const results: boolean[] = [];
if (values.only !== 'b') {
  results.push(
    (
      await scenario({
        label: '(a) engine cost',
        from: values.from as Platform,
        to: values.to as Platform,
        scale: Number(values.scale),
        latencyMs: 0,
        limited: false,
      })
    ).ok,
  );
}
if (values.only !== 'a') {
  results.push(
    (
      await scenario({
        label: '(b) rate-limited destination',
        from: 'woocommerce',
        to: 'bigcommerce',
        scale: Number(values['limited-scale']),
        latencyMs: Number(values.latency),
        limited: true,
      })
    ).ok,
  );
}
console.log(`\n${results.every(Boolean) ? 'All targets met.' : 'Some targets were not met.'}`);
