import type { Connector, ConnectorHttp } from '@replatform/connectors/kit/contract';
import { createHttpClient } from '@replatform/connectors/kit/http/http-client';
import { migrateToLatest, openDatabase } from '@replatform/db/database';
import { EngineRepository } from '@replatform/db/engine-repository';
import { MigrationsRepository } from '@replatform/db/migrations-repository';
import { executeMigration } from '../execute.ts';
import type { StoreSide } from '../migrate.ts';
import type { StoreAddress } from './bench-stores.ts';

/**
 * One benchmark run in its own process, so its peak RSS is the engine's alone (the emulators
 * live in the parent). Reads its task as JSON from argv, prints its figures as JSON on stdout.
 */
export interface WorkerTask {
  source: StoreAddress;
  destination: StoreAddress;
  statePath: string;
  concurrency?: number;
  /** Print the live heap after a full GC at each quarter (needs --expose-gc). */
  traceHeap?: boolean;
}

export interface WorkerResult {
  elapsedMs: number;
  status: string;
  message?: string;
  records: number;
  failed: number;
  /** A few failed records with their reasons. */
  failures: string[];
  stats: Record<string, { total: number; migrated: number; skipped: number; failed: number }>;
  /** CPU the worker spent (engine, connectors, HTTP, state database), in ms. */
  cpuMs: number;
  peakRssMb: number;
  /** RSS when a quarter, half, three quarters and all of the records were done. */
  rssByQuarterMb: number[];
}

/**
 * The production HTTP client (egress guard with the emulators admitted by origin), plus the
 * name-based routing a sandbox needs for Shopify, whose shops are addressed by domain.
 */
function httpFor(task: WorkerTask): ConnectorHttp {
  const client = createHttpClient({
    allowlist: [task.source.origin, task.destination.origin],
    timeoutMs: 30_000,
  });
  const shops = new Map<string, string>();
  for (const side of [task.source, task.destination]) {
    if (side.platform === 'shopify' && side.credentials.shopDomain)
      shops.set(side.credentials.shopDomain, side.origin);
  }
  return {
    request(request) {
      const url = new URL(request.url);
      const origin = shops.get(url.hostname);
      if (!origin) return client.request(request);
      return client.request({
        ...request,
        url: `${origin}${url.pathname}${url.search}`,
        headers: { ...request.headers, 'x-forwarded-host': url.hostname },
      });
    },
  };
}

/** Only the two connectors of the run are loaded, as in a CLI run. */
async function connectorFor(address: StoreAddress): Promise<Connector<unknown>> {
  switch (address.platform) {
    case 'woocommerce':
      return (await import('@replatform/connectors/woocommerce/woocommerce'))
        .wooCommerceConnector as Connector<unknown>;
    case 'magento2':
      return (await import('@replatform/connectors/magento2/magento-connector'))
        .magentoConnector as Connector<unknown>;
    case 'shopify':
      return (await import('@replatform/connectors/shopify/shopify-connector'))
        .shopifyConnector as Connector<unknown>;
    case 'bigcommerce': {
      const { createBigCommerceConnector } =
        await import('@replatform/connectors/bigcommerce/bigcommerce-connector');
      return createBigCommerceConnector({ apiBaseUrl: address.origin }) as Connector<unknown>;
    }
  }
}

async function side(address: StoreAddress, http: ConnectorHttp): Promise<StoreSide> {
  const connector = await connectorFor(address);
  const credentials = connector.credentialsSchema.parse(address.credentials);
  return {
    connection: connector.connect(credentials, { http }),
    capabilities: connector.capabilities,
  };
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

async function main(): Promise<void> {
  const task = JSON.parse(process.argv[2] ?? '{}') as WorkerTask;
  const db = openDatabase({ sqlitePath: task.statePath });
  await migrateToLatest(db);
  const migration = await new MigrationsRepository(db).create({
    userId: 'bench',
    email: '',
    storeName: 'bench',
  });
  const http = httpFor(task);
  let expected = 0;
  const quarters: number[] = [];
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const result = await executeMigration({
    repository: new EngineRepository(db),
    migrationId: migration.id,
    dataTypes: ['products', 'customers', 'orders'],
    source: await side(task.source, http),
    destination: await side(task.destination, http),
    verify: false,
    concurrency: task.concurrency,
    onProgress: (p) => {
      let done = 0;
      let total = 0;
      for (const s of Object.values(p.stats)) {
        if (!s) continue;
        done += s.migrated + s.skipped + s.failed;
        total += s.total;
      }
      expected = Math.max(expected, total);
      while (expected && quarters.length < 4 && done >= (expected * (quarters.length + 1)) / 4) {
        quarters.push(mb(process.memoryUsage.rss()));
        if (task.traceHeap) {
          (globalThis as { gc?: () => void }).gc?.();
          const heap = process.memoryUsage();
          console.error(
            `  live heap ${mb(heap.heapUsed)} MB of ${mb(heap.heapTotal)} MB, external ${mb(heap.external)} MB`,
          );
        }
      }
    },
  });
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  let records = 0;
  let failed = 0;
  const stats: WorkerResult['stats'] = {};
  for (const [entity, s] of Object.entries(result.stats)) {
    if (!s) continue;
    stats[entity] = s;
    if (entity !== 'categories') records += s.migrated + s.skipped;
    failed += s.failed;
  }
  const failures: string[] = [];
  const repository = new EngineRepository(db);
  for (const entity of Object.keys(stats)) {
    let after: string | null = null;
    while (failed && failures.length < 5) {
      const page = await repository.idMapPage(migration.id, entity, after, 1000);
      for (const row of page) {
        if (row.outcome === 'failed' && failures.length < 5)
          failures.push(`${entity} ${row.sourceId}: ${row.reason ?? ''}`);
      }
      if (page.length < 1000) break;
      after = page[page.length - 1]?.sourceId ?? null;
    }
  }
  const output: WorkerResult = {
    elapsedMs,
    status: result.status,
    ...(result.message ? { message: result.message } : {}),
    records,
    failed,
    failures,
    stats,
    cpuMs: (cpu.user + cpu.system) / 1000,
    // resourceUsage().maxRSS is in kilobytes.
    peakRssMb: Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10,
    rssByQuarterMb: quarters,
  };
  await db.close();
  process.stdout.write(`${JSON.stringify(output)}\n`);
  process.exit(0);
}

await main();
