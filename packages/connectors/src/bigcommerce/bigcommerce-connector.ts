import { z } from 'zod';
import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import {
  defineConnector,
  type Capabilities,
  type CheckOptions,
  type CheckResult,
  type Checkpoint,
  type Connection,
  type Connector,
  type ConnectorContext,
  type IdMap,
  type Page,
  type RateUsage,
  type Redirect,
  type RedirectOutcome,
  type WriteChoices,
  type AssetRecord,
  type RemoveOutcome,
  type WriteOutcome,
} from '../kit/contract.ts';
import { listInWords } from '../kit/words.ts';
import { ConnectorError } from '../kit/errors.ts';
import { BigCommerceClient, type ClientStats, type RetryPolicy } from './client.ts';
import type { PacerOptions } from './rate-pacer.ts';
import {
  pageSizes,
  readBrands,
  readCategories,
  readCoupons,
  readCustomers,
  readOrders,
  readPages,
  readPosts,
  readProducts,
  readReviews,
} from './read.ts';
import { BcSession, v3Total } from './session.ts';
import { writeBrands } from './write-brands.ts';
import { writeCategories, writeProducts } from './write-catalog.ts';
import { writeCoupons } from './write-coupons.ts';
import { customerConcurrency, customersPerCall, writeCustomers } from './write-customers.ts';
import { OrderMarkers, writeOrders } from './write-orders.ts';
import { writeReviews } from './write-reviews.ts';
import { writePages, writePosts } from './write-content.ts';
import { removeRecords, removeStoredAssets } from './remove.ts';
import { writeStoreRedirects } from './redirects.ts';
import { allNative, allWebPages, countReviews, isContentPage } from './native.ts';
import { bigCommerceDestinationFields, bigCommerceNativeFields } from './native-fields.ts';
import { couponCountSchema, orderCountSchema } from './payloads.ts';
import { parseAnswer } from './session.ts';

/**
 * BigCommerce connector: catalog v3 (with brands and product reviews), customers v3, orders v2
 * (platform-specs/bigcommerce), coupons v2 (marketing.v2.yml, kept in the emulators'
 * specs/bigcommerce).
 *
 * The store owner gives a store hash and an API account access token. The API address is built
 * from the hash (https://api.bigcommerce.com/stores/{hash}/...), so no address the owner types is
 * ever fetched. `apiBaseUrl` exists for sandbox stores and tests and is server configuration only:
 * it is a parameter of createBigCommerceConnector, never part of the credentials.
 */

export const bigCommerceCredentialsSchema = z.strictObject({
  /** The permanent store id from the API path, e.g. 'abc123' (lower-case letters and digits). */
  storeHash: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9]+$/, 'A store hash has only lower-case letters and digits'),
  /** Access token of a store-level API account (X-Auth-Token). */
  accessToken: z.string().trim().min(1).max(512),
});
export type BigCommerceCredentials = z.infer<typeof bigCommerceCredentialsSchema>;

export interface BigCommerceConnectorOptions {
  /**
   * Origin of the API, default https://api.bigcommerce.com. A function picks it per store hash
   * (sandbox stores each listen on their own port). Server configuration only.
   */
  apiBaseUrl?: string | ((storeHash: string) => string);
  retry?: Partial<RetryPolicy>;
  pacing?: PacerOptions;
  /** Records per read page (tests use small pages to walk many pages). */
  pageSizes?: Partial<Record<EntityType, number>>;
}

export interface BigCommerceConnection extends Connection {
  /** Requests, retries, 429s, quota waits and quota utilisation of this connection. */
  stats(): ClientStats;
  rateUsage(): RateUsage;
  /**
   * Every record of an entity as BigCommerce answers it, with the sub-resources a read takes
   * along (native.ts): what nativeFields declares and what two stores are compared on.
   */
  nativeRecords(entity: EntityType): Promise<Record<string, unknown>[]>;
  /** Undo: every written type can be removed (remove.ts). */
  remove(entity: EntityType, destinationIds: readonly string[]): Promise<RemoveOutcome[]>;
  /** Undo: the customer attributes the writes made and the redirects written (remove.ts). */
  removeAssets(assets: readonly AssetRecord[]): Promise<RemoveOutcome[]>;
  /** Storefront 301 redirects of the default channel's site (redirects.ts). */
  writeRedirects(redirects: readonly Redirect[]): Promise<RedirectOutcome[]>;
}

export type BigCommerceConnector = Omit<Connector<BigCommerceCredentials>, 'connect'> & {
  connect(credentials: BigCommerceCredentials, context: ConnectorContext): BigCommerceConnection;
};

