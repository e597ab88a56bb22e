import type { SampleStore } from '@replatform/emulators/framework/sample-store';

/**
 * The fewest requests BigCommerce's API needs to import a store into an empty one, from its
 * published limits (platform-specs/bigcommerce, limits.json `bigcommerce.batch`), so a run's time
 * can be set against what the rate limit allows at best:
 * - products: one POST /v3/catalog/products each (no batch create; variants and images go inline);
 * - customers: POST /v3/customers takes 10 at a time;
 * - orders: one POST /v2/orders each (the source-id marker goes inline, in external_order_id);
 * - categories: one POST /v3/catalog/trees/categories per tree level (a child needs its parent's
 *   id), and one POST /v3/catalog/brands per brand the products name;
 * - the source-id markers of categories, products and customers, which let a resumed run find
 *   what was created before a crash: metafields written 50 per POST (as the connector sends them);
 * - unavoidable reads: the store's settings (GET /v2/store: units, currency), the category tree,
 *   the brand list, and each marker index once (an empty store answers in one page).
 * Lookups a resumable importer also makes (a record created just before a crash is looked up by
 * its natural key) are not counted: on an empty store an ideal importer would not need them.
 */
export interface RequestBound {
  requests: number;
  explanation: string;
}

const MARKERS_PER_REQUEST = 50;
const CUSTOMERS_PER_REQUEST = 10;

export function bigCommerceRequestBound(
  store: Pick<SampleStore, 'categories' | 'products' | 'customers' | 'orders'>,
): RequestBound {
  const parts: [number, string][] = [];
  const add = (n: number, what: string) => {
    if (n > 0) parts.push([n, what]);
  };
  const products = store.products.length;
  const customers = store.customers.length;
  const orders = store.orders.length;
  // Every category is migrated with the products (the whole tree, used or not).
  const categories = products ? store.categories : [];
  const byKey = new Map(categories.map((c) => [c.key, c]));
  const depth = (key: string | null, seen = 0): number => {
    const c = key ? byKey.get(key) : undefined;
    return c && seen < 64 ? 1 + depth(c.parentKey, seen + 1) : 0;
  };
  const levels = categories.reduce((n, c) => Math.max(n, depth(c.key)), 0);
  const brands = new Set(store.products.map((p) => p.vendor).filter(Boolean)).size;

  add(products, `${products} product creates`);
  add(Math.ceil(customers / CUSTOMERS_PER_REQUEST), `${customers} customers 10 per create`);
  add(orders, `${orders} order creates`);
  add(levels, `${categories.length} categories in ${levels} tree levels`);
  add(brands, `${brands} brands`);
  const marked = categories.length + products + customers;
  add(
    Math.ceil(categories.length / MARKERS_PER_REQUEST) +
      Math.ceil(products / MARKERS_PER_REQUEST) +
      Math.ceil(customers / MARKERS_PER_REQUEST),
    `${marked} source-id markers 50 per request`,
  );
  const markerIndexes = [categories.length, products, customers].filter((n) => n > 0).length;
  add(
    1 + (categories.length ? 1 : 0) + (brands ? 1 : 0) + markerIndexes,
    'reads of the store settings, category tree, brand list and marker indexes',
  );
  return {
    requests: parts.reduce((n, [count]) => n + count, 0),
    explanation: parts.map(([count, what]) => `${count} for ${what}`).join(' + '),
  };
}
