import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationSchema } from '@replatform/contracts/migration';
import {
  checkoutSessionResponseSchema,
  paymentRecordedResponseSchema,
  paymentSummarySchema,
  paymentsConfigSchema,
} from '@replatform/contracts/payments';
import { PaymentsRepository } from '@replatform/db/payments-repository';
import { testDialects } from '@replatform/db/test-databases';
import {
  startStripeEmulator,
  type RunningStripeEmulator,
} from '@replatform/emulators/stripe/stripe-emulator';
import type { StripeObject } from '@replatform/emulators/stripe/state';
import { signWebhookPayload } from '@replatform/emulators/stripe/webhooks';
import type { App } from '../../app.ts';
import { readPdf } from '../../testing/pdf-text.ts';
import {
  caller,
  readyMigration,
  seededRandom,
  signUp,
  startPaymentsApp,
  testOrigin,
  type SourceCounts,
} from './payment-test-kit.ts';

const webhookSecret = 'whsec_replatform_payments_test';
const secretKey = 'sk_test_replatform_payments';
const SHOP = 'https://shop.example.com';
const GROWING = 'https://growing.example.com';
const SANDBOX = 'https://sandbox.example.com';

describe.each(testDialects())('Stripe payments API on %s', (dialect) => {
  let app: App;
  let close: () => Promise<void>;
  let stripe: RunningStripeEmulator;
  let alice: string;
  let bob: string;
  let call: ReturnType<typeof caller>;
  const counts: SourceCounts = {
    [SHOP]: { products: 1500, customers: 750, orders: 250 },
    [GROWING]: { products: 100, customers: 50, orders: 20 },
    [SANDBOX]: { products: 0, customers: 0, orders: 0 },
  };

  beforeAll(async () => {
    stripe = await startStripeEmulator();
    ({ app, close } = await startPaymentsApp(
      dialect,
      {
        STRIPE_SECRET_KEY: secretKey,
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_API_BASE: stripe.url,
      },
      counts,
    ));
    call = caller(app);
    alice = await signUp(app, 'alice@example.com');
    bob = await signUp(app, 'bob@example.com');
  });
  afterAll(async () => {
    await close();
    await stripe.close();
  });

  const checkout = async (
    cookie: string,
    migrationId: string,
    extra: Record<string, unknown> = {},
  ) => {
    const res = await call(cookie, 'POST', '/api/stripe/create-checkout-session', {
      migrationId,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return checkoutSessionResponseSchema.parse(res.json());
  };
  const migration = async (cookie: string, id: string) =>
    migrationSchema.parse((await call(cookie, 'GET', `/migration/${id}`)).json());
  const paidQuotes = async (migrationId: string) =>
    (await new PaymentsRepository(app.services.db).paidQuotes(migrationId)).length;
  const paymentNotices = async (migrationId: string) =>
    (
      await app.services.db.kysely
        .selectFrom('notifications')
        .select('id')
        .where('migration_id', '=', migrationId)
        .where('title', '=', 'Payment received')
        .execute()
    ).length;
  const eventFor = (type: string, sessionId: string): StripeObject => {
    const event = stripe.state.events.find(
      (e) => e.type === type && (e.data as { object: { id: string } }).object.id === sessionId,
    );
    if (!event) throw new Error(`no ${type} event for ${sessionId}`);
    return event;
  };
  const deliver = (
    event: StripeObject,
    options: { secret?: string; timestamp?: number; signature?: string | null } = {},
  ) => {
    const payload = JSON.stringify(event, null, 2);
    const signature =
      options.signature === undefined
        ? signWebhookPayload(
            payload,
            options.secret ?? webhookSecret,
            options.timestamp ?? Math.floor(Date.now() / 1000),
          )
        : options.signature;
    return app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        ...(signature === null ? {} : { 'stripe-signature': signature }),
      },
      payload,
    });
  };
  const confirm = (cookie: string, migrationId: string, sessionId: string) =>
    call(cookie, 'POST', '/api/stripe/payment-success', { migrationId, sessionId });

  it('tells the UI that Stripe is on and demo payments are not for normal accounts', async () => {
    const res = await call(alice, 'GET', '/api/payments/config');
    expect(paymentsConfigSchema.parse(res.json())).toEqual({
      mode: 'stripe',
      demoPaymentsAllowed: false,
      currency: 'usd',
      baseFeeCents: 9900,
      perRecordCents: 1,
    });
  });

  it('allows demo payments with Stripe on only for demo accounts and sandbox-to-sandbox migrations', async () => {
    const id = await readyMigration(app, alice, SHOP);
    const destination = await call(alice, 'POST', '/verify-woocommerce-connection', {
      migrationId: id,
      side: 'destination',
      sourceStoreUrl: SANDBOX,
      consumerKey: 'ck_test',
      consumerSecret: 'cs_test',
    });
    expect(destination.statusCode, destination.body).toBe(200);
    const allowed = async () =>
      paymentsConfigSchema.parse(
        (await call(alice, 'GET', `/api/payments/config?migrationId=${id}`)).json(),
      ).demoPaymentsAllowed;
    const demoPay = () =>
      call(alice, 'POST', '/api/payments/demo', {
        method: 'paypal',
        migrationId: id,
        email: 'alice@example.com',
      });
    expect(await allowed()).toBe(false);
    expect((await demoPay()).statusCode).toBe(403);

    app.services.engine.sandboxOrigins.add(new URL(SHOP).origin);
    app.services.engine.sandboxOrigins.add(new URL(SANDBOX).origin);
    try {
      expect(await allowed()).toBe(true);
      const paid = await demoPay();
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().paymentInfo).toMatchObject({
        demo: true,
        paymentMethod: { type: 'paypal' },
      });
    } finally {
      app.services.engine.sandboxOrigins.clear();
    }

    const demo = await app.inject({
      method: 'POST',
      url: '/api/auth/demo/sign-in',
      headers: { origin: testOrigin, 'content-type': 'application/json' },
      payload: {},
    });
    expect(demo.statusCode, demo.body).toBe(200);
    const demoCookie = [demo.headers['set-cookie']]
      .flat()
      .filter((c): c is string => Boolean(c))
      .map((c) => c.split(';')[0])
      .join('; ');
    expect((await call(demoCookie, 'GET', '/api/payments/config')).json().demoPaymentsAllowed).toBe(
      true,
    );

    // The demo account's sample migrations are created paid, without a checkout: our receipt.
    const samples = (await call(demoCookie, 'GET', '/get-migrations')).json() as {
      id: string;
      paymentInfo: { paymentStatus: string } | null;
    }[];
    const samplePaid = samples.find((m) => m.paymentInfo?.paymentStatus === 'paid');
    expect(samplePaid).toBeDefined();
    const receipt = await call(demoCookie, 'GET', `/api/stripe/receipt/${samplePaid?.id}`);
    expect(receipt.json()).toEqual({
      receiptUrl: `${testOrigin}/api/receipts/${samplePaid?.id}.pdf`,
    });
    const pdf = await call(demoCookie, 'GET', `/api/receipts/${samplePaid?.id}.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect((await readPdf(pdf.rawPayload)).lines).toContain(
      'DEMO PAYMENT — simulated in demo mode, no money was charged',
    );
  });

  it('requires a session and answers spec.md’s text for unknown and foreign migrations', async () => {
    const unauth = await call(undefined, 'POST', '/api/stripe/create-checkout-session', {
      migrationId: 'x',
    });
    expect(unauth.statusCode).toBe(401);
    const mine = await readyMigration(app, alice, SHOP);
    for (const [cookie, id] of [
      [alice, 'does-not-exist'],
      [bob, mine],
    ] as const) {
      const res = await call(cookie, 'POST', '/api/stripe/create-checkout-session', {
        migrationId: id,
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe('Migration ID not found');
    }
  });

  it('prices from its own count of the selected types, never the browser’s, with return URLs from PUBLIC_URL', async () => {
    const id = await readyMigration(app, alice, SHOP, { products: true, orders: true });
    const summary = paymentSummarySchema.parse(
      (await call(alice, 'GET', `/api/payments/summary?migrationId=${id}`)).json(),
    );
    expect(summary).toMatchObject({
      counts: { products: 1500, customers: 0, orders: 250 },
      records: 1750,
      kind: 'initial',
      amountDueCents: 9900 + 1750,
      taxCents: 0,
    });
    const res = await call(
      alice,
      'POST',
      '/api/stripe/create-checkout-session',
      { migrationId: id, entriesCount: 1 },
      { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    );
    expect(res.statusCode, res.body).toBe(200);
    const { url, id: sessionId } = checkoutSessionResponseSchema.parse(res.json());
    expect(url).toBe(`${stripe.url}/c/pay/${sessionId}`);
    const session = stripe.state.retrieveSession(sessionId);
    expect(session).toMatchObject({
      amount_total: 11_650,
      currency: 'usd',
      metadata: { migration_id: id },
      success_url: `${testOrigin}/migrations/${id}?payment=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${testOrigin}/migrations/${id}?payment=cancelled`,
      customer_email: 'alice@example.com',
    });
    const sent = stripe.requests.find(
      (r) => r.method === 'POST' && r.path === '/v1/checkout/sessions',
    );
    expect(sent?.stripeVersion).toBe('2023-08-16');
    expect(sent?.idempotencyKey).toMatch(/^replatform-checkout-/);

    // Pressing the button again reuses the open session instead of opening a second one.
    expect((await checkout(alice, id)).id).toBe(sessionId);
    // Once paid (before any webhook or return), it records that payment instead of charging again.
    stripe.completeSession(sessionId);
    const again = await call(alice, 'POST', '/api/stripe/create-checkout-session', {
      migrationId: id,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('already_paid');
    expect((await migration(alice, id)).paymentInfo).toMatchObject({ amount: 11_650 });
  });

  it('records nothing for an unpaid session, by either path', async () => {
    const id = await readyMigration(app, alice, SHOP);
    const { id: sessionId } = await checkout(alice, id);
    const early = await confirm(alice, id, sessionId);
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatchObject({
      code: 'payment_not_paid',
      message: 'Failed to record payment status. Please contact support.',
    });
    // A session completed with a delayed payment method is complete but not paid yet.
    stripe.completeSession(sessionId, { outcome: 'processing' });
    expect((await deliver(eventFor('checkout.session.completed', sessionId))).statusCode).toBe(200);
    expect((await confirm(alice, id, sessionId)).statusCode).toBe(409);
    expect((await migration(alice, id)).paymentInfo).toBeNull();
    expect(await paymentNotices(id)).toBe(0);

    // Once the bank settles, the async event records it.
    stripe.settleAsyncPayment(sessionId, true);
    const settled = await deliver(eventFor('checkout.session.async_payment_succeeded', sessionId));
    expect(settled.statusCode).toBe(200);
    expect((await migration(alice, id)).paymentInfo?.paymentStatus).toBe('paid');
  });

  it('records a paid session once, with what Stripe reports, and raises one notification', async () => {
    const id = await readyMigration(app, alice, SHOP);
    const { id: sessionId } = await checkout(alice, id);
    stripe.completeSession(sessionId, {
      card: { number: '5555555555554444' },
      customer: { email: 'billing@alice.example' },
    });
    const res = await confirm(alice, id, sessionId);
    expect(res.statusCode, res.body).toBe(200);
    const recorded = paymentRecordedResponseSchema.parse(res.json());
    expect(recorded.paymentInfo).toMatchObject({
      paymentStatus: 'paid',
      amount: 12_400,
      currency: 'usd',
      paymentMethod: { type: 'card', card: { brand: 'mastercard', last4: '4444' } },
      customerEmail: 'billing@alice.example',
      paidRecords: 2500,
    });
    expect(recorded.paymentInfo.demo).toBeUndefined();
    expect(Date.parse(recorded.paymentInfo.paymentDate ?? '')).toBeGreaterThan(0);
    expect((await migration(alice, id)).paymentInfo).toEqual(recorded.paymentInfo);

    // The webhook arriving after the return changes nothing; so does a second return.
    expect((await deliver(eventFor('checkout.session.completed', sessionId))).json()).toEqual({
      received: true,
    });
    expect((await confirm(alice, id, sessionId)).statusCode).toBe(200);
    expect(await paidQuotes(id)).toBe(1);
    expect(await paymentNotices(id)).toBe(1);

    const list = (await call(alice, 'GET', '/api/notifications')).json();
    expect(list.notifications[0]).toMatchObject({
      type: 'success',
      title: 'Payment received',
      migrationId: id,
      read: false,
    });

    // Paid: the stores and data selection are locked, and the receipt is Stripe's.
    const receipt = await call(alice, 'GET', `/api/stripe/receipt/${id}`);
    expect(receipt.statusCode).toBe(200);
    const receiptUrl = receipt.json().receiptUrl as string;
    expect(receiptUrl.startsWith(`${stripe.url}/receipts/payment/`)).toBe(true);
    expect(await (await fetch(receiptUrl)).text()).toContain('$124.00');
    expect((await call(bob, 'GET', `/api/stripe/receipt/${id}`)).statusCode).toBe(404);
    expect(
      (await call(alice, 'PATCH', `/api/migrations/${id}`, { dataTypes: { products: true } }))
        .statusCode,
    ).toBe(409);
  });

  it('refuses a foreign session: another owner’s, another migration’s, or one we never made', async () => {
    const bobs = await readyMigration(app, bob, SHOP);
    const { id: bobSession } = await checkout(bob, bobs);
    stripe.completeSession(bobSession);
    const alices = await readyMigration(app, alice, SHOP);
    await checkout(alice, alices);

    const stolen = await confirm(alice, alices, bobSession);
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json().error.code).toBe('payment_foreign_session');
    expect((await confirm(alice, bobs, bobSession)).statusCode).toBe(404);
    expect((await migration(alice, alices)).paymentInfo).toBeNull();

    // A session made directly on the Stripe account, claiming Alice's migration in its metadata.
    const forged = await fetch(`${stripe.url}/v1/checkout/sessions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        mode: 'payment',
        success_url: 'https://evil.example/ok',
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': 'usd',
        'line_items[0][price_data][unit_amount]': '50',
        'line_items[0][price_data][product_data][name]': 'cheap',
        'metadata[migration_id]': alices,
      }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    stripe.completeSession(forged.id);
    expect((await deliver(eventFor('checkout.session.completed', forged.id))).statusCode).toBe(200);
    expect((await confirm(alice, alices, forged.id)).statusCode).toBe(409);
    expect((await confirm(alice, alices, 'cs_test_unknown')).statusCode).toBe(409);
    expect((await migration(alice, alices)).paymentInfo).toBeNull();
    expect(await paymentNotices(alices)).toBe(0);
  });

  it('refuses a paid session whose amount or currency differs from the quote', async () => {
    for (const [currency, amount] of [
      ['usd', 50],
      ['eur', 12_400],
    ] as const) {
      const id = await readyMigration(app, alice, SHOP);
      // A quote whose session id was never saved (as if the server stopped right after Stripe
      // answered): the session is then matched by its metadata, so amount and currency decide.
      const quote = await new PaymentsRepository(app.services.db).createQuote({
        migrationId: id,
        userId: (await migration(alice, id)).userId,
        kind: 'initial',
        provider: 'stripe',
        counts: { products: 1500, customers: 750, orders: 250 },
        recordsTotal: 2500,
        previouslyPaidRecords: 0,
        recordsBought: 2500,
        amountCents: 12_400,
        currency: 'usd',
      });
      const session = stripe.state.createCheckoutSession({
        mode: 'payment',
        success_url: 'http://localhost:4001/ok',
        line_items: [{ quantity: 1, price_data: { currency, unit_amount: amount } }],
        metadata: { migration_id: id, quote_id: quote.id },
      });
      stripe.completeSession(session.id as string);
      const res = await confirm(alice, id, session.id as string);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('payment_amount_mismatch');
      expect(
        (await deliver(eventFor('checkout.session.completed', session.id as string))).statusCode,
      ).toBe(200);
      expect((await migration(alice, id)).paymentInfo).toBeNull();
    }
  });

  it('refuses webhooks with a bad, missing or stale signature, and ignores a replay', async () => {
    const id = await readyMigration(app, alice, SHOP);
    const { id: sessionId } = await checkout(alice, id);
    stripe.completeSession(sessionId);
    const event = eventFor('checkout.session.completed', sessionId);

    for (const attempt of [
      deliver(event, { secret: 'whsec_someone_else' }),
      deliver(event, { signature: null }),
      deliver(event, { signature: 't=1,v1=deadbeef' }),
      deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 600 }),
    ]) {
      const res = await attempt;
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid_signature');
    }
    // A body altered after signing fails too.
    const payload = JSON.stringify(event, null, 2);
    const tampered = await app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signWebhookPayload(
          payload,
          webhookSecret,
          Math.floor(Date.now() / 1000),
        ),
      },
      payload: payload.replace(sessionId, `${sessionId}x`),
    });
    expect(tampered.statusCode).toBe(400);
    expect((await migration(alice, id)).paymentInfo).toBeNull();

    expect((await deliver(event)).json()).toEqual({ received: true });
    expect((await migration(alice, id)).paymentInfo?.paymentStatus).toBe('paid');
    expect((await deliver(event)).json()).toEqual({ received: true, duplicate: true });
    expect(await paidQuotes(id)).toBe(1);
    expect(await paymentNotices(id)).toBe(1);
  });

  it('expires the quote when Stripe expires the session, and not after it was paid', async () => {
    const id = await readyMigration(app, alice, SHOP);
    const { id: sessionId } = await checkout(alice, id);
    stripe.state.expireSession(sessionId);
    expect((await deliver(eventFor('checkout.session.expired', sessionId))).statusCode).toBe(200);
    const repo = new PaymentsRepository(app.services.db);
    expect((await repo.findQuoteBySession(sessionId))?.status).toBe('expired');
    // The next checkout opens a new session rather than the expired one.
    const next = await checkout(alice, id);
    expect(next.id).not.toBe(sessionId);
  });

  it('keeps a fulfilled payment when expired or async_payment_failed events arrive after it', async () => {
    const id = await readyMigration(app, alice, SHOP);
    const { id: sessionId } = await checkout(alice, id);
    stripe.completeSession(sessionId);
    const completed = eventFor('checkout.session.completed', sessionId);
    expect((await deliver(completed)).statusCode).toBe(200);
    const paidInfo = (await migration(alice, id)).paymentInfo;
    expect(paidInfo).toMatchObject({ paymentStatus: 'paid', amount: 12_400 });

    // Late or out-of-order events about the same session, as Stripe may deliver them.
    for (const type of ['checkout.session.expired', 'checkout.session.async_payment_failed']) {
      const late = { ...completed, id: `${String(completed.id)}_${type}`, type };
      const res = await deliver(late);
      expect(res.statusCode, type).toBe(200);
      expect(res.json()).toEqual({ received: true });
    }
    expect((await migration(alice, id)).paymentInfo).toEqual(paidInfo);
    expect(
      (await new PaymentsRepository(app.services.db).findQuoteBySession(sessionId))?.status,
    ).toBe('paid');
    expect(await paidQuotes(id)).toBe(1);
    const failures = await app.services.db.kysely
      .selectFrom('notifications')
      .select('id')
      .where('migration_id', '=', id)
      .where('title', '=', 'Payment failed')
      .execute();
    expect(failures).toHaveLength(0);
    // The owner can still start: the payment stands.
    expect((await confirm(alice, id, sessionId)).json().paymentInfo).toEqual(paidInfo);
  });

  it('fulfils exactly once over 200 random interleavings of duplicate webhooks and returns', async () => {
    const random = seededRandom(20_261_121);
    const sessions: { id: string; sessionId: string }[] = [];
    for (let i = 0; i < 200; i++) {
      const id = await readyMigration(app, alice, SHOP, { products: true });
      const { id: sessionId } = await checkout(alice, id);
      stripe.completeSession(sessionId);
      sessions.push({ id, sessionId });
    }
    for (const [round, { id, sessionId }] of sessions.entries()) {
      const event = eventFor('checkout.session.completed', sessionId);
      const actions: (() => Promise<{ statusCode: number }>)[] = [];
      const webhooks = 1 + Math.floor(random() * 3);
      const returns = 1 + Math.floor(random() * 3);
      for (let w = 0; w < webhooks; w++) actions.push(() => deliver(event));
      // Stripe may also send a distinct event for the same session (e.g. after a redelivery).
      if (random() < 0.3)
        actions.push(() => deliver({ ...event, id: `${String(event.id)}_again` }));
      for (let r = 0; r < returns; r++) actions.push(() => confirm(alice, id, sessionId));
      for (let k = actions.length - 1; k > 0; k--) {
        const j = Math.floor(random() * (k + 1));
        [actions[k], actions[j]] = [actions[j] as never, actions[k] as never];
      }
      const results = await Promise.all(
        actions.map(
          (action) =>
            new Promise<{ statusCode: number }>((resolve, reject) => {
              setTimeout(() => action().then(resolve, reject), Math.floor(random() * 4));
            }),
        ),
      );
      expect(
        results.map((r) => r.statusCode),
        `round ${round}`,
      ).toEqual(results.map(() => 200));
    }
    const ids = sessions.map((s) => s.id);
    const paid = await app.services.db.kysely
      .selectFrom('payment_quotes')
      .select(['migration_id'])
      .where('migration_id', 'in', ids)
      .where('status', '=', 'paid')
      .execute();
    const notices = await app.services.db.kysely
      .selectFrom('notifications')
      .select(['migration_id'])
      .where('migration_id', 'in', ids)
      .where('title', '=', 'Payment received')
      .execute();
    expect(paid).toHaveLength(200);
    expect(new Set(paid.map((p) => p.migration_id)).size).toBe(200);
    expect(notices).toHaveLength(200);
    expect(new Set(notices.map((n) => n.migration_id)).size).toBe(200);
    for (const { id } of sessions.slice(0, 5)) {
      expect((await migration(alice, id)).paymentInfo).toMatchObject({
        amount: 9900 + 1500,
        paidRecords: 1500,
      });
    }
    // A correctness property over 200 rounds of real requests, not a timing: on a loaded
    // machine with PostgreSQL it takes over a minute.
  }, 180_000);

  it('charges only the difference when the source grew after payment', async () => {
    counts[GROWING] = { products: 100, customers: 50, orders: 20 };
    const id = await readyMigration(app, alice, GROWING);
    const first = await checkout(alice, id);
    stripe.completeSession(first.id);
    expect((await confirm(alice, id, first.id)).json().paymentInfo).toMatchObject({
      amount: 10_070,
      paidRecords: 170,
    });
    const summary = async () =>
      paymentSummarySchema.parse(
        (await call(alice, 'GET', `/api/payments/summary?migrationId=${id}`)).json(),
      );

    counts[GROWING] = { products: 130, customers: 50, orders: 20 };
    // 30 records missing; a top-up buys at least Stripe's $0.50 minimum (50 records).
    expect(await summary()).toMatchObject({
      kind: 'top_up',
      records: 200,
      paidRecords: 170,
      recordsDue: 50,
      amountDueCents: 50,
    });
    const topUp = await checkout(alice, id);
    expect(stripe.state.retrieveSession(topUp.id)).toMatchObject({ amount_total: 50 });
    stripe.completeSession(topUp.id);
    expect((await deliver(eventFor('checkout.session.completed', topUp.id))).statusCode).toBe(200);
    expect((await migration(alice, id)).paymentInfo).toMatchObject({
      amount: 10_120,
      paidRecords: 220,
    });

    counts[GROWING] = { products: 150, customers: 50, orders: 20 };
    expect(await summary()).toMatchObject({ kind: 'none', amountDueCents: 0 });
    const nothing = await call(alice, 'POST', '/api/stripe/create-checkout-session', {
      migrationId: id,
    });
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json().error.code).toBe('already_paid');

    counts[GROWING] = { products: 300, customers: 50, orders: 20 };
    expect(await summary()).toMatchObject({ kind: 'top_up', recordsDue: 150, amountDueCents: 150 });
    expect(await paymentNotices(id)).toBe(2);
  });
});

