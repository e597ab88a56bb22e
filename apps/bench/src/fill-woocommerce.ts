import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { png } from '@replatform/connectors/woocommerce/real-store/test-image';
import { WooRest } from '@replatform/connectors/woocommerce/real-store/store-rest';
import { loadKitStore, sql, type KitStore } from './real-woocommerce.ts';

/**
 * Fills a real WooCommerce store (the test-store kit's) with the store of issue 20, through the
 * REST API's batch endpoints, 100 records per request:
 * - 1,000 simple products, SKU `BENCH-S-0001`…; the first 300 share 50 images (products 1–50
 *   bring them, products 51–300 point at the same media items), the other 700 have none;
 * - 100 variable products (`BENCH-V-001`…) over two store-wide attributes, Colour (3 terms) and
 *   Size (2 terms), with their 6 variations each (600);
 * - 1,000 customers (`bench-customer-0001@example.com`…) with billing and shipping addresses;
 * - 1,000 orders, one per customer, with a simple product's line and a variation's line,
 *   billing, shipping and a flat-rate shipping line.
 * The images are PNG files made here and served on 127.0.0.1 while the store downloads them
 * into its own uploads, so the store serves them itself afterwards.
 *
 * Idempotent: a store that already holds the whole set is left alone; a store holding part of
 * it (an interrupted fill) is refused, to be reset and filled again.
 *
 * Runnable alone: node apps/bench/src/fill-woocommerce.ts <store.json>
 */

export const benchStoreShape = {
  simpleProducts: 1_000,
  productsWithSharedImages: 300,
  sharedImages: 50,
  variableProducts: 100,
  variationsPerProduct: 6,
  customers: 1_000,
  orders: 1_000,
} as const;

