import type { EntityRecord, EntityType } from '@replatform/canonical/entities';

/**
 * The ids a record refers to, by entity: a category's parent, a product's categories, an
 * order's customer and products. The same shape on both sides, so it serves for source ids
 * (id map for the write) and destination ids (mapped back when verifying).
 */
export function references(
  entity: EntityType,
  record: EntityRecord[EntityType],
): [EntityType, string][] {
  switch (entity) {
    case 'categories': {
      const parent = (record as EntityRecord['categories']).parentId;
      return parent ? [['categories', parent]] : [];
    }
    case 'products':
      return (record as EntityRecord['products']).categoryIds.map((id) => ['categories', id]);
    case 'orders': {
      const order = record as EntityRecord['orders'];
      const refs: [EntityType, string][] = order.customerId
        ? [['customers', order.customerId]]
        : [];
      for (const line of order.lines) if (line.productId) refs.push(['products', line.productId]);
      return refs;
    }
    default:
      return [];
  }
}

/** Groups references by entity, without duplicates. */
export function referencesByEntity(
  entity: EntityType,
  records: readonly EntityRecord[EntityType][],
): Map<EntityType, Set<string>> {
  const out = new Map<EntityType, Set<string>>();
  for (const record of records) {
    for (const [e, id] of references(entity, record)) {
      let set = out.get(e);
      if (!set) out.set(e, (set = new Set()));
      set.add(id);
    }
  }
  return out;
}
