import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemResolver } from './egress-guard.ts';
import type { LookupFunction } from 'node:net';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  connectedPeerProblem,
  createEgressAgent,
  guardedLookup,
  normaliseAllowlist,
  parseAllowlist,
  parseTarget,
} from './egress-guard.ts';
import type { ResolvedAddress, Resolver } from './egress-guard.ts';
import { HttpError } from './errors.ts';
import { startCountingServer } from './test-servers.ts';
import type { CountingServer } from './test-servers.ts';

function lookupOnce(
  resolver: Resolver,
  enforce: boolean,
  hostname: string,
  options: { all?: boolean; family?: number } = {},
): Promise<{ error: Error | null; address: unknown; family?: number }> {
  return new Promise((resolve) => {
    guardedLookup(resolver, enforce)(hostname, options, (error, address, family) =>
      resolve({ error, address, family }),
    );
  });
}

const fixed =
  (answer: ResolvedAddress[]): Resolver =>
  async () =>
    answer;

describe('parseTarget', () => {
  it('canonicalises the host before checking it', () => {
    const target = parseTarget('HTTPS://Shop.Example.COM./admin?x=1');
    expect(target.hostname).toBe('shop.example.com.');
    expect(target.origin).toBe('https://shop.example.com.');
    expect(target.allowlisted).toBe(false);
  });

  it('admits https and refuses plain http unless the policy allows it', () => {
    expect(parseTarget('https://shop.example.com/').url.href).toBe('https://shop.example.com/');
    expect(() => parseTarget('http://shop.example.com/')).toThrow(/plain http/);
    expect(parseTarget('http://shop.example.com/', { allowHttp: true }).origin).toBe(
      'http://shop.example.com',
    );
  });

  it('admits public IP literals', () => {
    expect(parseTarget('https://93.184.215.14/').hostname).toBe('93.184.215.14');
    expect(parseTarget('https://[2606:4700::1111]/').hostname).toBe('2606:4700::1111');
  });

  it('matches allow-list entries exactly on scheme, host and port', () => {
    const allowlist = ['http://127.0.0.1:4100'];
    expect(parseTarget('http://127.0.0.1:4100/api', { allowlist }).allowlisted).toBe(true);
    for (const url of [
      'http://127.0.0.1:4101/',
      'https://127.0.0.1:4100/',
      'http://localhost:4100/',
      'http://127.0.0.1/',
      'http://[::1]:4100/',
    ]) {
      expect(() => parseTarget(url, { allowlist, allowHttp: true }), url).toThrow(HttpError);
    }
  });

  it('treats an allow-listed default port like the bare origin', () => {
    const allowlist = ['https://sandbox.example.com:443'];
    expect(parseTarget('https://sandbox.example.com/', { allowlist }).allowlisted).toBe(true);
  });

  it('refuses credentials in the URL even for allow-listed origins', () => {
    const allowlist = ['http://127.0.0.1:4100'];
    expect(() => parseTarget('http://a:b@127.0.0.1:4100/', { allowlist })).toThrow(/credentials/);
  });

  it('keeps query strings and credentials out of the error', () => {
    try {
      parseTarget('http://user:secret@10.0.0.1/path?token=abc', { allowHttp: true });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError);
      const e = error as HttpError;
      expect(e.errorClass).toBe('config');
      expect(e.url).toBe('http://10.0.0.1/path');
      expect(e.message).not.toMatch(/secret|token|abc|user/);
    }
  });
});

describe('allow-list configuration', () => {
  it('parses an EGRESS_ALLOWLIST value', () => {
    expect(
      parseAllowlist(' http://127.0.0.1:4100, http://127.0.0.1:4200\nhttps://a.test '),
    ).toEqual(['http://127.0.0.1:4100', 'http://127.0.0.1:4200', 'https://a.test']);
    expect(parseAllowlist(undefined)).toEqual([]);
  });

  it('normalises origins and rejects anything that is not a bare origin', () => {
    expect([...normaliseAllowlist(['HTTP://127.0.0.1:4100/', 'https://A.test:443'])]).toEqual([
      'http://127.0.0.1:4100',
      'https://a.test',
    ]);
    for (const entry of [
      '127.0.0.1:4100',
      'http://127.0.0.1:4100/api',
      'http://127.0.0.1:4100?x',
      'http://u:p@127.0.0.1:4100',
      'ftp://127.0.0.1',
      '*',
      'http://*',
    ]) {
      expect(() => normaliseAllowlist([entry]), entry).toThrow(TypeError);
    }
  });
});

