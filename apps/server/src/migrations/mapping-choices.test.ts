import { describe, expect, it } from 'vitest';
import { valueChoices } from './mapping-choices.ts';

const woo = {
  taxClasses: {
    values: [
      { value: '', label: 'Standard rate' },
      { value: 'reduced-rate', label: 'Reduced rate' },
    ],
    createsMissing: false,
  },
};

describe('what the Map fields panel offers for a pair', () => {
  it('says why there is nothing to map: the destination cannot hold it, or a side lists none', () => {
    const held = valueChoices(
      'taxClasses',
      { platform: 'woocommerce', values: woo },
      { platform: 'shopify', values: {}, unsupported: 'Shopify has no tax classes.' },
    );
    expect(held).toMatchObject({ unavailable: 'Shopify has no tax classes.', defaults: {} });
    expect(
      valueChoices(
        'taxClasses',
        { platform: 'bigcommerce', values: {} },
        { platform: 'woocommerce', values: woo, unsupported: undefined },
      ).unavailable,
    ).toBe('Replatform reads no tax classes from BigCommerce, so there is nothing to map.');
    expect(
      valueChoices(
        'taxClasses',
        { platform: 'woocommerce', values: woo },
        { platform: 'bigcommerce', values: {}, unsupported: undefined },
      ).unavailable,
    ).toBe(
      "Replatform reads no tax classes from BigCommerce, so the source's are written as they are.",
    );
  });

  it('proposes a value for each source value where both sides list them', () => {
    const choices = valueChoices(
      'taxClasses',
      { platform: 'woocommerce', values: woo },
      { platform: 'woocommerce', values: woo, unsupported: undefined },
    );
    expect(choices.unavailable).toBeUndefined();
    expect(choices.defaults).toEqual({ '': '', 'reduced-rate': 'reduced-rate' });
    expect(choices.source).toEqual(woo.taxClasses.values);
  });
});
