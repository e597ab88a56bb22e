import type { RequestLimiter } from '../contract.ts';

export interface AttemptDeadline {
  /** The store's limiter, wrapped so that the deadline starts when a slot is granted. */
  limiter: RequestLimiter | undefined;
  /** Aborts (with the timeout error as reason) once the deadline has run out. */
  signal: AbortSignal;
  clear(): void;
}

/**
 * The deadline of one attempt, from the moment it may go to the last byte of its answer: time
 * spent waiting for a slot of the store's in-flight limiter is not the store's, and a request
 * given up before it was even sent is pure waste. Without a limiter it starts at once.
 */
export function attemptDeadline(options: {
  limiter: RequestLimiter | undefined;
  timeoutMs: number;
  timeoutError: () => Error;
  /** Told how long the attempt waited for its slot. */
  onQueued?: (ms: number) => void;
}): AttemptDeadline {
  const deadline = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const start = () => {
    timer ??= setTimeout(() => deadline.abort(options.timeoutError()), options.timeoutMs);
  };
  const base = options.limiter;
  const limiter: RequestLimiter | undefined = base && {
    acquire: async (signal, kind) => {
      const asked = performance.now();
      const release = await base.acquire(signal, kind);
      options.onQueued?.(performance.now() - asked);
      start();
      return release;
    },
    ...(base.update ? { update: (quota) => base.update?.(quota) } : {}),
  };
  if (!limiter) start();
  return { limiter, signal: deadline.signal, clear: () => clearTimeout(timer) };
}