describe('guardedLookup', () => {
  it('refuses a name resolving to loopback through the injected resolver', async () => {
    const result = await lookupOnce(fixed([{ address: '127.0.0.1', family: 4 }]), true, 'x.test');
    expect(result.error).toBeInstanceOf(HttpError);
    expect((result.error as HttpError).code).toBe('egress_refused');
  });

  it('refuses localhost through the system resolver', async () => {
    const result = await lookupOnce(systemResolver, true, 'localhost', { all: true });
    expect(result.error).toBeInstanceOf(HttpError);
    expect(result.error?.message).toMatch(/loopback/);
  });

  it('refuses when any one of the answers is private', async () => {
    const mixed = fixed([
      { address: '93.184.215.14', family: 4 },
      { address: '10.0.0.1', family: 4 },
    ]);
    expect((await lookupOnce(mixed, true, 'x.test')).error).toBeInstanceOf(HttpError);
    expect((await lookupOnce(mixed, true, 'x.test', { all: true })).error).toBeInstanceOf(
      HttpError,
    );
  });

  it('answers checked addresses in the shape net.connect asks for', async () => {
    const resolver = fixed([
      { address: '2606:4700::1111', family: 6 },
      { address: '93.184.215.14', family: 4 },
    ]);
    expect(await lookupOnce(resolver, true, 'x.test')).toEqual({
      error: null,
      address: '2606:4700::1111',
      family: 6,
    });
    expect(await lookupOnce(resolver, true, 'x.test', { family: 4 })).toEqual({
      error: null,
      address: '93.184.215.14',
      family: 4,
    });
    expect((await lookupOnce(resolver, true, 'x.test', { all: true })).address).toEqual([
      { address: '2606:4700::1111', family: 6 },
      { address: '93.184.215.14', family: 4 },
    ]);
  });

  it('reports an empty or failed resolution as host not found', async () => {
    const empty = await lookupOnce(fixed([]), true, 'x.test');
    expect((empty.error as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
    const failing: Resolver = () => Promise.reject(new Error('boom'));
    const failed = await lookupOnce(failing, true, 'x.test');
    expect((failed.error as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });

  it('does not check when not enforcing (allow-listed origins)', async () => {
    const result = await lookupOnce(fixed([{ address: '127.0.0.1', family: 4 }]), false, 'x.test');
    expect(result).toEqual({ error: null, address: '127.0.0.1', family: 4 });
  });
});

describe('egress agent (connect-time check on its own, without parseTarget)', () => {
  let counting: CountingServer;
  const resolver: Resolver = async (host) =>
    host === 'rebound.test' ? [{ address: '127.0.0.1', family: 4 }] : [];

  beforeAll(async () => {
    counting = await startCountingServer();
  });
  afterAll(async () => {
    await counting.close();
  });

  it('refuses loopback literals and loopback names before any socket is opened', async () => {
    const agent = createEgressAgent({ allowlist: new Set(), resolver, connectTimeoutMs: 2_000 });
    for (const origin of [
      `http://127.0.0.1:${counting.port}`,
      `http://rebound.test:${counting.port}`,
      `https://rebound.test:${counting.port}`,
      `http://[::ffff:127.0.0.1]:${counting.port}`,
    ]) {
      const error = await agent.request({ origin, path: '/', method: 'GET' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, origin).toBeInstanceOf(HttpError);
      expect((error as HttpError).code).toBe('egress_refused');
    }
    await agent.close();
    expect(counting.connections()).toBe(0);
  });

  it('connects to an allow-listed origin, and only to that exact origin', async () => {
    const origin = `http://127.0.0.1:${counting.port}`;
    const agent = createEgressAgent({
      allowlist: new Set([origin]),
      resolver,
      connectTimeoutMs: 2_000,
    });
    const response = await agent.request({ origin, path: '/', method: 'GET' });
    expect(await response.body.text()).toBe('ok');
    const other = await agent
      .request({ origin: `http://rebound.test:${counting.port}`, path: '/', method: 'GET' })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(other).toBeInstanceOf(HttpError);
    await agent.close();
    expect(counting.connections()).toBe(1);
  });
});

describe('DNS rebinding', () => {
  it('checks every lookup anew: a name that resolved to a public address is refused once it resolves to loopback', async () => {
    const answers: ResolvedAddress[][] = [
      [{ address: '93.184.215.14', family: 4 }],
      [{ address: '127.0.0.1', family: 4 }],
      [{ address: '93.184.215.14', family: 4 }],
    ];
    let lookups = 0;
    const rebinding: Resolver = async () => answers[lookups++] ?? [];
    const first = await lookupOnce(rebinding, true, 'rebind.test');
    expect(first).toEqual({ error: null, address: '93.184.215.14', family: 4 });
    const second = await lookupOnce(rebinding, true, 'rebind.test');
    expect(second.error).toBeInstanceOf(HttpError);
    expect((second.error as HttpError).code).toBe('egress_refused');
    expect(second.error?.message).toMatch(/rebind\.test resolves to a loopback/);
    const third = await lookupOnce(rebinding, true, 'rebind.test');
    expect(third.error).toBeNull();
    expect(lookups).toBe(3);
  });
});

describe('the connected-address check on its own', () => {
  let received = 0;
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('names what is wrong with a peer address, and nothing for a public one', () => {
    expect(connectedPeerProblem('93.184.215.14')).toBeUndefined();
    expect(connectedPeerProblem('2606:4700::1111')).toBeUndefined();
    expect(connectedPeerProblem('127.0.0.1')).toMatch(/^connected to a loopback/);
    expect(connectedPeerProblem('::ffff:10.1.2.3')).toMatch(/^connected to a/);
    expect(connectedPeerProblem('169.254.169.254')).toMatch(/^connected to a/);
    expect(connectedPeerProblem(undefined)).toMatch(/unknown peer/);
  });

  it('drops a connection that reached a private address although the checked answer was public, before sending a byte', async () => {
    // The answer changes between the check and the connect (a rebinding resolver, or a lookup
    // that does not give the socket what it checked): only the peer check stands in the way.
    const checked = guardedLookup(async () => [{ address: '93.184.215.14', family: 4 }], true);
    const swapped: LookupFunction = (hostname, options, callback) =>
      checked(hostname, options, (error) => {
        if (error) return callback(error, '', 0);
        if (options.all) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
        return callback(null, '127.0.0.1', 4);
      });
    const agent = createEgressAgent({
      allowlist: new Set(),
      resolver: async () => [],
      connectTimeoutMs: 2_000,
      lookup: swapped,
    });
    try {
      const error = await agent
        .request({ origin: `http://rebind.test:${port}`, path: '/secret', method: 'GET' })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).code).toBe('egress_refused');
      expect((error as HttpError).message).toMatch(/connected to a loopback/);
      // The socket was opened (the lookup let it through) and closed without a request on it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(connections).toBe(1);
      expect(received).toBe(0);
    } finally {
      await agent.close();
    }
  });
});
