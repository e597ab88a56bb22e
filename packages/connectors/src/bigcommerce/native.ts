import { z } from 'zod';
import type { EntityType } from '@replatform/canonical/entities';
import { mapLimit } from '../kit/concurrency.ts';
import { ConnectorError } from '../kit/errors.ts';
import { answerError, type QueryValue } from './client.ts';
import { collectionSchema } from './payloads.ts';
import { allPages, markerNamespace, parseAnswer, type BcSession } from './session.ts';

/**
 * The native records a migration reads: BigCommerce's own JSON for each record, with the
 * sub-resources the connector reads along with it under these keys:
 *
 * - categories: an item of GET /v3/catalog/trees/categories (the storefront's tree), with
 *   `metafields` (its metafields from GET /v3/catalog/categories/metafields);
 * - brands: an item of GET /v3/catalog/brands (by id), with `metafields` (GET
 *   /v3/catalog/brands/metafields);
 * - products: an item of GET /v3/catalog/products?include=variants,images,custom_fields,
 *   options,modifiers,bulk_pricing_rules,videos, with `metafields` (GET
 *   /v3/catalog/products/metafields) and, on each variant, `metafields` (GET
 *   /v3/catalog/variants/metafields);
 * - customers: an item of GET /v3/customers?include=addresses,attributes,formfields,storecredit,
 *   with `metafields` (GET /v3/customers/metafields);
 * - coupons: an item of GET /v2/coupons, as it is (v2 coupons have no sub-resources);
 * - reviews: an item of GET /v3/catalog/products/{id}/reviews, with `product_id` (the product
 *   it was listed under) when the answer leaves it out; every product is asked, in id order;
 * - pages: an item of GET /v3/content/pages?include=body of a content kind (page, raw,
 *   contact_form; menu links and the blog's own page are no content pages), as it is;
 * - posts: an item of GET /v2/blog/posts, as it is;
 * - orders: an item of GET /v2/orders?include=fees, whose `products`, `shipping_addresses` and
 *   `coupons` links are replaced by those lists (GET /v2/orders/{id}/products, ...; coupons are
 *   fetched only when `coupon_discount` is not 0, else []).
 *
 * The migration's own source-id markers (metafields of namespace 'replatform') are left out.
 * These records are what nativeFields declares and what the conformance suite compares two
 * BigCommerce stores on.
 */

export type Json = Record<string, unknown>;

/** products_catalog.v3.yml IncludeParamBase: everything a product has that a migration reads. */
export const productInclude = [
  'variants',
  'images',
  'custom_fields',
  'options',
  'modifiers',
  'bulk_pricing_rules',
  'videos',
] as const;

/** customers.v3.yml getCustomers `include`. */
export const customerInclude = ['addresses', 'attributes', 'formfields', 'storecredit'] as const;

/**
 * With `options` or `modifiers` included, BigCommerce answers at most 10 products per page
 * (products_catalog.v3.yml IncludeParamGetProducts).
 */
export const productPageLimit = 10;

export interface NativePage {
  records: Json[];
  /** The next page number, or null after the last page. */
  next: number | null;
}

export interface NativeOrderPage extends NativePage {
  /** Ids of the products the page's order lines name that still exist in the catalogue. */
  liveProducts: Set<number>;
}

const metafieldItem = z.object({ resource_id: z.number().int(), namespace: z.string() }).loose();

/**
 * Every metafield of one kind of resource, by resource id: the batch list is read whole at the
 * start of a stream (it has no filter by resource), which costs a page per 250 metafields.
 */
async function metafieldIndex(session: BcSession, path: string): Promise<Map<number, Json[]>> {
  const index = new Map<number, Json[]>();
  for (const m of await allPages(session.client, path, {}, metafieldItem)) {
    if (m.namespace === markerNamespace) continue;
    const list = index.get(m.resource_id) ?? [];
    list.push(m);
    index.set(m.resource_id, list);
  }
  return index;
}

const looseCollection = collectionSchema(z.record(z.string(), z.unknown()));

