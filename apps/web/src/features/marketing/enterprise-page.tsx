import {
  Building2,
  CheckCircle2,
  GitCompareArrows,
  Layers,
  RefreshCw,
  Server,
  ShieldCheck,
} from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import {
  enterpriseQuoteRequestSchema,
  storeSizeLabels,
  storeSizes,
} from '@replatform/contracts/forms';
import { support } from '@replatform/contracts/support';
import {
  BusyButton,
  SelectField,
  TextAreaField,
  TextField,
} from '../../components/form-fields.tsx';
import { SiteFooter } from '../../components/site-footer.tsx';
import { SentPanel } from '../../components/sent-panel.tsx';
import { reasonOf, useSchemaForm } from '../../lib/forms.tsx';
import { requestEnterpriseQuote } from './api/enterprise-api.ts';
import { MarketingHeader } from './marketing-header.tsx';

const benefits = [
  {
    icon: Layers,
    title: 'Built for large catalogues',
    text: 'Batched, rate-aware reads and writes that stay inside each platform’s API limits, with several workers on PostgreSQL when one machine is not enough.',
  },
  {
    icon: RefreshCw,
    title: 'Cut over on your schedule',
    text: 'Migrate weeks ahead while you keep selling, then run again just before the switch to bring over new orders. Nothing is duplicated.',
  },
  {
    icon: GitCompareArrows,
    title: 'Verified record by record',
    text: 'Source and destination are compared after every run, and every record’s outcome is in a downloadable report.',
  },
  {
    icon: ShieldCheck,
    title: 'Credentials kept safe',
    text: 'Store keys are encrypted at rest and never shown again in full. Self-host the service if your data must stay on your servers.',
  },
  {
    icon: Server,
    title: 'Scripted runs',
    text: 'The same engine runs from a command line on a self-hosted installation, for repeated or scheduled migrations.',
  },
  {
    icon: Building2,
    title: 'A plan from a specialist',
    text: 'A solutions architect reviews your stores and prepares the quote and the migration plan with you.',
  },
];

function QuoteForm() {
  const form = useSchemaForm(enterpriseQuoteRequestSchema, {
    name: '',
    email: '',
    storeName: '',
    comments: '',
    website: '',
  });
  const { errors, isSubmitting: busy } = form.formState;
  const [sentTo, setSentTo] = useState<string | null>(null);
  const trapId = useId();

  const submit = form.handleSubmit(async (quote) => {
    try {
      await requestEnterpriseQuote(quote);
      setSentTo(quote.email);
    } catch (error) {
      form.setError('root', {
        message:
          reasonOf(error) ??
          `We could not send your request. Please try again, or e-mail ${support.salesEmail}.`,
      });
    }
  });

  if (sentTo) {
    return (
      <SentPanel title="Thank you!" level="h2" look="plain">
        <p className="mt-2 text-slate-600">
          Your quote request has been received. A solutions architect will reply to{' '}
          <strong className="break-words text-slate-900">{sentTo}</strong> {support.responseTime}{' '}
          during support hours.
        </p>
        <Link
          to="/"
          className="mt-6 inline-flex rounded-lg border border-slate-300 px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50"
        >
          Back to the home page
        </Link>
      </SentPanel>
    );
  }

  return (
    <form id="quote-form" noValidate onSubmit={submit} className="space-y-4">
      <h2 className="text-xl font-semibold text-slate-900">Request a custom quote</h2>
      <div role="alert" aria-live="assertive">
        {errors.root?.message ? (
          <p className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            {errors.root.message}
          </p>
        ) : null}
      </div>
      <TextField
        label="Name"
        autoComplete="name"
        required
        error={errors.name?.message}
        {...form.register('name')}
        disabled={busy}
      />
      <TextField
        label="Work email"
        type="email"
        autoComplete="email"
        required
        error={errors.email?.message}
        {...form.register('email')}
        disabled={busy}
      />
      <TextField
        label="Store name"
        autoComplete="organization"
        required
        error={errors.storeName?.message}
        {...form.register('storeName')}
        disabled={busy}
      />
      <SelectField
        label="Store size (products + customers + orders)"
        required
        error={errors.storeSize?.message}
        {...form.register('storeSize')}
        disabled={busy}
        options={[
          ['', 'Choose a size'],
          ...storeSizes.map((s): [string, string] => [s, storeSizeLabels[s]]),
        ]}
      />
      <TextAreaField
        label="Comments (optional)"
        error={errors.comments?.message}
        {...form.register('comments')}
        hint="Platforms, number of stores, deadlines: anything that shapes the plan."
        disabled={busy}
        maxLength={5000}
      />
      {/* Left empty by people, who never see it; automated submitters fill it in. */}
      <div aria-hidden className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor={trapId}>Website</label>
        <input id={trapId} tabIndex={-1} autoComplete="off" {...form.register('website')} />
      </div>
      <BusyButton busy={busy} disabled={busy}>
        {busy ? 'Sending...' : 'Request a Quote'}
      </BusyButton>
      <p className="text-center text-xs text-slate-500">
        We use these details only to answer your request.
      </p>
    </form>
  );
}

