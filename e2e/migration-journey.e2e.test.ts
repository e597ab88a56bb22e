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
 * run watched to completion, then history, detail and the per-record report.
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

  it('runs a migration from demo sign-in to the downloaded report', async () => {
    const page = await browser.newPage({ viewport: viewports.desktop, acceptDownloads: true });
    await demoSignIn(page, server.url);
    await screenshot(page, 'dashboard-desktop');
    await createMigration(page, 'Journey store');

    // Step 1: a sandbox WooCommerce source, prefilled in mock mode.
    await page.getByLabel('Source platform').selectOption('woocommerce');
    const source = page.getByRole('form', { name: 'Source Store connection' });
    await expect
      .poll(() => source.getByLabel('Consumer Key', { exact: true }).inputValue())
      .toMatch(/^ck_/);
    await screenshot(page, 'connect-desktop');
    await source.getByRole('button', { name: 'Verify Connection' }).click();
    const success = page.getByRole('dialog', { name: 'Success' });
    await success.waitFor();
    expect(await success.textContent()).toContain('WooCommerce store connected successfully!');
    await success.getByRole('button', { name: 'Awesome!' }).click();

    // A sandbox Shopify destination, through the app install flow.
    await page.getByLabel('Destination platform').selectOption('shopify');
    const destination = page.getByRole('form', { name: 'Destination Store connection' });
    await expect
      .poll(() => destination.getByLabel('Store URL', { exact: true }).inputValue())
      .toContain('.myshopify.com');
    await destination.getByRole('link', { name: 'Install Shopify App' }).click();
    await page.waitForURL(/shopify=connected/);

    await page.getByRole('button', { name: 'Continue to Data Selection' }).click();
    for (const name of ['Products', 'Customers', 'Orders'])
      await page.getByRole('switch', { name: new RegExp(name) }).click();
    await screenshot(page, 'select-data-desktop');
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();

    // Step 3: the demo card form.
    await page.getByLabel('Cardholder name').fill('Demo Owner');
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Address').fill('1 Main St');
    await page.getByLabel('City').fill('Austin');
    await page.getByLabel('ZIP').fill('78701');
    await screenshot(page, 'payment-desktop');
    await page.getByRole('button', { name: 'Pay now (demo)' }).click();
    await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'payment-success-desktop');
    await page.getByRole('button', { name: 'Start Migration' }).click();

    // Step 4: the three bars move until the run completes, then confetti and step 5.
    await page.getByRole('heading', { name: 'Migration in Progress' }).waitFor();
    await screenshot(page, 'migrate-desktop');
    await page.getByRole('heading', { name: 'Migration Complete!' }).waitFor({ timeout: 180_000 });
    expect(await page.getByTestId('confetti').count()).toBe(1);
    await screenshot(page, 'complete-desktop');

    // History row and detail page; its stats equal the report's counts.
    await page.goto(`${server.url}/migration-history`);
    await page
      .getByRole('link', { name: /Journey store/ })
      .first()
      .click();
    await page.getByRole('heading', { name: 'Journey store' }).waitFor();
    await screenshot(page, 'detail-desktop');
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
    const outcomes = rows.map((r) => r.split(',')[3]);
    // Every record of the three data types is in the report (categories come along with products).
    expect(rows.filter((r) => /^(product|customer|order),/.test(r)).length).toBe(24 + 12 + 10);
    // The detail page's figures are the report's: migrated or skipped, and failed.
    expect(outcomes.filter((o) => o !== 'failed').length).toBe(migrated);
    expect(outcomes.filter((o) => o === 'failed').length).toBe(failed);
    await page.close();
  }, 300_000);

  it('shows Connection Failed with the right text for wrong credentials', async () => {
    const page = await browser.newPage({ viewport: viewports.phone });
    await demoSignIn(page, server.url);
    await createMigration(page, 'Wrong keys');
    await page.getByLabel('Source platform').selectOption('woocommerce');
    const source = page.getByRole('form', { name: 'Source Store connection' });
    await expect
      .poll(() => source.getByLabel('Consumer Key', { exact: true }).inputValue())
      .toMatch(/^ck_/);
    await source
      .getByLabel('Consumer Secret', { exact: true })
      .fill('cs_wrong_secret_000000000000000000000000000000');
    await source.getByRole('button', { name: 'Verify Connection' }).click();
    const failed = page.getByRole('dialog', { name: 'Connection Failed' });
    await failed.waitFor();
    expect(await failed.textContent()).toContain(
      'Failed to verify connection. Please check your credentials.',
    );
    await screenshot(page, 'connection-failed-phone');
    await failed.getByRole('button', { name: 'Got it' }).click();
    await expect.poll(() => failed.count()).toBe(0);
    await page.close();
  }, 120_000);
});
