import { BASE_FEE_CENTS, PER_RECORD_CENTS } from '@replatform/contracts/pricing';

interface PaymentFacts {
  paymentStatus?: unknown;
  amount?: unknown;
  paidRecords?: unknown;
}

/**
 * How many records (products + customers + orders) the owner has paid for: the recorded
 * `paidRecords`, or else what the amount buys at the one price rule; 0 when not paid.
 */
export function paidRecordLimit(paymentInfo: PaymentFacts | null | undefined): number {
  if (!paymentInfo || paymentInfo.paymentStatus !== 'paid') return 0;
  if (typeof paymentInfo.paidRecords === 'number' && Number.isFinite(paymentInfo.paidRecords)) {
    return Math.max(0, Math.floor(paymentInfo.paidRecords));
  }
  if (typeof paymentInfo.amount === 'number' && Number.isFinite(paymentInfo.amount)) {
    return Math.max(0, Math.floor((paymentInfo.amount - BASE_FEE_CENTS) / PER_RECORD_CENTS));
  }
  return 0;
}
