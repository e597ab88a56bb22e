import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityType } from '@replatform/canonical/entities';
import { dataTypeUnavailable, type Platform } from '@replatform/contracts/migration';
import { createHttpClient } from '@replatform/connectors/kit/http/http-client';
import { connectorRegistry } from '@replatform/connectors/registry';
import { EngineRepository } from '@replatform/db/engine-repository';
import { MigrationsRepository } from '@replatform/db/migrations-repository';
import { openTestDatabase } from '@replatform/db/test-databases';
import type { Db } from '@replatform/db/database';
import { executeMigration, type ExecuteResult } from '@replatform/engine/execute';
import { defaultRetryPolicy } from '@replatform/engine/retry';
import { verifyMigration, type VerificationResult } from '@replatform/engine/verification';
import { connectorCredentials } from '../connections/store-connections.ts';
import { routeToEmulators, startPlatformStore, type PlatformStore } from './sandbox-stores.ts';

const platforms: Platform[] = ['woocommerce', 'magento2', 'bigcommerce', 'shopify'];
const sample = { seed: 11, products: 10, customers: 6, orders: 5 };
/**
 * Every data type, but reviews only where neither store is one that cannot hold them, brands
 * only into a store that keeps brand records (not Shopify), and blog posts only where neither
 * store is Magento (no blog). The WooCommerce stores are connected with WordPress access.
 */
const dataTypesFor = (from: Platform, to: Platform) => [
  'products',
  'customers',
  'orders',
  'coupons',
  ...(['reviews', 'brands', 'pages', 'posts'] as const).filter(
    (type) => !dataTypeUnavailable(type, from, to),
  ),
];
/** The sample store's coupons: one of each kind, with the limits platforms differ on. */
const sampleCoupons = 6;
/** The sample store's reviews: every rating and status, a verified buyer, a guest. */
const sampleReviews = 7;
/** The sample store's brands: one per vendor its products may name. */
const sampleBrands = 6;
/** The sample store's web pages (a tree, a draft) and blog posts (a draft). */
const samplePages = 5;
const samplePosts = 4;

interface Row {
  pair: string;
  result: ExecuteResult;
  verification: VerificationResult | undefined;
  /** Differences neither unsupported by the destination nor named in the record's warnings. */
  unexplained: string[];
}

/**
 * Every source/destination pair of the four platforms, through the real engine, connectors,
 * egress-guarded HTTP client and emulators, with the engine's own verification pass comparing
 * source and destination record by record (every difference, not only the examples). A pair
 * passes when the run completes with nothing failed or missing and every field that differs is
 * explained by the destination: unsupported there, or named in the record's warning. Prints a
 * table with each pair's outcome and the differences left unexplained.
 */
