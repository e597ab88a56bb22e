import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type {
  ConnectorHttp,
  ConnectorHttpRequest,
  ConnectorHttpResponse,
} from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { verifySignature } from '../kit/oauth1/oauth1.ts';
import { parseRetryAfter } from '../kit/http/retry.ts';
import { WooClient } from './client.ts';
import { normaliseStoreUrl, wooCommerceCredentialsSchema } from './credentials.ts';

type Step = ConnectorHttpResponse | Error;

const json = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): ConnectorHttpResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: new TextEncoder().encode(JSON.stringify(body)),
});

function scripted(steps: Step[]): ConnectorHttp & { seen: ConnectorHttpRequest[] } {
  const seen: ConnectorHttpRequest[] = [];
  return {
    seen,
    async request(request) {
      seen.push(request);
      const step = steps.shift();
      if (!step) throw new Error('no more scripted answers');
      if (step instanceof Error) throw step;
      return step;
    },
  };
}

const secret = 'cs_0123456789abcdef';
const credentials = (storeUrl: string) => ({
  storeUrl,
  consumerKey: 'ck_0123456789abcdef',
  consumerSecret: secret,
});

function client(storeUrl: string, steps: Step[], sleeps: number[] = []) {
  const http = scripted(steps);
  const c = new WooClient(
    credentials(storeUrl),
    { http },
    {
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      random: () => 1,
      baseDelayMs: 100,
      maxAttempts: 4,
    },
  );
  return { c, http };
}

const anything = z.unknown();

