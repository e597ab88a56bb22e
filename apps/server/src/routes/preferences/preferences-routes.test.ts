import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultNotificationPreferences,
  defaultUserPreferences,
  preferencesResponseSchema,
} from '@replatform/contracts/forms';
import { UserPreferencesRepository } from '@replatform/db/forms-repository';
import { testDialects } from '@replatform/db/test-databases';
import type { App } from '../../app.ts';
import { createTestApp } from '../../testing/test-app.ts';
import { signUp, testOrigin } from '../../testing/sign-up.ts';

describe.each(testDialects())('GET/PUT /api/preferences on %s', (dialect) => {
  let app: App;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ app, close } = await createTestApp({}, dialect));
  });
  afterAll(async () => {
    await close();
  });

  const get = (cookie?: string) =>
    app.inject({ method: 'GET', url: '/api/preferences', headers: cookie ? { cookie } : {} });
  const put = (cookie: string | undefined, payload: unknown) =>
    app.inject({
      method: 'PUT',
      url: '/api/preferences',
      headers: {
        origin: testOrigin,
        'content-type': 'application/json',
        ...(cookie ? { cookie } : {}),
      },
      payload: JSON.stringify(payload),
    });

  it('requires a session', async () => {
    expect((await get()).statusCode).toBe(401);
    expect(
      (await put(undefined, { notifications: defaultNotificationPreferences })).statusCode,
    ).toBe(401);
  });

  it('answers the spec’s defaults until something is saved', async () => {
    const cookie = await signUp(app, 'defaults@example.com');
    const res = await get(cookie);
    expect(res.statusCode).toBe(200);
    expect(preferencesResponseSchema.parse(res.json())).toEqual({
      notifications: {
        emailNotifications: true,
        pushNotifications: true,
        migrationUpdates: true,
        securityAlerts: true,
        marketingEmails: false,
      },
      preferences: {
        theme: 'light',
        language: 'en',
        timezone: 'UTC',
        dateFormat: 'MM/DD/YYYY',
        currency: 'USD',
      },
      updatedAt: null,
    });
  });

  it('saves each group on its own and keeps the other, per user', async () => {
    const alice = await signUp(app, 'alice-prefs@example.com');
    const bob = await signUp(app, 'bob-prefs@example.com');
    const notifications = {
      ...defaultNotificationPreferences,
      marketingEmails: true,
      pushNotifications: false,
    };
    const saved = await put(alice, { notifications });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().notifications).toEqual(notifications);
    expect(saved.json().preferences).toEqual(defaultUserPreferences);
    expect(saved.json().updatedAt).toEqual(expect.any(String));

    const preferences = {
      theme: 'dark',
      language: 'de',
      timezone: 'America/Chicago',
      dateFormat: 'YYYY-MM-DD',
    };
    expect((await put(alice, { preferences })).statusCode).toBe(200);
    const reread = (await get(alice)).json();
    expect(reread.notifications).toEqual(notifications);
    expect(reread.preferences).toEqual({ ...preferences, currency: 'USD' });

    // Bob still has the defaults.
    expect((await get(bob)).json().notifications).toEqual(defaultNotificationPreferences);
  });

  it('refuses values outside the lists, unknown fields and empty updates', async () => {
    const cookie = await signUp(app, 'strict@example.com');
    const bad = await put(cookie, {
      preferences: { ...defaultUserPreferences, theme: 'blue', currency: 'EUR' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.join('\n')).toMatch(/preferences\.theme/);
    expect(bad.json().error.details.join('\n')).toMatch(/preferences\.currency/);
    expect(
      (await put(cookie, { notifications: { ...defaultNotificationPreferences, sms: true } }))
        .statusCode,
    ).toBe(400);
    expect((await put(cookie, { notifications: { emailNotifications: false } })).statusCode).toBe(
      400,
    );
    const empty = await put(cookie, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.details.join('\n')).toMatch(
      /Send notifications, preferences or both/,
    );
    expect((await get(cookie)).json().updatedAt).toBeNull();
  });

  it('falls back to the default for a stored value that is no longer allowed', async () => {
    const cookie = await signUp(app, 'legacy@example.com');
    const session = await app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie },
    });
    const userId: string = session.json().user.id;
    await new UserPreferencesRepository(app.services.db).save(userId, {
      preferences: { theme: 'sepia', language: 'fr' },
      notifications: { marketingEmails: 'yes', securityAlerts: false },
    });
    const res = (await get(cookie)).json();
    expect(res.preferences).toMatchObject({ theme: 'light', language: 'fr' });
    expect(res.notifications).toMatchObject({ marketingEmails: false, securityAlerts: false });
  });

  it('forgets the preferences when the account is deleted', async () => {
    const cookie = await signUp(app, 'gone-prefs@example.com');
    await put(cookie, {
      notifications: { ...defaultNotificationPreferences, marketingEmails: true },
    });
    const userId: string = (
      await app.inject({ method: 'GET', url: '/api/auth/get-session', headers: { cookie } })
    ).json().user.id;
    const repo = new UserPreferencesRepository(app.services.db);
    expect(await repo.find(userId)).not.toBeNull();
    await app.services.auth.deleteUser(userId);
    expect(await repo.find(userId)).toBeNull();
  });
});
