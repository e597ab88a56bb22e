import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { RateUsage } from '@replatform/connectors/kit/contract';
import { connectorRegistry } from '@replatform/connectors/registry';
import type { VerificationResult } from '@replatform/engine/verification';
import { migrateToLatest, openDatabase } from '@replatform/db/database';
import { EngineRepository } from '@replatform/db/engine-repository';
import { MigrationsRepository } from '@replatform/db/migrations-repository';
import { displayAddress, StoreConnections } from '@replatform/server/connections/store-connections';
import { createEngineServices } from '@replatform/server/jobs/engine-services';
import { startMigration } from '@replatform/server/jobs/start-migration';
import { sealCredentials } from '@replatform/server/migrations/store-credentials';
import { NotificationsService } from '@replatform/server/notifications/notifications';
import { routeToEmulators } from '@replatform/server/sandbox/sandbox-stores';
import { CredentialVault } from '@replatform/server/security/credential-vault';
import type { StoreAddress } from './bench-stores.ts';

/**
 * One benchmark run in its own process, so its peak RSS is the run's alone (the emulators live
 * in the parent), and through the server's own code path: the migration is stored with sealed
 * credentials, started by startMigration, claimed by the server's JobRunner (two workers, lease
 * and heartbeat as configured there) and run by the migration job handler over StoreConnections
 * (the egress-guarded client, routed to the emulators as sandbox stores are), verification and
 * notifications included. Reads its task as JSON from argv, prints its figures as JSON on stdout.
 */
export interface WorkerTask {
  source: StoreAddress;
  destination: StoreAddress;
  statePath: string;
  dataTypes: ('products' | 'customers' | 'orders')[];
  /** Print the live heap after a full GC at each quarter (needs --expose-gc). */
  traceHeap?: boolean;
  /**
   * Real stores on this machine (scenario (c)) instead of emulators: reached at their own https
   * addresses, admitted by exact origin as the egress guard admits an operator's allowlisted
   * stores, their CA trusted through NODE_EXTRA_CA_CERTS set by the parent. No routing.
   */
  real?: boolean;
  /** The credential vault's key (hex), so a later worker can open what an earlier one sealed. */
  vaultKey?: string;
  /** Start this existing, completed migration again (a re-migration) instead of a new one. */
  migrationId?: string;
}

