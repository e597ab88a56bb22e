import { describe, expect, it } from 'vitest';
import { reviewSchema, type Review } from '@replatform/canonical/review';
import { reviewEntry } from './from-canonical.ts';
import {
  entryKey,
  mergeReviews,
  parseReviewList,
  ratingOf,
  ratingValue,
  sameRating,
  serializeReviewList,
  shownRating,
  withoutReviewFields,
  type ReviewEntry,
} from './reviews.ts';
import { reviewToCanonical } from './to-canonical.ts';

/** Reviews both ways (list entries to the model and back) and the merging of a product's list. */

const PRODUCT = 'gid://shopify/Product/1001';

const review = (id: string, overrides: Partial<Review> = {}): Review => ({
  id,
  productId: 'p1',
  reviewerName: 'Zoë Ångström',
  reviewerEmail: 'Zoe.Angstrom@example.com',
  rating: 4,
  title: 'Très bien',
  body: '<p>Shipping took a week, though.</p>',
  status: 'approved',
  verified: true,
  createdAt: '2023-05-02T18:40:00.000Z',
  ...overrides,
});

const entry = (key: string, overrides: Partial<ReviewEntry> = {}): ReviewEntry => ({
  key,
  reviewer_name: 'Guest shopper',
  reviewer_email: '',
  rating: 5,
  title: '',
  body_html: '<p>Lovely.</p>',
  status: 'approved',
  verified: false,
  created_at: '2024-01-09T21:30:00.000Z',
  ...overrides,
});

const list = (entries: unknown) => ({ type: 'json', value: JSON.stringify(entries) });

describe('a product reviews list', () => {
  it("reads a list in Replatform's shape, and none when the product has no list", () => {
    expect(parseReviewList(null)).toEqual({ entries: [] });
    const entries = [entry('a'), entry('b', { source_id: '12', extra: 'kept' } as never)];
    expect(parseReviewList(list(entries))).toEqual({ entries });
    // The optional fields may be left out.
    const bare = {
      key: 'c',
      reviewer_name: 'Sam',
      rating: 3,
      body_html: '',
      status: 'pending',
      created_at: '2024-01-09',
    };
    expect(parseReviewList(list([bare]))).toEqual({ entries: [bare] });
  });

  it('tells a list written by someone else, which is then neither read nor overwritten', () => {
    const foreign = (metafield: { type: string; value: string }) => {
      const parsed = parseReviewList(metafield);
      return 'foreign' in parsed ? parsed.foreign : undefined;
    };
    expect(foreign({ type: 'multi_line_text_field', value: 'Great!' })).toBe(
      'it is a multi_line_text_field metafield, not a json list of reviews',
    );
    expect(foreign({ type: 'json', value: '{"reviews": []}' })).toBe('its value is not a list');
    expect(foreign({ type: 'json', value: '[' })).toBe('its value is not JSON');
    expect(foreign(list([{ author: 'Ann', stars: 5, text: 'Good' }]))).toMatch(
      /^its entry 1 is not a review in Replatform's shape \(key, reviewer_name, rating, body_html, status, created_at\)$/,
    );
    expect(foreign(list([entry('a'), entry('b', { rating: 6 })]))).toMatch(/^its entry 2 .*rating/);
    expect(foreign(list([entry('a'), entry('b', { created_at: 'yesterday' })]))).toMatch(
      /created_at/,
    );
    expect(foreign(list([entry('a'), entry('a')]))).toBe("its key 'a' is used twice");
  });

  it('maps an entry to a review and a review to an entry, every field kept', () => {
    const read = reviewToCanonical(PRODUCT, entry('r1', { verified: true, title: 'Wow' }));
    expect(read).toEqual({
      id: '1001:r1',
      productId: PRODUCT,
      reviewerName: 'Guest shopper',
      reviewerEmail: '',
      rating: 5,
      title: 'Wow',
      body: '<p>Lovely.</p>',
      status: 'approved',
      verified: true,
      createdAt: '2024-01-09T21:30:00.000Z',
    });
    expect(reviewSchema.safeParse(read).success).toBe(true);
    // Fields an entry leaves out are the model's neutral values; a date alone is midnight UTC.
    const bare = reviewToCanonical(PRODUCT, {
      key: 'x',
      reviewer_name: 'Sam',
      rating: 2,
      body_html: '',
      status: 'spam',
      created_at: '2024-01-09',
    });
    expect(bare).toMatchObject({
      reviewerEmail: '',
      title: '',
      verified: false,
      createdAt: '2024-01-09T00:00:00.000Z',
    });
    expect(reviewSchema.safeParse(bare).success).toBe(true);

    const written = reviewEntry(review('woo-12', { createdAt: '2023-05-02T20:40:00+02:00' }));
    expect(written.entry).toEqual({
      source_id: 'woo-12',
      reviewer_name: 'Zoë Ångström',
      reviewer_email: 'Zoe.Angstrom@example.com',
      rating: 4,
      title: 'Très bien',
      body_html: '<p>Shipping took a week, though.</p>',
      status: 'approved',
      verified: true,
      created_at: '2023-05-02T18:40:00.000Z',
    });
    // And back: the same review, under the id the entry has at the shop.
    const back = reviewToCanonical(PRODUCT, { key: 'k', ...written.entry });
    expect(back).toEqual({ ...review('1001:k'), productId: PRODUCT });
  });
});

