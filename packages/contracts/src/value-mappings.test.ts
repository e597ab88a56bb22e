import { describe, expect, it } from 'vitest';
import { fieldMappingsSchema } from './migration.ts';
import { currencyMappingSchema, defaultValueMap, valueChanges } from './value-mappings.ts';

const woo = [
  { value: '', label: 'Standard' },
  { value: 'reduced-rate', label: 'Reduced rate' },
  { value: 'zero-rate', label: 'Zero rate' },
  { value: 'luxury', label: 'Luxury goods' },
];
const magento = [
  { value: '', label: 'Taxable Goods' },
  { value: 'Reduced Rate', label: 'Reduced Rate' },
  { value: 'ZERO_RATE', label: 'ZERO_RATE' },
];

describe('the proposal for each source value', () => {
  it('takes the destination value of the same name, letters and digits compared', () => {
    expect(defaultValueMap(woo, magento, false)).toEqual({
      '': '',
      'reduced-rate': 'Reduced Rate',
      'zero-rate': 'ZERO_RATE',
      luxury: '',
    });
  });

  it('keeps an unmatched value where the destination creates it, else proposes the default', () => {
    expect(defaultValueMap(woo, magento, true).luxury).toBe('Luxury goods');
    expect(defaultValueMap(woo, [], false)).toEqual({
      '': '',
      'reduced-rate': '',
      'zero-rate': '',
      luxury: '',
    });
  });

  it('names only the values that change', () => {
    expect(valueChanges({ '': '', a: 'b', c: 'c' })).toEqual([{ from: 'a', to: 'b' }]);
    expect(valueChanges(undefined)).toEqual([]);
  });
});

describe('the currency choice', () => {
  it('needs a positive rate to convert, and two different currencies', () => {
    const base = { from: 'EUR', to: 'USD' };
    expect(currencyMappingSchema.safeParse({ ...base, mode: 'keep' }).success).toBe(true);
    expect(
      currencyMappingSchema.safeParse({ ...base, mode: 'convert', rate: ' 1.0825 ' }).data?.rate,
    ).toBe('1.0825');
    for (const rate of [undefined, '0', '-1', '1,08', 'abc', '1e3']) {
      const parsed = currencyMappingSchema.safeParse({ ...base, mode: 'convert', rate });
      expect(parsed.success, String(rate)).toBe(false);
    }
    expect(
      currencyMappingSchema.safeParse({ from: 'EUR', to: 'EUR', mode: 'keep' }).error?.issues[0]
        ?.message,
    ).toBe('The two currencies are the same');
  });

  it('is part of the mappings a migration stores, with the groups and tax classes', () => {
    const mappings = {
      orderStatuses: { 'on-hold': 'processing' },
      customerGroups: { wholesale_customer: 'Wholesale' },
      taxClasses: { 'reduced-rate': 'Reduced Rate' },
      currency: { from: 'EUR', to: 'USD', mode: 'convert', rate: '1.08' },
    };
    expect(fieldMappingsSchema.parse(mappings)).toEqual(mappings);
    expect(fieldMappingsSchema.safeParse({ ...mappings, other: {} }).success).toBe(false);
  });
});
