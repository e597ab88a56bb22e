import { ConnectorError } from '../errors.ts';
import type { ErrorClass } from '../errors.ts';

export type HttpErrorCode =
  | 'egress_refused'
  | 'invalid_url'
  | 'host_not_found'
  | 'tls_error'
  | 'network_error'
  | 'timeout'
  | 'response_too_large'
  | 'too_many_redirects'
  | 'invalid_json'
  | 'http_status';

/**
 * A failed outbound request. It is a ConnectorError, so the engine's retry and reporting logic
 * applies unchanged. `url` never carries a query string or credentials, and the message never
 * carries headers or bodies: both end up in logs and in the owner's report.
 */
export class HttpError extends ConnectorError {
  readonly url: string;

  constructor(
    errorClass: ErrorClass,
    code: HttpErrorCode,
    message: string,
    options: { url: string; status?: number; retryAfterMs?: number; cause?: unknown },
  ) {
    super(errorClass, code, message, options);
    this.name = 'HttpError';
    this.url = options.url;
  }
}

/** Origin and path only: query strings and userinfo often hold tokens. */
export function redactUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = typeof url === 'string' ? new URL(url) : url;
  } catch {
    return '(invalid URL)';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `${parsed.protocol}…`;
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}