/** /enterprise (spec.md section 2): custom quote request for large stores. */
export function EnterprisePage() {
  return (
    <div className="flex min-h-screen flex-col">
      <MarketingHeader />
      <main className="flex-1">
        <section className="relative overflow-hidden bg-gradient-to-br from-slate-900 via-indigo-950 to-indigo-800 text-white">
          <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:py-20 lg:grid-cols-[minmax(0,1fr)_28rem]">
            <div>
              <p className="text-sm font-semibold tracking-wide text-indigo-300 uppercase">
                Enterprise
              </p>
              <h1 className="mt-3 text-3xl font-bold tracking-tight sm:text-5xl">
                Migrations for large and multi-store businesses
              </h1>
              <p className="mt-4 max-w-xl text-lg text-indigo-100">
                Tens of thousands of products, years of orders, several storefronts: tell us about
                your stores and we prepare a quote and a migration plan with you.
              </p>
              <ul className="mt-8 grid gap-3 text-indigo-50 sm:grid-cols-2">
                {[
                  'Magento 2, Shopify, WooCommerce and BigCommerce',
                  'Your stores keep selling throughout',
                  '30-day money-back guarantee',
                  `Answers ${support.responseTime}`,
                ].map((item) => (
                  <li key={item} className="flex items-start gap-2">
                    <CheckCircle2
                      size={18}
                      aria-hidden
                      className="mt-0.5 shrink-0 text-emerald-400"
                    />
                    {item}
                  </li>
                ))}
              </ul>
            </div>
            <div className="relative rounded-2xl bg-white p-6 text-slate-900 shadow-2xl sm:p-8">
              <QuoteForm />
            </div>
          </div>
        </section>
        <section aria-labelledby="why-title" className="mx-auto max-w-7xl px-4 py-16">
          <h2 id="why-title" className="text-2xl font-semibold text-slate-900 sm:text-3xl">
            What large migrations get
          </h2>
          <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {benefits.map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
                <Icon aria-hidden className="text-indigo-600" />
                <h3 className="mt-3 font-semibold text-slate-900">{title}</h3>
                <p className="mt-1 text-slate-600">{text}</p>
              </li>
            ))}
          </ul>
          <p className="mt-10 text-slate-600">
            Smaller store? Our standard price is shown up front:{' '}
            <Link to="/#pricing" className="font-semibold text-indigo-700 hover:underline">
              see pricing
            </Link>{' '}
            or{' '}
            <Link to="/signup" className="font-semibold text-indigo-700 hover:underline">
              start a migration
            </Link>
            .
          </p>
        </section>
      </main>
      <SiteFooter />
    </div>
  );
}
