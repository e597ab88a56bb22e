import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  storedCount,
  storedMediaCount,
} from '@replatform/connectors/woocommerce/real-store/real-stores';
import { WooRest } from '@replatform/connectors/woocommerce/real-store/store-rest';
import type { WorkerResult, WorkerTask } from './bench-worker.ts';
import { fillWooCommerce } from './fill-woocommerce.ts';
import {
  countRequests,
  duplicateEmails,
  duplicateSkus,
  kitFolder,
  kitScript,
  loadKitStore,
  logLines,
  logOffset,
  storeCommand,
  storedVariations,
  type KitStore,
  type RequestCounts,
} from './real-woocommerce.ts';
import { runWorker } from './run-worker.ts';

/**
 * Scenario (c) of `npm run bench` (issue 20): real WooCommerce 11 stores of the test-store kit,
 * given by BENCH_WOO_SOURCE and BENCH_WOO_DESTINATION (their store.json files):
 * 1. the source is filled with the bench set if it is not already (fill-woocommerce.ts);
 * 2. baseline: WooCommerce itself writes the same records into the empty destination, single
 *    stream, 100 per batch (variations per product), order notes one request each (there is no
 *    batch route), no existence checks, timed per entity;
 *    the destination is then reset (timed, not counted);
 * 3. the migration through the server's own code path (bench-worker.ts) with verification: total
 *    time against the baseline (<= 0.85), records per outcome, nginx 499 answers, per-record
 *    lookups, media items against the source's, requests by method;
 * 4. a re-migration with nothing changed: no write request, under 20 % of the first run's time;
 * 5. (--outage) a fresh run whose destination loses PHP and its database for 60 s just after the
 *    first records arrive: it must finish by itself, 0 failed, no duplicate.
 */

type Json = Record<string, unknown>;
type Entity = 'products' | 'customers' | 'orders';
const entities: Entity[] = ['products', 'customers', 'orders'];

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const pct = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** Prints a figure against its target; answers whether it was met. */
function target(label: string, met: boolean): boolean {
  console.log(`  ${label}: ${met ? 'met' : 'NOT met'}`);
  return met;
}

export interface RealScenarioOptions {
  outage: boolean;
  /** Only the outage step (after the fill): the baseline, first run and re-run are left out. */
  outageOnly?: boolean;
  /**
   * WooCommerce's own single-stream time for the bench set, measured by an earlier run on the same
   * stores (--baseline-seconds): the baseline step is then left out.
   */
  baselineMs?: number;
  /** How long the destination stays down in the outage step. */
  outageMs?: number;
  /**
   * The outage run is given up as stalled when the destination's access log has not grown for
   * this long (a run waiting for the store keeps probing it, so its requests show there).
   */
  stallMs?: number;
}

