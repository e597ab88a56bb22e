import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { z } from 'zod';
import { BusyButton, PasswordField, TextField } from '../../components/form-fields.tsx';
import { Modal } from '../../components/modal.tsx';
import { PasswordChangeFields } from '../../components/password-change-fields.tsx';
import { Page } from '../../components/page.tsx';
import { formatDateTime } from '../../lib/format.ts';
import {
  firstProblem,
  FormStatusLine,
  reasonOf,
  useSchemaForm,
  useStatusSubmit,
  type FormStatus,
} from '../../lib/forms.tsx';
import { useRefreshSession, useSession } from '../session/api/get-session.ts';
import { forgetReturnTo } from '../session/return-to.ts';
import { changeEmail, changePassword, deleteAccount, updateName } from './api/account-api.ts';

const deleteConfirmation =
  'Are you sure you want to delete your account? This action cannot be undone.';

// spec.md section 5's messages; each shows in the status line of the form it is about.
const profileSchema = z.object({
  name: z.string().trim().min(1, 'Please enter your name.'),
});
const emailSchema = z.object({
  newEmail: z.string().trim().pipe(z.email('Please enter a valid email address.')),
  currentPassword: z.string().min(1, 'Please enter your current password to update email'),
});
const passwordSchema = z
  .object({
    current: z.string().min(1, 'Please enter your current password to update password'),
    next: z.string().min(1, 'Please enter a new password.'),
    confirm: z.string(),
  })
  .refine((values) => values.next === values.confirm, {
    message: 'Passwords do not match',
    path: ['confirm'],
  });

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

/** One of the page's forms: its fields, then its button with the status line under it. */
function AccountForm({
  onSubmit,
  busy,
  label,
  status,
  children,
}: {
  onSubmit: () => void;
  busy: boolean;
  label: string;
  status: FormStatus | null;
  children: ReactNode;
}) {
  return (
    <form noValidate className="space-y-4" onSubmit={onSubmit}>
      {children}
      <BusyButton busy={busy} disabled={busy} fullWidth={false}>
        {label}
      </BusyButton>
      <FormStatusLine status={status} />
    </form>
  );
}

function ProfileForm({ name }: { name: string }) {
  const refreshSession = useRefreshSession();
  const form = useSchemaForm(profileSchema, { name });
  const { reset } = form;
  useEffect(() => reset({ name }), [name, reset]);
  const { status, onSubmit, busy } = useStatusSubmit(form, {
    run: async (values) => {
      await updateName(values.name);
      await refreshSession();
    },
    success: 'Profile updated successfully',
    failure: 'Failed to update profile',
  });
  return (
    <AccountForm onSubmit={onSubmit} busy={busy} label="Update Profile" status={status}>
      <TextField label="Full Name" autoComplete="name" disabled={busy} {...form.register('name')} />
    </AccountForm>
  );
}

function EmailForm() {
  const refreshSession = useRefreshSession();
  const form = useSchemaForm(emailSchema, { newEmail: '', currentPassword: '' });
  const { status, onSubmit, busy } = useStatusSubmit(form, {
    run: async (values) => {
      await changeEmail(values);
      await refreshSession();
      form.reset();
    },
    success: 'Email updated successfully',
    failure: 'Failed to update email',
    invalid: (errors) =>
      errors.currentPassword?.message
        ? { tone: 'error', text: errors.currentPassword.message }
        : firstProblem(errors, 'Failed to update email'),
  });
  return (
    <AccountForm onSubmit={onSubmit} busy={busy} label="Update Email" status={status}>
      <TextField
        label="New Email"
        type="email"
        autoComplete="email"
        disabled={busy}
        {...form.register('newEmail')}
      />
      <PasswordField
        label="Current Password"
        autoComplete="current-password"
        disabled={busy}
        {...form.register('currentPassword')}
      />
    </AccountForm>
  );
}

function PasswordForm() {
  const refreshSession = useRefreshSession();
  const form = useSchemaForm(passwordSchema, { current: '', next: '', confirm: '' });
  const { status, onSubmit, busy } = useStatusSubmit(form, {
    run: async (values) => {
      await changePassword({ currentPassword: values.current, newPassword: values.next });
      await refreshSession();
      form.reset();
    },
    success: 'Password updated successfully',
    failure: 'Failed to update password',
    invalid: (errors) =>
      errors.current?.message
        ? { tone: 'error', text: errors.current.message }
        : errors.confirm?.message && !errors.next
          ? { tone: 'error', text: errors.confirm.message }
          : firstProblem(errors, 'Failed to update password'),
  });
  return (
    <AccountForm onSubmit={onSubmit} busy={busy} label="Change Password" status={status}>
      <PasswordChangeFields
        register={form.register}
        names={['current', 'next', 'confirm']}
        hint="Use at least 8 characters."
        disabled={busy}
      />
    </AccountForm>
  );
}

function DeleteAccount() {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<FormStatus | null>(null);
  const deleting = useRef(false);
  // Stable, so the dialog keeps its focus while the request runs.
  const closeDelete = useCallback(() => {
    if (!deleting.current) setConfirming(false);
  }, []);
  const confirmDelete = async () => {
    deleting.current = true;
    setBusy(true);
    setStatus(null);
    try {
      await deleteAccount();
      forgetReturnTo();
      // A fresh load leaves nothing of the deleted account in memory.
      window.location.assign('/');
    } catch (error) {
      deleting.current = false;
      setConfirming(false);
      setStatus({ tone: 'error', text: 'Failed to delete account', detail: reasonOf(error) });
      setBusy(false);
    }
  };
  return (
    <div className="space-y-4">
      <BusyButton
        type="button"
        variant="danger"
        busy={busy}
        disabled={busy}
        fullWidth={false}
        onClick={() => setConfirming(true)}
      >
        Delete Account
      </BusyButton>
      <FormStatusLine status={status} />
      {confirming ? (
        <Modal title="Delete your account?" tone="error" onClose={closeDelete}>
          <p>{deleteConfirmation}</p>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <button
              type="button"
              data-autofocus
              onClick={closeDelete}
              disabled={busy}
              className="rounded-lg border border-slate-300 px-4 py-2.5 text-sm font-semibold text-slate-800 hover:bg-slate-50"
            >
              Cancel
            </button>
            <BusyButton
              type="button"
              variant="danger"
              busy={busy}
              disabled={busy}
              fullWidth={false}
              onClick={confirmDelete}
            >
              Yes, Delete My Account
            </BusyButton>
          </div>
        </Modal>
      ) : null}
    </div>
  );
}

/**
 * /my-account (spec.md section 2): profile, e-mail, password and deletion, each form with its own
 * status line right under its button.
 */
export function MyAccountPage() {
  const user = useSession().data?.user;
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
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Section title="Update Profile" description="The name shown in the top bar.">
          <ProfileForm name={user?.name ?? ''} />
        </Section>
        <Section
          title="Update Email"
          description={user ? `You sign in as ${user.email}.` : undefined}
        >
          <EmailForm />
        </Section>
        <Section
          title="Change Password"
          description="Other devices signed in to your account are signed out."
        >
          <PasswordForm />
        </Section>
        <Section
          title="Delete Account"
          danger
          description="Deletes your account, every migration and the store credentials saved with them, and signs you out everywhere."
        >
          <DeleteAccount />
        </Section>
      </div>
    </Page>
  );
}
