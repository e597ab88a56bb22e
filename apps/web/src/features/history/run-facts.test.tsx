import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { formatDuration, RunFactsBlock, runFactsOf } from './run-facts.tsx';

const finished = {
  status: 'completed' as const,
  startedAt: '2026-03-02T10:00:00.000Z',
  completedAt: '2026-03-02T10:50:00.000Z',
  migratedEntities: 2500,
};

describe('run facts', () => {
  it('gives a finished run its duration and records per minute', () => {
    expect(runFactsOf(finished)).toEqual({
      startedAt: finished.startedAt,
      durationMs: 50 * 60_000,
      perMinute: 50,
      running: false,
    });
  });

  it('times a running migration up to now, and a failed one not at all', () => {
    const now = Date.parse('2026-03-02T10:02:00.000Z');
    expect(
      runFactsOf(
        { ...finished, status: 'in-progress', completedAt: null, migratedEntities: 30 },
        now,
      ),
    ).toMatchObject({ durationMs: 120_000, perMinute: 15, running: true });
    expect(
      runFactsOf({ ...finished, status: 'failed', completedAt: null, migratedEntities: 800 }, now),
    ).toMatchObject({ durationMs: null, perMinute: null });
  });

  it('has nothing to say before the first start', () => {
    expect(runFactsOf({ ...finished, status: 'pending', startedAt: null, completedAt: null })).toBe(
      null,
    );
    expect(
      renderToStaticMarkup(
        <RunFactsBlock migration={{ ...finished, startedAt: null, completedAt: null }} />,
      ),
    ).toBe('');
  });

  it('writes durations as people read them', () => {
    expect(formatDuration(45_000)).toBe('45 s');
    expect(formatDuration(12 * 60_000 + 5_000)).toBe('12 min 5 s');
    expect(formatDuration(50 * 60_000)).toBe('50 min');
    expect(formatDuration(2 * 3_600_000 + 7 * 60_000)).toBe('2 h 7 min');
  });

  it('shows start, duration and pace as a list of terms', () => {
    const html = renderToStaticMarkup(<RunFactsBlock migration={finished} />);
    expect(html).toContain('>Run</h3>');
    expect(html).toMatch(/<dt[^>]*>Started<\/dt><dd>March 2, 2026/);
    expect(html).toMatch(/<dt[^>]*>Duration<\/dt><dd>50 min<\/dd>/);
    expect(html).toMatch(/<dt[^>]*>Records per minute<\/dt><dd>50<\/dd>/);
  });
});
