import type { z } from 'zod';
import type { ConnectorHttp, ConnectorHttpResponse, RequestLimiter } from '../kit/contract.ts';
import { attemptDeadline } from '../kit/http/attempt-deadline.ts';
import { ConnectorError } from '../kit/errors.ts';
import { authorizationHeader, percentEncode, signRequest } from '../kit/oauth1/oauth1.ts';

/**
 * Magento 2 admin REST client for an integration (System > Extensions > Integrations): every
 * request is signed with OAuth 1.0a HMAC-SHA256 in the Authorization header, which Magento
 * accepts by default (using the access token as a bearer token is off by default since 2.4.4).
 * Transient failures (429, 5xx, resets, truncated bodies, time-outs) are retried with
 * exponential backoff and Retry-After; writes that are not safe to repeat are retried only on
 * 429, and callers verify through their marker before trying again.
 */

export interface MagentoCredentials {
  storeUrl: string;
  consumerKey: string;
  consumerSecret: string;
  accessToken: string;
  accessTokenSecret: string;
  storeCode?: string;
}

export type Query = [string, string | number][];

/** Which URL prefix a call uses (admin-schema-2.4.9.yaml basePath is /rest/<store_code>). */
export type Scope = 'store' | 'all' | 'async-bulk';

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  scope?: Scope;
  /**
   * 'always': safe to repeat (reads, PUT, POST /V1/products which saves by SKU).
   * 'throttle-only': a create that could land twice; retried only on 429, which Magento answers
   * before running the request.
   */
  retry?: 'always' | 'throttle-only';
}

/** A Magento error answer `{message, parameters}` with the placeholders filled. */
export class MagentoApiError extends ConnectorError {
  readonly magentoMessage: string;

