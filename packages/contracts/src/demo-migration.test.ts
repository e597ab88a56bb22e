import { describe, expect, it } from 'vitest';
import { adminRecordUrl } from './demo-migration.ts';

describe('links to a migrated record in the destination admin', () => {
  it('point into WordPress and Shopify admin pages, under a store kept in a folder too', () => {
    expect(adminRecordUrl('woocommerce', 'https://shop.example/', 'products', '41')).toBe(
      'https://shop.example/wp-admin/post.php?post=41&action=edit',
    );
    expect(adminRecordUrl('woocommerce', 'https://example.org/store', 'orders', '7')).toBe(
      'https://example.org/store/wp-admin/admin.php?page=wc-orders&action=edit&id=7',
    );
    expect(adminRecordUrl('woocommerce', 'https://shop.example', 'reviews', '3')).toBe(
      'https://shop.example/wp-admin/comment.php?action=editcomment&c=3',
    );
    expect(
      adminRecordUrl('shopify', 'https://a.myshopify.com', 'products', 'gid://shopify/Product/42'),
    ).toBe('https://a.myshopify.com/admin/products/42');
    expect(adminRecordUrl('shopify', 'a.myshopify.com', 'orders', 'gid://shopify/Order/9')).toBe(
      'https://a.myshopify.com/admin/orders/9',
    );
    expect(adminRecordUrl('shopify', 'https://a.myshopify.com', 'reviews', '42:r7')).toBe(
      'https://a.myshopify.com/admin/products/42',
    );
  });

  it('are none where the admin address cannot be told, or nothing was written', () => {
    expect(adminRecordUrl('bigcommerce', 'https://api.bigcommerce.com', 'products', '1')).toBe(
      null,
    );
    expect(adminRecordUrl('magento2', 'https://m.example', 'products', '1')).toBe(null);
    expect(adminRecordUrl('woocommerce', 'https://shop.example', 'products', null)).toBe(null);
    expect(adminRecordUrl('woocommerce', 'javascript:alert(1)', 'products', '1')).toBe(null);
    expect(adminRecordUrl('woocommerce', 'https://shop.example', 'products', '1&x=<b>')).toBe(
      'https://shop.example/wp-admin/post.php?post=1%26x%3D%3Cb%3E&action=edit',
    );
  });
});
