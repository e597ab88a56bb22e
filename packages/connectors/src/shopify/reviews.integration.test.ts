import { afterAll, describe, expect, it } from 'vitest';
import { productDefaults, variantDefaults } from '@replatform/canonical/defaults';
import type { Product } from '@replatform/canonical/product';
import type { Review } from '@replatform/canonical/review';
import { validateShopifyRequests } from '@replatform/emulators/shopify/request-validator';
import {
  startShopifyEmulator,
  type ShopifyEmulator,
  type ShopifyEmulatorOptions,
} from '@replatform/emulators/shopify/shopify-emulator';
import type { MetafieldRec, ProductRec } from '@replatform/emulators/shopify/store';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { ConnectorHttpRequest } from '../kit/contract.ts';
import { connectShopify } from './shopify-connector.ts';
import {
  allRecordedRequests,
  routeShop,
  shopRoutingHttp,
  testShopDomain,
  type RecordingHttp,
} from './test-support.ts';

/**
 * Reviews written into and read from the emulated shop: the products' replatform.reviews lists
 * and their star rating, found again after a lost answer or by a later run, the merchant's own
 * reviews and lists left alone, Shopify's size limit, writes to one product taking turns, and
 * reading page by page with checkpoints.
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
  return { emulator, credentials: { shopDomain, accessToken: emulator.accessToken } };
}

type Store = Awaited<ReturnType<typeof startStore>>;

function connect(store: Store, http: RecordingHttp = shopRoutingHttp()) {
  return { connection: connectShopify(store.credentials, { http }, { backoffMs: 5 }), http };
}

const bodyOf = (r: ConnectorHttpRequest) =>
  typeof r.body === 'string'
    ? (JSON.parse(r.body) as { operationName?: string; variables?: Record<string, unknown> })
    : {};
const sent = (http: RecordingHttp, name: string) =>
  http.requests.map(bodyOf).filter((b) => b.operationName === name);

function product(id: string): Product {
  return {
    ...productDefaults(),
    id,
    type: 'simple',
    name: `Product ${id}`,
    slug: `product-${id}`,
    sku: `SKU-${id}`,
    vendor: 'Acme',
    variants: [
      {
        ...variantDefaults({ amount: 500, currency: 'USD' }),
        id: `${id}-v`,
        sku: `SKU-${id}`,
        optionValues: [],
        position: 0,
      },
    ],
    sourceUrlPath: null,
    createdAt: null,
    updatedAt: null,
  };
}

const review = (id: string, productId: string, overrides: Partial<Review> = {}): Review => ({
  id,
  productId,
  reviewerName: 'Maya Lindqvist',
  reviewerEmail: 'maya.lindqvist@example.com',
  rating: 5,
  title: 'Exactly as described',
  body: `<p>Review ${id}: fits well.</p>`,
  status: 'approved',
  verified: false,
  createdAt: '2023-04-12T10:15:00.000Z',
  ...overrides,
});

/** An empty shop with products p1 and p2 migrated, and a connection to it. */
async function withProducts(label: string) {
  const store = await startStore(label);
  const { connection, http } = connect(store);
  const idMap = new MemoryIdMap();
  idMap.record(
    'products',
    await connection.write('products', [product('p1'), product('p2')], idMap),
  );
  const productRec = (sourceId: string): ProductRec => {
    const gid = idMap.get('products', sourceId) ?? '';
    const found = store.emulator.shop().products.get(Number(gid.split('/').pop()));
    if (!found) throw new Error(`no product ${sourceId}`);
    return found;
  };
  const metafield = (sourceId: string, namespace: string, key: string) =>
    productRec(sourceId).metafields.find((m) => m.namespace === namespace && m.key === key);
  const entries = (sourceId: string) =>
    JSON.parse(metafield(sourceId, 'replatform', 'reviews')?.value ?? '[]') as Record<
      string,
      unknown
    >[];
  const stars = (sourceId: string) => ({
    rating: metafield(sourceId, 'reviews', 'rating')?.value,
    count: metafield(sourceId, 'reviews', 'rating_count')?.value,
  });
  return { store, connection, http, idMap, productRec, metafield, entries, stars };
}

