import { z } from 'zod';
import type {
  ConnectorContext,
  ConnectorHttpResponse,
  RequestLimiter,
  TransportStats,
} from '../kit/contract.ts';
import { attemptDeadline } from '../kit/http/attempt-deadline.ts';
import { ConnectorError, isTransient } from '../kit/errors.ts';
import { signRequest } from '../kit/oauth1/oauth1.ts';
import { normaliseStoreUrl, type WooCommerceCredentials } from './credentials.ts';
import { wcErrorSchema } from './wc-schemas.ts';
import { parseRetryAfter, sleep } from '../kit/http/retry.ts';

/**
 * The wc/v3 REST client. Authentication follows WooCommerce's rules
 * (woocommerce-rest-api-docs, "Authentication"): over https HTTP Basic with the key pair; over
 * plain http a one-legged OAuth 1.0a signature (HMAC-SHA256) in the query string.
 *
 * This client is the one retry layer for WooCommerce requests. A signed request may be sent only
 * once (the store refuses a nonce it has seen, with a 401 that looks like bad credentials), so
 * every attempt is signed afresh here and the transport is told never to repeat a request itself
 * (`retryable: false`). Transient failures (429, 5xx, resets, time-outs, cut-off bodies) are
 * retried with exponential backoff, full jitter and the server's Retry-After, a bounded number of
 * times; everything else becomes a classified ConnectorError carrying WooCommerce's own message.
 * Each attempt has its own deadline, enforced through the request's AbortSignal, so a request that
 * timed out is really abandoned by the transport rather than left running in the background.
 */

export type Query = Record<string, string | number | boolean | undefined>;

export interface ClientOptions {
  /** Attempts for a request that may be repeated (1 = no retry). */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /**
   * Longest Retry-After waited for. A longer one is not waited out: the request fails at once with
   * the error's retryAfterMs set, so the engine can reschedule instead of holding a worker.
   */
  maxRetryAfterMs?: number;
  /** Deadline of one attempt, from sending to the last byte of the answer. */
  timeoutMs?: number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Paces this store's requests; each attempt takes a slot. */
  limiter?: RequestLimiter;
}

export interface WcResult<T> {
  status: number;
  headers: Record<string, string>;
  data: T;
}

/** WordPress's own REST namespace (pages, posts, media, users), opened by an application password. */
export const isWordPressPath = (pathname: string) => /\/wp-json\/wp\/v2(\/|$)/.test(pathname);

/** What a connection without a WordPress application password answers for pages and posts. */
export function missingWordPressPassword(): ConnectorError {
  return new ConnectorError(
    'config',
    'wordpress_password_missing',
    "WooCommerce's API keys do not open the store's pages and blog posts, which are WordPress's: add a WordPress application password on the connect form to move pages and posts (a WordPress user name and an application password made under Users > Profile > Application Passwords).",
  );
}

export class WooClient {
  readonly apiBase: string;
  private readonly credentials: WooCommerceCredentials;
  private readonly context: ConnectorContext;
  private readonly options: Required<Omit<ClientOptions, 'limiter'>> & {
    limiter: RequestLimiter | undefined;
  };
  private readonly https: boolean;

  constructor(
    credentials: WooCommerceCredentials,
    context: ConnectorContext,
    options: ClientOptions = {},
  ) {
    // connect() may be handed credentials that did not pass through the schema's normalisation.
    this.credentials = { ...credentials, storeUrl: normaliseStoreUrl(credentials.storeUrl) };
    this.context = context;
    this.apiBase = `${this.credentials.storeUrl}/wp-json/wc/v3`;
    this.https = this.credentials.storeUrl.startsWith('https:');
    this.options = {
      maxAttempts: 6,
      baseDelayMs: 200,
      maxDelayMs: 8_000,
      maxRetryAfterMs: 60_000,
      timeoutMs: 60_000,
      sleep,
      random: Math.random,
      ...options,
      // The store's limiter, shared by every lane of the run (StoreConnections makes one per
      // connection); a limiter given to this client alone wins.
      limiter: options.limiter ?? context.limiter,
    };
  }

