import { z } from 'zod';
import type { EntityType } from '@replatform/canonical/entities';
import type { AssetRecord, RemoveOutcome } from '../kit/contract.ts';
import { mapLimit } from '../kit/concurrency.ts';
import { ConnectorError } from '../kit/errors.ts';
import { errorText, type BcAnswer } from './client.ts';
import { allWebPages, productReviews } from './native.ts';
import { collectionSchema, customerAttributeSchema } from './payloads.ts';
import { allPages, parseAnswer, type BcSession } from './session.ts';
import { removeRedirects } from './redirects.ts';

/**
 * Undo: deletes records a migration created, by destination id, and the customer attributes its
 * writes made. Every outcome is one of removed, gone (the store no longer has it) or failed with
 * the reason; a failure of the whole store (token, scope, store down after retries) throws.
 *
 * - Products and customers go in batches (DELETE ...?id:in=). A batch delete answers 204 whether
 *   or not an id existed, so one GET with the same id:in first tells removed from gone. A product
 *   takes its variants, images, custom fields, reviews and metafields along.
 * - Categories go through the category trees API (the one the connector writes through), which
 *   deletes a category's subcategories with it: a category with a subcategory undo is not
 *   removing (the store owner's) is refused, so that nothing the owner made goes with it.
 * - Web pages go in batches (pages.v3.yml deletePages, without delete_children); a page with a
 *   child page undo is not removing is refused, since BigCommerce would move that child to the top
 *   and hide it.
 * - Brands, coupons, orders, blog posts and reviews go one by one; 404 is gone. Coupons never use
 *   the batch DELETE /v2/coupons, which deletes every coupon of the store when its filter is lost.
 * - Orders: the API's only delete archives the order (orders.v2.oas2.yml deleteAnOrder); it then
 *   leaves the order list, the count and GET /v2/orders/{id}.
 * - Reviews: a review's destination id is its own id, and BigCommerce lists reviews per product
 *   only, so the products are walked newest first (where a migration's products are) until every
 *   review wanted is found; one not found on any product is gone.
 */

/** products_catalog.v3.yml deleteProducts: at most 250 products at one time. */
export const productsPerDelete = 250;
/** Ids per id:in list elsewhere (the descriptions set no limit; this keeps addresses short). */
export const idsPerList = 50;

const withId = z.object({ id: z.number().int() });
const treeCategory = z.object({
  category_id: z.number().int(),
  parent_id: z.number().int(),
  name: z.string(),
});

const removed = (destinationId: string): RemoveOutcome => ({ destinationId, outcome: 'removed' });
const gone = (destinationId: string): RemoveOutcome => ({ destinationId, outcome: 'gone' });
const failed = (destinationId: string, reason: string): RemoveOutcome => ({
  destinationId,
  outcome: 'failed',
  reason,
});
const kept = (destinationId: string, reason: string): RemoveOutcome => ({
  destinationId,
  outcome: 'kept',
  reason,
});

