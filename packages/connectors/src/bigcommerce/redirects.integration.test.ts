import { afterAll, describe, expect, it } from 'vitest';
import {
  startBigCommerceEmulator,
  type RunningBigCommerceEmulator,
} from '@replatform/emulators/bigcommerce/bigcommerce-emulator';
import { BigCommerceSpec } from '@replatform/emulators/bigcommerce/openapi-validator';
import type { ConnectorHttpRequest } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { createBigCommerceConnector } from './bigcommerce-connector.ts';
import type { RedirectWithRecord } from './redirects.ts';

const spec = new BigCommerceSpec();
const origins = new Map<string, string>();
const emulators: RunningBigCommerceEmulator[] = [];
let counter = 0;

const connector = createBigCommerceConnector({
  apiBaseUrl: (storeHash) => origins.get(storeHash) ?? 'http://127.0.0.1:9',
  retry: { baseDelayMs: 5, maxDelayMs: 50 },
});

async function store(): Promise<RunningBigCommerceEmulator> {
  counter += 1;
  const emulator = await startBigCommerceEmulator({
    storeHash: `redirects${counter}`,
    plan: 'unlimited',
    seed: { seed: 3, products: 2, customers: 0, orders: 0 },
  });
  origins.set(emulator.storeHash, emulator.url);
  emulators.push(emulator);
  return emulator;
}

function connect(emulator: RunningBigCommerceEmulator) {
  const http = loopbackHttp();
  const connection = connector.connect(
    { storeHash: emulator.storeHash, accessToken: emulator.accessToken },
    { http },
  );
  return { connection, requests: http.requests };
}

const specProblems = (requests: ConnectorHttpRequest[]) => [
  ...new Set(requests.flatMap((r) => spec.validateRequest(r))),
];
const calls = (requests: ConnectorHttpRequest[]) =>
  requests.map((r) => {
    const url = new URL(r.url);
    return `${r.method} ${url.pathname.replace(/^\/stores\/[^/]+/, '')}`;
  });

afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
});

describe('BigCommerce storefront redirects', () => {
  it("targets the record when its destination id is known, leaves the owner's redirect alone, and batches the rest", async () => {
    const emulator = await store();
    const product = emulator.state.products[0]!;
    emulator.state.redirects.push({
      id: emulator.state.nextId('redirect'),
      site_id: 1000,
      from_path: '/owners-old-page/',
      to: { type: 'url', url: '/owners-new-page/' },
    });
    const { connection, requests } = connect(emulator);
    const redirects: RedirectWithRecord[] = [
      {
        entity: 'products',
        sourceId: 's1',
        from: '/product/old-shirt/',
        to: '/new-shirt/',
        destinationId: String(product.id),
      },
      { entity: 'categories', sourceId: 'c1', from: '/category/shirts/', to: '/shirts/' },
      { entity: 'pages', sourceId: 'p1', from: '/owners-old-page/', to: '/about/' },
      { entity: 'pages', sourceId: 'p2', from: '/category/shirts/', to: '/elsewhere/' },
      {
        entity: 'pages',
        sourceId: 'p3',
        from: 'https://old.example/category/shirts/',
        to: '/shirts/',
      },
    ];
    const outcomes = await connection.writeRedirects(redirects);
    expect(outcomes.map((o) => o.outcome)).toEqual([
      'created',
      'created',
      'failed',
      'failed',
      'existing',
    ]);
    expect(outcomes[2]?.reason).toMatch(/already redirects \/owners-old-page\/ to/);
    expect(outcomes[3]?.reason).toMatch(/another redirect of this migration/);
    const written = emulator.state.redirects.find((r) => r.from_path === '/product/old-shirt/');
    expect(written?.to).toEqual({ type: 'product', entity_id: product.id });
    expect(emulator.state.redirects.find((r) => r.from_path === '/owners-old-page/')?.to).toEqual({
      type: 'url',
      url: '/owners-new-page/',
    });
    // The site's list read once (a count, then its pages), and one upsert for both.
    expect(calls(requests).filter((c) => c.includes('redirects'))).toEqual([
      'GET /v3/storefront/redirects',
      'GET /v3/storefront/redirects',
      'PUT /v3/storefront/redirects',
    ]);
    expect(specProblems(requests)).toEqual([]);

    // An entity redirect written again is existing, also after the product's path changed.
    product.custom_url = { url: '/renamed-shirt/', is_customized: true };
    const again = await connection.writeRedirects(redirects.slice(0, 1));
    expect(again[0]?.outcome).toBe('existing');

    // Undo: removed, then gone.
    const assets = outcomes
      .filter((o) => o.outcome === 'created')
      .map((o) => ({ kind: 'redirect' as const, key: o.from, destinationId: o.destinationId! }));
    expect((await connection.removeAssets(assets)).map((o) => o.outcome)).toEqual([
      'removed',
      'removed',
    ]);
    expect((await connection.removeAssets(assets)).map((o) => o.outcome)).toEqual(['gone', 'gone']);
    expect(emulator.state.redirects.map((r) => r.from_path)).toEqual(['/owners-old-page/']);
  });

  it('looks each path up by keyword in a site with many redirects', async () => {
    const emulator = await store();
    for (let n = 0; n < 2600; n++)
      emulator.state.redirects.push({
        id: emulator.state.nextId('redirect'),
        site_id: 1000,
        from_path: `/old-${n}/`,
        to: { type: 'url', url: `/new-${n}/` },
      });
    const { connection, requests } = connect(emulator);
    const outcomes = await connection.writeRedirects([
      { entity: 'products', sourceId: '1', from: '/old-1/', to: '/new-1/' },
      { entity: 'products', sourceId: '2', from: '/old-2/', to: '/other/' },
      { entity: 'products', sourceId: '3', from: '/old-3000/', to: '/new-3000/' },
    ]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['existing', 'failed', 'created']);
    const lookups = requests.filter((r) => new URL(r.url).searchParams.has('keyword'));
    expect(lookups).toHaveLength(3);
    expect(requests.length).toBeLessThan(10);
    expect(specProblems(requests)).toEqual([]);
  });
});
