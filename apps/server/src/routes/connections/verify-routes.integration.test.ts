import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import type { App } from '../../app.ts';
import { createTestApp } from '../../testing/test-app.ts';
import { signUp, testOrigin } from '../../testing/sign-up.ts';

const origin = testOrigin;

/**
 * Store verification end to end against the sandbox stores the app starts itself: real
 * connectors, the egress guard (sandbox origins allow-listed, everything private refused), the
 * credential vault, and the logs, the database and the API answers checked for secrets.
 */
describe('store verification and sandbox stores (integration)', () => {
  let app: App;
  let close: () => Promise<void>;
  let cookie: string;
  let logs = '';

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    app.inject({
      method,
      url,
      headers: { origin, cookie, ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { payload } : {}),
    });
  const newMigration = async () =>
    (await call('POST', '/api/migrations', { storeName: 'Sandbox test' })).json().id as string;

  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => (logs += chunk.toString()));
    ({ app, close } = await createTestApp(
      { SANDBOX_STORES: 'true', LOG_LEVEL: 'debug' },
      'sqlite',
      { logStream: stream },
    ));
    cookie = await signUp(app, 'owner@example.com', 'a long enough password');
  }, 120_000);
  afterAll(async () => {
    await close?.();
  });

  it('offers sandbox store details for every platform and side', async () => {
    for (const platform of ['woocommerce', 'magento2', 'bigcommerce', 'shopify']) {
      for (const side of ['source', 'destination']) {
        const res = await call('GET', `/api/sandbox-stores?platform=${platform}&side=${side}`);
        expect(res.statusCode, `${platform} ${side}`).toBe(200);
        expect(Object.keys(res.json().fields).length).toBeGreaterThan(1);
      }
    }
  });

  it('verifies a sandbox Magento source, stores the credentials sealed, masks them, and counts the source', async () => {
    const id = await newMigration();
    const { fields } = (
      await call('GET', '/api/sandbox-stores?platform=magento2&side=source')
    ).json();
    const res = await call('POST', '/verify-magento-connection', { ...fields, migrationId: id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'connected',
      message: 'Magento store connected successfully!',
    });

    const migration = (await call('GET', `/migration/${id}`)).json();
    expect(migration).toMatchObject({
      sourceStore: 'magento2',
      sourceVerified: true,
      sourceStoreUrl: fields.sourceStoreUrl,
    });
    expect(migration.consumerSecret).toMatch(/^••••••/);

    const counts = await call(
      'GET',
      `/get-total-migration-entities?migrationId=${id}&products=true&customers=true&orders=false`,
    );
    expect(counts.statusCode, counts.body).toBe(200);
    expect(counts.json()).toEqual({
      products: 1500,
      customers: 750,
      orders: 0,
      coupons: 0,
      reviews: 0,
      brands: 0,
      pages: 0,
      posts: 0,
    });
    const withCoupons = await call(
      'GET',
      `/get-total-migration-entities?migrationId=${id}&products=false&customers=false&orders=false&coupons=true&reviews=true&brands=true&pages=true&posts=true`,
    );
    // The sandbox store's six sample coupons, six brands (its manufacturer options) and five CMS
    // pages; reviews and blog posts count nothing where Magento is a store, since they cannot
    // move (and Magento is not asked).
    expect(withCoupons.json()).toEqual({
      products: 0,
      customers: 0,
      orders: 0,
      coupons: 6,
      reviews: 0,
      brands: 6,
      pages: 5,
      posts: 0,
    });
    // Counting is a read: the migration is left exactly as it was.
    expect((await call('GET', `/migration/${id}`)).json()).toEqual(migration);

    const row = await app.services.db.kysely
      .selectFrom('migrations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const everything = JSON.stringify(row) + JSON.stringify(migration) + logs;
    for (const value of [
      fields.consumerKey,
      fields.consumerSecret,
      fields.accessToken,
      fields.accessTokenSecret,
    ]) {
      expect(everything).not.toContain(value);
    }
  });

  it.each([
    ['woocommerce', '/verify-woocommerce-connection'],
    ['bigcommerce', '/verify-bigcommerce-connection'],
    ['shopify', '/verify-shopify-connection'],
  ])('verifies a sandbox %s store on both sides through its own route', async (platform, route) => {
    const id = await newMigration();
    for (const side of ['source', 'destination'] as const) {
      const { fields } = (
        await call('GET', `/api/sandbox-stores?platform=${platform}&side=${side}`)
      ).json();
      const res = await call('POST', route, { ...fields, migrationId: id, side });
      expect(res.statusCode, res.body).toBe(200);
    }
    const migration = (await call('GET', `/migration/${id}`)).json();
    expect(migration).toMatchObject({
      sourceStore: platform,
      destinationStore: platform,
      sourceVerified: true,
      destinationVerified: true,
    });
    const counts = (await call('GET', `/get-total-migration-entities?migrationId=${id}`)).json();
    // Without the coupons, reviews and brands flags, the sketch's three types only.
    expect(counts).toEqual({
      products: 1500,
      customers: 750,
      orders: 250,
      coupons: 0,
      reviews: 0,
      brands: 0,
      pages: 0,
      posts: 0,
    });
    const reviews = (
      await call(
        'GET',
        `/get-total-migration-entities?migrationId=${id}&reviews=true&pages=true&posts=true`,
      )
    ).json();
    // The sandbox store's seven sample reviews, five pages and four blog posts (a WooCommerce
    // sandbox is connected with its WordPress application password, shown masked).
    expect(reviews).toMatchObject({ reviews: 7, pages: 5, posts: 4 });
    if (platform === 'woocommerce')
      expect(migration).toMatchObject({
        wordpressUser: 'admin',
        wordpressApplicationPassword: expect.stringMatching(/^••••••/),
        destinationWordpressApplicationPassword: expect.stringMatching(/^••••••/),
      });
  });

  it('leaves the pages and posts of a WooCommerce store connected without WordPress access unavailable, with what to do', async () => {
    const id = await newMigration();
    for (const side of ['source', 'destination'] as const) {
      const { fields } = (
        await call('GET', `/api/sandbox-stores?platform=woocommerce&side=${side}`)
      ).json();
      const { wordpressUser, wordpressApplicationPassword, ...keysOnly } = fields as Record<
        string,
        string
      >;
      expect(wordpressUser && wordpressApplicationPassword).toBeTruthy();
      const res = await call('POST', '/verify-woocommerce-connection', {
        ...(side === 'source' ? keysOnly : fields),
        migrationId: id,
        side,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const migration = (await call('GET', `/migration/${id}`)).json();
    expect(migration.wordpressApplicationPassword).toBeUndefined();
    const counts = (
      await call('GET', `/get-total-migration-entities?migrationId=${id}&pages=true&posts=true`)
    ).json();
    expect(counts).toMatchObject({ pages: 0, posts: 0 });
    const refused = await call('PATCH', `/api/migrations/${id}`, {
      dataTypes: { products: true, pages: true },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: 'data_type_unavailable',
      message: expect.stringMatching(
        /source WooCommerce store was connected without a WordPress application password/,
      ),
    });
    // Only half of the pair is refused at once, with the field named.
    const half = await call('POST', '/verify-woocommerce-connection', {
      ...((await call('GET', '/api/sandbox-stores?platform=woocommerce&side=source')).json()
        .fields as Record<string, string>),
      wordpressApplicationPassword: '',
      migrationId: id,
      side: 'source',
    });
    expect(half.statusCode).toBe(400);
  });

  it('refuses wrong credentials with a clear error and stores nothing', async () => {
    const id = await newMigration();
    const { fields } = (
      await call('GET', '/api/sandbox-stores?platform=magento2&side=destination')
    ).json();
    const res = await call('POST', '/verify-magento-connection', {
      ...fields,
      consumerSecret: 'wrong-secret',
      migrationId: id,
      side: 'destination',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('verification_failed');
    const migration = (await call('GET', `/migration/${id}`)).json();
    expect(migration).toMatchObject({ destinationStore: '', destinationVerified: false });
    expect(migration.destinationConsumerKey).toBeUndefined();
  });

  it('refuses store addresses on private networks, except the allow-listed sandbox origins', async () => {
    const id = await newMigration();
    for (const url of [
      'http://127.0.0.1:9/',
      'http://10.0.0.5/',
      'http://169.254.169.254/latest/meta-data/',
      'http://localhost:4001/',
      'http://[::1]/',
      'http://2130706433/',
    ]) {
      const res = await call('POST', '/verify-magento-connection', {
        sourceStoreUrl: url,
        consumerKey: 'k',
        consumerSecret: 's',
        accessToken: 't',
        accessTokenSecret: 'u',
        migrationId: id,
      });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
    }
    expect((await call('GET', `/migration/${id}`)).json().sourceVerified).toBe(false);
  });

  it("answers 404 for another user's migration", async () => {
    const intruder = await signUp(app, 'intruder@example.com', 'another long password');
    const id = await newMigration();
    const { fields } = (
      await call('GET', '/api/sandbox-stores?platform=magento2&side=source')
    ).json();
    const res = await app.inject({
      method: 'POST',
      url: '/verify-magento-connection',
      headers: { origin, cookie: intruder, 'content-type': 'application/json' },
      payload: { ...fields, migrationId: id },
    });
    expect(res.statusCode).toBe(404);
  });
});

/**
 * WooCommerce keys have permissions of their own (read, write, read/write): a store verified
 * with the wrong kind of key must not fail only later, in the middle of a paid migration.
 */
describe('WooCommerce store verification and API key permissions (integration)', () => {
  let app: App;
  let close: () => Promise<void>;
  let cookie: string;
  let store: RunningWooCommerceEmulator;
  const keys = {
    readWrite: { consumerKey: 'ck_readwrite0001', consumerSecret: 'cs_readwrite0001' },
    read: { consumerKey: 'ck_readonly0001', consumerSecret: 'cs_readonly0001' },
    write: { consumerKey: 'ck_writeonly0001', consumerSecret: 'cs_writeonly0001' },
  };

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({
      method,
      url,
      headers: { origin, cookie, ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { payload } : {}),
    });
  const verify = async (
    key: { consumerKey: string; consumerSecret: string },
    side: 'source' | 'destination',
  ) => {
    const id = (await call('POST', '/api/migrations', { storeName: 'Woo keys' })).json()
      .id as string;
    const res = await call('POST', '/verify-woocommerce-connection', {
      sourceStoreUrl: store.url,
      ...key,
      migrationId: id,
      side,
    });
    return { res, migration: (await call('GET', `/migration/${id}`)).json() };
  };

  beforeAll(async () => {
    store = await startWooCommerceEmulator({
      seed: { seed: 4, products: 3, customers: 2, orders: 2 },
      ...keys.readWrite,
      extraKeys: [
        { ...keys.read, permissions: 'read' },
        { ...keys.write, permissions: 'write' },
      ],
    });
    ({ app, close } = await createTestApp({ EGRESS_ALLOWLIST: store.url }));
    cookie = await signUp(app, 'woo-owner@example.com', 'a long enough password');
  }, 120_000);
  afterAll(async () => {
    await close?.();
    await store?.close();
  });

  it('verifies a read/write key on both sides, and changes nothing at the store doing so', async () => {
    const before = store.store.counts();
    for (const side of ['source', 'destination'] as const) {
      const { res, migration } = await verify(keys.readWrite, side);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        status: 'connected',
        message: 'WooCommerce store connected successfully!',
      });
      expect(migration).toMatchObject(
        side === 'source' ? { sourceVerified: true } : { destinationVerified: true },
      );
    }
    expect(store.store.counts()).toEqual(before);
  });

  it('accepts a read-only key for the source, where nothing is written', async () => {
    const { res, migration } = await verify(keys.read, 'source');
    expect(res.statusCode, res.body).toBe(200);
    expect(migration).toMatchObject({ sourceStore: 'woocommerce', sourceVerified: true });
  });

  // A destination must be writable: the route asks the connector to prove write access, so a
  // read-only key is refused now rather than after payment, at the first write.
  it('refuses a read-only key for the destination, with the reason', async () => {
    const { res, migration } = await verify(keys.read, 'destination');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'verification_failed',
      message: expect.stringMatching(/may only read.*Read\/Write/),
    });
    expect(migration).toMatchObject({ destinationVerified: false });
  });

  it('refuses a write-only key, which cannot read the store, and stores nothing', async () => {
    for (const side of ['source', 'destination'] as const) {
      const { res, migration } = await verify(keys.write, side);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'verification_failed',
        message: expect.stringMatching(/does not have read permissions/),
      });
      expect(migration).toMatchObject({ sourceVerified: false, destinationVerified: false });
      expect(JSON.stringify(migration)).not.toContain(keys.write.consumerSecret);
    }
  });

  it('refuses a wrong secret with a clear error', async () => {
    const { res } = await verify(
      { consumerKey: keys.readWrite.consumerKey, consumerSecret: 'cs_wrongwrongwrong' },
      'source',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('verification_failed');
  });
});
