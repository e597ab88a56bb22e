import { describe, expect, it } from 'vitest';
import { initialSelection, unavailableReason } from './select-data-step.tsx';

const pair = { sourceStore: 'woocommerce', destinationStore: 'shopify' } as const;

describe('the Select Data cards at first', () => {
  it('select every type while the owner has saved no choice', () => {
    expect(initialSelection({ ...pair, dataTypes: {} })).toEqual({
      products: true,
      customers: true,
      orders: true,
      coupons: true,
      reviews: true,
      // Shopify keeps no brand records: off, with its reason.
      brands: false,
    });
    expect(
      initialSelection({ sourceStore: 'shopify', destinationStore: 'woocommerce', dataTypes: {} })
        .brands,
    ).toBe(true);
  });

  it('show the saved choice once there is one, even when it deselects everything', () => {
    expect(
      initialSelection({
        ...pair,
        dataTypes: {
          products: true,
          customers: false,
          orders: false,
          coupons: true,
          reviews: true,
        },
      }),
    ).toEqual({
      products: true,
      customers: false,
      orders: false,
      coupons: true,
      reviews: true,
      brands: false,
    });
    expect(
      initialSelection({
        ...pair,
        dataTypes: { products: false, customers: false, orders: false },
      }),
    ).toEqual({
      products: false,
      customers: false,
      orders: false,
      coupons: false,
      reviews: false,
      brands: false,
    });
  });

  it('leave coupons, reviews and brands off in a choice saved before they could be chosen', () => {
    expect(
      initialSelection({ ...pair, dataTypes: { products: true, customers: true, orders: true } }),
    ).toEqual({
      products: true,
      customers: true,
      orders: true,
      coupons: false,
      reviews: false,
      brands: false,
    });
  });

  it('leave a type off, with the reason, where one of the stores cannot hold it', () => {
    const toMagento = { sourceStore: 'woocommerce', destinationStore: 'magento2' } as const;
    expect(initialSelection({ ...toMagento, dataTypes: {} }).reviews).toBe(false);
    expect(initialSelection({ ...toMagento, dataTypes: { reviews: true } }).reviews).toBe(false);
    expect(unavailableReason(toMagento, 'reviews')).toMatch(
      /Magento 2's web API has no product reviews/,
    );
    expect(
      unavailableReason(
        { ...toMagento, sourceStore: 'magento2', destinationStore: 'woocommerce' },
        'reviews',
      ),
    ).toMatch(/Magento/);
    expect(unavailableReason(pair, 'reviews')).toBeNull();
    expect(unavailableReason(toMagento, 'coupons')).toBeNull();
    expect(unavailableReason(pair, 'brands')).toMatch(/Shopify has no brand records/);
    expect(
      unavailableReason({ sourceStore: 'shopify', destinationStore: 'bigcommerce' }, 'brands'),
    ).toBeNull();
  });
});
