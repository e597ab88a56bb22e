import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { MigrationProgress } from '@replatform/contracts/progress';
import type { RunSpeed } from '@replatform/contracts/run-speed';
import { MigrateSpeed, timeLeftText, WaitingNotice } from './migrate-speed.tsx';
import { runDurationText } from './run-speed-panel.tsx';

const speed: RunSpeed = {
  startedAt: '2025-05-06T10:00:00.000Z',
  finishedAt: null,
  samples: [
    [60_000, 100],
    [120_000, 200],
    [180_000, 300],
  ],
  recordsPerMinute: 100,
  averagePerMinute: 100,
  secondsLeft: 480,
};

const progress = (over: Partial<MigrationProgress>): MigrationProgress => ({
  productsTotal: 1000,
  customersTotal: 200,
  ordersTotal: 0,
  productsCompleted: 300,
  customersCompleted: 0,
  ordersCompleted: 0,
  overallProgress: 25,
  state: 'running',
  speed,
  ...over,
});

describe('time left on the Migrate step', () => {
  it('tells the time left at the measured rate', () => {
    expect(timeLeftText(progress({}))).toBe(
      'Estimated time left: about 8 minutes, at 100 records per minute.',
    );
  });

  it('says when a store, not the run, sets the pace', () => {
    expect(timeLeftText(progress({ speed: { ...speed, limitedBy: 'destination' } }))).toBe(
      'Estimated time left: about 8 minutes, at 100 records per minute. The destination store sets this pace: it is answering as fast as it can.',
    );
  });

  it('waits for a rate before telling one', () => {
    expect(
      timeLeftText(progress({ speed: { ...speed, recordsPerMinute: null, secondsLeft: null } })),
    ).toBe('Estimating the time left from the first records...');
  });

  it('tells none while waiting for a store or once the run is not moving records', () => {
    const waiting = { store: 'destination' as const, since: 'x', retryAt: speed.startedAt };
    expect(timeLeftText(progress({ waiting }))).toBeUndefined();
    expect(timeLeftText(progress({ state: 'verifying' }))).toBeUndefined();
    expect(timeLeftText(progress({ speed: undefined }))).toBeUndefined();
  });

  it('shows the chart with the time left', () => {
    const html = renderToStaticMarkup(<MigrateSpeed progress={progress({})} />);
    expect(html).toContain('Estimated time left: about 8 minutes');
    expect(html).toContain('role="img"');
  });
});

describe('waiting notice', () => {
  it('names the store, the time of the next try and that the store is the limit', () => {
    const retryAt = new Date(2025, 4, 6, 10, 46).toISOString();
    const html = renderToStaticMarkup(
      <WaitingNotice waiting={{ store: 'destination', since: retryAt, retryAt }} />,
    );
    expect(html).toContain('role="status"');
    expect(html).toContain('Waiting for the destination store to answer again — retrying at 10:46');
    expect(html).toContain('The destination store is the limit right now, not us.');
  });
});

describe('run duration', () => {
  it('runs from the start to the end of the migrate phase, or to now while it runs', () => {
    expect(runDurationText({ ...speed, finishedAt: '2025-05-06T10:04:30.000Z' })).toBe(
      'about 5 minutes',
    );
    expect(runDurationText(speed, Date.parse('2025-05-06T11:05:00.000Z'))).toBe(
      'about 1 hour 5 minutes so far',
    );
  });
});
