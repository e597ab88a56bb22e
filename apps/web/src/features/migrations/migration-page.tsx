import { ArrowLeft, ArrowLeftRight } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import {
  dataTypeNames,
  fieldMappingsSchema,
  stepProgressPercent,
  type FieldMappings,
  type Migration,
  type MigrationOptions,
} from '@replatform/contracts/migration';
import { Confetti } from '../../components/confetti.tsx';
import { ProgressBar } from '../../components/progress-bar.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useMigration, useMigrations, useUpdateMigration } from './api/migrations-api.ts';
import { StepsSidebar } from './components/steps-sidebar.tsx';
import { chooseStore } from './current-store.ts';
import { settleAutoOpen } from './selected-migration.ts';
import { CompleteStep } from './steps/complete-step.tsx';
import { ConnectStep } from './steps/connect-step.tsx';
import { MigrateStep, type OpenStep } from './steps/migrate-step.tsx';
import { PaymentStep } from './steps/payment-step.tsx';
import { initialSelection, SelectDataStep, type DataSelection } from './steps/select-data-step.tsx';

function StepContent({
  migration,
  step,
  reason,
  onOpenStep,
  onSelectionChange,
  onMappingsChange,
  onOptionsChange,
}: {
  migration: Migration;
  step: number;
  reason: string | undefined;
  onOpenStep: OpenStep;
  onSelectionChange: (selection: DataSelection) => void;
  onMappingsChange: (mappings: FieldMappings) => void;
  onOptionsChange: (options: Required<MigrationOptions>) => void;
}) {
  const paid = migration.paymentInfo?.paymentStatus === 'paid';
  switch (step) {
    case 1:
      return <ConnectStep migration={migration} />;
    case 2:
      return (
        <SelectDataStep
          migration={migration}
          readOnly={paid}
          onSelectionChange={onSelectionChange}
          onMappingsChange={onMappingsChange}
          onOptionsChange={onOptionsChange}
        />
      );
    case 3:
      return (
        <PaymentStep
          migration={migration}
          onStarted={() => onOpenStep(4)}
          {...(reason ? { reason } : {})}
        />
      );
    case 4:
      return <MigrateStep migration={migration} onOpenStep={onOpenStep} />;
    default:
      return <CompleteStep migration={migration} onOpenStep={onOpenStep} />;
  }
}

const storesReady = (m: Migration) =>
  Boolean(m.sourceStore && m.destinationStore && m.sourceVerified && m.destinationVerified);

/** The selected-migration view of spec.md section 2; its state starts afresh per migration. */
export function MigrationPage() {
  const { id } = useParams();
  return <MigrationView key={id} id={id} />;
}

function MigrationView({ id }: { id: string | undefined }) {
  const [params] = useSearchParams();
  const migration = useMigration(id);
  const list = useMigrations();
  const update = useUpdateMigration(id ?? '');
  // Back from Stripe Checkout (paid or cancelled) the Payment step handles the return, whatever
  // step the migration is at (a top-up is paid while it stands at step 4).
  const [viewed, setViewed] = useState<{ step: number; reason?: string } | null>(() =>
    params.get('payment') ? { step: 3 } : null,
  );
  const [selection, setSelection] = useState<DataSelection | null>(null);
  const [mappings, setMappings] = useState<FieldMappings | null>(null);
  const [options, setOptions] = useState<Required<MigrationOptions> | null>(null);
  const [celebrate, setCelebrate] = useState(false);
  const previous = useRef<{ step: number; status: string } | null>(null);

  useEffect(() => {
    settleAutoOpen();
    // Opening a migration makes its store the current one (the header's store selector).
    if (id) chooseStore(id);
  }, [id]);

  const current = migration.data?.currentStep;
  const status = migration.data?.status;
  useEffect(() => {
    if (current === undefined || status === undefined) return;
    const before = previous.current;
    previous.current = { step: current, status };
    if (!before || (before.step === current && before.status === status)) return;
    // The migration moved on (or was restarted): show where it stands now.
    setViewed(null);
    // Confetti only when the migration reaches step 5 while the owner watches.
    if (before.step < 5 && current === 5) setCelebrate(true);
  }, [current, status]);
  useEffect(() => {
    if (!celebrate) return;
    const timer = setTimeout(() => setCelebrate(false), 5000);
    return () => clearTimeout(timer);
  }, [celebrate]);

  const openStep = useCallback<OpenStep>(
    (step, reason) => setViewed(reason ? { step, reason } : { step }),
    [],
  );

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
        <Link
          to="/migrations"
          state={{ view: 'dashboard' }}
          className="mt-4 inline-block text-indigo-700 underline"
        >
          Back to dashboard
        </Link>
      </main>
    );
  }

  const m = migration.data;
  const step = Math.min(viewed?.step ?? m.currentStep, m.currentStep);
  const percent = stepProgressPercent(m.currentStep);
  const activeCount = (list.data ?? []).filter(
    (x) => x.status === 'in-progress' || x.status === 'pending',
  ).length;
  const finished = m.currentStep >= 5 || m.status === 'completed';
  const onCurrentStep = step === m.currentStep;
  const chosen = selection ?? initialSelection(m);
  // Next Step does what the step's own button does: on step 1 only once both stores are
  // connected, on step 2 it saves the selection on screen together with the step change.
  const nextBlocked =
    m.currentStep === 1
      ? !storesReady(m)
      : m.currentStep === 2
        ? !dataTypeNames.some((t) => chosen[t]) ||
          (mappings !== undefined && !fieldMappingsSchema.safeParse(mappings).success)
        : false;
  const next = () =>
    update.mutate(
      m.currentStep === 2
        ? {
            dataTypes: chosen,
            ...(mappings ? { fieldMappings: mappings } : {}),
            ...(options ? { migrationOptions: options } : {}),
            currentStep: m.currentStep + 1,
          }
        : { currentStep: m.currentStep + 1 },
    );

  return (
    <main className="mx-auto w-full max-w-7xl px-4 py-6 sm:py-8">
      {celebrate ? <Confetti /> : null}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2 text-sm">
        <Link
          to="/migrations"
          state={{ view: 'dashboard' }}
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
      <header className="mt-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h1 className="break-words text-2xl font-semibold tracking-tight">{m.storeName}</h1>
            <p className="mt-1 text-sm text-slate-600">Step {m.currentStep} of 5</p>
          </div>
          <StatusBadge status={m.status} />
        </div>
        <div className="mt-4">
          <ProgressBar value={percent} label="Migration progress" />
        </div>
      </header>

      <div className="mt-4 grid gap-4 sm:mt-6 lg:grid-cols-[18rem_1fr] lg:gap-6">
        <aside>
          <StepsSidebar
            currentStep={m.currentStep}
            viewedStep={step}
            onSelect={(s) => setViewed(s === m.currentStep ? null : { step: s })}
          />
        </aside>
        <div className="min-w-0">
          <StepContent
            migration={m}
            step={step}
            reason={viewed?.reason}
            onOpenStep={openStep}
            onSelectionChange={setSelection}
            onMappingsChange={setMappings}
            onOptionsChange={setOptions}
          />
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
            ) : m.currentStep < 3 && onCurrentStep ? (
              <button
                type="button"
                disabled={update.isPending || nextBlocked}
                title={
                  nextBlocked
                    ? m.currentStep === 1
                      ? 'Connect both stores first'
                      : 'Select at least one data type'
                    : undefined
                }
                onClick={next}
                className="rounded-md border border-slate-300 bg-white px-4 py-2 font-medium hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-50"
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
