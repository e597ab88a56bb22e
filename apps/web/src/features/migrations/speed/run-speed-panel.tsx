import type { RunSpeed } from '@replatform/contracts/run-speed';
import { durationText } from '@replatform/contracts/run-speed';
import { formatCount, formatDateTime } from '../../../lib/format.ts';
import { RateChart } from './rate-chart.tsx';

/** The run's duration in words, from its start to the end of its migrate phase (or now). */
export function runDurationText(speed: RunSpeed, now: number = Date.now()): string {
  const end = speed.finishedAt ? Date.parse(speed.finishedAt) : now;
  const seconds = Math.max(0, (end - Date.parse(speed.startedAt)) / 1000);
  return speed.finishedAt ? durationText(seconds) : `${durationText(seconds)} so far`;
}

/** The detail page's record of the run's speed: start, duration, average rate and the chart. */
export function RunSpeedPanel({ speed }: { speed: RunSpeed }) {
  return (
    <section
      aria-labelledby="speed-title"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="speed-title" className="font-semibold">
        Speed
      </h2>
      <dl className="mt-3 grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-slate-600">Started</dt>
          <dd>{formatDateTime(speed.startedAt)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Duration</dt>
          <dd>{runDurationText(speed)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Average rate</dt>
          <dd>
            {speed.averagePerMinute === null
              ? 'Not measured'
              : `${formatCount(Math.round(speed.averagePerMinute))} records per minute`}
          </dd>
        </div>
      </dl>
      <div className="mt-4">
        <RateChart samples={speed.samples} />
      </div>
    </section>
  );
}
