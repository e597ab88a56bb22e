import { entitySchemas, type EntityRecord, type EntityType } from '@replatform/canonical/entities';
import { z } from 'zod';
import type { Checkpoint, Page } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { brandAttribute, brandToCanonical } from './brand-mapping.ts';
import { couponToCanonical, ruleConditions, zoneOf } from './coupon-mapping.ts';
import { lossesOf, type Loss } from './losses.ts';
import { pageToCanonical } from './page-mapping.ts';
import { magentoNativeFields } from './native-fields.ts';
import {
  configurableChildIds,
  isFoldedChild,
  isJson,
  listIn,
  listOf,
  nativeCategory,
  nativeCustomer,
  nativeOrders,
  nativeProducts,
  pageAfter,
  type Json,
} from './native.ts';
import { criteria, type MagentoSession } from './session.ts';
import { searchResults } from './magento-schemas.ts';
import {
  categoryToCanonical,
  customerToCanonical,
  orderToCanonical,
  productToCanonical,
  type ReadContext,
} from './to-canonical.ts';

/**
 * Readers. Products, customers and orders are paged by keyset: `entity_id > last id` sorted by
 * entity_id ascending with currentPage 1, so a record inserted or deleted mid-read cannot shift
 * a page, and a resumed read starts after the last id it returned. Whether more remains comes
 * from total_count (Magento answers a currentPage past the end with the last page again, so an
 * empty page never signals the end). Categories are few and must come parents first, so they
 * are paged by page number with a stable level/entity_id sort, again bounded by total_count.
 *
 * Each page is read in Magento's own form first (native.ts), then mapped to the model
 * (to-canonical.ts); what the model could not carry is the page's `losses`.
 */

export const pageSizes = {
  categories: 100,
  // Brands are the options of one attribute, answered whole: one page.
  brands: 1000,
  products: 50,
  coupons: 50,
  customers: 100,
  orders: 50,
  // CMS pages are read whole (the engine writes them in one pass), in pages of this size.
  pages: 100,
} as const;

const anyList = searchResults(z.unknown());

function cursorOf(checkpoint: Checkpoint | null): number {
  if (!checkpoint) return 0;
  const n = Number(checkpoint.cursor);
  if (checkpoint.version !== 1 || !Number.isInteger(n) || n < 0) {
    throw new ConnectorError(
      'system',
      'bad_checkpoint',
      `Unusable Magento checkpoint '${checkpoint.cursor}'`,
    );
  }
  return n;
}

interface Mapped<E extends EntityType> {
  sourceId: string;
  native: Json;
  record?: EntityRecord[E];
  reason?: string;
  /** What the record loses beyond its notCarried fields, judged against the store. */
  losses?: Loss[];
}

/** Validates mapped records against the canonical schema; failures become rejected entries. */
function page<E extends EntityType>(
  entity: E,
  mapped: Mapped<E>[],
  next: Checkpoint | null,
): Page<E> {
  const records: EntityRecord[E][] = [];
  const rejected: { sourceId: string; reason: string }[] = [];
  const losses: Loss[] = [];
  const catalogue = magentoNativeFields[entity] ?? {};
  for (const m of mapped) {
    if (!m.record) {
      rejected.push({ sourceId: m.sourceId, reason: m.reason ?? 'not readable' });
      continue;
    }
    const parsed = entitySchemas[entity].safeParse(m.record);
    if (parsed.success) {
      records.push(parsed.data as EntityRecord[E]);
      losses.push(...lossesOf(entity, m.sourceId, m.native, catalogue), ...(m.losses ?? []));
    } else
      rejected.push({
        sourceId: m.sourceId,
        reason: `does not fit the canonical model: ${parsed.error.message.slice(0, 300)}`,
      });
  }
  return {
    records,
    next,
    ...(rejected.length ? { rejected } : {}),
    ...(losses.length ? { losses } : {}),
  };
}

