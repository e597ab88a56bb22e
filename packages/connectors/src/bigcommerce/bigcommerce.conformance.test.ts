import { expect, it } from 'vitest';
import { startBigCommerceEmulator } from '@replatform/emulators/bigcommerce/bigcommerce-emulator';
import { BigCommerceSpec } from '@replatform/emulators/bigcommerce/openapi-validator';
import {
  describeConformance,
  type ConformanceStore,
} from '../kit/conformance/conformance-suite.ts';
import type { ConnectorHttpRequest } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import {
  createBigCommerceConnector,
  type BigCommerceCredentials,
} from './bigcommerce-connector.ts';
import { bigCommerceAssignedOnWrite } from './native-fields.ts';

// Each sandbox store listens on its own port; the server-side resolver maps store hash -> origin.
const origins = new Map<string, string>();
const sent: ConnectorHttpRequest[] = [];

const connector = createBigCommerceConnector({
  apiBaseUrl: (storeHash) => {
    const origin = origins.get(storeHash);
    if (!origin) throw new Error(`no emulator for store ${storeHash}`);
    return origin;
  },
  retry: { baseDelayMs: 5, maxDelayMs: 50, maxAttempts: 10 },
  // Small pages, so that reads walk many pages: the suite injects faults into the product read
  // (40 products) and expects to meet some, so products come one per page.
  pageSizes: { categories: 4, products: 1, customers: 6, orders: 4 },
});

const recording = () => {
  const http = loopbackHttp();
  return {
    async request(request: ConnectorHttpRequest) {
      sent.push(request);
      return http.request(request);
    },
  };
};

/** A connection that reads the store's records as BigCommerce answers them. */
const nativeOf = (store: ConformanceStore<BigCommerceCredentials>) =>
  connector.connect(store.credentials, { http: recording() });

let stores = 0;

describeConformance('bigcommerce', {
  compareVariantLinks: true,
  connector,
  async startStore(kind, sample) {
    stores += 1;
    const emulator = await startBigCommerceEmulator({
      seed: kind === 'seeded' ? sample : 'empty',
      storeHash: `conformance${stores}`,
      plan: 'unlimited',
      faultSeed: stores,
    });
    origins.set(emulator.storeHash, emulator.url);
    return {
      credentials: { storeHash: emulator.storeHash, accessToken: emulator.accessToken },
      emulator,
      countStored: (entity) => emulator.countStored(entity),
      close: () => emulator.close(),
    };
  },
  http: recording,
  // BigCommerce downloads every image and serves its own copy.
  storeOwned: {
    categories: ['imageUrl'],
    brands: ['imageUrl'],
    products: ['images.url', 'variants.imageUrl'],
  },
  native: {
    async read(store, entity) {
      const records = await nativeOf(store).nativeRecords(entity);
      return records.map((record) => ({
        id: String(record.id ?? record.category_id),
        record,
      }));
    },
    // Variants are told apart by their SKU, unique in a BigCommerce store.
    async variantKeys(store) {
      const keys = new Map<string, string>();
      for (const product of await nativeOf(store).nativeRecords('products'))
        for (const variant of (product.variants as Record<string, unknown>[] | undefined) ?? [])
          keys.set(String(variant.id), `sku:${String(variant.sku)}`);
      return keys;
    },
    assignedOnWrite: bigCommerceAssignedOnWrite,
  },
});

// Runs after the suite above (tests run in the order they are declared).
it('sent only requests that match the BigCommerce OpenAPI descriptions, faults included', () => {
  expect(sent.length).toBeGreaterThan(200);
  const spec = new BigCommerceSpec();
  const problems = [...new Set(sent.flatMap((r) => spec.validateRequest(r)))];
  expect(problems).toEqual([]);
});
