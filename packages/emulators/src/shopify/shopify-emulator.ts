import { randomBytes, randomUUID } from 'node:crypto';
import {
  execute,
  getVariableValues,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLError,
  type GraphQLFormattedError,
} from 'graphql';
import {
  generateSampleStore,
  samplePng,
  type SampleStoreOptions,
} from '../framework/sample-store.ts';
import {
  startEmulator,
  type EmulatorOptions,
  type EmulatorRequest,
  type EmulatorResponse,
  type RunningEmulator,
} from '../framework/server.ts';
import { bulkRunner } from './bulk.ts';
import { loopbackOnly, type MediaHostPolicy } from './media.ts';
import { mutationRoot, type MutationContext } from './mutations.ts';
import { OAuthServer } from './oauth.ts';
import { queryRoot } from './query-root.ts';
import { countReviews } from './reviews.ts';
import { actualQueryCost, findOperation, requestedQueryCost } from './query-cost.ts';
import { ADMIN_API_VERSION, adminSchema } from './schema.ts';
import { seedShop } from './seed.ts';
import { restoreRates, ShopStore, type Plan } from './store.ts';
import type { ViewContext } from './views.ts';

/**
 * A stateful emulator of Shopify's Admin GraphQL API, version 2026-10, built on the official
 * schema: requests are parsed, validated and executed by graphql-js against that schema, so every
 * answer has Shopify's shape by construction; resolvers only supply data. It enforces what
 * connectors must cope with: access tokens, calculated query cost with a leaky bucket per shop
 * (THROTTLED, MAX_COST_EXCEEDED), page-size and input-array limits, userErrors, metafield types,
 * value sizes and compare-and-set (product reviews live in metafields: reviews.ts), media that Shopify
 * processes after the mutation (and may fail to fetch), bulk operations with JSONL results served
 * in byte ranges, the orderCreate limit of trial and development stores, and the OAuth app-install
 * endpoints.
 */

export type ShopifyEntity =
  | 'categories'
  | 'brands'
  | 'products'
  | 'coupons'
  | 'customers'
  | 'orders'
  | 'reviews'
  | 'pages'
  | 'posts';

export interface ShopifyEmulatorOptions extends Omit<EmulatorOptions, 'seed'> {
  /** Sample data for every shop ('empty' for none); default: the sandbox counts. */
  seed?: SampleStoreOptions | 'empty';
  /** Per-shop seed overriding `seed`. */
  shopSeeds?: Record<string, SampleStoreOptions | 'empty'>;
  /** Seed of the fault dice of the framework server. */
  faultSeed?: number;
  /** Restore rate 100 / 200 / 1000 / 2000 points per second. */
  plan?: Plan;
  /** Bucket size in points; default 20 seconds of restore (2,000 on the standard plan). */
  bucketSize?: number;
  /** A development store: orderCreate is limited to 5 orders per minute. */
  developmentStore?: boolean;
  /** A store on a free trial (plan 'Trial'): orderCreate is limited to 5 orders per minute too. */
  trialStore?: boolean;
  /**
   * Clock milliseconds Shopify takes to process a media file given by URL; until then it reads as
   * PROCESSING (default 0: processed at once).
   */
  mediaProcessingMs?: number;
  /** The app's client id and secret for the OAuth endpoints. */
  apiKey?: string;
  apiSecret?: string;
  /** Shop domains served (each its own store); the first is used when a request names none. */
  shops?: string[];
  /** An access token valid for every shop with every scope (default: random). */
  accessToken?: string;
  /**
   * More access tokens valid for every shop, each with the scopes it was granted, as a custom app's
   * Admin API token is (e.g. a read-only one next to the full one). OAuth installs record theirs.
   */
  tokens?: Record<string, readonly string[]>;
  shopName?: string;
  currency?: string;
  /** Clock in milliseconds (tests move it forward instead of waiting). */
  clock?: () => number;
  /** How long a bulk operation reports RUNNING before COMPLETED (clock milliseconds). */
  bulkDelayMs?: number;
  /** Hosts media may be downloaded from (default: loopback only). */
  mediaHosts?: MediaHostPolicy;
}

export interface ShopifyEmulator extends RunningEmulator {
  accessToken: string;
  apiKey: string;
  apiSecret: string;
  shops: string[];
  /** The state of a shop (default: the first). */
  shop(domain?: string): ShopStore;
  /**
   * Records of an entity stored in a shop (reviews: the entries of the products' lists; brands:
   * the distinct vendors the products name, Shopify having no brand records).
   */
  countStored(entity: ShopifyEntity, domain?: string): number;
}

