import type { RateUsage } from '../kit/contract.ts';

/**
 * A local model of Shopify's leaky bucket for one (app, shop)
 * (shopify.dev/docs/apps/build/apis/graphql-admin/rate-limits): every response carries
 * `extensions.cost.throttleStatus` (maximumAvailable, currentlyAvailable, restoreRate); between
 * responses the bucket refills at restoreRate points per second. Before a call whose requested
 * cost exceeds what is available, the client waits exactly the deficit divided by the restore rate,
 * so a steady run is never throttled. Requests may overlap: each one holds its expected cost as a
 * reservation from just before it goes out until its answer arrives, and later requests wait for
 * what is left, so several in flight never ask together for more than the bucket holds.
 *
 * Use is measured only while the connection is busy (a request in flight or waiting for the
 * bucket), and the points drawn from what the bucket held when it got busy are left out: a full
 * bucket lets a short run spend far more than the restore rate, which says nothing about the
 * rate the shop sustains.
 */

export interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

export interface CostStats {
  requests: number;
  /** Requests Shopify refused with THROTTLED or HTTP 429 (0 in a run that paces itself correctly). */
  throttled: number;
  pointsRequested: number;
  /** Points actually charged (actualQueryCost). */
  pointsUsed: number;
  /** Points charged beyond what the bucket held when the connection got busy. */
  pointsRestored: number;
  /** Time spent waiting for the bucket, in milliseconds. */
  waitedMs: number;
  /** Milliseconds the connection was busy. */
  busyMs: number;
  /** pointsRestored per second of busy time: at most the restore rate. */
  pointsPerSecond: number;
  /** Points per second the shop makes available (its restore rate), when known. */
  availablePerSecond: number | null;
  bucketSize: number | null;
}

interface BusySpell {
  since: number;
  /** Points the bucket held when the spell began; undefined until Shopify first answered. */
  level: number | undefined;
  used: number;
}

export class CostBucket {
  readonly #now: () => number;
  #status: ThrottleStatus | undefined;
  #at = 0;
  #spell: BusySpell | undefined;
  #busyMs = 0;
  #restored = 0;
  /** Points held by requests in flight (their expected cost), not yet seen in a status. */
  #reserved = 0;
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
    const free = available - this.#reserved;
    if (needed <= free) return 0;
    return Math.max(1, Math.ceil(((needed - free) / this.#status.restoreRate) * 1000));
  }

  /** A request of `cost` points goes out now: later ones must not count on those points. */
  reserve(cost: number): void {
    this.#reserved += cost;
  }

  /** Its answer arrived (or it failed): the status it carries, if any, counts its cost instead. */
  release(cost: number): void {
    this.#reserved = Math.max(0, this.#reserved - cost);
  }

  /**
   * Records the status of a response taken when it arrived; `charged` is what that response cost
   * (0 for a refused one), so the level before the first request can be told.
   */
  observe(status: ThrottleStatus, charged = 0): void {
    if (this.#spell && this.#spell.level === undefined)
      this.#spell.level = Math.min(
        status.maximumAvailable,
        status.currentlyAvailable + charged + this.#spell.used,
      );
    this.#status = { ...status };
    this.#at = this.#now();
  }

  /** The model answers for the bucket as it stands now (what a request about to go out sees). */
  status(): ThrottleStatus | undefined {
    return this.#status;
  }

  /** The connection starts working (first of possibly several overlapping requests). */
  beginBusy(): void {
    this.#spell = { since: this.#now(), level: this.available(), used: 0 };
  }

  /** The connection has nothing in flight any more. */
  endBusy(): void {
    const spell = this.#spell;
    if (!spell) return;
    this.#spell = undefined;
    this.#busyMs += Math.max(0, this.#now() - spell.since);
    const end = this.available();
    // Only a bucket that ended lower than it began lent points; one that refilled lent none.
    const drawn =
      spell.level === undefined || end === undefined ? 0 : Math.max(0, spell.level - end);
    this.#restored += Math.max(0, spell.used - drawn);
  }

  recordRequest(requested: number, used: number): void {
    this.#stats.requests += 1;
    this.#stats.pointsRequested += requested;
    this.#stats.pointsUsed += used;
    if (this.#spell) this.#spell.used += used;
  }

  recordThrottled(): void {
    this.#stats.requests += 1;
    this.#stats.throttled += 1;
  }

  recordWait(ms: number): void {
    this.#stats.waitedMs += ms;
  }

  stats(): CostStats {
    const busyMs = this.#busyMs + (this.#spell ? Math.max(0, this.#now() - this.#spell.since) : 0);
    const restored = this.#restored;
    return {
      ...this.#stats,
      pointsRestored: restored,
      busyMs,
      pointsPerSecond: busyMs > 0 ? (restored * 1000) / busyMs : 0,
      availablePerSecond: this.#status?.restoreRate ?? null,
      bucketSize: this.#status?.maximumAvailable ?? null,
    };
  }

  /** The contract's figure; `plannedRate` stands in until Shopify told the shop's restore rate. */
  rateUsage(plannedRate: number): RateUsage {
    const stats = this.stats();
    return {
      unit: 'points',
      usedPerSecond: stats.pointsPerSecond,
      availablePerSecond: stats.availablePerSecond ?? plannedRate,
      throttled: stats.throttled,
    };
  }
}
