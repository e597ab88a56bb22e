import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@replatform/db/test-databases';
import type { App } from '../app.ts';
import { confirmationToken } from '../testing/sign-up.ts';
import { createTestApp } from '../testing/test-app.ts';
import { authLimits } from './rate-limit.ts';
import { requireUser } from './require-user.ts';

const origin = 'http://localhost:4001';
let ipCounter = 10;
/** A fresh client address per test, so the per-address limits of one test do not spill over. */
const nextIp = () => `203.0.113.${ipCounter++}`;

interface Call {
  method?: 'GET' | 'POST';
  url: string;
  body?: unknown;
  cookie?: string;
  ip?: string;
  headers?: Record<string, string>;
}

function call(app: App, c: Call) {
  return app.inject({
    method: c.method ?? (c.body === undefined ? 'GET' : 'POST'),
    url: c.url,
    remoteAddress: c.ip ?? '198.51.100.1',
    headers: {
      origin,
      ...(c.cookie ? { cookie: c.cookie } : {}),
      ...(c.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...c.headers,
    },
    ...(c.body === undefined ? {} : { payload: JSON.stringify(c.body) }),
  });
}

/** The cookie header a browser would send back after this answer. */
function cookieFrom(res: { headers: Record<string, unknown> }): string {
  const cookies = [res.headers['set-cookie']].flat().filter((c): c is string => Boolean(c));
  return cookies
    .map((c) => c.split(';')[0] ?? '')
    .filter((c) => !c.endsWith('='))
    .join('; ');
}

/** Signs up and confirms the address through the mailed link: the session cookie. */
async function signUp(app: App, email: string, password = 'correct horse 1', ip = nextIp()) {
  const res = await call(app, {
    url: '/api/auth/sign-up/email',
    body: { name: 'Ada Lovelace', email, password },
    ip,
  });
  expect(res.statusCode, res.body).toBe(200);
  const confirmed = await call(app, {
    url: `/api/auth/verify-email?token=${encodeURIComponent(await confirmationToken(app, email))}`,
    ip,
  });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return cookieFrom(confirmed);
}

async function sessionOf(app: App, cookie: string) {
  const res = await call(app, { url: '/api/auth/get-session', cookie });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    user: { id: string; email: string; name: string; isDemo: boolean };
  } | null;
}

async function latestMail(app: App, to: string, subject?: RegExp) {
  // Mail leaves in the background so answers do not reveal whether it was sent.
  for (let i = 0; i < 50; i++) {
    const res = await call(app, { url: `/api/dev/outbox?to=${encodeURIComponent(to)}` });
    const { mails } = res.json() as { mails: Array<{ subject: string; text: string }> };
    const found = mails.find((m) => !subject || subject.test(m.subject));
    if (found) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
  return undefined;
}

describe('a proxy on this machine without TRUST_PROXY', () => {
  it('is warned about once, when requests with X-Forwarded-For arrive from a loopback peer', async () => {
    let logged = '';
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        logged += String(chunk);
        done();
      },
    });
    const { app, close } = await createTestApp({ LOG_LEVEL: 'warn' }, 'sqlite', { logStream });
    try {
      const warnings = () => logged.split('\n').filter((l) => l.includes('TRUST_PROXY is off'));
      await call(app, {
        url: '/healthz',
        ip: '198.51.100.9',
        headers: { 'x-forwarded-for': '1.2.3.4' },
      });
      await call(app, { url: '/healthz', ip: '127.0.0.1' });
      expect(warnings()).toHaveLength(0);
      await call(app, {
        url: '/healthz',
        ip: '127.0.0.1',
        headers: { 'x-forwarded-for': '192.0.2.1' },
      });
      await call(app, { url: '/healthz', ip: '::1', headers: { 'x-forwarded-for': '192.0.2.2' } });
      expect(warnings()).toHaveLength(1);
      expect(JSON.parse(warnings()[0] ?? '{}')).toMatchObject({ level: 40 });
    } finally {
      await close();
    }
    const trusted = await createTestApp({ LOG_LEVEL: 'warn', TRUST_PROXY: 'true' }, 'sqlite', {
      logStream,
    });
    logged = '';
    await call(trusted.app, {
      url: '/healthz',
      ip: '127.0.0.1',
      headers: { 'x-forwarded-for': '192.0.2.1' },
    });
    await trusted.close();
    expect(logged).not.toContain('TRUST_PROXY is off');
  });
});