  constructor(
    errorClass: 'config' | 'transient' | 'system',
    code: string,
    status: number,
    magentoMessage: string,
    context: string,
    retryAfterMs?: number,
  ) {
    super(errorClass, code, `${context}: Magento answered ${status}: ${magentoMessage}`, {
      status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
    this.name = 'MagentoApiError';
    this.magentoMessage = magentoMessage;
  }
}

export function isMagentoStatus(error: unknown, status: number): error is MagentoApiError {
  return error instanceof MagentoApiError && error.status === status;
}

/** Magento's message with `%name` / `%1` placeholders filled from `parameters`. */
export function formatMagentoMessage(body: unknown): string {
  if (typeof body !== 'object' || body === null) return 'no error message';
  const { message, parameters } = body as { message?: unknown; parameters?: unknown };
  if (typeof message !== 'string') return 'no error message';
  return message.replace(/%(\w+)/g, (whole, key: string) => {
    if (Array.isArray(parameters)) {
      const value: unknown = parameters[Number(key) - 1];
      return value === undefined ? whole : String(value);
    }
    if (typeof parameters === 'object' && parameters !== null) {
      const value = (parameters as Record<string, unknown>)[key];
      return value === undefined ? whole : String(value);
    }
    return whole;
  });
}

function parseRetryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export interface ClientOptions {
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  log?: (message: string, fields?: Record<string, unknown>) => void;
  /** The connection's signal: aborting it abandons the request in flight. */
  signal?: AbortSignal;
  /** The store's in-flight limiter, shared by every lane of the run (ConnectorContext.limiter). */
  limiter?: RequestLimiter;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class MagentoClient {
  readonly #credentials: MagentoCredentials;
  readonly #http: ConnectorHttp;
  readonly #maxAttempts: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #timeoutMs: number;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #log: ClientOptions['log'];
  readonly #signal: AbortSignal | undefined;
  readonly #limiter: RequestLimiter | undefined;
  readonly storeCode: string;
  readonly baseUrl: string;

  constructor(credentials: MagentoCredentials, http: ConnectorHttp, options: ClientOptions = {}) {
    this.#credentials = credentials;
    this.#http = http;
    this.#maxAttempts = options.maxAttempts ?? 10;
    this.#baseDelayMs = options.baseDelayMs ?? 50;
    this.#maxDelayMs = options.maxDelayMs ?? 10_000;
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#sleep = options.sleep ?? defaultSleep;
    this.#log = options.log;
    this.#signal = options.signal;
    this.#limiter = options.limiter;
    this.storeCode = credentials.storeCode ?? 'default';
    this.baseUrl = credentials.storeUrl.replace(/\/+$/, '');
  }

  /** Absolute URL of an API path ('/V1/products') in the given scope. */
  url(path: string, scope: Scope = 'store', query: Query = []): string {
    const prefix =
      scope === 'all'
        ? '/rest/all'
        : scope === 'async-bulk'
          ? `/rest/${this.storeCode}/async/bulk`
          : `/rest/${this.storeCode}`;
    // RFC 3986 encoding keeps the query byte-identical to what the signature covers (Magento
    // decodes parameters with rawurldecode, so '+' would not read as a space).
    const search = query
      .map(([k, v]) => `${percentEncode(k)}=${percentEncode(String(v))}`)
      .join('&');
    return `${this.baseUrl}${prefix}${path}${search ? `?${search}` : ''}`;
  }

  async get<T>(path: string, schema: z.ZodType<T>, query: Query = []): Promise<T> {
    return this.request('GET', path, schema, { query });
  }

  async request<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    schema: z.ZodType<T>,
    options: RequestOptions = {},
  ): Promise<T> {
    const url = this.url(path, options.scope ?? 'store', options.query ?? []);
    const context = `${method} ${path}`;
    const retry =
      options.retry ?? (method === 'GET' || method === 'PUT' ? 'always' : 'throttle-only');
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    for (let attempt = 1; ; attempt++) {
      let failure: ConnectorError;
      try {
        const response = await this.#send(method, url, body);
        return this.#decode(response, schema, context);
      } catch (error) {
        if (!(error instanceof ConnectorError)) throw error;
        failure = error;
      }
      const retryable =
        failure.errorClass === 'transient' && (retry === 'always' || failure.status === 429);
      if (!retryable || attempt >= this.#maxAttempts) throw failure;
      const backoff = Math.min(this.#maxDelayMs, this.#baseDelayMs * 2 ** (attempt - 1));
      const delay = Math.max(failure.retryAfterMs ?? 0, backoff * (0.5 + Math.random() / 2));
      this.#log?.('magento request retried', { context, attempt, status: failure.status, delay });
      await this.#sleep(delay);
    }
  }

  async #send(
    method: string,
    url: string,
    body: string | undefined,
  ): Promise<ConnectorHttpResponse> {
    // Signed afresh for every attempt: Magento refuses a nonce it has seen, so the transport must
    // never send this request again itself (retryable: false); this client retries instead.
    const oauth = signRequest({
      method,
      url,
      credentials: {
        consumerKey: this.#credentials.consumerKey,
        consumerSecret: this.#credentials.consumerSecret,
        token: this.#credentials.accessToken,
        tokenSecret: this.#credentials.accessTokenSecret,
      },
      signatureMethod: 'HMAC-SHA256',
    });
    const headers: Record<string, string> = {
      authorization: authorizationHeader(oauth),
      accept: 'application/json',
    };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const timedOut = new ConnectorError(
      'transient',
      'timeout',
      `No answer from Magento within ${this.#timeoutMs} ms`,
    );
    // Aborting (not just no longer waiting) stops the transport and closes the connection.
    const deadline = attemptDeadline({
      limiter: this.#limiter,
      timeoutMs: this.#timeoutMs,
      timeoutError: () => timedOut,
    });
    const signal = this.#signal
      ? AbortSignal.any([this.#signal, deadline.signal])
      : deadline.signal;
    try {
      return await this.#http.request({
        method: method as 'GET' | 'POST' | 'PUT' | 'DELETE',
        url,
        headers,
        ...(body === undefined ? {} : { body }),
        retryable: false,
        signal,
        ...(deadline.limiter ? { limiter: deadline.limiter } : {}),
      });
    } catch (error) {
      if (deadline.signal.aborted) throw timedOut;
      if (this.#signal?.aborted) throw error;
      if (error instanceof ConnectorError) throw error;
      throw new ConnectorError('transient', 'network_error', 'Magento could not be reached', {
        cause: error,
      });
    } finally {
      deadline.clear();
    }
  }

  #decode<T>(response: ConnectorHttpResponse, schema: z.ZodType<T>, context: string): T {
    const text = new TextDecoder().decode(response.body);
    let json: unknown;
    let parsed = false;
    try {
      json = JSON.parse(text);
      parsed = true;
    } catch {
      json = undefined;
    }
    const status = response.status;
    if (status >= 200 && status < 300) {
      if (!parsed && !/json/i.test(response.headers['content-type'] ?? '')) {
        // An HTML page or the like: this address is not a Magento REST API.
        throw new ConnectorError('system', 'not_json', `${context}: the answer was not JSON`, {
          status,
        });
      }
      if (!parsed) {
        // A cut-off body (connection dropped mid-answer) reads as invalid JSON.
        throw new ConnectorError(
          'transient',
          'bad_body',
          `${context}: Magento's answer was not complete JSON`,
          {
            status,
          },
        );
      }
      const result = schema.safeParse(json);
      if (!result.success) {
        throw new ConnectorError(
          'system',
          'unexpected_answer',
          `${context}: Magento's answer did not have the expected shape: ${result.error.message.slice(0, 500)}`,
          { status },
        );
      }
      return result.data;
    }
    const message = parsed ? formatMagentoMessage(json) : text.slice(0, 200);
    const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
    if (status === 401 || status === 403) {
      throw new MagentoApiError('config', 'auth_failed', status, message, context);
    }
    if (status === 429 || status === 408 || status >= 500) {
      throw new MagentoApiError(
        'transient',
        status === 429 ? 'rate_limited' : 'server_error',
        status,
        message,
        context,
        retryAfterMs,
      );
    }
    if (status === 404) throw new MagentoApiError('system', 'not_found', status, message, context);
    throw new MagentoApiError('system', 'magento_rejected', status, message, context);
  }
}
