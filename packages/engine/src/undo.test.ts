import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { entityTypes, type EntityType } from '@replatform/canonical/entities';
import type { Db } from '@replatform/db/database';
import { EngineRepository } from '@replatform/db/engine-repository';
import { MigrationsRepository } from '@replatform/db/migrations-repository';
import { openTestDatabase, testDialects } from '@replatform/db/test-databases';
import { executeMigration } from './execute.ts';
import {
  MemoryStore,
  memoryConnection,
  sampleData,
  type MemoryConnectionOptions,
} from './testing/memory-store.ts';
import { executeUndo } from './undo.ts';

const fast = { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 };
const selected = ['products', 'customers', 'orders', 'coupons', 'reviews', 'pages', 'posts'];

/** Every record a store holds, by entity, as [id, JSON] pairs, for snapshots. */
function snapshot(store: MemoryStore): Record<string, [string, string][]> {
  return Object.fromEntries(
    entityTypes.map((e) => [
      e,
      [...store.records[e]].map(([id, r]) => [id, JSON.stringify(r)] as [string, string]),
    ]),
  );
}

describe.each(testDialects())('undo on %s', (dialect) => {
  let db: Db;
  let repository: EngineRepository;
  let migrationId: string;

  beforeEach(async () => {
    db = await openTestDatabase(dialect);
    repository = new EngineRepository(db);
    const migrations = new MigrationsRepository(db);
    migrationId = (await migrations.create({ userId: 'u1', email: 'u@x.io', storeName: 'S' })).id;
  });
  afterEach(async () => {
    await db.close();
  });

  /** A destination holding the merchant's own records, and a migration into it. */
  async function migrated(destinationOptions: MemoryConnectionOptions = {}) {
    const source = MemoryStore.seeded(
      sampleData({
        products: 12,
        customers: 6,
        orders: 8,
        coupons: 3,
        reviews: 4,
        pages: 4,
        posts: 3,
      }),
    );
    const destinationStore = new MemoryStore();
    const own = sampleData({ products: 2, customers: 1, orders: 0, categories: 1 });
    for (const product of own.products)
      destinationStore.records.products.set(`m${product.id}`, { ...product, id: `m${product.id}` });
    const before = snapshot(destinationStore);
    // The merchant already sells the source's first product under the same SKU: linked.
    const firstProduct = [...source.records.products.keys()][0]!;
    destinationStore.records.products.set('mine', {
      ...source.records.products.get(firstProduct)!,
      id: 'mine',
    });
    const linkedBefore = snapshot(destinationStore);
    const options = {
      ...destinationOptions,
      merchantOwn: (entity: EntityType, record: { id: string }) =>
        entity === 'products' && record.id === firstProduct ? 'mine' : undefined,
    };
    const destination = memoryConnection(destinationStore, { batchSize: 4, ...options });
    const result = await executeMigration({
      repository,
      migrationId,
      dataTypes: selected,
      source: memoryConnection(source, { pageSize: 5 }),
      destination,
      retry: fast,
    });
    expect(result.status).toBe('completed');
    // Everything the run wrote arrived; the merchant's linked product keeps its own categories.
    expect(result.verification?.examples.mismatched.map((m) => m.destinationId)).toEqual(['mine']);
    return { source, destinationStore, destination, before, linkedBefore };
  }

  it('removes exactly what the migration created, keeps what the owner changed since, and forgets the removed', async () => {
    const { destinationStore, destination, linkedBefore } = await migrated();
    // The owner renamed one migrated product after the migration.
    const edited = [...destinationStore.records.products.values()].find(
      (p) => !p.id.startsWith('m'),
    )!;
    destinationStore.records.products.set(edited.id, { ...edited, name: 'Renamed by the owner' });
    const editedCopy = destinationStore.records.products.get(edited.id)!;

    const result = await executeUndo({ repository, migrationId, destination, retry: fast });
    expect(result.status).toBe('completed');
    expect(result.counts.products).toEqual({ removed: 10, gone: 0, kept: 1, failed: 0 });
    expect(result.counts.orders).toEqual({ removed: 8, gone: 0, kept: 0, failed: 0 });

    // The store is as it was before the migration, but for the record the owner changed.
    const after = snapshot(destinationStore);
    expect(after.products?.filter(([id]) => id !== edited.id)).toEqual(linkedBefore.products);
    expect(destinationStore.records.products.get(edited.id)).toEqual(editedCopy);
    // The category the kept product is in stays with it, and that category's parent.
    const category = editedCopy.categoryIds[0]!;
    const parent = destinationStore.records.categories.get(category)?.parentId;
    const stay = [category, ...(parent ? [parent] : [])].sort();
    expect([...destinationStore.records.categories.keys()].sort()).toEqual(stay);
    for (const entity of entityTypes.filter((e) => e !== 'products' && e !== 'categories'))
      expect(after[entity], entity).toEqual(linkedBefore[entity]);

    const rows = await repository.undoRecords(result.runId);
    const kept = rows.filter((r) => r.outcome === 'kept');
    expect(kept.map((r) => [r.entity, r.destinationId]).sort()).toEqual(
      [['products', edited.id], ...stay.map((id) => ['categories', id])].sort(),
    );
    expect(kept.find((r) => r.entity === 'products')?.reason).toMatch(
      /changed in your store since the migration wrote it \(name\)/,
    );
    expect(kept.find((r) => r.destinationId === category)?.reason).toBe(
      `Kept: the product ${edited.id} that stays in your store uses it.`,
    );
    if (parent)
      expect(kept.find((r) => r.destinationId === parent)?.reason).toBe(
        `Kept: the category ${category} that stays in your store uses it.`,
      );

    // The id map keeps the changed record as the owner's, and the linked one; the rest is gone.
    expect(await repository.undoTotals(migrationId)).toEqual({});
    const page = await repository.idMapPage(migrationId, 'products', null, 100);
    expect(page.map((r) => [r.destinationId, r.linked]).sort()).toEqual([
      [edited.id, true],
      ['mine', true],
    ]);
    // A later undo finds nothing more to remove.
    const again = await executeUndo({ repository, migrationId, destination, retry: fast });
    expect(again.status).toBe('completed');
    expect(Object.values(again.counts).every((c) => c.removed === 0)).toBe(true);
  });

  it('removes children before their parents, and dependants before what they depend on', async () => {
    const trace: string[] = [];
    const { destinationStore } = await migrated({ trace: (t) => trace.push(t) });
    // A store that refuses to delete a category or page that still has children, or a customer
    // or product an order still names.
    const strict = memoryConnection(destinationStore, {
      trace: (t) => trace.push(t),
      refuseRemove: (entity, id) => {
        if (entity === 'categories' || entity === 'pages') {
          const children = [...destinationStore.records[entity].values()].some(
            (r) => r.parentId === id,
          );
          return children ? 'It still has children.' : undefined;
        }
        if (entity === 'customers' || entity === 'products') {
          const named = [...destinationStore.records.orders.values()].some(
            (o) => o.customerId === id || o.lines.some((l) => l.productId === id),
          );
          return named ? 'An order still names it.' : undefined;
        }
        return undefined;
      },
    });
    trace.length = 0;
    const result = await executeUndo({
      repository,
      migrationId,
      destination: strict,
      retry: fast,
      batchSize: 2,
    });
    expect(result.status).toBe('completed');
    for (const counts of Object.values(result.counts)) expect(counts.failed).toBe(0);
    expect(destinationStore.records.categories.size).toBe(0);
    expect(destinationStore.records.pages.size).toBe(0);
    const order = [
      ...new Set(trace.filter((t) => t.startsWith('remove:')).map((t) => t.split(':')[1])),
    ];
    expect(order).toEqual([...entityTypes].reverse().filter((e) => order.includes(e)));
  });

  it('carries on after an interruption without removing or counting anything twice', async () => {
    const { destinationStore, destination, linkedBefore } = await migrated();
    const controller = new AbortController();
    let removals = 0;
    const interrupted = await executeUndo({
      repository,
      migrationId,
      destination,
      retry: fast,
      batchSize: 3,
      signal: controller.signal,
      onProgress: () => {
        removals += 1;
        if (removals === 4) controller.abort();
      },
    });
    expect(interrupted.status).toBe('interrupted');
    const resumed = await executeUndo({ repository, migrationId, destination, retry: fast });
    expect(resumed.runId).toBe(interrupted.runId);
    expect(resumed.status).toBe('completed');
    expect(snapshot(destinationStore)).toEqual(linkedBefore);
    const removed = Object.values(resumed.counts).reduce((n, c) => n + c.removed, 0);
    // 11 products (one linked), 6 customers, 8 orders, 3 coupons, 4 reviews, 4 pages, 3 posts,
    // and the 6 categories the products brought.
    expect(removed).toBe(11 + 6 + 8 + 3 + 4 + 4 + 3 + 6);
  });

  it('keeps what the platform cannot delete or refuses to, says why, and tries a refusal again next time', async () => {
    let refuse = true;
    const { destinationStore } = await migrated();
    const limited = memoryConnection(destinationStore, {
      removeUnsupported: { orders: 'The platform cannot delete orders; cancel them in its admin.' },
      refuseRemove: (entity, id) =>
        refuse && entity === 'coupons' && id === [...destinationStore.records.coupons.keys()][0]
          ? 'The store answered 409: the coupon is in use.'
          : undefined,
    });
    const result = await executeUndo({
      repository,
      migrationId,
      destination: limited,
      retry: fast,
    });
    expect(result.status).toBe('completed');
    expect(result.counts.orders).toEqual({ removed: 0, gone: 0, kept: 8, failed: 0 });
    expect(result.counts.coupons).toEqual({ removed: 2, gone: 0, kept: 0, failed: 1 });
    const rows = await repository.undoRecords(result.runId);
    expect(rows[0]).toMatchObject({
      entity: 'coupons',
      outcome: 'failed',
      reason: 'The store answered 409: the coupon is in use.',
    });
    expect(rows.find((r) => r.entity === 'orders')?.reason).toBe(
      'Kept: The platform cannot delete orders; cancel them in its admin.',
    );
    // The orders stay, and so do the customers and products they name.
    expect(destinationStore.records.orders.size).toBe(8);
    for (const order of destinationStore.records.orders.values()) {
      expect(destinationStore.records.customers.has(order.customerId!)).toBe(true);
      for (const line of order.lines)
        if (line.productId)
          expect(destinationStore.records.products.has(line.productId)).toBe(true);
    }
    expect(destinationStore.records.coupons.size).toBe(1);
    refuse = false;
    const again = await executeUndo({ repository, migrationId, destination: limited, retry: fast });
    expect(again.counts.coupons).toEqual({ removed: 1, gone: 0, kept: 0, failed: 0 });
    expect(destinationStore.records.coupons.size).toBe(0);
  });

  it('removes the files the migration stored, but keeps those of a record it keeps', async () => {
    const { destinationStore } = await migrated({ sharedImages: true });
    const files = new Set(destinationStore.assets);
    expect(files.size).toBeGreaterThan(2);
    // The owner edits one migrated product that has images of its own.
    const [editedId, edited] = [...destinationStore.records.products].find(
      ([id, p]) => !id.startsWith('m') && p.images.length > 0,
    )!;
    destinationStore.records.products.set(editedId, { ...edited, name: 'Renamed by the owner' });
    const ownFiles = (await repository.allAssets(migrationId))
      .filter((a) => a.owner?.entity === 'products')
      .filter((a) => edited.images.some((image) => image.url === a.key));
    expect(ownFiles.length).toBeGreaterThan(0);
    const result = await executeUndo({
      repository,
      migrationId,
      destination: memoryConnection(destinationStore, { sharedImages: true }),
      retry: fast,
    });
    expect(result.status).toBe('completed');
    expect(result.counts.assets).toEqual({
      removed: files.size - ownFiles.length,
      gone: 0,
      kept: ownFiles.length,
      failed: 0,
    });
    expect([...destinationStore.assets].sort()).toEqual(
      ownFiles.map((a) => a.destinationId).sort(),
    );
    const reasons = (await repository.undoRecords(result.runId))
      .filter((r) => r.entity === 'assets' && r.outcome === 'kept')
      .map((r) => r.reason);
    expect(reasons[0]).toMatch(
      /^Kept with the product .* that uses it, which stays in your store\.$/,
    );
  });

  it('counts a record the owner deleted meanwhile as gone', async () => {
    const { destinationStore, destination } = await migrated();
    const customer = [...destinationStore.records.customers.keys()][0]!;
    destinationStore.records.customers.delete(customer);
    const result = await executeUndo({ repository, migrationId, destination, retry: fast });
    expect(result.counts.customers).toEqual({ removed: 5, gone: 1, kept: 0, failed: 0 });
  });
});

