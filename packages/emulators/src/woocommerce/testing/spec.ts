import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { ArgSchema, RouteEntry } from '../route-table.ts';
import { compileRoutePattern } from '../route-table.ts';
import { parsePhpQuery, validateArgs } from '../wp-rest.ts';
import { platformSpecsDir } from '../../framework/platform-specs.ts';

/**
 * Test support: WooCommerce's own description of wc/v3 (the 11.0.1 `?context=help` index in
 * platform-specs) turned into checks. Every request a test records is checked against the route,
 * method and argument rules of that file, and every response body the emulator sends against the
 * resource JSON Schemas of the same file.
 */

export const specsDir = platformSpecsDir();
export const wcIndexPath = resolve(specsDir, 'woocommerce/wc-v3-index.woocommerce-11.0.1.json');
export const wcSamplesDir = resolve(specsDir, 'samples/woocommerce');

export function specsAvailable(): boolean {
  return existsSync(wcIndexPath);
}

interface IndexRoute extends RouteEntry {
  schema?: Record<string, unknown>;
}

let cachedIndex: Record<string, IndexRoute> | undefined;
export function loadWcIndex(): Record<string, IndexRoute> {
  cachedIndex ??= (
    JSON.parse(readFileSync(wcIndexPath, 'utf8')) as { routes: Record<string, IndexRoute> }
  ).routes;
  return cachedIndex;
}

/** The routes the emulator implements (a subset of the 109 of WooCommerce 11.0.1). */
export const emulatedRoutes = [
  '/wc/v3',
  '/wc/v3/system_status',
  '/wc/v3/products',
  '/wc/v3/products/(?P<id>[\\d]+)',
  '/wc/v3/products/batch',
  '/wc/v3/products/(?P<product_id>[\\d]+)/variations',
  '/wc/v3/products/(?P<product_id>[\\d]+)/variations/(?P<id>[\\d]+)',
  '/wc/v3/products/(?P<product_id>[\\d]+)/variations/batch',
  '/wc/v3/products/categories',
  '/wc/v3/products/categories/(?P<id>[\\d]+)',
  '/wc/v3/products/categories/batch',
  '/wc/v3/products/tags',
  '/wc/v3/products/tags/(?P<id>[\\d]+)',
  '/wc/v3/products/tags/batch',
  '/wc/v3/products/brands',
  '/wc/v3/products/brands/(?P<id>[\\d]+)',
  '/wc/v3/products/brands/batch',
  '/wc/v3/customers',
  '/wc/v3/customers/(?P<id>[\\d]+)',
  '/wc/v3/customers/batch',
  '/wc/v3/orders',
  '/wc/v3/orders/(?P<id>[\\d]+)',
  '/wc/v3/orders/batch',
  '/wc/v3/orders/(?P<order_id>[\\d]+)/notes',
  '/wc/v3/orders/(?P<order_id>[\\d]+)/notes/(?P<id>[\\d]+)',
  '/wc/v3/orders/(?P<order_id>[\\d]+)/refunds',
  '/wc/v3/orders/(?P<order_id>[\\d]+)/refunds/(?P<id>[\\d]+)',
  '/wc/v3/refunds',
  '/wc/v3/products/attributes',
  '/wc/v3/products/attributes/(?P<id>[\\d]+)',
  '/wc/v3/products/attributes/batch',
  '/wc/v3/products/attributes/(?P<attribute_id>[\\d]+)/terms',
  '/wc/v3/products/attributes/(?P<attribute_id>[\\d]+)/terms/(?P<id>[\\d]+)',
  '/wc/v3/products/attributes/(?P<attribute_id>[\\d]+)/terms/batch',
  '/wc/v3/products/shipping_classes',
  '/wc/v3/products/shipping_classes/(?P<id>[\\d]+)',
  '/wc/v3/products/shipping_classes/batch',
  '/wc/v3/coupons',
  '/wc/v3/coupons/(?P<id>[\\d]+)',
  '/wc/v3/coupons/batch',
  '/wc/v3/products/reviews',
  '/wc/v3/products/reviews/(?P<id>[\\d]+)',
  '/wc/v3/products/reviews/batch',
  '/wc/v3/taxes/classes',
  '/wc/v3/settings',
  '/wc/v3/settings/(?P<group_id>[\\w-]+)',
  '/wc/v3/settings/(?P<group_id>[\\w-]+)/(?P<id>[\\w-]+)',
] as const;

