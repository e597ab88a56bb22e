import { describe, expect, it } from 'vitest';
import type {
  ConnectorHttp,
  ConnectorHttpRequest,
  ConnectorHttpResponse,
} from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { CostBucket } from './cost-bucket.ts';
import { shopInfo } from './documents.ts';
import { ShopifyGraphqlClient } from './graphql-client.ts';

function clock(start = 1_000_000) {
  let t = start;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
    advance: (ms: number) => {
      t += ms;
    },
    sleeps,
  };
}

const encode = (body: unknown) =>
  new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body));
const cost = (requested: number, available: number, actual: number | null = requested) => ({
  cost: {
    requestedQueryCost: requested,
    actualQueryCost: actual,
    throttleStatus: { maximumAvailable: 1000, currentlyAvailable: available, restoreRate: 50 },
  },
});
const shop = {
  shop: {
    name: 'S',
    currencyCode: 'USD',
    myshopifyDomain: 's.myshopify.com',
    plan: { partnerDevelopment: false, publicDisplayName: 'Basic', shopifyPlus: false },
  },
};

/** A ConnectorHttp answering from a script, one entry per request. */
function scripted(
  script: (ConnectorHttpResponse | Error)[],
): ConnectorHttp & { requests: ConnectorHttpRequest[] } {
  const requests: ConnectorHttpRequest[] = [];
  return {
    requests,
    async request(request) {
      requests.push(request);
      const next = script.shift();
      if (!next) throw new Error('script exhausted');
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

const ok = (body: unknown, headers: Record<string, string> = {}): ConnectorHttpResponse => ({
  status: 200,
  headers,
  body: encode(body),
});

describe('CostBucket', () => {
  it('refills at the restore rate and answers the exact wait for a cost', () => {
    const time = clock();
    const bucket = new CostBucket(time.now);
    expect(bucket.delayFor(500)).toBe(0);
    bucket.observe({ maximumAvailable: 1000, currentlyAvailable: 100, restoreRate: 50 });
    expect(bucket.delayFor(100)).toBe(0);
    expect(bucket.delayFor(600)).toBe(10_000);
    time.advance(4_000);
    expect(bucket.available()).toBe(300);
    expect(bucket.delayFor(600)).toBe(6_000);
    // Never more than a full bucket is waited for.
    expect(bucket.delayFor(5_000)).toBe(14_000);
    time.advance(60_000);
    expect(bucket.available()).toBe(1000);
  });

  it('measures points per second over busy time, leaving out what the bucket held', () => {
    const time = clock();
    const bucket = new CostBucket(time.now);
    const status = (available: number) => ({
      maximumAvailable: 1000,
      currentlyAvailable: available,
      restoreRate: 100,
    });
    // A burst from a full bucket: 1,000 points in 2 s, of which 800 the bucket held.
    bucket.beginBusy();
    bucket.observe(status(990), 10);
    bucket.recordRequest(10, 10);
    time.advance(2_000);
    bucket.observe(status(200), 990);
    bucket.recordRequest(990, 990);
    bucket.endBusy();
    expect(bucket.stats()).toMatchObject({
      pointsUsed: 1000,
      pointsRestored: 200,
      busyMs: 2_000,
      pointsPerSecond: 100,
    });
    // Idle time is not counted, and a bucket that refilled meanwhile lends nothing.
    time.advance(10_000);
    bucket.beginBusy();
    bucket.observe(status(950), 50);
    bucket.recordRequest(50, 50);
    bucket.recordThrottled();
    bucket.recordWait(500);
    time.advance(1_000);
    bucket.endBusy();
    expect(bucket.stats()).toEqual({
      requests: 4,
      throttled: 1,
      pointsRequested: 1050,
      pointsUsed: 1050,
      pointsRestored: 250,
      waitedMs: 500,
      busyMs: 3_000,
      pointsPerSecond: 250 / 3,
      availablePerSecond: 100,
      bucketSize: 1000,
    });
    expect(bucket.rateUsage(50)).toEqual({
      unit: 'points',
      usedPerSecond: 250 / 3,
      availablePerSecond: 100,
      throttled: 1,
    });
    expect(new CostBucket(time.now).rateUsage(50)).toEqual({
      unit: 'points',
      usedPerSecond: 0,
      availablePerSecond: 50,
      throttled: 0,
    });
  });
});

describe('ShopifyGraphqlClient', () => {
  const make = (http: ConnectorHttp, time = clock()) =>
    new ShopifyGraphqlClient({
      shopDomain: 's.myshopify.com',
      accessToken: 'shpat_secret',
      http,
      now: time.now,
      sleep: time.sleep,
      backoffMs: 100,
    });

  it('sends the versioned endpoint with the token header and waits before a call the bucket cannot take', async () => {
    const time = clock();
    const http = scripted([
      ok({ data: shop, extensions: cost(2, 1) }),
      ok({ data: shop, extensions: cost(2, 998) }),
    ]);
    const client = make(http, time);
    await client.request(shopInfo);
    expect(http.requests[0]).toMatchObject({
      method: 'POST',
      url: 'https://s.myshopify.com/admin/api/2026-10/graphql.json',
      headers: { 'x-shopify-access-token': 'shpat_secret', 'content-type': 'application/json' },
      retryable: true,
    });
    await client.request(shopInfo);
    // 1 point available, 2 needed, 50 restored per second.
    expect(time.sleeps).toEqual([20]);
  });

  it('keeps up to four requests in flight, and overlapping ones within what the bucket holds', async () => {
    const time = clock();
    // Each answer arrives when the test releases it; the bucket then holds 30 points.
    let onWire = 0;
    let mostOnWire = 0;
    const answers: (() => void)[] = [];
    const http: ConnectorHttp & { requests: ConnectorHttpRequest[] } = {
      requests: [],
      async request(request) {
        http.requests.push(request);
        onWire += 1;
        mostOnWire = Math.max(mostOnWire, onWire);
        await new Promise<void>((resolve) => answers.push(resolve));
        onWire -= 1;
        return ok({ data: shop, extensions: cost(10, 30) });
      },
    };
    const client = make(http, time);
    const tick = () => new Promise((r) => setTimeout(r, 0));
    const first = [1, 2, 3, 4, 5, 6].map(() => client.request({ ...shopInfo, cost: () => 10 }));
    await tick();
    // Nothing known of the bucket yet: four go out at once, the others wait for a place.
    expect(onWire).toBe(4);
    answers.shift()?.();
    await tick();
    await tick();
    // The answer says 30 points are left, all held by the three still out: the fifth waits for
    // the bucket to restore its 10 points (200 ms at 50 points/s) before it goes.
    expect(time.sleeps[0]).toBe(200);
    while (answers.length || onWire) {
      answers.shift()?.();
      await tick();
    }
    await Promise.all(first);
    expect(http.requests).toHaveLength(6);
    expect(mostOnWire).toBe(4);
    expect(client.stats().throttled).toBe(0);
  });

  it('waits exactly the deficit after THROTTLED and then succeeds', async () => {
    const time = clock();
    const throttled = {
      errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
      extensions: cost(402, 2, null),
    };
    const http = scripted([ok(throttled), ok({ data: shop, extensions: cost(402, 600) })]);
    const client = make(http, time);
    await client.request({ ...shopInfo, cost: () => 402 });
    expect(time.sleeps).toEqual([8_000]);
    expect(client.stats()).toMatchObject({ throttled: 1, requests: 2, waitedMs: 8_000 });
  });

  it('retries transient failures of reads, honouring Retry-After, and classifies the rest', async () => {
    const time = clock();
    const http = scripted([
      new Error('socket hang up'),
      { status: 429, headers: { 'retry-after': '2' }, body: encode({ errors: 'Too many' }) },
      { status: 503, headers: {}, body: encode('<html>') },
      ok('{"data":{"shop"'),
      ok({ data: shop, extensions: cost(2, 900) }),
    ]);
    const client = make(http, time);
    expect((await client.request(shopInfo)).shop.name).toBe('S');
    expect(time.sleeps).toEqual([100, 2_000, 400, 800]);

    const failures: [ConnectorHttpResponse, string, string][] = [
      [
        {
          status: 401,
          headers: {},
          body: encode({
            errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
          }),
        },
        'config',
        'auth_failed',
      ],
      [
        { status: 402, headers: {}, body: encode({ errors: 'Unavailable Shop' }) },
        'config',
        'shop_unavailable',
      ],
      [
        { status: 404, headers: {}, body: encode({ errors: 'Not Found' }) },
        'config',
        'shop_not_found',
      ],
      [
        ok({ errors: [{ message: 'Access denied', extensions: { code: 'ACCESS_DENIED' } }] }),
        'config',
        'missing_scope',
      ],
      [
        ok({
          errors: [{ message: 'Query cost is 2000', extensions: { code: 'MAX_COST_EXCEEDED' } }],
        }),
        'system',
        'query_cost_too_high',
      ],
      [ok({ errors: [{ message: 'Field "x" doesn\'t exist' }] }), 'system', 'graphql_error'],
      [ok({ data: { shop: { name: 1 } } }), 'system', 'unexpected_response'],
    ];
    for (const [response, errorClass, code] of failures) {
      const error = await make(scripted([response]))
        .request(shopInfo)
        .catch((e: unknown) => e);
      expect(error, code).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).errorClass, code).toBe(errorClass);
      expect((error as ConnectorError).code).toBe(code);
      expect((error as Error).message).not.toContain('shpat_secret');
    }
  });

  it('does not repeat a create whose answer may have been lost, but does repeat a throttled one', async () => {
    const lost = scripted([{ status: 502, headers: {}, body: encode('bad gateway') }]);
    const error = await make(lost)
      .request(shopInfo, {}, { idempotent: false })
      .catch((e: unknown) => e);
    expect((error as ConnectorError).errorClass).toBe('transient');
    expect(lost.requests).toHaveLength(1);
    expect(lost.requests[0]?.retryable).toBe(false);

    const throttled = scripted([
      ok({
        errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }],
        extensions: cost(10, 0, null),
      }),
      { status: 429, headers: { 'retry-after': '1' }, body: encode('') },
      ok({ data: shop, extensions: cost(10, 500) }),
    ]);
    expect((await make(throttled).request(shopInfo, {}, { idempotent: false })).shop.name).toBe(
      'S',
    );
    expect(throttled.requests).toHaveLength(3);
  });

  it('waits a minute for the per-minute order limit of trial stores and counts 429s as throttled', async () => {
    const time = clock();
    const http = scripted([
      {
        status: 429,
        headers: {},
        body: encode({
          errors:
            'Exceeded order API rate limit, please try again in a minute. Upgrade to a paid account to remove this limit.',
        }),
      },
      ok({ data: shop, extensions: cost(10, 500) }),
    ]);
    const client = make(http, time);
    expect((await client.request(shopInfo, {}, { idempotent: false })).shop.name).toBe('S');
    expect(time.sleeps).toEqual([60_000]);
    expect(client.rateUsage(100)).toMatchObject({ throttled: 1, availablePerSecond: 50 });
    expect(client.stats().busyMs).toBe(60_000);
  });
});
