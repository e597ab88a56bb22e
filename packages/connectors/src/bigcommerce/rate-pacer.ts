/**
 * Paces requests by BigCommerce's per-store quota (limits.json `bigcommerce.rate_limit`): every
 * answer says how many requests are left in the window (X-Rate-Limit-Requests-Left) and when the
 * window resets (X-Rate-Limit-Time-Reset-Ms). The quota is shared by every app of the store, so a
 * reserve of 5 % (at least one request) is left for the others; once the budget is down to the
 * reserve, requests wait for the reset instead of running into 429s.
 */

export interface PacerOptions {
  /** Share of the quota left to the store's other apps (default 0.05). */
  reserveRatio?: number;
  /** Waiting this much past the announced reset absorbs clock and network jitter (default 25 ms). */
  resetMarginMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

export interface QuotaHeaders {
  quota: number;
  left: number;
  resetMs: number;
  windowMs: number;
}

export interface PacerUsage {
  /** Requests of this connection the store counted, per second of the windows it worked in. */
  usedPerSecond: number;
  /** The store's quota per second (quota / window), undefined before a first answer. */
  availablePerSecond: number | undefined;
}

export interface PacerStats {
  /** Times a request waited for the window to reset. */
  waits: number;
  waitedMs: number;
  /** Quota windows seen so far (including the current one). */
  windows: number;
  /**
   * Share of the quota this store used in the windows that are over, as the headers reported it
   * (all apps together); undefined before a first window closed.
   */
  utilisation: number | undefined;
  /** Budget the pacer believes is left right now. */
  left: number | undefined;
  quota: number | undefined;
}

const header = (headers: Record<string, string>, name: string): number | undefined => {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  if (key === undefined) return undefined;
  const value = Number(headers[key]);
  return Number.isFinite(value) ? value : undefined;
};

/** Reads the X-Rate-Limit-* headers; undefined when an answer carries none. */
export function quotaHeaders(headers: Record<string, string>): QuotaHeaders | undefined {
  const quota = header(headers, 'X-Rate-Limit-Requests-Quota');
  const left = header(headers, 'X-Rate-Limit-Requests-Left');
  const resetMs = header(headers, 'X-Rate-Limit-Time-Reset-Ms');
  const windowMs = header(headers, 'X-Rate-Limit-Time-Window-Ms');
  if (quota === undefined || left === undefined || resetMs === undefined) return undefined;
  // Without the window header the reset time is the best bound there is (a window is at least as
  // long as any reset announced in it); 30 s is only the documented default.
  return { quota, left, resetMs, windowMs: windowMs ?? Math.max(resetMs, 30_000) };
}

interface WindowRecord {
  endsAt: number;
  quota: number;
  windowMs: number;
  minLeft: number;
  /** When the first request of this connection answered in this window was sent. */
  firstSentAt: number;
  /** Requests of this connection the store counted in this window. */
  sent: number;
}

export class RatePacer {
  readonly #reserveRatio: number;
  readonly #marginMs: number;
  readonly #now: () => number;
  readonly #sleep: (ms: number) => Promise<void>;
  #quota: number | undefined;
  #windowMs = 30_000;
  /** Requests we may still send in this window (last report minus what was sent since). */
  #budget: number | undefined;
  #resetAt: number | undefined;
  #inflight = 0;
  /** Send times of the requests in flight, oldest first. */
  readonly #sentAt: number[] = [];
  #waits = 0;
  #waitedMs = 0;
  readonly #windows: WindowRecord[] = [];

  constructor(options: PacerOptions = {}) {
    this.#reserveRatio = options.reserveRatio ?? 0.05;
    this.#marginMs = options.resetMarginMs ?? 25;
    this.#now = options.now ?? (() => performance.now());
    this.#sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  reserve(): number {
    return this.#quota === undefined ? 0 : Math.max(1, Math.ceil(this.#quota * this.#reserveRatio));
  }

