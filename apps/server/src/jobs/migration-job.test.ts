import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { outageNotices } from './migration-job.ts';

describe('outageNotices', () => {
  beforeEach(() => vi.useFakeTimers({ now: Date.parse('2026-11-26T10:40:00Z') }));
  afterEach(() => vi.useRealTimers());

  const outage = {
    side: 'destination' as const,
    since: '2026-11-26T10:40:00Z',
    retryAt: '2026-11-26T10:40:30Z',
    reason: 'The store answered 502',
  };

  it('tells the owner once when a store stays down past the threshold, and when it is back', () => {
    const sent: string[] = [];
    const notices = outageNotices(async (type, title) => {
      sent.push(`${type}: ${title}`);
    }, 5 * 60_000);
    notices.onOutage(outage);
    vi.advanceTimersByTime(4 * 60_000);
    // Every probe reports the outage again: still one notice.
    notices.onOutage({ ...outage, retryAt: '2026-11-26T10:44:30Z' });
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(60_000);
    notices.onOutage({ ...outage, retryAt: '2026-11-26T10:46:00Z' });
    vi.advanceTimersByTime(10 * 60_000);
    expect(sent).toEqual(['warning: Migration waiting for your store']);
    notices.onOutage(null);
    expect(sent).toEqual(['warning: Migration waiting for your store', 'info: Migration resumed']);
  });

  it('says nothing of a short outage', () => {
    const sent: string[] = [];
    const notices = outageNotices(async (_type, title) => {
      sent.push(title);
    }, 5 * 60_000);
    notices.onOutage(outage);
    vi.advanceTimersByTime(60_000);
    notices.onOutage(null);
    vi.advanceTimersByTime(10 * 60_000);
    expect(sent).toEqual([]);
    notices.stop();
  });
});
