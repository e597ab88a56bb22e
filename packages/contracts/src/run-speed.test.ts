import { describe, expect, it } from 'vitest';
import {
  averageRate,
  clockTime,
  durationText,
  rateSeries,
  recentRate,
  secondsLeft,
  waitingText,
  type SpeedSample,
} from './run-speed.ts';

const minute = 60_000;

describe('rate series', () => {
  it('gives records per minute between consecutive samples, at the later one', () => {
    const samples: SpeedSample[] = [
      [15_000, 100],
      [30_000, 250],
      [90_000, 250],
    ];
    expect(rateSeries(samples)).toEqual([
      { at: 30_000, perMinute: 600 },
      { at: 90_000, perMinute: 0 },
    ]);
  });

  it('skips samples out of order and never goes below zero', () => {
    expect(
      rateSeries([
        [30_000, 100],
        [30_000, 120],
        [60_000, 80],
      ]),
    ).toEqual([{ at: 60_000, perMinute: 0 }]);
    expect(rateSeries([[15_000, 5]])).toEqual([]);
  });
});

describe('recent rate', () => {
  it('measures over the last two minutes, not the whole run', () => {
    // 100/min for 4 minutes, then 400/min for the last 2.
    const samples: SpeedSample[] = [
      [0, 0],
      [2 * minute, 200],
      [4 * minute, 400],
      [5 * minute, 800],
      [6 * minute, 1200],
    ];
    expect(recentRate(samples)).toBe(400);
    expect(averageRate(samples)).toBe(200);
  });

  it('uses the first sample when the run is younger than the window', () => {
    expect(
      recentRate([
        [15_000, 10],
        [45_000, 70],
      ]),
    ).toBe(120);
  });

  it('says nothing from too short a span', () => {
    expect(recentRate([])).toBeNull();
    expect(
      recentRate([
        [1_000, 1],
        [5_000, 9],
      ]),
    ).toBeNull();
    expect(averageRate([[5_000, 10]])).toBeNull();
  });
});

describe('time left', () => {
  it('divides what remains by the rate, rounding up to the second', () => {
    expect(secondsLeft(1000, 400)).toBe(150);
    expect(secondsLeft(1, 7)).toBe(9);
    expect(secondsLeft(0, null)).toBe(0);
    expect(secondsLeft(10, 0)).toBeNull();
    expect(secondsLeft(10, null)).toBeNull();
  });

  it('reads as words', () => {
    expect(durationText(30)).toBe('less than a minute');
    expect(durationText(90)).toBe('about 2 minutes');
    expect(durationText(61)).toBe('about 1 minute');
    expect(durationText(3600)).toBe('about 1 hour');
    expect(durationText(2 * 3600 + 5 * 60)).toBe('about 2 hours 5 minutes');
  });
});

describe('waiting for a store', () => {
  it('names the store and the local time of the next try', () => {
    const retryAt = new Date(2025, 4, 6, 10, 46, 30).toISOString();
    expect(clockTime(retryAt)).toBe('10:46');
    expect(waitingText({ store: 'destination', since: retryAt, retryAt })).toBe(
      'Waiting for the destination store to answer again — retrying at 10:46',
    );
    const early = new Date(2025, 4, 6, 7, 5).toISOString();
    expect(waitingText({ store: 'source', since: early, retryAt: early })).toBe(
      'Waiting for the source store to answer again — retrying at 07:05',
    );
  });
});
