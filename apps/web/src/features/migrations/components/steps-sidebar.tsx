import { Check } from 'lucide-react';
import { migrationSteps, stepProgressPercent } from '@replatform/contracts/migration';
import { ProgressBar } from '../../../components/progress-bar.tsx';

/** Earlier steps are done and clickable, the current one highlighted, later ones disabled. */
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
  return (
    <nav
      aria-labelledby="steps-title"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="steps-title" className="font-semibold">
        Migration Steps
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Follow these steps to complete your store migration
      </p>
      <ol className="mt-4 space-y-2">
        {migrationSteps.map(({ step, title, description }) => {
          const done = step < currentStep;
          const current = step === currentStep;
          const viewed = step === viewedStep;
          return (
            <li key={step}>
              <button
                type="button"
                disabled={step > currentStep}
                aria-current={current ? 'step' : undefined}
                onClick={() => onSelect(step)}
                className={`flex w-full items-start gap-3 rounded-lg p-2 text-left ${viewed ? 'bg-indigo-50 ring-1 ring-indigo-200' : 'hover:bg-slate-50'} disabled:cursor-not-allowed disabled:opacity-50`}
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
    </nav>
  );
}
