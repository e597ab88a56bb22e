import { describe, expect, it } from 'vitest';
import { UsageError, displayAddress, parseArgs, platformFlag, sideCredentials } from './args.ts';

describe('CLI arguments', () => {
  it('reads commands, values, repeated and boolean options', () => {
    const parsed = parseArgs([
      'migrate',
      '--from',
      'woocommerce',
      '--from-url=https://shop.example.com',
      '--allow',
      'http://127.0.0.1:1',
      '--allow',
      'http://127.0.0.1:2',
      '--no-verify',
    ]);
    expect(parsed.command).toBe('migrate');
    expect(parsed.flags.get('allow')).toEqual(['http://127.0.0.1:1', 'http://127.0.0.1:2']);
    expect(parsed.booleans.has('no-verify')).toBe(true);
    expect(platformFlag(parsed, 'from')).toBe('woocommerce');
    expect(() => platformFlag(parsed, 'to')).toThrow(UsageError);
    expect(() => parseArgs(['migrate', '--from'])).toThrow(/needs a value/);
    expect(() => parseArgs(['migrate', '--from', 'a', '--from', 'b'])).toThrow(/twice/);
    expect(platformFlag(parseArgs(['x', '--to', 'magento']), 'to')).toBe('magento2');
  });

  it('builds credentials from flags and environment variables, flags first', () => {
    const parsed = parseArgs([
      'migrate',
      '--from-url',
      'https://user:pw@shop.example.com/',
      '--from-consumer-key',
      'ck_flag',
      '--to-url',
      'abc123',
    ]);
    const env = {
      REPLATFORM_FROM_CONSUMER_KEY: 'ck_env',
      REPLATFORM_FROM_CONSUMER_SECRET: 'cs_env',
      REPLATFORM_TO_ACCESS_TOKEN: 'token',
      OTHER: 'x',
    };
    const from = sideCredentials(parsed, 'from', 'woocommerce', env);
    expect(from).toEqual({
      storeUrl: 'https://user:pw@shop.example.com/',
      consumerKey: 'ck_flag',
      consumerSecret: 'cs_env',
    });
    expect(sideCredentials(parsed, 'to', 'bigcommerce', env)).toEqual({
      storeHash: 'abc123',
      accessToken: 'token',
    });
    // Shown without the user name and password an address might carry.
    expect(displayAddress(from, 'woocommerce')).toBe('https://shop.example.com');
  });
});
