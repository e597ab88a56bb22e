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
 * Screenshots of every screen at desktop and phone width (test-results/screenshots, not
 * committed), signed in as a demo account, whose sample migrations cover every state. Each
 * screen must render its heading without a script error and without horizontal scrolling.
 */
describe('every screen at desktop and phone width (e2e)', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ SANDBOX_STORES: 'true', SANDBOX_COUNTS: '12,6,5' });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function visit(page: Page, path: string, name: string, width: string) {
    await page.goto(`${server.url}${path}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow, `${name} scrolls sideways at ${width}`).toBeLessThanOrEqual(1);
    await screenshot(page, `${name}-${width}`);
  }

  for (const [width, viewport] of Object.entries(viewports)) {
    it(`renders every screen at ${width} width`, async () => {
      const page = await browser.newPage({ viewport });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));

      for (const [path, name] of [
        ['/', 'landing'],
        ['/login', 'login'],
        ['/signup', 'signup'],
        ['/blogs', 'blogs'],
        ['/enterprise', 'enterprise'],
        ['/magento-to-shopify', 'magento-to-shopify'],
      ] as const) {
        await visit(page, path, name, width);
      }

      await demoSignIn(page, server.url);
      await visit(page, '/migrations', 'dashboard', width);
      const list = await page.evaluate(async () => (await fetch('/get-migrations')).json());
      const byStatus = (status: string) =>
        (list as { id: string; status: string }[]).find((m) => m.status === status)?.id;
      for (const [status, name] of [
        ['pending', 'migration-connect'],
        ['in-progress', 'migration-migrate'],
        ['completed', 'migration-complete'],
      ] as const) {
        await visit(page, `/migrations/${byStatus(status)}`, name, width);
      }
      await visit(page, '/migration-history', 'history', width);
      for (const status of ['completed', 'failed', 'in-progress'] as const) {
        await visit(page, `/migration-history/${byStatus(status)}`, `detail-${status}`, width);
      }
      for (const [path, name] of [
        ['/my-account', 'my-account'],
        ['/settings', 'settings'],
        ['/help', 'help'],
        ['/contact', 'contact'],
      ] as const) {
        await visit(page, path, name, width);
      }
      await page.getByRole('button', { name: /^Notifications/ }).click();
      await page.getByRole('dialog', { name: 'Notifications' }).waitFor();
      await screenshot(page, `notifications-${width}`);
      // Outside the app paths a signed-in user sees the header with the store selector.
      await visit(page, '/blog/1', 'signed-in-header', width);
      await page.getByRole('button', { name: 'Stores' }).click();
      await page.getByRole('list', { name: 'Your stores' }).waitFor();
      await screenshot(page, `store-selector-${width}`);
      await page.getByRole('button', { name: 'Add New Store' }).click();
      await page.getByRole('heading', { name: 'Name Your Migration' }).waitFor();
      expect(errors).toEqual([]);
      await page.close();
    }, 180_000);
  }
});
