import { afterAll, describe, expect, it } from 'vitest';
import { pageSchema, postSchema, type Page, type Post } from '@replatform/canonical/content';
import { pageDefaults, postDefaults } from '@replatform/canonical/defaults';
import type { EntityType } from '@replatform/canonical/entities';
import { validateShopifyRequests } from '@replatform/emulators/shopify/request-validator';
import {
  startShopifyEmulator,
  type ShopifyEmulator,
  type ShopifyEmulatorOptions,
} from '@replatform/emulators/shopify/shopify-emulator';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { ConnectorHttpRequest } from '../kit/contract.ts';
import { DELETES_PER_REQUEST } from './remove.ts';
import { connectShopify, shopifyCapabilities } from './shopify-connector.ts';
import {
  allRecordedRequests,
  routeShop,
  shopRoutingHttp,
  testShopDomain,
  type RecordingHttp,
} from './test-support.ts';

/**
 * Undo against the emulated shop: each record type deleted by its own mutation, an id the shop
 * does not have answered gone, Shopify's refusals (a customer with orders, an order its checkout
 * took) failed with the reason while the others go, more deletes than one request carries, and
 * blogs: recorded as a term by the post that created them (never one that existed), and removed
 * only while empty. Every request is valid against the 2026-10 schema.
 */

const emulators: ShopifyEmulator[] = [];
const unroutes: (() => void)[] = [];
afterAll(async () => {
  for (const unroute of unroutes) unroute();
  await Promise.all(emulators.map((e) => e.close()));
  expect(validateShopifyRequests(allRecordedRequests)).toEqual([]);
});

async function startStore(label: string, options: ShopifyEmulatorOptions = {}) {
  const shopDomain = testShopDomain(label);
  const emulator = await startShopifyEmulator({
    shops: [shopDomain],
    seed: 'empty',
    plan: 'plus',
    ...options,
  });
  emulators.push(emulator);
  unroutes.push(routeShop(shopDomain, emulator.url));
  const http = shopRoutingHttp();
  const connection = connectShopify(
    { shopDomain, accessToken: emulator.accessToken },
    { http },
    { backoffMs: 5 },
  );
  return { emulator, connection, http };
}

const bodyOf = (r: ConnectorHttpRequest) =>
  typeof r.body === 'string'
    ? (JSON.parse(r.body) as { operationName?: string; variables?: Record<string, unknown> })
    : {};
const sent = (http: RecordingHttp, name: string) =>
  http.requests.map(bodyOf).filter((b) => b.operationName === name);

const page = (id: string): Page =>
  pageSchema.parse({
    ...pageDefaults(),
    id,
    title: `Page ${id}`,
    slug: `page-${id}`,
    body: `<p>${id}</p>`,
    status: 'published',
    publishedAt: '2024-01-01T00:00:00.000Z',
    sourceUrlPath: `/page-${id}/`,
  });

const post = (id: string, blog: string): Post =>
  postSchema.parse({
    ...postDefaults(),
    id,
    title: `Post ${id}`,
    slug: `post-${id}`,
    body: `<p>${id}</p>`,
    status: 'published',
    publishedAt: '2024-02-01T00:00:00.000Z',
    authorName: 'Ann',
    sourceUrlPath: `/post-${id}/`,
    blog,
  });

const seeded = { seed: 5, products: 4, customers: 3, orders: 2 };

