import { sortMetafields, type Metafield } from '@replatform/canonical/metafield';
import { foreignAttributeCode, isMagento, metafieldValue } from './metafields.ts';
import { attributeCodeFor } from './session.ts';

/**
 * Another platform's custom fields of a product as a Magento destination keeps them
 * (DestinationFields.comparable): a product attribute named after the namespace and key
 * (magento.<namespace>_<key>), a text area on the product, text on a child product. A value
 * that the attribute would keep in another form (a list written as comma-separated text) stays
 * as it was, so it still counts as a difference.
 */
/**
 * The text an attribute keeps of a custom field's value; undefined for a list, which becomes
 * comma-separated text (its items can no longer be told apart).
 */
function textKept(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return undefined;
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function asMagentoKeeps(type: 'textarea' | 'string') {
  return (value: unknown): unknown => {
    if (!Array.isArray(value)) return value;
    return sortMetafields(
      (value as Metafield[]).map((m) => {
        if (isMagento(m)) return m;
        return textKept(metafieldValue(m)) === m.value
          ? { namespace: 'magento', key: foreignAttributeCode(m), value: m.value, type }
          : m;
      }),
    );
  };
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
