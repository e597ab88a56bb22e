import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedMessage } from '@replatform/connectors/shopify/oauth';
import type { App } from '../../app.ts';
import { createTestApp } from '../../testing/test-app.ts';
import { cookieOf, signUp, testOrigin } from '../../testing/sign-up.ts';
import { INSTALL_COOKIE, installCookieValue } from './shopify-install-routes.ts';

const origin = testOrigin;

const badShops = [
  'evil.com',
  'shop.myshopify.com.evil.com',
  'myshopify.com',
  '.myshopify.com',
  'a..myshopify.com',
  '-shop.myshopify.com',
  'shop.myshopify.co',
  'shop.myshopify.com:443',
  'shop.myshopify.com/admin',
  'https://shop.myshopify.com',
  'shop.myshopify.com?x=1',
  'shop.myshopify.com#x',
  'user@shop.myshopify.com',
  'shop@evil.com',
  'shop.myshopify.com@evil.com',
  'shop .myshopify.com',
  'shop%2emyshopify.com',
  'shop.myshopify.com%00',
  'shop\u0000.myshopify.com',
  'shop.myshopify.com.',
  'sub.shop.myshopify.com',
  'shop.shopify.com',
  'shop.myshopify.org',
  'shop.myshopifycom',
  'shopmyshopify.com',
  'shop_name.myshopify.com',
  'shop!.myshopify.com',
  'shop$.myshopify.com',
  '127.0.0.1',
  'localhost',
  '[::1]',
  '169.254.169.254',
  '10.0.0.1.myshopify.com.evil',
  'xn--shp-xla.evil.com',
  'shop.myshopify.com\\evil.com',
  'shop.myshopify.com/../evil',
  '//evil.com',
  'javascript:alert(1)',
  'data:text/html,x',
  'file:///etc/passwd',
  'shop.my-shopify.com',
  'shop.myshopify.com.evil.com.',
  'ſhop.myshopify.com',
  'shop.myshopify.cοm',
  'shop.myshopify.com\tx',
  'shop.myshopify.com\nx',
  'a'.repeat(300) + '.myshopify.com',
  '',
  ' ',
  'myshopify.com.evil.com',
  'shop.MYSHOPIFY.com.evil',
  'shop;.myshopify.com',
];

