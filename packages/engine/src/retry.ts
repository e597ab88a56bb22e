import { isTransient } from '@replatform/connectors/kit/errors';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Wait before the first retry; doubles with each further one (plus jitter). */
  baseDelayMs: number;
  /** Longest single wait, also the cap on an announced Retry-After. */
  maxDelayMs: number;
  /**
   * How long a store that keeps failing transiently (down for an update, a hosting hiccup) is
   * waited for once the attempts are spent: it is probed with backoff, the run resumes by itself
   * when it answers, and fails only after this long. 0 or unset: no waiting beyond `attempts`.
   */
  outageMs?: number;
  /** Longest wait between two probes of a store that is down (default 60 s). */
  probeMaxDelayMs?: number;
}

/** A store the run is waiting for (StoreWatch). */
export interface StoreOutage {
  side: 'source' | 'destination';
  /** When the store first failed (ISO-8601). */
  since: string;
  /** When it is probed next (ISO-8601). */
  retryAt: string;
  /** The last failure, in words. */
  reason: string;
}

/**
 * The engine's own retries come on top of the HTTP client's (which retries single requests):
 * they cover a whole batch or page that still failed, e.g. during a store outage of a minute.
 */
export const defaultRetryPolicy: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 2_000,
  maxDelayMs: 30_000,
  // Real stores go down for updates and hosting hiccups: wait for them (probing each minute at
  // most) for half an hour before the run gives up.
  outageMs: 30 * 60_000,
  probeMaxDelayMs: 60_000,
};

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

export function retryDelay(attempt: number, policy: RetryPolicy, error: unknown): number {
  const announced = (error as { retryAfterMs?: unknown }).retryAfterMs;
  const backoff = policy.baseDelayMs * 2 ** (attempt - 1);
  const wanted = typeof announced === 'number' ? Math.max(announced, backoff / 2) : backoff;
  const jitter = 0.5 + Math.random() / 2;
  return Math.min(policy.maxDelayMs, Math.round(wanted * jitter));
}

/**
 * Retries one store's requests for a run, shared by all its lanes: transient failures are retried
 * `attempts` times with backoff and then, while the store keeps failing for less than
 * `outageMs`, probed with a longer backoff (the run waits for the store rather than giving up).
 * Any success ends the outage. `onOutage` hears when the run starts waiting (and each new probe
 * time) and `null` when the store answers again.
 */
export class StoreWatch {
  readonly side: StoreOutage['side'];
  readonly policy: RetryPolicy;
  readonly #onOutage: ((outage: StoreOutage | null) => void) | undefined;
  readonly #now: () => number;
  #firstFailure: number | undefined;
  #waiting = false;

  constructor(
    side: StoreOutage['side'],
    policy: RetryPolicy,
    onOutage?: (outage: StoreOutage | null) => void,
    now: () => number = Date.now,
  ) {
    this.side = side;
    this.policy = policy;
    this.#onOutage = onOutage;
    this.#now = now;
  }

  /** The store answered: whatever outage there was is over. */
  answered(): void {
    this.#firstFailure = undefined;
    if (this.#waiting) {
      this.#waiting = false;
      this.#onOutage?.(null);
    }
  }

  /**
   * How long to wait before attempt `attempt + 1` after `error`, or undefined to give up (not
   * transient, attempts spent and no outage window left, or aborted).
   */
  delayAfter(attempt: number, error: unknown, signal?: AbortSignal): number | undefined {
    if (!isTransient(error) || signal?.aborted) return undefined;
    const now = this.#now();
    this.#firstFailure ??= now;
    if (attempt < this.policy.attempts) return retryDelay(attempt, this.policy, error);
    const outage = this.policy.outageMs ?? 0;
    if (now - this.#firstFailure >= outage) return undefined;
    const probe = Math.min(
      this.policy.probeMaxDelayMs ?? 60_000,
      this.#firstFailure + outage - now,
      retryDelay(
        attempt,
        { ...this.policy, maxDelayMs: this.policy.probeMaxDelayMs ?? 60_000 },
        error,
      ),
    );
    this.#waiting = true;
    this.#onOutage?.({
      side: this.side,
      since: new Date(this.#firstFailure).toISOString(),
      retryAt: new Date(now + probe).toISOString(),
      reason: error instanceof Error ? error.message : String(error),
    });
    return Math.max(0, probe);
  }

  /** Runs `task` until it succeeds or delayAfter gives up. */
  async run<T>(
    task: () => Promise<T>,
    signal?: AbortSignal,
    onRetry?: (attempt: number, error: unknown) => void,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await task();
        this.answered();
        return result;
      } catch (error) {
        const delay = this.delayAfter(attempt, error, signal);
        if (delay === undefined) throw error;
        onRetry?.(attempt, error);
        await sleep(delay, signal);
      }
    }
  }
}
