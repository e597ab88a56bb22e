import type { Category } from '@replatform/canonical/category';
import type { Page as WebPage } from '@replatform/canonical/content';
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
import { adminSchema } from '@replatform/emulators/magento2/admin-schema';
import {
  startMagentoEmulator,
  type MagentoEmulator,
} from '@replatform/emulators/magento2/magento-emulator';
import { afterAll, describe, expect, it } from 'vitest';
import type { Connection, ConnectorHttpRequest, WriteChoices } from '../kit/contract.ts';
import { MemoryIdMap } from '../kit/conformance/conformance-suite.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { magentoConnector } from './magento-connector.ts';
import { customerMarker } from './write-customers.ts';
import { orderMarker, previousNumberComment } from './write-orders.ts';

const recorded: ConnectorHttpRequest[][] = [];
const emulators: MagentoEmulator[] = [];

afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
});

async function emptyStore(): Promise<MagentoEmulator> {
  const emulator = await startMagentoEmulator({
    seed: 'empty',
    bulk: { tickMs: 2, perTick: 25 },
  });
  emulators.push(emulator);
  return emulator;
}

/** A connection with the owner's choices, and the requests it sends. */
function connect(
  emulator: MagentoEmulator,
  choices: Partial<WriteChoices> = {},
): { connection: Connection; requests: ConnectorHttpRequest[] } {
  const http = loopbackHttp();
  recorded.push(http.requests);
  const connection = magentoConnector.connect(
    { storeUrl: emulator.url, ...emulator.credentials },
    { http, choices },
  );
  return { connection, requests: http.requests };
}

const sent = (requests: ConnectorHttpRequest[], method: string, path: string) =>
  requests
    .filter((r) => r.method === method && new URL(r.url).pathname.endsWith(path))
    .map((r) => JSON.parse(String(r.body ?? 'null')) as Record<string, unknown>);

const usd = (amount: number) => ({ amount, currency: 'USD' });

const order = (id: string, number: string): Order => ({
  ...orderDefaults('USD'),
  id,
  number,
  createdAt: '2024-02-03T04:05:06.000Z',
  updatedAt: null,
  currency: 'USD',
  customerId: null,
  email: 'buyer@example.com',
  status: 'completed',
  paymentStatus: 'pending',
  fulfillmentStatus: 'unfulfilled',
  lines: [
    {
      id: `${id}-l1`,
      productId: null,
      variantId: null,
      sku: 'GIFT-1',
      name: 'Gift wrap',
      quantity: 1,
      unitPrice: usd(500),
      tax: usd(0),
      total: usd(500),
      ...orderLineDefaults(),
    },
  ],
  shippingLines: [],
  discounts: [],
  subtotal: usd(500),
  taxTotal: usd(0),
  shippingTotal: usd(0),
  discountTotal: usd(0),
  grandTotal: usd(500),
  billingAddress: null,
  shippingAddress: null,
  note: '',
});

const customer = (id: string, email: string): Customer => ({
  ...customerDefaults(),
  id,
  email,
  firstName: 'Ada',
  lastName: 'Buyer',
  phone: '',
  acceptsMarketing: false,
  addresses: [],
  note: '',
  tags: [],
  createdAt: '2022-03-04T05:06:07.000Z',
});

const product = (id: string, name: string, slug: string, sku: string): Product => ({
  ...productDefaults(),
  id,
  type: 'simple',
  name,
  slug,
  sku,
  variants: [{ ...variantDefaults(usd(1999)), id: `${id}-v`, sku, optionValues: [], position: 0 }],
  sourceUrlPath: `/product/${slug}/`,
  createdAt: null,
  updatedAt: null,
});

const category = (id: string, name: string, slug: string): Category => ({
  ...categoryDefaults(),
  id,
  parentId: null,
  name,
  slug,
  description: '',
  position: 0,
  sourceUrlPath: `/category/${slug}/`,
});

const webPage = (id: string, title: string, slug: string): WebPage => ({
  ...pageDefaults(),
  id,
  title,
  slug,
  body: `<p>${title}</p>`,
  status: 'published',
  sourceUrlPath: `/${slug}/`,
});

