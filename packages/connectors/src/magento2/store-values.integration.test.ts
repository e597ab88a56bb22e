import type { Customer } from '@replatform/canonical/customer';
import { productDefaults, variantDefaults } from '@replatform/canonical/defaults';
import type { EntityType } from '@replatform/canonical/entities';
import type { Product } from '@replatform/canonical/product';
import { adminSchema } from '@replatform/emulators/magento2/admin-schema';
import {
  startMagentoEmulator,
  type MagentoEmulator,
} from '@replatform/emulators/magento2/magento-emulator';
import { afterAll, describe, expect, it } from 'vitest';
import type { Connection, ConnectorHttpRequest, IdMap, StoreValues } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { magentoConnector } from './magento-connector.ts';

const recorded: ConnectorHttpRequest[][] = [];
const emulators: MagentoEmulator[] = [];

afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
});

async function start(options: Parameters<typeof startMagentoEmulator>[0]) {
  // Magento's web API input limits on: every search must ask for at most 300 items a page.
  const emulator = await startMagentoEmulator({ inputLimits: true, ...options });
  emulators.push(emulator);
  return emulator;
}

function connect(emulator: MagentoEmulator, credentials = emulator.credentials): Connection {
  const http = loopbackHttp();
  recorded.push(http.requests);
  return magentoConnector.connect({ storeUrl: emulator.url, ...credentials }, { http });
}

async function storeValues(connection: Connection): Promise<StoreValues> {
  if (!connection.storeValues) throw new Error('the Magento connector lists store values');
  return connection.storeValues();
}

class TestIdMap implements IdMap {
  readonly entries = new Map<string, string>();
  get(entity: EntityType, sourceId: string) {
    return this.entries.get(`${entity}:${sourceId}`);
  }
  set(entity: EntityType, sourceId: string, destinationId: string) {
    this.entries.set(`${entity}:${sourceId}`, destinationId);
  }
}

