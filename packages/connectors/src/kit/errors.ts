/**
 * How a failure should be handled:
 * - config: the store's address or credentials are wrong (or access was revoked); retrying
 *   cannot help, the owner must act.
 * - transient: time-outs, resets, throttling, 5xx; retried with backoff.
 * - system: a bug or an answer we do not understand; not retried, reported.
 */
export type ErrorClass = 'config' | 'transient' | 'system';

export class ConnectorError extends Error {
  readonly errorClass: ErrorClass;
  /** A stable code for the UI and the report (e.g. 'auth_failed', 'store_unreachable'). */
  readonly code: string;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(
    errorClass: ErrorClass,
    code: string,
    message: string,
    options: { status?: number; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ConnectorError';
    this.errorClass = errorClass;
    this.code = code;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

export function isTransient(error: unknown): boolean {
  return error instanceof ConnectorError && error.errorClass === 'transient';
}
