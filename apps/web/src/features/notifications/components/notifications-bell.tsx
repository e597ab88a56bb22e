import { Bell, CheckCircle2, Info, TriangleAlert, X, XCircle } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { NotificationType } from '@replatform/contracts/notifications';
import { formatDateTime } from '../../../lib/format.ts';
import { useMarkRead, useNotifications } from '../api/notifications-api.ts';

const icons: Record<NotificationType, { Icon: typeof Info; className: string }> = {
  success: { Icon: CheckCircle2, className: 'text-emerald-600' },
  info: { Icon: Info, className: 'text-indigo-600' },
  warning: { Icon: TriangleAlert, className: 'text-amber-600' },
  error: { Icon: XCircle, className: 'text-red-600' },
};

/** The dropdown shows the newest few; View All Notifications opens the page listing every one. */
const FIRST = 5;

/**
 * The top bar's bell: unread count and a dropdown that closes on an outside click, Escape or its
 * close button. A notification is marked read when clicked (or all at once); one about a
 * migration links to that migration's history page.
 */
export function NotificationsBell() {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const container = useRef<HTMLDivElement>(null);
  const notifications = useNotifications();
  const markRead = useMarkRead();
  const unread = notifications.data?.unreadCount ?? 0;
  const items = notifications.data?.notifications ?? [];
  const shown = items.slice(0, FIRST);
  const close = () => setOpen(false);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div ref={container} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={unread ? `Notifications, ${unread} unread` : 'Notifications'}
        onClick={() => (open ? close() : setOpen(true))}
        className="relative rounded-md p-2 text-slate-600 hover:bg-slate-100"
      >
        <Bell size={18} aria-hidden />
        {unread > 0 ? (
          <span
            data-testid="unread-count"
            className="absolute -right-0.5 -top-0.5 flex h-4 min-w-4 items-center justify-center rounded-full bg-red-600 px-1 text-[10px] font-semibold text-white"
            aria-hidden
          >
            {unread > 99 ? '99+' : unread}
          </span>
        ) : null}
      </button>
      {open ? (
        <div
          id={panelId}
          role="dialog"
          aria-label="Notifications"
          className="fixed inset-x-2 top-16 z-40 rounded-xl border border-slate-200 bg-white shadow-lg sm:absolute sm:inset-x-auto sm:right-0 sm:top-auto sm:mt-2 sm:w-[24rem]"
        >
          <div className="flex items-center justify-between gap-2 border-b border-slate-100 px-4 py-3">
            <h2 className="font-semibold">Notifications</h2>
            <div className="flex items-center gap-2">
              {unread > 0 ? (
                <button
                  type="button"
                  onClick={() => markRead.mutate('all')}
                  disabled={markRead.isPending}
                  className="text-xs font-medium text-indigo-700 hover:underline"
                >
                  Mark all as read
                </button>
              ) : null}
              <button
                type="button"
                onClick={close}
                aria-label="Close notifications"
                className="rounded p-1 text-slate-500 hover:bg-slate-100"
              >
                <X size={16} aria-hidden />
              </button>
            </div>
          </div>
          {notifications.isPending ? (
            <p role="status" className="px-4 py-6 text-center text-sm text-slate-600">
              Loading notifications...
            </p>
          ) : items.length === 0 ? (
            <p className="px-4 py-6 text-center text-sm text-slate-600">No notifications yet.</p>
          ) : (
            <ul
              aria-label="Recent notifications"
              className="max-h-96 divide-y divide-slate-100 overflow-y-auto"
            >
              {shown.map((n) => {
                const { Icon, className } = icons[n.type];
                return (
                  <li key={n.id} className={n.read ? '' : 'bg-indigo-50/60'}>
                    <button
                      type="button"
                      onClick={() => !n.read && markRead.mutate(n.id)}
                      title={n.read ? undefined : 'Mark as read'}
                      className="flex w-full gap-3 px-4 pt-3 text-left"
                    >
                      <Icon size={18} className={`mt-0.5 shrink-0 ${className}`} aria-hidden />
                      <span className="min-w-0">
                        <span className="flex items-center gap-2 text-sm font-medium">
                          {n.title}
                          {n.read ? null : (
                            <>
                              <span className="sr-only"> (unread)</span>
                              <span
                                aria-hidden
                                className="h-2 w-2 shrink-0 rounded-full bg-indigo-600"
                              />
                            </>
                          )}
                        </span>
                        <span className="block break-words text-sm text-slate-600">
                          {n.message}
                        </span>
                      </span>
                    </button>
                    <div className="flex items-center justify-between gap-2 px-4 pb-3 pl-11">
                      <span className="text-xs text-slate-500">{formatDateTime(n.createdAt)}</span>
                      {n.migrationId ? (
                        <Link
                          to={`/migration-history/${n.migrationId}`}
                          onClick={() => {
                            if (!n.read) markRead.mutate(n.id);
                            close();
                          }}
                          className="text-xs font-medium text-indigo-700 hover:underline"
                        >
                          View migration
                        </Link>
                      ) : null}
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
          <div className="border-t border-slate-100 p-2">
            <Link
              to="/notifications"
              onClick={close}
              className="block w-full rounded-md px-3 py-2 text-center text-sm font-medium text-indigo-700 hover:bg-indigo-50"
            >
              View All Notifications
            </Link>
          </div>
        </div>
      ) : null}
    </div>
  );
}
