import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import { z } from 'zod';
import {
  defineConnector,
  type CheckOptions,
  type CheckResult,
  type Checkpoint,
  type Connection,
  type ConnectorContext,
  type Page,
  type WriteOutcome,
} from '../kit/contract.ts';
import { ordersCannotBeRemoved, removeRecords, removeTermAssets } from './remove.ts';
import { ConnectorError } from '../kit/errors.ts';
import { MagentoApiError, MagentoClient, type MagentoCredentials } from './client.ts';
import {
  countBrands,
  countCategories,
  countCoupons,
  countCustomers,
  countOrders,
  countPages,
  countProducts,
  pageSizes,
  readBrands,
  readCategories,
  readCoupons,
  readCustomers,
  readOrders,
  readPages,
  readProducts,
} from './read.ts';
import { MagentoSession } from './session.ts';
import { readStoreValues } from './store-values.ts';
import { writeBrands } from './write-brands.ts';
import { writeCategories } from './write-categories.ts';
import { writeProducts } from './write-products.ts';
import { magentoDestinationFields, magentoNativeFields } from './native-fields.ts';
import { writeCoupons } from './write-coupons.ts';
import { writeCustomers } from './write-customers.ts';
import { writeOrders } from './write-orders.ts';
import { writePages } from './write-pages.ts';
import { checkWriteAccess } from './write-access.ts';

/**
 * Magento 2 / Adobe Commerce connector over the admin REST API (admin-schema-2.4.9.yaml), as an
 * integration with OAuth 1.0a credentials (System > Extensions > Integrations: consumer key and
 * secret, access token and secret). See client.ts for signing and retries, read.ts for paging and
 * mapping to the canonical model, write-*.ts for markers and the no-e-mail rules.
 */

const secret = z.string().trim().min(1).max(256);

export const magentoCredentialsSchema = z.strictObject({
  /** Store base URL, e.g. https://shop.example.com (REST lives under /rest). */
  storeUrl: z.url({ protocol: /^https?$/ }),
  consumerKey: secret,
  consumerSecret: secret,
  accessToken: secret,
  accessTokenSecret: secret,
  /** Store view code for reads (default 'default'); writes use the global 'all' scope. */
  storeCode: z
    .string()
    .regex(
      /^[a-z][a-z0-9_]*$/,
      'a Magento store view code (lower-case letters, digits, underscores)',
    )
    .optional(),
});

