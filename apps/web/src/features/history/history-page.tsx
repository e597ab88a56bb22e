import { ArrowRight, PlayCircle } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { stepProgressPercent, type Migration } from '@replatform/contracts/migration';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMigrations } from '../migrations/api/migrations-api.ts';
import { routeOf } from '../migrations/components/migration-card.tsx';
import { rememberSelectedMigration } from '../migrations/selected-migration.ts';

function Counter({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <p className="text-sm text-slate-600">{label}</p>
      <p className="mt-1 text-2xl font-semibold">{value}</p>
    </div>
  );
}

/** Migration History of spec.md section 2. */
export function HistoryPage() {
  const migrations = useMigrations();
  const navigate = useNavigate();
  // A failed list shows as empty, as the sketch did (the error is only logged).
  const list: Migration[] = migrations.data ?? [];
  const inProgress = list.filter((m) => m.status === 'in-progress');
  const resume = (id: string) => {
    rememberSelectedMigration(id);
    navigate('/migrations');
  };

  return (
    <main className="mx-auto w-full max-w-7xl px-4 py-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Migration History</h1>
        {inProgress.length > 0 ? (
          <button
            type="button"
            onClick={() => resume(inProgress[0]?.id ?? '')}
            className="inline-flex items-center gap-1 rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-700"
          >
            <PlayCircle size={16} aria-hidden /> Resume Active ({inProgress.length})
          </button>
        ) : null}
      </div>
      <div className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Counter label="Total" value={list.length} />
        <Counter label="Completed" value={list.filter((m) => m.status === 'completed').length} />
        <Counter label="In Progress" value={inProgress.length} />
        <Counter label="Failed" value={list.filter((m) => m.status === 'failed').length} />
      </div>

      {migrations.isPending ? (
        <p role="status" className="mt-8 text-slate-600">
          Loading migration history...
        </p>
      ) : list.length === 0 ? (
        <section className="mt-8 rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center">
          <h2 className="text-lg font-semibold">No Migration History</h2>
          <p className="mt-1 text-slate-600">Your migrations will appear here.</p>
          <Link
            to="/migrations"
            className="mt-4 inline-block rounded-md bg-indigo-600 px-4 py-2 font-medium text-white"
          >
            Start Migration
          </Link>
        </section>
      ) : (
        <ul className="mt-8 space-y-3">
          {list.map((m) => {
            const percent = stepProgressPercent(m.currentStep);
            return (
              <li key={m.id} className="rounded-xl border border-slate-200 bg-white shadow-sm">
                <div className="flex flex-wrap items-center gap-4 p-4">
                  <Link
                    to={`/migration-history/${m.id}`}
                    className="min-w-0 flex-1 basis-full hover:underline sm:basis-auto"
                  >
                    <span className="block font-semibold">{m.storeName}</span>
                    <span className="block text-sm text-slate-600">{routeOf(m)}</span>
                  </Link>
                  <StatusBadge status={m.status} />
                  {m.status !== 'failed' ? (
                    <div className="w-full sm:w-40">
                      <div className="mb-1 text-right text-xs text-slate-600">{percent}%</div>
                      <ProgressBar
                        value={percent}
                        label={`${m.storeName} progress`}
                        tone={m.status === 'completed' ? 'emerald' : 'indigo'}
                      />
                    </div>
                  ) : null}
                  {/* A pending row's badge says Pending: nothing here may say it is running. */}
                  {m.status !== 'pending' ? (
                    <span className="text-sm text-slate-600">
                      {m.completedAt
                        ? formatDateTime(m.completedAt)
                        : m.status === 'failed'
                          ? `Stopped ${formatDateTime(m.lastUpdated)}`
                          : 'In Progress'}
                    </span>
                  ) : null}
                  {m.status === 'in-progress' || m.status === 'pending' ? (
                    <button
                      type="button"
                      onClick={() => resume(m.id)}
                      className="text-sm font-medium text-indigo-700 hover:underline"
                    >
                      Continue Migration
                    </button>
                  ) : (
                    <Link
                      to={`/migration-history/${m.id}`}
                      aria-label={`Details of ${m.storeName}`}
                      className="text-slate-500"
                    >
                      <ArrowRight size={18} aria-hidden />
                    </Link>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </main>
  );
}
