import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createSelfSignedCertificate } from '@replatform/emulators/framework/self-signed';
import type { ConnectorHttp, RequestLimiter } from '../contract.ts';
import { HttpError } from './errors.ts';
import { assertOk, createHttpClient, errorForStatus } from './http-client.ts';
import type { HttpClient, HttpClientOptions } from './http-client.ts';
import { createRateLimiter } from './rate-limiter.ts';
import { startHttpServer } from './test-servers.ts';
import type { TestServer } from './test-servers.ts';

type Handler = (request: IncomingMessage, response: ServerResponse, hit: number) => void;

const servers: TestServer[] = [];
const clients: HttpClient[] = [];

async function serve(handler: Handler): Promise<TestServer> {
  const server = await startHttpServer(handler);
  servers.push(server);
  return server;
}

function clientFor(allowed: TestServer[], options: HttpClientOptions = {}): HttpClient {
  const client = createHttpClient({
    allowlist: allowed.map((s) => s.origin),
    ...options,
    retry: { baseDelayMs: 5, ...options.retry },
  });
  clients.push(client);
  return client;
}

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

const ok: Handler = (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
};
const never: Handler = () => {};

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('requests', () => {
  it('returns status, headers, body, text and json; appends the query; sends a user agent', async () => {
    const server = await serve((_request, response) => {
      response.setHeader('X-Things', ['a', 'b']);
      ok(_request, response, 1);
    });
    const client = clientFor([server]);
    const response = await client.request({
      method: 'GET',
      url: `${server.origin}/items?page=1`,
      query: { limit: 50, tag: ['x', 'y'], skip: undefined },
    });
    expect(response.status).toBe(200);
    expect(response.ok).toBe(true);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.headers['x-things']).toBe('a, b');
    expect(response.json<{ ok: boolean }>()).toEqual({ ok: true });
    expect(response.text()).toBe('{"ok":true}');
    expect(response.body).toBeInstanceOf(Uint8Array);
    expect(server.hits[0]?.url).toBe('/items?page=1&limit=50&tag=x&tag=y');
    expect(server.hits[0]?.headers['user-agent']).toBe('Replatform');
  });

  it('sends method, headers and body as given', async () => {
    const server = await serve(ok);
    const client = clientFor([server], { userAgent: 'Replatform/test' });
    await client.request({
      method: 'PUT',
      url: `${server.origin}/x`,
      headers: { 'content-type': 'application/json', 'x-auth-token': 't' },
      body: '{"a":1}',
    });
    expect(server.hits[0]).toMatchObject({ method: 'PUT', body: '{"a":1}' });
    expect(server.hits[0]?.headers).toMatchObject({
      'x-auth-token': 't',
      'user-agent': 'Replatform/test',
    });
  });

  it('serves as the ConnectorHttp of the connector contract', async () => {
    const server = await serve(ok);
    const http: ConnectorHttp = clientFor([server]);
    const response = await http.request({ method: 'GET', url: `${server.origin}/` });
    expect(response.status).toBe(200);
  });

  it("honours the contract's signal and limiter (a limiter need not take server quotas)", async () => {
    const slow = await serve((_q, response) => {
      setTimeout(() => ok(_q, response, 0), 300);
    });
    const events: string[] = [];
    const limiter: RequestLimiter = {
      acquire: async () => {
        events.push('acquire');
        return () => events.push('release');
      },
    };
    const http: ConnectorHttp = clientFor([slow]);
    expect((await http.request({ method: 'GET', url: slow.origin, limiter })).status).toBe(200);
    expect(events).toEqual(['acquire', 'release']);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop now')), 30);
    await expect(
      http.request({ method: 'GET', url: slow.origin, limiter, signal: controller.signal }),
    ).rejects.toThrow('stop now');
    expect(events).toEqual(['acquire', 'release', 'acquire', 'release']);
    // Refused to repeat and aborted: one exchange each, no retry in the background.
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(slow.hits).toHaveLength(2);
  });

  it('trusts exactly the certificates it is given for TLS', async () => {
    const certificate = createSelfSignedCertificate();
    const server = createTlsServer({ key: certificate.key, cert: certificate.cert }, (q, r) =>
      ok(q, r, 0),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const trusting = createHttpClient({ allowlist: [origin], ca: certificate.cert });
      clients.push(trusting);
      expect((await trusting.request({ method: 'GET', url: `${origin}/` })).status).toBe(200);
      const untrusting = createHttpClient({ allowlist: [origin] });
      clients.push(untrusting);
      const error = await failure(untrusting.request({ method: 'GET', url: `${origin}/` }));
      expect(error).toMatchObject({ errorClass: 'config', code: 'tls_error' });
      const other = createHttpClient({
        allowlist: [origin],
        ca: createSelfSignedCertificate().cert,
      });
      clients.push(other);
      expect((await failure(other.request({ method: 'GET', url: `${origin}/` }))).code).toBe(
        'tls_error',
      );
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('throws a system HttpError for a body that is not JSON', async () => {
    const server = await serve((_q, response) => response.end('<html>'));
    const response = await clientFor([server]).request({ method: 'GET', url: server.origin });
    expect(() => response.json()).toThrow(HttpError);
    expect(() => response.json()).toThrow(/invalid JSON/);
  });
});

describe('allow-list', () => {
  it('admits the listed origin and nothing next to it', async () => {
    const allowed = await serve(ok);
    const other = await serve(ok);
    const client = clientFor([allowed], { allowHttp: true });
    expect((await client.request({ method: 'GET', url: `${allowed.origin}/a` })).status).toBe(200);
    for (const url of [
      `${other.origin}/`,
      `http://localhost:${allowed.port}/`,
      `https://127.0.0.1:${allowed.port}/`,
      `http://[::ffff:127.0.0.1]:${allowed.port}/`,
    ]) {
      const error = await failure(client.request({ method: 'GET', url }));
      expect(error.code, url).toBe('egress_refused');
    }
    expect(other.hits).toHaveLength(0);
    expect(allowed.hits).toHaveLength(1);
  });

  it('refuses plain http to public hosts unless allowed', async () => {
    const error = await failure(
      createHttpClient().request({ method: 'GET', url: 'http://shop.example.com/' }),
    );
    expect(error).toMatchObject({ errorClass: 'config', code: 'egress_refused' });
  });
});

describe('limits', () => {
  it('times out a server that never answers', async () => {
    const server = await serve(never);
    const client = clientFor([server], { timeoutMs: 200, retry: { maxAttempts: 1 } });
    const started = Date.now();
    const error = await failure(client.request({ method: 'GET', url: server.origin }));
    expect(error).toMatchObject({ errorClass: 'transient', code: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('times out a body that stalls after the headers', async () => {
    const server = await serve((_q, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('x');
    });
    const client = clientFor([server], { timeoutMs: 200, retry: { maxAttempts: 1 } });
    const error = await failure(client.request({ method: 'GET', url: server.origin }));
    expect(error).toMatchObject({ errorClass: 'transient', code: 'timeout' });
  });

  it('retries a timed-out GET', async () => {
    const server = await serve((q, r, hit) => (hit === 1 ? never(q, r, hit) : ok(q, r, hit)));
    const client = clientFor([server], { timeoutMs: 200 });
    expect((await client.request({ method: 'GET', url: server.origin })).status).toBe(200);
    expect(server.hits).toHaveLength(2);
  });

  it('refuses a body whose Content-Length exceeds the cap, without reading it', async () => {
    const server = await serve((_q, response) => {
      response.writeHead(200, { 'content-length': '2000' }).end('y'.repeat(2000));
    });
    const client = clientFor([server], { maxResponseBytes: 1_000 });
    const error = await failure(client.request({ method: 'GET', url: server.origin }));
    expect(error).toMatchObject({ code: 'response_too_large', status: 200, errorClass: 'system' });
  });

  it('aborts a streamed body once it grows past the cap', async () => {
    let written = 0;
    const server = await serve((_q, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' }); // chunked, no length
      const timer = setInterval(() => {
        if (response.destroyed || written >= 100_000) {
          clearInterval(timer);
          response.end();
          return;
        }
        response.write('z'.repeat(600));
        written += 600;
      }, 5);
    });
    const client = clientFor([server], { maxResponseBytes: 1_000 });
    const error = await failure(client.request({ method: 'GET', url: server.origin }));
    expect(error.code).toBe('response_too_large');
    expect(written).toBeLessThan(100_000);
  });

  it('accepts a body exactly at the cap', async () => {
    const server = await serve((_q, response) => response.end('a'.repeat(1_000)));
    const client = clientFor([server], { maxResponseBytes: 1_000 });
    const response = await client.request({ method: 'GET', url: server.origin });
    expect(response.body.length).toBe(1_000);
  });

  it('does not hold the announced size of a HEAD answer against the cap', async () => {
    const server = await serve((_q, response) => {
      response.writeHead(200, { 'content-length': '5000' }).end();
    });
    const client = clientFor([server], { maxResponseBytes: 1_000 });
    const response = await client.request({ method: 'HEAD', url: server.origin });
    expect(response.status).toBe(200);
    expect(response.body.length).toBe(0);
  });

  it('stops at the caller signal', async () => {
    const server = await serve(never);
    const client = clientFor([server]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('migration paused')), 50);
    await expect(
      client.request({ method: 'GET', url: server.origin, signal: controller.signal }),
    ).rejects.toThrow('migration paused');
  });
});

describe('retries', () => {
  const status =
    (code: number, headers: Record<string, string> = {}, times = Infinity): Handler =>
    (q, r, hit) =>
      hit <= times ? r.writeHead(code, headers).end('busy') : ok(q, r, hit);

  it('retries 503 after the Retry-After seconds', async () => {
    const server = await serve(status(503, { 'retry-after': '1' }, 1));
    const client = clientFor([server]);
    const started = Date.now();
    const response = await client.request({ method: 'GET', url: server.origin });
    expect(response.status).toBe(200);
    expect(server.hits).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('honours 429 with a Retry-After date, and holds the store limiter meanwhile', async () => {
    const until = new Date(Date.now() + 2_000).toUTCString();
    const server = await serve(status(429, { 'retry-after': until }, 1));
    const limiter = createRateLimiter({ requestsPerInterval: 100, intervalMs: 1_000 });
    const client = clientFor([server]);
    const started = Date.now();
    const first = client.request({ method: 'GET', url: `${server.origin}/a`, limiter });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A second request on the same store waits out the throttling too.
    const second = client.request({ method: 'GET', url: `${server.origin}/b`, limiter });
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    const secondHit = server.hits.find((h) => h.url === '/b');
    expect((secondHit?.at ?? 0) - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('gives up when Retry-After is beyond maxDelayMs and reports it', async () => {
    const server = await serve(status(503, { 'retry-after': '120' }));
    const client = clientFor([server], { retry: { maxDelayMs: 5_000 } });
    const response = await client.request({ method: 'GET', url: server.origin });
    expect(response.status).toBe(503);
    expect(server.hits).toHaveLength(1);
    expect(errorForStatus(response)).toMatchObject({
      errorClass: 'transient',
      status: 503,
      retryAfterMs: 120_000,
    });
  });

  it('returns the last response after maxAttempts', async () => {
    const server = await serve(status(502));
    const client = clientFor([server], { retry: { maxAttempts: 3 } });
    const response = await client.request({ method: 'GET', url: server.origin });
    expect(response.status).toBe(502);
    expect(response.text()).toBe('busy');
    expect(server.hits).toHaveLength(3);
  });

  it('does not repeat a POST unless it is marked retryable', async () => {
    const plain = await serve(status(503));
    const marked = await serve(status(503));
    const client = clientFor([plain, marked], { retry: { maxAttempts: 3 } });
    expect((await client.request({ method: 'POST', url: plain.origin, body: 'x' })).status).toBe(
      503,
    );
    expect(plain.hits).toHaveLength(1);
    await client.request({ method: 'POST', url: marked.origin, body: 'x', retryable: true });
    expect(marked.hits).toHaveLength(3);
    expect(marked.hits.every((h) => h.body === 'x')).toBe(true);
  });

  it('does not repeat a GET marked not retryable', async () => {
    const server = await serve(status(503));
    const client = clientFor([server]);
    await client.request({ method: 'GET', url: server.origin, retryable: false });
    expect(server.hits).toHaveLength(1);
  });

  it('retries 500 only for requests marked retryable', async () => {
    const plain = await serve(status(500, {}, 1));
    const marked = await serve(status(500, {}, 1));
    const client = clientFor([plain, marked]);
    expect((await client.request({ method: 'GET', url: plain.origin })).status).toBe(500);
    expect(plain.hits).toHaveLength(1);
    const response = await client.request({ method: 'GET', url: marked.origin, retryable: true });
    expect(response.status).toBe(200);
    expect(marked.hits).toHaveLength(2);
  });

  it('retries a reset connection for GET but not for POST', async () => {
    const reset: Handler = (q, r, hit) => (hit === 1 ? q.socket.destroy() : ok(q, r, hit));
    const forGet = await serve(reset);
    const forPost = await serve(reset);
    const client = clientFor([forGet, forPost]);
    expect((await client.request({ method: 'GET', url: forGet.origin })).status).toBe(200);
    expect(forGet.hits).toHaveLength(2);
    const error = await failure(client.request({ method: 'POST', url: forPost.origin, body: 'b' }));
    expect(error).toMatchObject({ errorClass: 'transient', code: 'network_error' });
    expect(forPost.hits).toHaveLength(1);
  });

  it('classifies a refused connection as transient', async () => {
    const server = await serve(ok);
    const origin = server.origin;
    await servers.pop()?.close();
    const client = createHttpClient({
      allowlist: [origin],
      retry: { maxAttempts: 2, baseDelayMs: 5 },
    });
    clients.push(client);
    const error = await failure(client.request({ method: 'GET', url: origin }));
    expect(error).toMatchObject({ errorClass: 'transient', code: 'network_error' });
  });

  it('keeps query strings, headers and bodies out of errors', async () => {
    const server = await serve(never);
    const client = clientFor([server], { timeoutMs: 100, retry: { maxAttempts: 1 } });
    const error = await failure(
      client.request({
        method: 'POST',
        url: `${server.origin}/orders?access_token=secret-q`,
        headers: { authorization: 'Bearer secret-h' },
        body: 'secret-b',
      }),
    );
    expect(error.url).toBe(`${server.origin}/orders`);
    const everything = `${error.message} ${error.url} ${String(error.cause)} ${JSON.stringify(error)}`;
    expect(everything).not.toMatch(/secret/);
  });
});

describe('redirects', () => {
  it('follows a same-origin redirect with the headers intact', async () => {
    const server = await serve((q, r, hit) =>
      q.url === '/old' ? r.writeHead(301, { location: '/new' }).end() : ok(q, r, hit),
    );
    const client = clientFor([server]);
    const response = await client.request({
      method: 'GET',
      url: `${server.origin}/old`,
      headers: { authorization: 'Bearer t' },
    });
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${server.origin}/new`);
    expect(server.hits[1]?.headers.authorization).toBe('Bearer t');
  });

  it('drops credentials on a redirect to another origin', async () => {
    const target = await serve(ok);
    const source = await serve((_q, r) =>
      r.writeHead(302, { location: `${target.origin}/x` }).end(),
    );
    const client = clientFor([source, target]);
    await client.request({
      method: 'GET',
      url: source.origin,
      headers: {
        accept: 'application/json',
        authorization: 'Bearer t',
        'x-auth-token': 't',
        'X-Shopify-Access-Token': 't',
        cookie: 'a=b',
      },
    });
    const headers = target.hits[0]?.headers ?? {};
    expect(headers.accept).toBe('application/json');
    for (const name of ['authorization', 'x-auth-token', 'x-shopify-access-token', 'cookie']) {
      expect(headers[name], name).toBeUndefined();
    }
  });

  it('turns a POST into a GET on 303 and keeps it on 307', async () => {
    const server = await serve((q, r, hit) => {
      if (q.url === '/see-other') r.writeHead(303, { location: '/done' }).end();
      else if (q.url === '/temporary') r.writeHead(307, { location: '/done' }).end();
      else ok(q, r, hit);
    });
    const client = clientFor([server]);
    await client.request({ method: 'POST', url: `${server.origin}/see-other`, body: 'data' });
    expect(server.hits[1]).toMatchObject({ method: 'GET', body: '' });
    await client.request({ method: 'POST', url: `${server.origin}/temporary`, body: 'data' });
    expect(server.hits[3]).toMatchObject({ method: 'POST', body: 'data' });
  });

  it('follows at most five redirects', async () => {
    const server = await serve((q, r, hit) => {
      const n = Number(q.url?.slice(1));
      if (n > 0) r.writeHead(302, { location: `/${n - 1}` }).end();
      else ok(q, r, hit);
    });
    const client = clientFor([server]);
    expect((await client.request({ method: 'GET', url: `${server.origin}/5` })).status).toBe(200);
    const before = server.hits.length;
    const error = await failure(client.request({ method: 'GET', url: `${server.origin}/6` }));
    expect(error).toMatchObject({ errorClass: 'config', code: 'too_many_redirects' });
    expect(server.hits.length - before).toBe(6);
  });

  it('hands the 3xx back when asked to', async () => {
    const server = await serve((_q, r) => r.writeHead(302, { location: '/elsewhere' }).end());
    const client = clientFor([server]);
    const response = await client.request({
      method: 'GET',
      url: server.origin,
      redirect: 'manual',
    });
    expect(response.status).toBe(302);
    expect(response.headers.location).toBe('/elsewhere');
    expect(server.hits).toHaveLength(1);
  });
});

describe('pacing', () => {
  it('keeps a store within its limiter budget', async () => {
    const server = await serve(ok);
    const client = clientFor([server]);
    const limiter = createRateLimiter({
      requestsPerInterval: 2,
      intervalMs: 300,
      maxConcurrent: 2,
    });
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 6 }, () =>
        client.request({ method: 'GET', url: server.origin, limiter }),
      ),
    );
    const arrivals = server.hits.map((h) => h.at);
    // Grants are 300 ms apart in pairs; arrivals may lag a grant by a few ms, never lead it.
    for (const at of arrivals) {
      expect(arrivals.filter((t) => t >= at && t < at + 250).length).toBeLessThanOrEqual(2);
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(590);
  });
});

describe('errorForStatus / assertOk', () => {
  const response = (status: number, headers: Record<string, string> = {}) => ({
    status,
    headers,
    url: 'https://shop.example.com/api/products?token=x',
  });

  it('classifies statuses', () => {
    expect(errorForStatus(response(200))).toBeUndefined();
    expect(errorForStatus(response(302))).toBeUndefined();
    expect(errorForStatus(response(401))?.errorClass).toBe('config');
    expect(errorForStatus(response(403))?.errorClass).toBe('config');
    expect(errorForStatus(response(404))?.errorClass).toBe('system');
    expect(errorForStatus(response(404), { onBaseUrl: true })?.errorClass).toBe('config');
    expect(errorForStatus(response(422))?.errorClass).toBe('system');
    expect(errorForStatus(response(429, { 'retry-after': '7' }))).toMatchObject({
      errorClass: 'transient',
      retryAfterMs: 7_000,
    });
    expect(errorForStatus(response(500))?.errorClass).toBe('transient');
    expect(errorForStatus(response(504))?.errorClass).toBe('transient');
  });

  it('throws with the URL stripped of its query', () => {
    expect(() => assertOk(response(403))).toThrow(HttpError);
    try {
      assertOk(response(403));
    } catch (error) {
      expect((error as HttpError).url).toBe('https://shop.example.com/api/products');
      expect((error as HttpError).message).not.toContain('token');
    }
  });
});