function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'description' && typeof inner === 'string') continue;
      out[key] = withoutDescriptions(inner);
    }
    return out;
  }
  return value;
}

/** What wc-v3-routes.json must hold: the emulated routes' methods and args from the index. */
export function buildRouteTable(): Record<string, RouteEntry> {
  const index = loadWcIndex();
  const table: Record<string, RouteEntry> = {};
  for (const pattern of emulatedRoutes) {
    const route = index[pattern];
    if (!route) throw new Error(`route ${pattern} is not in the WooCommerce index`);
    table[pattern] = withoutDescriptions({
      namespace: route.namespace,
      methods: route.methods,
      endpoints: route.endpoints.map((e) => ({
        methods: e.methods,
        // PHP encodes an empty args map as [].
        args: Array.isArray(e.args) ? {} : e.args,
      })),
    }) as RouteEntry;
  }
  return table;
}

// ---------------------------------------------------------------------------------------------
// Request validation against the index

const compiledIndex = () =>
  Object.entries(loadWcIndex()).map(([pattern, route]) => ({
    pattern,
    route,
    regex: compileRoutePattern(pattern),
  }));
let indexMatchers: ReturnType<typeof compiledIndex> | undefined;

/** Query parameters that are not route arguments but are understood by every route. */
const globalQueryParams = new Set([
  'oauth_consumer_key',
  'oauth_nonce',
  'oauth_signature',
  'oauth_signature_method',
  'oauth_timestamp',
  'oauth_version',
  'oauth_token',
  'consumer_key',
  'consumer_secret',
  '_fields',
  '_envelope',
  '_embed',
  '_method',
]);

/**
 * Fields a real WooCommerce 11.0.1 store reads although its index does not list them as
 * writable (checked on a real store; the emulator's tests keep each behaviour):
 * - products: grouped_products, which WC_REST_Products_Controller::prepare_object_for_database()
 *   passes to set_children() although the schema marks it read-only;
 * - order refunds: line_items, which the V3 refunds controller passes to wc_create_refund()
 *   although the route's arguments leave it out;
 * - orders: the id of a line item, which names the item an update changes (set_item()) although
 *   the schema marks it read-only;
 * - product reviews: date_created and date_created_gmt, which the reviews controller's
 *   prepare_item_for_database() reads on a create and an update, and verified, which it stores
 *   when true, although the schema marks all three read-only and the routes do not list them.
 * Paths name list items with `[]`.
 */
const reviewFields = ['date_created', 'date_created_gmt', 'verified'] as const;

export const undocumentedWritable: Record<string, readonly string[]> = {
  '/wc/v3/products': ['grouped_products'],
  '/wc/v3/products/(?P<id>[\\d]+)': ['grouped_products'],
  '/wc/v3/products/batch': ['grouped_products'],
  '/wc/v3/orders/(?P<order_id>[\\d]+)/refunds': ['line_items'],
  '/wc/v3/orders/(?P<id>[\\d]+)': ['line_items[].id'],
  '/wc/v3/orders/batch': ['line_items[].id'],
  '/wc/v3/products/reviews': reviewFields,
  '/wc/v3/products/reviews/(?P<id>[\\d]+)': reviewFields,
  '/wc/v3/products/reviews/batch': reviewFields,
};

/**
 * Query arguments a real WooCommerce 11.0.1 store reads although its index does not list them:
 * coupons: status, which WC_REST_Coupons_Controller::prepare_objects_query() passes on as the
 * query's post_status (without it only published and private coupons are listed).
 */
export const undocumentedQuery: Record<string, readonly string[]> = {
  '/wc/v3/coupons': ['status'],
};

export interface RecordedRequest {
  method: string;
  url: string;
  body?: string | Uint8Array;
}

/**
 * Problems of one request measured against the index: unknown route, method not served, unknown or
 * invalid query argument, body argument that is unknown, read-only or of the wrong type/enum/range,
 * a batch over 100 items. An empty list means the request is what WooCommerce documents.
 */
