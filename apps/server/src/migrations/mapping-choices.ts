import type { Connection, StoreValueList, StoreValues } from '@replatform/connectors/kit/contract';
import { platformLabels, type Platform } from '@replatform/contracts/migration';
import {
  defaultValueMap,
  valueListTexts,
  type MappingChoices,
  type ValueChoices,
  type ValueListName,
} from '@replatform/contracts/value-mappings';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import { connectionFailure, type StoreConnections } from '../connections/store-connections.ts';

/** The canonical field each list holds, where a destination says whether it can keep it. */
const fieldOf: Record<ValueListName, { entity: 'customers' | 'products'; field: string }> = {
  customerGroups: { entity: 'customers', field: 'group' },
  taxClasses: { entity: 'products', field: 'taxClass' },
};

interface Side {
  platform: Platform;
  values: StoreValues;
}

/** One list's choices for a pair of stores, with why there is nothing to map where so. */
export function valueChoices(
  list: ValueListName,
  source: Side,
  destination: Side & { unsupported: string | undefined },
): ValueChoices {
  const from: StoreValueList | undefined = source.values[list];
  const to: StoreValueList | undefined = destination.values[list];
  const { title } = valueListTexts[list];
  const createsMissing = to?.createsMissing ?? false;
  const base = {
    source: from?.values ?? null,
    destination: to?.values ?? null,
    createsMissing,
  };
  const unavailable = !from
    ? `Replatform reads no ${title} from ${platformLabels[source.platform]}, so there is nothing to map.`
    : destination.unsupported
      ? destination.unsupported
      : !to
        ? `Replatform reads no ${title} from ${platformLabels[destination.platform]}, so the source's are written as they are.`
        : undefined;
  if (unavailable || !from || !to) return { ...base, unavailable, defaults: {} };
  return { ...base, defaults: defaultValueMap(from.values, to.values, createsMissing) };
}

async function readSide(connection: Connection) {
  const [values, check] = await Promise.all([
    connection.storeValues?.() ?? Promise.resolve({}),
    connection.check(),
  ]);
  return { values, currency: check.currency ?? null };
}

/**
 * What the "Map fields" panel offers for a migration: each store's customer groups and tax
 * classes as the stores list them now, the proposal for each source value, and both currencies.
 * Reads both stores (through the same connections and egress guard as a run); writes nothing.
 */
export async function mappingChoices(
  connections: StoreConnections,
  migration: StoredMigration,
): Promise<MappingChoices> {
  const sourceConnection = connections.connectSide(migration, 'source');
  const destinationConnection = connections.connectSide(migration, 'destination');
  try {
    const [source, destination] = await Promise.all([
      readSide(sourceConnection),
      readSide(destinationConnection),
    ]);
    const sourcePlatform = migration.sourceStore as Platform;
    const destinationPlatform = migration.destinationStore as Platform;
    const fields = connections.connector(destinationPlatform).capabilities.destinationFields;
    const choices = (list: ValueListName) => {
      const { entity, field } = fieldOf[list];
      return valueChoices(
        list,
        { platform: sourcePlatform, values: source.values },
        {
          platform: destinationPlatform,
          values: destination.values,
          unsupported: fields[entity]?.unsupported?.[field],
        },
      );
    };
    return {
      customerGroups: choices('customerGroups'),
      taxClasses: choices('taxClasses'),
      currency: { source: source.currency, destination: destination.currency },
    };
  } catch (error) {
    throw connectionFailure(error);
  } finally {
    await Promise.allSettled([sourceConnection.close?.(), destinationConnection.close?.()]);
  }
}
