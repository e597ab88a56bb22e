import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  screenshotsOf,
  startServer,
  viewports,
  type RunningServer,
} from './harness.ts';

const screenshot = screenshotsOf(import.meta.url);

describe('the built app in Chromium (e2e)', () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('loads the landing page at desktop and phone width', async () => {
    for (const [name, viewport] of Object.entries(viewports)) {
      const page = await browser.newPage({ viewport });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      const response = await page.goto(server.url);
      expect(response?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(
        /Move your store/,
      );
      await expect(page.getByRole('link', { name: 'Get Started' }).isVisible()).resolves.toBe(true);
      expect(await page.locator('footer').textContent()).toContain(
        String(new Date().getFullYear()),
      );
      await screenshot(page, `landing-${name}`);
      // Signed out, a private route sends the visitor to /login with the query string kept.
      await page.goto(`${server.url}/migrations?mock=true`);
      await page.waitForURL(/\/login\?mock=true$/);
      await screenshot(page, `login-redirect-${name}`);
      expect(errors.filter((e) => !/401|404/.test(e))).toEqual([]);
      await page.close();
    }
  });

  it('shuts down gracefully on SIGTERM', async () => {
    const other = await startServer();
    expect((await fetch(`${other.url}/healthz`)).status).toBe(200);
    // SIGTERM closes the listener and the database, then the process exits on its own with 0.
    expect(await other.stop()).toBe(0);
    expect(other.output()).not.toMatch(/error/i);
  });
});
