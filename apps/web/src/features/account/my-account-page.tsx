import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { BusyButton, PasswordField, TextField } from '../../components/form-fields.tsx';
import { Modal } from '../../components/modal.tsx';
import { Page } from '../../components/page.tsx';
import { ApiRequestError } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useRefreshSession, useSession } from '../session/api/get-session.ts';
import { forgetReturnTo } from '../session/return-to.ts';
import { changeEmail, changePassword, deleteAccount, updateName } from './api/account-api.ts';

const deleteConfirmation =
  'Are you sure you want to delete your account? This action cannot be undone.';

interface Status {
  tone: 'success' | 'error';
  text: string;
  detail?: string | undefined;
}

type Busy = null | 'profile' | 'email' | 'password' | 'delete';

/** The server's reason for a refusal the user can act on (wrong password, address in use). */
function reasonOf(error: unknown): string | undefined {
  if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) {
    if (error.code !== 'http_error') return error.message;
  }
  return undefined;
}

const emailFormat = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function Section({
  title,
  description,
  children,
  danger = false,
}: {
  title: string;
  description?: string;
  children: ReactNode;
  danger?: boolean;
}) {
  const id = `section-${title.toLowerCase().replaceAll(' ', '-')}`;
  return (
    <section
      aria-labelledby={id}
      className={`min-w-0 break-words rounded-xl border bg-white p-6 shadow-sm ${danger ? 'border-red-200' : 'border-slate-200'}`}
    >
      <h2 id={id} className={`text-lg font-semibold ${danger ? 'text-red-700' : 'text-slate-900'}`}>
        {title}
      </h2>
      {description ? <p className="mt-1 text-sm break-all text-slate-600">{description}</p> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** /my-account (spec.md section 2): profile, e-mail, password, deletion, and a status line. */
export function MyAccountPage() {
  const session = useSession();
  const refreshSession = useRefreshSession();
  const user = session.data?.user;
  const [status, setStatus] = useState<Status | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [name, setName] = useState('');
  const [email, setEmail] = useState({ newEmail: '', currentPassword: '' });
  const [password, setPassword] = useState({ current: '', next: '', confirm: '' });
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const statusLine = useRef<HTMLDivElement>(null);
  const deleting = useRef(false);
  deleting.current = busy === 'delete';
  // Stable, so the dialog keeps its focus while the request runs.
  const closeDelete = useCallback(() => {
    if (!deleting.current) setConfirmingDelete(false);
  }, []);

  useEffect(() => {
    setName(user?.name ?? '');
  }, [user?.name]);

  useEffect(() => {
    if (status) statusLine.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [status]);

  const run = async (
    which: Exclude<Busy, null>,
    action: () => Promise<unknown>,
    success: string,
    failure: string,
  ) => {
    setBusy(which);
    setStatus(null);
    try {
      await action();
      setStatus({ tone: 'success', text: success });
      return true;
    } catch (error) {
      setStatus({ tone: 'error', text: failure, detail: reasonOf(error) });
      return false;
    } finally {
      setBusy(null);
    }
  };

  const saveProfile = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setStatus({
        tone: 'error',
        text: 'Failed to update profile',
        detail: 'Please enter your name.',
      });
      return;
    }
    await run(
      'profile',
      async () => {
        await updateName(name.trim());
        await refreshSession();
      },
      'Profile updated successfully',
      'Failed to update profile',
    );
  };

  const saveEmail = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.currentPassword) {
      setStatus({ tone: 'error', text: 'Please enter your current password to update email' });
      return;
    }
    if (!emailFormat.test(email.newEmail.trim())) {
      setStatus({
        tone: 'error',
        text: 'Failed to update email',
        detail: 'Please enter a valid email address.',
      });
      return;
    }
    const ok = await run(
      'email',
      async () => {
        await changeEmail({
          newEmail: email.newEmail.trim(),
          currentPassword: email.currentPassword,
        });
        await refreshSession();
      },
      'Email updated successfully',
      'Failed to update email',
    );
    if (ok) setEmail({ newEmail: '', currentPassword: '' });
  };

  const savePassword = async (event: FormEvent) => {
    event.preventDefault();
    if (!password.current) {
      setStatus({ tone: 'error', text: 'Please enter your current password to update password' });
      return;
    }
    if (!password.next) {
      setStatus({
        tone: 'error',
        text: 'Failed to update password',
        detail: 'Please enter a new password.',
      });
      return;
    }
    if (password.next !== password.confirm) {
      setStatus({ tone: 'error', text: 'Passwords do not match' });
      return;
    }
    const ok = await run(
      'password',
      async () => {
        await changePassword({ currentPassword: password.current, newPassword: password.next });
        await refreshSession();
      },
      'Password updated successfully',
      'Failed to update password',
    );
    if (ok) setPassword({ current: '', next: '', confirm: '' });
  };

  const confirmDelete = async () => {
    setBusy('delete');
    setStatus(null);
    try {
      await deleteAccount();
      forgetReturnTo();
      // A fresh load leaves nothing of the deleted account in memory.
      window.location.assign('/');
    } catch (error) {
      setConfirmingDelete(false);
      setStatus({ tone: 'error', text: 'Failed to delete account', detail: reasonOf(error) });
      setBusy(null);
    }
  };

  const disabled = busy !== null;
  return (
    <Page
      title="My Account"
      intro="Manage your profile, the e-mail you sign in with, and your password."
    >
      {user?.isDemo ? (
        <p className="mb-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          You are using a demo account. It has no password, and it is deleted with its sample
          migrations
          {user.demoExpiresAt
            ? ` on ${formatDateTime(new Date(user.demoExpiresAt).toISOString())}.`
            : ' a day after it was created.'}
        </p>
      ) : null}
      <div ref={statusLine} role="status" aria-live="polite" className="mb-6 min-h-0">
        {status ? (
          <p
            className={`rounded-lg border px-4 py-3 text-sm ${
              status.tone === 'success'
                ? 'border-emerald-200 bg-emerald-50 text-emerald-800'
                : 'border-red-200 bg-red-50 text-red-800'
            }`}
          >
            <strong className="font-semibold">{status.text}</strong>
            {status.detail ? (
              <span className="block sm:ml-1 sm:inline">{status.detail}</span>
            ) : null}
          </p>
        ) : null}
      </div>

      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Section title="Update Profile" description="The name shown in the top bar.">
          <form noValidate onSubmit={saveProfile} className="space-y-4">
            <TextField
              label="Full Name"
              name="name"
              autoComplete="name"
              value={name}
              onChange={(e) => setName(e.target.value)}
              disabled={disabled}
            />
            <BusyButton busy={busy === 'profile'} disabled={disabled} fullWidth={false}>
              Update Profile
            </BusyButton>
          </form>
        </Section>

        <Section
          title="Update Email"
          description={user ? `You sign in as ${user.email}.` : undefined}
        >
          <form noValidate onSubmit={saveEmail} className="space-y-4">
            <TextField
              label="New Email"
              name="newEmail"
              type="email"
              autoComplete="email"
              value={email.newEmail}
              onChange={(e) => setEmail((v) => ({ ...v, newEmail: e.target.value }))}
              disabled={disabled}
            />
            <PasswordField
              label="Current Password"
              name="emailCurrentPassword"
              autoComplete="current-password"
              value={email.currentPassword}
              onChange={(e) => setEmail((v) => ({ ...v, currentPassword: e.target.value }))}
              disabled={disabled}
            />
            <BusyButton busy={busy === 'email'} disabled={disabled} fullWidth={false}>
              Update Email
            </BusyButton>
          </form>
        </Section>

        <Section
          title="Change Password"
          description="Other devices signed in to your account are signed out."
        >
          <form noValidate onSubmit={savePassword} className="space-y-4">
            <PasswordField
              label="Current Password"
              name="currentPassword"
              autoComplete="current-password"
              value={password.current}
              onChange={(e) => setPassword((v) => ({ ...v, current: e.target.value }))}
              disabled={disabled}
            />
            <PasswordField
              label="New Password"
              name="newPassword"
              autoComplete="new-password"
              hint="Use at least 8 characters."
              value={password.next}
              onChange={(e) => setPassword((v) => ({ ...v, next: e.target.value }))}
              disabled={disabled}
            />
            <PasswordField
              label="Confirm New Password"
              name="confirmPassword"
              autoComplete="new-password"
              value={password.confirm}
              onChange={(e) => setPassword((v) => ({ ...v, confirm: e.target.value }))}
              disabled={disabled}
            />
            <BusyButton busy={busy === 'password'} disabled={disabled} fullWidth={false}>
              Change Password
            </BusyButton>
          </form>
        </Section>

        <Section
          title="Delete Account"
          danger
          description="Deletes your account, every migration and the store credentials saved with them, and signs you out everywhere."
        >
          <BusyButton
            type="button"
            variant="danger"
            busy={busy === 'delete'}
            disabled={disabled}
            fullWidth={false}
            onClick={() => setConfirmingDelete(true)}
          >
            Delete Account
          </BusyButton>
        </Section>
      </div>

      {confirmingDelete ? (
        <Modal title="Delete your account?" tone="error" onClose={closeDelete}>
          <p>{deleteConfirmation}</p>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <button
              type="button"
              data-autofocus
              onClick={closeDelete}
              disabled={busy === 'delete'}
              className="rounded-lg border border-slate-300 px-4 py-2.5 text-sm font-semibold text-slate-800 hover:bg-slate-50"
            >
              Cancel
            </button>
            <BusyButton
              type="button"
              variant="danger"
              busy={busy === 'delete'}
              disabled={busy === 'delete'}
              fullWidth={false}
              onClick={confirmDelete}
            >
              Yes, Delete My Account
            </BusyButton>
          </div>
        </Modal>
      ) : null}
    </Page>
  );
}
