import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entityTypes, type EntityType } from '@replatform/canonical/entities';
import type { HttpClient } from '@replatform/connectors/kit/http/http-client';
import {
  NativeReader,
  type NativeSnapshot,
} from '@replatform/connectors/woocommerce/real-store/native';
import {
  realStoreHttp,
  realStoreSetup,
  resetStore,
  storedCount,
  storedMediaCount,
  type RealStore,
} from '@replatform/connectors/woocommerce/real-store/real-stores';
import { WooRest } from '@replatform/connectors/woocommerce/real-store/store-rest';
import { withWordPress } from '@replatform/connectors/woocommerce/real-store/wordpress-password';
import { wooCommerceConnector } from '@replatform/connectors/woocommerce/woocommerce';
import type { Db } from '@replatform/db/database';
import { EngineRepository } from '@replatform/db/engine-repository';
import { MigrationsRepository } from '@replatform/db/migrations-repository';
import { openTestDatabase } from '@replatform/db/test-databases';
import { executeMigration, type ExecuteResult } from '@replatform/engine/execute';
import { executeUndo } from '@replatform/engine/undo';
import { redirectMap } from '@replatform/engine/redirect-map';
import { defaultRetryPolicy } from '@replatform/engine/retry';
import { verifyMigration } from '@replatform/engine/verification';
import { reportCsv } from '@replatform/engine/report';
import {
  changedFields,
  compareStores,
  internalFields,
  migrationMarkers,
  type IdMaps,
  type StoreComparison,
} from './compare-stores.ts';
import {
  differenceSummary,
  formatDifferences,
  formatFigures,
  judge,
  reportNames,
  type Verdict,
} from './report-check.ts';

/**
 * A WooCommerce store moved into an empty WooCommerce store, both real (WordPress 7.1 and
 * WooCommerce 11.0.1 from the test-store kit that .ci/run starts), through the engine's
 * executeMigration, the WooCommerce connector and the production egress-guarded client. Then the
 * two stores are compared field by field on WooCommerce's own fields (compare-stores.ts): every
 * difference must be one WooCommerce assigns itself and be named in the run's report; nothing may
 * fail; a second run must change nothing and create nothing. Runs once per source store
 * (WooCommerce's sample data, and the hard data of scripts/seed-woocommerce-store.ts) and prints
 * the figures: fields compared and equal per entity.
 */

const setup = realStoreSetup('TEST_WOO_MIGRATION_STORE');
const dataTypes = [
  'products',
  'coupons',
  'customers',
  'orders',
  'reviews',
  'brands',
  'pages',
  'posts',
];
const mapped: EntityType[] = [...entityTypes];

if (!setup.ready) {
  console.log(`Skipped: WooCommerce to WooCommerce on real stores (${setup.reason})`);
  describe.skip(`WooCommerce to WooCommerce on real stores (skipped: ${setup.reason})`, () => {
    it('migrates a real store into an empty one and compares them field by field', () => {});
  });
} else {
  const { sources, destination, kit } = setup;
  for (const source of sources) describeRealMigration(source, destination, kit);
  const first = sources[0];
  if (first) describeRealMappings(first, destination, kit);
}