  /** Counts for the run's log (Connection.transportStats). */
  readonly tally = {
    requests: 0,
    failures: {} as Record<string, number>,
    retries: 0,
    recoveries: 0,
    recovered: 0,
    queuedMs: 0,
  };

  /** Logs through the connection's context (never credentials). */
  note(message: string, fields?: Record<string, unknown>): void {
    this.context.log?.(message, fields);
  }

  transportStats(): TransportStats {
    const limiter = this.options.limiter;
    const range = limiter?.stats?.();
    return {
      ...this.tally,
      queuedMs: Math.round(this.tally.queuedMs),
      failures: { ...this.tally.failures },
      ...(range && limiter?.limit !== undefined
        ? {
            inFlight: {
              lowest: Math.floor(range.lowest),
              highest: Math.floor(range.highest),
              now: Math.floor(limiter.limit),
            },
          }
        : {}),
    };
  }

  /** Builds the request URL; array arguments go as comma lists, which WordPress splits. */
  url(path: string, query: Query = {}): URL {
    const url = new URL(
      path.startsWith('/wp-json')
        ? `${this.credentials.storeUrl}${path}`
        : `${this.apiBase}${path}`,
    );
    for (const [k, v] of Object.entries(query))
      if (v !== undefined) url.searchParams.set(k, String(v));
    return url;
  }

  /** Credentials for one attempt: Basic over https, else a signature with a nonce of its own. */
  private authorise(method: string, url: URL): { url: string; headers: Record<string, string> } {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (isWordPressPath(url.pathname)) {
      // WordPress's own namespace takes a user's application password, never WooCommerce's keys.
      const { wordpressUser, wordpressApplicationPassword } = this.credentials;
      if (!wordpressUser || !wordpressApplicationPassword) throw missingWordPressPassword();
      const token = Buffer.from(
        `${wordpressUser}:${wordpressApplicationPassword.replace(/\s+/g, '')}`,
      ).toString('base64');
      headers.authorization = `Basic ${token}`;
      return { url: url.toString(), headers };
    }
    if (this.https) {
      const token = Buffer.from(
        `${this.credentials.consumerKey}:${this.credentials.consumerSecret}`,
      ).toString('base64');
      headers.authorization = `Basic ${token}`;
      return { url: url.toString(), headers };
    }
    const oauth = signRequest({
      method,
      url: url.toString(),
      credentials: {
        consumerKey: this.credentials.consumerKey,
        consumerSecret: this.credentials.consumerSecret,
      },
      signatureMethod: 'HMAC-SHA256',
    });
    const signed = new URL(url);
    for (const [k, v] of Object.entries(oauth)) signed.searchParams.set(k, v);
    return { url: signed.toString(), headers };
  }

  /** Waits before another attempt: Retry-After when the store gave one, else jittered backoff. */
  pause(attempt: number, retryAfterMs?: number): Promise<void> {
    return this.options.sleep(this.backoff(attempt, retryAfterMs), this.context.signal);
  }

