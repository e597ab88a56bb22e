import { describe, expect, it } from 'vitest';
import { order, product } from './test-records.ts';
import { taxClassResolver, withStoreTaxClasses, withTaxClassNotes } from './tax-classes.ts';

const store = taxClassResolver({
  values: [
    { value: '', label: 'Standard rate' },
    { value: 'reduced-rate', label: 'Reduced rate' },
    { value: 'zero-rate', label: 'Zero rate' },
  ],
  createsMissing: false,
});

describe('tax classes written to WooCommerce', () => {
  it('are the store’s own: a slug as it is, a name or another spelling as its slug, any other as the standard rate', () => {
    expect(store.resolve('')).toEqual({ taxClass: '' });
    expect(store.resolve('reduced-rate')).toEqual({ taxClass: 'reduced-rate' });
    expect(store.resolve('Zero Rate').taxClass).toBe('zero-rate');
    expect(store.resolve('REDUCED_RATE').taxClass).toBe('reduced-rate');
    expect(store.resolve('standard')).toMatchObject({ taxClass: '' });
    const missing = store.resolve('Luxury goods');
    expect(missing.taxClass).toBe('');
    expect(missing.note).toMatch(/WooCommerce has no tax class 'Luxury goods'.*standard rate/);
  });

  it('change only records with a class the store lacks, and name the change on each', () => {
    const kept = product('1');
    const other = { ...product('2'), taxClass: 'Luxury goods' };
    const orderWithFee = order('3', '1');
    const odd = {
      ...orderWithFee,
      lines: orderWithFee.lines.map((l) => ({ ...l, taxClass: 'Reduced Rate' })),
    };
    const products = withStoreTaxClasses('products', [kept, other], store);
    expect(products.records[0]).toBe(kept);
    expect(products.records[1]?.taxClass).toBe('');
    expect(products.notes.get('2')?.[0]).toMatch(/\(tax class\)$/);
    const orders = withStoreTaxClasses('orders', [odd], store);
    expect(orders.records[0]?.lines.every((l) => l.taxClass === 'reduced-rate')).toBe(true);
    expect(orders.notes.get('3')).toEqual([
      "The tax class 'Reduced Rate' is the store's 'reduced-rate', written by its slug (lines tax class)",
    ]);
    const customers = withStoreTaxClasses('customers', [], store);
    expect(customers.notes.size).toBe(0);
    expect(
      withTaxClassNotes(
        [
          { sourceId: '2', outcome: 'created', destinationId: '9' },
          { sourceId: '1', outcome: 'created', destinationId: '8' },
        ],
        products.notes,
      ).map((o) => o.warnings),
    ).toEqual([products.notes.get('2'), undefined]);
  });
});
