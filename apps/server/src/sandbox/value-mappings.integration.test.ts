import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityType } from '@replatform/canonical/entities';
import type { Customer } from '@replatform/canonical/customer';
import type { Order } from '@replatform/canonical/order';
import type { Product } from '@replatform/canonical/product';
import type { Platform } from '@replatform/contracts/migration';
import { defaultValueMap, type ValueMap } from '@replatform/contracts/value-mappings';
import type { FieldMappings } from '@replatform/contracts/migration';
import type { Connection } from '@replatform/connectors/kit/contract';
import { createHttpClient } from '@replatform/connectors/kit/http/http-client';
import { connectorRegistry } from '@replatform/connectors/registry';
import { EngineRepository } from '@replatform/db/engine-repository';
import { MigrationsRepository } from '@replatform/db/migrations-repository';
import { openTestDatabase } from '@replatform/db/test-databases';
import type { Db } from '@replatform/db/database';
import type { MagentoEmulator } from '@replatform/emulators/magento2/magento-emulator';
import type { RunningWooCommerceEmulator } from '@replatform/emulators/woocommerce/woocommerce-emulator';
import { executeMigration } from '@replatform/engine/execute';
import { connectorCredentials } from '../connections/store-connections.ts';
import { startPlatformStore, type PlatformStore } from './sandbox-stores.ts';

const sample = { seed: 11, products: 10, customers: 6, orders: 5 };

async function readAll<E extends EntityType>(connection: Connection, entity: E) {
  const records = [];
  for await (const page of connection.read(entity, null)) records.push(...page.records);
  return records;
}

/**
 * The owner's mappings of customer groups, tax classes and currency, through the real engine,
 * connectors and emulators: the lists come from the stores (storeValues), the proposals from the
 * contracts, and the run writes and verifies through the owner's choices.
 */
