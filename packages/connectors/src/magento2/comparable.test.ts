import { describe, expect, it } from 'vitest';
import {
  addressEmailKept,
  asMagentoKeeps,
  asStoreWide,
  displayTypeKept,
  lineMetaKept,
  lineSkuKept,
  paymentMethodKept,
  productMetafieldsKept,
  statusKept,
  variantMetafieldsKept,
  variantTaxClassKept,
  weightKept,
} from './comparable.ts';
import { NO_SKU } from './order-values.ts';

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

  it('keeps a list as the JSON text it was, and tells a changed text apart', () => {
    const list = [{ namespace: 'woocommerce', key: 'tags', value: '["a","b"]', type: 'json' }];
    const kept = [
      { namespace: 'magento', key: 'woocommerce_tags', value: '["a","b"]', type: 'textarea' },
    ];
    expect(asMagentoKeeps('textarea')(list)).toEqual(kept);
    const joined = [{ ...kept[0], value: 'a,b' }];
    expect(asMagentoKeeps('textarea')(joined)).not.toEqual(asMagentoKeeps('textarea')(list));
  });

  const field = (namespace: string, key: string, value: string) => ({
    namespace,
    key,
    value,
    type: 'string',
  });

  it('keeps the fields of a single variant on the product, and misses one that is lost', () => {
    const source = {
      type: 'simple',
      metafields: [field('shopify.custom', 'material', 'wool')],
      variants: [{ metafields: [field('shopify.custom', 'fabric', 'F-1')] }],
    };
    const kept = {
      type: 'simple',
      metafields: [
        { namespace: 'magento', key: 'custom_fabric', value: 'F-1', type: 'textarea' },
        { namespace: 'magento', key: 'custom_material', value: 'wool', type: 'textarea' },
      ],
      variants: [{ metafields: [] }],
    };
    const form = (r: typeof source | typeof kept) => ({
      metafields: productMetafieldsKept(r.metafields, r),
      variant: variantMetafieldsKept(r.variants[0]?.metafields, r),
    });
    expect(form(kept)).toEqual(form(source));
    const lost = { ...kept, metafields: kept.metafields.slice(1) };
    expect(form(lost)).not.toEqual(form(source));
  });

  it('keeps the fields of each variant of a configurable product on its child', () => {
    const record = {
      type: 'variable',
      variants: [
        { metafields: [field('shopify.custom', 'fabric', 'F-1')] },
        { metafields: [field('shopify.custom', 'fabric', 'F-2')] },
      ],
    };
    expect(variantMetafieldsKept(record.variants[0]?.metafields, record)).toEqual([
      { namespace: 'magento', key: 'custom_fabric', value: 'F-1', type: 'string' },
    ]);
    expect(productMetafieldsKept([], record)).toEqual([]);
  });

  it('gives a product without a weight its only variant’s, not a configurable one', () => {
    const weight = { value: 1.5, unit: 'kg' };
    expect(weightKept(null, { type: 'simple', variants: [{ weight }] })).toEqual(weight);
    expect(weightKept(null, { type: 'simple', variants: [{ weight: null }] })).toBeNull();
    expect(weightKept(null, { type: 'variable', variants: [{ weight }] })).toBeNull();
    expect(weightKept(null, { type: 'simple', variants: [{ weight }, { weight }] })).toBeNull();
    const own = { value: 2, unit: 'kg' };
    expect(weightKept(own, { type: 'simple', variants: [{ weight }] })).toEqual(own);
  });

  it("treats a variant naming its product's tax class as following it, not another class", () => {
    expect(variantTaxClassKept('', { taxClass: '' })).toBeNull();
    expect(variantTaxClassKept(null, { taxClass: '' })).toBeNull();
    expect(variantTaxClassKept('reduced-rate', { taxClass: '' })).toBe('reduced-rate');
    expect(variantTaxClassKept('', { taxClass: 'reduced-rate' })).toBe('');
  });

  it('compares payment methods by the Magento method they are written with', () => {
    expect(paymentMethodKept('bacs')).toBe('banktransfer');
    expect(paymentMethodKept('banktransfer')).toBe('banktransfer');
    expect(paymentMethodKept('cod')).toBe('cashondelivery');
    expect(paymentMethodKept('stripe')).toBe('checkmo');
    expect(paymentMethodKept('')).toBe('checkmo');
    expect(paymentMethodKept('purchaseorder')).toBe('purchaseorder');
    expect(paymentMethodKept('bacs')).not.toBe(paymentMethodKept('cod'));
    expect(paymentMethodKept('toString')).toBe('checkmo');
  });

  it("fills only an empty order address e-mail with the order's", () => {
    const order = { email: 'ana@example.com' };
    expect(addressEmailKept('', order)).toBe('ana@example.com');
    expect(addressEmailKept('ana@example.com', order)).toBe('ana@example.com');
    expect(addressEmailKept('other@example.com', order)).toBe('other@example.com');
  });

  it('maps only an empty line SKU to the one Magento requires', () => {
    expect(lineSkuKept('')).toBe(NO_SKU);
    expect(lineSkuKept('TEE-1')).toBe('TEE-1');
    expect(lineSkuKept('TEE-1')).not.toBe(lineSkuKept('Tee'));
  });

  it("compares a line's entries as the description Magento keeps, and tells a lost one apart", () => {
    const source = [
      { key: 'Engraving', value: 'J.S.' },
      { key: 'pa_size', value: 's' },
    ];
    const kept = [{ key: 'description', value: 'Engraving: J.S.\npa_size: s' }];
    expect(lineMetaKept(source)).toEqual(kept);
    expect(lineMetaKept(kept)).toEqual(kept);
    expect(lineMetaKept([])).toEqual([]);
    expect(lineMetaKept([{ key: 'description', value: 'Engraving: J.S.' }])).not.toEqual(
      lineMetaKept(source),
    );
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
