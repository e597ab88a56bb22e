import { describe, expect, it } from 'vitest';
import { asBigCommerceKeeps } from './comparable.ts';

describe('the form a BigCommerce destination keeps custom fields in', () => {
  it('keeps another platform’s custom field as a metafield of the same namespace, as text', () => {
    const kept = asBigCommerceKeeps([
      { namespace: 'woocommerce', key: 'prefs', value: '{"a":1}', type: 'json' },
    ]);
    expect(kept).toEqual([
      { namespace: 'bigcommerce.woocommerce', key: 'prefs', value: '{"a":1}', type: 'string' },
    ]);
    expect(asBigCommerceKeeps(kept)).toEqual(kept);
  });

  it('leaves a field BigCommerce refuses (empty) as it was', () => {
    const empty = [{ namespace: 'woocommerce', key: 'e', value: '', type: 'string' }];
    expect(asBigCommerceKeeps(empty)).toEqual(empty);
  });
});
