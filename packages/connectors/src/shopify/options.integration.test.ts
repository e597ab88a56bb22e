import { afterAll, describe, expect, it } from 'vitest';
import type { Category } from '@replatform/canonical/category';
import type { Page } from '@replatform/canonical/content';
import type { Customer } from '@replatform/canonical/customer';
import {
  categoryDefaults,
  customerDefaults,
  orderDefaults,
  orderLineDefaults,
  pageDefaults,
  productDefaults,
  variantDefaults,
} from '@replatform/canonical/defaults';
import type { Order } from '@replatform/canonical/order';
import type { Product } from '@replatform/canonical/product';
import { validateShopifyRequests } from '@replatform/emulators/shopify/request-validator';
import {
  startShopifyEmulator,
  type ShopifyEmulator,
} from '@replatform/emulators/shopify/shopify-emulator';
import { MemoryIdMap } from '../kit/conformance/conformance-suite.ts';
import type { ConnectorHttpRequest, WriteChoices } from '../kit/contract.ts';
import { connectShopify } from './shopify-connector.ts';
import {
  allRecordedRequests,
  routeShop,
  shopRoutingHttp,
  testShopDomain,
  type RecordingHttp,
} from './test-support.ts';
import { placedWithin } from './write.ts';

/**
 * The owner's write choices at a Shopify destination: the requests sent with and without each
 * choice, what the shop makes of them, and that a second run still finds every record.
 */

const closers: (() => Promise<void>)[] = [];

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  expect(validateShopifyRequests(allRecordedRequests)).toEqual([]);
});

async function startStore(label: string): Promise<{
  emulator: ShopifyEmulator;
  connect: (choices?: Partial<WriteChoices>) => {
    connection: ReturnType<typeof connectShopify>;
    http: RecordingHttp;
  };
}> {
  const shop = testShopDomain(label);
  const emulator = await startShopifyEmulator({ shops: [shop], plan: 'plus', seed: 'empty' });
  const unroute = routeShop(shop, emulator.url);
  closers.push(async () => {
    unroute();
    await emulator.close();
  });
  return {
    emulator,
    connect(choices) {
      const http = shopRoutingHttp();
      const connection = connectShopify(
        { shopDomain: shop, accessToken: emulator.accessToken },
        { http, ...(choices ? { choices } : {}) },
        { backoffMs: 10, bulkPollMs: 10 },
      );
      return { connection, http };
    },
  };
}

const bodyOf = (r: ConnectorHttpRequest) =>
  typeof r.body === 'string'
    ? (JSON.parse(r.body) as { operationName?: string; variables?: Record<string, unknown> })
    : {};
const sent = (http: RecordingHttp, name: string) =>
  http.requests.map(bodyOf).filter((b) => b.operationName === name);

const usd = (amount: number) => ({ amount, currency: 'USD' });

