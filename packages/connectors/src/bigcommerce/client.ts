import type {
  ConnectorHttp,
  ConnectorHttpRequest,
  ConnectorHttpResponse,
} from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import {
  quotaHeaders,
  RatePacer,
  type PacerOptions,
  type PacerStats,
  type PacerUsage,
} from './rate-pacer.ts';

/**
 * The one place that talks HTTP to a BigCommerce store: it builds
 * {apiBaseUrl}/stores/{store_hash}/v2|v3/... URLs from a validated store hash, authenticates with
 * X-Auth-Token, paces by the store quota, retries what is safe to retry and classifies failures.
 */

export interface RetryPolicy {
  /** Attempts per request, the first included (default 8). */
  maxAttempts: number;
  /** First back-off delay; doubles per attempt with jitter (default 250 ms). */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const defaultRetry: RetryPolicy = { maxAttempts: 8, baseDelayMs: 250, maxDelayMs: 20_000 };

export interface ClientOptions {
  apiBaseUrl: string;
  storeHash: string;
  accessToken: string;
  http: ConnectorHttp;
  retry?: Partial<RetryPolicy>;
  pacing?: PacerOptions;
  signal?: AbortSignal;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  /**
   * True when repeating the request cannot create a second record. Creates are sent with false:
   * when their outcome is unknown (connection lost, 5xx, cut body) the caller looks the record up
   * before trying again (see createOnce).
   */
  idempotent?: boolean;
}

export interface BcAnswer {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON, or undefined for an empty body (204). */
  body: unknown;
}

export interface ClientStats extends PacerStats {
  requests: number;
  retries: number;
  /** 429 answers received (quota spent, concurrency limit or platform load). */
  throttled: number;
}

/** Thrown for a write whose outcome is unknown; the caller must look before writing again. */
export const unconfirmedWrite = 'write_unconfirmed';

export class BigCommerceClient {
  readonly #options: ClientOptions;
  readonly #retry: RetryPolicy;
  readonly #pacer: RatePacer;
  #requests = 0;
  #retries = 0;
  #throttled = 0;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#retry = { ...defaultRetry, ...options.retry };
    this.#pacer = new RatePacer(options.pacing);
  }

  usage(): PacerUsage {
    return this.#pacer.usage();
  }

  stats(): ClientStats {
    return {
      ...this.#pacer.stats(),
      requests: this.#requests,
      retries: this.#retries,
      throttled: this.#throttled,
    };
  }

