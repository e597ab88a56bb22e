import { describe, expect, it } from 'vitest';
import { asMagentoKeeps, asStoreWide, displayTypeKept, statusKept } from './comparable.ts';

describe('the form a Magento destination keeps converted fields in', () => {
  it('keeps another platform’s custom field as an attribute named after namespace and key', () => {
    const convert = asMagentoKeeps('textarea');
    const kept = convert([
      { namespace: 'shopify.custom', key: 'Care', value: 'Wash cold', type: 'string' },
    ]);
    expect(kept).toEqual([
      { namespace: 'magento', key: 'custom_care', value: 'Wash cold', type: 'textarea' },
    ]);
    expect(convert(kept)).toEqual(kept);
  });

  it('compares a yes/no or an object by the text the attribute keeps', () => {
    expect(
      asMagentoKeeps('textarea')([
        { namespace: 'shopify.custom', key: 'eco', value: 'true', type: 'boolean' },
      ]),
    ).toEqual([{ namespace: 'magento', key: 'custom_eco', value: 'true', type: 'textarea' }]);
  });

  it('leaves a list it would write as comma-separated text as it was', () => {
    const list = [{ namespace: 'woocommerce', key: 'tags', value: '["a","b"]', type: 'json' }];
    expect(asMagentoKeeps('textarea')(list)).toEqual(list);
  });

  it('makes every attribute store-wide, by its code', () => {
    expect(asStoreWide([{ name: 'Fabric Type', shared: null }])).toEqual([
      { name: 'Fabric Type', shared: { slug: 'fabric_type' } },
    ]);
  });

  it('folds only the settings Magento keeps alike', () => {
    expect(displayTypeKept('default')).toBe('products');
    expect(displayTypeKept('subcategories')).toBe('subcategories');
    expect(statusKept('private')).toBe('draft');
    expect(statusKept('active')).toBe('active');
  });
});
