import { beforeAll, describe, expect, it } from 'vitest';
import type { StoreValues } from '../../kit/contract.ts';
import type { HttpClient } from '../../kit/http/http-client.ts';
import { wooCommerceConnector } from '../woocommerce.ts';
import { NativeReader } from './native.ts';
import { resetStore, type RealStore } from './real-stores.ts';

/**
 * What storeValues() answers for a WooCommerce 11.0.1 store before its owner adds anything, as
 * read from a real one (the emulator's own test holds it to the same).
 */
export const freshStoreValues: StoreValues = {
  customerGroups: {
    values: [
      { value: '', label: 'Customer' },
      { value: 'administrator', label: 'Administrator' },
      { value: 'editor', label: 'Editor' },
      { value: 'author', label: 'Author' },
      { value: 'contributor', label: 'Contributor' },
      { value: 'subscriber', label: 'Subscriber' },
      { value: 'shop_manager', label: 'Shop manager' },
    ],
    createsMissing: false,
  },
  taxClasses: {
    values: [
      { value: '', label: 'Standard rate' },
      { value: 'reduced-rate', label: 'Reduced rate' },
      { value: 'zero-rate', label: 'Zero rate' },
    ],
    createsMissing: false,
  },
};

/**
 * storeValues() on an empty real WooCommerce 11.0.1 store, and what the store does with a tax
 * class it does not have (the reason the lists' createsMissing is false); the emulator keeps the
 * same behaviour (woocommerce-emulator-fidelity.test.ts, 'tax classes and roles').
 */
export function describeStoreValues(store: RealStore, kit: string, http: () => HttpClient): void {
  describe(`store values on the real store '${store.name}'`, () => {
    let api: NativeReader;
    const storeValues = async (): Promise<StoreValues | undefined> =>
      wooCommerceConnector.connect(store.credentials, { http: http() }).storeValues?.();

    beforeAll(async () => {
      await resetStore(kit, store);
      api = new NativeReader(http(), store);
    }, 120_000);

    it("lists a fresh store's roles (from the customers route's description) and tax classes", async () => {
      expect(await storeValues()).toEqual(freshStoreValues);
    });

    it('puts a product or variation naming a tax class it lacks in the standard class, and takes a class by its name', async () => {
      const created = async (path: string, body: Record<string, unknown>) => {
        const answer = await api.send('POST', `wc/v3/${path}`, body);
        expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
        return answer.body;
      };
      const classOf = async (tax_class: string) =>
        (await created('products', { name: `Taxed ${tax_class}`, tax_class })).tax_class;
      expect(await classOf('no-such-class')).toBe('');
      expect(await classOf('standard')).toBe('');
      expect(await classOf('Zero Rate')).toBe('zero-rate');
      const product = await created('products', {
        name: 'Taxed variable',
        type: 'variable',
        attributes: [{ name: 'Size', options: ['S', 'M'], variation: true }],
      });
      const variation = await created(`products/${String(product.id)}/variations`, {
        tax_class: 'no-such-class',
        attributes: [{ name: 'Size', option: 'S' }],
      });
      expect(variation.tax_class).toBe('');
    });

    it('refuses an order line or fee naming a tax class it lacks', async () => {
      const product = await api.send('POST', 'wc/v3/products', {
        name: 'Line',
        regular_price: '1',
      });
      const line = await api.send('POST', 'wc/v3/orders', {
        line_items: [{ product_id: product.body.id, quantity: 1, tax_class: 'no-such-class' }],
      });
      expect([line.status, line.body.code]).toEqual([400, 'order_item_product_invalid_tax_class']);
      const fee = await api.send('POST', 'wc/v3/orders', {
        fee_lines: [{ name: 'Fee', total: '1', tax_class: 'standard' }],
      });
      expect([fee.status, fee.body.code]).toEqual([400, 'order_item_fee_invalid_tax_class']);
    });

    it('lists a class the owner added by name after the standard class', async () => {
      const made = await api.send('POST', 'wc/v3/taxes/classes', { name: 'Luxury Goods' });
      expect(made.status).toBe(201);
      expect((await storeValues())?.taxClasses?.values.map((v) => v.value)).toEqual([
        '',
        'luxury-goods',
        'reduced-rate',
        'zero-rate',
      ]);
    });
  });
}