export async function realWooCommerce(
  options: RealScenarioOptions,
  env: NodeJS.ProcessEnv = process.env,
): Promise<boolean> {
  const sourceFile = env.BENCH_WOO_SOURCE?.trim();
  const destinationFile = env.BENCH_WOO_DESTINATION?.trim();
  if (!sourceFile || !destinationFile) {
    console.log(
      '\n(c) real WooCommerce: skipped (set BENCH_WOO_SOURCE and BENCH_WOO_DESTINATION to the store.json files of two stores started with the WooCommerce test-store kit, store.sh start, as root; WOO_STORE_KIT names the kit folder if it is not ../shared/woocommerce-store)',
    );
    return true;
  }
  console.log(`\n(c) real WooCommerce: ${sourceFile} -> ${destinationFile}`);
  const kit = kitFolder(env);
  for (const file of [sourceFile, destinationFile])
    if (!existsSync(file)) throw new Error(`store description not found: ${file}`);
  if (!kitScript(kit)) throw new Error(`no store.sh in the WooCommerce kit folder ${kit}`);
  const source = loadKitStore(sourceFile);
  const destination = loadKitStore(destinationFile);
  const dir = mkdtempSync(join(tmpdir(), 'replatform-bench-real-'));
  // Both stores' CAs, trusted by the worker process (NODE_EXTRA_CA_CERTS is read at its start).
  const caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, [...new Set([source.ca, destination.ca])].join('\n'));
  try {
    console.log('  fill: the source store');
    const filled = await fillWooCommerce(source, console.log);
    if (!filled) console.log('  the source already holds the bench set');
    const sourceCounts = await counts(source);
    console.log(`  source holds ${describeCounts(sourceCounts)}`);

    const workerEnv = { NODE_EXTRA_CA_CERTS: caFile };
    const vaultKey = randomBytes(32).toString('hex');
    const task = (statePath: string): WorkerTask => ({
      source: address(source),
      destination: address(destination),
      statePath,
      dataTypes: entities,
      real: true,
      vaultKey,
    });
    const outageStep = () =>
      outage(
        kit,
        task(join(dir, 'outage.sqlite')),
        workerEnv,
        destination,
        sourceCounts,
        options.outageMs ?? 60_000,
        options.stallMs ?? 10 * 60_000,
      );
    if (options.outageOnly) return await outageStep();

    const resetAt = performance.now();
    await storeCommand(kit, destination, 'reset');
    console.log(`  destination reset in ${seconds(performance.now() - resetAt)}`);
    let baseline: { totalMs: number };
    if (options.baselineMs === undefined) {
      baseline = await writeBaseline(source, destination);
      const emptiedAt = performance.now();
      await storeCommand(kit, destination, 'reset');
      console.log(
        `  destination reset again in ${seconds(performance.now() - emptiedAt)} (not counted)`,
      );
    } else {
      baseline = { totalMs: options.baselineMs };
      console.log(
        `\n(c) baseline: ${seconds(options.baselineMs)}, as measured earlier on these stores (--baseline-seconds)`,
      );
    }

    const first = task(join(dir, 'state.sqlite'));

    console.log("\n(c) the migration, through the server's job runner, verification included");
    const before = logOffset(destination);
    const run = await runWorker(first, workerEnv);
    const requests = countRequests(logLines(destination, before));
    let ok = await judgeRun(run, requests, baseline.totalMs, destination, sourceCounts);

    console.log('\n(c) re-migration with nothing changed');
    const againFrom = logOffset(destination);
    const again = await runWorker({ ...first, migrationId: run.migrationId }, workerEnv);
    const againRequests = countRequests(logLines(destination, againFrom));
    printRun(again);
    console.log(`  requests at the destination: ${describeRequests(againRequests)}`);
    ok =
      target(
        `writes at the destination: ${fmt(againRequests.writes)} (target 0)`,
        againRequests.writes === 0,
      ) && ok;
    ok =
      target(
        `time ${seconds(again.totalMs)} = ${pct(again.totalMs / run.totalMs)} of the first run's ${seconds(run.totalMs)} (target < 20 %)`,
        again.totalMs < run.totalMs * 0.2,
      ) && ok;
    ok = complete(again) && ok;

    if (options.outage) ok = (await outageStep()) && ok;
    return ok;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function address(store: KitStore): WorkerTask['source'] {
  return {
    platform: 'woocommerce',
    origin: store.url,
    credentials: {
      storeUrl: store.url,
      consumerKey: store.credentials.consumerKey,
      consumerSecret: store.credentials.consumerSecret,
    },
  };
}

interface StoreCounts {
  products: number;
  variations: number;
  customers: number;
  orders: number;
  media: number;
}

async function counts(store: KitStore): Promise<StoreCounts> {
  return {
    products: await storedCount(store, 'products'),
    variations: await storedVariations(store),
    customers: await storedCount(store, 'customers'),
    orders: await storedCount(store, 'orders'),
    media: await storedMediaCount(store),
  };
}

const describeCounts = (c: StoreCounts) =>
  `${fmt(c.products)} products (${fmt(c.variations)} variations), ${fmt(c.customers)} customers, ${fmt(c.orders)} orders, ${fmt(c.media)} media items`;

const describeRequests = (r: RequestCounts) =>
  `${fmt(r.total)} (${Object.entries(r.byMethod)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([method, n]) => `${method} ${fmt(n)}`)
    .join(', ')}; by status ${Object.entries(r.byStatus)
    .map(([status, n]) => `${status}: ${fmt(n)}`)
    .join(', ')}; WordPress's own wp-cron requests ${fmt(r.ownRequests)} besides)`;

interface Baseline {
  totalMs: number;
  byEntity: Record<Entity | 'notes', number>;
}

/** Picks the writable fields of a record that are present. */
const pick = (record: Json, fields: readonly string[]): Json =>
  Object.fromEntries(fields.filter((f) => record[f] !== undefined).map((f) => [f, record[f]]));

const productFields = [
  'name',
  'type',
  'status',
  'sku',
  'regular_price',
  'sale_price',
  'description',
  'short_description',
  'manage_stock',
  'stock_quantity',
  'weight',
] as const;
const addressFields = [
  'first_name',
  'last_name',
  'company',
  'address_1',
  'address_2',
  'city',
  'state',
  'postcode',
  'country',
  'email',
  'phone',
] as const;

/**
 * WooCommerce itself: the source's records, read first (not timed), written into the empty
 * destination one request at a time, 100 per batch, ids stripped and references re-pointed; then
 * the orders' notes, one request each, but for the status note the store writes itself.
 */
async function writeBaseline(source: KitStore, destination: KitStore): Promise<Baseline> {
  const from = new WooRest(source);
  const to = new WooRest(destination);
  try {
    const readAt = performance.now();
    const attributes = await from.get<{ id: number; name: string }[]>('products/attributes');
    const terms = new Map<number, string[]>();
    for (const a of attributes)
      terms.set(
        a.id,
        (await from.get<{ name: string }[]>(`products/attributes/${a.id}/terms?per_page=100`)).map(
          (t) => t.name,
        ),
      );
    const products = await from.all('products');
    const variations = new Map<number, Json[]>();
    for (const p of products)
      if (p.type === 'variable')
        variations.set(Number(p.id), await from.all(`products/${Number(p.id)}/variations`));
    const customers = await from.all('customers');
    const orders = await from.all('orders');
    // Each order's notes, oldest first, four orders at a time.
    const notes = new Map<number, Json[]>();
    const queue = [...orders];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let o = queue.shift(); o; o = queue.shift())
          notes.set(
            Number(o.id),
            (await from.get<Json[]>(`orders/${Number(o.id)}/notes`)).sort(
              (a, b) => Number(a.id) - Number(b.id),
            ),
          );
      }),
    );
    console.log(
      `\n(c) baseline: WooCommerce itself, single stream, 100 per batch (source read in ${seconds(performance.now() - readAt)}, not counted)`,
    );

    const byEntity = { products: 0, customers: 0, orders: 0, notes: 0 } as Baseline['byEntity'];
    let started = performance.now();
    const attributeIds = new Map<number, number>();
    for (const a of attributes) {
      const made = await to.post<{ id: number }>('products/attributes', { name: a.name });
      attributeIds.set(a.id, made.id);
      await to.batch(`products/attributes/${made.id}/terms/batch`, {
        create: (terms.get(a.id) ?? []).map((name) => ({ name })),
      });
    }
    const reAttribute = (list: unknown, withOptions: boolean) =>
      ((list as Json[] | undefined) ?? []).map((a) => ({
        id: attributeIds.get(Number(a.id)) ?? 0,
        ...(withOptions
          ? { variation: a.variation, visible: a.visible, options: a.options }
          : { option: a.option }),
      }));
    const productIds = new Map<number, number>();
    for (const batch of chunks(products, 100)) {
      const made = await to.batch('products/batch', {
        create: batch.map((p) => ({
          ...pick(p, productFields),
          images: ((p.images as Json[] | undefined) ?? []).map((i) =>
            pick(i, ['src', 'name', 'alt']),
          ),
          attributes: reAttribute(p.attributes, true),
        })),
      });
      batch.forEach((p, i) => productIds.set(Number(p.id), Number(made[i]?.id)));
    }
    const variationIds = new Map<number, number>();
    for (const [parent, list] of variations) {
      const made = await to.batch(`products/${productIds.get(parent)}/variations/batch`, {
        create: list.map((v) => ({
          ...pick(v, ['sku', 'regular_price', 'sale_price', 'manage_stock', 'stock_quantity']),
          attributes: reAttribute(v.attributes, false),
        })),
      });
      list.forEach((v, i) => variationIds.set(Number(v.id), Number(made[i]?.id)));
    }
    byEntity.products = performance.now() - started;

    started = performance.now();
    const customerIds = new Map<number, number>();
    for (const batch of chunks(customers, 100)) {
      const made = await to.batch('customers/batch', {
        create: batch.map((c) => ({
          ...pick(c, ['email', 'first_name', 'last_name', 'username']),
          billing: pick((c.billing as Json | undefined) ?? {}, addressFields),
          shipping: pick((c.shipping as Json | undefined) ?? {}, addressFields),
        })),
      });
      batch.forEach((c, i) => customerIds.set(Number(c.id), Number(made[i]?.id)));
    }
    byEntity.customers = performance.now() - started;

    started = performance.now();
    const orderIds = new Map<number, number>();
    for (const batch of chunks(orders, 100)) {
      const made = await to.batch('orders/batch', {
        create: batch.map((o) => ({
          ...pick(o, ['status', 'currency', 'payment_method', 'payment_method_title']),
          set_paid: false,
          customer_id: customerIds.get(Number(o.customer_id)) ?? 0,
          billing: pick((o.billing as Json | undefined) ?? {}, addressFields),
          shipping: pick((o.shipping as Json | undefined) ?? {}, addressFields),
          line_items: ((o.line_items as Json[] | undefined) ?? []).map((l) => ({
            product_id: productIds.get(Number(l.product_id)),
            ...(Number(l.variation_id)
              ? { variation_id: variationIds.get(Number(l.variation_id)) }
              : {}),
            quantity: l.quantity,
            subtotal: l.subtotal,
            total: l.total,
          })),
          shipping_lines: ((o.shipping_lines as Json[] | undefined) ?? []).map((s) =>
            pick(s, ['method_id', 'method_title', 'total']),
          ),
        })),
      });
      batch.forEach((o, i) => orderIds.set(Number(o.id), Number(made[i]?.id)));
    }
    byEntity.orders = performance.now() - started;

    // Order notes have no batch route: one request each, but for the status note the store
    // writes itself while it creates the order in its status.
    started = performance.now();
    let noteCount = 0;
    for (const o of orders)
      for (const note of notes.get(Number(o.id)) ?? []) {
        if (/^Order status changed from Pending payment to /.test(String(note.note))) continue;
        await to.post(`orders/${orderIds.get(Number(o.id))}/notes`, {
          note: note.note,
          customer_note: note.customer_note,
        });
        noteCount += 1;
      }
    byEntity.notes = performance.now() - started;
    const totalMs = byEntity.products + byEntity.customers + byEntity.orders + byEntity.notes;
    const per = (entity: Entity | 'notes', n: number, unit: string) =>
      `${entity} ${seconds(byEntity[entity])} (${(byEntity[entity] / Math.max(1, n) / 10).toFixed(2)} s per 100 ${unit})`;
    console.log(
      `  ${per('products', products.length + [...variations.values()].flat().length, 'products and variations')}, ${per('customers', customers.length, 'customers')}, ${per('orders', orders.length, 'orders')}, ${per('notes', noteCount, 'order notes')}; total ${seconds(totalMs)}`,
    );
    return { totalMs, byEntity };
  } finally {
    await from.close();
    await to.close();
  }
}

