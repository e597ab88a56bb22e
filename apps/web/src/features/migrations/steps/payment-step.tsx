import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, CreditCard, Download, Info, Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { dataTypeLabels, dataTypeNames, type Migration } from '@replatform/contracts/migration';
import {
  checkoutSessionResponseSchema,
  demoCountries,
  demoPaymentRequestSchema,
  paymentRecordedResponseSchema,
  paymentSummarySchema,
  paymentsConfigSchema,
  receiptResponseSchema,
  type DemoPaymentRequest,
  type PaymentsConfig,
} from '@replatform/contracts/payments';
import { formatUsd, PER_RECORD_CENTS, TAX_RATE_LABEL } from '@replatform/contracts/pricing';
import { TextField } from '../../../components/form-fields.tsx';
import { apiRequest, ApiRequestError } from '../../../lib/api-client.ts';
import { formatCount, formatCountry } from '../../../lib/format.ts';
import { useSchemaForm } from '../../../lib/forms.tsx';
import { openInNewTab } from '../../../lib/open-in-new-tab.ts';
import { notificationsQueryKey } from '../../../lib/query-keys.ts';
import { useSession } from '../../session/api/get-session.ts';
import { MappingsList } from '../components/mappings-list.tsx';
import { OptionsList } from '../components/options-list.tsx';
import { migrationKeys, useStartMigration } from '../api/migrations-api.ts';

const included = [
  'Complete data migration',
  'Real-time progress tracking',
  '24/7 expert support',
  'Data integrity guarantee',
  '30-day money-back guarantee',
];

/** Why payments here are simulated: no Stripe on this server, or a demo account / sandbox stores. */
function demoNotice(mode: PaymentsConfig['mode']): string {
  return mode === 'demo'
    ? 'Demo mode: Stripe is not configured on this server, so payments are simulated and no card is charged. Use any test details.'
    : 'Demo mode: this is a demo account or a migration between sandbox stores, so this payment is simulated and no card is charged. Use any test details.';
}

function DemoCardForm({
  migrationId,
  email,
  mode,
  onPaid,
}: {
  migrationId: string;
  /** The signed-in account's address, which the owner may change for the receipt. */
  email: string;
  mode: PaymentsConfig['mode'];
  onPaid: () => void;
}) {
  // The browser checks the required fields first; the schema the server checks the payment with
  // then has the last word (card number, expiry and security code formats).
  const form = useSchemaForm(demoPaymentRequestSchema, {
    method: 'card',
    migrationId,
    cardNumber: '4242 4242 4242 4242',
    expiry: '12/30',
    cvc: '123',
    cardholderName: '',
    email,
    address: '',
    city: '',
    zip: '',
    country: 'US',
  });
  const errors: Partial<Record<string, { message?: string | undefined }>> = form.formState.errors;
  const method = useWatch({ control: form.control, name: 'method' });
  const pay = useMutation({
    mutationFn: (body: DemoPaymentRequest) =>
      apiRequest('/api/payments/demo', paymentRecordedResponseSchema, { method: 'POST', body }),
    onSuccess: onPaid,
  });
  const field = (name: 'cardNumber' | 'expiry' | 'cvc' | 'cardholderName' | 'email') => ({
    ...form.register(name),
    error: errors[name]?.message,
  });
  return (
    <form
      onSubmit={form.handleSubmit((body) => pay.mutate(body))}
      className="mt-6 space-y-4"
      aria-label="Demo payment"
    >
      <p className="rounded-md bg-amber-50 p-3 text-sm text-amber-900">{demoNotice(mode)}</p>
      <fieldset className="flex gap-4 text-sm">
        <legend className="sr-only">Payment method</legend>
        <label className="flex items-center gap-2">
          <input type="radio" value="card" {...form.register('method')} /> Card
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" value="paypal" {...form.register('method')} /> PayPal
        </label>
      </fieldset>
      {method === 'card' ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <TextField
              label="Card number"
              inputMode="numeric"
              autoComplete="cc-number"
              required
              {...field('cardNumber')}
            />
          </div>
          <TextField
            label="Expiry (MM/YY)"
            placeholder="MM/YY"
            pattern="\d{2}/\d{2}"
            autoComplete="cc-exp"
            required
            {...field('expiry')}
          />
          <TextField
            label="CVC"
            inputMode="numeric"
            pattern="\d{3,4}"
            autoComplete="cc-csc"
            required
            {...field('cvc')}
          />
          <TextField
            label="Cardholder name"
            autoComplete="cc-name"
            required
            {...field('cardholderName')}
          />
          <TextField label="Email" type="email" autoComplete="email" required {...field('email')} />
          <div className="sm:col-span-2">
            <TextField
              label="Address"
              autoComplete="street-address"
              required
              {...form.register('address')}
            />
          </div>
          <TextField
            label="City"
            autoComplete="address-level2"
            required
            {...form.register('city')}
          />
          <TextField label="ZIP" autoComplete="postal-code" required {...form.register('zip')} />
          <div>
            <label htmlFor="card-country" className="block text-sm font-medium text-slate-700">
              Country
            </label>
            <select
              id="card-country"
              className="mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2"
              {...form.register('country')}
            >
              {demoCountries.map((c) => (
                <option key={c} value={c}>
                  {formatCountry(c)}
                </option>
              ))}
            </select>
          </div>
        </div>
      ) : (
        <div className="space-y-3">
          <p className="text-sm text-slate-600">You will confirm a simulated PayPal payment.</p>
          <TextField
            label="PayPal email"
            type="email"
            autoComplete="email"
            required
            {...field('email')}
          />
        </div>
      )}
      {pay.isError ? (
        <p role="alert" className="text-red-700">
          {pay.error instanceof ApiRequestError && pay.error.status < 500
            ? pay.error.message
            : 'Failed to record payment status. Please contact support.'}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pay.isPending}
        className="inline-flex items-center gap-2 rounded-md bg-indigo-600 px-5 py-2.5 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
      >
        {pay.isPending ? (
          <Loader2 className="animate-spin" size={18} aria-hidden />
        ) : (
          <CreditCard size={18} aria-hidden />
        )}
        {pay.isPending ? 'Processing payment...' : 'Pay now (demo)'}
      </button>
    </form>
  );
}

