import { canChangeStatus, hasSelectedData, storesReady } from '@replatform/contracts/lifecycle';
import {
  countsByType,
  dataTypeNames,
  normaliseStatus,
  type EntityCounts,
} from '@replatform/contracts/migration';
import { formatUsd, priceFor } from '@replatform/contracts/pricing';
import type { EngineJob, RemigrationStart } from '@replatform/db/engine-jobs-repository';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import { paidRecordLimit } from '@replatform/engine/payment-limit';
import { selectedDataTypes } from '@replatform/engine/plan';
import type { CurrentUser } from '../auth/require-user.ts';
import { ApiError } from '../http/errors.ts';
import type { EngineServices } from './engine-services.ts';

export const DEMO_SANDBOX_ONLY =
  'Demo accounts can migrate only between the built-in sandbox stores. Create an account to migrate your own stores.';

export type StartCheck =
  { ok: true; unlimited: boolean; remigration?: RemigrationStart } | { ok: false; error: ApiError };

/** Records of the selected types, as last counted. */
export function countedRecords(migration: StoredMigration): number {
  return selectedDataTypes(migration.dataTypes).reduce(
    (sum, type) => sum + (Number(migration.entityCounts[type]) || 0),
    0,
  );
}

/** Whether every selected data type has been counted in the source at least once. */
export function isCounted(migration: StoredMigration): boolean {
  return selectedDataTypes(migration.dataTypes).every(
    (type) => typeof migration.entityCounts[type] === 'number',
  );
}

/** The counts of the selected types (0 for the others), for prices and payment checks. */
function selectedCountsOf(migration: StoredMigration): EntityCounts {
  return countsByType(
    dataTypeNames.map((type) =>
      migration.dataTypes[type] ? Number(migration.entityCounts[type]) || 0 : 0,
    ),
  );
}

/** Nothing moved yet of the selected types, as a new run begins. */
function freshProgress(migration: StoredMigration) {
  const counts = selectedCountsOf(migration);
  return {
    migrationStats: Object.fromEntries(
      selectedDataTypes(migration.dataTypes).map((type) => [
        type,
        { total: counts[type] ?? 0, migrated: 0, failed: 0 },
      ]),
    ),
    migratedEntities: 0,
  };
}

/** What a start has to know beyond the migration row. */
export interface StartFacts {
  /** Demo accounts and migrations between sandbox stores never pay. */
  free: 'demo' | 'sandbox' | false;
  /** Re-migrations already started on this migration. */
  remigrations: number;
  /** The paid quote for the next re-migration, if the owner bought it. */
  paidRemigrationQuote?: string | undefined;
}

/**
 * Whether the owner may start the run, and as what:
 * - a first run (pending, or in progress and parked for a top-up): both stores verified, data
 *   selected, and paid for at least the counted records;
 * - a failed migration: resumed, free (it was paid for);
 * - a completed migration: a re-migration over the current selection, writing only new or
 *   changed records. The first re-migration is free; each further one is paid like a migration
 *   (base fee plus the counted records, @replatform/contracts/pricing) through the normal
 *   checkout, and refused with 402 until then.
 * Demo accounts and sandbox migrations never pay. A store that grew beyond what was paid for
 * needs a top-up first (402) in every case that pays.
 */
