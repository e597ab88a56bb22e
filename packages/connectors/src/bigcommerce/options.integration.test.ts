import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityType } from '@replatform/canonical/entities';
import {
  startBigCommerceEmulator,
  type BigCommerceEmulatorOptions,
  type RunningBigCommerceEmulator,
} from '@replatform/emulators/bigcommerce/bigcommerce-emulator';
import { BigCommerceSpec } from '@replatform/emulators/bigcommerce/openapi-validator';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { ConnectorHttpRequest, WriteChoices } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { createBigCommerceConnector } from './bigcommerce-connector.ts';

/**
 * The owner's write choices (keepOrderNumbers, keepSlugs, notifyCustomers): what BigCommerce is
 * sent with and without each, and that a second write still finds what the first wrote.
 */

const spec = new BigCommerceSpec();
const origins = new Map<string, string>();
const emulators: RunningBigCommerceEmulator[] = [];
let counter = 0;

const connector = createBigCommerceConnector({
  apiBaseUrl: (storeHash) => origins.get(storeHash) ?? 'http://127.0.0.1:9',
  retry: { baseDelayMs: 5, maxDelayMs: 50 },
});

async function store(
  seed: BigCommerceEmulatorOptions['seed'],
): Promise<RunningBigCommerceEmulator> {
  counter += 1;
  const emulator = await startBigCommerceEmulator({
    storeHash: `options${counter}`,
    plan: 'unlimited',
    seed,
  });
  origins.set(emulator.storeHash, emulator.url);
  emulators.push(emulator);
  return emulator;
}

function connect(emulator: RunningBigCommerceEmulator, choices?: Partial<WriteChoices>) {
  const http = loopbackHttp();
  const connection = connector.connect(
    { storeHash: emulator.storeHash, accessToken: emulator.accessToken },
    { http, ...(choices ? { choices } : {}) },
  );
  return { connection, requests: http.requests };
}

type Json = Record<string, unknown>;
const bodiesOf = (requests: ConnectorHttpRequest[], method: string, path: string): Json[] =>
  requests
    .filter((r) => r.method === method && new URL(r.url).pathname.endsWith(path))
    .flatMap((r) => {
      const parsed = JSON.parse(String(r.body)) as Json | Json[];
      return Array.isArray(parsed) ? parsed : [parsed];
    });
const specProblems = (requests: ConnectorHttpRequest[]) => [
  ...new Set(requests.flatMap((r) => spec.validateRequest(r))),
];

const slugTypes = ['categories', 'brands', 'products', 'pages', 'posts'] as const;

let source: RunningBigCommerceEmulator;
const records = new Map<EntityType, unknown[]>();

beforeAll(async () => {
  source = await store({ seed: 11, products: 4, customers: 3, orders: 3 });
  const { connection } = connect(source);
  for (const entity of [...slugTypes, 'customers', 'orders'] as const)
    records.set(entity, await readAll(connection, entity));
});
afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
});

/** Writes the slug-bearing types in dependency order; answers the requests sent. */
async function writeCatalog(
  destination: RunningBigCommerceEmulator,
  choices: Partial<WriteChoices> | undefined,
  idMap: MemoryIdMap,
) {
  const { connection, requests } = connect(destination, choices);
  const outcomes: Record<string, string[]> = {};
  for (const entity of slugTypes) {
    const written = await connection.write(entity, records.get(entity) as never[], idMap);
    idMap.record(entity, written);
    outcomes[entity] = written.map((o) => o.outcome);
  }
  return { requests, outcomes };
}

