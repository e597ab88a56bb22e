import type { EmulatorResponse } from '../framework/server.ts';
import type { ArgSchema } from './route-table.ts';

/**
 * The parts of the WordPress REST server that WooCommerce's answers depend on: PHP's query-string
 * parsing (`a[]=1&a[]=2`), argument validation and coercion as rest_validate_value_from_schema /
 * rest_sanitize_value_from_schema do it, and the error body `{code, message, data: {status}}`.
 */

export type QueryValue = string | QueryValue[] | { [key: string]: QueryValue };

/** Parses a query string the way PHP fills $_GET: `a[]=x` lists, `a[k]=x` maps, last one wins. */
export function parsePhpQuery(search: string): Record<string, QueryValue> {
  const out: Record<string, QueryValue> = {};
  for (const [rawKey, value] of new URLSearchParams(search)) {
    const bracket = rawKey.indexOf('[');
    if (bracket <= 0 || !rawKey.endsWith(']')) {
      out[rawKey] = value;
      continue;
    }
    const name = rawKey.slice(0, bracket);
    const keys = [...rawKey.slice(bracket).matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? '');
    let container = out as Record<string, QueryValue>;
    let key: string = name;
    for (const next of keys) {
      let child = container[key];
      if (child === undefined || typeof child === 'string') {
        child = next === '' || /^\d+$/.test(next) ? [] : {};
        container[key] = child;
      }
      const holder = child as Record<string, QueryValue> & QueryValue[];
      if (next === '') {
        key = String(Array.isArray(holder) ? holder.length : Object.keys(holder).length);
      } else key = next;
      container = holder as unknown as Record<string, QueryValue>;
    }
    container[key] = value;
  }
  return out;
}

/** The WordPress error body every failure of the REST API carries. */
export function wpError(
  status: number,
  code: string,
  message: string,
  data: Record<string, unknown> = {},
): EmulatorResponse {
  return { status, body: { code, message, data: { status, ...data } } };
}

export interface WpErrorBody {
  code: string;
  message: string;
  data: { status: number } & Record<string, unknown>;
}

/** A failure inside a handler that becomes a WordPress error answer (WC_REST_Exception). */
export class RestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly data: Record<string, unknown>;
  constructor(status: number, code: string, message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.data = data;
  }
  toBody(): WpErrorBody {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.data } };
  }
}

/** PHP's list formatting of wp_sprintf('%l'): 'a', 'a and b', 'a, b, and c'. */
function listWords(items: unknown[]): string {
  const words = items.map(String);
  if (words.length <= 1) return words.join('');
  if (words.length === 2) return `${words[0]} and ${words[1]}`;
  return `${words.slice(0, -1).join(', ')}, and ${words[words.length - 1]}`;
}

interface Invalid {
  code: string;
  message: string;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const wcDate = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return (
        typeof value === 'boolean' ||
        value === 0 ||
        value === 1 ||
        (typeof value === 'string' && ['true', 'false', '0', '1'].includes(value.toLowerCase()))
      );
    case 'integer':
      return (
        (typeof value === 'number' && Number.isInteger(value)) ||
        (typeof value === 'string' && /^-?\d+$/.test(value))
      );
    case 'number':
      return (
        (typeof value === 'number' && Number.isFinite(value)) ||
        (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
      );
    case 'string':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value) || typeof value === 'string' || isPlainObject(value);
    case 'object':
      return isPlainObject(value) || (Array.isArray(value) && value.length === 0) || value === '';
    default:
      return true;
  }
}

function coerce(value: unknown, type: string): unknown {
  switch (type) {
    case 'boolean':
      if (typeof value === 'boolean') return value;
      return value === 1 || (typeof value === 'string' && ['true', '1'].includes(value));
    case 'integer':
    case 'number':
      return Number(value);
    case 'array':
      if (Array.isArray(value)) return value;
      if (typeof value === 'string') return value.split(/[\s,]+/).filter((v) => v !== '');
      return Object.values(value as Record<string, unknown>);
    case 'object':
      return isPlainObject(value) ? value : {};
    default:
      return value;
  }
}