export const GRAPHQL_PATH = `/admin/api/${ADMIN_API_VERSION}/graphql.json`;
export const INVALID_TOKEN_BODY = {
  errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
};
/** limits.json shopify.rate_limit.single_query_max_cost */
export const MAX_QUERY_COST = 1000;

const ALL_SCOPES = new Set([
  'read_products',
  'write_products',
  'read_customers',
  'write_customers',
  'read_orders',
  'write_orders',
  'read_all_orders',
  'read_inventory',
  'write_inventory',
  'read_locations',
  'read_online_store_navigation',
  'write_online_store_navigation',
  'write_merchant_managed_fulfillment_orders',
  'read_discounts',
  'write_discounts',
  'read_content',
  'write_content',
  'read_files',
  'write_files',
]);

function json(status: number, body: unknown, extra: Record<string, string> = {}): EmulatorResponse {
  return {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': randomUUID(),
      ...extra,
    },
    body,
  };
}

function hostOf(value: string | string[] | undefined): string | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  return raw?.split(',')[0]?.trim().toLowerCase().replace(/:\d+$/, '');
}

/**
 * The result file as cloud storage serves it: the whole file, or with `Range: bytes=a-b` that
 * part of it (206 with Content-Range), or 416 for a range that starts past its end.
 */
function rangeOf(file: Buffer, header: string | string[] | undefined): EmulatorResponse {
  const type = { 'content-type': 'application/jsonl', 'accept-ranges': 'bytes' };
  const range = /^bytes=(\d+)-(\d*)$/.exec(
    Array.isArray(header) ? (header[0] ?? '') : (header ?? ''),
  );
  if (!range) return { status: 200, headers: type, body: file };
  const start = Number(range[1]);
  const end = Math.min(file.length - 1, range[2] ? Number(range[2]) : file.length - 1);
  if (start >= file.length || end < start)
    return {
      status: 416,
      headers: { ...type, 'content-range': `bytes */${file.length}` },
      body: '',
    };
  return {
    status: 206,
    headers: { ...type, 'content-range': `bytes ${start}-${end}/${file.length}` },
    body: file.subarray(start, end + 1),
  };
}

/** Serialises mutations per shop, as a single Shopify shop applies writes one after another. */
class Lock {
  #tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(fn, fn);
    this.#tail = next.catch(() => undefined);
    return next;
  }
}

