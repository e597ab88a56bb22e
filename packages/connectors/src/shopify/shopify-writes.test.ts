import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Category } from '@replatform/canonical/category';
import type { Coupon } from '@replatform/canonical/coupon';
import type { Customer } from '@replatform/canonical/customer';
import {
  categoryDefaults,
  couponDefaults,
  customerDefaults,
  orderDefaults,
  orderLineDefaults,
  productDefaults,
  variantDefaults,
} from '@replatform/canonical/defaults';
import type { Order } from '@replatform/canonical/order';
import type { Product } from '@replatform/canonical/product';
import { samplePng } from '@replatform/emulators/framework/sample-store';
import { validateShopifyRequests } from '@replatform/emulators/shopify/request-validator';
import {
  startShopifyEmulator,
  type ShopifyEmulator,
  type ShopifyEmulatorOptions,
} from '@replatform/emulators/shopify/shopify-emulator';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { ConnectorHttpRequest } from '../kit/contract.ts';
import { productSetCost, variantsBulkCost } from './documents.ts';
import { connectShopify, type ShopifyConnectorOptions } from './shopify-connector.ts';
import {
  allRecordedRequests,
  routeShop,
  shopRoutingHttp,
  testShopDomain,
  type RecordingHttp,
} from './test-support.ts';

/**
 * Records Shopify takes only in parts: orders with many shipping lines and discounts, products
 * over the single-query cost or the input limits, images Shopify could not fetch, phone numbers,
 * and the order limit of trial stores.
 */

interface TestStore {
  emulator: ShopifyEmulator;
  credentials: { shopDomain: string; accessToken: string };
  close(): Promise<void>;
}

const stores: TestStore[] = [];
let images: Server;
let imageOrigin = '';
/** Paths under /flaky/ fail to download until this is set. */
let flakyWorks = false;

