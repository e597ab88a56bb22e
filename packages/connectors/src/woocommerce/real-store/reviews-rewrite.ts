import { beforeAll, describe, expect, it } from 'vitest';
import type { Review } from '@replatform/canonical/review';
import { MemoryIdMap } from '../../kit/conformance/conformance-suite.ts';
import type { Connection } from '../../kit/contract.ts';
import type { HttpClient } from '../../kit/http/http-client.ts';
import { product, review } from '../test-records.ts';
import { wooCommerceConnector } from '../woocommerce.ts';
import { NativeReader } from './native.ts';
import { resetStore, type RealStore } from './real-stores.ts';

/**
 * The connector's writes of reviews that change between runs, on a real WooCommerce 11.0.1 store:
 * what the conformance suite's rewrite does not reach (it writes the same reviews again). A
 * review whose status or stars changed is updated in place when its text is plain; one with
 * formatted text, or whose text changed, is written anew with its formatting, the old copy
 * deleted; the merchant's own review on the merchant's own product is linked and left alone, also
 * by a later connection that finds it in the id map.
 */
export function describeReviewRewrites(
  store: RealStore,
  kit: string,
  http: () => HttpClient,
): void {
  describe(`WooCommerce review rewrites on the real store '${store.name}'`, () => {
    let connection: Connection;
    let api: NativeReader;
    const idMap = new MemoryIdMap();

    beforeAll(async () => {
      await resetStore(kit, store);
      api = new NativeReader(http(), store);
      connection = wooCommerceConnector.connect(store.credentials, { http: http() });
      // The merchant's own product, with the SKU of the source's product rwm: linked.
      await api.send('POST', 'wc/v3/products', { name: 'Eigenes', sku: 'SKU-rwm' });
      idMap.record(
        'products',
        await connection.write('products', [product('rw1'), product('rwm')], idMap),
      );
    }, 120_000);

    const stored = async () =>
      new Map((await api.reviews()).map((r) => [String(r.id), r as Record<string, unknown>]));

    it('skips unchanged reviews, updates plain ones in place, writes formatted or changed ones anew, and leaves the merchant’s alone', async () => {
      const records: Review[] = [
        review('plain', 'rw1', { body: 'Plain words, no markup.' }),
        review('html', 'rw1', { body: '<p>Two</p>\n<p>paragraphs &amp; <em>style</em>.</p>' }),
        review('text', 'rw1', { body: 'Old words.', status: 'pending' }),
        review('theirs', 'rwm', { body: 'Also said at the destination.' }),
      ];
      const theirs = await api.send('POST', 'wc/v3/products/reviews', {
        product_id: Number(idMap.get('products', 'rwm')),
        reviewer: 'Reviewer theirs',
        reviewer_email: 'reviewer-theirs@example.com',
        review: 'Also said at the destination.',
        rating: 2,
        date_created_gmt: '2024-03-04T05:06:07',
      });
      const first = await connection.write('reviews', records, idMap);
      expect(first.map((o) => o.outcome)).toEqual(['created', 'created', 'created', 'skipped']);
      expect(first[3]?.destinationId).toBe(String(theirs.body.id));
      idMap.record('reviews', first);
      expect((await connection.write('reviews', records, idMap)).map((o) => o.outcome)).toEqual([
        'skipped',
        'skipped',
        'skipped',
        'skipped',
      ]);

      const changed = records.map((r) =>
        r.id === 'text'
          ? { ...r, body: 'New words.' }
          : r.id === 'theirs'
            ? { ...r, rating: 5 }
            : { ...r, status: 'spam' as const, rating: 1 },
      );
      const second = await connection.write('reviews', changed, idMap);
      expect(second.map((o) => o.outcome)).toEqual(['updated', 'updated', 'updated', 'skipped']);
      expect(second[0]?.destinationId).toBe(first[0]?.destinationId);
      expect(second[1]?.destinationId).not.toBe(first[1]?.destinationId);
      expect(second[2]?.destinationId).not.toBe(first[2]?.destinationId);
      const now = await stored();
      expect(now.size).toBe(4);
      expect(now.get(second[0]?.destinationId ?? '')).toMatchObject({
        status: 'spam',
        rating: 1,
        review: 'Plain words, no markup.',
      });
      expect(now.get(second[1]?.destinationId ?? '')).toMatchObject({
        status: 'spam',
        rating: 1,
        review: '<p>Two</p>\n<p>paragraphs &amp; <em>style</em>.</p>',
        date_created_gmt: '2024-03-04T05:06:07',
      });
      expect(now.get(second[2]?.destinationId ?? '')).toMatchObject({
        status: 'hold',
        review: 'New words.',
      });
      expect(now.get(String(theirs.body.id))).toMatchObject({ rating: 2 });
      idMap.record('reviews', second);
      const later = wooCommerceConnector.connect(store.credentials, { http: http() });
      expect((await later.write('reviews', changed, idMap)).map((o) => o.outcome)).toEqual([
        'skipped',
        'skipped',
        'skipped',
        'skipped',
      ]);
      expect((await stored()).get(String(theirs.body.id))).toMatchObject({ rating: 2 });
    });
  });
}
