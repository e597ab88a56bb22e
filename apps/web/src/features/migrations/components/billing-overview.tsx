import { CreditCard } from 'lucide-react';
import { formatUsd } from '@replatform/contracts/pricing';
import type { Migration } from '@replatform/contracts/migration';
import { formatDateTime, formatPaymentMethod } from '../../../lib/format.ts';

const SHOWN = 6;

const paidAt = (m: Migration) => {
  const time = Date.parse(m.paymentInfo?.paymentDate ?? '');
  return Number.isNaN(time) ? -Infinity : time;
};

/** Billing Overview of the dashboard: total spent and up to six paid migrations, newest first. */
export function BillingOverview({
  migrations,
  onViewAll,
}: {
  migrations: Migration[];
  onViewAll: () => void;
}) {
  const paid = migrations
    .filter((m) => m.paymentInfo?.paymentStatus === 'paid')
    .sort((a, b) => paidAt(b) - paidAt(a));
  if (paid.length === 0) return null;
  const total = paid.reduce((sum, m) => sum + (m.paymentInfo?.amount ?? 0), 0);
  return (
    <section
      aria-labelledby="billing-title"
      className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="billing-title" className="text-lg font-semibold">
          Billing Overview
        </h2>
        <p className="text-sm text-slate-600">
          Total spent <strong className="text-lg text-slate-900">{formatUsd(total)}</strong>
        </p>
      </div>
      <ul className="mt-4 divide-y divide-slate-100">
        {paid.slice(0, SHOWN).map((m) => (
          <li key={m.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
            <div>
              <p className="font-medium">{m.storeName}</p>
              <p className="text-sm text-slate-500">
                {formatDateTime(m.paymentInfo?.paymentDate) || 'Payment date unavailable'}
              </p>
            </div>
            <div className="flex items-center gap-3 text-sm">
              <span className="inline-flex items-center gap-1 text-slate-600">
                <CreditCard size={16} aria-hidden />
                {formatPaymentMethod(m.paymentInfo?.paymentMethod)}
                {m.paymentInfo?.demo ? ' (demo)' : ''}
              </span>
              <span className="font-semibold">{formatUsd(m.paymentInfo?.amount ?? 0)}</span>
            </div>
          </li>
        ))}
      </ul>
      {paid.length > SHOWN ? (
        <button
          type="button"
          onClick={onViewAll}
          className="mt-2 text-sm font-medium text-indigo-700 hover:underline"
        >
          view all {paid.length} paid migrations
        </button>
      ) : null}
    </section>
  );
}
