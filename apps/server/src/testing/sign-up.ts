import type { App } from '../app.ts';

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

/** Creates an account through better-auth's sign-up endpoint and answers its session cookie. */
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
  return cookieOf(res.headers['set-cookie']);
}
