import { describe, expect, it } from 'vitest';
import { AuthRateLimiter, authLimits, limitMessage, SlidingWindowCounter } from './rate-limit.ts';

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('sliding window counter', () => {
  it('frees a slot once the oldest counted event leaves the window', () => {
    const time = clock();
    const counter = new SlidingWindowCounter(time.now);
    const limit = { max: 2, windowMs: 1000 };
    counter.add('k', limit);
    time.advance(400);
    counter.add('k', limit);
    expect(counter.retryAfter('k', limit)).toBe(600);
    time.advance(600);
    expect(counter.retryAfter('k', limit)).toBe(0);
  });
});

describe('auth rate limiter', () => {
  it('blocks an address after five failures on one account, and not the owner elsewhere', () => {
    const limiter = new AuthRateLimiter(clock().now);
    for (let i = 0; i < 5; i++) {
      expect(limiter.attempt('sign-in', '10.0.0.1', 'a@x.co').allowed).toBe(true);
      limiter.signInFailed('10.0.0.1', 'a@x.co');
    }
    expect(limiter.attempt('sign-in', '10.0.0.1', 'a@x.co').allowed).toBe(false);
    expect(limiter.attempt('sign-in', '10.0.0.1', 'b@x.co').allowed).toBe(true);
    expect(limiter.attempt('sign-in', '10.0.0.2', 'a@x.co').allowed).toBe(true);
  });

  it('after many failures from many addresses, only addresses that failed are stopped', () => {
    const limiter = new AuthRateLimiter(clock().now);
    const max = authLimits.signInFailuresPerAccount.max;
    for (let i = 0; i < max; i++) {
      expect(limiter.attempt('sign-in', `10.1.0.${i}`, 'a@x.co').allowed).toBe(true);
      limiter.signInFailed(`10.1.0.${i}`, 'a@x.co');
    }
    expect(limiter.attempt('sign-in', '10.1.0.3', 'a@x.co').allowed).toBe(false);
    expect(limiter.attempt('sign-in', '192.0.2.7', 'a@x.co').allowed).toBe(true);
  });

  it('forgets failures on success', () => {
    const limiter = new AuthRateLimiter(clock().now);
    for (let i = 0; i < 4; i++) limiter.signInFailed('10.0.0.1', 'a@x.co');
    limiter.signInSucceeded('10.0.0.1', 'a@x.co');
    for (let i = 0; i < 4; i++) limiter.signInFailed('10.0.0.1', 'a@x.co');
    expect(limiter.attempt('sign-in', '10.0.0.1', 'a@x.co').allowed).toBe(true);
  });

  it('limits reset mails per account whatever the address, and lifts the limit in time', () => {
    const time = clock();
    const limiter = new AuthRateLimiter(time.now);
    for (let i = 0; i < 3; i++)
      expect(limiter.attempt('reset-request', `10.2.0.${i}`, 'a@x.co').allowed).toBe(true);
    const blocked = limiter.attempt('reset-request', '10.2.0.9', 'a@x.co');
    expect(blocked.allowed).toBe(false);
    expect(limitMessage('reset-request', blocked.retryAfterMs)).toBe(
      'Too many password reset requests. Please try again in 60 minutes.',
    );
    time.advance(60 * 60 * 1000);
    expect(limiter.attempt('reset-request', '10.2.0.9', 'a@x.co').allowed).toBe(true);
  });
});
