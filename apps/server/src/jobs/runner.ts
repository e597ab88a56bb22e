import type { EngineJob, StartJobInput } from '@replatform/db/engine-jobs-repository';
import type { LeaseFence } from '@replatform/db/engine-repository';

export interface JobContext {
  job: EngineJob;
  /** The claim the run's commits are fenced on (the lease, or the pg-boss job's attempt). */
  fence: LeaseFence;
  /** Aborted on shutdown or when the claim is lost. */
  signal: AbortSignal;
}

/** How a job attempt ended. 'interrupted' gives the job back to be resumed. */
export type JobOutcome =
  { state: 'done' } | { state: 'failed' | 'parked'; error: string } | { state: 'interrupted' };

export interface JobHandler {
  run(context: JobContext): Promise<JobOutcome>;
  /**
   * Called when a job is given up: it keeps crashing or failing (`reason` says how), or nobody
   * can run it any more (`message` then tells the owner what happened and what to do).
   */
  giveUp(job: EngineJob, reason: string, message?: string): Promise<void>;
}

/** What /healthz and `npm run jobs` say about the queue. */
export interface QueueHealth {
  kind: 'embedded' | 'pg-boss';
  ok: boolean;
  /** Jobs waiting and running, over every process on the database. */
  queued: number;
  running: number;
  /** Jobs this process runs at once (0: it runs none). */
  workers: number;
  error?: string;
}

/** What a start passes to `EngineJobsRepository.startJob` to queue its job on this runner. */
export type Queueing = Pick<StartJobInput, 'enqueue' | 'queueJobId'>;

/**
 * The background runner of migration jobs: the embedded runner over the `engine_jobs` table
 * (SQLite, job-runner.ts) or pg-boss (PostgreSQL, pg-boss-runner.ts). Either way a job row in
 * `engine_jobs` tells the API and operators how the job stands.
 */
export interface MigrationRunner {
  readonly kind: 'embedded' | 'pg-boss';
  /** This process's runner name (`<host>:<pid>:<random>`), new for each runner. */
  readonly owner: string;
  readonly started: boolean;
  /** Migration ids of the jobs this process is running now. */
  readonly active: string[];
  /** Readies the queue (pg-boss: its schema and queues); before any job is queued. */
  prepare(): Promise<void>;
  /**
   * Starts taking jobs. `keepAlive` holds the process open while the runner is started, for a
   * process that has nothing else to wait for (a worker that serves no requests).
   */
  start(options?: { keepAlive?: boolean }): void;
  /** Looks for work now (after a job was queued) instead of at the next poll. */
  wake(): void;
  /** Stops taking jobs, interrupts the running ones at a batch boundary and hands them back. */
  stop(): Promise<void>;
  /** Releases the queue's resources, after stop(), before the database closes. */
  close(): Promise<void>;
  queueing(pinnedTo: string | undefined): Queueing;
  /** Stops a job wherever it runs (its `engine_jobs` row was already ended). */
  cancel(job: EngineJob): Promise<void>;
  health(): Promise<QueueHealth>;
}
