import { afterAll, expect, it } from 'vitest';
import type { Product } from '@replatform/canonical/product';
import {
  startBigCommerceEmulator,
  type RunningBigCommerceEmulator,
} from '@replatform/emulators/bigcommerce/bigcommerce-emulator';
import { BigCommerceSpec } from '@replatform/emulators/bigcommerce/openapi-validator';
import {
  startMagentoEmulator,
  type MagentoEmulator,
} from '@replatform/emulators/magento2/magento-emulator';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { magentoConnector } from '../magento2/magento-connector.ts';
import { createBigCommerceConnector } from './bigcommerce-connector.ts';

/**
 * Magento's own Luma sample catalogue (configurable products: sizes and colours, each a simple
 * child product) into BigCommerce, where each must arrive as one product with options and one
 * variant per child.
 */

let magento: MagentoEmulator | undefined;
let bigCommerce: RunningBigCommerceEmulator | undefined;
afterAll(async () => {
  await magento?.close();
  await bigCommerce?.close();
});

/** What a variant is, independent of platform ids. */
const shape = (p: Product) => ({
  options: p.options.map((o) => ({ name: o.name, values: [...o.values].sort() })),
  variants: p.variants
    .map((v) => ({
      sku: v.sku,
      optionValues: v.optionValues.map((o) => `${o.name}=${o.value}`).sort(),
      price: v.price.amount,
    }))
    .sort((a, b) => a.sku.localeCompare(b.sku)),
});

it('migrates the Luma configurable products into BigCommerce as products with options and variants', async () => {
  magento = await startMagentoEmulator({ seed: 'luma' });
  bigCommerce = await startBigCommerceEmulator({ seed: 'empty', plan: 'unlimited' });
  const destinationOrigin = bigCommerce.url;
  const source = magentoConnector.connect(
    { storeUrl: magento.url, ...magento.credentials },
    { http: loopbackHttp() },
  );
  const http = loopbackHttp();
  const destination = createBigCommerceConnector({ apiBaseUrl: destinationOrigin }).connect(
    { storeHash: bigCommerce.storeHash, accessToken: bigCommerce.accessToken },
    { http },
  );

  const categories = await readAll(source, 'categories');
  const configurable = (await readAll(source, 'products')).filter((p) => p.type === 'variable');
  // Every fourth configurable product: a spread of size and colour grids that keeps the test quick.
  const sample = configurable.filter((_p, i) => i % 4 === 0);
  expect(sample.length).toBeGreaterThanOrEqual(25);

  const idMap = new MemoryIdMap();
  for (let i = 0; i < categories.length; i += 50) {
    idMap.record(
      'categories',
      await destination.write('categories', categories.slice(i, i + 50), idMap),
    );
  }
  const outcomes = [];
  for (let i = 0; i < sample.length; i += 25) {
    const result = await destination.write('products', sample.slice(i, i + 25), idMap);
    idMap.record('products', result);
    outcomes.push(...result);
  }
  expect(outcomes.filter((o) => o.outcome !== 'created')).toEqual([]);

  const arrived = new Map(
    (await readAll(destination, 'products')).map((p) => [idMap.sourceIdOf('products', p.id), p]),
  );
  for (const product of sample) {
    const copy = arrived.get(product.id);
    expect(copy, product.sku).toBeDefined();
    expect(copy?.type, product.sku).toBe('variable');
    expect(copy && shape(copy), product.sku).toEqual(shape(product));
  }
  const stored = bigCommerce.state.products;
  expect(stored.every((p) => p.options.length > 0 && p.variants.length > 1)).toBe(true);
  const hoodie = arrived.get(sample.find((p) => p.sku === 'MH01')?.id ?? '');
  if (hoodie) expect(hoodie.variants).toHaveLength(15);
  const spec = new BigCommerceSpec();
  expect([...new Set(http.requests.flatMap((r) => spec.validateRequest(r)))]).toEqual([]);
}, 120_000);
