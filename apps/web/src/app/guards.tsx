import { useEffect, useLayoutEffect, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../features/session/api/get-session.ts';
import { forgetReturnTo, rememberReturnTo, returnTo } from '../features/session/return-to.ts';
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

/** Sends a signed-out visitor to /login (query kept), remembering the page they asked for. */
function ToLogin() {
  const location = useLocation();
  const from = `${location.pathname}${location.search}`;
  useEffect(() => rememberReturnTo(from), [from]);
  return <Navigate to={withQuery('/login', location.search)} replace state={{ from }} />;
}

/** Private routes: signed-out visitors go to /login and come back here after signing in. */
export function RequireSignedIn({ children }: { children: ReactNode }) {
  const session = useSession();
  const signedIn = Boolean(session.data);
  useEffect(() => {
    // Arrived: the remembered page has served its purpose.
    if (signedIn) forgetReturnTo();
  }, [signedIn]);
  if (session.isPending) return <Loading />;
  if (!session.data) return <ToLogin />;
  return children;
}

/**
 * Pages only for signed-out visitors (landing, login, signup): signed-in users go to the page
 * they first asked for, else /migrations (query kept). A password reset link stays usable while
 * signed in, since resetting is how one recovers an account used elsewhere.
 */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  const resetLink =
    location.pathname === '/login' && new URLSearchParams(location.search).has('token');
  const from = (location.state as { from?: unknown } | null)?.from;
  const target =
    session.data && !resetLink
      ? (returnTo(from) ?? withQuery('/migrations', location.search))
      : null;
  // The remembered page is used once: forget it before <Navigate> changes the URL (layout effects
  // run before its passive effect), so a later visit to the auth screen goes to /migrations.
  useLayoutEffect(() => {
    if (target) forgetReturnTo();
  }, [target]);
  if (session.isPending) return <Loading />;
  if (target) return <Navigate to={target} replace />;
  return children;
}
