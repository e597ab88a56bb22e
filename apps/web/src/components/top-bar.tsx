import { LogOut, Settings, UserRound } from 'lucide-react';
import { useState } from 'react';
import { NavLink } from 'react-router';
import { displayNameOf } from '@replatform/contracts/session';
import { useSession } from '../features/session/api/get-session.ts';
import { signOut } from '../features/session/api/sign-out.ts';
import { MockModeToggle } from '../features/mock-mode/mock-mode-toggle.tsx';
import { NotificationsBell } from '../features/notifications/components/notifications-bell.tsx';
import { Brand } from './brand.tsx';

const links = [
  { to: '/migrations', label: 'Migrations' },
  { to: '/migration-history', label: 'History' },
  { to: '/help', label: 'Help' },
  { to: '/contact', label: 'Contact' },
];

/**
 * The signed-in app's top bar (spec.md section 2, Layout). On a phone it is two rows (brand and
 * icon buttons, then the links) that scroll away with the page; from the small breakpoint on one
 * sticky row.
 */
export function TopBar() {
  const session = useSession();
  const displayName = displayNameOf(session.data?.user);
  const [leaving, setLeaving] = useState(false);
  // signOut ends the server session and reloads /login, dropping every cached query.
  const logout = async () => {
    setLeaving(true);
    await signOut();
  };
  return (
    <header className="relative z-30 border-b border-slate-200 bg-white/95 backdrop-blur sm:sticky sm:top-0">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-1 px-4 py-2 sm:gap-x-6 sm:py-3">
        <Brand to="/migrations" />
        <nav
          aria-label="Main"
          className="order-3 -mx-1 flex w-full gap-1 overflow-x-auto sm:order-none sm:mx-0 sm:w-auto"
        >
          {links.map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              className={({ isActive }) =>
                `rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'bg-indigo-50 text-indigo-700' : 'text-slate-600 hover:bg-slate-100'}`
              }
            >
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-0.5 sm:gap-2">
          <MockModeToggle />
          <NotificationsBell />
          <NavLink
            to="/settings"
            aria-label="Settings"
            className="rounded-md p-2 text-slate-600 hover:bg-slate-100"
          >
            <Settings size={18} aria-hidden />
          </NavLink>
          <NavLink
            to="/my-account"
            aria-label={`My Account (${displayName})`}
            className={({ isActive }) =>
              `flex items-center gap-2 rounded-md px-2 py-2 text-sm hover:bg-slate-100 ${isActive ? 'bg-indigo-50 text-indigo-700' : 'text-slate-700'}`
            }
          >
            <UserRound size={18} aria-hidden />
            <span className="hidden max-w-[10rem] truncate sm:inline">{displayName}</span>
          </NavLink>
          <button
            type="button"
            onClick={logout}
            disabled={leaving}
            className="flex items-center gap-1 rounded-md px-2 py-2 text-sm text-slate-600 hover:bg-slate-100"
          >
            <LogOut size={18} aria-hidden />
            <span className="sr-only sm:not-sr-only">Logout</span>
          </button>
        </div>
      </div>
    </header>
  );
}
