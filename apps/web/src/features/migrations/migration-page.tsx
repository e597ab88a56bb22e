import { ArrowLeft, ArrowLeftRight } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { stepProgressPercent, type Migration } from '@replatform/contracts/migration';
import { Confetti } from '../../components/confetti.tsx';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useMigration, useMigrations, useUpdateMigration } from './api/migrations-api.ts';
import { StepsSidebar } from './components/steps-sidebar.tsx';
import { CompleteStep } from './steps/complete-step.tsx';
import { ConnectStep } from './steps/connect-step.tsx';
import { MigrateStep } from './steps/migrate-step.tsx';
import { PaymentStep } from './steps/payment-step.tsx';
import { SelectDataStep } from './steps/select-data-step.tsx';

function StepContent({ migration, step }: { migration: Migration; step: number }) {
  const paid = migration.paymentInfo?.paymentStatus === 'paid';
  switch (step) {
    case 1:
      return <ConnectStep migration={migration} />;
    case 2:
      return <SelectDataStep migration={migration} readOnly={paid} />;
    case 3:
      return <PaymentStep migration={migration} />;
    case 4:
      return <MigrateStep migration={migration} />;
    default:
      return <CompleteStep migration={migration} />;
  }
}

/** The selected-migration view of spec.md section 2. */
export function MigrationPage() {
  const { id } = useParams();
  const migration = useMigration(id);
  const list = useMigrations();
  const update = useUpdateMigration(id ?? '');
  const [viewedStep, setViewedStep] = useState<number | null>(null);
  const [celebrate, setCelebrate] = useState(false);
  const previousStep = useRef<number | null>(null);

  const current = migration.data?.currentStep;
  useEffect(() => {
    if (current === undefined) return;
    // Confetti only when the migration reaches step 5 while the owner watches.
    if (previousStep.current !== null && previousStep.current < 5 && current === 5) {
      setCelebrate(true);
      const timer = setTimeout(() => setCelebrate(false), 5000);
      previousStep.current = current;
      return () => clearTimeout(timer);
    }
    previousStep.current = current;
    setViewedStep(null);
    return undefined;
  }, [current]);

  if (migration.isPending) {
    return (
      <main className="mx-auto max-w-7xl px-4 py-8" role="status">
        Loading migration...
      </main>
    );
  }
  if (migration.isError || !migration.data) {
    return (
      <main className="mx-auto max-w-7xl px-4 py-8">
        <h1 className="text-2xl font-semibold">Migration Not Found</h1>
        <p className="mt-2 text-slate-600">The requested migration could not be found.</p>
        <Link to="/migrations" className="mt-4 inline-block text-indigo-700 underline">
          Back to dashboard
        </Link>
      </main>
    );
  }

  const m = migration.data;
  const step = viewedStep ?? m.currentStep;
  const percent = stepProgressPercent(m.currentStep);
  const activeCount = (list.data ?? []).filter(
    (x) => x.status === 'in-progress' || x.status === 'pending',
  ).length;
  const finished = m.currentStep >= 5 || m.status === 'completed';

  return (
    <main className="mx-auto w-full max-w-7xl px-4 py-8">
      {celebrate ? <Confetti /> : null}
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <Link
          to="/migrations"
          className="inline-flex items-center gap-1 font-medium text-indigo-700"
        >
          <ArrowLeft size={16} aria-hidden /> Back to dashboard
        </Link>
        {activeCount > 1 ? (
          <Link
            to="/migrations"
            state={{ view: 'all' }}
            className="inline-flex items-center gap-1 text-slate-600 hover:text-slate-900"
          >
            <ArrowLeftRight size={16} aria-hidden /> Switch Migration
          </Link>
        ) : null}
      </div>
      <header className="mt-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div>
            <h1 className="text-2xl font-semibold tracking-tight">{m.storeName}</h1>
            <p className="mt-1 text-sm text-slate-600">Step {m.currentStep} of 5</p>
          </div>
          <StatusBadge status={m.status} />
        </div>
        <div className="mt-4">
          <ProgressBar value={percent} label="Migration progress" />
        </div>
      </header>

      <div className="mt-6 grid gap-6 lg:grid-cols-[18rem_1fr]">
        <aside>
          <StepsSidebar
            currentStep={m.currentStep}
            viewedStep={step}
            onSelect={(s) => setViewedStep(s === m.currentStep ? null : s)}
          />
        </aside>
        <div className="min-w-0">
          <StepContent migration={m} step={step} />
          {update.isError ? (
            <p role="alert" className="mt-4 text-red-700">
              {update.error.message}
            </p>
          ) : null}
          <div className="mt-6 flex justify-end">
            {finished ? (
              <span className="rounded-md bg-emerald-50 px-4 py-2 font-medium text-emerald-700">
                Migration Complete
              </span>
            ) : m.currentStep < 3 ? (
              <button
                type="button"
                disabled={update.isPending}
                onClick={() => update.mutate({ currentStep: m.currentStep + 1 })}
                className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:bg-slate-50 disabled:opacity-50"
              >
                Next Step
              </button>
            ) : null}
          </div>
        </div>
      </div>
    </main>
  );
}
