import type { Selectable } from 'kysely';
import type { Db } from './database.ts';
import { newId } from './migrations-repository.ts';
import type { EngineJobsTable } from './schema.ts';

/**
 * queued: waiting for a worker. running: a worker holds (or held) the lease; an expired lease
 * means the worker died and another may take over. parked: stopped until the owner acts (e.g.
 * a top-up payment). done / failed: finished.
 */
export type JobState = 'queued' | 'running' | 'parked' | 'done' | 'failed';

export interface EngineJob {
  id: string;
  migrationId: string;
  userId: string;
  state: JobState;
  /** No payment limit (demo account or sandbox stores), as decided when it was started. */
  unlimited: boolean;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  leaseVersion: number;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

function fromRow(row: Selectable<EngineJobsTable>): EngineJob {
  return {
    id: row.id,
    migrationId: row.migration_id,
    userId: row.user_id,
    state: row.state as JobState,
    unlimited: Number(row.unlimited) === 1,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at,
    leaseVersion: Number(row.lease_version),
    attempts: Number(row.attempts),
    lastError: row.last_error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const LIVE: JobState[] = ['queued', 'running'];

/**
 * Durable jobs of the embedded runner. A job is claimed by compare-and-set on its lease version,
 * which is correct on SQLite and PostgreSQL alike and with any number of processes: of two
 * workers racing for the same job exactly one update matches.
 */
export class EngineJobsRepository {
  readonly #db: Db;
  readonly #now: () => Date;

  constructor(db: Db, now: () => Date = () => new Date()) {
    this.#db = db;
    this.#now = now;
  }

  /** Queues a job for the migration, or answers the live one (so starting twice is harmless). */
  async enqueue(
    migrationId: string,
    userId: string,
    options: { unlimited?: boolean } = {},
  ): Promise<{ job: EngineJob; created: boolean }> {
    const existing = await this.liveJob(migrationId);
    if (existing) return { job: existing, created: false };
    const now = this.#now().toISOString();
    try {
      const row = await this.#db.kysely
        .insertInto('engine_jobs')
        .values({
          id: newId(),
          migration_id: migrationId,
          user_id: userId,
          state: 'queued',
          unlimited: options.unlimited ? 1 : 0,
          lease_owner: null,
          lease_expires_at: null,
          last_error: null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { job: fromRow(row), created: true };
    } catch (error) {
      // The unique index on live jobs: someone else queued it a moment ago.
      const raced = await this.liveJob(migrationId);
      if (raced) return { job: raced, created: false };
      throw error;
    }
  }

  async liveJob(migrationId: string): Promise<EngineJob | undefined> {
    const row = await this.#db.kysely
      .selectFrom('engine_jobs')
      .selectAll()
      .where('migration_id', '=', migrationId)
      .where('state', 'in', LIVE)
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async latestJob(migrationId: string): Promise<EngineJob | undefined> {
    const row = await this.#db.kysely
      .selectFrom('engine_jobs')
      .selectAll()
      .where('migration_id', '=', migrationId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async find(jobId: string): Promise<EngineJob | undefined> {
    const row = await this.#db.kysely
      .selectFrom('engine_jobs')
      .selectAll()
      .where('id', '=', jobId)
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  /**
   * Claims the oldest job that is queued, or running under an expired lease (its worker died),
   * for `leaseMs`. Answers undefined when there is nothing to do.
   */
  async claim(
    owner: string,
    leaseMs: number,
    exclude: readonly string[] = [],
  ): Promise<EngineJob | undefined> {
    const now = this.#now();
    const nowIso = now.toISOString();
    let query = this.#db.kysely
      .selectFrom('engine_jobs')
      .select(['id', 'lease_version'])
      .where('state', 'in', LIVE)
      .where((eb) =>
        eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', nowIso)]),
      )
      .orderBy('created_at')
      .orderBy('id')
      .limit(10);
    if (exclude.length) query = query.where('id', 'not in', [...exclude]);
    const candidates = await query.execute();
    for (const candidate of candidates) {
      const row = await this.#db.kysely
        .updateTable('engine_jobs')
        .set((eb) => ({
          state: 'running',
          lease_owner: owner,
          lease_expires_at: new Date(now.getTime() + leaseMs).toISOString(),
          lease_version: eb('lease_version', '+', 1),
          attempts: eb('attempts', '+', 1),
          updated_at: nowIso,
        }))
        .where('id', '=', candidate.id)
        .where('lease_version', '=', candidate.lease_version)
        .where('state', 'in', LIVE)
        .returningAll()
        .executeTakeFirst();
      if (row) return fromRow(row);
    }
    return undefined;
  }

  /**
   * Claims one given job if nobody holds a live lease on it, or if its lease belongs to
   * `takeOverFrom` (a worker known to be dead, e.g. a killed CLI process on this machine).
   */
  async claimById(
    jobId: string,
    owner: string,
    leaseMs: number,
    takeOverFrom?: string,
  ): Promise<EngineJob | undefined> {
    const now = this.#now();
    const nowIso = now.toISOString();
    const row = await this.#db.kysely
      .updateTable('engine_jobs')
      .set((eb) => ({
        state: 'running',
        lease_owner: owner,
        lease_expires_at: new Date(now.getTime() + leaseMs).toISOString(),
        lease_version: eb('lease_version', '+', 1),
        attempts: eb('attempts', '+', 1),
        updated_at: nowIso,
      }))
      .where('id', '=', jobId)
      .where('state', 'in', LIVE)
      .where((eb) => {
        const free = [eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', nowIso)];
        return eb.or(takeOverFrom ? [...free, eb('lease_owner', '=', takeOverFrom)] : free);
      })
      .returningAll()
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  /** Extends the lease; false when it was lost (expired and taken over, or the job finished). */
  async heartbeat(jobId: string, owner: string, leaseMs: number): Promise<boolean> {
    const now = this.#now();
    const result = await this.#db.kysely
      .updateTable('engine_jobs')
      .set({
        lease_expires_at: new Date(now.getTime() + leaseMs).toISOString(),
        updated_at: now.toISOString(),
      })
      .where('id', '=', jobId)
      .where('lease_owner', '=', owner)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Gives the lease back without finishing: at once (graceful shutdown, the next worker resumes
   * immediately) or after `delayMs` (a failed attempt, retried later).
   */
  async release(jobId: string, owner: string, delayMs = 0, lastError?: string): Promise<void> {
    const now = this.#now();
    await this.#db.kysely
      .updateTable('engine_jobs')
      .set({
        lease_owner: null,
        lease_expires_at: delayMs > 0 ? new Date(now.getTime() + delayMs).toISOString() : null,
        ...(lastError === undefined ? {} : { last_error: lastError }),
        updated_at: now.toISOString(),
      })
      .where('id', '=', jobId)
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** Ends the job for good (done, failed or parked), if this worker still holds it. */
  async finish(
    jobId: string,
    owner: string,
    state: 'done' | 'failed' | 'parked',
    lastError: string | null = null,
  ): Promise<boolean> {
    const now = this.#now().toISOString();
    const result = await this.#db.kysely
      .updateTable('engine_jobs')
      .set({
        state,
        lease_owner: null,
        lease_expires_at: null,
        last_error: lastError,
        updated_at: now,
      })
      .where('id', '=', jobId)
      .where('lease_owner', '=', owner)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Migration ids whose job is live (queued or running), for start-up resumption reports. */
  async liveJobs(): Promise<EngineJob[]> {
    const rows = await this.#db.kysely
      .selectFrom('engine_jobs')
      .selectAll()
      .where('state', 'in', LIVE)
      .orderBy('created_at')
      .execute();
    return rows.map(fromRow);
  }
}
