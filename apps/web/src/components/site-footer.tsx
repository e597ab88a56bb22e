import { Link } from 'react-router';

export function SiteFooter() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between">
        <p>© {new Date().getFullYear()} Replatform. Migrating stores since 2020.</p>
        <nav aria-label="Footer" className="flex flex-wrap gap-4">
          <Link to="/blogs">Blog</Link>
          <Link to="/help">Help Center</Link>
          <Link to="/contact">Contact</Link>
          <Link to="/enterprise">Enterprise</Link>
        </nav>
      </div>
    </footer>
  );
}
