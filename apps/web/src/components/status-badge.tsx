import { CheckCircle2, Clock, Loader2, XCircle } from 'lucide-react';
import type { MigrationStatus } from '@replatform/contracts/migration';

const styles: Record<MigrationStatus, { label: string; className: string; Icon: typeof Clock }> = {
  pending: {
    label: 'Pending',
    className: 'bg-amber-50 text-amber-800 ring-amber-200',
    Icon: Clock,
  },
  'in-progress': {
    label: 'In Progress',
    className: 'bg-indigo-50 text-indigo-700 ring-indigo-200',
    Icon: Loader2,
  },
  completed: {
    label: 'Completed',
    className: 'bg-emerald-50 text-emerald-700 ring-emerald-200',
    Icon: CheckCircle2,
  },
  failed: { label: 'Failed', className: 'bg-red-50 text-red-700 ring-red-200', Icon: XCircle },
};

export function StatusBadge({ status }: { status: MigrationStatus }) {
  const { label, className, Icon } = styles[status];
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ${className}`}
    >
      <Icon size={14} aria-hidden />
      {label}
    </span>
  );
}
