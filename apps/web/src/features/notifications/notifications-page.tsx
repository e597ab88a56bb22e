import { CheckCircle2, Info, TriangleAlert, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { NotificationType } from '@replatform/contracts/notifications';
import { Page } from '../../components/page.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useMarkRead, useNotifications } from './api/notifications-api.ts';

const icons: Record<NotificationType, { Icon: typeof Info; className: string }> = {
  success: { Icon: CheckCircle2, className: 'text-emerald-600' },
  info: { Icon: Info, className: 'text-indigo-600' },
  warning: { Icon: TriangleAlert, className: 'text-amber-600' },
  error: { Icon: XCircle, className: 'text-red-600' },
};

const filters = [
  { value: 'all', label: 'All' },
  { value: 'unread', label: 'Unread' },
  { value: 'read', label: 'Read' },
] as const;
type Filter = (typeof filters)[number]['value'];

/**
 * Every notification kept for the owner, newest first, filtered by read or unread. Marking one
 * read (or all) is the same call the bell makes, so both show the same state.
 */
export function NotificationsPage() {
  const notifications = useNotifications();
  const markRead = useMarkRead();
  const [filter, setFilter] = useState<Filter>('all');
  const items = notifications.data?.notifications ?? [];
  const unread = notifications.data?.unreadCount ?? 0;
  const shown = items.filter((n) => filter === 'all' || (filter === 'unread') !== n.read);
  const count = (f: Filter) =>
    f === 'all' ? items.length : items.filter((n) => (f === 'unread') !== n.read).length;
  return (
    <Page title="Notifications">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div
          role="group"
          aria-label="Show"
          className="inline-flex rounded-md border border-slate-300 bg-white p-0.5"
        >
          {filters.map((f) => (
            <button
              key={f.value}
              type="button"
              aria-pressed={filter === f.value}
              onClick={() => setFilter(f.value)}
              className={`rounded px-3 py-1.5 text-sm font-medium ${filter === f.value ? 'bg-indigo-600 text-white' : 'text-slate-700 hover:bg-slate-100'}`}
            >
              {f.label} ({count(f.value)})
            </button>
          ))}
        </div>
        {unread > 0 ? (
          <button
            type="button"
            onClick={() => markRead.mutate('all')}
            disabled={markRead.isPending}
            className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-indigo-700 hover:bg-indigo-50 disabled:opacity-50"
          >
            Mark all as read
          </button>
        ) : null}
      </div>
      {notifications.isPending ? (
        <p role="status" className="mt-6 text-slate-600">
          Loading notifications...
        </p>
      ) : notifications.isError ? (
        <p role="alert" className="mt-6 text-red-700">
          {notifications.error.message}
        </p>
      ) : shown.length === 0 ? (
        <p className="mt-6 text-slate-600">
          {filter === 'unread'
            ? 'No unread notifications.'
            : filter === 'read'
              ? 'No read notifications yet.'
              : 'No notifications yet.'}
        </p>
      ) : (
        <ul
          aria-label={`${filters.find((f) => f.value === filter)?.label} notifications`}
          className="mt-4 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm"
        >
          {shown.map((n) => {
            const { Icon, className } = icons[n.type];
            return (
              <li key={n.id} className={`flex gap-3 p-4 ${n.read ? '' : 'bg-indigo-50/60'}`}>
                <Icon size={18} className={`mt-0.5 shrink-0 ${className}`} aria-hidden />
                <div className="min-w-0 flex-1">
                  <p className="flex items-center gap-2 font-medium">
                    {n.title}
                    {n.read ? null : (
                      <>
                        <span className="sr-only"> (unread)</span>
                        <span aria-hidden className="h-2 w-2 shrink-0 rounded-full bg-indigo-600" />
                      </>
                    )}
                  </p>
                  <p className="break-words text-sm text-slate-600">{n.message}</p>
                  <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1 text-xs">
                    <span className="text-slate-500">{formatDateTime(n.createdAt)}</span>
                    {n.read ? null : (
                      <button
                        type="button"
                        onClick={() => markRead.mutate(n.id)}
                        disabled={markRead.isPending}
                        className="font-medium text-indigo-700 hover:underline"
                      >
                        Mark as read
                      </button>
                    )}
                    {n.migrationId ? (
                      <Link
                        to={`/migration-history/${n.migrationId}`}
                        onClick={() => {
                          if (!n.read) markRead.mutate(n.id);
                        }}
                        className="font-medium text-indigo-700 hover:underline"
                      >
                        View migration
                      </Link>
                    ) : null}
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </Page>
  );
}
