import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { EntityType } from '@replatform/canonical/entities';
import { createHttpClient, type HttpClient } from '../../kit/http/http-client.ts';
import type { WooCommerceCredentials } from '../credentials.ts';

/**
 * Real WooCommerce stores for the tests that run against them (the WooCommerce test-store kit,
 * `store.sh`, started by .ci/run). Like the PostgreSQL suites with TEST_DATABASE_URL, the suites
 * skip with a printed reason when these are not set:
 *
 * - TEST_WOO_SOURCE_STORES: store.json files of the source stores, comma-separated (WooCommerce's
 *   own sample data, and the hard data of scripts/seed-woocommerce-store.ts). Only read.
 * - TEST_WOO_CONFORMANCE_STORE: store.json of an empty store the connector's conformance suite
 *   writes into (reset to empty before each use).
 * - TEST_WOO_MIGRATION_STORE: store.json of another empty store, for the server's migration
 *   suite, so the two suites can run at the same time.
 * - WOO_STORE_KIT: the kit's folder (its `store.sh reset` empties a destination in a second).
 *
 * Resetting a store and counting its records in its database need the kit's local MariaDB
 * socket and root, as the kit itself does.
 */

/** A store.json as the kit writes it. */
export interface StoreFile {
  name: string;
  url_https: string;
  consumer_key: string;
  consumer_secret: string;
  ca_cert: string;
  db_socket: string;
  db_name: string;
  dir: string;
  sample_data: boolean;
  versions?: { wordpress?: string; woocommerce?: string };
}

export interface RealStore {
  /** The store's name in the kit ('src', 'hard'). */
  name: string;
  /** Its https address (the kit's local CA signs its certificate). */
  url: string;
  credentials: WooCommerceCredentials;
  /** The CA certificate (PEM) to trust for `url`. */
  ca: string;
  /** Whether it was started with WooCommerce's sample data. */
  sampleData: boolean;
  /** The store.json it was described by. */
  file: string;
  dir: string;
  dbSocket: string;
  dbName: string;
}

export type RealStoreSetup =
  | { ready: true; sources: RealStore[]; destination: RealStore; kit: string }
  | { ready: false; reason: string };

const run = promisify(execFile);

/** A store of the kit as its store.json describes it. */
export function loadStore(file: string): RealStore {
  const json = JSON.parse(readFileSync(file, 'utf8')) as StoreFile;
  return {
    name: json.name,
    url: json.url_https.replace(/\/+$/, ''),
    credentials: {
      storeUrl: json.url_https,
      consumerKey: json.consumer_key,
      consumerSecret: json.consumer_secret,
    },
    ca: readFileSync(json.ca_cert, 'utf8'),
    sampleData: json.sample_data,
    file,
    dir: json.dir,
    dbSocket: json.db_socket,
    dbName: json.db_name,
  };
}

/**
 * The source stores and the empty destination a suite works with, or why it cannot run.
 * `destinationVariable` names the variable holding that suite's own destination.
 */
