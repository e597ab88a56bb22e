import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Review } from '@replatform/canonical/review';
import { checkRequest } from '@replatform/emulators/woocommerce/testing/spec';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { Connection, ConnectorHttp, ConnectorHttpRequest } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { customer, order, product, review } from './test-records.ts';
import { wooCommerceConnector } from './woocommerce.ts';

/** Product reviews written into the emulator (it starts servers on 127.0.0.1). */

const recordings: ConnectorHttpRequest[][] = [];
afterAll(() => {
  const problems = recordings
    .flat()
    .flatMap((r) => checkRequest(r).map((p) => `${r.method} ${new URL(r.url).pathname}: ${p}`));
  expect(problems).toEqual([]);
});

function connect(emu: RunningWooCommerceEmulator, http?: ConnectorHttp): Connection {
  const transport = http ?? loopbackHttp();
  if (!http) recordings.push((transport as ReturnType<typeof loopbackHttp>).requests);
  return wooCommerceConnector.connect(
    { storeUrl: emu.url, consumerKey: emu.consumerKey, consumerSecret: emu.consumerSecret },
    { http: transport },
  );
}

/** A transport that carries the first reviews batch out and then loses its answer. */
function losingFirstAnswer(): { http: ConnectorHttp; lost: () => boolean } {
  const inner = loopbackHttp();
  recordings.push(inner.requests);
  let lost = false;
  return {
    lost: () => lost,
    http: {
      async request(request: ConnectorHttpRequest) {
        const answer = await inner.request(request);
        if (!lost && request.method === 'POST' && request.url.includes('/reviews/batch')) {
          lost = true;
          throw new ConnectorError('transient', 'timeout', 'no answer in time');
        }
        return answer;
      },
    },
  };
}

