import { z, type ZodType } from 'zod';
import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import { mapLimit } from '../kit/concurrency.ts';
import type { Checkpoint, Page } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import type { WooClient } from './client.ts';
import { switchCouponCode } from './emails.ts';
import { markers, metaValue } from './markers.ts';
import type { StoreInfo } from './store-info.ts';
import {
  brandToCanonical,
  categoryToCanonical,
  couponToCanonical,
  customerToCanonical,
  orderToCanonical,
  productToCanonical,
  reviewToCanonical,
  sharedAttributeToCanonical,
  type Converted,
  type ReadContext,
} from './to-canonical.ts';
import type { SharedAttributeDefinition } from '@replatform/canonical/product';
import {
  wcAttributeSchema,
  wcAttributeTermSchema,
  wcCouponSchema,
  wcCustomerSchema,
  wcOrderNoteSchema,
  wcOrderSchema,
  wcProductSchema,
  wcRefundSchema,
  wcReviewSchema,
  wcTermSchema,
  wcVariationSchema,
  type WcCoupon,
  type WcOrderNote,
  type WcRefund,
  type WcReview,
  type WcTerm,
  type WcVariation,
} from './wc-schemas.ts';

/**
 * Reading a store: pages of 100 (wc/v3's maximum) in a stable order (orderby=id, order=asc, so
 * records created during a read land on later pages), with `context=edit` so descriptions come
 * back as stored rather than rendered for display. The checkpoint is the next page number. A
 * product is read with its variations, an order with its refunds (one request per page of
 * orders, GET refunds?parent=...) and its notes. Reviews are read list by list (approved and
 * held, spam, the bin), the checkpoint naming the list and its next page.
 */

export const pageSize = 100;
/**
 * Reads of a page's children (variations, notes) started at once; the store's adaptive limiter
 * decides how many of them are in flight.
 */
const childReads = 8;

export function pageOf(checkpoint: Checkpoint | null): number {
  if (!checkpoint) return 1;
  const match = /^page:(\d+)$/.exec(checkpoint.cursor);
  if (checkpoint.version !== 1 || !match)
    throw new ConnectorError(
      'system',
      'bad_checkpoint',
      `Unknown checkpoint '${checkpoint.cursor}'`,
    );
  return Number(match[1]);
}

export const nextCheckpoint = (page: number, totalPages: number): Checkpoint | null =>
  page < totalPages ? { version: 1, cursor: `page:${page + 1}` } : null;

function split<T>(converted: { id: number; result: Converted<T> }[]) {
  const records: T[] = [];
  const rejected: { sourceId: string; reason: string }[] = [];
  const losses: { sourceId: string; field: string; reason: string }[] = [];
  for (const { id, result } of converted) {
    if (!result.ok) {
      rejected.push({ sourceId: String(id), reason: result.reason });
      continue;
    }
    records.push(result.record);
    for (const loss of result.losses) losses.push({ sourceId: String(id), ...loss });
  }
  return {
    records,
    ...(rejected.length ? { rejected } : {}),
    ...(losses.length ? { losses } : {}),
  };
}

/** Every page of a collection. */
async function readAllPages<T>(
  client: WooClient,
  path: string,
  query: Record<string, string | number>,
  schema: ZodType<T>,
): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; ; page++) {
    const result = await client.page(path, { ...query, page, per_page: pageSize }, schema);
    all.push(...result.items);
    if (page >= result.totalPages || result.items.length === 0) return all;
  }
}

export function readVariations(client: WooClient, productId: number): Promise<WcVariation[]> {
  return readAllPages(
    client,
    `/products/${productId}/variations`,
    { orderby: 'id', order: 'asc', context: 'edit' },
    wcVariationSchema,
  );
}

export function readAllCategories(client: WooClient): Promise<WcTerm[]> {
  return readAllPages(
    client,
    '/products/categories',
    { orderby: 'id', order: 'asc', context: 'edit' },
    wcTermSchema,
  );
}

export function readAllBrands(client: WooClient): Promise<WcTerm[]> {
  return readAllPages(
    client,
    '/products/brands',
    { orderby: 'id', order: 'asc', context: 'edit' },
    wcTermSchema,
  );
}

/** The store's tags by id, with their descriptions. */
export async function readTags(client: WooClient): Promise<Map<number, WcTerm>> {
  const tags = await readAllPages(
    client,
    '/products/tags',
    { orderby: 'id', order: 'asc', context: 'edit' },
    wcTermSchema,
  );
  return new Map(tags.map((t) => [t.id, t]));
}