export interface WorkerResult {
  migrationId: string;
  status: string;
  /** From the start of the migration to the end of its job (migrate and verification). */
  totalMs: number;
  message?: string;
  /** From the start of the run to the end of its migrate phase (verification excluded). */
  migrateMs: number;
  /** When the migrate phase started and ended, in epoch milliseconds. */
  migrateStartedAt: number;
  migrateEndedAt: number;
  /** The verification pass that follows, as the server runs it. */
  verifyMs: number;
  verification?: string;
  /** A few of the records the verification found different or missing, with why. */
  verificationExamples: string[];
  /** Products + customers + orders handled (migrated or skipped). */
  records: number;
  failed: number;
  /** A few failed records with their reasons. */
  failures: string[];
  stats: Record<string, { migrated: number; skipped: number; failed: number }>;
  /** CPU the worker spent (runner, engine, connectors, HTTP, state database), in ms. */
  cpuMs: number;
  peakRssMb: number;
  /** Peak RSS when the migrate phase ended (before the verification). */
  migratePeakRssMb: number;
  /** RSS when a quarter, half, three quarters and all of the records were done. */
  rssByQuarterMb: number[];
  /** The connections' rate-limit use, as the run logged it. */
  rateUsage: { source?: RateUsage; destination?: RateUsage };
  notes: string[];
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
// resourceUsage().maxRSS is in kilobytes.
const maxRssMb = () => Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;

/** The server's logger interface, keeping the rate-limit use the run reports and dropping the rest. */
function benchLog(rateUsage: WorkerResult['rateUsage']): FastifyBaseLogger {
  const record = (level: string) => (fields: unknown, message?: string) => {
    const f = fields as Record<string, unknown> | undefined;
    if (
      f &&
      (f.side === 'source' || f.side === 'destination') &&
      typeof f.usedPerSecond === 'number'
    )
      rateUsage[f.side] = {
        unit: f.unit as RateUsage['unit'],
        usedPerSecond: f.usedPerSecond,
        availablePerSecond: Number(f.availablePerSecond),
        throttled: Number(f.throttled),
      };
    if (level === 'error') console.error(`  worker: ${message ?? ''} ${JSON.stringify(fields)}`);
  };
  const log = {
    level: 'info',
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    fatal: record('error'),
    debug: () => {},
    trace: () => {},
    silent: () => {},
    child: () => log,
  };
  return log as unknown as FastifyBaseLogger;
}

/** A new migration between the task's stores, with sealed credentials, ready to start. */
async function prepare(migrations: MigrationsRepository, vault: CredentialVault, task: WorkerTask) {
  const created = await migrations.create({ userId: 'bench', email: '', storeName: 'bench' });
  const seal = (side: 'source' | 'destination', address: StoreAddress) =>
    sealCredentials(vault, created.id, side, {
      platform: address.platform,
      secrets: address.credentials,
    });
  return migrations.update(created.id, 'bench', {
    sourceStore: task.source.platform,
    destinationStore: task.destination.platform,
    sourceStoreUrl: task.source.origin,
    destinationStoreUrl: task.destination.origin,
    sourceCredentials: seal('source', task.source),
    destinationCredentials: seal('destination', task.destination),
    sourceVerified: true,
    destinationVerified: true,
    dataTypes: Object.fromEntries(task.dataTypes.map((t) => [t, true])),
    currentStep: 3,
  });
}

async function main(): Promise<void> {
  const task = JSON.parse(process.argv[2] ?? '{}') as WorkerTask;
  const db = openDatabase({ sqlitePath: task.statePath });
  await migrateToLatest(db);
  const rateUsage: WorkerResult['rateUsage'] = {};
  const log = benchLog(rateUsage);
  const vault = new CredentialVault(
    task.vaultKey ? Buffer.from(task.vaultKey, 'hex') : randomBytes(32),
  );
  const sides = [task.source, task.destination];
  const connections = new StoreConnections({
    registry: connectorRegistry,
    vault,
    egressAllowlist: sides.map((s) => new URL(s.origin).origin),
    egressAllowHttp: !task.real,
    route: (http) =>
      task.real
        ? http
        : routeToEmulators(
            http,
            new Map(
              sides.flatMap((s) =>
                s.platform === 'shopify'
                  ? [[s.credentials.shopDomain ?? '', s.origin] as const]
                  : [],
              ),
            ),
            new Map(
              sides.flatMap((s) =>
                s.platform === 'bigcommerce'
                  ? [[s.credentials.storeHash ?? '', s.origin] as const]
                  : [],
              ),
            ),
          ),
  });
  const migrations = new MigrationsRepository(db);
  // The benchmark's stores (emulated or the real ones on this machine) count as its sandbox
  // stores: no payment limit, which is not what is measured. Recognised by the address sealed
  // with their credentials (a BigCommerce store by its hash, a Shopify shop by its domain), as
  // the server recognises its own sandbox stores.
  const sandboxAddresses = new Set(
    sides.map((s) => `${s.platform} ${displayAddress(s.platform, s.credentials)}`),
  );
  const engine = createEngineServices({
    db,
    migrations,
    connections,
    log,
    notifier: () => new NotificationsService(db),
    sandbox: {
      isSandboxAddress: (platform, address) => sandboxAddresses.has(`${platform} ${address}`),
    },
  });

  const ready = task.migrationId
    ? await migrations.findForUser(task.migrationId, 'bench')
    : await prepare(migrations, vault, task);
  if (!ready) throw new Error('the benchmark migration could not be prepared');
  const created = ready;

  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  const { job } = await startMigration(engine, ready, { isDemo: false });
  engine.runner.start();

  const quarters: number[] = [];
  let migratedAt: number | undefined;
  let migratePeakRssMb: number | undefined;
  for (;;) {
    await sleep(100);
    const [current, state, run] = await Promise.all([
      migrations.findForUser(created.id, 'bench'),
      engine.jobs.find(job.id),
      engine.repository.latestRun(created.id),
    ]);
    if (current && current.totalEntities > 0) {
      const done = current.migratedEntities;
      while (quarters.length < 4 && done >= (current.totalEntities * (quarters.length + 1)) / 4) {
        quarters.push(mb(process.memoryUsage.rss()));
        if (task.traceHeap) {
          (globalThis as { gc?: () => void }).gc?.();
          const heap = process.memoryUsage();
          console.error(
            `  live heap ${mb(heap.heapUsed)} MB of ${mb(heap.heapTotal)} MB, external ${mb(heap.external)} MB`,
          );
        }
      }
    }
    if (migratedAt === undefined && run && run.phase !== 'migrate') {
      migratedAt = performance.now();
      migratePeakRssMb = maxRssMb();
    }
    if (state && state.state !== 'queued' && state.state !== 'running') break;
  }
  const finished = performance.now();
  await engine.runner.stop();
  const cpu = process.cpuUsage(cpuBefore);

  const repository = new EngineRepository(db);
  const run = await repository.latestRun(created.id);
  const stats: WorkerResult['stats'] = {};
  for (const row of run ? await repository.runCounts(created.id, run.id) : []) {
    const s = (stats[row.entity] ??= { migrated: 0, skipped: 0, failed: 0 });
    s[row.outcome] += row.count;
  }
  let records = 0;
  let failed = 0;
  for (const [entity, s] of Object.entries(stats)) {
    if (entity !== 'categories') records += s.migrated + s.skipped;
    failed += s.failed;
  }
  const failures: string[] = [];
  for (const entity of Object.keys(stats)) {
    let after: string | null = null;
    while (failed && failures.length < 5) {
      const page = await repository.idMapPage(created.id, entity, after, 1000);
      for (const row of page) {
        if (row.outcome === 'failed' && failures.length < 5)
          failures.push(`${entity} ${row.sourceId}: ${row.reason ?? ''}`);
      }
      if (page.length < 1000) break;
      after = page[page.length - 1]?.sourceId ?? null;
    }
  }
  const verification = run?.verification as VerificationResult | null;
  const verificationExamples = [
    ...(verification?.examples.mismatched ?? []).map(
      (e) =>
        `${e.entity} ${e.sourceId} (destination ${e.destinationId}) differs in ${e.fields.join(', ')}${e.namedInReport ? ` (named in the report: ${e.namedInReport})` : ''}`,
    ),
    ...(verification?.examples.missing ?? []).map(
      (e) => `${e.entity} ${e.sourceId} missing: ${e.reason}`,
    ),
  ].slice(0, 8);
  const migrateStartedAt = run ? Date.parse(run.startedAt) : Date.now();
  const migrateEndedAt = run?.finishedAt ? Date.parse(run.finishedAt) : Date.now();
  const output: WorkerResult = {
    migrationId: created.id,
    status: run?.status ?? 'unknown',
    totalMs: finished - startedAt,
    ...(run?.errorMessage ? { message: run.errorMessage } : {}),
    migrateMs: migrateEndedAt - migrateStartedAt,
    migrateStartedAt,
    migrateEndedAt,
    verifyMs: migratedAt === undefined ? 0 : finished - migratedAt,
    ...(verification?.status ? { verification: verification.status } : {}),
    verificationExamples,
    records,
    failed,
    failures,
    stats,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssMb: maxRssMb(),
    migratePeakRssMb: migratePeakRssMb ?? maxRssMb(),
    rssByQuarterMb: quarters,
    rateUsage,
    notes: run?.notes ?? [],
  };
  await connections.close();
  await db.close();
  process.stdout.write(`${JSON.stringify(output)}\n`);
  process.exit(0);
}

await main();
