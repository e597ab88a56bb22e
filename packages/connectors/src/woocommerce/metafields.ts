import type { Metafield } from '@replatform/canonical/metafield';
import { isMarker } from './markers.ts';

/**
 * WooCommerce meta data <-> canonical metafields. Meta data as the REST API answers it is what
 * WooCommerce itself does not manage (its own keys are fields of the record): a merchant's custom
 * fields and plugins' data, with or without a leading underscore. Each entry becomes a metafield
 * of namespace 'woocommerce' with the key as the store keeps it; a text value stays text (type
 * 'string'), anything else (numbers, arrays and objects WordPress stored serialised) becomes JSON
 * text (type 'json') and is written back as the same JSON value.
 */

export const wooNamespace = 'woocommerce';

export function metaToMetafields(meta: readonly { key: string; value: unknown }[]): Metafield[] {
  return meta
    .filter((m) => m.key !== '' && !isMarker(m.key))
    .map((m) =>
      typeof m.value === 'string'
        ? { namespace: wooNamespace, key: m.key, value: m.value, type: 'string' }
        : {
            namespace: wooNamespace,
            key: m.key,
            value: JSON.stringify(m.value ?? null),
            type: 'json',
          },
    );
}

/**
 * Meta data entries for metafields. A metafield of another platform keeps its namespace as a
 * prefix of the key ('shopify.custom.fabric'), so two namespaces never collide.
 */
export function metafieldsToMeta(fields: readonly Metafield[]): { key: string; value: unknown }[] {
  return fields.map((f) => {
    const key = f.namespace === wooNamespace ? f.key : `${f.namespace}.${f.key}`;
    if (f.type !== 'json') return { key, value: f.value };
    try {
      return { key, value: JSON.parse(f.value) as unknown };
    } catch {
      return { key, value: f.value };
    }
  });
}