describe.each(testDialects())('accounts and sessions on %s', (dialect) => {
  let app: App;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ app, close } = await createTestApp({}, dialect));
    app.get('/api/whoami-for-test', async (request) => requireUser(request));
  });
  afterAll(async () => {
    await close();
  });

  it('signs up through the mailed link into an httpOnly, SameSite=Lax session cookie and signs out', async () => {
    const ip = nextIp();
    const res = await call(app, {
      url: '/api/auth/sign-up/email',
      body: { name: '  Grace Hopper ', email: 'Grace@Example.com', password: 'correct horse 1' },
      ip,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.json()).toEqual({
      status: 'confirmation_sent',
      message: 'We sent a link to grace@example.com. Open it to finish creating your account.',
    });
    // Not signed in until the address is confirmed; trying sends a fresh link.
    const early = await call(app, {
      url: '/api/auth/sign-in/email',
      body: { email: 'grace@example.com', password: 'correct horse 1' },
      ip,
    });
    expect(early.statusCode).toBe(403);
    expect(early.json().error).toEqual({
      code: 'email_not_verified',
      message:
        'Please confirm your e-mail address first: we have sent you a new link. Open it to sign in.',
    });
    const mail = await latestMail(app, 'grace@example.com', /Confirm/);
    expect(mail?.subject).toBe('Confirm your e-mail address for Replatform');
    expect(mail?.text).toContain('http://localhost:4001/confirm-email?token=');

    const token = await confirmationToken(app, 'grace@example.com');
    const confirmed = await call(app, {
      url: `/api/auth/verify-email?token=${encodeURIComponent(token)}`,
      ip,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const setCookie = [confirmed.headers['set-cookie']].flat().join('\n');
    expect(setCookie).toMatch(/replatform\.session_token=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Secure/i);
    const cookie = cookieFrom(confirmed);
    // The link signs in once; opened again it confirms nothing more and signs nobody in.
    const again = await call(app, {
      url: `/api/auth/verify-email?token=${encodeURIComponent(token)}`,
      ip,
    });
    expect(again.headers['set-cookie']).toBeUndefined();
    const forged = await call(app, { url: '/api/auth/verify-email?token=forged', ip });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error).toEqual({
      code: 'invalid_link',
      message: 'This confirmation link is invalid or has expired. Sign in to get a new one.',
    });
    // The token stays in the httpOnly cookie, out of reach of page scripts.
    expect(confirmed.json()).not.toHaveProperty('token');
    const session = await sessionOf(app, cookie);
    expect(session?.user).toMatchObject({ email: 'grace@example.com', name: 'Grace Hopper' });
    expect(JSON.stringify(session)).not.toContain(cookie.split('=')[1]?.split('.')[0]);
    expect(session).not.toHaveProperty('session.token');
    const me = await call(app, { url: '/api/whoami-for-test', cookie });
    expect(me.json()).toEqual({
      id: session?.user.id,
      email: 'grace@example.com',
      name: 'Grace Hopper',
      isDemo: false,
    });

    const out = await call(app, { url: '/api/auth/sign-out', body: {}, cookie });
    expect(out.statusCode).toBe(200);
    expect(await sessionOf(app, cookie)).toBeNull();
    const refused = await call(app, { url: '/api/whoami-for-test', cookie });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({
      error: { code: 'unauthenticated', message: 'Please sign in to continue.' },
    });
  });

  it('answers sign-up the same for an existing address, and mails its owner instead', async () => {
    await signUp(app, 'taken-address@example.com');
    const attempt = (email: string) =>
      call(app, {
        url: '/api/auth/sign-up/email',
        body: { name: 'Mallory', email, password: 'another password 9' },
        ip: nextIp(),
      });
    const existing = await attempt('taken-address@example.com');
    const fresh = await attempt('fresh-address@example.com');
    expect(existing.statusCode).toBe(200);
    expect(fresh.statusCode).toBe(200);
    expect(existing.json()).toEqual({
      status: 'confirmation_sent',
      message:
        'We sent a link to taken-address@example.com. Open it to finish creating your account.',
    });
    expect(existing.body.replace('taken-address', 'fresh-address')).toBe(fresh.body);
    expect(existing.headers['set-cookie']).toBeUndefined();
    expect(Object.keys(existing.headers).sort()).toEqual(Object.keys(fresh.headers).sort());

    const notice = await latestMail(app, 'taken-address@example.com', /already have/);
    expect(notice?.subject).toBe('You already have a Replatform account');
    expect(notice?.text).toContain('No second account was created.');
    expect(notice?.text).toContain('http://localhost:4001/login?mode=reset');
    // The owner's password still works; the intruder's does not.
    const intruder = await call(app, {
      url: '/api/auth/sign-in/email',
      body: { email: 'taken-address@example.com', password: 'another password 9' },
      ip: nextIp(),
    });
    expect(intruder.statusCode).toBe(401);
    const owner = await call(app, {
      url: '/api/auth/sign-in/email',
      body: { email: 'taken-address@example.com', password: 'correct horse 1' },
      ip: nextIp(),
    });
    expect(owner.statusCode).toBe(200);
  });

  it('requires a full name and a valid e-mail to sign up', async () => {
    const noName = await call(app, {
      url: '/api/auth/sign-up/email',
      body: { name: '  ', email: 'noname@example.com', password: 'correct horse 1' },
      ip: nextIp(),
    });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().error).toEqual({
      code: 'name_required',
      message: 'Please enter your full name.',
    });
    const badEmail = await call(app, {
      url: '/api/auth/sign-up/email',
      body: { name: 'X', email: 'not-an-email', password: 'correct horse 1' },
      ip: nextIp(),
    });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().error.message).toBeTruthy();
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    await signUp(app, 'known@example.com');
    const wrong = await call(app, {
      url: '/api/auth/sign-in/email',
      body: { email: 'known@example.com', password: 'wrong password' },
      ip: nextIp(),
    });
    const unknown = await call(app, {
      url: '/api/auth/sign-in/email',
      body: { email: 'nobody@example.com', password: 'wrong password' },
      ip: nextIp(),
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.body).toBe(unknown.body);
    expect(wrong.json()).toEqual({
      error: { code: 'invalid_email_or_password', message: 'Invalid email or password.' },
    });
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('rotates the session on sign-in and revokes the previous one', async () => {
    const first = await signUp(app, 'rotate@example.com');
    const again = await call(app, {
      url: '/api/auth/sign-in/email',
      body: { email: 'rotate@example.com', password: 'correct horse 1' },
      cookie: first,
      ip: nextIp(),
    });
    expect(again.statusCode).toBe(200);
    const second = cookieFrom(again);
    expect(second).not.toBe(first);
    expect(await sessionOf(app, first)).toBeNull();
    expect((await sessionOf(app, second))?.user.email).toBe('rotate@example.com');
  });

  it('answers a reset request the same whether or not the account exists', async () => {
    await signUp(app, 'reset-known@example.com');
    const known = await call(app, {
      url: '/api/auth/request-password-reset',
      body: { email: 'reset-known@example.com' },
      ip: nextIp(),
    });
    const unknown = await call(app, {
      url: '/api/auth/request-password-reset',
      body: { email: 'reset-unknown@example.com' },
      ip: nextIp(),
    });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(await latestMail(app, 'reset-known@example.com', /Reset/)).toBeDefined();
    expect(await latestMail(app, 'reset-unknown@example.com', /Reset/)).toBeUndefined();
  });

  it('resets a password through a single-use link and revokes every session', async () => {
    const email = 'reset-flow@example.com';
    const cookie = await signUp(app, email);
    await call(app, { url: '/api/auth/request-password-reset', body: { email }, ip: nextIp() });
    const mail = await latestMail(app, email, /Reset/);
    const link = mail?.text.match(/https?:\/\/\S+/)?.[0];
    expect(link).toMatch(/^http:\/\/localhost:4001\/login\?mode=reset&token=/);
    const token = new URL(link ?? '').searchParams.get('token');

    const reset = await call(app, {
      url: '/api/auth/reset-password',
      body: { token, newPassword: 'a brand new secret' },
      ip: nextIp(),
    });
    expect(reset.statusCode).toBe(200);
    expect(await sessionOf(app, cookie)).toBeNull();

    const reused = await call(app, {
      url: '/api/auth/reset-password',
      body: { token, newPassword: 'yet another secret' },
      ip: nextIp(),
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error.code).toBe('invalid_token');

    const old = await call(app, {
      url: '/api/auth/sign-in/email',
      body: { email, password: 'correct horse 1' },
      ip: nextIp(),
    });
    expect(old.statusCode).toBe(401);
    const fresh = await call(app, {
      url: '/api/auth/sign-in/email',
      body: { email, password: 'a brand new secret' },
      ip: nextIp(),
    });
    expect(fresh.statusCode).toBe(200);
  });

  it('limits failed sign-ins per account and address, but not the owner elsewhere', async () => {
    const email = 'limited@example.com';
    await signUp(app, email);
    const attacker = nextIp();
    for (let i = 0; i < 5; i++) {
      const res = await call(app, {
        url: '/api/auth/sign-in/email',
        body: { email, password: `guess ${i}` },
        ip: attacker,
      });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await call(app, {
      url: '/api/auth/sign-in/email',
      body: { email, password: 'correct horse 1' },
      ip: attacker,
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect(blocked.json().error).toEqual({
      code: 'rate_limited',
      message: expect.stringMatching(
        /^Too many sign-in attempts\. Please try again in \d+ minutes?\.$/,
      ),
    });

    const owner = await call(app, {
      url: '/api/auth/sign-in/email',
      body: { email, password: 'correct horse 1' },
      ip: nextIp(),
    });
    expect(owner.statusCode).toBe(200);
  });

  it('keys sign-in limits by the client behind a proxy on this machine, not by the proxy', async () => {
    const email = 'proxied@example.com';
    await signUp(app, email);
    // Without TRUST_PROXY every request through a local proxy comes from 127.0.0.1.
    const viaProxy = (client: string, password: string) =>
      call(app, {
        url: '/api/auth/sign-in/email',
        body: { email, password },
        ip: '127.0.0.1',
        headers: { 'x-forwarded-for': client },
      });
    for (let i = 0; i < 5; i++)
      expect((await viaProxy('192.0.2.66', `guess ${i}`)).statusCode).toBe(401);
    expect((await viaProxy('192.0.2.66', 'correct horse 1')).statusCode).toBe(429);
    // Another client of the same proxy (the owner) is not locked out with the guesser.
    expect((await viaProxy('192.0.2.77', 'correct horse 1')).statusCode).toBe(200);
    // Nor are all clients behind the proxy stopped by one that used up the address limit.
    for (let i = 0; i < authLimits.perIp.max; i++) {
      await call(app, {
        url: '/api/auth/request-password-reset',
        body: { email: `nobody-${i}@example.com` },
        ip: '127.0.0.1',
        headers: { 'x-forwarded-for': '192.0.2.88' },
      });
    }
    expect((await viaProxy('192.0.2.88', 'correct horse 1')).statusCode).toBe(429);
    expect((await viaProxy('192.0.2.99', 'correct horse 1')).statusCode).toBe(200);

    // A client that reaches us directly cannot pick its address with the header.
    const direct = nextIp();
    const spoofed = (i: number) =>
      call(app, {
        url: '/api/auth/sign-in/email',
        body: { email, password: `spoof ${i}` },
        ip: direct,
        headers: { 'x-forwarded-for': `192.0.2.${100 + i}` },
      });
    for (let i = 0; i < 5; i++) expect((await spoofed(i)).statusCode).toBe(401);
    expect((await spoofed(5)).statusCode).toBe(429);
  });

  it('limits reset mails per account and all auth requests per address', async () => {
    const email = 'mailbomb@example.com';
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await call(app, {
        url: '/api/auth/request-password-reset',
        body: { email },
        ip: nextIp(),
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);

    const ip = nextIp();
    let last = 0;
    for (let i = 0; i <= authLimits.perIp.max; i++) {
      const res = await call(app, {
        url: '/api/auth/sign-in/email',
        body: { email: `spray${i}@example.com`, password: 'whatever1' },
        ip,
      });
      last = res.statusCode;
    }
    expect(last).toBe(429);
  });

  it('refuses cross-site state-changing requests', async () => {
    const res = await call(app, {
      url: '/api/auth/sign-in/email',
      body: { email: 'x@example.com', password: 'whatever1' },
      headers: { origin: 'https://evil.example' },
      ip: nextIp(),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('cross_site_request');
    const fetchMeta = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(fetchMeta.statusCode).toBe(403);

    // With the local default address, the same server reached as 127.0.0.1 is ours too; another
    // port is not.
    const signIn = (origin: string) =>
      call(app, {
        url: '/api/auth/sign-in/email',
        body: { email: 'x@example.com', password: 'whatever1' },
        headers: { origin },
        ip: nextIp(),
      });
    expect((await signIn('http://127.0.0.1:4001')).statusCode).toBe(401);
    expect((await signIn('http://localhost:4001')).statusCode).toBe(401);
    expect((await signIn('http://127.0.0.1:4002')).statusCode).toBe(403);
  });

  it('changes the name, the e-mail (with the current password) and the password', async () => {
    const cookie = await signUp(app, 'changer@example.com');
    const elsewhere = cookieFrom(
      await call(app, {
        url: '/api/auth/sign-in/email',
        body: { email: 'changer@example.com', password: 'correct horse 1' },
        ip: nextIp(),
      }),
    );
    expect(await sessionOf(app, elsewhere)).not.toBeNull();
    const name = await call(app, {
      url: '/api/auth/update-user',
      body: { name: 'Ada L.' },
      cookie,
    });
    expect(name.statusCode).toBe(200);
    expect((await sessionOf(app, cookie))?.user.name).toBe('Ada L.');

    const noPassword = await call(app, {
      url: '/api/auth/account/change-email',
      body: { newEmail: 'changed@example.com', currentPassword: 'wrong password' },
      cookie,
    });
    expect(noPassword.statusCode).toBe(400);
    expect(noPassword.json().error.code).toBe('invalid_password');

    const email = await call(app, {
      url: '/api/auth/account/change-email',
      body: { newEmail: 'Changed@Example.com', currentPassword: 'correct horse 1' },
      cookie,
    });
    expect(email.statusCode, email.body).toBe(200);
    expect((await sessionOf(app, cookie))?.user.email).toBe('changed@example.com');
    // The session opened elsewhere under the old address is signed out.
    expect(await sessionOf(app, elsewhere)).toBeNull();
    expect((await latestMail(app, 'changer@example.com', /was changed/))?.subject).toMatch(
      /e-mail address/,
    );

    const taken = await signUp(app, 'taken@example.com');
    expect(taken).toBeTruthy();
    const clash = await call(app, {
      url: '/api/auth/account/change-email',
      body: { newEmail: 'taken@example.com', currentPassword: 'correct horse 1' },
      cookie,
    });
    expect(clash.statusCode).toBe(422);

    const wrong = await call(app, {
      url: '/api/auth/change-password',
      body: { currentPassword: 'nope nope', newPassword: 'new secret 22' },
      cookie,
    });
    expect(wrong.statusCode).toBe(400);
    const changed = await call(app, {
      url: '/api/auth/change-password',
      body: {
        currentPassword: 'correct horse 1',
        newPassword: 'new secret 22',
        revokeOtherSessions: true,
      },
      cookie,
    });
    expect(changed.statusCode).toBe(200);
    const signIn = await call(app, {
      url: '/api/auth/sign-in/email',
      body: { email: 'changed@example.com', password: 'new secret 22' },
      ip: nextIp(),
    });
    expect(signIn.statusCode).toBe(200);
  });

  it('deletes an account with its migrations, and refuses its session cookie afterwards', async () => {
    const cookie = await signUp(app, 'leaver@example.com');
    const user = (await sessionOf(app, cookie))?.user;
    if (!user) throw new Error('no session');
    await app.services.migrations.create({
      userId: user.id,
      email: user.email,
      storeName: 'Leaving Store',
    });
    const res = await call(app, { url: '/api/auth/delete-user', body: {}, cookie });
    expect(res.statusCode, res.body).toBe(200);
    expect(await app.services.migrations.listForUser(user.id)).toEqual([]);
    expect(await sessionOf(app, cookie)).toBeNull();
    const refused = await call(app, { url: '/api/whoami-for-test', cookie });
    expect(refused.statusCode).toBe(401);
    const signIn = await call(app, {
      url: '/api/auth/sign-in/email',
      body: { email: 'leaver@example.com', password: 'correct horse 1' },
      ip: nextIp(),
    });
    expect(signIn.statusCode).toBe(401);
  });

  it('signs a visitor into a fresh demo account with sample migrations in every state', async () => {
    const res = await call(app, { url: '/api/auth/demo/sign-in', body: {}, ip: nextIp() });
    expect(res.statusCode, res.body).toBe(200);
    const cookie = cookieFrom(res);
    const session = await sessionOf(app, cookie);
    expect(session?.user.isDemo).toBe(true);
    // It says when it goes: a day from now by default.
    const expires = Date.parse(
      String((session?.user as { demoExpiresAt?: string } | undefined)?.demoExpiresAt),
    );
    expect(Math.abs(expires - (Date.now() + 24 * 60 * 60 * 1000))).toBeLessThan(60_000);
    const me = (await call(app, { url: '/api/whoami-for-test', cookie })).json();
    expect(me.isDemo).toBe(true);

    const list = await app.services.migrations.listForUser(me.id);
    const byStatus = Object.fromEntries(list.map((m) => [m.status, m]));
    expect(Object.keys(byStatus).sort()).toEqual(['completed', 'failed', 'in-progress', 'pending']);
    expect(byStatus.pending?.currentStep).toBe(1);
    expect(byStatus['in-progress']).toMatchObject({
      currentStep: 4,
      sourceStore: 'woocommerce',
      destinationStore: 'shopify',
      dataTypes: { products: true, customers: true, orders: true },
      entityCounts: { products: 1500, customers: 750, orders: 250 },
      paymentInfo: { demo: true, paymentStatus: 'paid' },
    });
    expect(byStatus.completed).toMatchObject({
      currentStep: 5,
      paymentInfo: {
        amount: 12400,
        currency: 'usd',
        demo: true,
        paymentMethod: { card: { brand: 'visa', last4: '4242' } },
      },
    });
    expect(byStatus.completed?.completedAt).toBeTruthy();
    expect(byStatus.failed?.migrationStats.products?.failed).toBeGreaterThan(0);

    // A second visitor gets an account of their own.
    const other = await call(app, { url: '/api/auth/demo/sign-in', body: {}, ip: nextIp() });
    const otherMe = (
      await call(app, { url: '/api/whoami-for-test', cookie: cookieFrom(other) })
    ).json();
    expect(otherMe.id).not.toBe(me.id);

    // The sweep removes expired demo accounts with their sessions and migrations.
    const later = new Date(Date.now() + 25 * 60 * 60 * 1000);
    const swept = await app.services.auth.sweep(later);
    expect(swept.demoAccounts).toBeGreaterThanOrEqual(2);
    expect(await app.services.migrations.listForUser(me.id)).toEqual([]);
    expect((await call(app, { url: '/api/whoami-for-test', cookie })).statusCode).toBe(401);
  });

  it('closes the better-auth endpoints the product does not use', async () => {
    const cookie = await signUp(app, 'closed@example.com');
    for (const [method, url] of [
      ['POST', '/api/auth/verify-password'],
      ['GET', '/api/auth/list-accounts'],
      ['POST', '/api/auth/link-social'],
      ['POST', '/api/auth/unlink-account'],
      ['POST', '/api/auth/update-session'],
      ['POST', '/api/auth/refresh-token'],
      ['GET', '/api/auth/reset-password/some-token'],
      ['GET', '/api/auth/sign-out'],
      ['POST', '/api/auth/get-session'],
    ] as const) {
      const res = await call(app, {
        method,
        url,
        cookie,
        ...(method === 'POST' ? { body: { password: 'correct horse 1' } } : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });

  it('limits password checks per account, from any address', async () => {
    const cookie = await signUp(app, 'guessed@example.com');
    let refused = 0;
    for (let i = 0; i < authLimits.reauthPerAccount.max + 2; i++) {
      const res = await call(app, {
        url: '/api/auth/change-password',
        body: { currentPassword: `guess number ${i}`, newPassword: 'another secret 1' },
        cookie,
        // A new address every time: only the per-account limit can stop this.
        ip: nextIp(),
      });
      if (res.statusCode === 429) {
        refused++;
        expect(res.headers['retry-after']).toBeDefined();
        expect(res.json().error.message).toMatch(
          /Too many attempts\. Please try again in \d+ minutes?\./,
        );
      } else {
        expect(res.statusCode).toBe(400);
      }
    }
    expect(refused).toBe(2);
    // Another account on the same addresses is not affected.
    const other = await signUp(app, 'unguessed@example.com');
    const fine = await call(app, {
      url: '/api/auth/change-password',
      body: { currentPassword: 'correct horse 1', newPassword: 'another secret 1' },
      cookie: other,
    });
    expect(fine.statusCode).toBe(200);
  });

  it('says which sign-in providers exist', async () => {
    const res = await call(app, { url: '/api/auth-config' });
    expect(res.json()).toEqual({
      providers: { google: false, demo: true },
      passwordMinLength: 8,
      mail: 'outbox',
    });
  });
});

describe('accounts behind https', () => {
  let app: App;
  let close: () => Promise<void>;
  const publicUrl = 'https://migrate.example.com';

  beforeAll(async () => {
    ({ app, close } = await createTestApp({ PUBLIC_URL: publicUrl }));
  });
  afterAll(async () => {
    await close();
  });

  it('sets a Secure, __Secure- prefixed session cookie and HSTS', async () => {
    const res = await call(app, {
      url: '/api/auth/sign-up/email',
      body: { name: 'Secure Sam', email: 'secure@example.com', password: 'correct horse 1' },
      ip: nextIp(),
      headers: { origin: publicUrl },
    });
    expect(res.statusCode, res.body).toBe(200);
    const token = await confirmationToken(app, 'secure@example.com');
    const confirmed = await call(app, {
      url: `/api/auth/verify-email?token=${encodeURIComponent(token)}`,
      ip: nextIp(),
      headers: { origin: publicUrl },
    });
    const setCookie = [confirmed.headers['set-cookie']].flat().join('\n');
    expect(setCookie).toMatch(/__Secure-replatform\.session_token=[^;]+;/);
    expect(setCookie).toMatch(/; Secure/i);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });
});
