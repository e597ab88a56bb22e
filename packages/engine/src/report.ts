import { entityTypes } from '@replatform/canonical/entities';
import type { EngineRepository } from '@replatform/db/engine-repository';
import { csvRow } from './csv.ts';

const singular: Record<string, string> = {
  categories: 'category',
  products: 'product',
  customers: 'customer',
  orders: 'order',
};

export const reportHeader = [
  'type',
  'source_id',
  'destination_id',
  'outcome',
  'reason',
  'not_carried',
] as const;

/**
 * The per-record report as CSV lines: first what the destination did around the import in the
 * latest run (type 'import', outcome 'note', e.g. customer e-mails switched off and restored),
 * then every record the migration has seen, with where it went and how it ended (migrated,
 * skipped or failed, with the reason, and each field the destination could not hold with why), in
 * dependency order. Read from the id map page by page,
 * so a store of any size streams out in bounded memory.
 */
export async function* reportCsv(
  repository: EngineRepository,
  migrationId: string,
  pageSize = 1000,
): AsyncGenerator<string> {
  yield csvRow(reportHeader);
  const run = await repository.latestRun(migrationId);
  for (const note of run?.notes ?? []) yield csvRow(['import', '', '', 'note', note, '']);
  const present = new Set(await repository.mappedEntities(migrationId));
  const order = [
    ...entityTypes,
    ...[...present].filter((e) => !(entityTypes as readonly string[]).includes(e)).sort(),
  ];
  for (const entity of order) {
    if (!present.has(entity)) continue;
    let after: string | null = null;
    for (;;) {
      const rows = await repository.idMapPage(migrationId, entity, after, pageSize);
      if (rows.length === 0) break;
      const differences = await repository.differencesOf(
        migrationId,
        entity,
        rows.map((r) => r.sourceId),
      );
      let chunk = '';
      for (const row of rows) {
        chunk += csvRow([
          singular[entity] ?? entity,
          row.sourceId,
          row.destinationId,
          row.outcome,
          row.reason,
          (differences.get(row.sourceId) ?? []).map((d) => `${d.field}: ${d.reason}`).join(' | '),
        ]);
      }
      yield chunk;
      after = rows[rows.length - 1]?.sourceId ?? null;
      if (rows.length < pageSize) break;
    }
  }
}
