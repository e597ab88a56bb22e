import type { EntityRecord, EntityType } from '@replatform/canonical/entities';

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

const mapId = (options: ComparableOptions, entity: EntityType, id: string | null) =>
  id === null ? null : (options.toSourceId(entity, id) ?? `unmapped:${id}`);

export function comparable<E extends EntityType>(
  entity: E,
  record: EntityRecord[E],
  options: ComparableOptions,
): Record<string, unknown> {
  const copy = structuredClone(record) as Record<string, unknown>;
  delete copy.id;
  switch (entity) {
    case 'categories':
      copy.parentId = mapId(options, 'categories', copy.parentId as string | null);
      break;
    case 'products': {
      copy.categoryIds = (copy.categoryIds as string[])
        .map((id) => mapId(options, 'categories', id))
        .sort();
      for (const variant of copy.variants as Record<string, unknown>[]) delete variant.id;
      (copy.variants as { sku: string }[]).sort((a, b) => a.sku.localeCompare(b.sku));
      break;
    }
    case 'customers':
      break;
    case 'orders': {
      copy.customerId = mapId(options, 'customers', copy.customerId as string | null);
      for (const line of copy.lines as Record<string, unknown>[]) {
        delete line.id;
        delete line.variantId;
        line.productId = mapId(options, 'products', line.productId as string | null);
      }
      break;
    }
  }
  for (const path of options.ignore) dropPath(copy, path.split('.'));
  return copy;
}
