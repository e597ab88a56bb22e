import { Bell, Database, Lock, SlidersHorizontal, UserRound } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { BusyButton, PasswordField, TextField } from '../../components/form-fields.tsx';
import { Page } from '../../components/page.tsx';
import { ApiRequestError } from '../../lib/api-client.ts';
import { useRefreshSession, useSession } from '../session/api/get-session.ts';
import { changePassword, signOutOtherDevices, updateName } from './api/account-settings.ts';

const tabs = [
  { id: 'account', label: 'Account', icon: UserRound },
  { id: 'notifications', label: 'Notifications', icon: Bell },
  { id: 'preferences', label: 'Preferences', icon: SlidersHorizontal },
  { id: 'security', label: 'Security', icon: Lock },
  { id: 'data', label: 'Data & Privacy', icon: Database },
] as const;
type TabId = (typeof tabs)[number]['id'];

interface Status {
  tone: 'success' | 'error';
  text: string;
  detail?: string | undefined;
}

function reasonOf(error: unknown): string | undefined {
  if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) {
    if (error.code !== 'http_error') return error.message;
  }
  return undefined;
}

/** spec.md section 4: saves of notifications and preferences take a simulated second. */
const simulatedSave = () => new Promise((resolve) => setTimeout(resolve, 1000));

function StatusLine({ status }: { status: Status | null }) {
  return (
    <div role="status" aria-live="polite">
      {status ? (
        <p
          className={`mb-4 rounded-lg border px-4 py-3 text-sm ${
            status.tone === 'success'
              ? 'border-emerald-200 bg-emerald-50 text-emerald-800'
              : 'border-red-200 bg-red-50 text-red-800'
          }`}
        >
          <strong className="font-semibold">{status.text}</strong>
          {status.detail ? <span className="block sm:ml-1 sm:inline">{status.detail}</span> : null}
        </p>
      ) : null}
    </div>
  );
}

