import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import type { ConnectorHttp, ConnectorHttpRequest } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { createHttpClient, type HttpClient } from '../kit/http/http-client.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { WooCommerceConnection, wooCommerceConnector } from './woocommerce.ts';

/**
 * How the connector meets real transports: the production client over plain http (one-time OAuth
 * signatures, so no request may be repeated as it is), stores behind TLS (HTTP Basic), and API
 * keys with read-only or write-only permissions.
 */

const counting = (inner: ConnectorHttp) => {
  const sent: ConnectorHttpRequest[] = [];
  const http: ConnectorHttp = {
    request: (request) => {
      sent.push(request);
      return inner.request(request);
    },
  };
  return { http, sent };
};

describe('WooCommerce through the production client over plain http', () => {
  let emu: RunningWooCommerceEmulator;
  let client: HttpClient;
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({
      seed: { seed: 5, products: 12, customers: 4, orders: 4 },
      faultSeed: 11,
    });
    client = createHttpClient({ allowlist: [emu.url], timeoutMs: 5_000 });
  });
  afterAll(async () => {
    await client.close();
    await emu.close();
  });

  it('survives half of all answers being cut off: every attempt is signed afresh, none is replayed', async () => {
    const { http, sent } = counting(client);
    const connection = wooCommerceConnector.connect(
      { storeUrl: emu.url, consumerKey: emu.consumerKey, consumerSecret: emu.consumerSecret },
      { http },
    );
    const before = emu.stats.requests;
    emu.setFaults({ truncateRate: 0.5 });
    const counts: number[] = [];
    try {
      for (let i = 0; i < 20; i++) counts.push(await connection.count('products'));
    } finally {
      emu.setFaults(undefined);
    }
    expect(counts).toEqual(new Array(20).fill(12));
    // A replayed signature would have been answered 401 "nonce already used".
    expect(emu.stats.byStatus[401]).toBeUndefined();
    expect(emu.stats.faultsInjected).toBeGreaterThan(5);
    // One retry layer: each send of the connector is exactly one request at the store.
    expect(emu.stats.requests - before).toBe(sent.length);
    const nonces = sent.map((r) => new URL(r.url).searchParams.get('oauth_nonce'));
    expect(new Set(nonces).size).toBe(sent.length);
    expect(sent.length).toBeLessThanOrEqual(20 * 6);
  });

  it('abandons a request that hangs, in the transport too, and succeeds on the next attempt', async () => {
    const connection = new WooCommerceConnection(
      { storeUrl: emu.url, consumerKey: emu.consumerKey, consumerSecret: emu.consumerSecret },
      { http: client },
      { timeoutMs: 300, sleep: async () => {} },
    );
    emu.setFaults({ timeoutRate: 0.5 });
    try {
      for (let i = 0; i < 6; i++) expect(await connection.count('customers')).toBe(4);
    } finally {
      emu.setFaults(undefined);
    }
    expect(emu.stats.faultsInjected).toBeGreaterThan(0);
  });
});

describe('WooCommerce over https (HTTP Basic)', () => {
  let emu: RunningWooCommerceEmulator;
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({
      seed: { seed: 9, products: 6, customers: 3, orders: 3 },
      https: true,
    });
  });
  afterAll(async () => {
    await emu.close();
  });

  it('serves TLS with a certificate made at start, which clients must be told to trust', async () => {
    expect(emu.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(emu.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const untrusting = createHttpClient({ allowlist: [emu.url] });
    try {
      const error = await wooCommerceConnector
        .connect(
          { storeUrl: emu.url, consumerKey: emu.consumerKey, consumerSecret: emu.consumerSecret },
          { http: untrusting },
        )
        .check()
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ errorClass: 'config', code: 'tls_error' });
    } finally {
      await untrusting.close();
    }
  });

  it.each([
    [
      'the production client',
      () => createHttpClient({ allowlist: [emu.url], ca: emu.certificate }),
    ],
    ['the loopback transport', () => loopbackHttp({ ca: emu.certificate ?? '' })],
  ] as const)(
    'reads and writes with Basic auth through %s, never signing and never putting the secret in the URL',
    async (_label, make) => {
      const transport = make();
      const { http, sent } = counting(transport);
      try {
        const connection = wooCommerceConnector.connect(
          { storeUrl: emu.url, consumerKey: emu.consumerKey, consumerSecret: emu.consumerSecret },
          { http },
        );
        expect(await connection.check({ write: true })).toMatchObject({ ok: true, canWrite: true });
        expect(await connection.count('products')).toBe(6);
        const pages = [];
        for await (const page of connection.read('customers', null)) pages.push(...page.records);
        expect(pages).toHaveLength(3);
        expect(sent.length).toBeGreaterThan(3);
        const basic = `Basic ${Buffer.from(`${emu.consumerKey}:${emu.consumerSecret}`).toString('base64')}`;
        for (const request of sent) {
          expect(request.headers?.authorization).toBe(basic);
          expect(request.url).not.toContain('oauth_');
          expect(request.url).not.toContain(emu.consumerSecret);
        }
        const wrong = wooCommerceConnector.connect(
          { storeUrl: emu.url, consumerKey: emu.consumerKey, consumerSecret: 'cs_wrong0000' },
          { http },
        );
        await expect(wrong.check()).rejects.toMatchObject({
          errorClass: 'config',
          code: 'auth_failed',
          message: expect.stringMatching(/Consumer secret is invalid/),
        });
      } finally {
        await (transport as { close(): Promise<void> }).close();
      }
    },
  );
});

describe('API key permissions', () => {
  let emu: RunningWooCommerceEmulator;
  const readOnly = { consumerKey: 'ck_readonly1234', consumerSecret: 'cs_readonly1234' };
  const writeOnly = { consumerKey: 'ck_writeonly1234', consumerSecret: 'cs_writeonly1234' };
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({
      seed: { seed: 2, products: 3, customers: 2, orders: 2 },
      extraKeys: [
        { ...readOnly, permissions: 'read' },
        { ...writeOnly, permissions: 'write' },
      ],
    });
  });
  afterAll(async () => {
    await emu.close();
  });

  const connect = (key: { consumerKey: string; consumerSecret: string }) =>
    wooCommerceConnector.connect({ storeUrl: emu.url, ...key }, { http: loopbackHttp() });

  it('accepts a read-only key for a source, and refuses it for a destination', async () => {
    expect(await connect(readOnly).check()).toMatchObject({ ok: true });
    const error = await connect(readOnly)
      .check({ write: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).toMatchObject({ errorClass: 'config', code: 'read_only_credentials' });
    expect((error as Error).message).toMatch(/Read\/Write/);
  });

  it('proves write access with writes that change nothing', async () => {
    const before = { ...emu.store.counts() };
    const own = { consumerKey: emu.consumerKey, consumerSecret: emu.consumerSecret };
    expect(await connect(own).check({ write: true })).toMatchObject({ canWrite: true });
    expect(emu.store.counts()).toEqual(before);
  });

  it('refuses a write-only key, which cannot read the store at all', async () => {
    await expect(connect(writeOnly).check()).rejects.toMatchObject({
      errorClass: 'config',
      code: 'auth_failed',
      message: expect.stringMatching(/does not have read permissions/),
    });
  });
});
