import { emptyAddress } from '@replatform/canonical/address';
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
import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import type { Order, OrderLine } from '@replatform/canonical/order';
import type { Product } from '@replatform/canonical/product';
import { adminSchema } from '@replatform/emulators/magento2/admin-schema';
import {
  startMagentoEmulator,
  type MagentoEmulator,
} from '@replatform/emulators/magento2/magento-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connection, ConnectorHttpRequest } from '../kit/contract.ts';
import { copyAll, MemoryIdMap } from '../kit/conformance/conformance-suite.ts';
import { ConnectorError } from '../kit/errors.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { magentoConnector, magentoCredentialsSchema } from './magento-connector.ts';
import { NO_SKU } from './order-values.ts';
import { orderMarker } from './write-orders.ts';

const recorded: ConnectorHttpRequest[][] = [];
const emulators: MagentoEmulator[] = [];

async function store(
  seed: Parameters<typeof startMagentoEmulator>[0] extends infer O
    ? O extends { seed?: infer S }
      ? S
      : never
    : never,
) {
  const emulator = await startMagentoEmulator({ seed, bulk: { tickMs: 2, perTick: 25 } });
  emulators.push(emulator);
  return emulator;
}

function connect(emulator: MagentoEmulator, overrides: Record<string, string> = {}): Connection {
  const http = loopbackHttp();
  recorded.push(http.requests);
  return magentoConnector.connect(
    { storeUrl: emulator.url, ...emulator.credentials, ...overrides },
    { http },
  );
}

async function readAll<E extends EntityType>(connection: Connection, entity: E) {
  const records: EntityRecord[E][] = [];
  const pages: number[] = [];
  for await (const page of connection.read(entity, null)) {
    records.push(...page.records);
    pages.push(page.records.length);
  }
  return { records, pages };
}

afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
});