function printRun(run: WorkerResult): void {
  console.log(
    `  ${run.status}${run.message ? ` (${run.message})` : ''}: migrate ${seconds(run.migrateMs)}, verification ${run.verification ?? 'not run'} in ${seconds(run.verifyMs)}, total ${seconds(run.totalMs)}; worker CPU ${seconds(run.cpuMs)}, peak RSS ${run.peakRssMb} MB`,
  );
  for (const entity of Object.keys(run.stats).sort()) {
    const s = run.stats[entity];
    if (s)
      console.log(
        `  ${entity}: ${fmt(s.migrated)} migrated, ${fmt(s.skipped)} skipped, ${fmt(s.failed)} failed`,
      );
  }
  for (const failure of run.failures) console.log(`  failed: ${failure}`);
  for (const example of run.verificationExamples) console.log(`  verification: ${example}`);
  for (const note of run.notes) console.log(`  destination: ${note}`);
}

function complete(run: WorkerResult): boolean {
  return target(
    `the run completes with no failed record and its verification passes (${run.status}, ${fmt(run.failed)} failed, verification ${run.verification ?? 'not run'})`,
    run.status === 'completed' && run.failed === 0 && run.verification === 'passed',
  );
}

async function judgeRun(
  run: WorkerResult,
  requests: RequestCounts,
  baselineMs: number,
  destination: KitStore,
  sourceCounts: StoreCounts,
): Promise<boolean> {
  printRun(run);
  const held = await counts(destination);
  console.log(`  destination holds ${describeCounts(held)}`);
  console.log(`  requests at the destination: ${describeRequests(requests)}`);
  let ok = complete(run);
  ok =
    target(
      `total ${seconds(run.totalMs)} = ${(run.totalMs / baselineMs).toFixed(2)}x WooCommerce's own single-stream ${seconds(baselineMs)} (target <= 0.85)`,
      run.totalMs <= baselineMs * 0.85,
    ) && ok;
  for (const entity of entities) {
    const s = run.stats[entity] ?? { migrated: 0, skipped: 0, failed: 0 };
    ok =
      target(
        `${entity}: ${fmt(s.migrated)} counted as migrated of ${fmt(held[entity])} created at the destination (${fmt(sourceCounts[entity])} in the source), ${fmt(s.skipped)} skipped, ${fmt(s.failed)} failed (target: all migrated, 0 skipped, 0 failed)`,
        s.migrated === held[entity] &&
          held[entity] === sourceCounts[entity] &&
          s.skipped === 0 &&
          s.failed === 0,
      ) && ok;
  }
  const abandoned = requests.byStatus['499'] ?? 0;
  ok =
    target(`abandoned requests (nginx 499): ${fmt(abandoned)} (target 0)`, abandoned === 0) && ok;
  ok =
    target(
      `lookups (GET with email=, sku=, slug= or search=): ${fmt(requests.lookups)}, ${fmt(requests.singleLookups)} of them for a single record (target 0; besides, ${fmt(requests.storeLookups)} read of the store's own "Uncategorized" category per connection)`,
      requests.lookups === 0,
    ) && ok;
  ok =
    target(
      `media items: destination ${fmt(held.media)}, source ${fmt(sourceCounts.media)} (target: each source image once)`,
      held.media === sourceCounts.media,
    ) && ok;
  return ok;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops a daemon of the store by the pid in its pid file; answers the pid. */
async function stopDaemon(store: KitStore, name: string, signal: NodeJS.Signals): Promise<number> {
  const file = join(store.dir, 'run', `${name}.pid`);
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!pid) throw new Error(`no pid in ${file}`);
  process.kill(pid, signal);
  for (let i = 0; i < 100 && alive(pid); i += 1) await sleep(100);
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  return pid;
}

