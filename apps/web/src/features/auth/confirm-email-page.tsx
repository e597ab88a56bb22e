import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Brand } from '../../components/brand.tsx';
import { ApiRequestError } from '../../lib/api-client.ts';
import { useRefreshSession } from '../session/api/get-session.ts';
import { confirmEmail } from './api/auth-api.ts';

const invalidLink = 'This confirmation link is invalid or has expired. Sign in to get a new one.';

/**
 * /confirm-email?token=: the link mailed to a new account. It confirms the address, which signs
 * the owner in, and opens the dashboard. Mail scanners that follow the link only load this page.
 */
export function ConfirmEmailPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = new URLSearchParams(location.search).get('token');
    if (!token) {
      setFailure(invalidLink);
      return;
    }
    confirmEmail(token)
      .then(async () => {
        await refreshSession();
        navigate('/migrations', { replace: true });
      })
      .catch((error: unknown) =>
        setFailure(
          error instanceof ApiRequestError && error.status < 500 ? error.message : invalidLink,
        ),
      );
  }, [location.search, navigate, refreshSession]);

  return (
    <main className="flex min-h-screen flex-col bg-white px-6 py-8 sm:px-10">
      <Brand />
      <div className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center py-10">
        {failure ? (
          <>
            <h1 className="text-3xl font-semibold tracking-tight text-slate-900">Link Not Valid</h1>
            <p role="alert" className="mt-4 text-slate-700">
              {failure}
            </p>
            <Link
              to="/login"
              className="mt-6 inline-flex w-fit rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700"
            >
              Go to Sign In
            </Link>
          </>
        ) : (
          <>
            <h1 className="text-3xl font-semibold tracking-tight text-slate-900">
              Confirming Your Email
            </h1>
            <p role="status" className="mt-4 text-slate-600">
              Confirming your e-mail address and signing you in...
            </p>
          </>
        )}
      </div>
    </main>
  );
}
