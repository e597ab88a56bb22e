import { describe, expect, it } from 'vitest';
import type { Coupon } from '@replatform/canonical/coupon';
import type { Customer } from '@replatform/canonical/customer';
import type { Product } from '@replatform/canonical/product';
import { orderStatuses } from '@replatform/canonical/order';
import { optionsOf, orderStatusNames } from '@replatform/contracts/migration';
import { mappingNotes, optionNotes, transformedSource } from './mappings.ts';
import { MemoryStore, memoryConnection, sampleData } from './testing/memory-store.ts';

const noLimits = { destinationFields: {} };

describe('owner mappings', () => {
  it('offer exactly the statuses the canonical model has', () => {
    expect([...orderStatusNames]).toEqual([...orderStatuses]);
  });

  it('leave the source untouched when they change nothing', () => {
    const { connection } = memoryConnection(
      MemoryStore.seeded(sampleData({ products: 1, customers: 0, orders: 1 })),
    );
    expect(transformedSource(connection, {}, noLimits)).toBe(connection);
    expect(
      transformedSource(connection, { orderStatuses: { completed: 'completed' } }, noLimits),
    ).toBe(connection);
    expect(mappingNotes({ orderStatuses: { pending: 'pending' } })).toEqual([]);
  });

  it('map orders read by page and by id, and nothing else', async () => {
    const data = sampleData({ products: 2, customers: 1, orders: 2 });
    data.orders[0]!.status = 'failed';
    const { connection } = memoryConnection(MemoryStore.seeded(data));
    const mapped = transformedSource(
      connection,
      { orderStatuses: { failed: 'cancelled' } },
      noLimits,
    );
    const read = [];
    for await (const page of mapped.read('orders', null)) read.push(...page.records);
    expect(read.map((o) => o.status).sort()).toEqual(['cancelled', 'completed']);
    const byId = await mapped.readByIds?.('orders', [data.orders[0]!.id]);
    expect(byId?.map((o) => o.status)).toEqual(['cancelled']);
    const products = [];
    for await (const page of mapped.read('products', null)) products.push(...page.records);
    expect(products).toEqual(data.products);
    expect(
      mappingNotes({ orderStatuses: { failed: 'cancelled', 'on-hold': 'processing' } }),
    ).toEqual(['Order statuses mapped as you chose: On hold → Processing, Failed → Cancelled.']);
  });

  it('map customer groups and tax classes, keeping values the owner did not name', async () => {
    const data = sampleData({ products: 2, customers: 3, orders: 1 });
    const [wholesale, retail, plain] = data.customers as [Customer, Customer, Customer];
    wholesale.group = 'wholesale_customer';
    retail.group = 'constructor';
    plain.group = '';
    const [reduced, standard] = data.products as [Product, Product];
    reduced.taxClass = 'reduced-rate';
    reduced.variants[0]!.taxClass = 'zero-rate';
    standard.taxClass = '';
    const order = data.orders[0]!;
    order.lines[0]!.taxClass = 'reduced-rate';
    const { connection } = memoryConnection(MemoryStore.seeded(data));
    const mappings = {
      customerGroups: { wholesale_customer: 'Wholesale', '': '' },
      taxClasses: { 'reduced-rate': 'Reduced', 'zero-rate': '' },
    };
    const mapped = transformedSource(connection, mappings, noLimits);
    const customers = [];
    for await (const page of mapped.read('customers', null)) customers.push(...page.records);
    expect(customers.map((c) => c.group)).toEqual(['Wholesale', 'constructor', '']);
    const [product] = (await mapped.readByIds?.('products', [reduced.id])) ?? [];
    expect(product?.taxClass).toBe('Reduced');
    expect(product?.variants[0]?.taxClass).toBe('');
    const [mappedOrder] = (await mapped.readByIds?.('orders', [order.id])) ?? [];
    expect(mappedOrder?.lines[0]?.taxClass).toBe('Reduced');
    expect(mappingNotes(mappings)).toEqual([
      "Customer groups mapped as you chose: 'wholesale_customer' → 'Wholesale'.",
      "Tax classes mapped as you chose: 'reduced-rate' → 'Reduced', 'zero-rate' → the standard class.",
    ]);
  });

  it('convert every amount at the rate the owner entered, or keep the currency and say so', async () => {
    const data = sampleData({ products: 1, customers: 1, orders: 1 });
    const product = data.products[0]!;
    product.variants[0]!.price = { amount: 1999, currency: 'USD' };
    const order = data.orders[0]!;
    const { connection } = memoryConnection(MemoryStore.seeded(data));
    const convert = { from: 'USD', to: 'JPY', mode: 'convert' as const, rate: '150.5' };
    const mapped = transformedSource(connection, { currency: convert }, noLimits);
    const [converted] = (await mapped.readByIds?.('products', [product.id])) ?? [];
    // 19.99 USD at 150.5 is 3008.495 yen, rounded to 3008 (yen have no minor unit).
    expect(converted?.variants[0]?.price).toEqual({ amount: 3008, currency: 'JPY' });
    const [convertedOrder] = (await mapped.readByIds?.('orders', [order.id])) ?? [];
    expect(convertedOrder?.currency).toBe('JPY');
    expect(convertedOrder?.grandTotal).toEqual({
      amount: Math.round((order.grandTotal.amount / 100) * 150.5),
      currency: 'JPY',
    });
    expect(JSON.stringify(convertedOrder)).not.toContain('"USD"');
    expect(mappingNotes({ currency: convert })).toEqual([
      'Amounts in USD converted to JPY at 150.5 JPY for 1 USD.',
    ]);
    const keep = { from: 'USD', to: 'EUR', mode: 'keep' as const };
    expect(transformedSource(connection, { currency: keep }, noLimits)).toBe(connection);
    expect(mappingNotes({ currency: keep })[0]).toMatch(/^Orders keep their own currency \(USD\)/);
  });

  it('make a converted order’s figures of its converted parts, as the source’s were', async () => {
    const data = sampleData({ products: 3, customers: 1, orders: 4 });
    const sum = (xs: { amount: number }[]) => xs.reduce((n, x) => n + x.amount, 0);
    const { connection } = memoryConnection(MemoryStore.seeded(data));
    const convert = { from: 'USD', to: 'EUR', mode: 'convert' as const, rate: '0.3337' };
    const mapped = transformedSource(connection, { currency: convert }, noLimits);
    const orders = [];
    for await (const page of mapped.read('orders', null)) orders.push(...page.records);
    expect(orders).toHaveLength(4);
    for (const [i, order] of orders.entries()) {
      const source = data.orders[i]!;
      if (source.subtotal.amount === sum(source.lines.map((l) => l.total)))
        expect(order.subtotal.amount).toBe(sum(order.lines.map((l) => l.total)));
      if (
        source.taxTotal.amount ===
        sum([...source.lines, ...source.shippingLines, ...source.fees].map((x) => x.tax))
      )
        expect(order.taxTotal.amount).toBe(
          sum([...order.lines, ...order.shippingLines, ...order.fees].map((x) => x.tax)),
        );
      expect(order.grandTotal.amount).toBe(
        order.subtotal.amount -
          order.discountTotal.amount +
          order.shippingTotal.amount +
          order.feeTotal.amount +
          order.taxTotal.amount,
      );
      // Each figure stays within a cent a part of the straight conversion.
      expect(Math.abs(order.grandTotal.amount - source.grandTotal.amount * 0.3337)).toBeLessThan(
        1 + source.lines.length + source.shippingLines.length,
      );
    }
  });

  it('switch off a coupon whose limits the destination cannot all hold, and say why', async () => {
    const data = sampleData({ products: 2, customers: 0, orders: 0, coupons: 4 });
    const [staff, open, off, started] = data.coupons as [Coupon, Coupon, Coupon, Coupon];
    staff.allowedEmails = ['*@staff.example.com'];
    off.allowedEmails = ['boss@example.com'];
    off.enabled = false;
    started.startsAt = '2020-01-01T00:00:00.000Z';
    open.productIds = [];
    const { connection } = memoryConnection(MemoryStore.seeded(data));
    const destination = {
      destinationFields: {
        coupons: {
          unsupported: {
            allowedEmails: 'No e-mail limits here.',
            startsAt: 'No start dates here.',
            usageCount: 'Counted anew.',
          },
        },
      },
    };
    const source = transformedSource(connection, {}, destination);
    const pages = [];
    for await (const page of source.read('coupons', null)) pages.push(page);
    const read = pages.flatMap((p) => p.records);
    const enabled = Object.fromEntries(read.map((c) => [c.id, c.enabled]));
    // Only the enabled coupon with a limit that would be lost changes; a past start limits nothing.
    expect(enabled).toEqual({
      [staff.id]: false,
      [open.id]: true,
      [off.id]: false,
      [started.id]: true,
    });
    expect(pages.flatMap((p) => p.losses ?? [])).toEqual([
      {
        sourceId: staff.id,
        field: 'enabled',
        reason:
          'Arrives switched off: the destination cannot hold its e-mail limit, so there it would apply to more orders than in your store. Check it before you switch it on.',
      },
    ]);
    expect((await source.readByIds?.('coupons', [staff.id]))?.[0]?.enabled).toBe(false);
    // A destination that holds every limit gets every coupon as it is.
    expect(transformedSource(connection, {}, { destinationFields: {} })).toBe(connection);
  });
});

describe('the options line of the report', () => {
  it('names every option once any differs from its default, and says nothing for the defaults', () => {
    expect(optionNotes(optionsOf({}))).toEqual([]);
    expect(optionNotes(optionsOf({ keepSlugs: false, notifyCustomers: true }))).toEqual([
      'Options you chose: Create 301 redirects from the old addresses: yes; Keep order numbers: yes; Keep product and category URL slugs: no; Notify customers: yes.',
    ]);
  });
});
