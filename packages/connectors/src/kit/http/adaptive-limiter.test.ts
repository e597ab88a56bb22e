import { describe, expect, it } from 'vitest';
import { createAdaptiveLimiter, type AdaptiveLimiter } from './adaptive-limiter.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A store with `cores` workers: a request alone takes `serviceMs`; with more in flight than
 * workers, each takes proportionally longer (they share the cores). `clients` callers keep
 * sending through the limiter for `durationMs`. Returns the limit's average over the second half.
 */
async function drive(
  limiter: AdaptiveLimiter,
  store: { cores: number; serviceMs: number },
  clients: number,
  durationMs: number,
): Promise<{ settled: number; maxInFlight: number }> {
  let inStore = 0;
  let maxInFlight = 0;
  const end = Date.now() + durationMs;
  const seen: number[] = [];
  const client = async () => {
    while (Date.now() < end) {
      const release = await limiter.acquire();
      inStore += 1;
      maxInFlight = Math.max(maxInFlight, inStore);
      await sleep(store.serviceMs * Math.max(1, inStore / store.cores));
      inStore -= 1;
      release('ok');
      if (Date.now() > end - durationMs / 2) seen.push(limiter.limit);
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return { settled: seen.reduce((a, b) => a + b, 0) / seen.length, maxInFlight };
}

describe('adaptive limiter', () => {
  it('settles near what a two-core store can take instead of piling requests on it', async () => {
    const limiter = createAdaptiveLimiter({ initial: 2, max: 16 });
    // Long enough per request that a busy machine's timer jitter is small beside it.
    const { settled, maxInFlight } = await drive(limiter, { cores: 2, serviceMs: 60 }, 12, 3_000);
    expect(settled).toBeGreaterThanOrEqual(1.5);
    expect(settled).toBeLessThan(6);
    expect(maxInFlight).toBeLessThan(8);
  });

  it('grows while the store answers as fast with more in flight', async () => {
    const limiter = createAdaptiveLimiter({ initial: 2, max: 16 });
    const { settled } = await drive(limiter, { cores: 64, serviceMs: 10 }, 16, 1_000);
    expect(settled).toBeGreaterThan(10);
  });

  it('halves at once on an overload and never goes below its minimum', async () => {
    const limiter = createAdaptiveLimiter({ initial: 8, max: 16 });
    (await limiter.acquire())('overload');
    expect(limiter.limit).toBe(4);
    for (let i = 0; i < 5; i += 1) (await limiter.acquire())('overload');
    expect(limiter.limit).toBe(1);
    expect(limiter.stats()).toMatchObject({ overloads: 6, lowest: 1, highest: 8 });
  });

  it('queues callers beyond the limit and lets an aborted one go', async () => {
    const limiter = createAdaptiveLimiter({ initial: 1, max: 1 });
    const first = await limiter.acquire();
    const aborted = new AbortController();
    const waiting = limiter.acquire(aborted.signal);
    const next = limiter.acquire();
    expect(limiter.queued).toBe(2);
    aborted.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    first('ok');
    const second = await next;
    expect(limiter.inFlight).toBe(1);
    second();
    expect(limiter.inFlight).toBe(0);
  });
});
