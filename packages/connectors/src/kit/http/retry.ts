/** Retry policy for outbound requests: what is retried, and how long to wait in between. */

export interface RetryOptions {
  /** Total attempts including the first one. */
  maxAttempts: number;
  /** Backoff ceiling for the first retry; doubles with each further retry. */
  baseDelayMs: number;
  /**
   * Longest single wait. A Retry-After beyond it is not waited for: the request gives up and the
   * error carries retryAfterMs, so the engine can reschedule instead of holding a worker.
   */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** Statuses that say "not now" rather than "no". */
const TRANSIENT_STATUSES = new Set([408, 429, 502, 503, 504]);

/**
 * Whether the request may be sent again at all. Idempotent methods may unless the caller opts
 * out; POST and PATCH only when the caller vouches that a repeat is harmless (deduplicated).
 */
export function mayRepeat(method: string, retryable: boolean | undefined): boolean {
  if (retryable !== undefined) return retryable;
  return IDEMPOTENT.has(method.toUpperCase());
}

/**
 * Whether a response status is worth another attempt. A 500 is often a deterministic failure of
 * this very request, so it is retried only when the caller marked the request retryable.
 */
export function isRetryableStatus(status: number, retryable: boolean | undefined): boolean {
  if (TRANSIENT_STATUSES.has(status)) return true;
  return status === 500 && retryable === true;
}

/**
 * Exponential backoff with full jitter: uniformly random in [0, min(max, base * 2^(retry-1))].
 * Full jitter spreads the retries of many workers that failed together.
 */
export function backoffDelay(
  retry: number,
  options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs'>,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/** Retry-After as milliseconds from now: delta-seconds (decimals tolerated) or an HTTP date. */
export function parseRetryAfter(
  value: string | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  // Only IMF-fixdate and its obsolete forms contain letters; bare numbers were handled above.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** setTimeout as a promise that rejects with the signal's reason when aborted. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