/** A destination id as BigCommerce's integer id; anything else the store cannot hold. */
function idOf(destinationId: string): number | undefined {
  if (!/^\d+$/.test(destinationId.trim())) return undefined;
  const id = Number(destinationId);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

const chunked = <T>(list: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
};

const quote = (names: string[]) =>
  names
    .slice(0, 5)
    .map((n) => `"${n}"`)
    .join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');

/** A 403 on a delete: the API account may read but not change this kind of record. */
function scopeError(what: string, scope: string): ConnectorError {
  return new ConnectorError(
    'config',
    'read_only_credentials',
    `This BigCommerce API account may not delete ${what}: its ${scope} scope is not set to modify. Edit the account (or create a new one) under Settings > API > Store-level API accounts, then undo again.`,
    { status: 403 },
  );
}

const scopes: Record<EntityType, [string, string]> = {
  categories: ['categories', 'Products'],
  brands: ['brands', 'Products'],
  products: ['products', 'Products'],
  reviews: ['product reviews', 'Products'],
  customers: ['customers', 'Customers'],
  orders: ['orders', 'Orders'],
  coupons: ['coupons', 'Marketing'],
  pages: ['web pages', 'Content'],
  posts: ['blog posts', 'Content'],
};

/** What BigCommerce said when it refused to delete one record, for the store owner. */
function refusal(what: string, answer: BcAnswer): string {
  const said = errorText(answer.body);
  return `BigCommerce refused to delete the ${what} (it answered ${answer.status}${said ? `: ${said}` : ''}); delete it in the control panel, or try the undo again later`;
}

export async function removeRecords(
  session: BcSession,
  entity: EntityType,
  destinationIds: readonly string[],
): Promise<RemoveOutcome[]> {
  const [what, scope] = scopes[entity];
  try {
    return await removeAll(session, entity, destinationIds);
  } catch (error) {
    if (error instanceof ConnectorError && error.status === 403) throw scopeError(what, scope);
    throw error;
  }
}

async function removeAll(
  session: BcSession,
  entity: EntityType,
  destinationIds: readonly string[],
): Promise<RemoveOutcome[]> {
  const results = new Map<string, RemoveOutcome>();
  const ids: number[] = [];
  for (const destinationId of destinationIds) {
    const id = idOf(destinationId);
    if (id === undefined) results.set(destinationId, gone(destinationId));
    else if (!ids.includes(id)) ids.push(id);
  }
  const set = (id: number, outcome: (destinationId: string) => RemoveOutcome) => {
    for (const destinationId of destinationIds)
      if (idOf(destinationId) === id) results.set(destinationId, outcome(destinationId));
  };
  switch (entity) {
    case 'products':
      await inBatches(session, ids, set, '/v3/catalog/products', productsPerDelete, {
        include_fields: ['name'],
      });
      break;
    case 'customers':
      await inBatches(session, ids, set, '/v3/customers', idsPerList, {});
      break;
    case 'categories':
      await removeCategories(session, ids, set);
      break;
    case 'pages':
      await removePages(session, ids, set);
      break;
    case 'reviews':
      await removeReviews(session, ids, set);
      break;
    case 'brands':
      await oneByOne(session, ids, set, 'brand', (id) => `/v3/catalog/brands/${id}`);
      break;
    case 'coupons':
      await oneByOne(session, ids, set, 'coupon', (id) => `/v2/coupons/${id}`);
      break;
    case 'orders':
      await oneByOne(session, ids, set, 'order', (id) => `/v2/orders/${id}`);
      break;
    case 'posts':
      await oneByOne(session, ids, set, 'blog post', (id) => `/v2/blog/posts/${id}`);
      break;
  }
  return destinationIds.map(
    (d) =>
      results.get(d) ?? failed(d, 'BigCommerce was not asked to delete it (an internal error)'),
  );
}

type Settle = (id: number, outcome: (destinationId: string) => RemoveOutcome) => void;

/** DELETE path/{id} per record: 204 removed, 404 gone (also a retry after a lost answer). */
async function oneByOne(
  session: BcSession,
  ids: number[],
  set: Settle,
  what: string,
  path: (id: number) => string,
): Promise<void> {
  await mapLimit(ids, 3, async (id) => {
    const answer = await session.client.request('DELETE', path(id));
    if (answer.status === 204 || answer.status === 200) set(id, removed);
    else if (answer.status === 404) set(id, gone);
    else set(id, (d) => failed(d, refusal(what, answer)));
  });
}

/** The ids of `ids` the store holds at `path` (one GET with id:in). */
async function existing(
  session: BcSession,
  path: string,
  ids: number[],
  query: Record<string, string[]>,
): Promise<Set<number>> {
  const answer = await session.client.ok('GET', path, {
    query: { 'id:in': ids, limit: Math.max(ids.length, 1), ...query },
  });
  const list = parseAnswer(collectionSchema(withId), answer.body, `GET ${path}`).data;
  return new Set(list.map((r) => r.id));
}

/** Batch deletes with id:in, after one GET that tells which ids the store still holds. */
async function inBatches(
  session: BcSession,
  ids: number[],
  set: Settle,
  path: string,
  size: number,
  query: Record<string, string[]>,
): Promise<void> {
  for (const batch of chunked(ids, size)) {
    const held = await existing(session, path, batch, query);
    for (const id of batch) if (!held.has(id)) set(id, gone);
    const doomed = batch.filter((id) => held.has(id));
    if (doomed.length === 0) continue;
    const answer = await session.client.request('DELETE', path, { query: { 'id:in': doomed } });
    if (answer.status === 204 || answer.status === 200) {
      for (const id of doomed) set(id, removed);
      continue;
    }
    // Refused as a batch: one by one would not help (the batch delete is the only delete), so
    // each record says what BigCommerce said.
    for (const id of doomed)
      set(id, (d) => failed(d, refusal(path.split('/').at(-1) ?? '', answer)));
  }
}

async function removeCategories(session: BcSession, ids: number[], set: Settle): Promise<void> {
  const treeId = await session.treeId();
  const wanted = new Set(ids);
  for (const batch of chunked(ids, idsPerList)) {
    const path = '/v3/catalog/trees/categories';
    const held = await allPages(
      session.client,
      path,
      { 'tree_id:in': [treeId], 'category_id:in': batch },
      treeCategory,
    );
    const heldIds = new Set(held.map((c) => c.category_id));
    // BigCommerce deletes a category's subcategories with it: keep any the owner made.
    const children = await allPages(
      session.client,
      path,
      { 'tree_id:in': [treeId], 'parent_id:in': batch },
      treeCategory,
    );
    const doomed: number[] = [];
    for (const id of batch) {
      if (!heldIds.has(id)) {
        set(id, gone);
        continue;
      }
      const others = children.filter((c) => c.parent_id === id && !wanted.has(c.category_id));
      if (others.length) {
        set(id, (d) =>
          failed(
            d,
            `it has subcategories this migration did not create (${quote(others.map((c) => c.name))}), and BigCommerce deletes a category together with its subcategories: move them to another category (or delete them) in the control panel, then undo again`,
          ),
        );
        continue;
      }
      doomed.push(id);
    }
    if (doomed.length === 0) continue;
    const answer = await session.client.request('DELETE', path, {
      query: { 'category_id:in': doomed },
    });
    const ok = answer.status >= 200 && answer.status < 300;
    for (const id of doomed) set(id, ok ? removed : (d) => failed(d, refusal('category', answer)));
  }
}

async function removePages(session: BcSession, ids: number[], set: Settle): Promise<void> {
  const wanted = new Set(ids);
  const pages = (await allWebPages(session)).flatMap((p) => {
    const id = Number(p.id);
    return Number.isInteger(id)
      ? [{ id, parent: Number(p.parent_id ?? 0), name: String(p.name ?? '') }]
      : [];
  });
  const held = new Set(pages.map((p) => p.id));
  const doomed: number[] = [];
  for (const id of ids) {
    if (!held.has(id)) {
      set(id, gone);
      continue;
    }
    const others = pages.filter((p) => p.parent === id && !wanted.has(p.id));
    if (others.length) {
      set(id, (d) =>
        failed(
          d,
          `it has child pages this migration did not create (${quote(others.map((p) => p.name))}); BigCommerce would move them to the top level and hide them: give them another parent in the control panel, then undo again`,
        ),
      );
      continue;
    }
    doomed.push(id);
  }
  for (const batch of chunked(doomed, idsPerList)) {
    const answer = await session.client.request('DELETE', '/v3/content/pages', {
      query: { 'id:in': batch },
    });
    if (answer.status === 204 || answer.status === 200) {
      for (const id of batch) set(id, removed);
    } else if (answer.status === 404) {
      // Some were gone meanwhile (or a retry after a lost answer): BigCommerce deleted the others.
      const left = await pagesHeld(session, batch);
      for (const id of batch)
        set(id, left.has(id) ? (d) => failed(d, refusal('page', answer)) : removed);
    } else {
      for (const id of batch) set(id, (d) => failed(d, refusal('page', answer)));
    }
  }
}

async function pagesHeld(session: BcSession, ids: number[]): Promise<Set<number>> {
  const list = await allPages(session.client, '/v3/content/pages', { 'id:in': ids }, withId);
  return new Set(list.map((p) => p.id));
}

/** Products walked per request when looking for reviews (the list's own maximum). */
const productWalk = 250;

async function removeReviews(session: BcSession, ids: number[], set: Settle): Promise<void> {
  const where = new Map<number, number>();
  const missing = new Set(ids);
  // Reviews this connection has listed already need no walk.
  for (const [productId, listed] of session.reviews.listed) {
    for (const review of await listed.catch(() => []))
      if (missing.delete(Number(review.id))) where.set(Number(review.id), productId);
  }
  let below: number | undefined;
  while (missing.size > 0) {
    const answer = await session.client.ok('GET', '/v3/catalog/products', {
      query: {
        ...(below === undefined ? {} : { 'id:less': below }),
        sort: 'id',
        direction: 'desc',
        include_fields: ['name'],
        limit: productWalk,
      },
    });
    const products = parseAnswer(
      collectionSchema(withId),
      answer.body,
      'GET /v3/catalog/products',
    ).data;
    if (products.length === 0) break;
    await mapLimit(products, 3, async (product) => {
      if (missing.size === 0) return;
      for (let page = 1; ; page++) {
        const reviews = await productReviews(session, product.id, page, 250);
        for (const review of reviews.records)
          if (missing.delete(Number(review.id))) where.set(Number(review.id), product.id);
        if (!reviews.more) break;
      }
    });
    below = products.at(-1)?.id;
    if (products.length < productWalk) break;
  }
  for (const id of missing) set(id, gone);
  await mapLimit([...where], 3, async ([reviewId, productId]) => {
    const answer = await session.client.request(
      'DELETE',
      `/v3/catalog/products/${productId}/reviews/${reviewId}`,
    );
    if (answer.status === 204 || answer.status === 200) set(reviewId, removed);
    else if (answer.status === 404) set(reviewId, gone);
    else set(reviewId, (d) => failed(d, refusal('review', answer)));
  });
  // A removed review leaves this connection's list of its product.
  for (const productId of new Set(where.values())) session.reviews.listed.delete(productId);
}

/** A customer attribute a write made, as its term asset encodes it. */
export const attributeTaxonomy = 'customer_attribute';

export const attributeAsset = (attribute: { id: number; name: string }): AssetRecord => ({
  kind: 'term',
  key: `${attributeTaxonomy}:${attribute.name}`,
  destinationId: `${attributeTaxonomy}:${attribute.id}`,
});

const attributeValue = z.object({ attribute_id: z.number().int() });

/**
 * Removes what writes stored beside records: customer attributes they made. An attribute some
 * customer still holds a value of (one the owner set since, on a customer undo keeps) is kept and
 * fails with the reason, since deleting it would erase those values.
 */
export async function removeStoredAssets(
  session: BcSession,
  assets: readonly AssetRecord[],
): Promise<RemoveOutcome[]> {
  const results = new Map<string, RemoveOutcome>();
  const attributes = new Map<number, string[]>();
  const redirects = assets.filter((a) => a.kind === 'redirect').map((a) => a.destinationId);
  if (redirects.length)
    for (const [id, outcome] of await removeRedirects(session, redirects)) results.set(id, outcome);
  for (const asset of assets) {
    if (asset.kind === 'redirect') continue;
    const match = new RegExp(`^${attributeTaxonomy}:(\\d+)$`).exec(asset.destinationId);
    const id = asset.kind === 'term' && match ? Number(match[1]) : undefined;
    if (id === undefined) {
      results.set(
        asset.destinationId,
        failed(
          asset.destinationId,
          'the BigCommerce connector stores no such thing (it keeps no media library: product, category and brand images go with their records)',
        ),
      );
      continue;
    }
    attributes.set(id, [...(attributes.get(id) ?? []), asset.destinationId]);
  }
  if (attributes.size) {
    try {
      await removeAttributes(session, attributes, results);
    } catch (error) {
      if (error instanceof ConnectorError && error.status === 403)
        throw scopeError('customer attributes', 'Customers');
      throw error;
    }
  }
  return assets.map(
    (a) => results.get(a.destinationId) ?? failed(a.destinationId, 'not processed'),
  );
}

async function removeAttributes(
  session: BcSession,
  attributes: Map<number, string[]>,
  results: Map<string, RemoveOutcome>,
): Promise<void> {
  const settle = (id: number, outcome: (destinationId: string) => RemoveOutcome) => {
    for (const destinationId of attributes.get(id) ?? [])
      results.set(destinationId, outcome(destinationId));
  };
  const all = await allPages(
    session.client,
    '/v3/customers/attributes',
    {},
    customerAttributeSchema,
  );
  const names = new Map(all.map((a) => [a.id, a.name]));
  const doomed: number[] = [];
  for (const id of attributes.keys()) {
    if (!names.has(id)) {
      settle(id, gone);
      continue;
    }
    const answer = await session.client.ok('GET', '/v3/customers/attribute-values', {
      query: { 'attribute_id:in': [id], limit: 1 },
    });
    const values = parseAnswer(
      z.object({
        data: z.array(attributeValue),
        meta: z
          .object({ pagination: z.object({ total: z.number() }).partial() })
          .partial()
          .optional(),
      }),
      answer.body,
      'GET /v3/customers/attribute-values',
    );
    if (values.data.length) {
      const held = values.meta?.pagination?.total ?? values.data.length;
      settle(id, (d) =>
        kept(
          d,
          `customers staying in your store still hold a value of the customer attribute "${names.get(id) ?? id}" (${held} value${held === 1 ? '' : 's'}), which deleting it would erase: it is kept; delete it under Settings > Customers > Customer attributes (or the account signup form) if you no longer need it`,
        ),
      );
      continue;
    }
    doomed.push(id);
  }
  for (const batch of chunked(doomed, idsPerList)) {
    const answer = await session.client.request('DELETE', '/v3/customers/attributes', {
      query: { 'id:in': batch },
    });
    const ok = answer.status >= 200 && answer.status < 300;
    for (const id of batch)
      settle(id, ok ? removed : (d) => failed(d, refusal('customer attribute', answer)));
  }
  session.forgetAttributes();
}
