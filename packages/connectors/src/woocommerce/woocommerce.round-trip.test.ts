import { describe, expect, it } from 'vitest';
import { checkRequest } from '@replatform/emulators/woocommerce/testing/spec';
import { checkWpRequest } from '@replatform/emulators/woocommerce/testing/wp-spec';
import { entityTypes, type EntityType } from '@replatform/canonical/entities';
import type { SampleStoreOptions } from '@replatform/emulators/framework/sample-store';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import { comparable } from '../kit/conformance/compare.ts';
import { comparableNative, differingPaths, type SourceField } from '../kit/fields.ts';
import { copyAll, MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { Connector, ConnectorHttpRequest } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { WooClient } from './client.ts';
import { assignedOnWrite, readNative, variationKeys } from './native-access.ts';
import { wooCommerceConnector } from './woocommerce.ts';

/**
 * WooCommerce -> canonical -> WooCommerce, field by field, on the model and on WooCommerce's own
 * fields. The destination downloads every image into its own media library, so a destination
 * image URL is compared through the URL the store downloaded it from (WooCommerce keeps it as
 * `_wc_attachment_source`), each destination image must really be served, and each source image
 * is stored once.
 */

type Origin = (url: string | null) => string | null;

/**
 * A request checked against the description of its namespace (wc/v3's index, or the store's wp/v2
 * description for pages and posts); a GET outside the REST API (an image's address) is none.
 */
function checkAnyRequest(r: ConnectorHttpRequest): string[] {
  const path = new URL(r.url).pathname;
  if (path.startsWith('/wp-json/wp/v2')) return checkWpRequest(r);
  if (!path.startsWith('/wp-json') && r.method === 'GET') return [];
  return checkRequest(r);
}

function withImageOrigins(entity: EntityType, record: Record<string, unknown>, origin: Origin) {
  if (entity === 'products') {
    record.images = (record.images as { url: string }[]).map((i) => ({ ...i, url: origin(i.url) }));
    for (const v of record.variants as { imageUrl: string | null }[])
      v.imageUrl = origin(v.imageUrl);
  }
  if (entity === 'categories' || entity === 'brands')
    record.imageUrl = origin(record.imageUrl as string | null);
  if (entity === 'pages' || entity === 'posts')
    record.featuredImageUrl = origin(record.featuredImageUrl as string | null);
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
    {
      storeUrl: emu.url,
      consumerKey: emu.consumerKey,
      consumerSecret: emu.consumerSecret,
      wordpressUser: emu.wordpressUser,
      wordpressApplicationPassword: emu.wordpressApplicationPassword,
    },
    { http },
  );

const cases: [string, SampleStoreOptions | 'woocommerce-samples'][] = [
  ['WooCommerce’s own sample products', 'woocommerce-samples'],
  [
    'a generated store with customers and orders',
    { seed: 11, products: 25, customers: 12, orders: 12 },
  ],
];

const nativeClient = (emu: RunningWooCommerceEmulator) =>
  new WooClient(
    {
      storeUrl: emu.url,
      consumerKey: emu.consumerKey,
      consumerSecret: emu.consumerSecret,
      wordpressUser: emu.wordpressUser,
      wordpressApplicationPassword: emu.wordpressApplicationPassword,
    },
    { http: loopbackHttp() },
  );

describe('WooCommerce -> canonical -> WooCommerce', () => {
  it.each(cases)(
    'copies %s keeping every field, on the model and on WooCommerce’s own fields',
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
          const ignore = Object.keys(
            wooCommerceConnector.capabilities.destinationFields[entity]?.unsupported ?? {},
          );
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

        // The same on WooCommerce's own fields, but for what the store assigns itself.
        const sourceKeys = await variationKeys(nativeClient(source));
        const byKey = new Map([...sourceKeys].map(([id, key]) => [key, id]));
        const destinationKeys = await variationKeys(nativeClient(destination));
        const toSource = (kind: EntityType | 'variants', id: string) =>
          kind === 'variants'
            ? byKey.get(destinationKeys.get(id) ?? '')
            : idMap.sourceIdOf(kind, id);
        const differences: string[] = [];
        for (const entity of entityTypes) {
          const catalogue: Record<string, SourceField> = {
            ...wooCommerceConnector.capabilities.nativeFields[entity],
          };
          for (const [path, why] of Object.entries(assignedOnWrite[entity] ?? {}))
            catalogue[path] = { assigned: why };
          const expected = new Map(
            (await readNative(nativeClient(source), entity)).map((r) => [
              r.id,
              comparableNative(r.record, catalogue),
            ]),
          );
          for (const { id, record } of await readNative(nativeClient(destination), entity))
            for (const path of differingPaths(
              expected.get(idMap.sourceIdOf(entity, id) ?? ''),
              comparableNative(record, catalogue, toSource),
            ))
              differences.push(`${entity} ${id}: ${path}`);
        }
        expect(differences).toEqual([]);

        // Each image the source holds is stored once, however many records show it.
        const shown = new Set([
          ...(await readAll(from, 'categories')).flatMap((c) => (c.imageUrl ? [c.imageUrl] : [])),
          ...(await readAll(from, 'brands')).flatMap((b) => (b.imageUrl ? [b.imageUrl] : [])),
          ...[...(await readAll(from, 'pages')), ...(await readAll(from, 'posts'))].flatMap((c) =>
            c.featuredImageUrl ? [c.featuredImageUrl] : [],
          ),
          ...(await readAll(from, 'products')).flatMap((p) => [
            ...p.images.map((i) => i.url),
            ...p.variants.flatMap((v) => (v.imageUrl ? [v.imageUrl] : [])),
          ]),
        ]);
        expect(destination.store.counts().attachments).toBe(shown.size);
        const products = await readAll(to, 'products');
        const urls = products.flatMap((p) => p.images.map((i) => i.url));
        expect(urls.length).toBeGreaterThan(0);
        for (const url of urls.slice(0, 10)) {
          const served = await fetch(url);
          expect(served.status, url).toBe(200);
          expect(served.headers.get('content-type')).toMatch(/^image\//);
        }
        const problems = http.requests.flatMap((r) =>
          checkAnyRequest(r).map((p) => `${r.method} ${new URL(r.url).pathname}: ${p}`),
        );
        expect(problems).toEqual([]);
      } finally {
        await source.close();
        await destination.close();
      }
    },
  );

  it('reads WooCommerce’s sample products whole: kinds, store-wide options, values kept apart', async () => {
    const source = await startWooCommerceEmulator({ seed: 'woocommerce-samples' });
    try {
      const pages = [];
      for await (const page of connect(source).read('products', null)) pages.push(page);
      expect(pages.flatMap((p) => p.rejected ?? [])).toEqual([]);
      const products = pages.flatMap((p) => p.records);
      const bySku = (sku: string) => products.find((p) => p.sku === sku);
      const vneck = bySku('woo-vneck-tee');
      // Its variations are for "any" size: Size stays an option, each value a choice of its own.
      expect(vneck?.options.map((o) => [o.name, o.values, o.shared])).toEqual([
        ['Color', ['Blue', 'Green', 'Red'], { slug: 'color' }],
        ['Size', ['Large', 'Medium', 'Small'], { slug: 'size' }],
      ]);
      expect(
        vneck?.variants.every((v) => v.optionValues.map((o) => o.name).join() === 'Color'),
      ).toBe(true);
      const grouped = products.find((p) => p.type === 'grouped');
      expect(grouped?.variants).toEqual([]);
      expect(
        grouped?.groupedProductIds.map((id) => products.find((p) => p.id === id)?.sku),
      ).toEqual(['woo-hoodie-with-logo', 'woo-tshirt', 'woo-beanie']);
      expect(bySku('wp-pennant')).toMatchObject({
        type: 'external',
        externalUrl: 'https://mercantile.wordpress.org/product/wordpress-pennant/',
        buttonText: 'Buy on the WordPress swag store!',
      });
      expect(bySku('woo-album')?.variants[0]).toMatchObject({
        virtual: true,
        downloadable: true,
        downloadLimit: 1,
        downloadExpiryDays: 1,
        downloads: [
          { name: 'Single 1', url: expect.stringMatching(/single\.jpg$/) },
          { name: 'Single 2', url: expect.stringMatching(/album\.jpg$/) },
        ],
      });
      expect(bySku('woo-hoodie')?.options[1]).toMatchObject({ name: 'Logo', shared: null });
    } finally {
      await source.close();
    }
  });
});
