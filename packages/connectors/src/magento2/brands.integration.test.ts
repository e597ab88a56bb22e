import type { Brand } from '@replatform/canonical/brand';
import { brandDefaults, productDefaults, variantDefaults } from '@replatform/canonical/defaults';
import type { EntityType } from '@replatform/canonical/entities';
import type { Product } from '@replatform/canonical/product';
import { adminSchema } from '@replatform/emulators/magento2/admin-schema';
import {
  startMagentoEmulator,
  type MagentoEmulator,
} from '@replatform/emulators/magento2/magento-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Connection,
  ConnectorHttp,
  ConnectorHttpRequest,
  IdMap,
  Page,
} from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { magentoConnector } from './magento-connector.ts';

const recorded: ConnectorHttpRequest[][] = [];

/** A transport that loses the answer of the first option create (the create itself happens). */
function losingFirstCreate(): ConnectorHttp {
  const http = loopbackHttp();
  recorded.push(http.requests);
  let lost = false;
  return {
    async request(request) {
      const response = await http.request(request);
      if (!lost && request.method === 'POST' && request.url.endsWith('/manufacturer/options')) {
        lost = true;
        throw new Error('socket hang up');
      }
      return response;
    },
  };
}

function connect(emulator: MagentoEmulator, http?: ConnectorHttp): Connection {
  const transport = http ?? loopbackHttp();
  if (!http) recorded.push((transport as ReturnType<typeof loopbackHttp>).requests);
  return magentoConnector.connect(
    { storeUrl: emulator.url, ...emulator.credentials },
    { http: transport },
  );
}

const brand = (id: string, name: string, over: Partial<Brand> = {}): Brand => ({
  ...brandDefaults(),
  id,
  name,
  sourceUrlPath: null,
  ...over,
});

class TestIdMap implements IdMap {
  readonly entries = new Map<string, string>();
  get(entity: EntityType, sourceId: string) {
    return this.entries.get(`${entity}:${sourceId}`);
  }
  set(entity: EntityType, sourceId: string, destinationId: string) {
    this.entries.set(`${entity}:${sourceId}`, destinationId);
  }
}

async function readAll(connection: Connection): Promise<Page<'brands'>[]> {
  const pages: Page<'brands'>[] = [];
  for await (const page of connection.read('brands', null)) pages.push(page);
  return pages;
}

