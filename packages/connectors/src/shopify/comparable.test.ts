import { describe, expect, it } from 'vitest';
import { shopifyComparable } from './comparable.ts';

const text = (namespace: string, key: string, value: string, type = 'string') => ({
  namespace,
  key,
  value,
  type,
});

describe('the form a Shopify destination keeps converted fields in', () => {
  it('keeps another platform’s custom field under a Shopify namespace, as it reads it back', () => {
    const convert = shopifyComparable.products.metafields;
    const source = [text('woocommerce', 'care', 'Wash cold')];
    const kept = convert?.(source, {});
    expect(kept).toEqual([
      text('shopify.woocommerce', 'care', 'Wash cold', 'single_line_text_field'),
    ]);
    // What the destination answers is already in that form.
    expect(convert?.(kept, {})).toEqual(kept);
  });

  it('leaves a field Shopify does not store as it was, so it still differs', () => {
    const empty = [text('woocommerce', 'empty', '')];
    expect(shopifyComparable.products.metafields?.(empty, {})).toEqual(empty);
  });

  it('drops only the values Shopify gives a record written without them', () => {
    const convert = shopifyComparable.categories.metafields;
    expect(convert?.([text('shopify', 'sort_order', 'MANUAL')], {})).toEqual([]);
    const chosen = [text('shopify', 'sort_order', 'BEST_SELLING')];
    expect(convert?.(chosen, {})).toEqual(chosen);
  });

  it('gives a variant without a weight the product’s, and keeps a product weight no variant holds', () => {
    const kg = (value: number) => ({ value, unit: 'kg' });
    const { weight, 'variants.weight': variantWeight } = shopifyComparable.products;
    expect(variantWeight?.(null, { weight: kg(2) })).toEqual(kg(2));
    expect(
      weight?.(kg(2), { weight: kg(2), variants: [{ weight: kg(2) }, { weight: kg(3) }] }),
    ).toBeNull();
    expect(weight?.(kg(2), { weight: kg(2), variants: [{ weight: kg(3) }] })).toEqual(kg(2));
  });

  it('makes the default shipping address (else the billing one) the one default address', () => {
    const addresses = shopifyComparable.customers.addresses?.(
      [
        { city: 'A', isDefaultBilling: true, isDefaultShipping: false },
        { city: 'B', isDefaultBilling: false, isDefaultShipping: true },
      ],
      {},
    );
    expect(addresses).toEqual([
      { city: 'A', isDefaultBilling: false, isDefaultShipping: false },
      { city: 'B', isDefaultBilling: true, isDefaultShipping: true },
    ]);
  });
});
