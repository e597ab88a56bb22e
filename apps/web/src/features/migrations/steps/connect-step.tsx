import { CheckCircle2, Eye, EyeOff, FlaskConical, PlayCircle } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  platformLabels,
  platforms,
  type Migration,
  type Platform,
} from '@replatform/contracts/migration';
import { Modal } from '../../../components/modal.tsx';
import { ApiRequestError } from '../../../lib/api-client.ts';
import { setMockMode, useMockMode } from '../../mock-mode/mock-mode.ts';
import { useSession } from '../../session/api/get-session.ts';
import {
  useSandboxStore,
  useUpdateMigration,
  useVerifyConnection,
  type VerifyFields,
} from '../api/migrations-api.ts';
import {
  canVerify,
  failureText,
  platformFields,
  shopDomainOf,
  verifyRoute,
  type FieldSpec,
} from './connect-fields.ts';

type Side = 'source' | 'destination';
type Result =
  { tone: 'success'; message: string } | { tone: 'error'; message: string; reason?: string };

function SecretInput({
  spec,
  value,
  onChange,
  disabled,
}: {
  spec: FieldSpec;
  value: string;
  onChange: (v: string) => void;
  disabled: boolean;
}) {
  const id = useId();
  const hintId = useId();
  const [shown, setShown] = useState(false);
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {spec.label}
      </label>
      <div className="mt-1 flex rounded-md border border-slate-300 bg-white focus-within:ring-2 focus-within:ring-indigo-500">
        <input
          id={id}
          type={spec.secret && !shown ? 'password' : 'text'}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          disabled={disabled}
          placeholder={spec.placeholder}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={spec.hint ? hintId : undefined}
          className="min-w-0 flex-1 rounded-md px-3 py-2 outline-none disabled:bg-slate-100"
        />
        {spec.secret ? (
          <button
            type="button"
            onClick={() => setShown(!shown)}
            disabled={disabled}
            aria-label={shown ? `Hide ${spec.label}` : `Show ${spec.label}`}
            className="px-3 text-slate-500 hover:text-slate-800"
          >
            {shown ? <EyeOff size={18} aria-hidden /> : <Eye size={18} aria-hidden />}
          </button>
        ) : null}
      </div>
      {spec.hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {spec.hint}
        </p>
      ) : null}
    </div>
  );
}

