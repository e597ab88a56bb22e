import {
  platforms,
  wordpressAccessMissing,
  type ContentAccess,
  unsupportedDataTypes,
  unwritableDataTypes,
  type DataTypeName,
  type Platform,
} from '@replatform/contracts/migration';
import type { StoredMigration } from '@replatform/db/migrations-repository';

const isPlatform = (value: string): value is Platform =>
  (platforms as readonly string[]).includes(value);

/**
 * Whether a data type can be counted in the migration's source: not when one of its platforms
 * (the destination may not be chosen yet) cannot hold the type at all (reviews and Magento), or
 * the destination cannot take it (brands into Shopify), or a WooCommerce side's connection does
 * not open its WordPress pages and posts (`access`); such a type counts 0 without asking the
 * store, since it cannot move.
 */
export function countable(
  migration: Pick<StoredMigration, 'sourceStore' | 'destinationStore'>,
  type: DataTypeName,
  access: ContentAccess = {},
): boolean {
  const { sourceStore: source, destinationStore: destination } = migration;
  if (isPlatform(source) && unsupportedDataTypes[source][type] !== undefined) return false;
  if (
    wordpressAccessMissing(type, 'source', source, access) ||
    wordpressAccessMissing(type, 'destination', destination, access)
  )
    return false;
  if (!isPlatform(destination)) return true;
  return (
    unsupportedDataTypes[destination][type] === undefined &&
    unwritableDataTypes[destination][type] === undefined
  );
}
