import type { orderStatuses, paymentStatuses } from '@replatform/canonical/order';

type OrderStatus = (typeof orderStatuses)[number];
type PaymentStatus = (typeof paymentStatuses)[number];

/**
 * Order status mapping. Magento keeps a state (the workflow step) and a status (a label an
 * admin may customise per state), so reading goes by state and falls back to the status:
 *
 * | Magento state      | status (default)            | canonical   |
 * |--------------------|-----------------------------|-------------|
 * | new                | pending                     | pending     |
 * | pending_payment    | pending_payment             | pending     |
 * | payment_review     | payment_review, fraud       | on-hold     |
 * | processing         | processing, fraud           | processing  |
 * | holded             | holded                      | on-hold     |
 * | complete           | complete                    | completed   |
 * | closed             | closed                      | refunded    |
 * | canceled           | canceled                    | cancelled   |
 *
 * Writing uses the default status of each state; canonical 'failed' (payment failed) has no
 * Magento state and is written as canceled, so it reads back as 'cancelled'.
 */
export function statusFromMagento(
  state: string | null | undefined,
  status: string | null | undefined,
): OrderStatus {
  const byState: Record<string, OrderStatus> = {
    new: 'pending',
    pending_payment: 'pending',
    payment_review: 'on-hold',
    processing: 'processing',
    holded: 'on-hold',
    complete: 'completed',
    closed: 'refunded',
    canceled: 'cancelled',
  };
  if (status === 'fraud') return 'on-hold';
  const fromState = state ? byState[state] : undefined;
  if (fromState) return fromState;
  const byStatus: Record<string, OrderStatus> = {
    pending: 'pending',
    processing: 'processing',
    holded: 'on-hold',
    complete: 'completed',
    closed: 'refunded',
    canceled: 'cancelled',
  };
  return (status ? byStatus[status] : undefined) ?? 'pending';
}

export function statusToMagento(status: OrderStatus): { state: string; status: string } {
  switch (status) {
    case 'pending':
      return { state: 'new', status: 'pending' };
    case 'processing':
      return { state: 'processing', status: 'processing' };
    case 'on-hold':
      return { state: 'holded', status: 'holded' };
    case 'completed':
      return { state: 'complete', status: 'complete' };
    case 'cancelled':
    case 'failed':
      return { state: 'canceled', status: 'canceled' };
    case 'refunded':
      return { state: 'closed', status: 'closed' };
  }
}

/**
 * Magento has no payment status field; it follows from the order's paid, refunded and
 * canceled totals and the payment's authorised amount (all in minor units here).
 */
export function paymentStatusFromTotals(t: {
  grand: number;
  paid: number;
  refunded: number;
  authorized: number;
  canceled: boolean;
}): PaymentStatus {
  if (t.refunded > 0) return t.refunded >= t.paid ? 'refunded' : 'partially_refunded';
  if (t.paid > 0) return t.paid >= t.grand ? 'paid' : 'partially_paid';
  if (t.canceled) return 'voided';
  if (t.authorized > 0) return 'authorized';
  return 'pending';
}

/**
 * Totals that make Magento show the canonical payment status, from the order's total and what
 * its refunds add up to. The model keeps no paid amount for a partly paid order, so none is
 * made up: such an order is written as unpaid (the writer says so).
 */
export function totalsForPaymentStatus(
  status: PaymentStatus,
  grand: number,
  refundTotal: number,
): { paid: number; refunded: number; authorized: number; canceled: number } {
  switch (status) {
    case 'paid':
      return { paid: grand, refunded: 0, authorized: 0, canceled: 0 };
    case 'partially_paid':
      return { paid: 0, refunded: 0, authorized: 0, canceled: 0 };
    case 'partially_refunded':
      return { paid: grand, refunded: refundTotal, authorized: 0, canceled: 0 };
    case 'refunded':
      return { paid: grand, refunded: refundTotal || grand, authorized: 0, canceled: 0 };
    case 'authorized':
      return { paid: 0, refunded: 0, authorized: grand, canceled: 0 };
    case 'voided':
      return { paid: 0, refunded: 0, authorized: 0, canceled: grand };
    case 'pending':
      return { paid: 0, refunded: 0, authorized: 0, canceled: 0 };
  }
}
