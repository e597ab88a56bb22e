import { z } from 'zod';

/**
 * The "Map fields" panel's mappings of a store's own values (customer groups, tax classes) and of
 * currencies, besides order statuses (migration.ts). Values are as the canonical model holds them:
 * '' is a store's default customer group or standard tax class.
 */

const storeValueText = z.string().max(200);

/** Each source value to the destination value its records get; a value not named keeps its own. */
export const valueMapSchema = z.record(storeValueText, storeValueText);
export type ValueMap = z.infer<typeof valueMapSchema>;

/** A positive decimal exchange rate as the owner typed it ('1.0825'). */
const rateSchema = z
  .string()
  .trim()
  .regex(/^\d{1,9}(\.\d{1,10})?$/, 'Give the rate as a number, such as 1.08')
  .refine((rate) => Number(rate) > 0, 'The rate must be more than 0');

const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'Give a three-letter currency code');

/**
 * What happens to amounts in the source's currency (`from`) when the destination sells in another
 * (`to`): 'keep' leaves every order in its own currency and copies catalogue prices as they are;
 * 'convert' turns every amount in `from` (orders, prices, coupons) into `to` at `rate` (units of
 * `to` for one unit of `from`).
 */
export const currencyMappingSchema = z
  .strictObject({
    from: currencyCode,
    to: currencyCode,
    mode: z.enum(['keep', 'convert']),
    rate: rateSchema.optional(),
  })
  .refine((c) => c.mode === 'keep' || c.rate !== undefined, {
    message: 'Enter the rate to convert at',
    path: ['rate'],
  })
  .refine((c) => c.from !== c.to, {
    message: 'The two currencies are the same',
    path: ['to'],
  });
export type CurrencyMapping = z.infer<typeof currencyMappingSchema>;

export const storeValueSchema = z.object({ value: z.string(), label: z.string() });
export type StoreValueChoice = z.infer<typeof storeValueSchema>;

/** The two sides of one list of values, as the panel offers it. */
export const valueChoicesSchema = z.object({
  /** The source store's values, or null when it has none to map. */
  source: z.array(storeValueSchema).nullable(),
  /** The destination's values, or null when it keeps none of these. */
  destination: z.array(storeValueSchema).nullable(),
  /** A destination write naming a value it lacks creates it (Magento). */
  createsMissing: z.boolean(),
  /** Why there is nothing to map for this pair, when so. */
  unavailable: z.string().optional(),
  /** Each source value to the destination value proposed for it. */
  defaults: valueMapSchema,
});
export type ValueChoices = z.infer<typeof valueChoicesSchema>;

/** GET /api/migrations/{id}/mapping-choices. */
export const mappingChoicesSchema = z.object({
  customerGroups: valueChoicesSchema,
  taxClasses: valueChoicesSchema,
  currency: z.object({
    /** The stores' own currencies, null when a store does not say. */
    source: z.string().nullable(),
    destination: z.string().nullable(),
  }),
});
export type MappingChoices = z.infer<typeof mappingChoicesSchema>;

export const valueListNames = ['customerGroups', 'taxClasses'] as const;
export type ValueListName = (typeof valueListNames)[number];

export const valueListTexts: Record<
  ValueListName,
  { heading: string; title: string; one: string; none: string }
> = {
  customerGroups: {
    heading: 'Customer groups',
    title: 'customer groups',
    one: 'customer group',
    none: 'the default group',
  },
  taxClasses: {
    heading: 'Tax classes',
    title: 'tax classes',
    one: 'tax class',
    none: 'the standard class',
  },
};

/** Letters and digits only, in lower case: 'Reduced rate', 'reduced-rate' and 'REDUCED_RATE' agree. */
export const plainName = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * The proposal for each source value: the destination value of the same name or value (letters
 * and digits compared, case ignored); else, where the destination creates a value it lacks, a new
 * one of the source's name for it; else the destination's default (''). The default maps to the
 * default.
 */
export function defaultValueMap(
  source: readonly StoreValueChoice[],
  destination: readonly StoreValueChoice[],
  createsMissing: boolean,
): ValueMap {
  const map: ValueMap = {};
  for (const { value, label } of source) {
    if (value === '') {
      map[value] = '';
      continue;
    }
    const keys = new Set([plainName(value), plainName(label)].filter(Boolean));
    const match = destination.find(
      (d) => d.value !== '' && (keys.has(plainName(d.value)) || keys.has(plainName(d.label))),
    );
    map[value] = match ? match.value : createsMissing ? label || value : '';
  }
  return map;
}

/** The changes a value map makes, without the values it keeps. */
export function valueChanges(map: ValueMap | undefined): { from: string; to: string }[] {
  return Object.entries(map ?? {})
    .filter(([from, to]) => from !== to)
    .map(([from, to]) => ({ from, to }));
}

/** A value in words for notes and summaries: '' is the store's default. */
export function valueText(list: ValueListName, value: string): string {
  return value === '' ? valueListTexts[list].none : `'${value}'`;
}

/** The currency choice in one sentence, for the report, the summary and the detail page. */
export function currencyText(currency: CurrencyMapping): string {
  return currency.mode === 'convert'
    ? `Amounts in ${currency.from} converted to ${currency.to} at ${currency.rate} ${currency.to} for 1 ${currency.from}.`
    : `Orders keep their own currency (${currency.from}); the destination sells in ${currency.to}, and prices are copied as they are, not converted.`;
}
