import type { FastifyBaseLogger } from 'fastify';
import { CompiledQuery, type Transaction } from 'kysely';
import type pg from 'pg';
import { PgBoss, type Db as IDatabase, type Job, type JobResult } from 'pg-boss';
import { randomUUID } from 'node:crypto';
import type { Database } from '@replatform/db/schema';
import type { EngineJob, EngineJobsRepository } from '@replatform/db/engine-jobs-repository';
import type { LeaseFence } from '@replatform/db/engine-repository';
import { isDeadLocalHolder, leaseOwnerName, SANDBOX_STORES_GONE } from './job-runner.ts';
import type { JobHandler, MigrationRunner, QueueHealth, Queueing } from './runner.ts';

/** The queue every runner takes migration jobs from. */
export const MIGRATION_QUEUE = 'migration-runs';
/** Where jobs go that were given up (5 crashes or 5 failures), with the reason as their output. */
export const GIVEN_UP_QUEUE = 'migration-runs.given-up';

/**
 * The queue of the jobs pinned to one runner: migrations between the built-in sandbox stores,
 * which exist only in the memory of the server that started them.
 */
export function pinnedQueue(runner: string): string {
  return `${MIGRATION_QUEUE}.pinned.${runner.replace(/[^\w.-]/g, '.')}`;
}

/**
 * pg-boss's schema on a database: `pgboss` beside our tables in `public`, else
 * `<schema>_pgboss`, so servers sharing a schema share a queue and test schemas stay apart.
 */
export async function queueSchema(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ schema: string }>('select current_schema() as schema');
  const current = rows[0]?.schema ?? 'public';
  return current === 'public' ? 'pgboss' : `${current}_pgboss`;
}

/** What a pg-boss job carries: the `engine_jobs` row it runs. */
interface QueueData {
  jobId: string;
  migrationId: string;
}

export interface PgBossRunnerOptions {
  /** The application's PostgreSQL pool, shared with pg-boss. */
  pool: pg.Pool;
  jobs: EngineJobsRepository;
  handler: JobHandler;
  log: FastifyBaseLogger;
  /** Jobs run at once by this process. */
  workers?: number;
  /**
   * A running job's worker proves it is alive this often (pg-boss `heartbeatSeconds`, at least 10);
   * a job whose heartbeat stops is failed by the monitor and retried by another worker.
   */
  heartbeatSeconds?: number;
  /** How often pg-boss's monitor looks for silent jobs (and refreshes queue counts). */
  monitorSeconds?: number;
  /** How often idle workers look for jobs. */
  pollSeconds?: number;
  /** Wait before the retry of a failed attempt, doubled with each further one (pg-boss backoff). */
  retryDelaySeconds?: number;
  /** Attempts that died with their worker after which a job is given up. */
  maxCrashes?: number;
  /** Attempts that ended in an error after which a job is given up. */
  maxFailures?: number;
  /** This process holds the built-in sandbox stores and runs the jobs pinned to it. */
  runsPinned?: boolean;
}

