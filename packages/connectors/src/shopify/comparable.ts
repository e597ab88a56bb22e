import { sortMetafields, type Metafield } from '@replatform/canonical/metafield';
import type { DestinationFields } from '../kit/fields.ts';
import { defaultAddressIndex, shopifyMetafields } from './from-canonical.ts';
import { OWN_NAMESPACE } from './own-fields.ts';

/**
 * The form a Shopify destination keeps converted fields in (DestinationFields.comparable): what
 * writing a value and reading it back gives, so a verification compares what Shopify kept.
 */

/** Shopify's own fields that Shopify fills in itself when a record is written without them. */
const ownDefaults: Record<'categories' | 'customers' | 'orders', (m: Metafield) => boolean> = {
  // A collection created without a sort order is sorted by hand.
  categories: (m) => m.key === 'sort_order' && m.value === 'MANUAL',
  // Shopify records the level and the time of a consent when it is given without them, and
  // gives an account the shop's language ('en') when none is given.
  customers: (m) =>
    (m.key === 'locale' && m.value === 'en') ||
    (m.key === 'email_marketing_opt_in_level' && m.value === 'SINGLE_OPT_IN') ||
    m.key === 'email_marketing_updated_at',
  // An order cancelled without a reason is cancelled for 'other' reasons.
  orders: (m) => m.key === 'cancel_reason' && m.value === 'OTHER',
};

/**
 * Custom fields as Shopify keeps them: another platform's under a Shopify namespace with a
 * Shopify type (as the write stores them and the read answers them). A field the write leaves out
 * (an empty value, a name taken twice) stays as it was, so it still counts as a difference.
 */
function asShopifyKeeps(entity: keyof typeof ownDefaults | 'products') {
  return (value: unknown): unknown => {
    if (!Array.isArray(value)) return value;
    const out: Metafield[] = [];
    for (const m of value as Metafield[]) {
      if (m.namespace === OWN_NAMESPACE) {
        if (entity === 'products' || !ownDefaults[entity](m)) out.push(m);
        continue;
      }
      const [written] = shopifyMetafields([m], [], { idOf: (_kind, id) => id });
      out.push(
        written
          ? {
              namespace: `${OWN_NAMESPACE}.${written.namespace ?? ''}`,
              key: written.key ?? '',
              value: written.value ?? '',
              type: written.type ?? '',
            }
          : m,
      );
    }
    return sortMetafields(out);
  };
}

type Loose = Record<string, unknown>;

export const shopifyComparable: Record<
  'categories' | 'products' | 'customers' | 'orders',
  NonNullable<DestinationFields['comparable']>
> = {
  categories: { metafields: asShopifyKeeps('categories') },
  products: {
    metafields: asShopifyKeeps('products'),
    'variants.metafields': asShopifyKeeps('products'),
    // Before 'weight': a variant without a weight of its own gets the product's.
    'variants.weight': (weight, product) => weight ?? product.weight ?? null,
    // The product's weight is kept only through its variants: it is kept when a variant weighs
    // it (one without a weight of its own gets it); otherwise it still differs.
    weight: (weight, product) => {
      const variants = Array.isArray(product.variants) ? (product.variants as Loose[]) : [];
      return variants.some((v) => JSON.stringify(v.weight) === JSON.stringify(weight))
        ? null
        : weight;
    },
    status: (status) => (status === 'pending' || status === 'private' ? 'draft' : status),
    taxStatus: (status) => (status === 'shipping' ? 'none' : status),
  },
  customers: {
    metafields: asShopifyKeeps('customers'),
    addresses: (addresses) => {
      if (!Array.isArray(addresses) || addresses.length === 0) return addresses;
      const list = addresses as Loose[];
      const chosen = defaultAddressIndex({
        addresses: list as { isDefaultShipping: boolean; isDefaultBilling: boolean }[],
      } as Parameters<typeof defaultAddressIndex>[0]);
      return list.map((a, i) => ({
        ...a,
        isDefaultBilling: i === chosen,
        isDefaultShipping: i === chosen,
      }));
    },
  },
  orders: { metafields: asShopifyKeeps('orders') },
};
