import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../app.ts';
import { createTestApp } from '../testing/test-app.ts';
import { linkIn, startSmtpCatcher } from './smtp-catcher.ts';

describe('sign-up and password reset mail through a real SMTP server (integration)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  let app: App;
  let close: () => Promise<void>;

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    ({ app, close } = await createTestApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Replatform <support@replatform.test>',
      PUBLIC_URL: 'https://replatform.test',
    }));
  });
  afterAll(async () => {
    await close();
    await smtp.close();
  });

  const post = (url: string, body: unknown, cookie?: string) =>
    app.inject({
      method: 'POST',
      url,
      headers: {
        origin: 'https://replatform.test',
        'content-type': 'application/json',
        ...(cookie ? { cookie } : {}),
      },
      payload: JSON.stringify(body),
    });

  it('sends a single-use link to PUBLIC_URL, and nothing for unknown addresses', async () => {
    const signUp = await post('/api/auth/sign-up/email', {
      name: 'Mail Reader',
      email: 'reader@example.com',
      password: 'first password 1',
    });
    expect(signUp.statusCode).toBe(200);
    const confirm = await smtp.waitFor('reader@example.com', 10_000, /Subject: Confirm/);
    const confirmLink = linkIn(confirm, 'https://replatform.test/confirm-email?token=');
    const confirmed = await app.inject({
      method: 'GET',
      url: `/api/auth/verify-email?token=${new URL(confirmLink).searchParams.get('token') ?? ''}`,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // Behind https the session cookie is Secure (and __Secure- prefixed).
    expect([confirmed.headers['set-cookie']].flat().join('\n')).toMatch(
      /__Secure-replatform\.session_token=.*Secure/i,
    );

    await post('/api/auth/request-password-reset', { email: 'nobody@example.com' });
    await post('/api/auth/request-password-reset', { email: 'Reader@Example.com' });
    const mail = await smtp.waitFor('reader@example.com', 10_000, /Subject: Reset/);
    expect(mail.from).toBe('support@replatform.test');
    expect(mail.raw).toMatch(/Subject: Reset your Replatform password/);
    expect(smtp.mails.some((m) => m.to.includes('nobody@example.com'))).toBe(false);

    const link = linkIn(mail, 'https://replatform.test/login?mode=reset&token=');
    const token = new URL(link).searchParams.get('token');
    const reset = await post('/api/auth/reset-password', {
      token,
      newPassword: 'second password 2',
    });
    expect(reset.statusCode).toBe(200);
    const again = await post('/api/auth/reset-password', {
      token,
      newPassword: 'third password 3',
    });
    expect(again.statusCode).toBe(400);
    const signIn = await post('/api/auth/sign-in/email', {
      email: 'reader@example.com',
      password: 'second password 2',
    });
    expect(signIn.statusCode).toBe(200);
  });
});
