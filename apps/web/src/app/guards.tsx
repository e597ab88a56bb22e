import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../features/session/api/get-session.ts';
import { withQuery } from './layout-rules.ts';

function Loading() {
  return (
    <div
      role="status"
      aria-live="polite"
      className="flex min-h-[50vh] items-center justify-center text-slate-500"
    >
      Loading...
    </div>
  );
}

/** Private routes: signed-out visitors go to /login (query kept) and come back after signing in. */
export function RequireSignedIn({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <Loading />;
  if (!session.data) {
    const from = `${location.pathname}${location.search}`;
    return <Navigate to={withQuery('/login', location.search)} replace state={{ from }} />;
  }
  return children;
}

/** Pages only for signed-out visitors (landing, login, signup): signed-in users go to /migrations. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <Loading />;
  if (session.data) return <Navigate to={withQuery('/migrations', location.search)} replace />;
  return children;
}