export const bigCommerceCapabilities: Capabilities = {
  read: [
    'categories',
    'brands',
    'products',
    'coupons',
    'customers',
    'orders',
    'reviews',
    'pages',
    'posts',
  ],
  write: [
    'categories',
    'brands',
    'products',
    'coupons',
    'customers',
    'orders',
    'reviews',
    'pages',
    'posts',
  ],
  batchSize: {
    categories: 50,
    brands: 50,
    products: 25,
    coupons: 25,
    customers: customersPerCall * customerConcurrency,
    orders: 25,
    reviews: 25,
    // One level of the page tree per call; pages are written one per create.
    pages: 25,
    posts: 25,
  },
  pageSize: pageSizes,
  rateLimit: {
    description:
      '150 requests per 30 s per store on Standard/Plus (450 on Pro), shared by all apps of the store',
    requestsPerSecond: 5,
  },
  nativeFields: bigCommerceNativeFields,
  destinationFields: bigCommerceDestinationFields,
};

/**
 * One write per OAuth scope a destination needs, each of which changes nothing: an empty batch
 * update of products, an empty batch update of customers (the spec sets no minimum on either
 * list), an empty update of order 0, which no store has (order ids are positive), and an update
 * of coupon 0, which no store has either (a coupon update takes the coupon whole, marketing.v2.yml
 * coupon_Base, so it carries a valid coupon that is never stored), and an empty bulk update of web
 * pages. API
 * accounts have no endpoint that lists their scopes, but BigCommerce checks the scope of a request
 * before anything else, so a token that may only read gets 403 and any other answer (200, 404,
 * 422) shows it may write.
 */
const writeProbes = [
  {
    scope: 'Products',
    records: 'products, categories, brands and product reviews',
    path: '/v3/catalog/products',
    body: [],
  },
  { scope: 'Customers', records: 'customers', path: '/v3/customers', body: [] },
  { scope: 'Orders', records: 'orders', path: '/v2/orders/0', body: {} },
  {
    scope: 'Marketing',
    records: 'coupons',
    path: '/v2/coupons/0',
    body: {
      name: 'Replatform write check',
      code: 'REPLATFORM-WRITE-CHECK',
      type: 'per_total_discount',
      amount: '0',
      applies_to: { entity: 'categories', ids: [0] },
    },
  },
  // pages.v3.yml updatePages takes an array of pages: an empty one changes nothing.
  { scope: 'Content', records: 'web pages and blog posts', path: '/v3/content/pages', body: [] },
] as const;

class BigCommerceStoreConnection implements BigCommerceConnection {
  readonly #session: BcSession;
  readonly #orders: OrderMarkers;

  constructor(
    client: BigCommerceClient,
    pageSize: Record<EntityType, number>,
    choices: Partial<WriteChoices> = {},
  ) {
    this.#session = new BcSession(client, pageSize, choices);
    this.#orders = new OrderMarkers(this.#session);
  }

  stats(): ClientStats {
    return this.#session.client.stats();
  }

  nativeRecords(entity: EntityType): Promise<Record<string, unknown>[]> {
    return allNative(this.#session, entity);
  }

  rateUsage(): RateUsage {
    const { client } = this.#session;
    const usage = client.usage();
    return {
      unit: 'requests',
      usedPerSecond: usage.usedPerSecond,
      availablePerSecond:
        usage.availablePerSecond ?? bigCommerceCapabilities.rateLimit.requestsPerSecond ?? 5,
      throttled: client.stats().throttled,
    };
  }

  async check(options: CheckOptions = {}): Promise<CheckResult> {
    const store = await this.#session.store();
    const result = { ok: true as const, storeName: store.name, currency: store.units.currency };
    if (!options.write) return result;
    await this.#checkWrite();
    return { ...result, canWrite: true };
  }

  async #checkWrite(): Promise<void> {
    const missing: (typeof writeProbes)[number][] = [];
    for (const probe of writeProbes) {
      try {
        await this.#session.client.request('PUT', probe.path, { body: probe.body });
      } catch (error) {
        if (error instanceof ConnectorError && error.status === 403) missing.push(probe);
        else throw error;
      }
    }
    if (missing.length === 0) return;
    throw new ConnectorError(
      'config',
      'read_only_credentials',
      `This BigCommerce API account may not change ${listInWords(missing.map((p) => p.records))}: its ${listInWords(missing.map((p) => p.scope))} scope${missing.length > 1 ? 's are' : ' is'} not set to modify. A destination store needs an API account with Products, Customers, Orders, Marketing and Content set to modify: edit the account (or create a new one) under Settings > API > Store-level API accounts.`,
      { status: 403 },
    );
  }

