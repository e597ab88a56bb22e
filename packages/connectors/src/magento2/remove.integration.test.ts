import { productDefaults, variantDefaults } from '@replatform/canonical/defaults';
import type { Product } from '@replatform/canonical/product';
import { adminSchema } from '@replatform/emulators/magento2/admin-schema';
import {
  startMagentoEmulator,
  type MagentoEmulator,
} from '@replatform/emulators/magento2/magento-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AssetRecord,
  Connection,
  ConnectorHttp,
  ConnectorHttpRequest,
  WriteOutcome,
} from '../kit/contract.ts';
import { MemoryIdMap } from '../kit/conformance/conformance-suite.ts';
import { ConnectorError } from '../kit/errors.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { magentoConnector } from './magento-connector.ts';
import { markerAttribute } from './write-products.ts';

const recorded: ConnectorHttpRequest[][] = [];

function connect(emulator: MagentoEmulator, http?: ConnectorHttp): Connection {
  const transport = http ?? loopbackHttp();
  if (!http) recorded.push((transport as ReturnType<typeof loopbackHttp>).requests);
  return magentoConnector.connect(
    { storeUrl: emulator.url, ...emulator.credentials },
    { http: transport },
  );
}

/** A transport that loses the answer of the first DELETE (the delete itself happens). */
function losingFirstDelete(): ConnectorHttp {
  const http = loopbackHttp();
  recorded.push(http.requests);
  let lost = false;
  return {
    async request(request) {
      const response = await http.request(request);
      if (!lost && request.method === 'DELETE') {
        lost = true;
        throw new Error('socket hang up');
      }
      return response;
    },
  };
}

const variable = (id: string, sku: string, colours: string[]): Product => ({
  ...productDefaults(),
  id,
  type: 'variable',
  name: `Runner ${sku}`,
  slug: sku.toLowerCase(),
  sku,
  vendor: 'Acme Goods',
  options: [{ name: 'Colour', values: colours, shared: null, visible: false, position: 0 }],
  variants: colours.map((colour, i) => ({
    ...variantDefaults({ amount: 8999, currency: 'USD' }),
    id: `${id}-v${i}`,
    sku: `${sku}-${colour.toUpperCase()}`,
    optionValues: [{ name: 'Colour', value: colour }],
    position: i,
  })),
  attributes: [{ name: 'Material', values: ['Mesh'], shared: null, visible: true, position: 1 }],
  sourceUrlPath: null,
  createdAt: null,
  updatedAt: null,
});

