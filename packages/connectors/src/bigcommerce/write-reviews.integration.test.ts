import { afterAll, describe, expect, it } from 'vitest';
import { reviewSchema as canonicalReview, type Review } from '@replatform/canonical/review';
import {
  startBigCommerceEmulator,
  type BigCommerceEmulatorOptions,
  type RunningBigCommerceEmulator,
} from '@replatform/emulators/bigcommerce/bigcommerce-emulator';
import { BigCommerceSpec } from '@replatform/emulators/bigcommerce/openapi-validator';
import { generateSampleStore } from '@replatform/emulators/framework/sample-store';
import { comparable } from '../kit/conformance/compare.ts';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { Checkpoint, ConnectorHttp, ConnectorHttpRequest, Page } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { inDestinationForm, knownDifferences } from '../kit/fields.ts';
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
const destinationFields = connector.capabilities.destinationFields.reviews ?? {};

async function store(options: BigCommerceEmulatorOptions): Promise<RunningBigCommerceEmulator> {
  counter += 1;
  const emulator = await startBigCommerceEmulator({
    storeHash: `reviews${counter}`,
    plan: 'unlimited',
    ...options,
  });
  origins.set(emulator.storeHash, emulator.url);
  emulators.push(emulator);
  return emulator;
}

function connect(
  emulator: RunningBigCommerceEmulator,
  options: { accessToken?: string; http?: ConnectorHttp; reviewPage?: number } = {},
) {
  const http = loopbackHttp();
  const requests = http.requests;
  const custom = createBigCommerceConnector({
    apiBaseUrl: (storeHash) => origins.get(storeHash) ?? 'http://127.0.0.1:9',
    retry: { baseDelayMs: 5, maxDelayMs: 50 },
    ...(options.reviewPage ? { pageSizes: { reviews: options.reviewPage } } : {}),
  });
  const connection = custom.connect(
    { storeHash: emulator.storeHash, accessToken: options.accessToken ?? emulator.accessToken },
    { http: options.http ?? http },
  );
  return { connection, requests };
}

const specProblems = (requests: ConnectorHttpRequest[]) => [
  ...new Set(requests.flatMap((r) => spec.validateRequest(r))),
];
const reviewRequests = (requests: ConnectorHttpRequest[], method: string) =>
  requests.filter((r) => r.method === method && /\/reviews(\/\d+)?(\?|$)/.test(r.url));

/** An empty destination with copies of the source's catalogue, and the id map that knows them. */
async function catalogueCopy(source: RunningBigCommerceEmulator) {
  const destination = await store({ seed: 'empty' });
  const from = connect(source).connection;
  const to = connect(destination);
  const idMap = new MemoryIdMap();
  for (const entity of ['categories', 'products'] as const)
    idMap.record(entity, await to.connection.write(entity, await readAll(from, entity), idMap));
  return { destination, from, to, idMap };
}

/** A review as another platform would give it (WooCommerce keeps HTML and no title). */
const review = (over: Partial<Review>): Review => ({
  id: '900',
  productId: '1',
  reviewerName: 'Ines Duarte',
  reviewerEmail: 'ines@example.com',
  rating: 4,
  title: '',
  body: '<p>Good value. Arrived <em>early</em>.</p>',
  status: 'approved',
  verified: false,
  createdAt: '2024-03-04T05:06:07.000Z',
  ...over,
});

afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
});

