import { hasSelectedData, storesReady } from '@replatform/contracts/lifecycle';
import { normaliseStatus } from '@replatform/contracts/migration';
import type { EngineJob } from '@replatform/db/engine-jobs-repository';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import type { CurrentUser } from '../auth/require-user.ts';
import { ApiError } from '../http/errors.ts';
import type { EngineServices } from './engine-services.ts';
import { DEMO_SANDBOX_ONLY } from './start-migration.ts';

/** How many free demo migrations may be run, and how big each is (config demoMigration). */
export interface DemoLimits {
  /** Records of each selected type a demo moves. */
  limit: number;
  /** Demo runs per migration. */
  perMigration: number;
  /** Demo runs per account in 24 hours, over all its migrations. */
  perDay: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Starts a free demo migration in the background: a few records of each selected type from the
 * source into the destination, before payment, leaving the migration where it is (its status,
 * step and progress). Refused unless both stores are verified and data is selected, while the
 * migration has not started, beyond the per-migration and daily limits, and (demo accounts)
 * between stores other than the sandbox ones. Starting while a demo runs answers that demo.
 * Ownership must have been checked by the caller.
 */
export async function startDemoMigration(
  engine: EngineServices,
  migration: StoredMigration,
  user: Pick<CurrentUser, 'isDemo'>,
  limits: DemoLimits,
  now: Date = new Date(),
): Promise<EngineJob> {
  const live = await engine.jobs.liveJob(migration.id);
  if (live?.kind === 'demo') return live;
  // Before the migration's own first run (its status moves on with the wizard's steps already).
  if (
    (await engine.repository.latestRun(migration.id)) !== undefined ||
    ['completed', 'failed'].includes(normaliseStatus(migration.status))
  )
    throw new ApiError(
      409,
      'demo_after_start',
      'A demo migration runs before the migration itself, and this one has already started.',
    );
  if (live)
    throw new ApiError(
      409,
      'migration_running',
      'The migration itself is running; a demo is for before it starts.',
    );
  const ready = storesReady({
    currentStep: migration.currentStep,
    status: 'pending',
    sourceStore: migration.sourceStore,
    destinationStore: migration.destinationStore,
    sourceVerified: migration.sourceVerified,
    destinationVerified: migration.destinationVerified,
    dataTypes: migration.dataTypes,
    paid: migration.paymentInfo?.paymentStatus === 'paid',
  });
  if (!ready) throw new ApiError(409, 'stores_not_connected', 'Connect both stores first.');
  if (!hasSelectedData(migration.dataTypes))
    throw new ApiError(409, 'no_data_selected', 'Select at least one data type.');
  if (user.isDemo && !engine.isSandbox(migration))
    throw new ApiError(403, 'demo_sandbox_only', DEMO_SANDBOX_ONLY);
  const used = await engine.jobs.demoJobCount(migration.id);
  if (used >= limits.perMigration)
    throw new ApiError(
      429,
      'demo_limit_reached',
      `This migration has had its ${limits.perMigration} free demo migrations. Check the demo records in your destination store, then pay and run the full migration: the records the demos moved are not moved twice.`,
    );
  const today = await engine.jobs.demoJobsOfOwnerSince(
    migration.userId,
    new Date(now.getTime() - DAY_MS).toISOString(),
  );
  if (today >= limits.perDay)
    throw new ApiError(
      429,
      'demo_daily_limit',
      `Your account has run ${limits.perDay} free demo migrations in the last 24 hours, the most it may. Try again tomorrow, or pay and run the full migration.`,
    );

  return queueSideRun(engine, migration, 'demo', {
    what: 'the demo',
    busy: 'The migration itself is running; a demo is for before it starts.',
  });
}

/**
 * Queues a run beside the migration's own (a demo or an undo), which leaves the migration's row as
 * it is: the live job of the same kind is answered as it is; another live job is refused with
 * `busy`.
 */
export async function queueSideRun(
  engine: EngineServices,
  migration: StoredMigration,
  kind: 'demo' | 'undo',
  words: { what: string; busy: string },
): Promise<EngineJob> {
  const pinnedTo = engine.pinFor(migration);
  const started = await engine.jobs.startJob({
    kind,
    migrationId: migration.id,
    userId: migration.userId,
    unlimited: true,
    expectedVersion: migration.version,
    lifecycle: {
      status: migration.status,
      currentStep: migration.currentStep,
      completedAt: migration.completedAt,
    },
    pinnedTo,
    ...engine.runner.queueing(pinnedTo),
  });
  if (started.outcome === 'changed')
    throw new ApiError(
      409,
      'conflict',
      `The migration changed while ${words.what} was being started. Reload and try again.`,
    );
  if (started.outcome === 'already_running') {
    if (started.job.kind === kind) return started.job;
    throw new ApiError(409, 'migration_running', words.busy);
  }
  engine.runner.wake();
  return started.job;
}
