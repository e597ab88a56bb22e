import {
  ArrowRight,
  CheckCircle2,
  LifeBuoy,
  MessagesSquare,
  Quote,
  RefreshCw,
  ShieldCheck,
  Timer,
  Building2,
} from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { formatUsd, priceFor, TAX_RATE_LABEL, wholeCount } from '@replatform/contracts/pricing';
import { SiteFooter } from '../../components/site-footer.tsx';
import { PublicHeader, type HeaderSection } from '../../components/public-header.tsx';

// On the landing page itself the sections are anchors of this page.
const sections: HeaderSection[] = [
  { href: '#features', label: 'Features' },
  { href: '#pricing', label: 'Pricing' },
  { to: '/blogs', label: 'Blog' },
];

const features = [
  {
    icon: Timer,
    title: 'Zero downtime',
    text: 'Your store keeps selling while we copy products, customers and orders.',
  },
  {
    icon: ShieldCheck,
    title: 'Every record accounted for',
    text: 'Each record is migrated, skipped or reported with a reason.',
  },
  {
    icon: RefreshCw,
    title: 'Resumable and repeatable',
    text: 'A run that stops picks up where it left off, with no duplicates.',
  },
];

const included = [
  'Products, customers and orders in any combination',
  'Live progress and a per-record report',
  'Record-by-record verification after the run',
  '30-day money-back guarantee',
  'One free re-migration',
];

const platformNames = ['Magento 2', 'Shopify', 'WooCommerce', 'BigCommerce'];

function CountInput({
  label,
  value,
  onChange,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const counted = wholeCount(value);
  // spec.md section 5: anything but a whole number from 0 counts as 0 (decimals round down).
  const adjusted = value.trim() !== String(counted);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="number"
        min={0}
        step={1}
        inputMode="numeric"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={adjusted ? `${id}-note` : undefined}
        className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-200 focus:outline-none"
      />
      {adjusted ? (
        <p id={`${id}-note`} className="mt-1 text-xs text-slate-500">
          Counted as {counted.toLocaleString('en-US')}
        </p>
      ) : null}
    </div>
  );
}

function Calculator() {
  const [counts, setCounts] = useState({ products: '1000', customers: '1000', orders: '1000' });
  const price = priceFor({
    products: wholeCount(counts.products),
    customers: wholeCount(counts.customers),
    orders: wholeCount(counts.orders),
  });
  const set = (key: keyof typeof counts) => (value: string) =>
    setCounts((c) => ({ ...c, [key]: value }));
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h3 className="text-lg font-semibold text-slate-900">Cost calculator</h3>
      <div className="mt-4 grid gap-4 sm:grid-cols-3">
        <CountInput label="Products" value={counts.products} onChange={set('products')} />
        <CountInput label="Customers" value={counts.customers} onChange={set('customers')} />
        <CountInput label="Orders" value={counts.orders} onChange={set('orders')} />
      </div>
      <dl className="mt-6 space-y-2 border-t border-slate-100 pt-4 text-sm text-slate-600">
        <div className="flex justify-between gap-4">
          <dt>Base fee</dt>
          <dd>{formatUsd(price.baseCents)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt>{price.records.toLocaleString('en-US')} records × $0.01</dt>
          <dd>{formatUsd(price.volumeCents)}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt>Tax ({TAX_RATE_LABEL})</dt>
          <dd>{formatUsd(price.taxCents)}</dd>
        </div>
      </dl>
      <p
        className="mt-4 flex flex-wrap items-baseline justify-between gap-2 border-t border-slate-100 pt-4 text-slate-700"
        aria-live="polite"
      >
        <span>{price.records.toLocaleString('en-US')} records:</span>
        <strong className="text-3xl font-bold text-slate-900">{formatUsd(price.totalCents)}</strong>
      </p>
    </div>
  );
}

/** Links such as /#pricing from other pages land on their section once it has rendered. */
function useScrollToHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
  }, [hash]);
}

