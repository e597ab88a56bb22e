import type { z } from 'zod';
import type { EmulatorRequest, EmulatorResponse } from '../framework/server.ts';

/** Where BigCommerce's error `type` links point (their status-code reference page). */
const errorType = 'https://developer.bigcommerce.com/api-docs/getting-started/api-status-codes';

/** Thrown by route code; turned into BigCommerce's error body for the API version of the route. */
export class BcHttpError extends Error {
  readonly status: number;
  readonly errors: Record<string, string>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    title: string,
    errors: Record<string, string> = {},
    headers: Record<string, string> = {},
  ) {
    super(title);
    this.status = status;
    this.errors = errors;
    this.headers = headers;
  }
}

/** v3 error body: `{status, title, type, errors}` (e.g. customers.v3.yml "Error Response"). */
export function v3Error(error: BcHttpError): EmulatorResponse {
  return {
    status: error.status,
    headers: error.headers,
    body: { status: error.status, title: error.message, type: errorType, errors: error.errors },
  };
}

/** v2 error body: an array of `{status, message}` (orders.v2 / store_information.v2). */
export function v2Error(error: BcHttpError): EmulatorResponse {
  const details = Object.entries(error.errors).map(([field, text]) => `${field}: ${text}`);
  const message = details.length ? `${error.message} (${details.join('; ')})` : error.message;
  return {
    status: error.status,
    headers: error.headers,
    body: [{ status: error.status, message }],
  };
}

export const notFound = (what: string) => new BcHttpError(404, `${what} not found`);

/** Parses a JSON request body, answering 400 like the platform for anything that is not JSON. */
export function jsonBody(request: EmulatorRequest): unknown {
  const text = request.body.toString('utf8');
  if (!text.trim()) throw new BcHttpError(400, 'The request body is empty');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BcHttpError(400, 'The request body is not valid JSON');
  }
}

/** Validates with zod and answers 422 with one entry per failing field, as BigCommerce does. */
export function parseBody<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) errors[path ? `${path}.${key}` : key] = 'is not a known field';
    } else {
      errors[path || 'body'] = issue.message;
    }
  }
  throw new BcHttpError(422, 'JSON data is missing or invalid', errors);
}

/** A comma-separated list filter such as `id:in=1,2,3`. */
export function listParam(url: URL, name: string): string[] | undefined {
  const raw = url.searchParams.getAll(name);
  if (raw.length === 0) return undefined;
  return raw
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

export function intListParam(url: URL, name: string): number[] | undefined {
  const values = listParam(url, name);
  if (!values) return undefined;
  return values.map((v) => {
    if (!/^\d+$/.test(v)) throw new BcHttpError(422, `The filter ${name} must list integers`);
    return Number(v);
  });
}

export function intParam(url: URL, name: string): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw))
    throw new BcHttpError(422, `The query parameter ${name} must be an integer`);
  return Number(raw);
}

export function boolParam(url: URL, name: string): boolean | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null) return undefined;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new BcHttpError(422, `The query parameter ${name} must be true or false`);
}

export interface PageRequest {
  page: number;
  limit: number;
}

/** page/limit as the catalog and customers APIs read them (limit maximum 250). */
export function pageRequest(url: URL, defaultLimit = 50, maxLimit = 250): PageRequest {
  const page = intParam(url, 'page') ?? 1;
  const limit = intParam(url, 'limit') ?? defaultLimit;
  if (page < 1) throw new BcHttpError(422, 'page must be 1 or more');
  if (limit < 1) throw new BcHttpError(422, 'limit must be 1 or more');
  return { page, limit: Math.min(limit, maxLimit) };
}

/** Slices a list and builds v3 `meta.pagination` (products_catalog.v3.yml metaCollection_Full). */
export function paginate<T>(
  items: T[],
  { page, limit }: PageRequest,
  url: URL,
): { data: T[]; meta: { pagination: Record<string, unknown> } } {
  const total = items.length;
  const totalPages = Math.ceil(total / limit);
  const data = items.slice((page - 1) * limit, page * limit);
  const link = (p: number) => {
    const query = new URLSearchParams(url.searchParams);
    query.set('page', String(p));
    query.set('limit', String(limit));
    return `?${query.toString()}`;
  };
  const links: Record<string, string> = { current: link(page) };
  if (page > 1) links.previous = link(page - 1);
  if (page < totalPages) links.next = link(page + 1);
  return {
    data,
    meta: {
      pagination: {
        total,
        count: data.length,
        per_page: limit,
        current_page: page,
        total_pages: totalPages,
        links,
      },
    },
  };
}

/** v3 timestamps look like '2018-08-15T14:48:31+00:00'. */
export function v3Date(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** v2 timestamps are RFC 2822: 'Tue, 05 Mar 2019 21:40:11 +0000'. */
export function v2Date(ms: number): string {
  return new Date(ms).toUTCString().replace('GMT', '+0000');
}

/** Amounts kept as integer ten-thousandths, the precision v2 answers with ('12.3400'). */
export function toUnits(value: string | number): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isFinite(n)) throw new BcHttpError(422, `Not an amount: ${String(value)}`);
  return Math.round(n * 10_000);
}

export function fromUnits(units: number): string {
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  return `${sign}${Math.floor(abs / 10_000)}.${String(abs % 10_000).padStart(4, '0')}`;
}

export const countryNames: Record<string, string> = {
  US: 'United States',
  CA: 'Canada',
  GB: 'United Kingdom',
  DE: 'Germany',
  FR: 'France',
  AU: 'Australia',
  NL: 'Netherlands',
  ES: 'Spain',
  IT: 'Italy',
  JP: 'Japan',
  NZ: 'New Zealand',
  IE: 'Ireland',
};

export function countryName(code: string): string {
  return countryNames[code.toUpperCase()] ?? code.toUpperCase();
}

export function countryCodeOf(name: string): string {
  const hit = Object.entries(countryNames).find(([, n]) => n.toLowerCase() === name.toLowerCase());
  return hit ? hit[0] : '';
}
