import type { EngineJob } from '@replatform/db/engine-jobs-repository';
import type { EngineRun } from '@replatform/db/engine-repository';

/**
 * Where a run beside the migration's own (a demo, an undo) stands, from its latest job and the
 * latest run of its kind: the run is the job's when it started after the job was queued.
 */
export function sideRunState(
  job: EngineJob,
  run: EngineRun | undefined,
): {
  ownRun: EngineRun | undefined;
  live: boolean;
  state: 'queued' | 'running' | 'completed' | 'failed';
} {
  const ownRun = run && run.startedAt >= job.createdAt ? run : undefined;
  const live = job.state === 'queued' || job.state === 'running';
  const state = live
    ? ownRun
      ? 'running'
      : 'queued'
    : ownRun?.status === 'completed'
      ? 'completed'
      : 'failed';
  return { ownRun, live, state };
}