export function realStoreSetup(
  destinationVariable: 'TEST_WOO_CONFORMANCE_STORE' | 'TEST_WOO_MIGRATION_STORE',
  env: NodeJS.ProcessEnv = process.env,
): RealStoreSetup {
  const sources = (env.TEST_WOO_SOURCE_STORES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const destination = env[destinationVariable]?.trim();
  const kit = env.WOO_STORE_KIT?.trim();
  const missing = [
    ...(sources.length === 0 ? ['TEST_WOO_SOURCE_STORES'] : []),
    ...(!destination ? [destinationVariable] : []),
    ...(!kit ? ['WOO_STORE_KIT'] : []),
  ];
  if (missing.length > 0)
    return {
      ready: false,
      reason: `no real WooCommerce store configured (${missing.join(', ')} not set; .ci/run starts the stores and sets them)`,
    };
  const files = [...sources, destination ?? ''];
  const absent = files.filter((f) => !existsSync(f));
  if (absent.length > 0)
    return { ready: false, reason: `store description not found: ${absent.join(', ')}` };
  if (!existsSync(join(kit ?? '', 'store.sh')))
    return { ready: false, reason: `WOO_STORE_KIT has no store.sh: ${kit}` };
  return {
    ready: true,
    sources: sources.map(loadStore),
    destination: loadStore(destination ?? ''),
    kit: kit ?? '',
  };
}

/** Puts a store back to the state right after its first start (for a destination: empty). */
export async function resetStore(kit: string, store: RealStore): Promise<void> {
  await run(join(kit, 'store.sh'), ['reset', '--name', store.name, '--dir', store.dir], {
    timeout: 120_000,
  });
}

/** The production client, admitting exactly these stores' origins and trusting their CA. */
export function realStoreHttp(stores: readonly RealStore[], timeoutMs = 120_000): HttpClient {
  return createHttpClient({
    allowlist: stores.map((s) => new URL(s.url).origin),
    ca: [...new Set(stores.map((s) => s.ca))],
    timeoutMs,
  });
}

async function sql(store: RealStore, query: string): Promise<string> {
  const { stdout } = await run(
    'mariadb',
    ['--no-defaults', '-uroot', '-S', store.dbSocket, '-N', '-B', '-e', query, store.dbName],
    { timeout: 60_000 },
  );
  return stdout.trim();
}

/**
 * How many records of an entity the store holds, counted in its database rather than through
 * the REST API the connector counts with: what the connector reads (the placeholder category
 * "Uncategorized" is not a merchant's category; customers are accounts with the customer role;
 * nothing in the bin or auto-drafts).
 */
export async function storedCount(
  store: RealStore,
  entity: EntityType,
  /** Counts what is in the bin too (products, coupons, orders): the store still holds it. */
  options: { bin?: boolean } = {},
): Promise<number> {
  const queries: Record<EntityType, string> = {
    categories:
      "SELECT COUNT(*) FROM wp_term_taxonomy WHERE taxonomy = 'product_cat' AND term_id <> " +
      "COALESCE((SELECT option_value FROM wp_options WHERE option_name = 'default_product_cat'), 0)",
    brands: "SELECT COUNT(*) FROM wp_term_taxonomy WHERE taxonomy = 'product_brand'",
    products:
      "SELECT COUNT(*) FROM wp_posts WHERE post_type = 'product' AND post_status NOT IN ('trash', 'auto-draft')",
    // Not the importer's own coupons: its record of switched-off e-mails, temporary coupons.
    coupons:
      "SELECT COUNT(*) FROM wp_posts p WHERE p.post_type = 'shop_coupon' AND p.post_status NOT IN ('trash', 'auto-draft') " +
      "AND p.post_title <> 'replatform-import-email-switch' AND NOT EXISTS (SELECT 1 FROM wp_postmeta m " +
      "WHERE m.post_id = p.ID AND m.meta_key = '_replatform_temporary_coupon')",
    customers:
      "SELECT COUNT(*) FROM wp_usermeta WHERE meta_key = 'wp_capabilities' AND meta_value LIKE '%\"customer\"%'",
    orders:
      "SELECT COUNT(*) FROM wp_wc_orders WHERE type = 'shop_order' AND status NOT IN ('trash', 'auto-draft', 'wc-checkout-draft')",
    // Reviews in every status the REST API lists (approved, held, spam, the bin), not those of
    // products in the bin (post-trashed).
    reviews:
      "SELECT COUNT(*) FROM wp_comments WHERE comment_type = 'review' AND comment_approved IN ('0', '1', 'spam', 'trash')",
    // WordPress pages and posts in the statuses wp/v2 lists with status=publish,future,draft,pending,private.
    pages:
      "SELECT COUNT(*) FROM wp_posts WHERE post_type = 'page' AND post_status IN ('publish', 'future', 'draft', 'pending', 'private')",
    posts:
      "SELECT COUNT(*) FROM wp_posts WHERE post_type = 'post' AND post_status IN ('publish', 'future', 'draft', 'pending', 'private')",
  };
  const query = options.bin ? queries[entity].replace("'trash', ", '') : queries[entity];
  return Number(await sql(store, query));
}

/** Media library items (attachments) the store holds. */
export async function storedMediaCount(store: RealStore): Promise<number> {
  return Number(await sql(store, "SELECT COUNT(*) FROM wp_posts WHERE post_type = 'attachment'"));
}
