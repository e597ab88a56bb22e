import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationListSchema } from '@replatform/contracts/notifications';
import { testDialects } from '@replatform/db/test-databases';
import type { App } from '../../app.ts';
import { createTestApp } from '../../testing/test-app.ts';
import { signUp as signUpConfirmed } from '../../testing/sign-up.ts';

const origin = 'http://localhost:4001';

async function signUp(app: App, email: string): Promise<{ cookie: string; id: string }> {
  const cookie = await signUpConfirmed(app, email);
  const session = await app.inject({
    method: 'GET',
    url: '/api/auth/get-session',
    headers: { cookie },
  });
  return { cookie, id: session.json().user.id };
}

describe.each(testDialects())('notifications API on %s', (dialect) => {
  let app: App;
  let close: () => Promise<void>;
  let alice: { cookie: string; id: string };
  let bob: { cookie: string; id: string };

  beforeAll(async () => {
    ({ app, close } = await createTestApp({}, dialect));
    alice = await signUp(app, 'alice@example.com');
    bob = await signUp(app, 'bob@example.com');
  });
  afterAll(async () => {
    await close();
  });

  const call = (cookie: string | undefined, method: 'GET' | 'POST', url: string) =>
    app.inject({ method, url, headers: { origin, ...(cookie ? { cookie } : {}) } });
  const list = async (cookie: string, query = '') =>
    notificationListSchema.parse((await call(cookie, 'GET', `/api/notifications${query}`)).json());

  it('requires a session', async () => {
    expect((await call(undefined, 'GET', '/api/notifications')).statusCode).toBe(401);
    expect((await call(undefined, 'POST', '/api/notifications/read-all')).statusCode).toBe(401);
    expect((await call(undefined, 'POST', '/api/notifications/x/read')).statusCode).toBe(401);
  });

  it('lists the user’s own notifications newest first with the unread count, and marks them read', async () => {
    const { notifications } = app.services;
    const first = await notifications.notify({
      userId: alice.id,
      type: 'info',
      title: 'Migration started',
      message: 'Your migration started.',
      migrationId: 'm1',
    });
    await new Promise((r) => setTimeout(r, 5));
    await notifications.notify({
      userId: alice.id,
      type: 'success',
      title: 'Payment received',
      message: 'Thanks.',
    });
    await notifications.notify({
      userId: bob.id,
      type: 'warning',
      title: 'For Bob',
      message: 'Not Alice’s.',
    });

    const mine = await list(alice.cookie);
    expect(mine.unreadCount).toBe(2);
    expect(mine.notifications.map((n) => n.title)).toEqual([
      'Payment received',
      'Migration started',
    ]);
    expect(mine.notifications[1]).toMatchObject({ type: 'info', migrationId: 'm1', read: false });
    expect((await list(alice.cookie, '?limit=1')).notifications).toHaveLength(1);
    expect((await call(alice.cookie, 'GET', '/api/notifications?limit=0')).statusCode).toBe(400);

    // Bob can neither see nor mark Alice's.
    expect((await list(bob.cookie)).notifications.map((n) => n.title)).toEqual(['For Bob']);
    expect((await call(bob.cookie, 'POST', `/api/notifications/${first.id}/read`)).statusCode).toBe(
      404,
    );

    const read = await call(alice.cookie, 'POST', `/api/notifications/${first.id}/read`);
    expect(read.json()).toEqual({ unreadCount: 1 });
    expect((await list(alice.cookie)).notifications.find((n) => n.id === first.id)?.read).toBe(
      true,
    );
    expect((await call(alice.cookie, 'POST', '/api/notifications/read-all')).json()).toEqual({
      unreadCount: 0,
    });
    expect((await list(bob.cookie)).unreadCount).toBe(1);
  });
});