describe('keepOrderNumbers', () => {
  it('kept (the default): the source number is the increment id', async () => {
    const emulator = await emptyStore();
    const { connection, requests } = connect(emulator);
    const [outcome] = await connection.write('orders', [order('o-1', '1001')], new MemoryIdMap());
    expect(outcome).toMatchObject({ outcome: 'created' });
    const [body] = sent(requests, 'POST', '/V1/orders');
    expect(body?.entity).toMatchObject({ increment_id: '1001', ext_order_id: orderMarker('o-1') });
    expect(emulator.store.sales.get(Number(outcome?.destinationId)).increment_id).toBe('1001');
  });

  it('not kept: Magento numbers the order, the source number stays as a comment, a rerun finds it', async () => {
    const emulator = await emptyStore();
    const { connection, requests } = connect(emulator, { keepOrderNumbers: false });
    const [outcome] = await connection.write('orders', [order('o-1', '1001')], new MemoryIdMap());
    expect(outcome).toMatchObject({ outcome: 'created' });
    const [body] = sent(requests, 'POST', '/V1/orders');
    const entity = body?.entity as Record<string, unknown>;
    expect(entity).not.toHaveProperty('increment_id');
    expect(entity.ext_order_id).toBe(orderMarker('o-1'));
    // The number is not looked up either: it is not the order's.
    expect(requests.some((r) => decodeURIComponent(r.url).includes('increment_id'))).toBe(false);
    const stored = emulator.store.sales.get(Number(outcome?.destinationId));
    expect(stored.increment_id).toMatch(/^\d{9}$/);
    expect(stored.status_histories).toEqual([
      expect.objectContaining({
        comment: previousNumberComment('1001'),
        is_customer_notified: 0,
        is_visible_on_front: 0,
      }),
    ]);

    // Idempotence without the number: the marker finds it, nothing is written twice.
    const again = connect(emulator, { keepOrderNumbers: false });
    const [rerun] = await again.connection.write(
      'orders',
      [order('o-1', '1001')],
      new MemoryIdMap(),
    );
    expect(rerun).toMatchObject({ outcome: 'skipped', destinationId: outcome?.destinationId });
    expect(emulator.store.sales.orders.size).toBe(1);
    expect(sent(again.requests, 'POST', '/V1/orders')).toEqual([]);
  });
});

describe('notifyCustomers', () => {
  it('off (the default): accounts and orders are written without any e-mail', async () => {
    const emulator = await emptyStore();
    const { connection, requests } = connect(emulator);
    await connection.write('customers', [customer('c-1', 'ada@example.com')], new MemoryIdMap());
    await connection.write('orders', [order('o-1', '1001')], new MemoryIdMap());
    expect(sent(requests, 'POST', '/V1/customers')).toEqual([]);
    expect(sent(requests, 'POST', '/emails')).toEqual([]);
    const [saved] = sent(requests, 'POST', '/V1/orders');
    expect(saved?.entity).toMatchObject({ customer_note_notify: 0 });
    expect(emulator.store.customers.outbox).toEqual([]);
  });

  it("on: a new account gets Magento's welcome e-mail and keeps the marker; a rerun updates it without e-mail", async () => {
    const emulator = await emptyStore();
    const { connection, requests } = connect(emulator, { notifyCustomers: true });
    const [created] = await connection.write(
      'customers',
      [customer('c-1', 'ada@example.com')],
      new MemoryIdMap(),
    );
    expect(created).toMatchObject({ outcome: 'created' });
    // createAccount (no trailing slash), then the repository save with the marker.
    expect(sent(requests, 'POST', '/V1/customers')).toHaveLength(1);
    expect(sent(requests, 'POST', '/V1/customers/')).toEqual([]);
    expect(requests.some((r) => r.url.includes('/async/bulk/'))).toBe(false);
    const stored = emulator.store.customers.byEmail('ada@example.com');
    expect(String(stored?.id)).toBe(created?.destinationId);
    expect(stored?.created_in).toBe(customerMarker('c-1'));
    expect(emulator.store.customers.outbox).toEqual([
      expect.objectContaining({ template: 'customer_new_account', to: 'ada@example.com' }),
    ]);

    const again = connect(emulator, { notifyCustomers: true });
    const [rerun] = await again.connection.write(
      'customers',
      [customer('c-1', 'ada@example.com')],
      new MemoryIdMap(),
    );
    expect(rerun).toMatchObject({ outcome: 'updated', destinationId: created?.destinationId });
    expect(emulator.store.customers.customers.size).toBe(1);
    expect(emulator.store.customers.outbox).toHaveLength(1);
  });

  it("on: the merchant's own account of that e-mail is linked, not e-mailed", async () => {
    const emulator = await emptyStore();
    const owner = connect(emulator);
    await owner.connection.write(
      'customers',
      [customer('x', 'own@example.com')],
      new MemoryIdMap(),
    );
    const account = emulator.store.customers.byEmail('own@example.com');
    if (!account) throw new Error('fixture');
    account.created_in = 'Default Store View';
    const { connection } = connect(emulator, { notifyCustomers: true });
    const [outcome] = await connection.write(
      'customers',
      [customer('c-9', 'own@example.com')],
      new MemoryIdMap(),
    );
    expect(outcome).toMatchObject({ outcome: 'skipped', linked: true });
    expect(emulator.store.customers.outbox).toEqual([]);
  });

  it("on: a new order gets Magento's order confirmation once, never on a rerun", async () => {
    const emulator = await emptyStore();
    const { connection, requests } = connect(emulator, { notifyCustomers: true });
    const [outcome] = await connection.write('orders', [order('o-1', '1001')], new MemoryIdMap());
    expect(outcome).toMatchObject({ outcome: 'created' });
    expect(outcome?.warnings).toBeUndefined();
    const [saved] = sent(requests, 'POST', '/V1/orders');
    expect(saved?.entity).toMatchObject({ customer_note_notify: 1 });
    expect(
      requests
        .filter((r) => r.url.endsWith('/emails'))
        .map((r) => `${r.method} ${new URL(r.url).pathname}`),
    ).toEqual([`POST /rest/default/V1/orders/${outcome?.destinationId}/emails`]);
    expect(emulator.store.customers.outbox).toEqual([
      expect.objectContaining({ template: 'sales_order_new', to: 'buyer@example.com' }),
    ]);
    expect(emulator.store.sales.get(Number(outcome?.destinationId)).email_sent).toBe(1);

    const again = connect(emulator, { notifyCustomers: true });
    const [rerun] = await again.connection.write(
      'orders',
      [order('o-1', '1001')],
      new MemoryIdMap(),
    );
    expect(rerun).toMatchObject({ outcome: 'skipped' });
    expect(emulator.store.customers.outbox).toHaveLength(1);
  });
});

