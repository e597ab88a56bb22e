import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../config.ts';
import { createStripeClient } from './stripe-client.ts';

describe('Stripe settings', () => {
  it('has no client without a secret key (demo payments only)', () => {
    expect(createStripeClient(parseConfig({}).stripe)).toBeUndefined();
  });

  it('refuses malformed keys and the emulator in production', () => {
    expect(() => parseConfig({ STRIPE_SECRET_KEY: 'pk_test_public' })).toThrow(ConfigError);
    expect(() => parseConfig({ STRIPE_WEBHOOK_SECRET: 'nope' })).toThrow(/whsec_/);
    expect(() => parseConfig({ STRIPE_API_BASE: 'http://127.0.0.1:12111' })).toThrow(
      /STRIPE_API_BASE: is for tests and local runs only/,
    );
    expect(
      parseConfig({ NODE_ENV: 'test', STRIPE_API_BASE: 'http://127.0.0.1:12111' }).stripe.apiBase,
    ).toBe('http://127.0.0.1:12111');
  });

  it('points the SDK at STRIPE_API_BASE and pins the API version', () => {
    const stripe = createStripeClient(
      parseConfig({
        NODE_ENV: 'development',
        STRIPE_SECRET_KEY: 'sk_test_abc',
        STRIPE_API_BASE: 'http://127.0.0.1:12111',
      }).stripe,
    );
    expect(stripe?.getApiField('host')).toBe('127.0.0.1');
    expect(stripe?.getApiField('port')).toBe(12111);
    expect(stripe?.getApiField('protocol')).toBe('http');
    expect(stripe?.getApiField('version')).toBe('2023-08-16');
    // Production (the default) also needs the public address and the webhook secret.
    const live = createStripeClient(
      parseConfig({
        STRIPE_SECRET_KEY: 'sk_live_abc',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc',
        PUBLIC_URL: 'https://replatform.example.com',
      }).stripe,
    );
    expect(live?.getApiField('host')).toBe('api.stripe.com');
  });
});
