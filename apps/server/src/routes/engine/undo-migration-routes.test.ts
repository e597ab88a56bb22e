import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { undoMigrationSchema, type UndoMigration } from '@replatform/contracts/undo-migration';
import { createPostgresSchema, testDialects } from '@replatform/db/test-databases';
import { MemoryStore, memoryConnector, sampleData } from '@replatform/engine/testing/memory-store';
import { buildApp, type App } from '../../app.ts';
import { parseConfig } from '../../config.ts';
import { signUp, testOrigin } from '../../testing/sign-up.ts';

const origin = testOrigin;

describe.each(testDialects())('undo API on %s', (dialect) => {
  let app: App;
  let dataDir: string;
  let dropSchema: (() => Promise<void>) | undefined;
  let alice: string;
  let bob: string;
  const stores: Record<string, MemoryStore> = {};
  let next = 0;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'replatform-undo-api-'));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres')
      ({ url: databaseUrl, drop: dropSchema } = await createPostgresSchema());
    const config = parseConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      SANDBOX_STORES: 'false',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    app = await buildApp(config, { registry: { woocommerce: memoryConnector(stores) } });
    alice = await signUp(app, 'alice@example.com');
    bob = await signUp(app, 'bob@example.com');
    app.services.engine.runner.start();
  });
  afterAll(async () => {
    await app.close();
    await dropSchema?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (cookie: string, method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: { origin, cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { payload: body as object } : {}),
    });

  async function waitFor<T>(probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
    const until = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > until) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** A migration of Alice's run to its end into a destination holding one record of her own. */
  async function completedMigration(name: string) {
    next += 1;
    const source = `https://undo-source-${next}.example.com`;
    const destination = `https://undo-destination-${next}.example.com`;
    stores[source] = MemoryStore.seeded(sampleData({ products: 9, customers: 4, orders: 5 }));
    const destinationStore = (stores[destination] = new MemoryStore());
    destinationStore.records.customers.set('own', {
      ...[...stores[source].records.customers.values()][0]!,
      id: 'own',
      email: 'own@example.com',
    });
    const id = (await call(alice, 'POST', '/api/migrations', { storeName: name })).json()
      .id as string;
    for (const [side, url] of [
      ['source', source],
      ['destination', destination],
    ] as const)
      expect(
        (
          await call(alice, 'POST', '/verify-woocommerce-connection', {
            migrationId: id,
            side,
            sourceStoreUrl: url,
            consumerKey: 'ck',
            consumerSecret: 'secret',
          })
        ).statusCode,
      ).toBe(200);
    await call(alice, 'PATCH', `/api/migrations/${id}`, {
      dataTypes: { products: true, customers: true, orders: true },
      currentStep: 2,
    });
    await call(alice, 'PATCH', `/api/migrations/${id}`, { currentStep: 3 });
    await app.services.migrations.update(id, (await app.services.engine.repository.ownerOf(id))!, {
      paymentInfo: {
        paymentStatus: 'paid',
        amount: 9900,
        currency: 'usd',
        paymentDate: new Date().toISOString(),
        paidRecords: 100,
      },
    });
    expect((await call(alice, 'POST', `/api/migrations/${id}/start`)).statusCode).toBe(200);
    await waitFor(async () => {
      const job = await app.services.engine.jobs.latestJob(id);
      const run = await app.services.engine.repository.latestRun(id);
      return job?.state === 'done' && run?.phase === 'done' ? true : undefined;
    });
    return { id, destinationStore };
  }

  const undoOf = async (id: string, cookie = alice): Promise<UndoMigration> =>
    undoMigrationSchema.parse((await call(cookie, 'GET', `/api/migrations/${id}/undo`)).json());

  it('undoes a completed migration once confirmed with the store name, and reports it', async () => {
    const { id, destinationStore } = await completedMigration('Linen & Co');
    const before = await undoOf(id);
    expect(before).toMatchObject({
      state: 'none',
      available: true,
      confirmName: 'Linen & Co',
      created: { categories: 6, products: 9, customers: 4, orders: 5 },
    });
    // The owner edits one migrated product in the destination's admin meanwhile.
    const [editedId, edited] = [...destinationStore.records.products].at(-1)!;
    destinationStore.records.products.set(editedId, { ...edited, name: 'Renamed by the owner' });

    const wrong = await call(alice, 'POST', `/api/migrations/${id}/undo`, { confirmName: 'Linen' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('confirmation_mismatch');
    expect(destinationStore.records.orders.size).toBe(5);
    // Someone else's migration does not exist for them.
    expect(
      (await call(bob, 'POST', `/api/migrations/${id}/undo`, { confirmName: 'Linen & Co' }))
        .statusCode,
    ).toBe(404);
    expect((await call(bob, 'GET', `/api/migrations/${id}/undo`)).statusCode).toBe(404);

    const started = await call(alice, 'POST', `/api/migrations/${id}/undo`, {
      confirmName: '  linen & co ',
    });
    expect(started.statusCode, started.body).toBe(202);
    const done = await waitFor(async () => {
      const undo = await undoOf(id);
      return undo.state === 'completed' || undo.state === 'failed' ? undo : undefined;
    });
    expect(done.state).toBe('completed');
    expect(done.entities.products).toEqual({ total: 9, removed: 8, gone: 0, kept: 1, failed: 0 });
    expect(done.entities.orders).toEqual({ total: 5, removed: 5, gone: 0, kept: 0, failed: 0 });
    const keptProduct = done.records.find((r) => r.entity === 'products');
    expect(keptProduct).toMatchObject({ destinationId: editedId, outcome: 'kept' });
    expect(keptProduct?.reason).toMatch(/changed in your store/);
    // Its category stays with it (and that category's parent), each saying why.
    const keptCategories = done.records.filter(
      (r) => r.entity === 'categories' && r.outcome === 'kept',
    );
    expect(keptCategories.length).toBeGreaterThan(0);
    for (const r of keptCategories) expect(r.reason).toMatch(/that stays in your store uses it/);
    expect(done.entities.categories?.kept).toBe(keptCategories.length);
    // The destination keeps the owner's own customer, the edited product and its categories.
    expect([...destinationStore.records.customers.keys()]).toEqual(['own']);
    expect([...destinationStore.records.products.keys()]).toEqual([editedId]);
    expect([...destinationStore.records.categories.keys()].sort()).toEqual(
      keptCategories.map((r) => r.destinationId).sort(),
    );
    expect(destinationStore.records.orders.size).toBe(0);
    // Nothing is left to undo; the migration itself keeps its status.
    expect(done).toMatchObject({ available: false, created: {} });
    expect(done.unavailableReason).toMatch(/nothing to undo/);
    expect((await call(alice, 'GET', `/migration/${id}`)).json().status).toBe('completed');

    const csv = await call(alice, 'GET', `/api/migrations/${id}/undo/report.csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('type,source_id,destination_id,outcome,reason');
    expect(lines).toHaveLength(1 + 6 + 9 + 4 + 5);
    expect(lines.filter((l) => /^product,.*,kept,/.test(l))).toHaveLength(1);

    const notifications = (await call(alice, 'GET', '/api/notifications')).json();
    expect(JSON.stringify(notifications)).toContain('Undo finished');
  });

  it('is refused for a migration that has not completed or failed', async () => {
    const id = (await call(alice, 'POST', '/api/migrations', { storeName: 'Fresh' })).json()
      .id as string;
    const undo = await undoOf(id);
    expect(undo).toMatchObject({ state: 'none', available: false });
    const refused = await call(alice, 'POST', `/api/migrations/${id}/undo`, {
      confirmName: 'Fresh',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('undo_not_available');
    expect((await call(alice, 'GET', `/api/migrations/${id}/undo/report.csv`)).statusCode).toBe(
      404,
    );
  });
});
