import { Buffer } from 'node:buffer';
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Agent } from 'undici';
import type { ConnectorHttp, ConnectorHttpResponse, RequestLimiter } from '../contract.ts';
import {
  createEgressAgent,
  normaliseAllowlist,
  systemResolver,
  targetFor,
} from './egress-guard.ts';
import type { EgressTarget, Resolver } from './egress-guard.ts';
import { HttpError, redactUrl } from './errors.ts';
import type { HttpErrorCode } from './errors.ts';
import type { Release, RequestOutcome } from './rate-limiter.ts';
import {
  DEFAULT_RETRY,
  backoffDelay,
  isRetryableStatus,
  mayRepeat,
  parseRetryAfter,
  sleep,
} from './retry.ts';
import type { RetryOptions } from './retry.ts';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue =
  string | number | boolean | null | undefined | readonly (string | number)[];

export interface HttpRequest {
  method: HttpMethod;
  url: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Appended to the URL's own query string. */
  query?: Record<string, QueryValue>;
  /**
   * Whether a repeat is harmless. Defaults to true for GET/HEAD/PUT/DELETE and false for
   * POST/PATCH; true also makes a 500 retryable.
   */
  retryable?: boolean;
  /** The store's limiter (kit/http/rate-limiter.ts); every attempt and redirect hop takes a slot. */
  limiter?: RequestLimiter;
  /** Aborts the request at once, including any wait between attempts; no further attempt. */
  signal?: AbortSignal;
  /** 'manual' returns 3xx responses instead of following them. Default 'follow'. */
  redirect?: 'follow' | 'manual';
}

export interface HttpResponse extends ConnectorHttpResponse {
  status: number;
  /** 2xx. */
  ok: boolean;
  /** Lower-case names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
  text(): string;
  /** Parses the body; throws HttpError 'invalid_json' (system) when it is not JSON. */
  json<T = unknown>(): T;
}

export interface HttpClient extends ConnectorHttp {
  /**
   * Sends a request through the egress guard. Resolves with the final response whatever its
   * status (use assertOk to turn an error status into an HttpError); rejects with HttpError when
   * the request is refused, times out, exceeds the size cap, or the connection fails.
   */
  request(input: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

export interface HttpClientOptions {
  /** Exact origins admitted even when they resolve to loopback (sandbox stores, emulators). */
  allowlist?: readonly string[];
  /** Admit plain http to any public host. Default false: https only. */
  allowHttp?: boolean;
  /** Per exchange (one attempt, one redirect hop), connection to last body byte. Default 30 s. */
  timeoutMs?: number;
  /** Default 50 MiB. */
  maxResponseBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  retry?: Partial<RetryOptions>;
  userAgent?: string;
  /** Host name resolution; injectable for tests. Defaults to the system resolver. */
  resolver?: Resolver;
  /**
   * Certificates (PEM) trusted for TLS in addition to nothing else: when set, they replace the
   * system's roots. For stores behind a private CA and for tests against emulators serving a
   * self-signed certificate; leave unset in production.
   */
  ca?: string | readonly string[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// Everything else (Authorization, cookies, platform token headers) stays with the origin it was
// meant for; connectors name their token headers differently, so this is an allow-list.
const CROSS_ORIGIN_HEADERS = new Set([
  'accept',
  'accept-language',
  'content-language',
  'content-type',
  'user-agent',
]);
const TLS_CODE = /^(CERT_|ERR_TLS_|ERR_SSL_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO_(VERIFY|GET)_)/;
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

interface Exchange {
  status: number;
  headers: Record<string, string>;
  body: Buffer | undefined;
  url: URL;
}

function positive(name: string, value: number): number {
  if (!(value > 0)) throw new RangeError(`${name} must be positive`);
  return value;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function withQuery(url: string, query: HttpRequest['query']): string {
  if (!query) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url; // the guard reports the invalid URL
  }
  for (const [name, value] of Object.entries(query)) {
    if (value === null || value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) parsed.searchParams.append(name, String(item));
  }
  return parsed.href;
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string') return code;
    current = current.cause;
  }
  return undefined;
}

function findHttpError(error: unknown): HttpError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current instanceof HttpError) return current;
    current = current.cause;
  }
  return undefined;
}

/** Maps whatever undici or the socket threw to an HttpError naming this request's URL. */
function transportError(error: unknown, method: string, url: URL, timeoutMs: number): HttpError {
  const where = redactUrl(url);
  const guard = findHttpError(error);
  if (guard) {
    return new HttpError(guard.errorClass, guard.code as HttpErrorCode, guard.message, {
      url: where,
    });
  }
  const code = errorCode(error) ?? 'unknown';
  const make = (errorClass: 'config' | 'transient' | 'system', kind: HttpErrorCode, what: string) =>
    new HttpError(errorClass, kind, `${method} ${where}: ${what}`, { url: where, cause: error });
  if (code === 'ENOTFOUND') return make('config', 'host_not_found', 'host not found');
  if (TLS_CODE.test(code)) return make('config', 'tls_error', `TLS failure (${code})`);
  if (TIMEOUT_CODES.has(code))
    return make('transient', 'timeout', `timed out after ${timeoutMs} ms`);
  if (NETWORK_CODES.has(code))
    return make('transient', 'network_error', `connection failed (${code})`);
  return make('system', 'network_error', `request failed (${code})`);
}

