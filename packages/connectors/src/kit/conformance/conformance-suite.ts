import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  entitySchemas,
  entityTypes,
  type EntityRecord,
  type EntityType,
} from '@replatform/canonical/entities';
import type { RunningEmulator } from '@replatform/emulators/framework/server';
import type { SampleStoreOptions } from '@replatform/emulators/framework/sample-store';
import type {
  Connection,
  Connector,
  ConnectorHttp,
  ConnectorHttpResponse,
  IdMap,
  RemoveOutcome,
  WriteOutcome,
} from '../contract.ts';
import { ConnectorError } from '../errors.ts';
import {
  comparableNative,
  differingPaths,
  knownDifferences,
  undeclaredFields,
  type SourceField,
} from '../fields.ts';
import { loopbackHttp } from '../testing/loopback-http.ts';
import {
  comparable,
  isEmptyValue,
  valueAt,
  variantKeysOf,
  type ComparableOptions,
} from './compare.ts';

/**
 * The one conformance suite every connector runs against its emulator (pattern: Hono's shared
 * cases, Kysely's dialect loop). A connector may skip a test only with a stated reason.
 */
export interface ConformanceStore<C> {
  credentials: C;
  emulator: RunningEmulator;
  /** Records of an entity the store really holds, to prove that nothing was duplicated. */
  countStored(entity: EntityType): number | Promise<number>;
  close(): Promise<void>;
}

export interface ConformanceHarness<C> {
  connector: Connector<C>;
  startStore(kind: 'seeded' | 'empty', sample: SampleStoreOptions): Promise<ConformanceStore<C>>;
  /** Test name -> reason for skipping it. */
  skip?: Partial<Record<ConformanceTest, string>>;
  /** Sample store size; small by default so the suite stays fast. */
  sample?: SampleStoreOptions;
  /**
   * The ConnectorHttp a connection to `store` uses; defaults to loopbackHttp(). Given the store,
   * so that the production client can be made with an allow-list of exactly its emulator's origin.
   * A transport with a close() method is closed after the suite.
   */
  http?: (store: ConformanceStore<C>) => ConnectorHttp;
  /**
   * Fields each store decides for itself and that are never compared (the URLs of images a store
   * downloaded, modification dates), per entity, as dotted paths.
   */
  storeOwned?: Partial<Record<EntityType, readonly string[]>>;
  /**
   * Check the destination's unsupported fields instead of dropping them from the comparison: for
   * each record whose value differs after the round trip, the destination must hold the empty
   * value (or, for storeAssigned fields, a value of its own) and the record's known differences
   * (what the engine reports for it) must name the field.
   */
  strictUnsupported?: boolean;
  /** Unsupported fields the destination fills with a value of its own (its order numbers). */
  storeAssigned?: Partial<Record<EntityType, readonly string[]>>;
  /**
   * Compare the variant each order line points to, through the variants' SKUs or option values
   * (variants are not in the id map). Off by default until every connector keeps those links.
   */
  compareVariantLinks?: boolean;
  /** Time after which the fault tests give up on an unanswered request. Default 3 s. */
  faultTimeoutMs?: number;
  /**
   * The store's records as the platform's own API answers them, for the tests that compare
   * stores on the platform's own fields ('native catalogue', 'native round trip').
   */
  native?: NativeAccess<C>;
}

export interface NativeAccess<C> {
  /**
   * Every record of an entity as the platform answers it (with the sub-records a migration reads
   * along with it, e.g. a product's variations, under the key the connector's nativeFields
   * declare), with its id.
   */
  read(store: ConformanceStore<C>, entity: EntityType): Promise<{ id: string; record: unknown }[]>;
  /** Variant id -> a key both stores share (its SKU, or its product and options). */
  variantKeys?(store: ConformanceStore<C>): Promise<Map<string, string>>;
  /**
   * The short list of native fields the platform assigns itself when a record is written (order
   * numbers it will not take, dates it stamps), per entity, with the reason: left out of the
   * same-platform comparison.
   */
  assignedOnWrite?: Partial<Record<EntityType, Readonly<Record<string, string>>>>;
}

