import { z } from 'zod';
import { startMagentoEmulator } from '@replatform/emulators/magento2/magento-emulator';
import { describe, expect, it } from 'vitest';
import type {
  ConnectorHttp,
  ConnectorHttpRequest,
  ConnectorHttpResponse,
} from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { parseAuthorizationHeader, verifySignature } from '../kit/oauth1/oauth1.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { MagentoApiError, MagentoClient, formatMagentoMessage } from './client.ts';
import { criteria } from './session.ts';

const credentials = {
  storeUrl: 'https://shop.example.com/',
  consumerKey: 'ck-123',
  consumerSecret: 'cs-secret-456',
  accessToken: 'at-789',
  accessTokenSecret: 'ats-secret-000',
};

/** A ConnectorHttp that answers from a script and records what it was asked. */
function scripted(answers: (Partial<ConnectorHttpResponse> & { json?: unknown; error?: Error })[]) {
  const requests: ConnectorHttpRequest[] = [];
  const http: ConnectorHttp = {
    async request(request) {
      requests.push(request);
      const next = answers.shift();
      if (!next) throw new Error('no scripted answer left');
      if (next.error) throw next.error;
      return {
        status: next.status ?? 200,
        headers: next.headers ?? {},
        body: next.body ?? new TextEncoder().encode(JSON.stringify(next.json ?? {})),
      };
    },
  };
  return { http, requests };
}

