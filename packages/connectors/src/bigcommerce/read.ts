import type { z } from 'zod';
import { entitySchemas, type EntityRecord, type EntityType } from '@replatform/canonical/entities';
import type { Checkpoint, Page } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { nativeLosses, type Loss, type Neutral } from './losses.ts';
import { brandToCanonical } from './map-brand.ts';
import { categoryToCanonical, productToCanonical } from './map-catalog.ts';
import { couponToCanonical } from './map-coupon.ts';
import { customerToCanonical } from './map-customer.ts';
import { orderToCanonical } from './map-order.ts';
import { reviewToCanonical } from './map-review.ts';
import { blogPostToCanonical, notContentReason, webPageToCanonical } from './map-content.ts';
import {
  nativeBrands,
  nativeCategories,
  nativeCoupons,
  allWebPages,
  isContentPage,
  nativeCustomers,
  nativePosts,
  nativeOrders,
  nativeProducts,
  nativeReviews,
  reviewPositionOf,
  startPageOf,
  type Json,
  type NativePage,
} from './native.ts';
import { bigCommerceNativeFields } from './native-fields.ts';
import {
  blogPostSchema,
  brandFullSchema,
  webPageSchema,
  couponSchema,
  customerSchema,
  orderSchema,
  productSchema,
  reviewSchema,
  treeCategorySchema,
} from './payloads.ts';
import type { BcSession } from './session.ts';

/**
 * Reading pages of canonical records from the native records of native.ts. The checkpoint cursor
 * is the next page number; each record is parsed and mapped on its own, so one odd record is
 * reported as rejected while the rest of the page goes on. Fields the model cannot carry are
 * reported per record (Page.losses).
 */

/** Products come with variants, images and custom fields: 100 keeps an answer a few MB at most. */
export const pageSizes: Record<EntityType, number> = {
  categories: 250,
  // brands_catalog.v3.yml getBrands takes `limit`; v3 lists give at most 250.
  brands: 250,
  products: 100,
  // marketing.v2.yml getCoupons takes `limit`; v2 lists give at most 250.
  coupons: 250,
  customers: 250,
  orders: 50,
  // products_catalog.v3.yml getProductReviews takes `limit` up to 250.
  reviews: 250,
  // pages.v3.yml getPages takes `limit` (v3 lists give at most 250); pages are read whole.
  pages: 250,
  // store_content.v2.yml getBlogPosts: `limit` at most 250 (and `page` at most 50).
  posts: 250,
};

type Rejected = { sourceId: string; reason: string };

function startPage(checkpoint: Checkpoint | null): number {
  if (!checkpoint) return 1;
  if (checkpoint.version !== 1) {
    throw new ConnectorError(
      'system',
      'bad_checkpoint',
      `Unknown BigCommerce checkpoint '${checkpoint.cursor}'`,
    );
  }
  return startPageOf(checkpoint.cursor);
}

const next = (page: number | null): Checkpoint | null =>
  page === null ? null : { version: 1, cursor: String(page) };

/**
 * What BigCommerce gives a record that has nothing in a field the model cannot carry, by the
 * field's path: a record holding that has nothing to report there.
 */
export const neutralValues: Partial<Record<EntityType, Record<string, Neutral>>> = {
  customers: {
    origin_channel_id: 1,
    channel_ids: [1],
    'addresses[].address_type': (address: Record<string, unknown>) =>
      address.company ? 'commercial' : 'residential',
  },
  orders: {
    channel_id: 1,
    // A migration's own mark of imported orders.
    external_source: (order: Record<string, unknown>) =>
      order.external_source === 'M-MIG' ? 'M-MIG' : null,
    'products[].name_merchant': (line: Record<string, unknown>) => line.name,
    'fees[].display_name_merchant': (fee: Record<string, unknown>) => fee.display_name_customer,
  },
};

/** Parses with the platform schema, maps, and checks the canonical record. */
function convert<E extends EntityType, T>(
  entity: E,
  raw: Json,
  schema: z.ZodType<T>,
  map: (parsed: T, raw: Json) => EntityRecord[E],
  extraLosses: (raw: Json) => Loss[] = () => [],
): { record?: EntityRecord[E]; rejected?: Rejected; losses: Loss[] } {
  const sourceId = String(raw.id ?? raw.category_id ?? '?');
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    return {
      losses: [],
      rejected: {
        sourceId,
        reason: `unexpected BigCommerce data: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`,
      },
    };
  }
  try {
    const record = map(parsed.data, raw);
    const checked = entitySchemas[entity].safeParse(record);
    if (!checked.success) {
      return {
        losses: [],
        rejected: {
          sourceId,
          reason: `cannot be represented: ${checked.error.issues[0]?.path.join('.')} ${checked.error.issues[0]?.message}`,
        },
      };
    }
    const losses = [
      ...nativeLosses(raw, bigCommerceNativeFields[entity] ?? {}, neutralValues[entity]),
      ...extraLosses(raw),
    ];
    return { record: checked.data, losses };
  } catch (error) {
    return {
      losses: [],
      rejected: { sourceId, reason: error instanceof Error ? error.message : String(error) },
    };
  }
}

