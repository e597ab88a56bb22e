import { ArrowLeft, List, Plus } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { Migration } from '@replatform/contracts/migration';
import { StatusBadge } from '../../components/status-badge.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMigrations } from './api/migrations-api.ts';
import { BillingOverview } from './components/billing-overview.tsx';
import { MigrationCard, routeOf } from './components/migration-card.tsx';
import { NewMigrationForm } from './components/new-migration-form.tsx';
import { cancelNewStore, startNewStore } from './current-store.ts';
import {
  claimAutoOpen,
  firstInProgress,
  forgetSelectedMigration,
  peekSelectedMigration,
  settleAutoOpen,
} from './selected-migration.ts';

type View = 'dashboard' | 'all' | 'new';

function AllMigrations({ migrations, onBack }: { migrations: Migration[]; onBack: () => void }) {
  return (
    <section aria-labelledby="all-title">
      <button
        type="button"
        onClick={onBack}
        className="inline-flex items-center gap-1 text-sm font-medium text-indigo-700"
      >
        <ArrowLeft size={16} aria-hidden /> Back to Dashboard
      </button>
      <h2 id="all-title" className="mt-3 text-xl font-semibold">
        All Store Migrations
      </h2>
      <ul className="mt-4 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
        {migrations.map((m) => (
          <li key={m.id}>
            <Link
              to={`/migrations/${m.id}`}
              className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 hover:bg-slate-50"
            >
              <div>
                <p className="font-medium">{m.storeName}</p>
                <p className="text-sm text-slate-600">
                  {routeOf(m)} · Step {m.currentStep}/5 · {formatDateTime(m.lastUpdated)}
                </p>
              </div>
              <StatusBadge status={m.status} />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The dashboard of spec.md section 2. */
export function MigrationsPage() {
  const migrations = useMigrations();
  const navigate = useNavigate();
  // The header's Add New Store, Switch Migration and Back to dashboard ask for a view directly.
  const requested = (useLocation().state as { view?: View } | null)?.view;
  const [view, setView] = useState<View>(requested ?? 'dashboard');
  useEffect(() => {
    if (requested) setView(requested);
  }, [requested]);

  // A migration chosen on the history pages opens here once (spec.md section 2).
  const [saved] = useState(peekSelectedMigration);
  useEffect(() => {
    if (!saved) return;
    forgetSelectedMigration();
    settleAutoOpen();
    navigate(`/migrations/${saved}`, { replace: true });
  }, [saved, navigate]);

  // Without one, the first in-progress migration opens on load (once per page load, see
  // claimAutoOpen); a view asked for explicitly always wins.
  const loaded = migrations.data;
  useEffect(() => {
    if (saved || !loaded) return;
    if (requested) {
      settleAutoOpen();
      return;
    }
    if (!claimAutoOpen()) return;
    const first = firstInProgress(loaded);
    if (first) navigate(`/migrations/${first.id}`, { replace: true });
  }, [saved, loaded, requested, navigate]);

  const openNew = () => {
    startNewStore();
    setView('new');
  };
  const list = migrations.data ?? [];
  const active = list.filter((m) => m.status === 'in-progress' || m.status === 'pending');
  const completed = list.filter((m) => m.status === 'completed').length;
  const failed = list.filter((m) => m.status === 'failed').length;

  return (
    <main className="mx-auto w-full max-w-7xl px-4 py-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Your Migrations</h1>
          {/* Until the list arrives there is nothing to count: zeros would read as "none". */}
          {migrations.isPending ? (
            <p className="mt-1 animate-pulse text-slate-500" aria-busy="true">
              Counting your migrations...
            </p>
          ) : (
            <p className="mt-1 text-slate-600">
              <span>{active.length} active</span> · <span>{completed} completed</span> ·{' '}
              <span>{failed} failed</span>
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            onClick={() => setView('all')}
            className="inline-flex items-center gap-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium"
          >
            <List size={16} aria-hidden /> View All{migrations.isPending ? '' : ` (${list.length})`}
          </button>
          <button
            type="button"
            onClick={openNew}
            className="inline-flex items-center gap-1 rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white hover:bg-indigo-700"
          >
            <Plus size={16} aria-hidden /> New Migration
          </button>
        </div>
      </div>

      <div className="mt-8 space-y-8">
        {migrations.isPending ? (
          <p role="status">Loading migrations...</p>
        ) : migrations.isError ? (
          <p role="alert" className="text-red-700">
            Your migrations could not be loaded. Please refresh the page.
          </p>
        ) : view === 'new' ? (
          <NewMigrationForm
            onCancel={() => {
              cancelNewStore();
              setView('dashboard');
            }}
          />
        ) : view === 'all' ? (
          <AllMigrations migrations={list} onBack={() => setView('dashboard')} />
        ) : list.length === 0 ? (
          <section className="rounded-xl border border-dashed border-slate-300 bg-white p-10 text-center">
            <h2 className="text-lg font-semibold">No migrations yet</h2>
            <p className="mt-1 text-slate-600">
              Connect two stores and move your data in five steps.
            </p>
            <button
              type="button"
              onClick={openNew}
              className="mt-4 rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700"
            >
              Start Your First Migration
            </button>
          </section>
        ) : (
          <>
            {active.length > 0 ? (
              <section aria-labelledby="active-title">
                <h2 id="active-title" className="text-lg font-semibold">
                  Active Migrations
                </h2>
                <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                  {active.map((m) => (
                    <MigrationCard key={m.id} migration={m} />
                  ))}
                </div>
              </section>
            ) : null}
            <BillingOverview migrations={list} onViewAll={() => setView('all')} />
          </>
        )}
      </div>
    </main>
  );
}