export const magentoConnector = defineConnector<MagentoCredentials>({
  platform: 'magento2',
  label: 'Magento 2 / Adobe Commerce',
  credentialsSchema: magentoCredentialsSchema,
  // Reviews are neither: Magento's web API (admin-schema-2.4.9) has no product reviews. Blog
  // posts are neither: core Magento has no blog (CMS pages are the only content it keeps).
  capabilities: {
    read: ['categories', 'brands', 'products', 'coupons', 'customers', 'orders', 'pages'],
    write: ['categories', 'brands', 'products', 'coupons', 'customers', 'orders', 'pages'],
    batchSize: {
      categories: 25,
      brands: 50,
      products: 10,
      coupons: 20,
      customers: 50,
      orders: 20,
      pages: 20,
    },
    pageSize: pageSizes,
    rateLimit: {
      description:
        'No general REST rate limit in Magento 2.4 (limits.json magento2.rate_limit); throughput is bounded by the server',
    },
    nativeFields: magentoNativeFields,
    destinationFields: magentoDestinationFields,
    // admin-schema-2.4.9.yaml has no DELETE for /V1/orders (nor does the admin): see remove.ts.
    removeUnsupported: { orders: ordersCannotBeRemoved },
  },
  connect(credentials: MagentoCredentials, context: ConnectorContext): Connection {
    const client = new MagentoClient(credentials, context.http, {
      ...(context.log ? { log: context.log } : {}),
      ...(context.signal ? { signal: context.signal } : {}),
      ...(context.limiter ? { limiter: context.limiter } : {}),
    });
    const session = new MagentoSession(client, context);
    return {
      async check(options: CheckOptions = {}): Promise<CheckResult> {
        let result: CheckResult;
        try {
          const [config, storeName] = await Promise.all([
            session.storeConfig(),
            session.storeName(),
          ]);
          result = { ok: true, storeName, currency: config.base_currency_code.toUpperCase() };
        } catch (error) {
          const notMagento =
            (error instanceof MagentoApiError && error.status === 404) ||
            (error instanceof ConnectorError && error.code === 'not_json');
          if (notMagento) {
            throw new ConnectorError(
              'config',
              'not_magento',
              'No Magento REST API answers at this store URL',
              {
                status: 404,
              },
            );
          }
          throw error;
        }
        if (!options.write) return result;
        await checkWriteAccess(client, session.choices);
        return { ...result, canWrite: true };
      },
      async count(entity: EntityType) {
        switch (entity) {
          case 'categories':
            return countCategories(session);
          case 'brands':
            return countBrands(session);
          case 'products':
            return countProducts(session);
          case 'coupons':
            return countCoupons(session);
          case 'customers':
            return countCustomers(session);
          case 'orders':
            return countOrders(session);
          case 'pages':
            return countPages(session);
          case 'reviews':
            throw noReviews();
          case 'posts':
            throw noPosts();
        }
      },
      read<E extends EntityType>(entity: E, checkpoint: Checkpoint | null): AsyncIterable<Page<E>> {
        const readers: { [K in EntityType]: (c: Checkpoint | null) => AsyncIterable<Page<K>> } = {
          categories: (c) => readCategories(session, c),
          brands: () => readBrands(session),
          products: (c) => readProducts(session, c),
          coupons: (c) => readCoupons(session, c),
          customers: (c) => readCustomers(session, c),
          orders: (c) => readOrders(session, c),
          pages: () => readPages(session),
          reviews: () => {
            throw noReviews();
          },
          posts: () => {
            throw noPosts();
          },
        };
        return readers[entity](checkpoint) as AsyncIterable<Page<E>>;
      },
      async write<E extends EntityType>(
        entity: E,
        records: EntityRecord[E][],
        idMap: Parameters<Connection['write']>[2],
      ): Promise<WriteOutcome[]> {
        switch (entity) {
          case 'categories':
            return writeCategories(session, records as EntityRecord['categories'][], idMap);
          case 'brands':
            return writeBrands(session, records as EntityRecord['brands'][], idMap);
          case 'products':
            return writeProducts(session, records as EntityRecord['products'][], idMap);
          case 'coupons':
            return writeCoupons(session, records as EntityRecord['coupons'][], idMap);
          case 'customers':
            return writeCustomers(session, records as EntityRecord['customers'][]);
          case 'orders':
            return writeOrders(session, records as EntityRecord['orders'][], idMap);
          case 'pages':
            return writePages(session, records as EntityRecord['pages'][], idMap);
          case 'reviews':
            throw noReviews();
          case 'posts':
            throw noPosts();
        }
        throw new ConnectorError('system', 'unknown_entity', `Unknown entity ${String(entity)}`);
      },
      remove(entity, destinationIds) {
        return removeRecords(session, entity, destinationIds);
      },
      removeAssets(assets) {
        return removeTermAssets(session, assets);
      },
      storeValues() {
        return readStoreValues(session);
      },
    };
  },
});

/**
 * Magento's web API has no route for product reviews (the admin REST description of 2.4.9 names
 * none), so a Magento store can neither give nor take them; the product asks for neither.
 */
function noReviews(): ConnectorError {
  return new ConnectorError(
    'config',
    'unsupported_entity',
    "Magento 2's web API has no product reviews to read or write.",
  );
}

/**
 * Core Magento has no blog (its content is CMS pages and blocks), so a Magento store can neither
 * give nor take blog posts; the product asks for neither.
 */
function noPosts(): ConnectorError {
  return new ConnectorError(
    'config',
    'unsupported_entity',
    'Core Magento 2 has no blog: there are no blog posts to read or write.',
  );
}
