import { sortMetafields, type Metafield } from '@replatform/canonical/metafield';

/**
 * Another platform's custom fields as a BigCommerce destination keeps them
 * (DestinationFields.comparable): metafields under the same namespace, read back as
 * 'bigcommerce.<namespace>' with a text value. Fields BigCommerce refuses (empty, or a name or
 * value too long) stay as they were, so they still count as a difference.
 */
export function asBigCommerceKeeps(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return sortMetafields(
    (value as Metafield[]).map((m) =>
      m.namespace.startsWith('bigcommerce') ||
      m.namespace.length > 64 ||
      m.key.length > 64 ||
      m.value === '' ||
      m.value.length > 65_535
        ? m
        : { namespace: `bigcommerce.${m.namespace}`, key: m.key, value: m.value, type: 'string' },
    ),
  );
}