export const conformanceTests = [
  'check',
  'count',
  'read',
  'native catalogue',
  'round trip',
  'native round trip',
  'read by ids',
  'idempotent rewrite',
  'redirects',
  'remove',
  'faults on read',
  'faults on write',
] as const;
export type ConformanceTest = (typeof conformanceTests)[number];

const defaultSample: SampleStoreOptions = { seed: 42, products: 40, customers: 20, orders: 15 };

/** An id map that remembers what each write answered, as the engine's id map does. */
export class MemoryIdMap implements IdMap {
  readonly #forward = new Map<string, string>();
  readonly #reverse = new Map<string, string>();

  get(entity: EntityType, sourceId: string): string | undefined {
    return this.#forward.get(`${entity}:${sourceId}`);
  }

  sourceIdOf(entity: EntityType, destinationId: string): string | undefined {
    return this.#reverse.get(`${entity}:${destinationId}`);
  }

  record(entity: EntityType, outcomes: WriteOutcome[]): void {
    for (const o of outcomes) {
      if (o.outcome === 'failed' || !o.destinationId) continue;
      this.#forward.set(`${entity}:${o.sourceId}`, o.destinationId);
      this.#reverse.set(`${entity}:${o.destinationId}`, o.sourceId);
    }
  }
}

export async function readAll<E extends EntityType>(
  connection: Connection,
  entity: E,
): Promise<EntityRecord[E][]> {
  const records: EntityRecord[E][] = [];
  for await (const page of connection.read(entity, null)) records.push(...page.records);
  return records;
}

/** Writes every entity the destination accepts, in dependency order, in the connector's batch size. */
export async function copyAll(
  source: Connection,
  destination: Connection,
  connector: Connector<unknown>,
  idMap: MemoryIdMap,
): Promise<Record<EntityType, WriteOutcome[]>> {
  const outcomes = {} as Record<EntityType, WriteOutcome[]>;
  await destination.prepareImport?.();
  try {
    for (const entity of entityTypes) {
      outcomes[entity] = [];
      if (!connector.capabilities.write.includes(entity)) continue;
      const batchSize = connector.capabilities.batchSize[entity] ?? 25;
      const records = await readAll(source, entity);
      for (let i = 0; i < records.length; i += batchSize) {
        const batch = records.slice(i, i + batchSize);
        const result = await destination.write(entity, batch, idMap);
        expect(result.map((o) => o.sourceId)).toEqual(batch.map((r) => r.id));
        idMap.record(entity, result);
        outcomes[entity].push(...result);
      }
    }
  } finally {
    await destination.finishImport?.();
  }
  return outcomes;
}

/**
 * Gives up on requests not answered within `ms`, with the transient time-out error of the
 * production client, and aborts them through their signal so the transport lets go of the socket.
 */
export function withDeadline(http: ConnectorHttp, ms: number): ConnectorHttp {
  return {
    request: (request) => {
      const deadline = new AbortController();
      const signal = request.signal
        ? AbortSignal.any([request.signal, deadline.signal])
        : deadline.signal;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const error = new ConnectorError(
            'transient',
            'timeout',
            `${request.method} ${new URL(request.url).pathname}: no answer within ${ms} ms`,
          );
          deadline.abort(error);
          reject(error);
        }, ms);
      });
      const answer: Promise<ConnectorHttpResponse> = http.request({ ...request, signal });
      // The transport's own rejection after the abort is expected and superseded by the time-out.
      answer.catch(() => {});
      return Promise.race([answer, expired]).finally(() => clearTimeout(timer));
    },
  };
}

const isClosable = (http: ConnectorHttp): http is ConnectorHttp & { close(): Promise<void> } =>
  typeof (http as { close?: unknown }).close === 'function';

