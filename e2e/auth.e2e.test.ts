import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, startSmtpCatcher } from '@replatform/server/auth/smtp-catcher';
import {
  launchBrowser,
  screenshotsOf,
  signUpInBrowser,
  startServer,
  viewports,
  type RunningServer,
} from './harness.ts';

const screenshot = screenshotsOf(import.meta.url);

describe('accounts and sign-in in Chromium (e2e)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    server = await startServer({ SMTP_URL: smtp.url, MAIL_FROM: 'Replatform <no-reply@test>' });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  async function newPage(viewport: { width: number; height: number } = viewports.desktop) {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    return page;
  }

  async function signUp(page: Page, name: string, email: string, password: string) {
    await signUpInBrowser(page, server.url, { name, email, password }, async (to) =>
      linkIn(
        await smtp.waitFor(to, 10_000, /Subject: Confirm/),
        `${server.url}/confirm-email?token=`,
      ),
    );
  }

  async function signIn(page: Page, email: string, password: string) {
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  }

  async function logOut(page: Page) {
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(/\/login$/);
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  }

  it('shows the auth screen in its three modes at desktop and phone width', async () => {
    for (const [size, viewport] of Object.entries(viewports)) {
      const page = await newPage(viewport);
      await page.goto(`${server.url}/login`);
      await page.getByRole('heading', { name: 'Welcome Back', level: 1 }).waitFor();
      for (const tile of ['Active Stores', 'Success Rate', 'Support']) {
        expect(await page.getByText(tile, { exact: true }).isVisible()).toBe(true);
      }
      // No Google configuration on this server: no button that cannot work.
      expect(await page.getByRole('button', { name: /Google/ }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Try the Demo' }).isVisible()).toBe(true);

      // Show and hide the password.
      const password = page.getByLabel('Password', { exact: true });
      await password.fill('secret words');
      expect(await password.getAttribute('type')).toBe('password');
      await page.getByRole('button', { name: 'Show password' }).click();
      expect(await password.getAttribute('type')).toBe('text');
      await page.getByRole('button', { name: 'Hide password' }).click();
      expect(await password.getAttribute('type')).toBe('password');
      await screenshot(page, `sign-in-${size}`);

      // Validation of spec.md section 5, before anything is sent.
      await password.fill('');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.getByText('Please enter your email address.').waitFor();
      await page.getByText('Please enter your password.').waitFor();
      await page.getByLabel('Email', { exact: true }).fill('not-an-email');
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.getByText('Please enter a valid email address.').waitFor();
      await screenshot(page, `validation-${size}`);

      await page.getByRole('link', { name: 'Sign up' }).click();
      await page.waitForURL(/\/signup$/);
      await page.getByRole('heading', { name: 'Create Account', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.getByText('Please enter your full name.').waitFor();
      await screenshot(page, `sign-up-${size}`);

      await page.getByRole('link', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Forgot password?' }).click();
      await page.getByRole('heading', { name: 'Reset Password', level: 1 }).waitFor();
      expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
      await screenshot(page, `reset-${size}`);
      await page.getByRole('link', { name: 'Back to Sign In' }).click();
      await page.getByRole('heading', { name: 'Welcome Back', level: 1 }).waitFor();
    }
  });

  /** Holds the browser's calls to `path` until `release` is called (a slow network). */
  async function holdRequests(page: Page, path: string) {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${path}`, async (route) => {
      await held;
      await route.continue();
    });
    return release;
  }

  it('disables every submit and provider button and shows a spinner while a request is in flight', async () => {
    const page = await newPage(viewports.phone);
    await page.goto(`${server.url}/login`);
    const signInButton = page.getByRole('button', { name: 'Sign In', exact: true });
    const demoButton = page.getByRole('button', { name: 'Try the Demo' });
    const spinnerIn = (button: typeof signInButton) => button.locator('svg.animate-spin').count();

    const releaseSignIn = await holdRequests(page, '/api/auth/sign-in/email');
    await page.getByLabel('Email', { exact: true }).fill('slow@example.com');
    await page.getByLabel('Password', { exact: true }).fill('a slow network 1');
    await signInButton.click();
    await expect.poll(() => signInButton.isDisabled()).toBe(true);
    expect(await demoButton.isDisabled()).toBe(true);
    expect(await signInButton.getAttribute('aria-busy')).toBe('true');
    expect(await spinnerIn(signInButton)).toBe(1);
    expect(await page.getByRole('form', { name: 'Welcome Back' }).getAttribute('aria-busy')).toBe(
      'true',
    );
    await screenshot(page, 'in-flight-phone');
    releaseSignIn();
    await page.getByRole('alert').getByText('Invalid email or password.').waitFor();
    expect(await signInButton.isDisabled()).toBe(false);
    expect(await demoButton.isDisabled()).toBe(false);
    expect(await spinnerIn(signInButton)).toBe(0);

    // The Demo button spins instead, and Sign In waits with it.
    const releaseDemo = await holdRequests(page, '/api/auth/demo/sign-in');
    await demoButton.click();
    await expect.poll(() => demoButton.isDisabled()).toBe(true);
    expect(await spinnerIn(demoButton)).toBe(1);
    expect(await signInButton.isDisabled()).toBe(true);
    expect(await spinnerIn(signInButton)).toBe(0);
    releaseDemo();
    await page.waitForURL(/\/migrations\/[A-Za-z0-9]{20}/);
  });

  it('signs up, lands on /migrations, logs out, and returns to the page first asked for', async () => {
    const page = await newPage();
    await signUp(page, 'Ada Lovelace', 'ada@example.com', 'analytical engine 1');
    await page.getByRole('link', { name: 'My Account (Ada Lovelace)' }).waitFor();
    await logOut(page);

    // Signed out, a private page sends the visitor to /login with its query string.
    await page.goto(`${server.url}/my-account?tab=1`);
    await page.waitForURL(/\/login\?tab=1$/);
    await signIn(page, 'ada@example.com', 'analytical engine 1');
    await page.waitForURL(/\/my-account\?tab=1$/);
    await page.getByRole('heading', { name: 'My Account', level: 1 }).waitFor();

    // The remembered page survives a detour through sign-up and a reload.
    await logOut(page);
    await page.goto(`${server.url}/migrations/some-id`);
    await page.waitForURL(/\/login$/);
    await page.reload();
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signIn(page, 'ada@example.com', 'analytical engine 1');
    await page.waitForURL(/\/migrations\/some-id$/);

    // Signed in, the auth screen sends the user on.
    await page.goto(`${server.url}/login`);
    await page.waitForURL(/\/migrations$/);
  });

  it('shows the error for a wrong password, and the limit after repeated failures', async () => {
    const page = await newPage();
    await signUp(page, 'Wrong Pass', 'wrong@example.com', 'right password 1');
    await logOut(page);
    await signIn(page, 'wrong@example.com', 'not my password');
    await page.getByRole('alert').getByText('Invalid email or password.').waitFor();
    expect(page.url()).toMatch(/\/login$/);
    await screenshot(page, 'wrong-password');
    for (let i = 0; i < 4; i++) {
      await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/auth/sign-in/email')),
        page.getByRole('button', { name: 'Sign In', exact: true }).click(),
      ]);
    }
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await page
      .getByRole('alert')
      .getByText(/^Too many sign-in attempts\./)
      .waitFor();
  });

  it('resets a forgotten password through the e-mailed link', async () => {
    const page = await newPage();
    await signUp(page, 'Forgetful Fred', 'fred@example.com', 'first password 1');
    await logOut(page);
    await page.getByRole('button', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email', { exact: true }).fill('fred@example.com');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText('Password reset email sent. Please check your inbox.').waitFor();
    await page.getByRole('heading', { name: 'Welcome Back', level: 1 }).waitFor();

    const mail = await smtp.waitFor('fred@example.com', 10_000, /Subject: Reset/);
    const link = linkIn(mail, `${server.url}/login?mode=reset&token=`);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a New Password', level: 1 }).waitFor();
    await page.getByLabel('New Password', { exact: true }).fill('second password 2');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('second password 3');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.getByText('Passwords do not match').waitFor();
    await page.getByLabel('Confirm New Password', { exact: true }).fill('second password 2');
    await screenshot(page, 'new-password');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page
      .getByText('Your password has been reset. Please sign in with your new password.')
      .waitFor();

    await signIn(page, 'fred@example.com', 'second password 2');
    await page.waitForURL(/\/migrations$/);

    // The link works once.
    await logOut(page);
    await page.goto(link);
    await page.getByLabel('New Password', { exact: true }).fill('third password 3');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('third password 3');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page
      .getByRole('alert')
      .getByText(/invalid or has expired/)
      .waitFor();
  });

  /**
   * The status line of a form, once it says `text`, must be where the visitor is looking: in
   * the form that caused it, inside the viewport and not under the sticky top bar.
   */
  async function shownBy(form: Locator, text: string) {
    const status = form.getByRole('status').filter({ hasText: text });
    await status.waitFor();
    const place = await status.evaluate((element) => {
      const box = element.getBoundingClientRect();
      const header = document.querySelector('header');
      const covered =
        header && getComputedStyle(header).position === 'sticky'
          ? header.getBoundingClientRect().bottom
          : 0;
      return { top: box.top, bottom: box.bottom, covered, height: window.innerHeight };
    });
    expect(place.top, text).toBeGreaterThanOrEqual(place.covered);
    expect(place.bottom, text).toBeLessThanOrEqual(place.height);
  }

  it('changes the name, e-mail and password on My Account', async () => {
    const page = await newPage();
    await signUp(page, 'Chad Changer', 'chad@example.com', 'old password 1');
    await page.getByRole('link', { name: /My Account/ }).click();
    await page.waitForURL(/\/my-account$/);

    const profile = page.getByRole('region', { name: 'Update Profile' });
    await profile.getByLabel('Full Name', { exact: true }).fill('Chadwick Changer');
    await profile.getByRole('button', { name: 'Update Profile' }).click();
    await shownBy(profile, 'Profile updated successfully');
    await page.getByRole('link', { name: 'My Account (Chadwick Changer)' }).waitFor();

    const email = page.getByRole('region', { name: 'Update Email' });
    await email.getByLabel('New Email', { exact: true }).fill('chadwick@example.com');
    await email.getByRole('button', { name: 'Update Email' }).click();
    await shownBy(email, 'Please enter your current password to update email');
    await email.getByLabel('Current Password', { exact: true }).fill('wrong password');
    await email.getByRole('button', { name: 'Update Email' }).click();
    await shownBy(email, 'Failed to update email');
    await email.getByLabel('Current Password', { exact: true }).fill('old password 1');
    await email.getByRole('button', { name: 'Update Email' }).click();
    await shownBy(email, 'Email updated successfully');
    await page.getByText('You sign in as chadwick@example.com.').waitFor();

    const password = page.getByRole('region', { name: 'Change Password' });
    await password.getByLabel('Current Password', { exact: true }).fill('old password 1');
    await password.getByLabel('New Password', { exact: true }).fill('new password 2');
    await password.getByLabel('Confirm New Password', { exact: true }).fill('new password 3');
    await password.getByRole('button', { name: 'Change Password' }).click();
    await shownBy(password, 'Passwords do not match');
    await password.getByLabel('Confirm New Password', { exact: true }).fill('new password 2');
    await password.getByRole('button', { name: 'Change Password' }).click();
    await shownBy(password, 'Password updated successfully');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'my-account-desktop');

    await logOut(page);
    await signIn(page, 'chadwick@example.com', 'new password 2');
    await page.waitForURL(/\/migrations$/);

    // Settings: the Account tab and the other four.
    await page.goto(`${server.url}/settings`);
    for (const tab of ['Account', 'Notifications', 'Preferences', 'Security', 'Data & Privacy']) {
      await page.getByRole('tab', { name: tab }).waitFor();
    }
    expect(await page.getByLabel('Email', { exact: true }).inputValue()).toBe(
      'chadwick@example.com',
    );
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('readonly')).not.toBeNull();
    await page.getByLabel('New Password', { exact: true }).fill('newer password 3');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('mismatch');
    await page.getByRole('button', { name: 'Save Account Settings' }).click();
    await page.getByText('New passwords do not match').waitFor();
    await page.getByLabel('Current Password', { exact: true }).fill('new password 2');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('newer password 3');
    await page.getByRole('button', { name: 'Save Account Settings' }).click();
    await page.getByText('Account updated successfully').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'settings-account-desktop');
    await page.getByRole('tab', { name: 'Notifications' }).click();
    await page.getByRole('button', { name: 'Save Notification Preferences' }).click();
    await page.getByText('Notification preferences updated successfully').waitFor();
    await page.getByRole('tab', { name: 'Preferences' }).click();
    await page.getByLabel('Theme', { exact: true }).selectOption('dark');
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await page.getByText('Preferences updated successfully').waitFor();
  });

  it('deletes the account after confirmation', async () => {
    const page = await newPage(viewports.phone);
    await signUp(page, 'Leaving Lena', 'lena@example.com', 'goodbye password 1');
    await page.goto(`${server.url}/settings`);
    await page.getByRole('tab', { name: 'Account' }).waitFor();
    await screenshot(page, 'settings-phone');
    await page.goto(`${server.url}/my-account`);
    await page.getByRole('heading', { name: 'My Account', level: 1 }).waitFor();
    await screenshot(page, 'my-account-phone');
    // At phone width too, each form's message shows where it was sent from, the lowest form's
    // included.
    const password = page.getByRole('region', { name: 'Change Password' });
    await password.getByLabel('Current Password', { exact: true }).fill('goodbye password 1');
    await password.getByLabel('New Password', { exact: true }).fill('new password 2');
    await password.getByLabel('Confirm New Password', { exact: true }).fill('new password 3');
    await password.getByRole('button', { name: 'Change Password' }).click();
    await shownBy(password, 'Passwords do not match');
    await screenshot(page, 'my-account-message-phone');
    const profile = page.getByRole('region', { name: 'Update Profile' });
    await profile.getByLabel('Full Name', { exact: true }).fill('Lena Leaving');
    await profile.getByRole('button', { name: 'Update Profile' }).click();
    await shownBy(profile, 'Profile updated successfully');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog
      .getByText('Are you sure you want to delete your account? This action cannot be undone.')
      .waitFor();
    // The dialog takes focus (on the safe choice); the browser keeps Tab off the page behind it
    // (past the last control focus leaves the page, as at its end, and comes back to the first),
    // and Escape closes it with focus back on the button that opened it.
    const focusedText = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        return el?.getAttribute('aria-label') || el?.textContent;
      });
    expect(await focusedText()).toBe('Cancel');
    await page.keyboard.press('Tab');
    expect(await focusedText()).toBe('Yes, Delete My Account');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focusedText()).toBe('Close dialog');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await focusedText()).toBe('Yes, Delete My Account');
    await screenshot(page, 'my-account-delete-phone');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await focusedText()).toBe('Delete Account');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await dialog.count()).toBe(0);
    await page.getByRole('button', { name: 'Delete Account' }).click();
    await dialog.getByRole('button', { name: 'Yes, Delete My Account' }).click();
    await page.waitForURL(`${server.url}/`);

    await page.goto(`${server.url}/login`);
    await signIn(page, 'lena@example.com', 'goodbye password 1');
    await page.getByRole('alert').getByText('Invalid email or password.').waitFor();
  });

  it('signs a visitor into a demo account with sample migrations in mock mode', async () => {
    const page = await newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Try the Demo' }).click();
    // Mock mode is on, and the migration in progress opens first (spec.md section 2).
    await page.waitForURL(/\/migrations\/[A-Za-z0-9]{20}$/);
    await page.getByRole('heading', { name: 'Outdoor Gear Shop', level: 1 }).waitFor();
    expect(await page.getByRole('switch', { name: /Mock mode/ }).getAttribute('aria-checked')).toBe(
      'true',
    );
    await page.getByRole('link', { name: 'My Account (Demo User)' }).waitFor();
    const res = await page.request.get(`${server.url}/get-migrations`);
    expect(res.status()).toBe(200);
    const list = (await res.json()) as Array<{ status: string }>;
    expect(list.map((m) => m.status).sort()).toEqual([
      'completed',
      'failed',
      'in-progress',
      'pending',
    ]);
    await screenshot(page, 'demo-migrations');
    await page.goto(`${server.url}/my-account`);
    await page.getByText('You are using a demo account.', { exact: false }).waitFor();
  });

  it('ran without page errors', () => {
    expect(errors).toEqual([]);
  });
});
