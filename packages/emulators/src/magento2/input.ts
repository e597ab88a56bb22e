import { MagentoError } from './magento-error.ts';

/**
 * Type checks of request bodies as Magento's ServiceInputProcessor does them: unknown properties
 * of a data interface are refused (Magento looks for a getter and fails), scalars are converted
 * to the declared type when they can be and refused otherwise.
 */

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const camel = (key: string) =>
  key
    .replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase())
    .replace(/^./, (c) => c.toUpperCase());

export function checkKeys(value: Json, allowed: readonly string[], className: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      throw new MagentoError(
        400,
        'Property "%1" does not have accessor method "%2" in class "%3".',
        [camel(key), `get${camel(key)}`, className],
      );
    }
  }
}

const typeError = (value: unknown, type: string) =>
  new MagentoError(
    400,
    'The "%value" value\'s type is invalid. The "%type" type was expected. Verify and try again.',
    { value: typeof value === 'object' ? JSON.stringify(value) : String(value), type },
  );

export function objectField(value: unknown, className: string): Json {
  if (!isObject(value)) throw typeError(value, className);
  return value;
}

export function optionalString(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw typeError(value, 'string');
}

export function optionalNumber(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  throw typeError(value, 'float');
}

export function optionalInt(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  throw typeError(value, 'int');
}

export function optionalBool(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === '1' || value === 'true') return true;
  if (value === 0 || value === '0' || value === 'false' || value === '') return false;
  throw typeError(value, 'bool');
}

export function optionalArray(value: unknown, type: string): unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw typeError(value, `${type}[]`);
  return value;
}

/** Magento's stored date format: 'YYYY-MM-DD HH:MM:SS' in UTC. */
export function magentoTime(value?: string | Date): string {
  const date =
    value === undefined ? new Date() : typeof value === 'string' ? parseTime(value) : value;
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

function parseTime(value: string): Date {
  const text = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value)
    ? `${value.replace(' ', 'T')}Z`
    : value;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) {
    throw new MagentoError(400, 'Invalid date %1', [value]);
  }
  return date;
}

/** Magento's URL key format (Magento\Framework\Filter\TranslitUrl). */
export function formatUrlKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
