import { Link } from 'react-router';
import { Brand } from './brand.tsx';

/** A header link: a route of the app, or an anchor on the page itself. */
export type HeaderSection = { label: string } & ({ to: string } | { href: string });

const linkClass =
  'rounded-md px-3 py-2 font-medium whitespace-nowrap text-slate-600 hover:bg-slate-100 hover:text-slate-900';

/** Header of the public pages (landing, blog, marketing): their sections, Sign In, Get Started. */
export function PublicHeader({ sections }: { sections: readonly HeaderSection[] }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <Brand />
        <nav
          aria-label="Site"
          className="order-3 flex w-full gap-1 overflow-x-auto text-sm sm:order-none sm:w-auto"
        >
          {sections.map((s) =>
            'to' in s ? (
              <Link key={s.label} to={s.to} className={linkClass}>
                {s.label}
              </Link>
            ) : (
              <a key={s.label} href={s.href} className={linkClass}>
                {s.label}
              </a>
            ),
          )}
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
