import type { DataTypes, MigrationStatus } from './migration.ts';

/**
 * The migration lifecycle in one place (spec.md section 4 plus decisions.md): which status
 * changes are legal and what must be true before a migration may enter each step.
 */
export const statusTransitions: Record<MigrationStatus, readonly MigrationStatus[]> = {
  pending: ['in-progress'],
  'in-progress': ['completed', 'failed'],
  // A completed migration may run again (re-migration or recent-data run); a failed one restarts.
  completed: ['in-progress'],
  failed: ['in-progress'],
};

export function canChangeStatus(from: MigrationStatus, to: MigrationStatus): boolean {
  return from === to || statusTransitions[from].includes(to);
}

export interface LifecycleFacts {
  currentStep: number;
  status: MigrationStatus;
  sourceStore: string;
  destinationStore: string;
  sourceVerified: boolean;
  destinationVerified: boolean;
  dataTypes: DataTypes;
  paid: boolean;
}

export type StepCheck = { ok: true } | { ok: false; reason: string };

export function hasSelectedData(dataTypes: DataTypes): boolean {
  return Boolean(dataTypes.products || dataTypes.customers || dataTypes.orders);
}

/** Both stores chosen and connected (verified, or Shopify authorised) — decisions.md section 4. */
export function storesReady(facts: LifecycleFacts): boolean {
  return Boolean(
    facts.sourceStore &&
    facts.destinationStore &&
    facts.sourceVerified &&
    facts.destinationVerified,
  );
}

/**
 * Whether the owner may move the migration to `target` through the API. Going back is allowed
 * until payment; going forward needs what the step builds on. Step 4 is entered only by starting
 * the run and step 5 only by the engine's completion, never by a plain step change.
 */
export function checkStepChange(facts: LifecycleFacts, target: number): StepCheck {
  if (!Number.isInteger(target) || target < 1 || target > 5)
    return { ok: false, reason: 'The step must be 1 to 5.' };
  if (target === facts.currentStep) return { ok: true };
  if (target < facts.currentStep) {
    // A paid migration goes back only to supply what it cannot run without (a store that was
    // not connected, or data not selected, when the payment arrived).
    const missing =
      (target === 1 && !storesReady(facts)) ||
      (target === 2 && storesReady(facts) && !hasSelectedData(facts.dataTypes));
    return facts.paid && !missing
      ? {
          ok: false,
          reason: 'This migration is paid for; its stores and data can no longer be changed.',
        }
      : { ok: true };
  }
  if (target > facts.currentStep + 1) return { ok: false, reason: 'Steps cannot be skipped.' };
  switch (target) {
    case 2:
      return storesReady(facts)
        ? { ok: true }
        : { ok: false, reason: 'Connect both stores first.' };
    case 3:
      return hasSelectedData(facts.dataTypes)
        ? { ok: true }
        : { ok: false, reason: 'Select at least one data type.' };
    case 4:
      return { ok: false, reason: 'Start the migration to enter this step.' };
    default:
      return { ok: false, reason: 'The migration completes on its own when every record is done.' };
  }
}
