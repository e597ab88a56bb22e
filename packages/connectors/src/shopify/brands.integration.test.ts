import { afterAll, describe, expect, it } from 'vitest';
import { brandSchema, type Brand } from '@replatform/canonical/brand';
import { brandDefaults, productDefaults, variantDefaults } from '@replatform/canonical/defaults';
import type { Product } from '@replatform/canonical/product';
import { unwritableDataTypes } from '@replatform/contracts/migration';
import { generateSampleStore } from '@replatform/emulators/framework/sample-store';
import { validateShopifyRequests } from '@replatform/emulators/shopify/request-validator';
import {
  startShopifyEmulator,
  type ShopifyEmulator,
  type ShopifyEmulatorOptions,
} from '@replatform/emulators/shopify/shopify-emulator';
import type { ProductRec } from '@replatform/emulators/shopify/store';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { ConnectorHttpRequest } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { connectShopify } from './shopify-connector.ts';
import {
  allRecordedRequests,
  routeShop,
  shopRoutingHttp,
  testShopDomain,
  type RecordingHttp,
} from './test-support.ts';

/**
 * Brands read from the emulated shop: the distinct vendors its products name (productVendors),
 * counted by walking them, page by page with checkpoints; a write of brands, which Shopify cannot
 * hold, fails every record without a request; products written to a shop keep their brand as
 * their vendor, which reads back as the brand.
 */

const emulators: ShopifyEmulator[] = [];
const unroutes: (() => void)[] = [];
afterAll(async () => {
  for (const unroute of unroutes) unroute();
  await Promise.all(emulators.map((e) => e.close()));
  expect(validateShopifyRequests(allRecordedRequests)).toEqual([]);
});

async function startStore(label: string, options: ShopifyEmulatorOptions = {}) {
  const shopDomain = testShopDomain(label);
  const emulator = await startShopifyEmulator({
    shops: [shopDomain],
    seed: 'empty',
    plan: 'plus',
    ...options,
  });
  emulators.push(emulator);
  unroutes.push(routeShop(shopDomain, emulator.url));
  return { emulator, credentials: { shopDomain, accessToken: emulator.accessToken } };
}

type Store = Awaited<ReturnType<typeof startStore>>;

function connect(store: Store, http: RecordingHttp = shopRoutingHttp()) {
  return { connection: connectShopify(store.credentials, { http }, { backoffMs: 5 }), http };
}

const bodyOf = (r: ConnectorHttpRequest) =>
  typeof r.body === 'string'
    ? (JSON.parse(r.body) as { operationName?: string; variables?: Record<string, unknown> })
    : {};
const sent = (http: RecordingHttp, name: string) =>
  http.requests.map(bodyOf).filter((b) => b.operationName === name);

/** Products put straight into the shop, one per vendor given (as the merchant's own). */
function addProducts(store: Store, vendors: string[]): void {
  const shop = store.emulator.shop();
  for (const vendor of vendors) {
    const id = shop.nextId();
    const product: ProductRec = {
      id,
      handle: `p-${id}`,
      title: `Product ${id}`,
      descriptionHtml: '',
      status: 'ACTIVE',
      vendor,
      productType: '',
      tags: [],
      options: [],
      variants: [],
      media: [],
      seoTitle: null,
      seoDescription: null,
      metafields: [],
      templateSuffix: null,
      createdAt: shop.timestamp(),
      updatedAt: shop.timestamp(),
    } as unknown as ProductRec;
    shop.products.set(id, product);
  }
}

const brand = (vendor: string, sourceUrlPath: string): Brand => ({
  ...brandDefaults(),
  id: vendor,
  name: vendor,
  sourceUrlPath,
});

function product(id: string, vendor: string): Product {
  return {
    ...productDefaults(),
    id,
    type: 'simple',
    name: `Product ${id}`,
    slug: `product-${id}`,
    sku: `SKU-${id}`,
    vendor,
    variants: [
      {
        ...variantDefaults({ amount: 500, currency: 'USD' }),
        id: `${id}-v`,
        sku: `SKU-${id}`,
        optionValues: [],
        position: 0,
      },
    ],
    sourceUrlPath: null,
    createdAt: null,
    updatedAt: null,
  };
}

