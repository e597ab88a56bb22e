import { Check, ChevronDown } from 'lucide-react';
import { useId, useState } from 'react';
import { migrationSteps, stepProgressPercent } from '@replatform/contracts/migration';
import { ProgressBar } from '../../../components/progress-bar.tsx';

/**
 * Earlier steps are done and clickable, the current one highlighted, later ones disabled. On a
 * phone the list folds into one line (step n of 5 and five dots) above the step content, opened
 * with Show steps; from the large breakpoint on it is always a full sidebar.
 */
export function StepsSidebar({
  currentStep,
  viewedStep,
  onSelect,
}: {
  currentStep: number;
  viewedStep: number;
  onSelect: (step: number) => void;
}) {
  const percent = stepProgressPercent(currentStep);
  const [expanded, setExpanded] = useState(false);
  const listId = useId();
  const viewed = migrationSteps.find((s) => s.step === viewedStep);
  return (
    <nav
      aria-labelledby="steps-title"
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm lg:p-5"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id="steps-title" className="font-semibold">
            Migration Steps
          </h2>
          <p className={`mt-1 text-sm text-slate-600 ${expanded ? '' : 'hidden lg:block'}`}>
            Follow these steps to complete your store migration
          </p>
          {!expanded ? (
            <p className="mt-1 truncate text-sm text-slate-600 lg:hidden">
              Step {viewedStep} of {migrationSteps.length}
              {viewed ? `: ${viewed.title}` : ''}
            </p>
          ) : null}
        </div>
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={listId}
          onClick={() => setExpanded(!expanded)}
          className="inline-flex shrink-0 items-center gap-1 rounded-md border border-slate-300 px-2.5 py-1.5 text-sm font-medium text-slate-700 lg:hidden"
        >
          {expanded ? 'Hide steps' : 'Show steps'}
          <ChevronDown
            size={16}
            aria-hidden
            className={`transition-transform ${expanded ? 'rotate-180' : ''}`}
          />
        </button>
      </div>
      {!expanded ? (
        <ol className="mt-3 flex items-center gap-1.5 lg:hidden" aria-hidden>
          {migrationSteps.map(({ step }) => (
            <li
              key={step}
              className={`h-1.5 flex-1 rounded-full ${step < currentStep ? 'bg-emerald-500' : step === currentStep ? 'bg-indigo-600' : 'bg-slate-200'}`}
            />
          ))}
        </ol>
      ) : null}
      <div id={listId} className={expanded ? '' : 'hidden lg:block'}>
        <ol className="mt-4 space-y-2">
          {migrationSteps.map(({ step, title, description }) => {
            const done = step < currentStep;
            const current = step === currentStep;
            const isViewed = step === viewedStep;
            return (
              <li key={step}>
                <button
                  type="button"
                  disabled={step > currentStep}
                  aria-current={current ? 'step' : undefined}
                  onClick={() => {
                    onSelect(step);
                    setExpanded(false);
                  }}
                  className={`flex w-full items-start gap-3 rounded-lg p-2 text-left ${isViewed ? 'bg-indigo-50 ring-1 ring-indigo-200' : 'hover:bg-slate-50'} disabled:cursor-not-allowed disabled:opacity-50`}
                >
                  <span
                    className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-sm font-semibold ${done ? 'bg-emerald-500 text-white' : current ? 'bg-indigo-600 text-white' : 'bg-slate-200 text-slate-600'}`}
                    aria-hidden
                  >
                    {done ? <Check size={16} /> : step}
                  </span>
                  <span>
                    <span className="block text-sm font-medium text-slate-900">
                      {title}
                      {done ? <span className="sr-only"> (done)</span> : null}
                    </span>
                    <span className="block text-xs text-slate-500">{description}</span>
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
        <div className="mt-5">
          <div className="flex justify-between text-sm">
            <span className="font-medium">Overall Progress</span>
            <span>{percent}%</span>
          </div>
          <div className="mt-2">
            <ProgressBar value={percent} label="Overall progress" />
          </div>
        </div>
      </div>
    </nav>
  );
}