export function describeConformance<C>(name: string, harness: ConformanceHarness<C>): void {
  const sample = harness.sample ?? defaultSample;
  const { connector } = harness;
  const transports: ConnectorHttp[] = [];
  const transportFor = (store: ConformanceStore<C>) => {
    const http = harness.http ? harness.http(store) : loopbackHttp();
    transports.push(http);
    return http;
  };
  const connectAs = (store: ConformanceStore<C>) =>
    connector.connect(store.credentials, { http: transportFor(store) });
  const faultTimeoutMs = harness.faultTimeoutMs ?? 3_000;
  /** A connection whose requests time out like production ones, for the tests with hung requests. */
  const connectWithDeadline = (store: ConformanceStore<C>) =>
    connector.connect(store.credentials, {
      http: withDeadline(transportFor(store), faultTimeoutMs),
    });
  const test = (
    title: ConformanceTest,
    fn: (context: { skip: (note?: string) => never }) => Promise<void>,
    timeout = 120_000,
  ) => {
    const reason = harness.skip?.[title];
    if (reason) it.skip(`${title} (skipped: ${reason})`, fn);
    else it(title, fn, timeout);
  };
  const readable = entityTypes.filter((e) => connector.capabilities.read.includes(e));
  const writable = entityTypes.filter((e) => connector.capabilities.write.includes(e));

  describe(`connector conformance: ${name}`, () => {
    let seeded: ConformanceStore<C>;
    let source: Connection;

    beforeAll(async () => {
      seeded = await harness.startStore('seeded', sample);
      source = connectAs(seeded);
    });
    afterAll(async () => {
      await seeded?.close();
      await Promise.all(transports.filter(isClosable).map((http) => http.close()));
    });

    test('check', async () => {
      const result = await source.check();
      expect(result.ok).toBe(true);
      expect(result.storeName.length).toBeGreaterThan(0);
    });

    test('count', async () => {
      for (const entity of readable) {
        expect(await source.count(entity), entity).toBe(await seeded.countStored(entity));
      }
      expect(await source.count('products')).toBe(sample.products);
      expect(await source.count('customers')).toBe(sample.customers);
      expect(await source.count('orders')).toBe(sample.orders);
    });

    test('read', async () => {
      for (const entity of readable) {
        const records = await readAll(source, entity);
        expect(records.length, entity).toBe(await source.count(entity));
        expect(new Set(records.map((r) => r.id)).size, `${entity} ids unique`).toBe(records.length);
        for (const record of records) {
          const parsed = entitySchemas[entity].safeParse(record);
          expect(parsed.success ? '' : `${entity} ${record.id}: ${parsed.error.message}`).toBe('');
        }
      }
      const products = await readAll(source, 'products');
      expect(
        products.some((p) => p.variants.length > 1),
        'products with variants',
      ).toBe(true);
      expect(
        products.some((p) => p.images.length > 0),
        'products with images',
      ).toBe(true);
    });

    test('native catalogue', async () => {
      const native = harness.native;
      if (!native) throw new Error('The harness gives no native access to the store.');
      for (const entity of readable) {
        const catalogue = connector.capabilities.nativeFields[entity];
        expect(catalogue, `${entity}: nativeFields declared`).toBeDefined();
        const records = await native.read(seeded, entity);
        expect(records.length, `${entity} native records`).toBeGreaterThan(0);
        const undeclared = new Set(
          records.flatMap(({ record }) => undeclaredFields(record, catalogue ?? {})),
        );
        expect([...undeclared], `${entity}: fields neither carried nor declared`).toEqual([]);
      }
    });

    describe('as destination', () => {
      let target: ConformanceStore<C>;
      let destination: Connection;
      const idMap = new MemoryIdMap();
      let first: Record<EntityType, WriteOutcome[]>;

      beforeAll(async () => {
        target = await harness.startStore('empty', sample);
        destination = connectAs(target);
      });
      afterAll(async () => {
        await target?.close();
      });

      test('round trip', async () => {
        first = await copyAll(source, destination, connector as Connector<unknown>, idMap);
        const links = async (connection: Connection) =>
          harness.compareVariantLinks
            ? { variantKey: variantKeysOf(await readAll(connection, 'products')) }
            : {};
        const sourceKeys = await links(source);
        const destinationKeys = await links(destination);
        for (const entity of writable) {
          const failed = first[entity].filter((o) => o.outcome === 'failed');
          expect(failed, `${entity} failures`).toEqual([]);
          expect(
            first[entity].every((o) => o.outcome === 'created'),
            `${entity} all created`,
          ).toBe(true);
          const unsupported = Object.keys(
            connector.capabilities.destinationFields[entity]?.unsupported ?? {},
          );
          const owned = harness.storeOwned?.[entity] ?? [];
          const ignore = [...unsupported, ...owned];
          // Source records already carry source ids; destination ids map back through the id map.
          const asSource = {
            toSourceId: (_e: EntityType, id: string) => id,
            ignore,
            ...sourceKeys,
          };
          const asDestination = {
            toSourceId: (e: EntityType, id: string) => idMap.sourceIdOf(e, id),
            ignore,
            ...destinationKeys,
          };
          const sourceRecords = await readAll(source, entity);
          const bySourceId = new Map(sourceRecords.map((r) => [r.id, r]));
          const expected = new Map(
            sourceRecords.map((r) => [r.id, comparable(entity, r, asSource)]),
          );
          const actual = await readAll(destination, entity);
          expect(actual.length, `${entity} count at destination`).toBe(expected.size);
          for (const record of actual) {
            const sourceId = idMap.sourceIdOf(entity, record.id);
            expect(sourceId, `${entity} ${record.id} maps back to a source record`).toBeDefined();
            const rest = comparable(entity, record, asDestination);
            expect(rest, `${entity} ${sourceId}`).toEqual(expected.get(sourceId ?? ''));
            if (!harness.strictUnsupported) continue;
            // What the destination cannot hold is not silently lost: it is empty there (or the
            // store's own value) and the owner was told, record by record.
            const sourceRecord = bySourceId.get(sourceId ?? '');
            const wide = (r: typeof record, o: ComparableOptions) =>
              comparable(entity, r, { ...o, ignore: owned });
            const from = sourceRecord ? wide(sourceRecord, asSource) : {};
            const to = wide(record, asDestination);
            const reported = knownDifferences(
              entity,
              sourceRecord,
              connector.capabilities.destinationFields[entity] ?? {},
            ).map((d) => d.field);
            for (const field of unsupported.filter((f) => !owned.includes(f))) {
              const had = valueAt(from, field);
              const holds = valueAt(to, field);
              if (JSON.stringify(had) === JSON.stringify(holds)) continue;
              const where = `${entity} ${sourceId} ${field}`;
              if (harness.storeAssigned?.[entity]?.includes(field))
                expect(isEmptyValue(holds), `${where}: the store's own value`).toBe(false);
              else expect(holds, `${where}: empty at the destination`).toSatisfy(isEmptyValue);
              expect(reported, `${where}: reported as a known difference`).toContain(field);
            }
          }
        }
      });

      test('native round trip', async () => {
        const native = harness.native;
        if (!native) throw new Error('The harness gives no native access to the store.');
        expect(first, 'the round trip ran first').toBeDefined();
        const sourceVariants = (await native.variantKeys?.(seeded)) ?? new Map<string, string>();
        const destinationVariants =
          (await native.variantKeys?.(target)) ?? new Map<string, string>();
        const sourceByKey = new Map([...sourceVariants].map(([id, key]) => [key, id]));
        const toSource = (kind: EntityType | 'variants', id: string) =>
          kind === 'variants'
            ? sourceByKey.get(destinationVariants.get(id) ?? '')
            : idMap.sourceIdOf(kind, id);
        const problems: string[] = [];
        for (const entity of writable) {
          const catalogue: Record<string, SourceField> = {
            ...connector.capabilities.nativeFields[entity],
          };
          for (const [path, why] of Object.entries(native.assignedOnWrite?.[entity] ?? {}))
            catalogue[path] = { assigned: why };
          const expected = new Map(
            (await native.read(seeded, entity)).map(({ id, record }) => [
              id,
              comparableNative(record, catalogue),
            ]),
          );
          for (const { id, record } of await native.read(target, entity)) {
            const sourceId = idMap.sourceIdOf(entity, id);
            if (!sourceId || !expected.has(sourceId)) {
              problems.push(`${entity} ${id}: not migrated from the source`);
              continue;
            }
            for (const path of differingPaths(
              expected.get(sourceId),
              comparableNative(record, catalogue, toSource),
            ))
              problems.push(`${entity} ${sourceId}: ${path}`);
          }
        }
        expect(problems, 'fields that differ between the two stores').toEqual([]);
      });

      test('read by ids', async ({ skip }) => {
        expect(first, 'the round trip ran first').toBeDefined();
        const readByIds = destination.readByIds?.bind(destination);
        // Without it, verification after a run reads the destination in full.
        if (!readByIds) return skip('the connector reads no records by id');
        for (const entity of writable) {
          const full = await readAll(destination, entity);
          const written = first[entity].flatMap((o) => (o.destinationId ? [o.destinationId] : []));
          expect(written.length, `${entity} written`).toBe(full.length);
          // Asked out of order, with an id counted twice and one the store never had.
          const asked = [...written].reverse();
          if (asked[0]) asked.push(asked[0]);
          asked.push('987654321');
          const back = await readByIds(entity, asked);
          const byId = (records: { id: string }[]) =>
            [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
          expect(byId(back), `${entity} read by id equals the full read`).toEqual(byId(full));
        }
      });

      test('idempotent rewrite', async () => {
        const before = Object.fromEntries(
          await Promise.all(writable.map(async (e) => [e, await target.countStored(e)])),
        );
        const again = await copyAll(source, destination, connector as Connector<unknown>, idMap);
        for (const entity of writable) {
          expect(
            again[entity].filter((o) => o.outcome === 'created'),
            `${entity} created again`,
          ).toEqual([]);
          expect(
            again[entity].filter((o) => o.outcome === 'failed'),
            `${entity} failed`,
          ).toEqual([]);
          expect(await target.countStored(entity), `${entity} stored`).toBe(before[entity]);
        }
        // A run that lost its id map (crash before the map was saved) finds the records by marker.
        const amnesiac = await copyAll(
          source,
          destination,
          connector as Connector<unknown>,
          new MemoryIdMap(),
        );
        for (const entity of writable) {
          expect(
            amnesiac[entity].filter((o) => o.outcome === 'created'),
            `${entity} created without id map`,
          ).toEqual([]);
          expect(await target.countStored(entity), `${entity} stored after marker lookup`).toBe(
            before[entity],
          );
        }
      });

      test('redirects', async ({ skip }) => {
        const writeRedirects = destination.writeRedirects?.bind(destination);
        if (!writeRedirects) return skip('the platform keeps no redirects');
        const redirects = [1, 2, 3].map((n) => ({
          entity: 'products' as const,
          sourceId: String(n),
          from: `/product/conformance-old-${n}/`,
          to: `/products/conformance-new-${n}`,
        }));
        const first = await writeRedirects(redirects);
        expect(first.map((o) => [o.from, o.outcome])).toEqual(
          redirects.map((r) => [r.from, 'created']),
        );
        expect(first.every((o) => o.destinationId)).toBe(true);
        // Written again: already there. The same old path sent elsewhere: the existing redirect
        // is left alone and the new one refused with the reason.
        const again = await writeRedirects([
          ...redirects.slice(0, 2),
          { ...redirects[2]!, to: '/products/somewhere-else' },
        ]);
        expect(again.map((o) => o.outcome)).toEqual(['existing', 'existing', 'failed']);
        expect(again[2]?.reason ?? '').not.toBe('');
        // Undo removes what was created.
        const removeAssets = destination.removeAssets?.bind(destination);
        expect(removeAssets, 'redirects are removable').toBeDefined();
        const removed = await removeAssets!(
          first.map((o) => ({
            kind: 'redirect' as const,
            key: o.from,
            destinationId: o.destinationId!,
          })),
        );
        expect(removed.map((o) => o.outcome)).toEqual(['removed', 'removed', 'removed']);
        const recreated = await writeRedirects(redirects.slice(0, 1));
        expect(recreated[0]?.outcome).toBe('created');
        await removeAssets!([
          {
            kind: 'redirect',
            key: recreated[0]!.from,
            destinationId: recreated[0]!.destinationId!,
          },
        ]);
      });

      test('remove', async ({ skip }) => {
        expect(first, 'the round trip ran first').toBeDefined();
        if (!destination.remove) return skip('the connector removes no records');
        const unsupported = connector.capabilities.removeUnsupported ?? {};
        // Undo's order: what depends on others first, each entity's records newest first (a
        // child category or page before its parent).
        const removable = [...writable].reverse().filter((e) => !(e in unsupported));
        // Removal runs through the same noise as writes: a delete whose answer was lost and that
        // is sent again finds nothing to delete, which is 'gone', not a failure.
        target.emulator.setFaults({
          rate429: 0.1,
          rate5xx: 0.1,
          resetRate: 0.05,
          truncateRate: 0.05,
          timeoutRate: 0.01,
          retryAfterSeconds: 0,
        });
        const connection = connectWithDeadline(target);
        const removals: Record<string, RemoveOutcome[]> = {};
        try {
          for (const entity of removable) {
            const ids = first[entity]
              .flatMap((o) => (o.destinationId ? [o.destinationId] : []))
              .reverse();
            removals[entity] = await connection.remove!(entity, ids);
            expect(
              removals[entity].map((o) => o.destinationId),
              `${entity}: one outcome per id, in order`,
            ).toEqual(ids);
          }
        } finally {
          target.emulator.setFaults(undefined);
        }
        for (const entity of removable) {
          expect(
            removals[entity]!.filter((o) => o.outcome === 'failed'),
            `${entity} failed to remove`,
          ).toEqual([]);
          expect(await target.countStored(entity), `${entity} left at the destination`).toBe(0);
          expect(await readAll(destination, entity), `${entity} read after removal`).toEqual([]);
        }
        // Files and terms the writes stored go too, once nothing uses them.
        const assets = writable.flatMap((e) => first[e].flatMap((o) => o.assets ?? []));
        if (assets.length) {
          expect(destination.removeAssets, 'assets were stored: removeAssets exists').toBeDefined();
          const gone = await destination.removeAssets!(assets);
          expect(gone.filter((o) => o.outcome === 'failed')).toEqual([]);
          expect(
            gone.map((o) => o.destinationId),
            'one outcome per asset, in order',
          ).toEqual(assets.map((a) => a.destinationId));
        }
        // Removing again, or an id the store never had, finds nothing: 'gone'.
        for (const entity of removable) {
          const ids = first[entity].flatMap((o) => (o.destinationId ? [o.destinationId] : []));
          const again = await destination.remove!(entity, [...ids.slice(0, 2), '987654321']);
          expect(
            again.map((o) => o.outcome),
            `${entity} removed twice`,
          ).toEqual(again.map(() => 'gone'));
        }
      });

      test('faults on read', async () => {
        const clean = await readAll(source, 'products');
        const connection = connectWithDeadline(seeded);
        seeded.emulator.setFaults({
          rate429: 0.1,
          rate5xx: 0.1,
          resetRate: 0.05,
          truncateRate: 0.05,
          timeoutRate: 0.02,
          retryAfterSeconds: 0,
        });
        try {
          const noisy = await readAll(connection, 'products');
          expect(noisy).toEqual(clean);
        } finally {
          seeded.emulator.setFaults(undefined);
        }
        expect(seeded.emulator.stats.faultsInjected).toBeGreaterThan(0);
      });

      test('faults on write', async () => {
        const fresh = await harness.startStore('empty', sample);
        try {
          const connection = connectWithDeadline(fresh);
          fresh.emulator.setFaults({
            rate429: 0.1,
            rate5xx: 0.1,
            resetRate: 0.05,
            truncateRate: 0.05,
            timeoutRate: 0.01,
            retryAfterSeconds: 0,
          });
          const map = new MemoryIdMap();
          const outcomes = await copyAll(source, connection, connector as Connector<unknown>, map);
          fresh.emulator.setFaults(undefined);
          for (const entity of writable) {
            expect(
              outcomes[entity].filter((o) => o.outcome === 'failed'),
              `${entity} failed under faults`,
            ).toEqual([]);
            expect(await fresh.countStored(entity), `${entity} stored once`).toBe(
              await seeded.countStored(entity),
            );
          }
          expect(fresh.emulator.stats.faultsInjected).toBeGreaterThan(0);
        } finally {
          await fresh.close();
        }
      }, 240_000);
    });
  });
}
