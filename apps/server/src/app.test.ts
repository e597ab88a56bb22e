import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@replatform/db/test-databases';
import type { App } from './app.ts';
import { signUp, testOrigin } from './testing/sign-up.ts';
import { createTestApp } from './testing/test-app.ts';

const webDist = mkdtempSync(join(tmpdir(), 'replatform-web-'));
mkdirSync(join(webDist, 'assets'));
writeFileSync(join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
writeFileSync(join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');

describe.each(testDialects())('server on %s', (dialect) => {
  let app: App;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ app, close } = await createTestApp({ WEB_DIST_DIR: webDist }, dialect));
    // Routes that exist only to exercise the error handler; added before the app is ready.
    app.post('/api/echo-for-test', async (request) => request.body);
    app.get('/api/boom-for-test', async () => {
      throw new Error('secret internal detail at /srv/db.ts:12');
    });
  });
  afterAll(async () => {
    await close();
  });

  it('answers /healthz with the database and the job queue', async () => {
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: dialect,
      checks: {
        database: { ok: true, ms: expect.any(Number) },
        queue: {
          kind: dialect === 'postgres' ? 'pg-boss' : 'embedded',
          ok: true,
          queued: 0,
          running: 0,
          workers: 0,
        },
      },
    });
  });

  it('keeps no JSON answer that carries personal data in any cache', async () => {
    const cookie = await signUp(app, `cache-${dialect}@example.com`);
    const headers = { cookie, origin: testOrigin, 'content-type': 'application/json' };
    const created = await app.inject({
      method: 'POST',
      url: '/api/migrations',
      headers,
      payload: { storeName: 'Private' },
    });
    const id = created.json().id as string;
    const reads = [
      '/api/auth/get-session',
      '/get-migrations',
      `/migration/${id}`,
      `/migration-progress?migrationId=${id}`,
      '/api/notifications',
      '/api/preferences',
      '/api/contact-messages',
      `/api/payments/config?migrationId=${id}`,
      '/api/auth-config',
      '/healthz',
    ];
    for (const url of reads) {
      const res = await app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    expect(created.headers['cache-control']).toBe('no-store');
  });

  it('answers unknown API routes with a JSON 404', async () => {
    for (const url of [
      '/api/anything',
      '/api',
      '/get-nothing',
      '/migration/x/y',
      '/verify-nothing',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toEqual({ error: { code: 'not_found', message: 'No such API route.' } });
    }
    const post = await app.inject({
      method: 'POST',
      url: '/api/anything',
      payload: '{bad',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(post.statusCode).toBe(404);
    expect(post.json().error.code).toBe('not_found');
  });

  it('answers malformed JSON with a JSON 400 and no stack', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/echo-for-test',
      payload: '{bad',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'invalid_json', message: 'The request body is not valid JSON.' },
    });
  });

  it('answers an unexpected failure with a JSON 500 without internals', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/boom-for-test' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toMatch(/secret|stack|db\.ts/);
    expect(res.json().error.code).toBe('internal_error');
  });

  it('sets security headers on every response', async () => {
    for (const url of ['/healthz', '/', '/api/nope']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('serves the web app, falling back to index.html for client routes', async () => {
    for (const url of ['/', '/migrations/abc?mock=true', '/blog/3', '/migration-history/x']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root">');
    }
    const asset = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missingAsset = await app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(missingAsset.statusCode).toBe(404);
  });
});
