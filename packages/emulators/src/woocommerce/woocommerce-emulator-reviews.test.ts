import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSampleStore } from '../framework/sample-store.ts';
import { checkResource } from './testing/spec.ts';
import { wcClient } from './testing/signed-fetch.ts';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from './woocommerce-emulator.ts';

/**
 * The product reviews routes (GET/POST products/reviews, products/reviews/{id},
 * products/reviews/batch) as a real WooCommerce 11.0.1 store answers them
 * (real-store/observed-behaviour.ts in the connectors checks the same on a real store).
 */

type Obj = Record<string, unknown>;
const counts = { products: 6, customers: 3, orders: 6 };
const route = '/wc/v3/products/reviews';

function client(emu: RunningWooCommerceEmulator) {
  return wcClient({
    baseUrl: emu.url,
    consumerKey: emu.consumerKey,
    consumerSecret: emu.consumerSecret,
  });
}

describe('WooCommerce emulator reviews of a seeded store', () => {
  let emu: RunningWooCommerceEmulator;
  let wc: ReturnType<typeof client>;
  const sample = generateSampleStore(counts);
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({ seed: counts });
    wc = client(emu);
  });
  afterAll(async () => {
    await emu.close();
  });

  const list = async (query: Obj) =>
    (
      await wc.call('GET', '/products/reviews', {
        query: { per_page: 100, context: 'edit', orderby: 'id', order: 'asc', ...query },
      })
    ).body as Obj[];

  it("holds the sample's reviews in WooCommerce's statuses and answers the route's schema", async () => {
    const every = await list({ status: 'any' });
    expect(every.map((r) => r.reviewer)).toEqual(sample.reviews.map((r) => r.reviewerName));
    for (const review of every) expect(checkResource(route, review)).toEqual([]);
    expect(every.map((r) => r.status)).toEqual(
      sample.reviews.map(
        (r) =>
          ({ approved: 'approved', pending: 'hold', rejected: 'trash', spam: 'spam' })[r.status],
      ),
    );
    expect(every.map((r) => r.date_created_gmt)).toEqual(
      sample.reviews.map((r) => r.createdAt.slice(0, 19)),
    );
    expect(every.map((r) => r.verified)).toEqual(sample.reviews.map((r) => r.verified));
    expect(every.map((r) => r.review)).toEqual(sample.reviews.map((r) => r.body));
    const guest = every.find((r) => r.reviewer === 'Guest shopper') as Obj;
    expect(guest).toMatchObject({ reviewer_email: '', status: 'hold' });
    expect((guest.reviewer_avatar_urls as Obj)['24']).toBe(
      'https://secure.gravatar.com/avatar/?s=24&d=mm&r=g',
    );
    const products = (await wc.call('GET', '/products', { query: { per_page: 100 } }))
      .body as Obj[];
    const first = products.find((p) => p.sku === sample.products[0]?.sku) as Obj;
    expect(every[0]).toMatchObject({ product_id: first.id, product_name: first.name });
    expect(emu.store.counts().reviews).toBe(sample.reviews.length);
  });

  it('lists approved reviews by default, approved and held ones for status=all, and every status for status=any', async () => {
    const statusOf = async (status?: string) =>
      (await list(status === undefined ? {} : { status })).map((r) => r.status);
    expect(new Set(await statusOf())).toEqual(new Set(['approved']));
    expect(new Set(await statusOf('all'))).toEqual(new Set(['approved', 'hold']));
    expect(await statusOf('spam')).toEqual(['spam']);
    expect(await statusOf('trash')).toEqual(['trash']);
    expect((await statusOf('any')).length).toBe(sample.reviews.length);
    // Newest first by default; in the view context the text is formatted with paragraphs.
    const view = (await wc.call('GET', '/products/reviews', { query: { per_page: 100 } }))
      .body as Obj[];
    const dates = view.map((r) => String(r.date_created_gmt));
    expect(dates).toEqual([...dates].sort().reverse());
    const plain = view.find((r) => r.reviewer === 'Sam Okafor') as Obj;
    expect(plain.review).toMatch(/^<p>/);
  });

  it('filters by product and by ids', async () => {
    const every = await list({ status: 'any' });
    const productId = every[0]?.product_id as number;
    const ofProduct = await list({ status: 'any', product: String(productId) });
    expect(ofProduct.length).toBe(every.filter((r) => r.product_id === productId).length);
    const ids = every.slice(0, 3).map((r) => r.id as number);
    expect((await list({ status: 'any', include: ids.join(',') })).map((r) => r.id)).toEqual(ids);
  });

  it('has no reviews when empty or seeded without them', async () => {
    for (const seed of ['empty', { ...counts, reviews: false }] as const) {
      const other = await startWooCommerceEmulator({ seed });
      try {
        const r = await client(other).call('GET', '/products/reviews', {
          query: { status: 'any' },
        });
        expect(r.body).toEqual([]);
      } finally {
        await other.close();
      }
    }
  });
});

