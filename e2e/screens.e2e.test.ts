import type { Browser, Page } from 'playwright-core';
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
  signUpInBrowser,
  startServer,
  viewports,
  type RunningServer,
} from './harness.ts';

const screenshot = screenshotsOf(import.meta.url);

/**
 * Signs in as the demo account, makes a migration between two sandbox stores of these platforms,
 * connects both and goes on to Select Data.
 */
async function sandboxPairAtSelectData(
  page: Page,
  name: string,
  source: string,
  destination: string,
): Promise<void> {
  await page.getByRole('button', { name: 'New Migration' }).click();
  await page.getByLabel('Migration Name').fill(name);
  await page.getByRole('button', { name: 'Create Migration' }).click();
  await page.waitForURL(/\/migrations\/[A-Za-z0-9]{20}$/);
  for (const [side, platform] of [
    ['Source', source],
    ['Destination', destination],
  ] as const) {
    await page.getByLabel(`${side} platform`).selectOption(platform);
    const form = page.getByRole('form', { name: `${side} Store connection` });
    await expect
      .poll(() => form.getByLabel('Consumer Key', { exact: true }).inputValue(), {
        timeout: 10_000,
      })
      .not.toBe('');
    await form.getByRole('button', { name: 'Verify Connection' }).click();
    await page.getByRole('button', { name: 'Awesome!' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  }
  await page.getByRole('button', { name: 'Next Step' }).click();
  await page.getByRole('heading', { name: 'Select Data' }).waitFor();
}

/** The mappings the server keeps for the migration on screen. */
function storedMappings(page: Page): Promise<unknown> {
  const migrationId = /\/migrations\/([A-Za-z0-9]{20})/.exec(page.url())?.[1];
  return page.evaluate(
    async (mid) => (await (await fetch(`/migration/${mid}`)).json()).fieldMappings,
    migrationId,
  );
}

const stripeKey = 'sk_test_screen_tour';
const webhookSecret = 'whsec_screen_tour';

/**
 * Screenshots of every screen at desktop and phone width (test-results/screenshots, not
 * committed), signed in as a demo account, whose sample migrations and notifications cover every
 * state, and walking a new migration through the steps up to Stripe's hosted checkout. Each
 * screen must render without a script error and without horizontal scrolling.
 */
describe('every screen at desktop and phone width (e2e)', () => {
  let stripe: RunningStripeEmulator;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    const port = await freePort();
    stripe = await startStripeEmulator({
      apiKey: stripeKey,
      webhooks: [{ url: `http://127.0.0.1:${port}/api/stripe/webhook`, secret: webhookSecret }],
    });
    server = await startServer(
      {
        SANDBOX_STORES: 'true',
        SANDBOX_COUNTS: '12,6,5',
        STRIPE_SECRET_KEY: stripeKey,
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

  /** Requests in flight per page, so a screen is captured once its data has arrived. */
  const inFlight = new WeakMap<Page, number>();

  async function newPage(width: keyof typeof viewports) {
    const context = await browser.newContext({ viewport: viewports[width] });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    inFlight.set(page, 0);
    const done = () => inFlight.set(page, Math.max(0, (inFlight.get(page) ?? 1) - 1));
    page.on('request', () => inFlight.set(page, (inFlight.get(page) ?? 0) + 1));
    page.on('requestfinished', done);
    page.on('requestfailed', done);
    return { page, errors, close: () => context.close() };
  }

  /** Quicker than Playwright's networkidle (500 ms of silence): no request for 150 ms. */
  async function settle(page: Page) {
    let quiet = 0;
    while (quiet < 3) {
      await page.waitForTimeout(50);
      quiet = inFlight.get(page) ? 0 : quiet + 1;
    }
  }

  /** In-app navigation (as a link does), without reloading the app for every screen. */
  async function go(page: Page, path: string) {
    await page.evaluate((target) => {
      window.history.pushState({}, '', target);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);
  }

  /** The screen as it is now: no sideways scrolling, then a screenshot. */
  async function capture(page: Page, name: string, width: string) {
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow, `${name} scrolls sideways at ${width}`).toBeLessThanOrEqual(1);
    await screenshot(page, `${name}-${width}`);
  }

  async function visit(page: Page, path: string, name: string, width: string) {
    if (page.url().startsWith(server.url)) await go(page, path);
    else await page.goto(`${server.url}${path}`);
    await page.waitForURL(`${server.url}${path}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForFunction(
      () =>
        !Array.from(document.querySelectorAll('[role="status"]')).some((e) =>
          /^Loading/.test(e.textContent?.trim() ?? ''),
        ),
    );
    await settle(page);
    await capture(page, name, width);
  }

  /** The element that has focus, by its visible text (or its label). */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return (el?.getAttribute('aria-label') || el?.textContent || el?.tagName || '').trim();
    });

  /**
   * A dialog is labelled by its title, starts on `first`, keeps Tab and Shift+Tab off the page
   * behind it (focus is in the dialog, or out of the page as past its last control), and closes
   * on Escape, giving focus back to something on the page (never the bare body).
   */
  async function checkDialog(page: Page, title: string, first: string) {
    const dialog = page.getByRole('dialog', { name: title });
    await dialog.waitFor();
    expect(await focused(page)).toBe(first);
    const offThePage = () =>
      dialog.evaluate(
        (d) => d.contains(document.activeElement) || document.activeElement === document.body,
      );
    let inside = 0;
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Tab');
      expect(await offThePage()).toBe(true);
      if (await dialog.evaluate((d) => d.contains(document.activeElement))) inside++;
    }
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press('Shift+Tab');
      expect(await offThePage()).toBe(true);
      if (await dialog.evaluate((d) => d.contains(document.activeElement))) inside++;
    }
    // Half the presses or more land in the dialog, even when it has a single control.
    expect(inside).toBeGreaterThanOrEqual(6);
  }

  async function closeWithEscape(page: Page, title: string) {
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog', { name: title }).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');
  }

  for (const width of Object.keys(viewports) as (keyof typeof viewports)[]) {
    it(`renders the public screens at ${width} width`, async () => {
      const { page, errors, close } = await newPage(width);
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

      // A new account has no migrations: the empty dashboard.
      await signUpInBrowser(page, server.url, {
        name: 'Empty Emma',
        email: `emma-${width}@example.com`,
        password: 'empty dashboard 1',
      });
      await page.getByRole('heading', { name: 'No migrations yet' }).waitFor();
      await settle(page);
      await capture(page, 'dashboard-empty', width);
      // Nor any history: the empty history leads back to the dashboard to start one.
      await visit(page, '/migration-history', 'history-empty', width);
      const empty = page.getByRole('heading', { name: 'No Migration History', level: 2 });
      expect(await empty.count()).toBe(1);
      await page.getByText('Your migrations will appear here.').waitFor();
      await page.getByRole('link', { name: 'Start Migration', exact: true }).click();
      await page.waitForURL(`${server.url}/migrations`);
      await page.getByRole('button', { name: 'Start Your First Migration' }).click();
      await page.getByRole('heading', { name: 'Name Your Migration' }).waitFor();
      expect(errors).toEqual([]);
      await close();
    }, 120_000);

    it(`renders the signed-in screens at ${width} width`, async () => {
      const { page, errors, close } = await newPage(width);
      await demoSignIn(page, server.url);
      await settle(page);
      await capture(page, 'dashboard', width);
      // Billing Overview: newest payment first.
      const billing = page.getByRole('region', { name: 'Billing Overview' });
      await expect.poll(() => billing.locator('li p.font-medium').count()).toBe(3);
      expect(
        await billing.locator('li p.font-medium').allTextContents(),
        'Billing Overview order',
      ).toEqual(['Outdoor Gear Shop', 'Vintage Books Store', 'Home & Garden Market']);

      await page.getByRole('button', { name: /^View All/ }).click();
      await page.getByRole('heading', { name: 'All Store Migrations' }).waitFor();
      await capture(page, 'all-store-migrations', width);
      await page.getByRole('button', { name: 'Back to Dashboard' }).click();
      await page.getByRole('button', { name: 'New Migration' }).click();
      await page.getByRole('heading', { name: 'Name Your Migration' }).waitFor();
      await capture(page, 'new-migration-form', width);
      await page.getByRole('button', { name: 'Cancel' }).click();

      const list = await page.evaluate(async () => (await fetch('/get-migrations')).json());
      // The demo's samples by name: the in-progress one really runs on the sandbox stores and may
      // have completed by the time the list is read.
      const sampleNames: Record<string, string> = {
        pending: 'My New Store',
        'in-progress': 'Outdoor Gear Shop',
        failed: 'Vintage Books Store',
        completed: 'Home & Garden Market',
      };
      const byStatus = (status: string) =>
        (list as { id: string; storeName: string }[]).find(
          (m) => m.storeName === sampleNames[status],
        )?.id;
      for (const [status, name] of [
        ['pending', 'migration-connect'],
        ['in-progress', 'migration-migrate'],
        ['failed', 'migration-failed'],
        ['completed', 'migration-complete'],
      ] as const) {
        await visit(page, `/migrations/${byStatus(status)}`, name, width);
      }
      await page.getByRole('button', { name: 'Re-migrate' }).waitFor();
      // The completion page times the run: 2,500 records in 50 minutes.
      const runFact = (term: string) =>
        page
          .getByRole('region', { name: 'Run' })
          .getByText(term, { exact: true })
          .locator('xpath=following-sibling::dd[1]')
          .textContent();
      expect(await runFact('Duration')).toBe('50 min');
      expect(await runFact('Records per minute')).toBe('50');
      await visit(page, '/migration-history', 'history', width);
      // A pending row says Pending, not In Progress, and leads on to its next step.
      const pendingRow = page.getByRole('listitem').filter({ hasText: sampleNames.pending! });
      expect(await pendingRow.getByText('Pending', { exact: true }).count()).toBe(1);
      expect(await pendingRow.getByText('In Progress', { exact: true }).count()).toBe(0);
      expect(await pendingRow.getByRole('button', { name: 'Continue Migration' }).isVisible()).toBe(
        true,
      );
      // A finished comparison with large figures: the widest the verification table gets.
      await page.route('**/api/migrations/*/verification', (route) =>
        route.fulfill({
          json: {
            status: 'failed',
            checkedAt: new Date().toISOString(),
            entities: Object.fromEntries(
              ['products', 'customers', 'orders'].map((entity) => [
                entity,
                { checked: 1_234_567, matched: 1_234_000, mismatched: 467, missing: 100 },
              ]),
            ),
            knownDifferences: [],
            examples: [
              {
                entity: 'products',
                sourceId: '1042',
                destinationId: 'gid://shopify/Product/8800000000001',
                detail: 'price differs: 19.99 at the source, 18.99 at the destination',
              },
            ],
          },
        }),
      );
      for (const status of ['completed', 'failed', 'in-progress'] as const) {
        await visit(page, `/migration-history/${byStatus(status)}`, `detail-${status}`, width);
        if (status !== 'completed') continue;
        expect(await runFact('Started')).toMatch(/\d{4}/);
        expect(await runFact('Duration')).toBe('50 min');
        expect(await runFact('Records per minute')).toBe('50');
        // Every column of the verification table can be read: it fits, or it scrolls inside its
        // own box with the row names kept in view, never cut off by the page.
        const table = page.getByRole('region', { name: 'Verification' }).locator('table');
        await table.waitFor();
        const fit = await table.evaluate((t) => {
          const box = t.parentElement as HTMLElement;
          const section = box.closest('section') as HTMLElement;
          box.scrollLeft = box.scrollWidth;
          const last = t.querySelector('thead th:last-child') as HTMLElement;
          const first = t.querySelector('tbody th') as HTMLElement;
          const inside = (el: HTMLElement) => {
            const r = el.getBoundingClientRect();
            const b = box.getBoundingClientRect();
            return r.left >= b.left - 1 && r.right <= b.right + 1;
          };
          const result = {
            sectionSpills: section.scrollWidth > section.clientWidth + 1,
            lastColumnReachable: inside(last),
            rowNameInView: inside(first),
          };
          box.scrollLeft = 0;
          return result;
        });
        expect(fit, `verification table at ${width}`).toEqual({
          sectionSpills: false,
          lastColumnReachable: true,
          rowNameInView: true,
        });
      }
      await page.unroute('**/api/migrations/*/verification');
      expect(
        await page
          .getByText('Status', { exact: true })
          .first()
          .locator('xpath=following-sibling::dd[1]')
          .textContent(),
      ).toMatch(/^(In Progress|Completed)$/);
      // A migration that does not exist (or is someone else's): Not Found, and the way back.
      await visit(page, '/migration-history/NoSuchMigration00000', 'detail-not-found', width);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
        'Migration Not Found',
      );
      await page.getByText('The requested migration could not be found.').waitFor();
      await page.getByRole('link', { name: 'Back to History' }).click();
      await page.waitForURL(`${server.url}/migration-history`);
      await page.getByRole('heading', { name: 'Migration History', level: 1 }).waitFor();
      for (const [path, name] of [
        ['/my-account', 'my-account'],
        ['/settings', 'settings'],
        ['/help', 'help'],
        ['/contact', 'contact'],
      ] as const) {
        await visit(page, path, name, width);
      }

      // The in-progress sample really runs on the sandbox stores (a few records here), and its
      // completion notices join the bell once it is done.
      await expect
        .poll(
          async () =>
            (
              (await page.evaluate(async () => (await fetch('/get-migrations')).json())) as {
                status: string;
              }[]
            ).filter((m) => m.status === 'in-progress').length,
          { timeout: 120_000 },
        )
        .toBe(0);
      const kept = async () =>
        (await page.evaluate(async () => (await fetch('/api/notifications')).json())) as {
          notifications: unknown[];
          unreadCount: number;
        };
      // Its last notice may land a moment after the run is marked done.
      await page.waitForTimeout(2000);
      const { notifications: total, unreadCount: unreadAtFirst } = await kept();
      expect(unreadAtFirst).toBeGreaterThanOrEqual(4);
      const bell = page.getByRole('button', { name: /^Notifications/ });
      // The bell asks every 30 s: a notice that landed after its last look shows at the next.
      await expect
        .poll(() => bell.getAttribute('aria-label'), { timeout: 35_000 })
        .toBe(`Notifications, ${unreadAtFirst} unread`);
      await bell.click();
      const panel = page.getByRole('dialog', { name: 'Notifications' });
      await panel.waitFor();
      const recent = panel.getByRole('list', { name: 'Recent notifications' });
      expect(await recent.getByRole('listitem').count()).toBe(5);
      await capture(page, 'notifications', width);
      await panel.getByRole('button', { name: /^Migration failed \(unread\)/ }).click();
      await expect
        .poll(() => bell.getAttribute('aria-label'))
        .toBe(`Notifications, ${unreadAtFirst - 1} unread`);
      expect(
        await panel.getByRole('button', { name: /^Migration failed \(unread\)/ }).count(),
      ).toBe(0);
      // View All Notifications opens the notifications page: every one, by read or unread.
      await panel.getByRole('link', { name: 'View All Notifications' }).click();
      await page.waitForURL(`${server.url}/notifications`);
      await expect.poll(() => panel.count()).toBe(0);
      await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
      expect(await page.title()).toBe('Notifications — Replatform');
      const all = page.getByRole('list', { name: 'All notifications' });
      expect(await all.getByRole('listitem').count()).toBe(total.length);
      await capture(page, 'notifications-all', width);
      const unreadNow = unreadAtFirst - 1;
      await page.getByRole('button', { name: `Unread (${unreadNow})` }).click();
      const unreadList = page.getByRole('list', { name: 'Unread notifications' });
      expect(await unreadList.getByRole('listitem').count()).toBe(unreadNow);
      await unreadList.getByRole('button', { name: 'Mark as read' }).first().click();
      await expect.poll(() => unreadList.getByRole('listitem').count()).toBe(unreadNow - 1);
      await expect
        .poll(() => bell.getAttribute('aria-label'))
        .toBe(`Notifications, ${unreadNow - 1} unread`);
      const readNow = total.length - unreadNow + 1;
      await page.getByRole('button', { name: `Read (${readNow})` }).click();
      expect(
        await page.getByRole('list', { name: 'Read notifications' }).getByRole('listitem').count(),
      ).toBe(readNow);
      await bell.click();
      await panel.waitFor();
      // A click outside closes it; so does the close button.
      await page.locator('main').click({ position: { x: 2, y: 2 } });
      await expect.poll(() => panel.count()).toBe(0);
      await bell.click();
      await panel.waitFor();
      await panel.getByRole('button', { name: 'Close notifications' }).click();
      await expect.poll(() => panel.count()).toBe(0);
      await bell.click();
      await panel.getByRole('button', { name: 'Mark all as read' }).click();
      await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications');
      // A notification about a migration leads to it.
      await panel.getByRole('link', { name: 'View migration' }).first().click();
      await page.waitForURL(/\/migration-history\/[A-Za-z0-9]{20}$/);
      await expect.poll(() => panel.count()).toBe(0);

      // Outside the app paths a signed-in user sees the header with the store selector; the
      // migration opened last (the completed one) is the current store.
      await visit(page, '/blog/1', 'signed-in-header', width);
      const selector = page.getByRole('button', { name: 'Home & Garden Market' });
      await selector.click();
      await page.getByRole('list', { name: 'Your stores' }).waitFor();
      await capture(page, 'store-selector', width);
      await page.getByRole('link', { name: 'Outdoor Gear Shop' }).click();
      await page.waitForURL(new RegExp(`/migrations/${byStatus('in-progress')}$`));
      await page.goto(`${server.url}/blog/1`);
      await page.getByRole('button', { name: 'Outdoor Gear Shop' }).click();
      await page.getByRole('button', { name: 'Add New Store' }).click();
      await page.getByRole('heading', { name: 'Name Your Migration' }).waitFor();
      await page.goto(`${server.url}/blog/1`);
      await page.getByRole('button', { name: 'New Store' }).waitFor();
      expect(errors).toEqual([]);
      await close();
    }, 120_000);

    it(`shows a data type one of the stores cannot hold as unavailable, with the reason, at ${width} width`, async () => {
      const { page, errors, close } = await newPage(width);
      await demoSignIn(page, server.url);
      await sandboxPairAtSelectData(page, `To Magento ${width}`, 'woocommerce', 'magento2');
      const reviews = page.getByRole('switch', { name: /Product reviews/ });
      expect(await reviews.isDisabled()).toBe(true);
      expect(await reviews.getAttribute('aria-checked')).toBe('false');
      const reason = await page
        .locator(`#${await reviews.getAttribute('aria-describedby')}`)
        .textContent();
      expect(reason).toMatch(/Magento 2's web API has no product reviews/);
      // The other types are offered as usual.
      expect(await page.getByRole('switch', { name: /Coupons/ }).isDisabled()).toBe(false);
      await capture(page, 'select-data-unavailable', width);

      // Map fields: both stores' tax classes and groups, read from the sandbox stores. Magento
      // creates a class it lacks, so WooCommerce's reduced rate is proposed as a new class of its name; the
      // owner puts it in Magento's standard class instead, and the choice is kept.
      const map = page.getByRole('group', { name: /Map fields: customer groups/ });
      const reduced = map.getByLabel('Tax class “Reduced rate” becomes');
      await reduced.waitFor({ timeout: 15_000 });
      expect(await reduced.inputValue()).toBe('Reduced rate');
      expect(await map.getByLabel('Group “Shop manager” becomes').count()).toBe(1);
      await map.getByText('Both stores sell in USD').waitFor();
      await reduced.selectOption({ label: 'Taxable Goods' });
      await map.scrollIntoViewIfNeeded();
      await capture(page, 'select-data-map-fields', width);
      await page.getByRole('button', { name: 'Proceed to Payment' }).click();
      await expect
        .poll(() => storedMappings(page))
        .toMatchObject({ taxClasses: { '': '', 'reduced-rate': '', 'zero-rate': 'Zero rate' } });
      expect(errors).toEqual([]);
      await close();
    }, 120_000);

    it(`asks what to do with amounts when the stores sell in different currencies, at ${width} width`, async () => {
      const { page, errors, close } = await newPage(width);
      await demoSignIn(page, server.url);
      // The sandbox stores all sell in US dollars: here the source answers that it sells in
      // euros, the rest of the stores' answer as it is.
      await page.route('**/api/migrations/*/mapping-choices', async (route) => {
        const answer = await route.fetch();
        const choices = (await answer.json()) as { currency: object };
        await route.fulfill({
          response: answer,
          json: { ...choices, currency: { source: 'EUR', destination: 'USD' } },
        });
      });
      await sandboxPairAtSelectData(page, `Euros ${width}`, 'woocommerce', 'woocommerce');
      const currency = page.getByRole('group', { name: 'Currency', exact: true });
      const keep = currency.getByRole('radio', {
        name: /Keep each order in its own currency \(EUR\)/,
      });
      await keep.waitFor({ timeout: 15_000 });
      expect(await keep.isChecked()).toBe(true);
      await currency.getByRole('radio', { name: /Convert every amount .* to USD/ }).check();
      const rate = currency.getByLabel('USD for 1 EUR');
      const proceed = page.getByRole('button', { name: 'Proceed to Payment' });
      // No rate yet: the owner is told what is missing and cannot go on.
      await currency.getByText('Give the rate as a number, such as 1.08').waitFor();
      expect(await proceed.isDisabled()).toBe(true);
      expect(await rate.getAttribute('aria-invalid')).toBe('true');
      await rate.fill('1,08');
      expect(await proceed.isDisabled()).toBe(true);
      await rate.fill('1.08');
      await expect.poll(() => proceed.isDisabled()).toBe(false);
      await currency.scrollIntoViewIfNeeded();
      await capture(page, 'select-data-currency', width);
      await proceed.click();
      await expect
        .poll(() => storedMappings(page))
        .toMatchObject({ currency: { from: 'EUR', to: 'USD', mode: 'convert', rate: '1.08' } });
      await page.getByRole('heading', { name: 'Payment' }).waitFor();
      await page.getByText('Amounts in EUR converted to USD at 1.08 USD for 1 EUR.').waitFor();
      expect(errors).toEqual([]);
      await close();
    }, 120_000);

    it(`renders the steps of a new migration at ${width} width`, async () => {
      const { page, errors, close } = await newPage(width);
      await demoSignIn(page, server.url);
      await page.getByRole('button', { name: 'New Migration' }).click();
      await page.getByLabel('Migration Name').fill(`Tour ${width}`);
      await page.getByRole('button', { name: 'Create Migration' }).click();
      await page.waitForURL(/\/migrations\/[A-Za-z0-9]{20}$/);
      if (width === 'phone') {
        // The steps fold into one line on a phone, so the step itself starts on the first screen.
        await page.getByRole('button', { name: 'Show steps' }).waitFor();
        const top = await page.getByRole('heading', { name: 'Connect Stores' }).boundingBox();
        expect(top?.y ?? Infinity).toBeLessThan(viewports.phone.height);
      }

      // The Magento tutorial dialog.
      await page.getByLabel('Source platform').selectOption('magento2');
      await page.getByRole('button', { name: 'Tutorial' }).click();
      await checkDialog(page, 'Connect Magento 2', 'Close dialog');
      await capture(page, 'tutorial-modal', width);
      await closeWithEscape(page, 'Connect Magento 2');
      expect(await focused(page)).toBe('Tutorial');

      // Sandbox WooCommerce stores on both sides, the Connection Failed dialog for a wrong
      // secret and the Success dialog.
      for (const side of ['Source', 'Destination'] as const) {
        await page.getByLabel(`${side} platform`).selectOption('woocommerce');
        const form = page.getByRole('form', { name: `${side} Store connection` });
        await expect
          .poll(() => form.getByLabel('Consumer Key', { exact: true }).inputValue(), {
            timeout: 10_000,
          })
          .toMatch(/^ck_/);
        if (side === 'Source') {
          // Well formed, so the sandbox store itself is asked, and refuses it.
          const secret = form.getByLabel('Consumer Secret', { exact: true });
          const right = await secret.inputValue();
          await secret.fill('cs_0123456789abcdef0123456789abcdef01234567');
          await form.getByRole('button', { name: 'Verify Connection' }).click();
          await checkDialog(page, 'Connection Failed', 'Got it');
          const failed = page.getByRole('dialog', { name: 'Connection Failed' });
          expect(await failed.locator('p').first().textContent()).toBe(
            'Failed to verify connection. Please check your credentials.',
          );
          expect(await failed.getByRole('button', { name: 'Got it' }).count()).toBe(1);
          await capture(page, 'connection-failed-modal', width);
          await closeWithEscape(page, 'Connection Failed');
          expect(await focused(page)).toBe('Verify Connection');
          await secret.fill(right);
        }
        await form.getByRole('button', { name: 'Verify Connection' }).click();
        if (side === 'Source') {
          await checkDialog(page, 'Success', 'Awesome!');
          await capture(page, 'success-modal', width);
        }
        await page.getByRole('button', { name: 'Awesome!' }).click();
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
        // The form that opened the dialog is gone: focus is on that store's panel.
        expect(await focused(page)).toBe(`${side} Store`);
      }
      await page.getByRole('button', { name: 'Next Step' }).click();
      await page.getByRole('heading', { name: 'Select Data' }).waitFor();
      // Every type starts selected: leave customers out.
      await page.getByRole('switch', { name: /Customers/ }).click();
      // With orders selected, each order status can be mapped to another: on hold to processing.
      await page.getByLabel('On hold orders become').selectOption('processing');
      await page.getByText('1 status is mapped to another.').waitFor();
      await capture(page, 'select-data', width);

      // The Payment step when its summary cannot be had (the server fails, here on purpose): it
      // says so without the server's words, and its button loads the step again once it can.
      const summary = '**/api/payments/summary?*';
      await page.route(summary, (route) =>
        route.fulfill({
          status: 500,
          json: { error: { code: 'internal', message: 'summary table unreadable' } },
        }),
      );
      await page.getByRole('button', { name: 'Proceed to Payment' }).click();
      await expect
        .poll(() => storedMappings(page))
        .toMatchObject({ orderStatuses: { 'on-hold': 'processing', completed: 'completed' } });
      const problem = page
        .getByRole('alert')
        .filter({ hasText: 'Payment details could not be loaded.' });
      await problem.waitFor({ timeout: 15_000 });
      const problemText = await problem.innerText();
      expect(problemText).toContain('Please try refreshing the page or contact support.');
      expect(problemText).not.toContain('summary table unreadable');
      await settle(page);
      await capture(page, 'payment-error', width);
      await page.unroute(summary);
      await page.getByRole('button', { name: 'Load payment details again' }).click();

      // The Payment step: a demo account gets the simulated card form next to Stripe Checkout.
      await page.getByRole('button', { name: 'Checkout with Stripe' }).waitFor();
      await page
        .getByText(/this is a demo account or a migration between sandbox stores/)
        .waitFor();
      await capture(page, 'payment', width);
      await page.getByRole('button', { name: 'Checkout with Stripe' }).click();
      await page.waitForURL((url) => url.origin === stripe.url);
      await page.getByLabel('Card number').waitFor();
      await capture(page, 'stripe-hosted-checkout', width);
      await page.getByRole('button', { name: /^Cancel and return/ }).click();
      await page.getByText('Payment cancelled. You have not been charged').waitFor();
      expect(page.url()).not.toContain('payment=cancelled');
      await capture(page, 'payment-cancelled', width);

      // The e-mail is the account's; countries are named, the United States first.
      const account = await page.evaluate(
        async () =>
          ((await (await fetch('/api/auth/get-session')).json()) as { user: { email: string } })
            .user.email,
      );
      expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(account);
      const country = page.getByLabel('Country', { exact: true });
      expect(await country.locator('option:checked').textContent()).toBe('United States');
      expect(await country.locator('option').allTextContents()).toContain('United Kingdom');
      if (width === 'phone') {
        await page.getByLabel('PayPal', { exact: true }).check();
        expect(await page.getByLabel('PayPal email').inputValue()).toBe(account);
        await page.getByLabel('PayPal email').fill('owner@example.com');
      } else {
        await page.getByLabel('Cardholder name').fill('Demo Owner');
        await page.getByLabel('Email').fill('owner@example.com');
        await page.getByLabel('Address').fill('1 Main St');
        await page.getByLabel('City').fill('Austin');
        await page.getByLabel('ZIP').fill('78701');
      }
      await page.getByRole('button', { name: 'Pay now (demo)' }).click();
      await page.getByRole('heading', { name: 'Payment Successful!' }).waitFor({ timeout: 15_000 });
      await capture(page, 'payment-success', width);

      // The detail page names the payment method (PayPal is not a card).
      const id = /\/migrations\/([A-Za-z0-9]{20})/.exec(page.url())?.[1];
      await go(page, `/migration-history/${id}`);
      await page.getByRole('heading', { name: 'Billing Information' }).waitFor();
      expect(
        await page
          .getByText('Payment method', { exact: true })
          .locator('xpath=following-sibling::dd[1]')
          .textContent(),
      ).toBe(width === 'phone' ? 'PayPal' : 'Visa •••• 4242');
      expect(errors).toEqual([]);
      await close();
    }, 120_000);
  }
});
