import { sortMetafields, type Metafield } from '@replatform/canonical/metafield';
import { metafieldsToMeta, metaToMetafields } from './metafields.ts';

/**
 * Custom fields as a WooCommerce destination keeps them (DestinationFields.comparable): written
 * as meta data (another platform's key prefixed with its namespace) and read back, so a
 * verification compares the meta data WooCommerce holds.
 */
export function asWooKeeps(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return sortMetafields(metaToMetafields(metafieldsToMeta(value as Metafield[])));
}

/** WooCommerce has no archived status: an archived product is written as private. */
export const statusKept = (value: unknown): unknown => (value === 'archived' ? 'private' : value);