function AccountTab() {
  const session = useSession();
  const refreshSession = useRefreshSession();
  const user = session.data?.user;
  const [name, setName] = useState('');
  const [password, setPassword] = useState({ current: '', next: '', confirm: '' });
  const [status, setStatus] = useState<Status | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => setName(user?.name ?? ''), [user?.name]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setStatus(null);
    const wantsPassword = Boolean(password.next || password.confirm);
    if (wantsPassword && password.next !== password.confirm) {
      setStatus({ tone: 'error', text: 'New passwords do not match' });
      return;
    }
    if (wantsPassword && !password.current) {
      setStatus({ tone: 'error', text: 'Please enter your current password to update password' });
      return;
    }
    if (!name.trim()) {
      setStatus({
        tone: 'error',
        text: 'Failed to update account settings',
        detail: 'Please enter your name.',
      });
      return;
    }
    setBusy(true);
    try {
      if (name.trim() !== (user?.name ?? '')) await updateName(name.trim());
      if (wantsPassword)
        await changePassword({ currentPassword: password.current, newPassword: password.next });
      await refreshSession();
      setPassword({ current: '', next: '', confirm: '' });
      setStatus({ tone: 'success', text: 'Account updated successfully' });
    } catch (error) {
      setStatus({
        tone: 'error',
        text: 'Failed to update account settings',
        detail: reasonOf(error),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form noValidate onSubmit={save} className="space-y-5">
      <StatusLine status={status} />
      <TextField
        label="Full Name"
        name="name"
        autoComplete="name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        disabled={busy}
      />
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
        <PasswordField
          label="Current Password"
          name="currentPassword"
          autoComplete="current-password"
          value={password.current}
          onChange={(e) => setPassword((v) => ({ ...v, current: e.target.value }))}
          disabled={busy}
        />
        <PasswordField
          label="New Password"
          name="newPassword"
          autoComplete="new-password"
          hint="Use at least 8 characters. Other devices are signed out."
          value={password.next}
          onChange={(e) => setPassword((v) => ({ ...v, next: e.target.value }))}
          disabled={busy}
        />
        <PasswordField
          label="Confirm New Password"
          name="confirmPassword"
          autoComplete="new-password"
          value={password.confirm}
          onChange={(e) => setPassword((v) => ({ ...v, confirm: e.target.value }))}
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

function NotificationsTab() {
  const [prefs, setPrefs] = useState({
    emailNotifications: true,
    pushNotifications: true,
    migrationUpdates: true,
    securityAlerts: true,
    marketingEmails: false,
  });
  const [status, setStatus] = useState<Status | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setStatus(null);
    await simulatedSave();
    setBusy(false);
    setStatus({ tone: 'success', text: 'Notification preferences updated successfully' });
  };
  return (
    <form onSubmit={save} className="space-y-5">
      <StatusLine status={status} />
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
                checked={prefs[option.key]}
                onChange={(e) => setPrefs((p) => ({ ...p, [option.key]: e.target.checked }))}
                disabled={busy}
                className="mt-1 h-5 w-5 accent-indigo-600"
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

function Select({
  label,
  value,
  options,
  onChange,
  disabled,
}: {
  label: string;
  value: string;
  options: Array<[string, string]>;
  onChange: (value: string) => void;
  disabled: boolean;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
        className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-slate-900 shadow-sm"
      >
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

function PreferencesTab() {
  const [prefs, setPrefs] = useState({
    theme: 'light',
    language: 'en',
    timezone: 'UTC',
    dateFormat: 'MM/DD/YYYY',
  });
  const [status, setStatus] = useState<Status | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof prefs) => (value: string) =>
    setPrefs((p) => ({ ...p, [key]: value }));
  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setStatus(null);
    await simulatedSave();
    setBusy(false);
    setStatus({ tone: 'success', text: 'Preferences updated successfully' });
  };
  return (
    <form onSubmit={save} className="space-y-5">
      <StatusLine status={status} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Select
          label="Theme"
          value={prefs.theme}
          onChange={set('theme')}
          disabled={busy}
          options={[
            ['light', 'Light'],
            ['dark', 'Dark'],
            ['auto', 'Auto'],
          ]}
        />
        <Select
          label="Language"
          value={prefs.language}
          onChange={set('language')}
          disabled={busy}
          options={[
            ['en', 'English'],
            ['es', 'Español'],
            ['fr', 'Français'],
            ['de', 'Deutsch'],
          ]}
        />
        <Select
          label="Timezone"
          value={prefs.timezone}
          onChange={set('timezone')}
          disabled={busy}
          options={[
            ['UTC', 'UTC'],
            ['America/New_York', 'Eastern Time (New York)'],
            ['America/Chicago', 'Central Time (Chicago)'],
            ['America/Denver', 'Mountain Time (Denver)'],
            ['America/Los_Angeles', 'Pacific Time (Los Angeles)'],
          ]}
        />
        <Select
          label="Date format"
          value={prefs.dateFormat}
          onChange={set('dateFormat')}
          disabled={busy}
          options={[
            ['MM/DD/YYYY', 'MM/DD/YYYY'],
            ['DD/MM/YYYY', 'DD/MM/YYYY'],
            ['YYYY-MM-DD', 'YYYY-MM-DD'],
          ]}
        />
      </div>
      <p className="text-sm text-slate-600">
        Currency: <strong>USD</strong>
      </p>
      <BusyButton busy={busy} disabled={busy} fullWidth={false}>
        Save Preferences
      </BusyButton>
    </form>
  );
}

function SecurityTab() {
  const [status, setStatus] = useState<Status | null>(null);
  const [busy, setBusy] = useState(false);
  const signOutOthers = async () => {
    setBusy(true);
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
      setBusy(false);
    }
  };
  return (
    <div className="space-y-5">
      <StatusLine status={status} />
      <p className="text-slate-700">
        Sessions last up to 7 days and end when you log out, change your password or reset it.
        Repeated failed sign-ins are slowed down.
      </p>
      <BusyButton
        type="button"
        variant="secondary"
        busy={busy}
        disabled={busy}
        fullWidth={false}
        onClick={signOutOthers}
      >
        Sign Out Other Devices
      </BusyButton>
    </div>
  );
}

function DataTab() {
  return (
    <div className="space-y-4 text-slate-700">
      <p>
        We keep your account, your migrations and their reports. Store credentials are encrypted and
        never shown in full; payments are handled by the card payment provider.
      </p>
      <p>
        Deleting your account removes all of it, including saved store credentials, and signs you
        out everywhere.{' '}
        <Link to="/my-account" className="font-semibold text-indigo-700 hover:underline">
          Delete your account on My Account
        </Link>
        .
      </p>
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