/** What every mapping of a page needs to know about the store. */
export async function readContext(
  session: MagentoSession,
  skus: readonly string[] = [],
): Promise<ReadContext> {
  const [config, roots, currency, mediaUrl, weightUnit, standardTaxClass, sets] = await Promise.all(
    [
      session.storeConfig(),
      session.roots(),
      session.currency(),
      session.productMediaUrl(),
      session.weightUnit(),
      session.taxClassName('2'),
      session.attributeSets(),
    ],
  );
  const idsBySku = new Map<string, string>();
  for (const p of await listIn(session, '/V1/products', 'sku', skus))
    idsBySku.set(String(p.sku).toLowerCase(), String(p.id));
  return {
    session,
    currency,
    mediaUrl,
    baseMediaUrl: config.secure_base_media_url || config.base_media_url,
    roots: roots.all,
    weightUnit,
    standardTaxClass,
    idsBySku,
    attributeSets: sets,
  };
}

// ------------------------------------------------------------------ categories

export async function countCategories(session: MagentoSession): Promise<number> {
  const result = await session.client.get(
    '/V1/categories/list',
    anyList,
    criteria({ filters: [[['level', 2, 'gteq']]], pageSize: 1, currentPage: 1 }),
  );
  return result.total_count;
}

/** One page of categories below the store roots, in native form, parents first. */
export async function nativeCategoryPage(
  session: MagentoSession,
  current: number,
): Promise<{ records: Json[]; pages: number }> {
  const roots = await session.roots();
  // GET /V1/categories/list (admin-schema-2.4.9.yaml GetV1CategoriesList)
  const result = await session.client.get(
    '/V1/categories/list',
    searchResults(z.record(z.string(), z.unknown())),
    criteria({
      filters: [[['level', 2, 'gteq']]],
      sort: [
        ['level', 'ASC'],
        ['entity_id', 'ASC'],
      ],
      pageSize: pageSizes.categories,
      currentPage: current,
    }),
  );
  const pages = Math.ceil(result.total_count / pageSizes.categories);
  const items = current <= pages ? result.items : [];
  const records: Json[] = [];
  for (const c of items) records.push(await nativeCategory(session, c, roots.all));
  return { records, pages };
}

export async function* readCategories(
  session: MagentoSession,
  checkpoint: Checkpoint | null,
): AsyncGenerator<Page<'categories'>> {
  const ctx = await readContext(session);
  for (let current = cursorOf(checkpoint) + 1; ; current++) {
    const { records, pages } = await nativeCategoryPage(session, current);
    const mapped = records.map((c) => ({
      sourceId: String(c.id),
      native: c,
      record: categoryToCanonical(c, ctx),
    }));
    const next = current < pages ? { version: 1 as const, cursor: String(current) } : null;
    yield page('categories', mapped, next);
    if (!next) return;
  }
}

// ------------------------------------------------------------------ brands

/**
 * The options of the manufacturer attribute in native form (GET /V1/products/attributes/
 * manufacturer, admin-schema-2.4.9.yaml GetV1ProductsAttributesAttributeCode), without the empty
 * "no value" option Magento lists first, in the store's order; none when the store has no such
 * attribute. The attribute is fetched afresh (what another connection added or deleted since
 * shows) and becomes the session's cached one, which the writers share.
 */
export async function nativeBrands(session: MagentoSession): Promise<Json[]> {
  const attribute = await session.attribute(brandAttribute, true);
  return (attribute?.options ?? []).filter((o) => o.value !== '').map((o) => ({ ...o }));
}

export async function countBrands(session: MagentoSession): Promise<number> {
  return (await nativeBrands(session)).length;
}

/** Brands are read whole, like categories: one page (the checkpoint has nothing to resume). */
export async function* readBrands(session: MagentoSession): AsyncGenerator<Page<'brands'>> {
  const options = await nativeBrands(session);
  const mapped = options.map((o, index) => ({
    sourceId: String(o.value),
    native: o,
    record: brandToCanonical(o, index),
  }));
  yield page('brands', mapped, null);
}

// ------------------------------------------------------------------ products

