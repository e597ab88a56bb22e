import type { EntityType } from '@replatform/canonical/entities';

/**
 * How the conformance suite is to judge WooCommerce as a destination (used by the conformance
 * tests): which fields the store decides for itself, which unsupported fields it fills with a
 * value of its own, and which warning tells about which unsupported field.
 */

/**
 * A store downloads every image it is given by URL into its own media library
 * (wc_rest_upload_image_from_url), so image URLs at the destination are the store's own by design
 * (woocommerce.round-trip.test.ts checks that each image arrived: same file, alt text, position);
 * modification dates are the store's too.
 */
export const storeOwned: Partial<Record<EntityType, readonly string[]>> = {
  categories: ['imageUrl'],
  products: ['images.url', 'variants.imageUrl', 'updatedAt'],
  orders: ['updatedAt'],
};

/** Unsupported fields WooCommerce fills itself: its own order numbers and creation dates. */
export const storeAssigned: Partial<Record<EntityType, readonly string[]>> = {
  customers: ['createdAt'],
  orders: ['number', 'createdAt'],
};

const warningPatterns: Record<string, RegExp> = {
  'categories.position': /sort position/,
  'products.seoTitle': /SEO title/,
  'products.seoDescription': /SEO title or description/,
  'customers.acceptsMarketing': /marketing consent/,
  'customers.note': /customer note/,
  'customers.tags': /customer tags/,
  'customers.createdAt': /registration date/,
  'orders.number': /numbers and dates orders itself/,
  'orders.createdAt': /numbers and dates orders itself/,
};

/** Whether one of a record's warnings is the one WooCommerce's connector gives for `field`. */
export function warnsAbout(
  entity: EntityType,
  field: string,
  warnings: readonly string[],
): boolean {
  const pattern = warningPatterns[`${entity}.${field}`];
  return pattern ? warnings.some((w) => pattern.test(w)) : warnings.length > 0;
}