  async count(entity: EntityType): Promise<number> {
    const { client } = this.#session;
    switch (entity) {
      case 'categories':
        return v3Total(client, '/v3/catalog/trees/categories', {
          'tree_id:in': [await this.#session.treeId()],
        });
      case 'brands':
        return v3Total(client, '/v3/catalog/brands');
      case 'products':
        return v3Total(client, '/v3/catalog/products');
      case 'coupons': {
        const answer = await client.ok('GET', '/v2/coupons/count');
        return parseAnswer(couponCountSchema, answer.body, 'GET /v2/coupons/count').count;
      }
      case 'customers':
        return v3Total(client, '/v3/customers');
      case 'orders': {
        const answer = await client.ok('GET', '/v2/orders/count');
        return parseAnswer(orderCountSchema, answer.body, 'GET /v2/orders/count').count;
      }
      case 'reviews':
        return countReviews(this.#session);
      case 'pages':
        return (await allWebPages(this.#session)).filter(isContentPage).length;
      case 'posts': {
        const answer = await client.ok('GET', '/v2/blog/posts/count');
        return parseAnswer(couponCountSchema, answer.body, 'GET /v2/blog/posts/count').count;
      }
    }
  }

  read<E extends EntityType>(entity: E, checkpoint: Checkpoint | null): AsyncIterable<Page<E>> {
    const readers: {
      [K in EntityType]: (s: BcSession, c: Checkpoint | null) => AsyncIterable<Page<K>>;
    } = {
      categories: readCategories,
      brands: readBrands,
      products: readProducts,
      coupons: readCoupons,
      customers: readCustomers,
      orders: readOrders,
      reviews: readReviews,
      pages: readPages,
      posts: readPosts,
    };
    return readers[entity](this.#session, checkpoint) as AsyncIterable<Page<E>>;
  }

  remove(entity: EntityType, destinationIds: readonly string[]): Promise<RemoveOutcome[]> {
    if (destinationIds.length === 0) return Promise.resolve([]);
    return removeRecords(this.#session, entity, destinationIds);
  }

  removeAssets(assets: readonly AssetRecord[]): Promise<RemoveOutcome[]> {
    if (assets.length === 0) return Promise.resolve([]);
    return removeStoredAssets(this.#session, assets);
  }

  /** 301 redirects of the default channel's site (redirects.ts). */
  writeRedirects(redirects: readonly Redirect[]): Promise<RedirectOutcome[]> {
    return writeStoreRedirects(this.#session, redirects);
  }

  async write<E extends EntityType>(
    entity: E,
    records: EntityRecord[E][],
    idMap: IdMap,
  ): Promise<WriteOutcome[]> {
    if (records.length === 0) return [];
    switch (entity) {
      case 'categories':
        return writeCategories(this.#session, records as EntityRecord['categories'][], idMap);
      case 'brands':
        return writeBrands(this.#session, records as EntityRecord['brands'][], idMap);
      case 'products':
        return writeProducts(this.#session, records as EntityRecord['products'][], idMap);
      case 'coupons':
        return writeCoupons(this.#session, records as EntityRecord['coupons'][], idMap);
      case 'customers':
        return writeCustomers(this.#session, records as EntityRecord['customers'][], idMap);
      case 'orders':
        return writeOrders(this.#session, this.#orders, records as EntityRecord['orders'][], idMap);
      case 'reviews':
        return writeReviews(this.#session, records as EntityRecord['reviews'][], idMap);
      case 'pages':
        return writePages(this.#session, records as EntityRecord['pages'][], idMap);
      case 'posts':
        return writePosts(this.#session, records as EntityRecord['posts'][], idMap);
    }
    return [];
  }
}

export function createBigCommerceConnector(
  options: BigCommerceConnectorOptions = {},
): BigCommerceConnector {
  const baseFor = (storeHash: string) =>
    typeof options.apiBaseUrl === 'function'
      ? options.apiBaseUrl(storeHash)
      : (options.apiBaseUrl ?? 'https://api.bigcommerce.com');
  const pageSize = { ...pageSizes, ...options.pageSizes };
  const connector = defineConnector<BigCommerceCredentials>({
    platform: 'bigcommerce',
    label: 'BigCommerce',
    credentialsSchema: bigCommerceCredentialsSchema,
    capabilities: { ...bigCommerceCapabilities, pageSize },
    connect(credentials, context) {
      const parsed = bigCommerceCredentialsSchema.safeParse(credentials);
      if (!parsed.success) {
        // Never echo the values: the token is a secret.
        throw new ConnectorError(
          'config',
          'invalid_credentials',
          `BigCommerce credentials are not valid (${parsed.error.issues.map((i) => i.path.join('.')).join(', ')})`,
        );
      }
      const { storeHash, accessToken } = parsed.data;
      const client = new BigCommerceClient({
        apiBaseUrl: baseFor(storeHash),
        storeHash,
        accessToken,
        http: context.http,
        retry: options.retry,
        pacing: options.pacing,
        signal: context.signal,
        log: context.log,
      });
      return new BigCommerceStoreConnection(client, pageSize, context.choices);
    },
  });
  return connector as BigCommerceConnector;
}

/** The connector for real stores at api.bigcommerce.com. */
export const bigCommerceConnector = createBigCommerceConnector();
