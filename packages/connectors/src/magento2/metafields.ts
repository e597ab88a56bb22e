import type { Metafield } from '@replatform/canonical/metafield';

/**
 * Magento's own fields without a field in the model travel as metafields in the 'magento'
 * namespace: the key is the attribute code or the field's path ('meta_keyword',
 * 'stock_item.min_sale_qty', 'payment.po_number'), the value its text (JSON text for lists and
 * objects), the type the attribute's frontend input or the value's JSON type. A Magento
 * destination writes each back where it came from.
 */

export const MAGENTO = 'magento';

export function magentoMetafield(key: string, value: unknown, type?: string): Metafield {
  const kind =
    type ??
    (typeof value === 'number'
      ? 'number'
      : typeof value === 'boolean'
        ? 'boolean'
        : typeof value === 'string'
          ? 'string'
          : 'json');
  return {
    namespace: MAGENTO,
    key,
    value: typeof value === 'string' ? value : JSON.stringify(value),
    type: kind,
  };
}

/** The value a Magento metafield stands for, as the API takes it. */
export function metafieldValue(field: Metafield): unknown {
  switch (field.type) {
    case 'json':
      try {
        return JSON.parse(field.value) as unknown;
      } catch {
        return field.value;
      }
    case 'number':
      return Number(field.value);
    case 'boolean':
      return field.value === 'true';
    default:
      return field.value;
  }
}

export const isMagento = (field: Metafield) => field.namespace === MAGENTO;

/** The 'magento' metafields by key. */
export function magentoFields(fields: readonly Metafield[]): Map<string, Metafield> {
  return new Map(fields.filter(isMagento).map((f) => [f.key, f]));
}

/**
 * The code of the Magento attribute that keeps another platform's custom field: namespace and key
 * in lower-case letters, digits and underscores, starting with a letter, at most 60 characters.
 */
export function foreignAttributeCode(field: Metafield): string {
  const raw = `${field.namespace.split('.').pop() ?? field.namespace}_${field.key}`;
  const code = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (/^[a-z]/.test(code) ? code : `cf_${code}`).slice(0, 60);
}
