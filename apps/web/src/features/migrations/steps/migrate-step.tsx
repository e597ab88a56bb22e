import { useQueryClient } from '@tanstack/react-query';
import { CreditCard, RotateCcw, TriangleAlert } from 'lucide-react';
import { useEffect } from 'react';
import type { Migration } from '@replatform/contracts/migration';
import { migrateStatusText, type MigrationProgress } from '@replatform/contracts/progress';
import { ProgressBar } from '../../../components/progress-bar.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { formatCount } from '../../../lib/format.ts';
import { notificationsQueryKey } from '../../../lib/query-keys.ts';
import { migrationKeys, useMigrationProgress, useStartMigration } from '../api/migrations-api.ts';
import { MigrateSpeed, WaitingNotice } from '../speed/migrate-speed.tsx';

/** Opens another step of this migration, with the reason it is needed (shown there). */
export type OpenStep = (step: number, reason?: string) => void;

type Bar = { key: string; label: string; done: number; total: number };

function barsOf(migration: Migration, p: MigrationProgress | undefined): Bar[] {
  // Before the first answer the counts taken at payment stand in for the totals.
  const counted = migration.entityCounts;
  return [
    {
      key: 'products',
      label: 'Products',
      on: migration.dataTypes.products,
      done: p?.productsCompleted ?? 0,
      total: p?.productsTotal || counted.products || 0,
    },
    {
      key: 'customers',
      label: 'Customers',
      on: migration.dataTypes.customers,
      done: p?.customersCompleted ?? 0,
      total: p?.customersTotal || counted.customers || 0,
    },
    {
      key: 'orders',
      label: 'Orders',
      on: migration.dataTypes.orders,
      done: p?.ordersCompleted ?? 0,
      total: p?.ordersTotal || counted.orders || 0,
    },
    {
      key: 'coupons',
      label: 'Coupons',
      on: migration.dataTypes.coupons,
      done: p?.couponsCompleted ?? 0,
      total: p?.couponsTotal || counted.coupons || 0,
    },
    {
      key: 'reviews',
      label: 'Product reviews',
      on: migration.dataTypes.reviews,
      done: p?.reviewsCompleted ?? 0,
      total: p?.reviewsTotal || counted.reviews || 0,
    },
    {
      key: 'brands',
      label: 'Brands',
      on: migration.dataTypes.brands,
      done: p?.brandsCompleted ?? 0,
      total: p?.brandsTotal || counted.brands || 0,
    },
    {
      key: 'pages',
      label: 'Pages',
      on: migration.dataTypes.pages,
      done: p?.pagesCompleted ?? 0,
      total: p?.pagesTotal || counted.pages || 0,
    },
    {
      key: 'posts',
      label: 'Blog posts',
      on: migration.dataTypes.posts,
      done: p?.postsCompleted ?? 0,
      total: p?.postsTotal || counted.posts || 0,
    },
  ].filter((b) => b.on);
}

/**
 * Step 4: one bar per selected data type (done/total) and the status line, refreshed every 5 s, with the store the
 * run waits for when one is down, the time left and the records-per-minute chart. A run stopped
 * by a failure offers Restart; a run parked because the source grew beyond what was paid asks for
 * the difference.
 */
