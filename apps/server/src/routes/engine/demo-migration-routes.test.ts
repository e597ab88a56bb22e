import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMigrationSchema, type DemoMigration } from '@replatform/contracts/demo-migration';
import { createPostgresSchema, testDialects } from '@replatform/db/test-databases';
import { entityTypes } from '@replatform/canonical/entities';
import { MemoryStore, memoryConnector, sampleData } from '@replatform/engine/testing/memory-store';
import { buildApp, type App } from '../../app.ts';
import { parseConfig } from '../../config.ts';
import { signUp, testOrigin } from '../../testing/sign-up.ts';

const origin = testOrigin;
const counts = { products: 14, customers: 6, orders: 9, coupons: 4, reviews: 5, brands: 4 };

describe.each(testDialects())('free demo migration API on %s', (dialect) => {
  let app: App;
  let dataDir: string;
  let dropSchema: (() => Promise<void>) | undefined;
  let alice: string;
  let bob: string;
  const stores: Record<string, MemoryStore> = {};
  let next = 0;
  /** A pair of stores of their own for each migration: a source like counts, an empty one. */
  function pair(): [string, string] {
    next += 1;
    const source = `https://source-${next}.example.com`;
    const destination = `https://destination-${next}.example.com`;
    stores[source] = MemoryStore.seeded(sampleData(counts));
    stores[destination] = new MemoryStore();
    return [source, destination];
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'replatform-demo-api-'));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres')
      ({ url: databaseUrl, drop: dropSchema } = await createPostgresSchema());
    const config = parseConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      SANDBOX_STORES: 'false',
      DEMO_MIGRATION_LIMIT: '3',
      DEMO_MIGRATIONS_PER_DAY: '6',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    // Stores are looked up when a connection opens, so pairs made later are found.
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
      headers: {
        origin,
        cookie,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { payload: body as object } : {}),
    });

  /** A migration with both stores verified and every type selected, at step 3, unpaid. */
  async function readyMigration(
    name: string,
    owner = alice,
  ): Promise<{ id: string; urls: string[] }> {
    const urls = pair();
    const id = (await call(owner, 'POST', '/api/migrations', { storeName: name })).json()
      .id as string;
    for (const [side, url] of [
      ['source', urls[0]],
      ['destination', urls[1]],
    ] as const) {
      const verified = await call(owner, 'POST', '/verify-woocommerce-connection', {
        migrationId: id,
        side,
        sourceStoreUrl: url,
        consumerKey: 'ck',
        consumerSecret: 'secret',
      });
      expect(verified.statusCode, verified.body).toBe(200);
    }
    const selected = await call(owner, 'PATCH', `/api/migrations/${id}`, {
      dataTypes: {
        products: true,
        customers: true,
        orders: true,
        coupons: true,
        reviews: true,
        brands: true,
      },
      currentStep: 2,
    });
    expect(selected.statusCode, selected.body).toBe(200);
    const step = await call(owner, 'PATCH', `/api/migrations/${id}`, { currentStep: 3 });
    expect(step.statusCode, step.body).toBe(200);
    return { id, urls };
  }

  async function finishedDemo(id: string, owner = alice): Promise<DemoMigration> {
    const until = Date.now() + 20_000;
    for (;;) {
      const demo = demoMigrationSchema.parse(
        (await call(owner, 'GET', `/api/migrations/${id}/demo`)).json(),
      );
      if (demo.state === 'completed' || demo.state === 'failed') return demo;
      if (Date.now() > until)
        throw new Error(
          `demo still ${demo.state}: ${JSON.stringify(await app.services.engine.jobs.latestJob(id, 'demo'))} ${JSON.stringify(await app.services.engine.repository.latestRun(id, 'demo'))}`,
        );
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('moves a few records of each type before payment, shows them with links, and leaves the migration unpaid at its step; the full run then moves the rest once', async () => {
    const { id, urls } = await readyMigration('Demo first');
    const before = (await call(alice, 'GET', `/migration/${id}`)).json();
    const none = demoMigrationSchema.parse(
      (await call(alice, 'GET', `/api/migrations/${id}/demo`)).json(),
    );
    expect(none).toMatchObject({ state: 'none', limit: 3, runsUsed: 0, runsAllowed: 3 });

    const started = await call(alice, 'POST', `/api/migrations/${id}/demo`);
    expect(started.statusCode, started.body).toBe(202);
    const demo = await finishedDemo(id);
    expect(demo.state, demo.message).toBe('completed');
    expect(demo.runsUsed).toBe(1);
    for (const type of ['orders', 'coupons', 'reviews', 'brands'])
      expect(demo.entities[type], type).toEqual({ migrated: 3, skipped: 0, failed: 0 });
    expect(demo.verification).toMatchObject({ status: 'passed' });
    const destination = stores[urls[1]!]!;
    expect(destination.records.orders.size).toBe(3);
    // Each record is listed with its place in the destination's admin.
    const order = demo.records.find((r) => r.entity === 'orders');
    expect(order?.adminUrl).toBe(
      `${urls[1]}/wp-admin/admin.php?page=wc-orders&action=edit&id=${order?.destinationId}`,
    );
    expect(demo.records.filter((r) => r.entity === 'orders')).toHaveLength(3);

    // Nothing about the migration itself moved: still unpaid at step 3, no progress of its own.
    const migration = (await call(alice, 'GET', `/migration/${id}`)).json();
    expect(migration).toMatchObject({
      status: before.status,
      currentStep: 3,
      migrationStats: before.migrationStats,
      migratedEntities: before.migratedEntities,
    });
    expect(migration.paymentInfo ?? null).toBeNull();
    const progress = (await call(alice, 'GET', `/migration-progress?migrationId=${id}`)).json();
    expect(progress.overallProgress).toBe(0);
    const unpaid = await call(alice, 'POST', `/api/migrations/${id}/start`);
    expect(unpaid.statusCode).toBe(402);

    // Paid, the full migration writes what the demo did not, and nothing twice.
    const owner = await app.services.engine.repository.ownerOf(id);
    await app.services.migrations.update(id, owner ?? '', {
      paymentInfo: {
        paymentStatus: 'paid',
        amount: 10_000,
        currency: 'usd',
        paymentDate: new Date().toISOString(),
        paidRecords: 1000,
      },
    });
    expect((await call(alice, 'POST', `/api/migrations/${id}/start`)).statusCode).toBe(200);
    const until = Date.now() + 20_000;
    while ((await call(alice, 'GET', `/migration/${id}`)).json().status !== 'completed') {
      if (Date.now() > until) throw new Error('the migration did not complete');
      await new Promise((r) => setTimeout(r, 50));
    }
    const source = stores[urls[0]!]!;
    for (const entity of entityTypes)
      expect(destination.records[entity].size, entity).toBe(source.records[entity].size);
    // After it started, a demo is no longer for this migration.
    const late = await call(alice, 'POST', `/api/migrations/${id}/demo`);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('demo_after_start');
  });

  it('allows three demos per migration and six a day per account, only to the owner', async () => {
    const { id } = await readyMigration('Three demos');
    expect((await call(bob, 'POST', `/api/migrations/${id}/demo`)).statusCode).toBe(404);
    expect((await call(bob, 'GET', `/api/migrations/${id}/demo`)).statusCode).toBe(404);
    for (let run = 1; run <= 3; run++) {
      expect((await call(alice, 'POST', `/api/migrations/${id}/demo`)).statusCode).toBe(202);
      expect((await finishedDemo(id)).runsUsed).toBe(run);
    }
    const fourth = await call(alice, 'POST', `/api/migrations/${id}/demo`);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().error.code).toBe('demo_limit_reached');
    // With the first test's demo, this account has run four today; two more are allowed.
    // A rerun of the demo writes nothing twice: the same three orders are there.
    const other = await readyMigration('Two more');
    for (let run = 1; run <= 2; run++) {
      expect((await call(alice, 'POST', `/api/migrations/${other.id}/demo`)).statusCode).toBe(202);
      await finishedDemo(other.id);
    }
    expect(stores[other.urls[1]!]!.records.orders.size).toBe(3);
    const seventh = await call(
      alice,
      'POST',
      `/api/migrations/${(await readyMigration('Seventh')).id}/demo`,
    );
    expect(seventh.statusCode).toBe(429);
    expect(seventh.json().error.code).toBe('demo_daily_limit');
    // Bob's own allowance is his.
    const bobs = await readyMigration('Bob’s', bob);
    expect((await call(bob, 'POST', `/api/migrations/${bobs.id}/demo`)).statusCode).toBe(202);
    await finishedDemo(bobs.id, bob);
  });

  it('needs both stores connected and something selected', async () => {
    const bare = (await call(alice, 'POST', '/api/migrations', { storeName: 'Bare' })).json().id;
    const refused = await call(alice, 'POST', `/api/migrations/${bare}/demo`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('stores_not_connected');
  });
});