export function checkRequest(request: RecordedRequest): string[] {
  indexMatchers ??= compiledIndex();
  const url = new URL(request.url);
  const restPath = url.pathname.replace(/^\/wp-json/, '').replace(/\/$/, '') || '/';
  if (!url.pathname.startsWith('/wp-json/')) return [`not a REST path: ${url.pathname}`];
  if (restPath === '') return [];
  // The WordPress root index (/wp-json/) is core WordPress, not wc/v3: it takes no arguments.
  if (restPath === '/') return request.method === 'GET' ? [] : ['only GET on /wp-json/'];
  const match = indexMatchers.find((m) => m.regex.test(restPath));
  if (!match) return [`no wc/v3 route for ${restPath}`];
  const endpoint = match.route.endpoints.find((e) => e.methods.includes(request.method));
  if (!endpoint) return [`${request.method} not allowed on ${match.pattern}`];
  const args = (Array.isArray(endpoint.args) ? {} : endpoint.args) as Record<string, ArgSchema>;
  const problems: string[] = [];

  const query = parsePhpQuery(url.search.slice(1));
  for (const key of Object.keys(query)) {
    if (globalQueryParams.has(key) || undocumentedQuery[match.pattern]?.includes(key)) continue;
    if (!(key in args)) problems.push(`unknown query argument '${key}' on ${match.pattern}`);
  }
  const queryArgs = Object.fromEntries(
    Object.entries(query).filter(([k]) => !globalQueryParams.has(k) && k in args),
  );
  const queryCheck = validateArgs(queryArgs, args, { checkRequired: false });
  for (const [param, message] of Object.entries(queryCheck.errors))
    problems.push(`query ${param}: ${message}`);

  if (request.body !== undefined && request.body.length > 0) {
    const text =
      typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [...problems, 'body is not JSON'];
    }
    if (match.pattern.endsWith('/batch')) {
      problems.push(...checkBatchBody(match.pattern, body));
    } else {
      problems.push(...checkBody(body, args, match.pattern, match.pattern));
    }
  }
  return problems;
}

function checkBody(
  body: unknown,
  args: Record<string, ArgSchema>,
  where: string,
  pattern: string,
): string[] {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return [`${where}: body not object`];
  const problems: string[] = [];
  const undocumented = undocumentedWritable[pattern] ?? [];
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (undocumented.includes(key)) continue;
    const arg = args[key];
    if (!arg) {
      if (key !== 'id') problems.push(`${where}: unknown body field '${key}'`);
      continue;
    }
    problems.push(
      ...readonlyFieldsSent(value, arg, `${where}.${key}`).filter(
        (p) =>
          !undocumented.includes(
            p
              .replace(/^.*?: /, '')
              .replace(`${where}.`, '')
              .replace(/\[\d+\]/g, '[]'),
          ),
      ),
    );
  }
  const documented = Object.fromEntries(
    Object.entries(body as Record<string, unknown>).filter(([k]) => !undocumented.includes(k)),
  );
  const result = validateArgs(documented, args, { checkRequired: true });
  for (const [param, message] of Object.entries(result.errors))
    problems.push(`${where}: ${param}: ${message}`);
  if (result.missing.length) problems.push(`${where}: missing ${result.missing.join(', ')}`);
  return problems;
}

/** WordPress ignores read-only fields; a client that sends one has a mapping mistake. */
function readonlyFieldsSent(value: unknown, schema: ArgSchema, path: string): string[] {
  if (schema.readonly) return [`read-only field sent: ${path}`];
  const problems: string[] = [];
  if (Array.isArray(value) && schema.items)
    value.forEach((item, i) =>
      problems.push(...readonlyFieldsSent(item, schema.items as ArgSchema, `${path}[${i}]`)),
    );
  else if (value && typeof value === 'object' && schema.properties) {
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      const prop = schema.properties[key];
      if (prop) problems.push(...readonlyFieldsSent(inner, prop, `${path}.${key}`));
    }
  }
  return problems;
}