describe('WooCommerce review writes', () => {
  let emu: RunningWooCommerceEmulator;
  let connection: Connection;
  let idMap: MemoryIdMap;
  beforeEach(async () => {
    emu = await startWooCommerceEmulator({ seed: 'empty' });
    // The merchant's own product, with a SKU the source's product pm has too: linked.
    await emu.store.saveProduct({ name: 'Theirs', sku: 'SKU-pm', regular_price: '10' });
    connection = connect(emu);
    idMap = new MemoryIdMap();
    const products = await connection.write(
      'products',
      [product('p1'), product('p2'), product('pm')],
      idMap,
    );
    expect(products.map((o) => o.outcome)).toEqual(['created', 'created', 'skipped']);
    idMap.record('products', products);
  });
  afterEach(async () => {
    await emu.close();
  });

  const productOf = (sourceId: string) => Number(idMap.get('products', sourceId));
  const stored = () => emu.store.reviews.list({ status: 'any', orderby: 'id', order: 'asc' });
  const records = (): Review[] => [
    review('1', 'p1', {
      reviewerName: 'Zoë Ångström',
      title: 'Exactly as described',
      body: '<p>Très bien &amp; <strong>solide</strong>.</p>\n<p>Would buy again.</p>',
      rating: 5,
    }),
    review('2', 'p1', { reviewerEmail: '', status: 'pending', rating: 2, body: 'Too small.' }),
    review('3', 'p2', { status: 'rejected', rating: 1, body: 'Arrived broken.' }),
    review('4', 'p2', { status: 'spam', body: 'Visit <a href="https://spam.example/">us</a>' }),
  ];

  it('creates each review once on its product, with its date, stars, status and text, and reads it back as it was', async () => {
    const first = await connection.write('reviews', records(), idMap);
    expect(first.map((o) => o.outcome)).toEqual(['created', 'created', 'created', 'created']);
    expect(first[2]?.warnings?.join(' ')).toMatch(/bin .* empties 30 days/);
    idMap.record('reviews', first);
    expect(stored().map((r) => [r.productId, r.approved, r.rating])).toEqual([
      [productOf('p1'), '1', 5],
      [productOf('p1'), '0', 2],
      [productOf('p2'), 'trash', 1],
      [productOf('p2'), 'spam', 4],
    ]);
    const back = await readAll(connection, 'reviews');
    const bySource = new Map(first.map((o) => [o.destinationId, o.sourceId]));
    const products = new Map([
      [String(productOf('p1')), 'p1'],
      [String(productOf('p2')), 'p2'],
    ]);
    const asSource = back
      .map((r) => ({ ...r, id: bySource.get(r.id) ?? r.id, productId: products.get(r.productId) }))
      .sort((a, b) => a.id.localeCompare(b.id));
    expect(asSource).toEqual(
      records().map((r) => ({
        ...r,
        // No headline at WooCommerce (declared), and rel "nofollow ugc" on the links.
        title: '',
        body: r.body.replace('href="https://spam.example/"', '$& rel="nofollow ugc"'),
      })),
    );
    expect(await connection.count('reviews')).toBe(4);

    const again = await connection.write('reviews', records(), idMap);
    expect(again.map((o) => [o.outcome, o.reason])).toEqual(
      records().map(() => ['skipped', 'Already up to date.']),
    );
    expect(stored().length).toBe(4);
  });

  it('updates a changed review in place when its text is plain, and writes it anew when an update would reduce the text’s formatting', async () => {
    const first = await connection.write('reviews', records(), idMap);
    idMap.record('reviews', first);
    const changed = records().map((r) =>
      r.id === '1'
        ? { ...r, status: 'pending' as const }
        : r.id === '2'
          ? { ...r, status: 'approved' as const, rating: 3 }
          : r.id === '3'
            ? { ...r, body: 'Arrived broken; the replacement was fine.' }
            : r,
    );
    const second = await connection.write('reviews', changed, idMap);
    expect(second.map((o) => o.outcome)).toEqual(['updated', 'updated', 'updated', 'skipped']);
    // Plain text: the same review, changed in place.
    expect(second[1]?.destinationId).toBe(first[1]?.destinationId);
    // Formatted text: a new copy, the old one deleted, the formatting kept.
    expect(second[0]?.destinationId).not.toBe(first[0]?.destinationId);
    expect(second[0]?.warnings).toBeUndefined();
    const one = emu.store.reviews.all.get(Number(second[0]?.destinationId));
    expect(one).toMatchObject({ approved: '0', content: changed[0]?.body });
    expect(emu.store.reviews.all.has(Number(first[0]?.destinationId))).toBe(false);
    // A changed text is written anew too (WordPress would filter it on an update).
    expect(second[2]?.destinationId).not.toBe(first[2]?.destinationId);
    expect(emu.store.reviews.all.get(Number(second[2]?.destinationId))).toMatchObject({
      approved: 'trash',
      content: 'Arrived broken; the replacement was fine.',
    });
    expect(stored().length).toBe(4);
    idMap.record('reviews', second);
    const third = await connection.write('reviews', changed, idMap);
    expect(third.map((o) => o.outcome)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
  });

  it('finds the reviews a batch whose answer was lost created, counts them created, and creates none twice', async () => {
    const { http, lost } = losingFirstAnswer();
    const lossy = connect(emu, http);
    const outcomes = await lossy.write('reviews', records(), idMap);
    expect(lost()).toBe(true);
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'created', 'created', 'created']);
    expect(new Set(outcomes.map((o) => o.destinationId)).size).toBe(4);
    expect(stored().length).toBe(4);
    expect(lossy.transportStats?.()).toMatchObject({ recoveries: 1, recovered: 4 });
  });

  it('finds the reviews an earlier run wrote on the products it wrote when the id map was lost, and updates them as its own', async () => {
    idMap.record('reviews', await connection.write('reviews', records(), idMap));
    const forgetful = new MemoryIdMap();
    forgetful.record('products', [
      { sourceId: 'p1', outcome: 'created', destinationId: String(productOf('p1')) },
      { sourceId: 'p2', outcome: 'created', destinationId: String(productOf('p2')) },
    ]);
    const later = connect(emu);
    const again = await later.write('reviews', records(), forgetful);
    expect(again.map((o) => [o.outcome, o.reason])).toEqual(
      records().map(() => ['skipped', 'Already up to date.']),
    );
    expect(again.map((o) => o.destinationId)).toEqual(
      records().map((r) => idMap.get('reviews', r.id)),
    );
    const found = await later.write(
      'reviews',
      records().map((r) => (r.id === '2' ? { ...r, status: 'spam' as const } : r)),
      forgetful,
    );
    expect(found.map((o) => o.outcome)).toEqual(['skipped', 'updated', 'skipped', 'skipped']);
    expect(emu.store.reviews.all.get(Number(idMap.get('reviews', '2')))?.approved).toBe('spam');
    expect(stored().length).toBe(4);
  });

  it('links the merchant’s own review on the merchant’s product and never changes it, and fails one WordPress refuses as repeating the merchant’s', async () => {
    const mine = review('m', 'pm', { body: 'Lovely.', status: 'pending', rating: 2 });
    const merchants = emu.store.reviews.create(
      {
        product_id: productOf('pm'),
        reviewer: mine.reviewerName,
        reviewer_email: mine.reviewerEmail,
        review: mine.body,
        rating: 5,
        date_created_gmt: mine.createdAt,
      },
      '',
    );
    const repeated = review('d', 'pm', {
      reviewerName: 'Sam',
      reviewerEmail: 'sam@example.com',
      body: 'Same words.',
      createdAt: '2025-01-01T00:00:00.000Z',
    });
    emu.store.reviews.create(
      {
        product_id: productOf('pm'),
        reviewer: 'Sam',
        reviewer_email: 'SAM@example.com',
        review: 'Same words.',
        rating: 4,
        date_created_gmt: '2020-01-01T00:00:00Z',
      },
      '',
    );
    const outcomes = await connection.write('reviews', [mine, repeated], idMap);
    expect(outcomes[0]).toMatchObject({
      outcome: 'skipped',
      destinationId: String(merchants.id),
      reason:
        "A review of this product by Reviewer m, of the same date and text, was already at the destination (the merchant's own, or written by an earlier run); it was linked, not changed. Its rating, status differ from the source's.",
    });
    expect(outcomes[0]?.warnings).toBeUndefined();
    expect(outcomes[1]).toMatchObject({
      outcome: 'failed',
      reason: expect.stringMatching(
        /refuses a review that repeats one of the product's .* review \d+ of 2020-01-01 is the same \(woocommerce_rest_comment_duplicate\)/,
      ),
    });
    idMap.record('reviews', outcomes);
    // Later runs, with the review in the id map and changed at the source: still left alone.
    for (const later of [connection, connect(emu)]) {
      const again = await later.write('reviews', [{ ...mine, status: 'spam' }], idMap);
      expect(again[0]).toMatchObject({
        outcome: 'skipped',
        destinationId: String(merchants.id),
        reason: expect.stringMatching(/left as it is\. Its rating, status differ/),
      });
    }
    expect(emu.store.reviews.all.get(merchants.id)).toMatchObject({ approved: '1', rating: 5 });
    expect(stored().length).toBe(2);
  });

  it('writes reviews on the merchant’s product and updates them in the same connection; a later connection cannot tell them from the merchant’s and leaves them as they are', async () => {
    const ours = review('o', 'pm', { body: 'Plain.' });
    const first = await connection.write('reviews', [ours], idMap);
    expect(first[0]?.outcome).toBe('created');
    idMap.record('reviews', first);
    const changed = { ...ours, rating: 1 };
    expect((await connection.write('reviews', [changed], idMap))[0]?.outcome).toBe('updated');
    const later = await connect(emu).write('reviews', [{ ...changed, rating: 2 }], idMap);
    expect(later[0]).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringMatching(/cannot tell the reviews it wrote from the merchant's own/),
    });
    expect(emu.store.reviews.all.get(Number(first[0]?.destinationId))?.rating).toBe(1);
  });

  it('fails, with the reason, a review the store refuses or cannot hold, and writes the rest', async () => {
    const outcomes = await connection.write(
      'reviews',
      [
        review('long', 'p1', { reviewerName: 'N'.repeat(300) }),
        review('empty', 'p1', { body: '' }),
        review('gone', 'p9'),
        review('fine', 'p1', { reviewerEmail: 'nobody@nowhere' }),
      ],
      idMap,
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['failed', 'failed', 'failed', 'created']);
    expect(outcomes[0]?.reason).toBe(
      'Product review field exceeds maximum length allowed. (woocommerce_rest_reviewer_column_length)',
    );
    expect(outcomes[1]?.reason).toMatch(/refuses a review without text/);
    expect(outcomes[2]?.reason).toMatch(/product \(source id p9\) is not at the destination/);
    expect(outcomes[3]?.warnings).toEqual([
      "WordPress keeps only e-mail addresses it accepts: the reviewer email 'nobody@nowhere' is not one, so the review was written without it.",
    ]);
    expect(stored().map((r) => [r.author, r.email])).toEqual([['Reviewer fine', '']]);
  });

  it('keeps a verified buyer’s review verified, and says when WooCommerce marks a review verified itself', async () => {
    idMap.record(
      'customers',
      await connection.write('customers', [customer('c1', 'buyer@example.com')], idMap),
    );
    idMap.record(
      'orders',
      await connection.write(
        'orders',
        [order('o1', 'p1', { customerId: 'c1', email: 'buyer@example.com', billingAddress: null })],
        idMap,
      ),
    );
    const outcomes = await connection.write(
      'reviews',
      [
        review('v', 'p2', { verified: true }),
        review('b', 'p1', { reviewerEmail: 'buyer@example.com' }),
        review('n', 'p2'),
      ],
      idMap,
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'created', 'created']);
    const verified = outcomes.map((o) =>
      emu.store.reviews.verifiedOf(emu.store.reviews.all.get(Number(o.destinationId))!),
    );
    expect(verified).toEqual([true, true, false]);
    expect(outcomes[1]?.warnings).toEqual([
      'WooCommerce marked the review verified itself: its reviewer has a paid order of this product at the destination.',
    ]);
    expect(outcomes[0]?.warnings).toBeUndefined();
  });
});
