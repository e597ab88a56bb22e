import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@replatform/db/test-databases';
import {
  startStripeEmulator,
  type RunningStripeEmulator,
} from '@replatform/emulators/stripe/stripe-emulator';
import type { App } from '../../app.ts';
import { sealCredentials } from '../../migrations/store-credentials.ts';
import {
  caller,
  readyMigration,
  signUp,
  startPaymentsApp,
  testOrigin,
  verifyStore,
  type SourceCounts,
} from './payment-test-kit.ts';

/**
 * The ways found to move real stores without paying, each reproduced through the API and shown
 * refused, with Stripe configured (the Stripe emulator) and without it (demo payments only):
 * a demo account with real stores, a store swapped in while a demo payment is processed, and a
 * payment before both stores are connected.
 */
const REAL_SOURCE = 'https://real-source.example.com';
const REAL_DESTINATION = 'https://real-destination.example.com';
const SANDBOX_SOURCE = 'https://sandbox-source.example.com';
const SANDBOX_DESTINATION = 'https://sandbox-destination.example.com';

const modes = ['stripe', 'demo'] as const;
const cases = testDialects().flatMap((dialect) =>
  modes.map((mode) => [dialect, mode] as [typeof dialect, (typeof modes)[number]]),
);

describe.each(cases)('payment bypasses on %s, %s payments', (dialect, mode) => {
  let app: App;
  let close: () => Promise<void>;
  let stripe: RunningStripeEmulator | undefined;
  let owner: string;
  let call: ReturnType<typeof caller>;
  const counts: SourceCounts = {
    [REAL_SOURCE]: { products: 40, customers: 10, orders: 5 },
    [SANDBOX_SOURCE]: { products: 12, customers: 6, orders: 5 },
  };

  beforeAll(async () => {
    if (mode === 'stripe') stripe = await startStripeEmulator();
    ({ app, close } = await startPaymentsApp(
      dialect,
      stripe
        ? {
            STRIPE_SECRET_KEY: 'sk_test_bypasses',
            STRIPE_WEBHOOK_SECRET: 'whsec_bypasses',
            STRIPE_API_BASE: stripe.url,
          }
        : {},
      counts,
    ));
    // The two sandbox addresses stand for built-in sandbox stores.
    app.services.engine.sandboxOrigins.add(new URL(SANDBOX_SOURCE).origin);
    app.services.engine.sandboxOrigins.add(new URL(SANDBOX_DESTINATION).origin);
    call = caller(app);
    owner = await signUp(app, `owner-${mode}@example.com`);
  });
  afterAll(async () => {
    await close();
    await stripe?.close();
  });

  const demoAccount = async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/demo/sign-in',
      headers: { origin: testOrigin, 'content-type': 'application/json' },
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(200);
    return [res.headers['set-cookie']]
      .flat()
      .filter((c): c is string => Boolean(c))
      .map((c) => c.split(';')[0])
      .join('; ');
  };
  const paypal = (migrationId: string) => ({
    method: 'paypal',
    migrationId,
    email: 'owner@example.com',
  });
  const create = async (cookie: string) => {
    const res = await call(cookie, 'POST', '/api/migrations', { storeName: 'Bypass attempt' });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as string;
  };
  const selectAll = async (cookie: string, id: string) => {
    const res = await call(cookie, 'PATCH', `/api/migrations/${id}`, {
      dataTypes: { products: true, customers: true, orders: true },
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  const liveJob = (id: string) => app.services.engine.jobs.liveJob(id);
  /** Seals a real store on a side, as a second server or an older version could have left it. */
  const sealRealStore = async (
    id: string,
    userId: string,
    side: 'source' | 'destination',
    url: string,
  ) => {
    const sealed = sealCredentials(app.services.vault, id, side, {
      platform: 'woocommerce',
      secrets: { storeUrl: url, consumerKey: 'ck_real', consumerSecret: 'cs_real' },
    });
    const updated = await app.services.migrations.update(
      id,
      userId,
      side === 'source'
        ? {
            sourceStore: 'woocommerce',
            sourceStoreUrl: url,
            sourceCredentials: sealed,
            sourceVerified: true,
          }
        : {
            destinationStore: 'woocommerce',
            destinationStoreUrl: url,
            destinationCredentials: sealed,
            destinationVerified: true,
          },
    );
    expect(updated).toBeDefined();
  };
  const userIdOf = async (cookie: string) =>
    (await call(cookie, 'GET', '/api/auth/get-session')).json().user.id as string;

  it('refuses real stores to a demo account, so it cannot run them for free', async () => {
    const demo = await demoAccount();
    const id = await create(demo);
    for (const side of ['source', 'destination'] as const) {
      const refused = await verifyStore(
        app,
        demo,
        id,
        side,
        side === 'source' ? REAL_SOURCE : REAL_DESTINATION,
      );
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().error).toMatchObject({
        code: 'demo_sandbox_only',
        message: expect.stringContaining('only the built-in sandbox stores'),
      });
    }
    expect((await call(demo, 'GET', `/migration/${id}`)).json()).toMatchObject({
      sourceVerified: false,
      destinationVerified: false,
    });
    // Sandbox stores connect as before.
    expect((await verifyStore(app, demo, id, 'source', SANDBOX_SOURCE)).statusCode).toBe(200);
    expect((await verifyStore(app, demo, id, 'destination', SANDBOX_DESTINATION)).statusCode).toBe(
      200,
    );
  });

  it('checks what a demo account starts against the stores sealed on the migration', async () => {
    const demo = await demoAccount();
    const userId = await userIdOf(demo);
    const id = await create(demo);
    // Real stores sealed on a demo account's migration (as verified before demo accounts were
    // limited to sandbox stores): nothing starts, paid or not.
    await sealRealStore(id, userId, 'source', REAL_SOURCE);
    await sealRealStore(id, userId, 'destination', REAL_DESTINATION);
    await selectAll(demo, id);
    const start = await call(demo, 'POST', `/api/migrations/${id}/start`);
    expect(start.statusCode, start.body).toBe(403);
    expect(start.json().error.code).toBe('demo_sandbox_only');
    expect(await liveJob(id)).toBeUndefined();

    const pay = await call(demo, 'POST', '/api/payments/demo', paypal(id));
    if (mode === 'stripe') {
      expect(pay.statusCode, pay.body).toBe(403);
    } else {
      // Without Stripe every payment is a demo payment; it still buys no run for a demo account.
      expect(pay.statusCode, pay.body).toBe(200);
    }
    const again = await call(demo, 'POST', `/api/migrations/${id}/start`);
    expect(again.statusCode, again.body).toBe(403);
    expect(await liveJob(id)).toBeUndefined();
  });

  it('refuses a store change while a demo payment is processed, and pays for the stores it was quoted for', async () => {
    const id = await readyMigration(app, owner, SANDBOX_SOURCE, undefined, SANDBOX_DESTINATION);
    const payment = call(owner, 'POST', '/api/payments/demo', paypal(id));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const swap = await verifyStore(app, owner, id, 'destination', REAL_DESTINATION);
    expect(swap.statusCode, swap.body).toBe(409);
    expect(swap.json().error.code).toBe('payment_in_flight');
    const rename = await call(owner, 'PATCH', `/api/migrations/${id}`, {
      destinationStore: 'magento2',
    });
    expect(rename.statusCode, rename.body).toBe(409);
    const deselect = await call(owner, 'PATCH', `/api/migrations/${id}`, {
      dataTypes: { products: true, customers: false, orders: false },
    });
    expect(deselect.statusCode, deselect.body).toBe(409);

    const paid = await payment;
    expect(paid.statusCode, paid.body).toBe(200);
    expect((await call(owner, 'GET', `/migration/${id}`)).json()).toMatchObject({
      destinationStoreUrl: SANDBOX_DESTINATION,
      dataTypes: { products: true, customers: true, orders: true },
    });
    // Once recorded, the paid stores stay.
    expect((await verifyStore(app, owner, id, 'destination', REAL_DESTINATION)).statusCode).toBe(
      409,
    );
  });

  it('records no demo payment when a store changed during it, and start checks again', async () => {
    const id = await readyMigration(app, owner, SANDBOX_SOURCE, undefined, SANDBOX_DESTINATION);
    const userId = await userIdOf(owner);
    const payment = call(owner, 'POST', '/api/payments/demo', paypal(id));
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A change the in-flight check cannot see (another server process, written directly).
    await sealRealStore(id, userId, 'destination', REAL_DESTINATION);
    const refused = await payment;
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.code).toBe('stores_changed');
    const after = (await call(owner, 'GET', `/migration/${id}`)).json();
    expect(after.paymentInfo).toBeNull();
    const quotes = await app.services.payments.quotes.listQuotes(id);
    expect(quotes.map((q) => q.status)).toEqual(['expired']);

    const start = await call(owner, 'POST', `/api/migrations/${id}/start`);
    expect(start.statusCode, start.body).toBe(402);
    expect(await liveJob(id)).toBeUndefined();
  });

  it('refuses payment until both stores are connected and data is selected', async () => {
    const id = await create(owner);
    expect((await verifyStore(app, owner, id, 'source', REAL_SOURCE)).statusCode).toBe(200);
    await selectAll(owner, id);
    const attempts = async () => [
      await call(owner, 'POST', '/api/stripe/create-checkout-session', { migrationId: id }),
      await call(owner, 'POST', '/api/payments/demo', paypal(id)),
    ];
    const [checkout, demo] = await attempts();
    if (mode === 'stripe') {
      expect(checkout?.statusCode, checkout?.body).toBe(409);
      expect(checkout?.json().error).toEqual({
        code: 'stores_not_connected',
        message: 'Connect both your source and destination stores before paying.',
      });
      // Demo payments are not for real stores at all here.
      expect(demo?.statusCode, demo?.body).toBe(403);
    } else {
      expect(checkout?.statusCode).toBe(503);
      expect(demo?.statusCode, demo?.body).toBe(409);
      expect(demo?.json().error.code).toBe('stores_not_connected');
    }

    expect((await verifyStore(app, owner, id, 'destination', REAL_DESTINATION)).statusCode).toBe(
      200,
    );
    const none = await call(owner, 'PATCH', `/api/migrations/${id}`, {
      dataTypes: { products: false, customers: false, orders: false },
    });
    expect(none.statusCode, none.body).toBe(200);
    const [checkout2, demo2] = await attempts();
    const refusal = mode === 'stripe' ? checkout2 : demo2;
    expect(refusal?.statusCode, refusal?.body).toBe(409);
    expect(refusal?.json().error).toEqual({
      code: 'no_data_selected',
      message: 'Select the data to migrate before paying.',
    });
    expect((await call(owner, 'GET', `/migration/${id}`)).json().paymentInfo).toBeNull();
  });

  it.runIf(mode === 'stripe')(
    'never leaves a paid migration unable to run when a store changed before the checkout was paid',
    async () => {
      const id = await readyMigration(app, owner, REAL_SOURCE);
      const checkout = await call(owner, 'POST', '/api/stripe/create-checkout-session', {
        migrationId: id,
      });
      expect(checkout.statusCode, checkout.body).toBe(200);
      // The owner changes the destination while the checkout page is open, then pays it.
      const changed = await call(owner, 'PATCH', `/api/migrations/${id}`, {
        destinationStore: 'magento2',
      });
      expect(changed.statusCode, changed.body).toBe(200);
      const sessionId = checkout.json().id as string;
      stripe?.completeSession(sessionId);
      const recorded = await call(owner, 'POST', '/api/stripe/payment-success', {
        migrationId: id,
        sessionId,
      });
      expect(recorded.statusCode, recorded.body).toBe(200);

      // Paid, with no destination: it may still connect one (and go back to do so), then run.
      const stuck = await call(owner, 'POST', `/api/migrations/${id}/start`);
      expect(stuck.statusCode).toBe(409);
      expect(stuck.json().error.code).toBe('stores_not_connected');
      const back = await call(owner, 'PATCH', `/api/migrations/${id}`, { currentStep: 1 });
      expect(back.statusCode, back.body).toBe(200);
      const connect = await verifyStore(app, owner, id, 'destination', REAL_DESTINATION);
      expect(connect.statusCode, connect.body).toBe(200);
      // Now connected, that side is locked like the other.
      expect(
        (await verifyStore(app, owner, id, 'destination', SANDBOX_DESTINATION)).statusCode,
      ).toBe(409);
      const start = await call(owner, 'POST', `/api/migrations/${id}/start`);
      expect(start.statusCode, start.body).toBe(200);
    },
  );
});
