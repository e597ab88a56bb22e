import { afterAll, describe, expect, it } from 'vitest';
import type { Category } from '@replatform/canonical/category';
import type { Customer } from '@replatform/canonical/customer';
import {
  categoryDefaults,
  customerDefaults,
  orderDefaults,
  orderLineDefaults,
  productDefaults,
  variantDefaults,
} from '@replatform/canonical/defaults';
import { entitySchemas, type EntityType } from '@replatform/canonical/entities';
import type { Order } from '@replatform/canonical/order';
import type { Product } from '@replatform/canonical/product';
import { validateShopifyRequests } from '@replatform/emulators/shopify/request-validator';
import {
  GRAPHQL_PATH,
  startShopifyEmulator,
  type ShopifyEmulator,
  type ShopifyEmulatorOptions,
} from '@replatform/emulators/shopify/shopify-emulator';
import { copyAll, MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { Connection, ConnectorHttp, Page } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import {
  connectShopify,
  destinationScopes,
  shopifyConnector,
  shopifyCredentialsSchema,
  type ShopifyConnectorOptions,
  type ShopifyCredentials,
} from './shopify-connector.ts';
import { SHOPIFY_SCOPES } from './oauth.ts';
import {
  allRecordedRequests,
  routeShop,
  shopRoutingHttp,
  testShopDomain,
  type RecordingHttp,
} from './test-support.ts';

interface TestStore {
  emulator: ShopifyEmulator;
  shop: string;
  credentials: ShopifyCredentials;
  close(): Promise<void>;
}

const stores: TestStore[] = [];

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
    shop,
    credentials: { shopDomain: shop, accessToken: emulator.accessToken },
    async close() {
      unroute();
      await emulator.close();
    },
  };
  stores.push(store);
  return store;
}

afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  // Every request the connector sent in these tests is valid against the 2026-10 schema.
  expect(validateShopifyRequests(allRecordedRequests)).toEqual([]);
});

function fakeTime(start = Date.parse('2026-10-15T12:00:00Z')) {
  let t = start;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
    },
    advance(ms: number) {
      t += ms;
    },
  };
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

async function raw(store: TestStore, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${store.emulator.url}${GRAPHQL_PATH}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-access-token': store.emulator.accessToken,
      'x-forwarded-host': store.shop,
    },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as {
    data?: Record<string, unknown>;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
    extensions: { cost: Record<string, unknown> };
  };
}

const operations = (http: RecordingHttp) =>
  http.requests.map((r) => {
    const body =
      typeof r.body === 'string' ? (JSON.parse(r.body) as { operationName?: string }) : {};
    return body.operationName ?? `${r.method} ${new URL(r.url).pathname}`;
  });

const sample = { seed: 7, products: 12, customers: 8, orders: 8 };

async function firstPageOf(connection: Connection): Promise<Page<'products'>> {
  const iterator = connection.read('products', null)[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) throw new Error('no page');
  return first.value;
}

describe('credentials', () => {
  it('accepts only a myshopify.com domain and a token', () => {
    expect(
      shopifyCredentialsSchema.safeParse({
        shopDomain: 'my-shop.myshopify.com',
        accessToken: 'shpat_x',
      }).success,
    ).toBe(true);
    for (const shopDomain of [
      'https://my-shop.myshopify.com',
      'my-shop.myshopify.com:443',
      'evil.com',
      'MY-SHOP.myshopify.com',
    ])
      expect(
        shopifyCredentialsSchema.safeParse({ shopDomain, accessToken: 'x' }).success,
        shopDomain,
      ).toBe(false);
    expect(
      shopifyCredentialsSchema.safeParse({
        shopDomain: 'a.myshopify.com',
        accessToken: 'x',
        extra: 1,
      }).success,
    ).toBe(false);
  });

  it('reports a refused token as a config error and checks a good one', async () => {
    const store = await startStore('auth', { seed: 'empty' });
    const bad = connectShopify(
      { shopDomain: store.shop, accessToken: 'shpat_wrong' },
      { http: shopRoutingHttp() },
    );
    const error = await bad.check().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).errorClass).toBe('config');
    expect((error as ConnectorError).code).toBe('auth_failed');
    const { connection } = connect(store);
    expect(await connection.check()).toEqual({
      ok: true,
      storeName: expect.any(String),
      currency: 'USD',
    });
  });
});

