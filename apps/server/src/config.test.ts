import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from './config.ts';

describe('configuration', () => {
  it('has working defaults for the embedded setup', () => {
    const config = parseConfig({});
    expect(config.port).toBe(4001);
    expect(config.host).toBe('127.0.0.1');
    expect(config.publicUrl).toBe('http://localhost:4001');
    expect(config.sqlitePath).toMatch(/data[/\\]replatform\.sqlite$/);
    expect(config.databaseUrl).toBeUndefined();
  });

  it('lists every problem at once', () => {
    try {
      parseConfig({
        PORT: 'abc',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
        PUBLIC_URL: 'ftp://x',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/PORT/);
      expect(problems).toMatch(/DATABASE_URL/);
      expect(problems).toMatch(/LOG_LEVEL/);
      expect(problems).toMatch(/PUBLIC_URL/);
    }
  });

  it('runs two migrations at once by default, and none only where no sandbox store needs it', () => {
    expect(parseConfig({}).workers).toBe(2);
    expect(parseConfig({ WORKERS: '0', SANDBOX_STORES: 'false' }).workers).toBe(0);
    expect(() => parseConfig({ WORKERS: '0' })).toThrow(
      /WORKERS: can be 0 only with SANDBOX_STORES=false/,
    );
    expect(() => parseConfig({ WORKERS: '-1' })).toThrow(/WORKERS/);
  });

  it('trusts the local server under both of its names only while PUBLIC_URL is the default', () => {
    expect(parseConfig({ PORT: '4100' }).trustedOrigins).toEqual([
      'http://localhost:4100',
      'http://127.0.0.1:4100',
    ]);
    expect(parseConfig({ PUBLIC_URL: 'https://migrate.example.com/app' }).trustedOrigins).toEqual([
      'https://migrate.example.com',
    ]);
  });

  it('treats empty values as unset and trims the public URL', () => {
    expect(parseConfig({ PORT: '', PUBLIC_URL: 'https://migrate.example.com/' }).publicUrl).toBe(
      'https://migrate.example.com',
    );
  });

  it('requires PUBLIC_URL and the webhook secret before taking real payments in production', () => {
    const problems = (env: Record<string, string>) => {
      try {
        parseConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    const key = { STRIPE_SECRET_KEY: 'sk_live_abc123' };
    const missing = problems({ NODE_ENV: 'production', ...key }).join('\n');
    expect(missing).toMatch(/PUBLIC_URL: is required with STRIPE_SECRET_KEY/);
    expect(missing).toMatch(/STRIPE_WEBHOOK_SECRET: is required with STRIPE_SECRET_KEY/);
    expect(
      problems({
        NODE_ENV: 'production',
        ...key,
        PUBLIC_URL: 'https://migrate.example.com',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      }),
    ).toEqual([]);
    // Tests and local runs may take test payments on the return path alone.
    expect(problems({ NODE_ENV: 'test', STRIPE_SECRET_KEY: 'sk_test_abc' })).toEqual([]);
  });

  it('routes emulated BigCommerce and Shopify stores only outside production', () => {
    const stores =
      'bigcommerce:abc123=http://127.0.0.1:9100,shopify:demo-1.myshopify.com=http://127.0.0.1:9200';
    expect(parseConfig({ NODE_ENV: 'test', EMULATED_STORES: stores }).emulatedStores).toEqual([
      { platform: 'bigcommerce', key: 'abc123', origin: 'http://127.0.0.1:9100' },
      { platform: 'shopify', key: 'demo-1.myshopify.com', origin: 'http://127.0.0.1:9200' },
    ]);
    const refused = (env: Record<string, string>) => {
      try {
        parseConfig(env);
        return '';
      } catch (error) {
        return (error as ConfigError).problems.join('\n');
      }
    };
    expect(refused({ NODE_ENV: 'production', EMULATED_STORES: stores })).toMatch(/EMULATED_STORES/);
    // Only loopback emulators: no real host can be substituted for a platform's API.
    expect(
      refused({ NODE_ENV: 'test', EMULATED_STORES: 'bigcommerce:abc=http://10.0.0.1:80' }),
    ).toMatch(/EMULATED_STORES/);
  });
});
