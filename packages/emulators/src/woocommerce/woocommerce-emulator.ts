import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  generateSampleStore,
  sandboxCounts,
  type SampleStoreOptions,
} from '../framework/sample-store.ts';
import { STATUS_CODES } from 'node:http';
import { get as httpsGet } from 'node:https';
import { emulatorCertificates } from '../framework/self-signed.ts';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../framework/server.ts';
import { WooApi } from './api.ts';
import { WooAuthenticator, type ApiKey, type KeyPermissions } from './auth.ts';
import { seedFromWooSamples } from './sample-csv.ts';
import { seedFromSample } from './seed.ts';
import { WooStore, type SentEmail } from './shop.ts';
import type { ImageFetcher } from './store.ts';

/**
 * A stateful WooCommerce 11 store speaking wc/v3 under /wp-json/wc/v3 on 127.0.0.1, for tests,
 * benchmarks and the sandbox. Over plain http (the default) it accepts, like a real store, only
 * OAuth 1.0a signed requests; with `https: true` it serves TLS with a certificate made at start
 * and accepts HTTP Basic and query-string keys as well (see auth.ts). Product images are served
 * from the store itself.
 */

export interface WooCommerceEmulatorOptions extends Omit<EmulatorOptions, 'seed'> {
  /** Sample store counts (default: the sandbox counts), WooCommerce's own sample CSV, or nothing. */
  seed?: SampleStoreOptions | 'woocommerce-samples' | 'empty';
  /** Seed of the fault dice (EmulatorOptions.seed; `seed` here seeds the data). */
  faultSeed?: number;
  consumerKey?: string;
  consumerSecret?: string;
  /** Permissions of the key made from consumerKey/consumerSecret. Default 'read_write'. */
  keyPermissions?: KeyPermissions;
  /** More keys on the same store (e.g. a read-only one next to the read/write one). */
  extraKeys?: readonly ApiKey[];
  /** Serve https with a self-signed certificate (RunningEmulator.certificate) made at start. */
  https?: boolean;
  siteTitle?: string;
  /** Store units (WooCommerce's install defaults are kg and cm). */
  weightUnit?: 'kg' | 'g' | 'lbs' | 'oz';
  dimensionUnit?: 'm' | 'cm' | 'mm' | 'in' | 'yd';
  /**
   * The WooCommerce version the store reports (default 11.0.1). Routes and arguments stay those of
   * 11.0.1; only the differences the connectors depend on follow it: before 11 a category's
   * menu_order is writable.
   */
  version?: string;
  /** The woocommerce_rest_batch_items_limit filter (WooCommerce's default is 100). */
  batchItemsLimit?: number;
  /** How the store downloads images given by URL; by default only from 127.0.0.1/localhost. */
  fetchImage?: ImageFetcher;
  /**
   * The administrator's application password for wp/v2 (pages, posts, media), as WordPress shows
   * it; default defaultApplicationPassword. The user name is 'admin'.
   */
  applicationPassword?: string;
}

export interface WooCommerceStoreCounts {
  products: number;
  variations: number;
  categories: number;
  tags: number;
  brands: number;
  /** The merchant's coupons: not the importer's own records (see merchantCoupons). */
  coupons: number;
  customers: number;
  orders: number;
  /** Product reviews in every status (held, spam and binned ones too). */
  reviews: number;
  /** WordPress pages and blog posts in every status but the bin. */
  pages: number;
  posts: number;
  attachments: number;
}

export interface RunningWooCommerceEmulator extends RunningEmulator {
  consumerKey: string;
  consumerSecret: string;
  /** Base of the REST API, e.g. http://127.0.0.1:4312/wp-json/wc/v3 */
  apiUrl: string;
  /** The WordPress user and application password that open wp/v2. */
  wordpressUser: string;
  wordpressApplicationPassword: string;
  store: WooStore & { counts(): WooCommerceStoreCounts; outbox: SentEmail[] };
}

export const defaultConsumerKey = 'ck_0a1b2c3d4e5f60718293a4b5c6d7e8f901234567';
export const defaultConsumerSecret = 'cs_fedcba98765432100123456789abcdef01234567';
/** The emulator administrator's application password (WordPress shows it in groups of four). */
export const defaultApplicationPassword = 'Abcd EFGH ijkl MNOP qrst 1234';

const sampleCsvPath = resolve(import.meta.dirname, 'sample-data/sample_products.csv');

/** GET over https trusting the emulators' own certificates, as a real store trusts real CAs. */
function httpsDownload(url: URL): Promise<{ status: number; contentType: string; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = httpsGet(
      url,
      { ca: [...emulatorCertificates()], timeout: 10_000 },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers['content-type'] ?? ''),
            bytes: Buffer.concat(chunks),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
  });
}

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
  const { status, contentType, bytes } =
    parsed.protocol === 'https:'
      ? await httpsDownload(parsed)
      : await fetch(parsed, { signal: AbortSignal.timeout(10_000), redirect: 'follow' }).then(
          async (r) => ({
            status: r.status,
            contentType: r.headers.get('content-type') ?? '',
            bytes: Buffer.from(await r.arrayBuffer()),
          }),
        );
  if (status < 200 || status >= 300) throw new Error(STATUS_CODES[status] ?? `HTTP ${status}`);
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
      version: options.version ?? '11.0.1',
    },
    options.fetchImage ?? loopbackImageFetcher,
  );
  const seed = options.seed ?? {};
  if (seed === 'woocommerce-samples')
    await seedFromWooSamples(store, readFileSync(sampleCsvPath, 'utf8'));
  else if (seed !== 'empty')
    await seedFromSample(store, generateSampleStore({ ...sandboxCounts, ...seed }));

  const applicationPassword = options.applicationPassword ?? defaultApplicationPassword;
  store.wp.admin.applicationPasswords.push(applicationPassword.replace(/\s+/g, ''));

  const keys: ApiKey[] = [
    { consumerKey, consumerSecret, permissions: options.keyPermissions ?? 'read_write' },
    ...(options.extraKeys ?? []),
  ];
  const https = options.https ?? false;
  const api = new WooApi(store, new WooAuthenticator(keys), https);
  if (options.batchItemsLimit !== undefined) api.batchLimit = options.batchItemsLimit;
  const running = await startEmulator((request) => api.handle(request), {
    ...options,
    seed: options.faultSeed,
    tls: https,
  });
  api.home = running.url;
  const counts = (): WooCommerceStoreCounts => ({
    products: [...store.products.values()].filter((p) => p.status !== 'trash').length,
    variations: store.variations.size,
    categories: store.termsOf('product_cat').length,
    tags: store.termsOf('product_tag').length,
    brands: store.termsOf('product_brand').length,
    coupons: store.merchantCoupons().length,
    customers: store.customers.size,
    orders: [...store.orders.values()].filter((o) => o.status !== 'trash').length,
    reviews: store.reviews.list({ status: 'any' }).length,
    pages: store.wp.count('page'),
    posts: store.wp.count('post'),
    attachments: store.attachments.size,
  });
  return {
    ...running,
    consumerKey,
    consumerSecret,
    apiUrl: `${running.url}/wp-json/wc/v3`,
    wordpressUser: store.wp.admin.username,
    wordpressApplicationPassword: applicationPassword,
    store: Object.assign(store, { counts }),
  };
}
