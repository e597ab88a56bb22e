import { z } from 'zod';
import type { ConnectorHttp, ConnectorHttpResponse, RateUsage } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { CostBucket, type CostStats } from './cost-bucket.ts';

/**
 * The connector's only way to Shopify: POST https://{shop}/admin/api/2026-10/graphql.json with
 * X-Shopify-Access-Token (shopify.dev/docs/api/admin-graphql). It paces itself on Shopify's cost
 * bucket, waits exactly as long as a THROTTLED answer requires, retries transient failures of
 * requests that are safe to repeat (bounded, exponential back-off, Retry-After) and classifies the
 * rest as config / transient / system errors.
 */

export const API_VERSION = '2026-10';

export interface Operation<T> {
  /** The operation name in `document`, used to learn its cost. */
  name: string;
  document: string;
  /** Requested cost as Shopify computes it for these variables (used until Shopify answered). */
  cost: (variables: Record<string, unknown>) => number;
  data: z.ZodType<T>;
}

export interface GraphqlClientOptions {
  shopDomain: string;
  accessToken: string;
  http: ConnectorHttp;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  log?: (message: string, fields?: Record<string, unknown>) => void;
  signal?: AbortSignal;
  /** Attempts for a request that keeps failing transiently (default 8). */
  maxAttempts?: number;
  /** First back-off delay in ms (doubles each attempt, at most 5 s). */
  backoffMs?: number;
  /**
   * Requests in flight at once (default 4). One at a time, the round trip and not the shop's
   * restore rate would bound a run; the bucket model keeps overlapping requests within it.
   */
  maxInFlight?: number;
}

export interface RequestOptions {
  /**
   * False for mutations that create something: a failure after the request may have reached
   * Shopify (5xx, reset, cut-off answer) is then not retried here but thrown, so the caller can
   * look its marker up first. Throttling answers are always retried (Shopify did nothing).
   */
  idempotent?: boolean;
}

const costSchema = z
  .object({
    requestedQueryCost: z.number(),
    actualQueryCost: z.number().nullable(),
    throttleStatus: z.object({
      maximumAvailable: z.number(),
      currentlyAvailable: z.number(),
      restoreRate: z.number(),
    }),
  })
  .loose();

const errorSchema = z
  .object({
    message: z.string(),
    extensions: z.object({ code: z.string().optional() }).loose().optional(),
  })
  .loose();

const envelopeSchema = z
  .object({
    data: z.unknown().optional(),
    errors: z
      .union([z.array(errorSchema), z.string(), z.record(z.string(), z.unknown())])
      .optional(),
    extensions: z.object({ cost: costSchema.optional() }).loose().optional(),
  })
  .loose();

