import { useId } from 'react';
import type { Migration } from '@replatform/contracts/migration';
import { formatCount, formatDateTime } from '../../lib/format.ts';

type RunFields = Pick<Migration, 'status' | 'startedAt' | 'completedAt' | 'migratedEntities'>;

export interface RunFacts {
  startedAt: string;
  /** How long the run took, or has taken so far while it runs; null when it stopped unfinished. */
  durationMs: number | null;
  /** Records moved per minute over that time; null without a duration. */
  perMinute: number | null;
  running: boolean;
}

/**
 * Start, duration and pace of the migration's current run, from its start and completion times
 * and the records it moved. A failed run has no end the API knows, so only its start is given.
 */
export function runFactsOf(migration: RunFields, now: number = Date.now()): RunFacts | null {
  const start = migration.startedAt ? Date.parse(migration.startedAt) : NaN;
  if (!migration.startedAt || Number.isNaN(start)) return null;
  const running = migration.status === 'in-progress' && !migration.completedAt;
  const end = migration.completedAt ? Date.parse(migration.completedAt) : running ? now : NaN;
  const durationMs = Number.isNaN(end) ? null : Math.max(0, end - start);
  // Under a second says nothing about a pace.
  const perMinute =
    durationMs !== null && durationMs >= 1000
      ? Math.round(migration.migratedEntities / (durationMs / 60_000))
      : null;
  return { startedAt: migration.startedAt, durationMs, perMinute, running };
}

/** '45 s', '12 min 5 s', '2 h 7 min'. */
export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/** The "Run" facts of a migration (start time, duration, records per minute), once it started. */
export function RunFactsBlock({ migration }: { migration: RunFields }) {
  const id = useId();
  const facts = runFactsOf(migration);
  if (!facts) return null;
  return (
    <section aria-labelledby={id} className="mt-5">
      <h3 id={id} className="font-semibold">
        Run
      </h3>
      <dl className="mt-2 grid grid-cols-2 gap-3 text-sm">
        <dt className="text-slate-600">Started</dt>
        <dd>{formatDateTime(facts.startedAt)}</dd>
        {facts.durationMs !== null ? (
          <>
            <dt className="text-slate-600">Duration</dt>
            <dd>
              {formatDuration(facts.durationMs)}
              {facts.running ? ' so far' : ''}
            </dd>
          </>
        ) : null}
        {facts.perMinute !== null ? (
          <>
            <dt className="text-slate-600">Records per minute</dt>
            <dd>{formatCount(facts.perMinute)}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}
