import {
  Bell,
  Database,
  Download,
  Lock,
  LogOut,
  SlidersHorizontal,
  Trash2,
  UserRound,
} from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { z } from 'zod';
import {
  dateFormats,
  languages,
  notificationPreferencesSchema,
  themes,
  timezones,
  userPreferencesSchema,
  type NotificationPreferences,
  type UserPreferences,
} from '@replatform/contracts/forms';
import { BusyButton, SelectField, TextField } from '../../components/form-fields.tsx';
import { Page } from '../../components/page.tsx';
import { PasswordChangeFields } from '../../components/password-change-fields.tsx';
import {
  firstProblem,
  FormStatusLine,
  reasonOf,
  useSchemaForm,
  useStatusSubmit,
  type FormStatus,
} from '../../lib/forms.tsx';
import { useRefreshSession, useSession } from '../session/api/get-session.ts';
import { signOut } from '../session/api/sign-out.ts';
import { changePassword, signOutOtherDevices, updateName } from './api/account-settings.ts';
import { downloadMyData } from './api/export-data.ts';
import { usePreferences, useSavePreferences } from './api/preferences-api.ts';

const tabs = [
  { id: 'account', label: 'Account', icon: UserRound },
  { id: 'notifications', label: 'Notifications', icon: Bell },
  { id: 'preferences', label: 'Preferences', icon: SlidersHorizontal },
  { id: 'security', label: 'Security', icon: Lock },
  { id: 'data', label: 'Data & Privacy', icon: Database },
] as const;
type TabId = (typeof tabs)[number]['id'];

/**
 * The Account tab changes the name, and the password when a new one is typed; the checks run in
 * one refinement so every problem is found and the status line can say the weightiest.
 */
const accountSchema = z
  .object({
    name: z.string(),
    currentPassword: z.string(),
    newPassword: z.string(),
    confirmPassword: z.string(),
  })
  .superRefine((values, context) => {
    if (values.newPassword || values.confirmPassword) {
      if (values.newPassword !== values.confirmPassword)
        context.addIssue({
          code: 'custom',
          path: ['confirmPassword'],
          message: 'New passwords do not match',
        });
      if (!values.currentPassword)
        context.addIssue({
          code: 'custom',
          path: ['currentPassword'],
          message: 'Please enter your current password to update password',
        });
    }
    if (!values.name.trim())
      context.addIssue({ code: 'custom', path: ['name'], message: 'Please enter your name.' });
  });

function AccountTab() {
  const session = useSession();
  const refreshSession = useRefreshSession();
  const user = session.data?.user;
  const noPassword = { currentPassword: '', newPassword: '', confirmPassword: '' };
  const form = useSchemaForm(accountSchema, { name: user?.name ?? '', ...noPassword });
  const { reset, getValues } = form;

  useEffect(
    () => reset({ ...getValues(), name: user?.name ?? '' }),
    [user?.name, reset, getValues],
  );

  const { status, onSubmit, busy } = useStatusSubmit(form, {
    run: async ({ name, currentPassword, newPassword }) => {
      if (name.trim() !== (user?.name ?? '')) await updateName(name.trim());
      if (newPassword) await changePassword({ currentPassword, newPassword });
      await refreshSession();
      form.reset({ name: name.trim(), ...noPassword });
    },
    success: 'Account updated successfully',
    failure: 'Failed to update account settings',
    invalid: (errors) => {
      const password = errors.confirmPassword ?? errors.currentPassword;
      return password?.message
        ? { tone: 'error', text: password.message }
        : firstProblem(errors, 'Failed to update account settings');
    },
  });

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-5">
      <FormStatusLine status={status} />
      <TextField label="Full Name" autoComplete="name" disabled={busy} {...form.register('name')} />
      <TextField
        label="Email"
        name="email"
        type="email"
        value={user?.email ?? ''}
        readOnly
        hint="Changing your email needs additional verification: use Update Email on My Account, with your current password."
      />
      <fieldset className="space-y-4 rounded-lg border border-slate-200 p-4">
        <legend className="px-1 text-sm font-semibold text-slate-800">Change password</legend>
        <PasswordChangeFields
          register={form.register}
          names={['currentPassword', 'newPassword', 'confirmPassword']}
          hint="Use at least 8 characters. Other devices are signed out."
          disabled={busy}
        />
      </fieldset>
      <BusyButton busy={busy} disabled={busy} fullWidth={false}>
        Save Account Settings
      </BusyButton>
    </form>
  );
}