function describeRealMigration(source: RealStore, destination: RealStore, kit: string): void {
  describe(`real WooCommerce '${source.name}' into an empty real WooCommerce (integration)`, () => {
    let db: Db;
    let repository: EngineRepository;
    let http: HttpClient;
    let migrationId: string;
    let first: ExecuteResult;
    let afterFirst: NativeSnapshot;
    /** The destination as it was before the first run, for undo. */
    let beforeFirst: NativeSnapshot;
    let countsBefore: Record<string, number>;
    let counts: Record<string, number>;

    const side = () => ({
      connection: wooCommerceConnector.connect(source.credentials, { http }),
      capabilities: wooCommerceConnector.capabilities,
    });
    const destinationSide = () => ({
      connection: wooCommerceConnector.connect(destination.credentials, { http }),
      capabilities: wooCommerceConnector.capabilities,
    });
    const run = () =>
      executeMigration({
        repository,
        migrationId,
        dataTypes,
        source: side(),
        destination: destinationSide(),
        verify: false,
      });

    /** Destination ids of the records the run linked (the destination's own), per entity. */
    const linked: Partial<Record<EntityType, Set<string>>> = {};

    /** Destination id -> source id, from the migration's id map. */
    async function idMaps(): Promise<IdMaps> {
      const maps = {} as IdMaps;
      for (const entity of mapped) {
        const map = new Map<string, string>();
        const own = new Set<string>();
        linked[entity] = own;
        for (let after: string | null = null; ;) {
          const rows = await repository.idMapPage(migrationId, entity, after, 1000);
          for (const row of rows) if (row.destinationId) map.set(row.destinationId, row.sourceId);
          for (const row of rows) if (row.destinationId && row.linked) own.add(row.destinationId);
          if (rows.length < 1000) break;
          after = rows[rows.length - 1]?.sourceId ?? null;
        }
        maps[entity as keyof IdMaps] = map;
      }
      return maps;
    }

    async function report(): Promise<string> {
      let csv = '';
      for await (const chunk of reportCsv(repository, migrationId)) csv += chunk;
      return csv;
    }

    async function storeCounts(store: RealStore): Promise<Record<string, number>> {
      const out: Record<string, number> = {};
      for (const entity of mapped) out[entity] = await storedCount(store, entity);
      out.media = await storedMediaCount(store);
      return out;
    }

    function print(title: string, comparison: StoreComparison, verdict: Verdict): void {
      const lines = [
        `\n${title}`,
        formatFigures(comparison.figures),
        `Differences WooCommerce assigns itself, named in the report: ${verdict.reported.length}`,
        differenceSummary(verdict.reported),
        `Differences WooCommerce assigns itself, NOT named in the report: ${verdict.unreported.length}`,
        differenceSummary(verdict.unreported),
        `Differences WooCommerce does not explain (lost or changed by the migration): ${verdict.unexpected.length}`,
        differenceSummary(verdict.unexpected),
        formatDifferences(verdict.unexpected),
      ];
      console.log(lines.join('\n'));
    }

    beforeAll(async () => {
      await resetStore(kit, destination);
      // Pages and posts are WordPress's: both stores are connected with an application
      // password, as an owner gives one on the connect form (a reset store forgets its own).
      source = await withWordPress(source);
      destination = await withWordPress(destination);
      db = await openTestDatabase('sqlite');
      repository = new EngineRepository(db);
      http = realStoreHttp([source, destination]);
      const migration = await new MigrationsRepository(db).create({
        userId: 'real-stores',
        email: 'real-stores@example.com',
        storeName: `${source.name} to ${destination.name}`,
      });
      migrationId = migration.id;
      beforeFirst = await new NativeReader(http, destination).snapshot();
      countsBefore = await storeCounts(destination);
      console.log(
        `Left out of the comparison as WooCommerce's own bookkeeping:\n${internalFields()
          .map((f) => `  ${f.entity}.${f.field}: ${f.reason}`)
          .join('\n')}\n  meta_data[] at the destination: ${migrationMarkers}`,
      );
    }, 180_000);
    afterAll(async () => {
      await http?.close();
      await db?.close();
    });

    it('migrates every record, and the stores differ only where WooCommerce assigns a value itself, each named in the report', async () => {
      const started = Date.now();
      first = await run();
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `First run '${source.name}' -> '${destination.name}': ${first.status} in ${seconds} s ${JSON.stringify(first.stats)}${first.message ? ` (${first.message})` : ''}`,
      );
      const csv = await report();
      const [sourceSnapshot, destinationSnapshot] = await Promise.all([
        new NativeReader(http, source).snapshot(),
        new NativeReader(http, destination).snapshot(),
      ]);
      afterFirst = destinationSnapshot;
      counts = await storeCounts(destination);
      const sourceCounts = await storeCounts(source);
      const comparison = compareStores(
        { origin: source.url, snapshot: sourceSnapshot },
        { origin: destination.url, snapshot: destinationSnapshot },
        await idMaps(),
        linked,
      );
      const names = reportNames(csv);
      console.log(`The run's notes on the import:\n${names.notes.map((n) => `  ${n}`).join('\n')}`);
      const verdict = judge(comparison, names);
      print(
        `Field-by-field comparison '${source.name}' -> '${destination.name}':`,
        comparison,
        verdict,
      );
      console.log(
        `Records stored (database counts) source ${JSON.stringify(sourceCounts)}, destination ${JSON.stringify(counts)}`,
      );
      // Everything is printed first, so a failing run still shows what it got wrong.
      expect(first.status, first.message).toBe('completed');
      const failed = Object.entries(first.stats).filter(([, s]) => s.failed > 0);
      expect(
        failed.map(([entity, s]) => `${entity}: ${s.failed} failed`),
        `failed records (report):\n${csv
          .split('\r\n')
          .filter((l) => l.includes(',failed,'))
          .join('\n')}`,
      ).toEqual([]);
      for (const entity of mapped)
        expect(counts[entity], `${entity} stored at the destination`).toBe(sourceCounts[entity]);
      expect(counts.media, 'media items stored at the destination').toBe(sourceCounts.media);
      expect(
        verdict.unexpected.map((d) => `${d.entity} ${d.record} ${d.field}`),
        'differences WooCommerce does not explain',
      ).toEqual([]);
      expect(
        verdict.unreported.map((d) => `${d.entity} ${d.record} ${d.field}`),
        'differences WooCommerce explains that the report does not name',
      ).toEqual([]);
    }, 1_800_000);

    it('runs again without changing or creating anything', async () => {
      expect(first?.status, 'the first run completed').toBe('completed');
      const second = await run();
      console.log(`Second run '${source.name}': ${second.status} ${JSON.stringify(second.stats)}`);
      expect(second.status, second.message).toBe('completed');
      for (const [entity, stats] of Object.entries(second.stats)) {
        expect(stats.failed, `${entity} failed`).toBe(0);
        expect(stats.migrated, `${entity} written again`).toBe(0);
      }
      expect(await storeCounts(destination), 'records stored').toEqual(counts);
      const changed = changedFields(
        afterFirst,
        await new NativeReader(http, destination).snapshot(),
      );
      expect(changed, 'fields the second run changed at the destination').toEqual([]);
    }, 1_800_000);

    it('pairs every product, category, page and post with its old and new address in the redirect map', async () => {
      expect(first?.status, 'the first run completed').toBe('completed');
      const verification = await verifyMigration({
        repository,
        migrationId,
        streams: (await repository.latestRun(migrationId))?.entities as EntityType[],
        source: side(),
        destination: destinationSide(),
        retry: defaultRetryPolicy,
        mode: 'full',
      });
      expect(verification.missing, 'records missing at the destination').toBe(0);
      let csv = '';
      for await (const chunk of redirectMap(repository, migrationId, 'csv')) csv += chunk;
      const rows = parse(csv, { columns: true }) as Record<string, string>[];
      const of = (type: string) => rows.filter((r) => r.type === type);
      console.log(
        `Redirect map '${source.name}': ${rows.length} records, ${rows.filter((r) => r.redirect === 'yes').length} to redirect; ${[...new Set(rows.map((r) => r.redirect))].join('; ')}`,
      );
      expect(of('product')).toHaveLength(counts.products ?? -1);
      expect(of('category')).toHaveLength(counts.categories ?? -1);
      expect(of('page')).toHaveLength(counts.pages ?? -1);
      expect(of('post')).toHaveLength(counts.posts ?? -1);
      // Every published record has its old and its new address; a draft has neither.
      for (const row of rows) {
        if (row.old_path) {
          expect(row.new_path, `${row.type} ${row.source_id}`).toMatch(/^\//);
          expect(row.redirect, `${row.type} ${row.source_id}`).toMatch(/^(yes|no: same address)$/);
        } else expect(row.redirect, `${row.type} ${row.source_id}`).toMatch(/not published/);
      }
    }, 1_800_000);

    it('undoes the migration: the destination is as it was before the first run, but for the product the owner edited since, which is kept and named', async () => {
      expect(first?.status, 'the first run completed').toBe('completed');
      // The owner renames one product the migration created, in the store's own admin (API).
      const created = (await repository.idMapPage(migrationId, 'products', null, 1000)).filter(
        (r) => r.destinationId && !r.linked,
      );
      const edited = created[0]?.destinationId;
      if (!edited) throw new Error('the run created no product');
      await new WooRest(destination).call('PUT', `products/${edited}`, {
        name: 'Renamed by the owner',
      });
      const started = Date.now();
      const undone = await executeUndo({
        repository,
        migrationId,
        destination: destinationSide(),
      });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `Undo '${source.name}' -> '${destination.name}': ${undone.status} in ${seconds} s ${JSON.stringify(undone.counts)}${undone.message ? ` (${undone.message})` : ''}`,
      );
      const rows = await repository.undoRecords(undone.runId);
      const notRemoved = rows.filter((r) => r.outcome === 'kept' || r.outcome === 'failed');
      console.log(
        `Kept or not removed:\n${notRemoved.map((r) => `  ${r.entity} ${r.sourceId} ${r.outcome}: ${r.reason ?? ''}`).join('\n')}`,
      );
      expect(undone.status, undone.message).toBe('completed');
      expect(rows.filter((r) => r.outcome === 'failed')).toEqual([]);
      // Kept: the edited product (named with its changed field), and what it uses: its
      // categories (and their parents), files and terms, each saying why.
      const leftRecords = notRemoved.filter((r) => r.entity !== 'assets');
      expect(
        leftRecords.filter((r) => r.entity === 'products').map((r) => r.destinationId),
      ).toEqual([edited]);
      for (const r of leftRecords.filter((r) => r.entity !== 'products'))
        expect(r.reason, `${r.entity} ${r.destinationId}`).toMatch(
          /^Kept: the (product|category) \d+ that stays in your store uses it\.$/,
        );
      const left = new Set(leftRecords.map((r) => `${r.entity} ${r.destinationId}`));
      expect(notRemoved.find((r) => r.entity === 'products')?.reason).toMatch(
        /changed in your store since the migration wrote it \(.*name.*\)/,
      );
      // The store holds what it held before the first run, and the edited product with what it
      // uses: nothing else the migration wrote is left, and nothing of the store's own is gone.
      const after = await new NativeReader(http, destination).snapshot();
      const keptProduct = after.products.find((p) => String(p.id) === edited);
      expect(keptProduct?.name).toBe('Renamed by the owner');
      const keptFiles = new Set(
        ((keptProduct?.images as { id: number }[] | undefined) ?? []).map((i) => String(i.id)),
      );
      const keptTerms = new Set(
        [
          ...((keptProduct?.categories as { id: number }[] | undefined) ?? []),
          ...((keptProduct?.tags as { id: number }[] | undefined) ?? []),
          ...((keptProduct?.brands as { id: number }[] | undefined) ?? []),
        ].map((t) => String(t.id)),
      );
      const keptAttributes = new Set(
        ((keptProduct?.attributes as { id: number }[] | undefined) ?? []).map((a) => String(a.id)),
      );
      const changed = changedFields(beforeFirst, after).filter((line) => {
        const [entity, id] = line.split(/[ .:[]/);
        if (left.has(`${entity} ${id}`)) return false;
        if (entity === 'media' && keptFiles.has(id ?? '')) return false;
        if (['categories', 'tags', 'brands'].includes(entity ?? '') && keptTerms.has(id ?? ''))
          return false;
        if (entity === 'attributes' && keptAttributes.has(id ?? '')) return false;
        // WordPress renders a page's blocks with the store's products of the moment (the Cart
        // page's "New in store"), which now show the kept product: rendered, not stored.
        if (entity === 'pages' && /^pages \d+\.content\.rendered:/.test(line)) return false;
        return true;
      });
      expect(changed, 'the destination differs from before the first run').toEqual([]);
      const countsAfter = await storeCounts(destination);
      console.log(
        `Records stored before the first run ${JSON.stringify(countsBefore)}, after undo ${JSON.stringify(countsAfter)}`,
      );
      expect(countsAfter.orders).toBe(countsBefore.orders);
      expect(countsAfter.customers).toBe(countsBefore.customers);
      expect(countsAfter.products).toBe((countsBefore.products ?? 0) + 1);
    }, 1_800_000);
  });
}

