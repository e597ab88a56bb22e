import {
  platforms,
  unsupportedDataTypes,
  type DataTypeName,
  type Platform,
} from '@replatform/contracts/migration';
import type { StoredMigration } from '@replatform/db/migrations-repository';

const isPlatform = (value: string): value is Platform =>
  (platforms as readonly string[]).includes(value);

/**
 * Whether a data type can be counted in the migration's source: not when one of its platforms
 * (the destination may not be chosen yet) cannot hold the type at all (reviews and Magento), which
 * then counts 0 without asking the store, since it cannot move.
 */
export function countable(
  migration: Pick<StoredMigration, 'sourceStore' | 'destinationStore'>,
  type: DataTypeName,
): boolean {
  return [migration.sourceStore, migration.destinationStore].every(
    (platform) => !isPlatform(platform) || unsupportedDataTypes[platform][type] === undefined,
  );
}