/** Runs pg-boss statements inside one of our Kysely transactions, so a job is queued with it. */
function inTransaction(trx: Transaction<Database>): IDatabase {
  return {
    async executeSql(text, values) {
      const result = await trx.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: [...result.rows] };
    },
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Migration jobs on pg-boss (PostgreSQL). pg-boss queues them (one live job per migration: an
 * `exclusive` queue keyed by the migration), hands each to one worker of any process on the
 * database, keeps it alive with heartbeats, fails it when its worker goes silent so that another
 * worker retries it (with backoff), and keeps given-up jobs in a dead-letter queue. The engine
 * resumes each attempt from its last committed batch, and fences every commit on the attempt
 * it holds (`LeaseFence.queue`), so a worker that lost its job cannot commit.
 *
 * The `engine_jobs` row of each job says how it stands for the API and operators, and counts
 * attempts as today's rules need them: an attempt that finds the previous one never ended is a
 * crash, an error the attempt caught is a failure, each with its own limit. pg-boss's retry limit
 * is set above both, so these rules decide, and a given-up job goes to the dead-letter queue with
 * its reason. A graceful stop hands running jobs back at once (cancel and resume, which pg-boss
 * keeps as the same job) instead of waiting for a retry.
 */
export class PgBossRunner implements MigrationRunner {
  readonly kind = 'pg-boss' as const;
  readonly owner = leaseOwnerName();
  readonly #o: Required<Omit<PgBossRunnerOptions, 'log' | 'handler' | 'jobs' | 'pool'>> &
    Pick<PgBossRunnerOptions, 'log' | 'handler' | 'jobs' | 'pool'>;
  readonly #running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  #boss: PgBoss | undefined;
  #schema = 'pgboss';
  #workIds: { queue: string; id: string }[] = [];
  #started = false;
  #keepAlive: NodeJS.Timeout | undefined;

  constructor(options: PgBossRunnerOptions) {
    this.#o = {
      workers: 2,
      heartbeatSeconds: 10,
      monitorSeconds: 5,
      pollSeconds: 2,
      retryDelaySeconds: 1,
      maxCrashes: 5,
      maxFailures: 5,
      runsPinned: false,
      ...options,
    };
  }

  get started(): boolean {
    return this.#started;
  }

  get active(): string[] {
    return [...this.#running.keys()];
  }

  /** pg-boss's schema (see queueSchema). */
  get schema(): string {
    return this.#schema;
  }

  get #queues(): string[] {
    return this.#o.runsPinned ? [MIGRATION_QUEUE, pinnedQueue(this.owner)] : [MIGRATION_QUEUE];
  }

  get boss(): PgBoss {
    if (!this.#boss) throw new Error('the job queue is not ready (prepare() first)');
    return this.#boss;
  }

  async prepare(): Promise<void> {
    if (this.#boss) return;
    this.#schema = await queueSchema(this.#o.pool);
    const pool = this.#o.pool;
    const shared: IDatabase = {
      executeSql: (text: string, values?: unknown[]) => pool.query(text, values),
    };
    const boss = new PgBoss({
      db: shared,
      schema: this.#schema,
      superviseIntervalSeconds: this.#o.monitorSeconds,
      monitorIntervalSeconds: this.#o.monitorSeconds,
      instanceName: this.owner,
    });
    boss.on('error', (error: unknown) => this.#o.log.error({ err: error }, 'job queue error'));
    await boss.start();
    this.#boss = boss;
    await this.#createQueue(GIVEN_UP_QUEUE, { retentionSeconds: 30 * 24 * 3600 });
    for (const queue of this.#queues) {
      await this.#createQueue(queue, {
        policy: 'exclusive',
        // Our own limits decide (see the class comment); pg-boss's is only a bound above them.
        retryLimit: this.#o.maxCrashes + this.#o.maxFailures + 1,
        retryDelay: this.#o.retryDelaySeconds,
        retryBackoff: true,
        heartbeatSeconds: this.#o.heartbeatSeconds,
        // pg-boss's longest: a run that takes longer is retried from its last batch once a day.
        expireInSeconds: 24 * 3600,
        deadLetter: GIVEN_UP_QUEUE,
      });
    }
  }

  async #createQueue(name: string, options: Parameters<PgBoss['createQueue']>[1]): Promise<void> {
    // Every process creates the queues at start; the first one wins, which is all we need.
    if (await this.boss.getQueue(name)) return;
    await this.boss.createQueue(name, options).catch(async (error: unknown) => {
      if (!(await this.boss.getQueue(name))) throw error;
    });
  }

  queueing(pinnedTo: string | undefined): Queueing {
    const queueJobId = randomUUID();
    return {
      queueJobId,
      enqueue: async (trx, job) => {
        const data: QueueData = { jobId: job.id, migrationId: job.migrationId };
        const id = await this.boss.send(pinnedTo ? pinnedQueue(pinnedTo) : MIGRATION_QUEUE, data, {
          id: queueJobId,
          singletonKey: job.migrationId,
          db: inTransaction(trx),
        });
        return id !== null;
      },
    };
  }

  start(options: { keepAlive?: boolean } = {}): void {
    if (this.#started) return;
    this.#started = true;
    // pg-boss's timers do not hold the process open; a worker that serves nothing needs one.
    if (options.keepAlive) this.#keepAlive = setInterval(() => {}, 60_000);
    void this.#startWorking().catch((error: unknown) =>
      this.#o.log.error({ err: error }, 'the job queue did not start'),
    );
  }

  async #startWorking(): Promise<void> {
    await this.#giveUpOrphans();
    for (const queue of this.#queues) {
      if (!this.#started) return;
      const id = await this.boss.work<QueueData>(
        queue,
        {
          localConcurrency: this.#o.workers,
          batchSize: 1,
          pollingIntervalSeconds: this.#o.pollSeconds,
          perJobResults: true,
        },
        async (jobs) => Promise.all(jobs.map((job) => this.#attempt(queue, job))),
      );
      this.#workIds.push({ queue, id });
    }
  }

  wake(): void {
    for (const { id } of this.#workIds) this.boss.notifyWorker(id);
  }

  async stop(): Promise<void> {
    this.#started = false;
    clearInterval(this.#keepAlive);
    for (const { controller } of this.#running.values()) controller.abort();
    await Promise.allSettled([...this.#running.values()].map((r) => r.done));
    const working = this.#workIds;
    this.#workIds = [];
    await Promise.all(working.map(({ id, queue }) => this.boss.offWork(queue, { id, wait: true })));
  }

  async close(): Promise<void> {
    const boss = this.#boss;
    this.#boss = undefined;
    // The pool is the application's: the database closes it after us.
    await boss?.stop({ graceful: false, close: false });
  }

  async cancel(job: EngineJob): Promise<void> {
    if (!job.queueJobId) return;
    const queue = job.pinnedTo ? pinnedQueue(job.pinnedTo) : MIGRATION_QUEUE;
    // A running attempt learns it at its next heartbeat, and its next commit is refused.
    await this.boss.cancel(queue, job.queueJobId);
  }

  async health(): Promise<QueueHealth> {
    try {
      const queue = await this.boss.getQueue(MIGRATION_QUEUE);
      const live = await this.#o.jobs.liveJobs();
      return {
        kind: 'pg-boss',
        ok: queue !== null,
        queued: live.filter((job) => job.state === 'queued').length,
        running: live.filter((job) => job.state === 'running').length,
        workers: this.#started ? this.#o.workers : 0,
        ...(queue ? {} : { error: `queue ${MIGRATION_QUEUE} is missing` }),
      };
    } catch (error) {
      return {
        kind: 'pg-boss',
        ok: false,
        queued: 0,
        running: 0,
        workers: 0,
        error: errorText(error),
      };
    }
  }

  /** One attempt of one job; answers how pg-boss settles it. */
  async #attempt(queue: string, job: Job<QueueData>): Promise<JobResult> {
    const settled = (status: JobResult['status'], output: object): JobResult => ({
      id: job.id,
      status,
      output,
    });
    // Fetched while this runner stops: back to the queue at once, untouched.
    if (!this.#started) {
      await this.#handBack(queue, job);
      return settled('completed', { state: 'handed back' });
    }
    const record = await this.#o.jobs.beginAttempt(job.data.jobId, this.owner);
    // Finished or cancelled meanwhile: nothing to run.
    if (!record) return settled('completed', { state: 'not live' });
    this.#o.log.info(
      {
        jobId: record.id,
        queueJobId: job.id,
        migrationId: record.migrationId,
        owner: this.owner,
        attempt: record.attempts,
      },
      'migration job claimed',
    );
    if (record.crashes > this.#o.maxCrashes) {
      const reason = `it stopped the server process ${record.crashes} times`;
      await this.#giveUp(record, reason, 'Gave up after repeated crashes.');
      return settled('deadletter', { reason });
    }

    const controller = new AbortController();
    // pg-boss aborts the job's signal when the claim is gone (failed as silent, cancelled, expired).
    const claimLost = () => controller.abort();
    job.signal.addEventListener('abort', claimLost, { once: true });
    const fence: LeaseFence = {
      jobId: record.id,
      queue: { schema: this.#schema, name: queue, id: job.id, attempt: job.retryCount },
    };
    const run = (async (): Promise<JobResult> => {
      try {
        const outcome = await this.#o.handler.run({
          job: record,
          fence,
          signal: controller.signal,
        });
        if (outcome.state !== 'interrupted') {
          await this.#o.jobs.finish(
            record.id,
            this.owner,
            outcome.state,
            outcome.state === 'done' ? null : outcome.error,
          );
          return settled('completed', { state: outcome.state });
        }
        await this.#o.jobs.endAttempt(record.id, this.owner, { failed: false });
        // Interrupted while still started: the claim was lost (a commit refused, or the signal).
        if (this.#started || job.signal.aborted)
          return settled('completed', { state: 'claim lost' });
        await this.#handBack(queue, job);
        return settled('completed', { state: 'handed back' });
      } catch (error) {
        this.#o.log.error({ err: error, jobId: record.id }, 'migration job failed');
        if (job.signal.aborted) return settled('completed', { state: 'claim lost' });
        const text = errorText(error);
        const failures = record.failures + 1;
        if (failures >= this.#o.maxFailures) {
          const reason = `it failed ${failures} times, last with: ${text}`;
          await this.#giveUp(record, reason, 'Gave up after repeated failures.', undefined, true);
          return settled('deadletter', { reason });
        }
        await this.#o.jobs.endAttempt(record.id, this.owner, { failed: true, error: text });
        // pg-boss retries it after its backoff.
        return settled('failed', { message: text });
      } finally {
        job.signal.removeEventListener('abort', claimLost);
      }
    })();
    this.#running.set(record.migrationId, { controller, done: run });
    try {
      return await run;
    } finally {
      this.#running.delete(record.migrationId);
    }
  }

  /**
   * A graceful stop gives the job back for another worker to take at once: cancelled and resumed,
   * pg-boss keeps it as the same job, ready now. Its retry limit grows by one, so hand-backs never
   * use up the retries that crashes and failures have.
   */
  async #handBack(queue: string, job: Job<QueueData>): Promise<void> {
    await this.boss.cancel(queue, { id: job.id, retryCount: job.retryCount });
    await this.boss.resume(queue, job.id);
    await this.boss
      .update(queue, undefined, {
        id: job.id,
        retryLimit: this.#o.maxCrashes + this.#o.maxFailures + 1 + job.retryCount + 1,
      })
      .catch((error: unknown) =>
        this.#o.log.warn({ err: error, queueJobId: job.id }, 'retry limit not raised'),
      );
    this.#o.log.info({ queueJobId: job.id }, 'migration job handed back');
  }

  async #giveUp(
    job: EngineJob,
    reason: string,
    lastError: string,
    message?: string,
    failure = false,
  ): Promise<void> {
    this.#o.log.error({ jobId: job.id, migrationId: job.migrationId, reason }, 'job given up');
    await this.#o.handler.giveUp(job, reason, message).catch((error: unknown) => {
      this.#o.log.error({ err: error, jobId: job.id }, 'giving up a job failed');
    });
    await this.#o.jobs.finish(job.id, this.owner, 'failed', lastError, failure);
  }

  /**
   * Jobs pinned to a runner of this machine whose process is gone can never run: their sandbox
   * stores went with it. They fail with a message that says so, and the dead runner's queue goes.
   */
  async #giveUpOrphans(): Promise<void> {
    const pinned = await this.#o.jobs.pinnedElsewhere(this.#o.runsPinned ? this.owner : undefined);
    const deadQueues = new Set<string>();
    for (const job of pinned) {
      if (!job.pinnedTo || !isDeadLocalHolder(job.pinnedTo, this.owner)) continue;
      deadQueues.add(pinnedQueue(job.pinnedTo));
      const ended = await this.#o.jobs.cancelLive(
        job.migrationId,
        'Its sandbox stores were lost when the server restarted.',
      );
      if (!ended) continue;
      await this.cancel(ended).catch(() => {});
      this.#o.log.error(
        { jobId: job.id, migrationId: job.migrationId },
        'job given up: the process holding its sandbox stores is gone',
      );
      await this.#o.handler
        .giveUp(ended, 'the process holding its sandbox stores is gone', SANDBOX_STORES_GONE)
        .catch((error: unknown) =>
          this.#o.log.error({ err: error, jobId: job.id }, 'giving up a job failed'),
        );
    }
    for (const queue of deadQueues) await this.boss.deleteQueue(queue).catch(() => {});
  }
}