const addMetafield = (p: ProductRec, namespace: string, key: string, type: string, value: string) =>
  p.metafields.push({
    id: 900_000 + p.metafields.length,
    namespace,
    key,
    type,
    value,
    createdAt: '2024-01-01T00:00:00Z',
    updatedAt: '2024-01-01T00:00:00Z',
  } satisfies MetafieldRec);

describe('writing reviews', () => {
  const reviews = [
    review('w1', 'p1'),
    review('w2', 'p1', { rating: 4, status: 'approved', reviewerEmail: '', title: '' }),
    review('w3', 'p1', { rating: 1, status: 'spam', reviewerName: 'Cheap Pills' }),
    review('w4', 'p2', { rating: 2, status: 'pending', verified: true, body: '<p>Zoë — 茶</p>' }),
  ];

  it('creates them in their products’ lists with the stars of the approved ones, and reads them back', async () => {
    const { store, connection, http, idMap, entries, stars, productRec } =
      await withProducts('reviews-create');
    const outcomes = await connection.write('reviews', reviews, idMap);
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'created', 'created', 'created']);
    expect(validateShopifyRequests(http.requests)).toEqual([]);
    // One read and one set per product: the batch is merged into each list at once.
    expect(sent(http, 'ProductReviewsState')).toHaveLength(2);
    expect(sent(http, 'ProductReviewsSet')).toHaveLength(2);
    const number = (sourceId: string) => String(productRec(sourceId).id);
    for (const o of outcomes)
      expect(o.destinationId).toMatch(
        new RegExp(
          `^${number(reviews.find((r) => r.id === o.sourceId)?.productId ?? '')}:r[0-9a-f]{12}$`,
        ),
      );
    expect(entries('p1').map((e) => [e.source_id, e.status])).toEqual([
      ['w1', 'approved'],
      ['w2', 'approved'],
      ['w3', 'spam'],
    ]);
    expect(stars('p1')).toEqual({
      rating: '{"value":"4.5","scale_min":"1.0","scale_max":"5.0"}',
      count: '2',
    });
    // Only a pending review: no stars.
    expect(stars('p2')).toEqual({ rating: undefined, count: undefined });
    expect(store.emulator.countStored('reviews')).toBe(4);

    idMap.record('reviews', outcomes);
    expect(await connection.count('reviews')).toBe(4);
    const read = await readAll(connection, 'reviews');
    expect(read).toHaveLength(4);
    for (const r of read) {
      const sourceId = idMap.sourceIdOf('reviews', r.id);
      const source = reviews.find((x) => x.id === sourceId);
      expect(source, r.id).toBeDefined();
      expect(r).toEqual({
        ...source,
        id: r.id,
        productId: idMap.get('products', source?.productId ?? ''),
      });
    }
    // The list and its stars are the reviews', not custom fields of the product.
    const [p1] = (await readAll(connection, 'products')).filter((p) => p.slug === 'product-p1');
    expect(p1?.metafields.filter((m) => /reviews/.test(`${m.namespace}.${m.key}`))).toEqual([]);
  });

  it('skips what is unchanged, updates what changed in its place, and takes the stars away with the last approved review', async () => {
    const { connection, http, idMap, entries, stars } = await withProducts('reviews-update');
    const first = await connection.write('reviews', reviews, idMap);
    idMap.record('reviews', first);
    const keys = entries('p1').map((e) => e.key);

    const again = await connection.write('reviews', reviews, idMap);
    expect(again.map((o) => o.outcome)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
    expect(again[0]?.reason).toBe('Already at the destination (found by its migration marker).');
    expect(again.map((o) => o.destinationId)).toEqual(first.map((o) => o.destinationId));
    // Nothing changed: nothing was set.
    expect(sent(http, 'ProductReviewsSet')).toHaveLength(2);

    const changed = [
      { ...reviews[0]!, status: 'rejected' as const, title: 'Changed my mind' },
      reviews[1]!,
    ];
    const updated = await connection.write('reviews', changed, idMap);
    expect(updated.map((o) => o.outcome)).toEqual(['updated', 'skipped']);
    expect(updated[0]?.destinationId).toBe(first[0]?.destinationId);
    expect(entries('p1').map((e) => e.key)).toEqual(keys);
    expect(entries('p1')[0]).toMatchObject({ status: 'rejected', title: 'Changed my mind' });
    expect(stars('p1')).toEqual({
      rating: '{"value":"4.0","scale_min":"1.0","scale_max":"5.0"}',
      count: '1',
    });

    const none = await connection.write(
      'reviews',
      [{ ...reviews[1]!, status: 'pending' as const }],
      idMap,
    );
    expect(none[0]?.outcome).toBe('updated');
    expect(stars('p1')).toEqual({ rating: undefined, count: undefined });
    expect(sent(http, 'ProductRatingDelete')).toHaveLength(1);
  });

  it('finds the reviews of an earlier run without the id map, and one whose answer was lost', async () => {
    const store = await startStore('reviews-lost');
    const inner = shopRoutingHttp();
    let lost = 0;
    const flaky: RecordingHttp = {
      requests: inner.requests,
      async request(request) {
        const answer = await inner.request(request);
        // The list reached Shopify; its answer did not reach us.
        if (lost === 0 && bodyOf(request).operationName === 'ProductReviewsSet') {
          lost += 1;
          return { status: 502, headers: {}, body: new TextEncoder().encode('bad gateway') };
        }
        return answer;
      },
    };
    const { connection, http } = connect(store, flaky);
    const idMap = new MemoryIdMap();
    idMap.record('products', await connection.write('products', [product('p1')], idMap));
    const batch = [review('l1', 'p1'), review('l2', 'p1', { rating: 3 })];
    const outcomes = await connection.write('reviews', batch, idMap);
    expect(lost).toBe(1);
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'created']);
    // Sent again, the set found the list changed (by itself): read again, nothing left to set.
    expect(sent(http, 'ProductReviewsSet')).toHaveLength(2);
    expect(sent(http, 'ProductReviewsState')).toHaveLength(2);
    expect(store.emulator.countStored('reviews')).toBe(2);

    // A later run that lost its id map: found by their source ids, nothing added.
    const productsOnly = new MemoryIdMap();
    productsOnly.record('products', [
      { sourceId: 'p1', outcome: 'skipped', destinationId: idMap.get('products', 'p1') ?? '' },
    ]);
    const again = await connection.write('reviews', batch, productsOnly);
    expect(again.map((o) => o.outcome)).toEqual(['skipped', 'skipped']);
    expect(again.map((o) => o.destinationId)).toEqual(outcomes.map((o) => o.destinationId));
    expect(store.emulator.countStored('reviews')).toBe(2);
  });

  it("links the merchant's own review and leaves it, their other reviews and their stars alone", async () => {
    const { connection, idMap, productRec, entries, stars } = await withProducts('reviews-own');
    const merchant = [
      {
        key: 'm1',
        reviewer_name: 'Maya Lindqvist',
        reviewer_email: 'MAYA.LINDQVIST@example.com',
        rating: 4,
        title: 'Mine',
        body_html: '<p>Review o1: fits well.</p>',
        status: 'approved',
        verified: true,
        created_at: '2023-04-12T12:15:00+02:00',
        helpful_votes: 7,
      },
      {
        key: 'm2',
        reviewer_name: 'Sam Okafor',
        rating: 3,
        body_html: '<p>Fine.</p>',
        status: 'approved',
        created_at: '2023-08-21T07:05:00Z',
      },
    ];
    addMetafield(productRec('p1'), 'replatform', 'reviews', 'json', JSON.stringify(merchant));
    // Stars of a review app of the shop, which do not come from the list.
    const appStars = '{"value":"3.9","scale_min":"1.0","scale_max":"5.0"}';
    addMetafield(productRec('p1'), 'reviews', 'rating', 'rating', appStars);
    addMetafield(productRec('p1'), 'reviews', 'rating_count', 'number_integer', '120');

    const outcomes = await connection.write(
      'reviews',
      [review('o1', 'p1'), review('o2', 'p1', { body: '<p>New.</p>' })],
      idMap,
    );
    expect(outcomes[0]).toEqual({
      sourceId: 'o1',
      outcome: 'skipped',
      destinationId: `${productRec('p1').id}:m1`,
      reason:
        'The product already has this review (same reviewer, date and text) in its reviews list, not written by this migration: it was linked and left as it is.',
      linked: true,
    });
    expect(outcomes[1]).toMatchObject({
      outcome: 'created',
      warnings: [
        "The product's star rating (metafields reviews.rating and reviews.rating_count) is kept by another app: it was left as it is and does not count this review.",
      ],
    });
    expect(entries('p1').slice(0, 2)).toEqual(merchant);
    expect(entries('p1')).toHaveLength(3);
    expect(stars('p1')).toEqual({ rating: appStars, count: '120' });
  });

  it('refuses to write into a list in another shape, and leaves it as it is', async () => {
    const { connection, idMap, productRec, metafield } = await withProducts('reviews-foreign');
    const widget = '{"widget":"stars","items":[{"who":"Ann","stars":5}]}';
    addMetafield(productRec('p1'), 'replatform', 'reviews', 'json', widget);
    const outcomes = await connection.write(
      'reviews',
      [review('f1', 'p1'), review('f2', 'p2')],
      idMap,
    );
    expect(outcomes[0]).toEqual({
      sourceId: 'f1',
      outcome: 'failed',
      reason:
        "The product's metafield replatform.reviews holds data Replatform did not write (its value is not a list): it was left as it is, and the review was not added to it.",
    });
    expect(outcomes[1]?.outcome).toBe('created');
    expect(metafield('p1', 'replatform', 'reviews')?.value).toBe(widget);
    // Read with the product as its own metafield, not as reviews.
    expect(await connection.count('reviews')).toBe(1);
    const [p1] = (await readAll(connection, 'products')).filter((p) => p.slug === 'product-p1');
    expect(p1?.metafields).toContainEqual({
      namespace: 'shopify.replatform',
      key: 'reviews',
      type: 'json',
      value: widget,
    });
  });

  it('fails a review that would take the list past 128 KB with the reason, and writes the others', async () => {
    const { connection, idMap, entries } = await withProducts('reviews-large');
    const outcomes = await connection.write(
      'reviews',
      [
        review('s1', 'p1'),
        review('s2', 'p1', { body: `<p>${'Long. '.repeat(22_000)}</p>` }),
        review('s3', 'p1'),
      ],
      idMap,
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'failed', 'created']);
    expect(outcomes[1]?.reason).toMatch(
      /^A product's reviews are kept in one Shopify metafield \(replatform\.reviews\), which holds at most 131,072 bytes; with this review the product's list would hold 132,\d{3}, so the review was not written\.$/,
    );
    expect(entries('p1').map((e) => e.source_id)).toEqual(['s1', 's3']);
  });

  it('fails a review whose product has no copy at the destination', async () => {
    const { connection, idMap } = await withProducts('reviews-orphan');
    const [outcome] = await connection.write('reviews', [review('x1', 'gone')], idMap);
    expect(outcome).toEqual({
      sourceId: 'x1',
      outcome: 'failed',
      reason:
        'Its product (source id gone) has no copy at the destination, so the review has nothing to belong to.',
    });
  });

  it('takes turns on one product across batches in flight, and merges a list changed meanwhile', async () => {
    const store = await startStore('reviews-turns');
    const inner = shopRoutingHttp();
    let meddled = false;
    let productId = 0;
    const meddling: RecordingHttp = {
      requests: inner.requests,
      async request(request) {
        // Between our read and our set, the merchant adds a review by hand.
        if (!meddled && bodyOf(request).operationName === 'ProductReviewsSet') {
          meddled = true;
          const p = store.emulator.shop().products.get(productId);
          const list = p?.metafields.find((m) => m.key === 'reviews');
          const hand = {
            key: 'hand-1',
            reviewer_name: 'Walk-in',
            rating: 5,
            body_html: '<p>Added in the admin.</p>',
            status: 'approved',
            created_at: '2025-01-01T00:00:00Z',
          };
          if (p && list) list.value = JSON.stringify([...JSON.parse(list.value), hand]);
          else if (p) addMetafield(p, 'replatform', 'reviews', 'json', JSON.stringify([hand]));
        }
        return inner.request(request);
      },
    };
    const { connection, http } = connect(store, meddling);
    const idMap = new MemoryIdMap();
    idMap.record('products', await connection.write('products', [product('p1')], idMap));
    productId = Number(idMap.get('products', 'p1')?.split('/').pop());
    const batches = [0, 1, 2].map((b) =>
      Array.from({ length: 5 }, (_v, i) => review(`t${b}-${i}`, 'p1', { rating: 1 + i })),
    );
    const results = await Promise.all(batches.map((b) => connection.write('reviews', b, idMap)));
    expect(results.flat().map((o) => o.outcome)).toEqual(batches.flat().map(() => 'created'));
    expect(store.emulator.countStored('reviews')).toBe(16);
    const list = JSON.parse(
      store.emulator
        .shop()
        .products.get(productId)
        ?.metafields.find((m) => m.key === 'reviews')?.value ?? '[]',
    ) as { key: string }[];
    expect(list.map((e) => e.key)).toContain('hand-1');
    expect(new Set(list.map((e) => e.key)).size).toBe(16);
    // The stars count the hand-written review too: 3 x (1+2+3+4+5) + 5 over 16.
    const rating = store.emulator
      .shop()
      .products.get(productId)
      ?.metafields.find((m) => m.key === 'rating')?.value;
    expect(JSON.parse(rating ?? '{}')).toEqual({
      value: '3.13',
      scale_min: '1.0',
      scale_max: '5.0',
    });
    // The list changed between a read and its set once: read and merged again.
    expect(sent(http, 'ProductReviewsState')).toHaveLength(4);
  });
});

