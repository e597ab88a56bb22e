import { APIError } from 'better-auth/api';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '@replatform/db/database';
import { MigrationsRepository } from '@replatform/db/migrations-repository';
import { RateLimitEventsRepository } from '@replatform/db/rate-limit-events-repository';
import type { Config } from '../config.ts';
import { limitAddress } from '../http/client-address.ts';
import { sendNotFound } from '../http/errors.ts';
import { authConfigRoutes } from '../routes/auth/get-auth-config.ts';
import { devOutboxRoutes } from '../routes/auth/get-dev-outbox.ts';
import type { AuthService } from './auth-service.ts';
import { createBetterAuth } from './better-auth.ts';
import { sendWebResponse, toWebRequest } from './bridge.ts';
import type { SandboxSealer } from '../sandbox/sandbox-sealer.ts';
import { seedDemoMigrations, seedDemoNotifications, sweepExpired } from './demo.ts';
import { outboxMailer, smtpMailer } from './mailer.ts';
import { registerCrossSiteCheck } from './origin-check.ts';
import { AuthRateLimiter, limitMessage, type AuthAction } from './rate-limit.ts';
import type { CurrentUser } from './require-user.ts';
import { loadAuthSecret } from './secret.ts';

const sweepEveryMs = 15 * 60 * 1000;

const isLoopbackHost = (host: string) =>
  host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
const firstSweepAfterMs = 10 * 1000;

function headersOf(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, String(value));
  }
  return headers;
}

/** Builds the auth service: better-auth on our database, mail, demo accounts, limits. */
export async function createAuthService(deps: {
  config: Config;
  db: Db;
  log: FastifyBaseLogger;
  /** Connects the demo samples to sandbox stores, when the server has them. */
  sandbox?: SandboxSealer | undefined;
  /** Starts the run of the in-progress sample, so the demo's first screen shows it moving. */
  startDemoRun?: ((migrationId: string, userId: string) => Promise<void>) | undefined;
}): Promise<AuthService> {
  const { config, db, log } = deps;
  const migrations = new MigrationsRepository(db);
  const mailer = config.auth.smtpUrl
    ? smtpMailer({
        url: config.auth.smtpUrl,
        from: config.auth.mailFrom ?? `Replatform <no-reply@${new URL(config.publicUrl).hostname}>`,
      })
    : outboxMailer(db, log);
  const deletionHandlers: Array<(userId: string) => Promise<void>> = [];
  const deleteUserData = async (userId: string) => {
    // Handlers first, while the migrations they may refer to still exist.
    for (const handler of deletionHandlers) await handler(userId);
    // Migrations hold the sealed store credentials, so this removes those too.
    await migrations.deleteAllForUser(userId);
  };

  const betterAuth = createBetterAuth({
    config,
    db,
    secret: loadAuthSecret({ configured: config.auth.secret, file: config.auth.secretFile }),
    mailer,
    log,
    deleteUserData,
    seedDemoAccount: async (user) => {
      const samples = await seedDemoMigrations(migrations, user, new Date(), deps.sandbox);
      await seedDemoNotifications(db, user, samples);
      if (deps.startDemoRun) {
        // A sample that cannot start is still worth showing: the sign-in goes on.
        await deps.startDemoRun(samples.running.id, user.id).catch((error: unknown) => {
          log.warn({ err: error }, 'the demo sample run could not be started');
        });
      }
    },
  });

  const resolved = new WeakMap<FastifyRequest, Promise<CurrentUser | null>>();
  const lookUp = async (request: FastifyRequest): Promise<CurrentUser | null> => {
    if (!request.headers.cookie) return null;
    try {
      const found = await betterAuth.api.getSession({ headers: headersOf(request) });
      if (!found) return null;
      const user = found.user as typeof found.user & { isDemo?: boolean | number };
      return {
        id: user.id,
        email: user.email,
        name: user.name?.trim() ? user.name : null,
        isDemo: Boolean(user.isDemo),
      };
    } catch (error) {
      if (error instanceof APIError) return null;
      throw error;
    }
  };

  const deleteUser = async (userId: string) => {
    await deleteUserData(userId);
    const context = await betterAuth.$context;
    await context.internalAdapter.deleteUserSessions(userId);
    await context.internalAdapter.deleteUser(userId);
  };

  const timers: NodeJS.Timeout[] = [];
  let inFlight: Promise<unknown> = Promise.resolve();
  const service: AuthService = {
    betterAuth,
    mailer,
    // Counted in the database, so every server on it enforces the same limits.
    limiter: new AuthRateLimiter(undefined, new RateLimitEventsRepository(db)),
    providers: { google: Boolean(config.auth.google) },
    currentUser(request) {
      let pending = resolved.get(request);
      if (!pending) {
        pending = lookUp(request);
        resolved.set(request, pending);
      }
      return pending;
    },
    onUserDeleted(handler) {
      deletionHandlers.push(handler);
    },
    deleteUser,
    async sweep(now) {
      const result = await sweepExpired(db, deleteUser, now);
      if (result.demoAccounts) log.info(result, 'expired demo accounts deleted');
      return result;
    },
    start() {
      const run = () => {
        inFlight = service
          .sweep()
          .catch((error: unknown) => log.error({ err: error }, 'auth sweep failed'));
      };
      timers.push(setTimeout(run, firstSweepAfterMs), setInterval(run, sweepEveryMs));
      for (const timer of timers) timer.unref();
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      await inFlight;
      mailer.close();
    },
  };
  return service;
}

