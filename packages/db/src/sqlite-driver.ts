import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

// Kysely's SqliteDialect expects a better-sqlite3-shaped database. node:sqlite (built into
// Node 24) has the same synchronous model, so a thin adapter is all that is needed and no native
// module has to be compiled. node:sqlite binds only null, numbers, bigints, strings and bytes:
// booleans become 0/1 and dates ISO-8601 text, which is how every table of ours stores them.
function toSqlite(value: unknown): SQLInputValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (
    typeof value === 'number' ||
    typeof value === 'bigint' ||
    typeof value === 'string' ||
    value instanceof Uint8Array
  ) {
    return value;
  }
  return JSON.stringify(value);
}

class Statement implements SqliteStatement {
  readonly reader: boolean;
  readonly #statement: StatementSync;

  constructor(statement: StatementSync) {
    this.#statement = statement;
    this.reader = statement.columns().length > 0;
  }

  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#statement.all(...parameters.map(toSqlite));
  }

  run(parameters: ReadonlyArray<unknown>): {
    changes: number | bigint;
    lastInsertRowid: number | bigint;
  } {
    const result = this.#statement.run(...parameters.map(toSqlite));
    return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
  }

  *iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    yield* this.#statement.iterate(...parameters.map(toSqlite));
  }
}

/** Distinct queries kept prepared per connection (an engine run uses a few dozen). */
const STATEMENT_CACHE_SIZE = 200;

export function openSqlite(path: string): SqliteDatabase & { raw: DatabaseSync } {
  const raw = new DatabaseSync(path);
  // The busy timeout first: switching to WAL needs a lock that another process opening the same
  // file may hold for a moment. WAL lets readers proceed while the migration worker writes;
  // foreign keys are off by default in SQLite and must be switched on per connection.
  raw.exec('PRAGMA busy_timeout = 5000');
  raw.exec('PRAGMA journal_mode = WAL');
  raw.exec('PRAGMA foreign_keys = ON');
  raw.exec('PRAGMA synchronous = NORMAL');
  // Prepared statements are reused by their SQL text. Each one holds native memory that V8 does
  // not see, so preparing anew for every query (thousands per minute in a migration) lets it pile
  // up until a garbage collection happens to run. Kysely runs one query at a time per connection,
  // so a statement is never in use twice at once.
  const cache = new Map<string, Statement>();
  const prepare = (sql: string): Statement => {
    const cached = cache.get(sql);
    if (cached) {
      cache.delete(sql);
      cache.set(sql, cached);
      return cached;
    }
    const statement = new Statement(raw.prepare(sql));
    cache.set(sql, statement);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    return statement;
  };
  return {
    raw,
    close: () => {
      cache.clear();
      raw.close();
    },
    prepare,
  };
}