async function v3Page(
  session: BcSession,
  path: string,
  query: Record<string, QueryValue>,
  page: number,
  limit: number,
): Promise<NativePage> {
  const answer = await session.client.ok('GET', path, { query: { ...query, page, limit } });
  const list = parseAnswer(looseCollection, answer.body, `GET ${path}`);
  const totalPages = list.meta?.pagination?.total_pages ?? page;
  const more = page < totalPages && list.data.length > 0;
  return { records: list.data, next: more ? page + 1 : null };
}

const idOf = (record: Json, key = 'id') => Number(record[key]);

export async function* nativeCategories(
  session: BcSession,
  startPage = 1,
): AsyncIterable<NativePage> {
  const treeId = await session.treeId();
  const metafields = await metafieldIndex(session, '/v3/catalog/categories/metafields');
  for (let page: number | null = startPage; page !== null;) {
    const answer = await v3Page(
      session,
      '/v3/catalog/trees/categories',
      { 'tree_id:in': [treeId] },
      page,
      session.pageSizes.categories,
    );
    for (const record of answer.records)
      record.metafields = metafields.get(idOf(record, 'category_id')) ?? [];
    yield answer;
    page = answer.next;
  }
}

export async function* nativeBrands(session: BcSession, startPage = 1): AsyncIterable<NativePage> {
  const metafields = await metafieldIndex(session, '/v3/catalog/brands/metafields');
  for (let page: number | null = startPage; page !== null;) {
    const answer = await v3Page(session, '/v3/catalog/brands', {}, page, session.pageSizes.brands);
    for (const record of answer.records) record.metafields = metafields.get(idOf(record)) ?? [];
    yield answer;
    page = answer.next;
  }
}

export async function* nativeProducts(
  session: BcSession,
  startPage = 1,
): AsyncIterable<NativePage> {
  const [products, variants] = await Promise.all([
    metafieldIndex(session, '/v3/catalog/products/metafields'),
    metafieldIndex(session, '/v3/catalog/variants/metafields'),
  ]);
  const limit = Math.min(session.pageSizes.products, productPageLimit);
  for (let page: number | null = startPage; page !== null;) {
    const answer = await v3Page(
      session,
      '/v3/catalog/products',
      { include: [...productInclude] },
      page,
      limit,
    );
    for (const record of answer.records) {
      record.metafields = products.get(idOf(record)) ?? [];
      for (const variant of (record.variants as Json[] | undefined) ?? [])
        variant.metafields = variants.get(idOf(variant)) ?? [];
    }
    yield answer;
    page = answer.next;
  }
}

export async function* nativeCustomers(
  session: BcSession,
  startPage = 1,
): AsyncIterable<NativePage> {
  const metafields = await metafieldIndex(session, '/v3/customers/metafields');
  for (let page: number | null = startPage; page !== null;) {
    const answer = await v3Page(
      session,
      '/v3/customers',
      { include: [...customerInclude] },
      page,
      session.pageSizes.customers,
    );
    for (const record of answer.records) record.metafields = metafields.get(idOf(record)) ?? [];
    yield answer;
    page = answer.next;
  }
}

/** Every page of a v2 sub-list (v2 lists have no meta: a short page is the last one). */
async function v2All(session: BcSession, path: string): Promise<Json[]> {
  const items: Json[] = [];
  for (let page = 1; ; page++) {
    const answer = await session.client.ok('GET', path, { query: { page, limit: 250 } });
    // v2 answers 204 with no body for an empty list.
    const list =
      answer.body === undefined
        ? []
        : parseAnswer(z.array(z.record(z.string(), z.unknown())), answer.body, `GET ${path}`);
    items.push(...list);
    if (list.length < 250) return items;
  }
}

/** Which of these product ids the catalogue still has (deleted products leave order lines). */
async function existingProducts(session: BcSession, ids: number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (let i = 0; i < ids.length; i += 50) {
    const chunk = ids.slice(i, i + 50);
    const answer = await session.client.ok('GET', '/v3/catalog/products', {
      query: { 'id:in': chunk, include_fields: ['name'], limit: 250 },
    });
    const list = parseAnswer(
      collectionSchema(z.object({ id: z.number().int() })),
      answer.body,
      'GET /v3/catalog/products',
    );
    for (const p of list.data) found.add(p.id);
  }
  return found;
}