/**
 * The store-wide attributes with their settings and all their terms (those no product uses too),
 * by slug without the pa_ prefix.
 */
export async function readSharedAttributes(
  client: WooClient,
): Promise<Map<string, SharedAttributeDefinition>> {
  const { data } = await client.get(
    '/products/attributes',
    { context: 'edit' },
    wcAttributeSchema.array(),
  );
  const out = new Map<string, SharedAttributeDefinition>();
  for (const a of [...data].sort((x, y) => x.id - y.id)) {
    const terms = await readAllPages(
      client,
      `/products/attributes/${a.id}/terms`,
      { orderby: 'id', order: 'asc', context: 'edit' },
      wcAttributeTermSchema,
    );
    const definition = sharedAttributeToCanonical(a, terms);
    if (!out.has(definition.slug)) out.set(definition.slug, definition);
  }
  return out;
}

/**
 * The refunds of some orders, by order id, through each order's refunds route: the store-wide
 * refunds route ignores its `parent` filter (WooCommerce 11.0.1 answers every refund).
 */
export async function readRefunds(
  client: WooClient,
  orderIds: number[],
): Promise<Map<number, WcRefund[]>> {
  const out = new Map<number, WcRefund[]>();
  for (const id of orderIds)
    out.set(
      id,
      await readAllPages(
        client,
        `/orders/${id}/refunds`,
        { orderby: 'id', order: 'asc', context: 'edit' },
        wcRefundSchema,
      ),
    );
  return out;
}

/**
 * Every coupon of a store, in every status: without `status=any` WooCommerce lists only published
 * and private ones (WC_REST_Coupons_Controller passes `status` on to the query although the
 * route does not list it as an argument).
 */
export function readAllCoupons(client: WooClient): Promise<WcCoupon[]> {
  return readAllPages(
    client,
    '/coupons',
    { orderby: 'id', order: 'asc', context: 'edit', status: 'any' },
    wcCouponSchema,
  );
}

/**
 * The merchant's coupons: not the importer's own record of switched-off e-mails (emails.ts), nor
 * a temporary coupon an interrupted order write left behind (write-orders.ts).
 */
export async function readMerchantCoupons(client: WooClient): Promise<WcCoupon[]> {
  return (await readAllCoupons(client)).filter(
    (c) =>
      c.code.toLowerCase() !== switchCouponCode &&
      metaValue(c.meta_data, markers.temporaryCoupon) === undefined,
  );
}

/**
 * The lists that hold every review between them: `all` (approved and held for moderation),
 * `spam` and `trash` (the bin). A list without `status` has the approved ones only; the route
 * documents no status for every review at once.
 */
export const reviewLists = ['all', 'spam', 'trash'] as const;
type ReviewList = (typeof reviewLists)[number];

/** One page of reviews of one list, oldest first, as stored (`context=edit`). */
export function readReviewPage(
  client: WooClient,
  status: ReviewList,
  page: number,
  query: Record<string, string | number> = {},
): Promise<{ items: WcReview[]; total: number; totalPages: number }> {
  return client.page(
    '/products/reviews',
    { per_page: pageSize, orderby: 'id', order: 'asc', context: 'edit', ...query, status, page },
    wcReviewSchema,
  );
}

/** Every review, in every status, matching a query (of products, of ids). */
export async function readAllReviews(
  client: WooClient,
  query: Record<string, string | number> = {},
): Promise<WcReview[]> {
  const all: WcReview[] = [];
  for (const status of reviewLists)
    for (let page = 1; ; page++) {
      const result = await readReviewPage(client, status, page, query);
      all.push(...result.items);
      if (page >= result.totalPages || result.items.length === 0) break;
    }
  return all;
}

/** How many reviews the store holds, in every status. */
export async function countReviews(client: WooClient): Promise<number> {
  let total = 0;
  for (const status of reviewLists)
    total += (await client.page('/products/reviews', { status, per_page: 1 }, wcReviewSchema))
      .total;
  return total;
}

/** A reviews checkpoint names the list and its next page ('spam:page:2'). */
function reviewPosition(checkpoint: Checkpoint | null): { list: number; page: number } {
  if (!checkpoint) return { list: 0, page: 1 };
  const match = /^(all|spam|trash):page:(\d+)$/.exec(checkpoint.cursor);
  if (checkpoint.version !== 1 || !match)
    throw new ConnectorError(
      'system',
      'bad_checkpoint',
      `Unknown checkpoint '${checkpoint.cursor}'`,
    );
  return { list: reviewLists.indexOf(match[1] as ReviewList), page: Number(match[2]) };
}

