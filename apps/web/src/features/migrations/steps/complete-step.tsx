import { CheckCircle2, RefreshCw } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { dataTypeNames, platformLabels, type Migration } from '@replatform/contracts/migration';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { RunFactsBlock } from '../../history/run-facts.tsx';
import { useSession } from '../../session/api/get-session.ts';
import { useStartMigration } from '../api/migrations-api.ts';
import type { OpenStep } from './migrate-step.tsx';

/**
 * Re-migration of a completed migration: the same run again, writing only what is new or changed
 * in the source since the last one. The first is free; later ones are paid at step 3 first (the
 * server answers 402 until then).
 */
function ReMigrate({ migration, onOpenStep }: { migration: Migration; onOpenStep: OpenStep }) {
  const start = useStartMigration(migration.id);
  const sinceId = useId();
  const sinceHint = useId();
  const [since, setSince] = useState('');
  const today = new Date().toISOString().slice(0, 10);
  const demo = Boolean(useSession().data?.user.isDemo);
  const needsPayment = start.error instanceof ApiRequestError && start.error.status === 402;
  // After a real charge, a word about free sandbox runs would read as if this one was free too.
  const charged = Boolean(migration.paymentInfo && migration.paymentInfo.amount > 0);
  return (
    <section
      aria-labelledby="remigrate-title"
      className="mt-6 rounded-lg border border-emerald-200 bg-white p-5"
    >
      <h3 id="remigrate-title" className="font-semibold text-slate-900">
        Sync recent data
      </h3>
      <p className="mt-1 text-sm text-slate-700">
        Re-migrate copies the records that are new or changed in your source store since this
        migration ran. Records already at the destination are updated, never duplicated.
      </p>
      <p className="mt-1 text-sm text-slate-700">
        {demo
          ? 'Re-migrations are free on demo accounts.'
          : `Your first re-migration is free. After that, each re-migration is paid for at the Payment step before it starts, and you see the price first.${charged ? '' : ' Migrations between sandbox stores are always free.'}`}
      </p>
      <div className="mt-3">
        <label htmlFor={sinceId} className="block text-sm font-medium text-slate-700">
          Only records changed since (optional)
        </label>
        <input
          id={sinceId}
          type="date"
          value={since}
          max={today}
          onChange={(e) => setSince(e.target.value)}
          aria-describedby={sinceHint}
          className="mt-1 rounded-md border border-slate-300 px-3 py-2"
        />
        <p id={sinceHint} className="mt-1 text-xs text-slate-500">
          Records already moved that your source store has not changed since this day are left as
          they are; new records always come. Leave it empty to check everything.
        </p>
      </div>
      {start.isError && !needsPayment ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700">
          {start.error.message}
        </p>
      ) : null}
      <button
        type="button"
        onClick={() =>
          start.mutate(since ? { changedSince: since } : undefined, {
            onError: (error) => {
              if (error instanceof ApiRequestError && error.status === 402)
                onOpenStep(3, error.message);
            },
          })
        }
        disabled={start.isPending}
        className="mt-4 inline-flex items-center gap-2 rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
      >
        <RefreshCw size={16} aria-hidden className={start.isPending ? 'animate-spin' : undefined} />
        {start.isPending ? 'Starting...' : since ? 'Re-migrate recent changes' : 'Re-migrate'}
      </button>
    </section>
  );
}

/** Step 5: summary, a link to the migration's history page, and re-migration. */
export function CompleteStep({
  migration,
  onOpenStep,
}: {
  migration: Migration;
  onOpenStep: OpenStep;
}) {
  const types = dataTypeNames.filter((t) => migration.dataTypes[t]);
  const label = (p: Migration['sourceStore']) => (p ? platformLabels[p] : 'Not specified');
  return (
    <section
      aria-labelledby="complete-title"
      className="rounded-xl border border-emerald-200 bg-emerald-50 p-6"
    >
      <CheckCircle2 className="text-emerald-600" size={40} aria-hidden />
      <h2 id="complete-title" className="mt-3 text-2xl font-semibold text-emerald-900">
        Migration Complete!
      </h2>
      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-emerald-800">Source</dt>
          <dd className="font-medium">{label(migration.sourceStore)}</dd>
        </div>
        <div>
          <dt className="text-emerald-800">Destination</dt>
          <dd className="font-medium">{label(migration.destinationStore)}</dd>
        </div>
        <div>
          <dt className="text-emerald-800">Migrated data</dt>
          <dd className="font-medium capitalize">{types.join(', ') || 'None'}</dd>
        </div>
      </dl>
      <RunFactsBlock migration={migration} />
      <Link
        to={`/migration-history/${migration.id}`}
        className="mt-6 inline-block rounded-md bg-emerald-600 px-4 py-2 font-medium text-white hover:bg-emerald-700"
      >
        View migration details
      </Link>
      {migration.status === 'completed' ? (
        <ReMigrate migration={migration} onOpenStep={onOpenStep} />
      ) : null}
    </section>
  );
}