it('checks the order e-mail resource only when the store may e-mail customers', async () => {
  const everything = await emptyStore();
  const granted = connect(everything, { notifyCustomers: true });
  expect(await granted.connection.check({ write: true })).toMatchObject({ canWrite: true });
  expect(
    granted.requests.filter((r) => r.url.endsWith('/emails')).map((r) => new URL(r.url).pathname),
  ).toEqual(['/rest/default/V1/orders/0/emails']);
  expect(everything.store.customers.outbox).toEqual([]);

  const limited = await startMagentoEmulator({
    seed: 'empty',
    resources: [
      'Magento_Backend::store',
      'Magento_Catalog::catalog',
      'Magento_Catalog::categories',
      'Magento_Catalog::products',
      'Magento_Catalog::attributes_attributes',
      'Magento_Catalog::sets',
      'Magento_Customer::customer',
      'Magento_Customer::manage',
      'Magento_Customer::group',
      'Magento_Tax::manage_tax',
      'Magento_Sales::actions_view',
      'Magento_Sales::create',
      'Magento_Sales::sales_invoice',
      'Magento_Sales::sales_creditmemo',
      'Magento_SalesRule::quote',
      'Magento_Cms::page',
      'Magento_Logging::system_magento_logging_bulk_operations',
    ],
  });
  emulators.push(limited);
  expect(await connect(limited).connection.check({ write: true })).toMatchObject({
    canWrite: true,
  });
  await expect(
    connect(limited, { notifyCustomers: true }).connection.check({ write: true }),
  ).rejects.toMatchObject({
    code: 'read_only_credentials',
    message: expect.stringContaining(
      'may not send order confirmations: it lacks the API resource Sales > Operations > Orders > Actions > Send Sales Emails (Magento_Sales::emails).',
    ),
  });
});

