import { describe, expect, it } from 'vitest';
import type { EngineJob } from '@replatform/db/engine-jobs-repository';
import type { EngineRun } from '@replatform/db/engine-repository';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import { progressOf } from './get-migration-progress.ts';

const started = Date.parse('2025-05-06T10:00:00.000Z');
const minute = 60_000;

// Only the fields progressOf reads; the rest of the row does not matter here.
const migration = {
  status: 'in-progress',
  currentStep: 4,
  dataTypes: { products: true, customers: true, orders: false },
  entityCounts: { products: 1000, customers: 200, orders: 50 },
  migrationStats: {
    products: { total: 1000, migrated: 400, failed: 0 },
    customers: { total: 200, migrated: 0, failed: 0 },
  },
} as unknown as StoredMigration;

const job = { state: 'running' } as EngineJob;

function runOf(over: Partial<EngineRun>): EngineRun {
  return {
    id: 'run-1',
    migrationId: 'm-1',
    kind: 'migration',
    status: 'running',
    phase: 'migrate',
    entities: ['products', 'customers'],
    startedAt: new Date(started).toISOString(),
    finishedAt: null,
    errorCode: null,
    errorMessage: null,
    verification: null,
    notes: [],
    waiting: null,
    // 100 records a minute for four minutes.
    samples: [1, 2, 3, 4].map((m) => [started + m * minute, m * 100]),
    verifyMode: null,
    limitedBy: null,
    stats: null,
    updatedAt: new Date(started).toISOString(),
    ...over,
  };
}

describe('progress of a running migration', () => {
  it('carries the samples from the run start, the measured rate and the time left', () => {
    const p = progressOf(migration, job, runOf({}));
    expect(p.state).toBe('running');
    expect(p.waiting).toBeUndefined();
    expect(p.speed).toEqual({
      startedAt: '2025-05-06T10:00:00.000Z',
      finishedAt: null,
      samples: [
        [minute, 100],
        [2 * minute, 200],
        [3 * minute, 300],
        [4 * minute, 400],
      ],
      recordsPerMinute: 100,
      averagePerMinute: 100,
      // 1,200 selected, 400 done: 800 at 100 a minute.
      secondsLeft: 8 * 60,
      limitedBy: null,
    });
    // The engine found the destination answering as fast as it can at its last sample.
    expect(progressOf(migration, job, runOf({ limitedBy: 'destination' })).speed?.limitedBy).toBe(
      'destination',
    );
  });

  it('says which store it waits for and when it is tried next, and tells no time left then', () => {
    const waiting = {
      side: 'destination' as const,
      since: '2025-05-06T10:04:10.000Z',
      retryAt: '2025-05-06T10:06:00.000Z',
      reason: 'The store answered 502',
    };
    const p = progressOf(migration, job, runOf({ waiting }));
    expect(p.waiting).toEqual({
      store: 'destination',
      since: waiting.since,
      retryAt: waiting.retryAt,
    });
    expect(p.speed?.secondsLeft).toBeNull();
    expect(p.speed?.recordsPerMinute).toBe(100);
  });

  it('tells no time left and no waiting once the run has stopped', () => {
    const failed = { ...migration, status: 'failed' } as StoredMigration;
    const run = runOf({
      status: 'failed',
      phase: 'done',
      finishedAt: '2025-05-06T10:05:00.000Z',
      waiting: { side: 'source', since: 'x', retryAt: 'y', reason: 'z' },
    });
    const p = progressOf(failed, { state: 'failed' } as EngineJob, run);
    expect(p.state).toBe('failed');
    expect(p.waiting).toBeUndefined();
    expect(p.speed).toMatchObject({
      finishedAt: '2025-05-06T10:05:00.000Z',
      secondsLeft: null,
    });
  });

  it('has no speed before any run', () => {
    expect(progressOf(migration, undefined, undefined).speed).toBeUndefined();
  });
});