describe('reading reviews', () => {
  it('walks every product, page by page with checkpoints, a product with many reviews over several pages', async () => {
    const store = await startStore('reviews-read', {
      seed: { seed: 9, products: 120, customers: 2, orders: 2, coupons: false, reviews: false },
    });
    const products = [...store.emulator.shop().products.values()];
    const many = (count: number, prefix: string) =>
      Array.from({ length: count }, (_v, i) => ({
        key: `${prefix}${i}`,
        reviewer_name: `Reviewer ${i}`,
        rating: 1 + (i % 5),
        body_html: `<p>${i}</p>`,
        status: 'approved',
        created_at: '2024-02-02T10:00:00Z',
      }));
    addMetafield(products[3]!, 'replatform', 'reviews', 'json', JSON.stringify(many(30, 'a')));
    addMetafield(products[70]!, 'replatform', 'reviews', 'json', JSON.stringify(many(75, 'b')));
    addMetafield(products[119]!, 'replatform', 'reviews', 'json', JSON.stringify(many(2, 'c')));
    const { connection, http } = connect(store);

    expect(await connection.count('reviews')).toBe(107);
    // Counting walks all 120 products, 50 at a time.
    expect(sent(http, 'ProductReviewsPage')).toHaveLength(3);

    const pages = [];
    for await (const page of connection.read('reviews', null)) pages.push(page);
    expect(pages.map((p) => p.records.length)).toEqual([50, 50, 7]);
    expect(pages.map((p) => p.next === null)).toEqual([false, false, true]);
    const all = pages.flatMap((p) => p.records);
    expect(new Set(all.map((r) => r.id)).size).toBe(107);
    expect(all[0]?.id).toBe(`${products[3]?.id}:a0`);
    expect(all[30]?.id).toBe(`${products[70]?.id}:b0`);

    // Resumed at the second checkpoint (inside the product with 75 reviews): the rest, once.
    const rest = [];
    for await (const page of connection.read('reviews', pages[1]?.next ?? null))
      rest.push(...page.records);
    expect(rest.map((r) => r.id)).toEqual(all.slice(100).map((r) => r.id));
    const fromFirst = [];
    for await (const page of connection.read('reviews', pages[0]?.next ?? null))
      fromFirst.push(...page.records);
    expect(fromFirst.map((r) => r.id)).toEqual(all.slice(50).map((r) => r.id));
    await expect(async () => {
      for await (const _page of connection.read('reviews', {
        version: 1,
        cursor: '{"mode":"page","after":null}',
      }))
        break;
    }).rejects.toThrow(/not a Shopify reviews checkpoint/);
  });
});
