import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startStripeEmulator,
  type RunningStripeEmulator,
} from '@replatform/emulators/stripe/stripe-emulator';
import type { App } from '../app.ts';
import { openEndpoints } from '../auth/register-auth.ts';
import { createTestApp } from '../testing/test-app.ts';
import { signUp, testOrigin } from '../testing/sign-up.ts';

/**
 * Malformed input on every JSON route answers 4xx, never 5xx: malformed store addresses in every
 * string field, bodies nested thousands deep (whole, and inside each field), wrong types, broken
 * JSON, and malformed paths and query strings. The routes come from the app's own route table,
 * so a route added later is covered without touching this file.
 */

/** Store addresses that no URL parser should turn into a request (and none may crash on). */
const malformedUrls = [
  '//host/',
  '//shop.example.com/wp-json',
  'file:///etc/passwd',
  'file://host/share',
  'shop',
  'https://',
  'https://[::1',
  'https://a b.example.com',
  'http://%zz',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'https://user:pass@',
  ':',
  '\u0000',
  '%',
  '..%2f..%2f',
  'https://xn--',
  'ftp://shop.example.com',
  'x'.repeat(5000),
];

const nest = (depth: number, leaf: unknown, kind: 'object' | 'array') => {
  // Built as text: a value this deep would already overflow the stack of JSON.stringify.
  const open = kind === 'object' ? '{"a":' : '[';
  const close = kind === 'object' ? '}' : ']';
  return `${open.repeat(depth)}${JSON.stringify(leaf)}${close.repeat(depth)}`;
};

/** The string fields any of our bodies has, so each gets the malformed values in turn. */
const fieldNames = [
  'migrationId',
  'side',
  'sourceStoreUrl',
  'storeHash',
  'shopDomain',
  'consumerKey',
  'consumerSecret',
  'accessToken',
  'accessTokenSecret',
  'storeName',
  'sessionId',
  'email',
  'password',
  'name',
  'newEmail',
  'currentPassword',
  'newPassword',
  'token',
  'method',
  'cardNumber',
  'expiry',
  'message',
  'subject',
  'provider',
  'callbackURL',
  'theme',
];

/** How many of bodies() are whole-body cases (before the per-field ones). */
const wholeBodies = 9;

function bodies(): string[] {
  const out: string[] = [
    '',
    '{',
    'null',
    '[]',
    '"text"',
    '12',
    '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
    nest(20_000, 1, 'object'),
    nest(20_000, 1, 'array'),
  ];
  for (const [i, field] of fieldNames.entries()) {
    out.push(`{"${field}":${nest(2000, 'x', i % 2 ? 'array' : 'object')}}`);
    out.push(JSON.stringify({ [field]: i % 2 ? 12 : ['a'] }));
  }
  for (const [i, url] of malformedUrls.entries()) {
    out.push(
      JSON.stringify(Object.fromEntries(fieldNames.map((f) => [f, url]))),
      JSON.stringify({
        migrationId: '%MID%',
        side: i % 2 ? 'source' : 'destination',
        sourceStoreUrl: url,
        storeHash: url,
        shopDomain: url,
      }),
    );
  }
  return out;
}

const pathValues = ['%', '%E0%A4%A', '..%2F..%2Fetc', '%00', 'x'.repeat(3000), '🙂', '%MID%'];
const queries = [
  '',
  '?migrationId=%',
  '?migrationId=%MID%&migrationId=%MID%',
  '?migrationId[a][b]=1',
  '?migrationId=%MID%&products=maybe&shop=//host/',
  `?${'a='.repeat(2000)}`,
  '?shop=file:///etc/passwd&migration_id=%MID%&side=sideways',
  '?migrationId=%MID%&platform=nope&side=source',
  `?migrationId=${'x'.repeat(5000)}`,
  '?platform=woocommerce&side=destination&migrationId=%MID%',
];

interface Route {
  method: string;
  url: string;
}

/** The app's routes, from its printed route tree (children under their parents). */
function routesOf(app: App): Route[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: Route[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    const path = `${stack.join('')}${match[2]}`;
    stack.push(match[2] ?? '');
    for (const method of (match[3] ?? '').split(', ')) {
      if (method !== 'HEAD') routes.push({ method, url: path });
    }
  }
  return routes;
}

