import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categoryDefaults } from '@replatform/canonical/defaults';
import { entityTypes, type EntityType } from '@replatform/canonical/entities';
import {
  startBigCommerceEmulator,
  type BigCommerceEmulatorOptions,
  type RunningBigCommerceEmulator,
} from '@replatform/emulators/bigcommerce/bigcommerce-emulator';
import { BigCommerceSpec } from '@replatform/emulators/bigcommerce/openapi-validator';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type {
  Connection,
  ConnectorHttp,
  ConnectorHttpRequest,
  WriteOutcome,
} from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import {
  bigCommerceConnector,
  bigCommerceCredentialsSchema,
  createBigCommerceConnector,
  type BigCommerceConnection,
} from './bigcommerce-connector.ts';

const spec = new BigCommerceSpec();
const origins = new Map<string, string>();
const emulators: RunningBigCommerceEmulator[] = [];
let counter = 0;

const connector = createBigCommerceConnector({
  apiBaseUrl: (storeHash) => origins.get(storeHash) ?? 'http://127.0.0.1:9',
  retry: { baseDelayMs: 5, maxDelayMs: 50 },
});

async function store(options: BigCommerceEmulatorOptions): Promise<RunningBigCommerceEmulator> {
  counter += 1;
  const emulator = await startBigCommerceEmulator({ storeHash: `store${counter}`, ...options });
  origins.set(emulator.storeHash, emulator.url);
  emulators.push(emulator);
  return emulator;
}

/** loopbackHttp that keeps every request, so each can be checked against the spec. */
function recordingHttp(): ConnectorHttp & { requests: ConnectorHttpRequest[] } {
  return loopbackHttp();
}

function connect(emulator: RunningBigCommerceEmulator, http: ConnectorHttp): BigCommerceConnection {
  return connector.connect(
    { storeHash: emulator.storeHash, accessToken: emulator.accessToken },
    { http },
  );
}

/** Writes `entities` from source to destination in the connector's batch sizes. */
async function migrate(
  source: Connection,
  destination: Connection,
  entities: readonly EntityType[],
  idMap = new MemoryIdMap(),
): Promise<Record<string, WriteOutcome[]>> {
  const outcomes: Record<string, WriteOutcome[]> = {};
  // Everything is read first, so that the destination's requests are not spread out by reads.
  const read = new Map<EntityType, Awaited<ReturnType<typeof readAll>>>();
  for (const entity of entities) read.set(entity, await readAll(source, entity));
  for (const entity of entities) {
    const records = read.get(entity) ?? [];
    const size = connector.capabilities.batchSize[entity] ?? 25;
    outcomes[entity] = [];
    for (let i = 0; i < records.length; i += size) {
      const result = await destination.write(entity, records.slice(i, i + size), idMap);
      idMap.record(entity, result);
      outcomes[entity].push(...result);
    }
  }
  return outcomes;
}

const specProblems = (requests: ConnectorHttpRequest[]) => [
  ...new Set(requests.flatMap((r) => spec.validateRequest(r))),
];
const kinds = (outcomes: WriteOutcome[]) => [...new Set(outcomes.map((o) => o.outcome))];

afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
});