async function* readReviews(
  client: WooClient,
  checkpoint: Checkpoint | null,
): AsyncGenerator<Page<'reviews'>> {
  let { list, page } = reviewPosition(checkpoint);
  for (;;) {
    const status = reviewLists[list] ?? 'all';
    const result = await readReviewPage(client, status, page);
    const following = reviewLists[list + 1];
    const next: Checkpoint | null =
      page < result.totalPages
        ? { version: 1, cursor: `${status}:page:${page + 1}` }
        : following
          ? { version: 1, cursor: `${following}:page:1` }
          : null;
    const converted = result.items.map((r) => ({ id: r.id, result: reviewToCanonical(r) }));
    // An empty list (no spam, say) is passed over; the last page is always given.
    if (converted.length > 0 || next === null) yield { ...split(converted), next };
    if (next === null) return;
    ({ list, page } = reviewPosition(next));
  }
}

export async function readNotes(client: WooClient, orderId: number): Promise<WcOrderNote[]> {
  const { data } = await client.get(
    `/orders/${orderId}/notes`,
    { context: 'edit' },
    z.array(wcOrderNoteSchema),
  );
  return data;
}

export async function* readEntity<E extends EntityType>(
  client: WooClient,
  info: StoreInfo,
  entity: E,
  checkpoint: Checkpoint | null,
): AsyncGenerator<Page<E>> {
  let page = pageOf(checkpoint);
  const ctx: ReadContext = {
    currency: info.currency,
    units: info.units,
    defaultCategoryId: info.defaultCategoryId,
  };
  if (entity === 'categories') {
    // Categories are few: all are loaded so each record's storefront path can use its ancestors.
    // "Uncategorized" is WooCommerce's own placeholder, present in every store: not migrated.
    const all = (await readAllCategories(client)).filter((t) => t.id !== info.defaultCategoryId);
    const byId = new Map(all.map((t) => [t.id, t]));
    const totalPages = Math.ceil(all.length / pageSize);
    do {
      const slice = all.slice((page - 1) * pageSize, page * pageSize);
      const converted = slice.map((t) => ({
        id: t.id,
        result: categoryToCanonical(t, byId, info.defaultCategoryId),
      }));
      yield { ...split(converted), next: nextCheckpoint(page, totalPages) } as Page<E>;
      page++;
    } while (page <= totalPages);
    return;
  }
  if (entity === 'brands') {
    // Brands are few: all are loaded so each record's storefront path can use its ancestors.
    const all = await readAllBrands(client);
    const byId = new Map(all.map((t) => [t.id, t]));
    const totalPages = Math.ceil(all.length / pageSize);
    do {
      const slice = all.slice((page - 1) * pageSize, page * pageSize);
      const converted = slice.map((t) => ({ id: t.id, result: brandToCanonical(t, byId) }));
      yield { ...split(converted), next: nextCheckpoint(page, totalPages) } as Page<E>;
      page++;
    } while (page <= totalPages);
    return;
  }
  if (entity === 'coupons') {
    // Coupons are few, and some of a store's are the importer's own: all are listed to leave
    // those out.
    const all = await readMerchantCoupons(client);
    const totalPages = Math.ceil(all.length / pageSize);
    do {
      const slice = all.slice((page - 1) * pageSize, page * pageSize);
      const converted = slice.map((c) => ({
        id: c.id,
        result: couponToCanonical(c, info.currency),
      }));
      yield { ...split(converted), next: nextCheckpoint(page, totalPages) } as Page<E>;
      page++;
    } while (page <= totalPages);
    return;
  }
  if (entity === 'reviews') {
    yield* readReviews(client, checkpoint) as AsyncGenerator<Page<E>>;
    return;
  }
  const query = { per_page: pageSize, orderby: 'id', order: 'asc', context: 'edit' };
  for (;;) {
    const { converted, totalPages } = await readPage(client, entity, { ...query, page }, ctx);
    const next = nextCheckpoint(page, totalPages);
    yield { ...split(converted), next };
    if (!next) return;
    page++;
  }
}

type Query = Record<string, string | number>;

