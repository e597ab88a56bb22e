import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import type { Order } from '@replatform/canonical/order';
import type { Checkpoint, Connection, Page } from '@replatform/connectors/kit/contract';
import {
  orderStatusChanges,
  orderStatusLabels,
  type FieldMappings,
} from '@replatform/contracts/migration';

type Mapper = <E extends EntityType>(entity: E, record: EntityRecord[E]) => EntityRecord[E];

/** Applies the owner's mappings to one record, or null when they change nothing at all. */
function mapperOf(mappings: FieldMappings): Mapper | null {
  const statuses = new Map(orderStatusChanges(mappings).map(({ from, to }) => [from, to]));
  if (!statuses.size) return null;
  return (entity, record) => {
    if (entity !== 'orders') return record;
    const order = record as Order;
    const status = statuses.get(order.status);
    return (status ? { ...order, status } : order) as typeof record;
  };
}

async function* mappedPages<E extends EntityType>(
  pages: AsyncIterable<Page<E>>,
  entity: E,
  map: Mapper,
): AsyncIterable<Page<E>> {
  for await (const page of pages)
    yield { ...page, records: page.records.map((record) => map(entity, record)) };
}

/**
 * The source as the owner asked for it to arrive: every record read (by page or by id) with the
 * owner's mappings applied, so the run writes, hashes and verifies the mapped values alike. A
 * change of mapping changes the records' content, and the next run writes them again.
 */
export function withMappings(connection: Connection, mappings: FieldMappings): Connection {
  const map = mapperOf(mappings);
  if (!map) return connection;
  const mapped: Connection = {
    check: (options) => connection.check(options),
    count: (entity) => connection.count(entity),
    read: <E extends EntityType>(entity: E, checkpoint: Checkpoint | null) =>
      mappedPages(connection.read(entity, checkpoint), entity, map),
    write: (entity, records, idMap) => connection.write(entity, records, idMap),
  };
  const { rateUsage, transportStats, close } = connection;
  if (connection.readByIds)
    mapped.readByIds = async <E extends EntityType>(entity: E, ids: readonly string[]) => {
      const records = (await connection.readByIds?.(entity, ids)) ?? [];
      return records.map((record) => map(entity, record));
    };
  if (rateUsage) mapped.rateUsage = () => rateUsage.call(connection);
  if (transportStats) mapped.transportStats = () => transportStats.call(connection);
  if (close) mapped.close = () => close.call(connection);
  return mapped;
}

/** The owner's mappings in words, one line each, for the run's report. */
export function mappingNotes(mappings: FieldMappings): string[] {
  const changes = orderStatusChanges(mappings);
  if (!changes.length) return [];
  const list = changes
    .map(({ from, to }) => `${orderStatusLabels[from]} → ${orderStatusLabels[to]}`)
    .join(', ');
  return [`Order statuses mapped as you chose: ${list}.`];
}