describe('WooCommerce client', () => {
  it('signs every http request with a fresh one-legged OAuth 1.0a signature in the query', async () => {
    const { c, http } = client('http://shop.test', [json(503, {}), json(200, [])]);
    await c.get('/products', { per_page: 100 }, anything);
    expect(http.seen).toHaveLength(2);
    const nonces = http.seen.map((r) => new URL(r.url).searchParams.get('oauth_nonce'));
    expect(new Set(nonces).size).toBe(2);
    for (const request of http.seen) {
      const url = new URL(request.url);
      expect(url.searchParams.get('oauth_signature_method')).toBe('HMAC-SHA256');
      expect(request.headers?.authorization).toBeUndefined();
      const oauth = Object.fromEntries(
        [...url.searchParams].filter(([k]) => k.startsWith('oauth_')),
      );
      expect(
        verifySignature({ method: 'GET', url: request.url, oauth, consumerSecret: secret }),
      ).toBe(true);
    }
  });

  it('tells the transport never to repeat a request, since each attempt is signed for itself', async () => {
    const { c, http } = client('http://shop.test', [
      json(502, {}),
      json(200, []),
      json(200, { value: 'no' }),
    ]);
    await c.get('/products', {}, anything);
    await c.request('PUT', '/settings/email_new_order/enabled', {
      body: { value: 'no' },
      retryable: true,
      schema: anything,
    });
    expect(http.seen.map((r) => r.retryable)).toEqual([false, false, false]);
    expect(http.seen.every((r) => r.signal instanceof AbortSignal)).toBe(true);
  });

  it('abandons an attempt at its deadline through the signal, then tries again', async () => {
    const aborted: unknown[] = [];
    let calls = 0;
    const http: ConnectorHttp = {
      request: (request) => {
        calls += 1;
        if (calls > 1) return Promise.resolve(json(200, [1]));
        // A store that never answers: only the signal ends the wait.
        return new Promise((_, reject) => {
          request.signal?.addEventListener('abort', () => {
            aborted.push(request.signal?.reason);
            reject(new Error('aborted'));
          });
        });
      },
    };
    const c = new WooClient(
      credentials('http://shop.test'),
      { http },
      {
        timeoutMs: 30,
        sleep: async () => {},
      },
    );
    expect((await c.get('/orders', {}, anything)).data).toEqual([1]);
    expect(calls).toBe(2);
    expect(aborted).toHaveLength(1);
    expect(aborted[0]).toMatchObject({ errorClass: 'transient', code: 'timeout' });
  });

  it("stops at once, without retrying, when the caller's signal aborts", async () => {
    const controller = new AbortController();
    let calls = 0;
    const http: ConnectorHttp = {
      request: (request) => {
        calls += 1;
        return new Promise((_, reject) => {
          request.signal?.addEventListener('abort', () => reject(request.signal?.reason));
        });
      },
    };
    const c = new WooClient(credentials('http://shop.test'), { http, signal: controller.signal });
    const pending = c.get('/orders', {}, anything);
    controller.abort(new Error('run interrupted'));
    await expect(pending).rejects.toThrow('run interrupted');
    expect(calls).toBe(1);
  });

  it('does not wait out a Retry-After beyond its limit but fails with it, for the engine to reschedule', async () => {
    const sleeps: number[] = [];
    const http = scripted([json(429, {}, { 'retry-after': '3600' }), json(200, [])]);
    const c = new WooClient(
      credentials('http://shop.test'),
      { http },
      {
        sleep: async (ms) => {
          sleeps.push(ms);
        },
      },
    );
    await expect(c.get('/orders', {}, anything)).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfterMs: 3_600_000,
    });
    expect(sleeps).toEqual([]);
    expect(http.seen).toHaveLength(1);
  });

  it('uses Basic auth over https and never puts the secret in the URL', async () => {
    const { c, http } = client('https://shop.test', [json(200, {})]);
    await c.get('/system_status', {}, anything);
    const request = http.seen[0] as ConnectorHttpRequest;
    expect(request.url).toBe('https://shop.test/wp-json/wc/v3/system_status');
    expect(request.headers?.authorization).toBe(
      `Basic ${Buffer.from(`ck_0123456789abcdef:${secret}`).toString('base64')}`,
    );
  });

  it('honours Retry-After on 429 and backs off exponentially on 5xx and resets', async () => {
    const sleeps: number[] = [];
    const { c } = client(
      'http://shop.test',
      [
        json(429, {}, { 'retry-after': '2' }),
        json(502, {}),
        new Error('socket hang up'),
        json(200, [1]),
      ],
      sleeps,
    );
    const result = await c.get('/orders', {}, anything);
    expect(result.data).toEqual([1]);
    expect(sleeps).toEqual([2000, 200, 400]);
  });

  it('gives up after the bounded number of attempts with a transient error', async () => {
    const { c, http } = client('http://shop.test', [
      json(500, {}),
      json(500, {}),
      json(500, {}),
      json(500, {}),
      json(200, {}),
    ]);
    await expect(c.get('/orders', {}, anything)).rejects.toMatchObject({
      errorClass: 'transient',
      code: 'server_error',
    });
    expect(http.seen).toHaveLength(4);
  });

  it('retries a truncated body as transient', async () => {
    const cut: ConnectorHttpResponse = {
      status: 200,
      headers: {},
      body: new TextEncoder().encode('[{"id":1,'),
    };
    const { c } = client('http://shop.test', [cut, json(200, [{ id: 1 }])]);
    expect((await c.get('/products', {}, anything)).data).toEqual([{ id: 1 }]);
  });

  it('does not repeat a write that may have reached the store, except after a 429', async () => {
    const { c, http } = client('http://shop.test', [json(503, {})]);
    await expect(
      c.request('POST', '/orders/batch', { body: {}, retryable: false, schema: anything }),
    ).rejects.toMatchObject({
      errorClass: 'transient',
    });
    expect(http.seen).toHaveLength(1);
    const again = client('http://shop.test', [
      json(429, {}, { 'retry-after': '0' }),
      json(200, { create: [] }),
    ]);
    await again.c.request('POST', '/orders/batch', {
      body: {},
      retryable: false,
      schema: anything,
    });
    expect(again.http.seen).toHaveLength(2);
  });

  it('classifies refusals with WooCommerce’s own message', async () => {
    const auth = client('http://shop.test', [
      json(401, {
        code: 'woocommerce_rest_authentication_error',
        message: 'Invalid signature - provided signature does not match.',
        data: { status: 401 },
      }),
    ]);
    const error = await auth.c.get('/system_status', {}, anything).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).toMatchObject({ errorClass: 'config', code: 'auth_failed', status: 401 });
    expect((error as Error).message).toContain('Invalid signature');
    expect((error as Error).message).not.toContain(secret);
    expect((error as Error).message).not.toContain('oauth_signature');

    const noRoute = client('http://shop.test', [
      json(404, {
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      }),
    ]);
    await expect(noRoute.c.get('/system_status', {}, anything)).rejects.toMatchObject({
      errorClass: 'config',
      code: 'not_woocommerce',
    });
    const tooLarge = client('http://shop.test', [
      json(413, {
        code: 'woocommerce_rest_request_entity_too_large',
        message: 'Unable to accept more than 100 items for this request.',
        data: { status: 413 },
      }),
    ]);
    await expect(
      tooLarge.c.request('POST', '/products/batch', { body: {}, schema: anything }),
    ).rejects.toMatchObject({
      errorClass: 'system',
      code: 'batch_too_large',
    });
  });

  it('reads X-WP-Total and X-WP-TotalPages, and guesses when a proxy dropped them', async () => {
    const { c } = client('http://shop.test', [
      json(200, [1, 2], { 'x-wp-total': '42', 'x-wp-totalpages': '21' }),
      json(200, [1, 2]),
      json(200, [1]),
    ]);
    expect(await c.page('/products', { page: 1, per_page: 2 }, z.number())).toEqual({
      items: [1, 2],
      total: 42,
      totalPages: 21,
    });
    expect((await c.page('/products', { page: 3, per_page: 2 }, z.number())).totalPages).toBe(4);
    expect((await c.page('/products', { page: 4, per_page: 2 }, z.number())).totalPages).toBe(4);
  });

  it('parses Retry-After in seconds and as an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter(undefined)).toBeUndefined();
  });
});

describe('WooCommerce credentials', () => {
  it('normalises the store address', () => {
    expect(normaliseStoreUrl('https://shop.example.com/')).toBe('https://shop.example.com');
    expect(normaliseStoreUrl('https://shop.example.com/wp-json')).toBe('https://shop.example.com');
    expect(normaliseStoreUrl('https://example.com/shop/wp-json/wc/v3/')).toBe(
      'https://example.com/shop',
    );
  });

  it('is strict about its fields and their form', () => {
    const ok = wooCommerceCredentialsSchema.parse({
      storeUrl: 'https://shop.example.com/wp-json/',
      consumerKey: 'ck_abc',
      consumerSecret: 'cs_def',
    });
    expect(ok.storeUrl).toBe('https://shop.example.com');
    for (const bad of [
      { storeUrl: 'ftp://shop.example.com', consumerKey: 'ck_abc', consumerSecret: 'cs_def' },
      {
        storeUrl: 'https://user:pw@shop.example.com',
        consumerKey: 'ck_abc',
        consumerSecret: 'cs_def',
      },
      { storeUrl: 'https://shop.example.com', consumerKey: 'abc', consumerSecret: 'cs_def' },
      {
        storeUrl: 'https://shop.example.com',
        consumerKey: 'ck_abc',
        consumerSecret: 'cs_def',
        extra: 1,
      },
    ])
      expect(wooCommerceCredentialsSchema.safeParse(bad).success).toBe(false);
  });
});
