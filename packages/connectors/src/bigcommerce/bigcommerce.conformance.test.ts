import { expect, it } from 'vitest';
import { startBigCommerceEmulator } from '@replatform/emulators/bigcommerce/bigcommerce-emulator';
import { BigCommerceSpec } from '@replatform/emulators/bigcommerce/openapi-validator';
import { describeConformance } from '../kit/conformance/conformance-suite.ts';
import type { ConnectorHttpRequest } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { createBigCommerceConnector } from './bigcommerce-connector.ts';

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
  http: () => {
    const http = loopbackHttp();
    return {
      async request(request) {
        sent.push(request);
        return http.request(request);
      },
    };
  },
});

// Runs after the suite above (tests run in the order they are declared).
it('sent only requests that match the BigCommerce OpenAPI descriptions, faults included', () => {
  expect(sent.length).toBeGreaterThan(200);
  const spec = new BigCommerceSpec();
  const problems = [...new Set(sent.flatMap((r) => spec.validateRequest(r)))];
  expect(problems).toEqual([]);
});
