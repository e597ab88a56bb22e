import { sql, type Kysely } from 'kysely';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/** The event store a sliding-window limit counts in (see apps/server/src/auth/rate-limit.ts). */
export interface RateLimitEvents {
  /** Times (epoch ms) of the key's events later than `since`, newest first, at most `limit`. */
  recent(key: string, since: number, limit: number): Promise<number[]>;
  add(key: string, at: number): Promise<void>;
  reset(key: string): Promise<void>;
  /**
   * Runs `fn` while no other process decides on any of `keys`, with a store whose reads and
   * writes belong to that decision, so a check and the count that follows it are one step.
   */
  exclusive<T>(keys: readonly string[], fn: (events: RateLimitEvents) => Promise<T>): Promise<T>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Limit events in the database, so every server on it counts the same events: a limit reached
 * through one server holds on all of them. On PostgreSQL a decision holds a transaction-scoped
 * advisory lock per key; on SQLite (one machine) decisions of this process are queued one after
 * another, and SQLite serialises the writes of other processes.
 */
export class RateLimitEventsRepository implements RateLimitEvents {
  readonly #db: Db;
  readonly #executor: Kysely<Database>;
  readonly #adds: { sinceSweep: number };
  #queue: Promise<unknown> = Promise.resolve();

  constructor(db: Db, executor: Kysely<Database> = db.kysely, adds = { sinceSweep: 0 }) {
    this.#db = db;
    this.#executor = executor;
    this.#adds = adds;
  }

  async recent(key: string, since: number, limit: number): Promise<number[]> {
    const rows = await this.#executor
      .selectFrom('rate_limit_events')
      .select('at')
      .where('key', '=', key)
      .where('at', '>', since)
      .orderBy('at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => Number(row.at));
  }

  async add(key: string, at: number): Promise<void> {
    await this.#executor.insertInto('rate_limit_events').values({ key, at }).execute();
    // No limit looks back further than a day: older events only take space.
    if (++this.#adds.sinceSweep >= 1000) {
      this.#adds.sinceSweep = 0;
      await this.#executor
        .deleteFrom('rate_limit_events')
        .where('at', '<', at - DAY_MS)
        .execute();
    }
  }

  async reset(key: string): Promise<void> {
    await this.#executor.deleteFrom('rate_limit_events').where('key', '=', key).execute();
  }

  async exclusive<T>(
    keys: readonly string[],
    fn: (events: RateLimitEvents) => Promise<T>,
  ): Promise<T> {
    if (this.#db.dialect === 'postgres') {
      return this.#db.kysely.transaction().execute(async (trx) => {
        // Always in the same order, so two decisions on overlapping keys cannot deadlock.
        for (const key of [...new Set(keys)].sort())
          await sql`select pg_advisory_xact_lock(hashtext(${`rate-limit:${key}`}))`.execute(trx);
        return fn(new RateLimitEventsRepository(this.#db, trx, this.#adds));
      });
    }
    const run = this.#queue.then(() => fn(this));
    this.#queue = run.catch(() => {});
    return run;
  }
}
