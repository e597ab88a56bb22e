import { Link } from 'react-router';

export function Brand({ to = '/' }: { to?: string }) {
  return (
    <Link to={to} className="flex items-center gap-2 font-semibold text-slate-900">
      <img src="/favicon.svg" alt="" width={28} height={28} />
      <span>Replatform</span>
    </Link>
  );
}
