import { sql } from 'kysely';
import { openDatabase, type Db } from '@replatform/db/database';
import { EngineJobsRepository, type EngineJob } from '@replatform/db/engine-jobs-repository';
import { ConfigError, parseConfig } from './config.ts';
import { GIVEN_UP_QUEUE, queueSchema } from './jobs/pg-boss-runner.ts';

/** pg-boss's view of a job: its state and the last sign of life of its worker. */
interface QueueView {
  state: string;
  heartbeatOn: Date | null;
  startedOn: Date | null;
  retryCount: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

async function queueViews(db: Db, jobs: EngineJob[]): Promise<Map<string, QueueView>> {
  const ids = jobs.flatMap((job) => (job.queueJobId ? [job.queueJobId] : []));
  if (!db.pool || ids.length === 0) return new Map();
  const schema = await queueSchema(db.pool);
  const { rows } = await sql<{
    id: string;
    state: string;
    heartbeat_on: Date | null;
    started_on: Date | null;
    retry_count: number;
  }>`select id::text, state::text, heartbeat_on, started_on, retry_count
     from ${sql.table(`${schema}.job`)} where id = any(${ids}::uuid[])`.execute(db.kysely);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        state: r.state,
        heartbeatOn: r.heartbeat_on,
        startedOn: r.started_on,
        retryCount: Number(r.retry_count),
      },
    ]),
  );
}

async function givenUpCount(db: Db): Promise<number | undefined> {
  if (!db.pool) return undefined;
  const schema = await queueSchema(db.pool);
  const { rows } = await sql<{ count: string }>`select count(*)::text as count
     from ${sql.table(`${schema}.job`)} where name = ${GIVEN_UP_QUEUE}`
    .execute(db.kysely)
    .catch(() => ({ rows: [] as { count: string }[] }));
  return rows[0] ? Number(rows[0].count) : undefined;
}

/**
 * `npm run jobs`: what operators need to see of the migration jobs, read-only, from the same
 * configuration as the server (DATA_DIR, DATABASE_URL): queued jobs and how long they wait,
 * running ones with their worker and the age of its last heartbeat, and those that failed in the
 * last `days` days with their reason, one line per migration.
 */
export async function jobsReport(
  env: Record<string, string | undefined>,
  options: { days?: number; now?: Date } = {},
): Promise<string> {
  const config = parseConfig(env);
  const now = options.now ?? new Date();
  const db = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath });
  try {
    const since = new Date(now.getTime() - (options.days ?? 7) * DAY_MS).toISOString();
    const jobs = await new EngineJobsRepository(db).forOperators(since);
    const queue = await queueViews(db, jobs);
    const names = new Map(
      (jobs.length
        ? await db.kysely
            .selectFrom('migrations')
            .select(['id', 'store_name'])
            .where('id', 'in', [...new Set(jobs.map((j) => j.migrationId))])
            .execute()
        : []
      ).map((m) => [m.id, m.store_name]),
    );
    const label = (job: EngineJob) =>
      `${job.migrationId}  ${names.get(job.migrationId) || '(unnamed)'}`;
    const counts = (job: EngineJob) =>
      `attempts ${job.attempts}, crashes ${job.crashes}, failures ${job.failures}`;
    const since_ = (iso: string) => age(now.getTime() - new Date(iso).getTime());

    const queued = jobs.filter((j) => j.state === 'queued');
    const running = jobs.filter((j) => j.state === 'running');
    const parked = jobs.filter((j) => j.state === 'parked');
    const failed = jobs.filter((j) => j.state === 'failed');
    const lines: string[] = [
      `Migration jobs (${db.dialect === 'postgres' ? 'pg-boss on PostgreSQL' : 'embedded runner on SQLite'}), ${now.toISOString()}`,
      `${queued.length} queued, ${running.length} running, ${parked.length} waiting for a top-up, ${failed.length} failed in the last ${options.days ?? 7} days`,
    ];
    const given = await givenUpCount(db);
    if (given !== undefined) lines.push(`${given} in the dead-letter queue ${GIVEN_UP_QUEUE}`);

    lines.push('', `Queued (${queued.length})`);
    for (const job of queued)
      lines.push(
        `  ${label(job)}  waiting ${since_(job.updatedAt)}${job.lastError ? `, last error: ${job.lastError}` : ''}  (${counts(job)})`,
      );
    lines.push('', `Running (${running.length})`);
    for (const job of running) {
      const view = job.queueJobId ? queue.get(job.queueJobId) : undefined;
      // pg-boss keeps the heartbeat; the embedded runner renews its lease on the job row.
      const beat = view ? (view.heartbeatOn ?? view.startedOn) : new Date(job.updatedAt);
      lines.push(
        `  ${label(job)}  worker ${job.leaseOwner ?? '(none)'}, heartbeat ${beat ? `${age(now.getTime() - beat.getTime())} ago` : 'none yet'}${view ? `, pg-boss ${view.state}, attempt ${view.retryCount + 1}` : ''}  (${counts(job)})`,
      );
    }
    if (parked.length) {
      lines.push('', `Waiting for a top-up (${parked.length})`);
      for (const job of parked) lines.push(`  ${label(job)}  since ${since_(job.updatedAt)}`);
    }
    lines.push('', `Failed (${failed.length})`);
    for (const job of failed)
      lines.push(
        `  ${label(job)}  ${since_(job.updatedAt)} ago: ${job.lastError ?? 'no reason recorded'}  (${counts(job)})`,
      );
    return lines.join('\n');
  } finally {
    await db.close();
  }
}

// `npm run jobs` (failures of the last 7 days) or `npm run jobs -- 30` (of the last 30).
if (import.meta.main) {
  try {
    const days = Number(process.argv[2] ?? 7);
    console.log(await jobsReport(process.env, { days: Number.isFinite(days) ? days : 7 }));
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}
