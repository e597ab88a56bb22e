import { describe, expect, it } from 'vitest';
import { cardBrandOf, demoPaymentRequestSchema, isExpired, passesLuhn } from './payments.ts';

describe('payment contract helpers', () => {
  it('knows Stripe’s test card brands', () => {
    expect(cardBrandOf('4242 4242 4242 4242')).toBe('visa');
    expect(cardBrandOf('5555555555554444')).toBe('mastercard');
    expect(cardBrandOf('2223003122003222')).toBe('mastercard');
    expect(cardBrandOf('378282246310005')).toBe('amex');
    expect(cardBrandOf('6011111111111117')).toBe('discover');
    expect(cardBrandOf('3056930009020004')).toBe('diners');
    expect(cardBrandOf('3566002020360505')).toBe('jcb');
    expect(cardBrandOf('6200000000000005')).toBe('unionpay');
    expect(cardBrandOf('9999')).toBe('unknown');
  });

  it('checks card numbers with Luhn and expiry by month', () => {
    expect(passesLuhn('4242-4242-4242-4242')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(passesLuhn('42')).toBe(false);
    const now = new Date('2026-11-21T00:00:00Z');
    expect(isExpired('11/26', now)).toBe(false);
    expect(isExpired('10/26', now)).toBe(true);
    expect(isExpired('01/27', now)).toBe(false);
  });

  it('validates the demo card form', () => {
    const card = {
      method: 'card',
      migrationId: 'm1',
      cardNumber: '4242 4242 4242 4242',
      expiry: '12/34',
      cvc: '123',
      cardholderName: 'A',
      email: 'a@example.com',
      country: 'SE',
    };
    expect(demoPaymentRequestSchema.safeParse(card).success).toBe(true);
    expect(demoPaymentRequestSchema.safeParse({ ...card, expiry: '13/34' }).success).toBe(false);
    expect(demoPaymentRequestSchema.safeParse({ ...card, country: 'XX' }).success).toBe(false);
    expect(
      demoPaymentRequestSchema.safeParse({
        method: 'paypal',
        migrationId: 'm1',
        email: 'a@example.com',
      }).success,
    ).toBe(true);
  });
});