describe('merging reviews into a list', () => {
  const wanted = (id: string, overrides: Partial<Review> = {}) =>
    reviewEntry(review(id, overrides));

  it('adds a new review under a key made from its source id, after the entries there', () => {
    const merchant = entry('m1');
    const { entries, results, changed } = mergeReviews([merchant], [wanted('12')]);
    const key = entryKey('12', new Set());
    expect(key).toMatch(/^r[0-9a-f]{12}$/);
    expect(results.get('12')).toEqual({ kind: 'created', key, write: true });
    expect(changed).toBe(true);
    expect(entries).toEqual([merchant, { key, ...wanted('12').entry }]);
    // The same source id makes the same key; a key taken in the list gets a suffix.
    expect(entryKey('12', new Set([key]))).toBe(`${key}-2`);
    expect(entryKey('12', new Set([key, `${key}-2`]))).toBe(`${key}-3`);
  });

  it('leaves a review written before as it is, and updates one that changed in its place', () => {
    const first = mergeReviews([entry('m1')], [wanted('12'), wanted('13')]).entries;
    const again = mergeReviews(first, [wanted('12'), wanted('13')]);
    expect(again.changed).toBe(false);
    expect([...again.results.values()].map((r) => r.kind)).toEqual(['skipped', 'skipped']);

    // Fields of an entry beyond Replatform's are kept when it is rewritten.
    const extended = first.map((e) => (e.source_id === '12' ? { ...e, helpful_votes: 3 } : e));
    const changed = mergeReviews(extended, [wanted('12', { status: 'rejected' }), wanted('13')]);
    expect(changed.changed).toBe(true);
    expect(changed.results.get('12')).toEqual({
      kind: 'updated',
      key: first[1]?.key,
      write: true,
    });
    expect(changed.entries.map((e) => e.key)).toEqual(first.map((e) => e.key));
    expect(changed.entries[1]).toMatchObject({ status: 'rejected', helpful_votes: 3 });
    // The same instant in another notation is no change.
    const notation = mergeReviews(first, [
      wanted('12', { createdAt: '2023-05-02T20:40:00+02:00' }),
    ]);
    expect(notation.changed).toBe(false);
  });

  it('counts a review a lost answer had already written as created by this write', () => {
    const before = [entry('m1')];
    const landed = mergeReviews(before, [wanted('12')]).entries;
    const retry = mergeReviews(landed, [wanted('12')], before);
    expect(retry.changed).toBe(false);
    expect(retry.results.get('12')).toMatchObject({ kind: 'created', write: false });
  });

  it("links the merchant's own copy of a review by reviewer, date and text, and never changes it", () => {
    const own = entry('m1', {
      reviewer_name: 'Zoë Ångström ',
      reviewer_email: 'zoe.angstrom@EXAMPLE.com',
      created_at: '2023-05-02T20:40:00+02:00',
      body_html: '<p>Shipping took a week, though.</p>',
      rating: 5,
      title: '',
    });
    const merged = mergeReviews([own], [wanted('12')]);
    expect(merged.results.get('12')).toEqual({ kind: 'linked', key: 'm1' });
    expect(merged.changed).toBe(false);
    expect(merged.entries).toEqual([own]);
    // Another review with the same reviewer, date and text is a review of its own.
    const twice = mergeReviews([own], [wanted('12'), wanted('13')]);
    expect(twice.results.get('13')).toMatchObject({ kind: 'created' });
    // Another text is another review.
    const other = mergeReviews([own], [wanted('14', { body: '<p>Other.</p>' })]);
    expect(other.results.get('14')).toMatchObject({ kind: 'created' });
    // A migration's copy of another review is found by its source id only.
    const copies = mergeReviews([], [wanted('15')]).entries;
    expect(mergeReviews(copies, [wanted('16')]).results.get('16')).toMatchObject({
      kind: 'created',
    });
  });

  it('writes no review that would take the list past the size limit, and the others', () => {
    const small = mergeReviews([], [wanted('1')]).entries;
    const limit = Buffer.byteLength(serializeReviewList(small)) + 600;
    const merged = mergeReviews(
      small,
      [wanted('2', { body: 'x'.repeat(2_000) }), wanted('3'), wanted('1', { rating: 1 })],
      small,
      limit,
    );
    expect(merged.results.get('2')).toEqual({ kind: 'too large', bytes: expect.any(Number) });
    expect(merged.results.get('3')).toMatchObject({ kind: 'created' });
    expect(merged.results.get('1')).toMatchObject({ kind: 'updated' });
    expect(Buffer.byteLength(serializeReviewList(merged.entries))).toBeLessThanOrEqual(limit);
    expect(merged.entries.map((e) => e.source_id)).toEqual(['1', '3']);
    // The size counted as it goes is the size of the list written.
    const exact = mergeReviews(small, [wanted('3')], small, Number.MAX_SAFE_INTEGER);
    const grown = Buffer.byteLength(serializeReviewList(exact.entries));
    expect(mergeReviews(small, [wanted('3')], small, grown).results.get('3')?.kind).toBe('created');
    expect(mergeReviews(small, [wanted('3')], small, grown - 1).results.get('3')).toEqual({
      kind: 'too large',
      bytes: grown,
    });
  });
});