export async function* nativeOrders(
  session: BcSession,
  startPage = 1,
): AsyncIterable<NativeOrderPage> {
  const limit = session.pageSizes.orders;
  for (let page = startPage; ; page++) {
    const answer = await session.client.ok('GET', '/v2/orders', {
      query: { page, limit, include: ['fees'] },
    });
    const list =
      answer.body === undefined
        ? []
        : parseAnswer(z.array(z.record(z.string(), z.unknown())), answer.body, 'GET /v2/orders');
    await mapLimit(list, 3, async (order) => {
      const base = `/v2/orders/${String(order.id)}`;
      const [products, shippingAddresses, coupons] = await Promise.all([
        v2All(session, `${base}/products`),
        v2All(session, `${base}/shipping_addresses`),
        Number(order.coupon_discount ?? 0) !== 0
          ? v2All(session, `${base}/coupons`)
          : Promise.resolve([]),
      ]);
      order.products = products;
      order.shipping_addresses = shippingAddresses;
      order.coupons = coupons;
    });
    const named = [
      ...new Set(
        list.flatMap((o) =>
          ((o.products as Json[]) ?? []).map((p) => Number(p.product_id)).filter((id) => id > 0),
        ),
      ),
    ];
    const more = list.length === limit;
    yield {
      records: list,
      next: more ? page + 1 : null,
      liveProducts: await existingProducts(session, named),
    };
    if (!more) return;
  }
}

export async function* nativeCoupons(session: BcSession, startPage = 1): AsyncIterable<NativePage> {
  const limit = session.pageSizes.coupons;
  for (let page = startPage; ; page++) {
    const answer = await session.client.ok('GET', '/v2/coupons', { query: { page, limit } });
    // v2 answers 204 with no body for an empty list.
    const list =
      answer.body === undefined
        ? []
        : parseAnswer(z.array(z.record(z.string(), z.unknown())), answer.body, 'GET /v2/coupons');
    const more = list.length === limit;
    yield { records: list, next: more ? page + 1 : null };
    if (!more) return;
  }
}

// ------------------------------------------------------------------ pages and posts

/** Every web page of the store, of every kind, in id order (pages.v3.yml getPages). */
export async function allWebPages(session: BcSession): Promise<Json[]> {
  const out: Json[] = [];
  for (let page: number | null = 1; page !== null;) {
    const answer = await v3Page(
      session,
      '/v3/content/pages',
      { include: ['body'] },
      page,
      session.pageSizes.pages,
    );
    out.push(...answer.records);
    page = answer.next;
  }
  return out;
}

const contentKinds = new Set(['page', 'raw', 'contact_form']);
export const isContentPage = (record: Json) => contentKinds.has(String(record.type));

/** The content pages, read whole: a page tree is written parents first. */
export async function* nativePages(session: BcSession): AsyncIterable<NativePage> {
  yield { records: (await allWebPages(session)).filter(isContentPage), next: null };
}

/**
 * Blog posts page by page (store_content.v2.yml getBlogPosts, newest first, `page` at most 50).
 * v2 answers 204 with no body past the end.
 */
export async function* nativePosts(session: BcSession, startPage = 1): AsyncIterable<NativePage> {
  const limit = session.pageSizes.posts;
  for (let page = startPage; ; page++) {
    const answer = await session.client.ok('GET', '/v2/blog/posts', { query: { page, limit } });
    const list =
      answer.body === undefined
        ? []
        : parseAnswer(
            z.array(z.record(z.string(), z.unknown())),
            answer.body,
            'GET /v2/blog/posts',
          );
    const more = list.length === limit;
    yield { records: list, next: more ? page + 1 : null };
    if (!more) return;
  }
}

// ------------------------------------------------------------------ reviews

/**
 * Where a walk over the products' reviews stands: every product up to `afterId` is read, or (with
 * `page`) every product before `productId` is, and that product's reviews from review page `page`.
 */
