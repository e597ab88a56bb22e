import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SHOPIFY_SCOPES,
  buildAuthorizeUrl,
  exchangeCode,
  isFreshTimestamp,
  isValidShopDomain,
  verifyCallbackHmac,
} from '@replatform/connectors/shopify/oauth';
import { requireUser } from '../../auth/require-user.ts';
import { connectionFailure } from '../../connections/store-connections.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { assertDemoMayConnect, assertStoreMayChange } from '../../migrations/store-changes.ts';
import type { CredentialVault } from '../../security/credential-vault.ts';
import { sealCredentials, sideSchema } from '../../migrations/store-credentials.ts';

export const INSTALL_COOKIE = 'rp_shopify_oauth';
const MAC_PURPOSE = 'shopify-install-state';
const STATE_TTL_MS = 10 * 60 * 1000;

/** What the install cookie remembers between the redirect to Shopify and the callback. */
export const pendingSchema = z.object({
  state: z.string(),
  userId: z.string(),
  /** SHA-256 of the signed-in session's id: the install is bound to that session. */
  session: z.string(),
  migrationId: z.string(),
  side: sideSchema,
  shop: z.string(),
  expires: z.number(),
});
export type PendingInstall = z.infer<typeof pendingSchema>;

/** The cookie value: the pending install, MAC'd with a key of the vault so it cannot be forged. */
export function installCookieValue(vault: CredentialVault, pending: PendingInstall): string {
  const payload = Buffer.from(JSON.stringify(pending)).toString('base64url');
  return `${payload}.${vault.mac(MAC_PURPOSE, payload)}`;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

const refuse = (code: string, message: string) => new ApiError(400, code, message);

/**
 * Shopify app install (spec.md section 7's browser redirect GET /api/shopify). The state is
 * random and bound to the signed-in session (decisions.md) through an httpOnly cookie MAC'd with a
 * server key. The callback checks the shop domain, the query HMAC (constant time), the timestamp,
 * the state, the shop, the session and that the migration may still change before the code is
 * exchanged. Only then is the token stored, sealed, on that side.
 */
export const shopifyInstallRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, migrations, vault, connections, sandbox, auth } = app.services;
  const callbackUrl = `${config.publicUrl}/api/shopify/callback`;
  const secure = config.publicUrl.startsWith('https://');

  /** A hash of the id of the request's session (never the id, which the browser could read). */
  const sessionHash = async (request: FastifyRequest): Promise<string> => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined) continue;
      for (const v of [value].flat()) headers.append(name, String(v));
    }
    const found = await auth.betterAuth.api.getSession({ headers }).catch(() => null);
    if (!found) throw new ApiError(401, 'unauthenticated', 'Please sign in to continue.');
    return createHash('sha256').update(found.session.id).digest('base64url');
  };

  const appFor = (shop: string) => {
    const sandboxApp = sandbox?.shopifyApp(shop);
    if (sandboxApp) return sandboxApp;
    if (!config.shopify.apiKey || !config.shopify.apiSecret) {
      throw new ApiError(
        503,
        'shopify_not_configured',
        'Shopify app install is not configured on this server. Paste an Admin API access token instead.',
      );
    }
    return {
      apiKey: config.shopify.apiKey,
      apiSecret: config.shopify.apiSecret,
      browserOrigin: undefined,
    };
  };

  app.get(
    '/api/shopify',
    {
      schema: {
        querystring: z.object({
          shop: z.string().max(255),
          migration_id: z.string().min(1).max(64),
          side: sideSchema.default('source'),
        }),
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const shop = request.query.shop.trim().toLowerCase();
      if (!isValidShopDomain(shop))
        throw refuse('invalid_shop', 'Enter your store as your-store.myshopify.com.');
      const migration = await migrations.findForUser(request.query.migration_id, user.id);
      if (!migration) throw notFound('The requested migration could not be found.');
      await assertStoreMayChange(app.services, migration, request.query.side);
      assertDemoMayConnect(app.services.engine, user, { platform: 'shopify', address: shop });
      const shopApp = appFor(shop);

      const pending: PendingInstall = {
        state: randomBytes(24).toString('base64url'),
        userId: user.id,
        session: await sessionHash(request),
        migrationId: migration.id,
        side: request.query.side,
        shop,
        expires: Date.now() + STATE_TTL_MS,
      };
      reply.header(
        'set-cookie',
        `${INSTALL_COOKIE}=${installCookieValue(vault, pending)}; Path=/api/shopify; HttpOnly; SameSite=Lax; Max-Age=${STATE_TTL_MS / 1000}${secure ? '; Secure' : ''}`,
      );
      let target = buildAuthorizeUrl({
        shop,
        apiKey: shopApp.apiKey,
        scopes: config.shopify.scopes ?? [...SHOPIFY_SCOPES],
        redirectUri: callbackUrl,
        state: pending.state,
      });
      // A sandbox shop's pages are served by its local emulator.
      if (shopApp.browserOrigin) target = target.replace(`https://${shop}`, shopApp.browserOrigin);
      return reply.redirect(target, 302);
    },
  );

  app.get('/api/shopify/callback', async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    const shop = query.shop ?? '';
    if (!isValidShopDomain(shop))
      throw refuse('invalid_shop', 'The shop in the callback is not a myshopify.com domain.');
    const shopApp = appFor(shop);
    if (!verifyCallbackHmac(request.raw.url?.split('?')[1] ?? '', shopApp.apiSecret)) {
      throw refuse('invalid_hmac', 'The callback was not signed by Shopify.');
    }
    if (!isFreshTimestamp(query.timestamp))
      throw refuse('stale_callback', 'The callback is too old. Please install again.');

    const raw = readCookie(request.headers.cookie, INSTALL_COOKIE);
    const [payload, mac] = (raw ?? '').split('.');
    if (!payload || !mac || !vault.verifyMac(MAC_PURPOSE, payload, mac)) {
      throw refuse(
        'invalid_state',
        'The install was not started from this browser. Please install again.',
      );
    }
    let pending: PendingInstall;
    try {
      pending = pendingSchema.parse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    } catch {
      throw refuse('invalid_state', 'The install state is not readable. Please install again.');
    }
    if (pending.expires < Date.now())
      throw refuse('expired_state', 'The install took too long. Please install again.');
    if (!sameText(query.state ?? '', pending.state))
      throw refuse('invalid_state', 'The install state does not match. Please install again.');
    if (pending.shop !== shop)
      throw refuse('shop_mismatch', 'Shopify answered for another shop than the one asked for.');
    const user = await requireUser(request);
    if (user.id !== pending.userId || !sameText(await sessionHash(request), pending.session))
      throw refuse(
        'session_mismatch',
        'The install was started in another session. Please install again.',
      );
    const migration = await migrations.findForUser(pending.migrationId, user.id);
    if (!migration) throw notFound('The requested migration could not be found.');
    await assertStoreMayChange(app.services, migration, pending.side);
    assertDemoMayConnect(app.services.engine, user, { platform: 'shopify', address: shop });

    let accessToken: string;
    try {
      const token = await exchangeCode(
        { shop, code: query.code ?? '', apiKey: shopApp.apiKey, apiSecret: shopApp.apiSecret },
        connections.http,
      );
      accessToken = token.accessToken;
      const credentials = connections.parseCredentials('shopify', {
        shopDomain: shop,
        accessToken,
      });
      await connections.connect('shopify', credentials).check();
    } catch (error) {
      throw connectionFailure(error);
    }
    const sealed = sealCredentials(vault, migration.id, pending.side, {
      platform: 'shopify',
      secrets: { shopDomain: shop, accessToken },
    });
    // Only the migration as it was checked above: paid or changed meanwhile, nothing is stored.
    const updated = await migrations.update(
      migration.id,
      user.id,
      pending.side === 'source'
        ? {
            sourceStore: 'shopify',
            sourceStoreUrl: shop,
            sourceCredentials: sealed,
            sourceVerified: true,
          }
        : {
            destinationStore: 'shopify',
            destinationStoreUrl: shop,
            destinationCredentials: sealed,
            destinationVerified: true,
          },
      migration.version,
    );
    if (!updated)
      throw new ApiError(409, 'conflict', 'The migration changed meanwhile. Please try again.');
    reply.header(
      'set-cookie',
      `${INSTALL_COOKIE}=; Path=/api/shopify; HttpOnly; SameSite=Lax; Max-Age=0${secure ? '; Secure' : ''}`,
    );
    return reply.redirect(`/migrations/${encodeURIComponent(migration.id)}?shopify=connected`, 302);
  });
};
