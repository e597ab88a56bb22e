import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { signUp, testOrigin } from '../../testing/sign-up.ts';
import { createTestApp } from '../../testing/test-app.ts';

describe('sandbox stores per migration (integration)', () => {
  let app: App;
  let close: () => Promise<void>;
  let owner: string;
  let stranger: string;

  const call = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    app.inject({
      method,
      url,
      headers: {
        origin: testOrigin,
        cookie,
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload ? { payload } : {}),
    });

  beforeAll(async () => {
    ({ app, close } = await createTestApp({ SANDBOX_STORES: 'true', SANDBOX_COUNTS: '3,2,1' }));
    owner = await signUp(app, 'owner@example.com');
    stranger = await signUp(app, 'stranger@example.com');
  }, 120_000);
  afterAll(async () => {
    await close?.();
  });

  it('gives each of the owner’s migrations its own empty destination, and nobody else’s', async () => {
    const create = async () =>
      (await call(owner, 'POST', '/api/migrations', { storeName: 'Sandbox run' })).json()
        .id as string;
    const [first, second] = [await create(), await create()];
    const destination = async (cookie: string, id: string) =>
      call(
        cookie,
        'GET',
        `/api/sandbox-stores?platform=woocommerce&side=destination&migrationId=${id}`,
      );

    const a = await destination(owner, first);
    const b = await destination(owner, second);
    const shared = await call(
      owner,
      'GET',
      '/api/sandbox-stores?platform=woocommerce&side=destination',
    );
    expect(a.statusCode).toBe(200);
    expect(a.json().fields.sourceStoreUrl).not.toBe(b.json().fields.sourceStoreUrl);
    expect(a.json().fields.sourceStoreUrl).not.toBe(shared.json().fields.sourceStoreUrl);
    expect((await destination(owner, first)).json()).toEqual(a.json());

    // Someone else's migration is not found, and gets no store.
    const refused = await destination(stranger, first);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('not_found');

    // The app's own connections reach the dedicated store: it verifies, and it counts as a
    // sandbox store (no real money for sandbox-to-sandbox runs).
    const verified = await call(owner, 'POST', '/verify-woocommerce-connection', {
      ...a.json().fields,
      migrationId: first,
      side: 'destination',
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().status).toBe('connected');
    expect(
      app.services.sandbox?.isSandboxAddress('woocommerce', a.json().fields.sourceStoreUrl),
    ).toBe(true);

    // While its run is live, a migration keeps the stores it started with.
    await app.services.engine.runner.stop();
    const row = await app.services.db.kysely
      .selectFrom('migrations')
      .select('user_id')
      .where('id', '=', first)
      .executeTakeFirstOrThrow();
    await app.services.engine.jobs.enqueue(first, row.user_id);
    const running = await call(owner, 'POST', '/verify-woocommerce-connection', {
      ...b.json().fields,
      migrationId: first,
      side: 'destination',
    });
    expect(running.statusCode).toBe(409);
    expect(running.json().error.code).toBe('migration_running');
  });
});
