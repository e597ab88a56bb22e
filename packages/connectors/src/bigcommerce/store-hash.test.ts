import { describe, expect, it } from 'vitest';
import { bigCommerceCredentialsSchema } from './bigcommerce-connector.ts';
import { bigCommerceStoreHash } from './store-hash.ts';

describe('bigCommerceStoreHash', () => {
  it('reads the hash from a bare hash, the API path and the control panel address', () => {
    for (const input of [
      'abc123',
      '  ABC123 ',
      'https://api.bigcommerce.com/stores/abc123/v3/',
      'https://api.bigcommerce.com/stores/abc123/v2/orders?limit=5',
      'https://api.bigcommerce.com/stores/abc123',
      'api.bigcommerce.com/stores/abc123/v3',
      'store-abc123.mybigcommerce.com',
      'https://store-abc123.mybigcommerce.com/manage/dashboard',
      'http://STORE-ABC123.mybigcommerce.com/',
    ]) {
      expect(bigCommerceStoreHash(input), input).toBe('abc123');
    }
  });

  it('finds nothing in other hosts, look-alikes or malformed text', () => {
    for (const input of [
      '',
      '   ',
      'https://shop.example.com',
      'https://api.bigcommerce.com.evil.example/stores/abc123/v3',
      'https://evil.example/?u=https://api.bigcommerce.com/stores/abc123',
      'https://api.bigcommerce.com/v3/stores/abc123',
      'https://api.bigcommerce.com/stores/abc.evil/v3',
      'https://api.bigcommerce.com/stores/abc%2F..%2Fx/v3',
      'https://store-abc_123.mybigcommerce.com',
      'store-abc123.mybigcommerce.com.evil.example',
      'ftp://store-abc123.mybigcommerce.com',
      'abc-123',
      'http://[::1]/stores/abc123',
    ]) {
      expect(bigCommerceStoreHash(input), input).toBeUndefined();
    }
  });

  it('gives what the credentials schema accepts', () => {
    const storeHash = bigCommerceStoreHash('https://api.bigcommerce.com/stores/z9y8x7/v3/');
    expect(
      bigCommerceCredentialsSchema.safeParse({ storeHash, accessToken: 'token' }).success,
    ).toBe(true);
  });
});
