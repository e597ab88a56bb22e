import { describe, expect, it } from 'vitest';
import { currencyExponent, fromMinor, money, moneySchema, toMinor } from './money.ts';

describe('toMinor', () => {
  it('scales by the currency exponent', () => {
    expect(toMinor('19.99', 'USD')).toBe(1999);
    expect(toMinor('19.9', 'EUR')).toBe(1990);
    expect(toMinor('19', 'GBP')).toBe(1900);
    expect(toMinor('1500', 'JPY')).toBe(1500);
    expect(toMinor('1.234', 'KWD')).toBe(1234);
    expect(toMinor(19.99, 'usd')).toBe(1999);
  });

  it('does not drift where binary floating point does', () => {
    // 0.29 * 100 is 28.999999999999996 in binary floating point.
    expect(toMinor('0.29', 'USD')).toBe(29);
    expect(toMinor('1.005', 'USD')).toBe(101);
    expect(toMinor('4.35', 'USD')).toBe(435);
    expect(toMinor('1234567.89', 'USD')).toBe(123456789);
  });

  it('rounds half away from zero at the currency precision', () => {
    expect(toMinor('0.125', 'USD')).toBe(13);
    expect(toMinor('-0.125', 'USD')).toBe(-13);
    expect(toMinor('0.124', 'USD')).toBe(12);
    expect(toMinor('99.5', 'JPY')).toBe(100);
    expect(toMinor('-99.5', 'JPY')).toBe(-100);
  });

  it('takes negative amounts and exponent notation', () => {
    expect(toMinor('-5.00', 'USD')).toBe(-500);
    expect(toMinor('1e2', 'USD')).toBe(10000);
    expect(toMinor('2.5E-1', 'USD')).toBe(25);
    expect(toMinor(' 7.10 ', 'USD')).toBe(710);
  });

  it('refuses anything that is not a plain decimal', () => {
    for (const bad of ['', '1,234.50', '12.3.4', 'abc', '$5', '1 000', 'NaN', 'Infinity', '.5'])
      expect(() => toMinor(bad, 'USD'), bad).toThrow(/Not a decimal amount/);
    expect(() => toMinor(Number.NaN, 'USD')).toThrow();
  });
});

describe('fromMinor', () => {
  it('formats with the currency exponent and no grouping', () => {
    expect(fromMinor(1999, 'USD')).toBe('19.99');
    expect(fromMinor(5, 'USD')).toBe('0.05');
    expect(fromMinor(0, 'USD')).toBe('0.00');
    expect(fromMinor(123456789, 'USD')).toBe('1234567.89');
    expect(fromMinor(1500, 'JPY')).toBe('1500');
    expect(fromMinor(1234, 'KWD')).toBe('1.234');
    expect(fromMinor(7, 'BHD')).toBe('0.007');
  });

  it('keeps the sign in front of the whole amount', () => {
    expect(fromMinor(-5, 'USD')).toBe('-0.05');
    expect(fromMinor(-1999, 'USD')).toBe('-19.99');
    expect(fromMinor(-1500, 'JPY')).toBe('-1500');
  });

  it('round-trips with toMinor', () => {
    for (const [amount, currency] of [
      [0, 'USD'],
      [1, 'USD'],
      [-1, 'EUR'],
      [99, 'JPY'],
      [123456, 'KWD'],
      [987654321, 'GBP'],
    ] as const)
      expect(toMinor(fromMinor(amount, currency), currency), `${amount} ${currency}`).toBe(amount);
  });
});

describe('currencies and the money schema', () => {
  it('knows the exponents that are not 2, case-insensitively', () => {
    expect(currencyExponent('USD')).toBe(2);
    expect(currencyExponent('jpy')).toBe(0);
    expect(currencyExponent('KWD')).toBe(3);
    expect(currencyExponent('XYZ')).toBe(2);
  });

  it('builds upper-case money and validates it', () => {
    expect(money(100, 'usd')).toEqual({ amount: 100, currency: 'USD' });
    expect(moneySchema.safeParse({ amount: 1.5, currency: 'USD' }).success).toBe(false);
    expect(moneySchema.safeParse({ amount: 1, currency: 'usd' }).success).toBe(false);
    expect(moneySchema.safeParse({ amount: 1, currency: 'USD', extra: 1 }).success).toBe(false);
    expect(moneySchema.safeParse({ amount: -1, currency: 'USD' }).success).toBe(true);
  });
});
