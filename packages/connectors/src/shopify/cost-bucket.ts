/**
 * A local model of Shopify's leaky bucket for one (app, shop)
 * (shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits): every response carries
 * `extensions.cost.throttleStatus` (maximumAvailable, currentlyAvailable, restoreRate); between
 * responses the bucket refills at restoreRate points per second. Before a call whose requested
 * cost exceeds what is available, the client waits exactly the deficit divided by the restore rate,
 * so a steady run is never throttled.
 */

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface CostStats {
  requests: number;
  /** Requests Shopify refused with THROTTLED (0 in a run that paces itself correctly). */
  throttled: number;
  pointsRequested: number;
  /** Points actually charged (actualQueryCost). */
  pointsUsed: number;
  /** Time spent waiting for the bucket, in milliseconds. */
  waitedMs: number;
  /** Milliseconds since the first request. */
  elapsedMs: number;
  /** Points used per second of elapsed time. */
  pointsPerSecond: number;
  /** Points per second the shop makes available (its restore rate), when known. */
  availablePerSecond: number | null;
  bucketSize: number | null;
}

export class CostBucket {
  readonly #now: () => number;
  #status: ThrottleStatus | undefined;
  #at = 0;
  #firstRequestAt: number | undefined;
  readonly #stats = { requests: 0, throttled: 0, pointsRequested: 0, pointsUsed: 0, waitedMs: 0 };

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Points available now according to the last status and the time since. */
  available(): number | undefined {
    if (!this.#status) return undefined;
    const elapsed = Math.max(0, this.#now() - this.#at) / 1000;
    return Math.min(
      this.#status.maximumAvailable,
      this.#status.currentlyAvailable + elapsed * this.#status.restoreRate,
    );
  }

  /** Milliseconds to wait before a call of `cost` points fits in the bucket (0 if it fits). */
  delayFor(cost: number): number {
    const available = this.available();
    if (available === undefined || !this.#status || this.#status.restoreRate <= 0) return 0;
    const needed = Math.min(cost, this.#status.maximumAvailable);
    if (needed <= available) return 0;
    return Math.ceil(((needed - available) / this.#status.restoreRate) * 1000);
  }

  /** Records the status of a response taken when it arrived. */
  observe(status: ThrottleStatus): void {
    this.#status = { ...status };
    this.#at = this.#now();
  }

  /** The model answers for the bucket as it stands now (what a request about to go out sees). */
  status(): ThrottleStatus | undefined {
    return this.#status;
  }

  recordRequest(requested: number, used: number): void {
    this.#firstRequestAt ??= this.#now();
    this.#stats.requests += 1;
    this.#stats.pointsRequested += requested;
    this.#stats.pointsUsed += used;
  }

  recordThrottled(): void {
    this.#firstRequestAt ??= this.#now();
    this.#stats.requests += 1;
    this.#stats.throttled += 1;
  }

  recordWait(ms: number): void {
    this.#stats.waitedMs += ms;
  }

  stats(): CostStats {
    const elapsedMs = this.#firstRequestAt === undefined ? 0 : this.#now() - this.#firstRequestAt;
    return {
      ...this.#stats,
      elapsedMs,
      pointsPerSecond: elapsedMs > 0 ? (this.#stats.pointsUsed * 1000) / elapsedMs : 0,
      availablePerSecond: this.#status?.restoreRate ?? null,
      bucketSize: this.#status?.maximumAvailable ?? null,
    };
  }
}