describe('BigCommerce write choices', () => {
  it('keepSlugs (default): products, categories, brands, pages and posts keep their paths', async () => {
    const destination = await store('empty');
    const { requests } = await writeCatalog(destination, undefined, new MemoryIdMap());
    const products = bodiesOf(requests, 'POST', '/v3/catalog/products');
    expect(products.length).toBeGreaterThan(0);
    expect(products.every((b) => b.custom_url !== undefined)).toBe(true);
    expect(
      bodiesOf(requests, 'POST', '/v3/catalog/trees/categories').every((b) => b.url !== undefined),
    ).toBe(true);
    expect(
      bodiesOf(requests, 'POST', '/v3/catalog/brands').every((b) => b.custom_url !== undefined),
    ).toBe(true);
    const sourcePaths = source.state.products.map((p) => p.custom_url.url).sort();
    expect(destination.state.products.map((p) => p.custom_url.url).sort()).toEqual(sourcePaths);
    expect(specProblems(requests)).toEqual([]);
  });

  it('keepSlugs false: no path is sent, BigCommerce makes them from the names, and a rewrite finds every record', async () => {
    const destination = await store('empty');
    const choices = { keepSlugs: false };
    const { requests } = await writeCatalog(destination, choices, new MemoryIdMap());
    const sent = [
      ...bodiesOf(requests, 'POST', '/v3/catalog/products'),
      ...bodiesOf(requests, 'POST', '/v3/catalog/brands'),
    ];
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((b) => b.custom_url !== undefined)).toEqual([]);
    const categories = bodiesOf(requests, 'POST', '/v3/catalog/trees/categories');
    expect(categories.length).toBeGreaterThan(0);
    expect(categories.filter((b) => b.url !== undefined)).toEqual([]);
    const content = [
      ...bodiesOf(requests, 'POST', '/v3/content/pages'),
      ...bodiesOf(requests, 'POST', '/v2/blog/posts'),
    ];
    expect(content.length).toBeGreaterThan(0);
    expect(content.filter((b) => b.url !== undefined)).toEqual([]);
    // The destination's own paths, made from the names.
    for (const product of destination.state.products)
      expect(product.custom_url.is_customized).toBe(false);
    for (const category of destination.state.categories)
      expect(category.url.is_customized).toBe(false);
    expect(specProblems(requests)).toEqual([]);

    // Written again by a run that lost its id map: found by the markers, none doubled.
    const counts = () => ({
      products: destination.state.products.length,
      categories: destination.state.categories.length,
      brands: destination.state.brands.length,
    });
    const before = counts();
    const again = await writeCatalog(destination, choices, new MemoryIdMap());
    for (const entity of ['categories', 'brands', 'products'] as const)
      expect(again.outcomes[entity]?.filter((o) => o === 'created')).toEqual([]);
    expect(counts()).toEqual(before);
  });

  it('notifyCustomers: the account-created e-mail is asked for only when chosen, once per customer', async () => {
    const customers = records.get('customers') as never[];
    expect(customers.length).toBeGreaterThan(0);

    const quiet = await store('empty');
    const off = connect(quiet);
    await off.connection.write('customers', customers, new MemoryIdMap());
    const offBodies = bodiesOf(off.requests, 'POST', '/v3/customers');
    expect(offBodies.map((b) => b.trigger_account_created_notification)).toEqual(
      customers.map(() => false),
    );
    expect(quiet.state.emails).toEqual([]);

    const told = await store('empty');
    const on = connect(told, { notifyCustomers: true });
    const first = await on.connection.write('customers', customers, new MemoryIdMap());
    expect(first.map((o) => o.outcome)).toEqual(customers.map(() => 'created'));
    expect(
      bodiesOf(on.requests, 'POST', '/v3/customers').map(
        (b) => b.trigger_account_created_notification,
      ),
    ).toEqual(customers.map(() => true));
    expect(told.state.emails).toHaveLength(customers.length);
    expect(specProblems(on.requests)).toEqual([]);

    // A rewrite without the id map finds the accounts: nobody is told twice.
    const again = connect(told, { notifyCustomers: true });
    const second = await again.connection.write('customers', customers, new MemoryIdMap());
    expect(second.filter((o) => o.outcome === 'created')).toEqual([]);
    expect(told.state.emails).toHaveLength(customers.length);
  });

  it('keepOrderNumbers: BigCommerce numbers orders itself, so both settings send the same order and a rewrite finds it', async () => {
    const orders = records.get('orders') as never[];
    expect(orders.length).toBeGreaterThan(0);
    const sentWith = async (choices: Partial<WriteChoices>) => {
      const destination = await store('empty');
      const { connection, requests } = connect(destination, choices);
      const written = await connection.write('orders', orders, new MemoryIdMap());
      expect(written.map((o) => o.outcome)).toEqual(orders.map(() => 'created'));
      const again = await connect(destination, choices).connection.write(
        'orders',
        orders,
        new MemoryIdMap(),
      );
      expect(again.map((o) => o.outcome)).toEqual(orders.map(() => 'skipped'));
      expect(destination.state.orders).toHaveLength(orders.length);
      expect(specProblems(requests)).toEqual([]);
      return bodiesOf(requests, 'POST', '/v2/orders');
    };
    const kept = await sentWith({ keepOrderNumbers: true });
    const renumbered = await sentWith({ keepOrderNumbers: false });
    expect(renumbered).toEqual(kept);
    // No order number is sent: v2 createOrder has none; the order is found by its marker.
    expect(kept.every((b) => b.id === undefined && typeof b.external_order_id === 'string')).toBe(
      true,
    );
  });
});