/** Children of configurable products that are not visible on their own. */
async function hiddenChildIds(session: MagentoSession): Promise<Set<number>> {
  const children = await configurableChildIds(session);
  const hidden = new Set<number>();
  if (children.size === 0) return hidden;
  for (let after = 0; ;) {
    const { items, total } = await pageAfter(session, '/V1/products', 'entity_id', after, 100, [
      [['visibility', 1]],
    ]);
    for (const p of items) {
      if (children.has(Number(p.id))) hidden.add(Number(p.id));
      after = Math.max(after, Number(p.id));
    }
    if (total <= items.length || !items.length) return hidden;
  }
}

export async function countProducts(session: MagentoSession): Promise<number> {
  const [all, hidden] = await Promise.all([
    session.client.get('/V1/products', anyList, criteria({ pageSize: 1, currentPage: 1 })),
    hiddenChildIds(session),
  ]);
  return all.total_count - hidden.size;
}

/** One page of products in native form after an id: the products and where the next starts. */
export async function nativeProductPage(
  session: MagentoSession,
  after: number,
  children: ReadonlySet<number>,
): Promise<{ records: Json[]; last: number; more: boolean }> {
  // GET /V1/products (admin-schema-2.4.9.yaml GetV1Products)
  const { items, total } = await pageAfter(
    session,
    '/V1/products',
    'entity_id',
    after,
    pageSizes.products,
  );
  const last = items.reduce((n, p) => Math.max(n, Number(p.id)), after);
  const records = await nativeProducts(session, items, children);
  return { records, last, more: items.length > 0 && total > items.length };
}

/** SKUs a page of native products links to (product links and bundle parts). */
function linkedSkus(records: readonly Json[]): string[] {
  return records.flatMap((r) => [
    ...listOf(r.product_links).map((l) => String(l.linked_product_sku)),
    ...listOf((r.extension_attributes as Json | undefined)?.bundle_product_options).flatMap((o) =>
      listOf(o.product_links).map((l) => String(l.sku)),
    ),
  ]);
}

export async function* readProducts(
  session: MagentoSession,
  checkpoint: Checkpoint | null,
): AsyncGenerator<Page<'products'>> {
  const children = await configurableChildIds(session);
  for (let after = cursorOf(checkpoint); ;) {
    const { records, last, more } = await nativeProductPage(session, after, children);
    after = last;
    const ctx = await readContext(session, linkedSkus(records));
    const mapped: Mapped<'products'>[] = [];
    for (const native of records) {
      const { record, reason } = await productToCanonical(native, ctx);
      mapped.push({
        sourceId: String(native.id),
        native,
        ...(record ? { record } : {}),
        ...(reason ? { reason } : {}),
      });
    }
    const next = more ? { version: 1 as const, cursor: String(after) } : null;
    yield page('products', mapped, next);
    if (!next) return;
  }
}

export { isFoldedChild };

// ------------------------------------------------------------------ coupons

/**
 * Cart price rules that take a coupon: coupon_type 2 (SPECIFIC_COUPON) or 3 (AUTO), the values
 * the salesrule table keeps and a search filters on. Rules without a coupon (coupon_type 1) are
 * automatic promotions, not coupons, and are left out; generated pools are counted and refused
 * with their reason.
 */
const withCoupon: [string, string, string][][] = [[['coupon_type', '2,3', 'in']]];

export async function countCoupons(session: MagentoSession): Promise<number> {
  return (
    await session.client.get(
      '/V1/salesRules/search',
      anyList,
      criteria({ filters: withCoupon, pageSize: 1, currentPage: 1 }),
    )
  ).total_count;
}

