import { sortMetafields, type Metafield } from '@replatform/canonical/metafield';
import { foreignAttributeCode, isMagento } from './metafields.ts';
import { magentoMethodFor, NO_SKU } from './order-values.ts';
import { attributeCodeFor } from './session.ts';

/**
 * Another platform's custom fields of a product as a Magento destination keeps them
 * (DestinationFields.comparable): a product attribute named after the namespace and key
 * (magento.<namespace>_<key>) holding the field's text as it was, a text area on the product,
 * text on a child product.
 */
export function asMagentoKeeps(type: 'textarea' | 'string') {
  return (value: unknown): unknown => {
    if (!Array.isArray(value)) return value;
    return sortMetafields(
      (value as Metafield[]).map((m) =>
        isMagento(m)
          ? m
          : { namespace: 'magento', key: foreignAttributeCode(m), value: m.value, type },
      ),
    );
  };
}

type Form = Readonly<Record<string, unknown>>;
type Variant = { metafields?: Metafield[]; weight?: unknown };

/**
 * A product Magento writes as one simple (or virtual, downloadable) product: its only variant is
 * the product itself, so the two share one weight and one set of attributes.
 */
function onlyVariant(record: Form): Variant | undefined {
  const variants = record.variants;
  if (record.type === 'variable' || !Array.isArray(variants) || variants.length !== 1)
    return undefined;
  return variants[0] as Variant;
}

/** A product's custom fields with those of its only variant, which Magento keeps on the product. */
export function productMetafieldsKept(value: unknown, record: Form): unknown {
  const variant = onlyVariant(record);
  const own = Array.isArray(value) ? (value as Metafield[]) : [];
  return asMagentoKeeps('textarea')(variant ? [...own, ...(variant.metafields ?? [])] : value);
}

/** A variant's custom fields: on its child product, or on the product when it is the only one. */
export function variantMetafieldsKept(value: unknown, record: Form): unknown {
  return onlyVariant(record) ? [] : asMagentoKeeps('string')(value);
}

/** A product without a weight of its own weighs what its only variant weighs in Magento. */
export function weightKept(value: unknown, record: Form): unknown {
  const variant = onlyVariant(record);
  return value === null && variant ? (variant.weight ?? null) : value;
}

/**
 * A variant's tax class: a Magento child product has a class of its own, so a variant that
 * names its product's class and one that follows the product (null) are the same.
 */
export const variantTaxClassKept = (value: unknown, record: Form): unknown =>
  value !== null && value === record.taxClass ? null : value;

/** The Magento method an order is kept with (the original code is kept in its information). */
export const paymentMethodKept = (value: unknown): unknown =>
  typeof value === 'string' ? magentoMethodFor(value) : value;

/** An order address without an e-mail of its own gets the order's from Magento. */
export const addressEmailKept = (value: unknown, record: Form): unknown =>
  value === '' ? record.email : value;

/** An order line without a SKU is written with Magento's required SKU as NO_SKU. */
export const lineSkuKept = (value: unknown): unknown => (value === '' ? NO_SKU : value);

/**
 * A line's entries (personalisation, chosen options) as the item's description keeps them: one
 * 'key: value' line per entry, in their order.
 */
export function lineMetaKept(value: unknown): unknown {
  if (!Array.isArray(value) || value.length === 0) return value;
  const entries = value as { key: string; value: string }[];
  if (entries.length === 1 && entries[0]?.key === 'description') return value;
  return [
    {
      key: 'description',
      value: entries
        .map((m) => (m.key === 'description' ? m.value : `${m.key}: ${m.value}`))
        .join('\n'),
    },
  ];
}

type Axis = { name: string; shared: { slug: string } | null };

/**
 * Attributes and options as Magento keeps them: every Magento attribute is store-wide, found or
 * created by its code (made from the store-wide slug, or else from the name).
 */
export function asStoreWide(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return (value as Axis[]).map((a) => ({
    ...a,
    shared: { slug: attributeCodeFor(a.shared?.slug ?? a.name) },
  }));
}

/** A new Magento category shows products unless told otherwise: 'default' is 'products'. */
export const displayTypeKept = (value: unknown): unknown =>
  value === 'default' ? 'products' : value;

/** Magento products are enabled or disabled: every status but 'active' is disabled ('draft'). */
export const statusKept = (value: unknown): unknown =>
  typeof value === 'string' && value !== 'active' ? 'draft' : value;

/** External products are written as simple ones (their link is reported as not kept). */
export const typeKept = (value: unknown): unknown => (value === 'external' ? 'simple' : value);
