import { useEffect } from 'react';
import {
  currencyMappingSchema,
  valueListTexts,
  type CurrencyMapping,
  type MappingChoices,
  type ValueChoices,
  type ValueListName,
  type ValueMap,
} from '@replatform/contracts/value-mappings';
import { useMappingChoices } from '../api/migrations-api.ts';

/** The panel's customer-group, tax-class and currency choices, as the migration stores them. */
export interface ValueMaps {
  customerGroups: ValueMap;
  taxClasses: ValueMap;
  currency?: CurrencyMapping | undefined;
}

export function initialValueMaps(stored: Partial<ValueMaps> | undefined): ValueMaps {
  return {
    customerGroups: { ...stored?.customerGroups },
    taxClasses: { ...stored?.taxClasses },
    ...(stored?.currency ? { currency: stored.currency } : {}),
  };
}

/**
 * The choices with what the stores list now: a value per source value (the owner's, else the
 * proposal), nothing for a list the pair cannot map, and a currency choice only while the two
 * stores sell in different currencies (keeping orders in their own currency until the owner
 * says otherwise).
 */
export function withChoices(value: ValueMaps, choices: MappingChoices): ValueMaps {
  const list = (name: ValueListName): ValueMap => {
    const offered = choices[name];
    if (offered.unavailable || !offered.source) return {};
    return Object.fromEntries(
      offered.source.map(({ value: from }) => [
        from,
        value[name][from] ?? offered.defaults[from] ?? from,
      ]),
    );
  };
  const { source, destination } = choices.currency;
  const differ = source !== null && destination !== null && source !== destination;
  const kept =
    value.currency?.from === source && value.currency.to === destination
      ? value.currency
      : undefined;
  return {
    customerGroups: list('customerGroups'),
    taxClasses: list('taxClasses'),
    ...(differ && source && destination
      ? { currency: kept ?? { from: source, to: destination, mode: 'keep' } }
      : {}),
  };
}

/** What stops the choices from being saved, in the owner's words, or null. */
export function valueMapsProblem(value: ValueMaps): string | null {
  if (!value.currency) return null;
  const parsed = currencyMappingSchema.safeParse(value.currency);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Check the currency choice.');
}

const rowTexts: Record<ValueListName, { intro: string; row: (label: string) => string }> = {
  customerGroups: {
    intro: 'Each customer group in your source store, and the group its customers join in',
    row: (label) => `Group “${label}” becomes`,
  },
  taxClasses: {
    intro: 'Each tax class in your source store, and the class its products and order lines get in',
    row: (label) => `Tax class “${label}” becomes`,
  },
};

function ValueList({
  name,
  choices,
  value,
  onChange,
  destinationLabel,
  disabled,
}: {
  name: ValueListName;
  choices: ValueChoices;
  value: ValueMap;
  onChange: (value: ValueMap) => void;
  destinationLabel: string;
  disabled: boolean;
}) {
  const { heading } = valueListTexts[name];
  return (
    <section aria-labelledby={`map-${name}`} className="mt-5">
      <h3 id={`map-${name}`} className="text-sm font-semibold">
        {heading}
      </h3>
      {choices.unavailable || !choices.source || !choices.destination ? (
        <p className="mt-1 text-sm text-slate-600">
          {choices.unavailable ?? 'There is nothing to map.'}
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">
            {rowTexts[name].intro} {destinationLabel}.
            {choices.createsMissing
              ? ` A ${valueListTexts[name].one} it does not have yet can be created there.`
              : ''}
          </p>
          <div className="mt-3 max-w-2xl space-y-3">
            {choices.source.map(({ value: from, label }, index) => {
              const id = `map-${name}-${index}`;
              const to = value[from] ?? choices.defaults[from] ?? '';
              const destination = choices.destination ?? [];
              const known = destination.some((d) => d.value === to);
              // A value the destination creates is named as the owner knows it.
              const created = label || from;
              const canCreate =
                choices.createsMissing &&
                from !== '' &&
                !destination.some((d) => d.value === created);
              return (
                <div
                  key={from}
                  className="grid gap-1 sm:grid-cols-[minmax(0,1fr)_16rem] sm:items-center sm:gap-4"
                >
                  <label htmlFor={id} className="text-sm">
                    {rowTexts[name].row(label)}
                  </label>
                  <select
                    id={id}
                    value={to}
                    disabled={disabled}
                    onChange={(event) => onChange({ ...value, [from]: event.target.value })}
                    className="w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm disabled:bg-slate-100"
                  >
                    {destination.map((d) => (
                      <option key={d.value} value={d.value}>
                        {d.label}
                      </option>
                    ))}
                    {canCreate ? <option value={created}>Create “{created}”</option> : null}
                    {!known && !(canCreate && to === created) ? (
                      <option value={to}>{to === '' ? 'The default' : to}</option>
                    ) : null}
                  </select>
                </div>
              );
            })}
          </div>
        </>
      )}
    </section>
  );
}

