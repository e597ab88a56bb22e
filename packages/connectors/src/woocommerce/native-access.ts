import type { EntityType } from '@replatform/canonical/entities';
import type { WooClient } from './client.ts';
import { switchCouponCode } from './emails.ts';
import { isMarker, markers, metaValue } from './markers.ts';
import { embedded } from './native-fields.ts';
import { pageSize, reviewLists } from './read.ts';
import { anyJson } from './wc-schemas.ts';

/**
 * A store's records as WooCommerce's own API answers them (`context=edit`), with the sub-records
 * a migration reads along with them under the keys native-fields.ts declares: a product's
 * variations, an order's refunds and notes. Used to compare two stores on WooCommerce's own fields
 * (the conformance suite's native round trip, and checks against real stores).
 *
 * The connector's own markers (`_replatform_*` meta data) are left out: they record what an
 * import wrote, not what the merchant holds. So is the "Uncategorized" category, WooCommerce's
 * placeholder that every store has and no migration moves.
 */

type Json = Record<string, unknown>;

function withoutMarkers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutMarkers);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value as Json)) {
    if (key === 'meta_data' && Array.isArray(inner))
      out[key] = inner
        .filter((m) => !isMarker(String((m as { key?: unknown }).key ?? '')))
        .map(withoutMarkers);
    else out[key] = withoutMarkers(inner);
  }
  return out;
}

async function all(client: WooClient, path: string, query: Json = {}): Promise<Json[]> {
  const out: Json[] = [];
  for (let page = 1; ; page++) {
    const result = await client.page(
      path,
      { context: 'edit', orderby: 'id', order: 'asc', ...query, page, per_page: pageSize },
      anyJson,
    );
    out.push(...(result.items as Json[]));
    if (page >= result.totalPages || result.items.length === 0) return out;
  }
}

const routes: Record<EntityType, string> = {
  categories: '/products/categories',
  brands: '/products/brands',
  products: '/products',
  coupons: '/coupons',
  customers: '/customers',
  orders: '/orders',
  reviews: '/products/reviews',
  // WordPress's own (wp/v2), opened by the application password, in every status but the bin.
  pages: '/wp-json/wp/v2/pages',
  posts: '/wp-json/wp/v2/posts',
};

const importersCoupon = (r: Json) =>
  String(r.code ?? '').toLowerCase() === switchCouponCode ||
  metaValue(
    (r.meta_data as { key: string; value: unknown }[] | undefined) ?? [],
    markers.temporaryCoupon,
  ) !== undefined;

/** Every record of an entity with its sub-records, as the store answers them. */
export async function readNative(
  client: WooClient,
  entity: EntityType,
): Promise<{ id: string; record: unknown }[]> {
  // Coupons in every status (WooCommerce lists only published and private ones otherwise),
  // without the importer's own (its e-mail record, temporary coupons of order lines); reviews
  // from each of the lists that hold them between them.
  const listed =
    entity === 'reviews'
      ? (await Promise.all(reviewLists.map((status) => all(client, routes.reviews, { status }))))
          .flat()
          .sort((a, b) => Number(a.id) - Number(b.id))
      : await all(
          client,
          routes[entity],
          entity === 'coupons'
            ? { status: 'any' }
            : entity === 'pages' || entity === 'posts'
              ? { status: 'publish,future,draft,pending,private' }
              : {},
        );
  const records = listed.filter(
    (r) =>
      (entity !== 'categories' || r.slug !== 'uncategorized') &&
      (entity !== 'coupons' || !importersCoupon(r)),
  );
  for (const record of records) {
    const id = Number(record.id);
    if (entity === 'products')
      record[embedded.variations] =
        record.type === 'variable' ? await all(client, `/products/${id}/variations`) : [];
    if (entity === 'orders') {
      // The store-wide refunds route ignores `parent`: each order's own route lists its refunds.
      record[embedded.refunds] = await all(client, `/orders/${id}/refunds`);
      const { data } = await client.get(`/orders/${id}/notes`, { context: 'edit' }, anyJson);
      record[embedded.notes] = data;
    }
  }
  return records.map((record) => ({ id: String(record.id), record: withoutMarkers(record) }));
}

/**
 * Each variation's key both stores share: its SKU, else its product's SKU (or slug) and its
 * attribute values.
 */
export async function variationKeys(client: WooClient): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  for (const { record } of await readNative(client, 'products')) {
    const product = record as Json;
    for (const v of (product[embedded.variations] as Json[] | undefined) ?? []) {
      const sku = String(v.sku ?? '');
      const values = ((v.attributes as Json[] | undefined) ?? [])
        .map((a) => `${String(a.name)}=${String(a.option)}`)
        .join('/');
      keys.set(
        String(v.id),
        sku ? `sku:${sku}` : `product:${String(product.sku || product.slug)}:${values}`,
      );
    }
  }
  return keys;
}

/**
 * What WooCommerce assigns itself when a record is written, and the REST API cannot set: left out
 * of a comparison of two stores' own fields.
 */
const contentAssigned = {
  modified: 'WordPress stamps the modification date itself.',
  modified_gmt: 'WordPress stamps the modification date itself.',
  date: "A draft's date is the day it is written at the destination (WordPress fills it); publication dates are compared in the model (publishedAt).",
  date_gmt:
    "A draft's date is the day it is written at the destination (WordPress fills it); publication dates are compared in the model (publishedAt).",
  author:
    "Each store's own WordPress user: the one of the author's name where the destination has one, else the connected user.",
  featured_media: "The id of the store's own copy of the featured image in its media library.",
};

export const assignedOnWrite: Partial<Record<EntityType, Readonly<Record<string, string>>>> = {
  pages: contentAssigned,
  posts: contentAssigned,
  categories: {
    menu_order: "WooCommerce 11's REST API cannot set a category's sort position.",
  },
  brands: {
    'image.name':
      "The model keeps no title for a brand's logo: WordPress titles the copy after its file.",
  },
  coupons: {
    date_created: 'WooCommerce dates a coupon when it is created.',
    date_created_gmt: 'WooCommerce dates a coupon when it is created.',
    usage_count:
      "WooCommerce counts a coupon's uses from the orders that use it at the destination.",
  },
  customers: {
    date_created: 'WordPress dates an account when it is created.',
    date_created_gmt: 'WordPress dates an account when it is created.',
  },
  orders: {
    number: 'WooCommerce numbers orders itself.',
    date_created: 'WooCommerce dates an order when it is created.',
    date_created_gmt: 'WooCommerce dates an order when it is created.',
    date_modified: 'WooCommerce stamps the modification date itself.',
    date_modified_gmt: 'WooCommerce stamps the modification date itself.',
    'refund_records[].date_created': 'WooCommerce dates a refund when it is recorded.',
    'refund_records[].date_created_gmt': 'WooCommerce dates a refund when it is recorded.',
    'refund_records[].line_items[].meta_data':
      'WooCommerce names the order line a refund gives back by its own item id.',
    'note_records[].date_created': 'WooCommerce dates a note when it is added.',
    'note_records[].date_created_gmt': 'WooCommerce dates a note when it is added.',
  },
};