function product(id: string): Product {
  return {
    ...productDefaults(),
    id,
    type: 'simple',
    name: `Linen Shirt ${id}`,
    slug: `old-shirt-${id}`,
    sku: `SKU-${id}`,
    vendor: 'Acme',
    variants: [
      {
        ...variantDefaults(usd(500)),
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

function category(id: string): Category {
  return {
    ...categoryDefaults(),
    id,
    name: `Summer ${id}`,
    slug: `old-summer-${id}`,
    sourceUrlPath: null,
  } as Category;
}

function page(id: string): Page {
  return {
    ...pageDefaults(),
    id,
    title: `About us ${id}`,
    slug: `old-about-${id}`,
    body: '<p>Hello</p>',
    sourceUrlPath: null,
  };
}

function customer(id: string): Customer {
  return {
    ...customerDefaults(),
    id,
    email: `${id}@example.com`,
    firstName: 'Ada',
    lastName: 'Lovelace',
    phone: '',
    acceptsMarketing: false,
    addresses: [],
    note: '',
    tags: [],
    createdAt: '2024-01-01T00:00:00.000Z',
  } as Customer;
}

function order(id: string, number: string, fulfilled = false): Order {
  return {
    ...orderDefaults('USD'),
    id,
    number,
    createdAt: '2025-05-01T10:00:00.000Z',
    updatedAt: null,
    currency: 'USD',
    customerId: null,
    email: 'buyer@example.com',
    status: fulfilled ? 'completed' : 'processing',
    paymentStatus: 'paid',
    fulfillmentStatus: fulfilled ? 'fulfilled' : 'unfulfilled',
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

describe('keepSlugs', () => {
  it('keeps the handles by default', async () => {
    const store = await startStore('slugs-kept');
    const { connection, http } = store.connect();
    await connection.write('categories', [category('c1')], new MemoryIdMap());
    await connection.write('products', [product('p1')], new MemoryIdMap());
    await connection.write('pages', [page('g1')], new MemoryIdMap());
    expect(sent(http, 'ProductSet')[0]?.variables?.input).toMatchObject({
      handle: 'old-shirt-p1',
    });
    expect(sent(http, 'CollectionCreate')[0]?.variables?.collection).toMatchObject({
      handle: 'old-summer-c1',
    });
    const shop = store.emulator.shop();
    expect([...shop.products.values()].map((p) => p.handle)).toEqual(['old-shirt-p1']);
    expect([...shop.collections.values()].map((c) => c.handle)).toEqual(['old-summer-c1']);
    expect([...shop.pages.values()].map((p) => p.handle)).toEqual(['old-about-g1']);
  });

  it('false: sends no handle, Shopify makes one from the title, and a second run finds each record', async () => {
    const store = await startStore('slugs-new');
    const choices = { keepSlugs: false };
    const first = store.connect(choices);
    const write = async (connection: ReturnType<typeof connectShopify>) => [
      ...(await connection.write('categories', [category('c1')], new MemoryIdMap())),
      ...(await connection.write('products', [product('p1')], new MemoryIdMap())),
      ...(await connection.write('pages', [page('g1')], new MemoryIdMap())),
    ];
    expect((await write(first.connection)).map((o) => o.outcome)).toEqual([
      'created',
      'created',
      'created',
    ]);
    const product1 = sent(first.http, 'ProductSet')[0]?.variables?.input as Record<string, unknown>;
    expect(product1).not.toHaveProperty('handle');
    const collection1 = sent(first.http, 'CollectionCreate')[0]?.variables?.collection as Record<
      string,
      unknown
    >;
    expect(collection1).not.toHaveProperty('handle');
    const page1 = sent(first.http, 'PageCreate')[0]?.variables?.page as Record<string, unknown>;
    expect(page1).not.toHaveProperty('handle');
    const shop = store.emulator.shop();
    expect([...shop.products.values()].map((p) => p.handle)).toEqual(['linen-shirt-p1']);
    expect([...shop.collections.values()].map((c) => c.handle)).toEqual(['summer-c1']);
    expect([...shop.pages.values()].map((p) => p.handle)).toEqual(['about-us-g1']);
    // Another run without the id map: each is found again by its marker, none is made twice.
    const again = await write(store.connect(choices).connection);
    expect(again.map((o) => o.outcome)).toEqual(['skipped', 'skipped', 'skipped']);
    expect([shop.products.size, shop.collections.size, shop.pages.size]).toEqual([1, 1, 1]);
  });
});

describe('keepOrderNumbers', () => {
  it('keeps the number as the order name by default', async () => {
    const store = await startStore('numbers-kept');
    const { connection, http } = store.connect();
    await connection.write('orders', [order('o1', '5001')], new MemoryIdMap());
    const input = sent(http, 'OrderCreate')[0]?.variables?.order as Record<string, unknown>;
    expect(input.name).toBe('#5001');
    expect(JSON.stringify(input.metafields)).not.toContain('source_number');
    expect([...store.emulator.shop().orders.values()].map((o) => o.name)).toEqual(['#5001']);
  });

  it('false: Shopify numbers the order, the source number stays in a metafield, a second run finds it', async () => {
    const store = await startStore('numbers-new');
    const { connection, http } = store.connect({ keepOrderNumbers: false });
    const outcomes = await connection.write('orders', [order('o1', '5001')], new MemoryIdMap());
    expect(outcomes.map((o) => o.outcome)).toEqual(['created']);
    const input = sent(http, 'OrderCreate')[0]?.variables?.order as Record<string, unknown>;
    expect(input).not.toHaveProperty('name');
    expect(input.metafields).toContainEqual({
      namespace: 'replatform',
      key: 'source_number',
      type: 'single_line_text_field',
      value: '5001',
    });
    const [written] = [...store.emulator.shop().orders.values()];
    expect(written?.name).toBe('#1001');
    expect(written?.metafields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ namespace: 'replatform', key: 'source_number', value: '5001' }),
      ]),
    );
    const again = await store
      .connect({ keepOrderNumbers: false })
      .connection.write('orders', [order('o1', '5001')], new MemoryIdMap());
    expect(again.map((o) => o.outcome)).toEqual(['skipped']);
    expect(store.emulator.shop().orders.size).toBe(1);
  });

  it('without a marker definition, finds an order Shopify numbered by the second it was placed', () => {
    expect(placedWithin('2025-05-01T10:00:00.250Z')).toBe(
      "processed_at:>='2025-05-01T10:00:00Z' processed_at:<'2025-05-01T10:00:01Z'",
    );
  });
});

describe('notifyCustomers', () => {
  it('asks for no e-mail by default', async () => {
    const store = await startStore('quiet');
    const { connection, http } = store.connect();
    await connection.write('customers', [customer('k1')], new MemoryIdMap());
    await connection.write('orders', [order('o1', '7001', true)], new MemoryIdMap());
    expect(sent(http, 'OrderCreate')[0]?.variables?.options).toMatchObject({
      sendReceipt: false,
      sendFulfillmentReceipt: false,
    });
    expect(sent(http, 'CustomerInvite')).toEqual([]);
    expect(store.emulator.shop().notifications).toEqual([]);
    const prepared = await connection.prepareImport?.();
    expect(prepared?.join('\n')).toContain('without notifying customers');
  });

  it('true: the receipts and the account invitation are asked for, once per record', async () => {
    const store = await startStore('notify');
    const { connection, http } = store.connect({ notifyCustomers: true });
    const customers = await connection.write('customers', [customer('k1')], new MemoryIdMap());
    expect(customers.map((o) => o.outcome)).toEqual(['created']);
    await connection.write('orders', [order('o1', '7001', true)], new MemoryIdMap());
    expect(sent(http, 'OrderCreate')[0]?.variables?.options).toMatchObject({
      sendReceipt: true,
      sendFulfillmentReceipt: true,
    });
    expect(store.emulator.shop().notifications).toEqual([
      { kind: 'account_invite', subject: customers[0]?.destinationId, to: 'k1@example.com' },
      { kind: 'order_receipt', subject: '#7001', to: 'buyer@example.com' },
      { kind: 'fulfillment_receipt', subject: '#7001', to: 'buyer@example.com' },
    ]);
    // Written again: found, so nothing is sent twice.
    const again = store.connect({ notifyCustomers: true }).connection;
    await again.write('customers', [customer('k1')], new MemoryIdMap());
    await again.write('orders', [order('o1', '7001', true)], new MemoryIdMap());
    expect(store.emulator.shop().notifications).toHaveLength(3);
    const prepared = await connection.prepareImport?.();
    expect(prepared?.join('\n')).toContain('e-mailed to their customers');
  });
});

describe('redirects', () => {
  it('creates the missing ones in one request, leaves the owner’s alone and undoes its own', async () => {
    const store = await startStore('redirects');
    const { connection, http } = store.connect();
    const owners = await connection.writeRedirects!([
      { entity: 'pages', sourceId: 'x', from: '/owner', to: '/pages/owner' },
    ]);
    const redirects = [
      { entity: 'products' as const, sourceId: '1', from: '/shop/a?ref=1', to: '/products/a' },
      { entity: 'products' as const, sourceId: '2', from: '/Owner', to: '/products/b' },
      { entity: 'products' as const, sourceId: '3', from: '/shop/a?ref=1', to: '/products/a' },
      { entity: 'products' as const, sourceId: '4', from: '/same', to: '/same' },
      {
        entity: 'products' as const,
        sourceId: '5',
        from: 'https://old.example/c',
        to: '/collections/c',
      },
    ];
    const before = http.requests.length;
    const outcomes = await connection.writeRedirects!(redirects);
    expect(outcomes.map((o) => [o.from, o.outcome])).toEqual([
      ['/shop/a?ref=1', 'created'],
      ['/Owner', 'failed'],
      ['/shop/a?ref=1', 'existing'],
      ['/same', 'failed'],
      ['https://old.example/c', 'created'],
    ]);
    expect(outcomes[1]?.reason).toContain('already redirects /owner to /pages/owner');
    expect(outcomes[2]?.destinationId).toBe(outcomes[0]?.destinationId);
    // One lookup of every path, one create of the missing ones.
    expect(http.requests.length - before).toBe(2);
    const shop = store.emulator.shop();
    expect(shop.urlRedirects.map((r) => [r.path, r.target])).toEqual([
      ['/owner', '/pages/owner'],
      ['/shop/a?ref=1', '/products/a'],
      ['/c', '/collections/c'],
    ]);
    const removed = await connection.removeAssets!([
      { kind: 'redirect', key: '/shop/a?ref=1', destinationId: outcomes[0]!.destinationId! },
      { kind: 'redirect', key: '/c', destinationId: outcomes[4]!.destinationId! },
      { kind: 'redirect', key: '/c', destinationId: outcomes[4]!.destinationId! },
    ]);
    expect(removed.map((o) => o.outcome)).toEqual(['removed', 'removed', 'gone']);
    expect(shop.urlRedirects.map((r) => r.id)).toEqual([
      Number(owners[0]?.destinationId?.split('/').pop()),
    ]);
  });

  it('says what is missing when the app may not write redirects', async () => {
    const store = await startStore('redirects-scope');
    const shop = store.emulator.shop();
    for (const scopes of shop.tokens.values()) scopes.delete('write_online_store_navigation');
    const outcomes = await store.connect().connection.writeRedirects!([
      { entity: 'products', sourceId: '1', from: '/old', to: '/products/new' },
    ]);
    expect(outcomes[0]).toMatchObject({ outcome: 'failed' });
    expect(outcomes[0]?.reason).toContain('write_online_store_navigation');
  });
});