export type ReviewPosition = { afterId: number } | { productId: number; page: number };

export function reviewCursor(position: ReviewPosition): string {
  return 'afterId' in position
    ? `after:${position.afterId}`
    : `at:${position.productId}:${position.page}`;
}

export function reviewPositionOf(cursor: string): ReviewPosition {
  const after = /^after:(\d+)$/.exec(cursor);
  if (after) return { afterId: Number(after[1]) };
  const at = /^at:(\d+):(\d+)$/.exec(cursor);
  if (at && Number(at[2]) >= 1) return { productId: Number(at[1]), page: Number(at[2]) };
  throw new ConnectorError(
    'system',
    'bad_checkpoint',
    `Unknown BigCommerce checkpoint '${cursor}'`,
  );
}

/** Products a walk over reviews takes per request (products_catalog.v3.yml LimitParam maximum). */
const productWalkLimit = 250;

/**
 * How long after a count a read of the same connection trusts it: a product counted without
 * reviews is not asked again, unless BigCommerce now counts approved reviews on it.
 */
export const countedReviewsFreshMs = 60 * 60 * 1000;

const walkedProduct = z.object({ id: z.number().int(), reviews_count: z.number().nullish() });

/**
 * One page of product ids, by id, with what BigCommerce counts of their approved reviews
 * (`reviews_count` leaves out reviews waiting for moderation or disapproved, so it cannot tell
 * that a product has none).
 */
async function productsFrom(
  session: BcSession,
  position: ReviewPosition,
): Promise<{ products: z.infer<typeof walkedProduct>[]; more: boolean }> {
  const from =
    'afterId' in position ? { 'id:greater': position.afterId } : { 'id:min': position.productId };
  const answer = await session.client.ok('GET', '/v3/catalog/products', {
    query: {
      ...from,
      sort: 'id',
      direction: 'asc',
      include_fields: ['reviews_count'],
      limit: productWalkLimit,
    },
  });
  const list = parseAnswer(
    collectionSchema(walkedProduct),
    answer.body,
    'GET /v3/catalog/products',
  );
  const totalPages = list.meta?.pagination?.total_pages ?? 1;
  return { products: list.data, more: totalPages > 1 && list.data.length > 0 };
}

interface ReviewsPage {
  records: Json[];
  /** The product's reviews in all, from the answer's pagination (undefined without one). */
  total: number | undefined;
  more: boolean;
}

/**
 * One page of a product's reviews (products_catalog.v3.yml getProductReviews). BigCommerce
 * answers 204 for a product without reviews, and 404 for a product deleted since it was listed:
 * both have none.
 */
export async function productReviews(
  session: BcSession,
  productId: number,
  page: number,
  limit: number,
): Promise<ReviewsPage> {
  const path = `/v3/catalog/products/${productId}/reviews`;
  const answer = await session.client.request('GET', path, { query: { page, limit } });
  if (answer.status === 204 || answer.status === 404) return { records: [], total: 0, more: false };
  if (answer.status !== 200) throw answerError('GET', path, answer);
  const list = parseAnswer(looseCollection, answer.body, `GET ${path}`);
  // The list's items leave the product out in the description (its examples show it): add it.
  for (const record of list.data) record.product_id ??= productId;
  const pagination = list.meta?.pagination;
  return {
    records: list.data,
    total: pagination?.total,
    // Without pagination, a full page may have a next one.
    more:
      list.data.length > 0 &&
      (pagination ? page < pagination.total_pages : list.data.length >= limit),
  };
}

/** Every review of a product. */
export async function allProductReviews(session: BcSession, productId: number): Promise<Json[]> {
  const all: Json[] = [];
  for (let page = 1; ; page++) {
    const answer = await productReviews(session, productId, page, 250);
    all.push(...answer.records);
    if (!answer.more) return all;
  }
}

/**
 * How many reviews the store has: BigCommerce lists reviews per product only, so this asks every
 * product (one request each, plus one per 250 products), and remembers each product's count for
 * a read that follows (ReviewMemory.counted).
 */
