import { afterAll, describe, expect, it } from 'vitest';
import {
  startBigCommerceEmulator,
  type BigCommerceEmulatorOptions,
  type RunningBigCommerceEmulator,
} from '@replatform/emulators/bigcommerce/bigcommerce-emulator';
import { BigCommerceSpec } from '@replatform/emulators/bigcommerce/openapi-validator';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { ConnectorHttp, ConnectorHttpRequest } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { createBigCommerceConnector } from './bigcommerce-connector.ts';

/** Undo on BigCommerce: remove() and removeAssets() against the emulator. */

const spec = new BigCommerceSpec();
const origins = new Map<string, string>();
const emulators: RunningBigCommerceEmulator[] = [];
let counter = 0;

afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
});

async function store(options: BigCommerceEmulatorOptions = {}) {
  counter += 1;
  const emulator = await startBigCommerceEmulator({
    storeHash: `undo${counter}`,
    plan: 'unlimited',
    ...options,
  });
  origins.set(emulator.storeHash, emulator.url);
  emulators.push(emulator);
  return emulator;
}

function connect(emulator: RunningBigCommerceEmulator, http?: ConnectorHttp) {
  const loopback = loopbackHttp();
  const requests: ConnectorHttpRequest[] = [];
  const connector = createBigCommerceConnector({
    apiBaseUrl: (storeHash) => origins.get(storeHash) ?? 'http://127.0.0.1:9',
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
  });
  const transport = http ?? loopback;
  const connection = connector.connect(
    { storeHash: emulator.storeHash, accessToken: emulator.accessToken },
    {
      http: {
        request(request) {
          requests.push(request);
          return transport.request(request);
        },
      },
    },
  );
  return { connection, requests };
}

