import type { MetafieldOwnerType, MetafieldRec, ShopStore } from './store.ts';

/**
 * Validation of metafield inputs shared by productSet, collectionCreate, customerCreate,
 * orderCreate and metafieldsSet: namespace/key format, a known type (or the definition's), a
 * value valid for the type and within its size limit, and the unique-values capability of custom
 * ids.
 */

export interface MetafieldInputValue {
  namespace?: string | null;
  key?: string | null;
  type?: string | null;
  value?: string | null;
}

export type MetafieldProblemCode =
  | 'BLANK'
  | 'INVALID'
  | 'INVALID_TYPE'
  | 'INVALID_VALUE'
  | 'TOO_SHORT'
  | 'TOO_LONG'
  | 'TAKEN'
  | 'CAPABILITY_VIOLATION';

export interface MetafieldProblem {
  index: number;
  field: string;
  code: MetafieldProblemCode;
  message: string;
}

/** Metafield types this emulator accepts (a subset of Shopify's list, all the text-like ones). */
export const metafieldTypes = new Set([
  'single_line_text_field',
  'multi_line_text_field',
  'rich_text_field',
  'number_integer',
  'number_decimal',
  'boolean',
  'json',
  'url',
  'date',
  'date_time',
  'color',
  'rating',
  'list.single_line_text_field',
]);

/**
 * Largest value a metafield write may hold, in bytes of UTF-8 (shopify.dev "Metafield limits"):
 * 64 KB for most types, 2 KB for URLs, and 128 KB for json from API version 2026-04 on (the
 * changelog "JSON metafield values limited to 128KB"; apps that used larger ones before keep 2 MB,
 * which a new app, as this one is, does not).
 */
export const metafieldValueLimits: Readonly<Record<string, number>> = {
  json: 128 * 1024,
  url: 2 * 1024,
};
export const METAFIELD_VALUE_MAX_BYTES = 64 * 1024;

export function valueLimitOf(type: string): number {
  return metafieldValueLimits[type] ?? METAFIELD_VALUE_MAX_BYTES;
}

const decimal = (value: unknown): number | undefined => {
  const text = typeof value === 'number' ? String(value) : value;
  return typeof text === 'string' && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : undefined;
};

/**
 * A rating (shopify.dev "List of data types"): a JSON object with the rating `value` on a scale
 * from `scale_min` to `scale_max`, each a decimal ('{"value": "3.5", "scale_min": "1.0",
 * "scale_max": "5.0"}'); the value must lie on the scale.
 */
function ratingProblem(value: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return 'Value must be a JSON object with value, scale_min and scale_max.';
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return 'Value must be a JSON object with value, scale_min and scale_max.';
  const fields = parsed as Record<string, unknown>;
  const rating = decimal(fields.value);
  const min = decimal(fields.scale_min);
  const max = decimal(fields.scale_max);
  if (rating === undefined || min === undefined || max === undefined)
    return 'Value must be a JSON object with value, scale_min and scale_max.';
  if (min >= max) return 'The scale minimum must be less than the scale maximum.';
  if (rating < min || rating > max)
    return `Value must be between ${String(fields.scale_min)} and ${String(fields.scale_max)}.`;
  return undefined;
}

/** Without a namespace, Shopify uses the app-reserved namespace of the calling app. */
export const APP_NAMESPACE = 'app--replatform';

function valueProblem(type: string, value: string): string | undefined {
  switch (type) {
    case 'single_line_text_field':
      return /[\r\n]/.test(value) ? 'Value must be a single line of text.' : undefined;
    case 'number_integer':
      return /^-?\d+$/.test(value) ? undefined : 'Value must be an integer.';
    case 'number_decimal':
      return /^-?\d+(\.\d+)?$/.test(value) ? undefined : 'Value must be a decimal number.';
    case 'boolean':
      return value === 'true' || value === 'false' ? undefined : 'Value must be true or false.';
    case 'json':
    case 'rich_text_field':
    case 'list.single_line_text_field':
      try {
        JSON.parse(value);
        return undefined;
      } catch {
        return 'Value must be valid JSON.';
      }
    case 'url':
      return /^(https?|mailto|sms|tel):/.test(value) ? undefined : 'Value must be a valid URL.';
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) ? undefined : 'Value must be a date (YYYY-MM-DD).';
    case 'date_time':
      return Number.isNaN(Date.parse(value)) ? 'Value must be a date and time.' : undefined;
    case 'color':
      return /^#[0-9a-fA-F]{6}$/.test(value) ? undefined : 'Value must be a hex colour.';
    case 'rating':
      return ratingProblem(value);
    default:
      return undefined;
  }
}

