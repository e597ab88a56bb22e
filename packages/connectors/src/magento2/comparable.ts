import { sortMetafields, type Metafield } from '@replatform/canonical/metafield';
import { foreignAttributeCode, isMagento, metafieldValue } from './metafields.ts';

/**
 * Another platform's custom fields of a product as a Magento destination keeps them
 * (DestinationFields.comparable): a product attribute named after the namespace and key
 * (magento.<namespace>_<key>), a text area on the product, text on a child product. A value
 * that the attribute would keep in another form (a list written as comma-separated text) stays
 * as it was, so it still counts as a difference.
 */
export function asMagentoKeeps(type: 'textarea' | 'string') {
  return (value: unknown): unknown => {
    if (!Array.isArray(value)) return value;
    return sortMetafields(
      (value as Metafield[]).map((m) => {
        if (isMagento(m)) return m;
        const kept = metafieldValue(m);
        return typeof kept === 'string' && kept === m.value
          ? { namespace: 'magento', key: foreignAttributeCode(m), value: m.value, type }
          : m;
      }),
    );
  };
}