  private backoff(attempt: number, retryAfterMs: number | undefined): number {
    if (retryAfterMs !== undefined) return Math.min(retryAfterMs, this.options.maxRetryAfterMs);
    const ceiling = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** attempt);
    return Math.round(ceiling * this.options.random());
  }

  /** One attempt: signed for itself, sent once, abandoned at its deadline or the caller's abort. */
  private async send(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: URL,
    body: string | Uint8Array | undefined,
    extraHeaders: Record<string, string> = {},
  ): Promise<ConnectorHttpResponse> {
    const caller = this.context.signal;
    caller?.throwIfAborted();
    const { url: target, headers: signed } = this.authorise(method, url);
    const headers = { ...signed, ...extraHeaders };
    if (typeof body === 'string') headers['content-type'] = 'application/json';
    const deadline = attemptDeadline({
      limiter: this.options.limiter,
      timeoutMs: this.options.timeoutMs,
      timeoutError: () =>
        new ConnectorError(
          'transient',
          'timeout',
          `WooCommerce did not answer ${method} ${url.pathname} within ${this.options.timeoutMs} ms`,
        ),
      onQueued: (ms) => (this.tally.queuedMs += ms),
    });
    const limiter = deadline.limiter;
    const signal = caller ? AbortSignal.any([caller, deadline.signal]) : deadline.signal;
    try {
      return await this.context.http.request({
        method,
        url: target,
        headers,
        ...(body === undefined ? {} : { body }),
        // The signature above is good for one send only: repeats are this client's to make.
        retryable: false,
        signal,
        ...(limiter ? { limiter } : {}),
      });
    } catch (error) {
      if (caller?.aborted) throw caller.reason;
      if (deadline.signal.aborted) throw deadline.signal.reason;
      if (error instanceof ConnectorError) throw error;
      throw new ConnectorError(
        'transient',
        'network_error',
        `Could not reach the store (${method} ${url.pathname})`,
        { cause: error },
      );
    } finally {
      deadline.clear();
    }
  }

  /** Classifies a non-2xx answer, keeping WooCommerce's code and message (never the URL query). */
  private failure(method: string, url: URL, response: ConnectorHttpResponse): ConnectorError {
    const text = new TextDecoder().decode(response.body);
    let parsed: z.infer<typeof wcErrorSchema> | undefined;
    try {
      const result = wcErrorSchema.safeParse(JSON.parse(text));
      if (result.success) parsed = result.data;
    } catch {
      // An HTML error page: no WooCommerce message.
    }
    const status = response.status;
    const where = `${method} ${url.pathname}`;
    const wcMessage = parsed ? `${parsed.message} (${parsed.code})` : `HTTP ${status}`;
    const retryAfterMs = parseRetryAfter(response.headers['retry-after']);
    if (status === 429)
      return new ConnectorError(
        'transient',
        'rate_limited',
        `The store is throttling requests (${where})`,
        {
          status,
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        },
      );
    if (status >= 500)
      return new ConnectorError(
        'transient',
        'server_error',
        `The store answered ${status} to ${where}: ${wcMessage}`,
        {
          status,
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        },
      );
    if ((status === 401 || status === 403) && isWordPressPath(url.pathname))
      return new ConnectorError(
        'config',
        'auth_failed',
        `WordPress refused the application password (${wcMessage}). Check the WordPress user name and its application password (Users > Profile > Application Passwords), and that the user may edit pages and posts.`,
        { status },
      );
    if (status === 401 || status === 403)
      return new ConnectorError(
        'config',
        'auth_failed',
        `WooCommerce refused the API key (${wcMessage}). Check the consumer key and secret and that the key has read/write access.`,
        { status },
      );
    if (status === 404 && parsed?.code === 'rest_no_route')
      return new ConnectorError(
        'config',
        'not_woocommerce',
        `No WooCommerce REST API route at ${where}: is WooCommerce installed and active?`,
        { status },
      );
    if (status === 413)
      return new ConnectorError(
        'system',
        'batch_too_large',
        `The store refused a batch as too large: ${wcMessage}`,
        { status },
      );
    return new ConnectorError(
      'system',
      status === 404 ? 'not_found' : 'bad_request',
      `${where}: ${wcMessage}`,
      { status },
    );
  }

  /**
   * Sends one request. `retryable` requests are repeated on any transient failure; others only
   * on 429 (the store did not process the request) so that a write is never sent twice blindly.
   */
  async request<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    init: {
      query?: Query;
      body?: unknown;
      /** A file sent as it is (wp/v2/media), with its type and name. */
      file?: { bytes: Uint8Array; contentType: string; fileName: string };
      retryable?: boolean;
      schema: z.ZodType<T>;
    },
  ): Promise<WcResult<T>> {
    const url = this.url(path, init.query);
    const retryable = init.retryable ?? method === 'GET';
    const body = init.file
      ? init.file.bytes
      : init.body === undefined
        ? undefined
        : JSON.stringify(init.body);
    const fileHeaders: Record<string, string> = init.file
      ? {
          'content-type': init.file.contentType,
          'content-disposition': `attachment; filename="${init.file.fileName.replace(/["\\\r\n]/g, '')}"`,
        }
      : {};
    for (let attempt = 0; ; attempt++) {
      let error: ConnectorError;
      try {
        this.tally.requests += 1;
        const response = await this.send(method, url, body, fileHeaders);
        if (response.status >= 200 && response.status < 300) {
          let json: unknown;
          try {
            json = JSON.parse(new TextDecoder().decode(response.body));
          } catch (cause) {
            throw new ConnectorError(
              'transient',
              'truncated_response',
              `The store's answer to ${method} ${url.pathname} was not complete JSON`,
              { cause },
            );
          }
          const parsed = init.schema.safeParse(json);
          if (!parsed.success)
            throw new ConnectorError(
              'system',
              'unexpected_response',
              `Unexpected answer to ${method} ${url.pathname}: ${parsed.error.message.slice(0, 500)}`,
            );
          return { status: response.status, headers: response.headers, data: parsed.data };
        }
        throw this.failure(method, url, response);
      } catch (caught) {
        if (!(caught instanceof ConnectorError)) throw caught;
        error = caught;
        this.tally.failures[error.code] = (this.tally.failures[error.code] ?? 0) + 1;
      }
      const again =
        isTransient(error) &&
        attempt + 1 < this.options.maxAttempts &&
        (retryable || error.code === 'rate_limited') &&
        (error.retryAfterMs === undefined || error.retryAfterMs <= this.options.maxRetryAfterMs);
      if (!again) throw error;
      this.tally.retries += 1;
      const delay = this.backoff(attempt, error.retryAfterMs);
      this.context.log?.('woocommerce: retrying after transient failure', {
        code: error.code,
        attempt: attempt + 1,
        delayMs: delay,
      });
      await this.options.sleep(delay, this.context.signal);
    }
  }

  /** Whether this connection may open wp/v2 (pages and posts). */
  get hasWordPressPassword(): boolean {
    return Boolean(this.credentials.wordpressUser && this.credentials.wordpressApplicationPassword);
  }

  /** Downloads a file from another address (a source store's image), as it is, without our keys. */
  async download(url: string): Promise<{ bytes: Uint8Array; contentType: string }> {
    const caller = this.context.signal;
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    const response = await this.context.http.request({
      method: 'GET',
      url,
      headers: {},
      retryable: true,
      signal: caller ? AbortSignal.any([caller, deadline]) : deadline,
    });
    if (response.status < 200 || response.status >= 300)
      throw new Error(`the image's address answered HTTP ${response.status}`);
    return { bytes: response.body, contentType: response.headers['content-type'] ?? '' };
  }

  get<T>(path: string, query: Query, schema: z.ZodType<T>): Promise<WcResult<T>> {
    return this.request('GET', path, { query, schema });
  }

  /** A page of a collection with WordPress's X-WP-Total / X-WP-TotalPages headers. */
  async page<T>(
    path: string,
    query: Query,
    schema: z.ZodType<T>,
  ): Promise<{ items: T[]; total: number; totalPages: number }> {
    const result = await this.get(path, query, z.array(schema));
    const page = Number(query.page ?? 1);
    const perPage = Number(query.per_page ?? 10);
    // Without the headers (a proxy stripped them), a full page means there may be another.
    const total = Number(result.headers['x-wp-total'] ?? Number.NaN);
    const totalPages = Number(result.headers['x-wp-totalpages'] ?? Number.NaN);
    const guessedPages = result.data.length < perPage ? page : page + 1;
    return {
      items: result.data,
      total: Number.isFinite(total) ? total : (page - 1) * perPage + result.data.length,
      totalPages: Number.isFinite(totalPages) ? totalPages : guessedPages,
    };
  }
}
