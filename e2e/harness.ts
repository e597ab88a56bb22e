import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { chromiumArgs } from './browser.ts';

const repoRoot = resolve(import.meta.dirname, '..');

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface RunningServer {
  url: string;
  output: () => string;
  /** Sends SIGTERM and resolves with the exit code (0 = graceful). */
  stop(): Promise<number | null>;
}

/**
 * Starts the real server (apps/server/src/main.ts, serving the built web app) as its own process
 * on a private data directory and waits for /healthz.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: { port?: number } = {},
): Promise<RunningServer> {
  // WEB_DIST_DIR (as the server reads it) lets a run test a build kept elsewhere.
  const webDist = resolve(repoRoot, process.env.WEB_DIST_DIR ?? 'apps/web/dist');
  if (!existsSync(join(webDist, 'index.html'))) {
    throw new Error(`${webDist} has no build: run \`npm run build\` first (npm test does).`);
  }
  const port = options.port ?? (await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), 'replatform-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  let log = '';
  const child: ChildProcess = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', 'apps/server/src/main.ts'],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PUBLIC_URL: url,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout?.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

  // Generous: on a machine shared with other builds, loading the server alone can take 30 s.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    output: () => log,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** The test browser (see browser.ts), unpacked by the run's global set-up. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: inject('chromiumExecutable'),
    headless: true,
    args: chromiumArgs,
  });
}

const screenshotDir = join(repoRoot, 'test-results', 'screenshots');

/**
 * The screenshot function of one test file, used as
 * `const screenshot = screenshotsOf(import.meta.url)`. It saves screenshots as test artifacts
 * (test-results/ is not committed) named after the file, as
 * test-results/screenshots/<file>--<name>.png (screens--payment-desktop.png for
 * e2e/screens.e2e.test.ts), so test files running in parallel never write over each other's.
 *
 * A page is taken whole, from its top: a full-page capture draws fixed and sticky elements (the
 * top bar, an overlay) where the viewport is scrolled to, in the middle of the picture. An open
 * modal dialog is taken as the visitor sees it, the viewport dimmed around the dialog. Transitions
 * (a bar growing to its new value) are shown finished.
 */
export function screenshotsOf(testFileUrl: string): (page: Page, name: string) => Promise<string> {
  const file = basename(fileURLToPath(testFileUrl)).replace(/\.e2e\.test\.ts$/, '');
  return async (page, name) => {
    mkdirSync(screenshotDir, { recursive: true });
    const path = join(screenshotDir, `${file}--${name}.png`);
    const modal = (await page.locator('dialog[open]').count()) > 0;
    if (modal) {
      await page.screenshot({ path, animations: 'disabled' });
      return path;
    }
    const scrolled = await page.evaluate(() => {
      const at = { left: window.scrollX, top: window.scrollY };
      window.scrollTo({ left: 0, top: 0, behavior: 'instant' });
      return at;
    });
    await page.screenshot({ path, fullPage: true, animations: 'disabled' });
    // The page is left as it was.
    await page.evaluate((at) => window.scrollTo({ ...at, behavior: 'instant' }), scrolled);
    return path;
  };
}

export const viewports = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/**
 * Signs in with the Demo button (a fresh demo account with sample migrations in every state) and
 * ends on the dashboard. A demo account has a migration in progress, which the app opens on
 * arrival (spec.md section 2); Back to dashboard leaves it. If that run is over before the list
 * loads, the dashboard stays.
 */
export async function demoSignIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByRole('button', { name: 'Try the Demo' }).click();
  // The dashboard opens the demo's running sample once its list has loaded. A sample that
  // finished or failed before then (a small sandbox on a busy machine) is opened neither now nor
  // on a later page load, so the wait ends either way: the sample opened, or none is running.
  const opened = /\/migrations\/[A-Za-z0-9]{20}/;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (opened.test(new URL(page.url()).pathname)) {
      await page.getByRole('link', { name: 'Back to dashboard' }).click();
      break;
    }
    // Asked beside the page (its cookies, none of its requests): a page's own fetch cut short by
    // a navigation would leave the screens test's count of requests in flight unsettled.
    const answer = await page.request.get(`${baseUrl}/get-migrations`).catch(() => undefined);
    const running =
      !answer?.ok() ||
      ((await answer.json()) as { status: string }[]).some((m) => m.status === 'in-progress');
    if (!running && new URL(page.url()).pathname === '/migrations') break;
    if (Date.now() > deadline) throw new Error('the demo sign-in never reached the dashboard');
    await page.waitForTimeout(100);
  }
  await page.getByRole('heading', { name: 'Your Migrations', level: 1 }).waitFor();
}

/**
 * The confirmation link mailed to a new account, read from the development outbox (the server
 * keeps its mail there when it has no SMTP_URL). Mail leaves in the background, so this waits.
 */
export async function confirmationLink(baseUrl: string, email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await fetch(`${baseUrl}/api/dev/outbox?to=${encodeURIComponent(email)}`);
    const { mails } = (await res.json()) as { mails: Array<{ text: string }> };
    for (const mail of mails) {
      const link = /https?:\/\/\S+\/confirm-email\?token=[^\s"<>]+/.exec(mail.text)?.[0];
      if (link) return link;
    }
    if (Date.now() > deadline) throw new Error(`no confirmation link was mailed to ${email}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Creates an account on the sign-up screen and opens the link mailed to it, which signs the new
 * owner in and lands on the dashboard.
 */
export async function signUpInBrowser(
  page: Page,
  baseUrl: string,
  account: { name: string; email: string; password: string },
  link: (email: string) => Promise<string> = (email) => confirmationLink(baseUrl, email),
): Promise<void> {
  await page.goto(`${baseUrl}/signup`);
  await page.getByLabel('Full Name', { exact: true }).fill(account.name);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page
    .getByRole('status')
    .getByText(`We sent a link to ${account.email.toLowerCase()}.`, { exact: false })
    .waitFor();
  await page.goto(await link(account.email));
  await page.waitForURL(/\/migrations$/);
}
