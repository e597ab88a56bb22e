import { describe, expect, it } from 'vitest';
import { claimAutoOpen, firstInProgress, settleAutoOpen } from './selected-migration.ts';

describe('opening a migration from the dashboard on load', () => {
  it('picks the first in-progress migration, not a pending, failed or completed one', () => {
    const list = [
      { id: 'a', status: 'pending' },
      { id: 'b', status: 'completed' },
      { id: 'c', status: 'in-progress' },
      { id: 'd', status: 'in-progress' },
    ];
    expect(firstInProgress(list)?.id).toBe('c');
    expect(firstInProgress(list.slice(0, 2))).toBeUndefined();
  });

  it('opens automatically once per page load only', () => {
    expect(claimAutoOpen()).toBe(true);
    expect(claimAutoOpen()).toBe(false);
    settleAutoOpen();
    expect(claimAutoOpen()).toBe(false);
  });
});
