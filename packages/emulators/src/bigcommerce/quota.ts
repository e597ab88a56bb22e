/**
 * BigCommerce's per-store request quota: a window of `windowMs` (30 s) in which the store may make
 * `quota` requests (150 on Standard/Plus, 450 on Pro), shared by every app of the store. Every
 * answer carries the X-Rate-Limit-* headers; once the quota is spent the store answers 429 until
 * the window resets (limits.json `bigcommerce.rate_limit`).
 */

export type BigCommercePlan = 'standard' | 'pro' | 'unlimited';

export interface QuotaSettings {
  quota: number;
  windowMs: number;
}

export const planQuotas: Record<BigCommercePlan, QuotaSettings> = {
  standard: { quota: 150, windowMs: 30_000 },
  pro: { quota: 450, windowMs: 30_000 },
  // Enterprise-like: the headers are still sent, the quota is simply never reached in practice.
  unlimited: { quota: 1_000_000, windowMs: 30_000 },
};

export interface QuotaWindowRecord {
  startedAt: number;
  /** Requests admitted in this window. */
  used: number;
  /** Requests refused with 429 in this window. */
  limited: number;
}

export interface QuotaStats {
  quota: number;
  windowMs: number;
  /** Requests refused because the quota of their window was spent. */
  limited: number;
  windows: QuotaWindowRecord[];
}

export interface QuotaDecision {
  allowed: boolean;
  headers: Record<string, string>;
}

export class QuotaWindow {
  readonly #settings: QuotaSettings;
  readonly #now: () => number;
  readonly #windows: QuotaWindowRecord[] = [];
  #limited = 0;

  constructor(settings: QuotaSettings, now: () => number = () => performance.now()) {
    this.#settings = settings;
    this.#now = now;
  }

  /** Counts one request against the current window (opening a new one when the last expired). */
  take(): QuotaDecision {
    const now = this.#now();
    let current = this.#windows.at(-1);
    if (!current || now >= current.startedAt + this.#settings.windowMs) {
      current = { startedAt: now, used: 0, limited: 0 };
      this.#windows.push(current);
    }
    const allowed = current.used < this.#settings.quota;
    if (allowed) current.used += 1;
    else {
      current.limited += 1;
      this.#limited += 1;
    }
    // Elapsed time first: (start + window) - now can exceed the window by a float's last bit.
    const remaining = this.#settings.windowMs - (now - current.startedAt);
    const resetMs = Math.min(this.#settings.windowMs, Math.max(0, Math.ceil(remaining)));
    const headers: Record<string, string> = {
      'X-Rate-Limit-Time-Window-Ms': String(this.#settings.windowMs),
      'X-Rate-Limit-Time-Reset-Ms': String(resetMs),
      'X-Rate-Limit-Requests-Quota': String(this.#settings.quota),
      'X-Rate-Limit-Requests-Left': String(this.#settings.quota - current.used),
    };
    if (!allowed) headers['X-Retry-After'] = String(Math.max(1, Math.ceil(resetMs / 1000)));
    return { allowed, headers };
  }

  stats(): QuotaStats {
    return {
      ...this.#settings,
      limited: this.#limited,
      windows: this.#windows.map((w) => ({ ...w })),
    };
  }

  /**
   * Share of the quota used in the windows that are over (the last one may still be running);
   * undefined before a first window has closed.
   */
  utilisation(): number | undefined {
    const closed = this.#windows.slice(0, -1);
    if (closed.length === 0) return undefined;
    const used = closed.reduce((sum, w) => sum + w.used, 0);
    return used / (closed.length * this.#settings.quota);
  }
}
