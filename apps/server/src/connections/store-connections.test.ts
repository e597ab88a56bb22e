import { describe, expect, it } from 'vitest';
import { ConnectorError } from '@replatform/connectors/kit/errors';
import { bigCommerceStoreHash } from '@replatform/connectors/bigcommerce/store-hash';
import { connectionFailure, connectorCredentials } from './store-connections.ts';

describe('store connection failures', () => {
  it('answers every store failure with a 4xx the owner can act on', () => {
    const config = connectionFailure(
      new ConnectorError('config', 'auth_failed', 'The consumer key was refused.'),
    );
    expect([config.statusCode, config.code, config.message]).toEqual([
      400,
      'verification_failed',
      'The consumer key was refused.',
    ]);
    const transient = connectionFailure(new ConnectorError('transient', 'timeout', 'slow'));
    expect([transient.statusCode, transient.code]).toEqual([424, 'store_unreachable']);
    expect(transient.message).toBe('The store did not answer in time. Please try again.');
    const garbled = connectionFailure(new ConnectorError('system', 'invalid_json', 'html'));
    expect([garbled.statusCode, garbled.code]).toEqual([424, 'verification_failed']);
    // Internals of an unexpected error never reach the answer.
    const unexpected = connectionFailure(new Error('socket hang up at 10.0.0.5'));
    expect(unexpected.message).not.toContain('10.0.0.5');
  });

  it('reads a BigCommerce store hash from the forms owners paste', () => {
    for (const given of [
      'abc123',
      'https://api.bigcommerce.com/stores/abc123/v3/',
      'store-abc123.mybigcommerce.com',
    ]) {
      expect(
        connectorCredentials('bigcommerce', { sourceStoreUrl: given, accessToken: 't' }),
      ).toEqual({ storeHash: 'abc123', accessToken: 't' });
    }
    expect(bigCommerceStoreHash('https://evil.example.com/stores/abc123/v3/')).toBeUndefined();
  });
});
