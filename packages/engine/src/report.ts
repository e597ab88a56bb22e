import { entityTypes } from '@replatform/canonical/entities';
import type { EngineRepository } from '@replatform/db/engine-repository';
import { stringify } from 'csv-stringify';
import { pipeline, Readable } from 'node:stream';

/** An entity's name for one record ('products' -> 'product'). */
export const singular: Record<string, string> = {
  categories: 'category',
  brands: 'brand',
  pages: 'page',
  posts: 'post',
  products: 'product',
  coupons: 'coupon',
  customers: 'customer',
  orders: 'order',
  reviews: 'review',
};

export const reportHeader = [
  'type',
  'source_id',
  'destination_id',
  'outcome',
  'reason',
  'not_carried',
] as const;

type Row = Array<string | null>;

/**
 * The per-record report's rows: first what the destination did around the import in the latest
 * run (type 'import', outcome 'note', e.g. customer e-mails switched off and restored), then every
 * record the migration has seen, with where it went and how it ended (migrated, skipped or
 * failed, with the reason, and each field the destination could not hold with why), in
 * dependency order. Read from the id map page by page.
 */
async function* reportRows(
  repository: EngineRepository,
  migrationId: string,
  pageSize: number,
): AsyncGenerator<Row> {
  yield [...reportHeader];
  const run = await repository.latestRun(migrationId);
  for (const note of run?.notes ?? []) yield ['import', '', '', 'note', note, ''];
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
      for (const row of rows) {
        yield [
          singular[entity] ?? entity,
          row.sourceId,
          row.destinationId,
          row.outcome,
          row.reason,
          (differences.get(row.sourceId) ?? []).map((d) => `${d.field}: ${d.reason}`).join(' | '),
        ];
      }
      after = rows[rows.length - 1]?.sourceId ?? null;
      if (rows.length < pageSize) break;
    }
  }
}

/**
 * The report as a CSV stream (RFC 4180, CRLF), written as it is read, so a store of any size
 * streams out in bounded memory. Cells a spreadsheet would run as a formula are prefixed with an
 * apostrophe, because the report holds text that came from a store anyone could have typed into.
 */
export function reportCsv(
  repository: EngineRepository,
  migrationId: string,
  pageSize = 1000,
): Readable {
  const csv = stringify({ record_delimiter: 'windows', escape_formulas: true });
  // pipeline ends the CSV stream with the error of a failed read, so its reader sees it.
  pipeline(Readable.from(reportRows(repository, migrationId, pageSize)), csv, () => {});
  return csv;
}