describe('malformed input on every JSON route', () => {
  let app: App;
  let close: () => Promise<void>;
  let stripe: RunningStripeEmulator;
  let cookie: string;
  let migrationId: string;
  let address = 0;

  beforeAll(async () => {
    stripe = await startStripeEmulator();
    ({ app, close } = await createTestApp({
      SANDBOX_STORES: 'true',
      SANDBOX_COUNTS: '3,2,1',
      STRIPE_SECRET_KEY: 'sk_test_malformed',
      STRIPE_WEBHOOK_SECRET: 'whsec_malformed',
      STRIPE_API_BASE: stripe.url,
    }));
    cookie = await signUp(app, 'fuzz@example.com');
    const created = await app.inject({
      method: 'POST',
      url: '/api/migrations',
      headers: { origin: testOrigin, cookie, 'content-type': 'application/json' },
      payload: { storeName: 'Fuzzed' },
    });
    migrationId = created.json().id;
  });
  afterAll(async () => {
    await close();
    await stripe.close();
  });

  /** Every request from another address, so the per-address limits never hide a route. */
  async function send(method: string, url: string, body: string | undefined, signedIn: boolean) {
    address += 1;
    const res = await app.inject({
      method: method as 'GET',
      url: url.replaceAll('%MID%', migrationId),
      remoteAddress: `198.18.${(address >> 8) & 255}.${address & 255}`,
      headers: {
        origin: testOrigin,
        ...(signedIn ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: body.replaceAll('%MID%', migrationId) }),
    });
    return {
      status: res.statusCode,
      body: res.body,
      type: String(res.headers['content-type']),
      cache: String(res.headers['cache-control']),
    };
  }

  it('answers a malformed store address on every verify route with 400 naming the field', async () => {
    const credentials: Record<string, Record<string, string>> = {
      woocommerce: { consumerKey: 'ck_abc', consumerSecret: 'cs_abc' },
      magento: {
        consumerKey: 'a'.repeat(32),
        consumerSecret: 'b'.repeat(32),
        accessToken: 'c'.repeat(32),
        accessTokenSecret: 'd'.repeat(32),
      },
      bigcommerce: { accessToken: 'e'.repeat(31) },
      shopify: { accessToken: 'shpat_0123456789abcdef' },
    };
    for (const [platform, fields] of Object.entries(credentials)) {
      // A bare word is a well-formed BigCommerce store hash, so it is malformed only elsewhere.
      const bare = platform === 'bigcommerce' ? 'a shop' : 'shop';
      for (const url of [
        '//host/',
        'file:///etc/passwd',
        'file://host/share',
        bare,
        'https://[::1',
      ]) {
        const res = await send(
          'POST',
          `/verify-${platform}-connection`,
          JSON.stringify({ migrationId: '%MID%', side: 'source', sourceStoreUrl: url, ...fields }),
          true,
        );
        expect(res.status, `${platform} ${url}: ${res.body}`).toBe(400);
        const { error } = JSON.parse(res.body) as {
          error: { code: string; message: string; details: string[] };
        };
        expect(error.code, `${platform} ${url}: ${res.body}`).toBe('invalid_credentials');
        expect(error.message, `${platform} ${url}`).toMatch(/^Store URL: /);
        expect(error.details[0], `${platform} ${url}`).toMatch(/^sourceStoreUrl: /);
      }
    }
  });

  it('answers a deeply nested body on /api/auth/* with 400', async () => {
    for (const [path] of openEndpoints) {
      if (!openEndpoints.get(path)?.has('POST')) continue;
      for (const body of [nest(10_000, 1, 'object'), `{"email":${nest(50, 'x', 'array')}}`]) {
        const res = await send('POST', path, body, false);
        expect(res.status, `${path}: ${res.body}`).toBe(400);
        expect(JSON.parse(res.body).error.code).toBe('invalid_request');
      }
    }
  });

  it('answers every malformed URL, query and body with a 4xx JSON error, never a 5xx', async () => {
    // The built web app's files (a source map reads as JSON) are public and cached on purpose.
    const routes = routesOf(app).filter(
      (r) => r.url !== '*' && !r.url.startsWith('/api/auth/') && !r.url.startsWith('/assets/'),
    );
    for (const [path, methods] of openEndpoints) {
      for (const method of methods) routes.push({ method, url: path });
    }
    // The table really is the app's: the routes this file knows by name are all in it.
    const listed = routes.map((r) => `${r.method} ${r.url}`);
    for (const known of [
      'POST /verify-woocommerce-connection',
      'POST /api/payments/demo',
      'PATCH /api/migrations/:id',
      'POST /api/auth/sign-up/email',
      'GET /get-total-migration-entities',
    ]) {
      expect(listed).toContain(known);
    }
    expect(routes.length).toBeGreaterThanOrEqual(45);

    const failures: string[] = [];
    let sent = 0;
    const check = async (method: string, url: string, body?: string, signedOutToo = true) => {
      for (const signedIn of signedOutToo ? [true, false] : [true]) {
        const res = await send(method, url, body, signedIn);
        sent += 1;
        const where = `${method} ${url.slice(0, 80)} ${signedIn ? 'signed in' : 'signed out'} body ${body?.slice(0, 60)}`;
        if (res.status >= 500) failures.push(`${res.status} ${where}: ${res.body.slice(0, 200)}`);
        if (res.type.includes('json') && !res.cache.includes('no-store'))
          failures.push(`cacheable: ${where}`);
        if (res.status >= 400 && res.type.includes('application/json')) {
          const error = (JSON.parse(res.body) as { error?: { code?: unknown } }).error;
          if (typeof error?.code !== 'string')
            failures.push(`no error code: ${where}: ${res.body.slice(0, 200)}`);
        }
      }
    };

    for (const route of routes) {
      const paths = route.url.includes(':')
        ? pathValues.map((value) => route.url.replace(/:[A-Za-z]+/g, encodeURI(value)))
        : [route.url];
      for (const path of paths) {
        for (const query of queries) await check(route.method, `${path}${query}`);
      }
      if (route.method === 'GET') continue;
      // Signed out, most routes stop at the session check: the whole-body cases suffice there.
      for (const [i, body] of bodies().entries())
        await check(route.method, route.url, body, i < wholeBodies);
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(4_000);
  }, 600_000);
});
