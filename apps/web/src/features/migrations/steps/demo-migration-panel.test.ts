import { describe, expect, it } from 'vitest';
import type { DemoMigration } from '@replatform/contracts/demo-migration';
import { demoCheck, demoSummary } from './demo-migration-panel.tsx';

const finished = (over: Partial<DemoMigration> = {}): DemoMigration => ({
  state: 'completed',
  limit: 10,
  runsUsed: 1,
  runsAllowed: 3,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:01:00.000Z',
  entities: {
    products: { migrated: 12, skipped: 0, failed: 0 },
    orders: { migrated: 9, skipped: 0, failed: 1 },
  },
  verification: null,
  records: [],
  ...over,
});
const check = (status: 'passed' | 'failed', mismatched: number, missing = 0) => ({
  status,
  checkedAt: '2026-01-01T00:01:00.000Z',
  entities: { products: { checked: 12, matched: 12 - mismatched, mismatched, missing } },
  knownDifferences: [],
  examples: [],
});

describe('the demo migration panel says', () => {
  it('what the demo moved, and what could not move', () => {
    expect(demoSummary(finished())).toBe('21 records moved, 1 could not be moved');
  });

  it('that every record arrived when the check passed, naming what the destination cannot hold', () => {
    expect(demoCheck(finished({ verification: check('passed', 0) }))).toBe(
      'Checked record by record: every record arrived as it is in your source store.',
    );
    expect(demoCheck(finished({ verification: check('passed', 3) }))).toMatch(
      /every record arrived; what the destination cannot hold is named in the report/,
    );
  });

  it('how many differ when the check failed, and nothing before it ran', () => {
    expect(demoCheck(finished({ verification: check('failed', 2, 1) }))).toBe(
      'Checked record by record: 3 of 12 records differ at the destination; the report says how.',
    );
    expect(demoCheck(finished())).toBeNull();
  });
});