describe('keepSlugs', () => {
  it('kept (the default): products and categories carry the source URL key', async () => {
    const emulator = await emptyStore();
    const { connection, requests } = connect(emulator);
    await connection.write(
      'categories',
      [category('k-1', 'Linen Shirts', 'shirts')],
      new MemoryIdMap(),
    );
    await connection.write(
      'products',
      [product('p-1', 'Linen Shirt', 'old-linen', 'LS-1')],
      new MemoryIdMap(),
    );
    const urlKeys = (body: Record<string, unknown> | undefined, key: 'product' | 'category') =>
      (
        (body?.[key] as { custom_attributes: { attribute_code: string; value: string }[] })
          .custom_attributes ?? []
      )
        .filter((a) => a.attribute_code === 'url_key')
        .map((a) => a.value);
    expect(urlKeys(sent(requests, 'POST', '/V1/categories')[0], 'category')).toEqual(['shirts']);
    expect(urlKeys(sent(requests, 'POST', '/V1/products')[0], 'product')).toEqual(['old-linen']);
    expect(emulator.store.catalog.productBySku('LS-1').custom.url_key).toBe('old-linen');
  });

  it('not kept: no url_key is sent, Magento makes it from the name, and a rerun finds both', async () => {
    const emulator = await emptyStore();
    const { connection, requests } = connect(emulator, { keepSlugs: false });
    const idMap = new MemoryIdMap();
    const categories = [category('k-1', 'Linen Shirts', 'shirts')];
    const [cat] = await connection.write('categories', categories, idMap);
    expect(cat).toMatchObject({ outcome: 'created' });
    const products = [
      product('p-1', 'Linen Shirt', 'old-linen', 'LS-1'),
      product('p-2', 'Linen Shirt', 'old-linen-2', 'LS-2'),
    ];
    const written = await connection.write('products', products, idMap);
    expect(written.map((o) => o.outcome)).toEqual(['created', 'created']);
    for (const body of [
      ...sent(requests, 'POST', '/V1/categories').map((b) => b.category),
      ...sent(requests, 'POST', '/V1/products')
        .map((b) => b.product as Record<string, unknown>)
        .filter((p) => p.sku === 'LS-1'),
    ])
      expect(
        (body as { custom_attributes: { attribute_code: string }[] }).custom_attributes.map(
          (a) => a.attribute_code,
        ),
      ).not.toContain('url_key');
    const storedCategory = emulator.store.catalog.categories.get(Number(cat?.destinationId));
    expect(storedCategory?.custom.url_key).toBe('linen-shirts');
    expect(emulator.store.catalog.productBySku('LS-1').custom.url_key).toBe('linen-shirt');
    // Two products of one name: Magento refuses the second key it makes; the SKU tells them apart.
    expect(emulator.store.catalog.productBySku('LS-2').custom.url_key).toBe('linen-shirt-ls-2');
    expect(written[1]?.warnings).toContain(
      "URL key 'linen-shirt' is used by another product at the destination; saved as 'linen-shirt-ls-2'",
    );

    // Found again without the slug: categories by the id map (and their name), products by SKU
    // and marker.
    const again = connect(emulator, { keepSlugs: false });
    const [catAgain] = await again.connection.write('categories', categories, new MemoryIdMap());
    expect(catAgain).toMatchObject({ destinationId: cat?.destinationId, outcome: 'skipped' });
    const rerun = await again.connection.write('products', products, idMap);
    expect(rerun.map((o) => o.destinationId)).toEqual(written.map((o) => o.destinationId));
    expect(rerun.map((o) => o.outcome)).not.toContain('created');
    expect(emulator.store.catalog.products.size).toBe(2);
    expect(emulator.store.catalog.productBySku('LS-2').custom.url_key).toBe('linen-shirt-ls-2');
  });

  it("not kept: a CMS page's identifier is made from its title; the id map finds it after a retitle", async () => {
    const emulator = await emptyStore();
    const { connection, requests } = connect(emulator, { keepSlugs: false });
    const idMap = new MemoryIdMap();
    const pages = [
      webPage('g-1', 'Über uns & Team', 'about'),
      webPage('g-2', '', 'untitled-source'),
    ];
    const written = await connection.write('pages', pages, idMap);
    idMap.record('pages', written);
    expect(written.map((o) => o.outcome)).toEqual(['created', 'created']);
    expect(
      sent(requests, 'POST', '/V1/cmsPage').map(
        (b) => (b.page as { identifier: string }).identifier,
      ),
    ).toEqual(['uber-uns-team', 'untitled-source']);
    expect(written[1]?.warnings).toEqual([
      "slug: the page has no title to make a URL key from, so its URL key 'untitled-source' was kept",
    ]);

    const again = connect(emulator, { keepSlugs: false });
    const renamed = [{ ...pages[0]!, title: 'About the team' }];
    const [rerun] = await again.connection.write('pages', renamed, idMap);
    expect(rerun).toMatchObject({ outcome: 'updated', destinationId: written[0]?.destinationId });
    const [put] = sent(again.requests, 'PUT', `/V1/cmsPage/${written[0]?.destinationId}`);
    expect(put?.page).toMatchObject({ identifier: 'uber-uns-team', title: 'About the team' });
    expect(emulator.store.cmsPages.pages.size).toBe(2);
    const [same] = await again.connection.write('pages', renamed, idMap);
    expect(same).toMatchObject({ outcome: 'skipped' });
  });

  it('kept (the default): a CMS page keeps its source identifier', async () => {
    const emulator = await emptyStore();
    const { connection, requests } = connect(emulator);
    await connection.write('pages', [webPage('g-1', 'Über uns', 'about')], new MemoryIdMap());
    expect(sent(requests, 'POST', '/V1/cmsPage')[0]?.page).toMatchObject({ identifier: 'about' });
  });
});

it('sent only requests that admin-schema-2.4.9.yaml describes', () => {
  const spec = adminSchema();
  const requests = recorded.flat().filter((r) => new URL(r.url).pathname.startsWith('/rest/'));
  expect(requests.length).toBeGreaterThan(20);
  expect([...new Set(requests.flatMap((r) => spec.checkRequest(r)))]).toEqual([]);
});
