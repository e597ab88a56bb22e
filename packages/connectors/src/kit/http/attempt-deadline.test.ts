import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestLimiter } from '../contract.ts';
import { attemptDeadline } from './attempt-deadline.ts';

describe('attemptDeadline', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs from the moment the limiter grants a slot, not while the attempt queues', async () => {
    let grant: (() => void) | undefined;
    const limiter: RequestLimiter = {
      acquire: () =>
        new Promise((resolve) => {
          grant = () => resolve(() => {});
        }),
    };
    const queued: number[] = [];
    const deadline = attemptDeadline({
      limiter,
      timeoutMs: 1_000,
      timeoutError: () => new Error('too slow'),
      onQueued: (ms) => queued.push(ms),
    });
    const slot = deadline.limiter?.acquire(undefined, 'GET /x');
    vi.advanceTimersByTime(5_000);
    expect(deadline.signal.aborted).toBe(false);
    grant?.();
    await slot;
    expect(queued).toHaveLength(1);
    vi.advanceTimersByTime(999);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as Error).message).toBe('too slow');
  });

  it('starts at once without a limiter, and stops when cleared', () => {
    const deadline = attemptDeadline({
      limiter: undefined,
      timeoutMs: 1_000,
      timeoutError: () => new Error('too slow'),
    });
    expect(deadline.limiter).toBeUndefined();
    vi.advanceTimersByTime(1_000);
    expect(deadline.signal.aborted).toBe(true);
    const cleared = attemptDeadline({
      limiter: undefined,
      timeoutMs: 1_000,
      timeoutError: () => new Error('too slow'),
    });
    cleared.clear();
    vi.advanceTimersByTime(2_000);
    expect(cleared.signal.aborted).toBe(false);
  });
});
