import { describe, expect, it } from 'vitest';
import {
  orderDefaults,
  orderLineDefaults,
  productDefaults,
  variantDefaults,
} from '@replatform/canonical/defaults';
import type { Order } from '@replatform/canonical/order';
import type { Product } from '@replatform/canonical/product';
import { comparable, isEmptyValue, valueAt, variantKeysOf } from './compare.ts';

const usd = (amount: number) => ({ amount, currency: 'USD' });

const variant = (id: string, sku: string, size: string): Product['variants'][number] => ({
  ...variantDefaults(usd(100)),
  id,
  sku,
  optionValues: [{ name: 'Size', value: size }],
  position: 0,
});

const product = (id: string, variants: Product['variants']): Product => ({
  ...productDefaults(),
  id,
  type: 'variable',
  name: 'Shirt',
  slug: 'shirt',
  options: [{ name: 'Size', values: ['S', 'M'], shared: null, visible: true, position: 0 }],
  variants,
  tags: ['b', 'A', 'c'],
  sourceUrlPath: null,
  createdAt: null,
  updatedAt: null,
});

const order = (productId: string, variantId: string | null): Order => ({
  ...orderDefaults('USD'),
  id: 'o',
  number: '1',
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: null,
  currency: 'USD',
  customerId: null,
  email: '',
  status: 'pending',
  paymentStatus: 'pending',
  fulfillmentStatus: 'unfulfilled',
  lines: [
    {
      id: 'l',
      productId,
      variantId,
      sku: '',
      name: 'Shirt',
      quantity: 1,
      unitPrice: usd(100),
      tax: usd(0),
      total: usd(100),
      ...orderLineDefaults(),
    },
  ],
  shippingLines: [],
  discounts: [],
  subtotal: usd(100),
  taxTotal: usd(0),
  shippingTotal: usd(0),
  discountTotal: usd(0),
  grandTotal: usd(100),
  billingAddress: null,
  shippingAddress: null,
  note: '',
});

describe('comparable', () => {
  it('compares the variant an order line points to through its SKU or option values', () => {
    const source = variantKeysOf([
      product('p1', [variant('v1', 'S-1', 'S'), variant('v2', '', 'M')]),
    ]);
    const destination = variantKeysOf([
      product('900', [variant('901', 'S-1', 'S'), variant('902', '', 'M')]),
    ]);
    const toSourceId = (_e: string, id: string): string | undefined =>
      id === '900' ? 'p1' : undefined;
    const line = (o: Order, keys: typeof source, map = toSourceId) =>
      (
        comparable('orders', o, { toSourceId: map, ignore: [], variantKey: keys }).lines as {
          variantId: unknown;
          productId: unknown;
        }[]
      )[0];
    expect(line(order('p1', 'v1'), source, (_e, id) => id)).toMatchObject({
      variantId: 'sku:S-1',
      productId: 'p1',
    });
    expect(line(order('900', '901'), destination)).toMatchObject({ variantId: 'sku:S-1' });
    expect(line(order('900', '902'), destination)?.variantId).toBe('options:Size=M');
    // A line pointing at the wrong variant, or at one the store does not have, differs.
    expect(line(order('900', '902'), destination)).not.toEqual(
      line(order('p1', 'v1'), source, (_e, id) => id),
    );
    expect(line(order('900', '999'), destination)?.variantId).toBe('unresolved:999');
    expect(line(order('900', null), destination)?.variantId).toBeNull();
  });

  it('leaves variant links out when it cannot resolve them', () => {
    const lines = comparable('orders', order('p1', 'v1'), {
      toSourceId: (_e, id) => id,
      ignore: [],
    }).lines as Record<string, unknown>[];
    expect(lines[0]).not.toHaveProperty('variantId');
  });

  it('sorts tags, whose order carries no meaning', () => {
    const form = comparable('products', product('p', [variant('v', 'S', 'S')]), {
      toSourceId: (_e, id) => id,
      ignore: [],
    });
    expect(form.tags).toEqual(['A', 'b', 'c']);
  });
});

describe('field helpers', () => {
  it('reads dotted paths through lists', () => {
    const value = { a: { b: 1 }, list: [{ c: 1 }, { c: 2 }], none: null };
    expect(valueAt(value, 'a.b')).toBe(1);
    expect(valueAt(value, 'list.c')).toEqual([1, 2]);
    expect(valueAt(value, 'none.x')).toBeUndefined();
    expect(valueAt(value, 'missing')).toBeUndefined();
  });

  it('knows empty values', () => {
    for (const empty of ['', 0, false, null, undefined, [], {}, [''], { a: '', b: [] }])
      expect(isEmptyValue(empty), JSON.stringify(empty)).toBe(true);
    for (const full of ['x', 1, true, ['x'], { a: 'x' }])
      expect(isEmptyValue(full), JSON.stringify(full)).toBe(false);
  });
});
