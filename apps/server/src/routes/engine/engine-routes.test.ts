import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { migrationProgressSchema, verificationSchema } from '@replatform/contracts/progress';
import { createPostgresSchema, testDialects } from '@replatform/db/test-databases';
import { recordRunFailure } from '@replatform/engine/execute';
import { MemoryStore, memoryConnector, sampleData } from '@replatform/engine/testing/memory-store';
import { buildApp, type App } from '../../app.ts';
import { parseConfig } from '../../config.ts';
import { signUp, testOrigin } from '../../testing/sign-up.ts';

const origin = testOrigin;
const SOURCE = 'https://source.example.com';
const DESTINATION = 'https://destination.example.com';
const AGAIN_SOURCE = 'https://again-source.example.com';
const AGAIN_DESTINATION = 'https://again-destination.example.com';
const VERIFY_SOURCE = 'https://verify-source.example.com';
const VERIFY_DESTINATION = 'https://verify-destination.example.com';

describe.each(testDialects())('migration engine API on %s', (dialect) => {
  let app: App;
  let dataDir: string;
  let dropSchema: (() => Promise<void>) | undefined;
  let alice: string;
  let bob: string;
  const sourceStore = MemoryStore.seeded(sampleData({ products: 14, customers: 6, orders: 9 }));
  const destinationStore = new MemoryStore();
  // Stores of the re-migration tests, which change their source between runs.
  const againSource = MemoryStore.seeded(sampleData({ products: 14, customers: 6, orders: 9 }));
  const againDestination = new MemoryStore();
  // Stores of the "verify again" test, whose source changes after the run.
  const verifySource = MemoryStore.seeded(sampleData({ products: 14, customers: 6, orders: 9 }));
  const verifyDestination = new MemoryStore();

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'replatform-engine-api-'));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres')
      ({ url: databaseUrl, drop: dropSchema } = await createPostgresSchema());
    const config = parseConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      // These tests bring their own stores; the built-in sandbox stores only cost start-up time.
      SANDBOX_STORES: 'false',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    const connector = memoryConnector({
      [SOURCE]: sourceStore,
      [DESTINATION]: destinationStore,
      [AGAIN_SOURCE]: againSource,
      [AGAIN_DESTINATION]: againDestination,
      [VERIFY_SOURCE]: verifySource,
      [VERIFY_DESTINATION]: verifyDestination,
    });
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

  /**
   * A migration of Alice's with both stores verified and all data selected, at step 3, its source
   * counted unless `count` is false.
   */
  async function readyMigration(
    name: string,
    { stores = [SOURCE, DESTINATION], count = true } = {},
  ): Promise<string> {
    const id = (await call(alice, 'POST', '/api/migrations', { storeName: name })).json()
      .id as string;
    for (const [side, url] of [
      ['source', stores[0]],
      ['destination', stores[1]],
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
    if (!count) return id;
    // As the payment priced on them keeps them.
    const owner = await app.services.engine.repository.ownerOf(id);
    const found = await app.services.migrations.findForUser(id, owner ?? '');
    const counted = await app.services.engine.recount(found!);
    expect(counted.entityCounts).toEqual({
      products: 14,
      customers: 6,
      orders: 9,
      coupons: 0,
      reviews: 0,
      brands: 0,
      pages: 0,
      posts: 0,
    });
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
      ['GET', `/api/migrations/${id}/redirect-map/csv`],
      ['GET', `/api/migrations/${id}/verification`],
      ['POST', `/api/migrations/${id}/verify`],
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

    expect((await call(alice, 'GET', `/migration/${id}`)).json().startedAt).toBeNull();
    const started = await call(alice, 'POST', `/api/migrations/${id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ status: 'in-progress', currentStep: 4 });
    const startedAt: string = started.json().startedAt;
    expect(Date.parse(startedAt)).toBeGreaterThan(Date.now() - 60_000);
    const again = await call(alice, 'POST', `/api/migrations/${id}/start`);
    expect(again.statusCode).toBe(200);
    // Asking again while it runs is not a new run: its start time stays.
    expect(again.json().startedAt).toBe(startedAt);
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
    const done = (await call(alice, 'GET', `/migration/${id}`)).json();
    expect(done).toMatchObject({
      status: 'completed',
      currentStep: 5,
      totalEntities: 29,
      migratedEntities: 29,
      startedAt,
    });
    // Start and end of the run, which the pages show as its duration and pace.
    expect(Date.parse(done.completedAt)).toBeGreaterThanOrEqual(Date.parse(startedAt));
    expect((await call(alice, 'GET', '/get-migrations')).json()).toContainEqual(
      expect.objectContaining({ id, startedAt, completedAt: done.completedAt }),
    );
    expect(destinationStore.records.products.size).toBe(14);
    // The run's speed: its samples (time since its start, records done) and the rates from them.
    expect(final.speed?.startedAt).toEqual(expect.any(String));
    expect(final.speed?.finishedAt).toEqual(expect.any(String));
    expect(final.speed?.samples.at(-1)?.[1]).toBeGreaterThanOrEqual(29);
    expect(final.speed?.secondsLeft).toBeNull();
    expect(final.waiting).toBeUndefined();

    const report = await call(alice, 'GET', `/api/migrations/${id}/report.csv`);
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-type']).toMatch(/^text\/csv/);
    expect(report.headers['content-disposition']).toMatch(/attachment/);
    const lines = report.body.trim().split('\r\n');
    expect(lines[0]).toBe('type,source_id,destination_id,outcome,reason,not_carried');
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

    // The redirect map: every product and category with its old and new storefront address.
    const map = await call(alice, 'GET', `/api/migrations/${id}/redirect-map/csv`);
    expect(map.statusCode).toBe(200);
    expect(map.headers['content-disposition']).toMatch(/attachment; filename=".*\.csv"/);
    const rows = parse(map.body, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(6 + 14);
    expect(rows.find((r) => r.type === 'product' && r.source_id === '3')).toMatchObject({
      old_path: '/products/product-3',
      new_path: '/item/product-3/',
      redirect: 'yes',
    });
    const nginx = await call(alice, 'GET', `/api/migrations/${id}/redirect-map/nginx`);
    expect(nginx.body).toContain(
      'location = "/products/product-3" { return 301 "/item/product-3/"; }',
    );
    expect(nginx.body.split('\n').filter((l) => l.startsWith('location = '))).toHaveLength(14);
    const apache = await call(alice, 'GET', `/api/migrations/${id}/redirect-map/apache`);
    expect(apache.body).toContain('Redirect 301 "/products/product-3" "/item/product-3/"');
    expect((await call(alice, 'GET', `/api/migrations/${id}/redirect-map/iis`)).statusCode).toBe(
      400,
    );
    await app.services.engine.runner.stop();

    const owner = (await call(alice, 'GET', `/migration/${id}`)).json().userId as string;
    const notices = (await app.services.notifications.list(owner)).notifications.filter(
      (n) => n.migrationId === id,
    );
    expect(notices.map((n) => n.title)).toEqual(
      expect.arrayContaining(['Migration started', 'Migration completed']),
    );
    // The owner reads counts; engine notes stay in the report.
    expect(notices.find((n) => n.title === 'Migration completed')?.message).toMatch(
      /^Full run: \d+ records migrated\.$/,
    );
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

  /** Starts the migration and waits until the run is over and verified. */
  async function runToEnd(id: string): Promise<void> {
    const { engine } = app.services;
    engine.runner.start();
    await waitFor(async () => {
      const m = (await call(alice, 'GET', `/migration/${id}`)).json();
      const job = await engine.jobs.latestJob(id);
      const run = await engine.repository.latestRun(id);
      return m.status === 'completed' && job?.state === 'done' && run?.phase === 'done'
        ? true
        : undefined;
    });
  }

  it('counts the source first when it was never counted, and checks payment against that', async () => {
    const id = await readyMigration('Never counted', { count: false });
    expect((await call(alice, 'GET', `/migration/${id}`)).json().entityCounts).toEqual({});
    await pay(id, 20);
    const short = await call(alice, 'POST', `/api/migrations/${id}/start`);
    expect(short.statusCode).toBe(402);
    expect(short.json().error.message).toMatch(/holds 29 records but 20 were paid for/);
    expect((await call(alice, 'GET', `/migration/${id}`)).json().entityCounts).toEqual({
      products: 14,
      customers: 6,
      orders: 9,
      coupons: 0,
      reviews: 0,
      brands: 0,
      pages: 0,
      posts: 0,
    });
    expect(await app.services.engine.jobs.liveJob(id)).toBeUndefined();
  });

  it("never lets user B count the source of user A's migration", async () => {
    const id = await readyMigration('Counted by Alice only');
    const asBob = await call(bob, 'GET', `/get-total-migration-entities?migrationId=${id}`);
    expect(asBob.statusCode).toBe(404);
    expect(asBob.json().error.code).toBe('not_found');
    const anonymous = await call(
      undefined,
      'GET',
      `/get-total-migration-entities?migrationId=${id}`,
    );
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses to change the stores, selection or step while the job is live, but not the name', async () => {
    const id = await readyMigration('Live edits');
    await pay(id, 29);
    expect((await call(alice, 'POST', `/api/migrations/${id}/start`)).statusCode).toBe(200);
    for (const body of [
      { sourceStoreUrl: 'https://elsewhere.example.com' },
      { dataTypes: { products: true } },
      { currentStep: 2 },
    ]) {
      const res = await call(alice, 'PATCH', `/api/migrations/${id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(409);
      expect(res.json().error.code).toBe('migration_running');
    }
    const renamed = await call(alice, 'PATCH', `/api/migrations/${id}`, { storeName: 'Renamed' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ storeName: 'Renamed', status: 'in-progress' });
    // Finished, the migration is the owner's to change again (as far as payment allows).
    await runToEnd(id);
    await app.services.engine.runner.stop();
  });

  it('re-migrates a completed migration: the first time free, then through a paid quote', async () => {
    const { engine, db } = app.services;
    const id = await readyMigration('Again', { stores: [AGAIN_SOURCE, AGAIN_DESTINATION] });
    await pay(id, 29);
    // Only a completed migration has an earlier run for a recent-data run to leave alone.
    const early = await call(alice, 'POST', `/api/migrations/${id}/start`, {
      changedSince: '2026-01-01',
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('recent_data_needs_a_run');
    expect((await call(alice, 'POST', `/api/migrations/${id}/start`)).statusCode).toBe(200);
    await runToEnd(id);
    expect(againDestination.records.products.size).toBe(14);
    const firstRun = (await call(alice, 'GET', `/migration/${id}`)).json();

    // The recent-data run: one product changed and one new since the chosen day; only those two
    // are written. Another changed without a newer time of change (as a store stamps it) is
    // left as the first run wrote it.
    const changed = againSource.records.products.get('3')!;
    againSource.records.products.set('3', {
      ...changed,
      name: 'Changed since',
      updatedAt: new Date().toISOString(),
    });
    const stale = againSource.records.products.get('4')!;
    againSource.records.products.set('4', { ...stale, name: 'Changed, but dated long ago' });
    const [fresh] = sampleData({ products: 15, customers: 0, orders: 0 }).products.slice(14);
    againSource.records.products.set(fresh!.id, fresh!);
    // 30 records now, 29 paid for: the free re-migration still needs the one record topped up.
    const short = await call(alice, 'POST', `/api/migrations/${id}/start`);
    expect(short.statusCode).toBe(402);
    expect(short.json().error.message).toMatch(/holds 30 records but 29 were paid for/);
    await pay(id, 30);
    // Held back from the runner for a moment: the new run's progress starts at zero, not at the
    // finished run's full bars.
    await engine.runner.stop();
    for (const wrong of ['yesterday', '2999-01-01']) {
      const refused = await call(alice, 'POST', `/api/migrations/${id}/start`, {
        changedSince: wrong,
      });
      expect(refused.statusCode, wrong).toBe(400);
    }
    const again = await call(alice, 'POST', `/api/migrations/${id}/start`, {
      changedSince: '2026-01-01',
    });
    expect(again.statusCode, again.body).toBe(200);
    expect((await engine.jobs.liveJob(id))?.changedSince).toBe('2026-01-01');
    expect(again.json()).toMatchObject({
      status: 'in-progress',
      currentStep: 4,
      completedAt: null,
    });
    // The re-run is timed on its own, from its own start.
    expect(Date.parse(again.json().startedAt)).toBeGreaterThanOrEqual(
      Date.parse(firstRun.completedAt),
    );
    const progress = (await call(alice, 'GET', `/migration-progress?migrationId=${id}`)).json();
    expect(progress).toMatchObject({
      state: 'queued',
      productsCompleted: 0,
      customersCompleted: 0,
      ordersCompleted: 0,
      overallProgress: 0,
    });
    expect(progress.productsTotal).toBeGreaterThan(0);
    await runToEnd(id);
    await engine.runner.stop();
    expect(againDestination.records.products.size).toBe(15);
    const lines = parse((await call(alice, 'GET', `/api/migrations/${id}/report.csv`)).body, {
      from_line: 2,
    });
    const products = lines.filter((l) => l[0] === 'product');
    expect(products.filter((l) => l[3] === 'migrated').map((l) => l[1])).toEqual(['15', '3']);
    expect(products.filter((l) => l[3] === 'skipped')).toHaveLength(13);
    expect(products.find((l) => l[1] === '4')?.join(' ')).toMatch(
      /Not changed at the source since 2026-01-01/,
    );
    expect(
      [...againDestination.records.products.values()].some(
        (p) => p.name === 'Changed, but dated long ago',
      ),
    ).toBe(false);
    expect(await engine.remigrations.list(id)).toMatchObject([{ number: 1, basis: 'first' }]);

    // The second re-migration is paid: refused with a clear 402 until the owner pays.
    const unpaid = await call(alice, 'POST', `/api/migrations/${id}/start`);
    expect(unpaid.statusCode).toBe(402);
    expect(unpaid.json().error).toMatchObject({ code: 'payment_required' });
    expect(unpaid.json().error.message).toMatch(/re-migration 2 .* first re-migration is free/);
    expect(unpaid.json().error.message).toContain('$99.30');
    expect(await engine.jobs.liveJob(id)).toBeUndefined();
    expect((await call(alice, 'GET', `/migration/${id}`)).json().status).toBe('completed');

    // Paid through the normal payment path (demo payments here: no Stripe key configured).
    const summary = await call(alice, 'GET', `/api/payments/summary?migrationId=${id}`);
    expect(summary.json()).toMatchObject({
      kind: 'remigration',
      records: 30,
      amountDueCents: 9930,
    });
    const paid = await call(alice, 'POST', '/api/payments/demo', {
      method: 'paypal',
      migrationId: id,
      email: 'alice@example.com',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().paymentInfo).toMatchObject({ amount: 9930 + 9930, paidRecords: 30 });
    const quotes = await db.kysely
      .selectFrom('payment_quotes')
      .select(['kind', 'remigration_number', 'status', 'amount_cents'])
      .where('migration_id', '=', id)
      .execute();
    expect(quotes).toEqual([
      { kind: 'remigration', remigration_number: 2, status: 'paid', amount_cents: 9930 },
    ]);
    // Nothing more to pay for this re-migration.
    const nothing = await call(alice, 'POST', '/api/payments/demo', {
      method: 'paypal',
      migrationId: id,
      email: 'alice@example.com',
    });
    expect(nothing.statusCode).toBe(409);

    const second = await call(alice, 'POST', `/api/migrations/${id}/start`);
    expect(second.statusCode, second.body).toBe(200);
    await runToEnd(id);
    await engine.runner.stop();
    expect(againDestination.records.products.size).toBe(15);
    const remigrations = await engine.remigrations.list(id);
    expect(remigrations.map((r) => [r.number, r.basis])).toEqual([
      [1, 'first'],
      [2, 'paid'],
    ]);
    expect(remigrations[1]?.quoteId).toBeTruthy();

    // The quote bought one re-migration, not two.
    const third = await call(alice, 'POST', `/api/migrations/${id}/start`);
    expect(third.statusCode).toBe(402);
    expect(third.json().error.message).toMatch(/re-migration 3/);
  });

  it('resumes a failed migration for free, without counting a re-migration', async () => {
    const { engine } = app.services;
    const id = await readyMigration('Failed once');
    await pay(id, 29);
    await recordRunFailure(engine.repository, id, 'store_unavailable', 'The store kept failing.');
    expect((await call(alice, 'GET', `/migration/${id}`)).json().status).toBe('failed');
    const resumed = await call(alice, 'POST', `/api/migrations/${id}/start`);
    expect(resumed.statusCode, resumed.body).toBe(200);
    await runToEnd(id);
    await engine.runner.stop();
    expect(await engine.remigrations.count(id)).toBe(0);
  });

  it('keeps re-migrations free for sandbox stores', async () => {
    const { engine } = app.services;
    const id = await readyMigration('Sandbox again');
    const isSandbox = engine.isSandbox;
    engine.isSandbox = (m) => m.sourceStoreUrl === SOURCE && m.destinationStoreUrl === DESTINATION;
    try {
      for (let run = 0; run < 3; run++) {
        const started = await call(alice, 'POST', `/api/migrations/${id}/start`);
        expect(started.statusCode, started.body).toBe(200);
        await runToEnd(id);
        await engine.runner.stop();
      }
    } finally {
      engine.isSandbox = isSandbox;
    }
    expect((await engine.remigrations.list(id)).map((r) => r.basis)).toEqual(['first', 'sandbox']);
  });

  it('verifies a completed migration again in full, for its owner and not while a run is live', async () => {
    const { engine } = app.services;
    const id = await readyMigration('Verify again', {
      stores: [VERIFY_SOURCE, VERIFY_DESTINATION],
    });
    const unfinished = await call(alice, 'POST', `/api/migrations/${id}/verify`);
    expect(unfinished.statusCode).toBe(409);
    expect(unfinished.json().error.code).toBe('not_completed');

    await pay(id, 29);
    expect((await call(alice, 'POST', `/api/migrations/${id}/start`)).statusCode).toBe(200);
    const whileQueued = await call(alice, 'POST', `/api/migrations/${id}/verify`);
    expect(whileQueued.statusCode).toBe(409);
    expect(whileQueued.json().error.code).toBe('run_active');
    await runToEnd(id);
    await engine.runner.stop();
    const run = await engine.repository.latestRun(id);
    expect(run?.verification).toMatchObject({ status: 'passed' });

    // Changed at the source after the run: only a verification that reads the source sees it.
    const product = verifySource.records.products.get('3')!;
    verifySource.records.products.set('3', { ...product, name: 'Renamed since the run' });
    expect((await call(bob, 'POST', `/api/migrations/${id}/verify`)).statusCode).toBe(404);
    const asked = await call(alice, 'POST', `/api/migrations/${id}/verify`);
    expect(asked.statusCode, asked.body).toBe(202);
    expect(verificationSchema.parse(asked.json()).status).toBe('running');
    expect((await call(alice, 'POST', `/api/migrations/${id}/verify`)).json().error.code).toBe(
      'run_active',
    );
    expect((await call(alice, 'GET', `/api/migrations/${id}/verification`)).json().status).toBe(
      'running',
    );
    expect(
      (await call(alice, 'GET', `/migration-progress?migrationId=${id}`)).json(),
    ).toMatchObject({ state: 'queued', overallProgress: 100 });

    engine.runner.start();
    const result = await waitFor(async () => {
      const v = verificationSchema.parse(
        (await call(alice, 'GET', `/api/migrations/${id}/verification`)).json(),
      );
      return v.status === 'passed' || v.status === 'failed' ? v : undefined;
    });
    await waitFor(async () =>
      (await engine.jobs.latestJob(id))?.state === 'done' ? true : undefined,
    );
    await engine.runner.stop();
    expect(result.status).toBe('failed');
    expect(result.entities.products).toMatchObject({ checked: 14, mismatched: 1 });
    expect(result.examples.map((x) => x.sourceId)).toContain('3');
    // The same run, verified again in full: no new run, nothing written, still completed.
    const after = await engine.repository.latestRun(id);
    expect(after).toMatchObject({ id: run?.id, phase: 'done', verifyMode: 'full' });
    expect(after?.verification).toMatchObject({ mode: 'full' });
    expect(verifyDestination.records.products.size).toBe(14);
    expect((await call(alice, 'GET', `/migration/${id}`)).json()).toMatchObject({
      status: 'completed',
      currentStep: 5,
    });
  });
});
