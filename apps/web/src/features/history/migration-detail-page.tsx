import { ArrowLeft, Check, Download } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import {
  dataTypeLabels,
  dataTypeNames,
  platformLabels,
  type Migration,
} from '@replatform/contracts/migration';
import { formatUsd } from '@replatform/contracts/pricing';
import { StatusBadge } from '../../components/status-badge.tsx';
import { apiRequest, ApiRequestError } from '../../lib/api-client.ts';
import {
  formatCount,
  formatDateTime,
  formatPaymentMethod,
  formatStatus,
} from '../../lib/format.ts';
import { openInNewTab } from '../../lib/open-in-new-tab.ts';
import { useMigration, useMigrationProgress } from '../migrations/api/migrations-api.ts';
import { routeOf } from '../migrations/components/migration-card.tsx';
import { MappingsList } from '../migrations/components/mappings-list.tsx';
import { OptionsList } from '../migrations/components/options-list.tsx';
import { rememberSelectedMigration } from '../migrations/selected-migration.ts';
import { RunSpeedPanel } from '../migrations/speed/run-speed-panel.tsx';
import { RunFactsBlock } from './run-facts.tsx';
import { UndoPanel } from './undo-panel.tsx';
import { VerificationPanel } from './verification-panel.tsx';

function totals(m: Migration) {
  const stats = Object.values(m.migrationStats);
  const total = stats.reduce((s, x) => s + x.total, 0) || m.totalEntities;
  const migrated = stats.reduce((s, x) => s + x.migrated, 0) || m.migratedEntities;
  const failed = stats.reduce((s, x) => s + x.failed, 0);
  const rate = total > 0 ? Math.round((migrated / total) * 1000) / 10 : 0;
  return { total, migrated, failed, rate };
}

function DetailSteps({ m }: { m: Migration }) {
  const steps = [
    { n: 1, title: 'Connect Stores', done: m.currentStep > 1 },
    { n: 2, title: 'Select Data', done: m.currentStep > 2 },
    { n: 3, title: 'Payment', done: true },
    { n: 4, title: 'Migrate Data', done: m.currentStep >= 4 },
    { n: 5, title: 'Complete', done: m.status === 'completed' },
  ];
  return (
    <ol className="grid gap-2 sm:grid-cols-5">
      {steps.map((s) => (
        <li
          key={s.n}
          aria-current={s.n === m.currentStep ? 'step' : undefined}
          className={`flex items-center gap-2 rounded-lg p-3 text-sm ${s.n === m.currentStep ? 'bg-indigo-50 ring-1 ring-indigo-200' : 'bg-slate-50'}`}
        >
          <span
            className={`flex h-6 w-6 items-center justify-center rounded-full text-xs ${s.done ? 'bg-emerald-500 text-white' : 'bg-slate-200'}`}
          >
            {s.done ? <Check size={14} aria-label="done" /> : s.n}
          </span>
          {s.title}
        </li>
      ))}
    </ol>
  );
}

const receiptSchema = z.object({ receiptUrl: z.string() });

