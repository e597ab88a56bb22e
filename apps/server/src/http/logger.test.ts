import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './logger.ts';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { log: pino(loggerOptions('info'), stream), text: () => lines.join('') };
}

describe('log redaction', () => {
  it('censors authorization headers, cookies, passwords, secrets and tokens wherever they sit', () => {
    const { log, text } = capture();
    log.info(
      {
        headers: {
          authorization: 'Bearer live-bearer-value',
          cookie: 'replatform.session=cookie-value',
        },
        password: 'plain-password-value',
        body: { currentPassword: 'current-password-value', newPassword: 'new-password-value' },
        store: { consumerSecret: 'cs_consumer_secret_value', accessToken: 'shpat_token_value' },
        error: { details: { token: 'reset-token-value' } },
        exchange: { answer: { access_token: 'oauth-access-token-value' } },
        outbound: { headers: { 'x-auth-token': 'bc-token-value' } },
        res: { headers: { 'set-cookie': 'replatform.session=set-cookie-value' } },
      },
      'something happened',
    );
    const out = text();
    for (const secret of [
      'live-bearer-value',
      'cookie-value',
      'plain-password-value',
      'current-password-value',
      'new-password-value',
      'cs_consumer_secret_value',
      'shpat_token_value',
      'reset-token-value',
      'oauth-access-token-value',
      'bc-token-value',
      'set-cookie-value',
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('[redacted]');
    expect(out).toContain('something happened');
  });

  it('logs request paths without their query strings', () => {
    const { log, text } = capture();
    log.info(
      { req: { id: 'r1', method: 'GET', url: '/api/shopify/callback?code=secret-code&hmac=abc' } },
      'request',
    );
    const out = text();
    expect(out).toContain('/api/shopify/callback');
    expect(out).not.toContain('secret-code');
  });
});