/** One page of coupon rules in native form: each rule with its primary coupon under `coupon`. */
export async function nativeCouponPage(
  session: MagentoSession,
  after: number,
): Promise<{ records: Json[]; last: number; more: boolean }> {
  // GET /V1/salesRules/search (admin-schema-2.4.9.yaml GetV1SalesRulesSearch)
  const { items, total } = await pageAfter(
    session,
    '/V1/salesRules/search',
    'rule_id',
    after,
    pageSizes.coupons,
    withCoupon,
  );
  // GET /V1/coupons/search (admin-schema-2.4.9.yaml GetV1CouponsSearch)
  const coupons = await listIn(
    session,
    '/V1/coupons/search',
    'rule_id',
    items.map((r) => Number(r.rule_id)),
  );
  const primary = new Map<string, Json>();
  for (const c of coupons) if (c.is_primary === true) primary.set(String(c.rule_id), c);
  const records = items.map((r) => {
    const coupon = primary.get(String(r.rule_id));
    const rule = {
      ...r,
      ...(isJson(r.condition) ? { condition: nativeCondition(r.condition) } : {}),
      ...(isJson(r.action_condition)
        ? { action_condition: nativeCondition(r.action_condition) }
        : {}),
    };
    return coupon ? { ...rule, coupon } : rule;
  });
  const last = items.reduce((n, r) => Math.max(n, Number(r.rule_id)), after);
  return { records, last, more: items.length > 0 && total > items.length };
}

/**
 * A condition tree in native form: a condition on category_ids names its categories as a list,
 * `category_ids`, instead of the comma-separated text in `value`, so that two stores' rules are
 * compared through the id map.
 */
function nativeCondition(condition: Json): Json {
  const { value, ...rest } = condition;
  const out: Json =
    condition.attribute_name === 'category_ids'
      ? {
          ...rest,
          category_ids: String(value ?? '')
            .split(',')
            .map((v) => v.trim())
            .filter((v) => v !== ''),
        }
      : { ...condition };
  if (Array.isArray(condition.conditions))
    out.conditions = listOf(condition.conditions).map(nativeCondition);
  return out;
}

/** Websites of the store a rule can apply to (the admin website 0 is none). */
export async function storeWebsiteIds(session: MagentoSession): Promise<number[]> {
  // GET /V1/store/websites (admin-schema-2.4.9.yaml GetV1StoreWebsites)
  const websites = await session.client.get(
    '/V1/store/websites',
    z.array(z.looseObject({ id: z.number() })),
  );
  return websites.map((w) => w.id).filter((id) => id !== 0);
}

/** The rule applies to fewer customers or websites than all: what the model cannot say. */
function audienceLosses(
  rule: Json,
  websites: readonly number[],
  groups: readonly number[],
): Loss[] {
  const sourceId = String(rule.rule_id);
  const covers = (value: unknown, all: readonly number[]) => {
    const ids = new Set(Array.isArray(value) ? value.map(Number) : []);
    return all.every((id) => ids.has(id));
  };
  const out: Loss[] = [];
  if (!covers(rule.customer_group_ids, groups))
    out.push({
      sourceId,
      field: 'customer_group_ids',
      reason:
        'the rule is for some customer groups only: the model has no customer groups on a coupon, so it arrives usable by every customer',
    });
  if (!covers(rule.website_ids, websites))
    out.push({
      sourceId,
      field: 'website_ids',
      reason:
        'the rule is for some websites of the store only: it arrives usable on the whole destination store',
    });
  return out;
}

export async function* readCoupons(
  session: MagentoSession,
  checkpoint: Checkpoint | null,
): AsyncGenerator<Page<'coupons'>> {
  const [config, currency, websites, groups] = await Promise.all([
    session.storeConfig(),
    session.currency(),
    storeWebsiteIds(session),
    session.customerGroups(),
  ]);
  const timeZone = zoneOf(config.timezone);
  const groupIds = groups.map((g) => g.id);
  for (let after = cursorOf(checkpoint); ;) {
    const { records, last, more } = await nativeCouponPage(session, after);
    after = last;
    const skus = records.flatMap((r) => {
      const c = ruleConditions(r);
      return [...c.skus, ...c.excludedSkus];
    });
    const idsBySku = new Map<string, string>();
    for (const p of await listIn(session, '/V1/products', 'sku', skus))
      idsBySku.set(String(p.sku).toLowerCase(), String(p.id));
    const mapped: Mapped<'coupons'>[] = records.map((native) => {
      const sourceId = String(native.rule_id);
      const result = couponToCanonical(native, { currency, timeZone, idsBySku });
      if ('reason' in result) return { sourceId, native, reason: result.reason };
      const lost = ruleConditions(native).lost.map((what) => ({
        sourceId,
        field: 'condition',
        reason: `${what}: the model has spend limits and product and category limits only, so the coupon arrives without it`,
      }));
      return {
        sourceId,
        native,
        record: result.record,
        losses: [...audienceLosses(native, websites, groupIds), ...lost],
      };
    });
    const next = more ? { version: 1 as const, cursor: String(after) } : null;
    yield page('coupons', mapped, next);
    if (!next) return;
  }
}

