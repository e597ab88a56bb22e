import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { EngineJob, EngineJobsRepository } from '@replatform/db/engine-jobs-repository';

export interface JobContext {
  job: EngineJob;
  /** This worker's lease name, to fence database writes. */
  owner: string;
  /** Aborted on shutdown or when the lease is lost. */
  signal: AbortSignal;
}

/** How a job attempt ended. 'interrupted' gives the job back to be resumed. */
export type JobOutcome =
  { state: 'done' } | { state: 'failed' | 'parked'; error: string } | { state: 'interrupted' };

export interface JobHandler {
  run(context: JobContext): Promise<JobOutcome>;
  /** Called when a job keeps crashing (not failing cleanly) and is given up. */
  giveUp(job: EngineJob, error: unknown): Promise<void>;
}

export interface JobRunnerOptions {
  jobs: EngineJobsRepository;
  handler: JobHandler;
  log: FastifyBaseLogger;
  /** Jobs run at once by this process. */
  workers?: number;
  /** A worker that stops renewing its lease for this long is presumed dead. */
  leaseMs?: number;
  /** How often idle workers look for new or orphaned jobs. */
  pollMs?: number;
  /** Attempts (claims) after which a job that keeps crashing is given up. */
  maxAttempts?: number;
}

/**
 * The embedded job runner: in-process workers over durable job rows. A job is claimed with a
 * lease that a heartbeat renews; if this process dies, the lease runs out and any runner (this
 * one after a restart, or another process on the same database) takes the job over, and the
 * engine resumes from its last committed batch. On a graceful stop the running jobs are
 * interrupted at a batch boundary and their leases handed back at once.
 */
export class JobRunner {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  readonly #o: Required<Omit<JobRunnerOptions, 'log' | 'handler' | 'jobs'>> &
    Pick<JobRunnerOptions, 'log' | 'handler' | 'jobs'>;
  readonly #running = new Map<
    string,
    { jobId: string; controller: AbortController; done: Promise<void> }
  >();
  #started = false;
  #timer: NodeJS.Timeout | undefined;
  #polling: Promise<void> | undefined;
  #pollAgain = false;

  constructor(options: JobRunnerOptions) {
    this.#o = {
      workers: 2,
      leaseMs: 30_000,
      pollMs: 2_000,
      maxAttempts: 5,
      ...options,
    };
  }

  get started(): boolean {
    return this.#started;
  }

  /** Migration ids of the jobs this process is running now. */
  get active(): string[] {
    return [...this.#running.keys()];
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
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
        this.#timer.unref();
      });
  }

  /** Stops taking jobs, interrupts the running ones at a batch boundary and waits for them. */
  async stop(): Promise<void> {
    this.#started = false;
    clearTimeout(this.#timer);
    await this.#polling;
    for (const { controller } of this.#running.values()) controller.abort();
    await Promise.allSettled([...this.#running.values()].map((r) => r.done));
  }

  async #poll(): Promise<void> {
    while (this.#started && this.#running.size < this.#o.workers) {
      // Never our own running jobs, even if their lease ran out while this process was busy.
      const job = await this.#o.jobs.claim(
        this.owner,
        this.#o.leaseMs,
        [...this.#running.values()].map((r) => r.jobId),
      );
      if (!job) return;
      if (!this.#started) {
        await this.#o.jobs.release(job.id, this.owner);
        return;
      }
      this.#launch(job);
    }
  }

  #launch(job: EngineJob): void {
    const controller = new AbortController();
    let leaseLost = false;
    const heartbeat = setInterval(
      () => {
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
      },
      Math.max(50, Math.floor(this.#o.leaseMs / 3)),
    );
    heartbeat.unref();

    const done = (async () => {
      try {
        const outcome = await this.#o.handler.run({
          job,
          owner: this.owner,
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
        this.#o.log.error({ err: error, jobId: job.id }, 'migration job crashed');
        if (leaseLost) return;
        if (job.attempts >= this.#o.maxAttempts) {
          await this.#o.handler.giveUp(job, error).catch(() => {});
          await this.#o.jobs.finish(
            job.id,
            this.owner,
            'failed',
            'Gave up after repeated crashes.',
          );
        } else {
          // Back off before the next attempt, longer each time.
          await this.#o.jobs.release(job.id, this.owner, 1_000 * 2 ** job.attempts, String(error));
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