function pageOf<E extends EntityType>(
  results: { record?: EntityRecord[E]; rejected?: Rejected; losses: Loss[] }[],
  nextPage: number | null,
): Page<E> {
  const records = results.flatMap((r) => (r.record ? [r.record] : []));
  const rejected = results.flatMap((r) => (r.rejected ? [r.rejected] : []));
  const losses = results.flatMap((r) =>
    r.record ? r.losses.map((l) => ({ sourceId: r.record?.id ?? '', ...l })) : [],
  );
  return {
    records,
    next: next(nextPage),
    ...(rejected.length ? { rejected } : {}),
    ...(losses.length ? { losses } : {}),
  };
}

async function* mapPages<E extends EntityType>(
  pages: AsyncIterable<NativePage>,
  convertOne: (raw: Json) => ReturnType<typeof convert<E, unknown>>,
): AsyncIterable<Page<E>> {
  for await (const page of pages) yield pageOf<E>(page.records.map(convertOne), page.next);
}

export async function* readCategories(
  session: BcSession,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<'categories'>> {
  yield* mapPages<'categories'>(nativeCategories(session, startPage(checkpoint)), (raw) =>
    convert('categories', raw, treeCategorySchema, categoryToCanonical),
  );
}

export async function* readBrands(
  session: BcSession,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<'brands'>> {
  yield* mapPages<'brands'>(nativeBrands(session, startPage(checkpoint)), (raw) =>
    convert('brands', raw, brandFullSchema, brandToCanonical),
  );
}

export async function* readProducts(
  session: BcSession,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<'products'>> {
  const [{ units }, brands] = await Promise.all([session.store(), session.brands()]);
  const ctx = { units, brandName: (id: number) => brands.get(id)?.name ?? '' };
  yield* mapPages<'products'>(nativeProducts(session, startPage(checkpoint)), (raw) =>
    convert('products', raw, productSchema, (p, r) => productToCanonical(p, r, ctx)),
  );
}

export async function* readCoupons(
  session: BcSession,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<'coupons'>> {
  const { units } = await session.store();
  yield* mapPages<'coupons'>(nativeCoupons(session, startPage(checkpoint)), (raw) =>
    convert('coupons', raw, couponSchema, (c, r) => couponToCanonical(c, r, units.currency)),
  );
}

export async function* readCustomers(
  session: BcSession,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<'customers'>> {
  const attributes = new Map((await session.customerAttributes()).map((a) => [a.id, a]));
  yield* mapPages<'customers'>(nativeCustomers(session, startPage(checkpoint)), (raw) =>
    convert('customers', raw, customerSchema, (c, r) => customerToCanonical(c, r, attributes)),
  );
}

/** What an order loses beyond its fields declared not carried: shipping addresses after the first. */
export function orderLosses(order: Json): Loss[] {
  const addresses = (order.shipping_addresses as Json[] | undefined) ?? [];
  return addresses.length > 1
    ? [
        {
          field: 'shipping_addresses',
          reason: `the model keeps one shipping address per order: only the first of ${addresses.length} was carried`,
        },
      ]
    : [];
}

export async function* readOrders(
  session: BcSession,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<'orders'>> {
  for await (const page of nativeOrders(session, startPage(checkpoint))) {
    const ctx = { liveProducts: page.liveProducts };
    const results = page.records.map((raw) =>
      convert('orders', raw, orderSchema, (o, r) => orderToCanonical(o, r, ctx), orderLosses),
    );
    yield pageOf<'orders'>(results, page.next);
  }
}

/**
 * Reviews, product by product (native.ts nativeReviews); the checkpoint names the last product
 * read, or the review page of a product to go on from.
 */
export async function* readReviews(
  session: BcSession,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<'reviews'>> {
  if (checkpoint && checkpoint.version !== 1) {
    throw new ConnectorError(
      'system',
      'bad_checkpoint',
      `Unknown BigCommerce checkpoint '${checkpoint.cursor}'`,
    );
  }
  const start = checkpoint ? reviewPositionOf(checkpoint.cursor) : undefined;
  for await (const page of nativeReviews(session, start)) {
    const results = page.records.map((raw) =>
      convert('reviews', raw, reviewSchema, (r) => reviewToCanonical(r, Number(raw.product_id))),
    );
    const converted = pageOf<'reviews'>(results, null);
    yield { ...converted, next: page.next === null ? null : { version: 1, cursor: page.next } };
  }
}

/**
 * Web pages, read whole (one page of records): content pages (page, raw, contact_form) are read;
 * menu links and the blog's own page are reported as not read, with the reason.
 */
export async function* readPages(
  session: BcSession,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<'pages'>> {
  if (checkpoint) startPage(checkpoint);
  const all = await allWebPages(session);
  const results = all.map((raw) =>
    isContentPage(raw)
      ? convert('pages', raw, webPageSchema, webPageToCanonical)
      : {
          losses: [],
          rejected: {
            sourceId: String(raw.id ?? '?'),
            reason: `not read: ${notContentReason({ type: String(raw.type), link: typeof raw.link === 'string' ? raw.link : null })}`,
          },
        },
  );
  yield pageOf<'pages'>(results, null);
}

export async function* readPosts(
  session: BcSession,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<'posts'>> {
  const { secure_url: storefront } = await session.store();
  yield* mapPages<'posts'>(nativePosts(session, startPage(checkpoint)), (raw) =>
    convert('posts', raw, blogPostSchema, (p) => blogPostToCanonical(p, storefront)),
  );
}
