import {
  ArrowRight,
  CheckCircle2,
  FolderTree,
  Link2,
  Package,
  ShoppingCart,
  Timer,
  Users,
} from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { formatUsd, priceFor } from '@replatform/contracts/pricing';
import { typicalDurations } from '@replatform/contracts/support';
import { SiteFooter } from '../../components/site-footer.tsx';
import { MarketingHeader } from './marketing-header.tsx';

const mapping = [
  {
    icon: Package,
    from: 'Configurable and simple products',
    to: 'Products with variants',
    text: 'Options such as size and colour keep their values; images, prices, inventory and SEO titles come along.',
  },
  {
    icon: FolderTree,
    from: 'Category tree',
    to: 'Collections',
    text: 'Each category becomes a collection with the same products, its URL key becoming the handle.',
  },
  {
    icon: Link2,
    from: 'Magento URLs',
    to: 'A 301 redirect map',
    text: 'Old product and category paths are paired with their Shopify pages, as a list and as ready-to-paste 301 rules, so links and rankings follow.',
  },
  {
    icon: Users,
    from: 'Customers',
    to: 'Customers',
    text: 'Names, e-mail addresses, phone numbers and addresses. Customers choose a new password on Shopify.',
  },
  {
    icon: ShoppingCart,
    from: 'Orders',
    to: 'Orders',
    text: 'Line items, totals and mapped statuses, imported without notifying your customers.',
  },
];

const steps = [
  'Create an integration in Magento (System > Extensions > Integrations) and enter its four keys.',
  'Enter your your-store.myshopify.com address and install our Shopify app.',
  'Choose products, customers and orders, and see the price for what we counted.',
  'Pay by card and follow the migration live; your Magento store keeps selling.',
  'Review the verification and the per-record report, then switch your domain.',
];

const example = priceFor({ products: 2000, customers: 5000, orders: 8000 });

