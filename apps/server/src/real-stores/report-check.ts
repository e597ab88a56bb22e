import type { NativeEntity } from '@replatform/connectors/woocommerce/real-store/native';
import type { Difference, EntityFigures, StoreComparison } from './compare-stores.ts';

/**
 * Reads the report a store owner downloads (the CSV of engine/report.ts) and checks that it
 * names every difference WooCommerce's own rules cause, record by record.
 */

export interface ReportNames {
  /** Per report type ('product', 'order'...) and source id: the fields named as not carried. */
  records: Map<string, Map<string, string[]>>;
  /** The run's notes about the import as a whole. */
  notes: string[];
  /** Per report type and source id: the records the run left as they were (skipped). */
  skipped: Map<string, Set<string>>;
}

/** RFC 4180 rows (quoted cells with doubled quotes, CRLF or LF line ends). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The not-carried fields and import notes of a report CSV. */
export function reportNames(csv: string): ReportNames {
  const [header, ...rows] = parseCsv(csv);
  const column = (name: string) => header?.indexOf(name) ?? -1;
  const [type, id, outcome, reason, notCarried] = [
    column('type'),
    column('source_id'),
    column('outcome'),
    column('reason'),
    column('not_carried'),
  ];
  const records = new Map<string, Map<string, string[]>>();
  const notes: string[] = [];
  const skipped = new Map<string, Set<string>>();
  for (const row of rows) {
    if (row[type] === 'import' && row[outcome] === 'note') {
      notes.push(row[reason] ?? '');
      continue;
    }
    const fields = (row[notCarried] ?? '')
      .split(' | ')
      .map((entry) => entry.slice(0, entry.indexOf(':') < 0 ? undefined : entry.indexOf(':')))
      .filter(Boolean);
    if (row[outcome] === 'skipped') {
      const ids = skipped.get(row[type] ?? '') ?? new Set<string>();
      ids.add(row[id] ?? '');
      skipped.set(row[type] ?? '', ids);
    }
    const byId = records.get(row[type] ?? '') ?? new Map<string, string[]>();
    byId.set(row[id] ?? '', fields);
    records.set(row[type] ?? '', byId);
  }
  return { records, notes, skipped };
}

const reportType: Partial<Record<NativeEntity, string>> = {
  categories: 'category',
  brands: 'brand',
  products: 'product',
  coupons: 'coupon',
  customers: 'customer',
  orders: 'order',
  reviews: 'review',
  pages: 'page',
  posts: 'post',
};

/** Whether the report names a refused difference for its record. */
export function isReported(difference: Difference, report: ReportNames): boolean {
  // The destination's own record, linked: the report lists it as left as it was.
  if (difference.linked) {
    const type = reportType[difference.entity];
    return Boolean(type && report.skipped.get(type)?.has(difference.record));
  }
  const refused = difference.refused;
  if (!refused) return false;
  const type = reportType[difference.entity];
  const named = (type && report.records.get(type)?.get(difference.record)) || [];
  const accepted = [...refused.reportAs, difference.rulePath];
  const covers = (reported: string, field: string) =>
    reported === field || field.startsWith(`${reported}.`) || field.startsWith(`${reported}[]`);
  return named.some((reported) => accepted.some((field) => covers(reported, field)));
}

export interface Verdict {
  /** Differences WooCommerce's rules do not explain: fields the migration lost or changed. */
  unexpected: Difference[];
  /** Differences WooCommerce's rules explain, named in the report. */
  reported: Difference[];
  /** Differences WooCommerce's rules explain that the report does not name. */
  unreported: Difference[];
}

export function judge(comparison: StoreComparison, report: ReportNames): Verdict {
  const verdict: Verdict = { unexpected: [], reported: [], unreported: [] };
  for (const d of comparison.differences) {
    if (!d.refused && !d.linked) verdict.unexpected.push(d);
    else if (isReported(d, report)) verdict.reported.push(d);
    else verdict.unreported.push(d);
  }
  return verdict;
}

const shown = (value: unknown) => {
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value ?? null);
  return text.length > 140 ? `${text.slice(0, 137)}...` : text;
};

/** One line per difference: entity, record, field, source value, destination value. */
export function formatDifferences(differences: readonly Difference[], limit = 400): string {
  const lines = differences
    .slice(0, limit)
    .map(
      (d) =>
        `  ${d.entity} ${d.record} (${d.label}) ${d.field}: source ${shown(d.source)} | destination ${shown(d.destination)}${d.refused ? ` [${d.refused.reason}]` : ''}`,
    );
  if (differences.length > limit) lines.push(`  ... and ${differences.length - limit} more`);
  return lines.join('\n');
}

/** Per field path, how many records differ there (the short form of a long list). */
export function differenceSummary(differences: readonly Difference[]): string {
  const counts = new Map<string, { records: Set<string>; example: Difference }>();
  for (const d of differences) {
    const key = `${d.entity} ${d.rulePath}`;
    const entry = counts.get(key) ?? { records: new Set(), example: d };
    entry.records.add(d.record);
    counts.set(key, entry);
  }
  return [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([key, { records, example }]) =>
        `  ${key}: ${records.size} record(s), e.g. ${example.record} ${example.field}: ${shown(example.source)} -> ${shown(example.destination)}`,
    )
    .join('\n');
}

/** The figures table: per entity, records, fields compared and fields equal. */
export function formatFigures(figures: Record<string, EntityFigures>): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  const rows = Object.entries(figures).map(([entity, f]) =>
    line([entity, f.records, f.compared, f.equal, f.compared - f.equal]),
  );
  const total = Object.values(figures).reduce(
    (t, f) => ({
      records: t.records + f.records,
      compared: t.compared + f.compared,
      equal: t.equal + f.equal,
    }),
    { records: 0, compared: 0, equal: 0 },
  );
  return [
    line(['entity', 'records', 'fields compared', 'equal', 'differ']),
    line(['---', '---', '---', '---', '---']),
    ...rows,
    line(['all', total.records, total.compared, total.equal, total.compared - total.equal]),
  ].join('\n');
}
