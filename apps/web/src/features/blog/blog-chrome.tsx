import { Link } from 'react-router';
import { PublicHeader, type HeaderSection } from '../../components/public-header.tsx';

const sections: HeaderSection[] = [
  { to: '/', label: 'Home' },
  { to: '/#features', label: 'Features' },
  { to: '/#pricing', label: 'Pricing' },
  { to: '/blogs', label: 'Blog' },
];

/** The blog's own header (spec.md section 2, Blog list): Home, Features, Pricing, Blog. */
export function BlogHeader() {
  return <PublicHeader sections={sections} />;
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
