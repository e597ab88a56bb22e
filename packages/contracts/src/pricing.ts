/**
 * The one price rule, used by the server (quotes and checkout), the calculator and the payment
 * step: $99 base fee plus $0.01 per record (products + customers + orders, and coupons, reviews,
 * brands, pages and blog posts), in minor units (cents).
 * The 8% tax line of the sketch is shown but always $0.00.
 */
export const BASE_FEE_CENTS = 9900;
export const PER_RECORD_CENTS = 1;
export const TAX_RATE_LABEL = '8%';

export interface PriceBreakdown {
  records: number;
  baseCents: number;
  volumeCents: number;
  taxCents: number;
  totalCents: number;
}

/** Non-integer, negative or non-finite inputs count as 0 (spec.md section 5, calculator). */
export function wholeCount(value: unknown): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.floor(n) : 0;
}

export function priceFor(counts: {
  products?: number;
  customers?: number;
  orders?: number;
  coupons?: number;
  reviews?: number;
  brands?: number;
  pages?: number;
  posts?: number;
}): PriceBreakdown {
  const records =
    wholeCount(counts.products) +
    wholeCount(counts.customers) +
    wholeCount(counts.orders) +
    wholeCount(counts.coupons) +
    wholeCount(counts.reviews) +
    wholeCount(counts.brands) +
    wholeCount(counts.pages) +
    wholeCount(counts.posts);
  const volumeCents = records * PER_RECORD_CENTS;
  return {
    records,
    baseCents: BASE_FEE_CENTS,
    volumeCents,
    taxCents: 0,
    totalCents: BASE_FEE_CENTS + volumeCents,
  };
}

/** '$109.00' for 10900 cents (US English, two decimals). */
export function formatUsd(cents: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
}
