import { Clock, PauseCircle } from 'lucide-react';
import type { MigrationProgress } from '@replatform/contracts/progress';
import { durationText, waitingText } from '@replatform/contracts/run-speed';
import { formatCount } from '../../../lib/format.ts';
import { RateChart } from './rate-chart.tsx';

/** "Estimated time left: about 8 minutes, at 100 records per minute", or why none is told. */
export function timeLeftText(p: MigrationProgress): string | undefined {
  const speed = p.speed;
  if (p.state !== 'running' || p.waiting || !speed) return undefined;
  if (speed.secondsLeft === null || speed.recordsPerMinute === null) {
    return 'Estimating the time left from the first records...';
  }
  const rate = formatCount(Math.round(speed.recordsPerMinute));
  const pace = speed.limitedBy
    ? ` The ${speed.limitedBy} store sets this pace: it is answering as fast as it can.`
    : '';
  return `Estimated time left: ${durationText(speed.secondsLeft)}, at ${rate} records per minute.${pace}`;
}

/** The store the run waits for, with the time of the next try (the run pauses, it does not fail). */
export function WaitingNotice({ waiting }: { waiting: NonNullable<MigrationProgress['waiting']> }) {
  return (
    <div
      role="status"
      className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
    >
      <p className="flex items-start gap-2 font-medium">
        <PauseCircle size={18} className="mt-0.5 shrink-0" aria-hidden />
        {waitingText(waiting)}
      </p>
      <p className="mt-1 pl-6">
        The {waiting.store} store is the limit right now, not us. Nothing is lost: the run carries
        on by itself from where it stopped as soon as the store answers.
      </p>
    </div>
  );
}

/** The Migrate step's time left at the measured rate and the records-per-minute chart so far. */
export function MigrateSpeed({ progress: p }: { progress: MigrationProgress }) {
  const timeLeft = timeLeftText(p);
  const samples = p.speed?.samples ?? [];
  return (
    <div className="mt-6 space-y-3">
      {timeLeft ? (
        <p className="flex items-center gap-2 text-sm text-slate-700">
          <Clock size={16} className="shrink-0 text-slate-500" aria-hidden />
          {timeLeft}
        </p>
      ) : null}
      {p.state === 'running' || p.state === 'verifying' || samples.length > 0 ? (
        <section aria-labelledby="rate-title">
          <h3 id="rate-title" className="mb-2 text-sm font-semibold text-slate-700">
            Speed
          </h3>
          <RateChart samples={samples} />
        </section>
      ) : null}
    </div>
  );
}
