export { checkAddress } from './address-policy.ts';
export type { AddressVerdict } from './address-policy.ts';
export { parseAllowlist, parseTarget, systemResolver } from './egress-guard.ts';
export type { EgressPolicy, EgressTarget, ResolvedAddress, Resolver } from './egress-guard.ts';
export { HttpError, redactUrl } from './errors.ts';
export type { HttpErrorCode } from './errors.ts';
export { assertOk, createHttpClient, errorForStatus } from './http-client.ts';
export type {
  HttpClient,
  HttpClientOptions,
  HttpMethod,
  HttpRequest,
  HttpResponse,
  QueryValue,
} from './http-client.ts';
export { createRateLimiter } from './rate-limiter.ts';
export type { RateLimiter, RateLimiterOptions, Release, ServerQuota } from './rate-limiter.ts';
export { DEFAULT_RETRY, backoffDelay, parseRetryAfter } from './retry.ts';
export type { RetryOptions } from './retry.ts';