describe('customer-group, tax-class and currency mappings between sandbox stores (integration)', () => {
  let db: Db;
  const started: PlatformStore[] = [];
  beforeAll(async () => {
    db = await openTestDatabase('sqlite');
  });
  afterAll(async () => {
    await Promise.all(started.map((s) => s.emulator.close()));
    await db?.close();
  });

  /** Passed, every difference one the destination names on the record (as the platform matrix). */
  function verified(result: Awaited<ReturnType<typeof executeMigration>>) {
    expect(result.verification?.status).toBe('passed');
    expect(result.verification?.missing).toBe(0);
    const unexplained = (result.verification?.examples.mismatched ?? []).filter(
      (m) => !m.namedInReport,
    );
    expect(unexplained).toEqual([]);
  }

  async function store(platform: Platform, seed: typeof sample | 'empty', label: string) {
    const s = await startPlatformStore(platform, seed, label);
    started.push(s);
    return s;
  }

  async function migrate(
    from: [Platform, PlatformStore],
    to: [Platform, PlatformStore],
    dataTypes: EntityType[],
    mappings: (source: Connection, destination: Connection) => Promise<FieldMappings>,
  ) {
    const client = createHttpClient({
      allowlist: [from[1].emulator.url, to[1].emulator.url],
      timeoutMs: 20_000,
    });
    const side = ([platform, s]: [Platform, PlatformStore]) => {
      const connector = connectorRegistry[platform];
      if (!connector) throw new Error(`${platform} is not registered`);
      const credentials = connector.credentialsSchema.parse(
        connectorCredentials(platform, s.fields),
      );
      return {
        connection: connector.connect(credentials, { http: client }),
        capabilities: connector.capabilities,
      };
    };
    const source = side(from);
    const destination = side(to);
    const migration = await new MigrationsRepository(db).create({
      userId: 'mappings',
      email: 'm@example.com',
      storeName: `${from[0]} to ${to[0]}`,
    });
    const chosen = await mappings(source.connection, destination.connection);
    const result = await executeMigration({
      repository: new EngineRepository(db),
      migrationId: migration.id,
      dataTypes,
      source,
      destination,
      mappings: chosen,
    });
    return { result, source: source.connection, destination: destination.connection, client };
  }

  it('puts WooCommerce products and order lines in the Magento tax class the owner chose, and verifies through it', async () => {
    const woo = await store('woocommerce', sample, 'map-woo-src');
    const magento = await store('magento2', 'empty', 'map-mage-dst');
    let proposed: ValueMap = {};
    const run = await migrate(
      ['woocommerce', woo],
      ['magento2', magento],
      ['products', 'customers', 'orders'],
      async (source, destination) => {
        const [from, to] = await Promise.all([source.storeValues?.(), destination.storeValues?.()]);
        if (!from?.taxClasses || !to?.taxClasses) throw new Error('no tax classes listed');
        proposed = defaultValueMap(
          from.taxClasses.values,
          to.taxClasses.values,
          to.taxClasses.createsMissing,
        );
        // The owner puts the reduced rate in Magento's standard class.
        return { taxClasses: { ...proposed, 'reduced-rate': '' } };
      },
    );
    try {
      // Magento creates a class it lacks, so the zero rate was proposed as a new class.
      expect(proposed).toEqual({
        '': '',
        'reduced-rate': 'Reduced rate',
        'zero-rate': 'Zero rate',
      });
      expect(run.result.status, run.result.message).toBe('completed');
      verified(run.result);
      const sourceProducts = (await readAll(run.source, 'products')) as Product[];
      expect(sourceProducts.some((p) => p.taxClass === 'reduced-rate')).toBe(true);
      const written = (await readAll(run.destination, 'products')) as Product[];
      expect(written).toHaveLength(sample.products);
      expect(written.every((p) => p.taxClass === '')).toBe(true);
      expect(run.result.notes).toContain(
        "Tax classes mapped as you chose: 'reduced-rate' → the standard class, 'zero-rate' → 'Zero rate'.",
      );
    } finally {
      await run.client.close();
    }
  }, 120_000);

  it('moves Magento customers into the group the owner chose', async () => {
    const source = await store('magento2', sample, 'map-mage-src');
    const destination = await store('magento2', 'empty', 'map-mage-dst2');
    const customers = [...(source.emulator as MagentoEmulator).store.customers.customers.values()];
    const moved = customers[0];
    if (!moved) throw new Error('no customers in the sample');
    moved.group_id = 2; // Wholesale
    const run = await migrate(
      ['magento2', source],
      ['magento2', destination],
      ['customers'],
      async (from, to) => {
        const [a, b] = await Promise.all([from.storeValues?.(), to.storeValues?.()]);
        if (!a?.customerGroups || !b?.customerGroups) throw new Error('no groups listed');
        const proposed = defaultValueMap(
          a.customerGroups.values,
          b.customerGroups.values,
          b.customerGroups.createsMissing,
        );
        expect(proposed.Wholesale).toBe('Wholesale');
        return { customerGroups: { ...proposed, Wholesale: 'Retailer' } };
      },
    );
    try {
      expect(run.result.status, run.result.message).toBe('completed');
      verified(run.result);
      const written = (await readAll(run.destination, 'customers')) as Customer[];
      // Every Wholesale customer joins Retailer; the others keep the group of the same name,
      // made where the destination lacked it (VIP).
      const read = (await readAll(run.source, 'customers')) as Customer[];
      expect(read.find((c) => c.email === moved.email)?.group).toBe('Wholesale');
      expect(read.some((c) => c.group === 'VIP')).toBe(true);
      for (const customer of read)
        expect(written.find((c) => c.email === customer.email)?.group, customer.email).toBe(
          customer.group === 'Wholesale' ? 'Retailer' : customer.group,
        );
    } finally {
      await run.client.close();
    }
  }, 120_000);

  it('converts every amount into a WooCommerce store that sells in euros at the owner’s rate, and verifies through it', async () => {
    const source = await store('woocommerce', sample, 'map-usd-src');
    const destination = await store('woocommerce', 'empty', 'map-eur-dst');
    (destination.emulator as RunningWooCommerceEmulator).store.settings.currency = 'EUR';
    const run = await migrate(
      ['woocommerce', source],
      ['woocommerce', destination],
      ['products', 'customers', 'orders', 'coupons'],
      async (from, to) => {
        const [a, b] = await Promise.all([from.check(), to.check()]);
        expect([a.currency, b.currency]).toEqual(['USD', 'EUR']);
        return { currency: { from: 'USD', to: 'EUR', mode: 'convert', rate: '0.5' } };
      },
    );
    try {
      expect(run.result.status, run.result.message).toBe('completed');
      for (const [entity, stats] of Object.entries(run.result.stats))
        expect(stats.failed, `${entity} failed`).toBe(0);
      verified(run.result);
      const sourceProducts = (await readAll(run.source, 'products')) as Product[];
      const written = (await readAll(run.destination, 'products')) as Product[];
      const original = sourceProducts.find((p) => (p.variants[0]?.price.amount ?? 0) > 0);
      const copy = written.find((p) => p.name === original?.name);
      expect(copy?.variants[0]?.price).toEqual({
        amount: Math.round((original?.variants[0]?.price.amount ?? 0) / 2),
        currency: 'EUR',
      });
      const orders = (await readAll(run.destination, 'orders')) as Order[];
      expect(orders).toHaveLength(sample.orders);
      expect(orders.every((o) => o.currency === 'EUR')).toBe(true);
      expect(run.result.notes).toContain('Amounts in USD converted to EUR at 0.5 EUR for 1 USD.');
    } finally {
      await run.client.close();
    }
  }, 120_000);
});
