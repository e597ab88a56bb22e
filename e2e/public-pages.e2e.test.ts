import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf } from '../apps/server/src/testing/pdf-text.ts';
import {
  demoSignIn,
  launchBrowser,
  screenshotsOf,
  startServer,
  viewports,
  type RunningServer,
} from './harness.ts';

const screenshot = screenshotsOf(import.meta.url);

/**
 * The public and help pages in Chromium: blog search, categories and posts, the enterprise quote,
 * the Magento to Shopify page and the landing calculator signed out; help centre, contact form
 * and settings persistence signed in. Screenshots at desktop and phone width; no page may scroll
 * sideways or throw a script error.
 */
describe('public and help pages (e2e)', () => {
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    server = await startServer({ SANDBOX_STORES: 'false' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.stop();
  });

  async function newPage(viewport: { width: number; height: number }): Promise<Page> {
    const context = await browser.newContext({ viewport, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: server.url,
    });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
    return page;
  }

  async function noSidewaysScroll(page: Page, name: string) {
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(1);
  }

  async function shot(page: Page, name: string) {
    await noSidewaysScroll(page, name);
    // Prefixed: the screen tour saves some of the same pages under their plain names.
    await screenshot(page, name);
  }

  // The journeys run at desktop width; the phone test below revisits every screen and state.
  {
    const width = 'desktop';
    const viewport = viewports.desktop;
    it(`blog: search, categories, empty result, post, sharing and unknown post at ${width} width`, async () => {
      const page = await newPage(viewport);
      await page.goto(`${server.url}/blogs`);
      await page.getByRole('heading', { name: 'Replatform Blog', level: 1 }).waitFor();
      for (const label of ['Home', 'Features', 'Pricing', 'Blog'])
        expect(
          await page
            .getByRole('navigation', { name: 'Site' })
            .getByRole('link', { name: label })
            .count(),
        ).toBe(1);
      expect(await page.getByRole('link', { name: 'Get Started' }).getAttribute('href')).toBe(
        '/signup',
      );
      await page.getByRole('heading', { name: 'Featured Articles' }).waitFor();
      await page.getByRole('heading', { name: 'Latest Articles' }).waitFor();
      const found = page.getByRole('status');
      expect(await found.textContent()).toBe('6 articles found');
      // The count is shown, and counts every article listed: featured and latest.
      expect(await found.isVisible()).toBe(true);
      expect(await page.getByRole('article').count()).toBe(6);
      expect(
        await page.getByRole('region', { name: 'Featured Articles' }).getByRole('article').count(),
      ).toBe(2);
      for (const label of [
        'All Posts (6)',
        'Migration Tips (2)',
        'Platform Comparison (2)',
        'Industry Trends (1)',
        'Migration Guide (1)',
        'SEO (1)',
      ])
        expect(await page.getByRole('button', { name: label }).count(), label).toBe(1);
      await shot(page, `blogs-${width}`);

      await page.getByRole('button', { name: 'Platform Comparison (2)' }).click();
      expect(
        await page
          .getByRole('button', { name: 'Platform Comparison (2)' })
          .getAttribute('aria-pressed'),
      ).toBe('true');
      expect(await found.textContent()).toBe('2 articles found');
      expect(await page.getByRole('article').count()).toBe(2);

      const search = page.getByPlaceholder('Search articles, tips, and guides...');
      await search.fill('WOOCOMMERCE');
      expect(await found.textContent()).toBe('1 article found');
      expect(await page.getByRole('article').count()).toBe(1);
      await search.fill('no article says this');
      await page.getByRole('heading', { name: 'No articles found' }).waitFor();
      expect(
        await page
          .getByText('Try adjusting your search terms or browse all categories.')
          .isVisible(),
      ).toBe(true);
      await shot(page, `blogs-empty-${width}`);
      await page.getByRole('button', { name: 'Show All Articles' }).click();
      expect(await search.inputValue()).toBe('');
      expect(await found.textContent()).toBe('6 articles found');
      expect(
        await page.getByRole('button', { name: 'All Posts (6)' }).getAttribute('aria-pressed'),
      ).toBe('true');

      // Open a post from its card.
      await page
        .getByRole('link', { name: 'Keep your search rankings: an SEO migration guide' })
        .click();
      await page.waitForURL(/\/blog\/6$/);
      await page
        .getByRole('heading', {
          name: 'Keep your search rankings: an SEO migration guide',
          level: 1,
        })
        .waitFor();
      await page.getByRole('heading', { name: 'Step 3: redirect every old URL' }).waitFor();
      expect(await page.getByText('#Redirects').first().isVisible()).toBe(true);
      const related = page.getByRole('region', { name: 'Related Articles' });
      const relatedCount = await related.getByRole('article').count();
      expect(relatedCount).toBeGreaterThan(0);
      expect(relatedCount).toBeLessThanOrEqual(3);
      // Images are our own files and load.
      const loaded = await page.evaluate(() =>
        Array.from(document.images).every((img) => img.complete && img.naturalWidth > 0),
      );
      expect(loaded).toBe(true);
      await shot(page, `blog-post-${width}`);

      // Sharing opens a 600x400 window on the network with this page's address.
      await page.evaluate(() => {
        (window as unknown as { opened: unknown[] }).opened = [];
        window.open = (...args: unknown[]) => {
          (window as unknown as { opened: unknown[] }).opened.push(args);
          return null;
        };
      });
      await page.getByRole('button', { name: 'Share on LinkedIn' }).click();
      const opened = await page.evaluate(
        () => (window as unknown as { opened: [string, string, string][] }).opened,
      );
      const [url, target, features] = opened[0] ?? [];
      expect(url).toBe(
        `https://www.linkedin.com/sharing/share-offsite/?url=${encodeURIComponent(`${server.url}/blog/6`)}`,
      );
      expect(target).toBe('_blank');
      expect(features).toBe('width=600,height=400');

      await page.getByRole('button', { name: 'Copy link' }).click();
      await page.getByRole('button', { name: 'Link copied' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
        `${server.url}/blog/6`,
      );
      await page.getByRole('button', { name: 'Copy link' }).waitFor({ timeout: 4000 });

      await page.goto(`${server.url}/blog/999`);
      await page.getByRole('heading', { name: 'Post Not Found', level: 1 }).waitFor();
      expect(
        await page.getByText("The blog post you're looking for doesn't exist.").isVisible(),
      ).toBe(true);
      await shot(page, `blog-not-found-${width}`);
      await page.getByRole('link', { name: 'Back to Blog' }).click();
      await page.waitForURL(/\/blogs$/);
      await page.close();
    });

    it(`enterprise quote, Magento to Shopify page and landing at ${width} width`, async () => {
      const page = await newPage(viewport);
      await page.goto(`${server.url}/enterprise`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await shot(page, `enterprise-${width}`);
      await page.getByRole('button', { name: 'Request a Quote' }).click();
      await page.getByText('Name is required.', { exact: true }).waitFor();
      expect(await page.getByText('Choose the size of your store.').isVisible()).toBe(true);
      await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
      await page.getByLabel('Work email').fill(`grace-${width}@example.com`);
      await page.getByLabel('Store name').fill('Compiler Supplies');
      await page.getByLabel(/^Store size/).selectOption('100k-500k');
      await page.getByLabel('Comments (optional)').fill('Two storefronts.');
      const answered = page.waitForResponse('**/api/enterprise-quotes');
      await page.getByRole('button', { name: 'Request a Quote' }).click();
      expect((await answered).status()).toBe(201);
      await page.getByRole('heading', { name: 'Thank you!' }).waitFor();
      expect(await page.getByText(`grace-${width}@example.com`).isVisible()).toBe(true);
      await shot(page, `enterprise-thanks-${width}`);

      await page.goto(`${server.url}/magento-to-shopify`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const getStarted = page.getByRole('main').getByRole('link', { name: 'Get Started' });
      expect(await getStarted.first().getAttribute('href')).toBe('/login');
      await shot(page, `magento-to-shopify-${width}`);
      await getStarted.first().click();
      await page.waitForURL(/\/login$/);

      await page.goto(`${server.url}/`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      for (const id of ['features', 'pricing', 'testimonials'])
        expect(await page.locator(`section#${id}`).count(), id).toBe(1);
      for (const href of [
        '/signup',
        '/login',
        '/blogs',
        '/contact',
        '/help',
        '/magento-to-shopify',
      ])
        expect(await page.locator(`a[href="${href}"]`).count(), href).toBeGreaterThan(0);
      expect(await page.getByText(`© ${new Date().getFullYear()} Replatform`).isVisible()).toBe(
        true,
      );
      const products = page.getByLabel('Products', { exact: true });
      await products.fill('-5');
      await page.getByText('2,000 records:').waitFor();
      await products.fill('');
      await page.getByText('2,000 records:').waitFor();
      await products.fill('1000');
      await page.getByText('3,000 records:').waitFor();
      expect(await page.getByText('$129.00').isVisible()).toBe(true);
      await shot(page, `landing-${width}`);
      await page.close();
    });

    it(`help, contact and settings signed in at ${width} width`, async () => {
      const page = await newPage(viewport);
      await demoSignIn(page, server.url);

      // Help centre: search, topics, one answer open at a time, tutorials and guide.
      await page.goto(`${server.url}/help`);
      await page.getByRole('heading', { name: 'Help Center', level: 1 }).waitFor();
      const status = page.getByRole('status').filter({ hasText: /question/ });
      const total = Number((await status.textContent())?.match(/\d+/)?.[0]);
      expect(total).toBeGreaterThan(20);
      expect(
        await page.getByText('Magento 2, Shopify, WooCommerce and BigCommerce').first().isVisible(),
      ).toBe(true);
      // Each click re-renders before the page says so: the checks wait for the new state.
      const pricing = page.getByRole('button', { name: 'Pricing', exact: true });
      await pricing.click();
      await expect.poll(() => pricing.getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => page.url()).toContain('topic=pricing');
      await expect
        .poll(async () => Number((await status.textContent())?.match(/\d+/)?.[0]))
        .toBeLessThan(total);
      const costQuestion = page.getByRole('button', { name: 'How much does a migration cost?' });
      await costQuestion.click();
      await expect.poll(() => costQuestion.getAttribute('aria-expanded')).toBe('true');
      await page.getByText('1,000 records cost $109.00').waitFor();
      const refundQuestion = page.getByRole('button', { name: 'Is there a money-back guarantee?' });
      await refundQuestion.click();
      await expect.poll(() => refundQuestion.getAttribute('aria-expanded')).toBe('true');
      await expect.poll(() => costQuestion.getAttribute('aria-expanded')).toBe('false');
      await page.getByText('1,000 records cost $109.00').waitFor({ state: 'hidden' });
      await shot(page, `help-${width}`);

      await page.getByRole('button', { name: 'All topics' }).click();
      await page.getByPlaceholder('Search questions and answers...').fill('aes-256-gcm');
      await status.filter({ hasText: '1 question found' }).waitFor();
      await page.getByPlaceholder('Search questions and answers...').fill('zzz nothing here');
      await page.getByText('No questions match your search.').waitFor();
      await page.getByRole('button', { name: 'Show all questions' }).click();
      await status.filter({ hasText: `${total} questions in total` }).waitFor();

      await page.getByRole('button', { name: 'Watch the walkthrough' }).click();
      const dialog = page.getByRole('dialog', { name: 'Migration walkthrough' });
      await dialog.getByText('Step 1 of 5').waitFor();
      await dialog.getByRole('button', { name: 'Next' }).click();
      await dialog.getByRole('heading', { name: 'Select Data' }).waitFor();
      await shot(page, `help-walkthrough-${width}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download the guide (PDF)' }).click();
      const pdf = await downloading;
      expect(pdf.suggestedFilename()).toBe('replatform-migration-guide.pdf');
      const guide = await readPdf(readFileSync((await pdf.path()) as string));
      expect(guide.title).toBe('Replatform migration guide');
      expect(guide.lines).toContain('Step 1: Connect Stores');

      // Contact: validation, sending, the success panel and starting over.
      await page.goto(`${server.url}/contact`);
      await page.getByRole('heading', { name: 'Contact Us', level: 1 }).waitFor();
      for (const title of ['Live Chat', 'Phone', 'Email', 'Video Consultation'])
        expect(await page.getByRole('heading', { name: title, exact: true }).count(), title).toBe(
          1,
        );
      await page.getByRole('heading', { name: 'Our office' }).waitFor();
      await page.getByRole('heading', { name: 'The team you will talk to' }).waitFor();
      await shot(page, `contact-${width}`);
      const form = page.locator('#contact-form');
      await form.getByLabel('Name', { exact: true }).fill('');
      await page.getByRole('button', { name: 'Send Message' }).click();
      await page.getByText('Name is required.', { exact: true }).waitFor();
      expect(await page.getByText('Subject is required.').isVisible()).toBe(true);
      expect(await page.getByText('Message is required.').isVisible()).toBe(true);
      await form.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
      await page.getByRole('button', { name: 'Book a call' }).click();
      expect(await form.getByLabel('Subject').inputValue()).toBe('30-minute video consultation');
      // The preset invites a time; the visitor's own words replace it here.
      expect(await form.getByLabel('Message').inputValue()).toMatch(/^I would like a 30-minute/);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe(
        'message',
      );
      await form.getByLabel('Message').fill(`Tuesdays after 2 PM Pacific, please (${width}).`);
      await form.getByLabel('Company (optional)').fill('Analytical Engines');
      await form.getByLabel('Priority').selectOption('high');
      const sent = page.waitForResponse('**/api/contact-messages');
      await page.getByRole('button', { name: 'Send Message' }).click();
      expect((await sent).status()).toBe(201);
      await page.getByRole('heading', { name: 'Message sent!' }).waitFor();
      await shot(page, `contact-success-${width}`);
      const stored = await page.evaluate(async () => (await fetch('/api/contact-messages')).json());
      expect(stored.messages[0]).toMatchObject({
        name: 'Ada Lovelace',
        subject: '30-minute video consultation',
        company: 'Analytical Engines',
        priority: 'high',
        message: `Tuesdays after 2 PM Pacific, please (${width}).`,
      });
      await page.getByRole('button', { name: 'Send another message' }).click();
      expect(await form.getByLabel('Subject').inputValue()).toBe('');
      expect(await form.getByLabel('Message').inputValue()).toBe('');
      expect(await form.getByLabel('Company (optional)').inputValue()).toBe('');
      expect(await form.getByLabel('Priority').inputValue()).toBe('medium');

      // Settings: saved on the server, still there after a reload.
      await page.goto(`${server.url}/settings`);
      await page.getByRole('tab', { name: 'Notifications' }).click();
      const marketing = page.getByRole('switch', { name: /Marketing emails/ });
      expect(await marketing.isChecked()).toBe(false);
      await marketing.check();
      await page.getByRole('switch', { name: /Push notifications/ }).uncheck();
      await page.getByRole('button', { name: 'Save Notification Preferences' }).click();
      await page.getByText('Notification preferences updated successfully').waitFor();
      await shot(page, `settings-notifications-${width}`);

      await page.getByRole('tab', { name: 'Preferences' }).click();
      await page.getByLabel('Theme').selectOption('dark');
      await page.getByLabel('Language').selectOption('de');
      await page.getByLabel('Timezone').selectOption('America/Chicago');
      await page.getByLabel('Date format').selectOption('YYYY-MM-DD');
      await page.getByRole('button', { name: 'Save Preferences' }).click();
      await page.getByText('Preferences updated successfully').waitFor();

      await page.reload();
      await page.getByRole('tab', { name: 'Notifications' }).click();
      await page.getByRole('switch', { name: /Marketing emails/ }).waitFor();
      expect(await page.getByRole('switch', { name: /Marketing emails/ }).isChecked()).toBe(true);
      expect(await page.getByRole('switch', { name: /Push notifications/ }).isChecked()).toBe(
        false,
      );
      await page.getByRole('tab', { name: 'Preferences' }).click();
      await page.getByLabel('Theme').waitFor();
      expect(await page.getByLabel('Theme').inputValue()).toBe('dark');
      expect(await page.getByLabel('Language').inputValue()).toBe('de');
      expect(await page.getByLabel('Timezone').inputValue()).toBe('America/Chicago');
      expect(await page.getByLabel('Date format').inputValue()).toBe('YYYY-MM-DD');
      await shot(page, `settings-preferences-${width}`);

      // Data & Privacy: the export holds the migrations without any store key or token.
      await page.getByRole('tab', { name: 'Data & Privacy' }).click();
      const exporting = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download My Data' }).click();
      const exported = await exporting;
      expect(exported.suggestedFilename()).toMatch(/^replatform-data-\d{4}-\d{2}-\d{2}\.json$/);
      const data = JSON.parse(readFileSync((await exported.path()) as string, 'utf8'));
      expect(data.migrations.length).toBeGreaterThan(0);
      expect(data.preferences).toMatchObject({ theme: 'dark', language: 'de' });
      expect(data.contactMessages[0].subject).toBe('30-minute video consultation');
      const json = JSON.stringify(data.migrations);
      for (const field of ['consumerKey', 'consumerSecret', 'accessToken', 'shopifyAccessToken'])
        expect(json).not.toContain(`"${field}"`);
      expect(json).not.toContain('••');
      await page.getByText('Your data is downloading').waitFor();
      expect(
        await page
          .getByRole('link', { name: 'Delete your account on My Account' })
          .getAttribute('href'),
      ).toBe('/my-account');
      await shot(page, `settings-data-${width}`);

      // Security: signing out everywhere ends this session too.
      await page.getByRole('tab', { name: 'Security' }).click();
      await shot(page, `settings-security-${width}`);
      await page.getByRole('button', { name: 'Sign Out Everywhere' }).click();
      await page.waitForURL(/\/login$/);
      const session = await page.evaluate(async () => (await fetch('/api/preferences')).status);
      expect(session).toBe(401);
      await page.close();
    });
  }

  it('renders every screen and state at phone width', async () => {
    const width = 'phone';
    const page = await newPage(viewports.phone);
    await page.goto(`${server.url}/blogs`);
    await page.getByRole('heading', { name: 'Replatform Blog', level: 1 }).waitFor();
    await shot(page, `blogs-${width}`);
    await page.getByPlaceholder('Search articles, tips, and guides...').fill('nothing like this');
    await page.getByRole('heading', { name: 'No articles found' }).waitFor();
    await shot(page, `blogs-empty-${width}`);
    for (const [path, heading, name] of [
      ['/blog/3', 'Magento 2 or Shopify: what changes for your catalogue', 'blog-post'],
      ['/blog/abc', 'Post Not Found', 'blog-not-found'],
      ['/enterprise', 'Migrations for large and multi-store businesses', 'enterprise'],
      [
        '/magento-to-shopify',
        'Migrate from Magento 2 to Shopify without losing a record',
        'magento-to-shopify',
      ],
      ['/', 'Move your store to a new platform without losing a single order.', 'landing'],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await shot(page, `${name}-${width}`);
    }

    await demoSignIn(page, server.url);
    await page.goto(`${server.url}/help?topic=security`);
    await page.getByRole('heading', { name: 'Help Center', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'How are my store credentials protected?' }).click();
    await page.getByText(/AES-256-GCM/).waitFor();
    await shot(page, `help-${width}`);
    await page.getByRole('button', { name: 'Watch the walkthrough' }).click();
    await page.getByRole('dialog', { name: 'Migration walkthrough' }).waitFor();
    await shot(page, `help-walkthrough-${width}`);
    await page.keyboard.press('Escape');

    // The help centre's chat card starts a conversation on the contact page.
    await page.getByRole('link', { name: 'Start a conversation' }).click();
    await page.waitForURL(/\/contact\?channel=chat$/);
    const form = page.locator('#contact-form');
    await page.getByRole('heading', { name: 'Contact Us', level: 1 }).waitFor();
    expect(await form.getByLabel('Subject').inputValue()).toBe('Chat with a migration specialist');
    await shot(page, `contact-${width}`);
    await form.getByLabel('Message').fill('Can you move 12,000 products?');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await page.getByRole('heading', { name: 'Message sent!' }).waitFor();
    await shot(page, `contact-success-${width}`);

    await page.goto(`${server.url}/settings`);
    for (const tab of ['Notifications', 'Preferences', 'Security', 'Data & Privacy']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('tabpanel').getByRole('heading', { name: tab }).waitFor();
      await page.getByRole('tabpanel').getByRole('button').last().waitFor();
      await shot(page, `settings-${tab.split(' ')[0]!.toLowerCase()}-${width}`);
    }
    await page.close();
  });

  it('threw no script errors', () => {
    expect(errors).toEqual([]);
  });
});
