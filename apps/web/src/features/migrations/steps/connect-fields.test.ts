import { describe, expect, it } from 'vitest';
import { canVerify, failureText, shopDomainOf } from './connect-fields.ts';

describe('connect step rules', () => {
  it('takes the WordPress user and application password as an optional pair', () => {
    const keys = { sourceStoreUrl: 'https://a.com', consumerKey: 'ck', consumerSecret: 'cs' };
    expect(
      canVerify('woocommerce', {
        ...keys,
        wordpressUser: 'admin',
        wordpressApplicationPassword: 'abcd efgh ijkl mnop qrst uvwx',
      }),
    ).toBe(true);
    expect(canVerify('woocommerce', { ...keys, wordpressUser: 'admin' })).toBe(false);
    expect(canVerify('woocommerce', { ...keys, wordpressApplicationPassword: 'abcd' })).toBe(false);
  });

  it('enables verify only with every field of the platform', () => {
    expect(
      canVerify('woocommerce', {
        sourceStoreUrl: 'https://a.com',
        consumerKey: 'ck',
        consumerSecret: 'cs',
      }),
    ).toBe(true);
    expect(
      canVerify('woocommerce', {
        sourceStoreUrl: 'https://a.com',
        consumerKey: 'ck',
        consumerSecret: ' ',
      }),
    ).toBe(false);
    expect(
      canVerify('magento2', {
        sourceStoreUrl: 'https://a.com',
        consumerKey: 'a',
        consumerSecret: 'b',
        accessToken: 'c',
      }),
    ).toBe(false);
    expect(
      canVerify('magento2', {
        sourceStoreUrl: 'https://a.com',
        consumerKey: 'a',
        consumerSecret: 'b',
        accessToken: 'c',
        accessTokenSecret: 'd',
      }),
    ).toBe(true);
    expect(canVerify('bigcommerce', { storeHash: 'abc', accessToken: 't' })).toBe(true);
    expect(canVerify('bigcommerce', { accessToken: 't' })).toBe(false);
  });

  it('uses the failure texts of spec.md section 8', () => {
    expect(failureText('source', 'magento2')).toBe(
      'Failed to verify connection. Please check your credentials.',
    );
    expect(failureText('destination', 'magento2')).toBe(
      'Failed to verify Magento connection. Please check your credentials.',
    );
    expect(failureText('destination', 'woocommerce')).toBe(
      'Failed to verify WooCommerce connection. Please check your credentials.',
    );
  });

  it('reduces a Shopify address to its host', () => {
    expect(shopDomainOf(' https://My-Shop.myshopify.com/admin ')).toBe('my-shop.myshopify.com');
  });
});