describe('Magento store values', () => {
  it('lists a fresh store’s groups, General as the default, and its standard tax class', async () => {
    const store = await start({ seed: 'empty' });
    expect(await storeValues(connect(store))).toEqual({
      customerGroups: {
        values: [
          { value: '', label: 'General' },
          { value: 'Wholesale', label: 'Wholesale' },
          { value: 'Retailer', label: 'Retailer' },
        ],
        createsMissing: true,
      },
      taxClasses: { values: [{ value: '', label: 'Taxable Goods' }], createsMissing: true },
    });
  });

  it('lists the values the store’s customers and products are read with, and only those', async () => {
    const store = await start({ seed: { seed: 7, products: 8, customers: 12, orders: 0 } });
    const { tax, customers } = store.store;
    // A customer class goes on groups, not on records; 'None' would read as "not taxable".
    tax.create({ taxClass: { class_name: 'Wholesale Customer', class_type: 'CUSTOMER' } });
    tax.create({ taxClass: { class_name: 'None', class_type: 'PRODUCT' } });
    tax.create({ taxClass: { class_name: 'Books', class_type: 'PRODUCT' } });
    const connection = connect(store);
    const values = await storeValues(connection);
    expect(values.customerGroups?.values).toEqual([
      { value: '', label: 'General' },
      { value: 'Wholesale', label: 'Wholesale' },
      { value: 'Retailer', label: 'Retailer' },
      { value: 'VIP', label: 'VIP' },
    ]);
    expect(values.taxClasses?.values).toEqual([
      { value: '', label: 'Taxable Goods' },
      { value: 'Reduced Rate', label: 'Reduced Rate' },
      { value: 'Books', label: 'Books' },
    ]);
    expect(customers.groups.get(0)?.code).toBe('NOT LOGGED IN');

    // Every group a customer reads with, and every class a product or variant reads with, is listed.
    const groupValues = new Set(values.customerGroups?.values.map((v) => v.value));
    const classValues = new Set(values.taxClasses?.values.map((v) => v.value));
    const readGroups = new Set<string>();
    for await (const page of connection.read('customers', null))
      for (const c of page.records) readGroups.add(c.group);
    const readClasses = new Set<string>();
    for await (const page of connection.read('products', null))
      for (const p of page.records) {
        if (p.taxStatus !== 'none') readClasses.add(p.taxClass);
        for (const v of p.variants) if (typeof v.taxClass === 'string') readClasses.add(v.taxClass);
      }
    expect(readGroups.size).toBeGreaterThan(1);
    expect(readClasses).toContain('Reduced Rate');
    for (const g of readGroups) expect(groupValues).toContain(g);
    for (const c of readClasses) expect(classValues).toContain(c);
  });

  it('reads the store anew on each call and pages through a long list of groups', async () => {
    const store = await start({ seed: 'empty' });
    const connection = connect(store);
    expect((await storeValues(connection)).customerGroups?.values).toHaveLength(3);
    for (let i = 1; i <= 320; i++)
      store.store.customers.createGroup({ group: { code: `Tier ${i}`, tax_class_id: 3 } });
    const groups = (await storeValues(connection)).customerGroups?.values ?? [];
    expect(groups).toHaveLength(323);
    expect(groups[0]).toEqual({ value: '', label: 'General' });
    expect(groups.at(-1)).toEqual({ value: 'Tier 320', label: 'Tier 320' });
    expect(new Set(groups.map((g) => g.value)).size).toBe(323);
  });

  it('names a group and a tax class the store lacks by creating them on write (createsMissing)', async () => {
    const store = await start({ seed: 'empty', bulk: { tickMs: 2, perTick: 25 } });
    const connection = connect(store);
    const customer: Customer = {
      id: 'c1',
      email: 'trade@example.com',
      username: '',
      firstName: 'Tra',
      lastName: 'De',
      phone: '',
      acceptsMarketing: false,
      addresses: [],
      note: '',
      tags: [],
      group: 'Trade',
      metafields: [],
      createdAt: '2023-01-02T03:04:05.000Z',
    };
    const product: Product = {
      ...productDefaults(),
      id: 'p1',
      type: 'simple',
      name: 'Atlas',
      slug: 'atlas',
      sourceUrlPath: null,
      createdAt: null,
      updatedAt: null,
      sku: 'ATLAS-1',
      taxClass: 'Books',
      variants: [
        {
          ...variantDefaults({ amount: 1900, currency: 'USD' }),
          id: 'v1',
          sku: 'ATLAS-1',
          optionValues: [],
          position: 0,
        },
      ],
    };
    const [wroteCustomer] = await connection.write('customers', [customer], new TestIdMap());
    const [wroteProduct] = await connection.write('products', [product], new TestIdMap());
    expect([wroteCustomer?.outcome, wroteProduct?.outcome]).toEqual(['created', 'created']);
    const values = await storeValues(connection);
    expect(values.customerGroups?.values.map((v) => v.value)).toEqual([
      '',
      'Wholesale',
      'Retailer',
      'Trade',
    ]);
    expect(values.taxClasses?.values.map((v) => v.value)).toEqual(['', 'Books']);
  });

  it('fails with Magento’s reason, inventing no groups, when the integration may not read them', async () => {
    const limited = {
      consumerKey: 'limited-consumer-key',
      consumerSecret: 'limited-consumer-secret',
      accessToken: 'limited-access-token',
      accessTokenSecret: 'limited-token-secret',
    };
    const store = await start({
      seed: 'empty',
      integrations: [
        {
          credentials: limited,
          resources: ['Magento_Catalog::attributes_attributes', 'Magento_Tax::manage_tax'],
        },
      ],
    });
    await expect(storeValues(connect(store, limited))).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining('Magento_Customer::group'),
    });
  });

  it('sent only requests that admin-schema-2.4.9.yaml describes', () => {
    const spec = adminSchema();
    const requests = recorded.flat();
    expect(requests.some((r) => r.url.includes('/V1/taxClasses/search?'))).toBe(true);
    expect(requests.some((r) => r.url.includes('/V1/customerGroups/search?'))).toBe(true);
    expect([...new Set(requests.flatMap((r) => spec.checkRequest(r)))]).toEqual([]);
  });
});