/**
 * The owner's choices on real stores, after the round trips, on the same destination (emptied
 * before each run and given back its currency at the end): a free demo migration of at most 10
 * records of each type (besides the customers and products its orders need), then the paid run, which writes the rest once, with the owner's mapping of
 * on-hold orders to processing; then a run that puts the standard tax class in the reduced rate
 * and converts every amount into a store that sells in euros, verified through both.
 */
function describeRealMappings(source: RealStore, destination: RealStore, kit: string): void {
  describe(`the owner's choices from real WooCommerce '${source.name}' (integration)`, () => {
    let db: Db;
    let http: HttpClient;
    let rest: WooRest;
    let currency: string | undefined;
    const connect = (store: RealStore) => ({
      connection: wooCommerceConnector.connect(store.credentials, { http }),
      capabilities: wooCommerceConnector.capabilities,
    });
    const newMigration = async (name: string) =>
      (
        await new MigrationsRepository(db).create({
          userId: 'real-stores',
          email: 'real-stores@example.com',
          storeName: `${source.name} ${name}`,
        })
      ).id;
    const readAll = async <E extends 'products' | 'orders'>(store: RealStore, entity: E) => {
      const out = [];
      for await (const page of connect(store).connection.read(entity, null))
        out.push(...page.records);
      return out;
    };
    beforeAll(async () => {
      db = await openTestDatabase('sqlite');
      http = realStoreHttp([source, destination]);
      rest = new WooRest(destination);
    }, 180_000);
    afterAll(async () => {
      if (currency)
        await rest?.call('PUT', 'settings/general/woocommerce_currency', { value: currency });
      await http?.close();
      await db?.close();
    });

    it('moves at most 10 of each type in a free demo (and the customers and products its orders need), then the rest once, with on-hold orders as processing', async () => {
      await resetStore(kit, destination);
      const repository = new EngineRepository(db);
      const migrationId = await newMigration('demo then paid');
      const dataTypes = ['products', 'customers', 'orders', 'coupons'];
      const mappings = { orderStatuses: { 'on-hold': 'processing' } } as const;
      const before = {
        products: await storedCount(destination, 'products'),
        customers: await storedCount(destination, 'customers'),
        orders: await storedCount(destination, 'orders'),
        coupons: await storedCount(destination, 'coupons'),
      };
      const run = (demo: boolean) =>
        executeMigration({
          repository,
          migrationId,
          dataTypes,
          source: connect(source),
          destination: connect(destination),
          mappings,
          ...(demo ? { demo: { limit: 10 } } : {}),
        });
      const demo = await run(true);
      expect(demo.status, demo.message).toBe('completed');
      const afterDemo = {
        orders: (await storedCount(destination, 'orders')) - before.orders,
        coupons: (await storedCount(destination, 'coupons')) - before.coupons,
        products: (await storedCount(destination, 'products')) - before.products,
        customers: (await storedCount(destination, 'customers')) - before.customers,
      };
      console.log(
        `Demo '${source.name}' -> '${destination.name}': written ${JSON.stringify(afterDemo)}, ${JSON.stringify(demo.stats)}`,
      );
      // At most 10 orders and coupons; products and customers: 10, and those the demo's
      // orders need.
      expect(afterDemo.orders).toBeLessThanOrEqual(10);
      expect(afterDemo.orders).toBeGreaterThan(0);
      expect(afterDemo.coupons).toBeLessThanOrEqual(10);
      for (const entity of ['orders', 'coupons'] as const)
        expect(demo.stats[entity]?.migrated ?? 0).toBeLessThanOrEqual(10);

      const full = await run(false);
      expect(full.status, full.message).toBe('completed');
      for (const [entity, stats] of Object.entries(full.stats))
        expect(stats.failed, `${entity} failed`).toBe(0);
      expect(full.verification?.status).toBe('passed');
      const sourceOrders = await readAll(source, 'orders');
      // Every record once: the destination holds exactly the source's, none twice.
      for (const entity of ['orders', 'products', 'customers', 'coupons'] as const)
        expect((await storedCount(destination, entity)) - before[entity], entity).toBe(
          await storedCount(source, entity),
        );
      // The owner's mapping: each on-hold order arrives as processing.
      const onHold = sourceOrders.filter((o) => o.status === 'on-hold');
      expect(onHold.length).toBeGreaterThan(0);
      const written = await readAll(destination, 'orders');
      for (const order of onHold) {
        const row = (await repository.idMapPage(migrationId, 'orders', null, 1000)).find(
          (r) => r.sourceId === order.id,
        );
        const copy = written.find((o) => o.id === row?.destinationId);
        expect(copy?.status, `order ${order.number}`).toBe('processing');
      }
      expect(written.filter((o) => o.status === 'on-hold')).toEqual([]);
      console.log(
        `Paid run after the demo: ${JSON.stringify(full.stats)}; ${onHold.length} on-hold orders arrived as processing`,
      );
    }, 1_800_000);

    it('puts the standard class in the reduced rate and converts every amount to euros, verified through both', async () => {
      await resetStore(kit, destination);
      currency = (
        await rest.call<{ value: string }>('GET', 'settings/general/woocommerce_currency')
      ).data.value;
      await rest.call('PUT', 'settings/general/woocommerce_currency', { value: 'EUR' });
      const from = connect(source);
      const to = connect(destination);
      const [a, b] = await Promise.all([from.connection.check(), to.connection.check()]);
      expect(b.currency).toBe('EUR');
      const classes = await to.connection.storeValues?.();
      expect(classes?.taxClasses?.values.map((v) => v.value)).toContain('reduced-rate');
      const repository = new EngineRepository(db);
      const started = Date.now();
      const result = await executeMigration({
        repository,
        migrationId: await newMigration('mapped'),
        dataTypes: ['products', 'customers', 'orders', 'coupons'],
        source: from,
        destination: to,
        mappings: {
          taxClasses: { '': 'reduced-rate' },
          currency: { from: a.currency ?? 'USD', to: 'EUR', mode: 'convert', rate: '0.9' },
        },
      });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const v = result.verification;
      console.log(
        `Mapped run '${source.name}' -> '${destination.name}' (standard class to reduced rate, ${a.currency ?? 'USD'} to EUR at 0.9): ${result.status} in ${seconds} s, ${JSON.stringify(result.stats)}; verification ${v?.status} (${v?.matched} matched, ${v?.mismatched} differ, of which ${v?.explained} named in the report, ${v?.missing} missing)`,
      );
      expect(result.status, result.message).toBe('completed');
      for (const [entity, stats] of Object.entries(result.stats))
        expect(stats.failed, `${entity} failed`).toBe(0);
      expect(v?.status).toBe('passed');
      expect(v?.missing).toBe(0);
      const products = await readAll(destination, 'products');
      expect(products.length).toBeGreaterThan(0);
      expect(products.every((p) => p.taxClass !== '')).toBe(true);
      const orders = await readAll(destination, 'orders');
      expect(orders.length).toBeGreaterThan(0);
      expect(orders.every((o) => o.currency === 'EUR')).toBe(true);
      expect(orders.every((o) => o.lines.every((l) => l.taxClass !== ''))).toBe(true);
    }, 1_800_000);
  });
}
