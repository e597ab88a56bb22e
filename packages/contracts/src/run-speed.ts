import { z } from 'zod';

/**
 * The speed of a run as the owner sees it: records done over time (one sample about every 15 s,
 * thinned on long runs), the rate measured from them, and the time left at that rate.
 */
export const runSpeedSchema = z.object({
  startedAt: z.string(),
  /** When the migrate phase ended; null while it runs. */
  finishedAt: z.string().nullable(),
  /** [milliseconds since the run started, records done], oldest first. */
  samples: z.array(z.tuple([z.number().nonnegative(), z.number().nonnegative()])),
  /** Records per minute over the last few minutes; null until two samples span enough time. */
  recordsPerMinute: z.number().nonnegative().nullable(),
  /** Records per minute over the whole migrate phase so far. */
  averagePerMinute: z.number().nonnegative().nullable(),
  /** At the measured rate, for the records not done yet; null when it cannot be told. */
  secondsLeft: z.number().int().nonnegative().nullable(),
  /**
   * The store that sets the pace right now (its API limit in full use, or requests waiting for
   * it to answer); null or absent when the run itself is the limit.
   */
  limitedBy: z.enum(['source', 'destination']).nullable().optional(),
});
export type RunSpeed = z.infer<typeof runSpeedSchema>;

/** The store a run waits for (down for an update, a hosting hiccup) and when it is tried next. */
export const runWaitingSchema = z.object({
  store: z.enum(['source', 'destination']),
  /** When the store first failed. */
  since: z.string(),
  /** When it is probed next. */
  retryAt: z.string(),
});
export type RunWaiting = z.infer<typeof runWaitingSchema>;

export type SpeedSample = [number, number];

/** The window the current rate is measured over: long enough to smooth batch bursts. */
export const recentWindowMs = 2 * 60_000;
/** Shorter spans say too little about a rate to forecast from. */
const shortestSpanMs = 10_000;

function perMinute(records: number, ms: number): number {
  return (Math.max(0, records) / ms) * 60_000;
}

/** Records per minute between each sample and the one before it, at the later one's time. */
export function rateSeries(samples: readonly SpeedSample[]): { at: number; perMinute: number }[] {
  const series: { at: number; perMinute: number }[] = [];
  for (let i = 1; i < samples.length; i++) {
    const [t0, d0] = samples[i - 1] as SpeedSample;
    const [t1, d1] = samples[i] as SpeedSample;
    if (t1 <= t0) continue;
    series.push({ at: t1, perMinute: perMinute(d1 - d0, t1 - t0) });
  }
  return series;
}

/**
 * Records per minute over the last `windowMs` of samples (from the latest sample at least that
 * old, or the first), or null when the samples span less than 10 s.
 */
export function recentRate(
  samples: readonly SpeedSample[],
  windowMs: number = recentWindowMs,
): number | null {
  const last = samples.at(-1);
  if (!last) return null;
  let from = samples[0] as SpeedSample;
  for (const sample of samples) {
    if (sample[0] <= last[0] - windowMs) from = sample;
  }
  const span = last[0] - from[0];
  return span < shortestSpanMs ? null : perMinute(last[1] - from[1], span);
}

/** Records per minute from the run's start (0 records at 0 ms) to its last sample. */
export function averageRate(samples: readonly SpeedSample[]): number | null {
  const last = samples.at(-1);
  if (!last || last[0] < shortestSpanMs) return null;
  return perMinute(last[1], last[0]);
}

/** Seconds the `remaining` records take at `ratePerMinute`; null when nothing moves. */
export function secondsLeft(remaining: number, ratePerMinute: number | null): number | null {
  if (remaining <= 0) return 0;
  if (ratePerMinute === null || ratePerMinute <= 0) return null;
  return Math.ceil((remaining / ratePerMinute) * 60);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Local wall-clock time as HH:MM (24-hour). */
export function clockTime(iso: string): string {
  const date = new Date(iso);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The status line of a run waiting for a store. */
export function waitingText(waiting: RunWaiting): string {
  return `Waiting for the ${waiting.store} store to answer again — retrying at ${clockTime(waiting.retryAt)}`;
}

/** A duration in words: "less than a minute", "about 4 minutes", "about 1 hour 5 minutes". */
export function durationText(seconds: number): string {
  if (seconds < 60) return 'less than a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const h = `${hours} ${hours === 1 ? 'hour' : 'hours'}`;
  return rest === 0 ? `about ${h}` : `about ${h} ${rest} ${rest === 1 ? 'minute' : 'minutes'}`;
}
