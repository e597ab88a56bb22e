import { rateSeries, type SpeedSample } from '@replatform/contracts/run-speed';

/** The chart's drawing box; the SVG stretches it to the width it is given. */
export const chartWidth = 300;
export const chartHeight = 80;

export interface RateChart {
  /** Line through the rate points, in chart coordinates (0,0 top left). */
  line: string;
  /** The same line closed along the bottom, for the shaded area under it. */
  area: string;
  /** Top of the scale: the highest rate rounded up to 1, 2 or 5 times a power of ten. */
  scaleMax: number;
  /** Time from the run's start to its last sample. */
  spanMs: number;
  peak: number;
  latest: number;
  points: number;
}

/** 1, 2 or 5 times a power of ten, at least `value` (and at least 1). */
export function niceCeiling(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (value <= step * power) return step * power;
  return 10 * power;
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * Records per minute between consecutive samples, as a line from the run's start (0 records a
 * minute then) to its last sample; undefined until two samples give a rate.
 */
export function rateChart(samples: readonly SpeedSample[]): RateChart | undefined {
  const series = rateSeries(samples);
  const last = series.at(-1);
  if (!last) return undefined;
  const spanMs = last.at;
  const peak = Math.max(...series.map((p) => p.perMinute));
  const scaleMax = niceCeiling(peak);
  const x = (at: number) => round((at / spanMs) * chartWidth);
  const y = (rate: number) => round(chartHeight - (rate / scaleMax) * chartHeight);
  const first = series[0] as { at: number; perMinute: number };
  // The first rate holds from the sample before it, which may be well after the start.
  const start = samples.find(([at]) => at < first.at)?.[0] ?? 0;
  const points = [
    [0, chartHeight],
    [x(start), y(first.perMinute)],
    ...series.map((p) => [x(p.at), y(p.perMinute)]),
  ];
  const line = points.map(([px, py], i) => `${i === 0 ? 'M' : 'L'}${px} ${py}`).join(' ');
  return {
    line,
    area: `${line} L${chartWidth} ${chartHeight} Z`,
    scaleMax,
    spanMs,
    peak,
    latest: last.perMinute,
    points: series.length,
  };
}

/** "4 min", "1 h 5 min", "40 s": the short form of a span for axis labels. */
export function shortDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest ? `${Math.floor(minutes / 60)} h ${rest} min` : `${minutes / 60} h`;
}