beforeAll(async () => {
  images = createServer((req, res) => {
    const path = req.url ?? '';
    if (path.startsWith('/img/') || (flakyWorks && path.startsWith('/flaky/'))) {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(samplePng(path));
    } else if (path.startsWith('/text/')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('not an image');
    } else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imageOrigin = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await new Promise((resolve) => images.close(resolve));
  expect(validateShopifyRequests(allRecordedRequests)).toEqual([]);
});

async function startStore(label: string, options: ShopifyEmulatorOptions = {}): Promise<TestStore> {
  const shop = testShopDomain(label);
  const emulator = await startShopifyEmulator({
    shops: [shop],
    plan: 'plus',
    bulkDelayMs: 10,
    ...options,
  });
  const unroute = routeShop(shop, emulator.url);
  const store = {
    emulator,
    credentials: { shopDomain: shop, accessToken: emulator.accessToken },
    async close() {
      unroute();
      await emulator.close();
    },
  };
  stores.push(store);
  return store;
}

function connect(
  store: TestStore,
  options: ShopifyConnectorOptions = {},
  http: RecordingHttp = shopRoutingHttp(),
) {
  return {
    connection: connectShopify(
      store.credentials,
      { http },
      { backoffMs: 10, bulkPollMs: 10, ...options },
    ),
    http,
  };
}

function fakeTime(start = Date.parse('2026-10-15T12:00:00Z')) {
  let t = start;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
  };
}

const bodyOf = (r: ConnectorHttpRequest) =>
  typeof r.body === 'string'
    ? (JSON.parse(r.body) as { operationName?: string; variables?: Record<string, unknown> })
    : {};
const sent = (http: RecordingHttp, name: string) =>
  http.requests.map(bodyOf).filter((b) => b.operationName === name);

function product(id: string, overrides: Partial<Product> = {}): Product {
  return {
    ...productDefaults(),
    id,
    type: 'simple',
    name: `Product ${id}`,
    slug: `product-${id}`,
    sku: `SKU-${id}`,
    vendor: 'Acme',
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
    ...overrides,
  };
}

/** sizes x colours variants, each with one of `imageCount` images. */
function largeProduct(id: string, sizes: number, colours: number, imageCount: number): Product {
  const size = Array.from({ length: sizes }, (_v, i) => `S${i}`);
  const colour = Array.from({ length: colours }, (_v, i) => `C${i}`);
  const urls = Array.from({ length: imageCount }, (_v, i) => `${imageOrigin}/img/${id}-${i}.png`);
  let n = 0;
  return product(id, {
    type: 'variable',
    sku: '',
    options: [
      { name: 'Size', values: size, shared: null, visible: true, position: 0 },
      { name: 'Colour', values: colour, shared: null, visible: true, position: 1 },
    ],
    images: urls.map((url, position) => ({ url, alt: `view ${position}`, title: '', position })),
    variants: size.flatMap((s) =>
      colour.map((c) => ({
        ...variantDefaults({ amount: 1999, currency: 'USD' }),
        id: `${id}-${s}-${c}`,
        sku: `${id}-${s}-${c}`,
        optionValues: [
          { name: 'Size', value: s },
          { name: 'Colour', value: c },
        ],
        inventory: {
          tracked: true,
          quantity: 2,
          stockStatus: 'instock' as const,
          backorders: 'no' as const,
          lowStockThreshold: null,
        },
        imageUrl: urls[n % imageCount] ?? null,
        position: n++,
      })),
    ),
  });
}

describe('orders beyond one page query', () => {
  it('reads all shipping lines and discounts of a large order, page by page as in bulk', async () => {
    const store = await startStore('big-order', {
      seed: { seed: 5, products: 4, customers: 3, orders: 4 },
    });
    const shop = store.emulator.shop();
    const order = [...shop.orders.values()][0];
    if (!order) throw new Error('no order');
    for (let i = 0; i < 5; i++)
      order.shippingLines.push({
        id: shop.nextId(),
        title: `Parcel ${i}`,
        code: `P${i}`,
        source: null,
        price: '2.5',
        taxLines: [],
        discountAllocations: [],
      });
    for (let i = 0; i < 7; i++)
      order.discountApplications.push({
        index: 10 + i,
        kind: 'manual',
        code: `EXTRA${i}`,
        value: { kind: 'money', amount: '0.0' },
        targetType: 'LINE_ITEM',
        targetSelection: 'ALL',
        allocationMethod: 'ACROSS',
      });
    const paged = connect(store, { bulkThreshold: 10_000 });
    const bulk = connect(store, { bulkThreshold: 1 });
    const a = await readAll(paged.connection, 'orders');
    const b = await readAll(bulk.connection, 'orders');
    expect(a).toHaveLength(4);
    expect(b).toEqual(a);
    const large = a.find((o) => o.id === `gid://shopify/Order/${order.id}`);
    expect(large?.shippingLines.map((s) => s.title).slice(-5)).toEqual(
      Array.from({ length: 5 }, (_v, i) => `Parcel ${i}`),
    );
    expect(large?.discounts.map((d) => d.code)).toEqual(
      expect.arrayContaining(Array.from({ length: 7 }, (_v, i) => `EXTRA${i}`)),
    );
    expect(sent(paged.http, 'OrderShippingLinesPage')).toHaveLength(1);
    expect(sent(paged.http, 'OrderDiscountApplicationsPage')).toHaveLength(1);
  });
});

describe('products beyond one productSet', () => {
  it('creates what one productSet may carry, then the other variants in bulk, each with its image', async () => {
    const store = await startStore('split', { seed: 'empty' });
    const { connection, http } = connect(store);
    // 1,200 variants with images among 250 files: productSet alone would cost 1,445 points.
    const big = largeProduct('split', 30, 40, 250);
    const [outcome] = await connection.write('products', [big], new MemoryIdMap());
    expect(outcome).toMatchObject({ outcome: 'created' });
    expect(outcome?.incomplete).toBeUndefined();
    expect(outcome?.warnings ?? []).toEqual([]);

    const calls = sent(http, 'ProductSet');
    expect(calls).toHaveLength(1);
    expect(productSetCost(calls[0]?.variables ?? {})).toBeLessThanOrEqual(1000);
    const bulk = sent(http, 'ProductVariantsBulkCreate');
    expect(bulk.length).toBeGreaterThan(1);
    for (const call of bulk)
      expect(variantsBulkCost(call.variables ?? {})).toBeLessThanOrEqual(1000);
    expect(store.emulator.shop().stats.maxCostExceeded).toBe(0);

    const stored = [...store.emulator.shop().products.values()][0];
    expect(stored?.variants).toHaveLength(1200);
    expect(stored?.media).toHaveLength(250);
    const [read] = await readAll(connection, 'products');
    expect(read?.options).toEqual(big.options);
    expect(read?.variants.map((v) => [v.sku, v.imageUrl?.split('/').pop()?.split('.')[0]])).toEqual(
      big.variants.map((v) => [v.sku, v.imageUrl?.split('/').pop()?.split('.')[0]]),
    );
  });

  it('marks a product incomplete when a later call did not reach Shopify, and completes it next time', async () => {
    const store = await startStore('split-lost', { seed: 'empty' });
    const inner = shopRoutingHttp();
    let lost = 0;
    const flaky: RecordingHttp = {
      requests: inner.requests,
      async request(request) {
        if (lost === 0 && bodyOf(request).operationName === 'ProductVariantsBulkCreate') {
          lost += 1;
          inner.requests.push(request);
          return { status: 503, headers: {}, body: new TextEncoder().encode('unavailable') };
        }
        return inner.request(request);
      },
    };
    const { connection } = connect(store, {}, flaky);
    const big = largeProduct('lost', 35, 20, 250);
    const idMap = new MemoryIdMap();
    const [first] = await connection.write('products', [big], idMap);
    idMap.record('products', [first!]);
    expect(first).toMatchObject({ outcome: 'created', incomplete: true });
    expect(first?.warnings?.[0]).toMatch(
      /^Creating \d+ more variants did not reach Shopify \(Shopify answered 503 \(ProductVariantsBulkCreate\)\.\); the next run tries again\.$/,
    );
    const stored = () => [...store.emulator.shop().products.values()][0];
    expect(stored()?.variants.length).toBeLessThan(700);

    const [again] = await connection.write('products', [big], idMap);
    expect(again).toMatchObject({ outcome: 'updated', destinationId: first?.destinationId });
    expect(again?.incomplete).toBeUndefined();
    expect(stored()?.variants).toHaveLength(700);
    const [read] = await readAll(connection, 'products');
    expect(read?.variants.map((v) => v.sku).sort()).toEqual(big.variants.map((v) => v.sku).sort());
    expect(read?.variants.every((v) => v.imageUrl)).toBe(true);
  });

  it('keeps the first 250 images with a warning and sets metafields beyond 250 afterwards', async () => {
    const store = await startStore('limits', { seed: 'empty' });
    const { connection, http } = connect(store);
    const urls = Array.from({ length: 260 }, (_v, i) => `${imageOrigin}/img/many-${i}.png`);
    const metafields = Array.from({ length: 300 }, (_v, i) => ({
      namespace: 'shopify.custom',
      key: `attr_${String(i).padStart(3, '0')}`,
      value: `value ${i}`,
      type: 'single_line_text_field',
    }));
    const many = product('many', {
      images: urls.map((url, position) => ({ url, alt: '', title: '', position })),
      metafields,
      createdAt: '2020-02-02T00:00:00.000Z',
    });
    const [outcome] = await connection.write('products', [many], new MemoryIdMap());
    expect(outcome?.outcome).toBe('created');
    expect(outcome?.incomplete).toBeUndefined();
    // The creation date Shopify does not take is the engine's to report (a declared field).
    expect(outcome?.warnings).toEqual([
      'The product has 260 images; Shopify keeps at most 250 per product, so the last 10 were not migrated.',
    ]);
    // 301 metafields with the marker: 250 with productSet, 51 in three calls of at most 25.
    expect(sent(http, 'MetafieldsSet')).toHaveLength(3);
    const [read] = await readAll(connection, 'products');
    expect(read?.images).toHaveLength(250);
    expect(read?.metafields.filter((m) => m.namespace === 'shopify.custom')).toEqual(metafields);
  });
});

describe('images Shopify could not fetch', () => {
  it('reports them as incomplete and adds them on the next write; a file that is no image is only reported', async () => {
    flakyWorks = false;
    const time = fakeTime();
    const store = await startStore('images', {
      seed: 'empty',
      clock: time.now,
      mediaProcessingMs: 3_000,
    });
    const { connection, http } = connect(store, { now: time.now, sleep: time.sleep });
    const flaky = `${imageOrigin}/flaky/shirt.png`;
    const shirt = product('shirt', {
      images: [
        { url: `${imageOrigin}/img/front.png`, alt: 'front', title: '', position: 0 },
        { url: flaky, alt: 'back', title: '', position: 1 },
      ],
    });
    shirt.variants[0]!.imageUrl = flaky;
    const text = product('text', {
      images: [{ url: `${imageOrigin}/text/readme.png`, alt: '', title: '', position: 0 }],
    });
    const idMap = new MemoryIdMap();
    const first = await connection.write('products', [shirt, text], idMap);
    idMap.record('products', first);
    // Shopify was still processing the files when first asked: the writer waited for them.
    expect(sent(http, 'ProductMediaState').length).toBeGreaterThan(2);
    expect(first[0]).toMatchObject({ outcome: 'created', incomplete: true });
    expect(first[0]?.warnings).toEqual([
      `The image ${flaky} was not added: Image download failed with HTTP 503. (IMAGE_DOWNLOAD_FAILURE); the next run tries again.`,
    ]);
    expect(first[1]?.outcome).toBe('created');
    expect(first[1]?.incomplete).toBeUndefined();
    expect(first[1]?.warnings?.[0]).toMatch(
      /readme\.png was not added: .*IMAGE_PROCESSING_FAILURE/,
    );

    flakyWorks = true;
    const [again] = await connection.write('products', [shirt], idMap);
    expect(again).toMatchObject({ outcome: 'updated', destinationId: first[0]?.destinationId });
    expect(again?.incomplete).toBeUndefined();
    const [read] = (await readAll(connection, 'products')).filter((p) => p.slug === shirt.slug);
    expect(read?.images.map((i) => i.alt)).toEqual(['front', 'back']);
    expect(read?.variants[0]?.imageUrl).toBe(read?.images[1]?.url);
    const [third] = await connection.write('products', [shirt], idMap);
    expect(third).toMatchObject({ outcome: 'skipped', reason: 'Already migrated.' });
  });

  it('says so when Shopify is still processing an image after the wait', async () => {
    const time = fakeTime();
    const store = await startStore('slow-media', {
      seed: 'empty',
      clock: time.now,
      mediaProcessingMs: 10 * 60_000,
    });
    const { connection } = connect(store, { now: time.now, sleep: time.sleep });
    const url = `${imageOrigin}/img/slow.png`;
    const [outcome] = await connection.write(
      'products',
      [product('slow', { images: [{ url, alt: '', title: '', position: 0 }] })],
      new MemoryIdMap(),
    );
    expect(outcome).toMatchObject({
      outcome: 'created',
      incomplete: true,
      warnings: [`Shopify was still processing the image ${url}; the next run checks it.`],
    });
  });

  it('adds a collection image again once it can be fetched', async () => {
    flakyWorks = false;
    const store = await startStore('collection-image', { seed: 'empty' });
    const { connection } = connect(store);
    const category: Category = {
      ...categoryDefaults(),
      id: 'c-1',
      parentId: null,
      name: 'Shirts',
      slug: 'shirts',
      description: '',
      position: 0,
      imageUrl: `${imageOrigin}/flaky/shirts.png`,
      sourceUrlPath: null,
    };
    const idMap = new MemoryIdMap();
    const [first] = await connection.write('categories', [category], idMap);
    idMap.record('categories', [first!]);
    expect(first).toMatchObject({ outcome: 'created', incomplete: true });
    expect(first?.warnings?.[0]).toMatch(/shirts\.png could not be added/);
    flakyWorks = true;
    const [again] = await connection.write('categories', [category], idMap);
    expect(again).toMatchObject({ outcome: 'updated' });
    expect(again?.incomplete).toBeUndefined();
    const [read] = await readAll(connection, 'categories');
    expect(read?.imageUrl).toMatch(/\/cdn\/shop\/files\//);
  });
});

describe('customer phone numbers', () => {
  it('sends E.164 numbers read in the address country, and leaves out what cannot be one', async () => {
    const store = await startStore('phones', { seed: 'empty' });
    const { connection, http } = connect(store);
    const address = (countryCode: string) => ({
      firstName: 'A',
      lastName: 'B',
      company: '',
      address1: '1 Main St',
      address2: '',
      city: 'Town',
      province: '',
      postalCode: '1',
      countryCode,
      phone: '',
      email: '',
      isDefaultBilling: true,
      isDefaultShipping: true,
    });
    const customer = (id: string, phone: string, country: string): Customer => ({
      ...customerDefaults(),
      id,
      email: `${id}@example.com`,
      firstName: 'A',
      lastName: 'B',
      phone,
      acceptsMarketing: false,
      addresses: [address(country)],
      note: '',
      tags: [],
      createdAt: '2024-01-01T00:00:00.000Z',
    });
    const outcomes = await connection.write(
      'customers',
      [
        customer('us', '(512) 555-0100', 'US'),
        customer('uk', '020 7946 0958', 'GB'),
        customer('taken', '+1 512 555 0100', 'US'),
        customer('words', 'call the office', 'US'),
      ],
      new MemoryIdMap(),
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'created', 'created', 'created']);
    const phones = [...store.emulator.shop().customers.values()].map((c) => [c.email, c.phone]);
    expect(phones).toEqual([
      ['us@example.com', '+15125550100'],
      ['uk@example.com', '+442079460958'],
      ['taken@example.com', null],
      ['words@example.com', null],
    ]);
    expect(outcomes[2]?.warnings).toContain(
      "The phone number '+1 512 555 0100' was refused by Shopify (phone: Phone has already been taken); the customer was created without it.",
    );
    expect(outcomes[3]?.warnings).toContain(
      "The phone number 'call the office' was not migrated: Shopify keeps phone numbers in international (E.164) form and it is not a phone number.",
    );
    // The number that cannot be a phone number was not offered to Shopify at all.
    expect(sent(http, 'CustomerCreate')).toHaveLength(5);
  });
});

function order(id: string): Order {
  const usd = (amount: number) => ({ amount, currency: 'USD' });
  return {
    ...orderDefaults('USD'),
    id,
    number: id.replace(/\D/g, ''),
    createdAt: '2025-05-01T10:00:00.000Z',
    updatedAt: null,
    currency: 'USD',
    customerId: null,
    email: 'buyer@example.com',
    status: 'processing',
    paymentStatus: 'paid',
    fulfillmentStatus: 'unfulfilled',
    lines: [
      {
        id: `${id}-l1`,
        productId: null,
        variantId: null,
        sku: 'X-1',
        name: 'Custom item',
        quantity: 1,
        unitPrice: usd(1000),
        tax: usd(0),
        total: usd(1000),
        ...orderLineDefaults(),
      },
    ],
    shippingLines: [],
    discounts: [],
    subtotal: usd(1000),
    taxTotal: usd(0),
    shippingTotal: usd(0),
    discountTotal: usd(0),
    grandTotal: usd(1000),
    billingAddress: null,
    shippingAddress: null,
    note: '',
  };
}

describe('refunds', () => {
  it('makes each refund once, also when an answer was lost or the run starts again', async () => {
    const store = await startStore('refunds', { seed: 'empty' });
    const inner = shopRoutingHttp();
    let dropped = 0;
    const lossy: RecordingHttp = {
      requests: inner.requests,
      async request(request) {
        const response = await inner.request(request);
        if (dropped === 0 && bodyOf(request).operationName === 'RefundCreate') {
          dropped += 1;
          throw new Error('connection reset after the refund was made');
        }
        return response;
      },
    };
    const { connection, http } = connect(store, {}, lossy);
    const usd = (amount: number) => ({ amount, currency: 'USD' });
    const refunded: Order = {
      ...order('order-8001'),
      status: 'refunded',
      paymentStatus: 'refunded',
      paymentMethod: 'bogus',
      transactionId: 'AUTH-8001',
      paidAt: '2025-05-01T11:00:00.000Z',
      refunds: [
        {
          id: 'r1',
          createdAt: '2025-05-02T10:00:00.000Z',
          amount: usd(300),
          reason: 'Late delivery',
          lines: [],
        },
        {
          id: 'r2',
          createdAt: '2025-05-03T10:00:00.000Z',
          amount: usd(700),
          reason: 'Returned',
          lines: [{ lineId: 'order-8001-l1', quantity: 1, amount: usd(700), tax: usd(0) }],
        },
      ],
      refundTotal: usd(1000),
    };
    const [outcome] = await connection.write('orders', [refunded], new MemoryIdMap());
    expect(outcome).toMatchObject({ outcome: 'created' });
    expect(outcome?.warnings).toBeUndefined();
    expect(dropped).toBe(1);
    // The lost answer was asked again with the same idempotency key: the same refund came back.
    expect(sent(http, 'RefundCreate')).toHaveLength(3);
    const stored = () => [...store.emulator.shop().orders.values()][0];
    expect(stored()?.refunds.map((r) => [r.note, r.processedAt, r.lines.length])).toEqual([
      ['Late delivery', '2025-05-02T10:00:00Z', 0],
      ['Returned', '2025-05-03T10:00:00Z', 1],
    ]);
    expect(stored()?.financialStatus).toBe('REFUNDED');
    const [read] = await readAll(connection, 'orders');
    expect(read).toMatchObject({
      status: 'refunded',
      paymentMethod: 'bogus',
      transactionId: 'AUTH-8001',
      paidAt: '2025-05-01T11:00:00.000Z',
      refundTotal: usd(1000),
    });
    expect(read?.refunds.map((r) => [r.amount.amount, r.reason, r.lines.length])).toEqual([
      [300, 'Late delivery', 0],
      [700, 'Returned', 1],
    ]);

    // A run that lost its id map finds the order by its marker and makes no refund again.
    const [again] = await connection.write('orders', [refunded], new MemoryIdMap());
    expect(again?.outcome).toBe('skipped');
    expect(stored()?.refunds).toHaveLength(2);
    expect(sent(http, 'RefundCreate')).toHaveLength(3);
  });
});

describe('the order limit of trial stores', () => {
  it('keeps to 5 orders a minute on a store whose plan is a trial', async () => {
    const time = fakeTime();
    const store = await startStore('trial', {
      seed: 'empty',
      plan: 'standard',
      trialStore: true,
      clock: time.now,
    });
    const { connection } = connect(store, { now: time.now, sleep: time.sleep });
    const start = time.now();
    const outcomes = await connection.write(
      'orders',
      Array.from({ length: 7 }, (_v, i) => order(`order-${5000 + i}`)),
      new MemoryIdMap(),
    );
    expect(outcomes.every((o) => o.outcome === 'created')).toBe(true);
    expect(store.emulator.shop().stats.orderCreateRefused).toBe(0);
    expect(time.now() - start).toBeGreaterThanOrEqual(60_000);
  });

  it('waits out the limit when Shopify states it in the answer, whatever the plan said', async () => {
    const time = fakeTime();
    const store = await startStore('limited', { seed: 'empty', clock: time.now });
    const inner = shopRoutingHttp();
    let refused = 0;
    const limiting: RecordingHttp = {
      requests: inner.requests,
      async request(request) {
        if (refused === 0 && bodyOf(request).operationName === 'OrderCreate') {
          refused += 1;
          inner.requests.push(request);
          const body = {
            data: {
              orderCreate: {
                order: null,
                userErrors: [
                  {
                    field: null,
                    message:
                      'Exceeded order API rate limit, please try again in a minute. Upgrade to a paid account to remove this limit.',
                    code: null,
                  },
                ],
              },
            },
          };
          return { status: 200, headers: {}, body: new TextEncoder().encode(JSON.stringify(body)) };
        }
        return inner.request(request);
      },
    };
    const { connection } = connect(store, { now: time.now, sleep: time.sleep }, limiting);
    const start = time.now();
    const outcomes = await connection.write(
      'orders',
      [order('order-6001'), order('order-6002')],
      new MemoryIdMap(),
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'created']);
    expect(refused).toBe(1);
    expect(time.now() - start).toBeGreaterThanOrEqual(60_000);
    expect(store.emulator.countStored('orders')).toBe(2);
  });
});

