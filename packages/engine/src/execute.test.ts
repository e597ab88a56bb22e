import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entitySchemas, entityTypes, type EntityType } from '@replatform/canonical/entities';
import type { Db } from '@replatform/db/database';
import { EngineRepository } from '@replatform/db/engine-repository';
import { MigrationsRepository } from '@replatform/db/migrations-repository';
import { openTestDatabase, testDialects } from '@replatform/db/test-databases';
import { executeMigration, type ExecuteOptions } from './execute.ts';
import { reportCsv } from './report.ts';
import { redirectMap } from './redirect-map.ts';
import { verifyMigration } from './verification.ts';
import {
  MemoryStore,
  memoryConnection,
  sampleData,
  type MemoryConnectionOptions,
} from './testing/memory-store.ts';

const fast = { attempts: 4, baseDelayMs: 1, maxDelayMs: 5 };
const all = ['products', 'customers', 'orders'];

async function collect(iterable: AsyncIterable<Buffer | string>): Promise<string> {
  let text = '';
  for await (const chunk of iterable) text += chunk.toString();
  return text;
}

function reportLines(csv: string): string[][] {
  return csv
    .trim()
    .split('\r\n')
    .slice(1)
    .map((line) => line.split(','));
}

describe.each(testDialects())('migration engine on %s', (dialect) => {
  let db: Db;
  let repository: EngineRepository;
  let migrations: MigrationsRepository;
  let migrationId: string;

  beforeEach(async () => {
    db = await openTestDatabase(dialect);
    repository = new EngineRepository(db);
    migrations = new MigrationsRepository(db);
    migrationId = (await migrations.create({ userId: 'u1', email: 'u@x.io', storeName: 'S' })).id;
  });
  afterEach(async () => {
    await db.close();
  });

  function setup(
    counts: Parameters<typeof sampleData>[0] = { products: 23, customers: 11, orders: 17 },
    sourceOptions: MemoryConnectionOptions = {},
    destinationOptions: MemoryConnectionOptions = {},
  ) {
    const sourceStore = MemoryStore.seeded(sampleData(counts));
    const destinationStore = new MemoryStore();
    const options = (extra: Partial<ExecuteOptions> = {}): ExecuteOptions => ({
      repository,
      migrationId,
      dataTypes: all,
      source: memoryConnection(sourceStore, { pageSize: 7, ...sourceOptions }),
      destination: memoryConnection(destinationStore, { batchSize: 4, ...destinationOptions }),
      retry: fast,
      ...extra,
    });
    return { sourceStore, destinationStore, options };
  }

  it('migrates every record once, in dependency order, and accounts for each in the report', async () => {
    const { sourceStore, destinationStore, options } = setup();
    const progress: number[] = [];
    const result = await executeMigration(
      options({
        onProgress: (p) => progress.push(p.stats.products?.migrated ?? 0),
      }),
    );
    expect(result.status).toBe('completed');
    for (const entity of entityTypes) {
      expect(destinationStore.records[entity].size, entity).toBe(sourceStore.records[entity].size);
      for (const record of destinationStore.records[entity].values()) {
        expect(entitySchemas[entity].safeParse(record).success).toBe(true);
      }
    }
    // Parents were written before children although the source lists children first.
    for (const category of destinationStore.records.categories.values()) {
      if (category.parentId)
        expect(destinationStore.records.categories.has(category.parentId)).toBe(true);
    }
    for (const product of destinationStore.records.products.values()) {
      expect(product.categoryIds.length).toBe(1);
      expect(destinationStore.records.categories.has(product.categoryIds[0]!)).toBe(true);
    }
    for (const order of destinationStore.records.orders.values()) {
      expect(destinationStore.records.customers.has(order.customerId!)).toBe(true);
    }
    expect(progress.length).toBeGreaterThan(5);

    const migration = await migrations.findForUser(migrationId, 'u1');
    expect(migration).toMatchObject({
      status: 'completed',
      currentStep: 5,
      totalEntities: 51,
      migratedEntities: 51,
      entityCounts: { products: 23, customers: 11, orders: 17 },
      migrationStats: {
        products: { total: 23, migrated: 23, failed: 0 },
        customers: { total: 11, migrated: 11, failed: 0 },
        orders: { total: 17, migrated: 17, failed: 0 },
      },
    });
    expect(migration?.completedAt).toBeTruthy();
    // Only spec.md's data types: categories show in the run's stats and the report instead.
    expect(Object.keys(migration?.migrationStats ?? {}).sort()).toEqual([
      'customers',
      'orders',
      'products',
    ]);
    expect(result.stats.categories).toEqual({ total: 6, migrated: 6, skipped: 0, failed: 0 });

    const csv = await collect(reportCsv(repository, migrationId, 5));
    const lines = reportLines(csv);
    expect(lines).toHaveLength(57);
    expect(new Set(lines.map((l) => l[0]))).toEqual(
      new Set(['category', 'product', 'customer', 'order']),
    );
    expect(lines.every((l) => l[3] === 'migrated' && l[2] !== '')).toBe(true);

    expect(result.verification).toMatchObject({
      status: 'passed',
      matched: 57,
      mismatched: 0,
      missing: 0,
    });
  });

  it('migrates coupons after the products they are limited to, priced and counted like the others, and verifies their restrictions through the id map', async () => {
    const { sourceStore, destinationStore, options } = setup({
      products: 5,
      customers: 0,
      orders: 0,
      coupons: 6,
    });
    const result = await executeMigration(options({ dataTypes: ['coupons', 'products'] }));
    expect(result.status).toBe('completed');
    expect(destinationStore.records.coupons.size).toBe(6);
    const restricted = [...sourceStore.records.coupons.values()].filter((c) => c.productIds.length);
    expect(restricted.length).toBe(2);
    for (const coupon of restricted) {
      const copy = [...destinationStore.records.coupons.values()].find(
        (c) => c.code === coupon.code,
      );
      // The copy is limited to the destination's copy of the same product, never to all.
      expect(copy?.productIds).toHaveLength(1);
      const product = destinationStore.records.products.get(copy!.productIds[0]!);
      expect(product?.sku).toBe(sourceStore.records.products.get(coupon.productIds[0]!)?.sku);
    }
    const migration = await migrations.findForUser(migrationId, 'u1');
    expect(migration).toMatchObject({
      totalEntities: 11,
      migratedEntities: 11,
      migrationStats: {
        products: { total: 5, migrated: 5, failed: 0 },
        coupons: { total: 6, migrated: 6, failed: 0 },
      },
    });
    const lines = reportLines(await collect(reportCsv(repository, migrationId, 5)));
    expect(lines.filter((l) => l[0] === 'coupon')).toHaveLength(6);
    expect(result.verification).toMatchObject({ status: 'passed', mismatched: 0, missing: 0 });
    expect(result.verification?.entities.coupons).toMatchObject({ matched: 6 });
  });

  it('migrates reviews after their products and verifies that each belongs to the copy of its product', async () => {
    const { sourceStore, destinationStore, options } = setup({
      products: 4,
      customers: 2,
      orders: 2,
      reviews: 7,
    });
    const result = await executeMigration(
      options({ dataTypes: ['products', 'customers', 'orders', 'reviews'] }),
    );
    expect(result.status).toBe('completed');
    expect(destinationStore.records.reviews.size).toBe(7);
    for (const review of sourceStore.records.reviews.values()) {
      const copy = [...destinationStore.records.reviews.values()].find(
        (r) => r.reviewerName === review.reviewerName,
      );
      const product = destinationStore.records.products.get(copy!.productId);
      expect(product?.sku).toBe(sourceStore.records.products.get(review.productId)?.sku);
    }
    const migration = await migrations.findForUser(migrationId, 'u1');
    expect(migration?.migrationStats.reviews).toEqual({ total: 7, migrated: 7, failed: 0 });
    const lines = reportLines(await collect(reportCsv(repository, migrationId, 5)));
    expect(lines.filter((l) => l[0] === 'review')).toHaveLength(7);
    expect(result.verification).toMatchObject({ status: 'passed', mismatched: 0, missing: 0 });
    expect(result.verification?.entities.reviews).toMatchObject({ matched: 7 });
  });

  it('migrates brands before the products that name them, parents before their children, and skips them all on a re-run', async () => {
    const { sourceStore, destinationStore, options } = setup({
      products: 6,
      customers: 0,
      orders: 0,
      brands: 4,
    });
    // Brands come in child-first, so the engine must order the tree itself.
    const first = await executeMigration(options({ dataTypes: ['products', 'brands'] }));
    expect(first.status).toBe('completed');
    expect(destinationStore.records.brands.size).toBe(4);
    const copies = [...destinationStore.records.brands.values()];
    const child = copies.find((b) => b.name === 'Brand 3');
    const parent = copies.find((b) => b.name === 'Brand 1');
    expect(child?.parentId).toBe(parent?.id);
    // Products keep naming their brand, so each one's brand is at the destination.
    for (const product of destinationStore.records.products.values())
      expect(copies.map((b) => b.name)).toContain(product.vendor);
    const migration = await migrations.findForUser(migrationId, 'u1');
    expect(migration?.migrationStats.brands).toEqual({ total: 4, migrated: 4, failed: 0 });
    const lines = reportLines(await collect(reportCsv(repository, migrationId, 5)));
    expect(lines.filter((l) => l[0] === 'brand')).toHaveLength(4);
    expect(first.verification?.entities.brands).toMatchObject({ matched: 4 });
    expect(first.verification).toMatchObject({ status: 'passed', mismatched: 0, missing: 0 });
    // Each brand's page is in the redirect map, from its old address to its new one.
    const map = reportLines(await collect(redirectMap(repository, migrationId, 'csv', 5)));
    expect(map.filter((l) => l[0] === 'brand').map((l) => [l[3], l[4], l[5]])).toEqual(
      [1, 2, 3, 4].map((i) => [`/brand/brand-${i}/`, `/maker/brand-${i}/`, 'yes']),
    );

    const calls = destinationStore.writeCalls.brands;
    const second = await executeMigration(options({ dataTypes: ['products', 'brands'] }));
    expect(second.stats.brands).toMatchObject({ total: 4, skipped: 4, failed: 0 });
    expect(destinationStore.writeCalls.brands).toBe(calls);
    expect(sourceStore.records.brands.size).toBe(4);
  });

  it('migrates web pages parents first and blog posts on their own lane, both in the redirect map but a draft post, and skips them all on a re-run', async () => {
    const { destinationStore, options } = setup({
      products: 0,
      customers: 0,
      orders: 0,
      pages: 4,
      posts: 5,
    });
    const first = await executeMigration(options({ dataTypes: ['pages', 'posts'] }));
    expect(first.status).toBe('completed');
    expect(destinationStore.records.pages.size).toBe(4);
    expect(destinationStore.records.posts.size).toBe(5);
    const copies = [...destinationStore.records.pages.values()];
    const child = copies.find((p) => p.title === 'Page 3');
    expect(child?.parentId).toBe(copies.find((p) => p.title === 'Page 1')?.id);
    const migration = await migrations.findForUser(migrationId, 'u1');
    expect(migration?.migrationStats.pages).toEqual({ total: 4, migrated: 4, failed: 0 });
    expect(migration?.migrationStats.posts).toEqual({ total: 5, migrated: 5, failed: 0 });
    const lines = reportLines(await collect(reportCsv(repository, migrationId, 5)));
    expect(lines.filter((l) => l[0] === 'page')).toHaveLength(4);
    expect(lines.filter((l) => l[0] === 'post')).toHaveLength(5);
    expect(first.verification).toMatchObject({ status: 'passed', mismatched: 0, missing: 0 });
    expect(first.verification?.entities.posts).toMatchObject({ matched: 5 });
    const map = reportLines(await collect(redirectMap(repository, migrationId, 'csv', 5)));
    expect(map.filter((l) => l[0] === 'page').map((l) => [l[3], l[4], l[5]])).toEqual(
      [1, 2, 3, 4].map((i) => [`/page-${i}/`, `/page/page-${i}/`, 'yes']),
    );
    // The fourth post is a draft: no address at the source, so nothing to redirect.
    expect(map.filter((l) => l[0] === 'post').map((l) => l[5])).toEqual([
      'yes',
      'yes',
      'yes',
      'no: the source store gives it no address (not published)',
      'yes',
    ]);

    const calls = destinationStore.writeCalls.pages + destinationStore.writeCalls.posts;
    const second = await executeMigration(options({ dataTypes: ['pages', 'posts'] }));
    expect(second.stats.pages).toMatchObject({ total: 4, skipped: 4, failed: 0 });
    expect(second.stats.posts).toMatchObject({ total: 5, skipped: 5, failed: 0 });
    expect(destinationStore.writeCalls.pages + destinationStore.writeCalls.posts).toBe(calls);
  });

  it('leaves alone, in a recent-data run, what an earlier run wrote and the source has not changed since the chosen day', async () => {
    const { sourceStore, destinationStore, options } = setup({
      products: 4,
      customers: 0,
      orders: 0,
    });
    const first = await executeMigration(options({ dataTypes: ['products'] }));
    expect(first.status).toBe('completed');
    const [old, recent] = [...sourceStore.records.products.values()];
    // Both change at the source; only one of them after the chosen day.
    sourceStore.records.products.set(old!.id, {
      ...old!,
      name: 'Renamed long ago',
      updatedAt: '2026-03-01T10:00:00Z',
    });
    sourceStore.records.products.set(recent!.id, {
      ...recent!,
      name: 'Renamed this week',
      updatedAt: '2026-11-20T10:00:00Z',
    });
    const calls = destinationStore.writeCalls.products;
    const second = await executeMigration(
      options({ dataTypes: ['products'], changedSince: '2026-11-01' }),
    );
    expect(second.stats.products).toMatchObject({ total: 4, migrated: 1, skipped: 3, failed: 0 });
    expect(destinationStore.writeCalls.products).toBe(calls + 1);
    const names = [...destinationStore.records.products.values()].map((p) => p.name);
    expect(names).toContain('Renamed this week');
    expect(names).not.toContain('Renamed long ago');
    const rows = reportLines(await collect(reportCsv(repository, migrationId, 5)));
    expect(rows.find((l) => l[1] === old!.id)?.join(' ')).toMatch(
      /Not changed at the source since 2026-11-01/,
    );
    // The next run of everything finds the older change, which the recent-data run left.
    await executeMigration(options({ dataTypes: ['products'] }));
    expect([...destinationStore.records.products.values()].map((p) => p.name)).toContain(
      'Renamed long ago',
    );
  });

  it('moves a free demo of a few records per type, with what its orders and reviews name, leaving the migration as it was; the full run then writes the rest once', async () => {
    const { sourceStore, destinationStore, options } = setup({
      products: 23,
      customers: 11,
      orders: 17,
      coupons: 5,
      reviews: 9,
      brands: 6,
    });
    const dataTypes = ['products', 'customers', 'orders', 'coupons', 'reviews', 'brands'];
    const before = await migrations.findForUser(migrationId, 'u1');
    // Verified by reading both stores in full (a destination that reads nothing by id): the
    // records the demo left at the source are not missing.
    const demo = await executeMigration(
      options({ dataTypes, demo: { limit: 3 }, verifyMode: 'full' }),
    );
    expect(demo.status).toBe('completed');
    expect(demo.verification).toMatchObject({ status: 'passed', mismatched: 0, missing: 0 });
    expect(demo.verification?.entities.orders).toMatchObject({ source: 3, matched: 3 });
    const at = destinationStore.records;
    expect(at.orders.size).toBe(3);
    expect(at.reviews.size).toBe(3);
    expect(at.coupons.size).toBe(3);
    expect(at.brands.size).toBe(3);
    // Every category comes (products need theirs); every order's customer and products, and
    // every review's product, are there besides the first three of each.
    expect(at.categories.size).toBe(sourceStore.records.categories.size);
    const skus = new Set([...at.products.values()].map((p) => p.sku));
    const emails = new Set([...at.customers.values()].map((c) => c.email));
    for (const order of at.orders.values()) {
      if (order.customerId) expect(at.customers.has(order.customerId)).toBe(true);
      for (const line of order.lines) if (line.sku) expect(skus.has(line.sku)).toBe(true);
    }
    for (const review of at.reviews.values()) expect(at.products.has(review.productId)).toBe(true);
    expect(skus.size).toBeGreaterThanOrEqual(3);
    expect(skus.size).toBeLessThan(sourceStore.records.products.size);
    expect(emails.size).toBeLessThan(sourceStore.records.customers.size);
    // The migration is where it was: same status, step and progress; the demo has its own run.
    const after = await migrations.findForUser(migrationId, 'u1');
    expect(after).toMatchObject({
      status: before?.status,
      currentStep: before?.currentStep,
      migrationStats: before?.migrationStats,
    });
    expect(await repository.latestRun(migrationId)).toBeUndefined();
    const demoRun = await repository.latestRun(migrationId, 'demo');
    expect(demoRun).toMatchObject({ kind: 'demo', status: 'completed', phase: 'done' });
    expect(demoRun?.stats?.orders).toMatchObject({ total: 3, migrated: 3, failed: 0 });

    // The paid migration writes the rest, and none of the demo's records a second time.
    const created = () => Object.values(destinationStore.writeCalls).reduce((a, b) => a + b, 0);
    const demoWrites = created();
    const full = await executeMigration(options({ dataTypes }));
    expect(full.status).toBe('completed');
    expect(full.verification).toMatchObject({ status: 'passed', mismatched: 0, missing: 0 });
    for (const entity of entityTypes)
      expect(at[entity].size, entity).toBe(sourceStore.records[entity].size);
    expect(full.stats.orders).toMatchObject({ total: 17, skipped: 3, migrated: 14 });
    expect(created()).toBeGreaterThan(demoWrites);
    expect((await migrations.findForUser(migrationId, 'u1'))?.status).toBe('completed');
  });

  it('fails a review whose product was not migrated, with the reason, without asking the destination, and writes it once its product is there', async () => {
    const { destinationStore, options } = setup({
      products: 3,
      customers: 0,
      orders: 0,
      reviews: 5,
    });
    const first = await executeMigration(options({ dataTypes: ['reviews'] }));
    expect(first.stats.reviews).toMatchObject({ total: 5, migrated: 0, failed: 5 });
    expect(destinationStore.writeCalls.reviews).toBe(0);
    const lines = reportLines(await collect(reportCsv(repository, migrationId, 5)));
    const failed = lines.filter((l) => l[0] === 'review');
    expect(failed).toHaveLength(5);
    expect(failed.every((l) => l[3] === 'failed' && /was not migrated/.test(l[4] ?? ''))).toBe(
      true,
    );

    const second = await executeMigration(options({ dataTypes: ['products', 'reviews'] }));
    expect(second.status).toBe('completed');
    expect(second.stats.reviews).toMatchObject({ total: 5, migrated: 5, failed: 0 });
    expect(destinationStore.records.reviews.size).toBe(5);
  });

  it("never changes the merchant's own record it linked to, whatever the source holds later", async () => {
    const { sourceStore, destinationStore, options } = setup(
      { products: 3, customers: 0, orders: 0 },
      {},
      {
        merchantOwn: (entity, record) =>
          entity === 'products' && (record as { sku: string }).sku === 'P2' ? 'm1' : undefined,
      },
    );
    const merchant = structuredClone(sourceStore.records.products.get('2')!);
    destinationStore.records.products.set('m1', { ...merchant, id: 'm1', name: 'Merchant tee' });
    const first = await executeMigration(options({ dataTypes: ['products'] }));
    expect(first.stats.products).toMatchObject({ migrated: 2, skipped: 1, failed: 0 });
    // The source's product changes; the next run would write it, but it is the merchant's.
    sourceStore.records.products.get('2')!.name = 'Renamed at the source';
    const writesBefore = destinationStore.writeCalls.products;
    const second = await executeMigration(options({ dataTypes: ['products'] }));
    expect(second.stats.products).toMatchObject({ migrated: 0, skipped: 3, failed: 0 });
    expect(destinationStore.writeCalls.products).toBe(writesBefore);
    expect(destinationStore.records.products.get('m1')?.name).toBe('Merchant tee');
    const row = reportLines(await collect(reportCsv(repository, migrationId, 5))).find(
      (l) => l[0] === 'product' && l[1] === '2',
    );
    expect(row?.[2]).toBe('m1');
    expect(row?.[3]).toBe('skipped');
    expect(row?.[4]).toMatch(/The merchant already has this record/);
  });

  it('applies the owner’s order-status mapping to every such order, verifies through it, says so in the report, and writes the orders again when the mapping changes', async () => {
    const { sourceStore, destinationStore, options } = setup({
      products: 3,
      customers: 2,
      orders: 6,
    });
    for (const id of ['2', '4', '6']) sourceStore.records.orders.get(id)!.status = 'on-hold';
    const mappings = {
      orderStatuses: { 'on-hold': 'processing', completed: 'completed' },
    } as const;
    const first = await executeMigration(options({ mappings }));
    expect(first.status).toBe('completed');
    const statuses = () =>
      [...destinationStore.records.orders.values()].map((o) => o.status).sort();
    expect(statuses()).toEqual([
      'completed',
      'completed',
      'completed',
      'processing',
      'processing',
      'processing',
    ]);
    // The source keeps its own statuses; the comparison goes through the mapping.
    expect(sourceStore.records.orders.get('2')?.status).toBe('on-hold');
    expect(first.verification).toMatchObject({ status: 'passed', mismatched: 0 });
    expect(first.notes).toEqual(['Order statuses mapped as you chose: On hold → Processing.']);
    const lines = reportLines(await collect(reportCsv(repository, migrationId)));
    expect(lines[0]).toEqual([
      'import',
      '',
      '',
      'note',
      'Order statuses mapped as you chose: On hold → Processing.',
      '',
    ]);

    // Unchanged mapping: nothing to write. Mapping removed: exactly the mapped orders again.
    const writes = () => destinationStore.writeCalls.orders;
    const before = writes();
    expect((await executeMigration(options({ mappings }))).stats.orders).toMatchObject({
      skipped: 6,
    });
    expect(writes()).toBe(before);
    const third = await executeMigration(options({ mappings: {} }));
    expect(third.stats.orders).toMatchObject({ migrated: 3, skipped: 3 });
    expect(statuses().filter((s) => s === 'on-hold')).toHaveLength(3);
    expect(third.verification).toMatchObject({ status: 'passed', mismatched: 0 });
  });

  it('writes customer groups, tax classes and amounts through the owner’s mappings and verifies through them', async () => {
    const { sourceStore, destinationStore, options } = setup({
      products: 2,
      customers: 2,
      orders: 2,
    });
    sourceStore.records.customers.get('1')!.group = 'wholesale_customer';
    const product = sourceStore.records.products.get('1')!;
    product.taxClass = 'reduced-rate';
    const price = product.variants[0]!.price;
    const order = sourceStore.records.orders.get('1')!;
    order.lines[0]!.taxClass = 'reduced-rate';
    const mappings = {
      customerGroups: { wholesale_customer: 'Wholesale' },
      taxClasses: { 'reduced-rate': 'Reduced Rate' },
      currency: { from: 'USD', to: 'EUR', mode: 'convert', rate: '0.5' },
    } as const;
    const run = await executeMigration(options({ mappings }));
    expect(run.status).toBe('completed');
    expect(run.verification).toMatchObject({ status: 'passed', mismatched: 0 });
    const written = (entity: 'customers' | 'products' | 'orders', id: string) =>
      [...destinationStore.records[entity].values()].find((r) =>
        [...destinationStore.markers[entity]].some(([s, d]) => s === id && d === r.id),
      );
    expect((written('customers', '1') as { group: string } | undefined)?.group).toBe('Wholesale');
    const copy = written('products', '1') as typeof product | undefined;
    expect(copy?.taxClass).toBe('Reduced Rate');
    expect(copy?.variants[0]?.price).toEqual({
      amount: Math.round(price.amount / 2),
      currency: 'EUR',
    });
    const orderCopy = written('orders', '1') as typeof order | undefined;
    expect(orderCopy?.currency).toBe('EUR');
    expect(orderCopy?.lines[0]?.taxClass).toBe('Reduced Rate');
    // The source keeps its own values.
    expect(sourceStore.records.customers.get('1')?.group).toBe('wholesale_customer');
    expect(order.currency).toBe('USD');
    expect(run.notes).toEqual([
      "Customer groups mapped as you chose: 'wholesale_customer' → 'Wholesale'.",
      "Tax classes mapped as you chose: 'reduced-rate' → 'Reduced Rate'.",
      'Amounts in USD converted to EUR at 0.5 EUR for 1 USD.',
    ]);
  });

  it('skips unchanged records on a re-run without calling the destination, and sends changed ones', async () => {
    const { sourceStore, destinationStore, options } = setup();
    expect((await executeMigration(options())).status).toBe('completed');
    const calls = { ...destinationStore.writeCalls };
    const changed = sourceStore.records.products.get('5')!;
    sourceStore.records.products.set('5', { ...changed, name: 'Renamed product' });

    const again = await executeMigration(options());
    expect(again.status).toBe('completed');
    expect(destinationStore.writeCalls.products).toBe(calls.products + 1);
    for (const entity of ['categories', 'customers', 'orders'] as const)
      expect(destinationStore.writeCalls[entity]).toBe(calls[entity]);
    expect(destinationStore.records.products.size).toBe(23);
    const renamed = [...destinationStore.records.products.values()].filter(
      (p) => p.name === 'Renamed product',
    );
    expect(renamed).toHaveLength(1);

    const lines = reportLines(await collect(reportCsv(repository, migrationId)));
    expect(lines.filter((l) => l[3] === 'migrated')).toHaveLength(1);
    expect(lines.filter((l) => l[3] === 'skipped')).toHaveLength(56);
    const migration = await migrations.findForUser(migrationId, 'u1');
    expect(migration?.migrationStats.products).toEqual({ total: 23, migrated: 23, failed: 0 });
  });

  it('writes a record left incomplete again on the next run, and skips it once it is whole', async () => {
    let imagesFail = true;
    const { sourceStore, destinationStore, options } = setup(
      { products: 12, customers: 2, orders: 2 },
      {},
      {
        incomplete: (entity, record) =>
          imagesFail && entity === 'products' && Number(record.id) % 4 === 0
            ? `image ${record.id}.png could not be downloaded by the store`
            : undefined,
      },
    );
    const first = await executeMigration(options());
    expect(first.status).toBe('completed');
    expect(destinationStore.records.products.size).toBe(12);
    // The destination lacks the images of 4, 8 and 12: the verification says so.
    expect(first.verification).toMatchObject({ status: 'mismatches', mismatched: 3 });
    const partial = reportLines(await collect(reportCsv(repository, migrationId))).filter(
      (l) => l[0] === 'product' && ['4', '8', '12'].includes(l[1] ?? ''),
    );
    expect(partial.map((l) => l[3])).toEqual(['migrated', 'migrated', 'migrated']);
    expect(partial[0]?.[4]).toMatch(/could not be downloaded.*written again on the next run/);

    // Still failing: written again (not skipped as unchanged), still incomplete; one write per
    // batch of 4 that holds one of them.
    const calls = destinationStore.writeCalls.products;
    const second = await executeMigration(options());
    expect(destinationStore.writeCalls.products).toBe(calls + 3);
    expect(second.stats.products).toMatchObject({ migrated: 3, skipped: 9 });

    // The store can fetch them now: written once more, whole, and then left alone.
    imagesFail = false;
    const third = await executeMigration(options());
    expect(third.stats.products).toMatchObject({ migrated: 3, skipped: 9 });
    expect(third.verification).toMatchObject({ status: 'passed', mismatched: 0 });
    const fourth = await executeMigration(options());
    expect(fourth.stats.products).toMatchObject({ migrated: 0, skipped: 12 });
    expect(destinationStore.records.products.size).toBe(sourceStore.records.products.size);
  });

  it('keeps what the destination did around the import on the run, in the report and the result', async () => {
    const logged: string[] = [];
    const usage = { unit: 'requests' as const, usedPerSecond: 4.5, availablePerSecond: 5 };
    const { options } = setup(
      { products: 3, customers: 2, orders: 1 },
      {},
      {
        importNotes: {
          prepare: ['Customer e-mails switched off for the import.'],
          finish: ['Customer e-mails restored.'],
        },
        rateUsage: () => ({ ...usage, throttled: 0 }),
      },
    );
    const result = await executeMigration(options({ log: (message) => logged.push(message) }));
    expect(result.notes).toEqual([
      'Customer e-mails switched off for the import.',
      'Customer e-mails restored.',
    ]);
    expect(result.rateUsage?.destination).toMatchObject({ usedPerSecond: 4.5, throttled: 0 });
    expect(result.rateUsage?.source).toBeUndefined();
    expect(logged).toContain(
      'destination rate-limit use: 4.5 of 5.0 requests/s used (90 %), 0 throttled',
    );
    expect((await repository.latestRun(migrationId))?.notes).toEqual(result.notes);
    const lines = reportLines(await collect(reportCsv(repository, migrationId)));
    expect(lines.slice(0, 2)).toEqual([
      ['import', '', '', 'note', 'Customer e-mails switched off for the import.', ''],
      ['import', '', '', 'note', 'Customer e-mails restored.', ''],
    ]);
  });

  it('prepares the destination only before a first write, telling it whether the run starts afresh, and keeps batches within maxBatch', async () => {
    const { destinationStore, options } = setup({ products: 9, customers: 2, orders: 1 });
    const prepared: (boolean | undefined)[] = [];
    const finished: number[] = [];
    const base = options();
    const destination = {
      ...base.destination,
      connection: {
        ...base.destination.connection,
        prepareImport: async (o?: { resumed?: boolean }) => {
          prepared.push(o?.resumed);
          return [];
        },
        finishImport: async () => {
          finished.push(1);
          return [];
        },
      },
    };
    const sizes: number[] = [];
    const write = destination.connection.write.bind(destination.connection);
    destination.connection.write = (entity, records, idMap) => {
      if (entity === 'products') sizes.push(records.length);
      return write(entity, records, idMap);
    };
    expect((await executeMigration({ ...base, destination, maxBatch: 3 })).status).toBe(
      'completed',
    );
    expect(prepared).toEqual([false]);
    expect(finished).toEqual([1]);
    expect(sizes).toEqual([3, 3, 3]);
    // Nothing changed: a re-run neither writes nor prepares the store for writing.
    const calls = { ...destinationStore.writeCalls };
    expect((await executeMigration({ ...base, destination })).status).toBe('completed');
    expect(destinationStore.writeCalls).toEqual(calls);
    expect(prepared).toEqual([false]);
    expect(finished).toEqual([1]);
  });

  it('keeps the first outcome and warnings of a product written again only to link it, when the destination has nothing more to change', async () => {
    const data = sampleData({ products: 4, customers: 0, orders: 0 });
    const [first] = data.products;
    first!.upsellIds = [data.products[3]!.id];
    const inner = memoryConnection(new MemoryStore(), { batchSize: 2 });
    // Like a destination that checks a product it already holds and finds nothing to change.
    const destination = {
      ...inner,
      connection: {
        ...inner.connection,
        write: async (...args: Parameters<typeof inner.connection.write>) => {
          const [entity, records, idMap] = args;
          const known = records.filter((r) => idMap.get(entity, r.id));
          const outcomes = await inner.connection.write(
            entity,
            records.filter((r) => !known.includes(r)),
            idMap,
          );
          return [
            ...outcomes.map((o) => ({ ...o, warnings: ['Up-sells are not kept (upsellIds).'] })),
            ...known.map((r) => ({
              sourceId: r.id,
              outcome: 'skipped' as const,
              destinationId: idMap.get(entity, r.id),
              reason: 'Already migrated.',
            })),
          ];
        },
      },
    };
    const result = await executeMigration({
      repository,
      migrationId,
      dataTypes: ['products'],
      source: memoryConnection(MemoryStore.seeded(data), { pageSize: 2 }),
      destination,
      retry: fast,
    });
    expect(result.status).toBe('completed');
    expect(result.stats.products).toMatchObject({ migrated: 4, failed: 0 });
    const entry = (await repository.lookup(migrationId, 'products', [first!.id])).get(first!.id);
    expect(entry?.reason).toMatch(/upsellIds/);
    // Its content hash is kept too: a second run finds nothing to write.
    expect(entry?.contentHash).not.toBeNull();
    const again = await executeMigration({
      repository,
      migrationId,
      dataTypes: ['products'],
      source: memoryConnection(MemoryStore.seeded(data), { pageSize: 2 }),
      destination,
      retry: fast,
    });
    expect(again.stats.products).toMatchObject({ migrated: 0, skipped: 4, failed: 0 });
  });

  it('names each field the destination cannot hold, record by record, and links products written before what they point at', async () => {
    const data = sampleData({ products: 12, customers: 0, orders: 0 });
    const [first, second, third] = data.products;
    // The first product points at the last ones, which come later in the stream.
    first!.upsellIds = [data.products[11]!.id];
    first!.groupedProductIds = [data.products[10]!.id];
    first!.featured = true;
    second!.featured = true;
    third!.visibility = 'visible';
    const sourceStore = MemoryStore.seeded(data);
    const destinationStore = new MemoryStore();
    const featured = 'This platform has no featured products.';
    const result = await executeMigration({
      repository,
      migrationId,
      dataTypes: ['products'],
      source: memoryConnection(sourceStore, { pageSize: 3 }),
      destination: memoryConnection(destinationStore, {
        batchSize: 2,
        destinationFields: {
          products: { unsupported: { featured, visibility: 'No visibility settings.' } },
        },
      }),
      retry: fast,
    });
    expect(result.status).toBe('completed');
    const written = [...destinationStore.records.products.values()].find(
      (p) => p.name === first!.name,
    );
    const idOf = async (sourceId: string) =>
      (await repository.lookup(migrationId, 'products', [sourceId])).get(sourceId)?.destinationId;
    expect(written?.upsellIds).toEqual([await idOf(data.products[11]!.id)]);
    expect(written?.groupedProductIds).toEqual([await idOf(data.products[10]!.id)]);
    expect(result.verification?.status).toBe('passed');
    expect(result.verification?.knownDifferences).toEqual([
      { entity: 'products', field: 'featured', reason: featured, records: 2 },
    ]);
    const lines = reportLines(await collect(reportCsv(repository, migrationId)));
    const line = (id: string) => lines.find((l) => l[0] === 'product' && l[1] === id);
    expect(line(first!.id)?.[5]).toBe(`featured: ${featured}`);
    expect(line(third!.id)?.[5]).toBe('');
    // Nothing changed: a second run writes nothing, the links stay.
    const again = await executeMigration({
      repository,
      migrationId,
      dataTypes: ['products'],
      source: memoryConnection(sourceStore, { pageSize: 3 }),
      destination: memoryConnection(destinationStore, { batchSize: 2 }),
      retry: fast,
    });
    expect(again.stats.products).toMatchObject({ migrated: 0, skipped: 12, failed: 0 });
  });

  it('counts a difference the record’s report row names as known, and any other as a mismatch', async () => {
    const data = sampleData({ products: 0, customers: 4, orders: 0 });
    const [shortened, tampered] = data.customers;
    const sourceStore = MemoryStore.seeded(data);
    const destinationStore = new MemoryStore();
    const inner = memoryConnection(destinationStore);
    // Like a destination that shortens one customer's last name and says so for that record.
    const destination = {
      ...inner,
      connection: {
        ...inner.connection,
        write: async (...args: Parameters<typeof inner.connection.write>) =>
          (await inner.connection.write(...args)).map((o) =>
            o.sourceId === shortened!.id
              ? { ...o, warnings: ['The last name was cut to 3 letters (lastName).'] }
              : o,
          ),
      },
    };
    const result = await executeMigration({
      repository,
      migrationId,
      dataTypes: ['customers'],
      source: memoryConnection(sourceStore),
      destination,
      retry: fast,
      verify: false,
    });
    expect(result.status).toBe('completed');
    const destinationOf = async (sourceId: string) =>
      destinationStore.records.customers.get(
        (await repository.lookup(migrationId, 'customers', [sourceId])).get(sourceId)!
          .destinationId!,
      )!;
    (await destinationOf(shortened!.id)).lastName = 'Hop';
    const verify = () =>
      verifyMigration({
        repository,
        migrationId,
        streams: ['customers'],
        source: memoryConnection(sourceStore),
        destination: memoryConnection(destinationStore),
        retry: fast,
      });
    const named = await verify();
    expect(named).toMatchObject({ status: 'passed', mismatched: 1, explained: 1, matched: 3 });
    expect(named.namedDifferences).toEqual([
      { entity: 'customers', field: 'lastName', records: 1 },
    ]);
    expect(named.examples.mismatched[0]?.namedInReport).toMatch(/lastName/);
    // A re-run skips the unchanged record, and its report row still says what was not carried.
    const again = await executeMigration({
      repository,
      migrationId,
      dataTypes: ['customers'],
      source: memoryConnection(sourceStore),
      destination,
      retry: fast,
      verify: false,
    });
    expect(again.stats.customers).toMatchObject({ migrated: 0, skipped: 4 });
    const row = (await repository.lookup(migrationId, 'customers', [shortened!.id])).get(
      shortened!.id,
    );
    expect(row?.reason).toBe(
      'Unchanged since the last run; not sent again. Not carried over: The last name was cut to 3 letters (lastName).',
    );
    expect(await verify()).toMatchObject({ status: 'passed', mismatched: 1, explained: 1 });
    // The same kind of change on a record whose report says nothing is a mismatch.
    (await destinationOf(tampered!.id)).lastName = 'Hop';
    const silent = await verify();
    expect(silent).toMatchObject({ status: 'mismatches', mismatched: 2, explained: 1 });
  });

  it('verifies what a run wrote by id, plus a sample of the rest, without reading either store in full', async () => {
    const events: string[] = [];
    const { sourceStore, destinationStore, options } = setup(
      { products: 40, customers: 30, orders: 0 },
      { trace: (e) => events.push(e) },
      { trace: (e) => events.push(e) },
    );
    const first = await executeMigration(options({ dataTypes: ['products', 'customers'] }));
    expect(first.verification).toMatchObject({
      status: 'passed',
      mode: 'incremental',
      matched: 76,
    });
    // A re-run where two customers changed: both are checked, with a sample of 25 untouched ones.
    const changed = [...sourceStore.records.customers.values()].slice(0, 2);
    for (const customer of changed) customer.firstName = 'Grace';
    events.length = 0;
    const again = await executeMigration(
      options({ dataTypes: ['products', 'customers'], verifyMode: 'incremental' }),
    );
    expect(again.stats.customers).toMatchObject({ migrated: 2, skipped: 28 });
    expect(again.verification?.entities.customers).toMatchObject({ source: 27, matched: 27 });
    expect(again.verification?.entities.products).toMatchObject({ source: 25, matched: 25 });
    const verifyReads = events.filter((e) => e.startsWith('read:') && e.endsWith(':start'));
    // The migrate phase reads the source; verification adds no page read of either store.
    expect(verifyReads.length).toBe(events.filter((e) => e.startsWith('read:')).length / 2);
    expect(events.some((e) => e.startsWith('readByIds:customers'))).toBe(true);
    // A record the run wrote that differs at the destination is caught.
    const ids = await repository.lookup(migrationId, 'customers', [changed[0]!.id]);
    const written = destinationStore.records.customers.get(ids.get(changed[0]!.id)!.destinationId!);
    written!.lastName = 'Hopper';
    const tampered = await verifyMigration({
      repository,
      migrationId,
      streams: ['customers'],
      source: memoryConnection(sourceStore),
      destination: memoryConnection(destinationStore),
      retry: fast,
      mode: 'incremental',
      runId: again.runId,
    });
    expect(tampered).toMatchObject({ status: 'mismatches', mismatched: 1, mode: 'incremental' });
    expect(tampered.examples.mismatched[0]?.fields).toEqual(['lastName']);
    written!.lastName = changed[0]!.lastName;
    // Asked for, both stores are read again in full.
    const full = await executeMigration(
      options({ dataTypes: ['products', 'customers'], verifyMode: 'full' }),
    );
    expect(full.verification).toMatchObject({ status: 'passed', mode: 'full' });
  });

  it('waits for a destination that goes down mid-run and finishes by itself when it is back', async () => {
    let writes = 0;
    let downUntil = 0;
    const { sourceStore, destinationStore, options } = setup(
      { products: 30, customers: 10, orders: 10 },
      {},
      {
        down: () => {
          writes += 1;
          // Down for 300 ms just after the first records arrived.
          if (writes === 6) downUntil = Date.now() + 300;
          return Date.now() < downUntil;
        },
      },
    );
    const outages: (string | null)[] = [];
    const result = await executeMigration(
      options({
        retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5, outageMs: 5_000, probeMaxDelayMs: 40 },
        onOutage: (o) => outages.push(o ? `${o.side} ${o.reason}` : null),
      }),
    );
    expect(result.status).toBe('completed');
    expect(outages[0]).toBe('destination The store answered 502 Bad Gateway');
    expect(outages.at(-1)).toBeNull();
    for (const entity of entityTypes)
      expect(destinationStore.records[entity].size, entity).toBe(sourceStore.records[entity].size);
    expect(Object.values(result.stats).every((s) => s?.failed === 0)).toBe(true);
    const run = await repository.latestRun(migrationId);
    expect(run?.waiting).toBeNull();
    expect(run?.samples.length).toBeGreaterThan(0);
    expect(run?.samples.at(-1)?.[1]).toBe(56);
  });

  it('gives up on a store that stays down longer than the outage window', async () => {
    const { options } = setup({ products: 5, customers: 0, orders: 0 }, {}, { down: () => true });
    const result = await executeMigration(
      options({
        dataTypes: ['products'],
        retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5, outageMs: 150, probeMaxDelayMs: 20 },
      }),
    );
    expect(result).toMatchObject({ status: 'failed', code: 'store_unavailable' });
    expect((await repository.latestRun(migrationId))?.waiting).toBeNull();
  });

  it('reads the next source page while the previous batch is being written', async () => {
    const events: string[] = [];
    const { options } = setup(
      { products: 40, customers: 0, orders: 0 },
      { pageSize: 8, delayMs: 5, trace: (e) => events.push(e) },
      { batchSize: 8, delayMs: 30, trace: (e) => events.push(e) },
    );
    const result = await executeMigration(options({ dataTypes: ['products'], concurrency: 1 }));
    expect(result.status).toBe('completed');
    // One write at a time, and each waits for the one before: meanwhile the read-ahead has
    // already fetched the page after the batch being written. Without it, a page would only be
    // read once the batch before it was on its way.
    let read = 0;
    let written = 0;
    let ahead = 0;
    for (const event of events) {
      if (event === 'read:products:end') read += 1;
      if (event === 'write:products:start' && read > ++written) ahead += 1;
    }
    expect(written).toBe(5);
    expect(ahead).toBeGreaterThanOrEqual(3);
  });

  it('resumes an interrupted run from its checkpoints without duplicates', async () => {
    const { sourceStore, destinationStore, options } = setup({
      products: 60,
      customers: 20,
      orders: 30,
    });
    let interruptions = 0;
    let verifyInterrupted = false;
    for (let round = 0; round < 60; round++) {
      const controller = new AbortController();
      let batches = 0;
      const result = await executeMigration(
        options({
          signal: controller.signal,
          onProgress: (p) => {
            if (p.phase === 'migrate' && ++batches === 3) controller.abort();
            // Once, interrupt the verification too: it starts over on the next call.
            if (p.phase === 'verify' && !verifyInterrupted) {
              verifyInterrupted = true;
              controller.abort();
            }
          },
        }),
      );
      if (result.status === 'completed') break;
      expect(result.status).toBe('interrupted');
      interruptions += 1;
    }
    expect(interruptions).toBeGreaterThan(5);
    expect(verifyInterrupted).toBe(true);
    for (const entity of entityTypes) {
      expect(destinationStore.records[entity].size, entity).toBe(sourceStore.records[entity].size);
    }
    const lines = reportLines(await collect(reportCsv(repository, migrationId)));
    expect(lines).toHaveLength(6 + 60 + 20 + 30);
    expect(lines.every((l) => l[3] !== 'failed')).toBe(true);
    const run = await repository.latestRun(migrationId);
    expect(run).toMatchObject({ status: 'completed', phase: 'done' });
    expect((run?.verification as { status: string }).status).toBe('passed');
  });

  it('survives transient faults, including writes that fail half-way, with no duplicate', async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const { sourceStore, destinationStore, options } = setup(
      { products: 40, customers: 15, orders: 20 },
      { transientReadRate: 0.2, random },
      { transientWriteRate: 0.3, random },
    );
    const result = await executeMigration(options({ retry: { ...fast, attempts: 12 } }));
    expect(result.status).toBe('completed');
    for (const entity of entityTypes) {
      expect(destinationStore.records[entity].size, entity).toBe(sourceStore.records[entity].size);
    }
    expect(result.verification?.status).toBe('passed');
  });

  it('writes a record that points at one that failed again on the next run, and links it once that one is there', async () => {
    const counts = { products: 6, customers: 3, orders: 8 };
    const data = sampleData(counts);
    const linked = data.orders.find((o) => o.customerId)!;
    const customerId = linked.customerId!;
    const pointing = data.orders.filter((o) => o.customerId === customerId).length;
    let refused = true;
    const { destinationStore, options } = setup(
      counts,
      {},
      {
        refuse: (entity, r) =>
          refused && entity === 'customers' && r.id === customerId
            ? 'the store was busy'
            : undefined,
      },
    );
    const first = await executeMigration(options());
    expect(first.stats.customers).toMatchObject({ migrated: 2, failed: 1 });
    const rows = parse(await collect(reportCsv(repository, migrationId))) as string[][];
    const order = rows.find((l) => l[0] === 'order' && l[1] === linked.id);
    expect(order?.[3]).toBe('migrated');
    expect(order?.[4]).toBe(
      `Not carried over: the link to customer ${customerId} (not written: it failed) It will be written again on the next run.`,
    );

    // The customer is written now, and the orders that point at it are written again with it.
    refused = false;
    const second = await executeMigration(options());
    expect(second.stats.customers).toMatchObject({ migrated: 1, skipped: 2 });
    expect(second.stats.orders).toMatchObject({ migrated: pointing });
    expect(second.verification).toMatchObject({ status: 'passed' });
    const customerAt = [...destinationStore.records.customers.values()].find(
      (c) => c.email === data.customers.find((x) => x.id === customerId)?.email,
    );
    const written = [...destinationStore.records.orders.values()].find(
      (o) => o.number === linked.number,
    );
    expect(written?.customerId).toBe(customerAt?.id);
    const third = await executeMigration(options());
    expect(third.stats.orders).toMatchObject({ migrated: 0, skipped: counts.orders });
  });

  it('fails single records with a reason and carries on with the others', async () => {
    const { destinationStore, options } = setup(
      { products: 12, customers: 5, orders: 5 },
      { reject: (entity, r) => (entity === 'customers' && r.id === '2' ? 'no e-mail' : undefined) },
      {
        refuse: (entity, r) =>
          entity === 'products' && r.id === '4' ? 'SKU already used by another product' : undefined,
        crashOn: (r) => r.id === '9' && 'variants' in r,
      },
    );
    const result = await executeMigration(options());
    expect(result.status).toBe('completed');
    expect(destinationStore.records.products.size).toBe(10);
    expect(destinationStore.records.customers.size).toBe(4);
    const lines = reportLines(await collect(reportCsv(repository, migrationId)));
    const failed = lines.filter((l) => l[3] === 'failed');
    expect(failed.map((l) => `${l[0]} ${l[1]}`).sort()).toEqual([
      'customer 2',
      'product 4',
      'product 9',
    ]);
    expect(failed.find((l) => l[1] === '4')?.[4]).toBe('SKU already used by another product');
    expect(failed.find((l) => l[0] === 'customer')?.[4]).toContain('no e-mail');
    const migration = await migrations.findForUser(migrationId, 'u1');
    expect(migration?.migrationStats.products).toEqual({ total: 12, migrated: 10, failed: 2 });
    // Orders that point at the customer or products that failed arrive without that link.
    expect(result.verification).toMatchObject({ status: 'mismatches', missing: 3 });
    for (const example of result.verification?.examples.mismatched ?? []) {
      expect(example.entity).toBe('orders');
      expect(['customerId', 'lines']).toEqual(expect.arrayContaining(example.fields));
    }
  });

  it('fails the migration with a clear message when the destination revokes access', async () => {
    let revoked = false;
    const { options } = setup(undefined, {}, { revoked: () => revoked });
    let batches = 0;
    const result = await executeMigration(
      options({
        onProgress: () => {
          if (++batches === 4) revoked = true;
        },
      }),
    );
    expect(result).toMatchObject({ status: 'failed', code: 'store_config' });
    expect(result.message).toMatch(/destination store refused access/);
    const migration = await migrations.findForUser(migrationId, 'u1');
    expect(migration?.status).toBe('failed');
    const run = await repository.latestRun(migrationId);
    expect(run).toMatchObject({ status: 'failed', errorCode: 'store_config' });

    // Access restored: a new run finishes the job and keeps what was done.
    revoked = false;
    expect((await executeMigration(options())).status).toBe('completed');
    expect((await migrations.findForUser(migrationId, 'u1'))?.status).toBe('completed');
  });

  it('fails with store_unavailable when transient errors outlast the retries', async () => {
    const { options } = setup(undefined, {}, { transientWriteRate: 1 });
    const result = await executeMigration(options());
    expect(result).toMatchObject({ status: 'failed', code: 'store_unavailable' });
    expect(result.message).toMatch(/kept failing/);
  });

  it('never writes more than was paid for', async () => {
    const { destinationStore, options } = setup({ products: 10, customers: 5, orders: 5 });
    const short = await executeMigration(options({ paidRecords: 19 }));
    expect(short.status).toBe('payment_required');
    expect(short.message).toMatch(/20 records but 19 were paid for/);
    expect(destinationStore.writeCalls.products).toBe(0);
    expect((await migrations.findForUser(migrationId, 'u1'))?.status).toBe('in-progress');

    expect((await executeMigration(options({ paidRecords: 20 }))).status).toBe('completed');
    expect(destinationStore.records.products.size).toBe(10);
  });

  it('stops before writing records beyond the payment when the source grows during the run', async () => {
    const { sourceStore, destinationStore, options } = setup({
      products: 10,
      customers: 5,
      orders: 5,
    });
    const extra = sampleData({ products: 30, customers: 0, orders: 0 }).products.slice(10);
    let grown = false;
    const result = await executeMigration(
      options({
        paidRecords: 20,
        onProgress: () => {
          if (!grown) {
            grown = true;
            for (const p of extra) sourceStore.records.products.set(p.id, p);
          }
        },
      }),
    );
    expect(result.status).toBe('payment_required');
    const written =
      destinationStore.records.products.size +
      destinationStore.records.customers.size +
      destinationStore.records.orders.size;
    expect(written).toBeLessThanOrEqual(20);
  });

  it('refuses a plan the destination cannot carry', async () => {
    const { options } = setup();
    const base = options();
    const result = await executeMigration({
      ...base,
      destination: {
        ...base.destination,
        capabilities: {
          ...base.destination.capabilities,
          write: ['categories', 'products', 'customers'] satisfies EntityType[],
        },
      },
    });
    expect(result).toMatchObject({ status: 'failed', code: 'unsupported' });
    expect(result.message).toMatch(/cannot import orders/);
  });
});