/** How deep a body sent to better-auth may nest (its endpoints take flat objects). */
const maxBodyDepth = 8;

/** Whether a parsed JSON value nests objects or arrays deeper than `max`, walked without recursion. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length) {
    const [current, depth] = pending.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

/** Which limit a request to better-auth counts against, and for which account. */
function classify(path: string, body: unknown): { action: AuthAction; account?: string } | null {
  const email =
    body && typeof body === 'object' && typeof (body as { email?: unknown }).email === 'string'
      ? (body as { email: string }).email.trim().toLowerCase()
      : undefined;
  switch (path) {
    case '/api/auth/sign-in/email':
      return { action: 'sign-in', account: email };
    case '/api/auth/sign-up/email':
      return { action: 'sign-up', account: email };
    case '/api/auth/request-password-reset':
      return { action: 'reset-request', account: email };
    case '/api/auth/reset-password':
      return { action: 'reset' };
    case '/api/auth/demo/sign-in':
      return { action: 'demo' };
    case '/api/auth/sign-in/social':
      return { action: 'social' };
    case '/api/auth/change-password':
    case '/api/auth/account/change-email':
    case '/api/auth/delete-user':
      return { action: 'reauth' };
    default:
      return null;
  }
}

const verifyEmailPath = '/api/auth/verify-email';

export const CONFIRM_LINK_INVALID =
  'This confirmation link is invalid or has expired. Sign in to get a new one.';

/**
 * One answer to every accepted sign-up, new address or not (better-auth answers an existing one
 * with a made-up user, whose fields could still differ from a real one's): the next step is in
 * the mail either way.
 */
function sendSignUpAnswer(reply: FastifyReply, request: FastifyRequest) {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return reply
    .status(200)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send({
      status: 'confirmation_sent',
      message: `We sent a link to ${typeof email === 'string' ? email.trim().toLowerCase() : 'your address'}. Open it to finish creating your account.`,
    });
}

/** Paths that sign somebody in: the session the browser had before is revoked (rotation). */
const signInPaths = new Set([
  '/api/auth/sign-in/email',
  '/api/auth/sign-up/email',
  '/api/auth/demo/sign-in',
  '/api/auth/callback/google',
]);

/**
 * The better-auth endpoints the product uses, with their methods. better-auth offers more (a bare
 * password check, account linking, token refresh...); anything not listed here answers 404, so no
 * unused endpoint becomes a way around our limits or checks.
 */