describe.each(testDialects())('demo payments without a Stripe key on %s', (dialect) => {
  let app: App;
  let close: () => Promise<void>;
  let alice: string;
  let bob: string;
  let call: ReturnType<typeof caller>;

  beforeAll(async () => {
    ({ app, close } = await startPaymentsApp(
      dialect,
      {},
      { [SHOP]: { products: 10, customers: 5, orders: 0 } },
    ));
    call = caller(app);
    alice = await signUp(app, 'alice@example.com');
    bob = await signUp(app, 'bob@example.com');
  });
  afterAll(async () => {
    await close();
  });

  const card = (migrationId: string, cardNumber: string) => ({
    method: 'card',
    migrationId,
    cardNumber,
    expiry: '12/34',
    cvc: '123',
    cardholderName: 'Alice Example',
    email: 'alice@example.com',
    address: '1 Main St',
    city: 'Springfield',
    zip: '12345',
    country: 'US',
  });

  it('says only demo payments exist, and Stripe checkout answers spec.md’s text', async () => {
    expect((await call(alice, 'GET', '/api/payments/config')).json()).toMatchObject({
      mode: 'demo',
      demoPaymentsAllowed: true,
    });
    const id = await readyMigration(app, alice, SHOP);
    const res = await call(alice, 'POST', '/api/stripe/create-checkout-session', {
      migrationId: id,
    });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.message).toBe('Stripe not initialized.');
    const hook = await app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: '{}' });
    expect(hook.statusCode).toBe(503);
  });

  it('records a clearly marked demo payment after the simulated wait, with our own PDF receipt', async () => {
    const id = await readyMigration(app, alice, SHOP);
    const started = Date.now();
    const res = await call(alice, 'POST', '/api/payments/demo', card(id, '5555 5555 5555 4444'));
    expect(res.statusCode, res.body).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(res.json().paymentInfo).toMatchObject({
      paymentStatus: 'paid',
      demo: true,
      amount: 9915,
      paidRecords: 15,
      paymentMethod: { type: 'card', card: { brand: 'mastercard', last4: '4444' } },
      customerEmail: 'alice@example.com',
    });
    const notices = (await call(alice, 'GET', '/api/notifications')).json();
    expect(notices.notifications[0]).toMatchObject({ title: 'Payment received', migrationId: id });
    expect(notices.notifications[0].message).toContain('No money was charged');

    const receipt = (await call(alice, 'GET', `/api/stripe/receipt/${id}`)).json();
    expect(receipt).toEqual({ receiptUrl: `${testOrigin}/api/receipts/${id}.pdf` });
    const pdf = await call(alice, 'GET', `/api/receipts/${id}.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const { lines } = await readPdf(pdf.rawPayload);
    expect(lines).toContain('DEMO PAYMENT — simulated in demo mode, no money was charged');
    expect(
      lines.filter((l) => /^Migration base fee \(\d{4}-\d\d-\d\d\) \$99\.00$/.test(l)),
    ).toHaveLength(1);
    expect(lines).toContain('Migration Shop of Tests');
    expect((await call(bob, 'GET', `/api/receipts/${id}.pdf`)).statusCode).toBe(404);
    expect((await call(undefined, 'GET', `/api/receipts/${id}.pdf`)).statusCode).toBe(401);

    const again = await call(alice, 'POST', '/api/payments/demo', card(id, '4242424242424242'));
    expect(again.statusCode).toBe(409);
  });

  it('records one of two demo payments sent at once, never both', async () => {
    for (let round = 0; round < 3; round++) {
      const id = await readyMigration(app, alice, SHOP);
      const results = await Promise.all([
        call(alice, 'POST', '/api/payments/demo', card(id, '4242424242424242')),
        call(alice, 'POST', '/api/payments/demo', {
          method: 'paypal',
          migrationId: id,
          email: 'alice@example.com',
        }),
      ]);
      expect(results.map((r) => r.statusCode).sort(), `round ${round}`).toEqual([200, 409]);
      // Refused as soon as it sees the other in flight, or at the latest when recording it.
      expect(['payment_in_flight', 'already_paid']).toContain(
        results.find((r) => r.statusCode === 409)?.json().error.code,
      );
      const info = (await call(alice, 'GET', `/migration/${id}`)).json().paymentInfo;
      expect(info).toMatchObject({ amount: 9915, paidRecords: 15 });
      const quotes = await app.services.db.kysely
        .selectFrom('payment_quotes')
        .select(['status'])
        .where('migration_id', '=', id)
        .execute();
      expect(quotes.filter((q) => q.status !== 'expired').map((q) => q.status)).toEqual(['paid']);
      const notices = await app.services.db.kysely
        .selectFrom('notifications')
        .select('id')
        .where('migration_id', '=', id)
        .where('title', '=', 'Payment received')
        .execute();
      expect(notices).toHaveLength(1);
    }
  });

  it('declines Stripe’s declined test card and refuses invalid or expired cards', async () => {
    const id = await readyMigration(app, alice, SHOP);
    const declined = await call(
      alice,
      'POST',
      '/api/payments/demo',
      card(id, '4000 0000 0000 0002'),
    );
    expect(declined.statusCode).toBe(402);
    expect(declined.json().error.message).toBe('Your card was declined.');
    expect(
      (await call(alice, 'POST', '/api/payments/demo', card(id, '4242 4242 4242 4241'))).statusCode,
    ).toBe(400);
    const expired = await call(alice, 'POST', '/api/payments/demo', {
      ...card(id, '4242424242424242'),
      expiry: '01/20',
    });
    expect(expired.statusCode).toBe(402);
    expect(
      (await call(bob, 'POST', '/api/payments/demo', card(id, '4242424242424242'))).statusCode,
    ).toBe(404);
    const paypal = await call(alice, 'POST', '/api/payments/demo', {
      method: 'paypal',
      migrationId: id,
      email: 'alice@example.com',
    });
    expect(paypal.statusCode).toBe(200);
    expect(paypal.json().paymentInfo.paymentMethod).toEqual({ type: 'paypal' });
  });
});
