import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../config.ts';

describe('auth settings in the configuration', () => {
  it('offers Google only when both the client id and secret are set', () => {
    expect(parseConfig({}).auth.google).toBeUndefined();
    expect(parseConfig({ GOOGLE_CLIENT_ID: 'id' }).auth.google).toBeUndefined();
    expect(
      parseConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' }).auth.google,
    ).toEqual({ clientId: 'id', clientSecret: 'secret', issuer: 'https://accounts.google.com' });
    expect(
      parseConfig({
        GOOGLE_CLIENT_ID: 'id',
        GOOGLE_CLIENT_SECRET: 'secret',
        GOOGLE_ISSUER: 'http://127.0.0.1:9000/',
      }).auth.google?.issuer,
    ).toBe('http://127.0.0.1:9000');
  });

  it('refuses a short AUTH_SECRET and a non-SMTP mail URL', () => {
    expect(() => parseConfig({ AUTH_SECRET: 'short' })).toThrow(ConfigError);
    expect(() => parseConfig({ SMTP_URL: 'https://mail.example.com' })).toThrow(/SMTP_URL/);
    expect(parseConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465' }).auth.smtpUrl).toBe(
      'smtps://u:p@mail.example.com:465',
    );
  });

  it('keeps demo accounts for a day unless told otherwise', () => {
    expect(parseConfig({}).auth.demoAccountTtlHours).toBe(24);
    expect(parseConfig({ DEMO_ACCOUNT_TTL_HOURS: '2' }).auth.demoAccountTtlHours).toBe(2);
  });
});