/** Shopify app install against the sandbox shop's emulator (real HMAC signing and code exchange). */
describe('Shopify app install (integration)', () => {
  let app: App;
  let close: () => Promise<void>;
  /** The sandbox shops, each with its own emulated app. */
  let shop = '';
  let sourceShop = '';

  const newMigration = async (cookie: string) =>
    (
      await app.inject({
        method: 'POST',
        url: '/api/migrations',
        headers: { origin, cookie, 'content-type': 'application/json' },
        payload: { storeName: 'To Shopify' },
      })
    ).json().id as string;
  const migration = async (cookie: string, id: string) =>
    (await app.inject({ method: 'GET', url: `/migration/${id}`, headers: { cookie } })).json();
  const userIdOf = async (cookie: string) => {
    const session = await app.services.auth.betterAuth.api.getSession({
      headers: new Headers({ cookie }),
    });
    if (!session) throw new Error('not signed in');
    return session.user.id;
  };
  /** The migration as stored: what the callback wrote, whatever the API shows. */
  const storedRow = async (cookie: string, id: string) =>
    app.services.migrations.findForUser(id, await userIdOf(cookie));
  const signIn = async (email: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { origin, 'content-type': 'application/json' },
      payload: { email, password: 'correct horse battery staple' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return cookieOf(res.headers['set-cookie']);
  };
  const secretOf = (forShop: string) => {
    const secret = app.services.sandbox?.shopifyApp(forShop)?.apiSecret;
    if (!secret) throw new Error(`no sandbox app for ${forShop}`);
    return secret;
  };
  /** A callback query altered as a test needs and signed again with the app's secret, as Shopify would. */
  const resigned = (query: string, change: (params: URLSearchParams) => void, secret?: string) => {
    const params = new URLSearchParams(query);
    params.delete('hmac');
    change(params);
    params.set(
      'hmac',
      createHmac('sha256', secret ?? secretOf(shop))
        .update(signedMessage([...params]))
        .digest('hex'),
    );
    return `?${params}`;
  };
  const callback = (query: string, cookie: string) =>
    app.inject({ method: 'GET', url: `/api/shopify/callback${query}`, headers: { cookie } });

  /** Starts an install and lets the emulator approve it; answers the callback query and the state cookie. */
  const begin = async (cookie: string, id: string) => {
    const start = await app.inject({
      method: 'GET',
      url: `/api/shopify?shop=${shop}&migration_id=${id}&side=destination`,
      headers: { cookie },
    });
    expect(start.statusCode, start.body).toBe(302);
    const approve = await fetch(String(start.headers.location), { redirect: 'manual' });
    expect(approve.status).toBe(302);
    const url = new URL(approve.headers.get('location') ?? '');
    expect(url.pathname).toBe('/api/shopify/callback');
    return { query: url.search, stateCookie: cookieOf(start.headers['set-cookie']) };
  };

  beforeAll(async () => {
    ({ app, close } = await createTestApp({ SANDBOX_STORES: 'true' }));
    shop = app.services.sandbox?.fields('shopify', 'destination')?.sourceStoreUrl ?? '';
    sourceShop = app.services.sandbox?.fields('shopify', 'source')?.sourceStoreUrl ?? '';
    expect(shop).toMatch(/\.myshopify\.com$/);
    expect(sourceShop).toMatch(/\.myshopify\.com$/);
  }, 120_000);
  afterAll(async () => {
    await close?.();
  });

  it('installs the app, stores the token sealed and returns to the migration with that side connected', async () => {
    const cookie = await signUp(app, 'installer@example.com');
    const id = await newMigration(cookie);
    const { query, stateCookie } = await begin(cookie, id);
    const done = await callback(query, `${cookie}; ${stateCookie}`);
    expect(done.statusCode, done.body).toBe(302);
    expect(done.headers.location).toBe(`/migrations/${id}?shopify=connected`);
    const m = await migration(cookie, id);
    expect(m).toMatchObject({
      destinationStore: 'shopify',
      destinationStoreUrl: shop,
      destinationVerified: true,
    });
    expect(m.shopifyAccessToken).toMatch(/^••••••/);
    expect((await storedRow(cookie, id))?.destinationCredentials).toEqual(expect.any(String));
    // The code is single use: replaying the same callback stores nothing new and fails.
    const replay = await callback(query, `${cookie}; ${stateCookie}`);
    expect(replay.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('refuses each check’s failure with its own error, storing no token, and the untouched callback still works', async () => {
    const aliceEmail = 'alice-shop@example.com';
    const alice = await signUp(app, aliceEmail);
    const mallory = await signUp(app, 'mallory-shop@example.com');
    const id = await newMigration(alice);
    const { query, stateCookie } = await begin(alice, id);
    const params = new URLSearchParams(query);
    const state = params.get('state') ?? '';

    const forged = new URLSearchParams(params);
    forged.set('code', `${params.get('code')}x`);
    const forgedHmac = new URLSearchParams(params);
    forgedHmac.set('hmac', '0'.repeat(64));
    const expired = installCookieValue(app.services.vault, {
      state,
      userId: await userIdOf(alice),
      session: 'does-not-matter',
      migrationId: id,
      side: 'destination',
      shop,
      expires: Date.now() - 1000,
    });
    const tampered = stateCookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    const otherSession = await signIn(aliceEmail);
    expect(otherSession).not.toBe(alice);

    const attempts: [string, string, string, number, string][] = [
      ['forged code', `?${forged}`, `${alice}; ${stateCookie}`, 400, 'invalid_hmac'],
      ['forged hmac', `?${forgedHmac}`, `${alice}; ${stateCookie}`, 400, 'invalid_hmac'],
      [
        'stale timestamp',
        resigned(query, (p) => p.set('timestamp', String(Math.floor(Date.now() / 1000) - 3600))),
        `${alice}; ${stateCookie}`,
        400,
        'stale_callback',
      ],
      ['missing state cookie', query, alice, 400, 'invalid_state'],
      ['tampered state cookie', query, `${alice}; ${tampered}`, 400, 'invalid_state'],
      [
        'expired state cookie',
        query,
        `${alice}; ${INSTALL_COOKIE}=${expired}`,
        400,
        'expired_state',
      ],
      [
        'state mismatch',
        resigned(query, (p) => p.set('state', 'A'.repeat(32))),
        `${alice}; ${stateCookie}`,
        400,
        'invalid_state',
      ],
      [
        'missing state',
        resigned(query, (p) => p.delete('state')),
        `${alice}; ${stateCookie}`,
        400,
        'invalid_state',
      ],
      [
        'another shop, signed by its own app',
        resigned(query, (p) => p.set('shop', sourceShop), secretOf(sourceShop)),
        `${alice}; ${stateCookie}`,
        400,
        'shop_mismatch',
      ],
      ['another account', query, `${mallory}; ${stateCookie}`, 400, 'session_mismatch'],
      [
        'another session of the same account',
        query,
        `${otherSession}; ${stateCookie}`,
        400,
        'session_mismatch',
      ],
      ['signed out', query, stateCookie, 401, 'unauthenticated'],
    ];
    for (const [name, q, cookie, status, code] of attempts) {
      const res = await callback(q, cookie);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
      expect(res.json().error.code, name).toBe(code);
      expect(res.headers.location, name).toBeUndefined();
    }
    const row = await storedRow(alice, id);
    expect(row?.destinationCredentials).toBeNull();
    expect(row?.destinationVerified).toBe(false);
    expect((await migration(alice, id)).shopifyAccessToken).toBeUndefined();

    // None of the refusals spent the code: the genuine callback of the right session goes through.
    const done = await callback(query, `${alice}; ${stateCookie}`);
    expect(done.statusCode, done.body).toBe(302);
    expect((await storedRow(alice, id))?.destinationCredentials).toEqual(expect.any(String));
  });

  it('does not store a token on a side a payment made meanwhile locked', async () => {
    const cookie = await signUp(app, 'paid-shop@example.com');
    const id = await newMigration(cookie);
    const { query, stateCookie } = await begin(cookie, id);
    // Paid meanwhile with another destination connected in another tab.
    await app.services.migrations.update(id, await userIdOf(cookie), {
      destinationStore: 'woocommerce',
      destinationStoreUrl: 'https://other-destination.example.com',
      destinationVerified: true,
      paymentInfo: { paymentStatus: 'paid', amount: 500, currency: 'USD', paymentDate: null },
    });
    const res = await callback(query, `${cookie}; ${stateCookie}`);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('migration_paid');
    expect((await storedRow(cookie, id))?.destinationCredentials).toBeNull();
  });

  it('stores nothing over a migration that changed while the code was exchanged', async () => {
    const cookie = await signUp(app, 'changed-shop@example.com');
    const id = await newMigration(cookie);
    const { query, stateCookie } = await begin(cookie, id);
    const repository = app.services.migrations;
    const read = repository.findForUser.bind(repository);
    // The owner renames the migration in another tab just after the callback read it.
    const spy = vi.spyOn(repository, 'findForUser').mockImplementationOnce(async (mid, uid) => {
      const found = await read(mid, uid);
      await repository.update(mid, uid, { storeName: 'Renamed meanwhile' });
      return found;
    });
    try {
      const res = await callback(query, `${cookie}; ${stateCookie}`);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.code).toBe('conflict');
    } finally {
      spy.mockRestore();
    }
    const row = await storedRow(cookie, id);
    expect(row).toMatchObject({ storeName: 'Renamed meanwhile', destinationCredentials: null });
  });

  it(`refuses ${badShops.length} bad shop domains before any redirect, and in a signed callback`, async () => {
    expect(badShops.length).toBeGreaterThanOrEqual(50);
    const cookie = await signUp(app, 'domains@example.com');
    const id = await newMigration(cookie);
    for (const bad of badShops) {
      const res = await app.inject({
        method: 'GET',
        url: `/api/shopify?${new URLSearchParams({ shop: bad, migration_id: id })}`,
        headers: { cookie },
      });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.headers.location).toBeUndefined();
    }
    const { query, stateCookie } = await begin(cookie, id);
    for (const bad of badShops) {
      const res = await callback(
        resigned(query, (p) => p.set('shop', bad)),
        `${cookie}; ${stateCookie}`,
      );
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().error.code, JSON.stringify(bad)).toBe('invalid_shop');
    }
    const row = await storedRow(cookie, id);
    expect(row?.sourceVerified).toBe(false);
    expect(row?.destinationCredentials).toBeNull();
  });
});
