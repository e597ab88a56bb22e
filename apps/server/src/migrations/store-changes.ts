import type { StoredMigration } from '@replatform/db/migrations-repository';
import type { AppServices } from '../app.ts';
import type { CurrentUser } from '../auth/require-user.ts';
import { ApiError } from '../http/errors.ts';
import type { Side } from './store-credentials.ts';
import { isPaid } from './present-migration.ts';

export const DEMO_SANDBOX_STORES_ONLY =
  'Demo accounts can connect only the built-in sandbox stores, which the form fills in for you. Create an account to connect your own stores.';

export const PAYMENT_IN_FLIGHT =
  'A payment for this migration is being processed; its stores and data cannot change until it ends.';

/**
 * Whether a side of the migration is locked by its payment. A paid migration keeps the stores it
 * was paid for; a side that was not connected when the payment arrived (a checkout paid after
 * the store was changed) can still be connected, so no paid migration is left unable to run.
 */
export function sideLockedByPayment(migration: StoredMigration, side: Side): boolean {
  const verified = side === 'source' ? migration.sourceVerified : migration.destinationVerified;
  return isPaid(migration) && verified;
}

/**
 * Refuses a change of one side's store that could make a migration run what nobody paid for:
 * a side its payment locked, a running job, a demo payment being processed.
 */
export async function assertStoreMayChange(
  services: Pick<AppServices, 'engine' | 'payments'>,
  migration: StoredMigration,
  side: Side,
): Promise<void> {
  if (sideLockedByPayment(migration, side)) {
    throw new ApiError(
      409,
      'migration_paid',
      'This migration is paid for; its stores can no longer be changed.',
    );
  }
  // A running migration (a free sandbox or demo run) keeps the stores it started with.
  const live = await services.engine.jobs.liveJob(migration.id);
  if (live) {
    throw new ApiError(
      409,
      'migration_running',
      live.kind === 'demo'
        ? 'A demo migration is running; the stores can change once it has finished.'
        : 'This migration is running; its stores cannot change until it ends.',
    );
  }
  if (await services.payments.demoPaymentInFlight(migration.id)) {
    throw new ApiError(409, 'payment_in_flight', PAYMENT_IN_FLIGHT);
  }
}

/**
 * A demo account connects only sandbox stores: checked before the store is contacted, so a demo
 * account never reaches a real store at all.
 */
export function assertDemoMayConnect(
  engine: Pick<AppServices['engine'], 'isSandboxStore'>,
  user: CurrentUser,
  store: { platform: string; address: string },
): void {
  if (user.isDemo && !engine.isSandboxStore(store.platform, store.address)) {
    throw new ApiError(403, 'demo_sandbox_only', DEMO_SANDBOX_STORES_ONLY);
  }
}