export async function countReviews(session: BcSession): Promise<number> {
  const totals = new Map<number, number>();
  let position: ReviewPosition = { afterId: 0 };
  for (;;) {
    const { products, more } = await productsFrom(session, position);
    const counts = await mapLimit(
      products,
      3,
      async (p) =>
        (await productReviews(session, p.id, 1, 1)).total ??
        (await allProductReviews(session, p.id)).length,
    );
    products.forEach((p, i) => totals.set(p.id, counts[i] ?? 0));
    const last = products.at(-1);
    if (!more || !last) break;
    position = { afterId: last.id };
  }
  session.reviews.counted = { at: Date.now(), totals };
  return [...totals.values()].reduce((sum, n) => sum + n, 0);
}

export interface NativeReviewPage {
  records: Json[];
  /** Where the next page starts (reviewCursor), or null after the last page. */
  next: string | null;
}

/**
 * Every product's reviews, product by product in id order, in pages of at most
 * `session.pageSizes.reviews` reviews. A page ends where a read can resume: after a product, or
 * between two review pages of one product; a page also ends with every 250 products, so that a
 * store with few reviews still moves its checkpoint on. A product this connection counted
 * without reviews within the hour is not asked again, unless BigCommerce counts approved reviews
 * on it now.
 */
export async function* nativeReviews(
  session: BcSession,
  start: ReviewPosition = { afterId: 0 },
): AsyncIterable<NativeReviewPage> {
  const limit = Math.min(session.pageSizes.reviews, 250);
  const counted = session.reviews.counted;
  const trusted =
    counted && Date.now() - counted.at < countedReviewsFreshMs ? counted.totals : undefined;
  let buffer: Json[] = [];
  let position = start;
  const flush = (next: string | null): NativeReviewPage => {
    const page = { records: buffer, next };
    buffer = [];
    return page;
  };
  for (;;) {
    const { products, more } = await productsFrom(session, position);
    const resume = 'page' in position ? position : undefined;
    const firstPage = (id: number) => (resume?.productId === id ? resume.page : 1);
    const first = await mapLimit(products, 3, async (p) =>
      trusted?.get(p.id) === 0 && !p.reviews_count
        ? undefined
        : productReviews(session, p.id, firstPage(p.id), limit),
    );
    for (const [i, product] of products.entries()) {
      let page = firstPage(product.id);
      let answer = first[i];
      while (answer) {
        if (buffer.length > 0 && buffer.length + answer.records.length > limit)
          yield flush(reviewCursor(position));
        buffer.push(...answer.records);
        if (!answer.more) break;
        page += 1;
        position = { productId: product.id, page };
        answer = await productReviews(session, product.id, page, limit);
      }
      position = { afterId: product.id };
    }
    if (!more || products.length === 0) break;
    yield flush(reviewCursor(position));
  }
  yield flush(null);
}

/** Every native record of an entity, for the conformance suite and tests. */
export async function allNative(session: BcSession, entity: EntityType): Promise<Json[]> {
  if (entity === 'reviews') {
    const out: Json[] = [];
    for await (const page of nativeReviews(session)) out.push(...page.records);
    return out;
  }
  const pages =
    entity === 'categories'
      ? nativeCategories(session)
      : entity === 'brands'
        ? nativeBrands(session)
        : entity === 'products'
          ? nativeProducts(session)
          : entity === 'coupons'
            ? nativeCoupons(session)
            : entity === 'pages'
              ? nativePages(session)
              : entity === 'posts'
                ? nativePosts(session)
                : entity === 'customers'
                  ? nativeCustomers(session)
                  : nativeOrders(session);
  const out: Json[] = [];
  for await (const page of pages) out.push(...page.records);
  return out;
}

export function startPageOf(cursor: string): number {
  const page = Number(cursor);
  if (!Number.isInteger(page) || page < 1)
    throw new ConnectorError(
      'system',
      'bad_checkpoint',
      `Unknown BigCommerce checkpoint '${cursor}'`,
    );
  return page;
}
