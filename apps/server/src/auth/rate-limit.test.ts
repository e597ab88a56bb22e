import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresSchema, testDialects } from '@replatform/db/test-databases';
import { buildApp, type App } from '../app.ts';
import { parseConfig } from '../config.ts';
import { signUp, testOrigin } from '../testing/sign-up.ts';
import { AuthRateLimiter, authLimits, limitMessage, SlidingWindowCounter } from './rate-limit.ts';

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('sliding window counter', () => {
  it('frees a slot once the oldest counted event leaves the window', async () => {
    const time = clock();
    const counter = new SlidingWindowCounter(time.now);
    const limit = { max: 2, windowMs: 1000 };
    await counter.add('k', limit);
    time.advance(400);
    await counter.add('k', limit);
    expect(await counter.retryAfter('k', limit)).toBe(600);
    time.advance(600);
    expect(await counter.retryAfter('k', limit)).toBe(0);
  });

  it('takes a slot only while the key is under its limit, one decision at a time', async () => {
    const counter = new SlidingWindowCounter(clock().now);
    const limit = { max: 3, windowMs: 1000 };
    const waits = await Promise.all(Array.from({ length: 5 }, () => counter.take('k', limit)));
    expect(waits.filter((w) => w === 0)).toHaveLength(3);
    expect(await counter.count('k', limit)).toBe(3);
  });
});

describe('auth rate limiter', () => {
  it('blocks an address after five failures on one account, and not the owner elsewhere', async () => {
    const limiter = new AuthRateLimiter(clock().now);
    for (let i = 0; i < 5; i++) {
      expect((await limiter.attempt('sign-in', '10.0.0.1', 'a@x.co')).allowed).toBe(true);
      await limiter.signInFailed('10.0.0.1', 'a@x.co');
    }
    expect((await limiter.attempt('sign-in', '10.0.0.1', 'a@x.co')).allowed).toBe(false);
    expect((await limiter.attempt('sign-in', '10.0.0.1', 'b@x.co')).allowed).toBe(true);
    expect((await limiter.attempt('sign-in', '10.0.0.2', 'a@x.co')).allowed).toBe(true);
  });

  it('after many failures from many addresses, only addresses that failed are stopped', async () => {
    const limiter = new AuthRateLimiter(clock().now);
    const max = authLimits.signInFailuresPerAccount.max;
    for (let i = 0; i < max; i++) {
      expect((await limiter.attempt('sign-in', `10.1.0.${i}`, 'a@x.co')).allowed).toBe(true);
      await limiter.signInFailed(`10.1.0.${i}`, 'a@x.co');
    }
    expect((await limiter.attempt('sign-in', '10.1.0.3', 'a@x.co')).allowed).toBe(false);
    expect((await limiter.attempt('sign-in', '192.0.2.7', 'a@x.co')).allowed).toBe(true);
  });

  it('forgets failures on success', async () => {
    const limiter = new AuthRateLimiter(clock().now);
    for (let i = 0; i < 4; i++) await limiter.signInFailed('10.0.0.1', 'a@x.co');
    await limiter.signInSucceeded('10.0.0.1', 'a@x.co');
    for (let i = 0; i < 4; i++) await limiter.signInFailed('10.0.0.1', 'a@x.co');
    expect((await limiter.attempt('sign-in', '10.0.0.1', 'a@x.co')).allowed).toBe(true);
  });

  it('limits reset mails per account whatever the address, and lifts the limit in time', async () => {
    const time = clock();
    const limiter = new AuthRateLimiter(time.now);
    for (let i = 0; i < 3; i++)
      expect((await limiter.attempt('reset-request', `10.2.0.${i}`, 'a@x.co')).allowed).toBe(true);
    const blocked = await limiter.attempt('reset-request', '10.2.0.9', 'a@x.co');
    expect(blocked.allowed).toBe(false);
    expect(limitMessage('reset-request', blocked.retryAfterMs)).toBe(
      'Too many password reset requests. Please try again in 60 minutes.',
    );
    time.advance(60 * 60 * 1000);
    expect((await limiter.attempt('reset-request', '10.2.0.9', 'a@x.co')).allowed).toBe(true);
  });
});

/** Two servers on one database: each limit is counted once for both. */
describe.each(testDialects())('limits shared by the servers of one database on %s', (dialect) => {
  let dataDir: string;
  let dropSchema: (() => Promise<void>) | undefined;
  const servers: App[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'replatform-limits-'));
    let databaseUrl: string | undefined;
    if (dialect === 'postgres')
      ({ url: databaseUrl, drop: dropSchema } = await createPostgresSchema());
    for (let i = 0; i < 2; i++) {
      servers.push(
        await buildApp(
          parseConfig({
            NODE_ENV: 'test',
            LOG_LEVEL: 'silent',
            DATA_DIR: dataDir,
            SANDBOX_STORES: 'false',
            WORKERS: '0',
            ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
          }),
        ),
      );
    }
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await dropSchema?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const post = (server: App, url: string, payload: object, ip: string) =>
    server.inject({
      method: 'POST',
      url,
      remoteAddress: ip,
      headers: { origin: testOrigin, 'content-type': 'application/json' },
      payload,
    });

  it('holds a sign-in limit reached through one server on the other', async () => {
    const [a, b] = servers as [App, App];
    const email = `shared-${dialect}@example.com`;
    await signUp(a, email);
    const attacker = '203.0.113.9';
    for (let i = 0; i < authLimits.signInFailuresPerAccountAndIp.max; i++) {
      const res = await post(
        a,
        '/api/auth/sign-in/email',
        { email, password: `guess ${i}` },
        attacker,
      );
      expect(res.statusCode).toBe(401);
    }
    const elsewhere = await post(
      b,
      '/api/auth/sign-in/email',
      { email, password: 'correct horse battery staple' },
      attacker,
    );
    expect(elsewhere.statusCode).toBe(429);
    expect(elsewhere.json().error.code).toBe('rate_limited');
    // The owner, from an address of their own, signs in through either server.
    const owner = await post(
      b,
      '/api/auth/sign-in/email',
      { email, password: 'correct horse battery staple' },
      '198.51.100.4',
    );
    expect(owner.statusCode).toBe(200);
  });

  it('counts quote requests from one address over both servers', async () => {
    const [a, b] = servers as [App, App];
    const quote = {
      name: 'Ada',
      email: 'ada@example.com',
      storeName: 'Analytical Engines',
      storeSize: '10k-50k',
      comments: 'We would like a quote.',
    };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await post(i % 2 ? b : a, '/api/enterprise-quotes', quote, '192.0.2.50')).statusCode,
      );
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});
