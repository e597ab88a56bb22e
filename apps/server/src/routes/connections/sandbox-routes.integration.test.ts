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
  it('pins a sandbox migration’s job to the runner of the process that holds its stores', async () => {
    const id = (await call(owner, 'POST', '/api/migrations', { storeName: 'Pinned' })).json()
      .id as string;
    for (const side of ['source', 'destination'] as const) {
      const store = await call(
        owner,
        'GET',
        `/api/sandbox-stores?platform=woocommerce&side=${side}&migrationId=${id}`,
      );
      const verified = await call(owner, 'POST', '/verify-woocommerce-connection', {
        ...store.json().fields,
        migrationId: id,
        side,
      });
      expect(verified.statusCode, verified.body).toBe(200);
    }
    const { migrations, engine } = app.services;
    const userId = (await call(owner, 'GET', `/migration/${id}`)).json().userId as string;
    await migrations.update(id, userId, {
      dataTypes: { products: true, customers: true, orders: true },
      currentStep: 3,
    });
    const started = await call(owner, 'POST', `/api/migrations/${id}/start`);
    expect(started.statusCode, started.body).toBe(200);
    // Workers elsewhere hold no sandbox stores: only this server's runner may run it.
    const job = await engine.jobs.liveJob(id);
    expect(job).toMatchObject({ unlimited: true, pinnedTo: engine.runner.owner });
    const takenElsewhere: string[] = [];
    for (let taken; (taken = await engine.jobs.claim('worker-elsewhere:1:x', 60_000));)
      takenElsewhere.push(taken.migrationId);
    expect(takenElsewhere).not.toContain(id);
    expect(
      await engine.jobs.claim('this-server', 60_000, [], { pinnedTo: engine.runner.owner }),
    ).toMatchObject({ id: job?.id });
  });
});
