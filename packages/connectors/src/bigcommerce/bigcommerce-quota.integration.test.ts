import { afterAll, expect, it } from 'vitest';
import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import {
  startBigCommerceEmulator,
  type RunningBigCommerceEmulator,
} from '@replatform/emulators/bigcommerce/bigcommerce-emulator';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { Connection, WriteOutcome } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { createBigCommerceConnector } from './bigcommerce-connector.ts';

/**
 * 2,000 products into a store on the Standard plan's quota (150 requests per window, shared with
 * the store's other apps) without a 429 and with at least 90 % of the quota used. The window is
 * shortened from 30 s to 2 s so that the run takes half a minute: the connector paces by the window
 * the store announces in its headers, so the arithmetic is the same. The 30 s run is part of the
 * benchmark.
 */

const emulators: RunningBigCommerceEmulator[] = [];
const origins = new Map<string, string>();
const connector = createBigCommerceConnector({
  apiBaseUrl: (storeHash) => origins.get(storeHash) ?? 'http://127.0.0.1:9',
});

afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
});

/** Batches as the engine sends them: the connector's batch size, up to 3 write() calls at once. */
async function writeLikeTheEngine<E extends EntityType>(
  destination: Connection,
  entity: E,
  records: EntityRecord[E][],
  idMap: MemoryIdMap,
): Promise<WriteOutcome[]> {
  const size = connector.capabilities.batchSize[entity] ?? 25;
  const batches: EntityRecord[E][][] = [];
  for (let i = 0; i < records.length; i += size) batches.push(records.slice(i, i + size));
  const outcomes: WriteOutcome[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 3 }, async () => {
      while (next < batches.length) {
        const batch = batches[next++] ?? [];
        const result = await destination.write(entity, batch, idMap);
        idMap.record(entity, result);
        outcomes.push(...result);
      }
    }),
  );
  return outcomes;
}

it('migrates 2,000 products under the Standard plan quota with no 429 and >= 90 % of it used', async () => {
  const source = await startBigCommerceEmulator({
    storeHash: 'quotasource',
    seed: { seed: 21, products: 2000, customers: 0, orders: 0 },
    plan: 'unlimited',
  });
  const destination = await startBigCommerceEmulator({
    storeHash: 'quotadestination',
    seed: 'empty',
    plan: 'standard',
    quota: { windowMs: 2000 },
  });
  emulators.push(source, destination);
  for (const e of emulators) origins.set(e.storeHash, e.url);
  const connect = (e: RunningBigCommerceEmulator) =>
    connector.connect(
      { storeHash: e.storeHash, accessToken: e.accessToken },
      { http: loopbackHttp() },
    );

  const from = connect(source);
  const categories = await readAll(from, 'categories');
  const products = await readAll(from, 'products');
  expect(products).toHaveLength(2000);

  const target = connect(destination);
  const idMap = new MemoryIdMap();
  const started = performance.now();
  const categoryOutcomes = await writeLikeTheEngine(target, 'categories', categories, idMap);
  const productOutcomes = await writeLikeTheEngine(target, 'products', products, idMap);
  const seconds = (performance.now() - started) / 1000;

  expect(new Set(categoryOutcomes.map((o) => o.outcome))).toEqual(new Set(['created']));
  expect(new Set(productOutcomes.map((o) => o.outcome))).toEqual(new Set(['created']));
  expect(destination.countStored('products')).toBe(2000);

  const quota = destination.quotaStats();
  const utilisation = destination.quotaUtilisation() ?? 0;
  const usage = target.rateUsage();
  const closed = quota.windows.slice(0, -1);
  console.log(
    `2,000 products, Standard quota (${quota.quota} requests per ${quota.windowMs} ms window): ` +
      `${quota.windows.length} windows, requests per window ${quota.windows.map((w) => w.used).join(',')}; ` +
      `${quota.limited} x 429; store-measured use of closed windows ${(utilisation * 100).toFixed(1)} % ` +
      `(most in one window ${Math.max(...closed.map((w) => w.used))}); connection rateUsage ` +
      `${usage.usedPerSecond.toFixed(1)}/${usage.availablePerSecond.toFixed(1)} requests/s ` +
      `(${((usage.usedPerSecond / usage.availablePerSecond) * 100).toFixed(1)} %), ` +
      `throttled ${usage.throttled}; ${seconds.toFixed(1)} s`,
  );
  expect(quota.limited).toBe(0);
  expect(usage.throttled).toBe(0);
  expect(utilisation).toBeGreaterThanOrEqual(0.9);
  expect(usage.usedPerSecond / usage.availablePerSecond).toBeGreaterThanOrEqual(0.9);
  expect(usage.availablePerSecond).toBeCloseTo(150 / 2, 5);
  // 5 % of every window stays with the store's other apps.
  expect(Math.max(...quota.windows.map((w) => w.used))).toBeLessThanOrEqual(142);
}, 120_000);
