import { adminSchema } from '@replatform/emulators/magento2/admin-schema';
import { startMagentoEmulator } from '@replatform/emulators/magento2/magento-emulator';
import { sampleInstallation } from '@replatform/emulators/magento2/seed-fidelity';
import { expect, it } from 'vitest';
import type { ConnectorHttpRequest } from '../kit/contract.ts';
import {
  describeConformance,
  type ConformanceStore,
} from '../kit/conformance/conformance-suite.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { MagentoClient, type MagentoCredentials } from './client.ts';
import { magentoConnector } from './magento-connector.ts';
import { pageAfter } from './native.ts';
import { readNative } from './read.ts';
import { MagentoSession } from './session.ts';

// Every request of every connection the suite opens, checked against the spec at the end.
const recorded: ConnectorHttpRequest[][] = [];
const emulators: Awaited<ReturnType<typeof startMagentoEmulator>>[] = [];

/** A session on a store for reading it in Magento's own form. */
function sessionOf(store: ConformanceStore<MagentoCredentials>): MagentoSession {
  const http = loopbackHttp();
  return new MagentoSession(new MagentoClient(store.credentials, http), { http });
}

describeConformance('magento2', {
  compareVariantLinks: true,
  connector: magentoConnector,
  // Images are copied into the destination's media storage, where they get its own addresses.
  storeOwned: { products: ['images.url', 'variants.imageUrl'] },
  // Magento writes a product's parts one request after another, so every hung request of the
  // fault tests costs its full deadline; the emulator answers in milliseconds.
  faultTimeoutMs: 1_000,
  http: () => {
    const http = loopbackHttp();
    recorded.push(http.requests);
    return http;
  },
  async startStore(kind, sample) {
    const emulator = await startMagentoEmulator({
      seed: kind === 'seeded' ? sample : 'empty',
      // The destination is an installation with the same modules (customer and category
      // attributes, downloadable domains) as the source.
      installation: sampleInstallation,
      bulk: { tickMs: 2, perTick: 50 },
    });
    emulators.push(emulator);
    return {
      credentials: { storeUrl: emulator.url, ...emulator.credentials },
      emulator,
      countStored: (entity) => emulator.store.countCanonical(entity),
      close: () => emulator.close(),
    };
  },
  native: {
    read: (store, entity) => readNative(sessionOf(store), entity),
    // Products of both stores keep their SKUs: an item's product (a variant's too) is named by it.
    async variantKeys(store) {
      const session = sessionOf(store);
      const keys = new Map<string, string>();
      for (let after = 0; ;) {
        const { items, total } = await pageAfter(session, '/V1/products', 'entity_id', after, 300);
        for (const p of items) {
          keys.set(String(p.id), `sku:${String(p.sku)}`);
          after = Math.max(after, Number(p.id));
        }
        if (total <= items.length || !items.length) break;
      }
      return keys;
    },
    assignedOnWrite: {
      products: {
        created_at: 'Magento stamps its own creation date when a product is saved',
        'media_gallery_entries[].file':
          'Magento names its copy of an uploaded image itself (dispersion folders, a suffix when taken)',
        'children[].media_gallery_entries[].file':
          'Magento names its copy of an uploaded image itself',
      },
      categories: {
        'custom_attributes.image':
          "Magento's REST API cannot upload a category image (reported per category)",
      },
      pages: {
        creation_time: 'Magento stamps its own creation time when a CMS page is saved',
        update_time: 'Magento stamps its own update time when a CMS page is saved',
      },
      customers: {
        'extension_attributes.is_subscribed':
          'not written: subscribing a customer to the newsletter makes Magento e-mail them (reported per customer)',
      },
    },
  },
});

it('sent only requests that admin-schema-2.4.9.yaml describes', () => {
  const spec = adminSchema();
  const requests = recorded.flat().filter((r) => new URL(r.url).pathname.startsWith('/rest/'));
  expect(requests.length).toBeGreaterThan(500);
  const problems = [...new Set(requests.flatMap((r) => spec.checkRequest(r)))];
  expect(problems).toEqual([]);
});

it('never e-mailed a customer while importing', () => {
  expect(emulators.length).toBeGreaterThanOrEqual(3);
  for (const emulator of emulators) expect(emulator.store.customers.outbox).toEqual([]);
});