describe('Magento undo: remove and removeAssets', () => {
  let emulator: MagentoEmulator;
  let connection: Connection;
  beforeAll(async () => {
    emulator = await startMagentoEmulator({
      seed: { seed: 7, products: 4, customers: 30, orders: 3 },
    });
    connection = connect(emulator);
  });
  afterAll(async () => {
    await emulator?.close();
  });

  it('declares orders unremovable, with what the owner can do, and answers them failed', async () => {
    const reason = magentoConnector.capabilities.removeUnsupported?.orders;
    expect(reason).toMatch(/cannot delete orders/);
    expect(reason).toMatch(/Cancel/);
    expect(Object.keys(magentoConnector.capabilities.removeUnsupported ?? {})).toEqual(['orders']);
    const [outcome] = await connection.remove!('orders', ['1']);
    expect(outcome).toEqual({ destinationId: '1', outcome: 'failed', reason });
  });

  let first: WriteOutcome | undefined;
  let second: WriteOutcome | undefined;

  it('records the attribute options a product write creates as terms, and not those that were there', async () => {
    const { catalog } = emulator.store;
    // What the seeded store already has: Magento's 'material' is a text attribute there, and
    // the vendor may be one of its brands. Only options the write creates are recorded.
    const labelsOf = (code: string) =>
      new Set((catalog.attributes.get(code)?.options ?? []).map((o) => o.label));
    const before = { colour: labelsOf('colour'), manufacturer: labelsOf('manufacturer') };
    [first] = await connection.write(
      'products',
      [variable('src-a', 'RUN-A', ['Moss', 'Sand'])],
      new MemoryIdMap(),
    );
    expect(first?.outcome).toBe('created');
    const id = (code: string, label: string) =>
      catalog.getAttribute(code).options.find((o) => o.label === label)?.value;
    const term = (code: string, label: string): AssetRecord => ({
      kind: 'term',
      key: `${code}:${label}`,
      destinationId: `${code}:${id(code, label)}`,
    });
    const created = [
      ...['Moss', 'Sand'].filter((l) => !before.colour.has(l)).map((l) => term('colour', l)),
      ...(before.manufacturer.has('Acme Goods') ? [] : [term('manufacturer', 'Acme Goods')]),
    ];
    expect(created.length).toBeGreaterThanOrEqual(2);
    expect(first?.assets).toEqual(created);

    // The second product finds Moss, Mesh and the vendor there: only Fern is new.
    [second] = await connection.write(
      'products',
      [variable('src-b', 'RUN-B', ['Moss', 'Fern'])],
      new MemoryIdMap(),
    );
    expect(second?.outcome).toBe('created');
    expect(second?.assets).toEqual([term('colour', 'Fern')]);
  });

  it('removes a configurable product with the children it created, leaving a child that is not its own', async () => {
    const { catalog } = emulator.store;
    const kept = catalog.productBySku('RUN-A-SAND');
    // The owner's product, linked as a child since: no marker of this migration's.
    kept.custom[markerAttribute] = 'someone-else';
    const [outcome] = await connection.remove!('products', [first!.destinationId!]);
    expect(outcome).toEqual({ destinationId: first!.destinationId, outcome: 'removed' });
    expect(catalog.hasSku('RUN-A')).toBe(false);
    expect(catalog.hasSku('RUN-A-MOSS')).toBe(false);
    expect(catalog.hasSku('RUN-A-SAND')).toBe(true);
    expect(catalog.hasSku('RUN-B')).toBe(true);
    catalog.deleteProduct('RUN-A-SAND');
  });

  it("deletes the recorded terms no product uses, keeps one still in use with the reason, and answers 'gone' the second time", async () => {
    const assets = first!.assets!;
    const outcomes = await connection.removeAssets!(assets);
    expect(outcomes.map((o) => o.destinationId)).toEqual(assets.map((a) => a.destinationId));
    const moss = outcomes.find((o, i) => assets[i]!.key === 'colour:Moss');
    expect(moss).toMatchObject({ outcome: 'kept' });
    expect(moss?.reason).toMatch(/still use this value of the attribute 'colour' \(RUN-B-MOSS\)/);
    const sand = outcomes.find((o, i) => assets[i]!.key === 'colour:Sand');
    expect(sand?.outcome).toBe('removed');
    const labels = emulator.store.catalog.getAttribute('colour').options.map((o) => o.label);
    expect(labels).toEqual(expect.arrayContaining(['Moss', 'Fern']));
    expect(labels).not.toContain('Sand');

    const again = await connection.removeAssets!(assets.filter((a) => a.key === 'colour:Sand'));
    expect(again.map((o) => o.outcome)).toEqual(['gone']);
    const foreign = await connection.removeAssets!([
      { kind: 'image', key: 'https://x.example/a.png', destinationId: 'a.png' },
    ]);
    expect(foreign[0]?.outcome).toBe('failed');
  });

  it("answers an id the store does not have 'gone', for every entity", async () => {
    for (const entity of [
      'categories',
      'products',
      'coupons',
      'customers',
      'pages',
      'brands',
    ] as const) {
      const outcomes = await connection.remove!(entity, ['987654321']);
      expect(outcomes, entity).toEqual([{ destinationId: '987654321', outcome: 'gone' }]);
    }
  });

  it('removes more customers than run at once, answering in the order given; a lost answer is gone, not failed', async () => {
    const { customers } = emulator.store;
    const ids = [...customers.customers.keys()].slice(0, 25).map(String).reverse();
    const outcomes = await connection.remove!('customers', ['987654321', ...ids]);
    expect(outcomes.map((o) => o.destinationId)).toEqual(['987654321', ...ids]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['gone', ...ids.map(() => 'removed')]);
    for (const id of ids) expect(customers.customers.has(Number(id))).toBe(false);
    // Orders survive their customer in Magento.
    expect(emulator.store.sales.orders.size).toBe(3);

    const rest = [...customers.customers.keys()].slice(0, 2).map(String);
    const lossy = connect(emulator, losingFirstDelete());
    const [lost, other] = await lossy.remove!('customers', rest);
    expect(lost).toEqual({ destinationId: rest[0], outcome: 'gone' });
    expect(other).toEqual({ destinationId: rest[1], outcome: 'removed' });
    expect(customers.customers.has(Number(rest[0]))).toBe(false);
  });

  it('looks products up in lists of 100 when handed more', async () => {
    const ids = Array.from({ length: 130 }, (_, i) => String(900_000 + i));
    const outcomes = await connection.remove!('products', ids);
    expect(outcomes).toHaveLength(130);
    expect(outcomes.every((o) => o.outcome === 'gone')).toBe(true);
  });

  it("removes a category tree child first, and keeps a category whose sub-category is not the migration's, with the reason", async () => {
    const { catalog } = emulator.store;
    const save = (name: string, parent: number) =>
      catalog.saveCategory({ category: { name, parent_id: parent, is_active: true } }).id;
    const ours = save('Undo ours', 2);
    const oursChild = save('Undo ours child', ours);
    const kept = save('Undo kept', 2);
    const theirs = save("Owner's own", kept);
    const outcomes = await connection.remove!('categories', [
      String(oursChild),
      String(kept),
      String(ours),
      '2',
    ]);
    expect(outcomes.map((o) => o.outcome)).toEqual(['removed', 'failed', 'removed', 'failed']);
    expect(outcomes[1]?.reason).toMatch(/sub-category with it \(Owner's own\)/);
    // The store's root keeps its own categories: refused before Magento is asked.
    expect(outcomes[3]?.reason).toMatch(/^kept: Magento would delete its \d+ sub-categories/);
    expect(catalog.categories.has(ours)).toBe(false);
    expect(catalog.categories.has(kept)).toBe(true);
    expect(catalog.categories.has(theirs)).toBe(true);
  });

  it("fails a category Magento refuses to delete, with Magento's words and what the owner can do", async () => {
    const empty = await startMagentoEmulator({ seed: 'empty' });
    try {
      const [root] = await connect(empty).remove!('categories', ['2']);
      expect(root?.outcome).toBe('failed');
      expect(root?.reason).toBe(
        'Magento refused to delete it: Cannot delete category with id 2; delete it in Catalog > Categories if it should go',
      );
      expect(empty.store.catalog.categories.has(2)).toBe(true);
    } finally {
      await empty.close();
    }
  });

  it('removes a coupon with its cart price rule, a CMS page and a brand option', async () => {
    const { salesRules, cmsPages, catalog } = emulator.store;
    const rule = [...salesRules.rules.values()].find((r) =>
      [...salesRules.coupons.values()].some((c) => c.rule_id === r.rule_id),
    )!;
    const page = [...cmsPages.pages.keys()][0]!;
    const brand = catalog.getAttribute('manufacturer').options.at(-1)!.value;
    const [c] = await connection.remove!('coupons', [String(rule.rule_id)]);
    const [p] = await connection.remove!('pages', [String(page)]);
    const [b] = await connection.remove!('brands', [brand]);
    expect([c?.outcome, p?.outcome, b?.outcome]).toEqual(['removed', 'removed', 'removed']);
    expect(salesRules.rules.has(rule.rule_id)).toBe(false);
    expect([...salesRules.coupons.values()].some((x) => x.rule_id === rule.rule_id)).toBe(false);
    expect(cmsPages.pages.has(page)).toBe(false);
    expect(catalog.getAttribute('manufacturer').options.some((o) => o.value === brand)).toBe(false);
    const brands = [];
    for await (const pageOf of connection.read('brands', null)) brands.push(...pageOf.records);
    expect(brands.some((x) => x.id === brand)).toBe(false);
  });

  it('stops with a clear error when the integration may not delete', async () => {
    const limited = await startMagentoEmulator({
      seed: { seed: 7, products: 2, customers: 2, orders: 0 },
      resources: ['Magento_Customer::customer', 'Magento_Customer::manage'],
    });
    try {
      const id = String([...limited.store.customers.customers.keys()][0]);
      const error = await connect(limited).remove!('customers', [id]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as ConnectorError).errorClass).toBe('config');
      expect((error as Error).message).toMatch(/Magento_Customer::delete/);
    } finally {
      await limited.close();
    }
  });

  it('sent only requests that admin-schema-2.4.9.yaml describes', () => {
    const spec = adminSchema();
    const requests = recorded.flat().filter((r) => new URL(r.url).pathname.startsWith('/rest/'));
    expect(requests.some((r) => r.method === 'DELETE')).toBe(true);
    expect([...new Set(requests.flatMap((r) => spec.checkRequest(r)))]).toEqual([]);
  });
});