export async function startShopifyEmulator(
  options: ShopifyEmulatorOptions = {},
): Promise<ShopifyEmulator> {
  const schema = adminSchema();
  const now = options.clock ?? Date.now;
  const plan = options.plan ?? 'standard';
  const restoreRate = restoreRates[plan];
  const bucketSize = options.bucketSize ?? restoreRate * 20;
  const shops = (options.shops ?? ['replatform-sandbox.myshopify.com']).map((s) => s.toLowerCase());
  const accessToken = options.accessToken ?? `shpat_${randomBytes(16).toString('hex')}`;
  const apiKey = options.apiKey ?? 'replatform-sandbox-app';
  const apiSecret = options.apiSecret ?? randomBytes(24).toString('hex');
  const currency = options.currency ?? 'USD';
  const stores = new Map<string, ShopStore>();
  const locks = new Map<string, Lock>();
  for (const domain of shops) {
    const store = new ShopStore(
      {
        domain,
        name: options.shopName ?? `${domain.replace(/\.myshopify\.com$/, '')} (sandbox)`,
        currency,
        plan,
        developmentStore: options.developmentStore ?? false,
        trialStore: options.trialStore ?? false,
        mediaProcessingMs: options.mediaProcessingMs ?? 0,
        bucketSize,
        restoreRate,
      },
      now,
    );
    store.tokens.set(accessToken, ALL_SCOPES);
    for (const [token, scopes] of Object.entries(options.tokens ?? {}))
      store.tokens.set(token, new Set(scopes));
    stores.set(domain, store);
    locks.set(domain, new Lock());
  }
  const oauth = new OAuthServer({ apiKey, apiSecret }, now);
  const mediaHosts = options.mediaHosts ?? loopbackOnly;
  const bulkDelayMs = options.bulkDelayMs ?? 50;
  let baseUrl = '';

  const resolveShop = (request: EmulatorRequest): ShopStore | undefined => {
    const forwarded = hostOf(request.headers['x-forwarded-host']);
    const host = hostOf(request.headers.host);
    for (const candidate of [forwarded, host]) {
      if (candidate && stores.has(candidate)) return stores.get(candidate);
    }
    const named = forwarded ?? host;
    if (named && named.endsWith('.myshopify.com')) return undefined;
    return stores.get(shops[0] ?? '');
  };

  const graphqlRequest = async (
    request: EmulatorRequest,
    store: ShopStore,
  ): Promise<EmulatorResponse> => {
    const token = request.headers['x-shopify-access-token'];
    const scopes = typeof token === 'string' ? store.tokens.get(token) : undefined;
    if (!scopes) return json(401, INVALID_TOKEN_BODY);

    let query: string | undefined;
    let variables: Record<string, unknown> = {};
    let operationName: string | undefined;
    if (request.method === 'GET') {
      query = request.url.searchParams.get('query') ?? undefined;
    } else if (request.method === 'POST') {
      const type = String(request.headers['content-type'] ?? '');
      const text = request.body.toString('utf8');
      if (type.includes('application/graphql')) query = text;
      else {
        try {
          const body = JSON.parse(text) as {
            query?: unknown;
            variables?: unknown;
            operationName?: unknown;
          };
          query = typeof body.query === 'string' ? body.query : undefined;
          if (body.variables && typeof body.variables === 'object')
            variables = body.variables as Record<string, unknown>;
          if (typeof body.operationName === 'string') operationName = body.operationName;
        } catch {
          query = undefined;
        }
      }
    } else {
      return json(405, { errors: 'Method Not Allowed' });
    }
    if (!query) return json(400, { errors: { query: 'Required parameter missing or invalid' } });
    store.stats.graphqlRequests += 1;

    const costExtension = (requested: number, actual: number | null) => ({
      cost: {
        requestedQueryCost: requested,
        actualQueryCost: actual,
        throttleStatus: store.throttleStatus(),
      },
    });
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (error) {
      return json(200, {
        errors: [(error as GraphQLError).toJSON()],
        extensions: costExtension(0, 0),
      });
    }
    const validation = validate(schema, document);
    if (validation.length)
      return json(200, {
        errors: validation.map((e) => e.toJSON()),
        extensions: costExtension(0, 0),
      });
    const operation = findOperation(document, operationName);
    if (!operation)
      return json(200, {
        errors: [
          { message: 'An operation name is required when the document has several operations.' },
        ],
        extensions: costExtension(0, 0),
      });
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
    if (coerced.errors)
      return json(200, {
        errors: coerced.errors.map((e) => e.toJSON()),
        extensions: costExtension(0, 0),
      });

    const costInput = { schema, document, operation, variables: coerced.coerced };
    const requested = requestedQueryCost(costInput);
    if (requested > MAX_QUERY_COST) {
      store.stats.maxCostExceeded += 1;
      return json(200, {
        errors: [
          {
            message: `Query cost is ${requested}, which exceeds the single query max cost limit (${MAX_QUERY_COST}).\n\nSee https://shopify.dev/concepts/about-apis/rate-limits for more information on how the\ncost of a query is calculated.\n\nTo query larger amounts of data with fewer limits, bulk operations should be used instead.\nSee https://shopify.dev/tutorials/perform-bulk-operations-with-admin-api for usage details.\n`,
            extensions: {
              code: 'MAX_COST_EXCEEDED',
              cost: requested,
              maxCost: MAX_QUERY_COST,
              documentation: 'https://shopify.dev/api/usage/rate-limits',
            },
          },
        ],
        extensions: costExtension(requested, null),
      });
    }
    if (!store.take(requested)) {
      store.stats.throttled += 1;
      return json(200, {
        errors: [
          {
            message: 'Throttled',
            extensions: {
              code: 'THROTTLED',
              documentation: 'https://shopify.dev/api/usage/rate-limits',
            },
          },
        ],
        extensions: costExtension(requested, null),
      });
    }
    store.stats.pointsRequested += requested;

    const viewContext: ViewContext = { store, baseUrl, bulk: false, scopes };
    const run = async (): Promise<ExecutionResult> => {
      if (operation.operation === 'mutation') {
        const mutationContext: MutationContext = {
          ...viewContext,
          mediaHosts,
          runBulkQuery: (bulkQuery) =>
            bulkRunner(schema, viewContext, (c) => queryRoot(c), bulkDelayMs).run(bulkQuery),
        };
        return execute({
          schema,
          document,
          operationName,
          variableValues: variables,
          rootValue: mutationRoot(mutationContext),
        });
      }
      return execute({
        schema,
        document,
        operationName,
        variableValues: variables,
        rootValue: queryRoot(viewContext),
      });
    };
    const result =
      operation.operation === 'mutation'
        ? await (locks.get(store.config.domain) ?? new Lock()).run(run)
        : await run();
    const actual = actualQueryCost(
      costInput,
      (result.data ?? null) as Record<string, unknown> | null,
    );
    const charged = Math.min(requested, actual);
    store.refund(requested - charged);
    store.stats.pointsCharged += charged;
    const errors: GraphQLFormattedError[] | undefined = result.errors?.map((e) => e.toJSON());
    return json(200, {
      ...(errors ? { errors } : {}),
      data: result.data ?? null,
      extensions: costExtension(requested, charged),
    });
  };

  const serveFile = (pathname: string): EmulatorResponse | undefined => {
    if (pathname.startsWith('/media/')) {
      const known = [...stores.values()].some(
        (s) =>
          [...s.products.values()].some((p) => p.media.some((m) => m.path === pathname)) ||
          [...s.collections.values()].some((c) => c.image?.path === pathname) ||
          [...s.articles.values()].some((a) => a.image?.path === pathname),
      );
      if (!known) return undefined;
      return {
        status: 200,
        headers: { 'content-type': 'image/png', 'cache-control': 'public, max-age=31536000' },
        body: samplePng(pathname),
      };
    }
    if (pathname.startsWith('/cdn/shop/files/')) {
      for (const s of stores.values()) {
        const file = s.files.get(pathname);
        if (file)
          return { status: 200, headers: { 'content-type': file.contentType }, body: file.body };
      }
    }
    return undefined;
  };

  const handler = async (request: EmulatorRequest): Promise<EmulatorResponse> => {
    const { pathname } = request.url;
    const file = request.method === 'GET' ? serveFile(pathname) : undefined;
    if (file) return file;

    const bulk = /^\/bulk-results\/(\d+)\.jsonl$/.exec(pathname);
    if (bulk && request.method === 'GET') {
      const id = Number(bulk[1]);
      for (const s of stores.values()) {
        const op = s.bulkOperations.get(id);
        if (op && op.token === request.url.searchParams.get('token') && now() >= op.readyAt)
          return rangeOf(Buffer.from(op.jsonl), request.headers.range);
      }
      return {
        status: 403,
        headers: { 'content-type': 'application/xml' },
        body: '<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>',
      };
    }

    const store = resolveShop(request);
    if (!store) return json(404, { errors: 'Not Found' });
    if (pathname === '/admin/oauth/authorize' && request.method === 'GET')
      return oauth.authorize(request, store);
    if (pathname === '/admin/oauth/access_token' && request.method === 'POST')
      return oauth.accessToken(request, store);
    if (pathname === GRAPHQL_PATH) return graphqlRequest(request, store);
    return json(404, { errors: 'Not Found' });
  };

  const { seed: _fixtureSeed, faultSeed, ...serverOptions } = options;
  const running = await startEmulator(handler, { ...serverOptions, seed: faultSeed });
  baseUrl = running.url;

  for (const [domain, store] of stores) {
    const seed = options.shopSeeds?.[domain] ?? options.seed ?? {};
    if (seed !== 'empty') seedShop(store, generateSampleStore({ currency, ...seed }));
  }

  const shopOf = (domain?: string): ShopStore => {
    const store = stores.get((domain ?? shops[0] ?? '').toLowerCase());
    if (!store) throw new Error(`Unknown shop ${domain ?? ''}`);
    return store;
  };

  return {
    ...running,
    accessToken,
    apiKey,
    apiSecret,
    shops,
    shop: shopOf,
    countStored(entity, domain) {
      const store = shopOf(domain);
      switch (entity) {
        case 'categories':
          return store.collections.size;
        case 'brands':
          return store.productVendors().length;
        case 'products':
          return store.products.size;
        case 'customers':
          return store.customers.size;
        case 'orders':
          return store.orders.size;
        case 'coupons':
          return store.discounts.size;
        case 'reviews':
          return countReviews(store);
        case 'pages':
          return store.pages.size;
        case 'posts':
          return store.articles.size;
      }
    },
  };
}
