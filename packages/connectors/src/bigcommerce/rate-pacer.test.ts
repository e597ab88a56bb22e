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
