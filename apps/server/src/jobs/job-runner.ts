import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { EngineJob, EngineJobsRepository } from '@replatform/db/engine-jobs-repository';
import type { JobHandler, MigrationRunner, QueueHealth, Queueing } from './runner.ts';

export type { JobContext, JobHandler, JobOutcome } from './runner.ts';

export interface JobRunnerOptions {
  jobs: EngineJobsRepository;
  handler: JobHandler;
  log: FastifyBaseLogger;
  /** Jobs run at once by this process. */
  workers?: number;
  /** A worker that stops renewing its lease for this long is presumed dead. */
  leaseMs?: number;
  /**
   * How often a running job's lease is renewed (default a sixth of the lease). A holder of this
   * machine whose process is gone loses its lease after two missed renewals instead of at expiry.
   */
  heartbeatMs?: number;
  /** Wait before retrying a job whose attempt failed, doubled with each further failure. */
  retryDelayMs?: number;
  /** How often idle workers look for new or orphaned jobs. */
  pollMs?: number;
  /** Attempts that took their process down (found still leased) after which a job is given up. */
  maxCrashes?: number;
  /** Attempts that ended in an error after which a job is given up. */
  maxFailures?: number;
  /**
   * This process holds the built-in sandbox stores: it also runs the jobs pinned to it (their
   * stores exist only here). Other runners never take them.
   */
  runsPinned?: boolean;
}

/** What the owner of a sandbox migration is told when the process holding its stores is gone. */
export const SANDBOX_STORES_GONE =
  'The migration was stopped because the server that held its sandbox stores restarted, and ' +
  'sandbox stores start empty again with each start. Create a new migration and connect the ' +
  'sandbox stores again to run it.';

