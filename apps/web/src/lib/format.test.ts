import { describe, expect, it } from 'vitest';
import { formatCardBrand, formatCountry, formatPaymentMethod, formatStatus } from './format.ts';

describe('display formats', () => {
  it('names countries instead of showing their codes', () => {
    expect(formatCountry('US')).toBe('United States');
    expect(formatCountry('GB')).toBe('United Kingdom');
    expect(formatCountry('de')).toBe('Germany');
    expect(formatCountry('SE')).toBe('Sweden');
  });

  it('names the payment method: card network, PayPal, or Card when unknown', () => {
    expect(formatPaymentMethod({ type: 'card', card: { brand: 'visa', last4: '4242' } })).toBe(
      'Visa',
    );
    expect(
      formatPaymentMethod(
        { type: 'card', card: { brand: 'amex', last4: '0005' } },
        { withLast4: true },
      ),
    ).toBe('American Express •••• 0005');
    expect(formatPaymentMethod({ type: 'paypal' })).toBe('PayPal');
    expect(formatPaymentMethod({ type: 'paypal' }, { withLast4: true })).toBe('PayPal');
    expect(formatPaymentMethod({ type: 'card' })).toBe('Card');
    expect(formatPaymentMethod(undefined)).toBe('Card');
    expect(formatCardBrand('cartes_bancaires')).toBe('cartes_bancaires');
  });

  it('capitalises statuses for display', () => {
    expect(formatStatus('completed')).toBe('Completed');
    expect(formatStatus('in-progress')).toBe('In Progress');
    expect(formatStatus('failed')).toBe('Failed');
    expect(formatStatus('pending')).toBe('Pending');
    expect(formatStatus('payment_required')).toBe('Payment Required');
    expect(formatStatus('')).toBe('');
  });
});
