import { FlaskConical } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Brand } from '../../components/brand.tsx';
import { BusyButton, PasswordField, TextField } from '../../components/form-fields.tsx';
import { ApiRequestError } from '../../lib/api-client.ts';
import { useRefreshSession } from '../session/api/get-session.ts';
import { rememberReturnTo, returnTo } from '../session/return-to.ts';
import { AuthSidePanel } from './side-panel.tsx';
import type { AuthConfig } from '@replatform/contracts/session';
import type { AuthFields, AuthMode, FieldErrors } from './auth-schemas.ts';

const messages = {
  generic: 'An error occurred. Please try again.',
  google: 'An error occurred with Google login. Please try again.',
  demo: 'An error occurred with demo login. Please try again.',
  resetSent: 'Password reset email sent. Please check your inbox.',
  passwordReset: 'Your password has been reset. Please sign in with your new password.',
  outbox: 'This server has no mail server set up: its operator finds the link with npm run outbox.',
};

const titles: Record<AuthMode, { title: string; intro: string }> = {
  signin: { title: 'Welcome Back', intro: 'Sign in to continue your migrations.' },
  signup: { title: 'Create Account', intro: 'Start moving your store in minutes.' },
  reset: {
    title: 'Reset Password',
    intro: "Enter your account's email and we'll send you a link to choose a new password.",
  },
  'new-password': { title: 'Choose a New Password', intro: 'Enter your new password twice.' },
};

type Busy = null | 'form' | 'google' | 'demo';

// The requests, with the schemas their answers are checked by, and the form's own schemas load
// while the form is on screen, so the page shows before zod arrives.
const authApi = () => import('./api/auth-api.ts');
const authSchemas = () => import('./auth-schemas.ts');

/**
 * What the server offers (Google sign-in, where sign-up mail goes); undefined until it has said
 * so, and without it the page offers e-mail and demo sign-in only.
 */
function useServerAuthConfig(): AuthConfig | undefined {
  const [config, setConfig] = useState<AuthConfig>();
  useEffect(() => {
    let current = true;
    authApi()
      .then((api) => api.getAuthConfig())
      .then(
        (answer) => current && setConfig(answer),
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, []);
  return config;
}

/** What the server said, when it is something the visitor can act on; else the fallback. */
function reasonOf(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) {
    if (error.code !== 'http_error') return error.message;
  }
  return fallback;
}

function modeFromLocation(pathname: string, search: string): AuthMode {
  if (pathname === '/signup') return 'signup';
  const params = new URLSearchParams(search);
  if (params.get('mode') === 'reset') return params.get('token') ? 'new-password' : 'reset';
  return 'signin';
}

/** The query string to keep when switching between sign-in and sign-up (e.g. ?mock=true). */
function keptQuery(search: string): string {
  const params = new URLSearchParams(search);
  for (const key of ['mode', 'token', 'error']) params.delete(key);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden>
      <circle cx="12" cy="12" r="10" fill="none" stroke="#4285F4" strokeWidth="3" />
      <path d="M12 12h9" stroke="#34A853" strokeWidth="3" />
    </svg>
  );
}