describe('Magento connector (integration with the emulator)', () => {
  it('parses credentials strictly', () => {
    const good = {
      storeUrl: 'https://shop.example.com',
      consumerKey: 'a',
      consumerSecret: 'b',
      accessToken: 'c',
      accessTokenSecret: 'd',
    };
    expect(magentoCredentialsSchema.safeParse(good).success).toBe(true);
    expect(magentoCredentialsSchema.safeParse({ ...good, storeCode: 'en_us' }).success).toBe(true);
    expect(magentoCredentialsSchema.safeParse({ ...good, storeCode: 'EN US' }).success).toBe(false);
    expect(magentoCredentialsSchema.safeParse({ ...good, token: 'x' }).success).toBe(false);
    expect(magentoCredentialsSchema.safeParse({ ...good, storeUrl: 'ftp://shop' }).success).toBe(
      false,
    );
  });

  describe('as a source', () => {
    let emulator: MagentoEmulator;
    let source: Connection;
    beforeAll(async () => {
      emulator = await store({ seed: 11, products: 130, customers: 130, orders: 60 });
      source = connect(emulator);
    });

    it('checks the store and reports its name and currency', async () => {
      await expect(source.check()).resolves.toEqual({
        ok: true,
        storeName: 'Main Website Store',
        currency: 'USD',
      });
      const wrong = connect(emulator, { accessTokenSecret: 'stolen?' });
      const failure = await wrong.check().catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ConnectorError);
      expect((failure as ConnectorError).errorClass).toBe('config');
    });

    it('counts with pageSize=1 total_count, products without configurable children', async () => {
      expect(await source.count('products')).toBe(130);
      expect(await source.count('customers')).toBe(130);
      expect(await source.count('orders')).toBe(60);
      expect(await source.count('categories')).toBe(emulator.store.countCanonical('categories'));
      expect(emulator.store.catalog.products.size).toBeGreaterThan(130);
    });

    it('pages by entity_id and resumes after a checkpoint without gaps or repeats', async () => {
      const { records, pages } = await readAll(source, 'customers');
      expect(pages).toEqual([100, 30]);
      expect(records.map((c) => Number(c.id))).toEqual([
        ...emulator.store.customers.customers.keys(),
      ]);
      const iterator = source.read('products', null)[Symbol.asyncIterator]();
      const first = await iterator.next();
      const checkpoint = first.value?.next;
      expect(checkpoint).toMatchObject({ version: 1 });
      const rest: Product[] = [];
      for await (const page of source.read('products', checkpoint ?? null))
        rest.push(...page.records);
      const all = (await readAll(source, 'products')).records;
      expect([...(first.value?.records ?? []), ...rest].map((p) => p.id)).toEqual(
        all.map((p) => p.id),
      );
    });

    it('folds configurable children into their parent as variants', async () => {
      const products = (await readAll(source, 'products')).records;
      const children = emulator.store.childIds();
      expect(products.some((p) => children.has(Number(p.id)))).toBe(false);
      const variable = products.filter((p) => p.type === 'variable');
      expect(variable.length).toBeGreaterThan(10);
      for (const p of variable) {
        const parent = emulator.store.catalog.products.get(Number(p.id));
        expect(p.variants.map((v) => Number(v.id)).sort((a, b) => a - b)).toEqual(
          [...(parent?.links ?? [])].sort((a, b) => a - b),
        );
        for (const v of p.variants) {
          expect(v.optionValues.map((o) => o.name)).toEqual(p.options.map((o) => o.name));
          for (const o of v.optionValues)
            expect(p.options.find((x) => x.name === o.name)?.values).toContain(o.value);
        }
      }
      const onSale = products.flatMap((p) => p.variants).find((v) => v.salePrice);
      expect(onSale?.price.amount).toBeGreaterThan(onSale?.salePrice?.amount ?? Infinity);
      const withImage = products.find((p) => p.images.length);
      const image = await fetch(withImage?.images[0]?.url ?? '');
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(withImage?.images[0]?.url).toMatch(
        new RegExp(`^${emulator.url}/media/catalog/product/\\w/\\w/[^/]+\\.png$`),
      );
      expect(
        products.every(
          (p) =>
            p.vendor && p.metafields.some((m) => m.namespace === 'magento' && m.key === 'material'),
        ),
      ).toBe(true);
    });

    it('also reads a child that is visible on its own as a product of its own', async () => {
      const children = [...emulator.store.childIds()];
      const shown = emulator.store.catalog.products.get(children[0] ?? -1);
      if (!shown) throw new Error('the sample store has configurable products');
      const before = await source.count('products');
      shown.visibility = 4;
      try {
        expect(await source.count('products')).toBe(before + 1);
        const products = (await readAll(source, 'products')).records;
        expect(products).toHaveLength(before + 1);
        const own = products.find((p) => p.id === String(shown.id));
        expect(own).toMatchObject({ type: 'simple', sku: shown.sku });
        // ... and stays a variant of its parent.
        expect(
          products.some((p) =>
            p.variants.some((v) => v.id === String(shown.id) && p.id !== own?.id),
          ),
        ).toBe(true);
      } finally {
        shown.visibility = 1;
      }
    });

    it('reads categories below the store root, parents first', async () => {
      const { records } = await readAll(source, 'categories');
      expect(records.filter((c) => c.parentId === null).map((c) => c.name)).toEqual([
        'Apparel',
        'Gear',
        'Home',
      ]);
      const seen = new Set<string>();
      for (const c of records) {
        if (c.parentId) expect(seen.has(c.parentId)).toBe(true);
        seen.add(c.id);
      }
      expect(records.find((c) => c.name === 'Bags')).toMatchObject({
        slug: 'bags',
        position: 0,
        sourceUrlPath: '/gear/bags.html',
      });
    });

    it('maps orders: statuses, totals and collapsed configurable lines', async () => {
      const orders = (await readAll(source, 'orders')).records;
      for (const order of orders) {
        const stored = emulator.store.sales.orders.get(Number(order.id));
        const items = stored?.items as { parent_item_id?: number }[];
        expect(order.lines).toHaveLength(
          items.filter((i) => i.parent_item_id === undefined).length,
        );
        const sum =
          order.subtotal.amount -
          order.discountTotal.amount +
          order.shippingTotal.amount +
          order.feeTotal.amount +
          order.taxTotal.amount;
        expect(order.grandTotal.amount).toBe(sum);
      }
      const byState = new Map(
        orders.map((o) => [String(emulator.store.sales.orders.get(Number(o.id))?.state), o]),
      );
      expect(byState.get('complete')).toMatchObject({
        status: 'completed',
        paymentStatus: 'paid',
        fulfillmentStatus: 'fulfilled',
      });
      expect(byState.get('closed')).toMatchObject({
        status: 'refunded',
        paymentStatus: 'refunded',
      });
      expect(byState.get('canceled')).toMatchObject({
        status: 'cancelled',
        paymentStatus: 'voided',
        fulfillmentStatus: 'unfulfilled',
      });
      expect(byState.get('new')).toMatchObject({ status: 'pending', paymentStatus: 'pending' });
      expect(byState.get('holded')).toMatchObject({ status: 'on-hold' });
      expect(orders.some((o) => o.lines.some((l) => l.variantId !== null))).toBe(true);
    });
  });

  describe('as a destination', () => {
    let emulator: MagentoEmulator;
    let destination: Connection;
    beforeAll(async () => {
      emulator = await store('empty');
      destination = connect(emulator);
    });

    const variable: Product = {
      ...productDefaults(),
      id: 'src-1',
      type: 'variable',
      name: 'Trail Runner',
      slug: 'trail-runner',
      sku: 'TR-1',
      descriptionHtml: '<p>Fast.</p>',
      shortDescriptionHtml: '<p>Shoe.</p>',
      vendor: 'Acme Goods',
      options: [
        { name: 'Shoe Size', values: ['42', '43'], shared: null, visible: false, position: 0 },
        { name: 'Colour', values: ['Moss', 'Sand'], shared: null, visible: false, position: 1 },
      ],
      variants: ['42', '43'].flatMap((size, s) =>
        ['Moss', 'Sand'].map((colour, c) => ({
          ...variantDefaults({ amount: colour === 'Sand' ? 9999 : 8999, currency: 'USD' }),
          id: `v-${size}-${colour}`,
          sku: `TR-1-${size}-${colour.toUpperCase()}`,
          optionValues: [
            { name: 'Shoe Size', value: size },
            { name: 'Colour', value: colour },
          ],
          position: s * 2 + c,
          salePrice: colour === 'Sand' ? { amount: 8999, currency: 'USD' } : null,
          weight: { value: 1.2, unit: 'lb' as const },
          inventory: {
            tracked: true,
            quantity: size === '42' ? 3 : 0,
            stockStatus: size === '42' ? ('instock' as const) : ('outofstock' as const),
            backorders: 'no' as const,
            lowStockThreshold: null,
          },
        })),
      ),
      tags: ['running'],
      seoTitle: 'Trail Runner | Shop',
      seoDescription: 'Run.',
      attributes: [
        { name: 'Material', values: ['Mesh'], shared: null, visible: true, position: 2 },
      ],
      sourceUrlPath: null,
      createdAt: null,
      updatedAt: null,
    };

    it('writes a configurable product: attributes, options, children, links', async () => {
      const [outcome] = await destination.write('products', [variable], new MemoryIdMap());
      expect(outcome).toMatchObject({ sourceId: 'src-1', outcome: 'created' });
      // Tags Magento cannot hold are the engine's known differences, not a warning.
      expect(outcome?.warnings).toBeUndefined();
      const { catalog } = emulator.store;
      const parent = catalog.productBySku('TR-1');
      expect(parent.type_id).toBe('configurable');
      expect(parent.configurable_options.map((o) => o.label)).toEqual(['Shoe Size', 'Colour']);
      expect(catalog.children('TR-1').map((c) => [c.sku, c.visibility])).toEqual(
        variable.variants.map((v) => [v.sku, 1]),
      );
      expect(catalog.getAttribute('shoe_size')).toMatchObject({
        frontend_input: 'select',
        scope: 'global',
      });
      expect(catalog.getAttribute('material')).toMatchObject({
        frontend_input: 'select',
        is_visible_on_front: true,
      });
      expect(catalog.productBySku('TR-1-43-SAND').custom.special_price).toBe('89.99');
      expect(catalog.productBySku('TR-1-43-SAND').price).toBe(99.99);
      expect(catalog.productBySku('TR-1-42-MOSS').weight).toBeCloseTo(0.5443, 4);

      const back = (await readAll(destination, 'products')).records.find((p) => p.sku === 'TR-1');
      expect(back).toMatchObject({
        type: 'variable',
        name: 'Trail Runner',
        vendor: 'Acme Goods',
        options: variable.options.map((o) => ({
          ...o,
          shared: { slug: o.name === 'Colour' ? 'colour' : 'shoe_size' },
        })),
        attributes: [
          {
            name: 'Material',
            values: ['Mesh'],
            shared: { slug: 'material' },
            visible: true,
            position: 2,
          },
        ],
        seoTitle: 'Trail Runner | Shop',
        sourceUrlPath: '/trail-runner.html',
      });
      const summary = (v: Product['variants'][number]) => [
        v.sku,
        v.price.amount,
        v.salePrice?.amount ?? null,
        v.inventory,
      ];
      expect(back?.variants.map(summary)).toEqual(variable.variants.map(summary));

      const products = catalog.products.size;
      const [again] = await destination.write('products', [variable], new MemoryIdMap());
      expect(again).toMatchObject({ outcome: 'updated', destinationId: String(parent.id) });
      expect(catalog.products.size).toBe(products);
    });

    it('writes a batch whose children come before their parents', async () => {
      const category = (
        id: string,
        parentId: string | null,
        name: string,
        position: number,
      ): Category => ({
        ...categoryDefaults(),
        id,
        parentId,
        name,
        slug: name.toLowerCase(),
        description: '',
        position,
        sourceUrlPath: null,
      });
      const outcomes = await destination.write(
        'categories',
        [
          category('k2', 'k1', 'Boots', 1),
          category('k3', 'k2', 'Winter', 0),
          category('k1', null, 'Shoes', 0),
        ],
        new MemoryIdMap(),
      );
      expect(outcomes.map((o) => [o.sourceId, o.outcome])).toEqual([
        ['k2', 'created'],
        ['k3', 'created'],
        ['k1', 'created'],
      ]);
      const winter = emulator.store.catalog.categories.get(Number(outcomes[1]?.destinationId));
      expect(winter?.custom.url_path).toBe('shoes/boots/winter');
      expect(winter?.position).toBe(1);
    });

    it('finishes a configurable product an interrupted run left half done, without duplicates', async () => {
      const { catalog } = emulator.store;
      const parent = catalog.productBySku('TR-1');
      const lost = parent.links.pop();
      const children = catalog.products.size;
      const [outcome] = await destination.write('products', [variable], new MemoryIdMap());
      expect(outcome?.outcome).toBe('updated');
      expect(parent.links).toContain(lost);
      expect(catalog.products.size).toBe(children);
    });

    it('keeps a product whose URL key is taken under a distinct key, with a warning', async () => {
      const clash: Product = {
        ...variable,
        id: 'src-2',
        type: 'simple',
        sku: 'OTHER-1',
        options: [],
        attributes: [],
        tags: [],
        variants: [
          {
            ...(variable.variants[0] as Product['variants'][number]),
            sku: 'OTHER-1',
            optionValues: [],
          },
        ],
      };
      const [outcome] = await destination.write('products', [clash], new MemoryIdMap());
      expect(outcome).toMatchObject({ outcome: 'created' });
      expect(outcome?.warnings).toEqual([
        "URL key 'trail-runner' is used by another product at the destination; saved as 'trail-runner-other-1'",
      ]);
    });

    it('creates customers in one async bulk request and reports each item', async () => {
      const base: Customer = {
        ...customerDefaults(),
        id: 'c1',
        email: 'first@example.com',
        firstName: 'First',
        lastName: 'Buyer',
        phone: '+1 555 0100',
        acceptsMarketing: true,
        addresses: [
          {
            firstName: 'First',
            lastName: 'Buyer',
            company: '',
            address1: '1 Main St',
            address2: '',
            city: 'Austin',
            province: 'Texas',
            postalCode: '78701',
            countryCode: 'US',
            phone: '+1 555 0100',
            email: '',
            isDefaultBilling: true,
            isDefaultShipping: true,
          },
        ],
        note: '',
        tags: [],
        createdAt: '2022-03-04T05:06:07.000Z',
      };
      const address = base.addresses[0];
      if (!address) throw new Error('fixture');
      const customers: Customer[] = [
        base,
        {
          ...base,
          id: 'c2',
          email: 'second@example.com',
          addresses: [{ ...address, province: 'Narnia' }],
        },
        {
          ...base,
          id: 'c3',
          email: 'third@example.com',
          addresses: [{ ...address, countryCode: 'ZZ', province: '' }],
        },
        { ...base, id: 'c4', email: 'FIRST@example.com' },
        { ...base, id: 'c5', email: 'fifth@example.com', addresses: [] },
      ];
      const outcomes = await destination.write('customers', customers, new MemoryIdMap());
      expect(outcomes.map((o) => [o.sourceId, o.outcome])).toEqual([
        ['c1', 'created'],
        ['c2', 'failed'],
        ['c3', 'failed'],
        ['c4', 'failed'],
        ['c5', 'created'],
      ]);
      expect(outcomes[1]?.reason).toBe("region 'Narnia' is not one of Magento's regions for US");
      expect(outcomes[2]?.reason).toBe(
        'Magento refused it: Invalid value of "ZZ" provided for the countryId field.',
      );
      // Newsletter consent, which Magento cannot take without e-mailing, is a known difference.
      expect(outcomes[0]?.warnings).toBeUndefined();
      const bulkRequests = recorded.flat().filter((r) => r.url.includes('/async/bulk/'));
      expect(bulkRequests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
        'POST /rest/default/async/bulk/V1/customers/',
      ]);
      expect(JSON.parse(String(bulkRequests[0]?.body))).toHaveLength(3);
      const stored = emulator.store.customers.byEmail('first@example.com');
      expect(stored).toMatchObject({ created_at: '2022-03-04 05:06:07', is_subscribed: false });
      expect(stored?.addresses[0]?.region).toMatchObject({ region_code: 'TX' });
      expect(emulator.store.customers.outbox).toEqual([]);

      const rerun = await destination.write('customers', [base], new MemoryIdMap());
      expect(rerun).toMatchObject([{ outcome: 'updated', destinationId: String(stored?.id) }]);
      expect(emulator.store.customers.customers.size).toBe(2);
    });

    it('imports a historical order once, linked to migrated records, found again by its marker', async () => {
      const idMap = new MemoryIdMap();
      const customer = emulator.store.customers.byEmail('first@example.com');
      const parent = emulator.store.catalog.productBySku('TR-1');
      idMap.record('customers', [
        { sourceId: 'c1', outcome: 'created', destinationId: String(customer?.id) },
      ]);
      idMap.record('products', [
        { sourceId: 'src-1', outcome: 'created', destinationId: String(parent.id) },
      ]);
      const usd = (amount: number) => ({ amount, currency: 'USD' });
      const order: Order = {
        ...orderDefaults('USD'),
        id: 'o-77',
        number: '1077',
        createdAt: '2024-02-03T04:05:06.000Z',
        updatedAt: null,
        currency: 'USD',
        customerId: 'c1',
        email: 'first@example.com',
        status: 'completed',
        paymentStatus: 'paid',
        fulfillmentStatus: 'fulfilled',
        lines: [
          {
            id: 'l1',
            productId: 'src-1',
            variantId: 'v-42-Moss',
            sku: 'TR-1-42-MOSS',
            name: 'Trail Runner - 42 / Moss',
            quantity: 2,
            unitPrice: usd(8999),
            tax: usd(1440),
            total: usd(17998),
            ...orderLineDefaults(),
            meta: [
              { key: 'Shoe Size', value: '42' },
              { key: 'Colour', value: 'Moss' },
            ],
          },
        ],
        shippingLines: [
          { title: 'Flat rate', code: 'flatrate_flatrate', price: usd(500), tax: usd(0) },
        ],
        discounts: [],
        subtotal: usd(17998),
        taxTotal: usd(1440),
        shippingTotal: usd(500),
        discountTotal: usd(0),
        grandTotal: usd(19938),
        billingAddress: {
          ...emptyAddress(),
          firstName: 'First',
          lastName: 'Buyer',
          address1: '1 Main St',
          city: 'Austin',
          province: 'TX',
          postalCode: '78701',
          countryCode: 'US',
        },
        shippingAddress: null,
        note: 'Leave at door',
      };
      const [created] = await destination.write('orders', [order], idMap);
      expect(created).toMatchObject({ outcome: 'created' });
      const stored = emulator.store.sales.orders.get(Number(created?.destinationId));
      expect(stored).toMatchObject({
        increment_id: '1077',
        ext_order_id: orderMarker('o-77'),
        customer_id: customer?.id,
        state: 'complete',
        created_at: '2024-02-03 04:05:06',
        grand_total: 199.38,
      });
      // Magento's own form of a configurable line: the parent item, with the child's SKU and the
      // chosen options, and the child item linked to it (added once the parent had an id).
      const child = emulator.store.catalog.productBySku('TR-1-42-MOSS');
      const items = stored?.items as Record<string, unknown>[];
      expect(items).toHaveLength(2);
      expect(items[0]).toMatchObject({
        product_id: parent.id,
        product_type: 'configurable',
        sku: 'TR-1-42-MOSS',
        qty_ordered: 2,
      });
      expect(
        (
          items[0]?.product_option as {
            extension_attributes: { configurable_item_options: unknown[] };
          }
        ).extension_attributes.configurable_item_options,
      ).toHaveLength(2);
      expect(items[1]).toMatchObject({
        product_id: child.id,
        parent_item_id: items[0]?.item_id,
        sku: 'TR-1-42-MOSS',
      });
      const back = (await readAll(destination, 'orders')).records[0];
      expect(back).toMatchObject({
        number: '1077',
        status: 'completed',
        paymentStatus: 'paid',
        fulfillmentStatus: 'fulfilled',
        note: 'Leave at door',
      });
      // Read back, the line points at the variant again, with the chosen options.
      expect(back?.lines).toMatchObject([
        {
          productId: String(parent.id),
          variantId: String(child.id),
          sku: 'TR-1-42-MOSS',
          meta: order.lines[0]?.meta,
        },
      ]);
      expect(back?.billingAddress?.phone).toBe('');
      const [again] = await destination.write('orders', [order], new MemoryIdMap());
      expect(again).toMatchObject({ outcome: 'skipped', destinationId: created?.destinationId });
      const [other] = await destination.write('orders', [{ ...order, id: 'o-78' }], idMap);
      expect(other?.warnings?.[0]).toContain('saved as 1077-M');
      expect(emulator.store.sales.orders.size).toBe(2);

      // A partly shipped order says nothing of which items went out: none is marked shipped.
      const [partial] = await destination.write(
        'orders',
        [
          {
            ...order,
            id: 'o-79',
            number: '1079',
            status: 'processing',
            fulfillmentStatus: 'partial',
          },
        ],
        idMap,
      );
      expect(partial?.warnings?.join('\n')).toContain('(fulfillmentStatus)');
      const partialItems = emulator.store.sales.orders.get(Number(partial?.destinationId))
        ?.items as Record<string, unknown>[];
      expect(partialItems.map((i) => i.qty_shipped)).toEqual([0, 0]);

      // Nothing the source lacked is made up: a line without SKU gets the '-' Magento requires
      // (not its name), a payment without a title keeps none.
      const plain = async (id: string, extra: Partial<Order>) => {
        const [outcome] = await destination.write(
          'orders',
          [
            {
              ...order,
              id,
              number: id,
              lines: [
                {
                  ...(order.lines[0] as OrderLine),
                  productId: null,
                  variantId: null,
                  sku: '',
                  meta: [],
                },
              ],
              ...extra,
            },
          ],
          idMap,
        );
        return emulator.store.sales.orders.get(Number(outcome?.destinationId));
      };
      const bank = await plain('1080', { paymentMethod: 'bacs', paymentMethodTitle: '' });
      expect((bank?.items as Record<string, unknown>[])[0]?.sku).toBe(NO_SKU);
      expect(bank?.payment).toMatchObject({
        method: 'banktransfer',
        additional_information: ['', 'Payment method at the previous store: bacs'],
      });
      const none = await plain('1081', { paymentMethod: '', paymentMethodTitle: '' });
      expect(none?.payment).toMatchObject({ method: 'checkmo', additional_information: [] });
    });

    it("links the merchant's own records by their natural keys and leaves them unchanged", async () => {
      const { catalog, customers } = emulator.store;
      // What the store held before the migration: created without this service's markers.
      const shoes = [...catalog.categories.values()].find((c) => c.name === 'Shoes');
      if (!shoes) throw new Error('the category test above creates Shoes');
      catalog.saveCategory({
        category: {
          parent_id: shoes.parent_id,
          name: 'Sale',
          is_active: true,
          position: 7,
          custom_attributes: [
            { attribute_code: 'url_key', value: 'sale' },
            { attribute_code: 'description', value: 'Merchant text' },
          ],
        },
      });
      const { product: mug } = catalog.saveProduct({
        product: {
          sku: 'MUG-1',
          name: 'Merchant Mug',
          price: 5,
          attribute_set_id: 4,
          type_id: 'simple',
        },
      });
      const merchant = customers.save({
        customer: {
          email: 'owner@example.com',
          firstname: 'Shop',
          lastname: 'Owner',
          addresses: [],
        },
      });
      const sale = [...catalog.categories.values()].find((c) => c.name === 'Sale');

      const category: Category = {
        ...categoryDefaults(),
        id: 'k9',
        parentId: null,
        name: 'Sale (source)',
        slug: 'sale',
        description: 'Source text',
        position: 0,
        sourceUrlPath: null,
      };
      const [linkedCategory] = await destination.write('categories', [category], new MemoryIdMap());
      expect(linkedCategory).toMatchObject({
        outcome: 'skipped',
        destinationId: String(sale?.id),
        reason: 'already at destination, left unchanged',
      });
      expect(sale).toMatchObject({ name: 'Sale', position: 7 });
      expect(sale?.custom.description).toBe('Merchant text');

      const product: Product = {
        ...variable,
        id: 'src-9',
        type: 'simple',
        sku: 'MUG-1',
        name: 'Source Mug',
        options: [],
        attributes: [],
        tags: [],
        variants: [
          {
            ...(variable.variants[0] as Product['variants'][number]),
            sku: 'MUG-1',
            optionValues: [],
          },
        ],
      };
      const [linkedProduct] = await destination.write('products', [product], new MemoryIdMap());
      expect(linkedProduct).toMatchObject({
        outcome: 'skipped',
        destinationId: String(mug.id),
        reason: 'already at destination, left unchanged',
      });
      expect(catalog.productBySku('MUG-1')).toMatchObject({ name: 'Merchant Mug', price: 5 });

      // A configurable whose variant SKU is the merchant's is not half-written.
      const products = catalog.products.size;
      const [blocked] = await destination.write(
        'products',
        [
          {
            ...variable,
            id: 'src-10',
            sku: 'TR-2',
            slug: 'trail-runner-2',
            variants: variable.variants.map((v, i) => ({
              ...v,
              sku: i === 0 ? 'MUG-1' : `TR-2-${i}`,
            })),
          },
        ],
        new MemoryIdMap(),
      );
      expect(blocked?.outcome).toBe('failed');
      expect(blocked?.reason).toContain('variant SKU MUG-1');
      expect(catalog.products.size).toBe(products);

      const customer: Customer = {
        ...customerDefaults(),
        id: 'c9',
        email: 'OWNER@example.com',
        firstName: 'Source',
        lastName: 'Name',
        phone: '',
        acceptsMarketing: false,
        addresses: [],
        note: '',
        tags: [],
        createdAt: '2020-01-01T00:00:00.000Z',
      };
      const [linkedCustomer] = await destination.write('customers', [customer], new MemoryIdMap());
      expect(linkedCustomer).toMatchObject({
        outcome: 'skipped',
        destinationId: String(merchant.id),
        reason: 'already at destination, left unchanged',
      });
      expect(customers.get(merchant.id)).toMatchObject({ firstname: 'Shop', lastname: 'Owner' });

      // The records this service created carry its markers.
      expect(catalog.productBySku('TR-1').custom.replatform_source_id).toBe('src-1');
      expect(catalog.productBySku('TR-1-42-MOSS').custom.replatform_source_id).toBe(
        'src-1:v-42-Moss',
      );
      expect(customers.byEmail('first@example.com')?.created_in).toBe(
        'Replatform import (source id c1)',
      );
      // ... which a read does not turn into a product attribute.
      const back = (await readAll(destination, 'products')).records.find((p) => p.sku === 'TR-1');
      expect(back?.attributes.map((a) => a.shared?.slug)).not.toContain('replatform_source_id');
      expect(back?.metafields.map((m) => m.key)).not.toContain('replatform_source_id');
    });
  });

  describe('checking a destination integration', () => {
    // What a source needs: Magento's catalogue resources guard reading and writing alike.
    const reading = [
      'Magento_Backend::store',
      'Magento_Catalog::catalog',
      'Magento_Catalog::categories',
      'Magento_Catalog::products',
      'Magento_Catalog::attributes_attributes',
      'Magento_Catalog::sets',
      'Magento_Customer::customer',
      'Magento_Sales::actions_view',
      'Magento_Sales::sales_invoice',
      'Magento_Sales::sales_creditmemo',
      'Magento_SalesRule::quote',
      'Magento_Cms::page',
    ];
    const writing = [
      ...reading,
      'Magento_Customer::manage',
      'Magento_Customer::group',
      'Magento_Tax::manage_tax',
      'Magento_Sales::create',
      'Magento_Logging::system_magento_logging_bulk_operations',
    ];
    const integration = (name: string) => ({
      consumerKey: `${name}-consumer-key`,
      consumerSecret: `${name}-consumer-secret`,
      accessToken: `${name}-access-token`,
      accessTokenSecret: `${name}-token-secret`,
    });
    let emulator: MagentoEmulator;
    beforeAll(async () => {
      emulator = await startMagentoEmulator({
        seed: { seed: 5, products: 4, customers: 3, orders: 2 },
        bulk: { tickMs: 2, perTick: 25 },
        integrations: [
          { credentials: integration('reader'), resources: reading },
          { credentials: integration('writer'), resources: writing },
          {
            credentials: integration('no-orders'),
            resources: writing.filter((r) => r !== 'Magento_Sales::create'),
          },
        ],
      });
      emulators.push(emulator);
    });
    const as = (name: string) => connect(emulator, integration(name));
    const counts = () => ({
      products: emulator.store.catalog.products.size,
      customers: emulator.store.customers.customers.size,
      orders: emulator.store.sales.orders.size,
      outbox: emulator.store.customers.outbox.length,
    });

    it('accepts a read-only integration for a source and refuses it for a destination', async () => {
      const reader = as('reader');
      await expect(reader.check()).resolves.toEqual({
        ok: true,
        storeName: 'Main Website Store',
        currency: 'USD',
      });
      expect(await reader.count('customers')).toBe(3);
      const error = await reader.check({ write: true }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect(error).toMatchObject({ errorClass: 'config', code: 'read_only_credentials' });
      expect((error as Error).message).toContain(
        'may not create or change customers, create orders, create tax classes, create customer groups and follow the bulk imports of customers: it lacks the API resources Customers > All Customers (Magento_Customer::manage), Sales > Operations > Orders > Actions > Create (Magento_Sales::create), Stores > Taxes > Tax Rules (Magento_Tax::manage_tax), Customers > Customer Groups (Magento_Customer::group) and System > Action Logs > Bulk Actions (Magento_Logging::system_magento_logging_bulk_operations).',
      );
    });

    it('names the one resource an integration lacks', async () => {
      await expect(as('no-orders').check({ write: true })).rejects.toMatchObject({
        code: 'read_only_credentials',
        message: expect.stringContaining(
          'may not create orders: it lacks the API resource Sales > Operations > Orders > Actions > Create (Magento_Sales::create).',
        ),
      });
    });

    it('proves write access with requests that change nothing', async () => {
      const before = counts();
      const bulks = emulator.store.bulk.bulks.size;
      for (const connection of [as('writer'), connect(emulator)])
        await expect(connection.check({ write: true })).resolves.toEqual({
          ok: true,
          storeName: 'Main Website Store',
          currency: 'USD',
          canWrite: true,
        });
      expect(counts()).toEqual(before);
      expect(emulator.store.bulk.bulks.size).toBe(bulks);
    });

    it('checks every resource the writes need: what passed the check can migrate', async () => {
      const target = await startMagentoEmulator({
        seed: 'empty',
        bulk: { tickMs: 2, perTick: 25 },
        resources: writing,
      });
      emulators.push(target);
      const destination = connect(target);
      expect(await destination.check({ write: true })).toMatchObject({ canWrite: true });
      const outcomes = await copyAll(
        connect(emulator),
        destination,
        magentoConnector,
        new MemoryIdMap(),
      );
      for (const [entity, list] of Object.entries(outcomes))
        expect(
          list.filter((o) => o.outcome === 'failed'),
          entity,
        ).toEqual([]);
      expect(target.store.sales.orders.size).toBe(2);
    });
  });

  describe('reading the Luma sample store', () => {
    it('reads configurable Luma products with their size/colour variants and collapses order lines', async () => {
      const emulator = await store('luma');
      const source = connect(emulator);
      expect(await source.count('products')).toBe(179);
      const products = (await readAll(source, 'products')).records;
      expect(products).toHaveLength(179);
      const hoodie = products.find((p) => p.sku === 'MH01');
      expect(hoodie?.options).toEqual([
        {
          name: 'Size',
          values: ['XS', 'S', 'M', 'L', 'XL'],
          shared: { slug: 'size' },
          visible: false,
          position: 0,
        },
        {
          name: 'Color',
          values: ['Black', 'Gray', 'Orange'],
          shared: { slug: 'color' },
          visible: false,
          position: 1,
        },
      ]);
      expect(hoodie?.variants).toHaveLength(15);
      // Multi-valued attributes keep their values apart; yes/no attributes and the attribute
      // set travel as Magento's own fields.
      expect(hoodie?.attributes).toContainEqual({
        name: 'Climate',
        values: ['All-weather', 'Cool', 'Indoor', 'Spring', 'Windy'],
        shared: { slug: 'climate' },
        visible: false,
        position: 2,
      });
      expect(hoodie?.attributes.find((a) => a.name === 'Material')?.values).toEqual(['Wool']);
      expect(hoodie?.metafields).toEqual(
        expect.arrayContaining([
          { namespace: 'magento', key: 'eco_collection', value: '1', type: 'boolean' },
          { namespace: 'magento', key: 'attribute_set', value: 'Top', type: 'string' },
        ]),
      );
      const orders = (await readAll(source, 'orders')).records;
      expect(orders.map((o) => [o.status, o.lines.length, o.lines[0]?.sku])).toEqual([
        ['completed', 1, 'WS03-XS-Red'],
        ['refunded', 1, 'WS08-XS-Blue'],
      ]);
      // The child item names the variant bought, a variant of the line's product.
      for (const line of orders.flatMap((o) => o.lines)) {
        const product = products.find((p) => p.id === line.productId);
        const variant = product?.variants.find((v) => v.id === line.variantId);
        expect(variant?.sku, line.sku).toBe(line.sku);
      }
      const customers = (await readAll(source, 'customers')).records;
      expect(customers[0]?.addresses[0]).toMatchObject({
        province: 'MI',
        city: 'Calder',
        isDefaultBilling: true,
      });
    });
  });
});

describe('requests the connector sent in these tests', () => {
  it('all fit admin-schema-2.4.9.yaml', () => {
    const requests = recorded.flat().filter((r) => new URL(r.url).pathname.startsWith('/rest/'));
    expect(requests.length).toBeGreaterThan(100);
    const problems = [...new Set(requests.flatMap((r) => adminSchema().checkRequest(r)))];
    expect(problems).toEqual([]);
  });
});
