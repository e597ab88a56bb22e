import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTarget } from './egress-guard.ts';
import { HttpError } from './errors.ts';
import { hostileRedirectTargets, hostileResolver, hostileUrls } from './hostile-urls.ts';
import { createHttpClient } from './http-client.ts';
import type { HttpClient } from './http-client.ts';
import { startCountingServer, startHttpServer } from './test-servers.ts';
import type { CountingServer, TestServer } from './test-servers.ts';

// The counting server must be up before the cases are built (they embed its port), and
// describe bodies run synchronously, so it is started at module level.
const counting: CountingServer = await startCountingServer();
const cases = hostileUrls(counting.port);
const redirectTargets = hostileRedirectTargets(counting.port);

async function refusal(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe('egress guard against hostile URLs', () => {
  let redirector: TestServer;
  let client: HttpClient;
  const resolverCalls: string[] = [];

  beforeAll(async () => {
    redirector = await startHttpServer((request, response) => {
      const index = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('to'));
      response.writeHead(302, { location: redirectTargets[index] ?? '/' }).end();
    });
    client = createHttpClient({
      // Plain http is admitted, so every refusal below is about the address, not the scheme.
      allowHttp: true,
      allowlist: [redirector.origin],
      resolver: hostileResolver(resolverCalls),
      timeoutMs: 3_000,
      retry: { maxAttempts: 1 },
    });
  });

  afterAll(async () => {
    await client.close();
    await redirector.close();
    await counting.close();
  });

  it('covers more than 100 hostile URLs', () => {
    expect(cases.length + redirectTargets.length).toBeGreaterThanOrEqual(100);
    expect(new Set(cases.map((c) => c.url)).size).toBe(cases.length);
  });

  it.each(cases)('refuses $url', async ({ url, stage }) => {
    if (stage === 'parse') {
      expect(() => parseTarget(url, { allowHttp: true })).toThrow(HttpError);
    } else {
      // Looks like a public name: only the resolved addresses can give it away.
      expect(parseTarget(url, { allowHttp: true }).allowlisted).toBe(false);
    }
    const error = await refusal(client.request({ method: 'GET', url }));
    expect(error.errorClass).toBe('config');
    expect(['egress_refused', 'invalid_url']).toContain(error.code);
    expect(error.url).not.toContain('pass');
    expect(error.message).not.toContain('pass');
  });

  it('consulted the resolver for the names that only DNS gives away', () => {
    expect(resolverCalls).toContain('loopback.attacker.test');
    expect(resolverCalls).toContain('mixed.attacker.test');
    expect(resolverCalls).not.toContain('localhost');
  });

  it.each(redirectTargets.map((target, index) => ({ target, index })))(
    'refuses a redirect from an allow-listed server to $target',
    async ({ index }) => {
      const before = redirector.hits.length;
      const error = await refusal(
        client.request({ method: 'GET', url: `${redirector.origin}/r?to=${index}` }),
      );
      expect(redirector.hits.length).toBe(before + 1);
      expect(error.errorClass).toBe('config');
      expect(['egress_refused', 'invalid_url']).toContain(error.code);
    },
  );

  it('never opened a connection to the private server', () => {
    expect(counting.connections()).toBe(0);
  });

  it('counts connections when the same server is allow-listed (control)', async () => {
    const control = createHttpClient({ allowlist: [`http://127.0.0.1:${counting.port}`] });
    const response = await control.request({
      method: 'GET',
      url: `http://127.0.0.1:${counting.port}/`,
    });
    await control.close();
    expect(response.text()).toBe('ok');
    expect(counting.connections()).toBe(1);
  });
});
