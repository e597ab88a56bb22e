import type { Metafield } from '@replatform/canonical/metafield';
import { MARKER_KEY, MARKER_NAMESPACE, type ShopifyMetafield } from './documents.ts';

/**
 * Two conventions that keep data the model and Shopify do not share in common:
 *
 * - Shopify's own fields that the model has no place for (a product's type and theme template,
 *   a variant's unit cost and customs data, a customer's locale and consent details, an order's
 *   tags and attributes, ...) travel as custom fields of the record in the namespace 'shopify'
 *   (`shopify.product_type`). Another destination keeps them as its own custom fields; a Shopify
 *   destination writes each back into its field.
 * - Fields of the model that Shopify has no place for but that stay useful to the merchant (a
 *   short description, a purchase note, an external product's link, order notes, ...) are written
 *   at a Shopify destination as metafields in the namespace 'replatform', where themes and apps can
 *   read them; reading a Shopify store turns them back into those fields.
 *
 * Shopify's metafields themselves are custom fields with the namespace 'shopify.<namespace>'.
 */

/** Namespace of the custom fields that hold Shopify's own fields. */
export const OWN_NAMESPACE = 'shopify';

/** Namespace of the Shopify metafields that hold fields of the model Shopify has no place for. */
export const CARRIED_NAMESPACE = MARKER_NAMESPACE;

/** Metafield keys (namespace 'replatform') of the model's fields that Shopify has no place for. */
export const carriedKeys = {
  product: {
    shortDescriptionHtml: 'short_description',
    purchaseNote: 'purchase_note',
    externalUrl: 'external_url',
    buttonText: 'button_text',
    sku: 'sku',
    dimensions: 'dimensions',
    attributes: 'attributes',
    options: 'options',
    grouped: 'grouped',
  },
  variant: { descriptionHtml: 'description', dimensions: 'dimensions' },
  order: { notes: 'notes', payment: 'payment' },
} as const;

/** A custom field holding one of Shopify's own fields. */
export function ownField(key: string, value: string, type: string): Metafield {
  return { namespace: OWN_NAMESPACE, key, value, type };
}

/** The value of one of Shopify's own fields among a record's custom fields, if it has one. */
export function ownValue(metafields: readonly Metafield[], key: string): string | undefined {
  return metafields.find((m) => m.namespace === OWN_NAMESPACE && m.key === key)?.value;
}

/** Metafield key (namespace 'replatform') of an order's number at the source, when not its name. */
export const SOURCE_NUMBER_KEY = 'source_number';

/**
 * The migration's own bookkeeping: its marker (replatform.source_id), and the source's order
 * number kept beside the number Shopify gave an order (keepOrderNumbers off). The migration's,
 * not the store's, data: not read back as the record's custom fields.
 */
export function isMarker(m: { namespace: string; key: string }): boolean {
  return m.namespace === MARKER_NAMESPACE && (m.key === MARKER_KEY || m.key === SOURCE_NUMBER_KEY);
}

/**
 * Splits a Shopify record's metafields into the model's custom fields ('shopify.<namespace>') and
 * the values of the carried fields (namespace 'replatform', by key).
 */
export function splitMetafields(
  list: readonly ShopifyMetafield[],
  carried: readonly string[],
): { metafields: Metafield[]; carried: Map<string, string> } {
  const metafields: Metafield[] = [];
  const values = new Map<string, string>();
  for (const m of list) {
    if (isMarker(m)) continue;
    if (m.namespace === CARRIED_NAMESPACE && carried.includes(m.key)) {
      values.set(m.key, m.value);
      continue;
    }
    metafields.push({
      namespace: `${OWN_NAMESPACE}.${m.namespace}`,
      key: m.key,
      value: m.value,
      type: m.type,
    });
  }
  return { metafields, carried: values };
}

/** JSON text parsed, or undefined when it is not JSON. */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
