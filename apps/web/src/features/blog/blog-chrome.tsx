import { Link } from 'react-router';
import { Brand } from '../../components/brand.tsx';

const sections = [
  { to: '/', label: 'Home' },
  { to: '/#features', label: 'Features' },
  { to: '/#pricing', label: 'Pricing' },
  { to: '/blogs', label: 'Blog' },
];

/** The blog's own header (spec.md section 2, Blog list): site sections, Sign In, Get Started. */
export function BlogHeader() {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <Brand />
        <nav
          aria-label="Site"
          className="order-3 flex w-full gap-1 overflow-x-auto text-sm sm:order-none sm:w-auto"
        >
          {sections.map((s) => (
            <Link
              key={s.label}
              to={s.to}
              className="rounded-md px-3 py-2 font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900"
            >
              {s.label}
            </Link>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2 text-sm">
          <Link
            to="/login"
            className="rounded-md px-3 py-2 font-medium text-slate-700 hover:bg-slate-100"
          >
            Sign In
          </Link>
          <Link
            to="/signup"
            className="rounded-md bg-indigo-600 px-3 py-2 font-semibold text-white shadow-sm hover:bg-indigo-700"
          >
            Get Started
          </Link>
        </div>
      </div>
    </header>
  );
}

const footerLinks = [
  { to: '/', label: 'Home' },
  { to: '/#features', label: 'Features' },
  { to: '/#pricing', label: 'Pricing' },
  { to: '/contact', label: 'Contact' },
  { to: '/help', label: 'Help Center' },
  { to: '/blogs', label: 'Latest Posts' },
];

export function BlogFooter() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between">
        <p>© {new Date().getFullYear()} Replatform. Migrating stores since 2020.</p>
        <nav aria-label="Footer" className="flex flex-wrap gap-x-5 gap-y-2">
          {footerLinks.map((l) => (
            <Link key={l.label} to={l.to} className="hover:text-slate-900">
              {l.label}
            </Link>
          ))}
        </nav>
      </div>
    </footer>
  );
}
