import { describe, expect, it } from 'vitest';
import type { Connection, RateUsage, TransportStats } from '@replatform/connectors/kit/contract';
import { paceOf } from './pace.ts';

function side(state: { queuedMs?: number; usage?: RateUsage }): Connection {
  return {
    transportStats: (): TransportStats => ({
      requests: 0,
      failures: {},
      retries: 0,
      recoveries: 0,
      recovered: 0,
      queuedMs: state.queuedMs ?? 0,
    }),
    ...(state.usage ? { rateUsage: () => state.usage as RateUsage } : {}),
  } as unknown as Connection;
}

describe('paceOf', () => {
  it('names the store whose requests waited for it most of the time', () => {
    let clock = 0;
    const destination = { queuedMs: 0 };
    const pace = paceOf({ source: side({}), destination: side(destination) }, () => clock);
    expect(pace()).toBeNull();
    clock = 10_000;
    destination.queuedMs = 2_000;
    expect(pace()).toBeNull();
    clock = 20_000;
    destination.queuedMs = 2_000 + 14_000;
    expect(pace()).toBe('destination');
  });

  it('names the store whose published limit is in full use', () => {
    const usage = (used: number): RateUsage => ({
      unit: 'requests',
      usedPerSecond: used,
      availablePerSecond: 5,
      throttled: 0,
    });
    const source = { usage: usage(4.6) };
    expect(paceOf({ source: side(source), destination: side({ usage: usage(1) }) })()).toBe(
      'source',
    );
    expect(paceOf({ source: side({}), destination: side({ usage: usage(2) }) })()).toBeNull();
  });
});
