import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '@replatform/db/database';
import { EngineJobsRepository } from '@replatform/db/engine-jobs-repository';
import { EngineRepository } from '@replatform/db/engine-repository';
import type { MigrationsRepository, StoredMigration } from '@replatform/db/migrations-repository';
import type { RetryPolicy } from '@replatform/engine/retry';
import type { StoreConnections } from '../connections/store-connections.ts';
import { JobRunner } from './job-runner.ts';
import { migrationJobHandler, type Notifier } from './migration-job.ts';

/** The engine as the server holds it: its repositories, the job runner and the sandbox rule. */
export interface EngineServices {
  repository: EngineRepository;
  jobs: EngineJobsRepository;
  runner: JobRunner;
  /** Further store origins to treat as sandbox stores (local test stores of an operator). */
  sandboxOrigins: Set<string>;
  /** A migration between sandbox stores is free (decisions.md section 2). */
  isSandbox: (migration: StoredMigration) => boolean;
}

export interface EngineServicesOptions {
  db: Db;
  migrations: MigrationsRepository;
  connections: StoreConnections;
  log: FastifyBaseLogger;
  notifier: () => Notifier | undefined;
  /** The built-in sandbox stores, when the server runs them. */
  sandbox?: { isSandboxAddress(platform: string, address: string): boolean } | undefined;
  workers?: number;
  leaseMs?: number;
  pollMs?: number;
  concurrency?: number;
  retry?: RetryPolicy;
}

export function createEngineServices(options: EngineServicesOptions): EngineServices {
  const repository = new EngineRepository(options.db);
  const jobs = new EngineJobsRepository(options.db);
  const runner = new JobRunner({
    jobs,
    log: options.log,
    handler: migrationJobHandler({
      migrations: options.migrations,
      engine: repository,
      connections: options.connections,
      log: options.log,
      notifier: options.notifier,
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.retry === undefined ? {} : { retry: options.retry }),
    }),
    ...(options.workers === undefined ? {} : { workers: options.workers }),
    ...(options.leaseMs === undefined ? {} : { leaseMs: options.leaseMs }),
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
  });
  const { sandbox } = options;
  const sandboxOrigins = new Set<string>();
  const isSandboxStore = (platform: string, address: string) => {
    if (!platform || !address) return false;
    if (sandbox?.isSandboxAddress(platform, address)) return true;
    return URL.canParse(address) && sandboxOrigins.has(new URL(address).origin);
  };
  return {
    repository,
    jobs,
    runner,
    sandboxOrigins,
    isSandbox: (migration) =>
      isSandboxStore(migration.sourceStore, migration.sourceStoreUrl) &&
      isSandboxStore(migration.destinationStore, migration.destinationStoreUrl),
  };
}