describe.each(testDialects())('destination redirects and owner options on %s', (dialect) => {
  let db: Db;
  let repository: EngineRepository;
  let migrationId: string;

  beforeEach(async () => {
    db = await openTestDatabase(dialect);
    repository = new EngineRepository(db);
    const migrations = new MigrationsRepository(db);
    migrationId = (await migrations.create({ userId: 'u1', email: 'u@x.io', storeName: 'S' })).id;
  });
  afterEach(async () => {
    await db.close();
  });

  it('writes a redirect for every old address once, says so in the run notes, and undo removes them', async () => {
    const source = MemoryStore.seeded(
      sampleData({ products: 7, customers: 2, orders: 2, pages: 3 }),
    );
    const destinationStore = new MemoryStore();
    const trace: string[] = [];
    const destination = memoryConnection(destinationStore, {
      redirects: true,
      trace: (t) => trace.push(t),
    });
    // The owner already sends one old product address somewhere of their own.
    const firstProduct = [...source.records.products.values()][0]!;
    destinationStore.redirects.set(firstProduct.sourceUrlPath!, ['own', '/their-own-page']);
    const run = () =>
      executeMigration({
        repository,
        migrationId,
        dataTypes: ['products', 'customers', 'orders', 'pages'],
        source: memoryConnection(source, { pageSize: 5 }),
        destination,
        retry: fast,
      });
    const first = await run();
    expect(first.status).toBe('completed');
    // 7 products and 3 pages have addresses of their own at the source (the sample categories
    // have none); one old address is the owner's redirect already.
    const redirected = 7 + 3;
    expect(destinationStore.redirects.size).toBe(redirected);
    expect(first.notes).toContain(
      `301 redirects written into your destination store from the old addresses: ${redirected - 1} redirects in place.`,
    );
    expect(first.notes?.find((n) => n.startsWith('301 redirects not written'))).toMatch(
      /for 1 old address .*already redirects it to \/their-own-page/,
    );
    expect(destinationStore.redirects.get(firstProduct.sourceUrlPath!)).toEqual([
      'own',
      '/their-own-page',
    ]);
    // A re-run leaves the redirects it wrote as they are: only the refused one is asked again.
    trace.length = 0;
    const again = await run();
    expect(again.status).toBe('completed');
    expect(trace.filter((t) => t.startsWith('redirects:'))).toEqual(['redirects:1']);
    expect(destinationStore.redirects.size).toBe(redirected);

    // Undo removes the redirects the migration wrote, never the owner's.
    const undone = await executeUndo({ repository, migrationId, destination, retry: fast });
    expect(undone.counts.assets?.removed).toBe(redirected - 1);
    expect([...destinationStore.redirects.keys()]).toEqual([firstProduct.sourceUrlPath]);
  });

  it('leaves redirects to the downloadable map when the owner turns them off', async () => {
    const source = MemoryStore.seeded(sampleData({ products: 4, customers: 1, orders: 1 }));
    const destinationStore = new MemoryStore();
    const result = await executeMigration({
      repository,
      migrationId,
      dataTypes: ['products'],
      source: memoryConnection(source),
      destination: memoryConnection(destinationStore, { redirects: true }),
      migrationOptions: { createRedirects: false },
      retry: fast,
    });
    expect(result.status).toBe('completed');
    expect(destinationStore.redirects.size).toBe(0);
    expect(result.notes?.some((n) => n.startsWith('301'))).toBe(false);
  });

  it('does not compare the slugs and order numbers the owner let the destination make', async () => {
    const source = MemoryStore.seeded(sampleData({ products: 5, customers: 2, orders: 3 }));
    const destinationStore = new MemoryStore();
    const destination = memoryConnection(destinationStore);
    // A destination making its own slugs and numbers, as a connector does with those choices.
    const write = destination.connection.write.bind(destination.connection);
    destination.connection.write = (entity, records, idMap) =>
      write(
        entity,
        records.map((r) =>
          'slug' in r
            ? { ...r, slug: `own-${r.id}` }
            : 'number' in r
              ? { ...r, number: `D-${r.id}` }
              : r,
        ) as typeof records,
        idMap,
      );
    const options = {
      repository,
      migrationId,
      dataTypes: ['products', 'customers', 'orders'],
      source: memoryConnection(source),
      destination,
      retry: fast,
      verifyMode: 'full' as const,
    };
    const chosen = await executeMigration({
      ...options,
      migrationOptions: { keepSlugs: false, keepOrderNumbers: false },
    });
    expect(chosen.verification?.status).toBe('passed');
    // Had the owner kept them, the same destination would be a mismatch.
    const kept = await executeMigration({ ...options, verifyMode: 'full' });
    expect(kept.verification?.status).toBe('mismatches');
  });
});
