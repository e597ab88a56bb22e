import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Migration } from '@replatform/contracts/migration';
import { migrateStatusText, migrationProgressSchema } from '@replatform/contracts/progress';
import { ProgressBar } from '../../../components/progress-bar.tsx';
import { apiRequest } from '../../../lib/api-client.ts';
import { formatCount } from '../../../lib/format.ts';
import { migrationKeys } from '../api/migrations-api.ts';

const POLL_MS = 5000;

/** Step 4: three bars (done/total) and the status line, refreshed every 5 s. */
export function MigrateStep({ migration }: { migration: Migration }) {
  const queryClient = useQueryClient();
  const progress = useQuery({
    queryKey: ['migrations', migration.id, 'progress'],
    queryFn: () =>
      apiRequest('/migration-progress', migrationProgressSchema, {
        query: { migrationId: migration.id },
      }),
    refetchInterval: POLL_MS,
    // A failed poll is only logged; polling goes on (spec.md section 7).
    retry: false,
  });
  const p = progress.data;
  const complete = (p?.overallProgress ?? 0) >= 100;

  // At 100% the run completes on the server; fetch the migration again after 1 s to show step 5.
  useEffect(() => {
    if (!complete) return;
    const timer = setTimeout(
      () => void queryClient.invalidateQueries({ queryKey: migrationKeys.one(migration.id) }),
      1000,
    );
    return () => clearTimeout(timer);
  }, [complete, migration.id, queryClient]);

  const bars = [
    {
      key: 'products',
      label: 'Products',
      on: migration.dataTypes.products,
      done: p?.productsCompleted ?? 0,
      total: p?.productsTotal ?? 0,
    },
    {
      key: 'customers',
      label: 'Customers',
      on: migration.dataTypes.customers,
      done: p?.customersCompleted ?? 0,
      total: p?.customersTotal ?? 0,
    },
    {
      key: 'orders',
      label: 'Orders',
      on: migration.dataTypes.orders,
      done: p?.ordersCompleted ?? 0,
      total: p?.ordersTotal ?? 0,
    },
  ].filter((b) => b.on);

  return (
    <section
      aria-labelledby="migrate-title"
      className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="migrate-title" className="text-xl font-semibold">
        {migration.status === 'failed' ? 'Migration Failed' : 'Migration in Progress'}
      </h2>
      <p className="mt-1 text-slate-600" aria-live="polite">
        {migration.status === 'failed'
          ? 'The migration stopped. Records already moved are kept; restart to continue where it stopped.'
          : p
            ? migrateStatusText(p, migration.dataTypes)
            : 'Initializing migration...'}
      </p>
      <div className="mt-6 space-y-5">
        {bars.map((b) => {
          const percent = b.total > 0 ? (b.done / b.total) * 100 : complete ? 100 : 0;
          return (
            <div key={b.key}>
              <div className="mb-1 flex justify-between text-sm">
                <span className="font-medium">{b.label}</span>
                <span className="tabular-nums text-slate-600">
                  {formatCount(b.done)}/{formatCount(b.total)}
                </span>
              </div>
              <ProgressBar
                value={percent}
                label={`${b.label} migrated`}
                tone={percent >= 100 ? 'emerald' : 'indigo'}
              />
            </div>
          );
        })}
      </div>
      {p ? (
        <p className="mt-6 text-sm text-slate-500">Overall {Math.round(p.overallProgress)}%</p>
      ) : null}
    </section>
  );
}