/** / (spec.md section 2, Public pages): hero, #features, #pricing with the calculator, #testimonials. */
export function LandingPage() {
  useScrollToHash();
  return (
    <div className="flex min-h-screen flex-col">
      <PublicHeader sections={sections} />
      <main className="flex-1">
        <section className="bg-gradient-to-br from-indigo-50 via-white to-violet-50">
          <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-16 sm:py-24 lg:grid-cols-2">
            <div>
              <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
                Move your store to a new platform without losing a single order.
              </h1>
              <p className="mt-4 max-w-2xl text-lg text-slate-600">
                Replatform migrates products, customers and orders between Magento 2, Shopify,
                WooCommerce and BigCommerce, in every direction, and shows you every record's
                outcome.
              </p>
              <div className="mt-8 flex flex-wrap gap-3">
                <Link
                  to="/signup"
                  className="inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-5 py-3 font-semibold text-white shadow-sm hover:bg-indigo-700"
                >
                  Start your migration <ArrowRight size={18} aria-hidden />
                </Link>
                <Link
                  to="/magento-to-shopify"
                  className="rounded-lg border border-slate-300 bg-white px-5 py-3 font-semibold text-slate-800 hover:bg-slate-50"
                >
                  Magento to Shopify
                </Link>
              </div>
              <ul aria-label="Platforms" className="mt-8 flex flex-wrap gap-2">
                {platformNames.map((name) => (
                  <li
                    key={name}
                    className="rounded-full bg-white px-3 py-1 text-sm font-medium text-slate-700 shadow-sm ring-1 ring-slate-200"
                  >
                    {name}
                  </li>
                ))}
              </ul>
            </div>
            <img
              src="/images/blog/cutover.svg"
              alt=""
              width={1200}
              height={630}
              className="hidden w-full rounded-2xl shadow-xl ring-1 ring-slate-200 lg:block"
            />
          </div>
        </section>

        <section id="features" className="scroll-mt-4 bg-white py-16">
          <div className="mx-auto max-w-7xl px-4">
            <h2 className="text-2xl font-semibold text-slate-900">Features</h2>
            <p className="mt-2 text-slate-600">
              Nothing in a migration is simulated: your stores are read and written through their
              official APIs.
            </p>
            <div className="mt-8 grid gap-6 sm:grid-cols-3">
              {features.map(({ icon: Icon, title, text }) => (
                <div key={title} className="rounded-xl border border-slate-200 p-6">
                  <Icon className="text-indigo-600" aria-hidden />
                  <h3 className="mt-3 font-semibold text-slate-900">{title}</h3>
                  <p className="mt-1 text-slate-600">{text}</p>
                </div>
              ))}
            </div>
          </div>
        </section>

        <section id="pricing" className="scroll-mt-4 py-16">
          <div className="mx-auto grid max-w-7xl gap-8 px-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)]">
            <div>
              <h2 className="text-2xl font-semibold text-slate-900">Simple pricing</h2>
              <p className="mt-2 text-slate-600">
                $99 per migration plus $0.01 per record. One free re-migration included.
              </p>
              <ul className="mt-6 space-y-3">
                {included.map((item) => (
                  <li key={item} className="flex items-start gap-2 text-slate-700">
                    <CheckCircle2
                      size={18}
                      aria-hidden
                      className="mt-0.5 shrink-0 text-emerald-600"
                    />
                    {item}
                  </li>
                ))}
              </ul>
              <p className="mt-6 text-sm text-slate-600">
                More than 10,000 records or several stores?{' '}
                <Link to="/enterprise" className="font-semibold text-indigo-700 hover:underline">
                  Request an enterprise quote
                </Link>
                .
              </p>
            </div>
            <Calculator />
          </div>
        </section>

        <section id="testimonials" className="scroll-mt-4 bg-white py-16">
          <div className="mx-auto max-w-7xl px-4">
            <h2 className="text-2xl font-semibold text-slate-900">What store owners say</h2>
            <figure className="mt-6 max-w-3xl rounded-2xl border border-slate-200 bg-slate-50 p-6 sm:p-8">
              <Quote aria-hidden className="text-indigo-400" />
              <blockquote className="mt-3 text-lg text-slate-800">
                “We moved 40,000 orders from Magento to Shopify over a weekend and the report
                matched our books.”
              </blockquote>
            </figure>
          </div>
        </section>

        <section aria-labelledby="questions-title" className="py-16">
          <div className="mx-auto max-w-7xl px-4">
            <h2 id="questions-title" className="text-2xl font-semibold text-slate-900">
              Questions before you start?
            </h2>
            <ul className="mt-6 grid gap-4 sm:grid-cols-3">
              {[
                {
                  to: '/help',
                  icon: LifeBuoy,
                  title: 'Help Center',
                  text: 'Answers about platforms, data, timing, security and pricing.',
                },
                {
                  to: '/contact',
                  icon: MessagesSquare,
                  title: 'Contact us',
                  text: 'Write, call or book a 30-minute video consultation.',
                },
                {
                  to: '/enterprise',
                  icon: Building2,
                  title: 'Enterprise',
                  text: 'A custom quote and plan for large or multi-store migrations.',
                },
              ].map(({ to, icon: Icon, title, text }) => (
                <li key={to}>
                  <Link
                    to={to}
                    className="flex h-full gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm hover:border-indigo-300 hover:shadow"
                  >
                    <Icon aria-hidden className="shrink-0 text-indigo-600" />
                    <span>
                      <span className="block font-semibold text-slate-900">{title}</span>
                      <span className="mt-1 block text-sm text-slate-600">{text}</span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
