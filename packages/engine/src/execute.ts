import type { EntityType } from '@replatform/canonical/entities';
import { statusTransitions } from '@replatform/contracts/lifecycle';
import {
  migrationStatuses,
  optionsOf,
  type FieldMappings,
  type MigrationOptions,
  type MigrationStatus,
} from '@replatform/contracts/migration';
import type {
  EngineRepository,
  EngineRun,
  LeaseFence,
  RunKind,
} from '@replatform/db/engine-repository';
import { DemoPicker, type DemoOptions } from './demo.ts';
import { writeDestinationRedirects } from './destination-redirects.ts';
import { EngineError, fatalError } from './errors.ts';
import {
  MigratePhase,
  ownFieldsOf,
  type EngineProgress,
  type RunRateUsage,
  type RunStats,
  type StoreSide,
} from './migrate.ts';
import { mappingNotes, optionNotes, transformedSource } from './mappings.ts';
import { paceOf } from './pace.ts';
import { planMigration } from './plan.ts';
import { defaultRetryPolicy, StoreWatch, type RetryPolicy, type StoreOutage } from './retry.ts';
import { verifyMigration, type VerificationResult } from './verification.ts';

export interface ExecuteOptions {
  repository: EngineRepository;
  migrationId: string;
  /** Data types the owner selected (products, customers, orders). */
  dataTypes: readonly string[];
  source: StoreSide;
  destination: StoreSide;
  /** The owner's value mappings (order statuses), applied to every record read from the source. */
  mappings?: FieldMappings | undefined;
  /**
   * The owner's additional options: fields the destination makes its own are not compared
   * (slugs, order numbers), and a completed run writes 301 redirects into the destination where
   * it keeps them (createRedirects). The destination's connection was made with the same choices.
   */
  migrationOptions?: MigrationOptions | undefined;
  /** Products + customers + orders paid for; undefined = no limit (demo, sandbox, CLI). */
  paidRecords?: number | undefined;
  /**
   * A free demo run before payment: at most `limit` records of each selected type (with the
   * customers and products its orders name), written, reported and verified like a run, kept in
   * the id map so the full migration skips or updates them, and leaving the migration's status,
   * step and progress as they are. It has runs of its own (kind 'demo').
   */
  demo?: DemoOptions | undefined;
  /**
   * A "recent data" run: records the destination already holds from an earlier run that the
   * source has not changed since this day (ISO date, from its start in UTC) are left alone, by
   * the record's time of change, or of creation where the platform gives no other.
   */
  changedSince?: string | undefined;
  signal?: AbortSignal | undefined;
  /** The job lease the run is done under; batches are not committed once it is lost. */
  fence?: LeaseFence | undefined;
  concurrency?: number | undefined;
  /** Records per batch at most, below the destination's own maximum (MigratePhaseOptions). */
  maxBatch?: number | undefined;
  retry?: RetryPolicy | undefined;
  /** Run the verification pass after a completed run (default true). */
  verify?: boolean | undefined;
  /**
   * How the verification after the run compares (see VerifyOptions.mode): 'incremental' (the
   * default) checks what the run wrote and a sample of the rest; 'full' reads both stores again.
   * Unset: as the run says (a finished run reopened to be verified again), else incremental.
   */
  verifyMode?: 'full' | 'incremental' | undefined;
  onProgress?: ((progress: EngineProgress) => void) | undefined;
  /**
   * Told when the run starts waiting for a store that keeps failing (and at each new probe
   * time), and `null` once it answers again. The waiting is also kept on the run.
   */
  onOutage?: ((outage: StoreOutage | null) => void) | undefined;
  /** Time between two samples of the run's progress kept for its rate (default 15 s). */
  sampleEveryMs?: number;
  /** Called once the migrate phase has ended, before verification. */
  onMigrated?: ((outcome: ExecuteResult) => void | Promise<void>) | undefined;
  log?: ((message: string, fields?: Record<string, unknown>) => void) | undefined;
  now?: () => Date;
}

export interface ExecuteResult {
  runId: string;
  status: 'completed' | 'failed' | 'payment_required' | 'interrupted';
  code?: string;
  message?: string;
  stats: RunStats;
  verification?: VerificationResult;
  /** What the destination did to prepare and finish the import (e.g. e-mails switched off). */
  notes?: string[];
  /** Rate-limit use of the stores' connections in the migrate phase, when measured. */
  rateUsage?: RunRateUsage;
}

/** Statuses from which a migration may move to `to`, from the one transition table. */
function statusesLeadingTo(to: MigrationStatus): MigrationStatus[] {
  return migrationStatuses.filter((from) => from === to || statusTransitions[from].includes(to));
}

/**
 * Records a run that could not even start (stores no longer connected, nothing to plan) as a
 * failed run with its reason, and fails the migration, so the owner sees why.
 */