const notificationOptions = [
  {
    key: 'emailNotifications',
    label: 'Email notifications',
    text: 'Updates about your account by email.',
  },
  { key: 'pushNotifications', label: 'Push notifications', text: 'Alerts in this browser.' },
  {
    key: 'migrationUpdates',
    label: 'Migration updates',
    text: 'When a migration starts, finishes or fails.',
  },
  { key: 'securityAlerts', label: 'Security alerts', text: 'Sign-ins and account changes.' },
  { key: 'marketingEmails', label: 'Marketing emails', text: 'Product news and offers.' },
] as const;

/** Loading and failure states of the saved preferences, shared by both tabs that use them. */
function PreferencesGate({
  children,
}: {
  children: (data: {
    notifications: NotificationPreferences;
    preferences: UserPreferences;
  }) => ReactNode;
}) {
  const query = usePreferences();
  if (query.isPending) {
    return (
      <p role="status" className="text-slate-500">
        Loading your preferences...
      </p>
    );
  }
  if (query.isError) {
    return (
      <div role="alert" className="space-y-3">
        <p className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          Your saved preferences could not be loaded.
          {reasonOf(query.error) ? ` ${reasonOf(query.error)}` : ''}
        </p>
        <BusyButton
          type="button"
          variant="secondary"
          busy={query.isFetching}
          disabled={query.isFetching}
          fullWidth={false}
          onClick={() => void query.refetch()}
        >
          Try again
        </BusyButton>
      </div>
    );
  }
  return <>{children(query.data)}</>;
}

function NotificationsForm({ saved }: { saved: NotificationPreferences }) {
  const form = useSchemaForm(notificationPreferencesSchema, saved);
  const save = useSavePreferences();
  const { status, onSubmit, busy } = useStatusSubmit(form, {
    run: async (notifications) =>
      form.reset((await save.mutateAsync({ notifications })).notifications),
    success: 'Notification preferences updated successfully',
    failure: 'Failed to update notification preferences',
  });
  return (
    <form onSubmit={onSubmit} className="space-y-5">
      <FormStatusLine status={status} />
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
        {notificationOptions.map((option) => (
          <li key={option.key}>
            <label className="flex cursor-pointer items-start justify-between gap-4 p-4">
              <span>
                <span className="block font-medium text-slate-900">{option.label}</span>
                <span className="block text-sm text-slate-600">{option.text}</span>
              </span>
              <input
                type="checkbox"
                role="switch"
                disabled={busy}
                className="mt-1 h-5 w-5 accent-indigo-600"
                {...form.register(option.key)}
              />
            </label>
          </li>
        ))}
      </ul>
      <BusyButton busy={busy} disabled={busy} fullWidth={false}>
        Save Notification Preferences
      </BusyButton>
    </form>
  );
}

function NotificationsTab() {
  return (
    <PreferencesGate>{(data) => <NotificationsForm saved={data.notifications} />}</PreferencesGate>
  );
}

const themeLabels: Record<(typeof themes)[number], string> = {
  light: 'Light',
  dark: 'Dark',
  auto: 'Auto (follow the system)',
};
const languageLabels: Record<(typeof languages)[number], string> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
};
const timezoneLabels: Record<(typeof timezones)[number], string> = {
  UTC: 'UTC',
  'America/New_York': 'Eastern Time (New York)',
  'America/Chicago': 'Central Time (Chicago)',
  'America/Denver': 'Mountain Time (Denver)',
  'America/Los_Angeles': 'Pacific Time (Los Angeles)',
};
const optionsOf = <K extends string>(keys: readonly K[], labels: Record<K, string>) =>
  keys.map((k): [string, string] => [k, labels[k]]);

const preferenceChoices: Array<{
  label: string;
  name: Exclude<keyof UserPreferences, 'currency'>;
  options: Array<[string, string]>;
}> = [
  { label: 'Theme', name: 'theme', options: optionsOf(themes, themeLabels) },
  { label: 'Language', name: 'language', options: optionsOf(languages, languageLabels) },
  { label: 'Timezone', name: 'timezone', options: optionsOf(timezones, timezoneLabels) },
  {
    label: 'Date format',
    name: 'dateFormat',
    options: dateFormats.map((f): [string, string] => [f, f]),
  },
];