export const openEndpoints: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['/api/auth/get-session', new Set(['GET'])],
  ['/api/auth/sign-in/email', new Set(['POST'])],
  ['/api/auth/sign-up/email', new Set(['POST'])],
  ['/api/auth/sign-out', new Set(['POST'])],
  ['/api/auth/request-password-reset', new Set(['POST'])],
  // The confirmation link of a new account (opened by our /confirm-email page, never by mail).
  ['/api/auth/verify-email', new Set(['GET'])],
  ['/api/auth/reset-password', new Set(['POST'])],
  ['/api/auth/demo/sign-in', new Set(['POST'])],
  ['/api/auth/sign-in/social', new Set(['POST'])],
  // The OpenID provider returns the browser here (GET), or posts the answer (form_post).
  ['/api/auth/callback/google', new Set(['GET', 'POST'])],
  ['/api/auth/update-user', new Set(['POST'])],
  ['/api/auth/account/change-email', new Set(['POST'])],
  ['/api/auth/change-password', new Set(['POST'])],
  ['/api/auth/revoke-other-sessions', new Set(['POST'])],
  ['/api/auth/delete-user', new Set(['POST'])],
]);

/**
 * Mounts better-auth under /api/auth/* (its standard endpoints plus ours: demo sign-in and
 * e-mail change), the provider list, the development outbox, and the cross-site check.
 */
export async function registerAuth(app: FastifyInstance): Promise<void> {
  const { config } = app.services;
  const auth = app.services.auth;
  registerCrossSiteCheck(app, config.trustedOrigins);

  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    handler: async (request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      // Closed too: better-auth's link-style reset callback, which would put the token in a path
      // (and so in request logs); our mails link to the auth screen instead.
      if (!openEndpoints.get(path)?.has(request.method)) return sendNotFound(reply);
      // No endpoint takes more than a flat object; a body nested deeper would only exhaust the
      // stack of whatever walks it (serialising it again for better-auth, validating it there).
      if (nestedDeeperThan(request.body, maxBodyDepth)) {
        return reply
          .status(400)
          .type('application/json; charset=utf-8')
          .send({
            error: { code: 'invalid_request', message: 'The request body is nested too deeply.' },
          });
      }
      const limited = request.method === 'POST' ? classify(path, request.body) : null;
      const address = limitAddress(request, config.trustProxy);
      if (limited?.action === 'reauth') {
        // Password checks of a signed-in user also count against the account, wherever they
        // come from, so a stolen session cannot be used to guess the password at leisure.
        limited.account = (await auth.currentUser(request))?.id;
      }
      if (limited) {
        const decision = await auth.limiter.attempt(limited.action, address, limited.account);
        if (!decision.allowed) {
          return reply
            .status(429)
            .header('retry-after', String(Math.ceil(decision.retryAfterMs / 1000)))
            .type('application/json; charset=utf-8')
            .send({
              error: {
                code: 'rate_limited',
                message: limitMessage(limited.action, decision.retryAfterMs),
              },
            });
        }
      }
      const previous =
        (request.method === 'POST' && signInPaths.has(path)) || path === verifyEmailPath
          ? await auth.betterAuth.api.getSession({ headers: headersOf(request) }).catch(() => null)
          : null;

      const response = await auth.betterAuth.handler(toWebRequest(request, config.publicUrl));

      if (limited?.action === 'sign-in' && limited.account) {
        if (response.status === 401) await auth.limiter.signInFailed(address, limited.account);
        if (response.ok) await auth.limiter.signInSucceeded(address, limited.account);
      }
      // Google's callback answers with a redirect; it signed somebody in when it set a session.
      const signedIn =
        response.ok ||
        (response.status === 302 &&
          response.headers.getSetCookie().some((c) => /session_token=[^;]/.test(c)));
      if (previous && signedIn) {
        const context = await auth.betterAuth.$context;
        await context.internalAdapter.deleteSession(previous.session.token);
      }
      if (path === '/api/auth/sign-up/email' && response.ok)
        return sendSignUpAnswer(reply, request);
      if (path === verifyEmailPath && !response.ok) {
        return reply
          .status(400)
          .header('cache-control', 'no-store')
          .type('application/json; charset=utf-8')
          .send({ error: { code: 'invalid_link', message: CONFIRM_LINK_INVALID } });
      }
      return sendWebResponse(reply, response);
    },
  });

  await app.register(authConfigRoutes);
  // Reset links in the outbox are secrets: served only outside production and on a loopback
  // interface, so nobody on the network can read them.
  if (config.env !== 'production' && isLoopbackHost(config.host)) {
    await app.register(devOutboxRoutes);
  }

  app.addHook('onReady', async () => {
    auth.start();
  });
  app.addHook('onClose', async () => {
    await auth.close();
  });
}
