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

  it("counts once a line's chosen option shown from the variant and named as a slug by the source", () => {
    const convert = shopifyComparable.orders['lines.meta'];
    const entry = (key: string, value: string) => ({ key, value });
    const source = [entry('pa_color', 'navy-blue'), entry('Engraving', 'Ana')];
    // Read back: the variant's options first, then the properties written from the source.
    const destination = [
      entry('Color', 'Navy Blue'),
      entry('Size', 'S'),
      entry('pa_color', 'navy-blue'),
      entry('Engraving', 'Ana'),
    ];
    expect(convert?.(destination, {})).toEqual([entry('Size', 'S'), ...source]);
    expect(convert?.(source, {})).toEqual(source);
    // Other values of the same option, and entries exactly alike, all stay.
    const different = [entry('Color', 'Red'), entry('pa_color', 'navy-blue'), entry('k', 'v')];
    expect(convert?.([...different, entry('k', 'v')], {})).toEqual([...different, entry('k', 'v')]);
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

  describe('orders: the one discount Shopify keeps', () => {
    const usd = (amount: number) => ({ amount, currency: 'USD' });
    const line = (unit: number, quantity: number, total: number) => ({
      unitPrice: usd(unit),
      quantity,
      total: usd(total),
    });
    const credit = { name: 'Loyalty credit', amount: usd(-300) };
    const wrap = { name: 'Gift wrap', amount: usd(400) };
    /** The comparable form of an order, with each order conversion applied in turn. */
    function form(order: Record<string, unknown>): Record<string, unknown> {
      const out: Record<string, unknown> = structuredClone(order);
      for (const [path, convert] of Object.entries(shopifyComparable.orders))
        if (path !== 'metafields' && path in out) out[path] = convert(out[path], out);
      return out;
    }
    // A coupon spread over the lines, a credit and a fee, as WooCommerce or Magento have them.
    const source = {
      currency: 'USD',
      lines: [line(1000, 2, 1800)],
      discounts: [{ code: 'SAVE2', amount: usd(200) }],
      fees: [wrap, credit],
      discountTotal: usd(200),
      feeTotal: usd(100),
    };
    // As Shopify keeps it: full line prices, one discount with the credit in it, the fee a line.
    const kept = {
      currency: 'USD',
      lines: [line(1000, 2, 2000)],
      discounts: [{ code: 'SAVE2 + Loyalty credit', amount: usd(500) }],
      fees: [wrap],
      discountTotal: usd(500),
      feeTotal: usd(400),
    };

    it('compares equal when the discount, the credit and the fee are kept', () => {
      expect(form(source)).toEqual(form(kept));
      expect(form(kept)).toEqual(kept);
    });

    it('still differs when the credit or the coupon is lost or counted twice', () => {
      expect(form({ ...kept, discounts: [{ code: 'SAVE2', amount: usd(200) }] })).not.toEqual(
        form(source),
      );
      expect(
        form({ ...kept, discounts: [{ code: 'SAVE2 + Loyalty credit', amount: usd(700) }] }),
      ).not.toEqual(form(source));
      expect(form({ ...kept, fees: [] })).not.toEqual(form(source));
      expect(form({ ...kept, lines: [line(1000, 1, 1000)] })).not.toEqual(form(source));
    });

    it('names a discount without a code as Shopify must (DISCOUNT), and only that one', () => {
      const uncoded = { ...source, discounts: [{ code: '', amount: usd(200) }], fees: [] };
      expect(form(uncoded).discounts).toEqual([{ code: 'DISCOUNT', amount: usd(200) }]);
      expect(
        form({ ...uncoded, discounts: [{ code: 'OTHER', amount: usd(200) }] }).discounts,
      ).not.toEqual(form(uncoded).discounts);
    });
  });
});