function client(http: ConnectorHttp, sleeps: number[] = []) {
  return new MagentoClient(credentials, http, {
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
}

describe('Magento client: OAuth 1.0a request signing', () => {
  it('signs with HMAC-SHA256 in the Authorization header over the exact URL it sends', async () => {
    const { http, requests } = scripted([{ json: [] }, { json: [] }]);
    const c = client(http);
    const query = criteria({
      filters: [[['name', 'Tee & Co %', 'like']]],
      pageSize: 5,
      currentPage: 1,
    });
    await c.get('/V1/products', z.unknown(), query);
    await c.get('/V1/products', z.unknown(), query);
    const [first, second] = requests;
    expect(first?.url).toBe(
      'https://shop.example.com/rest/default/V1/products?searchCriteria%5BfilterGroups%5D%5B0%5D%5Bfilters%5D%5B0%5D%5Bfield%5D=name' +
        '&searchCriteria%5BfilterGroups%5D%5B0%5D%5Bfilters%5D%5B0%5D%5Bvalue%5D=Tee%20%26%20Co%20%25' +
        '&searchCriteria%5BfilterGroups%5D%5B0%5D%5Bfilters%5D%5B0%5D%5BconditionType%5D=like' +
        '&searchCriteria%5BpageSize%5D=5&searchCriteria%5BcurrentPage%5D=1',
    );
    const oauth = parseAuthorizationHeader(first?.headers?.authorization);
    expect(oauth).toMatchObject({
      oauth_consumer_key: 'ck-123',
      oauth_token: 'at-789',
      oauth_signature_method: 'HMAC-SHA256',
      oauth_version: '1.0',
    });
    expect(Math.abs(Number(oauth?.oauth_timestamp) - Date.now() / 1000)).toBeLessThan(5);
    expect(
      verifySignature({
        method: 'GET',
        url: first?.url ?? '',
        oauth: oauth ?? {},
        consumerSecret: credentials.consumerSecret,
        tokenSecret: credentials.accessTokenSecret,
      }),
    ).toBe(true);
    expect(
      verifySignature({
        method: 'GET',
        url: first?.url ?? '',
        oauth: oauth ?? {},
        consumerSecret: 'other',
        tokenSecret: credentials.accessTokenSecret,
      }),
    ).toBe(false);
    // A fresh nonce per request: Magento refuses a nonce it has seen.
    expect(parseAuthorizationHeader(second?.headers?.authorization)?.oauth_nonce).not.toBe(
      oauth?.oauth_nonce,
    );
    // The JSON body is not part of the signature; no secret travels in the header.
    expect(first?.headers?.authorization).not.toContain(credentials.consumerSecret);
    expect(first?.headers?.authorization).not.toContain(credentials.accessTokenSecret);
  });

  it('uses /rest/<store>, /rest/all and /rest/<store>/async/bulk prefixes', () => {
    const c = new MagentoClient({ ...credentials, storeCode: 'de' }, scripted([]).http);
    expect(c.url('/V1/orders')).toBe('https://shop.example.com/rest/de/V1/orders');
    expect(c.url('/V1/products', 'all')).toBe('https://shop.example.com/rest/all/V1/products');
    expect(c.url('/V1/customers/', 'async-bulk')).toBe(
      'https://shop.example.com/rest/de/async/bulk/V1/customers/',
    );
  });

  it('is accepted by a store that checks signatures, and refused with a wrong secret', async () => {
    const emulator = await startMagentoEmulator({ seed: 'empty' });
    try {
      const good = new MagentoClient(
        { storeUrl: emulator.url, ...emulator.credentials },
        loopbackHttp(),
      );
      const query = criteria({
        filters: [[['name', 'Tee & Co %', 'like']]],
        sort: [['entity_id', 'ASC']],
        pageSize: 1,
      });
      await expect(
        good.get('/V1/products', z.looseObject({ total_count: z.number() }), query),
      ).resolves.toMatchObject({ total_count: 0 });
      const bad = new MagentoClient(
        { storeUrl: emulator.url, ...emulator.credentials, consumerSecret: 'wrong' },
        loopbackHttp(),
      );
      const failure = await bad.get('/V1/store/storeViews', z.unknown()).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ConnectorError);
      expect((failure as ConnectorError).errorClass).toBe('config');
      expect((failure as ConnectorError).code).toBe('auth_failed');
      expect((failure as Error).message).toContain(
        "The consumer isn't authorized to access Magento_Backend::store.",
      );
      expect((failure as Error).message).not.toContain(emulator.credentials.accessTokenSecret);
      expect(emulator.guard.refusals).toEqual(['signature_invalid']);
    } finally {
      await emulator.close();
    }
  });
});

describe('Magento client: errors and retries', () => {
  it('waits as long as Retry-After says on 429, then retries', async () => {
    const sleeps: number[] = [];
    const { http, requests } = scripted([
      { status: 429, headers: { 'retry-after': '3' }, json: { message: 'Too Many Requests' } },
      { json: { ok: 1 } },
    ]);
    await expect(client(http, sleeps).get('/V1/orders', z.unknown())).resolves.toEqual({ ok: 1 });
    expect(requests).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(3000);
  });

  it('backs off exponentially on 5xx, resets and cut-off bodies, within a bound', async () => {
    const sleeps: number[] = [];
    const { http, requests } = scripted([
      { status: 503, body: new TextEncoder().encode('<html>down</html>') },
      { error: new Error('socket hang up') },
      {
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: new TextEncoder().encode('{"items":[{"id"'),
      },
      { json: { items: [] } },
    ]);
    await expect(client(http, sleeps).get('/V1/orders', z.unknown())).resolves.toEqual({
      items: [],
    });
    expect(sleeps).toHaveLength(3);
    expect(sleeps[2]).toBeGreaterThan(sleeps[0] ?? 0);
    // Every attempt is signed afresh (Magento refuses a nonce twice) and is never left to the
    // transport to repeat.
    const nonces = requests.map(
      (r) => /oauth_nonce="([^"]+)"/.exec(r.headers?.authorization ?? '')?.[1],
    );
    expect(new Set(nonces).size).toBe(4);
    expect(requests.every((r) => r.retryable === false && r.signal instanceof AbortSignal)).toBe(
      true,
    );
    const always = scripted(Array.from({ length: 20 }, () => ({ status: 502 })));
    const failure = await client(always.http)
      .get('/V1/orders', z.unknown())
      .catch((e: unknown) => e);
    expect((failure as ConnectorError).errorClass).toBe('transient');
    expect(always.requests).toHaveLength(10);
  });

  it('abandons an attempt that gets no answer in time, so the transport stops too', async () => {
    const seen: AbortSignal[] = [];
    let calls = 0;
    const hanging: ConnectorHttp = {
      request(request) {
        calls += 1;
        if (request.signal) seen.push(request.signal);
        if (calls > 1) {
          return Promise.resolve({
            status: 200,
            headers: { 'content-type': 'application/json' },
            body: new TextEncoder().encode('{"ok":true}'),
          });
        }
        return new Promise((_resolve, reject) => {
          request.signal?.addEventListener('abort', () => reject(new Error('aborted')));
        });
      },
    };
    const quick = new MagentoClient(credentials, hanging, { timeoutMs: 30, sleep: async () => {} });
    await expect(quick.get('/V1/orders', z.unknown())).resolves.toEqual({ ok: true });
    expect(seen[0]?.aborted).toBe(true);
    expect(seen[1]?.aborted).toBe(false);
  });

  it('does not repeat a create on an ambiguous failure, only on 429', async () => {
    const fiveHundred = scripted([
      { status: 500, json: { message: 'Internal Error' } },
      { json: {} },
    ]);
    const failure = await client(fiveHundred.http)
      .request('POST', '/V1/categories', z.unknown(), { body: { category: { name: 'x' } } })
      .catch((e: unknown) => e);
    expect((failure as ConnectorError).errorClass).toBe('transient');
    expect(fiveHundred.requests).toHaveLength(1);
    const throttled = scripted([
      { status: 429, json: { message: 'slow down' } },
      { json: { id: 5 } },
    ]);
    await expect(
      client(throttled.http).request('POST', '/V1/categories', z.unknown(), { body: {} }),
    ).resolves.toEqual({ id: 5 });
    expect(throttled.requests[0]?.headers?.['content-type']).toBe('application/json');
    expect(throttled.requests[0]?.retryable).toBe(false);
  });

  it("turns Magento's error body into a readable, non-retried error", async () => {
    const { http, requests } = scripted([
      {
        status: 400,
        json: {
          message: '"%fieldName" is required. Enter and try again.',
          parameters: { fieldName: 'sku' },
        },
      },
    ]);
    const failure = await client(http)
      .request('POST', '/V1/products', z.unknown(), { body: {}, retry: 'always' })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MagentoApiError);
    expect((failure as MagentoApiError).magentoMessage).toBe(
      '"sku" is required. Enter and try again.',
    );
    expect((failure as MagentoApiError).errorClass).toBe('system');
    expect(requests).toHaveLength(1);
    expect(
      formatMagentoMessage({ message: 'Products "%1" and "%2" clash', parameters: ['A', 'B'] }),
    ).toBe('Products "A" and "B" clash');
  });

  it('does not mistake a web page for a cut-off answer', async () => {
    const { http, requests } = scripted([
      {
        headers: { 'content-type': 'text/html' },
        body: new TextEncoder().encode('<html>shop</html>'),
      },
    ]);
    const failure = await client(http)
      .get('/V1/store/storeConfigs', z.unknown())
      .catch((e: unknown) => e);
    expect((failure as ConnectorError).code).toBe('not_json');
    expect(requests).toHaveLength(1);
  });

  it('refuses an answer of the wrong shape as a system error', async () => {
    const { http } = scripted([{ json: { items: 'nope' } }]);
    const failure = await client(http)
      .get('/V1/orders', z.object({ items: z.array(z.unknown()) }))
      .catch((e: unknown) => e);
    expect((failure as ConnectorError).code).toBe('unexpected_answer');
  });
});
