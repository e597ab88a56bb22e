import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRequest } from '@replatform/emulators/woocommerce/testing/spec';
import { checkWpRequest } from '@replatform/emulators/woocommerce/testing/wp-spec';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import type { EntityType } from '@replatform/canonical/entities';
import type { Variant } from '@replatform/canonical/product';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type {
  AssetRecord,
  Connection,
  ConnectorHttpRequest,
  WriteOutcome,
} from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { blogPost, customer, order, product, webPage } from './test-records.ts';
import { wooCommerceConnector } from './woocommerce.ts';

/**
 * Undo against the emulator (it starts servers on 127.0.0.1): remove() and removeAssets() delete
 * what the writes created, for good, and nothing else; the terms a write created are recorded,
 * the ones it found are not.
 */

function checkAnyRequest(r: ConnectorHttpRequest): string[] {
  const path = new URL(r.url).pathname;
  if (path.startsWith('/wp-json/wp/v2')) return checkWpRequest(r);
  if (!path.startsWith('/wp-json') && r.method === 'GET') return [];
  return checkRequest(r);
}

const recordings: ConnectorHttpRequest[][] = [];
afterAll(() => {
  const problems = recordings
    .flat()
    .flatMap((r) => checkAnyRequest(r).map((p) => `${r.method} ${new URL(r.url).pathname}: ${p}`));
  expect(problems).toEqual([]);
});

function connect(
  emu: RunningWooCommerceEmulator,
  wordpress = true,
): { connection: Connection; requests: ConnectorHttpRequest[] } {
  const http = loopbackHttp();
  recordings.push(http.requests);
  const connection = wooCommerceConnector.connect(
    {
      storeUrl: emu.url,
      consumerKey: emu.consumerKey,
      consumerSecret: emu.consumerSecret,
      ...(wordpress
        ? {
            wordpressUser: emu.wordpressUser,
            wordpressApplicationPassword: emu.wordpressApplicationPassword,
          }
        : {}),
    },
    { http },
  );
  return { connection, requests: http.requests };
}

const ids = (outcomes: WriteOutcome[]) => outcomes.map((o) => o.destinationId as string);
const terms = (outcomes: WriteOutcome[]): AssetRecord[] =>
  outcomes.flatMap((o) => (o.assets ?? []).filter((a) => a.kind === 'term'));

