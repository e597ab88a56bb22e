import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSampleStore } from '../framework/sample-store.ts';
import {
  startBigCommerceEmulator,
  type RunningBigCommerceEmulator,
} from './bigcommerce-emulator.ts';
import { BigCommerceSpec } from './openapi-validator.ts';

const spec = new BigCommerceSpec();
const sample = { seed: 11, products: 12, customers: 4, orders: 8 };

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** Requests checked against products_catalog.v3.yml, and answers too when the store took them. */
function client(emulator: RunningBigCommerceEmulator, token = emulator.accessToken) {
  return async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const url = `${emulator.url}/stores/${emulator.storeHash}${path}`;
    const headers = {
      'X-Auth-Token': token,
      Accept: 'application/json',
      'Content-Type': 'application/json',
    };
    const text = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(url, { method, headers, body: text });
    const raw = await response.text();
    const parsed: unknown = raw ? JSON.parse(raw) : undefined;
    if (response.status < 300) {
      expect(spec.validateRequest({ method, url, headers, body: text })).toEqual([]);
      expect(spec.validateResponse(method, url, { status: response.status, body: parsed })).toEqual(
        [],
      );
    }
    return { status: response.status, headers: response.headers, body: parsed };
  };
}

type Review = Record<string, unknown> & { id: number; product_id: number };
const data = (answer: Answer) => (answer.body as { data: Review[] }).data;
const one = (answer: Answer) => (answer.body as { data: Review }).data;

const newReview = {
  title: 'Solid and well made',
  text: 'Holds up after a year of daily use.',
  status: 'approved',
  rating: 4,
  email: 'ada@example.com',
  name: 'Ada L.',
  date_reviewed: '2024-05-06T07:08:09+00:00',
};