  url(path: string, query?: Record<string, QueryValue>): string {
    const base = this.#options.apiBaseUrl.replace(/\/+$/, '');
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      // BigCommerce filters take lists as comma-separated values (`id:in=1,2,3`).
      search.set(key, Array.isArray(value) ? value.join(',') : String(value));
    }
    const qs = search.toString();
    return `${base}/stores/${this.#options.storeHash}${path}${qs ? `?${qs}` : ''}`;
  }

  async backoff(attempt: number, retryAfterMs?: number): Promise<void> {
    const exp = Math.min(this.#retry.maxDelayMs, this.#retry.baseDelayMs * 2 ** attempt);
    const delay = retryAfterMs ?? exp / 2 + Math.random() * (exp / 2);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }

  async request(
    method: ConnectorHttpRequest['method'],
    path: string,
    options: RequestOptions = {},
  ): Promise<BcAnswer> {
    const idempotent =
      options.idempotent ?? (method === 'GET' || method === 'PUT' || method === 'DELETE');
    const url = this.url(path, options.query);
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    let last: ConnectorError | undefined;
    for (let attempt = 0; attempt < this.#retry.maxAttempts; attempt++) {
      if (attempt > 0) {
        this.#retries += 1;
        this.#options.log?.('bigcommerce.retry', { method, path, attempt, reason: last?.code });
      }
      await this.#pacer.acquire(this.#options.signal);
      let response: ConnectorHttpResponse;
      try {
        this.#requests += 1;
        response = await this.#options.http.request({
          method,
          url,
          headers: {
            'X-Auth-Token': this.#options.accessToken,
            Accept: 'application/json',
            'Content-Type': 'application/json',
          },
          body,
          // Every attempt goes through the pacer (each one counts against the store's quota), so
          // this client does the retrying and the transport never repeats a request on its own.
          retryable: false,
          ...(this.#options.signal ? { signal: this.#options.signal } : {}),
        });
      } catch (error) {
        this.#pacer.release();
        if (error instanceof ConnectorError && error.errorClass !== 'transient') throw error;
        last = new ConnectorError(
          'transient',
          idempotent ? 'network_error' : unconfirmedWrite,
          `BigCommerce could not be reached (${method} ${path})`,
          { cause: error },
        );
        if (!idempotent) throw last;
        await this.backoff(attempt);
        continue;
      }
      const status = response.status;
      // A 429 for a spent quota is not counted against it (the window was already full).
      this.#pacer.release(response.headers, status !== 429);

      if (status === 429) {
        this.#throttled += 1;
        const quota = quotaHeaders(response.headers);
        const retryAfter = Number(
          headerValue(response.headers, 'retry-after') ??
            headerValue(response.headers, 'x-retry-after') ??
            Number.NaN,
        );
        last = new ConnectorError(
          'transient',
          'rate_limited',
          'BigCommerce throttled the request',
          {
            status,
            retryAfterMs: quota?.resetMs,
          },
        );
        if (quota && quota.left <= 0) {
          // Quota spent: the pacer now waits for the reset before the next attempt.
          this.#pacer.exhausted(response.headers);
          continue;
        }
        // Concurrency limit or platform load (a 429 without quota headers): back off.
        await this.backoff(attempt, Number.isFinite(retryAfter) ? retryAfter * 1000 : undefined);
        continue;
      }
      if (status === 401 || status === 403) {
        throw new ConnectorError(
          'config',
          status === 401 ? 'auth_failed' : 'forbidden',
          status === 401
            ? 'BigCommerce refused the access token (check the store hash and API account token)'
            : 'The API account lacks a scope this migration needs (BigCommerce answered 403)',
          { status },
        );
      }
      if (status >= 500) {
        last = new ConnectorError(
          'transient',
          idempotent ? 'server_error' : unconfirmedWrite,
          `BigCommerce answered ${status} (${method} ${path})`,
          { status },
        );
        if (!idempotent) throw last;
        await this.backoff(attempt);
        continue;
      }
      let parsed: unknown;
      const text = new TextDecoder().decode(response.body);
      if (text.trim()) {
        try {
          parsed = JSON.parse(text);
        } catch (error) {
          // A cut or garbled body: the server may have done the work, the answer is lost.
          last = new ConnectorError(
            'transient',
            idempotent ? 'bad_response' : unconfirmedWrite,
            `BigCommerce sent an unreadable answer (${method} ${path})`,
            { status, cause: error },
          );
          if (!idempotent) throw last;
          await this.backoff(attempt);
          continue;
        }
      }
      return { status, headers: response.headers, body: parsed };
    }
    throw last ?? new ConnectorError('transient', 'retries_exhausted', `${method} ${path} failed`);
  }

  /** Like request(), but anything other than 2xx is an error the caller does not expect. */
  async ok(
    method: ConnectorHttpRequest['method'],
    path: string,
    options: RequestOptions = {},
  ): Promise<BcAnswer> {
    const answer = await this.request(method, path, options);
    if (answer.status >= 200 && answer.status < 300) return answer;
    throw answerError(method, path, answer);
  }
}

function headerValue(headers: Record<string, string>, name: string): string | undefined {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** Turns an unexpected answer into a ConnectorError with the platform's own words. */
export function answerError(method: string, path: string, answer: BcAnswer): ConnectorError {
  const detail = errorText(answer.body);
  if (answer.status === 404) {
    return new ConnectorError(
      'config',
      'not_found',
      `BigCommerce has no ${path} for this store${detail ? `: ${detail}` : ''}`,
      {
        status: 404,
      },
    );
  }
  return new ConnectorError(
    'system',
    'unexpected_answer',
    `${method} ${path} answered ${answer.status}${detail ? `: ${detail}` : ''}`,
    {
      status: answer.status,
    },
  );
}

/** BigCommerce error bodies: v3 `{title, errors}`, v2 `[{message}]`. */
export function errorText(body: unknown): string {
  if (Array.isArray(body)) {
    return body
      .map((item) =>
        item && typeof item === 'object'
          ? String((item as { message?: unknown }).message ?? '')
          : '',
      )
      .filter(Boolean)
      .join('; ');
  }
  if (body && typeof body === 'object') {
    const { title, errors, detail } = body as {
      title?: unknown;
      errors?: unknown;
      detail?: unknown;
    };
    const details =
      errors && typeof errors === 'object'
        ? Object.entries(errors as Record<string, unknown>)
            .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
            .join('; ')
        : '';
    // The pages API says what was wrong in `detail` (pages.v3.yml ResponseErrorDetailed).
    const said = typeof detail === 'string' && detail !== details ? detail : '';
    return [typeof title === 'string' ? title : '', details, said].filter(Boolean).join(' — ');
  }
  return '';
}

/**
 * Creates a record exactly once although the create itself cannot be repeated blindly: when its
 * outcome is unknown, `recover` looks for the record (by marker or natural key) before the next try.
 */
export async function createOnce<T>(
  client: BigCommerceClient,
  create: () => Promise<T>,
  recover: () => Promise<T | undefined>,
  attempts = 8,
): Promise<T> {
  let last: unknown;
  for (let attempt = 0; attempt < attempts; attempt++) {
    try {
      return await create();
    } catch (error) {
      if (!(error instanceof ConnectorError) || error.code !== unconfirmedWrite) throw error;
      last = error;
      await client.backoff(attempt);
      const found = await recover();
      if (found !== undefined) return found;
    }
  }
  throw last;
}
