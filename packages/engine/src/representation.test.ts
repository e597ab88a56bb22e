import { describe, expect, it } from 'vitest';
import { instantForm, normaliseRepresentation, phoneForm } from './representation.ts';

describe('values compared by what they mean, not how a platform writes them', () => {
  it('reads phone numbers by their digits and the country code they imply', () => {
    expect(phoneForm('(555) 123-4567', 'US')).toBe('+15551234567');
    expect(phoneForm('+1 555-123-4567', 'US')).toBe('+15551234567');
    expect(phoneForm('1-555-123-4567', 'US')).toBe('+15551234567');
    expect(phoneForm('+15551234567', '')).toBe('+15551234567');
    expect(phoneForm('020 7946 0958', 'GB')).toBe('+442079460958');
    expect(phoneForm('+44 20 7946 0958', 'GB')).toBe('+442079460958');
    expect(phoneForm('0044 20 7946 0958', 'GB')).toBe('+442079460958');
    // Italy keeps its leading 0 in the international form.
    expect(phoneForm('06 1234 5678', 'IT')).toBe('+390612345678');
    expect(phoneForm('', 'US')).toBe('');
    expect(phoneForm('   ', 'US')).toBe('');
  });

  it('never folds together numbers that are really different', () => {
    expect(phoneForm('555-123-4567', 'US')).not.toBe(phoneForm('555-123-4568', 'US'));
    // The same digits in two countries are two numbers.
    expect(phoneForm('020 7946 0958', 'GB')).not.toBe(phoneForm('020 7946 0958', 'FR'));
    // Without a country, a national number is not assumed to be anywhere.
    expect(phoneForm('555-123-4567', '')).not.toBe(phoneForm('+15551234567', ''));
    // An extension is part of what was typed.
    expect(phoneForm('555-123-4567 ext. 12', 'US')).toBe('555-123-4567 ext. 12');
    expect(phoneForm('555-123-4567 ext. 12', 'US')).not.toBe(phoneForm('555-123-4567', 'US'));
  });

  it('reads timestamps as the instant they name', () => {
    expect(instantForm('2025-01-01T10:00:00Z')).toBe('2025-01-01T10:00:00.000Z');
    expect(instantForm('2025-01-01T10:00:00.000Z')).toBe('2025-01-01T10:00:00.000Z');
    expect(instantForm('2025-01-01T11:00:00+01:00')).toBe('2025-01-01T10:00:00.000Z');
    expect(instantForm('2025-01-01T10:00:00.123Z')).not.toBe(instantForm('2025-01-01T10:00:00Z'));
    expect(instantForm('yesterday')).toBe('yesterday');
    expect(instantForm(null)).toBeNull();
  });

  it('applies both to a customer and an order in their comparable form', () => {
    const address = (phone: string, countryCode: string, isDefaultBilling: boolean) => ({
      firstName: 'Ada',
      phone,
      countryCode,
      isDefaultBilling,
      isDefaultShipping: false,
    });
    const source = normaliseRepresentation('customers', {
      email: 'ada@example.com',
      phone: '(555) 123-4567',
      createdAt: '2025-01-01T10:00:00Z',
      addresses: [address('020 7946 0958', 'GB', false), address('555 123 0000', 'US', true)],
    });
    const destination = normaliseRepresentation('customers', {
      email: 'ada@example.com',
      phone: '+15551234567',
      createdAt: '2025-01-01T10:00:00.000Z',
      addresses: [address('+442079460958', 'GB', false), address('+15551230000', 'US', true)],
    });
    expect(destination).toEqual(source);

    const order = (phone: string, createdAt: string) =>
      normaliseRepresentation('orders', {
        createdAt,
        updatedAt: null,
        billingAddress: { phone, countryCode: 'US' },
        shippingAddress: null,
      });
    expect(order('555.123.4567', '2025-02-01T00:00:00-05:00')).toEqual(
      order('+1 555 123 4567', '2025-02-01T05:00:00.000Z'),
    );
    expect(order('555.123.4567', '2025-02-01T00:00:00Z')).not.toEqual(
      order('', '2025-02-01T00:00:00Z'),
    );
  });
});
