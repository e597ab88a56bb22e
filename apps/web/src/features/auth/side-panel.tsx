import { RefreshCw, ShieldCheck, Timer } from 'lucide-react';

const stats = [
  { label: 'Active Stores', value: '10K+' },
  { label: 'Success Rate', value: '99.9%' },
  { label: 'Support', value: '24/7' },
];

const features = [
  {
    icon: Timer,
    title: 'Zero downtime',
    text: 'Your store keeps selling while products, customers and orders move across.',
  },
  {
    icon: ShieldCheck,
    title: 'Secure by design',
    text: 'Store credentials are encrypted at rest and never shown in full again.',
  },
  {
    icon: RefreshCw,
    title: 'Money back if it fails',
    text: '30-day money-back guarantee, and your first re-migration is free.',
  },
];

/** The auth screen's side panel (spec.md section 2): stat tiles and feature blurbs. */
export function AuthSidePanel() {
  return (
    <aside
      aria-labelledby="auth-side-title"
      className="flex flex-col justify-center gap-8 bg-gradient-to-br from-indigo-700 via-indigo-600 to-violet-600 px-6 py-10 text-white sm:px-10 lg:px-14"
    >
      <div>
        <h2 id="auth-side-title" className="text-2xl font-semibold sm:text-3xl">
          Move your store without missing a record
        </h2>
        <p className="mt-3 max-w-md text-indigo-100">
          Magento 2, Shopify, WooCommerce and BigCommerce, in every direction.
        </p>
      </div>
      <dl className="grid grid-cols-3 gap-3">
        {stats.map((s) => (
          <div
            key={s.label}
            className="rounded-xl bg-white/10 p-3 text-center ring-1 ring-white/20"
          >
            <dt className="text-xs font-medium uppercase tracking-wide text-indigo-100">
              {s.label}
            </dt>
            <dd className="mt-1 text-xl font-bold sm:text-2xl">{s.value}</dd>
          </div>
        ))}
      </dl>
      <ul className="space-y-5">
        {features.map(({ icon: Icon, title, text }) => (
          <li key={title} className="flex gap-3">
            <span className="mt-0.5 flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-white/15">
              <Icon size={18} aria-hidden />
            </span>
            <div>
              <h3 className="font-semibold">{title}</h3>
              <p className="text-sm text-indigo-100">{text}</p>
            </div>
          </li>
        ))}
      </ul>
    </aside>
  );
}