/** One page of products, customers or orders with what each needs (variations, refunds, notes). */
async function readPage<E extends EntityType>(
  client: WooClient,
  entity: E,
  query: Query,
  ctx: ReadContext,
): Promise<{
  converted: { id: number; result: Converted<EntityRecord[E]> }[];
  totalPages: number;
}> {
  if (entity === 'products') {
    // The store's own lists a product points into, read once per read: a product's answer
    // names its tags and attributes but not their descriptions, settings or unused terms.
    ctx.tags ??= await readTags(client);
    ctx.attributes ??= await readSharedAttributes(client);
    const result = await client.page('/products', query, wcProductSchema);
    // A page's variations are read side by side; the store's limiter sets how many at once.
    const converted = await mapLimit(result.items, childReads, async (p) => {
      const variations = p.type === 'variable' ? await readVariations(client, p.id) : [];
      return {
        id: p.id,
        result: productToCanonical(p, variations, ctx) as Converted<EntityRecord[E]>,
      };
    });
    return { converted, totalPages: result.totalPages };
  }
  if (entity === 'customers') {
    const result = await client.page('/customers', query, wcCustomerSchema);
    return {
      converted: result.items.map((c) => ({
        id: c.id,
        result: customerToCanonical(c) as Converted<EntityRecord[E]>,
      })),
      totalPages: result.totalPages,
    };
  }
  const result = await client.page('/orders', query, wcOrderSchema);
  const refunds = await readRefunds(
    client,
    result.items.filter((o) => o.refunds.length > 0).map((o) => o.id),
  );
  const converted = await mapLimit(result.items, childReads, async (o) => {
    const notes = await readNotes(client, o.id);
    return {
      id: o.id,
      result: orderToCanonical(o, refunds.get(o.id) ?? [], notes) as Converted<EntityRecord[E]>,
    };
  });
  return { converted, totalPages: result.totalPages };
}

/**
 * The records of these ids, as a read converts them (`include=`, a page of 100 at a time), so a
 * verification can look at what a run wrote without reading the whole store. Ids the store no
 * longer has are left out.
 */
export async function readIds<E extends EntityType>(
  client: WooClient,
  info: StoreInfo,
  entity: E,
  ids: readonly string[],
  shared?: ReadContext,
): Promise<EntityRecord[E][]> {
  const wanted = [...new Set(ids.map(Number).filter((id) => Number.isInteger(id) && id > 0))];
  if (entity === 'categories') {
    const all = (await readAllCategories(client)).filter((t) => t.id !== info.defaultCategoryId);
    const byId = new Map(all.map((t) => [t.id, t]));
    const converted = wanted.flatMap((id) => {
      const term = byId.get(id);
      return term ? [{ id, result: categoryToCanonical(term, byId, info.defaultCategoryId) }] : [];
    });
    return split(converted).records as EntityRecord[E][];
  }
  if (entity === 'brands') {
    const all = await readAllBrands(client);
    const byId = new Map(all.map((t) => [t.id, t]));
    const converted = wanted.flatMap((id) => {
      const term = byId.get(id);
      return term ? [{ id, result: brandToCanonical(term, byId) }] : [];
    });
    return split(converted).records as EntityRecord[E][];
  }
  if (entity === 'coupons') {
    const byId = new Map((await readMerchantCoupons(client)).map((c) => [c.id, c]));
    const converted = wanted.flatMap((id) => {
      const coupon = byId.get(id);
      return coupon ? [{ id, result: couponToCanonical(coupon, info.currency) }] : [];
    });
    return split(converted).records as EntityRecord[E][];
  }
  if (entity === 'reviews') {
    const records: EntityRecord[E][] = [];
    for (let start = 0; start < wanted.length; start += pageSize) {
      const chunk = wanted.slice(start, start + pageSize);
      const found = await readAllReviews(client, { include: chunk.join(',') });
      const converted = found.map((r) => ({ id: r.id, result: reviewToCanonical(r) }));
      records.push(...(split(converted).records as EntityRecord[E][]));
    }
    return records;
  }
  // A caller reading many chunks passes one context, so the store's tags and attributes are read
  // once for all of them.
  const ctx: ReadContext = shared ?? {
    currency: info.currency,
    units: info.units,
    defaultCategoryId: info.defaultCategoryId,
  };
  const records: EntityRecord[E][] = [];
  for (let start = 0; start < wanted.length; start += pageSize) {
    const chunk = wanted.slice(start, start + pageSize);
    const { converted } = await readPage(
      client,
      entity,
      {
        include: chunk.join(','),
        per_page: chunk.length,
        orderby: 'id',
        order: 'asc',
        context: 'edit',
      },
      ctx,
    );
    records.push(...split(converted).records);
  }
  return records;
}