describe('BigCommerce credentials and addressing', () => {
  it('takes only a store hash and a token; the API address comes from the hash', async () => {
    const valid = { storeHash: 'abc123', accessToken: 'token-1' };
    expect(bigCommerceCredentialsSchema.safeParse(valid).success).toBe(true);
    for (const bad of [
      { storeHash: 'abc.evil.example', accessToken: 't' },
      { storeHash: 'ABC123', accessToken: 't' },
      { storeHash: 'abc/../x', accessToken: 't' },
      { storeHash: 'abc123', accessToken: '' },
      { ...valid, apiBaseUrl: 'http://169.254.169.254' },
    ]) {
      expect(bigCommerceCredentialsSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    const seen: ConnectorHttpRequest[] = [];
    const fake: ConnectorHttp = {
      async request(request) {
        seen.push(request);
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: new TextEncoder().encode(
            JSON.stringify({
              name: 'Real Store',
              currency: 'EUR',
              weight_units: 'KGS',
              dimension_units: 'Centimeters',
            }),
          ),
        };
      },
    };
    const result = await bigCommerceConnector.connect(valid, { http: fake }).check();
    expect(result).toEqual({ ok: true, storeName: 'Real Store', currency: 'EUR' });
    expect(seen[0]?.url).toBe('https://api.bigcommerce.com/stores/abc123/v2/store');
    expect(seen[0]?.headers?.['X-Auth-Token']).toBe('token-1');
    let refused: unknown;
    try {
      bigCommerceConnector.connect({ storeHash: 'x.y', accessToken: 'secret-9' }, { http: fake });
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({ errorClass: 'config', code: 'invalid_credentials' });
    expect(String(refused)).not.toContain('secret-9');
    expect(seen).toHaveLength(1);
  });

  it('reports a refused token and an unknown store as configuration errors, without the token', async () => {
    const emulator = await store({ seed: 'empty', plan: 'unlimited' });
    const wrong = connector.connect(
      { storeHash: emulator.storeHash, accessToken: 'wrong-token-123' },
      { http: loopbackHttp() },
    );
    const error = await wrong.check().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).toMatchObject({ errorClass: 'config', code: 'auth_failed', status: 401 });
    expect(String((error as Error).message)).not.toContain('wrong-token-123');
    origins.set('nosuchstore', emulator.url);
    const unknown = connector.connect(
      { storeHash: 'nosuchstore', accessToken: emulator.accessToken },
      { http: loopbackHttp() },
    );
    await expect(unknown.check()).rejects.toMatchObject({
      errorClass: 'config',
      code: 'not_found',
    });
  });
});

describe('BigCommerce destination check', () => {
  const readOnly = [
    'store_v2_products_read_only',
    'store_v2_customers_read_only',
    'store_v2_orders_read_only',
    'store_v2_information_read_only',
  ];
  let emulator: RunningBigCommerceEmulator;
  beforeAll(async () => {
    emulator = await store({
      seed: { seed: 5, products: 3, customers: 2, orders: 2 },
      plan: 'unlimited',
      apiAccounts: [
        { accessToken: 'read-only-token', scopes: readOnly },
        {
          accessToken: 'no-orders-token',
          scopes: [
            'store_v2_products',
            'store_v2_customers',
            'store_v2_orders_read_only',
            'store_v2_information_read_only',
            'store_v2_marketing',
            'store_v2_content',
          ],
        },
      ],
    });
  });
  const as = (accessToken: string, http: ConnectorHttp = loopbackHttp()) =>
    connector.connect({ storeHash: emulator.storeHash, accessToken }, { http });

  it('accepts a read-only API account for a source and refuses it for a destination', async () => {
    const source = as('read-only-token');
    expect(await source.check()).toEqual({
      ok: true,
      storeName: expect.any(String),
      currency: expect.any(String),
    });
    expect(await source.count('products')).toBe(3);
    const error = await source.check({ write: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).toMatchObject({ errorClass: 'config', code: 'read_only_credentials' });
    expect((error as Error).message).toContain(
      'may not change products, categories, brands and product reviews, customers, orders, coupons and web pages and blog posts: its Products, Customers, Orders, Marketing and Content scopes are not set to modify.',
    );
    expect(String((error as Error).message)).not.toContain('read-only-token');
  });

  it('names the one scope an API account lacks', async () => {
    await expect(as('no-orders-token').check({ write: true })).rejects.toMatchObject({
      errorClass: 'config',
      code: 'read_only_credentials',
      message: expect.stringContaining(
        'may not change orders: its Orders scope is not set to modify.',
      ),
    });
  });

  it('proves a full API account may write with writes that change nothing', async () => {
    const before = JSON.stringify(emulator.state);
    const http = recordingHttp();
    expect(await as(emulator.accessToken, http).check({ write: true })).toEqual({
      ok: true,
      storeName: expect.any(String),
      currency: expect.any(String),
      canWrite: true,
    });
    expect(JSON.stringify(emulator.state)).toBe(before);
    expect(http.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      `GET /stores/${emulator.storeHash}/v2/store`,
      `PUT /stores/${emulator.storeHash}/v3/catalog/products`,
      `PUT /stores/${emulator.storeHash}/v3/customers`,
      `PUT /stores/${emulator.storeHash}/v2/orders/0`,
      `PUT /stores/${emulator.storeHash}/v2/coupons/0`,
      `PUT /stores/${emulator.storeHash}/v3/content/pages`,
    ]);
    expect(specProblems(http.requests)).toEqual([]);
  });
});

describe('BigCommerce request quota', () => {
  it('migrates products under the Standard ratio without a 429 and uses at least 90 % of the quota', async () => {
    const source = await store({
      seed: { seed: 3, products: 30, customers: 0, orders: 0 },
      plan: 'unlimited',
    });
    // Standard plan arithmetic (a quota per window, shared), with a 1 s window of 15 requests so
    // that the test takes seconds rather than minutes.
    const destination = await store({
      seed: 'empty',
      plan: 'standard',
      quota: { quota: 15, windowMs: 1000 },
    });
    const http = recordingHttp();
    const target = connect(destination, http);
    const outcomes = await migrate(connect(source, loopbackHttp()), target, [
      'categories',
      'products',
    ]);

    expect(kinds(outcomes.products ?? [])).toEqual(['created']);
    expect(destination.countStored('products')).toBe(30);
    const quota = destination.quotaStats();
    const utilisation = destination.quotaUtilisation() ?? 0;
    const stats = target.stats();
    console.log(
      `BigCommerce quota: ${quota.windows.length} windows of ${quota.quota} requests/${quota.windowMs} ms, ` +
        `used per window ${quota.windows.map((w) => w.used).join(',')}; utilisation of closed windows ` +
        `${(utilisation * 100).toFixed(1)} % (connector's own estimate ${((stats.utilisation ?? 0) * 100).toFixed(1)} %), ` +
        `429s ${quota.limited}, quota waits ${stats.waits}`,
    );
    expect(quota.limited).toBe(0);
    expect(stats.throttled).toBe(0);
    expect(quota.windows.length).toBeGreaterThanOrEqual(3);
    expect(utilisation).toBeGreaterThanOrEqual(0.9);
    // The reserve for the store's other apps is never touched: at most quota - 1 per window.
    expect(Math.max(...quota.windows.map((w) => w.used))).toBeLessThanOrEqual(14);
    expect(specProblems(http.requests)).toEqual([]);
  }, 60_000);
});

describe('BigCommerce batch limits', () => {
  let source: RunningBigCommerceEmulator;
  beforeAll(async () => {
    source = await store({
      seed: { seed: 5, products: 12, customers: 45, orders: 10 },
      plan: 'unlimited',
    });
  });

  it('creates customers 10 per request with at most 3 requests at once', async () => {
    // Writes stay in flight long enough for the three lanes to meet on a busy machine.
    const destination = await store({ seed: 'empty', plan: 'unlimited', customerWriteMs: 80 });
    const http = recordingHttp();
    const records = await readAll(connect(source, loopbackHttp()), 'customers');
    const outcomes = await connect(destination, http).write(
      'customers',
      records,
      new MemoryIdMap(),
    );
    expect(outcomes.map((o) => o.sourceId)).toEqual(records.map((r) => r.id));
    expect(kinds(outcomes)).toEqual(['created']);
    expect(destination.countStored('customers')).toBe(45);
    const creates = http.requests.filter(
      (r) => r.method === 'POST' && r.url.endsWith('/v3/customers'),
    );
    expect(creates.map((r) => (JSON.parse(String(r.body)) as unknown[]).length)).toEqual([
      10, 10, 10, 10, 5,
    ]);
    // At most 3 at once (how many actually overlap depends on how busy the machine is).
    expect(destination.customerConcurrency.limited).toBe(0);
    expect(destination.customerConcurrency.max).toBeLessThanOrEqual(3);
    expect(specProblems(http.requests)).toEqual([]);
  });

  it('keeps the 3-concurrent limit per store when the engine runs several write() calls at once', async () => {
    const destination = await store({ seed: 'empty', plan: 'unlimited', customerWriteMs: 25 });
    const inner = recordingHttp();
    // Creates in flight at once, per endpoint, as the store sees them.
    const inFlight = new Map<string, number>();
    const most = new Map<string, number>();
    const http: ConnectorHttp & { requests: ConnectorHttpRequest[] } = {
      requests: inner.requests,
      async request(request) {
        const path = new URL(request.url).pathname.replace(/^\/stores\/[^/]+/, '');
        const counted = request.method === 'POST' && !path.includes('metafields');
        if (counted) {
          inFlight.set(path, (inFlight.get(path) ?? 0) + 1);
          most.set(path, Math.max(most.get(path) ?? 0, inFlight.get(path) ?? 0));
          // Creates take a while at a real store; make overlaps visible.
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        try {
          return await inner.request(request);
        } finally {
          if (counted) inFlight.set(path, (inFlight.get(path) ?? 1) - 1);
        }
      },
    };
    const reader = connect(source, loopbackHttp());
    const target = connect(destination, http);
    const idMap = new MemoryIdMap();
    const inThree = async <E extends EntityType>(entity: E) => {
      const records = await readAll(reader, entity);
      const third = Math.ceil(records.length / 3);
      const results = await Promise.all(
        [0, 1, 2].map((i) =>
          target.write(entity, records.slice(i * third, (i + 1) * third), idMap),
        ),
      );
      for (const r of results) idMap.record(entity, r);
      return results.flat();
    };
    await inThree('categories');
    for (const entity of ['customers', 'products', 'orders'] as const) {
      expect(kinds(await inThree(entity)), entity).toEqual(['created']);
    }
    expect(destination.customerConcurrency.limited).toBe(0);
    expect(destination.customerConcurrency.max).toBeLessThanOrEqual(3);
    expect(target.stats().throttled).toBe(0);
    expect(most.get('/v3/customers')).toBe(3);
    expect(most.get('/v3/catalog/products')).toBeLessThanOrEqual(3);
    expect(most.get('/v2/orders')).toBeLessThanOrEqual(3);
    expect(specProblems(http.requests)).toEqual([]);
  });

  it('creates products one per request and orders through v2 as historical imports', async () => {
    const destination = await store({ seed: 'empty', plan: 'unlimited' });
    const http = recordingHttp();
    const outcomes = await migrate(
      connect(source, loopbackHttp()),
      connect(destination, http),
      entityTypes,
    );
    for (const entity of entityTypes)
      expect(kinds(outcomes[entity] ?? []), entity).toEqual(['created']);
    const productPosts = http.requests.filter(
      (r) => r.method === 'POST' && r.url.endsWith('/v3/catalog/products'),
    );
    expect(productPosts).toHaveLength(12);
    expect(productPosts.every((r) => !Array.isArray(JSON.parse(String(r.body))))).toBe(true);
    const orders = destination.state.orders;
    expect(orders).toHaveLength(10);
    expect(orders.every((o) => o.external_source === 'M-MIG')).toBe(true);
    // Found again by the source order's own id elsewhere, or else by a marker with its source id.
    expect(orders.map((o) => o.external_order_id.replace(/:\d+$/, ':n')).sort()).toEqual([
      'SQ-7731',
      ...Array.from({ length: 9 }, () => 'replatform_source_id:n'),
    ]);
    // Lines point at the migrated products and their variants; the line of the product deleted
    // at the source is a custom line with its name and price.
    const lines = orders.flatMap((o) => o.products);
    const custom = lines.filter((p) => p.product_id === 0);
    expect(custom.map((p) => p.name)).toEqual(['Discontinued Sample Lamp']);
    expect(custom[0]?.price_ex_tax).toBe(390_000);
    expect(
      lines.filter((p) => p.product_id !== 0).every((p) => p.product_id > 0 && p.variant_id > 0),
    ).toBe(true);
    expect(specProblems(http.requests)).toEqual([]);
  });
});

describe('BigCommerce writes that must not double', () => {
  it('finds records whose create answer was lost instead of creating them again', async () => {
    const source = await store({
      seed: { seed: 9, products: 6, customers: 12, orders: 5 },
      plan: 'unlimited',
    });
    const destination = await store({ seed: 'empty', plan: 'unlimited' });
    const inner = loopbackHttp();
    const cut = new Set<string>();
    // The first create of each kind reaches the store, then the connection drops before the answer.
    const lossy: ConnectorHttp & { requests: ConnectorHttpRequest[] } = {
      requests: inner.requests,
      async request(request) {
        const response = await inner.request(request);
        const path = new URL(request.url).pathname.replace(/^\/stores\/[^/]+/, '');
        if (request.method === 'POST' && !cut.has(path) && !path.includes('metafields')) {
          cut.add(path);
          throw new Error('socket hang up');
        }
        return response;
      },
    };
    const outcomes = await migrate(
      connect(source, loopbackHttp()),
      connect(destination, lossy),
      entityTypes,
    );
    // Reviews are created under their product: the first of each product's was cut.
    const kindsCut = [...cut].map((p) => p.replace(/\/products\/\d+\//, '/products/{id}/'));
    expect([...new Set(kindsCut)].sort()).toEqual([
      '/v2/blog/posts',
      '/v2/coupons',
      '/v2/orders',
      '/v3/catalog/brands',
      '/v3/catalog/products',
      '/v3/catalog/products/{id}/reviews',
      '/v3/catalog/trees/categories',
      '/v3/content/pages',
      '/v3/customers',
      '/v3/customers/attributes',
    ]);
    expect(kindsCut.filter((p) => p.endsWith('/reviews')).length).toBeGreaterThan(1);
    for (const entity of entityTypes) {
      expect(kinds(outcomes[entity] ?? []), entity).toEqual(['created']);
      expect(destination.countStored(entity), entity).toBe(source.countStored(entity));
    }
    expect(specProblems(lossy.requests)).toEqual([]);
  });

  it('links records created before a crash left them without a marker', async () => {
    const source = await store({
      seed: { seed: 11, products: 4, customers: 3, orders: 0 },
      plan: 'unlimited',
    });
    const destination = await store({ seed: 'empty', plan: 'unlimited' });
    const sourceConnection = connect(source, loopbackHttp());
    const products = await readAll(sourceConnection, 'products');
    const customers = await readAll(sourceConnection, 'customers');
    const first = connect(destination, loopbackHttp());
    // A first run wrote one product and one customer, then stopped before marking them.
    const idMap = new MemoryIdMap();
    idMap.record(
      'categories',
      await first.write('categories', await readAll(sourceConnection, 'categories'), idMap),
    );
    const early = await first.write('products', products.slice(0, 1), idMap);
    const earlyCustomer = await first.write('customers', customers.slice(0, 1), idMap);
    destination.state.metafields.splice(0, destination.state.metafields.length);

    const resumed = connect(destination, loopbackHttp());
    const again = await resumed.write('products', products, new MemoryIdMap());
    expect(again[0]).toMatchObject({ outcome: 'skipped', destinationId: early[0]?.destinationId });
    expect(again.slice(1).map((o) => o.outcome)).toEqual(['created', 'created', 'created']);
    const againCustomers = await resumed.write('customers', customers, new MemoryIdMap());
    expect(againCustomers[0]).toMatchObject({
      outcome: 'skipped',
      destinationId: earlyCustomer[0]?.destinationId,
    });
    expect(destination.countStored('products')).toBe(4);
    expect(destination.countStored('customers')).toBe(3);
    // The linked records now carry the marker, so a third run skips them without a name lookup.
    const markers = destination.state.metafields.filter((m) => m.key === 'replatform_source_id');
    expect(markers.map((m) => m.value).sort()).toEqual(
      [...products.map((p) => p.id), ...customers.map((c) => c.id)].sort(),
    );
  });

  it('keeps two source products of the same name apart', async () => {
    const source = await store({
      seed: { seed: 13, products: 2, customers: 0, orders: 0 },
      plan: 'unlimited',
    });
    const destination = await store({ seed: 'empty', plan: 'unlimited' });
    const [a, b] = await readAll(connect(source, loopbackHttp()), 'products');
    if (!a || !b) throw new Error('sample store too small');
    const twin = { ...b, name: a.name };
    const outcomes = await connect(destination, loopbackHttp()).write(
      'products',
      [a, twin],
      new MemoryIdMap(),
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'created']);
    expect(outcomes[1]?.warnings?.join(' ')).toContain('renamed');
    expect(destination.countStored('products')).toBe(2);
  });

  it('names again what it could not keep when it writes a product again for its links', async () => {
    const source = await store({
      seed: { seed: 19, products: 2, customers: 0, orders: 0 },
      plan: 'unlimited',
    });
    const destination = await store({ seed: 'empty', plan: 'unlimited' });
    const connection = connect(destination, loopbackHttp());
    const [a, b] = await readAll(connect(source, loopbackHttp()), 'products');
    if (!a || !b) throw new Error('sample store too small');
    const grouped = { ...a, type: 'grouped' as const, groupedProductIds: [b.id] };
    const idMap = new MemoryIdMap();
    const first = await connection.write('products', [grouped], idMap);
    idMap.record('products', first);
    idMap.record('products', await connection.write('products', [b], idMap));
    const again = await connection.write('products', [grouped], idMap);
    expect(again.map((o) => o.outcome)).toEqual(['updated']);
    expect(again[0]?.warnings?.join(' ')).toContain('(type, groupedProductIds');
  });

  it('lets BigCommerce choose a storefront URL when the source one is taken', async () => {
    const source = await store({
      seed: { seed: 17, products: 2, customers: 0, orders: 0 },
      plan: 'unlimited',
    });
    const destination = await store({ seed: 'empty', plan: 'unlimited' });
    const connection = connect(destination, loopbackHttp());
    const [a, b] = await readAll(connect(source, loopbackHttp()), 'products');
    if (!a || !b) throw new Error('sample store too small');
    const category = {
      ...categoryDefaults(),
      id: 'k1',
      parentId: null,
      name: 'Bath',
      slug: 'bath',
      description: '',
      position: 0,
      sourceUrlPath: '/bath/',
    };
    const categories = await connection.write(
      'categories',
      [category, { ...category, id: 'k2', name: 'Bathroom' }],
      new MemoryIdMap(),
    );
    expect(categories.map((o) => o.outcome)).toEqual(['created', 'created']);
    expect(categories[1]?.warnings).toEqual([expect.stringContaining('URL was taken')]);
    const paths = destination.state.categories.map((c) => c.url.path);
    expect(new Set(paths).size).toBe(2);

    const products = await connection.write(
      'products',
      [a, { ...b, sourceUrlPath: a.sourceUrlPath }],
      new MemoryIdMap(),
    );
    expect(products.map((o) => o.outcome)).toEqual(['created', 'created']);
    expect(products[1]?.warnings?.join(' ')).toContain('URL was taken');
  });
});
