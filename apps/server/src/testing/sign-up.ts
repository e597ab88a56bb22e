import type { App } from '../app.ts';
import { readOutbox } from '../auth/mailer.ts';

/** The Origin our tests send: PUBLIC_URL's default, so the cross-site check lets them through. */
export const testOrigin = 'http://localhost:4001';

/** `name=value` pairs of a response's Set-Cookie headers, ready to send back as a Cookie header. */
export function cookieOf(setCookie: string | string[] | number | undefined): string {
  return [setCookie]
    .flat()
    .filter((c): c is string => typeof c === 'string' && c.length > 0)
    .map((c) => c.split(';')[0])
    .join('; ');
}

/**
 * The token of the newest confirmation link mailed to `email` (mail leaves in the background, so
 * this waits for it a little).
 */
export async function confirmationToken(app: App, email: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    for (const mail of await readOutbox(app.services.db, email)) {
      const token = /\/confirm-email\?token=([^\s"&<]+)/.exec(mail.text)?.[1];
      if (token) return decodeURIComponent(token);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no confirmation link was mailed to ${email}`);
}

/**
 * Opens the confirmation link mailed to `email` as our /confirm-email page does, and answers the
 * session cookie it signs in with.
 */
export async function confirmAddress(app: App, email: string): Promise<string> {
  const token = await confirmationToken(app, email);
  const res = await app.inject({
    method: 'GET',
    url: `/api/auth/verify-email?token=${encodeURIComponent(token)}`,
    headers: { origin: testOrigin },
  });
  if (res.statusCode !== 200)
    throw new Error(`confirming ${email} answered ${res.statusCode}: ${res.body}`);
  return cookieOf(res.headers['set-cookie']);
}

/**
 * Creates an account through better-auth's sign-up endpoint, confirms its address through the
 * mailed link, and answers the session cookie.
 */
export async function signUp(
  app: App,
  email: string,
  password = 'correct horse battery staple',
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: { origin: testOrigin, 'content-type': 'application/json' },
    payload: { email, password, name: email.split('@')[0] },
  });
  if (res.statusCode !== 200)
    throw new Error(`sign-up of ${email} answered ${res.statusCode}: ${res.body}`);
  return confirmAddress(app, email);
}