describe('Shopify brands', () => {
  it('reads the vendors of the sample shop as brands named by them, their page the vendor collection', async () => {
    const sample = { seed: 7, products: 30, customers: 2, orders: 2 };
    const store = await startStore('brands-sample', { seed: sample });
    const { connection, http } = connect(store);
    const vendors = [...new Set(generateSampleStore(sample).products.map((p) => p.vendor))];
    const brands = await readAll(connection, 'brands');
    expect(brands.map((b) => b.name).sort()).toEqual([...vendors].sort());
    expect(await connection.count('brands')).toBe(vendors.length);
    expect(store.emulator.countStored('brands')).toBe(vendors.length);
    for (const b of brands) expect(brandSchema.parse(b)).toEqual(b);
    // Names beyond ASCII and with an ampersand are kept as written and URL-encoded in the path.
    expect(brands).toContainEqual(brand('Fjällbo', '/collections/vendors?q=Fj%C3%A4llbo'));
    expect(brands).toContainEqual(
      brand('Copper & Pine', '/collections/vendors?q=Copper%20%26%20Pine'),
    );
    // In Shopify's order (alphabetical), one page: a read and a count cost one request each.
    expect(brands.map((b) => b.name)).toEqual(
      [...vendors].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })),
    );
    expect(sent(http, 'ProductVendorsPage')).toHaveLength(2);
    expect(sent(http, 'ProductVendorsPage')[0]?.variables).toEqual({ first: 1000, after: null });
    // The native records the catalogue describes: one { vendor } per brand.
    expect(await connection.readNative('brands')).toEqual(
      brands.map((b) => ({ id: b.name, record: { vendor: b.name } })),
    );
  });

  it('reads more than a page of vendors with checkpoints, and resumes from one', async () => {
    const store = await startStore('brands-many', { bucketSize: 1_000_000 });
    const vendors = Array.from({ length: 2345 }, (_, i) => `Vendor ${String(i).padStart(4, '0')}`);
    // Every vendor named twice, and products without a vendor: each vendor is one brand.
    addProducts(store, [...vendors, ...vendors.slice(0, 100), '', '']);
    const { connection, http } = connect(store);
    expect(await connection.count('brands')).toBe(2345);
    expect(sent(http, 'ProductVendorsPage')).toHaveLength(3);
    const pages = [];
    for await (const page of connection.read('brands', null)) pages.push(page);
    expect(pages.map((p) => p.records.length)).toEqual([1000, 1000, 345]);
    expect(pages.map((p) => p.next === null)).toEqual([false, false, true]);
    expect(pages.flatMap((p) => p.records.map((r) => r.id))).toEqual(vendors);
    expect(pages.every((p) => !p.losses?.length && !p.rejected?.length)).toBe(true);
    // A read resumed from the first checkpoint goes on after the first page.
    const resumed = [];
    for await (const page of connection.read('brands', pages[0]!.next)) resumed.push(page);
    expect(resumed.flatMap((p) => p.records.map((r) => r.id))).toEqual(vendors.slice(1000));
  });

  it('refuses a checkpoint that is not a brands checkpoint', async () => {
    const store = await startStore('brands-checkpoint');
    const { connection } = connect(store);
    const read = async () => {
      const pages = connection.read('brands', {
        version: 1,
        cursor: JSON.stringify({ mode: 'page', after: 'x' }),
      });
      for await (const _ of pages) break;
    };
    await expect(read()).rejects.toBeInstanceOf(ConnectorError);
    await expect(read()).rejects.toMatchObject({ code: 'bad_checkpoint' });
  });

  it('reads no brands from a shop without products or vendors', async () => {
    const store = await startStore('brands-none');
    addProducts(store, ['', '']);
    const { connection } = connect(store);
    expect(await connection.count('brands')).toBe(0);
    const pages = [];
    for await (const page of connection.read('brands', null)) pages.push(page);
    expect(pages).toEqual([{ records: [], next: null }]);
  });

  it('fails every brand of a write with the reason, asking nothing of the shop', async () => {
    const store = await startStore('brands-write');
    const { connection, http } = connect(store);
    const records = [brand('Acme', '/brands/acme/'), brand('Luma', '/brands/luma/')];
    const outcomes = await connection.write('brands', records, new MemoryIdMap());
    expect(outcomes).toEqual(
      records.map((r) => ({
        sourceId: r.id,
        outcome: 'failed',
        reason: unwritableDataTypes.shopify.brands,
      })),
    );
    expect(http.requests).toEqual([]);
    expect(store.emulator.countStored('brands')).toBe(0);
  });

  it('keeps the brand of products written to a shop as their vendor, read back as the brand', async () => {
    const store = await startStore('brands-products');
    const { connection } = connect(store);
    const idMap = new MemoryIdMap();
    const outcomes = await connection.write(
      'products',
      [product('1', 'Fjällbo'), product('2', 'Copper & Pine'), product('3', 'Fjällbo')],
      idMap,
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'created', 'created']);
    expect(await readAll(connection, 'brands')).toEqual([
      brand('Copper & Pine', '/collections/vendors?q=Copper%20%26%20Pine'),
      brand('Fjällbo', '/collections/vendors?q=Fj%C3%A4llbo'),
    ]);
  });
});