describe('BigCommerce review writes', () => {
  it('copies the sample reviews onto the copies of their products, as they were', async () => {
    const source = await store({ seed: { seed: 5, products: 6, customers: 3, orders: 4 } });
    const { destination, from, to, idMap } = await catalogueCopy(source);
    const reviews = await readAll(from, 'reviews');
    expect(reviews).toHaveLength(source.countStored('reviews'));
    const outcomes = await to.connection.write('reviews', reviews, idMap);
    expect(outcomes.map((o) => o.sourceId)).toEqual(reviews.map((r) => r.id));
    expect(outcomes.every((o) => o.outcome === 'created')).toBe(true);
    expect(destination.countStored('reviews')).toBe(reviews.length);
    expect(specProblems(to.requests)).toEqual([]);
    idMap.record('reviews', outcomes);
    // Read back through the id map, each review is its source's.
    const copies = await readAll(to.connection, 'reviews');
    const options = (toSource: (e: string, id: string) => string | undefined) => ({
      toSourceId: toSource,
      ignore: Object.keys(destinationFields.unsupported ?? {}),
    });
    const sourceIds = new Map(outcomes.map((o) => [o.destinationId, o.sourceId]));
    const productSource = new Map(
      (await readAll(from, 'products')).map((p) => [idMap.get('products', p.id), p.id]),
    );
    for (const copy of copies) {
      const original = reviews.find((r) => r.id === sourceIds.get(copy.id));
      expect(original, copy.id).toBeDefined();
      expect(
        comparable(
          'reviews',
          copy,
          options((_e, id) => productSource.get(id)),
        ),
      ).toEqual(
        comparable(
          'reviews',
          original as Review,
          options((_e, id) => id),
        ),
      );
    }
  });

  it('writes what another platform gives, naming what BigCommerce changes or cannot hold', async () => {
    const source = await store({ seed: { seed: 5, products: 3, customers: 0, orders: 0 } });
    const { destination, to, idMap } = await catalogueCopy(source);
    const productId = [...source.state.products][0]?.id ?? 0;
    const on = String(productId);
    const records = [
      review({ id: '1', productId: on }),
      review({
        id: '2',
        productId: on,
        reviewerName: 'Guest shopper',
        reviewerEmail: '',
        title: 'Fine',
        body: '<p>Okay.</p>',
        status: 'spam',
        verified: true,
        createdAt: '2024-03-05T00:00:00.000Z',
      }),
      review({ id: '3', productId: on, body: '', rating: 3, status: 'rejected' }),
    ];
    const outcomes = await to.connection.write('reviews', records, idMap);
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'created', 'created']);
    expect(outcomes[0]?.warnings).toEqual([
      "the text's formatting (bold, links, lists) was not kept: BigCommerce keeps a review's text as plain text (body)",
      "the review had no title, which BigCommerce requires: the first sentence of its text, 'Good value.', was written as its title (title)",
    ]);
    expect(outcomes[1]?.warnings).toEqual([
      'the review was marked as spam, a state BigCommerce does not have: it was written as disapproved (status)',
    ]);
    expect(outcomes[2]?.warnings).toEqual([
      "the review had no title and no text; BigCommerce requires a title, so its rating in stars, '★★★☆☆', was written as its title (title)",
    ]);
    // The buyer flag has no place: the run names it from the declaration.
    expect(knownDifferences('reviews', records[1], destinationFields)).toEqual([
      { field: 'verified', reason: destinationFields.unsupported?.verified },
    ]);
    const held = destination.state.reviews.map(({ id: _id, product_id: _p, ...r }) => r);
    const copyOf = (id: string) => idMap.get('products', id);
    expect(destination.state.reviews.map((r) => String(r.product_id))).toEqual(
      Array(3).fill(copyOf(on)),
    );
    expect(held).toMatchObject([
      {
        title: 'Good value.',
        text: 'Good value. Arrived early.',
        status: 'approved',
        rating: 4,
        email: 'ines@example.com',
        name: 'Ines Duarte',
        date_reviewed: Date.parse('2024-03-04T05:06:07Z'),
      },
      { title: 'Fine', text: 'Okay.', status: 'disapproved', email: '', name: 'Guest shopper' },
      { title: '★★★☆☆', text: '', status: 'disapproved' },
    ]);
    // No e-mail field for the guest: BigCommerce refuses an empty one.
    const guest = reviewRequests(to.requests, 'POST')[1];
    expect(JSON.parse(String(guest?.body))).not.toHaveProperty('email');
    expect(specProblems(to.requests)).toEqual([]);
    // Compared in the form BigCommerce keeps them, the title and text are what was written.
    idMap.record('reviews', outcomes);
    const copies = await readAll(to.connection, 'reviews');
    const form = (r: Review) =>
      inDestinationForm(
        comparable('reviews', r, { toSourceId: (_e, id) => id, ignore: ['verified', 'status'] }),
        destinationFields,
      );
    for (const [i, original] of records.entries()) {
      const copy = copies.find((c) => c.id === outcomes[i]?.destinationId) as Review;
      expect(form({ ...copy, productId: original.productId })).toEqual(form(original));
    }
  });

  it('skips what is unchanged, writes again what changed, and a copy deleted since anew', async () => {
    const source = await store({ seed: { seed: 5, products: 2, customers: 0, orders: 0 } });
    const { destination, to, idMap } = await catalogueCopy(source);
    const on = String(source.state.products[0]?.id);
    const first = review({ id: '7', productId: on, title: 'Great', body: '<p>Good value.</p>' });
    const created = await to.connection.write('reviews', [first], idMap);
    idMap.record('reviews', created);
    const id = Number(created[0]?.destinationId);
    const later = connect(destination);
    expect(await later.connection.write('reviews', [first], idMap)).toEqual([
      { sourceId: '7', outcome: 'skipped', destinationId: String(id), reason: 'already migrated' },
    ]);
    const changed = await later.connection.write(
      'reviews',
      [{ ...first, rating: 2, status: 'pending', body: '<p>Broke after a week.</p>' }],
      idMap,
    );
    expect(changed).toEqual([{ sourceId: '7', outcome: 'updated', destinationId: String(id) }]);
    expect(destination.state.reviews).toMatchObject([
      { id, rating: 2, status: 'pending', text: 'Broke after a week.', title: 'Great' },
    ]);
    expect(reviewRequests(later.requests, 'PUT')).toHaveLength(1);
    expect(reviewRequests(later.requests, 'POST')).toHaveLength(0);
    // Deleted by the merchant since: written anew.
    destination.state.reviews.splice(0);
    const again = await connect(destination).connection.write('reviews', [first], idMap);
    expect(again[0]).toMatchObject({ outcome: 'created' });
    expect(destination.countStored('reviews')).toBe(1);
    expect(specProblems(later.requests)).toEqual([]);
  });

  it('finds a review whose create answer was lost, and one a run wrote before losing its id map', async () => {
    const source = await store({ seed: { seed: 5, products: 3, customers: 2, orders: 3 } });
    const { destination, from, idMap } = await catalogueCopy(source);
    const inner = loopbackHttp();
    let cut = 0;
    // The first two review creates reach the store, then the connection drops before the answer.
    const lossy: ConnectorHttp = {
      async request(request) {
        const response = await inner.request(request);
        if (request.method === 'POST' && request.url.includes('/reviews') && cut < 2) {
          cut += 1;
          throw new Error('socket hang up');
        }
        return response;
      },
    };
    const reviews = await readAll(from, 'reviews');
    const { connection } = connect(destination, { http: lossy });
    const outcomes = await connection.write('reviews', reviews, idMap);
    expect(cut).toBe(2);
    expect(outcomes.map((o) => o.outcome)).toEqual(reviews.map(() => 'created'));
    expect(destination.countStored('reviews')).toBe(reviews.length);
    expect(new Set(outcomes.map((o) => o.destinationId)).size).toBe(reviews.length);
    expect(specProblems(inner.requests)).toEqual([]);
    // A later run that lost its id map finds them all by their natural key, and changes none.
    const before = structuredClone(destination.state.reviews);
    const forgetful = new MemoryIdMap();
    for (const entity of ['categories', 'products'] as const)
      for (const record of await readAll(from, entity))
        forgetful.record(entity, [
          {
            sourceId: record.id,
            outcome: 'skipped',
            destinationId: idMap.get(entity, record.id) ?? '',
          },
        ]);
    const rerun = connect(destination);
    const linked = await rerun.connection.write('reviews', reviews, forgetful);
    expect(linked.map((o) => o.outcome)).toEqual(reviews.map(() => 'skipped'));
    expect(linked.map((o) => o.destinationId)).toEqual(outcomes.map((o) => o.destinationId));
    expect(destination.state.reviews).toEqual(before);
    expect(reviewRequests(rerun.requests, 'POST')).toHaveLength(0);
    expect(reviewRequests(rerun.requests, 'PUT')).toHaveLength(0);
  });

  it("links the merchant's own review of the same reviewer, date and text, and leaves it alone", async () => {
    const source = await store({ seed: { seed: 5, products: 2, customers: 0, orders: 0 } });
    const { destination, to, idMap } = await catalogueCopy(source);
    const on = String(source.state.products[0]?.id);
    const copy = Number(idMap.get('products', on));
    const merchant = await fetch(
      `${destination.url}/stores/${destination.storeHash}/v3/catalog/products/${copy}/reviews`,
      {
        method: 'POST',
        headers: { 'X-Auth-Token': destination.accessToken, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          title: 'Good value!',
          text: 'Good value. Arrived early.',
          status: 'pending',
          rating: 5,
          email: 'INES@example.com',
          name: 'Ines Duarte',
          date_reviewed: '2024-03-04T05:06:07+00:00',
        }),
      },
    );
    expect(merchant.status).toBe(200);
    const other = destination.state.reviews[0];
    const before = structuredClone(destination.state.reviews);
    const outcomes = await to.connection.write(
      'reviews',
      [
        review({ id: '1', productId: on }),
        review({ id: '2', productId: on, reviewerName: 'Someone else' }),
      ],
      idMap,
    );
    expect(outcomes[0]).toEqual({
      sourceId: '1',
      outcome: 'skipped',
      destinationId: String(other?.id),
      reason:
        'a review by the same reviewer, of the same date and text, was already on the product at the destination; linked to it, not changed',
      linked: true,
    });
    expect(outcomes[1]).toMatchObject({ outcome: 'created' });
    expect(destination.state.reviews[0]).toEqual(before[0]);
    expect(destination.countStored('reviews')).toBe(2);
  });

  it('fails a review BigCommerce would refuse, with the reason, writing the others', async () => {
    const source = await store({ seed: { seed: 5, products: 3, customers: 0, orders: 0 } });
    const { destination, to, idMap } = await catalogueCopy(source);
    const [kept, gone] = source.state.products.map((p) => String(p.id));
    // The destination's copy of the second product was deleted by the merchant meanwhile.
    const goneCopy = Number(idMap.get('products', gone ?? ''));
    const remove = await fetch(
      `${destination.url}/stores/${destination.storeHash}/v3/catalog/products/${goneCopy}`,
      { method: 'DELETE', headers: { 'X-Auth-Token': destination.accessToken } },
    );
    expect(remove.status).toBe(204);
    const outcomes = await to.connection.write(
      'reviews',
      [
        review({ id: '1', productId: kept, reviewerEmail: 'ines at example dot com' }),
        review({ id: '2', productId: gone }),
        review({ id: '3', productId: '424242' }),
        review({ id: '4', productId: kept }),
      ],
      idMap,
    );
    expect(outcomes.map((o) => [o.outcome, o.reason])).toEqual([
      [
        'failed',
        "BigCommerce takes a reviewer's e-mail only when it is an address, and 'ines at example dot com' is not one (reviewerEmail)",
      ],
      ['failed', expect.stringMatching(/^its product is no longer at the destination/)],
      [
        'failed',
        'its product (source id 424242) is not at the destination: migrate Products first',
      ],
      ['created', undefined],
    ]);
    expect(destination.countStored('reviews')).toBe(1);
  });

  it('asks for the Products scope when the API account may not change reviews', async () => {
    const source = await store({ seed: { seed: 5, products: 1, customers: 0, orders: 0 } });
    const { idMap } = await catalogueCopy(source);
    // A store whose API account may only read the catalogue.
    const reader = await store({
      seed: 'empty',
      apiAccounts: [{ accessToken: 'reader', scopes: ['store_v2_products_read_only'] }],
    });
    const on = String(source.state.products[0]?.id);
    const { connection } = connect(reader, { accessToken: 'reader' });
    const error = await connection
      .write('reviews', [review({ productId: on })], idMap)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).toMatchObject({ errorClass: 'config', code: 'read_only_credentials' });
    expect((error as Error).message).toMatch(/Products scope/);
  });
});