function checkBatchBody(pattern: string, body: unknown): string[] {
  const index = loadWcIndex();
  if (!body || typeof body !== 'object') return [`${pattern}: batch body not an object`];
  const { create, update, delete: del, ...rest } = body as Record<string, unknown>;
  const problems: string[] = Object.keys(rest).map((k) => `${pattern}: unknown batch key '${k}'`);
  const base = pattern.replace(/\/batch$/, '');
  const collection = index[base]?.endpoints.find((e) => e.methods.includes('POST'));
  const itemRoute = Object.keys(index).find(
    (p) => p.startsWith(`${base}/(?P<id>`) && !p.slice(base.length + 1).includes('/'),
  );
  const item = itemRoute
    ? index[itemRoute]?.endpoints.find((e) => e.methods.includes('PUT'))
    : undefined;
  const total =
    (Array.isArray(create) ? create.length : 0) +
    (Array.isArray(update) ? update.length : 0) +
    (Array.isArray(del) ? del.length : 0);
  if (total > 100) problems.push(`${pattern}: ${total} items in one batch (limit 100)`);
  const asArgs = (e: RouteEndpoint | undefined) =>
    (e && !Array.isArray(e.args) ? e.args : {}) as Record<string, ArgSchema>;
  if (create !== undefined) {
    if (!Array.isArray(create)) problems.push(`${pattern}: create is not a list`);
    else
      create.forEach((c, i) =>
        problems.push(...checkBody(c, asArgs(collection), `${pattern} create[${i}]`, pattern)),
      );
  }
  if (update !== undefined) {
    if (!Array.isArray(update)) problems.push(`${pattern}: update is not a list`);
    else
      update.forEach((u, i) => {
        if (!u || typeof u !== 'object' || !Number.isInteger((u as { id?: unknown }).id))
          problems.push(`${pattern} update[${i}]: no integer id`);
        const { id: _id, ...fields } = (u ?? {}) as Record<string, unknown>;
        problems.push(
          ...checkBody(fields, asArgs(item), `${pattern} update[${i}]`, pattern).filter(
            (p) => !p.includes('missing'),
          ),
        );
      });
  }
  if (del !== undefined && (!Array.isArray(del) || !del.every((d) => Number.isInteger(d))))
    problems.push(`${pattern}: delete is not a list of ids`);
  return problems;
}

type RouteEndpoint = RouteEntry['endpoints'][number];

// ---------------------------------------------------------------------------------------------
// Response validation against the resource schemas

/**
 * The index's schemas are WordPress's draft-04 dialect: `context` and `readonly` keywords,
 * `required: true` on properties, and the non-standard types 'date-time', 'mixed' and 'bool'.
 * This turns them into standard JSON Schema. Where WooCommerce's own answers differ from its
 * schema (nullable images, empty strings in e-mail fields, dates without a time zone), the
 * difference is allowed here and listed.
 */
const nullableInPractice = new Set([
  'image',
  'stock_quantity',
  'sku',
  'parent_name',
  // A coupon's limits: null when there is none (WC_REST_Coupons_Controller answers 0 as null).
  'usage_limit',
  'usage_limit_per_user',
  'limit_usage_to_x_items',
]);
/** Fields a real 11.0.1 store answers as an integer although the schema says string. */
const integerInPractice = new Set(['shipping_class_id']);

export function normaliseSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(normaliseSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (['context', 'readonly', '$schema', 'arg_options', 'title'].includes(key)) continue;
    if (key === 'required' && typeof value === 'boolean') continue;
    if (key === 'description' && typeof value === 'string') continue;
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => {
          const inner = normaliseSchema(v) as Record<string, unknown>;
          // Stores answer null where the schema promises a value: an image of a category or
          // variation that has none, stock of a product that does not manage it, the SKU and
          // parent name of an order line whose product is gone or is not a variation.
          if (nullableInPractice.has(k) && typeof inner.type === 'string')
            inner.type = [inner.type, 'null'];
          if (integerInPractice.has(k)) inner.type = ['string', 'integer'];
          return [k, inner];
        }),
      );
      continue;
    }
    out[key] = normaliseSchema(value);
  }
  const type = out.type;
  if (type === 'date-time') {
    out.type = ['string', 'null'];
    out.format = 'wc-date-time';
  } else if (type === 'mixed') {
    delete out.type;
  } else if (type === 'bool') {
    out.type = 'boolean';
  }
  return out;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
let ajv: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

function getAjv(): Ajv {
  if (ajv) return ajv;
  ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  // WooCommerce sends '' for an unset e-mail or URL, and dates as 'Y-m-d\TH:i:s' without zone.
  ajv.addFormat('email', /^$|^[^\s@]+@[^\s@]+\.[^\s@]+$/);
  ajv.addFormat('uri', { validate: (v: string) => v === '' || URL.canParse(v) });
  ajv.addFormat('wc-date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  return ajv;
}

/** Validates a resource body against the item schema of a route of the index. */
export function checkResource(routePattern: string, body: unknown): string[] {
  let validate = validators.get(routePattern);
  if (!validate) {
    const schema = loadWcIndex()[routePattern]?.schema;
    if (!schema) throw new Error(`no schema for ${routePattern}`);
    validate = getAjv().compile(normaliseSchema(schema) as object);
    validators.set(routePattern, validate);
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`.trim());
}
