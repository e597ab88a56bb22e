import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { signOut } from '../features/session/api/sign-out.ts';
import { Brand } from './brand.tsx';
import { StoreSelector } from './store-selector.tsx';

/** Header shown to signed-in users outside the app paths (spec.md section 2, Layout). */
export function SiteHeader() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const logout = async () => {
    await signOut();
    queryClient.clear();
    navigate('/login');
  };
  const links = [
    { to: '/migrations', label: 'Migrations' },
    { to: '/migration-history', label: 'History' },
    { to: '/help', label: 'Help' },
    { to: '/contact', label: 'Contact' },
    { to: '/my-account', label: 'My Account' },
  ];
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-4 px-4 py-3">
        <Brand />
        <StoreSelector />
        <nav aria-label="Site" className="flex flex-wrap gap-3 text-sm">
          {links.map((l) => (
            <Link key={l.to} to={l.to} className="text-slate-600 hover:text-slate-900">
              {l.label}
            </Link>
          ))}
        </nav>
        <button
          type="button"
          onClick={logout}
          className="ml-auto text-sm text-slate-600 hover:text-slate-900"
        >
          Logout
        </button>
      </div>
    </header>
  );
}
