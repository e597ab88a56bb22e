import { z } from 'zod';

/**
 * A custom field the merchant (or a plugin or app) keeps on a record, with no field of its own in
 * the model: WooCommerce meta_data, Shopify metafields, BigCommerce custom fields and metafields,
 * Magento custom attributes. Carried as text so every platform can hold it.
 *
 * Namespaces name where the field came from: 'woocommerce' for WooCommerce meta (the key as the
 * store keeps it), 'shopify.<namespace>' for a Shopify metafield, 'bigcommerce' for a custom field,
 * 'bigcommerce.<namespace>' for a metafield, 'magento' for a custom attribute. A destination writes
 * them under its own mechanism and keeps the namespace where it can (Shopify metafields take it
 * as their namespace; WooCommerce meta keys are prefixed when the namespace is not its own).
 */
export const metafieldSchema = z.strictObject({
  namespace: z.string().min(1),
  key: z.string().min(1),
  /** The value as text; structured values are JSON text (and `type` says 'json'). */
  value: z.string(),
  /**
   * The value's kind where the source declares one ('single_line_text_field', 'json',
   * 'number_integer'); 'string' when it does not.
   */
  type: z.string().min(1),
});
export type Metafield = z.infer<typeof metafieldSchema>;

/** Metafields in a stable order (namespace, then key), as comparisons need them. */
export function sortMetafields(fields: readonly Metafield[]): Metafield[] {
  return [...fields].sort(
    (a, b) =>
      a.namespace.localeCompare(b.namespace) ||
      a.key.localeCompare(b.key) ||
      a.value.localeCompare(b.value),
  );
}