/**
 * Checks `inputs` for an owner (`ownerId` null while it is being created) and answers the problems
 * plus a function that applies the inputs to the owner's metafields (upsert by namespace + key).
 */
export function checkMetafields(
  store: ShopStore,
  ownerType: MetafieldOwnerType,
  ownerId: number | null,
  inputs: MetafieldInputValue[],
): {
  problems: MetafieldProblem[];
  apply: (existing: MetafieldRec[], replace?: boolean) => MetafieldRec[];
} {
  const problems: MetafieldProblem[] = [];
  const seen = new Set<string>();
  const normalised: { namespace: string; key: string; type: string; value: string }[] = [];
  inputs.forEach((input, index) => {
    const namespace = input.namespace ?? APP_NAMESPACE;
    const key = input.key ?? '';
    const value = input.value ?? '';
    const definition = store.definitionFor(ownerType, namespace, key);
    const type = input.type ?? definition?.type ?? '';
    const problem = (field: string, code: MetafieldProblemCode, message: string) =>
      problems.push({ index, field, code, message });
    if (!key) return problem('key', 'BLANK', "Key can't be blank.");
    if (namespace.length < 3)
      return problem('namespace', 'TOO_SHORT', 'Namespace is too short (minimum is 3 characters).');
    if (namespace.length > 255)
      return problem('namespace', 'TOO_LONG', 'Namespace is too long (maximum is 255 characters).');
    if (!/^[A-Za-z0-9_$:-]+$/.test(namespace))
      return problem('namespace', 'INVALID', 'Namespace contains invalid characters.');
    if (key.length < 2)
      return problem('key', 'TOO_SHORT', 'Key is too short (minimum is 2 characters).');
    if (key.length > 64)
      return problem('key', 'TOO_LONG', 'Key is too long (maximum is 64 characters).');
    if (!/^[A-Za-z0-9_-]+$/.test(key))
      return problem('key', 'INVALID', 'Key contains invalid characters.');
    if (!type) return problem('type', 'BLANK', "Type can't be blank.");
    if (!metafieldTypes.has(type))
      return problem('type', 'INVALID_TYPE', `Type '${type}' is not a valid metafield type.`);
    if (definition && definition.type !== type)
      return problem(
        'type',
        'INVALID_TYPE',
        `Type must be '${definition.type}', the type of the metafield definition.`,
      );
    if (input.value === undefined || input.value === null)
      return problem('value', 'BLANK', "Value can't be blank.");
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes > valueLimitOf(type))
      return problem(
        'value',
        'TOO_LONG',
        `Value is too long: ${bytes} bytes, and a ${type} metafield holds at most ${valueLimitOf(type)}.`,
      );
    const invalid = valueProblem(type, value);
    if (invalid) return problem('value', 'INVALID_VALUE', invalid);
    const identity = `${namespace}.${key}`;
    if (seen.has(identity))
      return problem('key', 'TAKEN', `Metafield ${identity} is given more than once.`);
    seen.add(identity);
    if (definition?.uniqueValues) {
      const clash = store
        .ownersOf(ownerType)
        .some(
          (owner) =>
            owner.id !== ownerId &&
            owner.metafields.some(
              (m) => m.namespace === namespace && m.key === key && m.value === value,
            ),
        );
      if (clash)
        return problem(
          'value',
          'CAPABILITY_VIOLATION',
          `Value '${value}' is already taken: the metafield definition ${identity} requires unique values.`,
        );
    }
    normalised.push({ namespace, key, type, value });
  });

  const apply = (existing: MetafieldRec[], replace = false): MetafieldRec[] => {
    const now = store.timestamp();
    const result = replace
      ? existing.filter((m) =>
          normalised.some((n) => n.namespace === m.namespace && n.key === m.key),
        )
      : [...existing];
    for (const n of normalised) {
      const current = result.find((m) => m.namespace === n.namespace && m.key === n.key);
      if (current) {
        current.type = n.type;
        current.value = n.value;
        current.updatedAt = now;
      } else {
        result.push({ id: store.nextId(), ...n, createdAt: now, updatedAt: now });
      }
    }
    return result;
  };
  return { problems, apply };
}