describe('the star rating', () => {
  it('is the average of the approved reviews, to two places, and their count', () => {
    const stars = (...ratings: [number | null, ReviewEntry['status']][]) =>
      ratingOf(ratings.map(([rating, status], i) => entry(String(i), { rating, status })));
    expect(stars([5, 'approved'], [4, 'approved'], [1, 'spam'])).toEqual({
      value: '4.5',
      count: 2,
    });
    expect(stars([5, 'approved'])).toEqual({ value: '5.0', count: 1 });
    expect(stars([5, 'approved'], [5, 'approved'], [4, 'approved'])).toEqual({
      value: '4.67',
      count: 3,
    });
    expect(stars([2, 'pending'], [1, 'rejected'])).toBeNull();
    // A review given without stars counts in neither.
    expect(stars([4, 'approved'], [null, 'approved'])).toEqual({ value: '4.0', count: 1 });
    expect(stars([null, 'approved'])).toBeNull();
    expect(ratingValue({ value: '4.5', count: 2 })).toBe(
      '{"value":"4.5","scale_min":"1.0","scale_max":"5.0"}',
    );
  });

  it('tells stars worked out from the list from stars another app keeps', () => {
    const rating = (value: string) => ({
      type: 'rating',
      value: JSON.stringify({ value, scale_min: '1.0', scale_max: '5.0' }),
    });
    const count = (n: number) => ({ type: 'number_integer', value: String(n) });
    expect(shownRating(null, null)).toBeNull();
    expect(shownRating(rating('4.50'), count(2))).toEqual({ value: '4.5', count: 2 });
    expect(shownRating(rating('4.5'), null)).toBe('other');
    expect(shownRating({ type: 'rating', value: 'null' }, count(2))).toBe('other');
    expect(sameRating(shownRating(rating('4.50'), count(2)), { value: '4.5', count: 2 })).toBe(
      true,
    );
    expect(sameRating(shownRating(rating('4.4'), count(2)), { value: '4.5', count: 2 })).toBe(
      false,
    );
    expect(sameRating(null, null)).toBe(true);
    expect(sameRating('other', null)).toBe(false);
  });

  it("leaves the list and its stars out of the product's own metafields, not another app's", () => {
    const field = (namespace: string, key: string, type: string, value: string) => ({
      namespace,
      key,
      type,
      value,
    });
    const reviews = [entry('a', { rating: 5 }), entry('b', { rating: 4 })];
    const theirs = field('reviews', 'rating', 'rating', ratingValue({ value: '4.5', count: 2 }));
    const count = field('reviews', 'rating_count', 'number_integer', '2');
    const care = field('custom', 'care', 'single_line_text_field', 'Wash cold');
    const ours = field('replatform', 'reviews', 'json', JSON.stringify(reviews));
    expect(withoutReviewFields([care, ours, theirs, count])).toEqual([care]);
    // Stars that do not come from the list are another app's: kept.
    const app = field('reviews', 'rating', 'rating', ratingValue({ value: '3.9', count: 120 }));
    const appCount = field('reviews', 'rating_count', 'number_integer', '120');
    expect(withoutReviewFields([care, ours, app, appCount])).toEqual([care, app, appCount]);
    expect(withoutReviewFields([care, app, appCount])).toEqual([care, app, appCount]);
    // A list in another shape is the product's own metafield.
    const foreign = field('replatform', 'reviews', 'json', '{"widget":true}');
    expect(withoutReviewFields([foreign, app, appCount])).toEqual([foreign, app, appCount]);
  });
});
