import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { niceCeiling, rateChart, shortDuration } from './rate-chart-math.ts';
import { RateChart, rateChartSummary } from './rate-chart.tsx';

const minute = 60_000;

describe('rate chart maths', () => {
  it('rounds the scale up to 1, 2 or 5 times a power of ten', () => {
    expect([0, 1, 3, 10, 11, 180, 201, 499, 501, 4000].map(niceCeiling)).toEqual([
      1, 1, 5, 10, 20, 200, 500, 500, 1000, 5000,
    ]);
  });

  it('draws the rate between samples from the start to the last sample', () => {
    // 0 to 1 min: 100 records; 1 to 2 min: 300 more; 2 to 4 min: 200 more (100 a minute).
    const chart = rateChart([
      [minute, 100],
      [2 * minute, 400],
      [4 * minute, 600],
    ]);
    expect(chart).toMatchObject({ scaleMax: 500, spanMs: 4 * minute, peak: 300, latest: 100 });
    // x: time over 4 minutes on 300 units; y: 80 units for 0..500 a minute, top down.
    expect(chart?.line).toBe('M0 80 L75 32 L150 32 L300 64');
    expect(chart?.area).toBe('M0 80 L75 32 L150 32 L300 64 L300 80 Z');
  });

  it('needs two samples for a rate', () => {
    expect(rateChart([])).toBeUndefined();
    expect(rateChart([[15_000, 40]])).toBeUndefined();
  });

  it('labels spans shortly', () => {
    expect(shortDuration(40_000)).toBe('40 s');
    expect(shortDuration(4 * minute)).toBe('4 min');
    expect(shortDuration(65 * minute)).toBe('1 h 5 min');
    expect(shortDuration(120 * minute)).toBe('2 h');
  });
});

describe('rate chart', () => {
  const samples: [number, number][] = [
    [15_000, 0],
    [75_000, 620],
    [135_000, 1030],
  ];

  it('is an image with a summary for screen readers', () => {
    const html = renderToStaticMarkup(<RateChart samples={samples} />);
    expect(rateChartSummary(samples)).toBe(
      'Records per minute over 2 min of the run: peak 620, latest 410.',
    );
    expect(html).toContain('role="img"');
    expect(html).toContain(
      'aria-label="Records per minute over 2 min of the run: peak 620, latest 410."',
    );
    expect(html).toContain('>1,000<');
  });

  it('says so when there is no rate yet', () => {
    const html = renderToStaticMarkup(<RateChart samples={[[15_000, 3]]} />);
    expect(html).not.toContain('<svg');
    expect(html).toContain('The rate shows once the run has moved records for a moment.');
  });
});
