import { afterAll, expect, it } from 'vitest';
import { startShopifyEmulator } from '@replatform/emulators/shopify/shopify-emulator';
import { validateShopifyRequests } from '@replatform/emulators/shopify/request-validator';
import {
  describeConformance,
  type ConformanceStore,
} from '../kit/conformance/conformance-suite.ts';
import { shopifyAssignedOnWrite } from './native-fields.ts';
import {
  connectShopify,
  createShopifyConnector,
  type ShopifyCredentials,
} from './shopify-connector.ts';
import { allRecordedRequests, routeShop, shopRoutingHttp, testShopDomain } from './test-support.ts';

// Each store is its own emulator, reached as https://<shop>.myshopify.com through shopRoutingHttp.
// Stores run on the Plus plan (1,000 points/s) and back-offs are short so the suite stays fast; the
// pacing at the Standard plan's 100 points/s is tested in shopify-connector.test.ts.
const options = { backoffMs: 20, bulkPollMs: 20 };
const connector = createShopifyConnector(options);

const nativeOf = (store: ConformanceStore<ShopifyCredentials>) =>
  connectShopify(store.credentials, { http: shopRoutingHttp() }, options);

describeConformance('shopify', {
  compareVariantLinks: true,
  strictUnsupported: true,
  connector,
  http: shopRoutingHttp,
  // Shopify downloads every image given by URL and serves its own copy from its CDN, so image URLs
  // at the destination are the shop's own by design; shopify-connector.test.ts checks that each
  // image arrived (same file, alt text and position).
  storeOwned: {
    products: ['images.url', 'variants.imageUrl'],
    categories: ['imageUrl'],
    posts: ['featuredImageUrl'],
  },
  // Dates Shopify stamps itself on every record it creates.
  storeAssigned: {
    products: ['createdAt', 'updatedAt'],
    coupons: ['createdAt'],
    customers: ['createdAt'],
    orders: ['updatedAt'],
    pages: ['createdAt', 'updatedAt'],
    posts: ['createdAt', 'updatedAt'],
  },
  native: {
    // Shopify closes an order when it is cancelled: that closing is the cancellation's own stamp
    // (assigned like cancelledAt), so it is left out; an order closed at another time is kept.
    read: async (store, entity) =>
      (await nativeOf(store).readNative(entity)).map(({ id, record }) => {
        const order = record as { closedAt?: string | null; cancelledAt?: string | null };
        return entity === 'orders' && order.closedAt && order.closedAt === order.cancelledAt
          ? { id, record: { ...record, closedAt: null } }
          : { id, record };
      }),
    // A variant is the same in both shops when its product's handle and its options are.
    async variantKeys(store) {
      const keys = new Map<string, string>();
      for (const { record } of await nativeOf(store).readNative('products')) {
        const product = record as {
          handle: string;
          variants: { nodes: { id: string; selectedOptions: { value: string }[] }[] };
        };
        for (const v of product.variants.nodes)
          keys.set(v.id, `${product.handle}|${v.selectedOptions.map((o) => o.value).join('/')}`);
      }
      return keys;
    },
    assignedOnWrite: shopifyAssignedOnWrite,
  },
  async startStore(kind, sample) {
    const shopDomain = testShopDomain(kind);
    const emulator = await startShopifyEmulator({
      shops: [shopDomain],
      seed: kind === 'seeded' ? sample : 'empty',
      plan: 'plus',
      bulkDelayMs: 20,
    });
    const unroute = routeShop(shopDomain, emulator.url);
    return {
      credentials: { shopDomain, accessToken: emulator.accessToken },
      emulator,
      countStored: (entity) => emulator.countStored(entity),
      async close() {
        unroute();
        await emulator.close();
      },
    };
  },
});

afterAll(() => {
  // Every request the connector sent during the suite is valid against the 2026-10 schema.
  expect(allRecordedRequests.length).toBeGreaterThan(0);
  expect(validateShopifyRequests(allRecordedRequests)).toEqual([]);
});

it('records requests for validation', () => {
  expect(typeof shopRoutingHttp).toBe('function');
});
