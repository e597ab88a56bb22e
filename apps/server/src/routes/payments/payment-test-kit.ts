import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { EntityCounts } from '@replatform/contracts/migration';
import type { Connection, Connector } from '@replatform/connectors/kit/contract';
import { createPostgresSchema } from '@replatform/db/test-databases';
import { buildApp, type App } from '../../app.ts';
import { parseConfig } from '../../config.ts';
import { signUp, testOrigin } from '../../testing/sign-up.ts';

/**
 * Helpers for the payment API tests: an app on a private database with a source store whose
 * record counts the test sets (and grows), signed-in users, and ready-to-pay migrations.
 */

export { signUp, testOrigin };

/** Counts per store URL; the test changes them to make the source grow. */
export type SourceCounts = Record<string, EntityCounts>;

/** A WooCommerce-shaped connector that can only check and count, from `counts`. */
export function countingConnector(counts: SourceCounts): Connector<unknown> {
  const credentialsSchema = z.strictObject({
    storeUrl: z.string(),
    consumerKey: z.string(),
    consumerSecret: z.string(),
  });
  return {
    platform: 'woocommerce',
    label: 'Counting test store',
    credentialsSchema,
    capabilities: {
      entities: ['products', 'customers', 'orders'],
      batchSize: {},
      pageSize: {},
      rateLimit: { description: 'none' },
    } as unknown as Connector['capabilities'],
    connect(credentials) {
      const { storeUrl } = credentials as { storeUrl: string };
      const unsupported = () => {
        throw new Error('not used by payment tests');
      };
      return {
        check: async () => ({ ok: true as const, storeName: `Store at ${storeUrl}` }),
        count: async (entity: string) => {
          const store = counts[storeUrl];
          if (!store) throw new Error(`no store at ${storeUrl}`);
          return (store as Record<string, number>)[entity] ?? 0;
        },
        read: unsupported,
        write: unsupported,
      } as unknown as Connection;
    },
  };
}

export async function startPaymentsApp(
  dialect: 'sqlite' | 'postgres',
  env: Record<string, string>,
  counts: SourceCounts,
): Promise<{ app: App; close: () => Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'replatform-payments-'));
  let databaseUrl: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  if (dialect === 'postgres') ({ url: databaseUrl, drop } = await createPostgresSchema());
  const config = parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: testOrigin,
    // The registry holds only a counting WooCommerce connector: no built-in sandbox stores of the
    // other platforms (demo samples are then written with their own addresses).
    SANDBOX_STORES: 'false',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const app = await buildApp(config, { registry: { woocommerce: countingConnector(counts) } });
  return {
    app,
    close: async () => {
      await app.close();
      await drop?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function caller(app: App) {
  return (
    cookie: string | undefined,
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    app.inject({
      method,
      url,
      headers: {
        origin: testOrigin,
        ...(cookie ? { cookie } : {}),
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
}

/** The destination readyMigration connects unless told otherwise (it only has to answer). */
export const DESTINATION = 'https://destination.example.com';

/** Verifies one side of a migration with the counting connector's store at `storeUrl`. */
export async function verifyStore(
  app: App,
  cookie: string,
  migrationId: string,
  side: 'source' | 'destination',
  storeUrl: string,
) {
  return caller(app)(cookie, 'POST', '/verify-woocommerce-connection', {
    migrationId,
    side,
    sourceStoreUrl: storeUrl,
    consumerKey: 'ck_test',
    consumerSecret: 'cs_test',
  });
}

/**
 * A migration ready to pay: its source verified at `storeUrl`, its destination at `destination`
 * and the given data types selected.
 */
export async function readyMigration(
  app: App,
  cookie: string,
  storeUrl: string,
  dataTypes: Partial<Record<keyof EntityCounts, boolean>> = {
    products: true,
    customers: true,
    orders: true,
  },
  destination = DESTINATION,
): Promise<string> {
  const call = caller(app);
  const created = await call(cookie, 'POST', '/api/migrations', { storeName: 'Shop of Tests' });
  if (created.statusCode !== 201) throw new Error(`create failed: ${created.body}`);
  const id = created.json().id as string;
  for (const [side, url] of [
    ['source', storeUrl],
    ['destination', destination],
  ] as const) {
    const verified = await verifyStore(app, cookie, id, side, url);
    if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.body}`);
  }
  const selected = await call(cookie, 'PATCH', `/api/migrations/${id}`, { dataTypes });
  if (selected.statusCode !== 200) throw new Error(`select failed: ${selected.body}`);
  return id;
}

/** A small seeded PRNG (mulberry32), so a failing interleaving can be replayed by its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
