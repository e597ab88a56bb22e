import { ArrowRight, RefreshCw, ShieldCheck, Timer } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { formatUsd, priceFor, wholeCount } from '@replatform/contracts/pricing';
import { Brand } from '../../components/brand.tsx';
import { SiteFooter } from '../../components/site-footer.tsx';

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

function Calculator() {
  const [counts, setCounts] = useState({ products: '1000', customers: '1000', orders: '1000' });
  const price = priceFor({
    products: wholeCount(counts.products),
    customers: wholeCount(counts.customers),
    orders: wholeCount(counts.orders),
  });
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <h3 className="text-lg font-semibold">Cost calculator</h3>
      <div className="mt-4 grid gap-4 sm:grid-cols-3">
        {(['products', 'customers', 'orders'] as const).map((key) => (
          <label
            key={key}
            className="flex flex-col gap-1 text-sm font-medium capitalize text-slate-700"
          >
            {key}
            <input
              type="number"
              min={0}
              step={1}
              inputMode="numeric"
              value={counts[key]}
              onChange={(e) => setCounts({ ...counts, [key]: e.target.value })}
              className="rounded-md border border-slate-300 px-3 py-2 font-normal"
            />
          </label>
        ))}
      </div>
      <p className="mt-4 text-slate-700" aria-live="polite">
        {price.records.toLocaleString('en-US')} records:{' '}
        <strong className="text-2xl">{formatUsd(price.totalCents)}</strong>
      </p>
    </div>
  );
}

export function LandingPage() {
  return (
    <div className="flex min-h-screen flex-col">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl items-center gap-4 px-4 py-3">
          <Brand />
          <nav
            aria-label="Site"
            className="ml-auto flex items-center gap-4 whitespace-nowrap text-sm"
          >
            <a href="#features" className="hidden sm:inline">
              Features
            </a>
            <a href="#pricing" className="hidden sm:inline">
              Pricing
            </a>
            <Link to="/blogs">Blog</Link>
            <Link to="/login">Sign In</Link>
            <Link
              to="/signup"
              className="rounded-md bg-indigo-600 px-3 py-2 font-medium text-white hover:bg-indigo-700"
            >
              Get Started
            </Link>
          </nav>
        </div>
      </header>
      <main className="flex-1">
        <section className="mx-auto max-w-7xl px-4 py-16 sm:py-24">
          <h1 className="max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">
            Move your store to a new platform without losing a single order.
          </h1>
          <p className="mt-4 max-w-2xl text-lg text-slate-600">
            Replatform migrates products, customers and orders between Magento 2, Shopify,
            WooCommerce and BigCommerce, in every direction, and shows you every record's outcome.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link
              to="/signup"
              className="inline-flex items-center gap-2 rounded-md bg-indigo-600 px-5 py-3 font-medium text-white hover:bg-indigo-700"
            >
              Start your migration <ArrowRight size={18} aria-hidden />
            </Link>
            <Link
              to="/magento-to-shopify"
              className="rounded-md border border-slate-300 bg-white px-5 py-3 font-medium"
            >
              Magento to Shopify
            </Link>
          </div>
        </section>
        <section id="features" className="bg-white py-16">
          <div className="mx-auto grid max-w-7xl gap-6 px-4 sm:grid-cols-3">
            <h2 className="sr-only">Features</h2>
            {features.map(({ icon: Icon, title, text }) => (
              <div key={title} className="rounded-xl border border-slate-200 p-6">
                <Icon className="text-indigo-600" aria-hidden />
                <h3 className="mt-3 font-semibold">{title}</h3>
                <p className="mt-1 text-slate-600">{text}</p>
              </div>
            ))}
          </div>
        </section>
        <section id="pricing" className="mx-auto max-w-7xl px-4 py-16">
          <h2 className="text-2xl font-semibold">Simple pricing</h2>
          <p className="mt-2 text-slate-600">
            $99 per migration plus $0.01 per record. One free re-migration included.
          </p>
          <div className="mt-6">
            <Calculator />
          </div>
        </section>
        <section id="testimonials" className="bg-white py-16">
          <div className="mx-auto max-w-7xl px-4">
            <h2 className="text-2xl font-semibold">What store owners say</h2>
            <blockquote className="mt-4 max-w-2xl text-slate-700">
              “We moved 40,000 orders from Magento to Shopify over a weekend and the report matched
              our books.”
            </blockquote>
          </div>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
