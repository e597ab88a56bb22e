import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseStripeForm } from './form-encoding.ts';
import { startStripeEmulator, type RunningStripeEmulator } from './stripe-emulator.ts';
import { StripeSpec, stripeApiVersion } from './stripe-spec.ts';
import { signWebhookPayload } from './webhooks.ts';

const secret = 'whsec_test_emulator_secret';
const apiKey = 'sk_test_emulator_key';

interface Received {
  body: string;
  signature: string;
}

/** A webhook endpoint that records what it gets and answers with the next queued status. */
async function startReceiver(): Promise<{
  url: string;
  received: Received[];
  statuses: number[];
  close: () => Promise<void>;
}> {
  const received: Received[] = [];
  const statuses: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: String(req.headers['stripe-signature']),
      });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhook`,
    received,
    statuses,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function clientFor(emulator: RunningStripeEmulator, options: { pin?: boolean; key?: string } = {}) {
  return new Stripe(options.key ?? apiKey, {
    ...(options.pin === false
      ? {}
      : { apiVersion: stripeApiVersion as unknown as Stripe.LatestApiVersion }),
    host: '127.0.0.1',
    port: emulator.port,
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
  });
}

const sessionParams = (amount = 10_900): Stripe.Checkout.SessionCreateParams => ({
  mode: 'payment',
  line_items: [
    {
      quantity: 1,
      price_data: {
        currency: 'usd',
        unit_amount: amount,
        product_data: { name: 'Store migration', description: '1,000 records' },
      },
    },
  ],
  success_url:
    'http://localhost:4001/migrations/m1?payment=success&session_id={CHECKOUT_SESSION_ID}',
  cancel_url: 'http://localhost:4001/migrations/m1?payment=cancelled',
  customer_email: 'owner@example.com',
  client_reference_id: 'm1',
  metadata: { migration_id: 'm1', quote_id: 'q1' },
  payment_intent_data: { metadata: { migration_id: 'm1', quote_id: 'q1' } },
});

/** Fills in and submits the hosted checkout form like a browser does. */
async function payOnHostedPage(
  url: string,
  fields: Record<string, string> = {},
): Promise<Response> {
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const markup = await page.text();
  const action = /<form method="post" action="([^"]+)">/.exec(markup)?.[1];
  expect(action).toBeDefined();
  return fetch(new URL(action ?? '', url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      email: 'payer@example.com',
      cardNumber: '4242 4242 4242 4242',
      expiry: '12 / 34',
      cvc: '123',
      name: 'Jenny Rosen',
      country: 'US',
      postalCode: '94107',
      ...fields,
    }),
    redirect: 'manual',
  });
}

describe('Stripe emulator', () => {
  let emulator: RunningStripeEmulator;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let stripe: Stripe;
  const spec = StripeSpec.shared();

  beforeAll(async () => {
    receiver = await startReceiver();
    emulator = await startStripeEmulator({
      webhooks: [{ url: receiver.url, secret }],
      webhookRetryDelaysMs: [20, 20],
    });
    stripe = clientFor(emulator);
  });
  afterAll(async () => {
    await emulator.close();
    await receiver.close();
  });
  afterEach(async () => {
    await emulator.webhooksSettled();
    receiver.received.length = 0;
    receiver.statuses.length = 0;
  });

  it('decodes Stripe’s bracketed form encoding', () => {
    expect(
      parseStripeForm(
        'line_items[0][price_data][unit_amount]=5&line_items[0][quantity]=1&metadata[a]=b&expand[]=x&expand[]=y&z=',
      ),
    ).toEqual({
      line_items: [{ price_data: { unit_amount: '5' }, quantity: '1' }],
      metadata: { a: 'b' },
      expand: ['x', 'y'],
      z: '',
    });
  });

  it('creates a Checkout Session whose params and object match Stripe’s 2023-08-16 spec', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    expect(session).toMatchObject({
      object: 'checkout.session',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: 10_900,
      currency: 'usd',
      metadata: { migration_id: 'm1', quote_id: 'q1' },
      payment_intent: null,
    });
    expect(session.url).toBe(`${emulator.url}/c/pay/${session.id}`);
    expect(spec.validateObject('checkout.session', session)).toEqual([]);
    // The check has teeth: a wrong enum value or a missing required field is reported.
    expect(
      spec.validateObject('checkout.session', { ...session, payment_status: 'bogus' }),
    ).not.toEqual([]);
    const { created: _created, ...withoutCreated } = session;
    expect(spec.validateObject('checkout.session', withoutCreated)).not.toEqual([]);
    // Expanding what is still empty leaves it empty.
    const expanded = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ['payment_intent.latest_charge'],
    });
    expect(expanded.payment_intent).toBeNull();

    // What the SDK sent, re-checked against the spec's requestBody schema of the operation.
    const sent = emulator.requests.findLast(
      (r) => r.method === 'POST' && r.path === '/v1/checkout/sessions',
    );
    expect(sent?.stripeVersion).toBe('2023-08-16');
    const form = parseStripeForm(sent?.rawParams ?? '');
    expect(form.line_items).toEqual([
      {
        quantity: '1',
        price_data: {
          currency: 'usd',
          unit_amount: '10900',
          product_data: { name: 'Store migration', description: '1,000 records' },
        },
      },
    ]);
    expect(spec.validateParams('POST', '/v1/checkout/sessions', form)).toEqual([]);
    expect(form.line_items).toMatchObject([{ quantity: 1, price_data: { unit_amount: 10_900 } }]);
  });

  it('refuses params the spec does not allow, with Stripe’s error shape', async () => {
    const bad = { ...sessionParams(), bogus_param: 'x' } as Stripe.Checkout.SessionCreateParams;
    await expect(stripe.checkout.sessions.create(bad)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      message: 'Received unknown parameter: bogus_param',
      param: 'bogus_param',
    });
    const response = await fetch(`${emulator.url}/v1/checkout/sessions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${apiKey}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'mode=payment&success_url=http://x.test/ok&line_items[0][quantity]=many',
    });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({
      type: 'invalid_request_error',
      param: 'line_items[0][quantity]',
    });
  });

  it('refuses an unpinned client, a wrong key, and amounts under Stripe’s minimum', async () => {
    await expect(
      clientFor(emulator, { pin: false }).checkout.sessions.create(sessionParams()),
    ).rejects.toThrow(/2023-08-16/);
    await expect(
      clientFor(emulator, { key: 'sk_live_nope' }).checkout.sessions.create(sessionParams()),
    ).rejects.toMatchObject({ type: 'StripeAuthenticationError' });
    await expect(stripe.checkout.sessions.create(sessionParams(49))).rejects.toMatchObject({
      code: 'amount_too_small',
    });
  });

  it('replays an idempotent request and refuses the key for other params', async () => {
    const first = await stripe.checkout.sessions.create(sessionParams(), {
      idempotencyKey: 'quote-1',
    });
    const again = await stripe.checkout.sessions.create(sessionParams(), {
      idempotencyKey: 'quote-1',
    });
    expect(again.id).toBe(first.id);
    expect(emulator.state.sessions.size).toBeGreaterThan(0);
    await expect(
      stripe.checkout.sessions.create(sessionParams(20_000), { idempotencyKey: 'quote-1' }),
    ).rejects.toMatchObject({ type: 'StripeIdempotencyError' });
  });

  it('pays through the hosted page, redirects to the success URL and signs every webhook', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const paid = await payOnHostedPage(session.url ?? '');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(
      `http://localhost:4001/migrations/m1?payment=success&session_id=${session.id}`,
    );

    const retrieved = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ['payment_intent.latest_charge'],
    });
    expect(retrieved).toMatchObject({
      status: 'complete',
      payment_status: 'paid',
      customer_details: { email: 'payer@example.com', name: 'Jenny Rosen' },
    });
    const intent = retrieved.payment_intent as Stripe.PaymentIntent;
    expect(intent).toMatchObject({
      status: 'succeeded',
      amount: 10_900,
      metadata: { quote_id: 'q1' },
    });
    const charge = intent.latest_charge as Stripe.Charge;
    expect(charge.payment_method_details?.card).toMatchObject({ brand: 'visa', last4: '4242' });
    expect(spec.validateObject('checkout.session', retrieved)).toEqual([]);
    expect(spec.validateObject('payment_intent', intent)).toEqual([]);
    expect(spec.validateObject('charge', charge)).toEqual([]);
    expect(await stripe.paymentIntents.retrieve(intent.id)).toMatchObject({
      latest_charge: charge.id,
    });
    expect((await stripe.charges.retrieve(charge.id)).receipt_url).toBe(charge.receipt_url);

    const receipt = await fetch(charge.receipt_url ?? '');
    expect(receipt.status).toBe(200);
    expect(await receipt.text()).toContain('$109.00');

    await emulator.webhooksSettled();
    const events = receiver.received.map((r) =>
      stripe.webhooks.constructEvent(r.body, r.signature, secret),
    );
    expect(events.map((e) => e.type).sort()).toEqual([
      'charge.succeeded',
      'checkout.session.completed',
      'payment_intent.succeeded',
    ]);
    for (const event of events) expect(spec.validateObject('event', event)).toEqual([]);
    const completed = events.find((e) => e.type === 'checkout.session.completed');
    expect((completed?.data.object as Stripe.Checkout.Session).payment_status).toBe('paid');
    expect(completed?.api_version).toBe('2023-08-16');
    expect(await stripe.events.retrieve(completed?.id ?? '')).toMatchObject({ id: completed?.id });

    // The session cannot be paid twice.
    const again = await payOnHostedPage(session.url ?? '').catch((e: unknown) => e);
    expect(again).toBeInstanceOf(Error);
  });

  it('keeps the session open on a declined card and shows Stripe’s message', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const declined = await payOnHostedPage(session.url ?? '', {
      cardNumber: '4000 0000 0000 0002',
    });
    expect(declined.status).toBe(402);
    expect(await declined.text()).toContain('Your card was declined.');
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
    const invalid = await payOnHostedPage(session.url ?? '', { cardNumber: '4242 4242 4242 4241' });
    expect(await invalid.text()).toContain('Your card number is invalid.');
  });

  it('cancels back to the cancel URL, and expires with an event', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    const page = await (await fetch(session.url ?? '')).text();
    const cancelAction = /action="([^"]+\/cancel)"/.exec(page)?.[1] ?? '';
    const cancelled = await fetch(new URL(cancelAction, emulator.url), {
      method: 'POST',
      redirect: 'manual',
    });
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get('location')).toBe(
      'http://localhost:4001/migrations/m1?payment=cancelled',
    );

    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ status: 'expired', url: null });
    await expect(stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
    });
    expect(await (await fetch(session.url ?? '')).text()).toContain('expired');
    await emulator.webhooksSettled();
    expect(receiver.received.map((r) => JSON.parse(r.body).type)).toEqual([
      'checkout.session.expired',
    ]);
  });

  it('answers resource_missing for unknown ids', async () => {
    await expect(stripe.checkout.sessions.retrieve('cs_test_missing')).rejects.toMatchObject({
      code: 'resource_missing',
      statusCode: 404,
    });
  });

  it('retries a webhook until the endpoint accepts it, with a fresh signature each time', async () => {
    receiver.statuses.push(500, 503);
    const session = await stripe.checkout.sessions.create(sessionParams());
    emulator.setWebhookEndpoints([
      { url: receiver.url, secret, enabledEvents: ['checkout.session.completed'] },
    ]);
    try {
      emulator.completeSession(session.id);
      await emulator.webhooksSettled();
    } finally {
      emulator.setWebhookEndpoints([{ url: receiver.url, secret }]);
    }
    expect(receiver.received).toHaveLength(3);
    const attempts = emulator.webhooks.attempts.filter(
      (a) => a.eventType === 'checkout.session.completed' && a.url === receiver.url,
    );
    expect(attempts.slice(-3).map((a) => a.status)).toEqual([500, 503, 200]);
    for (const r of receiver.received) {
      expect(stripe.webhooks.constructEvent(r.body, r.signature, secret).type).toBe(
        'checkout.session.completed',
      );
    }
  });

  it('signs like Stripe: the SDK accepts its signature and refuses a stale or foreign one', () => {
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'x' });
    const now = Math.floor(Date.now() / 1000);
    expect(
      stripe.webhooks.constructEvent(payload, signWebhookPayload(payload, secret, now), secret).id,
    ).toBe('evt_1');
    expect(() =>
      stripe.webhooks.constructEvent(
        payload,
        signWebhookPayload(payload, secret, now - 3600),
        secret,
      ),
    ).toThrow(/tolerance/);
    expect(() =>
      stripe.webhooks.constructEvent(
        payload,
        signWebhookPayload(payload, 'whsec_other', now),
        secret,
      ),
    ).toThrow();
    const sdkHeader = stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: now });
    expect(sdkHeader).toBe(signWebhookPayload(payload, secret, now));
  });

  it('completes a delayed payment unpaid, then settles it asynchronously', async () => {
    const session = await stripe.checkout.sessions.create(sessionParams());
    emulator.completeSession(session.id, { outcome: 'processing' });
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
      status: 'complete',
      payment_status: 'unpaid',
    });
    emulator.settleAsyncPayment(session.id, true);
    expect((await stripe.checkout.sessions.retrieve(session.id)).payment_status).toBe('paid');
    await emulator.webhooksSettled();
    const types = receiver.received.map((r) => JSON.parse(r.body).type);
    expect(types).toContain('checkout.session.completed');
    expect(types).toContain('checkout.session.async_payment_succeeded');
  });
});
