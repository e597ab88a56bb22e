import { describe, expect, it } from 'vitest';
import { generateSampleStore, samplePng, sandboxCounts } from './sample-store.ts';

describe('sample store', () => {
  it('has the sandbox counts and is the same for the same seed', () => {
    const a = generateSampleStore();
    expect(a.products).toHaveLength(sandboxCounts.products);
    expect(a.customers).toHaveLength(sandboxCounts.customers);
    expect(a.orders).toHaveLength(sandboxCounts.orders);
    expect(generateSampleStore()).toEqual(a);
    expect(generateSampleStore({ seed: 7 }).products[0]).not.toEqual(a.products[0]);
  });

  it('keeps references, SKUs and slugs consistent', () => {
    const store = generateSampleStore({ products: 400, customers: 100, orders: 200 });
    const categoryKeys = new Set(store.categories.map((c) => c.key));
    const productKeys = new Set(store.products.map((p) => p.key));
    const customerKeys = new Set(store.customers.map((c) => c.key));
    const skus = store.products.flatMap((p) => p.variants.map((v) => v.sku));
    expect(new Set(skus).size).toBe(skus.length);
    expect(new Set(store.products.map((p) => p.slug)).size).toBe(store.products.length);
    for (const c of store.categories)
      if (c.parentKey) expect(categoryKeys.has(c.parentKey)).toBe(true);
    for (const p of store.products) {
      p.categoryKeys.forEach((k) => expect(categoryKeys.has(k)).toBe(true));
      const combos = p.options.reduce((n, o) => n * o.values.length, 1);
      expect(p.variants).toHaveLength(combos);
    }
    for (const o of store.orders) {
      expect(o.lines.length).toBeGreaterThan(0);
      o.lines.forEach((l) => expect(productKeys.has(l.productKey)).toBe(true));
      if (o.customerKey) expect(customerKeys.has(o.customerKey)).toBe(true);
    }
    expect(store.products.some((p) => p.options.length > 0)).toBe(true);
    expect(store.products.some((p) => p.options.length === 0)).toBe(true);
  });

  it('serves a valid PNG', () => {
    const png = samplePng('/media/a.png');
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(png.length).toBeGreaterThan(50);
  });
});