/** Validates and sanitises one value; returns the sanitised value or what is wrong with it. */
export function checkValue(
  value: unknown,
  schema: ArgSchema,
  param: string,
): { ok: true; value: unknown } | { ok: false; error: Invalid } {
  const types =
    schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  let type: string | undefined;
  if (types.length > 0) {
    // rest_get_best_type_for_value: '' is best a string; otherwise the first type that fits.
    type =
      value === '' && types.includes('string')
        ? 'string'
        : types.find((t) => matchesType(value, t));
    if (!type)
      return {
        ok: false,
        error: {
          code: 'rest_invalid_type',
          message: `${param} is not of type ${types.join(',')}.`,
        },
      };
  }
  let out = type ? coerce(value, type) : value;
  if (type === 'array' && schema.items) {
    const items: unknown[] = [];
    for (const [i, item] of (out as unknown[]).entries()) {
      const inner = checkValue(item, schema.items, `${param}[${i}]`);
      if (!inner.ok) return inner;
      items.push(inner.value);
    }
    out = items;
  }
  if (type === 'object' && schema.properties) {
    const obj = { ...(out as Record<string, unknown>) };
    for (const [key, prop] of Object.entries(schema.properties)) {
      if (!(key in obj)) continue;
      const inner = checkValue(obj[key], prop, `${param}[${key}]`);
      if (!inner.ok) return inner;
      obj[key] = inner.value;
    }
    out = obj;
  }
  if (schema.enum && !schema.enum.includes(out)) {
    return {
      ok: false,
      error: {
        code: 'rest_not_in_enum',
        message: `${param} is not one of ${listWords(schema.enum)}.`,
      },
    };
  }
  if ((type === 'integer' || type === 'number') && typeof out === 'number') {
    const { minimum, maximum } = schema;
    if ((minimum !== undefined && out < minimum) || (maximum !== undefined && out > maximum)) {
      const message =
        minimum !== undefined && maximum !== undefined
          ? `${param} must be between ${minimum} (inclusive) and ${maximum} (inclusive)`
          : minimum !== undefined
            ? `${param} must be greater than or equal to ${minimum}`
            : `${param} must be less than or equal to ${maximum}`;
      return { ok: false, error: { code: 'rest_out_of_bounds', message } };
    }
  }
  if (type === 'string' && typeof out === 'string') {
    if (schema.format === 'date-time' && !wcDate.test(out))
      return { ok: false, error: { code: 'rest_invalid_date', message: 'Invalid date.' } };
    if (schema.format === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(out))
      return {
        ok: false,
        error: { code: 'rest_invalid_email', message: 'Invalid email address.' },
      };
  }
  return { ok: true, value: out };
}

export interface ArgsResult {
  values: Record<string, unknown>;
  errors: Record<string, string>;
  details: Record<string, { code: string; message: string; data: null }>;
  missing: string[];
}

/** Validates request parameters against the endpoint's args, adding the documented defaults. */
export function validateArgs(
  params: Record<string, unknown>,
  args: Record<string, ArgSchema>,
  options: { checkRequired: boolean },
): ArgsResult {
  const result: ArgsResult = { values: { ...params }, errors: {}, details: {}, missing: [] };
  for (const [name, schema] of Object.entries(args)) {
    if (!(name in params) || params[name] === undefined) {
      if (options.checkRequired && schema.required) result.missing.push(name);
      else if (schema.default !== undefined) result.values[name] = schema.default;
      continue;
    }
    const checked = checkValue(params[name], schema, name);
    if (checked.ok) result.values[name] = checked.value;
    else {
      result.errors[name] = checked.error.message;
      result.details[name] = { ...checked.error, data: null };
    }
  }
  return result;
}

/** The answer WordPress gives when argument validation fails. */
export function argsErrorResponse(result: ArgsResult): EmulatorResponse | undefined {
  if (result.missing.length)
    return wpError(
      400,
      'rest_missing_callback_param',
      `Missing parameter(s): ${result.missing.join(', ')}`,
      {
        params: result.missing,
      },
    );
  const names = Object.keys(result.errors);
  if (!names.length) return undefined;
  return wpError(400, 'rest_invalid_param', `Invalid parameter(s): ${names.join(', ')}`, {
    params: result.errors,
    details: result.details,
  });
}