describe('WooCommerce undo', () => {
  let emu: RunningWooCommerceEmulator;
  let source: RunningWooCommerceEmulator;
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({ seed: 'empty' });
    source = await startWooCommerceEmulator({ seed: { products: 4, customers: 1, orders: 1 } });
  });
  afterAll(async () => {
    await emu.close();
    await source.close();
  });

  it('records the tags, brand, shipping class and attribute a product write created, not the ones it found', async () => {
    const { connection } = connect(emu);
    // The merchant's own tag, there before the migration.
    const mine = emu.store.insertTerm('product_tag', { name: 'Cotton' }).id;
    const written = await connection.write(
      'products',
      [
        product('t1', {
          tags: ['Linen', 'Cotton'],
          vendor: 'Weaver & Co',
          shippingClass: 'bulky',
        }),
        product('t2', { tags: ['Linen'] }),
      ],
      new MemoryIdMap(),
    );
    expect(written.map((o) => o.outcome)).toEqual(['created', 'created']);
    const recorded = terms(written);
    const linen = [...emu.store.terms.values()].find((t) => t.name === 'Linen');
    expect(recorded.map((a) => a.key).sort()).toEqual([
      'product_brand:Weaver & Co',
      'product_shipping_class:bulky',
      'product_tag:Linen',
    ]);
    expect(recorded).toContainEqual({
      kind: 'term',
      key: 'product_tag:Linen',
      destinationId: `product_tag:${linen?.id}`,
    });
    // Once, on the first product that named it.
    expect(terms([written[1] as WriteOutcome])).toEqual([]);
    expect(recorded.some((a) => a.destinationId === `product_tag:${mine}`)).toBe(false);

    const removed = await connection.remove!('products', [...ids(written)].reverse());
    expect(removed.map((o) => o.outcome)).toEqual(['removed', 'removed']);
    expect(emu.store.products.size).toBe(0);
    const assets = await connection.removeAssets!(recorded);
    expect(assets.map((o) => o.outcome)).toEqual(recorded.map(() => 'removed'));
    expect(assets.map((o) => o.destinationId)).toEqual(recorded.map((a) => a.destinationId));
    expect([...emu.store.terms.values()].map((t) => t.name)).toContain('Cotton');
    expect([...emu.store.terms.values()].map((t) => t.name)).not.toContain('Linen');
    // Again, and an id the store never had: gone.
    expect(
      (await connection.remove!('products', [...ids(written), '987654'])).map((o) => o.outcome),
    ).toEqual(['gone', 'gone', 'gone']);
    expect((await connection.removeAssets!(recorded)).map((o) => o.outcome)).toEqual(
      recorded.map(() => 'gone'),
    );
  });

  it('keeps a created tag that a product of the merchant uses now', async () => {
    const { connection } = connect(emu);
    const written = await connection.write(
      'products',
      [product('u1', { tags: ['Hemp'] })],
      new MemoryIdMap(),
    );
    const recorded = terms(written);
    expect(recorded.map((a) => a.key)).toEqual(['product_tag:Hemp']);
    const hemp = Number(recorded[0]?.destinationId.split(':')[1]);
    // The merchant tags one of their own products with it.
    const theirs = await connection.write(
      'products',
      [product('merchant', { tags: ['Hemp'] })],
      new MemoryIdMap(),
    );
    expect(terms(theirs)).toEqual([]);
    await connection.remove!('products', ids(written));
    const [kept] = await connection.removeAssets!(recorded);
    expect(kept).toMatchObject({ outcome: 'kept' });
    expect(kept?.reason).toMatch(/1 product staying in your store uses it/);
    expect(emu.store.terms.has(hemp)).toBe(true);
    await connection.remove!('products', ids(theirs));
  });

  it('deletes a variable product with its variations, and records its store-wide attribute', async () => {
    const { connection } = connect(emu);
    const shirt = product('v1', {
      type: 'variable',
      options: [
        { name: 'Size', values: ['S', 'M'], position: 0, shared: { slug: 'size' }, visible: true },
      ],
      variants: ['S', 'M'].map((size, position) => ({
        ...(product('v1').variants[0] as Variant),
        id: `v1-${size}`,
        sku: `SKU-v1-${size}`,
        optionValues: [{ name: 'Size', value: size }],
        position,
      })),
    });
    const written = await connection.write('products', [shirt], new MemoryIdMap());
    expect(written[0]?.outcome).toBe('created');
    const recorded = terms(written);
    expect(recorded.map((a) => a.key).sort()).toEqual(['attribute:size', 'pa_size:M', 'pa_size:S']);
    expect(emu.store.variations.size).toBe(2);
    expect((await connection.remove!('products', ids(written)))[0]?.outcome).toBe('removed');
    expect(emu.store.variations.size).toBe(0);
    const outcomes = await connection.removeAssets!(recorded);
    expect(outcomes.filter((o) => o.outcome === 'failed')).toEqual([]);
    expect(emu.store.attributes.size).toBe(0);
  });

  it('deletes more customers than one batch takes, in batches of at most 100', async () => {
    const { connection, requests } = connect(emu);
    const many = Array.from({ length: 150 }, (_, i) => customer(`c${i}`, `c${i}@example.com`));
    const written = await connection.write('customers', many, new MemoryIdMap());
    expect(emu.store.customers.size).toBe(150);
    const before = requests.length;
    const removed = await connection.remove!('customers', ids(written).reverse());
    expect(removed.map((o) => o.outcome)).toEqual(many.map(() => 'removed'));
    expect(removed.map((o) => o.destinationId)).toEqual(ids(written).reverse());
    const batches = requests
      .slice(before)
      .filter((r) => r.method === 'POST' && r.url.includes('/customers/batch'))
      .map((r) => (JSON.parse(String(r.body)) as { delete: number[] }).delete.length);
    // Two requests (batch.ts halves what is over the limit), none over 100 ids.
    expect(batches).toHaveLength(2);
    expect(Math.max(...batches)).toBeLessThanOrEqual(100);
    expect(batches.reduce((a, b) => a + b, 0)).toBe(150);
    expect(emu.store.customers.size).toBe(0);
  });

  it('deletes orders before their customer; a customer with orders left goes, the orders stay as guests', async () => {
    const { connection } = connect(emu);
    const map = new MemoryIdMap();
    const p = await connection.write('products', [product('op')], map);
    map.record('products', p);
    const c = await connection.write('customers', [customer('oc', 'oc@example.com')], map);
    map.record('customers', c);
    const o = await connection.write(
      'orders',
      [order('o1', 'op', { customerId: 'oc' }), order('o2', 'op', { customerId: 'oc' })],
      map,
    );
    expect(o.map((x) => x.outcome)).toEqual(['created', 'created']);
    // The first order was changed by the owner since: the engine keeps it.
    expect((await connection.remove!('orders', [ids(o)[1] as string]))[0]?.outcome).toBe('removed');
    expect((await connection.remove!('customers', ids(c)))[0]?.outcome).toBe('removed');
    expect(emu.store.orders.get(Number(ids(o)[0]))?.customerId).toBe(0);
    await connection.remove!('orders', [ids(o)[0] as string]);
    await connection.remove!('products', ids(p));
    expect(emu.store.orders.size).toBe(0);
  });

  it('fails a category the store refuses to delete with its reason, and deletes the others', async () => {
    const { connection } = connect(emu);
    const child = emu.store.insertTerm('product_cat', { name: 'Kids' }).id;
    const outcomes = await connection.remove!('categories', [
      String(child),
      String(emu.store.defaultCategoryId),
      '987654',
    ]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['removed', 'failed', 'gone']);
    expect(outcomes[1]?.reason).toMatch(/default product category/);
    expect(outcomes[1]?.reason).toMatch(/woocommerce_rest_cannot_delete/);
  });

  it('deletes pages child first and posts with force; records the post categories and tags it created', async () => {
    const { connection } = connect(emu);
    const map = new MemoryIdMap();
    const pages = await connection.write(
      'pages',
      [webPage('p1', 'Help'), webPage('p2', 'Returns', { parentId: 'p1' })],
      map,
    );
    const posts = await connection.write(
      'posts',
      [blogPost('b1', 'Spring', { categories: ['Uncategorized', 'News'], tags: ['linen'] })],
      map,
    );
    const recorded = terms(posts);
    expect(recorded.map((a) => a.key).sort()).toEqual(['category:News', 'post_tag:linen']);
    const all: [EntityType, string[]][] = [
      ['posts', ids(posts)],
      ['pages', ids(pages).reverse()],
    ];
    for (const [entity, list] of all)
      expect((await connection.remove!(entity, list)).map((o) => o.outcome)).toEqual(
        list.map(() => 'removed'),
      );
    expect(await readAll(connection, 'pages')).toEqual([]);
    expect(await readAll(connection, 'posts')).toEqual([]);
    expect([...emu.store.wp.posts.values()]).toEqual([]);
    expect((await connection.removeAssets!(recorded)).map((o) => o.outcome)).toEqual([
      'removed',
      'removed',
    ]);
    expect((await connection.remove!('pages', ids(pages))).map((o) => o.outcome)).toEqual([
      'gone',
      'gone',
    ]);
  });

  it('removes stored images with WordPress access, and says why it cannot without', async () => {
    const url = `${source.url}${[...source.store.attachments.values()][0]?.path ?? ''}`;
    const image = { url, alt: '', title: '', position: 0 };
    const { connection } = connect(emu);
    const written = await connection.write(
      'products',
      [product('i1', { images: [image] })],
      new MemoryIdMap(),
    );
    const images = (written[0]?.assets ?? []).filter((a) => a.kind === 'image');
    expect(images).toHaveLength(1);
    await connection.remove!('products', ids(written));
    const { connection: keysOnly } = connect(emu, false);
    const [refused] = await keysOnly.removeAssets!(images);
    expect(refused).toMatchObject({ outcome: 'failed' });
    expect(refused?.reason).toMatch(/media library/);
    expect(refused?.reason).toMatch(/WordPress access/);
    const media = Number(images[0]?.destinationId);
    expect(emu.store.attachments.has(media)).toBe(true);
    expect((await connection.removeAssets!(images))[0]?.outcome).toBe('removed');
    expect(emu.store.attachments.has(media)).toBe(false);
  });
});
