import { Link } from 'react-router';
import { Brand } from '../../components/brand.tsx';

const sections = [
  { to: '/#features', label: 'Features' },
  { to: '/#pricing', label: 'Pricing' },
  { to: '/blogs', label: 'Blog' },
  { to: '/enterprise', label: 'Enterprise' },
];

/** Header of the public marketing pages, which no signed-in chrome replaces. */
export function MarketingHeader() {
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
              className="rounded-md px-3 py-2 font-medium whitespace-nowrap text-slate-600 hover:bg-slate-100 hover:text-slate-900"
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
