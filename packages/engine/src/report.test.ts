import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { EngineRepository } from '@replatform/db/engine-repository';
import { reportCsv } from './report.ts';

type Entry = { sourceId: string; destinationId: string | null; outcome: string; reason: string };

/** The part of the repository the report reads, over rows held in memory. */
function repositoryOf(
  entries: Record<string, Entry[]>,
  notes: string[] = [],
  failAfterPages = Infinity,
  differences: Record<string, { field: string; reason: string }[]> = {},
): EngineRepository {
  let pages = 0;
  return {
    latestRun: async () => ({ notes }),
    mappedEntities: async () => Object.keys(entries),
    idMapPage: async (_id: string, entity: string, after: string | null, limit: number) => {
      if (++pages > failAfterPages) throw new Error('database went away');
      const sorted = [...(entries[entity] ?? [])].sort((a, b) =>
        a.sourceId.localeCompare(b.sourceId),
      );
      return sorted.filter((e) => after === null || e.sourceId > after).slice(0, limit);
    },
    differencesOf: async (_id: string, _entity: string, sourceIds: string[]) =>
      new Map(sourceIds.flatMap((id) => (differences[id] ? [[id, differences[id]] as const] : []))),
  } as unknown as EngineRepository;
}

async function text(stream: AsyncIterable<Buffer | string>): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += chunk.toString();
  return out;
}

describe('report CSV', () => {
  it('lists the import notes, then every record in dependency order, page by page', async () => {
    const products = Array.from({ length: 7 }, (_, i) => ({
      sourceId: `p${i}`,
      destinationId: `d${i}`,
      outcome: 'migrated',
      reason: '',
    }));
    const csv = await text(
      reportCsv(
        repositoryOf(
          {
            orders: [
              { sourceId: 'o1', destinationId: null, outcome: 'failed', reason: 'SKU, taken' },
            ],
            products,
          },
          ['Customer e-mails switched off'],
          Infinity,
          {
            p2: [
              { field: 'featured', reason: 'no featured products' },
              { field: 'tags', reason: 'no tags' },
            ],
          },
        ),
        'm1',
        3,
      ),
    );
    expect(csv.startsWith('type,source_id,destination_id,outcome,reason,not_carried\r\n')).toBe(
      true,
    );
    const rows = parse(csv) as string[][];
    expect(rows).toHaveLength(1 + 1 + 7 + 1);
    expect(rows[1]).toEqual(['import', '', '', 'note', 'Customer e-mails switched off', '']);
    expect(rows.slice(2, 9).map((r) => r[1])).toEqual(products.map((p) => p.sourceId));
    expect(rows[4]?.[5]).toBe('featured: no featured products | tags: no tags');
    expect(rows[3]?.[5]).toBe('');
    expect(rows[9]).toEqual(['order', 'o1', '', 'failed', 'SKU, taken', '']);
    expect(csv).toContain('order,o1,,failed,"SKU, taken",\r\n');
  });

  it('quotes what RFC 4180 requires and defuses cells a spreadsheet would run as formulas', async () => {
    const reasons = [
      '=HYPERLINK("http://evil")',
      '+1',
      '-2',
      '@SUM(A1)',
      '\t=1',
      'say "hi"',
      'two\nlines',
      'a=b',
    ];
    const csv = await text(
      reportCsv(
        repositoryOf({
          products: reasons.map((reason, i) => ({
            sourceId: `p${i}`,
            destinationId: null,
            outcome: 'failed',
            reason,
          })),
        }),
        'm1',
      ),
    );
    expect((parse(csv) as string[][]).slice(1).map((r) => r[4])).toEqual([
      `'=HYPERLINK("http://evil")`,
      "'+1",
      "'-2",
      "'@SUM(A1)",
      "'\t=1",
      'say "hi"',
      'two\nlines',
      'a=b',
    ]);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });

  it('ends the stream with the error when the database fails mid-report', async () => {
    const products = Array.from({ length: 5 }, (_, i) => ({
      sourceId: `p${i}`,
      destinationId: null,
      outcome: 'migrated',
      reason: '',
    }));
    await expect(text(reportCsv(repositoryOf({ products }, [], 1), 'm1', 2))).rejects.toThrow(
      'database went away',
    );
  });
});