const INITIATE_FAILED = 'Failed to initiate payment. Please try again.';
const RECORD_FAILED = 'Failed to record payment status. Please contact support.';

/**
 * The server's own reason, when it tells the owner something the fixed text does not (already
 * paid, still processing, Stripe not configured); never for unexpected server errors.
 */
function serverReason(error: unknown, shown: string): string | undefined {
  if (!(error instanceof ApiRequestError) || error.code === 'http_error') return undefined;
  if (error.status >= 500 && error.status !== 503) return undefined;
  return error.message && error.message !== shown ? error.message : undefined;
}

function Problem({ text, reason }: { text: string; reason?: string | undefined }) {
  return (
    <div role="alert" className="mb-3 text-red-700">
      <p className="font-medium">{text}</p>
      {reason ? <p className="mt-1 text-sm">{reason}</p> : null}
    </div>
  );
}

/**
 * Step 3: order summary from real counts, price from the shared rule, Stripe Checkout or demo
 * payment. `reason` says why the owner was sent here (a top-up, a paid re-migration).
 */
export function PaymentStep({
  migration,
  reason,
  onStarted,
}: {
  migration: Migration;
  reason?: string;
  /** The run started: the page shows the Migrate step. */
  onStarted?: () => void;
}) {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const paid = migration.paymentInfo?.paymentStatus === 'paid';
  const summary = useQuery({
    queryKey: ['payments', 'summary', migration.id],
    queryFn: () =>
      apiRequest('/api/payments/summary', paymentSummarySchema, {
        query: { migrationId: migration.id },
      }),
  });
  const session = useSession();
  const config = useQuery({
    queryKey: ['payments', 'config', migration.id],
    queryFn: () =>
      apiRequest('/api/payments/config', paymentsConfigSchema, {
        query: { migrationId: migration.id },
      }),
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: migrationKeys.one(migration.id) });
    void queryClient.invalidateQueries({ queryKey: ['payments', 'summary', migration.id] });
    // The payment raised a notification on the server: show it in the bell now.
    void queryClient.invalidateQueries({ queryKey: notificationsQueryKey });
  };

  const checkout = useMutation({
    mutationFn: () =>
      apiRequest('/api/stripe/create-checkout-session', checkoutSessionResponseSchema, {
        method: 'POST',
        body: { migrationId: migration.id },
      }),
    onSuccess: (answer) => window.location.assign(answer.url),
    onError: (error) => {
      // Paid meanwhile (another tab, or the webhook was faster): show the paid state.
      if (error instanceof ApiRequestError && error.code === 'already_paid') refresh();
    },
  });
  const recordReturn = useMutation({
    mutationFn: (sessionId: string) =>
      apiRequest('/api/stripe/payment-success', paymentRecordedResponseSchema, {
        method: 'POST',
        body: { migrationId: migration.id, sessionId },
      }),
    onSuccess: refresh,
    onSettled: () => setParams({}, { replace: true }),
  });
  const start = useStartMigration(migration.id);
  const receipt = useMutation({
    mutationFn: () =>
      openInNewTab(
        async () =>
          (
            await apiRequest(
              `/api/stripe/receipt/${encodeURIComponent(migration.id)}`,
              receiptResponseSchema,
            )
          ).receiptUrl,
      ),
  });

  // Back from Stripe Checkout with ?payment=success&session_id=…: record it once.
  const returned = useRef(false);
  const sessionId = params.get('session_id');
  useEffect(() => {
    if (returned.current || params.get('payment') !== 'success' || !sessionId) return;
    returned.current = true;
    recordReturn.mutate(sessionId);
  }, [params, sessionId, recordReturn]);

  // Back from Stripe Checkout with ?payment=cancelled: say so once, and keep the address clean.
  const [cancelled, setCancelled] = useState(false);
  useEffect(() => {
    if (params.get('payment') !== 'cancelled') return;
    setCancelled(true);
    setParams({}, { replace: true });
  }, [params, setParams]);

  // Something is still to be paid (a top-up, a paid re-migration) once the server says so; until
  // it answers, a paid migration shows as paid unless the owner was sent here to pay.
  const owing = summary.data ? summary.data.kind !== 'none' : false;
  const showPaid = paid && !owing && !(reason && summary.isPending);

  const reasonNote = reason ? (
    <p className="mb-4 flex items-start gap-2 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
      <Info size={16} className="mt-0.5 shrink-0" aria-hidden /> {reason}
    </p>
  ) : null;

  if (showPaid) {
    return (
      <section
        aria-labelledby="paid-title"
        className="rounded-xl border border-emerald-200 bg-emerald-50 p-6"
      >
        {reasonNote}
        <CheckCircle2 className="text-emerald-600" size={40} aria-hidden />
        <h2 id="paid-title" className="mt-3 text-2xl font-semibold text-emerald-900">
          Payment Successful!
        </h2>
        <p className="mt-1 text-emerald-900">
          {formatUsd(migration.paymentInfo?.amount ?? 0)} paid
          {migration.paymentInfo?.demo ? ' (demo payment)' : ''}.{' '}
          {migration.status === 'completed'
            ? 'This migration has completed; starting it again copies only new or changed records.'
            : 'Your migration is ready to start.'}
        </p>
        {start.isError || receipt.isError ? (
          <p role="alert" className="mt-3 text-red-700">
            {start.isError
              ? start.error.message
              : 'Receipt not yet available. Please try again in a few minutes.'}
          </p>
        ) : null}
        <div className="mt-5 flex flex-wrap gap-3">
          <button
            type="button"
            onClick={() =>
              start.mutate(undefined, {
                onSuccess: () => onStarted?.(),
                onError: (error) => {
                  if (error instanceof ApiRequestError && error.status === 402) refresh();
                },
              })
            }
            disabled={start.isPending}
            className="rounded-md bg-emerald-600 px-5 py-2.5 font-medium text-white hover:bg-emerald-700 disabled:opacity-50"
          >
            {start.isPending ? 'Starting...' : 'Start Migration'}
          </button>
          <button
            type="button"
            onClick={() => receipt.mutate()}
            disabled={receipt.isPending}
            className="inline-flex items-center gap-1 rounded-md border border-emerald-300 bg-white px-4 py-2.5 font-medium text-emerald-800"
          >
            <Download size={16} aria-hidden />{' '}
            {receipt.isPending ? 'Loading...' : 'Download Receipt'}
          </button>
        </div>
      </section>
    );
  }

  if (summary.isPending || config.isPending || recordReturn.isPending) {
    return (
      <p role="status" className="rounded-xl border border-slate-200 bg-white p-6 text-slate-600">
        Loading payment details...
      </p>
    );
  }
  if (summary.isError || config.isError || recordReturn.isError) {
    const error = recordReturn.error ?? summary.error ?? config.error;
    const title = recordReturn.isError ? RECORD_FAILED : 'Payment details could not be loaded.';
    const why = serverReason(error, title);
    return (
      <section role="alert" className="rounded-xl border border-red-200 bg-red-50 p-6 text-red-800">
        <h2 className="font-semibold">{title}</h2>
        {why ? <p className="mt-1">{why}</p> : null}
        <p className="mt-1">Please try refreshing the page or contact support.</p>
        {recordReturn.isError ? null : (
          <button
            type="button"
            onClick={() => {
              if (summary.isError) void summary.refetch();
              if (config.isError) void config.refetch();
            }}
            className="mt-4 inline-flex items-center gap-2 rounded-md border border-red-300 bg-white px-4 py-2 font-medium text-red-800 hover:bg-red-100"
          >
            Load payment details again
          </button>
        )}
      </section>
    );
  }

  const sum = summary.data;
  const c = sum.counts;
  const due = sum.kind;
  return (
    <section
      aria-labelledby="payment-title"
      className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      {reasonNote}
      {cancelled ? (
        <p
          role="status"
          className="mb-4 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700"
        >
          Payment cancelled. You have not been charged; you can pay whenever you are ready.
        </p>
      ) : null}
      <h2 id="payment-title" className="text-xl font-semibold">
        Payment
      </h2>
      <div className="mt-5 grid gap-6 lg:grid-cols-2">
        <div>
          <h3 className="font-medium">Order summary</h3>
          <dl className="mt-2 space-y-1 text-sm">
            {dataTypeNames
              .filter((t) => migration.dataTypes[t])
              .map((t) => (
                <div key={t} className="flex justify-between">
                  <dt className="text-slate-600">{dataTypeLabels[t]}</dt>
                  <dd className="tabular-nums">{formatCount(c[t] ?? 0)}</dd>
                </div>
              ))}
          </dl>
          <h3 className="mt-5 font-medium">Mappings</h3>
          <MappingsList mappings={migration.fieldMappings} />
          <h3 className="mt-5 font-medium">Options</h3>
          <OptionsList options={migration.migrationOptions} />
          <h3 className="mt-5 font-medium">Pricing breakdown</h3>
          <dl className="mt-2 space-y-1 text-sm">
            <div className="flex justify-between gap-2">
              <dt className="text-slate-600">Base fee</dt>
              <dd>{formatUsd(sum.baseCents)}</dd>
            </div>
            <div className="flex justify-between gap-2">
              <dt className="text-slate-600">
                {formatCount(sum.recordsDue)} records × {formatUsd(PER_RECORD_CENTS)}
              </dt>
              <dd>{formatUsd(sum.volumeCents)}</dd>
            </div>
            <div className="flex justify-between gap-2">
              <dt className="text-slate-600">Tax ({TAX_RATE_LABEL})</dt>
              <dd>{formatUsd(sum.taxCents)}</dd>
            </div>
            <div className="flex justify-between gap-2 border-t border-slate-200 pt-2 text-base font-semibold">
              <dt>Total</dt>
              <dd>{formatUsd(sum.amountDueCents)}</dd>
            </div>
          </dl>
        </div>
        <div>
          <h3 className="font-medium">What's Included</h3>
          <ul className="mt-2 space-y-1 text-sm text-slate-700">
            {included.map((item) => (
              <li key={item} className="flex items-center gap-2">
                <CheckCircle2 size={16} className="text-emerald-600" aria-hidden /> {item}
              </li>
            ))}
          </ul>
        </div>
      </div>
      {due === 'top_up' ? (
        <p className="mt-6 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          Your source store has grown since you paid: {formatCount(sum.records - sum.paidRecords)}{' '}
          more records need to be paid for before they can be migrated. You pay only the difference.
        </p>
      ) : null}
      {due === 'remigration' ? (
        <p className="mt-6 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
          This migration's free re-migration has been used, so running it again is paid for here
          first. Records already at the destination are updated, never duplicated.
        </p>
      ) : null}
      {config.data.demoPaymentsAllowed ? (
        <DemoCardForm
          migrationId={migration.id}
          email={session.data?.user.email ?? migration.email}
          mode={config.data.mode}
          onPaid={refresh}
        />
      ) : null}
      {config.data.mode === 'demo' ? null : (
        <div className="mt-6">
          {checkout.isError ? (
            <Problem
              text={INITIATE_FAILED}
              reason={serverReason(checkout.error, INITIATE_FAILED)}
            />
          ) : null}
          <button
            type="button"
            onClick={() => checkout.mutate()}
            disabled={checkout.isPending}
            className="rounded-md bg-indigo-600 px-5 py-2.5 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
          >
            {checkout.isPending ? 'Redirecting to Checkout...' : 'Checkout with Stripe'}
          </button>
        </div>
      )}
    </section>
  );
}
