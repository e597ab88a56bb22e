import type { EntityRecord, EntityType } from '@replatform/canonical/entities';

/**
 * The ids a record refers to, by entity: a category's or brand's parent, a product's categories, the
 * products and categories a coupon is limited to or excludes, an order's customer and products, a
 * review's product. The same shape on both sides, so it serves for source ids (id map for the
 * write) and destination ids (mapped back when verifying).
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
    case 'brands': {
      const parent = (record as EntityRecord['brands']).parentId;
      return parent ? [['brands', parent]] : [];
    }
    case 'pages': {
      const parent = (record as EntityRecord['pages']).parentId;
      return parent ? [['pages', parent]] : [];
    }
    case 'products': {
      const product = record as EntityRecord['products'];
      return [
        ...product.categoryIds.map((id): [EntityType, string] => ['categories', id]),
        ...productLinks(product).map((id): [EntityType, string] => ['products', id]),
      ];
    }
    case 'coupons': {
      const coupon = record as EntityRecord['coupons'];
      return [
        ...[...coupon.productIds, ...coupon.excludedProductIds].map((id): [EntityType, string] => [
          'products',
          id,
        ]),
        ...[...coupon.categoryIds, ...coupon.excludedCategoryIds].map(
          (id): [EntityType, string] => ['categories', id],
        ),
      ];
    }
    case 'orders': {
      const order = record as EntityRecord['orders'];
      const refs: [EntityType, string][] = order.customerId
        ? [['customers', order.customerId]]
        : [];
      for (const line of order.lines) if (line.productId) refs.push(['products', line.productId]);
      return refs;
    }
    case 'reviews':
      return [['products', (record as EntityRecord['reviews']).productId]];
    default:
      return [];
  }
}

/** Other products a product points at: up-sells, cross-sells, the members of a grouped one. */
export function productLinks(product: EntityRecord['products']): string[] {
  return [
    ...new Set([...product.upsellIds, ...product.crossSellIds, ...product.groupedProductIds]),
  ];
}

/** The source images a product shows (gallery and variant images), by their URL. */
export function imageKeys(product: EntityRecord['products']): string[] {
  return [
    ...new Set([
      ...product.images.map((i) => i.url),
      ...product.variants.flatMap((v) => (v.imageUrl ? [v.imageUrl] : [])),
    ]),
  ];
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

/**
 * A record's storefront path, for the redirect map: the own path of a product, category, brand,
 * page or post ('/shoes/'),
 * null when the store gives none (a draft); undefined for records that have no page of their own.
 */
export function storefrontPath(
  entity: EntityType,
  record: EntityRecord[EntityType],
): string | null | undefined {
  if (entity === 'coupons' || entity === 'customers' || entity === 'orders' || entity === 'reviews')
    return undefined;
  return (record as EntityRecord['products' | 'categories' | 'brands' | 'pages' | 'posts'])
    .sourceUrlPath;
}