describe('all 16 platform pairs end to end (integration)', () => {
  const sources = new Map<Platform, PlatformStore>();
  const rows: Row[] = [];
  let db: Db;

  beforeAll(async () => {
    db = await openTestDatabase('sqlite');
    for (const platform of platforms)
      sources.set(platform, await startPlatformStore(platform, sample, `src-${platform}`));
  }, 120_000);
  afterAll(async () => {
    const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
    const table = [
      line([
        'source -> destination',
        'result',
        'migrated',
        'failed',
        'verification',
        'explained differences',
        'unexplained differences',
      ]),
      line(['---', '---', '---', '---', '---', '---', '---']),
      ...rows.map(({ pair, result, verification: v, unexplained }) => {
        const stats = Object.values(result.stats);
        const fields = [
          ...new Set(
            v?.examples.mismatched.flatMap((m) => m.fields.map((f) => `${m.entity}.${f}`)),
          ),
        ];
        const passed =
          result.status === 'completed' &&
          stats.every((s) => s.failed === 0) &&
          v?.missing === 0 &&
          unexplained.length === 0;
        return line([
          pair,
          passed ? 'PASS' : 'FAIL',
          String(stats.reduce((n, s) => n + s.migrated, 0)),
          String(stats.reduce((n, s) => n + s.failed, 0)),
          v
            ? `${v.status} (${v.matched} matched, ${v.mismatched} differ, ${v.missing} missing)`
            : 'not run',
          fields.filter((f) => !unexplained.some((u) => u.startsWith(`${f} `))).join(', ') || '-',
          unexplained.join('; ') || '-',
        ]);
      }),
    ].join('\n');
    console.log(`\nPlatform matrix:\n${table}\n`);
    await Promise.all([...sources.values()].map((s) => s.emulator.close()));
    await db?.close();
  });

  for (const from of platforms) {
    for (const to of platforms) {
      it(`${from} -> ${to}`, async () => {
        const source = sources.get(from);
        if (!source) throw new Error(`no ${from} source`);
        const destination = await startPlatformStore(to, 'empty', `dst-${from}-${to}`);
        const client = createHttpClient({
          allowlist: [source.emulator.url, destination.emulator.url],
          timeoutMs: 20_000,
        });
        try {
          const routes = [source, destination];
          const http = routeToEmulators(
            client,
            new Map(
              routes.flatMap((s) =>
                s.shopRoute ? [[s.shopRoute.shop, s.shopRoute.origin] as const] : [],
              ),
            ),
            new Map(
              routes.flatMap((s) =>
                s.bigCommerceRoute
                  ? [[s.bigCommerceRoute.storeHash, s.bigCommerceRoute.origin] as const]
                  : [],
              ),
            ),
          );
          const side = (platform: Platform, store: PlatformStore) => {
            const connector = connectorRegistry[platform];
            if (!connector) throw new Error(`${platform} is not registered`);
            const credentials = connector.credentialsSchema.parse(
              connectorCredentials(platform, store.fields),
            );
            return {
              connection: connector.connect(credentials, { http }),
              capabilities: connector.capabilities,
            };
          };
          const migration = await new MigrationsRepository(db).create({
            userId: 'matrix',
            email: 'm@example.com',
            storeName: `${from} to ${to}`,
          });
          const repository = new EngineRepository(db);
          const sourceSide = side(from, source);
          const destinationSide = side(to, destination);
          const result = await executeMigration({
            repository,
            migrationId: migration.id,
            dataTypes: dataTypesFor(from, to),
            source: sourceSide,
            destination: destinationSide,
            verify: false,
          });
          // The engine's verification, keeping every difference rather than a few examples.
          const verification =
            result.status === 'completed'
              ? await verifyMigration({
                  repository,
                  migrationId: migration.id,
                  streams: (await repository.latestRun(migration.id))?.entities as EntityType[],
                  source: sourceSide,
                  destination: destinationSide,
                  retry: defaultRetryPolicy,
                  exampleLimit: Number.MAX_SAFE_INTEGER,
                })
              : undefined;
          // Fields the destination cannot hold are left out of the comparison; a difference is
          // explained only when the record's own report row names it (namedInReport).
          const unexplained: string[] = [];
          for (const m of verification?.examples.mismatched ?? []) {
            if (m.namedInReport) continue;
            for (const field of m.fields)
              unexplained.push(`${m.entity}.${field} (${m.entity} ${m.sourceId})`);
          }
          rows.push({ pair: `${from} -> ${to}`, result, verification, unexplained });
          expect(result.status, result.message).toBe('completed');
          for (const [entity, stats] of Object.entries(result.stats))
            expect(stats.failed, `${entity} failed`).toBe(0);
          expect(result.stats.products?.migrated).toBe(sample.products);
          expect(result.stats.customers?.migrated).toBe(sample.customers);
          expect(result.stats.orders?.migrated).toBe(sample.orders);
          expect(result.stats.coupons?.migrated).toBe(sampleCoupons);
          if (dataTypesFor(from, to).includes('reviews'))
            expect(result.stats.reviews?.migrated).toBe(sampleReviews);
          if (dataTypesFor(from, to).includes('brands')) {
            // Every brand of the sample store; from Shopify, the vendors its products name.
            expect(result.stats.brands?.total).toBeGreaterThan(0);
            expect(result.stats.brands?.migrated).toBe(result.stats.brands?.total);
            if (from !== 'shopify') expect(result.stats.brands?.total).toBe(sampleBrands);
          }
          if (dataTypesFor(from, to).includes('pages'))
            expect(result.stats.pages?.migrated).toBe(samplePages);
          if (dataTypesFor(from, to).includes('posts'))
            expect(result.stats.posts?.migrated).toBe(samplePosts);
          expect(verification?.missing, JSON.stringify(verification?.examples.missing)).toBe(0);
          expect(unexplained, 'differences neither unsupported nor warned about').toEqual([]);
          expect(verification?.status).toBe('passed');
        } finally {
          await client.close();
          await destination.emulator.close();
        }
      }, 180_000);
    }
  }
});
