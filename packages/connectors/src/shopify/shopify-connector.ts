import { z } from 'zod';
import type { EntityType } from '@replatform/canonical/entities';
import {
  defineConnector,
  type Capabilities,
  type CheckOptions,
  type CheckResult,
  type Connection,
  type ConnectorContext,
  type Connector,
  type RateUsage,
} from '../kit/contract.ts';
import { listInWords } from '../kit/words.ts';
import { ConnectorError } from '../kit/errors.ts';
import type { CostStats } from './cost-bucket.ts';
import { appAccessScopes, shopInfo } from './documents.ts';
import { ShopifyGraphqlClient } from './graphql-client.ts';
import { isValidShopDomain } from './oauth.ts';
import { shopifyDestinationFields, shopifyNativeFields } from './native-fields.ts';
import { countOf, readEntity, readNativeRecords, readPageSizes } from './read.ts';
import { ShopifyRedirects } from './redirects.ts';
import { ShopifyRemover } from './remove.ts';
import { ShopifyWriter } from './write.ts';

/**
 * Shopify through the Admin GraphQL API 2026-10 only (never the legacy REST API). Credentials are
 * the shop's permanent domain and an Admin API access token (from the app install or a custom app).
 */

export const shopifyCredentialsSchema = z.strictObject({
  /** The permanent domain, name.myshopify.com. */
  shopDomain: z.string().refine(isValidShopDomain, 'must be the shop’s name.myshopify.com domain'),
  accessToken: z.string().min(1),
});
export type ShopifyCredentials = z.infer<typeof shopifyCredentialsSchema>;

export interface ShopifyConnectorOptions {
  /** Above this many records an entity is read with a bulk operation (default 100). */
  bulkThreshold?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** First back-off after a transient failure, in ms. */
  backoffMs?: number;
  /** First polling interval of bulk operations, in ms. */
  bulkPollMs?: number;
}

export interface ShopifyConnection extends Connection {
  /** Requests, points, waits and throttling so far, in more detail than rateUsage(). */
  stats(): CostStats;
  rateUsage(): RateUsage;
  /** Every record of an entity as Shopify answers the read queries (see native-fields.ts). */
  readNative(entity: EntityType): Promise<{ id: string; record: Record<string, unknown> }[]>;
}

export const shopifyCapabilities: Capabilities = {
  // Brands are read (the products' vendors) but not written: Shopify has no brand records
  // (unwritableDataTypes.shopify.brands), and a product written keeps its brand as its vendor.
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
  write: ['categories', 'products', 'coupons', 'customers', 'orders', 'reviews', 'pages', 'posts'],
  batchSize: {
    categories: 25,
    products: 10,
    coupons: 25,
    customers: 25,
    orders: 10,
    reviews: 50,
    pages: 25,
    posts: 25,
  },
  pageSize: readPageSizes,
  rateLimit: {
    description:
      'Calculated query cost, leaky bucket per app and shop: 100 points/s restored on Standard plans (200 Advanced, 1,000 Plus, 2,000 Enterprise); single queries at most 1,000 points.',
    requestsPerSecond: 100,
  },
  nativeFields: shopifyNativeFields,
  destinationFields: shopifyDestinationFields,
};

/**
 * The write scopes a destination needs and what each lets the connector create (requiredAccess of
 * productSet and collectionCreate, discountCodeBasicCreate, customerCreate, orderCreate in the
 * 2026-10 schema; metafieldsSet and metafieldsDelete need the scope of the record whose metafields
 * they change, so write_products covers the reviews kept in product metafields). Redirects (write_online_store_navigation) and orders on
 * hold (write_merchant_managed_fulfillment_orders) are not among them: without those scopes the
 * records are still written, each with a warning.
 */
export const destinationScopes = {
  write_products: 'products, collections and product reviews',
  write_discounts: 'discount codes',
  write_customers: 'customers',
  write_orders: 'orders',
} as const;

// Without write_content the records are written, and each page and blog article fails with the
// scope named.
const optionalWriteScopes = [
  'write_content',
  'write_online_store_navigation',
  'write_merchant_managed_fulfillment_orders',
];

/**
 * Proves write access by Shopify's own report of the token's permissions: the scopes granted to
 * the app's installation (currentAppInstallation.accessScopes, which every app may read). A write
 * scope includes its read scope on Shopify, so only the write scopes are looked at.
 */
