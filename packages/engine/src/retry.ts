import { isTransient } from '@replatform/connectors/kit/errors';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  /** Wait before the first retry; doubles with each further one (plus jitter). */
  baseDelayMs: number;
  /** Longest single wait, also the cap on an announced Retry-After. */
  maxDelayMs: number;
}

/**
 * The engine's own retries come on top of the HTTP client's (which retries single requests):
 * they cover a whole batch or page that still failed, e.g. during a store outage of a minute.
 */
export const defaultRetryPolicy: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 2_000,
  maxDelayMs: 30_000,
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

/** Runs `task`, retrying transient connector errors with backoff; anything else is thrown at once. */
export async function withRetries<T>(
  task: () => Promise<T>,
  policy: RetryPolicy,
  signal?: AbortSignal,
  onRetry?: (attempt: number, error: unknown) => void,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await task();
    } catch (error) {
      if (!isTransient(error) || attempt >= policy.attempts || signal?.aborted) throw error;
      onRetry?.(attempt, error);
      await sleep(retryDelay(attempt, policy, error), signal);
    }
  }
}
