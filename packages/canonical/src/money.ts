import { z } from 'zod';

/** ISO 4217 currency code, upper case (e.g. 'USD'). */
export const currencySchema = z
  .string()
  .regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code in upper case');

/**
 * An amount of money in minor units (cents for USD, yen for JPY) with its currency. Minor units
 * avoid floating-point drift when prices pass between platforms that store decimals as strings.
 */
export const moneySchema = z.strictObject({
  amount: z.number().int(),
  currency: currencySchema,
});
export type Money = z.infer<typeof moneySchema>;

/** Digits after the decimal point per ISO 4217 for the currencies that are not 2. */
const exponents: Record<string, number> = {
  JPY: 0,
  KRW: 0,
  VND: 0,
  CLP: 0,
  ISK: 0,
  HUF: 2,
  TWD: 2,
  UGX: 0,
  XAF: 0,
  XOF: 0,
  PYG: 0,
  BHD: 3,
  KWD: 3,
  OMR: 3,
  JOD: 3,
  TND: 3,
  IQD: 3,
  LYD: 3,
};

export function currencyExponent(currency: string): number {
  return exponents[currency.toUpperCase()] ?? 2;
}

/**
 * Parses a platform's decimal amount ('19.99', 19.99, '1,234.50' is refused) into minor units,
 * rounding half away from zero at the currency's precision. Throws on anything that is not a number.
 */
export function toMinor(value: string | number, currency: string): number {
  const text = typeof value === 'number' ? value.toString() : value.trim();
  if (!/^-?\d+(\.\d+)?(e-?\d+)?$/i.test(text)) throw new Error(`Not a decimal amount: '${value}'`);
  const exponent = currencyExponent(currency);
  const scaled = Number(text) * 10 ** exponent;
  return Math.sign(scaled) * Math.round(Math.abs(scaled) + 1e-9);
}

/** Formats minor units as a plain decimal string, the form REST APIs accept ('19.99'). */
export function fromMinor(amount: number, currency: string): string {
  const exponent = currencyExponent(currency);
  if (exponent === 0) return String(amount);
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  const whole = Math.floor(abs / 10 ** exponent);
  const fraction = String(abs % 10 ** exponent).padStart(exponent, '0');
  return `${sign}${whole}.${fraction}`;
}

export function money(amount: number, currency: string): Money {
  return { amount, currency: currency.toUpperCase() };
}
