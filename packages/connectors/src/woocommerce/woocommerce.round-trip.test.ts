import { describe, expect, it } from 'vitest';
import { entityTypes, type EntityType } from '@replatform/canonical/entities';
import type { SampleStoreOptions } from '@replatform/emulators/framework/sample-store';
import { checkRequest } from '@replatform/emulators/woocommerce/testing/spec';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import { comparable } from '../kit/conformance/compare.ts';
import { copyAll, MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { Connector } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { wooCommerceConnector } from './woocommerce.ts';

/**
 * WooCommerce -> canonical -> WooCommerce, field by field. The destination downloads every image
 * into its own media library, so a destination image URL is compared through the URL the store
 * downloaded it from (WooCommerce keeps it as `_wc_attachment_source`), and each destination
 * image must really be served.
 */

type Origin = (url: string | null) => string | null;

function withImageOrigins(entity: EntityType, record: Record<string, unknown>, origin: Origin) {
  if (entity === 'products') {
    record.images = (record.images as { url: string }[]).map((i) => ({ ...i, url: origin(i.url) }));
    for (const v of record.variants as { imageUrl: string | null }[])
      v.imageUrl = origin(v.imageUrl);
  }
  if (entity === 'categories') record.imageUrl = origin(record.imageUrl as string | null);
  return record;
}

const downloadedFrom =
  (emu: RunningWooCommerceEmulator): Origin =>
  (url) => {
    if (url === null) return null;
    const path = new URL(url).pathname;
    return (
      [...emu.store.attachments.values()].find((a) => a.path === path)?.source ??
      `not downloaded: ${url}`
    );
  };
const unchanged: Origin = (url) => url;

const connect = (emu: RunningWooCommerceEmulator, http = loopbackHttp()) =>
  wooCommerceConnector.connect(
    { storeUrl: emu.url, consumerKey: emu.consumerKey, consumerSecret: emu.consumerSecret },
    { http },
  );

const cases: [string, SampleStoreOptions | 'woocommerce-samples'][] = [
  ['WooCommerce’s own sample products', 'woocommerce-samples'],
  [
    'a generated store with customers and orders',
    { seed: 11, products: 25, customers: 12, orders: 12 },
  ],
];

describe('WooCommerce -> canonical -> WooCommerce', () => {
  it.each(cases)(
    'copies %s keeping every canonical field the store can hold',
    async (_label, seed) => {
      const source = await startWooCommerceEmulator({ seed });
      const { weightUnit, dimensionUnit } = source.store.settings;
      const destination = await startWooCommerceEmulator({
        seed: 'empty',
        weightUnit: weightUnit as 'kg',
        dimensionUnit: dimensionUnit as 'cm',
      });
      const http = loopbackHttp();
      try {
        const from = connect(source);
        const to = connect(destination, http);
        const idMap = new MemoryIdMap();
        const outcomes = await copyAll(from, to, wooCommerceConnector as Connector<unknown>, idMap);
        for (const entity of entityTypes)
          expect(
            outcomes[entity].filter((o) => o.outcome !== 'created'),
            entity,
          ).toEqual([]);

        for (const entity of entityTypes) {
          const ignore = wooCommerceConnector.capabilities.unsupportedFields?.[entity] ?? [];
          const expected = new Map(
            (await readAll(from, entity)).map((r) => [
              r.id,
              withImageOrigins(
                entity,
                comparable(entity, r, { toSourceId: (_e, id) => id, ignore }),
                unchanged,
              ),
            ]),
          );
          const actual = await readAll(to, entity);
          expect(actual.length, entity).toBe(expected.size);
          for (const record of actual) {
            const sourceId = idMap.sourceIdOf(entity, record.id) ?? '';
            const mapped = comparable(entity, record, {
              toSourceId: (e, id) => idMap.sourceIdOf(e, id),
              ignore,
            });
            expect(
              withImageOrigins(entity, mapped, downloadedFrom(destination)),
              `${entity} ${sourceId}`,
            ).toEqual(expected.get(sourceId));
          }
        }

        const products = await readAll(to, 'products');
        const urls = products.flatMap((p) => p.images.map((i) => i.url));
        expect(urls.length).toBeGreaterThan(0);
        for (const url of urls.slice(0, 10)) {
          const served = await fetch(url);
          expect(served.status, url).toBe(200);
          expect(served.headers.get('content-type')).toMatch(/^image\//);
        }
        const problems = http.requests.flatMap((r) =>
          checkRequest(r).map((p) => `${r.method} ${new URL(r.url).pathname}: ${p}`),
        );
        expect(problems).toEqual([]);
      } finally {
        await source.close();
        await destination.close();
      }
    },
  );

  it('reports what the canonical model cannot hold instead of dropping it silently', async () => {
    const source = await startWooCommerceEmulator({ seed: 'woocommerce-samples' });
    try {
      const pages = [];
      for await (const page of connect(source).read('products', null)) pages.push(page);
      const rejected = pages.flatMap((p) => p.rejected ?? []);
      expect(rejected).toEqual([
        { sourceId: expect.any(String), reason: expect.stringMatching(/^Grouped product/) },
      ]);
      const vneck = pages.flatMap((p) => p.records).find((p) => p.sku === 'woo-vneck-tee');
      // Its variations are for "any" size: Size is a description, Color the variant axis.
      expect(vneck?.options).toEqual([{ name: 'Color', values: ['Blue', 'Green', 'Red'] }]);
      expect(vneck?.attributes).toEqual({ Size: 'Large, Medium, Small' });
    } finally {
      await source.close();
    }
  });
});
