import { afterAll, expect } from 'vitest';
import type { EntityType } from '@replatform/canonical/entities';
import { checkRequest } from '@replatform/emulators/woocommerce/testing/spec';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import type { Connector, ConnectorHttpRequest } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { describeConformance } from '../kit/conformance/conformance-suite.ts';
import type { WooCommerceCredentials } from './credentials.ts';
import { wooCommerceConnector } from './woocommerce.ts';

/**
 * A WooCommerce store downloads every image it is given by URL into its own media library
 * (wc_rest_upload_image_from_url), so image URLs at the destination are the store's own by
 * design. The canonical comparison here leaves image URLs out; woocommerce.round-trip.test.ts
 * checks that each image arrived (same file, same alt text, same position).
 */
const connector: Connector<WooCommerceCredentials> = {
  ...wooCommerceConnector,
  capabilities: {
    ...wooCommerceConnector.capabilities,
    unsupportedFields: {
      ...wooCommerceConnector.capabilities.unsupportedFields,
      products: [
        ...(wooCommerceConnector.capabilities.unsupportedFields?.products ?? []),
        'images.url',
        'variants.imageUrl',
      ],
      categories: [
        ...(wooCommerceConnector.capabilities.unsupportedFields?.categories ?? []),
        'imageUrl',
      ],
    },
  },
};

function storedCount(emulator: RunningWooCommerceEmulator, entity: EntityType): number {
  const counts = emulator.store.counts();
  // "Uncategorized" is WooCommerce's own placeholder category, present in every store.
  if (entity === 'categories') return counts.categories - 1;
  return counts[entity];
}

/** Every request the suite makes the connector send, checked against the wc/v3 index. */
const recordings: ConnectorHttpRequest[][] = [];
afterAll(() => {
  const problems = recordings
    .flat()
    .flatMap((r) => checkRequest(r).map((p) => `${r.method} ${new URL(r.url).pathname}: ${p}`));
  expect(problems).toEqual([]);
  expect(recordings.flat().length).toBeGreaterThan(100);
});

describeConformance('woocommerce', {
  connector,
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
      },
      emulator,
      countStored: (entity) => storedCount(emulator, entity),
      close: () => emulator.close(),
    };
  },
});