function StorePanel({ migration, side }: { migration: Migration; side: Side }) {
  const selectId = useId();
  const platform =
    (side === 'source' ? migration.sourceStore : migration.destinationStore) || undefined;
  const verified = side === 'source' ? migration.sourceVerified : migration.destinationVerified;
  const address = side === 'source' ? migration.sourceStoreUrl : migration.destinationStoreUrl;
  const [values, setValues] = useState<VerifyFields>({});
  const [result, setResult] = useState<Result | null>(null);
  const [tutorial, setTutorial] = useState(false);
  // After a successful verify the form (and the button that opened the dialog) is replaced by the
  // verified summary, so closing the dialog puts focus on this panel's heading instead.
  const heading = useRef<HTMLHeadingElement>(null);
  // After a failed verify the form stays: focus returns to its Verify button to try again.
  const verifyButton = useRef<HTMLButtonElement>(null);
  const update = useUpdateMigration(migration.id);
  const verify = useVerifyConnection(migration.id);
  const title = side === 'source' ? 'Source Store' : 'Destination Store';
  // Mock mode and demo accounts connect to this server's sandbox stores, prefilled.
  const mock = useMockMode();
  const session = useSession();
  const useSandbox = (mock || Boolean(session.data?.user.isDemo)) && !verified;
  const sandboxStore = useSandboxStore(migration.id, platform, side, useSandbox);
  const prefill = sandboxStore.data?.fields;
  useEffect(() => {
    if (prefill) setValues(prefill);
  }, [prefill]);

  const choose = (next: string) => {
    setValues({});
    update.mutate(
      side === 'source'
        ? { sourceStore: next as Platform | '' }
        : { destinationStore: next as Platform | '' },
    );
  };
  const submit = () => {
    if (!platform) return;
    const fields =
      platform === 'shopify'
        ? { ...values, sourceStoreUrl: shopDomainOf(values.sourceStoreUrl ?? '') }
        : values;
    verify.mutate(
      { route: verifyRoute[platform], side, fields },
      {
        onSuccess: (answer) => setResult({ tone: 'success', message: answer.message }),
        onError: (error) =>
          setResult({
            tone: 'error',
            message: failureText(side, platform),
            reason: error instanceof ApiRequestError ? error.message : undefined,
          }),
      },
    );
  };
  const installHref =
    platform === 'shopify' && values.sourceStoreUrl?.trim()
      ? `/api/shopify?${new URLSearchParams({ shop: shopDomainOf(values.sourceStoreUrl), migration_id: migration.id, side })}`
      : undefined;

  return (
    <section
      aria-labelledby={`${selectId}-title`}
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h3
        id={`${selectId}-title`}
        ref={heading}
        tabIndex={-1}
        className="font-semibold outline-none"
      >
        {title}
      </h3>
      <label htmlFor={selectId} className="mt-3 block text-sm font-medium text-slate-700">
        {side === 'source' ? 'Source platform' : 'Destination platform'}
      </label>
      <select
        id={selectId}
        value={platform ?? ''}
        disabled={verified || update.isPending}
        onChange={(e) => choose(e.target.value)}
        className="mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2 disabled:bg-slate-100"
      >
        <option value="">Select a platform</option>
        {platforms.map((p) => (
          <option key={p} value={p}>
            {platformLabels[p]}
          </option>
        ))}
      </select>

      {platform && verified ? (
        <div className="mt-4 rounded-lg bg-emerald-50 p-4 text-sm text-emerald-800">
          <p className="flex items-center gap-2 font-medium">
            <CheckCircle2 size={18} aria-hidden /> Verified
          </p>
          <p className="mt-1 break-all">{address}</p>
          <button
            type="button"
            onClick={() => choose('')}
            className="mt-2 text-emerald-900 underline"
          >
            Connect a different store
          </button>
        </div>
      ) : platform ? (
        <form
          aria-label={`${title} connection`}
          className="mt-4 space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          {prefill ? (
            <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
              Mock mode: a sandbox store is filled in for you.
            </p>
          ) : null}
          {platform === 'shopify' ? (
            <>
              <SecretInput
                spec={{
                  name: 'sourceStoreUrl',
                  label: 'Store URL',
                  placeholder: 'your-store.myshopify.com',
                }}
                value={values.sourceStoreUrl ?? ''}
                onChange={(v) => setValues({ ...values, sourceStoreUrl: v })}
                disabled={verify.isPending}
              />
              <a
                href={installHref}
                aria-disabled={!installHref}
                onClick={(e) => {
                  if (!installHref) e.preventDefault();
                }}
                className={`inline-flex w-full justify-center rounded-md px-4 py-2 font-medium text-white ${installHref ? 'bg-emerald-600 hover:bg-emerald-700' : 'cursor-not-allowed bg-emerald-600/50'}`}
              >
                Install Shopify App
              </a>
              <details className="text-sm">
                <summary className="cursor-pointer text-slate-600">
                  Or use a custom app's Admin API access token
                </summary>
                <div className="mt-3 space-y-3">
                  <SecretInput
                    spec={{
                      name: 'accessToken',
                      label: 'Admin API Access Token',
                      secret: true,
                      placeholder: 'shpat_…',
                    }}
                    value={values.accessToken ?? ''}
                    onChange={(v) => setValues({ ...values, accessToken: v })}
                    disabled={verify.isPending}
                  />
                  <button
                    ref={verifyButton}
                    type="submit"
                    disabled={!canVerify(platform, values) || verify.isPending}
                    className="w-full rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
                  >
                    {verify.isPending ? 'Verifying...' : 'Verify Connection'}
                  </button>
                </div>
              </details>
            </>
          ) : (
            <>
              {platformFields[platform].map((spec) => (
                <SecretInput
                  key={spec.name}
                  spec={spec}
                  value={values[spec.name] ?? ''}
                  onChange={(v) => setValues({ ...values, [spec.name]: v })}
                  disabled={verify.isPending}
                />
              ))}
              <div className="flex flex-wrap gap-2">
                <button
                  ref={verifyButton}
                  type="submit"
                  disabled={!canVerify(platform, values) || verify.isPending}
                  className="flex-1 rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700 disabled:opacity-50"
                >
                  {verify.isPending
                    ? 'Verifying...'
                    : platform === 'bigcommerce'
                      ? 'Verify'
                      : 'Verify Connection'}
                </button>
                {platform === 'magento2' ? (
                  <button
                    type="button"
                    onClick={() => setTutorial(true)}
                    className="inline-flex items-center gap-1 rounded-md border border-slate-300 px-3 py-2 text-sm"
                  >
                    <PlayCircle size={16} aria-hidden /> Tutorial
                  </button>
                ) : null}
              </div>
            </>
          )}
        </form>
      ) : null}

      {result ? (
        <Modal
          title={result.tone === 'success' ? 'Success' : 'Connection Failed'}
          tone={result.tone}
          onClose={() => setResult(null)}
          returnFocusTo={result.tone === 'success' ? heading : verifyButton}
        >
          <p>{result.message}</p>
          {result.tone === 'error' && result.reason ? (
            <p className="mt-2 text-sm text-slate-500">{result.reason}</p>
          ) : null}
          <button
            type="button"
            data-autofocus
            onClick={() => setResult(null)}
            className={`mt-5 w-full rounded-md px-4 py-2 font-medium text-white ${result.tone === 'success' ? 'bg-emerald-600 hover:bg-emerald-700' : 'bg-red-600 hover:bg-red-700'}`}
          >
            {result.tone === 'success' ? 'Awesome!' : 'Got it'}
          </button>
        </Modal>
      ) : null}
      {tutorial ? (
        <Modal title="Connect Magento 2" onClose={() => setTutorial(false)} returnFocusTo={heading}>
          <div className="flex aspect-video items-center justify-center rounded-lg bg-slate-900 text-slate-300">
            <PlayCircle size={48} aria-hidden />
            <span className="sr-only">Video tutorial</span>
          </div>
          <ol className="mt-4 list-decimal space-y-1 pl-5 text-sm">
            <li>
              In the Magento admin, go to System › Extensions › Integrations and add a new
              integration.
            </li>
            <li>Under API, grant access to Catalog, Customers and Sales resources, then save.</li>
            <li>Activate the integration and copy the four credentials it shows into this form.</li>
          </ol>
        </Modal>
      ) : null}
    </section>
  );
}

