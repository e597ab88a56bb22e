import { afterAll, describe, expect, it } from 'vitest';
import { brandSchema, type Brand } from '@replatform/canonical/brand';
import { brandDefaults } from '@replatform/canonical/defaults';
import {
  startBigCommerceEmulator,
  type BigCommerceEmulatorOptions,
  type RunningBigCommerceEmulator,
} from '@replatform/emulators/bigcommerce/bigcommerce-emulator';
import { BigCommerceSpec } from '@replatform/emulators/bigcommerce/openapi-validator';
import { comparable } from '../kit/conformance/compare.ts';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { ConnectorHttp, ConnectorHttpRequest } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { createBigCommerceConnector } from './bigcommerce-connector.ts';

const spec = new BigCommerceSpec();
const origins = new Map<string, string>();
const emulators: RunningBigCommerceEmulator[] = [];
let counter = 0;

const connector = createBigCommerceConnector({
  apiBaseUrl: (storeHash) => origins.get(storeHash) ?? 'http://127.0.0.1:9',
  retry: { baseDelayMs: 5, maxDelayMs: 50 },
});
const destinationFields = connector.capabilities.destinationFields.brands ?? {};
const seed = { seed: 5, products: 8, customers: 0, orders: 0 };

async function store(options: BigCommerceEmulatorOptions): Promise<RunningBigCommerceEmulator> {
  counter += 1;
  const emulator = await startBigCommerceEmulator({
    storeHash: `brands${counter}`,
    plan: 'unlimited',
    ...options,
  });
  origins.set(emulator.storeHash, emulator.url);
  emulators.push(emulator);
  return emulator;
}

function connect(emulator: RunningBigCommerceEmulator, http?: ConnectorHttp) {
  const loopback = loopbackHttp();
  const connection = connector.connect(
    { storeHash: emulator.storeHash, accessToken: emulator.accessToken },
    { http: http ?? loopback },
  );
  return { connection, requests: loopback.requests };
}

const specProblems = (requests: ConnectorHttpRequest[]) => [
  ...new Set(requests.flatMap((r) => spec.validateRequest(r))),
];
const brandWrites = (requests: ConnectorHttpRequest[]) =>
  requests.filter(
    (r) => (r.method === 'POST' || r.method === 'PUT') && /\/catalog\/brands(\/\d+)?$/.test(r.url),
  );

async function api(
  emulator: RunningBigCommerceEmulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: { data?: Record<string, unknown> } }> {
  const response = await fetch(`${emulator.url}/stores/${emulator.storeHash}${path}`, {
    method,
    headers: { 'X-Auth-Token': emulator.accessToken, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as never) : {} };
}

/** A brand as another platform would give it (WooCommerce: a description, a place in a tree). */
const brand = (over: Partial<Brand>): Brand =>
  brandSchema.parse({
    ...brandDefaults(),
    id: '700',
    name: 'Fjällräven & Co',
    slug: 'fjallraven-co',
    description: '<p>Since 1960.</p>',
    position: 2,
    imageUrl: 'https://media.example.com/brands/fjallraven.png',
    seoTitle: 'Fjällräven gear',
    seoDescription: 'Outdoor gear from Sweden.',
    seoKeywords: ['outdoor', 'sweden'],
    searchKeywords: 'fox, backpack',
    metafields: [{ namespace: 'custom', key: 'origin', value: 'Örnsköldsvik', type: 'string' }],
    sourceUrlPath: '/brand/fjallraven-co/',
    ...over,
  });

afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
});

