import { FlaskConical } from 'lucide-react';
import type { DemoMigration } from '@replatform/contracts/demo-migration';
import { dataTypeLabels, platformLabels, type Migration } from '@replatform/contracts/migration';
import { useDemoMigration, useStartDemoMigration } from '../api/demo-api.ts';

const entityLabels: Record<string, string> = { ...dataTypeLabels, categories: 'Categories' };
const labelOf = (entity: string) => entityLabels[entity] ?? entity;
const oneOf: Record<string, string> = {
  categories: 'Category',
  brands: 'Brand',
  products: 'Product',
  coupons: 'Coupon',
  customers: 'Customer',
  orders: 'Order',
  reviews: 'Product review',
  pages: 'Page',
  posts: 'Blog post',
};

/** What a finished demo did, one line a person reads. */
export function demoSummary(demo: DemoMigration): string {
  const total = (key: 'migrated' | 'skipped' | 'failed') =>
    Object.values(demo.entities).reduce((n, e) => n + e[key], 0);
  const parts = [`${total('migrated')} records moved`];
  if (total('skipped')) parts.push(`${total('skipped')} already there`);
  if (total('failed')) parts.push(`${total('failed')} could not be moved`);
  return parts.join(', ');
}

/** The verification of a demo, in words. */
export function demoCheck(demo: DemoMigration): string | null {
  const v = demo.verification;
  if (!v) return null;
  if (v.message) return `The record-by-record check could not be made: ${v.message}`;
  const sum = (key: 'checked' | 'mismatched' | 'missing') =>
    Object.values(v.entities).reduce((n, e) => n + e[key], 0);
  if (v.status !== 'passed')
    return `Checked record by record: ${sum('mismatched') + sum('missing')} of ${sum('checked')} records differ at the destination; the report says how.`;
  // Passed: whatever differs is what the destination cannot hold, named in the report.
  return sum('mismatched') || v.knownDifferences.length
    ? 'Checked record by record: every record arrived; what the destination cannot hold is named in the report, record by record.'
    : 'Checked record by record: every record arrived as it is in your source store.';
}

/**
 * The free demo migration of Select Data: moves a few records of each selected type into the
 * real destination before payment, shows how it went, and lists the records with links into the
 * destination's admin. `save` stores the selection on screen first, so the demo moves what the
 * owner sees selected.
 */
export function DemoMigrationPanel({
  migration,
  canRun,
  save,
}: {
  migration: Migration;
  /** Both stores connected and something selected. */
  canRun: boolean;
  save: () => Promise<unknown>;
}) {
  const demo = useDemoMigration(migration.id);
  const start = useStartDemoMigration(migration.id);
  const data = demo.data;
  const running = data?.state === 'queued' || data?.state === 'running';
  const left = data ? data.runsAllowed - data.runsUsed : 0;
  const destination = migration.destinationStore
    ? `your ${platformLabels[migration.destinationStore]} store`
    : 'your destination store';
  const moved = data
    ? Object.values(data.entities).reduce((n, e) => n + e.migrated + e.skipped + e.failed, 0)
    : 0;
  const check = data ? demoCheck(data) : null;
  return (
    <section
      aria-labelledby="demo-title"
      className="mt-8 rounded-xl border border-slate-200 bg-white p-5"
    >
      <h3 id="demo-title" className="flex items-center gap-2 text-lg font-semibold">
        <FlaskConical className="text-indigo-600" aria-hidden />
        Free demo migration
      </h3>
      <p className="mt-1 text-sm text-slate-600">
        Moves up to {data?.limit ?? 10} records of each selected type (with the customers and
        products their orders need) into {destination} now, free, so you can check them before you
        pay. The full migration does not move them twice.
      </p>
      {data ? (
        <p className="mt-1 text-sm text-slate-600">
          {data.runsUsed} of {data.runsAllowed} demo migrations used.
        </p>
      ) : null}
      <button
        type="button"
        disabled={!canRun || running || start.isPending || !data || left <= 0}
        onClick={() => {
          void save().then(() => start.mutate());
        }}
        className="mt-4 rounded-md border border-indigo-600 px-4 py-2 font-medium text-indigo-700 hover:bg-indigo-50 disabled:opacity-50"
      >
        {data && data.state !== 'none'
          ? 'Run the free demo migration again'
          : 'Try a free demo migration'}
      </button>
      {start.isError ? (
        <p role="alert" className="mt-3 text-red-700">
          {start.error.message}
        </p>
      ) : null}
      {running ? (
        <p role="status" className="mt-3 text-slate-700">
          {data?.state === 'queued'
            ? 'Starting the demo migration...'
            : `Moving demo records... ${moved} done so far.`}
        </p>
      ) : null}
      {data?.state === 'failed' ? (
        <p role="alert" className="mt-3 text-red-700">
          The demo migration failed: {data.message}
        </p>
      ) : null}
      {data?.state === 'completed' ? (
        <div className="mt-4">
          <p role="status" className="font-medium text-slate-800">
            Demo finished: {demoSummary(data)}.
          </p>
          {check ? <p className="mt-1 text-sm text-slate-700">{check}</p> : null}
          <div className="mt-3 overflow-x-auto">
            <table className="min-w-full text-left text-sm">
              <caption className="sr-only">What the demo moved, by data type</caption>
              <thead className="text-slate-500">
                <tr>
                  <th scope="col" className="py-1 pr-4 font-medium">
                    Data type
                  </th>
                  <th scope="col" className="py-1 pr-4 font-medium">
                    Moved
                  </th>
                  <th scope="col" className="py-1 pr-4 font-medium">
                    Already there
                  </th>
                  <th scope="col" className="py-1 font-medium">
                    Could not be moved
                  </th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(data.entities).map(([entity, e]) => (
                  <tr key={entity} className="border-t border-slate-100">
                    <th scope="row" className="py-1 pr-4 font-normal">
                      {labelOf(entity)}
                    </th>
                    <td className="py-1 pr-4">{e.migrated}</td>
                    <td className="py-1 pr-4">{e.skipped}</td>
                    <td className="py-1">{e.failed}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <a
            href={`/api/migrations/${encodeURIComponent(migration.id)}/report.csv`}
            className="mt-3 inline-block text-sm font-medium text-indigo-700 underline"
          >
            Download the demo report (CSV)
          </a>
          {data.records.some((r) => r.adminUrl) ? (
            <details className="mt-3 text-sm">
              <summary className="cursor-pointer font-medium text-slate-800">
                Open the demo records in {destination}
              </summary>
              <p className="mt-2 text-slate-600">
                Each record by its number in your source store; the link opens it in the
                destination’s admin.
              </p>
              <ul className="mt-2 grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
                {data.records
                  .filter((r) => r.adminUrl)
                  .map((r) => (
                    <li key={`${r.entity}:${r.sourceId}`}>
                      <a
                        href={r.adminUrl ?? undefined}
                        target="_blank"
                        rel="noopener noreferrer"
                        className="text-indigo-700 underline"
                      >
                        {oneOf[r.entity] ?? labelOf(r.entity)} {r.sourceId}
                      </a>
                    </li>
                  ))}
              </ul>
            </details>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
