import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { checkRequest } from '@replatform/emulators/woocommerce/testing/spec';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
  type WooCommerceEmulatorOptions,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import type { Customer } from '@replatform/canonical/customer';
import type { Product } from '@replatform/canonical/product';
import { readAll } from '../kit/conformance/conformance-suite.ts';
import type { ConnectorHttpRequest } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { freshStoreValues } from './real-store/store-values-behaviour.ts';
import { roleLabel } from './store-values.ts';
import { wooCommerceConnector } from './woocommerce.ts';

/**
 * storeValues() against the emulator: the store's roles (from the customers route's own
 * description) and tax classes, with the values the connector reads for them; every request is
 * one the 11.0.1 index allows.
 */

const recordings: ConnectorHttpRequest[][] = [];
afterAll(() => {
  const problems = recordings
    .flat()
    .flatMap((r) => checkRequest(r).map((p) => `${r.method} ${new URL(r.url).pathname}: ${p}`));
  expect(problems).toEqual([]);
});

const emulators: RunningWooCommerceEmulator[] = [];
afterEach(async () => {
  await Promise.all(emulators.splice(0).map((e) => e.close()));
});

async function start(seed: WooCommerceEmulatorOptions['seed']) {
  const emu = await startWooCommerceEmulator({ seed });
  emulators.push(emu);
  const http = loopbackHttp();
  recordings.push(http.requests);
  const connection = wooCommerceConnector.connect(
    { storeUrl: emu.url, consumerKey: emu.consumerKey, consumerSecret: emu.consumerSecret },
    { http },
  );
  return { emu, connection, requests: http.requests };
}

describe('woocommerce storeValues', () => {
  it('lists the roles and tax classes of a fresh store, customer and standard as the default', async () => {
    const { connection, requests } = await start('empty');
    expect(await connection.storeValues?.()).toEqual(freshStoreValues);
    // Two reads, nothing kept: a second call asks the store again.
    expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual([
      'GET /wp-json/wc/v3/customers',
      'GET /wp-json/wc/v3/taxes/classes',
    ]);
    expect(new URL(requests[0]?.url ?? '').searchParams.get('_method')).toBe('OPTIONS');
    await connection.storeValues?.();
    expect(requests).toHaveLength(4);
  });

  it('lists a class the owner added, in the store’s order (by name)', async () => {
    const { emu, connection } = await start('empty');
    emu.store.addTaxClass('Luxury Goods');
    const values = await connection.storeValues?.();
    expect(values?.taxClasses?.values).toEqual([
      { value: '', label: 'Standard rate' },
      { value: 'luxury-goods', label: 'Luxury Goods' },
      { value: 'reduced-rate', label: 'Reduced rate' },
      { value: 'zero-rate', label: 'Zero rate' },
    ]);
  });

  it('names every group and class the connector reads from the store’s records', async () => {
    const { connection } = await start({ products: 40, customers: 10, orders: 0 });
    const values = await connection.storeValues?.();
    const groups = new Set(values?.customerGroups?.values.map((v) => v.value));
    const classes = new Set(values?.taxClasses?.values.map((v) => v.value));
    const customers = (await readAll(connection, 'customers')) as Customer[];
    const products = (await readAll(connection, 'products')) as Product[];
    expect(customers.length).toBeGreaterThan(0);
    for (const c of customers) expect(groups).toContain(c.group);
    const read = products.flatMap((p) => [
      p.taxClass,
      ...p.variants.flatMap((v) => (v.taxClass === null ? [] : [v.taxClass])),
    ]);
    // The sample store has products in the standard and the reduced-rate classes.
    expect(new Set(read)).toEqual(new Set(['', 'reduced-rate']));
    for (const taxClass of read) expect(classes).toContain(taxClass);
  });

  it('labels a role from its slug, as WordPress names its own', () => {
    expect(roleLabel('shop_manager')).toBe('Shop manager');
    expect(roleLabel('wholesale-buyer')).toBe('Wholesale buyer');
    expect(roleLabel('customer')).toBe('Customer');
  });
});