/**
 * Step 1: both stores, each verified against the real platform; the page's Next Step moves on
 * once both are. Back from the Shopify app install, the same Success dialog as a verify shows,
 * and the marker the install left in the address is removed so a reload does not show it again.
 */
export function ConnectStep({ migration }: { migration: Migration }) {
  const mock = useMockMode();
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const [installed, setInstalled] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const returned = params.get('shopify') === 'connected';
  useEffect(() => {
    if (!returned) return;
    setInstalled(true);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('shopify');
        return next;
      },
      { replace: true },
    );
  }, [returned, setParams]);
  const sandboxOffer = !mock && !session.data?.user.isDemo;
  return (
    <section aria-labelledby="connect-title">
      <h2
        id="connect-title"
        ref={heading}
        tabIndex={-1}
        className="text-xl font-semibold outline-none"
      >
        Connect Stores
      </h2>
      <p className="mt-1 text-slate-600">
        Link your source and destination stores. Credentials are encrypted and never shown again.
      </p>
      {sandboxOffer ? (
        <div className="mt-4 flex flex-wrap items-center gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <FlaskConical size={18} aria-hidden className="shrink-0" />
          <p className="min-w-0 flex-1">
            Just trying it out? Every platform has a built-in sandbox store with sample products,
            customers and orders. Switch on mock mode (the flask in the top bar) and pick any
            platform: its sandbox store is filled in, ready to verify. Migrations between sandbox
            stores are free.
          </p>
          <button
            type="button"
            onClick={() => setMockMode(true)}
            className="rounded-md border border-amber-300 bg-white px-3 py-1.5 font-medium hover:bg-amber-100"
          >
            Use sandbox stores
          </button>
        </div>
      ) : null}
      <div className="mt-5 grid gap-4 lg:grid-cols-2">
        <StorePanel migration={migration} side="source" />
        <StorePanel migration={migration} side="destination" />
      </div>
      {installed ? (
        <Modal
          title="Success"
          tone="success"
          onClose={() => setInstalled(false)}
          returnFocusTo={heading}
        >
          <p>Shopify store connected successfully!</p>
          <button
            type="button"
            data-autofocus
            onClick={() => setInstalled(false)}
            className="mt-5 w-full rounded-md bg-emerald-600 px-4 py-2 font-medium text-white hover:bg-emerald-700"
          >
            Awesome!
          </button>
        </Modal>
      ) : null}
    </section>
  );
}