describe('WooCommerce emulator review writes', () => {
  let emu: RunningWooCommerceEmulator;
  let wc: ReturnType<typeof client>;
  let productId: number;
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({ seed: 'empty' });
    wc = client(emu);
    const product = await wc.call('POST', '/products', {
      body: { name: 'Becher', sku: 'MUG', regular_price: '10' },
    });
    productId = (product.body as Obj).id as number;
  });
  afterAll(async () => {
    await emu.close();
  });

  const create = async (body: Obj) => wc.call('POST', '/products/reviews', { body });
  const review = (over: Obj = {}) => ({
    product_id: productId,
    reviewer: 'Ann',
    reviewer_email: 'ann@example.com',
    review: 'Fine.',
    rating: 4,
    ...over,
  });

  it('needs a product, a name, an address field and a text; an empty or unusable address is kept as none', async () => {
    const missing = await create({ product_id: productId, reviewer: 'A', review: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({
      code: 'rest_missing_callback_param',
      data: { params: ['reviewer_email'] },
    });
    const noProduct = await create(review({ product_id: 999999 }));
    expect(noProduct).toMatchObject({
      status: 404,
      body: { code: 'woocommerce_rest_product_invalid_id', message: 'Invalid product ID.' },
    });
    for (const text of ['', '0']) {
      const empty = await create(review({ review: text }));
      expect(empty.status, text).toBe(400);
      expect(empty.body).toMatchObject({ code: 'woocommerce_rest_review_content_invalid' });
    }
    const guest = await create(review({ reviewer: 'Guest', reviewer_email: '', review: 'g' }));
    expect(guest.status).toBe(201);
    expect(guest.body).toMatchObject({ reviewer_email: '', status: 'approved', verified: false });
    const bad = await create(review({ reviewer_email: 'not-an-address', review: 'b' }));
    expect((bad.body as Obj).reviewer_email).toBe('');
    const long = await create(review({ reviewer: 'x'.repeat(246), review: 'long' }));
    expect(long).toMatchObject({
      status: 400,
      body: {
        code: 'woocommerce_rest_reviewer_column_length',
        message: 'Product review field exceeds maximum length allowed.',
      },
    });
  });

  it('saves the name as plain text, keeps the HTML of the text with rel "nofollow ugc" on its links, and takes the date and rating it is given', async () => {
    const r = await create(
      review({
        reviewer: '  Tom & <b>Jerry</b>\n x ',
        reviewer_email: ' Tom@Example.COM ',
        review:
          '<p>Good & <script>x</script><a href="https://a.example/">a</a> <a href="https://b.example/" rel="noopener">b</a></p>',
        rating: 0,
        date_created_gmt: '2023-04-12T10:15:00',
      }),
    );
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      reviewer: 'Tom &amp; Jerry x',
      reviewer_email: 'Tom@Example.COM',
      review:
        '<p>Good & <script>x</script><a href="https://a.example/" rel="nofollow ugc">a</a> <a href="https://b.example/" rel="noopener nofollow ugc">b</a></p>',
      rating: 0,
      date_created_gmt: '2023-04-12T10:15:00',
    });
    const local = await create(
      review({ reviewer: 'Dated', review: 'd', date_created: '2023-04-12T10:15:00+02:00' }),
    );
    expect((local.body as Obj).date_created_gmt).toBe('2023-04-12T08:15:00');
    const six = await create(review({ reviewer: 'Six', review: 'six', rating: 6 }));
    expect((six.body as Obj).rating).toBe(6);
    const half = await create(review({ reviewer: 'Half', review: 'half', rating: 4.5 }));
    expect(half.body).toMatchObject({ code: 'rest_invalid_param' });
  });

  it('refuses a review repeating one of the product’s (name, address and text in any case) unless it is in the bin', async () => {
    const first = await create(review({ reviewer: 'Bob', review: '<p>Same text.</p>' }));
    expect(first.status).toBe(201);
    const again = await create(
      review({ reviewer: 'BOB', reviewer_email: 'ANN@example.com', review: '<p>SAME text.</p>' }),
    );
    expect(again).toMatchObject({
      status: 409,
      body: {
        code: 'woocommerce_rest_comment_duplicate',
        message: 'Duplicate comment detected; it looks as though you&#8217;ve already said that!',
      },
    });
    const otherDate = await create(
      review({
        reviewer: 'Bob',
        review: '<p>Same text.</p>',
        date_created_gmt: '2020-01-01T00:00:00',
      }),
    );
    expect(otherDate.status).toBe(409);
    // A text with a link is saved with rel added, so the same text is not found again.
    const linked = review({ reviewer: 'Lin', review: 'See <a href="https://x.example/">x</a>' });
    expect((await create(linked)).status).toBe(201);
    expect((await create(linked)).status).toBe(201);
    const id = (first.body as Obj).id as number;
    await wc.call('PUT', `/products/reviews/${id}`, { body: { status: 'trash' } });
    expect((await create(review({ reviewer: 'Bob', review: '<p>Same text.</p>' }))).status).toBe(
      201,
    );
  });

  it('passes the text through the comment filter on any update, and restores the status a review had before spam', async () => {
    const r = await create(
      review({
        reviewer: 'Upd',
        review:
          '<p>Para & <strong>bold</strong> <a href="https://u.example/" rel="noopener">u</a></p>',
      }),
    );
    const id = (r.body as Obj).id as number;
    const held = await wc.call('PUT', `/products/reviews/${id}`, { body: { status: 'hold' } });
    expect(held.body).toMatchObject({
      status: 'hold',
      review:
        'Para &amp; <strong>bold</strong> <a href="https://u.example/" rel="nofollow ugc">u</a>',
    });
    const batch = await wc.call('POST', '/products/reviews/batch', {
      body: { update: [{ id, status: 'spam' }] },
    });
    expect((batch.body as { update: Obj[] }).update[0]).toMatchObject({ id, status: 'spam' });
    const back = await wc.call('PUT', `/products/reviews/${id}`, { body: { status: 'unspam' } });
    expect((back.body as Obj).status).toBe('hold');
    const spam = await create(review({ reviewer: 'Spammer', review: 's', status: 'spam' }));
    const unspammed = await wc.call('PUT', `/products/reviews/${(spam.body as Obj).id}`, {
      body: { status: 'unspam' },
    });
    // Created as spam, it had no status before: held.
    expect((unspammed.body as Obj).status).toBe('hold');
    const dated = await wc.call('PUT', `/products/reviews/${id}`, {
      body: { date_created_gmt: '2021-01-01T00:00:00', rating: 2 },
    });
    expect(dated.body).toMatchObject({ date_created_gmt: '2021-01-01T00:00:00', rating: 2 });
  });

  it('marks a review verified from a paid order of the product by its address, keeps that, and takes verified: true', async () => {
    await wc.call('POST', '/orders', {
      body: {
        status: 'completed',
        billing: { email: 'buyer@example.com' },
        line_items: [{ product_id: productId, quantity: 1 }],
      },
    });
    const pending = await wc.call('POST', '/orders', {
      body: {
        status: 'pending',
        billing: { email: 'later@example.com' },
        line_items: [{ product_id: productId, quantity: 1 }],
      },
    });
    const buyer = await create(
      review({ reviewer: 'Buyer', reviewer_email: 'BUYER@example.com', review: 'bought' }),
    );
    expect((buyer.body as Obj).verified).toBe(true);
    const later = await create(
      review({ reviewer: 'Later', reviewer_email: 'later@example.com', review: 'later' }),
    );
    expect((later.body as Obj).verified).toBe(false);
    await wc.call('PUT', `/orders/${(pending.body as Obj).id}`, { body: { status: 'completed' } });
    const read = await wc.call('GET', `/products/reviews/${(later.body as Obj).id}`);
    expect((read.body as Obj).verified).toBe(false);
    const claimed = await create(
      review({ reviewer: 'Claim', reviewer_email: 'c@example.com', review: 'c', verified: true }),
    );
    expect((claimed.body as Obj).verified).toBe(true);
  });

  it('writes through products/reviews/batch with an answer per item and no argument checks', async () => {
    const existing = await create(review({ reviewer: 'Old', review: 'old' }));
    const id = (existing.body as Obj).id as number;
    const r = await wc.call('POST', '/products/reviews/batch', {
      body: {
        create: [
          { product_id: productId, reviewer: 'No mail', review: 'no mail', rating: '5' },
          {
            product_id: productId,
            reviewer: 'Old',
            reviewer_email: 'ann@example.com',
            review: 'old',
          },
          { product_id: 999999, reviewer: 'X', reviewer_email: 'x@example.com', review: 'x' },
          { product_id: productId, reviewer: 'E', reviewer_email: 'e@example.com', review: '' },
        ],
        update: [
          { id, rating: 1 },
          { id: 999999, status: 'hold' },
        ],
        delete: [id],
      },
    });
    expect(r.status).toBe(200);
    const body = r.body as { create: Obj[]; update: Obj[]; delete: Obj[] };
    expect(body.create[0]).toMatchObject({ reviewer_email: '', rating: 5, status: 'approved' });
    expect(body.create[1]).toMatchObject({
      id: 0,
      error: { code: 'woocommerce_rest_comment_duplicate', data: { status: 409 } },
    });
    expect(body.create[2]).toMatchObject({
      error: { code: 'woocommerce_rest_product_invalid_id' },
    });
    expect(body.create[3]).toMatchObject({
      error: { code: 'woocommerce_rest_review_content_invalid' },
    });
    expect(body.update[0]).toMatchObject({ id, rating: 1 });
    expect(body.update[1]).toMatchObject({
      id: 999999,
      error: { code: 'woocommerce_rest_review_invalid_id', data: { status: 404 } },
    });
    expect(body.delete[0]).toMatchObject({ deleted: true, previous: { id } });
    expect((await wc.call('GET', `/products/reviews/${id}`)).status).toBe(404);
    const tooMany = await wc.call('POST', '/products/reviews/batch', {
      body: { create: Array.from({ length: 101 }, (_, i) => review({ review: `r${i}` })) },
    });
    expect(tooMany.status).toBe(413);
  });

  it('bins a review on DELETE, refuses to bin it twice, deletes it with force, and deletes a product’s reviews with it', async () => {
    const r = await create(review({ reviewer: 'Del', review: 'del' }));
    const id = (r.body as Obj).id as number;
    const binned = await wc.call('DELETE', `/products/reviews/${id}`);
    expect(binned.body).toMatchObject({ id, status: 'trash' });
    const twice = await wc.call('DELETE', `/products/reviews/${id}`);
    expect(twice).toMatchObject({
      status: 410,
      body: { code: 'woocommerce_rest_already_trashed' },
    });
    const gone = await wc.call('DELETE', `/products/reviews/${id}`, { query: { force: 'true' } });
    expect(gone.body).toMatchObject({ deleted: true, previous: { id, status: 'trash' } });
    const other = await wc.call('POST', '/products', { body: { name: 'Weg' } });
    const otherId = (other.body as Obj).id as number;
    const onIt = await create(review({ product_id: otherId, review: 'on it' }));
    await wc.call('DELETE', `/products/${otherId}`, { query: { force: 'true' } });
    expect((await wc.call('GET', `/products/reviews/${(onIt.body as Obj).id}`)).status).toBe(404);
  });
});
