import { describe, expect, it } from 'vitest';
import { formatUsd, priceFor, wholeCount } from './pricing.ts';

describe('pricing', () => {
  it('charges $99 plus one cent per record', () => {
    expect(priceFor({ products: 1000 }).totalCents).toBe(10900);
    expect(priceFor({ products: 1500, customers: 750, orders: 250 })).toEqual({
      records: 2500,
      baseCents: 9900,
      volumeCents: 2500,
      taxCents: 0,
      totalCents: 12400,
    });
    expect(priceFor({}).totalCents).toBe(9900);
  });

  it('prices coupons per record like the sketch’s three types', () => {
    expect(priceFor({ products: 1000, coupons: 6 })).toMatchObject({
      records: 1006,
      totalCents: 10906,
    });
  });

  it('treats bad calculator input as 0', () => {
    expect(wholeCount('')).toBe(0);
    expect(wholeCount('-5')).toBe(0);
    expect(wholeCount('abc')).toBe(0);
    expect(wholeCount('12')).toBe(12);
    expect(wholeCount(3.7)).toBe(3);
    expect(wholeCount(Number.NaN)).toBe(0);
  });

  it('formats dollars with two decimals', () => {
    expect(formatUsd(10900)).toBe('$109.00');
    expect(formatUsd(0)).toBe('$0.00');
  });
});
