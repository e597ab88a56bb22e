import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationProgressSchema, verificationSchema } from '@replatform/contracts/progress';
import { createPostgresSchema, testDialects } from '@replatform/db/test-databases';
import { MemoryStore, memoryConnector, sampleData } from '@replatform/engine/testing/memory-store';
import { buildApp, type App } from '../../app.ts';
import { parseConfig } from '../../config.ts';
import { signUp, testOrigin } from '../../testing/sign-up.ts';

const origin = testOrigin;
const SOURCE = 'https://source.example.com';
const DESTINATION = 'https://destination.example.com';

describe.each(testDialects())('migration engine API on %s', (dialect) => {
  let app: App;
  let dataDir: string;
  let dropSchema: (() => Promise<void>) | undefined;
  let alice: string;
  let bob: string;
  const sourceStore = MemoryStore.seeded(sampleData({ products: 14, customers: 6, orders: 9 }));
  const destinationStore = new MemoryStore();

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'replatform-engine-api-'));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres')
      ({ url: databaseUrl, drop: dropSchema } = await createPostgresSchema());
    const config = parseConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    const connector = memoryConnector({ [SOURCE]: sourceStore, [DESTINATION]: destinationStore });
    app = await buildApp(config, { registry: { woocommerce: connector } });
    alice = await signUp(app, 'alice@example.com');
    bob = await signUp(app, 'bob@example.com');
  });
  afterAll(async () => {
    await app.close();
    await dropSchema?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (
    cookie: string | undefined,
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: unknown,
  ) =>
    app.inject({
      method,
      url,
      headers: {
        origin,
        ...(cookie ? { cookie } : {}),
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload ? { payload: payload as object } : {}),
    });

  /** A migration of Alice's with both stores verified and all data selected, at step 3. */
  async function readyMigration(name: string): Promise<string> {
    const id = (await call(alice, 'POST', '/api/migrations', { storeName: name })).json()
      .id as string;
    for (const [side, url] of [
      ['source', SOURCE],
      ['destination', DESTINATION],
    ] as const) {
      const verified = await call(alice, 'POST', '/verify-woocommerce-connection', {
        migrationId: id,
        side,
        sourceStoreUrl: url,
        consumerKey: 'ck',
        consumerSecret: 'secret',
      });
      expect(verified.statusCode, verified.body).toBe(200);
    }
    const selected = await call(alice, 'PATCH', `/api/migrations/${id}`, {
      dataTypes: { products: true, customers: true, orders: true },
      currentStep: 2,
    });
    expect(selected.statusCode, selected.body).toBe(200);
    expect(
      (await call(alice, 'PATCH', `/api/migrations/${id}`, { currentStep: 3 })).statusCode,
    ).toBe(200);
    const counts = await call(alice, 'GET', `/get-total-migration-entities?migrationId=${id}`);
    expect(counts.json()).toEqual({ products: 14, customers: 6, orders: 9 });
    return id;
  }

  async function pay(id: string, paidRecords: number): Promise<void> {
    const owner = await app.services.engine.repository.ownerOf(id);
    const updated = await app.services.migrations.update(id, owner ?? '', {
      paymentInfo: {
        paymentStatus: 'paid',
        amount: 9900 + paidRecords,
        currency: 'usd',
        paymentDate: new Date().toISOString(),
        paidRecords,
      },
    });
    expect(updated).toBeDefined();
  }

  async function waitFor<T>(probe: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
    const until = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > until) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('refuses to start without verified stores, selected data or enough payment', async () => {
    const bare = (await call(alice, 'POST', '/api/migrations', { storeName: 'Bare' })).json().id;
    const notConnected = await call(alice, 'POST', `/api/migrations/${bare}/start`);
    expect(notConnected.statusCode).toBe(409);
    expect(notConnected.json().error.code).toBe('stores_not_connected');

    const id = await readyMigration('Unpaid');
    const unpaid = await call(alice, 'POST', `/api/migrations/${id}/start`);
    expect(unpaid.statusCode).toBe(402);
    expect(unpaid.json().error.code).toBe('payment_required');

    await pay(id, 20);
    const short = await call(alice, 'POST', `/api/migrations/${id}/start`);
    expect(short.statusCode).toBe(402);
    expect(short.json().error.message).toMatch(/holds 29 records but 20 were paid for/);
    expect((await call(alice, 'GET', `/migration/${id}`)).json()).toMatchObject({
      status: 'in-progress',
      currentStep: 3,
    });
  });

  it("never lets user B start, watch, download or read the verification of user A's migration", async () => {
    const id = await readyMigration('Private');
    for (const [method, url] of [
      ['POST', `/api/migrations/${id}/start`],
      ['GET', `/migration-progress?migrationId=${id}`],
      ['GET', `/api/migrations/${id}/report.csv`],
      ['GET', `/api/migrations/${id}/verification`],
    ] as const) {
      const asBob = await call(bob, method, url);
      expect(asBob.statusCode, url).toBe(404);
      expect(asBob.json().error.code).toBe('not_found');
      expect((await call(undefined, method, url)).statusCode, url).toBe(401);
    }
    expect(await app.services.engine.jobs.liveJob(id)).toBeUndefined();
    expect((await call(alice, 'GET', `/migration/${id}`)).json().currentStep).toBe(3);
  });

  it('starts once, runs in the background, reports progress, every record and the verification', async () => {
    const id = await readyMigration('Full run');
    await pay(id, 29);
    expect(
      migrationProgressSchema.parse(
        (await call(alice, 'GET', `/migration-progress?migrationId=${id}`)).json(),
      ),
    ).toMatchObject({ productsTotal: 14, productsCompleted: 0, overallProgress: 0, state: 'idle' });

    const started = await call(alice, 'POST', `/api/migrations/${id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ status: 'in-progress', currentStep: 4 });
    const again = await call(alice, 'POST', `/api/migrations/${id}/start`);
    expect(again.statusCode).toBe(200);
    expect((await app.services.engine.jobs.liveJob(id))?.state).toBe('queued');

    app.services.engine.runner.start();
    const final = await waitFor(async () => {
      const p = migrationProgressSchema.parse(
        (await call(alice, 'GET', `/migration-progress?migrationId=${id}`)).json(),
      );
      return p.overallProgress === 100 ? p : undefined;
    });
    expect(final).toMatchObject({
      productsTotal: 14,
      customersTotal: 6,
      ordersTotal: 9,
      productsCompleted: 14,
      customersCompleted: 6,
      ordersCompleted: 9,
      overallProgress: 100,
    });
    expect((await call(alice, 'GET', `/migration/${id}`)).json()).toMatchObject({
      status: 'completed',
      currentStep: 5,
      totalEntities: 29,
      migratedEntities: 29,
    });
    expect(destinationStore.records.products.size).toBe(14);

    const report = await call(alice, 'GET', `/api/migrations/${id}/report.csv`);
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toMatch(/^text\/csv/);
    expect(report.headers['content-disposition']).toMatch(/attachment/);
    const lines = report.body.trim().split('\r\n');
    expect(lines[0]).toBe('type,source_id,destination_id,outcome,reason');
    expect(lines).toHaveLength(1 + 6 + 14 + 6 + 9);

    const verification = await waitFor(async () => {
      const v = verificationSchema.parse(
        (await call(alice, 'GET', `/api/migrations/${id}/verification`)).json(),
      );
      return v.status === 'passed' || v.status === 'failed' ? v : undefined;
    });
    expect(verification).toMatchObject({
      status: 'passed',
      entities: { products: { checked: 14, matched: 14, mismatched: 0, missing: 0 } },
      examples: [],
    });
    await app.services.engine.runner.stop();

    const owner = (await call(alice, 'GET', `/migration/${id}`)).json().userId as string;
    const titles = (await app.services.notifications.list(owner)).notifications
      .filter((n) => n.migrationId === id)
      .map((n) => n.title);
    expect(titles).toEqual(expect.arrayContaining(['Migration started', 'Migration completed']));
  });

  it('lets a sandbox migration start without payment', async () => {
    const id = await readyMigration('Sandbox');
    const { engine } = app.services;
    const isSandbox = engine.isSandbox;
    engine.isSandbox = (m) => m.sourceStoreUrl === SOURCE && m.destinationStoreUrl === DESTINATION;
    try {
      const started = await call(alice, 'POST', `/api/migrations/${id}/start`);
      expect(started.statusCode, started.body).toBe(200);
      expect((await engine.jobs.liveJob(id))?.unlimited).toBe(true);
    } finally {
      engine.isSandbox = isSandbox;
    }
  });
});
