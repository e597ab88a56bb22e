/** A window of at most `max` events per `windowMs`. */
export interface Limit {
  max: number;
  windowMs: number;
}

/**
 * Counts events per key in a sliding window, in memory. Limits are per process: several server
 * processes behind one address each count on their own, which still bounds guessing.
 */
export class SlidingWindowCounter {
  readonly #events = new Map<string, number[]>();
  readonly #now: () => number;
  #sinceSweep = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  #recent(key: string, windowMs: number): number[] {
    const cutoff = this.#now() - windowMs;
    const kept = (this.#events.get(key) ?? []).filter((t) => t > cutoff);
    if (kept.length) this.#events.set(key, kept);
    else this.#events.delete(key);
    return kept;
  }

  count(key: string, limit: Limit): number {
    return this.#recent(key, limit.windowMs).length;
  }

  /** Milliseconds until the key is under its limit again (0 when it already is). */
  retryAfter(key: string, limit: Limit): number {
    const recent = this.#recent(key, limit.windowMs);
    if (recent.length < limit.max) return 0;
    const oldestThatCounts = recent[recent.length - limit.max] ?? this.#now();
    return Math.max(1, oldestThatCounts + limit.windowMs - this.#now());
  }

  add(key: string, limit: Limit): void {
    const recent = this.#recent(key, limit.windowMs);
    recent.push(this.#now());
    // Never hold more than the limit needs to decide.
    this.#events.set(key, recent.slice(-limit.max));
    if (++this.#sinceSweep >= 1000) this.#sweep();
  }

  reset(key: string): void {
    this.#events.delete(key);
  }

  #sweep(): void {
    this.#sinceSweep = 0;
    const dayAgo = this.#now() - 24 * 60 * 60 * 1000;
    for (const [key, times] of this.#events) {
      if ((times[times.length - 1] ?? 0) < dayAgo) this.#events.delete(key);
    }
  }
}

const minutes = (n: number) => n * 60 * 1000;

/** The limits of issue "abuse limits"; exported so tests can reason about them. */
export const authLimits = {
  /** Sign-in, sign-up, reset and demo requests per client address (offices share addresses). */
  perIp: { max: 60, windowMs: minutes(10) },
  /** Password checks of signed-in users (e-mail and password changes, deletion). */
  reauthPerIp: { max: 30, windowMs: minutes(10) },
  /** The same checks for one account, from any address. */
  reauthPerAccount: { max: 10, windowMs: minutes(10) },
  /** Failed sign-ins for one account from one address. */
  signInFailuresPerAccountAndIp: { max: 5, windowMs: minutes(15) },
  /**
   * Failed sign-ins for one account from everywhere. Past it, only addresses that have not failed
   * for the account may try, so a spread-out guesser is stopped while the owner, on an address of
   * their own, can still sign in.
   */
  signInFailuresPerAccount: { max: 20, windowMs: minutes(60) },
  signUpsPerAccount: { max: 5, windowMs: minutes(60) },
  resetMailsPerAccount: { max: 3, windowMs: minutes(60) },
  demoAccountsPerIp: { max: 10, windowMs: minutes(60) },
} satisfies Record<string, Limit>;

export type AuthAction =
  'sign-in' | 'sign-up' | 'reset-request' | 'reset' | 'demo' | 'social' | 'reauth';

export interface LimitDecision {
  allowed: boolean;
  retryAfterMs: number;
}

/** Per-address and per-account limits of the sign-in, sign-up and password reset paths. */
export class AuthRateLimiter {
  readonly #counter: SlidingWindowCounter;

  constructor(now?: () => number) {
    this.#counter = new SlidingWindowCounter(now);
  }

  /** Decides and, when allowed, counts the attempt (failures are recorded after the answer). */
  attempt(action: AuthAction, ip: string, account?: string): LimitDecision {
    const checks: Array<[string, Limit]> = [
      action === 'reauth'
        ? [`reauth:${ip}`, authLimits.reauthPerIp]
        : [`ip:${ip}`, authLimits.perIp],
    ];
    if (account) {
      if (action === 'reauth')
        checks.push([`reauth-account:${account}`, authLimits.reauthPerAccount]);
      if (action === 'sign-up') checks.push([`sign-up:${account}`, authLimits.signUpsPerAccount]);
      if (action === 'reset-request')
        checks.push([`reset:${account}`, authLimits.resetMailsPerAccount]);
    }
    if (action === 'demo') checks.push([`demo:${ip}`, authLimits.demoAccountsPerIp]);

    let retryAfterMs = 0;
    for (const [key, limit] of checks) {
      retryAfterMs = Math.max(retryAfterMs, this.#counter.retryAfter(key, limit));
    }
    if (action === 'sign-in' && account) {
      const pairKey = `fail:${account}|${ip}`;
      retryAfterMs = Math.max(
        retryAfterMs,
        this.#counter.retryAfter(pairKey, authLimits.signInFailuresPerAccountAndIp),
      );
      const accountWait = this.#counter.retryAfter(
        `fail:${account}`,
        authLimits.signInFailuresPerAccount,
      );
      if (accountWait > 0 && this.#counter.count(pairKey, authLimits.signInFailuresPerAccountAndIp))
        retryAfterMs = Math.max(retryAfterMs, accountWait);
    }
    if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
    for (const [key, limit] of checks) this.#counter.add(key, limit);
    return { allowed: true, retryAfterMs: 0 };
  }

  signInFailed(ip: string, account: string): void {
    this.#counter.add(`fail:${account}|${ip}`, authLimits.signInFailuresPerAccountAndIp);
    this.#counter.add(`fail:${account}`, authLimits.signInFailuresPerAccount);
  }

  signInSucceeded(ip: string, account: string): void {
    this.#counter.reset(`fail:${account}|${ip}`);
  }
}

export function limitMessage(action: AuthAction, retryAfterMs: number): string {
  const wait = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  const when = `in ${wait} minute${wait === 1 ? '' : 's'}`;
  switch (action) {
    case 'sign-in':
      return `Too many sign-in attempts. Please try again ${when}.`;
    case 'reset-request':
      return `Too many password reset requests. Please try again ${when}.`;
    case 'sign-up':
      return `Too many sign-up attempts. Please try again ${when}.`;
    default:
      return `Too many attempts. Please try again ${when}.`;
  }
}