function stripForCrossOrigin(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => CROSS_ORIGIN_HEADERS.has(name.toLowerCase())),
  );
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(
      ([name]) => !['content-type', 'content-length'].includes(name.toLowerCase()),
    ),
  );
}

/** Drops a body we will not read; the abort it causes is expected, not an error to report. */
function discard(body: Readable): void {
  body.on('error', () => {});
  body.destroy();
}

function makeResponse(exchange: Exchange): HttpResponse {
  const body = exchange.body ?? Buffer.alloc(0);
  const url = exchange.url.href;
  return {
    status: exchange.status,
    ok: exchange.status >= 200 && exchange.status < 300,
    headers: exchange.headers,
    body,
    url,
    text: () => body.toString('utf8'),
    json<T = unknown>(): T {
      try {
        return JSON.parse(body.toString('utf8')) as T;
      } catch (error) {
        throw new HttpError(
          'system',
          'invalid_json',
          `${redactUrl(url)} answered with invalid JSON`,
          {
            url: redactUrl(url),
            status: exchange.status,
            cause: error,
          },
        );
      }
    },
  };
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const allowlist = normaliseAllowlist(options.allowlist ?? []);
  const allowHttp = options.allowHttp ?? false;
  const timeoutMs = positive('timeoutMs', options.timeoutMs ?? 30_000);
  const maxResponseBytes = positive('maxResponseBytes', options.maxResponseBytes ?? 50 * 1024 ** 2);
  const maxRedirects = options.maxRedirects ?? 5;
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  positive('retry.maxAttempts', retry.maxAttempts);
  const userAgent = options.userAgent ?? 'Replatform';
  const agent: Agent = createEgressAgent({
    allowlist,
    resolver: options.resolver ?? systemResolver,
    connectTimeoutMs: timeoutMs,
    ...(options.ca === undefined ? {} : { ca: options.ca }),
  });

  /**
   * One HTTP exchange under the timeout and a limiter slot. `keepBody` decides, from status and
   * headers, whether the body is wanted; a body about to be thrown away (redirect, retry) is
   * drained without buffering.
   */
  async function exchange(
    target: EgressTarget,
    method: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    input: HttpRequest,
    keepBody: (status: number, headers: Record<string, string>) => boolean,
  ): Promise<Exchange> {
    // Requests alike in cost share a pace in adaptive limiters: method and path without ids.
    const kind = `${method} ${target.url.pathname.replace(/\d+/g, '#')}`;
    const release: Release = input.limiter
      ? await input.limiter.acquire(input.signal, kind)
      : () => {};
    let outcome: RequestOutcome = 'error';
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onCallerAbort = () => controller.abort(input.signal?.reason);
    input.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const fail = (error: unknown): never => {
      if (input.signal?.aborted) {
        // A connector's own deadline ran out: the store is as overloaded as by ours.
        if ((input.signal.reason as { code?: unknown } | undefined)?.code === 'timeout')
          outcome = 'overload';
        throw input.signal.reason;
      }
      if (timedOut) {
        outcome = 'overload';
        throw new HttpError(
          'transient',
          'timeout',
          `${method} ${redactUrl(target.url)}: timed out after ${timeoutMs} ms`,
          { url: redactUrl(target.url) },
        );
      }
      throw error instanceof HttpError
        ? error
        : transportError(error, method, target.url, timeoutMs);
    };
    try {
      if (input.signal?.aborted) throw input.signal.reason;
      let response;
      try {
        response = await agent.request({
          origin: target.origin,
          path: `${target.url.pathname}${target.url.search}`,
          method,
          headers,
          body: body ?? null,
          signal: controller.signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
      } catch (error) {
        return fail(error);
      }
      const status = response.statusCode;
      outcome = [429, 502, 503, 504].includes(status) ? 'overload' : 'ok';
      const responseHeaders = flattenHeaders(response.headers);
      if (!keepBody(status, responseHeaders)) {
        await response.body.dump({ limit: 64 * 1024 }).catch(() => {});
        return { status, headers: responseHeaders, body: undefined, url: target.url };
      }
      const tooLarge = (): HttpError =>
        new HttpError(
          'system',
          'response_too_large',
          `${method} ${redactUrl(target.url)}: response larger than ${maxResponseBytes} bytes`,
          { url: redactUrl(target.url), status },
        );
      // A HEAD answer announces the size of a body it does not carry.
      const declared = method === 'HEAD' ? 0 : Number(responseHeaders['content-length']);
      if (Number.isFinite(declared) && declared > maxResponseBytes) {
        discard(response.body);
        throw tooLarge();
      }
      const chunks: Buffer[] = [];
      let total = 0;
      try {
        for await (const chunk of response.body) {
          const bytes = chunk as Buffer;
          total += bytes.length;
          if (total > maxResponseBytes) {
            discard(response.body);
            throw tooLarge();
          }
          chunks.push(bytes);
        }
      } catch (error) {
        if (error instanceof HttpError) throw error;
        return fail(error);
      }
      return {
        status,
        headers: responseHeaders,
        body: Buffer.concat(chunks, total),
        url: target.url,
      };
    } finally {
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', onCallerAbort);
      release(outcome);
    }
  }

  /** One attempt: the request and the redirects it leads to, each hop re-checked by the guard. */
  async function attempt(
    input: HttpRequest,
    startUrl: string,
    planRetry: (status: number, headers: Record<string, string>) => boolean,
  ): Promise<Exchange> {
    let url: string | URL = startUrl;
    let method: string = input.method;
    let body = input.body;
    let headers: Record<string, string> = { ...input.headers };
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'user-agent')) {
      headers['user-agent'] = userAgent;
    }
    const follow = input.redirect !== 'manual';
    for (let hop = 0; ; hop++) {
      const target = targetFor(url, allowHttp, allowlist);
      const result = await exchange(target, method, headers, body, input, (status, h) => {
        if (follow && REDIRECTS.has(status) && h.location) return false;
        return !planRetry(status, h);
      });
      const location = result.headers.location;
      if (!follow || !REDIRECTS.has(result.status) || !location) return result;
      if (hop >= maxRedirects) {
        throw new HttpError(
          'config',
          'too_many_redirects',
          `${redactUrl(target.url)}: more than ${maxRedirects} redirects`,
          {
            url: redactUrl(target.url),
            status: result.status,
          },
        );
      }
      let next: URL;
      try {
        next = new URL(location, target.url);
      } catch {
        throw new HttpError(
          'system',
          'invalid_url',
          `${redactUrl(target.url)} redirected to an invalid URL`,
          {
            url: redactUrl(target.url),
            status: result.status,
          },
        );
      }
      if (next.origin !== target.origin) {
        headers = stripForCrossOrigin(headers);
      }
      const becomesGet =
        (result.status === 303 && method !== 'HEAD') ||
        ((result.status === 301 || result.status === 302) && method === 'POST');
      if (becomesGet) {
        method = 'GET';
        body = undefined;
        headers = withoutBodyHeaders(headers);
      }
      url = next;
    }
  }

  async function request(input: HttpRequest): Promise<HttpResponse> {
    const url = withQuery(input.url, input.query);
    const repeatable = mayRepeat(input.method, input.retryable);
    for (let attemptNo = 1; ; attemptNo++) {
      const lastAttempt = attemptNo >= retry.maxAttempts;
      let waitMs: number | undefined;
      const planRetry = (status: number, headers: Record<string, string>): boolean => {
        waitMs = undefined;
        const retryAfterMs = parseRetryAfter(headers['retry-after']);
        if (retryAfterMs !== undefined && status === 429) {
          // The quota is the store's, not this request's: make every request on it wait.
          input.limiter?.update?.({ remaining: 0, resetMs: retryAfterMs });
        }
        if (!repeatable || lastAttempt || !isRetryableStatus(status, input.retryable)) return false;
        const delay = retryAfterMs ?? backoffDelay(attemptNo, retry);
        if (delay > retry.maxDelayMs) return false;
        waitMs = delay;
        return true;
      };
      let result: Exchange;
      try {
        result = await attempt(input, url, planRetry);
      } catch (error) {
        const retryableFailure =
          error instanceof HttpError && error.errorClass === 'transient' && repeatable;
        if (!retryableFailure || lastAttempt) throw error;
        await sleep(backoffDelay(attemptNo, retry), input.signal);
        continue;
      }
      if (waitMs === undefined) return makeResponse(result);
      await sleep(waitMs, input.signal);
    }
  }

  return {
    request,
    close: () => agent.close(),
  };
}

/**
 * The HttpError an error status stands for, or undefined for 1xx-3xx. 401/403 mean the
 * credentials or their scopes are wrong; 404 means a wrong store address only when it answers
 * the store's base URL (the connection check) and an unexpected gap otherwise.
 */
export function errorForStatus(
  response: Pick<HttpResponse, 'status' | 'headers' | 'url'>,
  options: { onBaseUrl?: boolean } = {},
): HttpError | undefined {
  const { status } = response;
  if (status < 400) return undefined;
  let errorClass: 'config' | 'transient' | 'system' = 'system';
  if (status === 401 || status === 403) errorClass = 'config';
  else if (status === 404 && options.onBaseUrl) errorClass = 'config';
  else if (status === 408 || status === 429 || status >= 500) errorClass = 'transient';
  const url = redactUrl(response.url);
  const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
  return new HttpError(errorClass, 'http_status', `${url} answered ${status}`, {
    url,
    status,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/** Throws errorForStatus's error when the status is 4xx or 5xx. */
export function assertOk(
  response: Pick<HttpResponse, 'status' | 'headers' | 'url'>,
  options: { onBaseUrl?: boolean } = {},
): void {
  const error = errorForStatus(response, options);
  if (error) throw error;
}
