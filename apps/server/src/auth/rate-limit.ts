import type { RateLimitEvents } from '@replatform/db/rate-limit-events-repository';

/** A window of at most `max` events per `windowMs`. */
export interface Limit {
  max: number;
  windowMs: number;
}

/**
 * The events a counter keeps: in this process's memory (tests, and the default of a counter
 * made without a store), or in the database shared by every server (RateLimitEventsRepository),
 * so that a limit reached through one server holds on all of them.
 */
export type { RateLimitEvents } from '@replatform/db/rate-limit-events-repository';

/** Events in this process's memory, never more per key than the largest limit needs. */
export class MemoryEvents implements RateLimitEvents {
  readonly #events = new Map<string, number[]>();
  #queue: Promise<unknown> = Promise.resolve();
  #sinceSweep = 0;

  async recent(key: string, since: number, limit: number): Promise<number[]> {
    const kept = (this.#events.get(key) ?? []).filter((t) => t > since);
    return kept.slice(-limit).reverse();
  }

  async add(key: string, at: number): Promise<void> {
    const times = this.#events.get(key) ?? [];
    times.push(at);
    this.#events.set(key, times.slice(-100));
    if (++this.#sinceSweep >= 1000) {
      this.#sinceSweep = 0;
      const dayAgo = at - 24 * 60 * 60 * 1000;
      for (const [k, t] of this.#events)
        if ((t[t.length - 1] ?? 0) < dayAgo) this.#events.delete(k);
    }
  }

  async reset(key: string): Promise<void> {
    this.#events.delete(key);
  }

  async exclusive<T>(
    _keys: readonly string[],
    fn: (events: RateLimitEvents) => Promise<T>,
  ): Promise<T> {
    const run: Promise<T> = this.#queue.then(() => fn(this));
    this.#queue = run.catch(() => {});
    return run;
  }
}

/** Counts events per key in a sliding window, in a store of events (see RateLimitEvents). */
export class SlidingWindowCounter {
  readonly #events: RateLimitEvents;
  readonly #now: () => number;

  constructor(now: () => number = Date.now, events: RateLimitEvents = new MemoryEvents()) {
    this.#now = now;
    this.#events = events;
  }

  /** The same counter deciding inside `events` (one exclusive decision, see `exclusive`). */
  #within(events: RateLimitEvents): SlidingWindowCounter {
    return new SlidingWindowCounter(this.#now, events);
  }

  async count(key: string, limit: Limit): Promise<number> {
    return (await this.#events.recent(key, this.#now() - limit.windowMs, limit.max)).length;
  }

  /** Milliseconds until the key is under its limit again (0 when it already is). */
  async retryAfter(key: string, limit: Limit): Promise<number> {
    const recent = await this.#events.recent(key, this.#now() - limit.windowMs, limit.max);
    if (recent.length < limit.max) return 0;
    const oldestThatCounts = recent[limit.max - 1] ?? this.#now();
    return Math.max(1, oldestThatCounts + limit.windowMs - this.#now());
  }

  async add(key: string, _limit: Limit): Promise<void> {
    await this.#events.add(key, this.#now());
  }

  async reset(key: string): Promise<void> {
    await this.#events.reset(key);
  }

  /** Decides on `keys` while no other server decides on them; `fn` uses the counter it gets. */
  exclusive<T>(
    keys: readonly string[],
    fn: (counter: SlidingWindowCounter) => Promise<T>,
  ): Promise<T> {
    return this.#events.exclusive(keys, (events) => fn(this.#within(events)));
  }

  /**
   * Counts one event if the key is under its limit, in one step: answers 0 when counted, or the
   * milliseconds to wait.
   */
  take(key: string, limit: Limit): Promise<number> {
    return this.exclusive([key], async (counter) => {
      const wait = await counter.retryAfter(key, limit);
      if (wait === 0) await counter.add(key, limit);
      return wait;
    });
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

  constructor(now?: () => number, events?: RateLimitEvents) {
    this.#counter = new SlidingWindowCounter(now, events);
  }

  /** Decides and, when allowed, counts the attempt (failures are recorded after the answer). */
  async attempt(action: AuthAction, ip: string, account?: string): Promise<LimitDecision> {
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

    return this.#counter.exclusive(
      checks.map(([key]) => key),
      async (counter) => {
        let retryAfterMs = 0;
        for (const [key, limit] of checks) {
          retryAfterMs = Math.max(retryAfterMs, await counter.retryAfter(key, limit));
        }
        if (action === 'sign-in' && account) {
          const pairKey = `fail:${account}|${ip}`;
          retryAfterMs = Math.max(
            retryAfterMs,
            await counter.retryAfter(pairKey, authLimits.signInFailuresPerAccountAndIp),
          );
          const accountWait = await counter.retryAfter(
            `fail:${account}`,
            authLimits.signInFailuresPerAccount,
          );
          if (
            accountWait > 0 &&
            (await counter.count(pairKey, authLimits.signInFailuresPerAccountAndIp))
          )
            retryAfterMs = Math.max(retryAfterMs, accountWait);
        }
        if (retryAfterMs > 0) return { allowed: false, retryAfterMs };
        for (const [key, limit] of checks) await counter.add(key, limit);
        return { allowed: true, retryAfterMs: 0 };
      },
    );
  }

  async signInFailed(ip: string, account: string): Promise<void> {
    await this.#counter.add(`fail:${account}|${ip}`, authLimits.signInFailuresPerAccountAndIp);
    await this.#counter.add(`fail:${account}`, authLimits.signInFailuresPerAccount);
  }

  async signInSucceeded(ip: string, account: string): Promise<void> {
    await this.#counter.reset(`fail:${account}|${ip}`);
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
