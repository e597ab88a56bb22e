import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '@replatform/contracts/migration';
import { createHttpClient } from '@replatform/connectors/kit/http/http-client';
import { connectorRegistry } from '@replatform/connectors/registry';
import { EngineRepository } from '@replatform/db/engine-repository';
import { MigrationsRepository } from '@replatform/db/migrations-repository';
import { openTestDatabase } from '@replatform/db/test-databases';
import type { Db } from '@replatform/db/database';
import { executeMigration, type ExecuteResult } from '@replatform/engine/execute';
import { connectorCredentials } from '../connections/store-connections.ts';
import { routeToEmulators, startPlatformStore, type PlatformStore } from './sandbox-stores.ts';

const platforms: Platform[] = ['woocommerce', 'magento2', 'bigcommerce', 'shopify'];
const sample = { seed: 11, products: 10, customers: 6, orders: 5 };
const dataTypes = ['products', 'customers', 'orders'];

interface Row {
  pair: string;
  result: ExecuteResult;
}

/**
 * Every source/destination pair of the four platforms, through the real engine, connectors,
 * egress-guarded HTTP client and emulators, with the engine's own verification pass comparing
 * source and destination record by record. Prints a pass/fail table.
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
      line(['source -> destination', 'run', 'migrated', 'failed', 'verification', 'differences']),
      line(['---', '---', '---', '---', '---', '---']),
      ...rows.map(({ pair, result }) => {
        const stats = Object.values(result.stats);
        const v = result.verification;
        const fields = [
          ...new Set(
            v?.examples.mismatched.flatMap((m) => m.fields.map((f) => `${m.entity}.${f}`)) ?? [],
          ),
        ];
        return line([
          pair,
          result.status === 'completed' && stats.every((s) => s.failed === 0) ? 'PASS' : 'FAIL',
          String(stats.reduce((n, s) => n + s.migrated, 0)),
          String(stats.reduce((n, s) => n + s.failed, 0)),
          v
            ? `${v.status} (${v.matched} matched, ${v.mismatched} differ, ${v.missing} missing)`
            : 'not run',
          fields.join(', ') || '-',
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
          const result = await executeMigration({
            repository: new EngineRepository(db),
            migrationId: migration.id,
            dataTypes,
            source: side(from, source),
            destination: side(to, destination),
          });
          rows.push({ pair: `${from} -> ${to}`, result });
          expect(result.status, result.message).toBe('completed');
          for (const [entity, stats] of Object.entries(result.stats))
            expect(stats.failed, `${entity} failed`).toBe(0);
          expect(result.stats.products?.migrated).toBe(sample.products);
          expect(result.stats.customers?.migrated).toBe(sample.customers);
          expect(result.stats.orders?.migrated).toBe(sample.orders);
          expect(result.verification?.missing).toBe(0);
        } finally {
          await client.close();
          await destination.emulator.close();
        }
      }, 180_000);
    }
  }
});