describe('Magento brands as a source', () => {
  let source: MagentoEmulator;
  beforeAll(async () => {
    source = await startMagentoEmulator({ seed: { seed: 3, products: 6, orders: 0 } });
  });
  afterAll(async () => {
    await source?.close();
  });

  it('reads the manufacturer options as brands, in their order, without the empty option', async () => {
    const options = source.store.catalog.getAttribute('manufacturer').options;
    // A per-store-view label the model has no place for.
    const first = options[0];
    if (!first) throw new Error('the sample store has brands');
    first.store_labels = new Map([[1, 'Northwind (FR)']]);
    const connection = connect(source);
    expect(await connection.count('brands')).toBe(6);
    expect(source.store.countCanonical('brands')).toBe(6);
    const pages = await readAll(connection);
    expect(pages).toHaveLength(1);
    expect(pages[0]?.next).toBeNull();
    const brands = pages.flatMap((p) => p.records);
    expect(brands.map((b) => b.position)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(brands.map((b) => b.name)).toContain('Fjällbo');
    expect(brands.some((b) => b.name.includes('&'))).toBe(true);
    for (const b of brands) {
      expect(b).toMatchObject({
        parentId: null,
        slug: '',
        description: '',
        imageUrl: null,
        seoTitle: '',
        metafields: [],
        sourceUrlPath: null,
      });
      expect(b.id).toMatch(/^\d+$/);
    }
    expect(pages[0]?.losses).toEqual([
      {
        sourceId: first.value,
        field: 'store_labels',
        reason: expect.stringContaining('store view'),
      },
    ]);
    // Products name the brand by its label.
    const products = [];
    for await (const page of connection.read('products', null)) products.push(...page.records);
    const names = new Set(brands.map((b) => b.name));
    expect(products.length).toBeGreaterThan(0);
    for (const p of products) expect(names.has(p.vendor)).toBe(true);
  });

  it('a store without the manufacturer attribute has no brands to give, and takes none', async () => {
    const bare = await startMagentoEmulator({ seed: 'empty' });
    try {
      bare.store.catalog.attributes.delete('manufacturer');
      const connection = connect(bare);
      expect(await connection.count('brands')).toBe(0);
      expect((await readAll(connection)).flatMap((p) => p.records)).toEqual([]);
      const outcomes = await connection.write(
        'brands',
        [brand('b1', 'Acme'), brand('b2', 'Luma')],
        new TestIdMap(),
      );
      expect(outcomes).toEqual([
        { sourceId: 'b1', outcome: 'failed', reason: expect.stringContaining('manufacturer') },
        { sourceId: 'b2', outcome: 'failed', reason: expect.stringContaining('manufacturer') },
      ]);
    } finally {
      await bare.close();
    }
  });
});

describe('Magento brands as a destination', () => {
  let destination: MagentoEmulator;
  const idMap = new TestIdMap();
  const options = () => destination.store.catalog.getAttribute('manufacturer').options;
  const optionOf = (label: string) => options().find((o) => o.label === label);
  let merchantsValue: string;

  beforeAll(async () => {
    destination = await startMagentoEmulator({ seed: 'empty' });
    // The merchant's own brand, already in the store.
    merchantsValue = destination.store.catalog.seedOption('manufacturer', 'Acme Goods');
  });
  afterAll(async () => {
    await destination?.close();
  });

  const batch = () => [
    brand('10', 'Northwind Outfitters', { position: 0, description: '<p>Outdoor.</p>' }),
    brand('11', 'acme goods', { position: 1 }),
    brand('12', 'Fjällbo', { position: 2 }),
    brand('13', '   ', { position: 3 }),
    brand('14', 'x'.repeat(256), { position: 4 }),
    brand('15', 'Fjällbo', { position: 5 }),
  ];

  it('creates each brand once as an option, links the merchant’s, and fails what Magento refuses', async () => {
    const outcomes = await connect(destination, losingFirstCreate()).write(
      'brands',
      batch(),
      idMap,
    );
    // As the engine does, a linked record is not kept as written by this migration.
    for (const o of outcomes)
      if (o.destinationId && !o.linked) idMap.set('brands', o.sourceId, o.destinationId);
    expect(outcomes.map((o) => [o.sourceId, o.outcome, o.linked ?? false])).toEqual([
      ['10', 'created', false],
      ['11', 'skipped', true],
      ['12', 'created', false],
      ['13', 'failed', false],
      ['14', 'failed', false],
      ['15', 'failed', false],
    ]);
    // The create whose answer was lost was found again by its label, not made twice.
    expect(options().filter((o) => o.label === 'Northwind Outfitters')).toHaveLength(1);
    expect(outcomes[0]?.destinationId).toBe(optionOf('Northwind Outfitters')?.value);
    expect(outcomes[1]).toMatchObject({
      destinationId: merchantsValue,
      reason: expect.stringContaining("the store's own manufacturer option 'Acme Goods'"),
    });
    expect(outcomes[3]?.reason).toContain('The attribute option label is empty');
    expect(outcomes[4]?.reason).toContain('255 characters');
    expect(outcomes[5]?.reason).toContain('another brand in this batch');
    expect(optionOf('Fjällbo')?.sort_order).toBe(2);
    expect(optionOf('Acme Goods')?.sort_order).toBe(0);
    expect(options()).toHaveLength(3);
  });

  it('leaves unchanged brands alone, updates changed ones, and never changes the merchant’s', async () => {
    const connection = connect(destination);
    const again = await connection.write('brands', batch().slice(0, 3), idMap);
    expect(again.map((o) => o.outcome)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(again[0]?.linked).toBeUndefined();
    const changed = await connection.write(
      'brands',
      [
        brand('10', 'Northwind Outfitters Co.', { position: 0 }),
        brand('11', 'ACME GOODS', { position: 7 }),
        brand('12', 'Fjällbo', { position: 4 }),
      ],
      idMap,
    );
    expect(changed.map((o) => [o.outcome, o.linked ?? false])).toEqual([
      ['updated', false],
      ['skipped', true],
      ['updated', false],
    ]);
    expect(optionOf('Northwind Outfitters Co.')?.value).toBe(idMap.get('brands', '10'));
    expect(optionOf('Fjällbo')?.sort_order).toBe(4);
    expect(optionOf('Acme Goods')).toMatchObject({ value: merchantsValue, sort_order: 0 });
    expect(options()).toHaveLength(3);
  });

  it('a run without the id map finds every brand by its label and creates none', async () => {
    const outcomes = await connect(destination).write(
      'brands',
      batch().slice(0, 3),
      new TestIdMap(),
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'skipped', 'skipped']);
    // 'Northwind Outfitters' was renamed above, so that name is new to the store.
    expect(outcomes.slice(1).every((o) => o.linked)).toBe(true);
  });

  it('the product writer of the same connection finds a migrated brand by name', async () => {
    const connection = connect(destination);
    const [written] = await connection.write(
      'brands',
      [brand('20', 'Luma', { position: 9 })],
      idMap,
    );
    expect(written?.outcome).toBe('created');
    const before = options().length;
    const product: Product = {
      ...productDefaults(),
      id: 'p-1',
      type: 'simple',
      name: 'Yoga Mat',
      slug: 'yoga-mat',
      sourceUrlPath: null,
      createdAt: null,
      updatedAt: null,
      sku: 'MAT-1',
      vendor: 'Luma',
      variants: [
        {
          ...variantDefaults({ amount: 2500, currency: 'USD' }),
          id: 'v-1',
          sku: 'MAT-1',
          optionValues: [],
          position: 0,
        },
      ],
    };
    const [outcome] = await connection.write('products', [product], idMap);
    expect(outcome?.outcome).toBe('created');
    expect(options()).toHaveLength(before);
    const stored = destination.store.catalog.products.get(Number(outcome?.destinationId));
    expect(stored?.custom.manufacturer).toBe(written?.destinationId);
  });

  it('sent only requests that admin-schema-2.4.9.yaml describes', () => {
    const spec = adminSchema();
    const requests = recorded.flat();
    expect(
      requests.some((r) => r.method === 'PUT' && r.url.includes('/manufacturer/options/')),
    ).toBe(true);
    expect([...new Set(requests.flatMap((r) => spec.checkRequest(r)))]).toEqual([]);
  });
});
