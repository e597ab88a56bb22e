import { describe, expect, it } from 'vitest';
import type { MappingChoices } from '@replatform/contracts/value-mappings';
import { initialValueMaps, valueMapsProblem, withChoices } from './value-maps.tsx';

const choices: MappingChoices = {
  customerGroups: {
    source: [{ value: '', label: 'Customer' }],
    destination: null,
    createsMissing: false,
    unavailable: 'WooCommerce keeps no groups.',
    defaults: {},
  },
  taxClasses: {
    source: [
      { value: '', label: 'Standard' },
      { value: 'reduced-rate', label: 'Reduced rate' },
      { value: 'zero-rate', label: 'Zero rate' },
    ],
    destination: [
      { value: '', label: 'Taxable Goods' },
      { value: 'Reduced Rate', label: 'Reduced Rate' },
    ],
    createsMissing: true,
    defaults: { '': '', 'reduced-rate': 'Reduced Rate', 'zero-rate': 'zero-rate' },
  },
  currency: { source: 'EUR', destination: 'USD' },
};

describe('the Map fields choices once the stores have answered', () => {
  it('take the proposals, keep what the owner chose, and drop what the pair cannot map', () => {
    const stored = initialValueMaps({
      customerGroups: { wholesale: 'Wholesale' },
      taxClasses: { 'zero-rate': '', gone: 'x' },
    });
    expect(withChoices(stored, choices)).toEqual({
      customerGroups: {},
      taxClasses: { '': '', 'reduced-rate': 'Reduced Rate', 'zero-rate': '' },
      currency: { from: 'EUR', to: 'USD', mode: 'keep' },
    });
  });

  it('keep a currency choice only for the stores’ own currencies', () => {
    const convert = { from: 'EUR', to: 'USD', mode: 'convert' as const, rate: '1.08' };
    expect(withChoices(initialValueMaps({ currency: convert }), choices).currency).toEqual(convert);
    const other = { ...convert, from: 'GBP' };
    expect(withChoices(initialValueMaps({ currency: other }), choices).currency).toEqual({
      from: 'EUR',
      to: 'USD',
      mode: 'keep',
    });
    const same = { ...choices, currency: { source: 'USD', destination: 'USD' } };
    expect(withChoices(initialValueMaps({ currency: convert }), same).currency).toBeUndefined();
  });

  it('say what stops a conversion from being saved', () => {
    const base = { customerGroups: {}, taxClasses: {} };
    expect(valueMapsProblem(base)).toBeNull();
    expect(
      valueMapsProblem({
        ...base,
        currency: { from: 'EUR', to: 'USD', mode: 'convert', rate: '' },
      }),
    ).toBe('Give the rate as a number, such as 1.08');
    expect(
      valueMapsProblem({
        ...base,
        currency: { from: 'EUR', to: 'USD', mode: 'convert', rate: '1.08' },
      }),
    ).toBeNull();
  });
});
