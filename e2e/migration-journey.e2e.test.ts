import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  demoSignIn,
  launchBrowser,
  screenshot,
  startServer,
  viewports,
  type RunningServer,
} from './harness.ts';

/**
 * The whole signed-in journey of a store owner in real Chromium, against the real server with its
 * sandbox stores (a small sample store so the run is quick): demo sign-in, a new migration,
 * WooCommerce source and Shopify destination connected, all data selected, a demo payment, the
 * run watched to completion, a re-migration, then history, detail with its verification and the
 * per-record report. Then what the owner is offered when a run stops: Restart for a failed run,
 * Pay the difference for a run parked for a top-up, and wrong store credentials.
 */
describe('migration journey in Chromium (e2e)', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ SANDBOX_STORES: 'true', SANDBOX_COUNTS: '24,12,10' });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function createMigration(page: Page, name: string) {
    await page.getByRole('button', { name: 'New Migration' }).click();
    await page.getByLabel('Migration Name').fill(name);
    await page.getByRole('button', { name: 'Create Migration' }).click();
    await page.waitForURL(/\/migrations\/[A-Za-z0-9]{20}/);
  }

  /** The bell's unread count as its label says it. */
  const unreadCount = async (page: Page) => {
    const label =
      (await page.getByRole('button', { name: /^Notifications/ }).getAttribute('aria-label')) ?? '';
    return Number(/(\d+) unread/.exec(label)?.[1] ?? 0);
  };

  it('runs a migration from demo sign-in to the downloaded report', async () => {
    const page = await browser.newPage({ viewport: viewports.desktop, acceptDownloads: true });
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Try the Demo' }).click();
    // No saved selection: the dashboard opens the first migration in progress (spec.md section 2).
    await page.waitForURL(/\/migrations\/[A-Za-z0-9]{20}$/);
    await page.getByRole('heading', { name: 'Outdoor Gear Shop', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Back to dashboard' }).click();
    await page.getByRole('heading', { name: 'Your Migrations', level: 1 }).waitFor();
    await screenshot(page, 'dashboard-desktop');
    await createMigration(page, 'Journey store');

    // Step 1: a sandbox WooCommerce source, prefilled in mock mode.
    await page.getByLabel('Source platform').selectOption('woocommerce');
    const source = page.getByRole('form', { name: 'Source Store connection' });
    await expect
      .poll(() => source.getByLabel('Consumer Key', { exact: true }).inputValue(), {
        timeout: 10_000,
      })
      .toMatch(/^ck_/);
    await screenshot(page, 'connect-desktop');
    // Next Step waits for both stores, like Continue to Data Selection.
    expect(await page.getByRole('button', { name: 'Next Step' }).isDisabled()).toBe(true);
    await source.getByRole('button', { name: 'Verify Connection' }).click();
    const success = page.getByRole('dialog', { name: 'Success' });
    await success.waitFor();
    expect(await success.textContent()).toContain('WooCommerce store connected successfully!');
    await success.getByRole('button', { name: 'Awesome!' }).click();

    // A sandbox Shopify destination, through the app install flow.
    await page.getByLabel('Destination platform').selectOption('shopify');
    const destination = page.getByRole('form', { name: 'Destination Store connection' });
    await expect
      .poll(() => destination.getByLabel('Store URL', { exact: true }).inputValue(), {
        timeout: 10_000,
      })
      .toContain('.myshopify.com');
    await destination.getByRole('link', { name: 'Install Shopify App' }).click();
    await page.waitForURL(/shopify=connected/);

    await page.getByRole('button', { name: 'Continue to Data Selection' }).click();
    for (const name of ['Products', 'Customers', 'Orders'])
      await page.getByRole('switch', { name: new RegExp(name) }).click();
    await screenshot(page, 'select-data-desktop');
    // Next Step saves the selection on screen, as Proceed to Payment does.
    await page.getByRole('button', { name: 'Next Step' }).click();
    await page.getByRole('heading', { name: 'Payment', exact: true }).waitFor();
    const id = /\/migrations\/([A-Za-z0-9]{20})/.exec(page.url())?.[1];
    const saved = await page.evaluate(async (mid) => (await fetch(`/migration/${mid}`)).json(), id);
    expect(saved).toMatchObject({
      currentStep: 3,
      dataTypes: { products: true, customers: true, orders: true },
    });

    // Step 3: the demo card form; this server has no Stripe key, and the page says so.
    await page.getByText('Stripe is not configured on this server', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Checkout with Stripe' }).count()).toBe(0);
    await page.getByLabel('Cardholder name').fill('Demo Owner');
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Address').fill('1 Main St');
    await page.getByLabel('City').fill('Austin');
    await page.getByLabel('ZIP').fill('78701');
    await screenshot(page, 'payment-desktop');
    const unreadBefore = await unreadCount(page);
    await page.getByRole('button', { name: 'Pay now (demo)' }).click();
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 15_000 });
    // The payment's notification shows at once, not at the bell's next 30 s poll.
    await expect.poll(() => unreadCount(page), { timeout: 5_000 }).toBe(unreadBefore + 1);
    await screenshot(page, 'payment-success-desktop');
    await page.getByRole('button', { name: 'Start Migration' }).click();

    // Step 4: the three bars move until the run completes, then confetti and step 5.
    await page.getByRole('heading', { name: 'Migration in Progress' }).waitFor();
    await screenshot(page, 'migrate-desktop');
    await page.getByRole('heading', { name: 'Migration Complete!' }).waitFor({ timeout: 180_000 });
    expect(await page.getByTestId('confetti').count()).toBe(1);
    await screenshot(page, 'complete-desktop');

    // Re-migrate: the first is free (always, for a demo account) and runs again to completion.
    await page.getByText('Re-migrations are free on demo accounts.').waitFor();
    await page.getByRole('button', { name: 'Re-migrate' }).click();
    await page
      .getByRole('heading', { name: /Migration in Progress|Migration Complete!/ })
      .waitFor();
    await page.getByRole('heading', { name: 'Migration Complete!' }).waitFor({ timeout: 180_000 });
    // A re-migration the server wants paid for first sends the owner to the Payment step.
    await page.route('**/api/migrations/*/start', (route) =>
      route.fulfill({
        status: 402,
        json: {
          error: {
            code: 'payment_required',
            message: 'The free re-migration has been used. Pay for this one to start it.',
          },
        },
      }),
    );
    await page.getByRole('button', { name: 'Re-migrate' }).click();
    await page
      .getByText('The free re-migration has been used. Pay for this one to start it.')
      .waitFor();
    await page.getByRole('heading', { name: /^(Payment|Payment Successful!)$/ }).waitFor();
    await page.unroute('**/api/migrations/*/start');
    await screenshot(page, 'remigration-payment-desktop');

    // History row and detail page; its stats equal the report's counts.
    await page.goto(`${server.url}/migration-history`);
    await page
      .getByRole('link', { name: /Journey store/ })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Journey store' }).waitFor();
    expect(
      await page
        .getByText('Status', { exact: true })
        .first()
        .locator('xpath=following-sibling::dd[1]')
        .textContent(),
    ).toBe('Completed');
    // The record-by-record comparison of source and destination passed.
    const verification = page.getByRole('region', { name: 'Verification' });
    await verification
      .getByText(/Every migrated record matches the source\.|Some records differ from the source\./)
      .waitFor({ timeout: 60_000 });
    await screenshot(page, 'detail-desktop');
    expect(
      await verification.textContent(),
      'verification of the journey (WooCommerce to Shopify)',
    ).toContain('Every migrated record matches the source.');
    const stat = async (label: string) =>
      Number(
        (
          (await page
            .getByText(label, { exact: true })
            .locator('..')
            .locator('p')
            .nth(1)
            .textContent()) ?? ''
        ).replace(/[^0-9]/g, ''),
      );
    const migrated = await stat('Migrated');
    const failed = await stat('Failed');

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download Report' }).click();
    const file = await download;
    const csv = await (await file.createReadStream()).toArray();
    const rows = Buffer.concat(csv).toString('utf8').trim().split(/\r?\n/).slice(1);
    const records = rows.filter((r) => /^(product|customer|order),/.test(r));
    const outcomes = records.map((r) => r.split(',')[3]);
    // Every record of the three data types is in the report once (categories come along).
    const perType: Record<string, number> = {};
    for (const r of records) {
      const type = r.split(',')[0] ?? '';
      perType[type] = (perType[type] ?? 0) + 1;
    }
    expect(perType).toEqual({ product: 24, customer: 12, order: 10 });
    // The detail page's figures are the report's: migrated or skipped, and failed.
    expect(outcomes.filter((o) => o !== 'failed').length).toBe(migrated);
    expect(outcomes.filter((o) => o === 'failed').length).toBe(failed);
    await page.close();
  }, 300_000);

  it('offers Restart on a failed run and Pay the difference on a run parked for a top-up', async () => {
    const page = await browser.newPage({ viewport: viewports.phone });
    await demoSignIn(page, server.url);
    const list = (await page.evaluate(async () => (await fetch('/get-migrations')).json())) as {
      id: string;
      status: string;
    }[];
    const failed = list.find((m) => m.status === 'failed');
    const running = list.find((m) => m.status === 'in-progress');

    // The failed sample: Restart really starts it again; its stores are made-up addresses, so it
    // stops once more, and the page says why.
    await page.goto(`${server.url}/migrations/${failed?.id}`);
    await page.getByRole('heading', { name: 'Migration Failed' }).waitFor();
    const started = page.waitForResponse((r) =>
      r.url().endsWith(`/api/migrations/${failed?.id}/start`),
    );
    await page.getByRole('button', { name: 'Restart Migration' }).click();
    expect((await started).status()).toBe(200);
    await page.getByRole('heading', { name: 'Migration Failed' }).waitFor({ timeout: 30_000 });
    await page.getByText(/could not be opened/).waitFor({ timeout: 30_000 });
    await screenshot(page, 'migrate-restarted-failed-phone');

    // A run the engine parked because the source grew beyond what was paid for.
    const message =
      'Your store holds 2,600 records but 2,500 were paid for. Top up for the 100 additional records to continue.';
    await page.route('**/migration-progress?*', (route) =>
      route.fulfill({
        json: {
          productsTotal: 1600,
          customersTotal: 750,
          ordersTotal: 250,
          productsCompleted: 1500,
          customersCompleted: 0,
          ordersCompleted: 0,
          overallProgress: 57,
          state: 'payment_required',
          message,
        },
      }),
    );
    await page.route('**/api/payments/summary?*', (route) =>
      route.fulfill({
        json: {
          counts: { products: 1600, customers: 750, orders: 250 },
          records: 2600,
          paidRecords: 2500,
          kind: 'top_up',
          recordsDue: 100,
          baseCents: 0,
          volumeCents: 100,
          taxCents: 0,
          amountDueCents: 100,
          currency: 'usd',
        },
      }),
    );
    await page.goto(`${server.url}/migrations/${running?.id}`);
    await page.getByRole('heading', { name: 'Top-up Needed' }).waitFor();
    await page.getByText(message).waitFor();
    await screenshot(page, 'migrate-top-up-phone');
    await page.getByRole('button', { name: 'Pay the difference' }).click();
    await page.getByRole('heading', { name: 'Payment', exact: true }).waitFor();
    await page.getByText(message).waitFor();
    await page.getByText('100 more records need to be paid for').waitFor();
    await page.getByRole('button', { name: 'Pay now (demo)' }).waitFor();
    await screenshot(page, 'payment-top-up-phone');
    await page.close();
  }, 120_000);

  it('shows Connection Failed with the right text for wrong credentials', async () => {
    const page = await browser.newPage({ viewport: viewports.phone });
    await demoSignIn(page, server.url);
    await createMigration(page, 'Wrong keys');
    await page.getByLabel('Source platform').selectOption('woocommerce');
    const source = page.getByRole('form', { name: 'Source Store connection' });
    await expect
      .poll(() => source.getByLabel('Consumer Key', { exact: true }).inputValue())
      .toMatch(/^ck_/);
    // Well formed (cs_ and letters and digits), so the store itself is asked and refuses it.
    await source
      .getByLabel('Consumer Secret', { exact: true })
      .fill('cs_0123456789abcdef0123456789abcdef01234567');
    await source.getByRole('button', { name: 'Verify Connection' }).click();
    const failed = page.getByRole('dialog', { name: 'Connection Failed' });
    await failed.waitFor();
    const [text, reason] = await failed.locator('p').allTextContents();
    // spec.md section 8's text for a source, then the store's own answer.
    expect(text).toBe('Failed to verify connection. Please check your credentials.');
    expect(reason).toBeTruthy();
    expect(reason).not.toMatch(/starts with cs_/);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Got it');
    await screenshot(page, 'connection-failed-phone');
    await failed.getByRole('button', { name: 'Got it' }).click();
    await expect.poll(() => failed.count()).toBe(0);
    // Focus goes back to the form's panel, and nothing was saved.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      'Verify Connection',
    );
    await page.close();
  }, 120_000);
});