// ------------------------------------------------------------------ customers

export async function countCustomers(session: MagentoSession): Promise<number> {
  return (
    await session.client.get(
      '/V1/customers/search',
      anyList,
      criteria({ pageSize: 1, currentPage: 1 }),
    )
  ).total_count;
}

export async function nativeCustomerPage(
  session: MagentoSession,
  after: number,
): Promise<{ records: Json[]; last: number; more: boolean }> {
  // GET /V1/customers/search (admin-schema-2.4.9.yaml GetV1CustomersSearch)
  const { items, total } = await pageAfter(
    session,
    '/V1/customers/search',
    'entity_id',
    after,
    pageSizes.customers,
  );
  const records: Json[] = [];
  for (const c of items) records.push(await nativeCustomer(session, c));
  const last = items.reduce((n, c) => Math.max(n, Number(c.id)), after);
  return { records, last, more: items.length > 0 && total > items.length };
}

export async function* readCustomers(
  session: MagentoSession,
  checkpoint: Checkpoint | null,
): AsyncGenerator<Page<'customers'>> {
  for (let after = cursorOf(checkpoint); ;) {
    const { records, last, more } = await nativeCustomerPage(session, after);
    after = last;
    const mapped = records.map((c) => ({
      sourceId: String(c.id),
      native: c,
      record: customerToCanonical(c),
    }));
    const next = more ? { version: 1 as const, cursor: String(after) } : null;
    yield page('customers', mapped, next);
    if (!next) return;
  }
}

// ------------------------------------------------------------------ orders

export async function countOrders(session: MagentoSession): Promise<number> {
  return (
    await session.client.get('/V1/orders', anyList, criteria({ pageSize: 1, currentPage: 1 }))
  ).total_count;
}

export async function nativeOrderPage(
  session: MagentoSession,
  after: number,
): Promise<{ records: Json[]; last: number; more: boolean }> {
  // GET /V1/orders (admin-schema-2.4.9.yaml GetV1Orders)
  const { items, total } = await pageAfter(
    session,
    '/V1/orders',
    'entity_id',
    after,
    pageSizes.orders,
  );
  const last = items.reduce((n, o) => Math.max(n, Number(o.entity_id)), after);
  return {
    records: await nativeOrders(session, items),
    last,
    more: items.length > 0 && total > items.length,
  };
}

/**
 * A configurable item saved through POST /V1/orders before its child item was added has no
 * child item; such an item carries the bought child's SKU, as every configurable parent item
 * does (the configurable type gives the cart item its child's SKU), so the variant is found
 * through it. One search per page of orders.
 */
async function variantIdsBySku(
  session: MagentoSession,
  orders: readonly Json[],
): Promise<Map<string, string>> {
  const skus = new Set<string>();
  for (const o of orders) {
    const items = listOf(o.items);
    for (const item of items)
      if (
        item.product_type === 'configurable' &&
        item.product_id !== null &&
        !items.some((c) => String(c.parent_item_id ?? '') === String(item.item_id))
      )
        skus.add(String(item.sku));
  }
  const ids = new Map<string, string>();
  for (const p of await listIn(session, '/V1/products', 'sku', [...skus]))
    if (p.type_id !== 'configurable') ids.set(String(p.sku).toLowerCase(), String(p.id));
  return ids;
}