function PreferencesForm({ saved }: { saved: UserPreferences }) {
  const form = useSchemaForm(userPreferencesSchema, saved);
  const save = useSavePreferences();
  const { status, onSubmit, busy } = useStatusSubmit(form, {
    run: async (preferences) => form.reset((await save.mutateAsync({ preferences })).preferences),
    success: 'Preferences updated successfully',
    failure: 'Failed to update preferences',
  });
  return (
    <form onSubmit={onSubmit} className="space-y-5">
      <FormStatusLine status={status} />
      <div className="grid gap-4 sm:grid-cols-2">
        {preferenceChoices.map(({ label, name, options }) => (
          <SelectField
            key={name}
            label={label}
            disabled={busy}
            options={options}
            {...form.register(name)}
          />
        ))}
      </div>
      <p className="text-sm text-slate-600">
        Currency: <strong>{form.getValues('currency')}</strong>
      </p>
      <BusyButton busy={busy} disabled={busy} fullWidth={false}>
        Save Preferences
      </BusyButton>
    </form>
  );
}

function PreferencesTab() {
  return (
    <PreferencesGate>{(data) => <PreferencesForm saved={data.preferences} />}</PreferencesGate>
  );
}

function SecurityTab() {
  const session = useSession();
  const [status, setStatus] = useState<FormStatus | null>(null);
  const [busy, setBusy] = useState<null | 'others' | 'all'>(null);
  const signOutOthers = async () => {
    setBusy('others');
    setStatus(null);
    try {
      await signOutOtherDevices();
      setStatus({ tone: 'success', text: 'Signed out of every other device' });
    } catch (error) {
      setStatus({
        tone: 'error',
        text: 'Failed to sign out other devices',
        detail: reasonOf(error),
      });
    } finally {
      setBusy(null);
    }
  };
  const signOutAll = async () => {
    setBusy('all');
    setStatus(null);
    try {
      // Every other session first; then this one, which also loads the sign-in page afresh.
      await signOutOtherDevices();
      await signOut();
    } catch (error) {
      setStatus({ tone: 'error', text: 'Failed to sign out everywhere', detail: reasonOf(error) });
      setBusy(null);
    }
  };
  return (
    <div className="space-y-6">
      <FormStatusLine status={status} />
      <p className="text-slate-700">
        You are signed in as{' '}
        <strong className="break-all text-slate-900">{session.data?.user.email}</strong>. Sessions
        last up to 7 days and end when you log out, change your password or reset it. Repeated
        failed sign-ins are slowed down.
      </p>
      <div className="rounded-lg border border-slate-200 p-4">
        <h3 className="font-medium text-slate-900">Other devices</h3>
        <p className="mt-1 text-sm text-slate-600">
          Ends every session except this one, for example on a shared or lost computer.
        </p>
        <div className="mt-3">
          <BusyButton
            type="button"
            variant="secondary"
            busy={busy === 'others'}
            disabled={busy !== null}
            fullWidth={false}
            onClick={signOutOthers}
          >
            Sign Out Other Devices
          </BusyButton>
        </div>
      </div>
      <div className="rounded-lg border border-slate-200 p-4">
        <h3 className="font-medium text-slate-900">Everywhere</h3>
        <p className="mt-1 text-sm text-slate-600">
          Ends every session of your account, this one included. You will need to sign in again.
        </p>
        <div className="mt-3">
          <BusyButton
            type="button"
            variant="secondary"
            busy={busy === 'all'}
            disabled={busy !== null}
            fullWidth={false}
            onClick={signOutAll}
            icon={<LogOut size={16} aria-hidden />}
          >
            Sign Out Everywhere
          </BusyButton>
        </div>
      </div>
      <p className="text-sm text-slate-600">
        To change your password, use the Account tab; to change your e-mail address, use{' '}
        <Link to="/my-account" className="font-semibold text-indigo-700 hover:underline">
          My Account
        </Link>
        .
      </p>
    </div>
  );
}