describe('remove', () => {
  it('deletes the records of each type, and answers gone for an id the shop does not have', async () => {
    const { emulator, connection } = await startStore('remove-each', { seed: seeded });
    const entities: EntityType[] = ['posts', 'pages', 'coupons', 'products', 'categories'];
    for (const entity of entities) {
      const ids = (await readAll(connection, entity)).map((r) => r.id);
      expect(ids.length, entity).toBeGreaterThan(0);
      const outcomes = await connection.remove!(entity, [...ids, '987654321']);
      expect(outcomes, entity).toEqual([
        ...ids.map((id) => ({ destinationId: id, outcome: 'removed' })),
        { destinationId: '987654321', outcome: 'gone' },
      ]);
      expect(emulator.countStored(entity), entity).toBe(0);
      const again = await connection.remove!(entity, ids.slice(0, 1));
      expect(again.map((o) => o.outcome)).toEqual(['gone']);
    }
    // Seeded reviews sat on the products, which took them along.
    expect(emulator.countStored('reviews')).toBe(0);
  });

  it('fails what Shopify refuses, with its reason and what to do, and removes the others', async () => {
    const { emulator, connection } = await startStore('remove-refused', { seed: seeded });
    const orders = await readAll(connection, 'orders');
    const customers = await readAll(connection, 'customers');
    const buyers = new Set(orders.map((o) => o.customerId));
    const withOrders = customers.filter((c) => buyers.has(c.id));
    const without = customers.filter((c) => !buyers.has(c.id));
    expect(withOrders.length).toBeGreaterThan(0);
    expect(without.length).toBeGreaterThan(0);
    const outcomes = await connection.remove!(
      'customers',
      customers.map((c) => c.id),
    );
    for (const [i, c] of customers.entries()) {
      if (buyers.has(c.id)) {
        expect(outcomes[i]!.outcome).toBe('failed');
        expect(outcomes[i]!.reason).toMatch(/associated orders.*without orders/s);
      } else expect(outcomes[i]).toEqual({ destinationId: c.id, outcome: 'removed' });
    }
    expect(emulator.countStored('customers')).toBe(withOrders.length);
    // Orders the shop's own checkout took and that are still open cannot be deleted.
    const removedOrders = await connection.remove!(
      'orders',
      orders.map((o) => o.id),
    );
    const refused = removedOrders.filter((o) => o.outcome === 'failed');
    expect(refused.length).toBeGreaterThan(0);
    for (const o of refused) expect(o.reason).toMatch(/can’t be deleted.*cancel or archive it/is);
    expect(emulator.countStored('orders')).toBe(refused.length);
  });

  it('sends at most DELETES_PER_REQUEST deletes a request', async () => {
    const { emulator, connection, http } = await startStore('remove-batch');
    const count = DELETES_PER_REQUEST + 5;
    const pages = Array.from({ length: count }, (_, i) => page(`p${i}`));
    const written = await connection.write('pages', pages, new MemoryIdMap());
    const ids = written.map((o) => o.destinationId!).reverse();
    expect(emulator.countStored('pages')).toBe(count);
    const outcomes = await connection.remove!('pages', ids);
    expect(outcomes.map((o) => o.outcome)).toEqual(ids.map(() => 'removed'));
    expect(outcomes.map((o) => o.destinationId)).toEqual(ids);
    expect(sent(http, 'RemovePages').map((b) => Object.keys(b.variables ?? {}).length)).toEqual([
      DELETES_PER_REQUEST,
      5,
    ]);
    expect(emulator.countStored('pages')).toBe(0);
  });

  it('records a blog a post created as a term, not one that existed, and removes it while empty', async () => {
    const { emulator, connection } = await startStore('remove-blog', {
      seed: { ...seeded, products: 1 },
    });
    const idMap = new MemoryIdMap();
    const written = await connection.write(
      'posts',
      [post('a', 'Journal'), post('b', 'Journal'), post('c', 'News'), post('d', 'Recipes')],
      idMap,
    );
    const terms = written.map((o) => o.assets ?? []);
    expect(terms[0]).toEqual([
      {
        kind: 'term',
        key: 'blog:Journal',
        destinationId: expect.stringMatching(/^blog:gid:\/\/shopify\/Blog\/\d+$/),
      },
    ]);
    expect(terms[1]).toEqual([]);
    expect(terms[2]).toEqual([]);
    expect(terms[3]).toHaveLength(1);
    const blogs = terms.flat();
    // While a blog still holds an article, it stays (blogDelete would take the article along).
    const early = await connection.removeAssets!(blogs);
    expect(early.map((o) => o.outcome)).toEqual(['failed', 'failed']);
    expect(early[0]!.reason).toMatch(/still holds 2 articles/);
    await connection.remove!(
      'posts',
      written.map((o) => o.destinationId!),
    );
    const removed = await connection.removeAssets!(blogs);
    expect(removed).toEqual(
      blogs.map((b) => ({ destinationId: b.destinationId, outcome: 'removed' })),
    );
    const titles = (await readAll(connection, 'posts')).map((p) => p.blog);
    expect(titles.every((t) => t === 'News')).toBe(true);
    expect((await connection.removeAssets!(blogs)).map((o) => o.outcome)).toEqual(['gone', 'gone']);
    expect(emulator.countStored('posts')).toBe(4);
  });

  it("takes reviews out of their product's list, leaving the others", async () => {
    const { emulator, connection } = await startStore('remove-reviews', { seed: seeded });
    const reviews = await readAll(connection, 'reviews');
    expect(reviews.length).toBeGreaterThan(1);
    const [first, ...rest] = reviews.map((r) => r.id);
    const outcomes = await connection.remove!('reviews', [first!, `${first}x`, 'no-product']);
    expect(outcomes.map((o) => o.outcome)).toEqual(['removed', 'gone', 'gone']);
    expect(emulator.countStored('reviews')).toBe(rest.length);
    expect((await readAll(connection, 'reviews')).map((r) => r.id)).toEqual(rest);
    await connection.remove!('reviews', rest);
    expect(emulator.countStored('reviews')).toBe(0);
  });

  it('can remove every type it writes (Shopify has a delete for each)', () => {
    expect(shopifyCapabilities.removeUnsupported).toBeUndefined();
  });
});
