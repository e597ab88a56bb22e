import { afterAll, expect } from 'vitest';
import { checkRequest } from '@replatform/emulators/woocommerce/testing/spec';
import { checkWpRequest } from '@replatform/emulators/woocommerce/testing/wp-spec';
import { startWooCommerceEmulator } from '@replatform/emulators/woocommerce/woocommerce-emulator';
import type { ConnectorHttpRequest } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { describeConformance } from '../kit/conformance/conformance-suite.ts';
import { nativeAccess, storeAssigned, storedCount, storeOwned } from './conformance-support.ts';
import { wooCommerceConnector } from './woocommerce.ts';

/**
 * The conformance suite over the loopback test transport and plain http (OAuth 1.0a signatures).
 * woocommerce.conformance-guarded.test.ts runs it again through the production client.
 */

/**
 * Every request the suite makes the connector send, checked against the wc/v3 index, or the
 * wp/v2 description for pages and posts; a featured image's download is no REST call.
 */
const checkAny = (r: ConnectorHttpRequest): string[] => {
  const path = new URL(r.url).pathname;
  if (path.startsWith('/wp-json/wp/v2')) return checkWpRequest(r);
  if (!path.startsWith('/wp-json') && r.method === 'GET') return [];
  return checkRequest(r);
};
const recordings: ConnectorHttpRequest[][] = [];
afterAll(() => {
  const problems = recordings
    .flat()
    .flatMap((r) => checkAny(r).map((p) => `${r.method} ${new URL(r.url).pathname}: ${p}`));
  expect(problems).toEqual([]);
  expect(recordings.flat().length).toBeGreaterThan(100);
});

describeConformance('woocommerce', {
  connector: wooCommerceConnector,
  storeOwned,
  storeAssigned,
  strictUnsupported: true,
  native: nativeAccess(),
  compareVariantLinks: true,
  http: () => {
    const http = loopbackHttp();
    recordings.push(http.requests);
    return http;
  },
  startStore: async (kind, sample) => {
    const emulator = await startWooCommerceEmulator({ seed: kind === 'seeded' ? sample : 'empty' });
    return {
      credentials: {
        storeUrl: emulator.url,
        consumerKey: emulator.consumerKey,
        consumerSecret: emulator.consumerSecret,
        wordpressUser: emulator.wordpressUser,
        wordpressApplicationPassword: emulator.wordpressApplicationPassword,
      },
      emulator,
      countStored: (entity) => storedCount(emulator, entity),
      close: () => emulator.close(),
    };
  },
});