export async function* readOrders(
  session: MagentoSession,
  checkpoint: Checkpoint | null,
): AsyncGenerator<Page<'orders'>> {
  const ctx = await readContext(session);
  for (let after = cursorOf(checkpoint); ;) {
    const { records, last, more } = await nativeOrderPage(session, after);
    after = last;
    const variants = await variantIdsBySku(session, records);
    const mapped: Mapped<'orders'>[] = [];
    for (const native of records) {
      const { record, reason } = await orderToCanonical(native, ctx, variants);
      mapped.push({
        sourceId: String(native.entity_id),
        native,
        ...(record ? { record } : {}),
        ...(reason ? { reason } : {}),
      });
    }
    const next = more ? { version: 1 as const, cursor: String(after) } : null;
    yield page('orders', mapped, next);
    if (!next) return;
  }
}

// ------------------------------------------------------------------ CMS pages

/** Every CMS page of the store (all store views), by id (GET /V1/cmsPage/search). */
export async function nativePages(session: MagentoSession): Promise<Json[]> {
  const out: Json[] = [];
  for (let after = 0; ;) {
    const { items, total } = await pageAfter(
      session,
      '/V1/cmsPage/search',
      'page_id',
      after,
      pageSizes.pages,
    );
    out.push(...items);
    if (total <= items.length || !items.length) return out;
    after = Math.max(...items.map((p) => Number(p.id)));
  }
}

export async function countPages(session: MagentoSession): Promise<number> {
  const result = await session.client.get(
    '/V1/cmsPage/search',
    anyList,
    criteria({ pageSize: 1, currentPage: 1 }),
  );
  return result.total_count;
}

/** CMS pages are read whole: one page of records (the checkpoint has nothing to resume). */
export async function* readPages(session: MagentoSession): AsyncGenerator<Page<'pages'>> {
  const natives = await nativePages(session);
  const mapped: Mapped<'pages'>[] = natives.map((native) => ({
    sourceId: String(native.id),
    native,
    record: pageToCanonical(native),
  }));
  yield page('pages', mapped, null);
}

// ------------------------------------------------------------------ native records

/**
 * Every record of an entity in native form (native-fields.ts), with its id: what the
 * conformance suite compares two stores on.
 */
export async function readNative(
  session: MagentoSession,
  entity: EntityType,
): Promise<{ id: string; record: Json }[]> {
  const out: { id: string; record: Json }[] = [];
  switch (entity) {
    case 'categories':
      for (let current = 1; ; current++) {
        const { records, pages } = await nativeCategoryPage(session, current);
        out.push(...records.map((record) => ({ id: String(record.id), record })));
        if (current >= pages) return out;
      }
    case 'products': {
      const children = await configurableChildIds(session);
      for (let after = 0; ;) {
        const { records, last, more } = await nativeProductPage(session, after, children);
        out.push(...records.map((record) => ({ id: String(record.id), record })));
        after = last;
        if (!more) return out;
      }
    }
    case 'coupons':
      for (let after = 0; ;) {
        const { records, last, more } = await nativeCouponPage(session, after);
        out.push(...records.map((record) => ({ id: String(record.rule_id), record })));
        after = last;
        if (!more) return out;
      }
    case 'customers':
      for (let after = 0; ;) {
        const { records, last, more } = await nativeCustomerPage(session, after);
        out.push(...records.map((record) => ({ id: String(record.id), record })));
        after = last;
        if (!more) return out;
      }
    case 'orders':
      for (let after = 0; ;) {
        const { records, last, more } = await nativeOrderPage(session, after);
        out.push(...records.map((record) => ({ id: String(record.entity_id), record })));
        after = last;
        if (!more) return out;
      }
    case 'brands':
      for (const record of await nativeBrands(session))
        out.push({ id: String(record.value), record });
      return out;
    case 'pages':
      for (const record of await nativePages(session)) out.push({ id: String(record.id), record });
      return out;
    case 'reviews':
    case 'posts':
      // Magento has no product reviews in its web API and no blog: nothing this side can read.
      return out;
  }
}