function ReceiptButton({ migrationId }: { migrationId: string }) {
  const [state, setState] = useState<'idle' | 'loading' | { error: string }>('idle');
  const download = async () => {
    setState('loading');
    try {
      await openInNewTab(async () => {
        const { receiptUrl } = await apiRequest(
          `/api/stripe/receipt/${encodeURIComponent(migrationId)}`,
          receiptSchema,
        );
        if (!receiptUrl) throw new ApiRequestError(404, 'not_found', 'Receipt not available');
        return receiptUrl;
      });
      setState('idle');
    } catch (error) {
      setState({
        error:
          error instanceof ApiRequestError && error.status < 500
            ? 'Receipt not available'
            : 'Failed to download receipt',
      });
    }
  };
  return (
    <div>
      <button
        type="button"
        onClick={download}
        disabled={state === 'loading'}
        className="inline-flex items-center gap-1 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium disabled:opacity-50"
      >
        <Download size={16} aria-hidden /> {state === 'loading' ? 'Loading...' : 'Download Receipt'}
      </button>
      {typeof state === 'object' ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}

/** Migration detail of spec.md section 2. */
export function MigrationDetailPage() {
  const { id } = useParams();
  const migration = useMigration(id);
  const progress = useMigrationProgress(id ?? '', {
    poll: migration.data?.status === 'in-progress',
  });
  const navigate = useNavigate();

  if (migration.isPending && id) {
    return (
      <main className="mx-auto max-w-7xl px-4 py-8" role="status">
        Loading migration details...
      </main>
    );
  }
  if (!id || migration.isError || !migration.data) {
    const reason = !id
      ? 'Migration ID not provided'
      : migration.error instanceof ApiRequestError && migration.error.status === 404
        ? 'The requested migration could not be found.'
        : 'Failed to load migration details';
    return (
      <main className="mx-auto max-w-3xl px-4 py-16 text-center">
        <h1 className="text-2xl font-semibold">Migration Not Found</h1>
        <p className="mt-2 text-slate-600">{reason}</p>
        <Link
          to="/migration-history"
          className="mt-6 inline-block rounded-md bg-indigo-600 px-4 py-2 font-medium text-white"
        >
          Back to History
        </Link>
      </main>
    );
  }

  const m = migration.data;
  const t = totals(m);
  const goToMigrations = () => {
    rememberSelectedMigration(m.id);
    navigate('/migrations');
  };
  const platform = (p: Migration['sourceStore']) => (p ? platformLabels[p] : 'Not specified');

  return (
    <main className="mx-auto w-full max-w-7xl px-4 py-8">
      <Link
        to="/migration-history"
        className="inline-flex items-center gap-1 text-sm font-medium text-indigo-700"
      >
        <ArrowLeft size={16} aria-hidden /> Back to History
      </Link>
      <header className="mt-4 flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{m.storeName}</h1>
          <p className="mt-1 text-slate-600">{routeOf(m)}</p>
          {m.completedAt ? (
            <p className="mt-1 text-sm text-slate-500">Completed {formatDateTime(m.completedAt)}</p>
          ) : null}
        </div>
        <StatusBadge status={m.status} />
      </header>

      {m.status === 'in-progress' ? (
        <section
          aria-label="Progress"
          className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
        >
          <DetailSteps m={m} />
        </section>
      ) : null}

      <section aria-label="Statistics" className="mt-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
        {[
          ['Total Entries', formatCount(t.total)],
          ['Migrated', formatCount(t.migrated)],
          ['Failed', formatCount(t.failed)],
          ['Success Rate', `${t.rate}%`],
        ].map(([label, value]) => (
          <div key={label} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
            <p className="text-sm text-slate-600">{label}</p>
            <p className="mt-1 text-2xl font-semibold">{value}</p>
          </div>
        ))}
      </section>

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <section
          aria-labelledby="details-title"
          className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
        >
          <h2 id="details-title" className="font-semibold">
            Migration Details
          </h2>
          <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
            <dt className="text-slate-600">Source platform</dt>
            <dd>{platform(m.sourceStore)}</dd>
            <dt className="text-slate-600">Destination platform</dt>
            <dd>{platform(m.destinationStore)}</dd>
            <dt className="text-slate-600">Migration date</dt>
            <dd>{formatDateTime(m.completedAt ?? m.lastUpdated) || 'Not specified'}</dd>
            <dt className="text-slate-600">Status</dt>
            <dd>{formatStatus(m.status) || 'Not specified'}</dd>
          </dl>
          <h3 className="mt-5 font-semibold">Mappings</h3>
          <MappingsList mappings={m.fieldMappings} />
          <h3 className="mt-5 font-semibold">Options</h3>
          <OptionsList options={m.migrationOptions} />
          <RunFactsBlock migration={m} />
          <h3 className="mt-5 font-semibold">Data Breakdown</h3>
          {Object.keys(m.migrationStats).length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">No migration statistics available</p>
          ) : (
            <ul className="mt-2 space-y-2 text-sm">
              {dataTypeNames
                .filter((type) => m.migrationStats[type])
                .map((type) => {
                  const s = m.migrationStats[type] ?? { total: 0, migrated: 0, failed: 0 };
                  const pct = s.total ? Math.round((s.migrated / s.total) * 100) : 0;
                  return (
                    <li key={type} className="flex flex-wrap justify-between gap-2">
                      <span>{dataTypeLabels[type]}</span>
                      <span>
                        {formatCount(s.migrated)} of {formatCount(s.total)} ({pct}%) ·{' '}
                        {formatCount(s.failed)} failed
                      </span>
                    </li>
                  );
                })}
            </ul>
          )}
        </section>

        {m.paymentInfo ? (
          <section
            aria-labelledby="billing-title"
            className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
          >
            <h2 id="billing-title" className="font-semibold">
              Billing Information
            </h2>
            <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
              <dt className="text-slate-600">Amount</dt>
              <dd>{formatUsd(m.paymentInfo.amount)}</dd>
              <dt className="text-slate-600">Status</dt>
              <dd>
                {formatStatus(m.paymentInfo.paymentStatus)}
                {m.paymentInfo.demo ? ' (demo)' : ''}
              </dd>
              <dt className="text-slate-600">Date</dt>
              <dd>{formatDateTime(m.paymentInfo.paymentDate) || 'Payment date unavailable'}</dd>
              <dt className="text-slate-600">Payment method</dt>
              <dd>{formatPaymentMethod(m.paymentInfo.paymentMethod, { withLast4: true })}</dd>
            </dl>
            <div className="mt-4">
              <ReceiptButton migrationId={m.id} />
            </div>
          </section>
        ) : null}
      </div>

      {progress.data?.speed ? <RunSpeedPanel speed={progress.data.speed} /> : null}

      {m.status === 'completed' ? <VerificationPanel migrationId={m.id} canVerifyAgain /> : null}

      {m.status === 'completed' && m.dataTypes.products ? (
        <RedirectMapPanel migrationId={m.id} />
      ) : null}

      {m.status === 'completed' || m.status === 'failed' ? <UndoPanel migrationId={m.id} /> : null}

      <div className="mt-8 flex flex-wrap gap-3">
        <Link
          to="/migration-history"
          className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium"
        >
          Back to History
        </Link>
        {m.status === 'in-progress' ? (
          <button
            type="button"
            onClick={goToMigrations}
            className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white"
          >
            Continue Migration
          </button>
        ) : null}
        {m.status !== 'completed' && m.status !== 'failed' ? (
          <button
            type="button"
            onClick={goToMigrations}
            className="rounded-md border border-indigo-300 px-4 py-2 font-medium text-indigo-700"
          >
            Resume Migration
          </button>
        ) : null}
        {m.status === 'failed' ? (
          <button
            type="button"
            onClick={goToMigrations}
            className="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white"
          >
            Restart Migration
          </button>
        ) : null}
        {m.status === 'completed' ? (
          <a
            href={`/api/migrations/${encodeURIComponent(m.id)}/report.csv`}
            download
            className="inline-flex items-center gap-1 rounded-md bg-indigo-600 px-4 py-2 font-medium text-white"
          >
            <Download size={16} aria-hidden /> Download Report
          </a>
        ) : null}
      </div>
    </main>
  );
}

/**
 * Where the old store's product and category addresses went, as a list and as web-server
 * rules, so links and search results that point at the old addresses keep working.
 */
function RedirectMapPanel({ migrationId }: { migrationId: string }) {
  const base = `/api/migrations/${encodeURIComponent(migrationId)}/redirect-map`;
  const link =
    'inline-flex items-center gap-1 rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:border-slate-400';
  return (
    <section
      aria-labelledby="redirects-title"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="redirects-title" className="font-semibold">
        Redirect map
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Every product, category and brand page with its old address and its new one, so links and
        search results that lead to the old store keep working once you switch.
      </p>
      <div className="mt-3 flex flex-wrap gap-2">
        <a href={`${base}/csv`} download className={link}>
          <Download size={14} aria-hidden /> Download redirect list (CSV)
        </a>
        <a href={`${base}/nginx`} download className={link}>
          <Download size={14} aria-hidden /> Download nginx redirect rules
        </a>
        <a href={`${base}/apache`} download className={link}>
          <Download size={14} aria-hidden /> Download Apache redirect rules
        </a>
      </div>
    </section>
  );
}
