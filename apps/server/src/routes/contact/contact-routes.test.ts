import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contactMessageListSchema } from '@replatform/contracts/forms';
import { ContactMessagesRepository } from '@replatform/db/forms-repository';
import { testDialects } from '@replatform/db/test-databases';
import type { App } from '../../app.ts';
import { readOutbox } from '../../auth/mailer.ts';
import { createTestApp } from '../../testing/test-app.ts';
import { signUp, testOrigin } from '../../testing/sign-up.ts';
import { operatorMailsSettled } from './operator-mail.ts';

const valid = {
  name: '  Ada Lovelace ',
  email: 'ada@example.com',
  subject: 'Moving 40,000 orders',
  message: 'Can you move our Magento orders to Shopify <b>without</b> e-mailing customers?',
};

describe.each(testDialects())('/api/contact-messages on %s', (dialect) => {
  let app: App;
  let close: () => Promise<void>;
  let repo: ContactMessagesRepository;

  beforeAll(async () => {
    ({ app, close } = await createTestApp({}, dialect));
    repo = new ContactMessagesRepository(app.services.db);
  });
  afterAll(async () => {
    await close();
  });

  const setOperator = (address: string | undefined) => {
    app.services.config.operatorEmail = address;
  };
  const send = (cookie: string | undefined, payload: unknown, origin = testOrigin) =>
    app.inject({
      method: 'POST',
      url: '/api/contact-messages',
      headers: { origin, 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      payload: JSON.stringify(payload),
    });
  const userIdOf = async (cookie: string) =>
    (await app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } })).json()
      .user.id as string;

  it('requires a session and a same-site origin', async () => {
    expect((await send(undefined, valid)).statusCode).toBe(401);
    const cookie = await signUp(app, 'origin@example.com');
    expect((await send(cookie, valid, 'https://evil.example')).statusCode).toBe(403);
  });

  it('explains what is missing or malformed', async () => {
    const cookie = await signUp(app, 'invalid@example.com');
    const res = await send(cookie, {
      ...valid,
      name: '   ',
      email: 'not-an-address',
      priority: 'urgent',
    });
    expect(res.statusCode).toBe(400);
    const details: string[] = res.json().error.details;
    expect(details.join('\n')).toMatch(/name: Name is required/);
    expect(details.join('\n')).toMatch(/email: Enter a valid email address/);
    expect(details.join('\n')).toMatch(/priority: Priority must be low, medium or high/);
    const noMessage = await send(cookie, { ...valid, message: undefined, phone: 'call me' });
    expect(noMessage.json().error.details.join('\n')).toMatch(/message: Message is required/);
    expect(noMessage.json().error.details.join('\n')).toMatch(/phone: Phone may contain only/);
    expect(await repo.listForUser(await userIdOf(cookie))).toEqual([]);
  });

  it('stores the message trimmed, priority medium by default, and mails nobody without an operator address', async () => {
    setOperator(undefined);
    const cookie = await signUp(app, 'stored@example.com');
    const res = await send(cookie, valid);
    expect(res.statusCode, res.body).toBe(201);
    const { id, createdAt } = res.json();
    const [stored] = await repo.listForUser(await userIdOf(cookie));
    expect(stored).toMatchObject({
      id,
      createdAt,
      name: 'Ada Lovelace',
      company: '',
      phone: '',
      priority: 'medium',
      message: valid.message,
      emailedAt: null,
    });
    await operatorMailsSettled(app);
    const mailed = await readOutbox(app.services.db);
    expect(mailed.filter((m) => m.subject.startsWith('[Contact'))).toEqual([]);
  });

  it('mails the operator a copy when an operator address is configured', async () => {
    setOperator('ops@example.com');
    const cookie = await signUp(app, 'mailed@example.com');
    const res = await send(cookie, {
      ...valid,
      company: 'Analytical Engines',
      phone: '+1 (555) 010-0000',
      priority: 'high',
    });
    expect(res.statusCode).toBe(201);
    await operatorMailsSettled(app);
    const [mail] = await readOutbox(app.services.db, 'ops@example.com');
    expect(mail?.subject).toBe('[Contact, High priority] Moving 40,000 orders');
    expect(mail?.text).toContain('Company: Analytical Engines');
    expect(mail?.text).toContain('Account: mailed@example.com');
    expect(mail?.text).toContain(valid.message);
    // The sender's words are escaped in the HTML part.
    expect(mail?.html).toContain('&lt;b&gt;without&lt;/b&gt;');
    const [stored] = await repo.listForUser(await userIdOf(cookie));
    expect(stored?.emailedAt).not.toBeNull();
    setOperator(undefined);
  });

  it('keeps the message when the mail server fails', async () => {
    setOperator('ops@example.com');
    const cookie = await signUp(app, 'mailfail@example.com');
    const failing = vi
      .spyOn(app.services.auth.mailer, 'send')
      .mockRejectedValueOnce(new Error('mail server down'));
    expect((await send(cookie, valid)).statusCode).toBe(201);
    await operatorMailsSettled(app);
    expect(failing).toHaveBeenCalledTimes(1);
    const [stored] = await repo.listForUser(await userIdOf(cookie));
    expect(stored).toMatchObject({ subject: valid.subject, emailedAt: null });
    failing.mockRestore();
    setOperator(undefined);
  });

  it('limits how many messages one account sends in an hour', async () => {
    const cookie = await signUp(app, 'chatty@example.com');
    for (let i = 0; i < 10; i++) expect((await send(cookie, valid)).statusCode).toBe(201);
    const limited = await send(cookie, valid);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error).toMatchObject({ code: 'rate_limited' });
    // Another account is not affected.
    expect((await send(await signUp(app, 'quiet@example.com'), valid)).statusCode).toBe(201);
  });

  it('lists only the user’s own messages, newest first', async () => {
    const mine = await signUp(app, 'lister@example.com');
    const other = await signUp(app, 'other-lister@example.com');
    await send(mine, { ...valid, subject: 'First' });
    await send(other, { ...valid, subject: 'Not mine' });
    await send(mine, { ...valid, subject: 'Second', priority: 'low' });
    const list = (cookie?: string) =>
      app.inject({
        method: 'GET',
        url: '/api/contact-messages',
        headers: cookie ? { cookie } : {},
      });
    expect((await list()).statusCode).toBe(401);
    const res = await list(mine);
    expect(res.statusCode).toBe(200);
    const { messages } = contactMessageListSchema.parse(res.json());
    expect(messages.map((m) => [m.subject, m.priority])).toEqual([
      ['Second', 'low'],
      ['First', 'medium'],
    ]);
  });

  it('deletes a user’s messages with their account', async () => {
    const cookie = await signUp(app, 'leaving@example.com');
    await send(cookie, valid);
    const userId = await userIdOf(cookie);
    expect(await repo.listForUser(userId)).toHaveLength(1);
    await app.services.auth.deleteUser(userId);
    expect(await repo.listForUser(userId)).toEqual([]);
  });
});
