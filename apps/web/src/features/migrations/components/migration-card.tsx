import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import {
  platformLabels,
  stepProgressPercent,
  type Migration,
} from '@replatform/contracts/migration';
import { ProgressBar } from '../../../components/progress-bar.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';

export function routeOf(m: Migration): string {
  if (!m.sourceStore || !m.destinationStore) return 'Configuration pending';
  return `${platformLabels[m.sourceStore]} → ${platformLabels[m.destinationStore]}`;
}

/** An active migration: source to destination, percent (currentStep / 5) and step n/5. */
export function MigrationCard({ migration }: { migration: Migration }) {
  const percent = stepProgressPercent(migration.currentStep);
  return (
    <Link
      to={`/migrations/${migration.id}`}
      className="block rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-indigo-300 hover:shadow"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="truncate font-semibold text-slate-900">{migration.storeName}</h3>
          <p className="mt-1 text-sm text-slate-600">{routeOf(migration)}</p>
        </div>
        <StatusBadge status={migration.status} />
      </div>
      <div className="mt-4 flex items-center justify-between text-sm text-slate-600">
        <span>Step {migration.currentStep}/5</span>
        <span>{percent}%</span>
      </div>
      <div className="mt-2">
        <ProgressBar value={percent} label={`${migration.storeName} progress`} />
      </div>
      <span className="mt-4 inline-flex items-center gap-1 text-sm font-medium text-indigo-700">
        Open <ArrowRight size={16} aria-hidden />
      </span>
    </Link>
  );
}