export function checkStart(migration: StoredMigration, facts: StartFacts): StartCheck {
  const status = normaliseStatus(migration.status);
  const lifecycle = {
    currentStep: migration.currentStep,
    status,
    sourceStore: migration.sourceStore,
    destinationStore: migration.destinationStore,
    sourceVerified: migration.sourceVerified,
    destinationVerified: migration.destinationVerified,
    dataTypes: migration.dataTypes,
    paid: migration.paymentInfo?.paymentStatus === 'paid',
  };
  if (!storesReady(lifecycle)) {
    return {
      ok: false,
      error: new ApiError(409, 'stores_not_connected', 'Connect both stores first.'),
    };
  }
  if (!hasSelectedData(lifecycle.dataTypes)) {
    return {
      ok: false,
      error: new ApiError(409, 'no_data_selected', 'Select at least one data type.'),
    };
  }
  if (!canChangeStatus(status, 'in-progress')) {
    return {
      ok: false,
      error: new ApiError(409, 'step_not_allowed', 'This migration cannot be started now.'),
    };
  }

  let remigration: RemigrationStart | undefined;
  if (status === 'completed') {
    const number = facts.remigrations + 1;
    if (number === 1) remigration = { number, basis: 'first' };
    else if (facts.free) remigration = { number, basis: facts.free };
    else if (facts.paidRemigrationQuote)
      remigration = { number, basis: 'paid', quoteId: facts.paidRemigrationQuote };
    else {
      const price = priceFor(selectedCountsOf(migration));
      return {
        ok: false,
        error: new ApiError(
          402,
          'payment_required',
          `This would be re-migration ${number} of this migration. The first re-migration is free; each further one costs ${formatUsd(price.baseCents)} plus ${formatUsd(price.volumeCents)} for the ${price.records.toLocaleString('en-US')} records in your store (${formatUsd(price.totalCents)}). Complete the payment, then start it again.`,
          [`amountDueCents=${price.totalCents}`, `records=${price.records}`],
        ),
      };
    }
  }

  if (facts.free) return { ok: true, unlimited: true, ...(remigration ? { remigration } : {}) };
  if (!lifecycle.paid) {
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
  return { ok: true, unlimited: false, ...(remigration ? { remigration } : {}) };
}

export interface StartResult {
  job: EngineJob;
  alreadyRunning: boolean;
  /** The re-migration this start counts as (1 = the free first one), when it is one. */
  remigration?: number;
}

/**
 * Starts the migration's run in the background: step 4, in progress, and a queued job that a
 * worker picks up at once, in one transaction (with the re-migration it counts as, if any).
 * Starting a migration that is already running changes nothing. The source is counted first
 * when its counts were never taken (payment is checked against them) and before a
 * re-migration (the store may have grown since). Ownership must have been checked by the caller
 * (the migration was found for the user).
 */
export async function startMigration(
  engine: EngineServices,
  migration: StoredMigration,
  user: Pick<CurrentUser, 'isDemo'>,
  options: { changedSince?: string | undefined } = {},
): Promise<StartResult> {
  const live = await engine.jobs.liveJob(migration.id);
  if (live?.kind === 'demo')
    throw new ApiError(
      409,
      'demo_running',
      'A demo migration is running. Start the migration once it has finished: the records it moved are not moved twice.',
    );
  if (live) return { job: live, alreadyRunning: true };

  // Judged by the credentials sealed on the migration now, which are what the run will use.
  const sandbox = engine.isSandbox(migration);
  if (user.isDemo && !sandbox) {
    throw new ApiError(403, 'demo_sandbox_only', DEMO_SANDBOX_ONLY);
  }
  const free = sandbox ? (user.isDemo ? 'demo' : 'sandbox') : false;
  if (!free && migration.paymentInfo?.demo === true && engine.demoPaymentsOnlyForSandbox) {
    throw new ApiError(
      402,
      'payment_required',
      'This migration was paid with a demo payment, which covers only the built-in sandbox stores. Create a new migration and check out with Stripe to move these stores.',
    );
  }
  let current = migration;
  const again = normaliseStatus(current.status) === 'completed';
  if (options.changedSince !== undefined) {
    // A recent-data run leaves alone what an earlier run wrote: only a re-migration has that.
    if (!again)
      throw new ApiError(
        409,
        'recent_data_needs_a_run',
        'Only a completed migration can be run again for recent changes: the first run moves everything.',
      );
    if (options.changedSince > new Date().toISOString().slice(0, 10))
      throw new ApiError(400, 'invalid_date', 'Choose a day that is not in the future.');
  }
  // After a finished or failed run the engine starts a new one, whose figures begin at zero.
  const startsOver = again || normaliseStatus(current.status) === 'failed';
  if (!free && hasSelectedData(current.dataTypes) && (again || !isCounted(current))) {
    current = await engine.recount(current);
  }
  const remigrations = await engine.remigrations.count(current.id);
  const check = checkStart(current, {
    free,
    remigrations,
    paidRemigrationQuote: again
      ? await engine.remigrations.paidQuoteFor(current.id, remigrations + 1)
      : undefined,
  });
  if (!check.ok) throw check.error;

  const pinnedTo = engine.pinFor(current);
  const started = await engine.jobs.startJob({
    migrationId: current.id,
    userId: current.userId,
    unlimited: check.unlimited,
    expectedVersion: current.version,
    lifecycle: {
      status: 'in-progress',
      currentStep: 4,
      completedAt: null,
      newRun: startsOver || current.startedAt === null,
    },
    ...(startsOver ? { progress: freshProgress(current) } : {}),
    remigration: check.remigration,
    changedSince: options.changedSince,
    pinnedTo,
    ...engine.runner.queueing(pinnedTo),
  });
  if (started.outcome === 'changed') {
    throw new ApiError(
      409,
      'conflict',
      'The migration changed while it was being started. Reload and try again.',
    );
  }
  if (started.outcome === 'already_running') return { job: started.job, alreadyRunning: true };
  engine.runner.wake();
  return {
    job: started.job,
    alreadyRunning: false,
    ...(check.remigration ? { remigration: check.remigration.number } : {}),
  };
}