const MAX_THROTTLE_RETRIES = 50;
const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function retryAfterMs(response: ConnectorHttpResponse): number | undefined {
  const header = response.headers['retry-after'];
  if (header === undefined) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export class ShopifyGraphqlClient {
  readonly bucket: CostBucket;
  readonly #options: GraphqlClientOptions;
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #learned = new Map<string, number>();
  /** Requests accepted and not yet answered (waiting ones included): the connection is busy. */
  #pending = 0;
  /** Requests on the wire, and those waiting for one of the maxInFlight places. */
  #inFlight = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(options: GraphqlClientOptions) {
    this.#options = options;
    this.#sleep = options.sleep ?? defaultSleep;
    this.bucket = new CostBucket(options.now ?? Date.now);
  }

  get endpoint(): string {
    return `https://${this.#options.shopDomain}/admin/api/${API_VERSION}/graphql.json`;
  }

  stats(): CostStats {
    return this.bucket.stats();
  }

  /** Points used per second while busy against the shop's restore rate (or `plannedRate`). */
  rateUsage(plannedRate: number): RateUsage {
    return this.bucket.rateUsage(plannedRate);
  }

  request<T>(
    operation: Operation<T>,
    variables: Record<string, unknown> = {},
    options: RequestOptions = {},
  ): Promise<T> {
    if (this.#pending++ === 0) this.bucket.beginBusy();
    return this.#request(operation, variables, options.idempotent ?? true).finally(() => {
      if (--this.#pending === 0) this.bucket.endBusy();
    });
  }

  async #place(): Promise<void> {
    if (this.#inFlight < (this.#options.maxInFlight ?? 4)) {
      this.#inFlight += 1;
      return;
    }
    // The place is handed over by the request that leaves it, so the count stays as it is.
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #leave(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#inFlight -= 1;
  }

  /** A request is off the wire: its reservation and its place go to the next. */
  #done(cost: number): void {
    this.bucket.release(cost);
    this.#leave();
  }

  /** Waits until `cost` points are free in the bucket, then holds them (no await in between). */
  async #fit(cost: number): Promise<void> {
    for (let delay = this.bucket.delayFor(cost); delay > 0; delay = this.bucket.delayFor(cost))
      await this.#wait(delay);
    this.bucket.reserve(cost);
  }

  #expectedCost(
    operation: Operation<unknown>,
    variables: Record<string, unknown>,
  ): { key: string; cost: number } {
    const estimate = operation.cost(variables);
    const key = `${operation.name}:${estimate}`;
    return { key, cost: this.#learned.get(key) ?? estimate };
  }

  async #wait(ms: number): Promise<void> {
    if (ms <= 0) return;
    this.#options.signal?.throwIfAborted();
    this.bucket.recordWait(ms);
    await this.#sleep(ms);
  }

  #backoff(attempt: number): number {
    return Math.min(5_000, (this.#options.backoffMs ?? 200) * 2 ** (attempt - 1));
  }

  async #request<T>(
    operation: Operation<T>,
    variables: Record<string, unknown>,
    idempotent: boolean,
  ): Promise<T> {
    const maxAttempts = this.#options.maxAttempts ?? 8;
    let attempt = 0;
    let throttles = 0;
    const transient = async (error: ConnectorError): Promise<void> => {
      attempt += 1;
      if (!idempotent || attempt >= maxAttempts) throw error;
      this.#options.log?.('shopify: retrying after a transient failure', {
        operation: operation.name,
        attempt,
        code: error.code,
      });
      await this.#wait(error.retryAfterMs ?? this.#backoff(attempt));
    };

    for (;;) {
      this.#options.signal?.throwIfAborted();
      const expected = this.#expectedCost(operation, variables);

      let response: ConnectorHttpResponse;
      await this.#place();
      try {
        await this.#fit(expected.cost);
      } catch (error) {
        // Aborted while waiting for the bucket: nothing was reserved.
        this.#leave();
        throw error;
      }
      try {
        response = await this.#options.http.request({
          method: 'POST',
          url: this.endpoint,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'x-shopify-access-token': this.#options.accessToken,
          },
          body: JSON.stringify({
            query: operation.document,
            variables,
            operationName: operation.name,
          }),
          retryable: idempotent,
        });
      } catch (error) {
        this.#done(expected.cost);
        if (error instanceof ConnectorError && error.errorClass !== 'transient') throw error;
        await transient(
          new ConnectorError(
            'transient',
            'store_unreachable',
            `Shopify could not be reached (${operation.name}).`,
            { cause: error },
          ),
        );
        continue;
      }
      // The answer's status (read below, with no wait in between) now accounts for its cost.
      this.#done(expected.cost);

      if (response.status === 401 || response.status === 403)
        throw new ConnectorError(
          'config',
          'auth_failed',
          'Shopify refused the access token: reinstall the app or check the token.',
          { status: response.status },
        );
      if (response.status === 404)
        throw new ConnectorError(
          'config',
          'shop_not_found',
          'Shopify does not know this shop domain.',
          { status: 404 },
        );
      if (response.status === 402 || response.status === 423)
        throw new ConnectorError(
          'config',
          'shop_unavailable',
          'The shop is frozen or locked (unpaid or suspended): the store owner must resolve it with Shopify.',
          { status: response.status },
        );
      if (response.status === 429) {
        // Shopify did not process a 429: repeating it is safe even for a create.
        this.bucket.recordThrottled();
        attempt += 1;
        // The per-minute order limit of trial and development stores ("Exceeded order API rate
        // limit, please try again in a minute") lifts only after a minute.
        const perMinute = /try again in a minute/i.test(new TextDecoder().decode(response.body));
        if (attempt >= maxAttempts + (perMinute ? 4 : 0))
          throw new ConnectorError('transient', 'rate_limited', 'Shopify kept answering 429.', {
            status: 429,
          });
        await this.#wait(retryAfterMs(response) ?? (perMinute ? 60_000 : this.#backoff(attempt)));
        continue;
      }
      if (response.status >= 500) {
        await transient(
          new ConnectorError(
            'transient',
            'store_unavailable',
            `Shopify answered ${response.status} (${operation.name}).`,
            { status: response.status },
          ),
        );
        continue;
      }
      if (response.status !== 200)
        throw new ConnectorError(
          'system',
          'unexpected_response',
          `Shopify answered HTTP ${response.status} to ${operation.name}.`,
          { status: response.status },
        );

      let body: z.infer<typeof envelopeSchema>;
      try {
        body = envelopeSchema.parse(JSON.parse(new TextDecoder().decode(response.body)));
      } catch (error) {
        // A 200 whose body does not parse was cut off on the way: the request may have run.
        await transient(
          new ConnectorError(
            'transient',
            'truncated_response',
            `Shopify's answer to ${operation.name} was incomplete.`,
            { cause: error },
          ),
        );
        continue;
      }
      const cost = body.extensions?.cost;
      if (cost) this.bucket.observe(cost.throttleStatus, cost.actualQueryCost ?? 0);
      const errors = Array.isArray(body.errors) ? body.errors : [];
      const codes = errors.map((e) => e.extensions?.code);

      if (codes.includes('THROTTLED')) {
        this.bucket.recordThrottled();
        throttles += 1;
        if (throttles > MAX_THROTTLE_RETRIES)
          throw new ConnectorError(
            'transient',
            'throttled',
            'Shopify kept throttling the requests.',
          );
        const status = cost?.throttleStatus;
        const requested = cost?.requestedQueryCost ?? expected.cost;
        const wait =
          status && status.restoreRate > 0
            ? Math.ceil(
                (Math.max(0, requested - status.currentlyAvailable) / status.restoreRate) * 1000,
              )
            : 1000;
        await this.#wait(wait);
        continue;
      }
      if (codes.includes('MAX_COST_EXCEEDED'))
        throw new ConnectorError(
          'system',
          'query_cost_too_high',
          `${operation.name} asks for more than Shopify's single-query maximum cost.`,
        );
      if (codes.includes('ACCESS_DENIED'))
        throw new ConnectorError(
          'config',
          'missing_scope',
          `The app lacks an access scope Shopify requires for ${operation.name}: ${errors[0]?.message ?? ''}`,
        );
      if (codes.includes('TOO_MANY_REQUESTS')) {
        // A per-mutation limit (orderCreate on development stores): nothing was created.
        const seconds = Number(
          (
            errors.find((e) => e.extensions?.code === 'TOO_MANY_REQUESTS')?.extensions as
              { retryAfterSeconds?: unknown } | undefined
          )?.retryAfterSeconds,
        );
        attempt += 1;
        if (attempt >= maxAttempts + 4)
          throw new ConnectorError(
            'transient',
            'rate_limited',
            `Shopify limits ${operation.name} on this shop.`,
          );
        await this.#wait(Number.isFinite(seconds) ? seconds * 1000 : 60_000);
        continue;
      }
      if (codes.includes('INTERNAL_SERVER_ERROR')) {
        await transient(
          new ConnectorError(
            'transient',
            'store_unavailable',
            `Shopify reported an internal error for ${operation.name}.`,
          ),
        );
        continue;
      }
      if (typeof body.errors === 'string' || (body.errors && !Array.isArray(body.errors)))
        throw new ConnectorError(
          'system',
          'unexpected_response',
          `Shopify refused ${operation.name}: ${JSON.stringify(body.errors).slice(0, 300)}`,
        );
      if (errors.length)
        throw new ConnectorError(
          'system',
          'graphql_error',
          `Shopify refused ${operation.name}: ${errors
            .map((e) => e.message)
            .join('; ')
            .slice(0, 500)}`,
        );

      if (cost) {
        this.bucket.recordRequest(
          cost.requestedQueryCost,
          cost.actualQueryCost ?? cost.requestedQueryCost,
        );
        this.#learned.set(expected.key, cost.requestedQueryCost);
      } else {
        this.bucket.recordRequest(expected.cost, expected.cost);
      }
      const parsed = operation.data.safeParse(body.data);
      if (!parsed.success)
        throw new ConnectorError(
          'system',
          'unexpected_response',
          `Shopify's answer to ${operation.name} does not have the expected shape: ${parsed.error.message.slice(0, 500)}`,
        );
      return parsed.data;
    }
  }
}
