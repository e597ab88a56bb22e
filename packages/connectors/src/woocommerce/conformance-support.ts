import type { EntityType } from '@replatform/canonical/entities';
import type { NativeAccess } from '../kit/conformance/conformance-suite.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { WooClient } from './client.ts';
import type { WooCommerceCredentials } from './credentials.ts';
import { assignedOnWrite, readNative, variationKeys } from './native-access.ts';

/**
 * How the conformance suite is to judge WooCommerce (used by the conformance tests): which fields
 * the store decides for itself, which unsupported fields it fills with a value of its own, and
 * how the suite reads a store on WooCommerce's own fields.
 */

/**
 * A store downloads every image it is given by URL into its own media library
 * (wc_rest_upload_image_from_url), so image URLs at the destination are the store's own by design
 * (woocommerce.round-trip.test.ts checks that each image arrived: same file, alt text, title,
 * position); modification dates are the store's too.
 */
export const storeOwned: Partial<Record<EntityType, readonly string[]>> = {
  categories: ['imageUrl'],
  brands: ['imageUrl'],
  products: ['images.url', 'variants.imageUrl', 'updatedAt'],
  orders: ['updatedAt'],
  // A featured image is uploaded into the destination's media library: its address is the store's.
  pages: ['featuredImageUrl'],
  posts: ['featuredImageUrl'],
};

/** Unsupported fields WooCommerce fills itself: its own numbers and dates. */
export const storeAssigned: Partial<Record<EntityType, readonly string[]>> = {
  coupons: ['createdAt'],
  customers: ['createdAt'],
  orders: ['number', 'createdAt', 'refunds.createdAt', 'notes.createdAt'],
  // The connected user when the destination has no user of the author's name; WordPress's own
  // modification date.
  pages: ['authorName', 'updatedAt'],
  posts: ['authorName', 'updatedAt'],
};

/** The store's records as WooCommerce answers them, for the native tests of the suite. */
export function nativeAccess(): NativeAccess<WooCommerceCredentials> {
  const client = (store: { credentials: WooCommerceCredentials }) =>
    new WooClient(store.credentials, { http: loopbackHttp() });
  return {
    read: (store, entity) => readNative(client(store), entity),
    variantKeys: (store) => variationKeys(client(store)),
    assignedOnWrite,
  };
}

/** What storedCount reads of an emulated store (the WooCommerce emulator's store). */
interface EmulatedHoldings {
  counts(): Record<EntityType, number>;
  products: ReadonlyMap<number, unknown>;
  orders: ReadonlyMap<number, unknown>;
  coupons: ReadonlyMap<number, { status: string }>;
  wp: { posts: ReadonlyMap<number, { type: string }> };
}

/**
 * What an emulated store still holds of an entity, the bin included: a product, order or coupon
 * deleted without force is still the store's (the storefront's admin shows it, a re-run's marker
 * lookup finds it), so undo must leave none there either. "Uncategorized" is WooCommerce's own
 * placeholder category, present in every store, and is not counted.
 */
export function storedCount(emulator: { store: EmulatedHoldings }, entity: EntityType): number {
  const { store } = emulator;
  const counts = store.counts();
  if (entity === 'categories') return counts.categories - 1;
  if (entity === 'products') return store.products.size;
  if (entity === 'orders') return store.orders.size;
  if (entity === 'coupons')
    return counts.coupons + [...store.coupons.values()].filter((c) => c.status === 'trash').length;
  if (entity === 'pages' || entity === 'posts') {
    const type = entity === 'pages' ? 'page' : 'post';
    return [...store.wp.posts.values()].filter((p) => p.type === type).length;
  }
  return counts[entity];
}