async function checkWriteScopes(
  client: ShopifyGraphqlClient,
  log: ConnectorContext['log'],
): Promise<void> {
  const answer = await client.request(appAccessScopes);
  const granted = new Set(answer.currentAppInstallation.accessScopes.map((s) => s.handle));
  const missing = (Object.keys(destinationScopes) as (keyof typeof destinationScopes)[]).filter(
    (scope) => !granted.has(scope),
  );
  if (missing.length)
    throw new ConnectorError(
      'config',
      'read_only_credentials',
      `This Shopify access token may not create or change ${listInWords(missing.map((s) => destinationScopes[s]))}: it lacks the ${listInWords(missing)} access scope${missing.length > 1 ? 's' : ''}. A destination store needs an app with ${listInWords(Object.keys(destinationScopes))}: grant them to the app (a custom app: under its Admin API access scopes) and have the shop approve the update.`,
    );
  const optional = optionalWriteScopes.filter((scope) => !granted.has(scope));
  if (optional.length) log?.('shopify: optional write scopes not granted', { scopes: optional });
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Whether orderCreate takes at most 5 orders a minute on this shop: development stores and stores
 * on a free trial ("Trial", "Plus Trial" or "Development" plans; orderCreate's 2026-10 description).
 */
export function limitsOrders(plan: { partnerDevelopment: boolean; publicDisplayName: string }) {
  return plan.partnerDevelopment || /\b(trial|development)\b/i.test(plan.publicDisplayName);
}

export function connectShopify(
  credentials: ShopifyCredentials,
  context: ConnectorContext,
  options: ShopifyConnectorOptions = {},
): ShopifyConnection {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const client = new ShopifyGraphqlClient({
    shopDomain: credentials.shopDomain,
    accessToken: credentials.accessToken,
    http: context.http,
    now,
    sleep,
    ...(context.log ? { log: context.log } : {}),
    ...(context.signal ? { signal: context.signal } : {}),
    ...(options.backoffMs !== undefined ? { backoffMs: options.backoffMs } : {}),
  });
  let shop: ReturnType<typeof loadShop> | undefined;
  const loadShop = () => client.request(shopInfo).then((r) => r.shop);
  const shopDetails = () => {
    shop ??= loadShop();
    shop.catch(() => {
      shop = undefined;
    });
    return shop;
  };
  const writer = new ShopifyWriter({
    client,
    now,
    sleep,
    ...(context.log ? { log: context.log } : {}),
    ...(options.backoffMs !== undefined ? { backoffMs: options.backoffMs } : {}),
    developmentStore: async () => limitsOrders((await shopDetails()).plan),
    ...(context.choices ? { choices: context.choices } : {}),
    currency: async () => (await shopDetails()).currencyCode,
  });
  const remover = new ShopifyRemover(client);
  const redirects = new ShopifyRedirects(client);
  const readContext = {
    client,
    http: context.http,
    sleep,
    ...(context.signal ? { signal: context.signal } : {}),
    ...(options.bulkPollMs !== undefined ? { pollMs: options.bulkPollMs } : {}),
    currency: async () => (await shopDetails()).currencyCode,
    bulkThreshold: options.bulkThreshold ?? 100,
  };

  return {
    async check(checkOptions: CheckOptions = {}): Promise<CheckResult> {
      const details = await shopDetails();
      const result = { ok: true as const, storeName: details.name, currency: details.currencyCode };
      if (!checkOptions.write) return result;
      await checkWriteScopes(client, context.log);
      return { ...result, canWrite: true };
    },
    count: (entity: EntityType) => countOf(client, entity),
    read: (entity, checkpoint) => readEntity(readContext, entity, checkpoint),
    write: (entity, records, idMap) => writer.write(entity, records, idMap),
    prepareImport: () => writer.prepare(),
    // Nothing to undo: no shop setting is changed for an import (e-mails are asked for, or not, per
    // order and customer) and the marker definitions stay for re-runs.
    finishImport: async () => [],
    remove: (entity, ids) => remover.remove(entity, ids),
    removeAssets: (assets) => remover.removeAssets(assets),
    writeRedirects: (list) => redirects.write(list),
    stats: () => client.stats(),
    readNative: (entity) => readNativeRecords(client, entity),
    rateUsage: () => client.rateUsage(shopifyCapabilities.rateLimit.requestsPerSecond ?? 100),
  };
}

export function createShopifyConnector(
  options: ShopifyConnectorOptions = {},
): Connector<ShopifyCredentials> {
  return defineConnector({
    platform: 'shopify',
    label: 'Shopify',
    credentialsSchema: shopifyCredentialsSchema,
    capabilities: shopifyCapabilities,
    connect: (credentials, context) => connectShopify(credentials, context, options),
  });
}

export const shopifyConnector = createShopifyConnector();
