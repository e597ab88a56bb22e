import { execFile } from 'node:child_process';
import { existsSync, openSync, readFileSync, readSync, closeSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type {
  RealStore,
  StoreFile,
} from '@replatform/connectors/woocommerce/real-store/real-stores';

/**
 * Real WooCommerce stores of the test-store kit (`store.sh`), as the benchmark's scenario (c) and
 * the fill script use them: described by the kit's store.json, reached over https with the kit's
 * CA, counted in their own database, and their nginx access log read for what a run asked.
 */

/** A store.json whose `dir` may be left out: it is then the folder the file is in. */
type KitStoreFile = Omit<StoreFile, 'dir'> & { dir?: string };

export interface KitStore extends RealStore {
  /** The CA certificate's file (for NODE_EXTRA_CA_CERTS of a process reaching the store). */
  caFile: string;
  httpsPort: number;
  /** The nginx access log of the store. */
  accessLog: string;
}

const run = promisify(execFile);

export function loadKitStore(file: string): KitStore {
  const json = JSON.parse(readFileSync(file, 'utf8')) as KitStoreFile;
  const dir = json.dir ?? dirname(resolve(file));
  const url = json.url_https.replace(/\/+$/, '');
  return {
    name: json.name,
    url,
    credentials: {
      storeUrl: url,
      consumerKey: json.consumer_key,
      consumerSecret: json.consumer_secret,
    },
    ca: readFileSync(json.ca_cert, 'utf8'),
    caFile: json.ca_cert,
    sampleData: json.sample_data,
    file,
    dir,
    dbSocket: json.db_socket,
    dbName: json.db_name,
    httpsPort: Number(new URL(url).port || 443),
    accessLog: join(dir, 'logs', 'nginx-access.log'),
  };
}

/**
 * The kit's folder: WOO_STORE_KIT, or the kit beside the project (`../shared/woocommerce-store`
 * from the project's root), where the kit is kept on the machines the benchmark runs on.
 */
export function kitFolder(env: NodeJS.ProcessEnv = process.env): string {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  return env.WOO_STORE_KIT?.trim() || resolve(root, '..', 'shared', 'woocommerce-store');
}

export function kitScript(kit: string): string | undefined {
  const script = join(kit, 'store.sh');
  return existsSync(script) ? script : undefined;
}

/** Runs `store.sh` with arguments for one store; answers its stdout. */
export async function storeCommand(
  kit: string,
  store: KitStore,
  command: 'start' | 'reset',
): Promise<string> {
  const args = [command, '--name', store.name, '--dir', store.dir];
  if (command === 'start') {
    const http = await httpPortOf(store);
    args.push('--http-port', String(http), '--https-port', String(store.httpsPort));
  }
  // The store's own folder as the kit's root: `start` then links nothing into another root.
  const { stdout } = await run(join(kit, 'store.sh'), args, {
    timeout: 300_000,
    env: { ...process.env, WOO_STORE_ROOT: dirname(store.dir) },
  });
  return stdout;
}

async function httpPortOf(store: KitStore): Promise<number> {
  const json = JSON.parse(readFileSync(store.file, 'utf8')) as { url_http?: string };
  return Number(new URL(json.url_http ?? 'http://127.0.0.1:80').port || 80);
}

/** One SQL query against the store's own MariaDB (its unix socket, as root like the kit). */
export async function sql(store: KitStore, query: string): Promise<string> {
  const { stdout } = await run(
    'mariadb',
    ['--no-defaults', '-uroot', '-S', store.dbSocket, '-N', '-B', '-e', query, store.dbName],
    { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout.trim();
}

/** SKUs held by more than one product or variation (a duplicate a run would have written). */
export async function duplicateSkus(store: KitStore): Promise<string[]> {
  const out = await sql(
    store,
    "SELECT l.sku FROM wp_wc_product_meta_lookup l JOIN wp_posts p ON p.ID = l.product_id WHERE l.sku <> '' AND p.post_status NOT IN ('trash', 'auto-draft') GROUP BY l.sku HAVING COUNT(*) > 1",
  );
  return out ? out.split('\n') : [];
}

/** E-mail addresses held by more than one account (a customer a run wrote twice). */
export async function duplicateEmails(store: KitStore): Promise<string[]> {
  const out = await sql(
    store,
    "SELECT user_email FROM wp_users WHERE user_email <> '' GROUP BY user_email HAVING COUNT(*) > 1",
  );
  return out ? out.split('\n') : [];
}

/** Product variations the store holds. */
export async function storedVariations(store: KitStore): Promise<number> {
  return Number(
    await sql(
      store,
      "SELECT COUNT(*) FROM wp_posts WHERE post_type = 'product_variation' AND post_status NOT IN ('trash', 'auto-draft')",
    ),
  );
}

/** The access log's size now: what a phase asked is what was appended after it. */
export function logOffset(store: KitStore): number {
  return existsSync(store.accessLog) ? statSync(store.accessLog).size : 0;
}

/** The access log's lines between two offsets. */
export function logLines(store: KitStore, from: number, to = logOffset(store)): string[] {
  if (to <= from) return [];
  const fd = openSync(store.accessLog, 'r');
  try {
    const buffer = Buffer.alloc(to - from);
    readSync(fd, buffer, 0, buffer.length, from);
    return buffer.toString('utf8').split('\n').filter(Boolean);
  } finally {
    closeSync(fd);
  }
}

export interface RequestCounts {
  total: number;
  byMethod: Record<string, number>;
  /** Answers with a status (e.g. 499: nginx saw the client give up on the request). */
  byStatus: Record<string, number>;
  /** GET requests that look records up by email, SKU, slug or search text. */
  lookups: number;
  /** Those of them that name a single value (one record each). */
  singleLookups: number;
  /**
   * Reads of the store's own placeholder category (`slug=uncategorized`), once per connection
   * for the store's settings: not a record's lookup, so not among `lookups`.
   */
  storeLookups: number;
  /** POST, PUT, PATCH and DELETE requests. */
  writes: number;
  /** WordPress's requests to itself (wp-cron), left out of the figures above. */
  ownRequests: number;
}

/**
 * Counts requests of the kit's nginx log format:
 * `... "METHOD /path HTTP/x" STATUS BYTES "USER-AGENT" PORT rt=SECONDS`.
 */
export function countRequests(lines: readonly string[]): RequestCounts {
  const counts: RequestCounts = {
    total: 0,
    byMethod: {},
    byStatus: {},
    lookups: 0,
    singleLookups: 0,
    storeLookups: 0,
    writes: 0,
    ownRequests: 0,
  };
  for (const line of lines) {
    const match = /"([A-Z]+) (\S+) [^"]*" (\d{3}) \S+ "([^"]*)"/.exec(line);
    if (!match) continue;
    const [, method = '', target = '', status = '', agent = ''] = match;
    if (agent.startsWith('WordPress/')) {
      counts.ownRequests += 1;
      continue;
    }
    counts.total += 1;
    counts.byMethod[method] = (counts.byMethod[method] ?? 0) + 1;
    counts.byStatus[status] = (counts.byStatus[status] ?? 0) + 1;
    if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) counts.writes += 1;
    const lookup = method === 'GET' ? /[?&](?:email|sku|slug|search)=([^&]*)/.exec(target) : null;
    if (lookup && /\/products\/categories\?(?:.*&)?slug=uncategorized(?:&|$)/.test(target))
      counts.storeLookups += 1;
    else if (lookup) {
      counts.lookups += 1;
      // Several values are comma-separated (sku=A%2CB): one request for a batch, not a record.
      if (!/,|%2C/i.test(lookup[1] ?? '')) counts.singleLookups += 1;
    }
  }
  return counts;
}