export async function recordRunFailure(
  repository: EngineRepository,
  migrationId: string,
  code: string,
  message: string,
  now: () => Date = () => new Date(),
  kind: RunKind = 'migration',
): Promise<ExecuteResult> {
  const run = await repository.createRun(migrationId, [], kind);
  await repository.updateRun(run.id, {
    status: 'failed',
    phase: 'done',
    finishedAt: now().toISOString(),
    errorCode: code,
    errorMessage: message,
  });
  // A demo run that fails leaves the migration as it was: the owner may still pay and run it.
  if (kind === 'migration')
    await repository.setLifecycle(migrationId, { status: 'failed' }, statusesLeadingTo('failed'));
  return { runId: run.id, status: 'failed', code, message, stats: {} };
}

/**
 * Runs a migration to its end or until interrupted: continues the run in progress (after a
 * crash or restart) or starts a new one, moves the migration through its lifecycle (step 4 and
 * in-progress while running; step 5 and completed, or failed, at the end), then verifies.
 * Calling it again after an interruption carries on where it stopped.
 */
export async function executeMigration(options: ExecuteOptions): Promise<ExecuteResult> {
  const { repository, migrationId } = options;
  const now = options.now ?? (() => new Date());
  const retry = options.retry ?? defaultRetryPolicy;
  const mappings = options.mappings ?? {};
  const source: StoreSide = {
    ...options.source,
    connection: transformedSource(
      options.source.connection,
      mappings,
      options.destination.capabilities,
    ),
  };

  const chosen = optionsOf(options.migrationOptions);
  options = {
    ...options,
    destination: { ...options.destination, ownFields: ownFieldsOf(chosen) },
  };
  const kind: RunKind = options.demo ? 'demo' : 'migration';
  const lifecycle = kind === 'migration';
  let run: EngineRun | undefined = await repository.latestRun(migrationId, kind);
  // The destination may hold records this migration wrote without its id map knowing them: the
  // run in progress was interrupted, or the last one failed part-way through a batch. Connectors
  // then look for them before creating (and otherwise trust the id map: new means new).
  // A demo that stopped part-way since may have left records too, which the owner's run must find.
  const lastDemo =
    kind === 'migration' ? await repository.latestRun(migrationId, 'demo') : undefined;
  const demo = lastDemo && (!run || lastDemo.startedAt > run.startedAt) ? lastDemo : undefined;
  const resumed = [run, demo].some(
    (r) => r !== undefined && (r.phase !== 'done' || r.status === 'failed'),
  );
  if (!run || run.phase === 'done') {
    let streams: EntityType[];
    try {
      streams = planMigration(
        options.dataTypes,
        source.capabilities,
        options.destination.capabilities,
      ).streams;
    } catch (error) {
      const failure = fatalError(error, 'destination', 'planning');
      return recordRunFailure(repository, migrationId, failure.code, failure.message, now, kind);
    }
    run = await repository.createRun(migrationId, streams, kind);
  }
  const streams = run.entities as EntityType[];
  // What the migrate phase did; a run resumed at verification reports only the verification
  // (and the notes kept on the run).
  let migratedStats: RunStats = {};
  let runFacts: Pick<ExecuteResult, 'notes' | 'rateUsage'> = { notes: run.notes };

  if (run.phase === 'migrate') {
    if (lifecycle)
      await repository.setLifecycle(
        migrationId,
        { status: 'in-progress', currentStep: 4, completedAt: null },
        statusesLeadingTo('in-progress'),
      );
    const runId = run.id;
    const sampleEvery = options.sampleEveryMs ?? 15_000;
    const samples = [...run.samples];
    let lastSample = samples.at(-1)?.[0] ?? 0;
    let saving = Promise.resolve();
    const persist = (changes: Parameters<EngineRepository['updateRun']>[1]) => {
      saving = saving
        .then(() => repository.updateRun(runId, changes))
        .catch((error: unknown) =>
          options.log?.('recording the run failed', { error: String(error) }),
        );
    };
    const pace = paceOf({
      source: source.connection,
      destination: options.destination.connection,
    });
    const sample = (stats: RunStats, force = false) => {
      const at = now().getTime();
      if (!force && at - lastSample < sampleEvery) return;
      lastSample = at;
      const done = Object.values(stats).reduce(
        (sum, s) => sum + (s ? s.migrated + s.skipped + s.failed : 0),
        0,
      );
      samples.push([at, done]);
      // Long runs keep every other sample, so the list stays small and spans the whole run.
      if (samples.length > 400)
        samples.splice(0, samples.length, ...samples.filter((_, i) => i % 2 === 0));
      persist({ samples, limitedBy: pace() });
    };
    let waiting = false;
    const phase = new MigratePhase({
      repository,
      migrationId,
      runId: run.id,
      streams,
      resumed,
      source,
      destination: options.destination,
      choices: [...mappingNotes(mappings), ...(kind === 'migration' ? optionNotes(chosen) : [])],
      paidRecords: options.demo ? undefined : options.paidRecords,
      demo: options.demo ? new DemoPicker(options.demo) : undefined,
      changedSince: options.demo ? undefined : options.changedSince,
      signal: options.signal,
      fence: options.fence,
      concurrency: options.concurrency,
      maxBatch: options.maxBatch,
      retry,
      onProgress: (progress) => {
        sample(progress.stats);
        options.onProgress?.(progress);
      },
      onOutage: (outage) => {
        if (outage === null && !waiting) return;
        waiting = outage !== null;
        persist({ waiting: outage });
        options.onOutage?.(outage);
      },
      log: options.log,
    });
    const outcome = await phase.run();
    sample(outcome.stats, true);
    if (waiting) persist({ waiting: null });
    await saving;
    const finishedAt = now().toISOString();
    const facts = { notes: outcome.notes, rateUsage: outcome.rateUsage };
    if (outcome.status !== 'interrupted')
      await repository.updateRun(run.id, { stats: outcome.stats });
    switch (outcome.status) {
      case 'interrupted':
        return { runId: run.id, status: 'interrupted', stats: outcome.stats, ...facts };
      case 'failed': {
        await repository.updateRun(run.id, {
          status: 'failed',
          phase: 'done',
          finishedAt,
          errorCode: outcome.code,
          errorMessage: outcome.message,
        });
        if (lifecycle)
          await repository.setLifecycle(
            migrationId,
            { status: 'failed' },
            statusesLeadingTo('failed'),
          );
        const result: ExecuteResult = {
          runId: run.id,
          status: 'failed',
          code: outcome.code,
          message: outcome.message,
          stats: outcome.stats,
          ...facts,
        };
        await options.onMigrated?.(result);
        return result;
      }
      case 'payment_required': {
        // The migration stays in progress at step 4: it is paused, not failed, until a top-up.
        await repository.updateRun(run.id, {
          status: 'payment_required',
          phase: 'done',
          finishedAt,
          errorCode: 'payment_required',
          errorMessage: outcome.message,
        });
        const result: ExecuteResult = {
          runId: run.id,
          status: 'payment_required',
          code: 'payment_required',
          message: outcome.message,
          stats: outcome.stats,
          ...facts,
        };
        await options.onMigrated?.(result);
        return result;
      }
      case 'completed': {
        const verify = options.verify !== false;
        await repository.updateRun(run.id, {
          status: 'completed',
          phase: verify ? 'verify' : 'done',
          finishedAt,
        });
        if (lifecycle)
          await repository.setLifecycle(
            migrationId,
            { status: 'completed', currentStep: 5, completedAt: finishedAt },
            statusesLeadingTo('completed'),
          );
        await options.onMigrated?.({
          runId: run.id,
          status: 'completed',
          stats: outcome.stats,
          ...facts,
        });
        run = { ...run, status: 'completed', phase: verify ? 'verify' : 'done' };
        migratedStats = outcome.stats;
        runFacts = facts;
        if (!verify) return { runId: run.id, status: 'completed', stats: outcome.stats, ...facts };
        break;
      }
    }
  }

  // Verification (also the place a run interrupted while verifying picks up again).
  let verification: VerificationResult;
  try {
    verification = await verifyMigration({
      repository,
      migrationId,
      streams,
      // The source as it is: the verification applies the same transforms itself.
      source: options.source,
      mappings,
      destination: options.destination,
      retry,
      signal: options.signal,
      mode: options.verifyMode ?? run.verifyMode ?? 'incremental',
      runId: run.id,
      mappedOnly: kind === 'demo',
      now,
      onProgress: () =>
        options.onProgress?.({ runId: run.id, phase: 'verify', entity: null, stats: {} }),
    });
  } catch (error) {
    if (options.signal?.aborted)
      return { runId: run.id, status: 'interrupted', stats: {}, ...runFacts };
    const failure =
      error instanceof EngineError ? error : fatalError(error, 'destination', 'verifying');
    verification = {
      status: 'failed',
      checkedAt: now().toISOString(),
      message: failure.message,
      matched: 0,
      mismatched: 0,
      missing: 0,
      entities: {},
      examples: { mismatched: [], missing: [] },
    };
  }
  // The old addresses lead to the new ones: redirects written where the destination keeps them.
  let notes = runFacts.notes;
  if (kind === 'migration' && chosen.createRedirects) {
    const written = await writeDestinationRedirects({
      repository,
      migrationId,
      destination: options.destination,
      watch: new StoreWatch('destination', retry),
      signal: options.signal,
    });
    if (options.signal?.aborted)
      return { runId: run.id, status: 'interrupted', stats: {}, ...runFacts };
    if (written.length)
      notes = [...(notes ?? run.notes).filter((n) => !n.startsWith('301 redirects')), ...written];
  }
  await repository.updateRun(run.id, {
    verification,
    phase: 'done',
    ...(notes !== runFacts.notes && notes ? { notes } : {}),
  });
  return {
    runId: run.id,
    status: 'completed',
    stats: migratedStats,
    verification,
    ...runFacts,
    ...(notes ? { notes } : {}),
  };
}
