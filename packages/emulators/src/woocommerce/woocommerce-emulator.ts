import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  generateSampleStore,
  sandboxCounts,
  type SampleStoreOptions,
} from '../framework/sample-store.ts';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../framework/server.ts';
import { WooApi } from './api.ts';
import { WooAuthenticator } from './auth.ts';
import { seedFromWooSamples } from './sample-csv.ts';
import { seedFromSample } from './seed.ts';
import { WooStore, type SentEmail } from './shop.ts';
import type { ImageFetcher } from './store.ts';

/**
 * A stateful WooCommerce 11 store speaking wc/v3 under /wp-json/wc/v3 on 127.0.0.1, for tests,
 * benchmarks and the sandbox. It is plain http, so like a real store it only accepts OAuth 1.0a
 * signed requests (see auth.ts). Product images are served from the store itself.
 */

export interface WooCommerceEmulatorOptions extends Omit<EmulatorOptions, 'seed'> {
  /** Sample store counts (default: the sandbox counts), WooCommerce's own sample CSV, or nothing. */
  seed?: SampleStoreOptions | 'woocommerce-samples' | 'empty';
  /** Seed of the fault dice (EmulatorOptions.seed; `seed` here seeds the data). */
  faultSeed?: number;
  consumerKey?: string;
  consumerSecret?: string;
  /** The emulator only serves plain http; a real store behind TLS would accept Basic auth. */
  https?: false;
  siteTitle?: string;
  /** Store units (WooCommerce's install defaults are kg and cm). */
  weightUnit?: 'kg' | 'g' | 'lbs' | 'oz';
  dimensionUnit?: 'm' | 'cm' | 'mm' | 'in' | 'yd';
  /** The woocommerce_rest_batch_items_limit filter (WooCommerce's default is 100). */
  batchItemsLimit?: number;
  /** How the store downloads images given by URL; by default only from 127.0.0.1/localhost. */
  fetchImage?: ImageFetcher;
}

export interface WooCommerceStoreCounts {
  products: number;
  variations: number;
  categories: number;
  tags: number;
  brands: number;
  customers: number;
  orders: number;
  attachments: number;
}

export interface RunningWooCommerceEmulator extends RunningEmulator {
  consumerKey: string;
  consumerSecret: string;
  /** Base of the REST API, e.g. http://127.0.0.1:4312/wp-json/wc/v3 */
  apiUrl: string;
  store: WooStore & { counts(): WooCommerceStoreCounts; outbox: SentEmail[] };
}

export const defaultConsumerKey = 'ck_0a1b2c3d4e5f60718293a4b5c6d7e8f901234567';
export const defaultConsumerSecret = 'cs_fedcba98765432100123456789abcdef01234567';

const sampleCsvPath = resolve(import.meta.dirname, 'sample-data/sample_products.csv');

/** Downloads an image the way wp_safe_remote_get would, limited to this machine. */
export const loopbackImageFetcher: ImageFetcher = async (url) => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('A valid URL was not provided.');
  }
  if (!['127.0.0.1', 'localhost'].includes(parsed.hostname) || !/^https?:$/.test(parsed.protocol))
    throw new Error('A valid URL was not provided.');
  const response = await fetch(parsed, { signal: AbortSignal.timeout(10_000), redirect: 'follow' });
  if (!response.ok) throw new Error(response.statusText || `HTTP ${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  const contentType = response.headers.get('content-type') ?? '';
  const looksLikeImage =
    contentType.startsWith('image/') ||
    bytes.subarray(1, 4).toString('ascii') === 'PNG' ||
    (bytes[0] === 0xff && bytes[1] === 0xd8);
  if (!looksLikeImage)
    throw new Error('Sorry, this file type is not permitted for security reasons.');
  return { bytes, contentType: contentType.startsWith('image/') ? contentType : 'image/png' };
};

export async function startWooCommerceEmulator(
  options: WooCommerceEmulatorOptions = {},
): Promise<RunningWooCommerceEmulator> {
  const consumerKey = options.consumerKey ?? defaultConsumerKey;
  const consumerSecret = options.consumerSecret ?? defaultConsumerSecret;
  const store = new WooStore(
    {
      currency: 'USD',
      weightUnit: options.weightUnit ?? 'kg',
      dimensionUnit: options.dimensionUnit ?? 'cm',
      siteTitle: options.siteTitle ?? 'Replatform Sandbox (WooCommerce)',
    },
    options.fetchImage ?? loopbackImageFetcher,
  );
  const seed = options.seed ?? {};
  if (seed === 'woocommerce-samples')
    await seedFromWooSamples(store, readFileSync(sampleCsvPath, 'utf8'));
  else if (seed !== 'empty')
    await seedFromSample(store, generateSampleStore({ ...sandboxCounts, ...seed }));

  const api = new WooApi(store, new WooAuthenticator(consumerKey, consumerSecret));
  if (options.batchItemsLimit !== undefined) api.batchLimit = options.batchItemsLimit;
  const running = await startEmulator((request) => api.handle(request), {
    ...options,
    seed: options.faultSeed,
  });
  api.home = running.url;
  const counts = (): WooCommerceStoreCounts => ({
    products: [...store.products.values()].filter((p) => p.status !== 'trash').length,
    variations: store.variations.size,
    categories: store.termsOf('product_cat').length,
    tags: store.termsOf('product_tag').length,
    brands: store.termsOf('product_brand').length,
    customers: store.customers.size,
    orders: [...store.orders.values()].filter((o) => o.status !== 'trash').length,
    attachments: store.attachments.size,
  });
  return {
    ...running,
    consumerKey,
    consumerSecret,
    apiUrl: `${running.url}/wp-json/wc/v3`,
    store: Object.assign(store, { counts }),
  };
}
