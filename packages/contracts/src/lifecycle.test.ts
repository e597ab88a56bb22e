import { describe, expect, it } from 'vitest';
import { canChangeStatus, checkStepChange, type LifecycleFacts } from './lifecycle.ts';
import { migrationStatuses } from './migration.ts';

const base: LifecycleFacts = {
  currentStep: 1,
  status: 'pending',
  sourceStore: 'woocommerce',
  destinationStore: 'shopify',
  sourceVerified: true,
  destinationVerified: true,
  dataTypes: {},
  paid: false,
};

describe('lifecycle', () => {
  it('allows exactly the transitions of the table', () => {
    const allowed = migrationStatuses.flatMap((from) =>
      migrationStatuses
        .filter((to) => from !== to && canChangeStatus(from, to))
        .map((to) => `${from}->${to}`),
    );
    expect(allowed.sort()).toEqual(
      [
        'completed->in-progress',
        'failed->in-progress',
        'in-progress->completed',
        'in-progress->failed',
        'pending->in-progress',
      ].sort(),
    );
  });

  it('enters step 2 only with both stores connected', () => {
    expect(checkStepChange(base, 2)).toEqual({ ok: true });
    expect(checkStepChange({ ...base, destinationVerified: false }, 2).ok).toBe(false);
    expect(checkStepChange({ ...base, sourceStore: '' }, 2).ok).toBe(false);
  });

  it('enters step 3 only with data selected, and never skips or jumps to 4 or 5', () => {
    expect(checkStepChange({ ...base, currentStep: 2 }, 3).ok).toBe(false);
    expect(checkStepChange({ ...base, currentStep: 2, dataTypes: { orders: true } }, 3)).toEqual({
      ok: true,
    });
    expect(checkStepChange(base, 3).ok).toBe(false);
    expect(checkStepChange({ ...base, currentStep: 3, paid: true }, 4).ok).toBe(false);
    expect(checkStepChange({ ...base, currentStep: 4, paid: true }, 5).ok).toBe(false);
    expect(checkStepChange(base, 0).ok).toBe(false);
    expect(checkStepChange(base, 6).ok).toBe(false);
  });

  it('goes back freely until paid', () => {
    expect(checkStepChange({ ...base, currentStep: 3 }, 1)).toEqual({ ok: true });
    expect(checkStepChange({ ...base, currentStep: 3, paid: true }, 1).ok).toBe(false);
  });

  it('lets a paid migration go back only to supply what it cannot run without', () => {
    const paid = { ...base, currentStep: 3, paid: true, dataTypes: { products: true } };
    expect(checkStepChange(paid, 1).ok).toBe(false);
    expect(checkStepChange(paid, 2).ok).toBe(false);
    expect(checkStepChange({ ...paid, destinationVerified: false }, 1)).toEqual({ ok: true });
    expect(checkStepChange({ ...paid, destinationVerified: false }, 2).ok).toBe(false);
    expect(checkStepChange({ ...paid, dataTypes: {} }, 2)).toEqual({ ok: true });
    expect(checkStepChange({ ...paid, dataTypes: {} }, 1).ok).toBe(false);
  });
});