/** /login and /signup (spec.md section 2): sign in, create account, and password reset. */
export function AuthPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const config = useServerAuthConfig();
  const google = config?.providers.google ?? false;
  const [mode, setMode] = useState<AuthMode>(() =>
    modeFromLocation(location.pathname, location.search),
  );
  const [fields, setFields] = useState<AuthFields>({
    name: '',
    email: '',
    password: '',
    confirm: '',
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const form = useRef<HTMLFormElement>(null);
  // Set while a submit waits for the form's schemas, before `busy` can say so.
  const checking = useRef(false);

  useEffect(() => {
    // Fetched now, so the first submit rarely waits for them; a failed load shows on submit.
    authSchemas().catch(() => undefined);
  }, []);

  useEffect(() => {
    setMode(modeFromLocation(location.pathname, location.search));
    setErrors({});
  }, [location.pathname, location.search]);

  // Back from Google with an error (better-auth appends ?error=...).
  useEffect(() => {
    const error = new URLSearchParams(location.search).get('error');
    if (!error) return;
    setAlert(
      error === 'account_not_linked'
        ? `${messages.google} An account with this email already exists: sign in with your email and password.`
        : messages.google,
    );
  }, [location.search]);

  const from = (location.state as { from?: unknown } | null)?.from;
  const query = keptQuery(location.search);
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const { title, intro } = titles[mode];
  const showProviders = mode === 'signin' || mode === 'signup';

  const set = (key: keyof AuthFields) => (e: { target: { value: string } }) =>
    setFields((f) => ({ ...f, [key]: e.target.value }));

  const switchMode = (next: AuthMode) => {
    setMode(next);
    setErrors({});
    setAlert(null);
    if (next !== 'signin') setNotice(null);
  };

  const check = async () => (await authSchemas()).checkAuthForm(mode, fields);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || checking.current) return;
    setAlert(null);
    setNotice(null);
    checking.current = true;
    let checked: Awaited<ReturnType<typeof check>>;
    try {
      checked = await check();
    } catch (error) {
      setAlert(reasonOf(error, messages.generic));
      return;
    } finally {
      checking.current = false;
    }
    if ('errors' in checked) {
      setErrors(checked.errors);
      // Put the visitor on the first field to fix, once the errors are rendered.
      requestAnimationFrame(() =>
        form.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus(),
      );
      return;
    }
    setErrors({});
    const { values } = checked;
    setBusy('form');
    try {
      const { requestPasswordReset, resetPassword, signInWithEmail, signUpWithEmail } =
        await authApi();
      if (values.mode === 'signin') {
        await signInWithEmail({ email: values.email, password: values.password });
        await refreshSession();
      } else if (values.mode === 'signup') {
        const answer = await signUpWithEmail({
          name: values.name,
          email: values.email,
          password: values.password,
        });
        setFields((f) => ({ ...f, password: '' }));
        setNotice(
          config?.mail === 'outbox' ? `${answer.message} ${messages.outbox}` : answer.message,
        );
      } else if (values.mode === 'reset') {
        await requestPasswordReset(values.email);
        setFields((f) => ({ ...f, password: '' }));
        switchMode('signin');
        setNotice(messages.resetSent);
      } else {
        await resetPassword({ token, newPassword: values.password });
        setFields((f) => ({ ...f, password: '', confirm: '' }));
        navigate(`/login${query}`, { replace: true });
        setNotice(messages.passwordReset);
      }
    } catch (error) {
      setAlert(reasonOf(error, messages.generic));
    } finally {
      setBusy(null);
    }
  };

  const startGoogle = async () => {
    if (busy) return;
    setAlert(null);
    setBusy('google');
    try {
      const { startGoogleSignIn } = await authApi();
      const { url } = await startGoogleSignIn({
        callbackURL: returnTo(from) ?? '/migrations',
        errorCallbackURL: `/login${query}`,
      });
      window.location.assign(url);
    } catch (error) {
      setAlert(reasonOf(error, messages.google));
      setBusy(null);
    }
  };

  const demo = async () => {
    if (busy) return;
    setAlert(null);
    setBusy('demo');
    try {
      await (await authApi()).signInAsDemo();
      // Demo accounts work in mock mode: sandbox stores and simulated payments.
      const target = new URL(returnTo(from) ?? '/migrations', window.location.origin);
      target.searchParams.set('mock', 'true');
      rememberReturnTo(`${target.pathname}${target.search}`);
      await refreshSession();
    } catch (error) {
      setAlert(reasonOf(error, messages.demo));
      setBusy(null);
    }
  };

  return (
    <div className="grid min-h-screen bg-white lg:grid-cols-2">
      <main className="flex flex-col px-6 py-8 sm:px-10">
        <Brand />
        <div className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center py-10">
          <h1 className="text-3xl font-semibold tracking-tight text-slate-900">{title}</h1>
          <p className="mt-2 text-slate-600">{intro}</p>

          {notice ? (
            <p
              role="status"
              className="mt-6 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-800"
            >
              {notice}
            </p>
          ) : null}
          <div role="alert" className={alert ? 'mt-6' : undefined}>
            {alert ? (
              <p className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
                {alert}
              </p>
            ) : null}
          </div>

          <form
            ref={form}
            noValidate
            onSubmit={submit}
            aria-busy={busy !== null}
            aria-label={title}
            className="mt-6 space-y-4"
          >
            {mode === 'signup' ? (
              <TextField
                label="Full Name"
                name="name"
                autoComplete="name"
                value={fields.name}
                onChange={set('name')}
                error={errors.name}
                disabled={busy !== null}
              />
            ) : null}
            {mode !== 'new-password' ? (
              <TextField
                label="Email"
                name="email"
                type="email"
                autoComplete="email"
                inputMode="email"
                value={fields.email}
                onChange={set('email')}
                error={errors.email}
                disabled={busy !== null}
              />
            ) : null}
            {mode !== 'reset' ? (
              <PasswordField
                label={mode === 'new-password' ? 'New Password' : 'Password'}
                name="password"
                autoComplete={mode === 'signin' ? 'current-password' : 'new-password'}
                value={fields.password}
                onChange={set('password')}
                error={errors.password}
                hint={mode === 'signin' ? undefined : 'Use at least 8 characters.'}
                disabled={busy !== null}
              />
            ) : null}
            {mode === 'new-password' ? (
              <PasswordField
                label="Confirm New Password"
                name="confirm"
                autoComplete="new-password"
                value={fields.confirm}
                onChange={set('confirm')}
                error={errors.confirm}
                disabled={busy !== null}
              />
            ) : null}
            {mode === 'signin' ? (
              <div className="flex justify-end">
                <button
                  type="button"
                  onClick={() => switchMode('reset')}
                  className="text-sm font-medium text-indigo-700 hover:underline"
                >
                  Forgot password?
                </button>
              </div>
            ) : null}
            <BusyButton busy={busy === 'form'} disabled={busy !== null}>
              {
                {
                  signin: 'Sign In',
                  signup: 'Create Account',
                  reset: 'Send Reset Link',
                  'new-password': 'Set New Password',
                }[mode]
              }
            </BusyButton>
          </form>

          {showProviders ? (
            <div className="mt-6 space-y-3">
              <div className="flex items-center gap-3 text-xs uppercase tracking-wide text-slate-400">
                <span className="h-px flex-1 bg-slate-200" />
                or
                <span className="h-px flex-1 bg-slate-200" />
              </div>
              {google ? (
                <BusyButton
                  type="button"
                  variant="secondary"
                  busy={busy === 'google'}
                  disabled={busy !== null}
                  onClick={startGoogle}
                  icon={<GoogleMark />}
                >
                  Continue with Google
                </BusyButton>
              ) : null}
              <BusyButton
                type="button"
                variant="secondary"
                busy={busy === 'demo'}
                disabled={busy !== null}
                onClick={demo}
                icon={<FlaskConical size={18} aria-hidden />}
              >
                Try the Demo
              </BusyButton>
            </div>
          ) : null}

          <p className="mt-8 text-center text-sm text-slate-600">
            {mode === 'signin' ? (
              <>
                Don&apos;t have an account?{' '}
                <Link
                  to={`/signup${query}`}
                  state={location.state}
                  className="font-semibold text-indigo-700 hover:underline"
                >
                  Sign up
                </Link>
              </>
            ) : mode === 'signup' ? (
              <>
                Already have an account?{' '}
                <Link
                  to={`/login${query}`}
                  state={location.state}
                  className="font-semibold text-indigo-700 hover:underline"
                >
                  Sign in
                </Link>
              </>
            ) : (
              <Link
                to={`/login${query}`}
                state={location.state}
                onClick={() => switchMode('signin')}
                className="font-semibold text-indigo-700 hover:underline"
              >
                Back to Sign In
              </Link>
            )}
          </p>
        </div>
      </main>
      <AuthSidePanel />
    </div>
  );
}
