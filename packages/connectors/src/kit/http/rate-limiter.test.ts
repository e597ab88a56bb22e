import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createRateLimiter } from './rate-limiter.ts';
import type { RateLimiter } from './rate-limiter.ts';

/** Starts `count` acquisitions that release `holdMs` after being granted; returns grant times. */
function drive(limiter: RateLimiter, count: number, holdMs = 0): number[] {
  const grants: number[] = [];
  for (let i = 0; i < count; i++) {
    void limiter.acquire().then((release) => {
      grants.push(Date.now());
      setTimeout(release, holdMs);
    });
  }
  return grants;
}

function maxInWindow(times: number[], windowMs: number): number {
  let max = 0;
  for (const start of times) {
    max = Math.max(max, times.filter((t) => t >= start && t < start + windowMs).length);
  }
  return max;
}

describe('createRateLimiter', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('never starts more than requestsPerInterval in any window of intervalMs', async () => {
    const limiter = createRateLimiter({ requestsPerInterval: 3, intervalMs: 1_000 });
    const grants = drive(limiter, 20);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(grants).toHaveLength(20);
    expect(maxInWindow(grants, 1_000)).toBe(3);
    // And it uses the budget rather than idling: 20 requests at 3/s finish within 7 s.
    expect(grants.at(-1)).toBeLessThanOrEqual(6_000);
  });

  it('keeps at most maxConcurrent requests in flight', async () => {
    const limiter = createRateLimiter({
      requestsPerInterval: 100,
      intervalMs: 1_000,
      maxConcurrent: 2,
    });
    let peak = 0;
    const grants: number[] = [];
    for (let i = 0; i < 6; i++) {
      void limiter.acquire().then((release) => {
        grants.push(Date.now());
        peak = Math.max(peak, limiter.active);
        setTimeout(release, 100);
      });
    }
    await vi.advanceTimersByTimeAsync(1_000);
    expect(grants).toEqual([0, 0, 100, 100, 200, 200]);
    expect(peak).toBe(2);
    expect(limiter.active).toBe(0);
  });

  it('waits for the server window when update() says the quota is used up', async () => {
    const limiter = createRateLimiter({ requestsPerInterval: 100, intervalMs: 1_000 });
    limiter.update({ remaining: 0, resetMs: 5_000 });
    const grants = drive(limiter, 1);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(grants).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(grants).toEqual([5_000]);
  });

  it('spends the reported remaining requests, then waits for the reset', async () => {
    const limiter = createRateLimiter({ requestsPerInterval: 100, intervalMs: 1_000 });
    limiter.update({ remaining: 2, resetMs: 3_000 });
    const grants = drive(limiter, 4);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(grants).toEqual([0, 0, 3_000, 3_000]);
  });

  it('reserves the requests still in flight when the server reports its quota', async () => {
    const limiter = createRateLimiter({ requestsPerInterval: 100, intervalMs: 1_000 });
    const held = await Promise.all([limiter.acquire(), limiter.acquire()]);
    limiter.update({ remaining: 3, resetMs: 2_000 });
    held.forEach((release) => release());
    const grants = drive(limiter, 3);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(grants).toEqual([0, 2_000, 2_000]);
  });

  it('releases once even if release is called twice', async () => {
    const limiter = createRateLimiter({
      requestsPerInterval: 10,
      intervalMs: 1_000,
      maxConcurrent: 1,
    });
    const release = await limiter.acquire();
    release();
    release();
    expect(limiter.active).toBe(0);
    const next = await limiter.acquire();
    expect(limiter.active).toBe(1);
    next();
  });

  it('drops a waiter whose signal aborts', async () => {
    const limiter = createRateLimiter({ requestsPerInterval: 1, intervalMs: 1_000 });
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    expect(limiter.queued).toBe(1);
    controller.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    expect(limiter.queued).toBe(0);
  });

  it('rejects nonsense configuration', () => {
    expect(() => createRateLimiter({ requestsPerInterval: 0, intervalMs: 1_000 })).toThrow(
      RangeError,
    );
    expect(() => createRateLimiter({ requestsPerInterval: 1, intervalMs: -1 })).toThrow(RangeError);
  });
});
