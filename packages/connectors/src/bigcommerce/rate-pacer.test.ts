import { describe, expect, it } from 'vitest';
import { quotaHeaders, RatePacer } from './rate-pacer.ts';

/** A pacer on a fake clock: sleeping moves the clock, so the test runs instantly. */
function fakePacer() {
  let now = 0;
  const sleeps: number[] = [];
  const pacer = new RatePacer({
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
  });
  return {
    pacer,
    sleeps,
    advance: (ms: number) => {
      now += ms;
    },
    headers: (left: number, resetMs: number, quota = 150) => ({
      'x-rate-limit-requests-quota': String(quota),
      'x-rate-limit-requests-left': String(left),
      'x-rate-limit-time-reset-ms': String(resetMs),
      'x-rate-limit-time-window-ms': '30000',
    }),
  };
}

describe('RatePacer', () => {
  it('reads the X-Rate-Limit headers in any letter case', () => {
    expect(
      quotaHeaders({
        'X-Rate-Limit-Requests-Quota': '150',
        'X-Rate-Limit-Requests-Left': '7',
        'X-Rate-Limit-Time-Reset-Ms': '1200',
        'X-Rate-Limit-Time-Window-Ms': '30000',
      }),
    ).toEqual({ quota: 150, left: 7, resetMs: 1200, windowMs: 30_000 });
    expect(quotaHeaders({ 'content-type': 'application/json' })).toBeUndefined();
  });

  it('keeps 5 % of the quota (at least one request) for the store’s other apps', async () => {
    const { pacer, sleeps, headers } = fakePacer();
    await pacer.acquire();
    pacer.release(headers(9, 20_000));
    expect(pacer.reserve()).toBe(8);
    // 9 left, 8 reserved: one more request goes now, the next waits for the reset.
    await pacer.acquire();
    pacer.release(headers(8, 19_990));
    expect(sleeps).toEqual([]);
    await pacer.acquire();
    expect(sleeps).toEqual([19_990 + 25]);
    expect(pacer.stats()).toMatchObject({ waits: 1, quota: 150 });
  });

  it('counts requests in flight against the budget before their answers arrive', async () => {
    const { pacer, sleeps, headers } = fakePacer();
    await pacer.acquire();
    pacer.release(headers(12, 10_000, 15));
    // Reserve for 15 is 1: eleven more may be in flight, the twelfth waits.
    for (let i = 0; i < 11; i++) await pacer.acquire();
    expect(sleeps).toEqual([]);
    await pacer.acquire();
    expect(sleeps).toHaveLength(1);
  });

  it('stops at a 429 until the window resets, then has the whole quota again', async () => {
    const { pacer, sleeps, headers, advance } = fakePacer();
    await pacer.acquire();
    pacer.exhausted(headers(0, 3_000));
    await pacer.acquire();
    expect(sleeps).toEqual([3_025]);
    pacer.release(headers(149, 30_000));
    advance(1);
    await pacer.acquire();
    expect(sleeps).toHaveLength(1);
  });

  it('paces by the window the store announces, not by the documented 30 s', async () => {
    const { pacer, sleeps } = fakePacer();
    const short = (left: number, resetMs: number) => ({
      'X-Rate-Limit-Requests-Quota': '20',
      'X-Rate-Limit-Requests-Left': String(left),
      'X-Rate-Limit-Time-Reset-Ms': String(resetMs),
      'X-Rate-Limit-Time-Window-Ms': '2000',
    });
    await pacer.acquire();
    pacer.release(short(1, 1500));
    // Reserve 1 of 20 reached: wait for the announced reset of the 2 s window.
    await pacer.acquire();
    expect(sleeps).toEqual([1525]);
    pacer.release(short(19, 2000));
    expect(pacer.usage().availablePerSecond).toBe(10);
    // Without a window header the longest reset seen bounds the window.
    expect(
      quotaHeaders({
        'X-Rate-Limit-Requests-Quota': '150',
        'X-Rate-Limit-Requests-Left': '100',
        'X-Rate-Limit-Time-Reset-Ms': '45000',
      })?.windowMs,
    ).toBe(45_000);
  });

  it('measures its own requests per second of the windows it worked in', async () => {
    const { pacer, headers, advance } = fakePacer();
    // A burst of 10 into a fresh 30 s window is charged the whole window: 10 / 30 s.
    for (let i = 0; i < 10; i++) {
      await pacer.acquire();
      pacer.release(headers(149 - i, 30_000 - i));
    }
    expect(pacer.usage().usedPerSecond).toBeCloseTo(10 / 30, 5);
    expect(pacer.usage().availablePerSecond).toBe(5);
    // The window closes; 142 requests of this connection in it, plus the next window's first.
    advance(1_000);
    for (let i = 0; i < 132; i++) {
      await pacer.acquire();
      pacer.release(headers(139 - i, 29_000));
    }
    advance(29_100);
    await pacer.acquire();
    pacer.release(headers(149, 30_000));
    expect(pacer.stats().windows).toBe(2);
    // A 429 answer is not counted.
    await pacer.acquire();
    pacer.release(headers(0, 29_000), false);
    expect(pacer.usage().usedPerSecond).toBeCloseTo(142 / 30, 5);
  });

  it('reports the share of the quota used in closed windows', async () => {
    const { pacer, headers, advance } = fakePacer();
    await pacer.acquire();
    pacer.release(headers(140, 30_000));
    await pacer.acquire();
    pacer.release(headers(15, 2_000));
    expect(pacer.stats().utilisation).toBeUndefined();
    advance(2_100);
    await pacer.acquire();
    pacer.release(headers(149, 30_000));
    expect(pacer.stats()).toMatchObject({ windows: 2, utilisation: 135 / 150 });
  });
});
