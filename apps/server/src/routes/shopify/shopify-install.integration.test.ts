import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { createTestApp } from '../../testing/test-app.ts';
import { cookieOf, signUp, testOrigin } from '../../testing/sign-up.ts';

const origin = testOrigin;
const shop = 'replatform-sandbox-destination.myshopify.com';

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
    const callback = new URL(approve.headers.get('location') ?? '');
    expect(callback.pathname).toBe('/api/shopify/callback');
    return { query: callback.search, stateCookie: cookieOf(start.headers['set-cookie']) };
  };

  beforeAll(async () => {
    ({ app, close } = await createTestApp({ SANDBOX_STORES: 'true' }));
  }, 120_000);
  afterAll(async () => {
    await close?.();
  });

  it('installs the app, stores the token sealed and returns to the migration with that side connected', async () => {
    const cookie = await signUp(app, 'installer@example.com');
    const id = await newMigration(cookie);
    const { query, stateCookie } = await begin(cookie, id);
    const done = await app.inject({
      method: 'GET',
      url: `/api/shopify/callback${query}`,
      headers: { cookie: `${cookie}; ${stateCookie}` },
    });
    expect(done.statusCode, done.body).toBe(302);
    expect(done.headers.location).toBe(`/migrations/${id}?shopify=connected`);
    const m = await migration(cookie, id);
    expect(m).toMatchObject({
      destinationStore: 'shopify',
      destinationStoreUrl: shop,
      destinationVerified: true,
    });
    expect(m.shopifyAccessToken).toMatch(/^••••••/);
    // The code is single use: replaying the same callback stores nothing new and fails.
    const replay = await app.inject({
      method: 'GET',
      url: `/api/shopify/callback${query}`,
      headers: { cookie: `${cookie}; ${stateCookie}` },
    });
    expect(replay.statusCode).toBeGreaterThanOrEqual(400);
  });

  it('refuses a forged HMAC, a missing or altered state, and a state from another session, storing no token', async () => {
    const alice = await signUp(app, 'alice-shop@example.com');
    const mallory = await signUp(app, 'mallory-shop@example.com');
    const id = await newMigration(alice);
    const { query, stateCookie } = await begin(alice, id);
    const params = new URLSearchParams(query);

    const forged = new URLSearchParams(params);
    forged.set('code', `${params.get('code')}x`);
    const tamperedHmac = new URLSearchParams(params);
    tamperedHmac.set('hmac', '0'.repeat(64));
    const otherState = new URLSearchParams(params);
    otherState.set('state', 'A'.repeat(32));

    const attempts: [string, string, string][] = [
      ['forged code', `?${forged}`, `${alice}; ${stateCookie}`],
      ['forged hmac', `?${tamperedHmac}`, `${alice}; ${stateCookie}`],
      ['missing state cookie', query, alice],
      ['state mismatch', `?${otherState}`, `${alice}; ${stateCookie}`],
      ['another session', query, `${mallory}; ${stateCookie}`],
      [
        'tampered cookie',
        query,
        `${alice}; ${stateCookie.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}`,
      ],
    ];
    for (const [name, q, cookie] of attempts) {
      const res = await app.inject({
        method: 'GET',
        url: `/api/shopify/callback${q}`,
        headers: { cookie },
      });
      expect(res.statusCode, name).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, name).toBeLessThan(500);
    }
    const m = await migration(alice, id);
    expect(m.destinationVerified).toBe(false);
    expect(m.shopifyAccessToken).toBeUndefined();
  });

  it(`refuses ${badShops.length} bad shop domains before any redirect`, async () => {
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
    expect((await migration(cookie, id)).sourceVerified).toBe(false);
  });
});
