import { describe, expect, it } from 'vitest';
import { initialSelection, unavailableReason } from './select-data-step.tsx';

// A WooCommerce store connected with a WordPress application password (shown masked).
const pair = {
  sourceStore: 'woocommerce',
  destinationStore: 'shopify',
  wordpressApplicationPassword: '••••••uvwx',
} as const;

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
      pages: true,
      posts: true,
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
      pages: false,
      posts: false,
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
      pages: false,
      posts: false,
    });
  });

  it('leave the types added since off in a choice saved before they could be chosen', () => {
    expect(
      initialSelection({ ...pair, dataTypes: { products: true, customers: true, orders: true } }),
    ).toEqual({
      products: true,
      customers: true,
      orders: true,
      coupons: false,
      reviews: false,
      brands: false,
      pages: false,
      posts: false,
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

  it('leave pages and posts off, with what to do, for a WooCommerce store connected without WordPress access', () => {
    const keysOnly = { sourceStore: 'woocommerce', destinationStore: 'bigcommerce' } as const;
    expect(initialSelection({ ...keysOnly, dataTypes: {} })).toMatchObject({
      products: true,
      pages: false,
      posts: false,
    });
    expect(unavailableReason(keysOnly, 'pages')).toMatch(
      /source WooCommerce store was connected without a WordPress application password/,
    );
    expect(
      unavailableReason({ sourceStore: 'bigcommerce', destinationStore: 'woocommerce' }, 'posts'),
    ).toMatch(/destination WooCommerce store/);
    expect(
      unavailableReason(
        {
          sourceStore: 'bigcommerce',
          destinationStore: 'woocommerce',
          destinationWordpressApplicationPassword: '••••••uvwx',
        },
        'posts',
      ),
    ).toBeNull();
    expect(unavailableReason({ ...pair, destinationStore: 'magento2' }, 'posts')).toMatch(
      /Core Magento 2 has no blog/,
    );
    expect(unavailableReason({ ...pair, destinationStore: 'magento2' }, 'pages')).toBeNull();
  });
});
