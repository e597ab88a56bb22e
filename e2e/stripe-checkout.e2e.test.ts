import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startStripeEmulator,
  type RunningStripeEmulator,
} from '@replatform/emulators/stripe/stripe-emulator';
import {
  demoSignIn,
  freePort,
  launchBrowser,
  screenshotsOf,
  startServer,
  viewports,
  type RunningServer,
} from './harness.ts';

const screenshot = screenshotsOf(import.meta.url);

const webhookSecret = 'whsec_browser_journey';

/**
 * Paying through Stripe Checkout in real Chromium: the server talks to the Stripe emulator with the
 * official SDK, the browser goes to the emulator's hosted checkout page, pays, and returns to
 * 'Payment Successful!'; the signed webhook and the return call fulfil the payment once, and
 * Download Receipt and Start Migration work.
 */
describe('Stripe Checkout journey in Chromium (e2e)', () => {
  let stripe: RunningStripeEmulator;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    stripe = await startStripeEmulator({
      apiKey: 'sk_test_browser_journey',
      webhooks: [{ url: `http://127.0.0.1:${port}/api/stripe/webhook`, secret: webhookSecret }],
    });
    server = await startServer(
      {
        SANDBOX_STORES: 'true',
        SANDBOX_COUNTS: '8,4,3',
        STRIPE_SECRET_KEY: 'sk_test_browser_journey',
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_API_BASE: stripe.url,
      },
      { port },
    );
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await stripe?.close();
  });

  it('pays on the hosted checkout page and returns to a paid migration', async () => {
    const page = await browser.newPage({ viewport: viewports.desktop });
    await demoSignIn(page, server.url);
    await page.getByRole('button', { name: 'New Migration' }).click();
    await page.getByLabel('Migration Name').fill('Paid through Stripe');
    await page.getByRole('button', { name: 'Create Migration' }).click();
    await page.waitForURL(/\/migrations\/[A-Za-z0-9]{20}/);

    for (const side of ['Source', 'Destination'] as const) {
      await page.getByLabel(`${side} platform`).selectOption('woocommerce');
      const form = page.getByRole('form', { name: `${side} Store connection` });
      await expect
        .poll(() => form.getByLabel('Consumer Key', { exact: true }).inputValue())
        .toMatch(/^ck_/);
      await form.getByRole('button', { name: 'Verify Connection' }).click();
      await page.getByRole('button', { name: 'Awesome!' }).click();
    }
    await page.getByRole('button', { name: 'Next Step' }).click();
    // Every type starts selected: keep products only.
    await page.getByRole('switch', { name: /Customers/ }).click();
    await page.getByRole('switch', { name: /Orders/ }).click();
    await page.getByRole('switch', { name: /Coupons/ }).click();
    await page.getByRole('switch', { name: /Product reviews/ }).click();
    await page.getByRole('switch', { name: /Brands/ }).click();
    await page.getByRole('switch', { name: /^Pages/ }).click();
    await page.getByRole('switch', { name: /Blog posts/ }).click();
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();

    // A refusal shows spec.md's text and the server's reason (here: a payment still settling).
    await page.route('**/api/stripe/create-checkout-session', (route) =>
      route.fulfill({
        status: 409,
        json: {
          error: {
            code: 'payment_processing',
            message: 'Your payment is still being processed. Please try again shortly.',
          },
        },
      }),
    );
    await page.getByRole('button', { name: 'Checkout with Stripe' }).click();
    const refusal = page.getByRole('alert');
    await refusal.getByText('Failed to initiate payment. Please try again.').waitFor();
    await refusal
      .getByText('Your payment is still being processed. Please try again shortly.')
      .waitFor();
    await page.unroute('**/api/stripe/create-checkout-session');

    await page.getByRole('button', { name: 'Checkout with Stripe' }).click();
    await page.waitForURL((url) => url.origin === stripe.url);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM / YY)').fill('12 / 30');
    await page.getByLabel('CVC').fill('123');
    await page.getByLabel('Name on card').fill('Demo Owner');
    await page.getByLabel('ZIP').fill('78701');
    await screenshot(page, 'hosted-checkout-desktop');
    await page.getByRole('button', { name: /^Pay / }).click();

    await page.waitForURL(
      /\/migrations\/[A-Za-z0-9]{20}\?payment=success|\/migrations\/[A-Za-z0-9]{20}$/,
    );
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 20_000 });
    await screenshot(page, 'payment-success-desktop');

    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Download Receipt' }).click();
    // The tab opens at the click (so no popup blocker stops it) and then goes to the receipt.
    const receipt = await popup;
    await receipt.waitForURL((url) => url.href.startsWith(stripe.url));
    await receipt.close();

    await page.getByRole('button', { name: 'Start Migration' }).click();
    await page
      .getByRole('heading', { name: /Migration in Progress|Migration Complete!/ })
      .waitFor();

    const id = /\/migrations\/([A-Za-z0-9]{20})/.exec(page.url())?.[1];
    const migration = await page.evaluate(
      async (mid) => (await fetch(`/migration/${mid}`)).json(),
      id,
    );
    expect(migration.paymentInfo).toMatchObject({
      paymentStatus: 'paid',
      amount: 9900 + 8,
      currency: 'usd',
    });
    expect(migration.paymentInfo.demo).toBeUndefined();
    const notifications = await page.evaluate(async () =>
      (await fetch('/api/notifications')).json(),
    );
    const received = notifications.notifications.filter(
      (n: { title: string; migrationId: string }) =>
        n.title === 'Payment received' && n.migrationId === id,
    );
    expect(received).toHaveLength(1);
    await page.close();
  }, 240_000);
});