export function MigrateStep({
  migration,
  onOpenStep,
}: {
  migration: Migration;
  onOpenStep: OpenStep;
}) {
  const queryClient = useQueryClient();
  const progress = useMigrationProgress(migration.id);
  const restart = useStartMigration(migration.id);
  const p = progress.data;
  const state = p?.state;
  const complete = (p?.overallProgress ?? 0) >= 100;
  const needsTopUp = state === 'payment_required';
  const failed = !needsTopUp && (migration.status === 'failed' || state === 'failed');

  // At 100% the run completes on the server; fetch the migration again after 1 s to show step 5.
  useEffect(() => {
    if (!complete) return;
    const timer = setTimeout(
      () => void queryClient.invalidateQueries({ queryKey: migrationKeys.one(migration.id) }),
      1000,
    );
    return () => clearTimeout(timer);
  }, [complete, migration.id, queryClient]);

  // The run's notifications (started, failed, top-up needed) are raised as its state changes:
  // refresh the bell then rather than at its own 30 s poll. A run that stopped also changed the
  // migration (status, figures).
  const stopped = state === 'failed' || state === 'payment_required';
  useEffect(() => {
    if (!state) return;
    void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
  }, [state, queryClient]);
  useEffect(() => {
    if (!stopped) return;
    void queryClient.invalidateQueries({ queryKey: migrationKeys.one(migration.id) });
  }, [stopped, migration.id, queryClient]);

  const startRestart = () =>
    restart.mutate(undefined, {
      onError: (error) => {
        if (error instanceof ApiRequestError && error.status === 402) onOpenStep(3, error.message);
      },
    });

  const bars = barsOf(migration, p);
  const counting = !p && progress.isPending;

  return (
    <section
      aria-labelledby="migrate-title"
      className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id="migrate-title" className="text-xl font-semibold">
        {needsTopUp ? 'Top-up Needed' : failed ? 'Migration Failed' : 'Migration in Progress'}
      </h2>
      {needsTopUp ? (
        <div className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-4 text-amber-900">
          <p className="flex items-start gap-2 font-medium">
            <TriangleAlert size={18} className="mt-0.5 shrink-0" aria-hidden />
            The migration is paused: your source store now holds more records than were paid for.
          </p>
          {p?.message ? <p className="mt-2 text-sm">{p.message}</p> : null}
          <p className="mt-2 text-sm">
            Records already moved are kept. Pay only for the additional records, then start again to
            continue where it stopped.
          </p>
          <button
            type="button"
            onClick={() => onOpenStep(3, p?.message)}
            className="mt-4 inline-flex items-center gap-2 rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700"
          >
            <CreditCard size={16} aria-hidden /> Pay the difference
          </button>
        </div>
      ) : failed ? (
        <div className="mt-3 rounded-lg border border-red-200 bg-red-50 p-4 text-red-900">
          <p className="font-medium">The migration stopped.</p>
          {p?.message ? <p className="mt-2 text-sm">{p.message}</p> : null}
          <p className="mt-2 text-sm">
            Records already moved are kept; restart to continue where it stopped. Nothing is written
            twice, and restarting a paid migration costs nothing more.
          </p>
          {restart.isError &&
          !(restart.error instanceof ApiRequestError && restart.error.status === 402) ? (
            <p role="alert" className="mt-2 text-sm font-medium text-red-700">
              {restart.error.message}
            </p>
          ) : null}
          <button
            type="button"
            onClick={startRestart}
            disabled={restart.isPending}
            className="mt-4 inline-flex items-center gap-2 rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
          >
            <RotateCcw size={16} aria-hidden />
            {restart.isPending ? 'Restarting...' : 'Restart Migration'}
          </button>
        </div>
      ) : (
        <>
          <p className="mt-1 text-slate-600" aria-live="polite">
            {p ? migrateStatusText(p, migration.dataTypes) : 'Initializing migration...'}
          </p>
          {p?.waiting ? <WaitingNotice waiting={p.waiting} /> : null}
        </>
      )}
      <div className="mt-6 space-y-5" aria-busy={counting || undefined}>
        {bars.map((b) => {
          const percent = b.total > 0 ? (b.done / b.total) * 100 : complete ? 100 : 0;
          return (
            <div key={b.key}>
              <div className="mb-1 flex justify-between text-sm">
                <span className="font-medium">{b.label}</span>
                <span className="tabular-nums text-slate-600">
                  {b.total > 0
                    ? `${formatCount(b.done)}/${formatCount(b.total)}`
                    : counting || state === 'queued' || state === 'idle'
                      ? 'Counting records...'
                      : `${formatCount(b.done)}/${formatCount(b.total)}`}
                </span>
              </div>
              <ProgressBar
                value={percent}
                label={`${b.label} migrated`}
                tone={percent >= 100 ? 'emerald' : failed ? 'red' : 'indigo'}
              />
            </div>
          );
        })}
      </div>
      {p ? (
        <p className="mt-6 text-sm text-slate-500">
          {Math.round(p.overallProgress)}% of the selected records moved
        </p>
      ) : null}
      {p ? <MigrateSpeed progress={p} /> : null}
    </section>
  );
}
