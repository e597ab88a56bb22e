/**
 * Per-store pacing. A token bucket whose tokens come back exactly `intervalMs` after they were
 * spent, which guarantees at most `requestsPerInterval` request starts in any window of that
 * length (a classic refill-at-a-rate bucket allows twice that across a window boundary, which
 * is what trips platform limits). On top: a cap on concurrent requests, and the quota the
 * server last reported.
 */

export interface RateLimiterOptions {
  requestsPerInterval: number;
  intervalMs: number;
  /** Requests in flight at once; unlimited when absent. */
  maxConcurrent?: number;
}

/** What the platform reported, e.g. BigCommerce X-Rate-Limit-Requests-Left / -Time-Reset-Ms. */
export interface ServerQuota {
  /** Requests left in the server's current window. */
  remaining: number;
  /** Milliseconds until the server's window resets. */
  resetMs: number;
}

/**
 * How a request ended, for limiters that size themselves by the store's answers: 'ok' (any
 * answer that is not an overload), 'overload' (timed out, or 429/502/503/504), 'error' (the
 * connection failed in some other way).
 */
export type RequestOutcome = 'ok' | 'overload' | 'error';

/** Call once the request is finished (response read); calling again does nothing. */
export type Release = (outcome?: RequestOutcome) => void;

export interface RateLimiter {
  /** Waits for a slot; rejects with the signal's reason when aborted while waiting. */
  acquire(signal?: AbortSignal): Promise<Release>;
  /** Feeds a server-reported quota back so requests wait before the quota runs out. */
  update(quota: ServerQuota): void;
  readonly active: number;
  readonly queued: number;
}

interface Waiter {
  grant: (release: Release) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

function positive(name: string, value: number): number {
  if (!(value > 0)) throw new RangeError(`${name} must be positive`);
  return value;
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const perInterval = Math.floor(positive('requestsPerInterval', options.requestsPerInterval));
  const intervalMs = positive('intervalMs', options.intervalMs);
  const maxConcurrent = positive('maxConcurrent', options.maxConcurrent ?? Infinity);

  const starts: number[] = [];
  const waiters: Waiter[] = [];
  let active = 0;
  let serverRemaining: number | undefined;
  let serverResetAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const makeRelease = (): Release => {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      active -= 1;
      pump();
    };
  };

  function pump(): void {
    if (timer !== undefined) {
      clearTimeout(timer);
      timer = undefined;
    }
    while (waiters.length > 0) {
      const now = Date.now();
      while (starts.length > 0 && (starts[0] as number) + intervalMs <= now) starts.shift();
      if (serverRemaining !== undefined && serverResetAt <= now) serverRemaining = undefined;
      if (active >= maxConcurrent) return; // a release pumps again
      let wakeAt = now;
      if (starts.length >= perInterval) wakeAt = (starts[0] as number) + intervalMs;
      if (serverRemaining !== undefined && serverRemaining <= 0) {
        wakeAt = Math.max(wakeAt, serverResetAt);
      }
      if (wakeAt > now) {
        timer = setTimeout(pump, wakeAt - now);
        return;
      }
      const waiter = waiters.shift() as Waiter;
      waiter.signal?.removeEventListener('abort', waiter.onAbort);
      starts.push(now);
      active += 1;
      if (serverRemaining !== undefined) serverRemaining -= 1;
      waiter.grant(makeRelease());
    }
  }

  return {
    acquire(signal?: AbortSignal): Promise<Release> {
      return new Promise<Release>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const waiter: Waiter = {
          grant: resolve,
          signal,
          onAbort: () => {
            const index = waiters.indexOf(waiter);
            if (index >= 0) waiters.splice(index, 1);
            reject(signal?.reason);
            pump();
          },
        };
        signal?.addEventListener('abort', waiter.onAbort, { once: true });
        waiters.push(waiter);
        pump();
      });
    },
    update(quota: ServerQuota): void {
      if (!Number.isFinite(quota.remaining) || !Number.isFinite(quota.resetMs)) return;
      if (quota.resetMs <= 0) {
        serverRemaining = undefined;
      } else {
        // Requests still in flight were not yet counted in the server's figure when it was
        // sent, or will be soon; reserve for them so the burst after the update fits.
        serverRemaining = Math.floor(quota.remaining) - active;
        serverResetAt = Date.now() + quota.resetMs;
      }
      pump();
    },
    get active() {
      return active;
    },
    get queued() {
      return waiters.length;
    },
  };
}
