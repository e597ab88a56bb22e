import { normaliseStatus } from '@replatform/contracts/migration';
import type { EngineJob } from '@replatform/db/engine-jobs-repository';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import { ApiError } from '../http/errors.ts';
import type { EngineServices } from './engine-services.ts';

/**
 * Verifies a completed migration again, re-reading both stores in full: its last run is reopened
 * at verification (mode 'full') and a job queued for it, in one transaction, so the worker that
 * takes the job runs the engine's verification of that run instead of a new migration, and the
 * detail page shows "verifying" and then the new result. Nothing is written to either store.
 * Refused (409) while a run is live or when the migration has no finished run to verify.
 * Ownership must have been checked by the caller.
 */
export async function startVerification(
  engine: EngineServices,
  migration: StoredMigration,
): Promise<EngineJob> {
  if (await engine.jobs.liveJob(migration.id)) {
    throw new ApiError(409, 'run_active', 'The migration is running; verify it once it is done.');
  }
  const run = await engine.repository.latestRun(migration.id);
  if (normaliseStatus(migration.status) !== 'completed' || run?.phase !== 'done') {
    throw new ApiError(409, 'not_completed', 'Only a completed migration can be verified again.');
  }
  const pinnedTo = engine.pinFor(migration);
  const started = await engine.jobs.startJob({
    migrationId: migration.id,
    userId: migration.userId,
    // A verification writes nothing, so there is no paid limit to hold it to.
    unlimited: true,
    expectedVersion: migration.version,
    lifecycle: {
      status: migration.status,
      currentStep: migration.currentStep,
      completedAt: migration.completedAt,
    },
    reverify: { runId: run.id, mode: 'full' },
    pinnedTo,
    ...engine.runner.queueing(pinnedTo),
  });
  if (started.outcome !== 'started') {
    throw new ApiError(
      409,
      started.outcome === 'already_running' ? 'run_active' : 'conflict',
      started.outcome === 'already_running'
        ? 'The migration is running; verify it once it is done.'
        : 'The migration changed meanwhile. Reload and try again.',
    );
  }
  engine.runner.wake();
  return started.job;
}
