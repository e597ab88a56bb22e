import { canChangeStatus, hasSelectedData, storesReady } from '@replatform/contracts/lifecycle';
import { normaliseStatus } from '@replatform/contracts/migration';
import type { EngineJob } from '@replatform/db/engine-jobs-repository';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import { paidRecordLimit } from '@replatform/engine/payment-limit';
import { selectedDataTypes } from '@replatform/engine/plan';
import type { CurrentUser } from '../auth/require-user.ts';
import { ApiError } from '../http/errors.ts';
import type { EngineServices } from './engine-services.ts';

export type StartCheck = { ok: true; unlimited: boolean } | { ok: false; error: ApiError };

/** Records (products + customers + orders) of the selected types, as last counted. */
export function countedRecords(migration: StoredMigration): number {
  return selectedDataTypes(migration.dataTypes).reduce(
    (sum, type) => sum + (Number(migration.entityCounts[type]) || 0),
    0,
  );
}

/**
 * Whether the owner may start (or restart) the run: both stores verified, data selected, and
 * paid for at least the counted records, unless it is a demo account or a sandbox migration
 * (which never costs anything).
 */
export function checkStart(
  migration: StoredMigration,
  user: Pick<CurrentUser, 'isDemo'>,
  isSandbox: (migration: StoredMigration) => boolean,
): StartCheck {
  const facts = {
    currentStep: migration.currentStep,
    status: normaliseStatus(migration.status),
    sourceStore: migration.sourceStore,
    destinationStore: migration.destinationStore,
    sourceVerified: migration.sourceVerified,
    destinationVerified: migration.destinationVerified,
    dataTypes: migration.dataTypes,
    paid: migration.paymentInfo?.paymentStatus === 'paid',
  };
  if (!storesReady(facts)) {
    return {
      ok: false,
      error: new ApiError(409, 'stores_not_connected', 'Connect both stores first.'),
    };
  }
  if (!hasSelectedData(facts.dataTypes)) {
    return {
      ok: false,
      error: new ApiError(409, 'no_data_selected', 'Select at least one data type.'),
    };
  }
  if (!canChangeStatus(facts.status, 'in-progress')) {
    return {
      ok: false,
      error: new ApiError(409, 'step_not_allowed', 'This migration cannot be started now.'),
    };
  }
  if (user.isDemo || isSandbox(migration)) return { ok: true, unlimited: true };
  if (!facts.paid) {
    return {
      ok: false,
      error: new ApiError(402, 'payment_required', 'Complete the payment to start the migration.'),
    };
  }
  const paid = paidRecordLimit(migration.paymentInfo);
  const counted = countedRecords(migration);
  if (counted > paid) {
    return {
      ok: false,
      error: new ApiError(
        402,
        'payment_required',
        `Your store holds ${counted} records but ${paid} were paid for. Top up for the ${counted - paid} additional records to start the migration.`,
      ),
    };
  }
  return { ok: true, unlimited: false };
}

/**
 * Starts the migration's run in the background: step 4, in progress, and a queued job that a
 * worker picks up at once. Starting a migration that is already running changes nothing.
 * Ownership must have been checked by the caller (the migration was found for the user).
 */
export async function startMigration(
  engine: EngineServices,
  migration: StoredMigration,
  user: Pick<CurrentUser, 'isDemo'>,
): Promise<{ job: EngineJob; alreadyRunning: boolean }> {
  const live = await engine.jobs.liveJob(migration.id);
  if (live) return { job: live, alreadyRunning: true };
  const check = checkStart(migration, user, engine.isSandbox);
  if (!check.ok) throw check.error;
  await engine.repository.setLifecycle(
    migration.id,
    { status: 'in-progress', currentStep: 4, completedAt: null },
    [migration.status],
  );
  const { job, created } = await engine.jobs.enqueue(migration.id, migration.userId, {
    unlimited: check.unlimited,
  });
  engine.runner.wake();
  return { job, alreadyRunning: !created };
}
