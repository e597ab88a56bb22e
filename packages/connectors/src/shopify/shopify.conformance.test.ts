import { afterAll, expect, it } from 'vitest';
import { startShopifyEmulator } from '@replatform/emulators/shopify/shopify-emulator';
import { validateShopifyRequests } from '@replatform/emulators/shopify/request-validator';
import { describeConformance } from '../kit/conformance/conformance-suite.ts';
import type { Connector } from '../kit/contract.ts';
import { createShopifyConnector, type ShopifyCredentials } from './shopify-connector.ts';
import { allRecordedRequests, routeShop, shopRoutingHttp, testShopDomain } from './test-support.ts';

// Each store is its own emulator, reached as https://<shop>.myshopify.com through shopRoutingHttp.
// Stores run on the Plus plan (1,000 points/s) and back-offs are short so the suite stays fast; the
// pacing at the Standard plan's 100 points/s is tested in shopify-connector.test.ts.
const shopify = createShopifyConnector({ backoffMs: 20, bulkPollMs: 20 });

/**
 * Shopify downloads every image given by URL and serves its own copy from its CDN, so image URLs at
 * the destination are the shop's own by design. The canonical comparison here leaves image URLs out;
 * shopify-connector.test.ts checks that each image arrived (same file, alt text and position).
 */
const connector: Connector<ShopifyCredentials> = {
  ...shopify,
  capabilities: {
    ...shopify.capabilities,
    unsupportedFields: {
      ...shopify.capabilities.unsupportedFields,
      products: [
        ...(shopify.capabilities.unsupportedFields?.products ?? []),
        'images.url',
        'variants.imageUrl',
      ],
      categories: [...(shopify.capabilities.unsupportedFields?.categories ?? []), 'imageUrl'],
    },
  },
};

describeConformance('shopify', {
  compareVariantLinks: true,
  connector,
  http: shopRoutingHttp,
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