  /** Waits until a request may be sent, then counts it against the budget. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const now = this.#now();
      if (this.#resetAt !== undefined && now >= this.#resetAt) {
        // A new window: the whole quota is back until an answer says otherwise.
        this.#budget = this.#quota;
        this.#resetAt = undefined;
      }
      if (this.#budget === undefined || this.#budget > this.reserve()) break;
      const until = this.#resetAt ?? now + this.#windowMs;
      const wait = Math.max(1, until - now + this.#marginMs);
      this.#waits += 1;
      this.#waitedMs += wait;
      await this.#sleep(wait);
    }
    if (this.#budget !== undefined) this.#budget -= 1;
    this.#inflight += 1;
    this.#sentAt.push(this.#now());
  }

  /**
   * Records the answer of a request started with acquire() (headers absent on network errors).
   * `counted` is false for an answer the quota did not count (a 429 for a spent quota).
   */
  release(headers?: Record<string, string>, counted = true): void {
    this.#inflight = Math.max(0, this.#inflight - 1);
    const sentAt = this.#sentAt.shift() ?? this.#now();
    const reported = headers ? quotaHeaders(headers) : undefined;
    if (!reported) return;
    const window = this.#observe(reported);
    if (counted) {
      window.sent += 1;
      window.firstSentAt = Math.min(window.firstSentAt, sentAt);
    }
  }

  /** A 429 with quota headers: nothing is left until the reset. */
  exhausted(headers: Record<string, string>): void {
    const reported = quotaHeaders(headers);
    if (!reported) return;
    this.#observe({ ...reported, left: 0 });
    this.#budget = 0;
  }

  #observe(reported: QuotaHeaders): WindowRecord {
    const now = this.#now();
    this.#quota = reported.quota;
    this.#windowMs = reported.windowMs;
    const endsAt = now + reported.resetMs;
    let current = this.#windows.at(-1);
    // Within a window the announced end stays put; a new window moves it by a whole window.
    if (!current || endsAt > current.endsAt + reported.windowMs / 2) {
      current = {
        endsAt,
        quota: reported.quota,
        windowMs: reported.windowMs,
        minLeft: reported.left,
        firstSentAt: now,
        sent: 0,
      };
      this.#windows.push(current);
    } else {
      current.minLeft = Math.min(current.minLeft, reported.left);
      // The latest report is the most precise about when this window ends.
      current.endsAt = endsAt;
    }
    // Requests still in flight were sent after this answer was counted, or will be counted soon.
    this.#budget = reported.left - this.#inflight;
    this.#resetAt = endsAt;
    return current;
  }

  /**
   * Quota use of this connection: its counted requests over the windows it worked in, each
   * window charged from this connection's first request in it to the window's end. Windows that
   * are over are the measure; before one is over, the running window is charged whole, because
   * its quota was available from its start (a burst into a fresh window is not a rate).
   */
  usage(): PacerUsage {
    const now = this.#now();
    const charged = (w: WindowRecord) =>
      Math.max(1, w.endsAt - Math.max(w.endsAt - w.windowMs, w.firstSentAt));
    const closed = this.#windows.filter((w) => w.endsAt <= now);
    const measured = closed.length ? closed : this.#windows.slice(-1);
    const sent = measured.reduce((sum, w) => sum + w.sent, 0);
    const ms = closed.length
      ? measured.reduce((sum, w) => sum + charged(w), 0)
      : measured.reduce((sum, w) => sum + w.windowMs, 0);
    return {
      usedPerSecond: ms > 0 ? (sent * 1000) / ms : 0,
      availablePerSecond:
        this.#quota === undefined ? undefined : (this.#quota * 1000) / this.#windowMs,
    };
  }

  stats(): PacerStats {
    const closed = this.#windows.slice(0, -1);
    const utilisation = closed.length
      ? closed.reduce((sum, w) => sum + (w.quota - w.minLeft) / w.quota, 0) / closed.length
      : undefined;
    return {
      waits: this.#waits,
      waitedMs: Math.round(this.#waitedMs),
      windows: this.#windows.length,
      utilisation,
      left: this.#budget,
      quota: this.#quota,
    };
  }
}