function DataTab() {
  const [status, setStatus] = useState<FormStatus | null>(null);
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    setStatus(null);
    try {
      const counts = await downloadMyData();
      setStatus({
        tone: 'success',
        text: 'Your data is downloading',
        detail: `${counts.migrations} migration${counts.migrations === 1 ? '' : 's'}, ${counts.messages} message${counts.messages === 1 ? '' : 's'} and your settings, as JSON.`,
      });
    } catch (error) {
      setStatus({ tone: 'error', text: 'Failed to prepare your data', detail: reasonOf(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="space-y-6 text-slate-700">
      <FormStatusLine status={status} />
      <p>
        We keep your account, your migrations with their reports, your messages to us and your
        settings. Store credentials are encrypted and never shown in full; card payments are handled
        by Stripe, and we never see your card number.
      </p>
      <div className="rounded-lg border border-slate-200 p-4">
        <h3 className="font-medium text-slate-900">Download my data</h3>
        <p className="mt-1 text-sm text-slate-600">
          A JSON file with your account details, migrations (without store keys or tokens),
          notifications, messages and preferences.
        </p>
        <div className="mt-3">
          <BusyButton
            type="button"
            variant="secondary"
            busy={busy}
            disabled={busy}
            fullWidth={false}
            onClick={download}
            icon={<Download size={16} aria-hidden />}
          >
            Download My Data
          </BusyButton>
        </div>
      </div>
      <div className="rounded-lg border border-red-200 p-4">
        <h3 className="font-medium text-red-700">Delete my account</h3>
        <p className="mt-1 text-sm text-slate-600">
          Deleting your account removes all of it, including saved store credentials, messages and
          settings, and signs you out everywhere. It cannot be undone.
        </p>
        <Link
          to="/my-account"
          className="mt-3 inline-flex items-center gap-2 rounded-lg border border-red-300 px-4 py-2 text-sm font-semibold text-red-700 hover:bg-red-50"
        >
          <Trash2 size={16} aria-hidden /> Delete your account on My Account
        </Link>
      </div>
    </div>
  );
}

/** /settings (spec.md section 2): a side menu of five tabs. */
export function SettingsPage() {
  const [active, setActive] = useState<TabId>('account');
  const tabRefs = useRef<Record<string, HTMLButtonElement | null>>({});
  const baseId = useId();

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((t) => t.id === active);
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
    let next: number | undefined;
    if (step !== undefined) next = (index + step + tabs.length) % tabs.length;
    if (event.key === 'Home') next = 0;
    if (event.key === 'End') next = tabs.length - 1;
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    setActive(tab.id);
    tabRefs.current[tab.id]?.focus();
  };

  const current = tabs.find((t) => t.id === active) ?? tabs[0];
  return (
    <Page title="Settings">
      <div className="grid gap-6 md:grid-cols-[14rem_1fr]">
        <div
          role="tablist"
          aria-label="Settings"
          aria-orientation="vertical"
          onKeyDown={onKeyDown}
          className="flex flex-wrap gap-1 md:flex-col md:flex-nowrap"
        >
          {tabs.map(({ id, label, icon: Icon }) => (
            <button
              key={id}
              ref={(el) => {
                tabRefs.current[id] = el;
              }}
              type="button"
              role="tab"
              id={`${baseId}-${id}-tab`}
              aria-selected={active === id}
              aria-controls={`${baseId}-${id}-panel`}
              tabIndex={active === id ? 0 : -1}
              onClick={() => setActive(id)}
              className={`flex shrink-0 items-center gap-2 rounded-lg px-3 py-2 text-left text-sm font-medium ${
                active === id ? 'bg-indigo-50 text-indigo-700' : 'text-slate-600 hover:bg-slate-100'
              }`}
            >
              <Icon size={16} aria-hidden />
              {label}
            </button>
          ))}
        </div>
        <section
          role="tabpanel"
          id={`${baseId}-${current.id}-panel`}
          aria-labelledby={`${baseId}-${current.id}-tab`}
          className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
        >
          <h2 className="mb-5 text-lg font-semibold text-slate-900">{current.label}</h2>
          {active === 'account' ? <AccountTab /> : null}
          {active === 'notifications' ? <NotificationsTab /> : null}
          {active === 'preferences' ? <PreferencesTab /> : null}
          {active === 'security' ? <SecurityTab /> : null}
          {active === 'data' ? <DataTab /> : null}
        </section>
      </div>
    </Page>
  );
}
