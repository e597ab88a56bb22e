import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Connector } from '@replatform/connectors/kit/contract';
import { wooCommerceConnector } from '@replatform/connectors/woocommerce/woocommerce';
import { migrationSchema } from '@replatform/contracts/migration';
import { notificationListSchema } from '@replatform/contracts/notifications';
import {
  checkoutSessionResponseSchema,
  paymentRecordedResponseSchema,
  paymentSummarySchema,
} from '@replatform/contracts/payments';
import {
  startStripeEmulator,
  type RunningStripeEmulator,
} from '@replatform/emulators/stripe/stripe-emulator';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import { buildApp, type App } from '../apps/server/src/app.ts';
import { parseConfig } from '../apps/server/src/config.ts';
import { confirmationLink } from './harness.ts';

const webhookSecret = 'whsec_e2e_payments';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * The real server listening on a port, built with the WooCommerce connector registered (the
 * shipped registry is filled by the connector work; this test needs one real connector only).
 */
async function startPaymentServer(env: Record<string, string>) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'replatform-payment-e2e-'));
  const config = parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: url,
    ...env,
  });
  const app: App = await buildApp(config, {
    registry: { woocommerce: wooCommerceConnector as Connector<unknown> },
  });
  await app.listen({ host: '127.0.0.1', port });
  return {
    url,
    stop: async () => {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Payment end to end through HTTP only, against the server listening on a real port: the source is the
 * WooCommerce emulator (counted by the real connector through the egress guard), payment goes
 * through the Stripe emulator's hosted checkout page, and the migration is marked paid by the
 * signed webhook alone, before the browser's return call, which then changes nothing.
 */
describe('payment through Stripe Checkout (API, e2e)', () => {
  let woo: RunningWooCommerceEmulator;
  let stripe: RunningStripeEmulator;
  let server: Awaited<ReturnType<typeof startPaymentServer>>;
  let cookie = '';

  beforeAll(async () => {
    woo = await startWooCommerceEmulator({ seed: { products: 12, customers: 6, orders: 4 } });
    stripe = await startStripeEmulator({ webhookRetryDelaysMs: [100, 300] });
    server = await startPaymentServer({
      STRIPE_SECRET_KEY: 'sk_test_e2e_payments',
      STRIPE_WEBHOOK_SECRET: webhookSecret,
      STRIPE_API_BASE: stripe.url,
      EGRESS_ALLOWLIST: woo.url,
      EGRESS_ALLOW_HTTP: 'true',
    });
    stripe.setWebhookEndpoints([
      { url: `${server.url}/api/stripe/webhook`, secret: webhookSecret },
    ]);
  });
  afterAll(async () => {
    await server?.stop();
    await stripe?.close();
    await woo?.close();
  });

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        origin: server.url,
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.getSetCookie();
    if (setCookie.length) cookie = setCookie.map((c) => c.split(';')[0]).join('; ');
    const text = await response.text();
    return {
      status: response.status,
      json: text ? (JSON.parse(text) as unknown) : undefined,
      text,
    };
  };

  it('creates a session, is paid on the hosted page, fulfilled by webhook, with a working receipt', async () => {
    const signUp = await api('POST', '/api/auth/sign-up/email', {
      email: 'owner@example.com',
      password: 'correct horse battery staple',
      name: 'Owner',
    });
    expect(signUp.status, signUp.text).toBe(200);
    // The mailed link confirms the address and signs the owner in.
    const link = new URL(await confirmationLink(server.url, 'owner@example.com'));
    const signedIn = await api('GET', `/api/auth/verify-email${link.search}`);
    expect(signedIn.status, signedIn.text).toBe(200);

    const created = await api('POST', '/api/migrations', { storeName: 'E2E Store' });
    expect(created.status, created.text).toBe(201);
    const id = migrationSchema.parse(created.json).id;
    // Payment waits for both stores; the emulator serves as the destination too.
    for (const side of ['source', 'destination'] as const) {
      const verified = await api('POST', '/verify-woocommerce-connection', {
        migrationId: id,
        side,
        sourceStoreUrl: woo.url,
        consumerKey: woo.consumerKey,
        consumerSecret: woo.consumerSecret,
      });
      expect(verified.status, verified.text).toBe(200);
    }
    const selected = await api('PATCH', `/api/migrations/${id}`, {
      dataTypes: {
        products: true,
        customers: true,
        orders: true,
        coupons: true,
        reviews: true,
        brands: true,
      },
    });
    expect(selected.status, selected.text).toBe(200);

    const summary = paymentSummarySchema.parse(
      (await api('GET', `/api/payments/summary?migrationId=${id}`)).json,
    );
    const stored = woo.store.counts();
    expect(summary.counts).toEqual({
      products: stored.products,
      customers: stored.customers,
      orders: stored.orders,
      coupons: stored.coupons,
      reviews: stored.reviews,
      brands: stored.brands,
      // Not selected: counted as none.
      pages: 0,
      posts: 0,
    });
    expect(summary.amountDueCents).toBe(9900 + summary.records);

    // The browser's entriesCount is ignored: the price is the server's.
    const session = await api('POST', '/api/stripe/create-checkout-session', {
      migrationId: id,
      entriesCount: 1,
    });
    expect(session.status, session.text).toBe(200);
    const { url, id: sessionId } = checkoutSessionResponseSchema.parse(session.json);
    expect(url.startsWith(`${stripe.url}/c/pay/`)).toBe(true);

    // The hosted checkout page, as a browser sees and submits it.
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const markup = await page.text();
    expect(markup).toContain(`$${(summary.amountDueCents / 100).toFixed(2)}`);
    const action = /<form method="post" action="([^"]+)">/.exec(markup)?.[1] ?? '';
    const paid = await fetch(new URL(action, url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        email: 'owner@example.com',
        cardNumber: '4242 4242 4242 4242',
        expiry: '12 / 34',
        cvc: '123',
        name: 'Store Owner',
        country: 'US',
        postalCode: '10001',
      }),
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    const returnUrl = paid.headers.get('location') ?? '';
    expect(returnUrl).toBe(
      `${server.url}/migrations/${id}?payment=success&session_id=${sessionId}`,
    );

    // The webhook alone marks the migration paid.
    await stripe.webhooksSettled();
    const delivered = stripe.webhooks.attempts.filter(
      (a) => a.eventType === 'checkout.session.completed',
    );
    expect(delivered.at(-1)?.status).toBe(200);
    const afterWebhook = migrationSchema.parse((await api('GET', `/migration/${id}`)).json);
    expect(afterWebhook.paymentInfo).toMatchObject({
      paymentStatus: 'paid',
      amount: summary.amountDueCents,
      currency: 'usd',
      paidRecords: summary.records,
      paymentMethod: { type: 'card', card: { brand: 'visa', last4: '4242' } },
      customerEmail: 'owner@example.com',
    });

    // The return page loads, and its payment-success call finds the payment already recorded.
    expect((await fetch(returnUrl)).status).toBe(200);
    const confirmed = await api('POST', '/api/stripe/payment-success', {
      migrationId: id,
      sessionId,
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(paymentRecordedResponseSchema.parse(confirmed.json).paymentInfo).toEqual(
      afterWebhook.paymentInfo,
    );
    const notifications = notificationListSchema.parse(
      (await api('GET', '/api/notifications')).json,
    );
    expect(notifications.notifications.filter((n) => n.title === 'Payment received')).toHaveLength(
      1,
    );

    const receipt = await api('GET', `/api/stripe/receipt/${id}`);
    expect(receipt.status, receipt.text).toBe(200);
    const receiptUrl = (receipt.json as { receiptUrl: string }).receiptUrl;
    expect(receiptUrl.startsWith(`${stripe.url}/receipts/`)).toBe(true);
    const receiptPage = await fetch(receiptUrl);
    expect(receiptPage.status).toBe(200);
    expect(await receiptPage.text()).toContain(`$${(summary.amountDueCents / 100).toFixed(2)}`);

    // Paying again is refused while the source holds no more records than were paid for.
    const again = await api('POST', '/api/stripe/create-checkout-session', { migrationId: id });
    expect(again.status).toBe(409);
  });
});