/** /magento-to-shopify (spec.md section 2): the search landing page for this migration. */
export function MagentoToShopifyPage() {
  useEffect(() => {
    const previous = document.title;
    document.title = 'Magento 2 to Shopify migration — Replatform';
    return () => {
      document.title = previous;
    };
  }, []);

  return (
    <div className="flex min-h-screen flex-col">
      <MarketingHeader />
      <main className="flex-1">
        <section className="bg-gradient-to-br from-orange-50 via-white to-emerald-50">
          <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-14 sm:py-20 lg:grid-cols-[minmax(0,1.2fr)_minmax(0,1fr)]">
            <div>
              <p className="inline-flex items-center gap-2 rounded-full bg-white px-3 py-1 text-sm font-medium text-slate-700 shadow-sm ring-1 ring-slate-200">
                <span className="h-2 w-2 rounded-full bg-orange-500" aria-hidden />
                Magento 2
                <ArrowRight size={14} aria-hidden />
                <span className="h-2 w-2 rounded-full bg-emerald-500" aria-hidden />
                Shopify
              </p>
              <h1 className="mt-5 max-w-3xl text-3xl font-bold tracking-tight text-slate-900 sm:text-5xl">
                Migrate from Magento 2 to Shopify without losing a record
              </h1>
              <p className="mt-4 max-w-2xl text-lg text-slate-600">
                Products and variants, categories, customers and orders move to Shopify through both
                platforms’ official APIs, while your Magento store keeps taking orders. Every record
                is checked afterwards.
              </p>
              <div className="mt-8 flex flex-wrap gap-3">
                <Link
                  to="/login"
                  className="inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-5 py-3 font-semibold text-white shadow-sm hover:bg-indigo-700"
                >
                  Get Started <ArrowRight size={18} aria-hidden />
                </Link>
                <Link
                  to="/blog/3"
                  className="rounded-lg border border-slate-300 bg-white px-5 py-3 font-semibold text-slate-800 hover:bg-slate-50"
                >
                  Read the comparison
                </Link>
              </div>
            </div>
            <img
              src="/images/blog/magento-shopify.svg"
              alt=""
              width={1200}
              height={630}
              className="hidden w-full rounded-2xl shadow-xl ring-1 ring-slate-200 lg:block"
            />
          </div>
        </section>

        <section aria-labelledby="mapping-title" className="mx-auto max-w-7xl px-4 py-16">
          <h2 id="mapping-title" className="text-2xl font-semibold text-slate-900 sm:text-3xl">
            What moves, and where it lands
          </h2>
          <ul className="mt-8 grid gap-5 md:grid-cols-2 lg:grid-cols-3">
            {mapping.map(({ icon: Icon, from, to, text }) => (
              <li key={from} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
                <Icon aria-hidden className="text-indigo-600" />
                <h3 className="mt-3 flex flex-wrap items-center gap-x-2 font-semibold text-slate-900">
                  <span>{from}</span>
                  <ArrowRight size={16} aria-hidden className="text-slate-400" />
                  <span className="sr-only">becomes</span>
                  <span>{to}</span>
                </h3>
                <p className="mt-2 text-slate-600">{text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="how-title" className="bg-white py-16">
          <div className="mx-auto grid max-w-7xl gap-10 px-4 lg:grid-cols-2">
            <div>
              <h2 id="how-title" className="text-2xl font-semibold text-slate-900 sm:text-3xl">
                How it works
              </h2>
              <ol className="mt-6 space-y-4">
                {steps.map((step, i) => (
                  <li key={step} className="flex gap-4">
                    <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-sm font-bold text-white">
                      {i + 1}
                    </span>
                    <p className="pt-1 text-slate-700">{step}</p>
                  </li>
                ))}
              </ol>
            </div>
            <div className="space-y-6">
              <div className="rounded-2xl border border-slate-200 bg-slate-50 p-6">
                <h3 className="flex items-center gap-2 font-semibold text-slate-900">
                  <Timer size={18} aria-hidden className="text-indigo-600" /> How long it takes
                </h3>
                <dl className="mt-4 divide-y divide-slate-200">
                  {typicalDurations.map((d) => (
                    <div key={d.size} className="flex justify-between gap-4 py-2 text-sm">
                      <dt className="text-slate-600">{d.size}</dt>
                      <dd className="font-semibold text-slate-900">{d.duration}</dd>
                    </div>
                  ))}
                </dl>
              </div>
              <div className="rounded-2xl border border-indigo-100 bg-indigo-50 p-6">
                <h3 className="font-semibold text-slate-900">What it costs</h3>
                <p className="mt-2 text-slate-700">
                  $99 plus $0.01 per record. A store with 2,000 products, 5,000 customers and 8,000
                  orders ({example.records.toLocaleString('en-US')} records) pays{' '}
                  <strong>{formatUsd(example.totalCents)}</strong>, with a 30-day money-back
                  guarantee.
                </p>
              </div>
            </div>
          </div>
        </section>

        <section className="mx-auto max-w-7xl px-4 py-16 text-center">
          <h2 className="text-2xl font-semibold text-slate-900 sm:text-3xl">
            Ready to move to Shopify?
          </h2>
          <ul className="mx-auto mt-6 flex max-w-3xl flex-wrap justify-center gap-x-6 gap-y-2 text-slate-700">
            {['No downtime', 'No duplicates on re-runs', 'First re-migration free'].map((t) => (
              <li key={t} className="flex items-center gap-2">
                <CheckCircle2 size={18} aria-hidden className="text-emerald-600" /> {t}
              </li>
            ))}
          </ul>
          <Link
            to="/login"
            className="mt-8 inline-flex items-center gap-2 rounded-lg bg-indigo-600 px-6 py-3 font-semibold text-white shadow-sm hover:bg-indigo-700"
          >
            Get Started <ArrowRight size={18} aria-hidden />
          </Link>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