describe('coupons', () => {
  const couponOf = (id: string, code: string, overrides: Partial<Coupon> = {}): Coupon => ({
    ...couponDefaults(),
    id,
    code,
    discountType: 'percent',
    percentOff: 10,
    amountOff: null,
    createdAt: '2025-01-10T09:00:00.000Z',
    ...overrides,
  });
  const usd = (amount: number) => ({ amount, currency: 'USD' });
  const coupons = [
    couponOf('c1', 'WELCOME10', { usageLimitPerCustomer: 1, individualUse: true }),
    couponOf('c2', 'SPRING15', {
      description: '15.00 off orders over 75.00',
      discountType: 'fixed_cart',
      percentOff: null,
      amountOff: usd(1500),
      minimumSpend: usd(7500),
      startsAt: '2026-03-01T00:00:00.000Z',
      expiresAt: '2026-05-31T23:59:59.000Z',
      usageLimit: 500,
    }),
    couponOf('c3', 'SHIPFREE', {
      discountType: 'fixed_cart',
      percentOff: null,
      amountOff: usd(0),
      freeShipping: true,
      minimumSpend: usd(5000),
    }),
    couponOf('c4', 'FIVEOFFEACH', {
      discountType: 'fixed_product',
      percentOff: null,
      amountOff: usd(500),
      productIds: ['p1'],
    }),
    couponOf('c5', 'STAFF-ONLY', { percentOff: 30, enabled: false }),
  ];

  async function withProduct() {
    const store = await startStore('coupons', { seed: 'empty' });
    const { connection, http } = connect(store);
    const idMap = new MemoryIdMap();
    idMap.record('products', await connection.write('products', [product('p1')], idMap));
    return { store, connection, http, idMap };
  }

  it('creates each kind with valid requests, marks it and reads it back as written', async () => {
    const { store, connection, http, idMap } = await withProduct();
    const outcomes = await connection.write('coupons', coupons, idMap);
    expect(outcomes.map((o) => o.outcome)).toEqual(coupons.map(() => 'created'));
    expect(validateShopifyRequests(http.requests)).toEqual([]);
    expect(sent(http, 'DiscountCodeFreeShippingCreate')).toHaveLength(1);
    expect(sent(http, 'DiscountCodeBasicCreate')).toHaveLength(4);
    expect(sent(http, 'DiscountCodeDeactivate')).toHaveLength(1);
    const discounts = [...store.emulator.shop().discounts.values()];
    expect(
      discounts.map((d) => d.metafields.find((m) => m.namespace === 'replatform')?.value),
    ).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    idMap.record('coupons', outcomes);

    const read = new Map((await readAll(connection, 'coupons')).map((c) => [c.code, c]));
    expect(read.get('WELCOME10')).toMatchObject({
      percentOff: 10,
      usageLimitPerCustomer: 1,
      individualUse: true,
    });
    expect(read.get('SPRING15')).toMatchObject({
      description: '15.00 off orders over 75.00',
      amountOff: usd(1500),
      minimumSpend: usd(7500),
      startsAt: '2026-03-01T00:00:00.000Z',
      expiresAt: '2026-05-31T23:59:59.000Z',
      usageLimit: 500,
    });
    expect(read.get('SHIPFREE')).toMatchObject({ freeShipping: true, amountOff: usd(0) });
    expect(read.get('FIVEOFFEACH')).toMatchObject({
      discountType: 'fixed_product',
      productIds: [idMap.get('products', 'p1')],
    });
    // Switched off: ended at once.
    const staff = discounts.find((d) => d.codes[0]?.code === 'STAFF-ONLY');
    expect(staff?.endsAt).not.toBeNull();
  });

  it('never creates a code twice: found by its marker without the id map, and the merchant’s own left alone', async () => {
    const { store, connection, idMap } = await withProduct();
    const merchant = await connection.write(
      'coupons',
      [couponOf('other-store-1', 'VIP20', { percentOff: 20 })],
      idMap,
    );
    // The merchant's code: a discount of the shop without our marker.
    const vip = store.emulator.shop().discountByCode('VIP20');
    if (vip) vip.metafields = [];
    expect(merchant[0]?.outcome).toBe('created');

    const first = await connection.write('coupons', coupons, idMap);
    // A run that lost the coupons of its id map (its products were found again by their marker).
    const productsOnly = new MemoryIdMap();
    productsOnly.record('products', [
      { sourceId: 'p1', outcome: 'skipped', destinationId: idMap.get('products', 'p1') ?? '' },
    ]);
    const again = await connection.write('coupons', coupons, productsOnly);
    expect(again.map((o) => o.outcome)).toEqual(coupons.map(() => 'skipped'));
    expect(again.map((o) => o.destinationId)).toEqual(first.map((o) => o.destinationId));
    expect(store.emulator.countStored('coupons')).toBe(6);

    const [clash] = await connection.write(
      'coupons',
      [couponOf('c9', 'vip20', { percentOff: 50 })],
      idMap,
    );
    expect(clash).toMatchObject({
      outcome: 'skipped',
      destinationId: expect.stringMatching(/DiscountCodeNode/),
      reason: expect.stringContaining('not created by this migration'),
    });
    expect(store.emulator.shop().discountByCode('VIP20')?.value).toEqual({ percentage: 0.2 });
  });

  it('fails a coupon limited to a product that was not migrated, or priced in another currency', async () => {
    const { store, connection, idMap } = await withProduct();
    const outcomes = await connection.write(
      'coupons',
      [
        couponOf('c6', 'ONLYP2', { productIds: ['p2'] }),
        couponOf('c7', 'EUROS', {
          discountType: 'fixed_cart',
          percentOff: null,
          amountOff: { amount: 1000, currency: 'EUR' },
        }),
      ],
      idMap,
    );
    expect(outcomes).toEqual([
      {
        sourceId: 'c6',
        outcome: 'failed',
        reason: expect.stringContaining("products that were not migrated ('p2')"),
      },
      { sourceId: 'c7', outcome: 'failed', reason: expect.stringContaining('in EUR') },
    ]);
    expect(store.emulator.countStored('coupons')).toBe(0);
  });

  it('writes and reads a coupon limited to more products than one input array or page takes', async () => {
    const store = await startStore('coupon-many', {
      seed: { seed: 5, products: 300, customers: 0, orders: 0, coupons: false },
    });
    const { connection, http } = connect(store);
    const gids = [...store.emulator.shop().products.keys()].map(
      (id) => `gid://shopify/Product/${id}`,
    );
    const idMap = new MemoryIdMap();
    idMap.record(
      'products',
      gids.map((gid, i) => ({ sourceId: `s${i}`, outcome: 'skipped', destinationId: gid })),
    );
    const [outcome] = await connection.write(
      'coupons',
      [couponOf('c8', 'MANY', { productIds: gids.map((_g, i) => `s${i}`) })],
      idMap,
    );
    expect(outcome?.outcome).toBe('created');
    expect(sent(http, 'DiscountCodeBasicUpdate')).toHaveLength(1);
    expect(validateShopifyRequests(http.requests)).toEqual([]);
    const [read] = (await readAll(connection, 'coupons')).filter((c) => c.code === 'MANY');
    expect(read?.productIds.sort()).toEqual([...gids].sort());
    expect(sent(http, 'CouponItemsPage').length).toBeGreaterThan(0);
  });

  it('finds a code whose create answer was lost instead of creating it again', async () => {
    const store = await startStore('coupon-lost', { seed: 'empty' });
    const inner = shopRoutingHttp();
    let lost = 0;
    const flaky: RecordingHttp = {
      requests: inner.requests,
      async request(request) {
        const answer = await inner.request(request);
        if (lost === 0 && bodyOf(request).operationName === 'DiscountCodeBasicCreate') {
          lost += 1;
          return { status: 502, headers: {}, body: new TextEncoder().encode('bad gateway') };
        }
        return answer;
      },
    };
    const { connection } = connect(store, {}, flaky);
    const [outcome] = await connection.write('coupons', [coupons[0]!], new MemoryIdMap());
    expect(lost).toBe(1);
    expect(outcome).toMatchObject({ outcome: 'created' });
    expect(store.emulator.countStored('coupons')).toBe(1);
    const [again] = await connection.write('coupons', [coupons[0]!], new MemoryIdMap());
    expect(again).toMatchObject({ outcome: 'skipped', destinationId: outcome?.destinationId });
  });
});
