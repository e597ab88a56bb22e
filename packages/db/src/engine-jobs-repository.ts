import { sql, type ExpressionBuilder, type Selectable, type Transaction } from 'kysely';
import type { Db } from './database.ts';
import { newId } from './migrations-repository.ts';
import type { Database, EngineJobsTable } from './schema.ts';

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
  /**
   * The kind of run it carries out: the migration itself, a free demo run before payment, or an
   * undo of what the migration created.
   */
  kind: 'migration' | 'demo' | 'undo';
  /**
   * A recent-data run: what an earlier run wrote and the source has not changed since this day
   * (ISO date) is left alone; null for a run of everything.
   */
  changedSince: string | null;
  state: JobState;
  /** No payment limit (demo account or sandbox stores), as decided when it was started. */
  unlimited: boolean;
  leaseOwner: string | null;
  leaseExpiresAt: string | null;
  leaseVersion: number;
  /** Claims, all told. */
  attempts: number;
  /** Attempts that died with their process (the lease was found still held when reclaimed). */
  crashes: number;
  /** Attempts that ended in an error the worker caught (retried later). */
  failures: number;
  lastError: string | null;
  /** The runner that alone may run this job (its sandbox stores live in that process), or null. */
  pinnedTo: string | null;
  /** The pg-boss job that queues it (PostgreSQL), or null (embedded runner). */
  queueJobId: string | null;
  createdAt: string;
  /** Last sign of life of the lease holder (heartbeat, commit) or last change. */
  updatedAt: string;
}

