import { useId } from 'react';
import type { SpeedSample } from '@replatform/contracts/run-speed';
import { formatCount } from '../../../lib/format.ts';
import { chartHeight, chartWidth, rateChart, shortDuration } from './rate-chart-math.ts';

/** What the chart shows, in words, for screen readers (and as its tooltip). */
export function rateChartSummary(samples: readonly SpeedSample[]): string | undefined {
  const chart = rateChart(samples);
  if (!chart) return undefined;
  return `Records per minute over ${shortDuration(chart.spanMs)} of the run: peak ${formatCount(Math.round(chart.peak))}, latest ${formatCount(Math.round(chart.latest))}.`;
}

/**
 * Records per minute over the run, as a small line chart drawn from the run's samples. The SVG
 * stretches to its box (the line keeps its width); the scale's labels are plain text beside it,
 * so they stay legible at any width.
 */
export function RateChart({ samples }: { samples: readonly SpeedSample[] }) {
  const gradient = useId();
  const chart = rateChart(samples);
  if (!chart) {
    return (
      <p className="text-sm text-slate-500">
        The rate shows once the run has moved records for a moment.
      </p>
    );
  }
  return (
    <figure className="m-0">
      <div className="flex gap-2">
        <div
          aria-hidden
          className="flex w-10 shrink-0 flex-col justify-between text-right text-xs tabular-nums text-slate-500"
        >
          <span>{formatCount(chart.scaleMax)}</span>
          <span>0</span>
        </div>
        <svg
          role="img"
          aria-label={rateChartSummary(samples)}
          viewBox={`0 0 ${chartWidth} ${chartHeight}`}
          preserveAspectRatio="none"
          className="h-24 min-w-0 flex-1 rounded border border-slate-200 bg-slate-50"
        >
          <title>{rateChartSummary(samples)}</title>
          <defs>
            <linearGradient id={gradient} x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor="#6366f1" stopOpacity="0.35" />
              <stop offset="100%" stopColor="#6366f1" stopOpacity="0.02" />
            </linearGradient>
          </defs>
          <line
            x1="0"
            y1={chartHeight / 2}
            x2={chartWidth}
            y2={chartHeight / 2}
            stroke="#e2e8f0"
            vectorEffect="non-scaling-stroke"
          />
          <path d={chart.area} fill={`url(#${gradient})`} stroke="none" />
          <path
            d={chart.line}
            fill="none"
            stroke="#4f46e5"
            strokeWidth="2"
            strokeLinejoin="round"
            vectorEffect="non-scaling-stroke"
          />
        </svg>
      </div>
      <figcaption className="mt-1 flex justify-between pl-12 text-xs text-slate-500">
        <span aria-hidden>0</span>
        <span>Records per minute</span>
        <span aria-hidden>{shortDuration(chart.spanMs)}</span>
      </figcaption>
    </figure>
  );
}
