import { describe, expect, it } from 'vitest';
import { paidRecordLimit } from './payment-limit.ts';

describe('paid record limit', () => {
  it('is the recorded count, or what the amount buys, or nothing when unpaid', () => {
    expect(paidRecordLimit(null)).toBe(0);
    expect(paidRecordLimit({ paymentStatus: 'pending', amount: 50_000 })).toBe(0);
    expect(paidRecordLimit({ paymentStatus: 'paid', amount: 10_900, paidRecords: 1_500 })).toBe(
      1_500,
    );
    // $99 base fee + $0.01 per record: $109.00 buys 1,000 records.
    expect(paidRecordLimit({ paymentStatus: 'paid', amount: 10_900 })).toBe(1_000);
    expect(paidRecordLimit({ paymentStatus: 'paid', amount: 500 })).toBe(0);
  });
});