function fromRow(row: Selectable<EngineJobsTable>): EngineJob {
  return {
    id: row.id,
    migrationId: row.migration_id,
    userId: row.user_id,
    kind: row.kind === 'demo' || row.kind === 'undo' ? row.kind : 'migration',
    changedSince: row.changed_since ?? null,
    state: row.state as JobState,
    unlimited: Number(row.unlimited) === 1,
    leaseOwner: row.lease_owner,
    leaseExpiresAt: row.lease_expires_at,
    leaseVersion: Number(row.lease_version),
    attempts: Number(row.attempts),
    crashes: Number(row.crashes),
    failures: Number(row.failures),
    lastError: row.last_error,
    pinnedTo: row.pinned_to,
    queueJobId: row.queue_job_id ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const LIVE: JobState[] = ['queued', 'running'];

/** Jobs for any runner, plus those pinned to the runner named in the scope. */
function inScope(eb: ExpressionBuilder<Database, 'engine_jobs'>, scope: ClaimScope) {
  return scope.pinnedTo
    ? eb.or([eb('pinned_to', 'is', null), eb('pinned_to', '=', scope.pinnedTo)])
    : eb('pinned_to', 'is', null);
}

/** A claim that finds the lease still held takes it from a holder that died: one more crash. */
const crashIfHeld = sql<number>`crashes + case when lease_owner is null then 0 else 1 end`;

/** How a start changes the migration row, in the transaction that queues its job. */
export interface StartJobInput {
  migrationId: string;
  userId: string;
  /** No payment limit (demo account or sandbox stores). */
  unlimited: boolean;
  /** The migration's version as the caller checked it: the start applies only to that state. */
  expectedVersion: number;
  /**
   * 'demo' queues a free demo run and 'undo' an undo, which leave the migration row as it is
   * (`lifecycle` and `progress` are not applied; the migration must still be at `expectedVersion`).
   */
  kind?: 'migration' | 'demo' | 'undo';
  /** A recent-data run (see EngineJob.changedSince). */
  changedSince?: string | undefined;
  lifecycle: {
    status: string;
    currentStep: number;
    completedAt: string | null;
    /** The start begins a new run (not a resume of the current one): it is timed from now. */
    newRun?: boolean;
  };
  /**
   * Progress to show until the new run's first batch: a run that starts over (after a finished
   * or failed one) counts from zero, so the previous run's figures must not linger meanwhile.
   */
  progress?: {
    migrationStats: Record<string, { total: number; migrated: number; failed: number }>;
    migratedEntities: number;
  };
  /**
   * Set when the job verifies a finished run again instead of migrating: the run is reopened at
   * its verification (with this mode) in the same transaction, so the worker that takes the job
   * verifies rather than starting a new run. Refused (changed) unless the run is finished.
   */
  reverify?: { runId: string; mode: 'full' | 'incremental' } | undefined;
  /** Set when the start is a re-migration of a completed migration. */
  remigration?: RemigrationStart | undefined;
  /** The runner that alone may run the job (the one whose process holds its sandbox stores). */
  pinnedTo?: string | undefined;
  /**
   * Queues the job elsewhere in the same transaction (pg-boss on PostgreSQL), with the UUID given
   * as `queueJobId`; answers false when the queue refuses it (a live job for the migration).
   */
  enqueue?: ((trx: Transaction<Database>, job: EngineJob) => Promise<boolean>) | undefined;
  queueJobId?: string | undefined;
}

/** Which jobs a runner may take: those for any runner, and those pinned to it. */
export interface ClaimScope {
  /** The runner's own name, matched against pinned jobs; unset: it takes no pinned job. */
  pinnedTo?: string | undefined;
}

export interface RemigrationStart {
  /** 1 for the first re-migration, then 2, 3, ... */
  number: number;
  basis: 'first' | 'demo' | 'sandbox' | 'paid';
  /** The paid 'remigration' quote for this number (basis 'paid'). */
  quoteId?: string | undefined;
}

export type StartJobResult =
  | { outcome: 'started'; job: EngineJob }
  | { outcome: 'already_running'; job: EngineJob }
  /** The migration changed since the caller checked it (another start, an edit): check again. */
  | { outcome: 'changed' };

class StartConflict extends Error {}

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
    options: { unlimited?: boolean; pinnedTo?: string } = {},
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
          pinned_to: options.pinnedTo ?? null,
          changed_since: null,
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

  /**
   * Starts a migration's run in one transaction: the lifecycle change (only if the migration is
   * still at `expectedVersion`), the re-migration it counts as (if any, bound to its paid quote),
   * and the queued job. Either all of it is stored or nothing; a live job is answered as is.
   */
  async startJob(input: StartJobInput): Promise<StartJobResult> {
    const now = this.#now().toISOString();
    try {
      return await this.#db.kysely.transaction().execute(async (trx) => {
        const live = await trx
          .selectFrom('engine_jobs')
          .selectAll()
          .where('migration_id', '=', input.migrationId)
          .where('state', 'in', LIVE)
          .executeTakeFirst();
        if (live) return { outcome: 'already_running' as const, job: fromRow(live) };

        // A demo or an undo leaves the migration's row as it is.
        const demo = input.kind === 'demo' || input.kind === 'undo';
        const moved = await trx
          .updateTable('migrations')
          .set(
            demo
              ? { version: (eb) => eb('version', '+', 0) }
              : {
                  status: input.lifecycle.status,
                  current_step: input.lifecycle.currentStep,
                  completed_at: input.lifecycle.completedAt,
                  ...(input.lifecycle.newRun ? { started_at: now } : {}),
                  ...(input.progress
                    ? {
                        migration_stats: JSON.stringify(input.progress.migrationStats),
                        migrated_entities: input.progress.migratedEntities,
                      }
                    : {}),
                  last_updated: now,
                  version: (eb) => eb('version', '+', 1),
                },
          )
          .where('id', '=', input.migrationId)
          .where('user_id', '=', input.userId)
          .where('version', '=', input.expectedVersion)
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 0) throw new StartConflict();

        if (input.reverify) {
          const reopened = await trx
            .updateTable('engine_runs')
            .set({ phase: 'verify', verify_mode: input.reverify.mode, updated_at: now })
            .where('id', '=', input.reverify.runId)
            .where('migration_id', '=', input.migrationId)
            .where('phase', '=', 'done')
            .executeTakeFirst();
          if (Number(reopened.numUpdatedRows) === 0) throw new StartConflict();
        }

        const again = input.remigration;
        if (again) {
          if (again.basis === 'paid') {
            const quote = await trx
              .selectFrom('payment_quotes')
              .select('id')
              .where('id', '=', again.quoteId ?? '')
              .where('migration_id', '=', input.migrationId)
              .where('kind', '=', 'remigration')
              .where('remigration_number', '=', again.number)
              .where('status', '=', 'paid')
              .executeTakeFirst();
            if (!quote) throw new StartConflict();
          }
          const inserted = await trx
            .insertInto('remigrations')
            .values({
              id: newId(),
              migration_id: input.migrationId,
              number: again.number,
              basis: again.basis,
              quote_id: again.basis === 'paid' ? (again.quoteId ?? null) : null,
              created_at: now,
            })
            .onConflict((oc) => oc.doNothing())
            .returning('id')
            .executeTakeFirst();
          if (!inserted) throw new StartConflict();
        }

        const job = await trx
          .insertInto('engine_jobs')
          .values({
            id: newId(),
            migration_id: input.migrationId,
            user_id: input.userId,
            kind: input.kind ?? 'migration',
            changed_since: demo ? null : (input.changedSince ?? null),
            state: 'queued',
            unlimited: input.unlimited ? 1 : 0,
            lease_owner: null,
            lease_expires_at: null,
            last_error: null,
            pinned_to: input.pinnedTo ?? null,
            queue_job_id: input.queueJobId ?? null,
            created_at: now,
            updated_at: now,
          })
          .onConflict((oc) => oc.doNothing())
          .returningAll()
          .executeTakeFirst();
        if (!job) throw new StartConflict();
        if (input.enqueue && !(await input.enqueue(trx, fromRow(job)))) throw new StartConflict();
        return { outcome: 'started' as const, job: fromRow(job) };
      });
    } catch (error) {
      if (!(error instanceof StartConflict)) throw error;
      const live = await this.liveJob(input.migrationId);
      return live ? { outcome: 'already_running', job: live } : { outcome: 'changed' };
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

  /** The newest job of a kind for the migration (its own runs' by default). */
  async latestJob(
    migrationId: string,
    kind: EngineJob['kind'] = 'migration',
  ): Promise<EngineJob | undefined> {
    const row = await this.#db.kysely
      .selectFrom('engine_jobs')
      .selectAll()
      .where('migration_id', '=', migrationId)
      .where('kind', '=', kind)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  /** Demo jobs queued for the migration so far, whatever became of them. */
  async demoJobCount(migrationId: string): Promise<number> {
    const row = await this.#db.kysely
      .selectFrom('engine_jobs')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('migration_id', '=', migrationId)
      .where('kind', '=', 'demo')
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Demo jobs an owner queued (on any of their migrations) since an instant (ISO-8601). */
  async demoJobsOfOwnerSince(userId: string, since: string): Promise<number> {
    const row = await this.#db.kysely
      .selectFrom('engine_jobs')
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .where('user_id', '=', userId)
      .where('kind', '=', 'demo')
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.count);
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
    scope: ClaimScope = {},
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
      .where((eb) => inScope(eb, scope))
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
          crashes: crashIfHeld,
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
        crashes: crashIfHeld,
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

  /**
   * Claims a job whose lease has not run out yet but whose holder is known to be dead: `isDead`
   * judges the holder's name (e.g. a process of this machine that no longer exists, or this
   * process's own previous incarnation), and the holder must also have shown no sign of life
   * (heartbeat or commit) since `silentSince`, so a live holder that is merely misjudged keeps it.
   */
  async reclaim(
    owner: string,
    leaseMs: number,
    isDead: (holder: string) => boolean,
    silentSince: string,
    exclude: readonly string[] = [],
    scope: ClaimScope = {},
  ): Promise<EngineJob | undefined> {
    const now = this.#now();
    const nowIso = now.toISOString();
    let query = this.#db.kysely
      .selectFrom('engine_jobs')
      .select(['id', 'lease_version', 'lease_owner'])
      .where('state', '=', 'running')
      .where((eb) => inScope(eb, scope))
      .where('lease_owner', 'is not', null)
      .where('lease_owner', '<>', owner)
      .where('lease_expires_at', '>=', nowIso)
      .where('updated_at', '<', silentSince)
      .orderBy('created_at')
      .orderBy('id')
      .limit(50);
    if (exclude.length) query = query.where('id', 'not in', [...exclude]);
    for (const candidate of await query.execute()) {
      if (!candidate.lease_owner || !isDead(candidate.lease_owner)) continue;
      const row = await this.#db.kysely
        .updateTable('engine_jobs')
        .set((eb) => ({
          lease_owner: owner,
          lease_expires_at: new Date(now.getTime() + leaseMs).toISOString(),
          lease_version: eb('lease_version', '+', 1),
          attempts: eb('attempts', '+', 1),
          crashes: eb('crashes', '+', 1),
          updated_at: nowIso,
        }))
        .where('id', '=', candidate.id)
        .where('lease_version', '=', candidate.lease_version)
        .where('lease_owner', '=', candidate.lease_owner)
        .where('state', '=', 'running')
        .returningAll()
        .executeTakeFirst();
      if (row) return fromRow(row);
    }
    return undefined;
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

  /**
   * An attempt that ended in an error: the lease goes back with a delay before the next attempt,
   * and the failure is counted. Answers the job as it is now (undefined if the lease was lost).
   */
  async retryLater(
    jobId: string,
    owner: string,
    delayMs: number,
    lastError: string,
  ): Promise<EngineJob | undefined> {
    const now = this.#now();
    const row = await this.#db.kysely
      .updateTable('engine_jobs')
      .set((eb) => ({
        lease_owner: null,
        lease_expires_at: new Date(now.getTime() + delayMs).toISOString(),
        failures: eb('failures', '+', 1),
        last_error: lastError,
        updated_at: now.toISOString(),
      }))
      .where('id', '=', jobId)
      .where('lease_owner', '=', owner)
      .returningAll()
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  /**
   * Ends the job for good (done, failed or parked), if this worker still holds it. `failure`
   * counts the attempt that ends it as one more failure (a job given up after its last one).
   */
  async finish(
    jobId: string,
    owner: string,
    state: 'done' | 'failed' | 'parked',
    lastError: string | null = null,
    failure = false,
  ): Promise<boolean> {
    const now = this.#now().toISOString();
    const result = await this.#db.kysely
      .updateTable('engine_jobs')
      .set((eb) => ({
        state,
        lease_owner: null,
        lease_expires_at: null,
        last_error: lastError,
        updated_at: now,
        ...(failure ? { failures: eb('failures', '+', 1) } : {}),
      }))
      .where('id', '=', jobId)
      .where('lease_owner', '=', owner)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * An attempt of a queued job begins (PostgreSQL: pg-boss handed the job to `worker`). An attempt
   * that finds the previous one never ended (its worker still named) counts as a crash: that
   * worker died holding it. Answers undefined when the job is no longer live (finished, or
   * cancelled meanwhile).
   */
  async beginAttempt(jobId: string, worker: string): Promise<EngineJob | undefined> {
    const row = await this.#db.kysely
      .updateTable('engine_jobs')
      .set((eb) => ({
        state: 'running',
        lease_owner: worker,
        attempts: eb('attempts', '+', 1),
        crashes: crashIfHeld,
        updated_at: this.#now().toISOString(),
      }))
      .where('id', '=', jobId)
      .where('state', 'in', LIVE)
      .returningAll()
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  /**
   * An attempt ends without finishing the job: handed back on a graceful stop (`failed` false),
   * or ended by an error, counted as one more failure. The job waits for its next attempt.
   * Only the worker that holds it may; answers the job as it is now, undefined otherwise.
   */
  async endAttempt(
    jobId: string,
    worker: string,
    outcome: { failed: false } | { failed: true; error: string },
  ): Promise<EngineJob | undefined> {
    const row = await this.#db.kysely
      .updateTable('engine_jobs')
      .set((eb) => ({
        state: 'queued',
        lease_owner: null,
        ...(outcome.failed ? { failures: eb('failures', '+', 1), last_error: outcome.error } : {}),
        updated_at: this.#now().toISOString(),
      }))
      .where('id', '=', jobId)
      .where('lease_owner', '=', worker)
      .where('state', '=', 'running')
      .returningAll()
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  /** Ends the live job of a migration as failed with `reason`, whoever holds it (cancellation). */
  async cancelLive(migrationId: string, reason: string): Promise<EngineJob | undefined> {
    const row = await this.#db.kysely
      .updateTable('engine_jobs')
      .set({
        state: 'failed',
        lease_owner: null,
        lease_expires_at: null,
        last_error: reason,
        updated_at: this.#now().toISOString(),
      })
      .where('migration_id', '=', migrationId)
      .where('state', 'in', LIVE)
      .returningAll()
      .executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  /** Jobs to show operators: every live one, and those that ended since `since`, newest first. */
  async forOperators(since: string): Promise<EngineJob[]> {
    const rows = await this.#db.kysely
      .selectFrom('engine_jobs')
      .selectAll()
      .where((eb) => eb.or([eb('state', 'in', LIVE), eb('updated_at', '>=', since)]))
      .orderBy('created_at', 'desc')
      .limit(500)
      .execute();
    return rows.map(fromRow);
  }

  /**
   * Live jobs pinned to a runner other than `self`: the caller judges whether that runner is gone
   * (and its sandbox stores with it), in which case nobody can ever run them.
   */
  async pinnedElsewhere(self: string | undefined): Promise<EngineJob[]> {
    let query = this.#db.kysely
      .selectFrom('engine_jobs')
      .selectAll()
      .where('state', 'in', LIVE)
      .where('pinned_to', 'is not', null)
      .orderBy('created_at')
      .limit(50);
    if (self) query = query.where('pinned_to', '<>', self);
    return (await query.execute()).map(fromRow);
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