describe('BigCommerce brand writes', () => {
  it('copies the sample brands with their SEO fields, logo, page and custom fields', async () => {
    const source = await store({ seed });
    const destination = await store({ seed: 'empty' });
    const from = connect(source).connection;
    const to = connect(destination);
    const brands = await readAll(from, 'brands');
    expect(brands).toHaveLength(source.countStored('brands'));
    expect(await from.count('brands')).toBe(brands.length);
    const withPage = brands.find((b) => b.seoTitle !== '');
    expect(withPage?.sourceUrlPath).toMatch(/^\/brands\//);
    expect(withPage?.slug).not.toBe('');
    const idMap = new MemoryIdMap();
    const outcomes = await to.connection.write('brands', brands, idMap);
    expect(outcomes.map((o) => [o.sourceId, o.outcome])).toEqual(
      brands.map((b) => [b.id, 'created']),
    );
    expect(destination.countStored('brands')).toBe(brands.length);
    expect(specProblems(to.requests)).toEqual([]);
    idMap.record('brands', outcomes);
    const copies = await readAll(connect(destination).connection, 'brands');
    const ignore = [...Object.keys(destinationFields.unsupported ?? {}), 'imageUrl'];
    for (const copy of copies) {
      const sourceId = idMap.sourceIdOf('brands', copy.id);
      const original = brands.find((b) => b.id === sourceId);
      expect(original, copy.name).toBeDefined();
      const options = {
        toSourceId: (e: 'brands', id: string) => idMap.sourceIdOf(e, id),
        ignore,
      } as Parameters<typeof comparable>[2];
      expect(comparable('brands', copy, options)).toEqual(
        comparable('brands', original as Brand, options),
      );
      expect(Boolean(copy.imageUrl)).toBe(Boolean(original?.imageUrl));
    }
    // Each copy carries the source id marker.
    const markers = destination.state.metafields.filter(
      (m) => m.resource_type === 'brand' && m.namespace === 'replatform',
    );
    expect(markers.map((m) => m.value).sort()).toEqual(brands.map((b) => b.id).sort());
  });

  it('leaves unchanged brands alone, writes changed ones again, and a re-run without its id map finds them by marker', async () => {
    const destination = await store({ seed: 'empty' });
    const records = [
      brand({}),
      brand({ id: '701', name: 'Acme', slug: 'acme', sourceUrlPath: null, imageUrl: null }),
    ];
    const idMap = new MemoryIdMap();
    const first = connect(destination);
    const created = await first.connection.write('brands', records, idMap);
    expect(created.map((o) => o.outcome)).toEqual(['created', 'created']);
    // A brand without a path of its own gets /brands/<slug>/.
    expect(destination.state.brands.find((b) => b.name === 'Acme')?.custom_url).toEqual({
      url: '/brands/acme/',
      is_customized: true,
    });
    // BigCommerce has no place for a description, a position or a parent: the run reports them.
    expect(Object.keys(destinationFields.unsupported ?? {})).toEqual(
      expect.arrayContaining(['description', 'position', 'parentId', 'imageAlt', 'displayType']),
    );
    idMap.record('brands', created);

    const again = connect(destination);
    const unchanged = await again.connection.write('brands', records, idMap);
    expect(unchanged.map((o) => [o.outcome, o.reason])).toEqual([
      ['skipped', 'unchanged'],
      ['skipped', 'unchanged'],
    ]);
    expect(brandWrites(again.requests)).toEqual([]);

    const changed = [{ ...records[0], seoTitle: 'Fjällräven — new' } as Brand, records[1] as Brand];
    const third = connect(destination);
    const updated = await third.connection.write('brands', changed, idMap);
    expect(updated.map((o) => o.outcome)).toEqual(['updated', 'skipped']);
    expect(updated[0]?.destinationId).toBe(created[0]?.destinationId);
    expect(destination.state.brands.find((b) => b.name === 'Fjällräven & Co')?.page_title).toBe(
      'Fjällräven — new',
    );
    expect(specProblems(third.requests)).toEqual([]);

    const forgetful = connect(destination);
    const found = await forgetful.connection.write('brands', changed, new MemoryIdMap());
    expect(found.map((o) => [o.outcome, o.destinationId, o.linked])).toEqual(
      created.map((o) => ['skipped', o.destinationId, undefined]),
    );
    expect(brandWrites(forgetful.requests)).toEqual([]);
    expect(destination.countStored('brands')).toBe(2);
  });

  it('finds a brand whose create answer was lost instead of making it twice', async () => {
    const destination = await store({ seed: 'empty' });
    const inner = loopbackHttp();
    let cut = 0;
    const lossy: ConnectorHttp = {
      async request(request) {
        const response = await inner.request(request);
        if (request.method === 'POST' && /\/catalog\/brands$/.test(request.url) && cut < 1) {
          cut += 1;
          throw new Error('socket hang up');
        }
        return response;
      },
    };
    const records = [brand({}), brand({ id: '701', name: 'Acme', slug: 'acme' })];
    const { connection } = connect(destination, lossy);
    const outcomes = await connection.write('brands', records, new MemoryIdMap());
    expect(cut).toBe(1);
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'created']);
    expect(destination.countStored('brands')).toBe(2);
    expect(new Set(outcomes.map((o) => o.destinationId)).size).toBe(2);
    expect(specProblems(inner.requests)).toEqual([]);
  });

  it("links the merchant's own brand of the same name and never changes it", async () => {
    const destination = await store({ seed: 'empty' });
    const merchant = await api(destination, 'POST', '/v3/catalog/brands', {
      name: 'FJÄLLRÄVEN & CO',
      page_title: 'Our own page',
    });
    expect(merchant.status).toBe(200);
    const before = structuredClone(destination.state.brands);
    const metafieldsBefore = destination.state.metafields.length;
    const { connection, requests } = connect(destination);
    const [outcome] = await connection.write('brands', [brand({})], new MemoryIdMap());
    expect(outcome).toMatchObject({
      outcome: 'skipped',
      linked: true,
      destinationId: String(merchant.body.data?.id),
    });
    expect(outcome?.reason).toMatch(/already existed/);
    expect(destination.state.brands).toEqual(before);
    expect(destination.state.metafields).toHaveLength(metafieldsBefore);
    expect(brandWrites(requests)).toEqual([]);
    // A second run without the id map links it again, still without changing it.
    const [again] = await connect(destination).connection.write(
      'brands',
      [brand({ seoTitle: 'Changed at the source' })],
      new MemoryIdMap(),
    );
    expect(again).toMatchObject({ outcome: 'skipped', linked: true });
    expect(destination.state.brands).toEqual(before);
  });

  it('fails a brand BigCommerce refuses or cannot hold, with its reason, and writes the others', async () => {
    const destination = await store({ seed: 'empty' });
    const records = [
      brand({ id: '1', name: 'A'.repeat(256), slug: 'long' }),
      brand({ id: '2', name: 'Bitmap', slug: 'bitmap', imageUrl: 'https://x.example/logo.bmp' }),
      brand({ id: '3', name: 'Fine', slug: 'fine' }),
      brand({ id: '4', name: 'fine', slug: 'fine-2' }),
    ];
    const { connection, requests } = connect(destination);
    const outcomes = await connection.write('brands', records, new MemoryIdMap());
    expect(outcomes.map((o) => o.outcome)).toEqual(['failed', 'failed', 'created', 'failed']);
    expect(outcomes[0]?.reason).toMatch(/255/);
    expect(outcomes[1]?.reason).toMatch(/refused the brand \(422\).*image/i);
    expect(outcomes[3]?.reason).toMatch(/same name/);
    expect(destination.state.brands.map((b) => b.name)).toEqual(['Fine']);
    expect(specProblems(requests)).toEqual([]);
  });

  it('gives up a storefront path another brand has, naming it, and keeps the brand', async () => {
    const destination = await store({ seed: 'empty' });
    await api(destination, 'POST', '/v3/catalog/brands', {
      name: 'Other',
      custom_url: { url: '/brand/fjallraven-co/', is_customized: true },
    });
    const { connection } = connect(destination);
    const [outcome] = await connection.write('brands', [brand({})], new MemoryIdMap());
    expect(outcome?.outcome).toBe('created');
    expect(outcome?.warnings?.join(' ')).toMatch(/\/brand\/fjallraven-co\/.*sourceUrlPath/);
    const copy = destination.state.brands.find((b) => b.name === 'Fjällräven & Co');
    expect(copy?.custom_url.url).toMatch(/^\/brands\//);
  });

  it('lets the product writer find the migrated brands by name on the same connection', async () => {
    const source = await store({ seed });
    const destination = await store({ seed: 'empty' });
    const from = connect(source).connection;
    const to = connect(destination);
    const idMap = new MemoryIdMap();
    for (const entity of ['categories', 'brands', 'products'] as const)
      idMap.record(entity, await to.connection.write(entity, await readAll(from, entity), idMap));
    const brandCount = source.countStored('brands');
    expect(destination.countStored('brands')).toBe(brandCount);
    const byName = new Map(destination.state.brands.map((b) => [b.name, b.id]));
    for (const product of await readAll(from, 'products')) {
      const copy = destination.state.products.find(
        (p) => p.id === Number(idMap.get('products', product.id)),
      );
      expect(copy?.brand_id, product.name).toBe(product.vendor ? byName.get(product.vendor) : 0);
    }
    // brandFor asked the store for its brands once, with the brand writer's list.
    const lists = to.requests.filter(
      (r) => r.method === 'GET' && /\/catalog\/brands\?/.test(r.url) && !/name=/.test(r.url),
    );
    expect(lists).toHaveLength(1);
    expect(specProblems(to.requests)).toEqual([]);
  });
});