describe('BigCommerce review reads', () => {
  it('counts and reads every review, those waiting for moderation or disapproved included', async () => {
    const source = await store({ seed: { seed: 8, products: 12, customers: 4, orders: 8 } });
    const sample = generateSampleStore({ seed: 8, products: 12, customers: 4, orders: 8 });
    // A product whose reviews are all disapproved or waiting: BigCommerce counts none on it.
    const unapproved = source.state.products.find(
      (p) => p.reviews_count === 0 && source.state.reviews.some((r) => r.product_id === p.id),
    );
    expect(unapproved).toBeDefined();
    const held = source.state.reviews.filter((r) => r.product_id === unapproved?.id).length;
    const { connection, requests } = connect(source);
    const records = await readAll(connection, 'reviews');
    expect(records).toHaveLength(sample.reviews.length);
    expect(records.filter((r) => r.productId === String(unapproved?.id))).toHaveLength(held);
    for (const record of records) expect(canonicalReview.safeParse(record).error).toBeUndefined();
    // Without a count first, every product is asked, and the products are listed in one page.
    expect(reviewRequests(requests, 'GET')).toHaveLength(12);
    expect(requests.filter((r) => new URL(r.url).pathname.endsWith('/products'))).toHaveLength(1);
    expect(specProblems(requests)).toEqual([]);
  });

  it('counts with one request per product, and a read after it asks only products with reviews', async () => {
    const source = await store({ seed: { seed: 8, products: 12, customers: 4, orders: 8 } });
    const { connection, requests } = connect(source);
    expect(await connection.count('reviews')).toBe(source.countStored('reviews'));
    expect(reviewRequests(requests, 'GET')).toHaveLength(12);
    requests.splice(0);
    const records = await readAll(connection, 'reviews');
    expect(records).toHaveLength(source.countStored('reviews'));
    const withReviews = new Set(source.state.reviews.map((r) => r.product_id)).size;
    expect(reviewRequests(requests, 'GET')).toHaveLength(withReviews);
    expect(specProblems(requests)).toEqual([]);
  });

  it('reads in pages whose checkpoints resume where they stood', async () => {
    const source = await store({ seed: { seed: 8, products: 12, customers: 4, orders: 8 } });
    const { connection } = connect(source, { reviewPage: 1 });
    const pages: Page<'reviews'>[] = [];
    for await (const page of connection.read('reviews', null)) pages.push(page);
    const all = pages.flatMap((p) => p.records.map((r) => r.id));
    expect(all).toHaveLength(source.countStored('reviews'));
    expect(new Set(all).size).toBe(all.length);
    expect(pages.every((p) => p.records.length <= 1)).toBe(true);
    expect(pages.at(-1)?.next).toBeNull();
    // Within a product (at:...) and after one (after:...).
    const cursors = pages.flatMap((p) => (p.next ? [p.next.cursor] : []));
    expect(cursors.some((c) => c.startsWith('at:'))).toBe(true);
    expect(cursors.some((c) => c.startsWith('after:'))).toBe(true);
    // A fresh connection (a restarted run) goes on from each checkpoint with what was left.
    let seen = 0;
    for (const page of pages) {
      seen += page.records.length;
      if (!page.next) continue;
      const rest: string[] = [];
      const resumed = connect(source, { reviewPage: 1 });
      for await (const next of resumed.connection.read('reviews', page.next as Checkpoint))
        rest.push(...next.records.map((r) => r.id));
      expect(rest, page.next.cursor).toEqual(all.slice(seen));
      expect(specProblems(resumed.requests)).toEqual([]);
    }
    const unknown = connection.read('reviews', { version: 1, cursor: 'page:2' });
    await expect(unknown[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      code: 'bad_checkpoint',
    });
  });

  it('reads the same reviews through lost connections, cut answers, 5xx and 429s', async () => {
    const source = await store({
      seed: { seed: 8, products: 12, customers: 4, orders: 8 },
      faultSeed: 3,
    });
    const clean = await readAll(connect(source).connection, 'reviews');
    source.setFaults({
      rate429: 0.15,
      rate5xx: 0.15,
      resetRate: 0.1,
      truncateRate: 0.1,
      retryAfterSeconds: 0,
      pathPattern: /\/catalog\/products/,
    });
    try {
      const { connection } = connect(source, { reviewPage: 2 });
      expect(await connection.count('reviews')).toBe(clean.length);
      expect(await readAll(connection, 'reviews')).toEqual(clean);
    } finally {
      source.setFaults(undefined);
    }
    expect(source.stats.faultsInjected).toBeGreaterThan(0);
  });

  it('reports a review the model cannot hold instead of reading it', async () => {
    const source = await store({ seed: { seed: 8, products: 2, customers: 0, orders: 0 } });
    const productId = source.state.products[1]?.id ?? 0;
    for (const body of [
      { title: 'Anonymous', name: '', rating: 4 },
      { title: 'No stars', name: 'Kim', rating: 0 },
    ]) {
      const answer = await fetch(
        `${source.url}/stores/${source.storeHash}/v3/catalog/products/${productId}/reviews`,
        {
          method: 'POST',
          headers: { 'X-Auth-Token': source.accessToken, 'Content-Type': 'application/json' },
          body: JSON.stringify({ ...body, date_reviewed: '2024-01-01T00:00:00Z' }),
        },
      );
      expect(answer.status).toBe(200);
    }
    const pages: Page<'reviews'>[] = [];
    for await (const page of connect(source).connection.read('reviews', null)) pages.push(page);
    const rejected = pages.flatMap((p) => p.rejected ?? []);
    expect(rejected.map((r) => r.reason)).toEqual([
      expect.stringContaining('has no reviewer name, which the model requires'),
    ]);
    const records = pages.flatMap((p) => p.records);
    expect(records).toHaveLength(source.countStored('reviews') - 1);
    // A review of 0 stars is one given without stars.
    expect(records.find((r) => r.title === 'No stars')?.rating).toBeNull();
  });
});