/** The lease holder name of a process: `<host>:<pid>:<random>`, new for each runner. */
export function leaseOwnerName(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/** Runners of this process that have not been stopped (a process may hold more than one). */
const runnersHere = new Set<string>();

/**
 * Whether a lease holder is certainly gone: a runner of this machine whose process no longer
 * exists, or an earlier runner of this very process id that is no longer here (a restarted
 * container keeps its pid, and one pid holds one process at a time). Holders on other machines
 * are never judged.
 */
export function isDeadLocalHolder(holder: string, self: string): boolean {
  const match = /^(.+):(\d+):([^:]+)$/.exec(holder);
  if (!match || holder === self) return false;
  const [, host, pid] = match;
  if (host !== hostname()) return false;
  if (Number(pid) === process.pid) return !runnersHere.has(holder);
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * The embedded job runner (SQLite; one machine): in-process workers over durable job rows. A job is claimed with a
 * lease that a heartbeat renews; if this process dies, the lease runs out and any runner (this
 * one after a restart, or another process on the same database) takes the job over, and the
 * engine resumes from its last committed batch. A runner on the same machine takes it over
 * sooner: as soon as the holder's process is gone and its heartbeat has stopped. On a graceful
 * stop the running jobs are interrupted at a batch boundary and their leases handed back at once.
 *
 * Crashes (a claim that finds the lease still held) and failures (an error the attempt caught)
 * are counted apart, each with its own limit, after which the job is given up.
 */
export class JobRunner implements MigrationRunner {
  readonly kind = 'embedded' as const;
  readonly owner = leaseOwnerName();
  readonly #o: Required<Omit<JobRunnerOptions, 'log' | 'handler' | 'jobs'>> &
    Pick<JobRunnerOptions, 'log' | 'handler' | 'jobs'>;
  readonly #running = new Map<
    string,
    { jobId: string; controller: AbortController; done: Promise<void> }
  >();
  #started = false;
  #keepAlive = false;
  #timer: NodeJS.Timeout | undefined;
  #polling: Promise<void> | undefined;
  #pollAgain = false;

  constructor(options: JobRunnerOptions) {
    const leaseMs = options.leaseMs ?? 30_000;
    this.#o = {
      workers: 2,
      runsPinned: false,
      leaseMs,
      heartbeatMs: Math.max(50, Math.floor(leaseMs / 6)),
      pollMs: 2_000,
      retryDelayMs: 1_000,
      maxCrashes: 5,
      maxFailures: 5,
      ...options,
    };
    runnersHere.add(this.owner);
  }

  get started(): boolean {
    return this.#started;
  }

  /** Migration ids of the jobs this process is running now. */
  get active(): string[] {
    return [...this.#running.keys()];
  }

  /** Nothing to ready: the queue is the `engine_jobs` table of the schema migrations. */
  async prepare(): Promise<void> {}

  async close(): Promise<void> {}

  /** Jobs are claimed from their `engine_jobs` rows; nothing else to queue. */
  queueing(): Queueing {
    return {};
  }

  /** Ending the job's row is enough: its worker's next heartbeat finds the lease lost. */
  async cancel(): Promise<void> {}

  async health(): Promise<QueueHealth> {
    const live = await this.#o.jobs.liveJobs();
    return {
      kind: 'embedded',
      ok: true,
      queued: live.filter((job) => job.state === 'queued').length,
      running: live.filter((job) => job.state === 'running').length,
      workers: this.#started ? this.#o.workers : 0,
    };
  }

  /**
   * Starts taking jobs. `keepAlive` holds the process open while the runner is started, for a
   * process that has nothing else to wait for (a worker that serves no requests).
   */
  start(options: { keepAlive?: boolean } = {}): void {
    if (this.#started) return;
    this.#started = true;
    runnersHere.add(this.owner);
    this.#keepAlive = options.keepAlive ?? false;
    void this.#o.jobs.liveJobs().then(
      (live) => {
        if (live.length)
          this.#o.log.info({ jobs: live.length }, 'resuming migrations that were running');
      },
      () => {},
    );
    this.wake();
  }

  /** Looks for work now (after a job was queued) instead of at the next poll. */
  wake(): void {
    if (!this.#started) return;
    if (this.#polling) {
      this.#pollAgain = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#polling = this.#poll()
      .catch((error: unknown) => this.#o.log.error({ err: error }, 'job poll failed'))
      .finally(() => {
        this.#polling = undefined;
        if (!this.#started) return;
        if (this.#pollAgain) {
          this.#pollAgain = false;
          this.wake();
          return;
        }
        this.#timer = setTimeout(() => this.wake(), this.#o.pollMs);
        if (!this.#keepAlive) this.#timer.unref();
      });
  }

  /** Stops taking jobs, interrupts the running ones at a batch boundary and waits for them. */
  async stop(): Promise<void> {
    this.#started = false;
    runnersHere.delete(this.owner);
    clearTimeout(this.#timer);
    await this.#polling;
    for (const { controller } of this.#running.values()) controller.abort();
    await Promise.allSettled([...this.#running.values()].map((r) => r.done));
  }

  async #poll(): Promise<void> {
    await this.#giveUpOrphans();
    const scope = this.#o.runsPinned ? { pinnedTo: this.owner } : {};
    while (this.#started && this.#running.size < this.#o.workers) {
      // Never our own running jobs, even if their lease ran out while this process was busy.
      const mine = [...this.#running.values()].map((r) => r.jobId);
      const job =
        (await this.#o.jobs.claim(this.owner, this.#o.leaseMs, mine, scope)) ??
        (await this.#o.jobs.reclaim(
          this.owner,
          this.#o.leaseMs,
          (holder) => isDeadLocalHolder(holder, this.owner),
          // Two missed heartbeats: a live holder would have renewed by now.
          new Date(Date.now() - 2 * this.#o.heartbeatMs).toISOString(),
          mine,
          scope,
        ));
      if (!job) return;
      if (!this.#started) {
        await this.#o.jobs.release(job.id, this.owner);
        return;
      }
      if (job.crashes > this.#o.maxCrashes) {
        await this.#giveUp(
          job,
          `it stopped the server process ${job.crashes} times`,
          'Gave up after repeated crashes.',
        );
        continue;
      }
      this.#launch(job);
    }
  }

  async #giveUp(
    job: EngineJob,
    reason: string,
    lastError: string,
    message?: string,
  ): Promise<void> {
    this.#o.log.error({ jobId: job.id, migrationId: job.migrationId, reason }, 'job given up');
    await this.#o.handler.giveUp(job, reason, message).catch((error: unknown) => {
      this.#o.log.error({ err: error, jobId: job.id }, 'giving up a job failed');
    });
    await this.#o.jobs.finish(job.id, this.owner, 'failed', lastError);
  }

  /**
   * Jobs pinned to a runner whose process is gone can never run: their sandbox stores went with
   * it. They fail with a message that says so, instead of waiting for ever. Only processes of
   * this machine are judged (as for leases), so each machine's next start settles its own.
   */
  async #giveUpOrphans(): Promise<void> {
    const isDead = (holder: string) => isDeadLocalHolder(holder, this.owner);
    const pinned = await this.#o.jobs.pinnedElsewhere(this.#o.runsPinned ? this.owner : undefined);
    for (const job of pinned) {
      if (!job.pinnedTo || !isDead(job.pinnedTo)) continue;
      if (job.leaseOwner && !isDead(job.leaseOwner)) continue;
      const claimed = await this.#o.jobs.claimById(
        job.id,
        this.owner,
        this.#o.leaseMs,
        job.leaseOwner ?? undefined,
      );
      if (!claimed) continue;
      await this.#giveUp(
        claimed,
        'the process holding its sandbox stores is gone',
        'Its sandbox stores were lost when the server restarted.',
        SANDBOX_STORES_GONE,
      );
    }
  }

  #launch(job: EngineJob): void {
    this.#o.log.info(
      { jobId: job.id, migrationId: job.migrationId, owner: this.owner, attempt: job.attempts },
      'migration job claimed',
    );
    const controller = new AbortController();
    let leaseLost = false;
    const heartbeat = setInterval(() => {
      this.#o.jobs.heartbeat(job.id, this.owner, this.#o.leaseMs).then(
        (held) => {
          if (!held && !leaseLost) {
            leaseLost = true;
            this.#o.log.warn({ jobId: job.id }, 'job lease lost; another worker took over');
            controller.abort();
          }
        },
        (error: unknown) => this.#o.log.warn({ err: error, jobId: job.id }, 'heartbeat failed'),
      );
    }, this.#o.heartbeatMs);
    heartbeat.unref();

    const done = (async () => {
      try {
        const outcome = await this.#o.handler.run({
          job,
          fence: { jobId: job.id, owner: this.owner },
          signal: controller.signal,
        });
        if (outcome.state === 'interrupted') {
          if (!leaseLost) await this.#o.jobs.release(job.id, this.owner);
        } else {
          await this.#o.jobs.finish(
            job.id,
            this.owner,
            outcome.state,
            outcome.state === 'done' ? null : outcome.error,
          );
        }
      } catch (error) {
        this.#o.log.error({ err: error, jobId: job.id }, 'migration job failed');
        if (leaseLost) return;
        const failures = job.failures + 1;
        const text = error instanceof Error ? error.message : String(error);
        if (failures >= this.#o.maxFailures) {
          await this.#giveUp(
            job,
            `it failed ${failures} times, last with: ${text}`,
            'Gave up after repeated failures.',
          );
        } else {
          // Back off before the next attempt, longer each time.
          await this.#o.jobs.retryLater(
            job.id,
            this.owner,
            this.#o.retryDelayMs * 2 ** (failures - 1),
            text,
          );
        }
      }
    })()
      .catch((error: unknown) =>
        this.#o.log.error({ err: error, jobId: job.id }, 'job cleanup failed'),
      )
      .finally(() => {
        clearInterval(heartbeat);
        this.#running.delete(job.migrationId);
        this.wake();
      });
    this.#running.set(job.migrationId, { jobId: job.id, controller, done });
  }
}
