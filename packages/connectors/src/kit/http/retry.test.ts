import { describe, expect, it } from 'vitest';
import { backoffDelay, isRetryableStatus, mayRepeat, parseRetryAfter, sleep } from './retry.ts';

describe('backoffDelay (full jitter)', () => {
  const options = { baseDelayMs: 100, maxDelayMs: 1_000 };

  it('stays within [0, min(max, base * 2^(retry-1))]', () => {
    for (let retry = 1; retry <= 8; retry++) {
      const ceiling = Math.min(1_000, 100 * 2 ** (retry - 1));
      for (let i = 0; i < 500; i++) {
        const delay = backoffDelay(retry, options);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceiling);
      }
      expect(backoffDelay(retry, options, () => 0)).toBe(0);
      expect(backoffDelay(retry, options, () => 0.999999)).toBe(Math.floor(0.999999 * ceiling));
    }
  });

  it('is spread out rather than fixed', () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(4, options)));
    expect(delays.size).toBeGreaterThan(10);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads delta-seconds, with decimals as Shopify sends them', () => {
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('2.0', now)).toBe(2_000);
    expect(parseRetryAfter('0.25', now)).toBe(250);
  });

  it('reads an HTTP date, never negative', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    for (const value of [undefined, '', '-1', 'soon', '1e3', '+5']) {
      expect(parseRetryAfter(value, now), String(value)).toBeUndefined();
    }
  });
});

describe('what is retried', () => {
  it('repeats idempotent methods by default and POST/PATCH only when marked', () => {
    expect(mayRepeat('GET', undefined)).toBe(true);
    expect(mayRepeat('PUT', undefined)).toBe(true);
    expect(mayRepeat('DELETE', undefined)).toBe(true);
    expect(mayRepeat('POST', undefined)).toBe(false);
    expect(mayRepeat('PATCH', undefined)).toBe(false);
    expect(mayRepeat('POST', true)).toBe(true);
    expect(mayRepeat('GET', false)).toBe(false);
  });

  it('retries throttling and gateway errors, and 500 only when marked retryable', () => {
    for (const status of [408, 429, 502, 503, 504])
      expect(isRetryableStatus(status, undefined)).toBe(true);
    expect(isRetryableStatus(500, undefined)).toBe(false);
    expect(isRetryableStatus(500, true)).toBe(true);
    for (const status of [200, 301, 400, 401, 403, 404, 422, 501]) {
      expect(isRetryableStatus(status, true)).toBe(false);
    }
  });
});

describe('sleep', () => {
  it('rejects with the abort reason', async () => {
    const controller = new AbortController();
    const pending = sleep(10_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});
