import { createHash } from 'node:crypto';

/**
 * What the connector leaves on records it writes, in meta_data (WooCommerce keeps `_`-prefixed
 * keys hidden from shoppers and the admin's custom-fields box, and returns them over the API). A
 * store's own `_replatform_*` meta is never read as the merchant's data.
 *
 * - `_replatform_source_id`: the source record's id, so a run that crashed after the store saved a
 *   record but before our id map did finds it again instead of creating it twice;
 * - `_replatform_hash`: a digest of what was written, so an unchanged record is skipped;
 * - `_replatform_images`: a digest of the image list, so an update does not send the images
 *   again when they did not change;
 * - on orders, `_replatform_source_number` and `_replatform_source_created_at` keep the source's
 *   order number and date (WooCommerce assigns its own and ignores `date_created` on orders);
 * - `_replatform_tax` on order lines and shipping lines and `_replatform_tax_total` on a fee line
 *   carry historical taxes, which a store only ever calculates itself (see from-canonical.ts);
 * - `_replatform_method_id` on a shipping line that had no method code at the source: WooCommerce
 *   requires one, so the line is written with 'other' and read back without it;
 * - `_replatform_sku` on a line whose product no longer exists: WooCommerce answers a line's SKU
 *   from its product, so a custom line keeps the SKU it was sold under here;
 * - `_replatform_temporary_coupon` on a coupon made only to record an order's historical coupon
 *   line (its value: the source order's id), so one left behind by an interrupted write is known
 *   as ours and replaced, never taken for the merchant's own coupon;
 * - `_replatform_parked_coupon` on a migrated coupon set aside as a draft while an order's
 *   historical coupon line is recorded with a temporary coupon of its code (its value: the
 *   status to restore, '' once restored), so one left a draft by an interrupted write is known
 *   and published again.
 *
 * Customers are the exception: WordPress counts a user meta key with a leading underscore as
 * protected, and WooCommerce's customers route neither writes nor answers protected meta. Their
 * markers are `replatform_source_id` and `replatform_hash` (customerMarkers).
 */
export const markers = {
  sourceId: '_replatform_source_id',
  hash: '_replatform_hash',
  images: '_replatform_images',
  sourceNumber: '_replatform_source_number',
  sourceCreatedAt: '_replatform_source_created_at',
  tax: '_replatform_tax',
  taxTotal: '_replatform_tax_total',
  shippingCode: '_replatform_method_id',
  sku: '_replatform_sku',
  temporaryCoupon: '_replatform_temporary_coupon',
  parkedCoupon: '_replatform_parked_coupon',
} as const;

export const customerMarkers = {
  sourceId: 'replatform_source_id',
  hash: 'replatform_hash',
} as const;

/** Meta keys the connector writes itself; never read as the merchant's own meta data. */
export const isMarker = (key: string) => /^_?replatform_/.test(key);

/** Orders the connector creates without a source of their own say so in created_via. */
export const createdVia = 'replatform';

export function metaValue(list: readonly { key: string; value: unknown }[], key: string): unknown {
  return list.find((m) => m.key === key)?.value;
}

export function sourceIdOf(
  list: readonly { key: string; value: unknown }[],
  key: string = markers.sourceId,
): string | undefined {
  const value = metaValue(list, key);
  return value === undefined || value === null ? undefined : String(value);
}

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, stable(v)]),
    );
  return value;
}

/** A digest of a request body, independent of key order. */
export function digest(value: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(stable(value)))
    .digest('hex')
    .slice(0, 32);
}