function CurrencyChoice({
  value,
  onChange,
  destinationLabel,
  disabled,
}: {
  value: CurrencyMapping;
  onChange: (value: CurrencyMapping) => void;
  destinationLabel: string;
  disabled: boolean;
}) {
  const problem = valueMapsProblem({ customerGroups: {}, taxClasses: {}, currency: value });
  return (
    <fieldset className="mt-5">
      <legend className="text-sm font-semibold">Currency</legend>
      <p className="mt-1 text-sm text-slate-600">
        Your source store sells in {value.from}; {destinationLabel} sells in {value.to}.
      </p>
      <div className="mt-2 space-y-2 text-sm">
        <label className="flex gap-2">
          <input
            type="radio"
            name="currency-mode"
            checked={value.mode === 'keep'}
            disabled={disabled}
            onChange={() => onChange({ from: value.from, to: value.to, mode: 'keep' })}
            className="mt-0.5"
          />
          <span>
            Keep each order in its own currency ({value.from}). Product prices and coupon amounts
            are copied as they are, not converted.
          </span>
        </label>
        <label className="flex gap-2">
          <input
            type="radio"
            name="currency-mode"
            checked={value.mode === 'convert'}
            disabled={disabled}
            onChange={() => onChange({ ...value, mode: 'convert', rate: value.rate ?? '' })}
            className="mt-0.5"
          />
          <span>
            Convert every amount (orders, prices, coupons) to {value.to} at a rate you enter.
          </span>
        </label>
        {value.mode === 'convert' ? (
          <div className="ml-6">
            <label htmlFor="currency-rate" className="block font-medium">
              {value.to} for 1 {value.from}
            </label>
            <input
              id="currency-rate"
              inputMode="decimal"
              autoComplete="off"
              value={value.rate ?? ''}
              disabled={disabled}
              aria-invalid={problem !== null}
              aria-describedby={problem ? 'currency-rate-problem' : undefined}
              onChange={(event) => onChange({ ...value, rate: event.target.value })}
              className="mt-1 w-40 rounded-md border border-slate-300 px-2 py-1.5"
            />
            {problem ? (
              <p id="currency-rate-problem" className="mt-1 text-amber-800">
                {problem}
              </p>
            ) : null}
          </div>
        ) : null}
      </div>
    </fieldset>
  );
}

/**
 * The "Map fields" panel's customer groups, tax classes and currency: what both stores list now,
 * read when the panel opens, with a proposal for each source value the owner can change.
 */
export function ValueMapsPanel({
  migrationId,
  value,
  onChange,
  destinationLabel,
  show,
  disabled,
}: {
  migrationId: string;
  value: ValueMaps;
  onChange: (value: ValueMaps) => void;
  destinationLabel: string;
  show: { customerGroups: boolean; taxClasses: boolean; currency: boolean };
  disabled: boolean;
}) {
  const choices = useMappingChoices(migrationId, true);
  const data = choices.data;
  // Once the stores have answered, every source value has its proposal.
  useEffect(() => {
    if (!data) return;
    const next = withChoices(value, data);
    if (JSON.stringify(next) !== JSON.stringify(value)) onChange(next);
  }, [data, value, onChange]);
  if (!show.customerGroups && !show.taxClasses && !show.currency) return null;
  return (
    <fieldset className="mt-6 rounded-xl border border-slate-200 bg-white p-5">
      <legend className="px-1 font-semibold">
        Map fields: customer groups, tax classes, currency
      </legend>
      {choices.isPending ? (
        <p role="status" className="text-sm text-slate-600">
          Reading the customer groups, tax classes and currencies of your two stores…
        </p>
      ) : choices.isError ? (
        <div role="alert" className="text-sm text-red-700">
          <p>Your stores’ groups and tax classes could not be read: {choices.error.message}</p>
          <button
            type="button"
            onClick={() => void choices.refetch()}
            className="mt-2 rounded-md border border-slate-300 px-3 py-1.5 font-medium text-slate-800 hover:bg-slate-50"
          >
            Read the stores again
          </button>
        </div>
      ) : data ? (
        <>
          {show.customerGroups ? (
            <ValueList
              name="customerGroups"
              choices={data.customerGroups}
              value={value.customerGroups}
              onChange={(customerGroups) => onChange({ ...value, customerGroups })}
              destinationLabel={destinationLabel}
              disabled={disabled}
            />
          ) : null}
          {show.taxClasses ? (
            <ValueList
              name="taxClasses"
              choices={data.taxClasses}
              value={value.taxClasses}
              onChange={(taxClasses) => onChange({ ...value, taxClasses })}
              destinationLabel={destinationLabel}
              disabled={disabled}
            />
          ) : null}
          {show.currency && value.currency ? (
            <CurrencyChoice
              value={value.currency}
              onChange={(currency) => onChange({ ...value, currency })}
              destinationLabel={destinationLabel}
              disabled={disabled}
            />
          ) : show.currency && data.currency.source && data.currency.destination ? (
            <p className="mt-5 text-sm text-slate-600">
              Both stores sell in {data.currency.source}: amounts arrive as they are.
            </p>
          ) : null}
        </>
      ) : null}
    </fieldset>
  );
}