async function outage(
  kit: string,
  task: WorkerTask,
  env: Record<string, string>,
  destination: KitStore,
  sourceCounts: StoreCounts,
  downMs: number,
  stallMs: number,
): Promise<boolean> {
  console.log(
    `\n(c) outage: a fresh migration; the destination's PHP and database stopped for ${seconds(downMs)} just after the first records arrive`,
  );
  await storeCommand(kit, destination, 'reset');
  const stalled = new AbortController();
  const running = runWorker(task, env, stalled.signal).catch((error: unknown) => {
    if (!stalled.signal.aborted) throw error;
    return undefined;
  });
  let finished = false;
  void running.then(
    () => (finished = true),
    () => (finished = true),
  );
  while (!finished && (await storedCount(destination, 'products')) === 0) await sleep(250);
  if (finished) {
    console.log('  the run ended before a record arrived');
    await running;
    return target('the destination was stopped mid-run', false);
  }
  // php-fpm's master ends its workers on SIGTERM at once; the database is killed outright.
  const stoppedAt = performance.now();
  const php = await stopDaemon(destination, 'php-fpm', 'SIGTERM');
  const db = await stopDaemon(destination, 'mariadbd', 'SIGKILL');
  console.log(`  stopped php-fpm (pid ${php}) and MariaDB (pid ${db}); the store answers 502`);
  await sleep(Math.max(0, downMs - (performance.now() - stoppedAt)));
  const startAt = performance.now();
  await storeCommand(kit, destination, 'start');
  console.log(
    `  started again with store.sh start after ${seconds(startAt - stoppedAt)} (took ${seconds(performance.now() - startAt)})${finished ? '; the run had already ended' : ''}`,
  );
  // A run that neither finishes nor asks the store anything any more has hung.
  let size = logOffset(destination);
  let grewAt = performance.now();
  const watch = setInterval(() => {
    const now = logOffset(destination);
    if (now !== size) [size, grewAt] = [now, performance.now()];
    else if (performance.now() - grewAt > stallMs)
      stalled.abort(`no request to the destination for ${seconds(stallMs)}`);
  }, 5_000);
  const run = await running.finally(() => clearInterval(watch));
  if (run) printRun(run);
  else
    console.log(
      `  the run stalled: ${String(stalled.signal.reason)} while it had not finished; its worker was stopped`,
    );
  const held = await counts(destination);
  const duplicates = await duplicateSkus(destination);
  const twiceByEmail = await duplicateEmails(destination);
  console.log(`  destination holds ${describeCounts(held)}`);
  let ok = run ? complete(run) : target('the run finishes by itself', false);
  ok =
    target(
      `destination counts equal the source's (products ${fmt(held.products)}/${fmt(sourceCounts.products)}, variations ${fmt(held.variations)}/${fmt(sourceCounts.variations)}, customers ${fmt(held.customers)}/${fmt(sourceCounts.customers)}, orders ${fmt(held.orders)}/${fmt(sourceCounts.orders)})`,
      (['products', 'variations', 'customers', 'orders'] as const).every(
        (k) => held[k] === sourceCounts[k],
      ),
    ) && ok;
  ok =
    target(
      `SKUs held twice: ${fmt(duplicates.length)}${duplicates.length ? ` (${duplicates.slice(0, 5).join(', ')})` : ''} (target 0)`,
      duplicates.length === 0,
    ) && ok;
  ok =
    target(
      `customers held twice (same e-mail): ${fmt(twiceByEmail.length)}${twiceByEmail.length ? ` (${twiceByEmail.slice(0, 5).join(', ')})` : ''} (target 0)`,
      twiceByEmail.length === 0,
    ) && ok;
  return ok;
}
