import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshotsOf, startServer, type RunningServer } from './harness.ts';

const screenshot = screenshotsOf(import.meta.url);

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
interface OidcProvider {
  callback(): Handler;
}
type OidcProviderClass = new (issuer: string, configuration: object) => OidcProvider;

const clientId = 'replatform-test-client';
const clientSecret = 'replatform-test-secret-that-is-long-enough';

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1 standing in for
 * Google. Its port must be known before our server starts (GOOGLE_ISSUER), and our server's port
 * before the client is registered (redirect URI), so the HTTP listener comes first and the
 * provider is mounted on it afterwards.
 */
async function startOidcProvider() {
  let handler: Handler = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const http: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  const issuer = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    issuer,
    async mount(redirectUri: string) {
      // The package ships no type declarations; only the constructor and callback() are used.
      const moduleName: string = 'oidc-provider';
      const { default: Provider } = (await import(moduleName)) as { default: OidcProviderClass };
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_post',
          },
        ],
        claims: {
          openid: ['sub'],
          email: ['email', 'email_verified'],
          profile: ['name'],
        },
        conformIdTokenClaims: false,
        cookies: { keys: ['oidc-test-cookie-key'] },
        features: { devInteractions: { enabled: true } },
        async findAccount(_ctx: unknown, sub: string) {
          return {
            accountId: sub,
            async claims() {
              return { sub, email: sub, email_verified: true, name: 'Gina Google' };
            },
          };
        },
      });
      handler = provider.callback();
    },
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

describe('Google sign-in through OpenID Connect against a local provider (e2e)', () => {
  let oidc: Awaited<ReturnType<typeof startOidcProvider>>;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    oidc = await startOidcProvider();
    server = await startServer({
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
      GOOGLE_ISSUER: oidc.issuer,
    });
    await oidc.mount(`${server.url}/api/auth/callback/google`);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await oidc?.close();
  });

  it('offers the Google button and signs a new user in, back to the page first asked for', async () => {
    const config = await (await fetch(`${server.url}/api/auth-config`)).json();
    expect(config.providers.google).toBe(true);

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/migration-history`);
    await page.waitForURL(/\/login$/);
    await page.getByRole('button', { name: 'Continue with Google' }).click();

    // The provider's own development login and consent pages.
    await page.waitForURL((url) => url.href.startsWith(oidc.issuer));
    await page.locator('input[name="login"]').fill('gina@example.com');
    await page.locator('input[name="password"]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL(`${server.url}/migration-history`);
    await page.getByRole('link', { name: 'My Account (Gina Google)' }).waitFor();
    await screenshot(page, 'signed-in');
    const session = await (await page.request.get(`${server.url}/api/auth/get-session`)).json();
    expect(session.user).toMatchObject({ email: 'gina@example.com', name: 'Gina Google' });
    await context.close();
  });

  it('shows the Google error when the provider refuses', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    // While the request is in flight the Google button spins and every other one waits.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/sign-in/social', async (route) => {
      await held;
      await route.continue();
    });
    const google = page.getByRole('button', { name: 'Continue with Google' });
    await google.click();
    await expect.poll(() => google.isDisabled()).toBe(true);
    expect(await google.locator('svg.animate-spin').count()).toBe(1);
    for (const name of ['Sign In', 'Try the Demo']) {
      expect(await page.getByRole('button', { name, exact: true }).isDisabled(), name).toBe(true);
    }
    release();
    await page.waitForURL((url) => url.href.startsWith(oidc.issuer));
    // Abort at the provider (the dev login page links to its abort endpoint).
    const abort = new URL(page.url());
    const uid = abort.pathname.split('/').pop();
    await page.goto(`${oidc.issuer}/interaction/${uid}/abort`);
    await page.waitForURL((url) => url.href.startsWith(`${server.url}/login`));
    await page
      .getByRole('alert')
      .getByText('An error occurred with Google login. Please try again.')
      .waitFor();
    await context.close();
  });
});