const colours = ['Red', 'Green', 'Blue'] as const;
const sizes = ['S', 'L'] as const;
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const chunks = <T>(items: readonly T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** Serves the shared images on 127.0.0.1 (the kit's stores may fetch from there). */
async function imageServer(): Promise<{ server: Server; url: (i: number) => string }> {
  const files = new Map<string, Buffer>();
  for (let i = 0; i < benchStoreShape.sharedImages; i += 1)
    files.set(
      `bench-image-${pad(i + 1, 2)}.png`,
      png(120 + i * 2, 120, [(i * 53) % 256, (i * 97 + 80) % 256, (i * 29 + 160) % 256], 6),
    );
  const server = createServer((request, response) => {
    const file = files.get(new URL(request.url ?? '/', 'http://127.0.0.1').pathname.slice(1));
    if (!file) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'image/png', 'content-length': file.length });
    response.end(file);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: (i) => `http://127.0.0.1:${port}/bench-image-${pad(i + 1, 2)}.png`,
  };
}

const address = (n: number, kind: 'billing' | 'shipping') => ({
  first_name: `Kundin${n}`,
  last_name: `Bench ${pad(n, 4)}`,
  address_1: `${100 + (n % 900)} ${kind === 'billing' ? 'Market' : 'Harbour'} Street`,
  city: ['Sacramento', 'Fresno', 'San Diego', 'Oakland'][n % 4] ?? 'Sacramento',
  state: 'CA',
  postcode: `9${pad(n % 10_000, 4)}`,
  country: 'US',
  ...(kind === 'billing'
    ? { email: `bench-customer-${pad(n, 4)}@example.com`, phone: `+1 555 ${pad(n, 4)}` }
    : {}),
});

export interface FillCounts {
  products: number;
  variations: number;
  customers: number;
  orders: number;
}

/** What of the bench set the store holds, counted in its database. */
export async function benchCounts(store: KitStore): Promise<FillCounts> {
  const [products, variations, customers, orders] = await Promise.all([
    sql(
      store,
      "SELECT COUNT(*) FROM wp_wc_product_meta_lookup l JOIN wp_posts p ON p.ID = l.product_id WHERE l.sku LIKE 'BENCH-%' AND p.post_type = 'product' AND p.post_status NOT IN ('trash', 'auto-draft')",
    ),
    sql(
      store,
      "SELECT COUNT(*) FROM wp_wc_product_meta_lookup l JOIN wp_posts p ON p.ID = l.product_id WHERE l.sku LIKE 'BENCH-%' AND p.post_type = 'product_variation' AND p.post_status NOT IN ('trash', 'auto-draft')",
    ),
    sql(store, "SELECT COUNT(*) FROM wp_users WHERE user_email LIKE 'bench-customer-%'"),
    sql(
      store,
      "SELECT COUNT(*) FROM wp_wc_orders WHERE type = 'shop_order' AND billing_email LIKE 'bench-customer-%'",
    ),
  ]);
  return {
    products: Number(products),
    variations: Number(variations),
    customers: Number(customers),
    orders: Number(orders),
  };
}

export const fullFill: FillCounts = {
  products: benchStoreShape.simpleProducts + benchStoreShape.variableProducts,
  variations: benchStoreShape.variableProducts * benchStoreShape.variationsPerProduct,
  customers: benchStoreShape.customers,
  orders: benchStoreShape.orders,
};

/** Creates a store-wide attribute with its terms, or finds it; answers its id. */
async function attribute(rest: WooRest, name: string, terms: readonly string[]): Promise<number> {
  const existing = (await rest.get<{ id: number; name: string }[]>('products/attributes')).find(
    (a) => a.name === name,
  );
  const id =
    existing?.id ??
    (await rest.post<{ id: number }>('products/attributes', { name, has_archives: false })).id;
  const have = new Set(
    (await rest.get<{ name: string }[]>(`products/attributes/${id}/terms?per_page=100`)).map(
      (t) => t.name,
    ),
  );
  const missing = terms.filter((t) => !have.has(t));
  if (missing.length)
    await rest.batch(`products/attributes/${id}/terms/batch`, {
      create: missing.map((name) => ({ name })),
    });
  return id;
}

async function fillProducts(rest: WooRest, imageUrl: (i: number) => string) {
  const shape = benchStoreShape;
  const colourId = await attribute(rest, 'Colour', colours);
  const sizeId = await attribute(rest, 'Size', sizes);
  const simple = (n: number) => ({
    name: `Bench product ${pad(n, 4)}`,
    type: 'simple',
    status: 'publish',
    sku: `BENCH-S-${pad(n, 4)}`,
    regular_price: `${5 + (n % 50)}.${pad(n % 100, 2)}`,
    description: `A product of the benchmark store, number ${n}.`,
    short_description: `Bench product ${n}.`,
    manage_stock: true,
    stock_quantity: 100 + (n % 37),
    weight: `${(n % 9) + 1}`,
  });
  // Products 1–50 bring the 50 images; the store downloads each once into its media library.
  const imageIds: number[] = [];
  const firstBatch = Array.from({ length: shape.sharedImages }, (_, i) => ({
    ...simple(i + 1),
    images: [{ src: imageUrl(i), name: `Bench image ${i + 1}`, alt: `Bench image ${i + 1}` }],
  }));
  const made = await rest.batch('products/batch', { create: firstBatch });
  for (const product of made) {
    const image = (product.images as { id: number }[] | undefined)?.[0];
    if (!image) throw new Error(`product ${String(product.sku)} was created without its image`);
    imageIds.push(image.id);
  }
  const rest1000 = Array.from(
    { length: shape.simpleProducts - shape.sharedImages },
    (_, i) => i + shape.sharedImages + 1,
  ).map((n) =>
    n <= shape.productsWithSharedImages
      ? { ...simple(n), images: [{ id: imageIds[(n - 1) % shape.sharedImages] }] }
      : simple(n),
  );
  for (const batch of chunks(rest1000, 100)) await rest.batch('products/batch', { create: batch });

  const variable = Array.from({ length: shape.variableProducts }, (_, i) => ({
    name: `Bench variable product ${pad(i + 1, 3)}`,
    type: 'variable',
    status: 'publish',
    sku: `BENCH-V-${pad(i + 1, 3)}`,
    description: `A variable product of the benchmark store, number ${i + 1}.`,
    attributes: [
      { id: colourId, variation: true, visible: true, options: [...colours] },
      { id: sizeId, variation: true, visible: true, options: [...sizes] },
    ],
  }));
  const parents: { id: number; sku: string }[] = [];
  for (const batch of chunks(variable, 100))
    for (const p of await rest.batch('products/batch', { create: batch }))
      parents.push({ id: Number(p.id), sku: String(p.sku) });
  for (const [index, parent] of parents.entries()) {
    const variations = colours.flatMap((colour, c) =>
      sizes.map((size, s) => ({
        sku: `${parent.sku}-${colour.toUpperCase()}-${size}`,
        regular_price: `${20 + (index % 30) + c * 2 + s}.00`,
        manage_stock: true,
        stock_quantity: 20 + c * 2 + s,
        attributes: [
          { id: colourId, option: colour },
          { id: sizeId, option: size },
        ],
      })),
    );
    await rest.batch(`products/${parent.id}/variations/batch`, { create: variations });
  }
}

async function fillCustomers(rest: WooRest): Promise<void> {
  const customers = Array.from({ length: benchStoreShape.customers }, (_, i) => {
    const n = i + 1;
    return {
      email: `bench-customer-${pad(n, 4)}@example.com`,
      first_name: `Kundin${n}`,
      last_name: `Bench ${pad(n, 4)}`,
      username: `bench-customer-${pad(n, 4)}`,
      billing: address(n, 'billing'),
      shipping: address(n, n % 3 === 0 ? 'shipping' : 'billing'),
    };
  });
  for (const batch of chunks(customers, 100))
    await rest.batch('customers/batch', { create: batch });
}

async function fillOrders(rest: WooRest): Promise<void> {
  const customers = await rest.all('customers');
  const products = await rest.all('products');
  const simple = products.filter((p) => p.type === 'simple').map((p) => Number(p.id));
  const variable = products.filter((p) => p.type === 'variable');
  const variations = new Map<number, number[]>();
  for (const parent of variable)
    variations.set(Number(parent.id), (parent.variations as number[] | undefined) ?? []);
  if (customers.length < benchStoreShape.customers || simple.length === 0 || !variable.length)
    throw new Error('the products and customers must be filled before the orders');
  const byEmail = new Map(customers.map((c) => [String(c.email), Number(c.id)]));
  const statuses = ['processing', 'completed', 'on-hold', 'completed'] as const;
  const orders = Array.from({ length: benchStoreShape.orders }, (_, i) => {
    const n = i + 1;
    const parent = variable[i % variable.length];
    const parentId = Number(parent?.id);
    const variation = variations.get(parentId)?.[i % benchStoreShape.variationsPerProduct];
    return {
      status: statuses[i % statuses.length],
      customer_id: byEmail.get(`bench-customer-${pad(n, 4)}@example.com`),
      payment_method: 'bacs',
      payment_method_title: 'Direct bank transfer',
      set_paid: false,
      billing: address(n, 'billing'),
      shipping: address(n, n % 3 === 0 ? 'shipping' : 'billing'),
      line_items: [
        { product_id: simple[i % simple.length], quantity: 1 + (i % 3) },
        { product_id: parentId, variation_id: variation, quantity: 1 },
      ],
      shipping_lines: [{ method_id: 'flat_rate', method_title: 'Flat rate', total: '7.00' }],
    };
  });
  for (const batch of chunks(orders, 100)) await rest.batch('orders/batch', { create: batch });
}

/**
 * Fills the store unless it already holds the bench set; answers whether it filled it now.
 * Products and customers are written side by side (two requests at a time), then the orders.
 */
export async function fillWooCommerce(
  store: KitStore,
  say: (line: string) => void = console.log,
): Promise<boolean> {
  const before = await benchCounts(store);
  const keys = Object.keys(fullFill) as (keyof FillCounts)[];
  if (keys.every((k) => before[k] === fullFill[k])) return false;
  if (keys.some((k) => before[k] > 0))
    throw new Error(
      `${store.url} holds part of the bench set (${JSON.stringify(before)}): reset it (store.sh reset) and fill again`,
    );
  const started = performance.now();
  const rest = new WooRest(store);
  const { server, url } = await imageServer();
  try {
    await Promise.all([fillProducts(rest, url), fillCustomers(rest)]);
    say(
      `  products and customers written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    await fillOrders(rest);
  } finally {
    server.close();
    await rest.close();
  }
  const after = await benchCounts(store);
  if (!keys.every((k) => after[k] === fullFill[k]))
    throw new Error(
      `the fill ended with ${JSON.stringify(after)}, not ${JSON.stringify(fullFill)}`,
    );
  say(`  filled ${store.url} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node apps/bench/src/fill-woocommerce.ts <store.json>');
    process.exit(2);
  }
  const store = loadKitStore(file);
  const filled = await fillWooCommerce(store);
  if (!filled) console.log(`${store.url} already holds the bench set`);
}
