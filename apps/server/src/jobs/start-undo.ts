import { normaliseStatus } from '@replatform/contracts/migration';
import { confirmsUndo } from '@replatform/contracts/undo-migration';
import type { EngineJob } from '@replatform/db/engine-jobs-repository';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import type { CurrentUser } from '../auth/require-user.ts';
import { ApiError } from '../http/errors.ts';
import type { EngineServices } from './engine-services.ts';
import { queueSideRun } from './start-demo.ts';
import { DEMO_SANDBOX_ONLY } from './start-migration.ts';

const UNDO_WHILE_RUNNING =
  'The migration is running. Undo is for a migration that has completed or failed.';

/**
 * Why an undo cannot start now, or undefined when it can: only a completed or failed migration
 * (nothing running), with records it created at the destination.
 */
export async function undoUnavailable(
  engine: EngineServices,
  migration: StoredMigration,
): Promise<{ status: number; code: string; message: string } | undefined> {
  const live = await engine.jobs.liveJob(migration.id);
  if (live?.kind === 'undo') return undefined;
  if (live)
    return {
      status: 409,
      code: 'migration_running',
      message: UNDO_WHILE_RUNNING,
    };
  if (!['completed', 'failed'].includes(normaliseStatus(migration.status)))
    return {
      status: 409,
      code: 'undo_not_available',
      message: 'Only a completed or failed migration can be undone.',
    };
  const created = await engine.repository.undoTotals(migration.id);
  if (!Object.values(created).some((n) => n > 0))
    return {
      status: 409,
      code: 'nothing_to_undo',
      message:
        'The migration has no records left in your destination store that it created: there is nothing to undo.',
    };
  return undefined;
}

/**
 * Starts "Undo this migration" in the background: removes from the destination exactly the
 * records the migration created, with the files and terms stored only for them. Free. Confirmed
 * by the store's name typed by the owner. Starting while an undo runs answers that undo.
 * Ownership must have been checked by the caller.
 */
export async function startUndo(
  engine: EngineServices,
  migration: StoredMigration,
  user: Pick<CurrentUser, 'isDemo'>,
  confirmName: string,
): Promise<EngineJob> {
  const live = await engine.jobs.liveJob(migration.id);
  if (live?.kind === 'undo') return live;
  if (!confirmsUndo(confirmName, migration.storeName))
    throw new ApiError(
      400,
      'confirmation_mismatch',
      `Type the store name "${migration.storeName}" to confirm the undo.`,
    );
  const unavailable = await undoUnavailable(engine, migration);
  if (unavailable) throw new ApiError(unavailable.status, unavailable.code, unavailable.message);
  if (user.isDemo && !engine.isSandbox(migration))
    throw new ApiError(403, 'demo_sandbox_only', DEMO_SANDBOX_ONLY);

  return queueSideRun(engine, migration, 'undo', {
    what: 'the undo',
    busy: UNDO_WHILE_RUNNING,
  });
}
