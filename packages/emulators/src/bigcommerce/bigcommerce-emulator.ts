import { randomBytes } from 'node:crypto';
import {
  startEmulator,
  type EmulatorOptions,
  type EmulatorResponse,
  type RunningEmulator,
} from '../framework/server.ts';
import {
  generateSampleStore,
  samplePng,
  type SampleStoreOptions,
} from '../framework/sample-store.ts';
import type { CatalogContext } from './catalog.ts';
import { BcHttpError, v2Error, v3Error } from './http.ts';
import {
  planQuotas,
  QuotaWindow,
  type BigCommercePlan,
  type QuotaSettings,
  type QuotaStats,
} from './quota.ts';
import { buildRoutes, type ConcurrencyStats } from './routes.ts';
import { allScopes, missingScope, missingScopeTitle } from './scopes.ts';
import { contentPageTypes } from './content.ts';
import { seedFromSample } from './seed.ts';
import { BcState } from './state.ts';

/**
 * A stateful BigCommerce store on 127.0.0.1: /stores/{hash}/v3 (catalog with product reviews,
 * customers, web pages) and /stores/{hash}/v2 (store information, orders, coupons, blog), X-Auth-Token
 * authentication with the API account's OAuth scopes (scopes.ts), the per-store request quota
 * with its X-Rate-Limit-* headers, the customers API's batch and concurrency limits, and
 * BigCommerce's error bodies. Media are served under /media/.
 */

export interface BigCommerceEmulatorOptions extends Omit<EmulatorOptions, 'seed'> {
  /** Seed of the fault dice (EmulatorOptions.seed; `seed` here is the sample store). */
  faultSeed?: number;
  /** Sample store to load, or 'empty' for a store with only the default category tree. */
  seed?: SampleStoreOptions | 'empty';
  /** Store hash in the URL (^[a-z0-9]+$); random when not given. */
  storeHash?: string;
  /** The API account's access token (every scope at modify); random when not given. */
  accessToken?: string;
  /**
   * More API accounts of the store, each with the OAuth scope parameters it was made with
   * (`store_v2_products`, `store_v2_orders_read_only`, ...; scopes.ts), e.g. a read-only one.
   */
  apiAccounts?: { accessToken: string; scopes: readonly string[] }[];
  /** 150 (standard) or 450 (pro) requests per 30 s window; 'unlimited' never throttles. */
  plan?: BigCommercePlan;
  /** Overrides the plan's quota or window (tests use a short window with the same arithmetic). */
  quota?: Partial<QuotaSettings>;
  storeName?: string;
  /** Store currency when not seeded (a seeded store takes the sample's). */
  currency?: string;
  weightUnits?: 'KGS' | 'LBS' | 'Ounces' | 'Grams';
  dimensionUnits?: 'Centimeters' | 'Inches';
  /** How long each customers create/update stays in flight (default 0). */
  customerWriteMs?: number;
}

export type StoredEntity =
  | 'categories'
  | 'brands'
  | 'products'
  | 'coupons'
  | 'customers'
  | 'orders'
  | 'reviews'
  | 'pages'
  | 'posts';

export interface RunningBigCommerceEmulator extends RunningEmulator {
  storeHash: string;
  accessToken: string;
  state: BcState;
  /** Records the store holds of an entity (categories of every tree). */
  countStored(entity: StoredEntity): number;
  quotaStats(): QuotaStats;
  /** Share of the quota used in the windows that are over; undefined before one closed. */
  quotaUtilisation(): number | undefined;
  customerConcurrency: ConcurrencyStats;
}

const storeHashPattern = /^[a-z0-9]+$/;