describe('destination check', () => {
  const readOnly = ['read_products', 'read_customers', 'read_orders', 'read_all_orders'];

  it('accepts a read-only app token for a source and refuses it for a destination, naming the scopes', async () => {
    const store = await startStore('readonly', {
      seed: { seed: 4, products: 2, customers: 2, orders: 0 },
      tokens: { shpat_readonly: readOnly },
    });
    const http = shopRoutingHttp();
    const connection = connectShopify(
      { shopDomain: store.shop, accessToken: 'shpat_readonly' },
      { http },
    );
    expect(await connection.check()).toEqual({
      ok: true,
      storeName: expect.any(String),
      currency: 'USD',
    });
    expect(await connection.count('products')).toBe(2);
    const error = await connection.check({ write: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect(error).toMatchObject({ errorClass: 'config', code: 'read_only_credentials' });
    expect((error as Error).message).toContain(
      'may not create or change products, collections and product reviews, discount codes, customers and orders: it lacks the write_products, write_discounts, write_customers and write_orders access scopes.',
    );
    // Shopify's own report of the granted scopes, not a write, decided it.
    expect(operations(http)).not.toContain('ProductSet');
    expect(operations(http).at(-1)).toBe('AppAccessScopes');
  });

  it('names the one write scope a token lacks', async () => {
    const store = await startStore('noorders', {
      seed: 'empty',
      tokens: {
        shpat_noorders: ['write_products', 'write_discounts', 'write_customers', 'read_orders'],
      },
    });
    const connection = connectShopify(
      { shopDomain: store.shop, accessToken: 'shpat_noorders' },
      { http: shopRoutingHttp() },
    );
    await expect(connection.check({ write: true })).rejects.toMatchObject({
      errorClass: 'config',
      code: 'read_only_credentials',
      message: expect.stringContaining(
        'may not create or change orders: it lacks the write_orders access scope.',
      ),
    });
  });

  it('accepts a token with the write scopes, changing nothing in the shop', async () => {
    const store = await startStore('writer', {
      seed: 'empty',
      // Neither redirects nor holds are needed to write records (they end as warnings).
      tokens: {
        shpat_writer: ['write_products', 'write_discounts', 'write_customers', 'write_orders'],
      },
    });
    const logged: string[] = [];
    const connection = connectShopify(
      { shopDomain: store.shop, accessToken: 'shpat_writer' },
      { http: shopRoutingHttp(), log: (message) => logged.push(message) },
    );
    expect(await connection.check({ write: true })).toEqual({
      ok: true,
      storeName: expect.any(String),
      currency: 'USD',
      canWrite: true,
    });
    expect(logged).toContain('shopify: optional write scopes not granted');
    expect(await connect(store).connection.check({ write: true })).toMatchObject({
      canWrite: true,
    });
    for (const entity of ['categories', 'products', 'coupons', 'customers', 'orders'] as const)
      expect(store.emulator.countStored(entity)).toBe(0);
    expect(store.emulator.shop().metafieldDefinitions).toHaveLength(0);
  });

  it('asks only for scopes the app requests when it is installed', () => {
    for (const scope of Object.keys(destinationScopes))
      expect(SHOPIFY_SCOPES as readonly string[]).toContain(scope);
  });
});

describe('reading', () => {
  it('reads the same records page by page and with bulk operations, and resumes from checkpoints', async () => {
    let store = await startStore('read', { seed: sample });
    // A product larger than one page query: 30 variants and 12 images need follow-up queries.
    const { connection: writer } = connect(store);
    const images = [
      ...new Map(
        [...store.emulator.shop().products.values()]
          .flatMap((p) => p.media)
          .map((m) => [m.path, m]),
      ).values(),
    ].slice(0, 12);
    const big: Product = {
      ...bigProduct('big-1', 6, 5),
      images: images.map((m, i) => ({
        url: `${store.emulator.url}${m.path ?? ''}`,
        alt: `view ${i}`,
        title: '',
        position: i,
      })),
    };
    expect((await writer.write('products', [big], new MemoryIdMap()))[0]?.outcome).toBe('created');

    const paged = connect(store, { bulkThreshold: 10_000 });
    const bulk = connect(store, { bulkThreshold: 2 });
    for (const entity of ['categories', 'products', 'customers', 'orders'] as EntityType[]) {
      const a = await readAll(paged.connection, entity);
      const b = await readAll(bulk.connection, entity);
      expect(a.length, entity).toBe(await paged.connection.count(entity));
      expect(b, entity).toEqual(a);
      for (const record of a)
        expect(entitySchemas[entity].safeParse(record).success, `${entity} ${record.id}`).toBe(
          true,
        );
    }
    // Bulk reads take the refunds of an order (a connection too deep for the bulk query) apart.
    expect((await readAll(paged.connection, 'orders')).some((o) => o.refunds.length > 0)).toBe(
      true,
    );
    expect(operations(bulk.http)).toContain('OrderRefunds');
    const read = (await readAll(paged.connection, 'products')).find((p) => p.name === big.name);
    expect(read?.variants).toHaveLength(30);
    expect(read?.images.map((i) => i.alt)).toEqual(images.map((_m, i) => `view ${i}`));
    expect(operations(paged.http)).toContain('ProductVariantsPage');
    expect(operations(paged.http)).toContain('ProductMediaPage');
    expect(operations(paged.http)).not.toContain('BulkRun');
    expect(operations(bulk.http)).toContain('BulkRun');
    expect(
      bulk.http.requests.some(
        (r) => r.method === 'GET' && new URL(r.url).pathname.startsWith('/bulk-results/'),
      ),
    ).toBe(true);

    // Resuming from the first page's checkpoint gives the rest, in pages and in bulk.
    const more = await startStore('resume', { seed: { ...sample, products: 45 } });
    store = more;
    const smallPages = connect(store, { bulkThreshold: 10_000 });
    const products = await readAll(smallPages.connection, 'products');
    const page = await firstPageOf(smallPages.connection);
    expect(page.next).not.toBeNull();
    const rest: Product[] = [];
    for await (const p of smallPages.connection.read('products', page.next))
      rest.push(...p.records);
    expect([...page.records, ...rest]).toEqual(products);

    const bulkPages = connect(store, { bulkThreshold: 2 });
    const bulkPage = await firstPageOf(bulkPages.connection);
    expect(bulkPage.next).not.toBeNull();
    const bulkRest: Product[] = [];
    for await (const p of bulkPages.connection.read('products', bulkPage.next))
      bulkRest.push(...p.records);
    expect([...bulkPage.records, ...bulkRest]).toEqual(products);
  });

  it('maps collections flat, products with options, variants, media, SEO and metafields', async () => {
    const store = await startStore('map', { seed: sample });
    const { connection } = connect(store);
    const categories = await readAll(connection, 'categories');
    expect(
      categories.every((c) => c.parentId === null && c.sourceUrlPath === `/collections/${c.slug}`),
    ).toBe(true);
    const products = await readAll(connection, 'products');
    const variable = products.find((p) => p.type === 'variable');
    const simple = products.find((p) => p.type === 'simple');
    expect(variable?.options.length).toBeGreaterThan(0);
    expect(variable?.variants.every((v) => v.optionValues.length === variable.options.length)).toBe(
      true,
    );
    expect(simple?.variants).toHaveLength(1);
    expect(simple?.sku).toBe(simple?.variants[0]?.sku);
    expect(simple?.options).toEqual([]);
    expect(
      products.every(
        (p) =>
          p.seoTitle.endsWith('| Sample Store') &&
          p.metafields.some((m) => m.namespace === 'shopify.custom' && m.key === 'material') &&
          p.images.length > 0,
      ),
    ).toBe(true);
    expect(products.every((p) => p.variants.every((v) => v.weight?.unit === 'kg'))).toBe(true);
    expect(products.some((p) => p.variants.some((v) => !v.inventory.tracked))).toBe(true);
    const orders = await readAll(connection, 'orders');
    for (const o of orders) {
      const lines = o.lines.reduce((n, l) => n + l.total.amount, 0);
      expect(o.subtotal.amount).toBe(lines);
      expect(o.grandTotal.amount).toBe(
        o.subtotal.amount -
          o.discountTotal.amount +
          o.shippingTotal.amount +
          o.feeTotal.amount +
          (o.pricesIncludeTax ? 0 : o.taxTotal.amount),
      );
    }
    expect(new Set(orders.map((o) => o.status)).size).toBeGreaterThan(2);
    expect(orders.some((o) => o.paymentMethod !== '' && o.transactionId !== '')).toBe(true);
  });
});

function bigProduct(id: string, sizes: number, colours: number): Product {
  const size = Array.from({ length: sizes }, (_v, i) => `S${i}`);
  const colour = Array.from({ length: colours }, (_v, i) => `C${i}`);
  return {
    ...productDefaults(),
    id,
    type: 'variable',
    name: `Big product ${id}`,
    slug: `big-product-${id}`,
    descriptionHtml: '<p>Big</p>',
    vendor: 'Acme',
    options: [
      { name: 'Size', values: size, shared: null, visible: true, position: 0 },
      { name: 'Colour', values: colour, shared: null, visible: true, position: 1 },
    ],
    variants: size.flatMap((s, i) =>
      colour.map((c, j) => ({
        ...variantDefaults({ amount: 1999, currency: 'USD' }),
        id: `${id}-${s}-${c}`,
        sku: `${id}-${s}-${c}`,
        optionValues: [
          { name: 'Size', value: s },
          { name: 'Colour', value: c },
        ],
        weight: { value: 0.5, unit: 'kg' as const },
        inventory: {
          tracked: true,
          quantity: 3,
          stockStatus: 'instock' as const,
          backorders: 'no' as const,
          lowStockThreshold: null,
        },
        position: i * colours + j,
      })),
    ),
    sourceUrlPath: null,
    createdAt: null,
    updatedAt: null,
  };
}

describe('writing', () => {
  it('copies a store: images arrive, orders link to customers, products and variants without notifying', async () => {
    const source = await startStore('copy-src', { seed: sample });
    const target = await startStore('copy-dst', { seed: 'empty' });
    const from = connect(source).connection;
    const to = connect(target).connection;
    const idMap = new MemoryIdMap();
    const outcomes = await copyAll(from, to, shopifyConnector as never, idMap);
    for (const entity of ['categories', 'products', 'customers', 'orders'] as EntityType[])
      expect(
        outcomes[entity].filter((o) => o.outcome !== 'created'),
        entity,
      ).toEqual([]);
    // Passwords are named once for the run, not on every customer.
    expect(await to.prepareImport?.()).toContain(
      'Passwords cannot be migrated to Shopify: customers set a new password (for example through an account invitation).',
    );
    expect(outcomes.customers.flatMap((o) => o.warnings ?? [])).toEqual([]);

    // An image shown by several products is stored once and reported once, to be reused.
    const mediaIds = (shop: ReturnType<ShopifyEmulator['shop']>) =>
      new Set([...shop.products.values()].flatMap((p) => p.media.map((m) => m.id)));
    const sourceMedia = mediaIds(source.emulator.shop());
    const sharedMedia = [...source.emulator.shop().products.values()].flatMap((p) => p.media);
    expect(sharedMedia.length).toBeGreaterThan(sourceMedia.size);
    expect(mediaIds(target.emulator.shop()).size).toBe(sourceMedia.size);
    expect(outcomes.products.flatMap((o) => o.assets ?? [])).toHaveLength(sourceMedia.size);

    // Images: same file, same alt text, same position (the URL is the destination's own copy).
    const sourceProducts = await readAll(from, 'products');
    const targetProducts = await readAll(to, 'products');
    for (const p of targetProducts) {
      const original = sourceProducts.find((s) => s.id === idMap.sourceIdOf('products', p.id));
      expect(p.images.map((i) => [i.alt, i.position, i.url.split('/').pop()])).toEqual(
        original?.images.map((i) => [i.alt, i.position, i.url.split('/').pop()]),
      );
      for (const [i, image] of p.images.entries()) {
        const [a, b] = await Promise.all([fetch(image.url), fetch(original?.images[i]?.url ?? '')]);
        expect(Buffer.from(await a.arrayBuffer())).toEqual(Buffer.from(await b.arrayBuffer()));
      }
    }

    // Orders: no e-mails, no stock movement, lines linked to the destination's variants.
    const shop = target.emulator.shop();
    expect(shop.stats.notificationsSent).toBe(0);
    expect(shop.stats.inventoryAdjustments).toBe(0);
    const sourceOrders = await readAll(from, 'orders');
    for (const order of shop.orders.values()) {
      for (const line of order.lineItems) {
        // A line whose product was deleted at the source is a custom line here too.
        if (line.productId === null) continue;
        const variant =
          line.variantId === null ? undefined : shop.findVariant(line.variantId)?.variant;
        expect(variant?.sku, order.name).toBe(line.sku);
      }
    }
    const targetOrders = await readAll(to, 'orders');
    for (const o of targetOrders) {
      const original = sourceOrders.find((s) => s.id === idMap.sourceIdOf('orders', o.id));
      expect(o.status).toBe(original?.status);
      expect(o.customerId === null ? null : idMap.sourceIdOf('customers', o.customerId)).toBe(
        original?.customerId,
      );
    }
    expect(
      targetOrders.some((o) => o.status === 'cancelled') ||
        sourceOrders.every((o) => o.status !== 'cancelled'),
    ).toBe(true);
  });

  it('refuses products over Shopify’s variant or option limits with a clear reason', async () => {
    const store = await startStore('limits', { seed: 'empty' });
    const { connection, http } = connect(store);
    const tooMany = bigProduct('v2049', 50, 41);
    const options = bigProduct('opt4', 1, 1);
    options.options = [
      ...options.options,
      { name: 'A', values: ['a'], shared: null, visible: true, position: 2 },
      { name: 'B', values: ['b'], shared: null, visible: true, position: 3 },
    ];
    for (const v of options.variants)
      v.optionValues.push({ name: 'A', value: 'a' }, { name: 'B', value: 'b' });
    const outcomes = await connection.write('products', [tooMany, options], new MemoryIdMap());
    expect(outcomes[0]).toMatchObject({ sourceId: 'v2049', outcome: 'failed' });
    expect(outcomes[0]?.reason).toMatch(/2050 variants; Shopify allows at most 2048/);
    expect(outcomes[1]).toMatchObject({ sourceId: 'opt4', outcome: 'failed' });
    expect(outcomes[1]?.reason).toMatch(/4 options; Shopify allows at most 3/);
    expect(operations(http)).not.toContain('ProductSet');
    expect(store.emulator.countStored('products')).toBe(0);
  });

  it('fails a product whose handle belongs to another product, and leaves redirects to writeRedirects', async () => {
    const store = await startStore('handles', { seed: 'empty' });
    const { connection } = connect(store);
    const first = {
      ...bigProduct('p1', 1, 1),
      slug: 'red-shirt',
      sourceUrlPath: '/shop/red-shirt.html',
    };
    const category: Category = {
      ...categoryDefaults(),
      id: 'c1',
      parentId: 'c0',
      name: 'Shirts',
      slug: 'shirts',
      description: '',
      position: 3,
      sourceUrlPath: '/catalog/shirts?page=1',
    };
    const [categoryOutcome] = await connection.write('categories', [category], new MemoryIdMap());
    expect(categoryOutcome?.outcome).toBe('created');
    // Collections are flat at Shopify: the engine reports the parent and position for every
    // record that has them (the destination's declared fields), not the connector.
    expect(categoryOutcome?.warnings).toBeUndefined();
    expect((await connection.write('products', [first], new MemoryIdMap()))[0]?.outcome).toBe(
      'created',
    );
    const clash = { ...bigProduct('p2', 1, 1), slug: 'red-shirt' };
    const [failed] = await connection.write('products', [clash], new MemoryIdMap());
    expect(failed).toMatchObject({ outcome: 'failed' });
    expect(failed?.reason).toMatch(/handle 'red-shirt' already exists/);
    // Writes make no redirects: the engine writes them after the run (writeRedirects), as the
    // owner chose, and keeps them so that undo removes them.
    expect(store.emulator.shop().urlRedirects).toEqual([]);
    // A run that lost its id map finds the product by marker.
    const [again] = await connection.write('products', [first], new MemoryIdMap());
    expect(again?.outcome).toBe('skipped');
    expect(store.emulator.countStored('products')).toBe(1);
  });

  it('joins the merchant’s collection of the same name instead of making a second one', async () => {
    const store = await startStore('terms', { seed: 'empty' });
    const { connection } = connect(store);
    const own = await raw(
      store,
      'mutation { collectionCreate(collection: { title: "Été 🎄 Sale" }) { collection { id } userErrors { message } } }',
    );
    const ownId = (own.data?.collectionCreate as { collection: { id: string } }).collection.id;
    const category = (id: string, name: string, slug: string): Category => ({
      ...categoryDefaults(),
      id,
      parentId: null,
      name,
      slug,
      description: '',
      position: 0,
      sourceUrlPath: null,
    });
    const idMap = new MemoryIdMap();
    // The same name written with composed and decomposed accents and another case.
    const outcomes = await connection.write(
      'categories',
      [
        category('c-1', 'E\u0301TE\u0301 🎄 sale', 'summer-sale'),
        category('c-2', 'Winter sale', 'winter-sale'),
      ],
      idMap,
    );
    idMap.record('categories', outcomes);
    expect(outcomes.map((o) => [o.outcome, o.destinationId === ownId])).toEqual([
      ['skipped', true],
      ['created', false],
    ]);
    expect(outcomes[0]?.reason).toMatch(/already has a collection named/);
    const product = { ...bigProduct('p-1', 1, 1), categoryIds: ['c-1'] };
    expect((await connection.write('products', [product], idMap))[0]?.outcome).toBe('created');
    const joined = store.emulator.shop().collections.get(Number(ownId.split('/').pop()));
    expect(joined?.productIds).toHaveLength(1);
    expect(store.emulator.countStored('categories')).toBe(2);
  });

  it('writes customers with consent and addresses, keeps one without a refused phone, links an existing e-mail', async () => {
    const store = await startStore('customers', { seed: 'empty' });
    const { connection } = connect(store);
    const existing = await raw(
      store,
      'mutation { customerCreate(input: { email: "taken@example.com", firstName: "Old" }) { customer { id } userErrors { message } } }',
    );
    const existingId = (existing.data?.customerCreate as { customer: { id: string } }).customer.id;
    const base: Customer = {
      ...customerDefaults(),
      id: 'c-1',
      email: 'ann@example.com',
      firstName: 'Ann',
      lastName: 'Lee',
      phone: '12',
      acceptsMarketing: true,
      addresses: [
        {
          firstName: 'Ann',
          lastName: 'Lee',
          company: '',
          address1: '1 Main St',
          address2: '',
          city: 'Austin',
          province: 'TX',
          postalCode: '78701',
          countryCode: 'US',
          phone: '',
          email: '',
          isDefaultBilling: true,
          isDefaultShipping: false,
        },
        {
          firstName: 'Ann',
          lastName: 'Lee',
          company: '',
          address1: '2 High St',
          address2: '',
          city: 'Leeds',
          province: '',
          postalCode: 'LS1',
          countryCode: 'GB',
          phone: '',
          email: '',
          isDefaultBilling: false,
          isDefaultShipping: true,
        },
      ],
      note: 'VIP',
      tags: ['vip'],
      createdAt: '2024-01-01T00:00:00Z',
    };
    const outcomes = await connection.write(
      'customers',
      [base, { ...base, id: 'c-2', email: 'taken@example.com', phone: '' }],
      new MemoryIdMap(),
    );
    expect(outcomes[0]?.outcome).toBe('created');
    // '12' cannot be an international number: left out with a warning, without a refused call.
    expect(outcomes[0]?.warnings).toContain(
      "The phone number '12' was not migrated: Shopify keeps phone numbers in international (E.164) form and it has too few digits.",
    );
    expect(outcomes[1]).toMatchObject({ outcome: 'skipped', destinationId: existingId });
    const [read] = (await readAll(connection, 'customers')).filter(
      (c) => c.email === 'ann@example.com',
    );
    expect(read).toMatchObject({ phone: '', acceptsMarketing: true, note: 'VIP', tags: ['vip'] });
    // Shopify has one default address: the default shipping one.
    expect(read?.addresses.map((a) => [a.city, a.isDefaultShipping])).toEqual([
      ['Austin', false],
      ['Leeds', true],
    ]);
  });

  it('reports what a token without the fulfilment scopes could not do, instead of failing', async () => {
    const store = await startStore('scopes', { seed: 'empty' });
    const scopes = ['write_products', 'write_customers', 'write_orders', 'read_all_orders'];
    store.emulator.shop().tokens.set('shpat_limited', new Set(scopes));
    const connection = connectShopify(
      { shopDomain: store.shop, accessToken: 'shpat_limited' },
      { http: shopRoutingHttp() },
    );
    const product = { ...bigProduct('moved', 1, 1), sourceUrlPath: '/old/moved.html' };
    const [productOutcome] = await connection.write('products', [product], new MemoryIdMap());
    expect(productOutcome?.outcome).toBe('created');
    const [orderOutcome] = await connection.write(
      'orders',
      [sampleOrder('hold-7001', null, 'on-hold')],
      new MemoryIdMap(),
    );
    expect(orderOutcome?.outcome).toBe('created');
    expect(orderOutcome?.warnings?.some((w) => w.includes('was not put on hold'))).toBe(true);
    expect(store.emulator.shop().urlRedirects).toHaveLength(0);
  });

  it('does not duplicate a record whose create answer was lost', async () => {
    const store = await startStore('lost', { seed: 'empty' });
    const inner = shopRoutingHttp();
    let dropped = 0;
    const lossy: RecordingHttp = {
      requests: inner.requests,
      async request(request) {
        const response = await inner.request(request);
        const body = typeof request.body === 'string' ? request.body : '';
        if (dropped < 2 && /"operationName":"(CustomerCreate|OrderCreate)"/.test(body)) {
          dropped += 1;
          throw new Error('connection reset after the request was processed');
        }
        return response;
      },
    };
    const connection = connectShopify(
      store.credentials,
      { http: lossy as ConnectorHttp },
      { backoffMs: 1 },
    );
    const customer: Customer = {
      ...customerDefaults(),
      id: 'lost-1',
      email: 'lost@example.com',
      firstName: 'L',
      lastName: 'Ost',
      phone: '',
      acceptsMarketing: false,
      addresses: [],
      note: '',
      tags: [],
      createdAt: '2024-01-01T00:00:00Z',
    };
    const idMap = new MemoryIdMap();
    const [created] = await connection.write('customers', [customer], idMap);
    expect(created?.outcome).toBe('created');
    idMap.record('customers', [created!]);
    const order: Order = sampleOrder('lost-order', 'lost-1');
    const [orderOutcome] = await connection.write('orders', [order], idMap);
    expect(orderOutcome?.outcome).toBe('created');
    expect(dropped).toBe(2);
    expect(store.emulator.countStored('customers')).toBe(1);
    expect(store.emulator.countStored('orders')).toBe(1);
  });
});

function sampleOrder(
  id: string,
  customerId: string | null,
  status: Order['status'] = 'processing',
): Order {
  const usd = (amount: number) => ({ amount, currency: 'USD' });
  return {
    ...orderDefaults('USD'),
    id,
    number: id.replace(/\D/g, '') || '1001',
    createdAt: '2025-05-01T10:00:00Z',
    updatedAt: null,
    currency: 'USD',
    customerId,
    email: 'buyer@example.com',
    status,
    paymentStatus: status === 'pending' ? 'pending' : 'paid',
    fulfillmentStatus: status === 'completed' ? 'fulfilled' : 'unfulfilled',
    lines: [
      {
        id: `${id}-l1`,
        productId: null,
        variantId: null,
        sku: 'X-1',
        name: 'Custom item',
        quantity: 2,
        unitPrice: usd(1000),
        tax: usd(160),
        total: usd(2000),
        ...orderLineDefaults(),
      },
    ],
    shippingLines: [{ title: 'Flat rate', code: 'flat', price: usd(500), tax: usd(0) }],
    discounts: [],
    subtotal: usd(2000),
    taxTotal: usd(160),
    shippingTotal: usd(500),
    discountTotal: usd(0),
    grandTotal: usd(2660),
    billingAddress: null,
    shippingAddress: null,
    note: '',
  };
}

describe('rate limits', () => {
  it('paces a steady run on the Standard plan so that Shopify never throttles it, and reports points/s', async () => {
    const time = fakeTime();
    const start = time.now();
    const source = await startStore('steady-src', {
      seed: sample,
      plan: 'standard',
      bucketSize: 1000,
      clock: time.now,
    });
    const target = await startStore('steady-dst', {
      seed: 'empty',
      plan: 'standard',
      bucketSize: 1000,
      clock: time.now,
    });
    const from = connect(source, { now: time.now, sleep: time.sleep }).connection;
    const to = connect(target, { now: time.now, sleep: time.sleep }).connection;
    const outcomes = await copyAll(from, to, shopifyConnector as never, new MemoryIdMap());
    expect(outcomes.orders.every((o) => o.outcome === 'created')).toBe(true);
    expect(source.emulator.shop().stats.throttled).toBe(0);
    expect(target.emulator.shop().stats.throttled).toBe(0);
    for (const connection of [from, to]) {
      const usage = connection.rateUsage();
      const stats = connection.stats();
      expect(usage).toMatchObject({ unit: 'points', throttled: 0, availablePerSecond: 100 });
      expect(stats.bucketSize).toBe(1000);
      // What the full bucket held at the start is not use of the restore rate: the figure never
      // exceeds what the shop restores per second.
      expect(usage.usedPerSecond).toBeLessThanOrEqual(100 + 1e-9);
      // Nor can a connection have used more than the bucket and what the shop restored since
      // the start; the stores share one clock, so one's bucket refills while the other works.
      expect(stats.pointsUsed).toBeLessThanOrEqual(1000 + ((time.now() - start) / 1000) * 100 + 1);
    }
    // Reading waited for the bucket; counting the full bucket it started with would have claimed
    // more than the shop restores (the figure once reported 144 of 100 points/s).
    const read = from.stats();
    expect(read.waitedMs).toBeGreaterThan(0);
    expect(from.rateUsage().usedPerSecond).toBeGreaterThan(50);
    expect(read.pointsUsed / (read.busyMs / 1000)).toBeGreaterThan(100);
  });

  it('waits exactly as long as a THROTTLED answer requires', async () => {
    const time = fakeTime();
    const store = await startStore('throttled', {
      seed: sample,
      plan: 'standard',
      bucketSize: 1000,
      clock: time.now,
    });
    // Another app of the shop has used the bucket: 50 points are left.
    expect(store.emulator.shop().take(950)).toBe(true);
    const { connection } = connect(store, { now: time.now, sleep: time.sleep });
    const before = time.now();
    // Resuming a read starts with the page query itself, before the connector knows the bucket.
    const pages = connection.read('products', {
      version: 1,
      cursor: JSON.stringify({ mode: 'page', after: null }),
    });
    const products: Product[] = [];
    for await (const page of pages) products.push(...page.records);
    expect(products).toHaveLength(12);
    const stats = connection.stats();
    expect(stats.throttled).toBe(1);
    expect(store.emulator.shop().stats.throttled).toBe(1);
    // (846 requested - 50 available) / 100 points per second.
    expect(stats.waitedMs).toBeGreaterThanOrEqual(7_960);
    expect(time.now() - before).toBe(stats.waitedMs);
  });

  it('keeps to 5 orders per minute on a development store', async () => {
    const time = fakeTime();
    const store = await startStore('devstore', {
      seed: 'empty',
      developmentStore: true,
      clock: time.now,
    });
    const { connection } = connect(store, { now: time.now, sleep: time.sleep });
    const orders = Array.from({ length: 7 }, (_v, i) => sampleOrder(`order-${2000 + i}`, null));
    const start = time.now();
    const outcomes = await connection.write('orders', orders, new MemoryIdMap());
    expect(outcomes.every((o) => o.outcome === 'created')).toBe(true);
    expect(store.emulator.shop().stats.orderCreateRefused).toBe(0);
    expect(time.now() - start).toBeGreaterThanOrEqual(60_000);

    // Orders created by someone else fill the window: the refused call waits and succeeds.
    for (let i = 0; i < 5; i++)
      await raw(
        store,
        `mutation { orderCreate(order: { lineItems: [{ title: "x", quantity: 1, priceSet: { shopMoney: { amount: "1.00", currencyCode: USD } } }] }) { order { id } } }`,
      );
    const fresh = connect(store, { now: time.now, sleep: time.sleep }).connection;
    const [late] = await fresh.write(
      'orders',
      [sampleOrder('order-3001', null)],
      new MemoryIdMap(),
    );
    expect(late?.outcome).toBe('created');
    expect(store.emulator.shop().stats.orderCreateRefused).toBeGreaterThanOrEqual(1);
  });
});
