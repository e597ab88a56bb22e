import { z } from 'zod';
import type { EntityType } from '@replatform/canonical/entities';
import { mapLimit } from '../kit/concurrency.ts';
import { ConnectorError } from '../kit/errors.ts';
import type { QueryValue } from './client.ts';
import { collectionSchema } from './payloads.ts';
import { allPages, markerNamespace, parseAnswer, type BcSession } from './session.ts';

/**
 * The native records a migration reads: BigCommerce's own JSON for each record, with the
 * sub-resources the connector reads along with it under these keys:
 *
 * - categories: an item of GET /v3/catalog/trees/categories (the storefront's tree), with
 *   `metafields` (its metafields from GET /v3/catalog/categories/metafields);
 * - products: an item of GET /v3/catalog/products?include=variants,images,custom_fields,
 *   options,modifiers,bulk_pricing_rules,videos, with `metafields` (GET
 *   /v3/catalog/products/metafields) and, on each variant, `metafields` (GET
 *   /v3/catalog/variants/metafields);
 * - customers: an item of GET /v3/customers?include=addresses,attributes,formfields,storecredit,
 *   with `metafields` (GET /v3/customers/metafields);
 * - coupons: an item of GET /v2/coupons, as it is (v2 coupons have no sub-resources);
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

/** Every native record of an entity, for the conformance suite and tests. */
export async function allNative(session: BcSession, entity: EntityType): Promise<Json[]> {
  const pages =
    entity === 'categories'
      ? nativeCategories(session)
      : entity === 'products'
        ? nativeProducts(session)
        : entity === 'coupons'
          ? nativeCoupons(session)
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