/** The emulator's API as a plain client, for arranging a store. */
function api(emulator: RunningBigCommerceEmulator) {
  return async <T = unknown>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${emulator.url}/stores/${emulator.storeHash}${path}`, {
      method,
      headers: {
        'X-Auth-Token': emulator.accessToken,
        Accept: 'application/json',
        'Content-Type': 'application/json',
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  };
}

const problems = (requests: ConnectorHttpRequest[]) => [
  ...new Set(requests.flatMap((r) => spec.validateRequest(r))),
];
const deletes = (requests: ConnectorHttpRequest[], path: RegExp) =>
  requests.filter((r) => r.method === 'DELETE' && path.test(new URL(r.url).pathname));
const idsIn = (request: ConnectorHttpRequest) =>
  (new URL(request.url).searchParams.get('id:in') ?? '').split(',').filter(Boolean);
const outcomes = (list: { outcome: string }[]) => list.map((o) => o.outcome);

describe('BigCommerce remove', () => {
  it('deletes products in batches of at most 250 after one look, a missing id is gone', async () => {
    const emulator = await store({ seed: { seed: 5, products: 260, customers: 2, orders: 0 } });
    const { connection, requests } = connect(emulator);
    const ids = (await connection.nativeRecords('products')).map((p) => String(p.id)).reverse();
    expect(ids.length).toBe(260);
    const answer = await connection.remove('products', [...ids, '987654', 'not-an-id']);
    expect(outcomes(answer)).toEqual([...ids.map(() => 'removed'), 'gone', 'gone']);
    expect(answer.map((o) => o.destinationId)).toEqual([...ids, '987654', 'not-an-id']);
    expect(emulator.countStored('products')).toBe(0);
    const batches = deletes(requests, /\/v3\/catalog\/products$/);
    expect(batches.map((r) => idsIn(r).length)).toEqual([250, 10]);
    // Removing again finds nothing and sends no delete.
    const again = await connection.remove('products', ids.slice(0, 3));
    expect(outcomes(again)).toEqual(['gone', 'gone', 'gone']);
    expect(deletes(requests, /\/v3\/catalog\/products$/).length).toBe(2);
    expect(problems(requests)).toEqual([]);
  });

  it('deletes customers 50 per batch, orders (archived) and coupons one by one', async () => {
    const emulator = await store({ seed: { seed: 6, products: 4, customers: 60, orders: 3 } });
    const { connection, requests } = connect(emulator);
    const ids = async (entity: 'customers' | 'orders' | 'coupons') =>
      (await connection.nativeRecords(entity)).map((r) => String(r.id));
    const orders = await ids('orders');
    expect(outcomes(await connection.remove('orders', [...orders, '987654']))).toEqual([
      ...orders.map(() => 'removed'),
      'gone',
    ]);
    expect(await connection.count('orders')).toBe(0);
    const customers = await ids('customers');
    expect(outcomes(await connection.remove('customers', customers))).toEqual(
      customers.map(() => 'removed'),
    );
    expect(deletes(requests, /\/v3\/customers$/).map((r) => idsIn(r).length)).toEqual([50, 10]);
    const coupons = await ids('coupons');
    expect(coupons.length).toBeGreaterThan(0);
    expect(outcomes(await connection.remove('coupons', coupons))).toEqual(
      coupons.map(() => 'removed'),
    );
    // Never the batch delete, which deletes every coupon when its filter is lost.
    expect(deletes(requests, /\/v2\/coupons$/)).toEqual([]);
    for (const entity of ['customers', 'orders', 'coupons'] as const)
      expect(emulator.countStored(entity), entity).toBe(0);
    expect(outcomes(await connection.remove('orders', orders.slice(0, 1)))).toEqual(['gone']);
    expect(problems(requests)).toEqual([]);
  });

  it('refuses a category or page with a child the migration did not create; the others go', async () => {
    const emulator = await store({ seed: 'empty' });
    const call = api(emulator);
    const made = async (name: string, parent: number) =>
      (
        await call<{ data: { category_id: number }[] }>('POST', '/v3/catalog/trees/categories', [
          { name, tree_id: 1, parent_id: parent },
        ])
      ).data[0]!.category_id;
    const ours = await made('Ours', 0);
    const ourChild = await made('Our child', ours);
    const mixed = await made('Mixed', 0);
    await made("Owner's", mixed);
    const { connection, requests } = connect(emulator);
    const answer = await connection.remove('categories', [
      String(ourChild),
      String(mixed),
      String(ours),
    ]);
    expect(outcomes(answer)).toEqual(['removed', 'failed', 'removed']);
    expect(answer[1]?.reason).toMatch(/subcategories this migration did not create \("Owner's"\)/);
    expect(emulator.countStored('categories')).toBe(2);

    const page = async (name: string, parent = 0) =>
      (
        await call<{ data: { id: number } }>('POST', '/v3/content/pages', {
          name,
          type: 'page',
          body: '<p>x</p>',
          parent_id: parent,
        })
      ).data.id;
    const parent = await page('Parent page');
    await page('Owner page', parent);
    const alone = await page('Alone page');
    const pages = await connection.remove('pages', [String(alone), String(parent), '987654']);
    expect(outcomes(pages)).toEqual(['removed', 'failed', 'gone']);
    expect(pages[1]?.reason).toMatch(/child pages this migration did not create/);
    expect(problems(requests)).toEqual([]);
  });

  it('finds a review on its product, deletes it, and answers gone for one no product has', async () => {
    const emulator = await store({ seed: { seed: 8, products: 5, customers: 1, orders: 0 } });
    const call = api(emulator);
    const { connection, requests } = connect(emulator);
    const [product] = await connection.nativeRecords('products');
    const review = await call<{ data: { id: number } }>(
      'POST',
      `/v3/catalog/products/${String(product?.id)}/reviews`,
      { title: 'Great', rating: 5, date_reviewed: '2024-02-01T00:00:00Z', status: 'pending' },
    );
    const id = String(review.data.id);
    expect(outcomes(await connection.remove('reviews', [id, '987654']))).toEqual([
      'removed',
      'gone',
    ]);
    expect(deletes(requests, /\/reviews\/\d+$/).length).toBe(1);
    expect(outcomes(await connection.remove('reviews', [id]))).toEqual(['gone']);
    expect(problems(requests)).toEqual([]);
  });

  it('fails a record BigCommerce refuses with its words, and removes the others', async () => {
    const emulator = await store({ seed: { seed: 9, products: 2, customers: 1, orders: 0 } });
    const brands = (await connect(emulator).connection.nativeRecords('brands')).map((b) =>
      String(b.id),
    );
    expect(brands.length).toBeGreaterThan(1);
    const refused = brands[0]!;
    const loopback = loopbackHttp();
    const { connection } = connect(emulator, {
      request(request) {
        if (request.method === 'DELETE' && request.url.includes(`/brands/${refused}`))
          return Promise.resolve({
            status: 422,
            headers: { 'content-type': 'application/json' },
            body: new TextEncoder().encode(
              JSON.stringify({ status: 422, title: 'The brand is in use by a price list' }),
            ),
          });
        return loopback.request(request);
      },
    });
    const answer = await connection.remove('brands', brands);
    expect(outcomes(answer)).toEqual(brands.map((b) => (b === refused ? 'failed' : 'removed')));
    expect(answer[0]?.reason).toMatch(/refused to delete the brand .*422: The brand is in use/);
    expect(emulator.countStored('brands')).toBe(1);
  });

  it('records a customer attribute a write made, never one that existed, and removes it', async () => {
    const source = await store({ seed: { seed: 10, products: 1, customers: 3, orders: 0 } });
    const destination = await store({ seed: 'empty' });
    const call = api(destination);
    await call('POST', '/v3/customers/attributes', [{ name: 'Loyalty tier', type: 'string' }]);
    const customers = (await readAll(connect(source).connection, 'customers')).map((c, i) => ({
      ...c,
      metafields: [
        ...c.metafields.filter((m) => m.namespace !== 'bigcommerce'),
        {
          namespace: 'bigcommerce',
          key: 'Loyalty tier',
          value: 'gold',
          type: 'single_line_text_field',
        },
        ...(i > 0
          ? [
              {
                namespace: 'bigcommerce',
                key: 'Shoe size',
                value: '42',
                type: 'single_line_text_field',
              },
            ]
          : []),
      ],
    }));
    const { connection, requests } = connect(destination);
    const written = await connection.write('customers', customers, new MemoryIdMap());
    expect(outcomes(written)).toEqual(customers.map(() => 'created'));
    const assets = written.flatMap((o) => o.assets ?? []);
    expect(assets).toEqual([
      {
        kind: 'term',
        key: 'customer_attribute:Shoe size',
        destinationId: expect.stringMatching(/^customer_attribute:\d+$/),
      },
    ]);
    // Recorded on the first customer that carried it.
    expect(written[1]?.assets).toEqual(assets);

    // While a customer undo keeps holds a value of it, the attribute stays.
    const kept = await connection.remove('customers', [written[2]!.destinationId!]);
    expect(outcomes(kept)).toEqual(['removed']);
    const held = await connection.removeAssets(assets);
    expect(outcomes(held)).toEqual(['kept']);
    expect(held[0]?.reason).toMatch(/still hold a value of the customer attribute "Shoe size"/);

    await connection.remove('customers', [written[1]!.destinationId!, written[0]!.destinationId!]);
    expect(outcomes(await connection.removeAssets(assets))).toEqual(['removed']);
    const names = (
      await call<{ data: { name: string }[] }>('GET', '/v3/customers/attributes')
    ).data.map((a) => a.name);
    expect(names).toEqual(['Loyalty tier']);
    expect(outcomes(await connection.removeAssets(assets))).toEqual(['gone']);
    expect(problems(requests)).toEqual([]);
  });
});
