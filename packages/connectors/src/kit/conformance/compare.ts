import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import { sortMetafields, type Metafield } from '@replatform/canonical/metafield';
import type { Product } from '@replatform/canonical/product';

/**
 * Turns a canonical record into the form two stores can be compared in: platform ids replaced by
 * the source ids they map to, ids that only exist on one side removed, lists whose order carries
 * no meaning sorted, and the fields the destination cannot hold dropped.
 */
export interface ComparableOptions {
  /** Maps a destination id of (entity) back to its source id. */
  toSourceId(entity: EntityType, destinationId: string): string | undefined;
  /** Dotted paths of fields to leave out (the destination's unsupportedFields). */
  ignore: readonly string[];
  /**
   * Names an order line's variant in terms both stores share (see variantKeysOf), from the
   * product and variant ids as the record carries them. Variants are not in the id map, so
   * without it the variant a line points to is left out of the comparison.
   */
  variantKey?(productId: string, variantId: string): string | undefined;
}

function dropPath(value: unknown, path: string[]): void {
  if (value === null || typeof value !== 'object') return;
  const [head, ...rest] = path;
  if (head === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) dropPath(item, path);
    return;
  }
  const record = value as Record<string, unknown>;
  if (rest.length === 0) delete record[head];
  else dropPath(record[head], rest);
}

export { isEmptyValue, valueAt } from '../fields.ts';

/**
 * A resolver for ComparableOptions.variantKey over a store's products: a variant is named by its
 * SKU, or by its option values when it has none.
 */
export function variantKeysOf(
  products: readonly Product[],
): (productId: string, variantId: string) => string | undefined {
  const keys = new Map<string, string>();
  for (const product of products)
    for (const variant of product.variants) {
      const key = variant.sku
        ? `sku:${variant.sku}`
        : `options:${variant.optionValues.map((o) => `${o.name}=${o.value}`).join('/')}`;
      keys.set(`${product.id}\u0000${variant.id}`, key);
    }
  return (productId, variantId) => keys.get(`${productId}\u0000${variantId}`);
}

const mapId = (options: ComparableOptions, entity: EntityType, id: string | null) =>
  id === null ? null : (options.toSourceId(entity, id) ?? `unmapped:${id}`);

// Platforms list tags alphabetically (or in their own collation); the order carries no meaning.
const sortedTags = (tags: string[]) =>
  [...tags].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()) || a.localeCompare(b));

export function comparable<E extends EntityType>(
  entity: E,
  record: EntityRecord[E],
  options: ComparableOptions,
): Record<string, unknown> {
  const copy = structuredClone(record) as Record<string, unknown>;
  delete copy.id;
  if (Array.isArray(copy.metafields))
    copy.metafields = sortMetafields(copy.metafields as Metafield[]);
  switch (entity) {
    case 'categories':
      copy.parentId = mapId(options, 'categories', copy.parentId as string | null);
      break;
    case 'brands':
      copy.parentId = mapId(options, 'brands', copy.parentId as string | null);
      break;
    case 'pages':
      copy.parentId = mapId(options, 'pages', copy.parentId as string | null);
      break;
    case 'products': {
      copy.categoryIds = (copy.categoryIds as string[])
        .map((id) => mapId(options, 'categories', id))
        .sort();
      for (const key of ['upsellIds', 'crossSellIds'] as const)
        copy[key] = (copy[key] as string[]).map((id) => mapId(options, 'products', id)).sort();
      copy.groupedProductIds = (copy.groupedProductIds as string[]).map((id) =>
        mapId(options, 'products', id),
      );
      copy.tags = sortedTags(copy.tags as string[]);
      for (const variant of copy.variants as Record<string, unknown>[]) {
        delete variant.id;
        variant.metafields = sortMetafields(variant.metafields as Metafield[]);
      }
      (copy.variants as { sku: string; position: number }[]).sort(
        (a, b) => a.sku.localeCompare(b.sku) || a.position - b.position,
      );
      break;
    }
    case 'coupons': {
      for (const [key, target] of [
        ['productIds', 'products'],
        ['excludedProductIds', 'products'],
        ['categoryIds', 'categories'],
        ['excludedCategoryIds', 'categories'],
      ] as const)
        copy[key] = (copy[key] as string[]).map((id) => mapId(options, target, id)).sort();
      // Platforms keep e-mail allow-lists as sets, in their own order and case.
      copy.allowedEmails = [
        ...new Set((copy.allowedEmails as string[]).map((e) => e.toLowerCase())),
      ].sort();
      break;
    }
    case 'customers':
      copy.tags = sortedTags(copy.tags as string[]);
      break;
    case 'reviews':
      copy.productId = mapId(options, 'products', copy.productId as string);
      // Platforms keep a reviewer's address in their own case.
      copy.reviewerEmail = (copy.reviewerEmail as string).toLowerCase();
      break;
    case 'orders': {
      copy.customerId = mapId(options, 'customers', copy.customerId as string | null);
      // Refunds name lines by id, which each store assigns: compare by the line's position.
      const lineIds = (copy.lines as { id: string }[]).map((l) => l.id);
      for (const refund of copy.refunds as Record<string, unknown>[]) {
        delete refund.id;
        for (const line of refund.lines as Record<string, unknown>[])
          line.lineId = `line ${lineIds.indexOf(line.lineId as string) + 1}`;
      }
      for (const line of copy.lines as Record<string, unknown>[]) {
        delete line.id;
        const productId = line.productId as string | null;
        const variantId = line.variantId as string | null;
        if (!options.variantKey) delete line.variantId;
        else if (variantId !== null)
          line.variantId =
            (productId === null ? undefined : options.variantKey(productId, variantId)) ??
            `unresolved:${variantId}`;
        line.productId = mapId(options, 'products', productId);
      }
      break;
    }
  }
  for (const path of options.ignore) dropPath(copy, path.split('.'));
  return copy;
}
