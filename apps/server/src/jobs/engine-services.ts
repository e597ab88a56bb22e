import { countsByType } from '@replatform/contracts/migration';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '@replatform/db/database';
import { EngineJobsRepository } from '@replatform/db/engine-jobs-repository';
import { EngineRepository } from '@replatform/db/engine-repository';
import type { MigrationsRepository, StoredMigration } from '@replatform/db/migrations-repository';
import { RemigrationsRepository } from '@replatform/db/remigrations-repository';
import { selectedDataTypes } from '@replatform/engine/plan';
import type { RetryPolicy } from '@replatform/engine/retry';
import { countable } from '../migrations/countable.ts';
import { connectionFailure, type StoreConnections } from '../connections/store-connections.ts';
import { ApiError } from '../http/errors.ts';
import { JobRunner } from './job-runner.ts';
import { migrationJobHandler, type Notifier } from './migration-job.ts';
import { PgBossRunner } from './pg-boss-runner.ts';
import type { MigrationRunner } from './runner.ts';

/** The engine as the server holds it: its repositories, the job runner and the sandbox rule. */
export interface EngineServices {
  repository: EngineRepository;
  jobs: EngineJobsRepository;
  remigrations: RemigrationsRepository;
  /** pg-boss on PostgreSQL, the embedded runner on SQLite. */
  runner: MigrationRunner;
  /** Further store origins to treat as sandbox stores (local test stores of an operator). */
  sandboxOrigins: Set<string>;
  /**
   * Whether both stores a run of the migration would connect to (the credentials sealed on it,
   * not the addresses it shows) are sandbox stores: such a migration is free (decisions.md
   * section 2), and the only kind a demo account may run.
   */
  isSandbox: (migration: StoredMigration) => boolean;
  /**
   * Stripe is on: a demo payment pays only for sandbox stores (which run free anyway), never for
   * a run between real stores.
   */
  demoPaymentsOnlyForSandbox: boolean;
  /** Whether a store address of a platform is one of the sandbox stores. */
  isSandboxStore: (platform: string, address: string) => boolean;
  /**
   * The runner a migration's job must run on: this process's, when either store is one of the
   * built-in sandbox stores it holds in memory; otherwise undefined (any runner may take it).
   */
  pinFor: (migration: StoredMigration) => string | undefined;
  /**
   * Counts the selected data types in the source store and keeps the counts on the migration;
   * answers the updated migration.
   */
  recount: (migration: StoredMigration) => Promise<StoredMigration>;
  /**
   * Stops the migration's live job, if any, wherever it runs, and ends it as failed with
   * `reason`: its worker's next commit is refused. Answers whether there was one.
   */
  cancel: (migrationId: string, reason: string) => Promise<boolean>;
}

export interface EngineServicesOptions {
  db: Db;
  migrations: MigrationsRepository;
  connections: StoreConnections;
  log: FastifyBaseLogger;
  notifier: () => Notifier | undefined;
  /** The built-in sandbox stores, when the server runs them. */
  sandbox?: { isSandboxAddress(platform: string, address: string): boolean } | undefined;
  /** Stripe is configured (see EngineServices.demoPaymentsOnlyForSandbox). */
  stripe?: boolean;
  workers?: number;
  /** pg-boss (PostgreSQL): heartbeat, monitor and poll intervals in seconds. */
  queue?: { heartbeatSeconds?: number; monitorSeconds?: number; pollSeconds?: number };
  leaseMs?: number;
  heartbeatMs?: number;
  pollMs?: number;
  retryDelayMs?: number;
  maxCrashes?: number;
  maxFailures?: number;
  concurrency?: number;
  retry?: RetryPolicy;
  /** Records of each selected type a free demo migration moves (DEMO_MIGRATION_LIMIT). */
  demoLimit?: number;
}

export function createEngineServices(options: EngineServicesOptions): EngineServices {
  const repository = new EngineRepository(options.db);
  const jobs = new EngineJobsRepository(options.db);
  const handler = migrationJobHandler({
    migrations: options.migrations,
    engine: repository,
    connections: options.connections,
    log: options.log,
    notifier: options.notifier,
    ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
    ...(options.demoLimit === undefined ? {} : { demoLimit: options.demoLimit }),
  });
  const limits = {
    ...(options.workers === undefined ? {} : { workers: options.workers }),
    ...(options.maxCrashes === undefined ? {} : { maxCrashes: options.maxCrashes }),
    ...(options.maxFailures === undefined ? {} : { maxFailures: options.maxFailures }),
    runsPinned: options.sandbox !== undefined,
  };
  const runner: MigrationRunner = options.db.pool
    ? new PgBossRunner({
        pool: options.db.pool,
        jobs,
        handler,
        log: options.log,
        ...limits,
        ...options.queue,
        ...(options.retryDelayMs === undefined
          ? {}
          : { retryDelaySeconds: Math.max(1, Math.round(options.retryDelayMs / 1000)) }),
      })
    : new JobRunner({
        jobs,
        log: options.log,
        handler,
        ...limits,
        ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
        ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
        ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
        ...(options.retryDelayMs === undefined ? {} : { retryDelayMs: options.retryDelayMs }),
      });
  const { sandbox } = options;
  const sandboxOrigins = new Set<string>();
  const isSandboxStore = (platform: string, address: string) => {
    if (!platform || !address) return false;
    if (sandbox?.isSandboxAddress(platform, address)) return true;
    return URL.canParse(address) && sandboxOrigins.has(new URL(address).origin);
  };
  const recount = async (migration: StoredMigration): Promise<StoredMigration> => {
    const source = options.connections.connectSide(migration, 'source');
    const selected = selectedDataTypes(migration.dataTypes).filter((type) =>
      countable(migration, type, options.connections.contentAccess(migration)),
    );
    let counts: Record<string, number>;
    try {
      const found = await Promise.all(selected.map((type) => source.count(type)));
      counts = countsByType([]);
      selected.forEach((type, i) => (counts[type] = found[i] ?? 0));
    } catch (error) {
      throw connectionFailure(error);
    } finally {
      await source.close?.();
    }
    const updated = await options.migrations.update(migration.id, migration.userId, {
      entityCounts: counts,
      totalEntities: Object.values(counts).reduce((a, b) => a + b, 0),
    });
    if (!updated)
      throw new ApiError(404, 'not_found', 'The requested migration could not be found.');
    return updated;
  };
  return {
    repository,
    jobs,
    remigrations: new RemigrationsRepository(options.db),
    runner,
    recount,
    cancel: async (migrationId, reason) => {
      const ended = await jobs.cancelLive(migrationId, reason);
      if (ended) await runner.cancel(ended);
      return ended !== undefined;
    },
    sandboxOrigins,
    isSandbox: (migration) =>
      (['source', 'destination'] as const).every((side) => {
        const verified =
          side === 'source' ? migration.sourceVerified : migration.destinationVerified;
        const store = verified ? options.connections.sealedStore(migration, side) : undefined;
        return Boolean(store && isSandboxStore(store.platform, store.address));
      }),
    isSandboxStore,
    demoPaymentsOnlyForSandbox: options.stripe ?? false,
    pinFor: (migration) =>
      sandbox &&
      (sandbox.isSandboxAddress(migration.sourceStore, migration.sourceStoreUrl) ||
        sandbox.isSandboxAddress(migration.destinationStore, migration.destinationStoreUrl))
        ? runner.owner
        : undefined,
  };
}