export async function startBigCommerceEmulator(
  options: BigCommerceEmulatorOptions = {},
): Promise<RunningBigCommerceEmulator> {
  const storeHash = options.storeHash ?? `s${randomBytes(5).toString('hex')}`;
  if (!storeHashPattern.test(storeHash)) throw new Error('storeHash must match ^[a-z0-9]+$');
  const accessToken = options.accessToken ?? randomBytes(16).toString('hex');
  const accounts = new Map<string, ReadonlySet<string>>([[accessToken, new Set(allScopes)]]);
  for (const account of options.apiAccounts ?? [])
    accounts.set(account.accessToken, new Set(account.scopes));
  const plan = options.plan ?? 'standard';
  const quota = new QuotaWindow({ ...planQuotas[plan], ...options.quota });
  const sample = options.seed === 'empty' ? undefined : generateSampleStore(options.seed ?? {});

  const state = new BcState({
    name: options.storeName ?? 'Replatform Sandbox (BigCommerce)',
    currency: sample?.currency ?? options.currency ?? 'USD',
    weightUnits: options.weightUnits ?? 'KGS',
    dimensionUnits: options.dimensionUnits ?? 'Centimeters',
    planName: plan === 'pro' ? 'Pro' : plan === 'standard' ? 'Standard' : 'Enterprise',
  });
  let baseUrl = 'http://127.0.0.1';
  const ctx: CatalogContext = { state, storeHash, baseUrl: () => baseUrl, now: () => Date.now() };
  if (sample) seedFromSample(ctx, sample);

  const { router, concurrency } = buildRoutes(ctx, {
    customerWriteMs: options.customerWriteMs ?? 0,
    customerConcurrency: 3,
  });

  const running = await startEmulator(
    async (request): Promise<EmulatorResponse> => {
      const path = request.url.pathname;
      // Media, and the store's WebDAV image folder that blog thumbnails are paths of.
      if (
        request.method === 'GET' &&
        (path.startsWith('/media/') || path.startsWith('/product_images/'))
      ) {
        return { status: 200, headers: { 'content-type': 'image/png' }, body: samplePng(path) };
      }
      const match = /^\/stores\/([^/]+)(\/v[23])(\/.*)?$/.exec(path);
      if (!match) {
        return v3Error(new BcHttpError(404, 'Not found'));
      }
      const [, hash, version, rest = '/'] = match;
      const asError = version === '/v2' ? v2Error : v3Error;
      if (hash !== storeHash) return asError(new BcHttpError(404, 'Store not found'));
      const token = request.headers['x-auth-token'];
      const scopes = typeof token === 'string' ? accounts.get(token) : undefined;
      if (!scopes) {
        return asError(new BcHttpError(401, 'No valid credential was found for this request'));
      }
      if (missingScope(scopes, request.method, `${version}${rest}`)) {
        return asError(new BcHttpError(403, missingScopeTitle));
      }
      const decision = quota.take();
      if (!decision.allowed) {
        return asError(
          new BcHttpError(429, 'You have exceeded your request quota', {}, decision.headers),
        );
      }
      const withQuota = (response: EmulatorResponse): EmulatorResponse => ({
        ...response,
        headers: { ...response.headers, ...decision.headers },
      });
      const route = router.match(request.method, `${version}${rest}`);
      if (!route) {
        return withQuota(
          asError(new BcHttpError(404, `No route for ${request.method} ${version}${rest}`)),
        );
      }
      const contentType = String(request.headers['content-type'] ?? '');
      // The brand logo upload (brands_catalog.v3.yml createBrandImage) is the one form post.
      const formPost = /^\/v3\/catalog\/brands\/\d+\/image$/.test(`${version}${rest}`);
      if (
        request.body.length > 0 &&
        !formPost &&
        !contentType.toLowerCase().includes('application/json')
      ) {
        return withQuota(asError(new BcHttpError(415, 'Content-Type must be application/json')));
      }
      try {
        return withQuota(await route.handler(request, route.params));
      } catch (error) {
        if (error instanceof BcHttpError) return withQuota(asError(error));
        throw error;
      }
    },
    { ...options, seed: options.faultSeed },
  );
  baseUrl = running.url;

  const countStored = (entity: StoredEntity): number => {
    switch (entity) {
      case 'categories':
        return state.categories.length;
      case 'brands':
        return state.brands.length;
      case 'products':
        return state.products.length;
      case 'coupons':
        return state.coupons.length;
      case 'customers':
        return state.customers.length;
      case 'orders':
        return state.orders.length;
      case 'reviews':
        return state.reviews.length;
      case 'pages':
        // Content pages: menu links and the blog's own page are not pages a migration carries.
        return state.webPages.filter((p) => contentPageTypes.has(p.type)).length;
      case 'posts':
        return state.blogPosts.length;
    }
  };

  return {
    ...running,
    storeHash,
    accessToken,
    state,
    countStored,
    quotaStats: () => quota.stats(),
    quotaUtilisation: () => quota.utilisation(),
    customerConcurrency: concurrency,
  };
}
