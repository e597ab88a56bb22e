import type { Release, RequestOutcome } from './rate-limiter.ts';

/**
 * Requests in flight to one store, sized by the store's own answers instead of a constant
 * (the gradient approach of Netflix's concurrency-limits, with TCP's multiplicative decrease on
 * overload). A store that answers as fast with more requests in flight gets more; one whose
 * answers slow down as requests pile up (a PHP store with as many workers as cores) gets fewer;
 * one that times out or answers 429/5xx is halved at once. Shared by every lane of a run, so
 * products and customers written side by side share the store's capacity.
 *
 * Latency is compared per kind of request (a batch of 100 creates is not a page read): a short
 * moving average of recent answers against the fastest answer of that kind (which drifts up
 * slowly, so a store that became slower for good is not punished for ever). While answers stay
 * within `tolerance` of the fastest, the limit grows by one; beyond it, it shrinks in proportion,
 * so it settles where the store answers in about `tolerance` times its unloaded time.
 */
export interface AdaptiveLimiterOptions {
  /** Requests allowed in flight at first (2 for a small PHP store). */
  initial: number;
  min?: number;
  max: number;
  /** How much slower than usual answers may get before the limit shrinks (default 1.5). */
  tolerance?: number;
  now?: () => number;
}

export interface AdaptiveLimiter {
  /** Waits for a slot; `kind` groups requests whose answers take alike (method and path). */
  acquire(signal?: AbortSignal, kind?: string): Promise<Release>;
  /** The current limit (fractional; floor() requests may be in flight). */
  readonly limit: number;
  readonly inFlight: number;
  readonly queued: number;
  /** What it saw so far: answers, overloads, and the limit's range. */
  stats(): { answers: number; overloads: number; lowest: number; highest: number };
}

interface Waiter {
  grant: (release: Release) => void;
  signal: AbortSignal | undefined;
  kind: string;
  onAbort: () => void;
}

interface Pace {
  /** Fastest answer seen, drifting up by 0.5 % per answer. */
  fastest: number;
  /** Moving average of the last few answers. */
  recent: number;
}

export function createAdaptiveLimiter(options: AdaptiveLimiterOptions): AdaptiveLimiter {
  const min = Math.max(1, options.min ?? 1);
  const max = Math.max(min, options.max);
  const tolerance = options.tolerance ?? 1.25;
  const now = options.now ?? (() => performance.now());
  let limit = Math.min(max, Math.max(min, options.initial));
  let inFlight = 0;
  const paces = new Map<string, Pace>();
  let answers = 0;
  let overloads = 0;
  let lowest = limit;
  let highest = limit;
  const waiters: Waiter[] = [];

  const setLimit = (value: number) => {
    limit = Math.min(max, Math.max(min, value));
    lowest = Math.min(lowest, limit);
    highest = Math.max(highest, limit);
  };

  const observe = (kind: string, rttMs: number, outcome: RequestOutcome, saturated: boolean) => {
    if (outcome === 'overload') {
      overloads += 1;
      setLimit(Math.floor(limit / 2));
      return;
    }
    if (outcome !== 'ok') return;
    answers += 1;
    const rtt = Math.max(1, rttMs);
    const pace = paces.get(kind) ?? { fastest: rtt, recent: rtt };
    pace.fastest = Math.min(pace.fastest * 1.005, rtt);
    pace.recent = pace.recent * 0.7 + rtt * 0.3;
    paces.set(kind, pace);
    const gradient = Math.max(0.5, Math.min(1, (tolerance * pace.fastest) / pace.recent));
    // Grow only when the limit was in use: an idle limit says nothing about the store.
    const target = limit * gradient + (saturated && gradient === 1 ? 1 : 0);
    setLimit(limit * 0.8 + target * 0.2);
  };

  const grantNext = () => {
    while (waiters.length && inFlight < Math.floor(limit)) {
      const waiter = waiters.shift() as Waiter;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      waiter.grant(start(waiter.kind));
    }
  };

  const start = (kind: string): Release => {
    inFlight += 1;
    const saturated = inFlight >= Math.floor(limit);
    const started = now();
    let done = false;
    return (outcome: RequestOutcome = 'ok') => {
      if (done) return;
      done = true;
      inFlight -= 1;
      observe(kind, now() - started, outcome, saturated);
      grantNext();
    };
  };

  return {
    acquire(signal, kind = '') {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (inFlight < Math.floor(limit) && waiters.length === 0) return Promise.resolve(start(kind));
      return new Promise<Release>((resolve, reject) => {
        const waiter: Waiter = {
          grant: resolve,
          signal,
          kind,
          onAbort: () => {
            const at = waiters.indexOf(waiter);
            if (at >= 0) waiters.splice(at, 1);
            reject(signal?.reason);
          },
        };
        signal?.addEventListener('abort', waiter.onAbort, { once: true });
        waiters.push(waiter);
      });
    },
    get limit() {
      return limit;
    },
    get inFlight() {
      return inFlight;
    },
    get queued() {
      return waiters.length;
    },
    stats: () => ({ answers, overloads, lowest, highest }),
  };
}
