import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import spec from '../../../specs/woocommerce/wp-v2-index.wordpress-7.1.json' with { type: 'json' };
import { compileRoutePattern, type ArgSchema } from '../route-table.ts';
import { parsePhpQuery, validateArgs } from '../wp-rest.ts';
import { normaliseSchema, type RecordedRequest } from './spec.ts';

/**
 * Test support: the store's own description of wp/v2 (specs/woocommerce/wp-v2-index.wordpress-7.1.json)
 * turned into checks of requests (route, method, arguments) and of answers (item schemas).
 */

interface WpRoute {
  endpoints: { methods: string[]; args: Record<string, ArgSchema> }[];
  schema?: Record<string, unknown>;
}

const routes = (spec as unknown as { routes: Record<string, WpRoute> }).routes;
const matchers = Object.entries(routes).map(([pattern, route]) => ({
  pattern,
  route,
  regex: compileRoutePattern(pattern),
}));

/** Arguments WordPress checks with callbacks (a title may be a string or {raw}). */
const customArgs = new Set(['title', 'content', 'excerpt', 'caption', 'description']);
const globalQuery = new Set(['_fields', '_embed', '_method', '_envelope', '_locale']);

/** Problems of one wp/v2 request measured against the description; [] when it is documented. */
export function checkWpRequest(request: RecordedRequest): string[] {
  const url = new URL(request.url);
  const restPath = url.pathname.replace(/^\/wp-json/, '').replace(/\/$/, '');
  const match = matchers.find((m) => m.regex.test(restPath));
  if (!match) return [`no wp/v2 route for ${restPath}`];
  const endpoint = match.route.endpoints.find((e) => e.methods.includes(request.method));
  if (!endpoint) return [`${request.method} not allowed on ${match.pattern}`];
  const args = endpoint.args;
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsePhpQuery(url.search.slice(1)))) {
    if (globalQuery.has(key)) continue;
    if (!(key in args)) problems.push(`unknown query argument '${key}' on ${match.pattern}`);
    else values[key] = value;
  }
  const isUpload = match.pattern === '/wp/v2/media' && request.method === 'POST';
  if (!isUpload && request.body !== undefined && request.body.length > 0) {
    const text =
      typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return [...problems, 'body is not JSON'];
    }
    for (const [key, value] of Object.entries(body)) {
      if (!(key in args)) problems.push(`unknown body argument '${key}' on ${match.pattern}`);
      else if (args[key]?.readonly) problems.push(`read-only argument '${key}'`);
      else values[key] = value;
    }
  }
  const checked = Object.fromEntries(Object.entries(args).filter(([k]) => !customArgs.has(k)));
  const result = validateArgs(values, checked, { checkRequired: false });
  for (const [param, message] of Object.entries(result.errors))
    problems.push(`${param}: ${message}`);
  return problems;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
let ajv: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

/** Validates an answer against the item schema of a wp/v2 route. */
export function checkWpResource(routePattern: string, body: unknown): string[] {
  let validate = validators.get(routePattern);
  if (!validate) {
    const schema = routes[routePattern]?.schema;
    if (!schema) throw new Error(`no schema for ${routePattern}`);
    if (!ajv) {
      ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
      ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    }
    validate = ajv.compile(normaliseSchema(schema) as object);
    validators.set(routePattern, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`.trim());
}