describe('BigCommerce emulator: product reviews (catalog v3)', () => {
  let store: RunningBigCommerceEmulator;
  let call: ReturnType<typeof client>;
  /** Destination product id of each sample product key. */
  let productOf: (key: string) => number;

  beforeAll(async () => {
    store = await startBigCommerceEmulator({ seed: sample, plan: 'unlimited' });
    call = client(store);
    const generated = generateSampleStore(sample);
    const ids = store.state.products.map((p) => p.id);
    productOf = (key) => ids[generated.products.findIndex((p) => p.key === key)] ?? 0;
  });
  afterAll(async () => {
    await store.close();
  });
  /** The n-th product the seed gave no review. */
  const unreviewed = (n: number) =>
    store.state.products.filter((p) => !store.state.reviews.some((r) => r.product_id === p.id))[n]
      ?.id ?? 0;

  it("seeds the sample's reviews as BigCommerce holds them", async () => {
    const generated = generateSampleStore(sample);
    expect(store.countStored('reviews')).toBe(generated.reviews.length);
    expect(generated.reviews).toHaveLength(7);
    const seeded = [];
    for (const r of generated.reviews) {
      const list = data(
        await call('GET', `/v3/catalog/products/${productOf(r.productKey)}/reviews`),
      );
      const found = list.find((x) => x.name === r.reviewerName);
      expect(found, r.key).toBeDefined();
      seeded.push({ sample: r, review: found as Review });
    }
    const byKey = new Map(seeded.map((s) => [s.sample.key, s.review]));
    expect(byKey.get('review-1')).toMatchObject({
      title: 'Exactly as described',
      text: 'Fits well and the colour is exactly as in the photos.',
      status: 'approved',
      rating: 5,
      email: 'maya.lindqvist@example.com',
      date_reviewed: '2023-04-12T10:15:00+00:00',
      date_created: '2023-04-12T10:15:00+00:00',
    });
    // No headline in the sample: BigCommerce requires a title, so the text's first sentence.
    expect(byKey.get('review-2')).toMatchObject({
      title: 'Très bien.',
      text: 'Très bien. Shipping took a week, though.\n\nWould buy again.',
      name: 'Zoë Ångström',
    });
    // A guest without an address; waiting for moderation.
    expect(byKey.get('review-4')).toMatchObject({
      title: 'Smaller than I expected.',
      email: '',
      status: 'pending',
    });
    // Rejected and spam are both disapproved: BigCommerce has no spam state.
    expect(byKey.get('review-5')).toMatchObject({ status: 'disapproved', rating: 1 });
    expect(byKey.get('review-6')).toMatchObject({ status: 'disapproved' });
    expect(byKey.get('review-7')).toMatchObject({
      text: 'Second one for my brother & he loves it too.',
    });
  });

  it('counts only approved reviews in the product aggregates', async () => {
    const generated = generateSampleStore(sample);
    const product = (key: string) => store.state.product(productOf(key));
    // The first product has two approved reviews (5 and 4 stars).
    expect(product(generated.products[0]?.key ?? '')).toMatchObject({
      reviews_count: 2,
      reviews_rating_sum: 9,
    });
    // The third has only disapproved reviews: none counted, although it has two.
    const third = generated.products[2]?.key ?? '';
    expect(product(third)).toMatchObject({ reviews_count: 0, reviews_rating_sum: 0 });
    expect(
      data(await call('GET', `/v3/catalog/products/${productOf(third)}/reviews`)),
    ).toHaveLength(2);
    const listed = await call(
      'GET',
      `/v3/catalog/products?id=${productOf(third)}&include_fields=reviews_count,reviews_rating_sum`,
    );
    expect(data(listed)[0]).toEqual({
      id: productOf(third),
      reviews_count: 0,
      reviews_rating_sum: 0,
    });
  });

  it('lists with page, limit and the status filter; 204 for a product without reviews', async () => {
    const generated = generateSampleStore(sample);
    const first = productOf(generated.products[0]?.key ?? '');
    const second = productOf(generated.products[1]?.key ?? '');
    const page = await call('GET', `/v3/catalog/products/${first}/reviews?limit=1&page=2`);
    expect(data(page)).toHaveLength(1);
    expect((page.body as { meta: { pagination: unknown } }).meta.pagination).toMatchObject({
      total: 2,
      count: 1,
      per_page: 1,
      current_page: 2,
      total_pages: 2,
    });
    const pending = data(await call('GET', `/v3/catalog/products/${second}/reviews?status=0`));
    expect(pending.map((r) => r.status)).toEqual(['pending']);
    const approved = data(await call('GET', `/v3/catalog/products/${second}/reviews?status=1`));
    expect(approved.map((r) => r.status)).toEqual(['approved']);
    const last = productOf(generated.products[11]?.key ?? '');
    const none = await call('GET', `/v3/catalog/products/${last}/reviews`);
    expect(none).toMatchObject({ status: 204, body: undefined });
    expect((await call('GET', '/v3/catalog/products/987654/reviews')).status).toBe(404);
  });

  it('creates, reads, updates and deletes a review, keeping the aggregates', async () => {
    const productId = unreviewed(0);
    const product = store.state.product(productId);
    const created = await call('POST', `/v3/catalog/products/${productId}/reviews`, newReview);
    expect(created.status).toBe(200);
    const review = one(created);
    expect(review).toMatchObject({ ...newReview, product_id: productId });
    expect(review.date_created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    expect(product).toMatchObject({ reviews_count: 1, reviews_rating_sum: 4 });
    const path = `/v3/catalog/products/${productId}/reviews/${review.id}`;
    expect(one(await call('GET', path))).toEqual(review);
    // include_fields keeps the id and what the answer's schema requires.
    expect(one(await call('GET', `${path}?include_fields=name`))).toEqual({
      id: review.id,
      name: 'Ada L.',
      title: review.title,
      date_reviewed: review.date_reviewed,
    });
    const updated = await call('PUT', path, {
      title: newReview.title,
      date_reviewed: newReview.date_reviewed,
      status: 'pending',
      rating: 2,
    });
    expect(one(updated)).toMatchObject({ status: 'pending', rating: 2, text: newReview.text });
    expect(product).toMatchObject({ reviews_count: 0, reviews_rating_sum: 0 });
    expect((await call('DELETE', path)).status).toBe(204);
    expect((await call('GET', path)).status).toBe(404);
    expect((await call('PUT', path, newReview)).status).toBe(404);
    // Left out, the status is pending and the rest empty.
    const bare = one(
      await call('POST', `/v3/catalog/products/${productId}/reviews`, {
        title: 'Bare',
        date_reviewed: '2024-01-01T00:00:00Z',
      }),
    );
    expect(bare).toMatchObject({ status: 'pending', rating: 0, email: '', name: '', text: '' });
  });

  it('refuses invalid reviews with 422, as the description (and the live API) define them', async () => {
    const productId = unreviewed(1);
    const before = store.countStored('reviews');
    const refused = async (body: unknown, method = 'POST', path = '') => {
      const answer = await call(method, `/v3/catalog/products/${productId}/reviews${path}`, body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      return JSON.stringify(answer.body);
    };
    const { title: _title, ...noTitle } = newReview;
    expect(await refused(noTitle)).toContain('title');
    expect(await refused({ ...newReview, title: '  ' })).toContain('a review needs a title');
    expect(await refused({ ...newReview, title: 'T'.repeat(256) })).toContain('title');
    const { date_reviewed: _date, ...noDate } = newReview;
    expect(await refused(noDate)).toContain('date_reviewed');
    expect(await refused({ ...newReview, date_reviewed: '12/05/2024' })).toContain('date-time');
    expect(await refused({ ...newReview, rating: 6 })).toContain('rating');
    expect(await refused({ ...newReview, rating: 4.5 })).toContain('rating');
    expect(await refused({ ...newReview, status: 'spam' })).toContain('status');
    expect(await refused({ ...newReview, email: '' })).toContain('valid email');
    expect(await refused({ ...newReview, email: 'not an address' })).toContain('valid email');
    expect(await refused({ ...newReview, name: 'N'.repeat(256) })).toContain('name');
    expect(await refused({ ...newReview, id: 5 })).toContain('id');
    expect(await refused({ ...newReview, product_id: productId })).toContain('product_id');
    // The validator agrees where the description is as strict.
    const validate = (body: unknown) =>
      spec.validateRequest({
        method: 'POST',
        url: `${store.url}/stores/${store.storeHash}/v3/catalog/products/${productId}/reviews`,
        headers: { 'X-Auth-Token': 't', Accept: 'application/json' },
        body: JSON.stringify(body),
      });
    expect(validate(noTitle).join('\n')).toContain("'title'");
    expect(validate({ ...newReview, date_created: '2024-01-01T00:00:00Z' }).join('\n')).toContain(
      "('date_created')",
    );
    // A PUT takes the review whole (Product Review Put requires title and date_reviewed).
    const created = one(await call('POST', `/v3/catalog/products/${productId}/reviews`, newReview));
    expect(await refused({ rating: 3 }, 'PUT', `/${created.id}`)).toContain('title');
    expect(store.countStored('reviews')).toBe(before + 1);
  });

  it("needs the Products scope, and a product's reviews go with it", async () => {
    const other = await startBigCommerceEmulator({
      seed: sample,
      plan: 'unlimited',
      apiAccounts: [{ accessToken: 'reader', scopes: ['store_v2_products_read_only'] }],
    });
    try {
      const reader = client(other, 'reader');
      const productId = other.state.reviews[0]?.product_id ?? 0;
      expect((await reader('GET', `/v3/catalog/products/${productId}/reviews`)).status).toBe(200);
      const write = await reader('POST', `/v3/catalog/products/${productId}/reviews`, newReview);
      expect(write.status).toBe(403);
      const owner = client(other);
      const reviews = other.state.reviews.filter((r) => r.product_id === productId).length;
      expect(reviews).toBeGreaterThan(0);
      expect((await owner('DELETE', `/v3/catalog/products/${productId}`)).status).toBe(204);
      expect(other.countStored('reviews')).toBe(7 - reviews);
    } finally {
      await other.close();
    }
  });

  it('counts review requests against the store quota', async () => {
    const limited = await startBigCommerceEmulator({
      seed: sample,
      plan: 'unlimited',
      quota: { quota: 3, windowMs: 60_000 },
    });
    try {
      const productId = limited.state.reviews[0]?.product_id ?? 0;
      const path = `/stores/${limited.storeHash}/v3/catalog/products/${productId}/reviews`;
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const answer = await fetch(`${limited.url}${path}`, {
          headers: { 'X-Auth-Token': limited.accessToken },
        });
        statuses.push(answer.status);
        if (i === 0) expect(answer.headers.get('x-rate-limit-requests-left')).toBe('2');
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(limited.quotaStats().limited).toBe(1);
    } finally {
      await limited.close();
    }
  });
});
