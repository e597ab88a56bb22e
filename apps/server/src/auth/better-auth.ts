import { randomBytes } from 'node:crypto';
import { betterAuth, type BetterAuthPlugin } from 'better-auth';
import {
  APIError,
  createAuthEndpoint,
  createAuthMiddleware,
  formCsrfMiddleware,
  sensitiveSessionMiddleware,
} from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { Db } from '@replatform/db/database';
import type { Config } from '../config.ts';
import {
  confirmAddressMail,
  emailChangedMail,
  existingAccountMail,
  passwordResetMail,
  type Mailer,
} from './mailer.ts';

/** Reset links work once and for this long. */
export const resetLinkMinutes = 60;

/** Links that confirm a new account's address work for this long. */
export const confirmLinkHours = 24;

export interface BetterAuthDeps {
  config: Config;
  db: Db;
  secret: string;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** Deletes everything a user owns outside the auth tables (migrations, stored credentials). */
  deleteUserData: (userId: string) => Promise<void>;
  /** Fills a new demo account with sample migrations. */
  seedDemoAccount: (user: { id: string; email: string }) => Promise<void>;
}

/** Sends mail without making the caller wait, so answers take the same time with or without it. */
function sendInBackground(deps: BetterAuthDeps, mail: Parameters<Mailer['send']>[0]) {
  deps.mailer.send(mail).catch((error: unknown) => {
    deps.log.error({ err: error, subject: mail.subject }, 'mail could not be sent');
  });
}

const demoEmailDomain = 'demo.replatform.invalid';

/** Our endpoints inside better-auth, so they share its sessions, cookies and CSRF checks. */
function replatformEndpoints(deps: BetterAuthDeps) {
  return {
    id: 'replatform',
    endpoints: {
      /** A fresh, isolated demo account per visitor (decisions.md section 2). */
      demoSignIn: createAuthEndpoint(
        '/demo/sign-in',
        { method: 'POST', use: [formCsrfMiddleware] },
        async (ctx) => {
          const now = Date.now();
          const ttlMs = deps.config.auth.demoAccountTtlHours * 60 * 60 * 1000;
          const email = `demo-${randomBytes(9).toString('hex')}@${demoEmailDomain}`;
          const user = await ctx.context.internalAdapter.createUser(
            {
              email,
              name: 'Demo User',
              emailVerified: false,
              isDemo: true,
              demoExpiresAt: new Date(now + ttlMs),
            },
            { method: 'anonymous' },
          );
          try {
            await deps.seedDemoAccount({ id: user.id, email: user.email });
          } catch (error) {
            await deps.deleteUserData(user.id);
            await ctx.context.internalAdapter.deleteUser(user.id);
            throw error;
          }
          const session = await ctx.context.internalAdapter.createSession(user.id);
          await setSessionCookie(ctx, { session, user });
          return ctx.json({ user: { id: user.id, email: user.email, name: user.name } });
        },
      ),
      /**
       * E-mail change re-authenticated with the current password (spec.md section 5). better-auth's
       * own change-email asks no password, so this one replaces it.
       */
      changeEmailWithPassword: createAuthEndpoint(
        '/account/change-email',
        {
          method: 'POST',
          body: z.object({ newEmail: z.email(), currentPassword: z.string().min(1) }),
          use: [sensitiveSessionMiddleware],
        },
        async (ctx) => {
          const { user } = ctx.context.session;
          const newEmail = ctx.body.newEmail.trim().toLowerCase();
          const account = await ctx.context.internalAdapter.findCredentialAccount(user.id);
          if (!account?.password) {
            throw APIError.fromStatus('BAD_REQUEST', {
              code: 'CREDENTIAL_ACCOUNT_NOT_FOUND',
              message: 'Credential account not found',
            });
          }
          const valid = await ctx.context.password.verify({
            hash: account.password,
            password: ctx.body.currentPassword,
          });
          if (!valid) {
            throw APIError.fromStatus('BAD_REQUEST', {
              code: 'INVALID_PASSWORD',
              message: 'Invalid password',
            });
          }
          if (newEmail === user.email.toLowerCase()) {
            throw APIError.fromStatus('BAD_REQUEST', {
              code: 'EMAIL_UNCHANGED',
              message: 'That is already your e-mail address.',
            });
          }
          if (await ctx.context.internalAdapter.findUserByEmail(newEmail)) {
            throw APIError.fromStatus('UNPROCESSABLE_ENTITY', {
              code: 'EMAIL_IN_USE',
              message: 'That e-mail address is already in use.',
            });
          }
          // Proven by the current password and announced to the old address; the account keeps
          // its confirmed standing, so the owner still signs in with the new address.
          const updated = await ctx.context.internalAdapter.updateUser(user.id, {
            email: newEmail,
          });
          // Migrations carry their owner's address (spec.md section 3); keep it current.
          await deps.db.kysely
            .updateTable('migrations')
            .set({ email: newEmail })
            .where('user_id', '=', user.id)
            .execute();
          // Sessions elsewhere were opened under the old address: only this one stays signed in.
          const others = (await ctx.context.internalAdapter.listSessions(user.id))
            .map((s) => s.token)
            .filter((token) => token !== ctx.context.session.session.token);
          if (others.length) await ctx.context.internalAdapter.deleteSessions(others);
          // The old address hears about it, in case the change was not the owner's.
          sendInBackground(deps, emailChangedMail({ to: user.email, newEmail }));
          return ctx.json({
            status: true,
            user: { id: updated.id, email: updated.email, name: updated.name },
          });
        },
      ),
    },
  } satisfies BetterAuthPlugin;
}

/** spec.md section 5: sign-up needs a full name; names are trimmed and kept to a sane length. */
const checkName = createAuthMiddleware(async (ctx) => {
  if (ctx.path !== '/sign-up/email' && ctx.path !== '/update-user') return;
  const body = (ctx.body ?? {}) as { name?: unknown };
  if (ctx.path === '/update-user' && body.name === undefined) return;
  const name = typeof body.name === 'string' ? body.name.trim() : '';
  if (!name) {
    throw APIError.fromStatus('BAD_REQUEST', {
      code: 'NAME_REQUIRED',
      message: 'Please enter your full name.',
    });
  }
  if (name.length > 100) {
    throw APIError.fromStatus('BAD_REQUEST', {
      code: 'NAME_TOO_LONG',
      message: 'Please use at most 100 characters for your name.',
    });
  }
  body.name = name;
});

export function createBetterAuth(deps: BetterAuthDeps) {
  const { config } = deps;
  const https = config.publicUrl.startsWith('https://');
  const google = config.auth.google;
  const stamps = { createdAt: 'created_at', updatedAt: 'updated_at' } as const;

  return betterAuth({
    appName: 'Replatform',
    // Links and redirects are built from PUBLIC_URL, never from request headers.
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret: deps.secret,
    trustedOrigins: config.trustedOrigins,
    database: {
      db: deps.db.kysely,
      type: deps.db.dialect,
      transaction: deps.db.dialect === 'postgres',
    },
    telemetry: { enabled: false },
    logger: {
      level: 'warn',
      log: (level, message) => {
        if (level === 'error') deps.log.error({ source: 'better-auth' }, message);
        else deps.log.debug({ source: 'better-auth' }, message);
      },
    },
    onAPIError: {
      // OAuth failures without a callback of their own land on the auth screen.
      errorURL: `${config.publicUrl}/login?error=oauth`,
      onError: (error) => {
        // Refusals (wrong password, invalid token) are answers, not faults of ours.
        if (error instanceof APIError && error.statusCode < 500) return;
        deps.log.error({ err: error, source: 'better-auth' }, 'auth request failed');
      },
    },
    // Our own limiter (rate-limit.ts) keys by the client address Fastify resolved and by account.
    rateLimit: { enabled: false },
    emailAndPassword: {
      enabled: true,
      // A new account signs in through the link mailed to its address. Sign-up therefore
      // answers the same whether or not the address has an account (better-auth answers an
      // existing one with a made-up user), and the owner of an existing one is told instead.
      requireEmailVerification: true,
      onExistingUserSignUp: async ({ user }) => {
        if (user.email.endsWith(`@${demoEmailDomain}`)) return;
        sendInBackground(
          deps,
          existingAccountMail({
            to: user.email,
            name: user.name || null,
            signInUrl: `${config.publicUrl}/login`,
            resetUrl: `${config.publicUrl}/login?mode=reset`,
          }),
        );
      },
      minPasswordLength: 8,
      maxPasswordLength: 128,
      resetPasswordTokenExpiresIn: resetLinkMinutes * 60,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        // Demo addresses are made up (.invalid); mail to them would only bounce.
        if (user.email.endsWith(`@${demoEmailDomain}`)) return;
        // The link opens the auth screen's reset mode directly; the token is single-use.
        const url = `${config.publicUrl}/login?mode=reset&token=${encodeURIComponent(token)}`;
        sendInBackground(
          deps,
          passwordResetMail({
            to: user.email,
            name: user.name || null,
            url,
            expiresInMinutes: resetLinkMinutes,
          }),
        );
      },
    },
    emailVerification: {
      // Signing in before confirming sends a fresh link (the old one may be lost).
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: confirmLinkHours * 60 * 60,
      sendVerificationEmail: async ({ user, token }) => {
        // The link opens our page, which confirms with the token; mail scanners that follow
        // links only load that page.
        sendInBackground(
          deps,
          confirmAddressMail({
            to: user.email,
            name: user.name || null,
            url: `${config.publicUrl}/confirm-email?token=${encodeURIComponent(token)}`,
            expiresInHours: confirmLinkHours,
          }),
        );
      },
    },
    user: {
      modelName: 'users',
      fields: { ...stamps, emailVerified: 'email_verified' },
      additionalFields: {
        isDemo: {
          type: 'boolean',
          required: false,
          defaultValue: false,
          input: false,
          fieldName: 'is_demo',
        },
        demoExpiresAt: {
          type: 'date',
          required: false,
          input: false,
          // The account page tells a demo visitor when the account goes.
          returned: true,
          fieldName: 'demo_expires_at',
        },
      },
      changeEmail: { enabled: false },
      deleteUser: {
        enabled: true,
        beforeDelete: async (user) => deps.deleteUserData(user.id),
      },
    },
    session: {
      modelName: 'sessions',
      fields: {
        ...stamps,
        expiresAt: 'expires_at',
        ipAddress: 'ip_address',
        userAgent: 'user_agent',
        userId: 'user_id',
      },
      expiresIn: 60 * 60 * 24 * 7,
      updateAge: 60 * 60 * 24,
    },
    account: {
      modelName: 'accounts',
      fields: {
        ...stamps,
        accountId: 'account_id',
        providerId: 'provider_id',
        userId: 'user_id',
        accessToken: 'access_token',
        refreshToken: 'refresh_token',
        idToken: 'id_token',
        accessTokenExpiresAt: 'access_token_expires_at',
        refreshTokenExpiresAt: 'refresh_token_expires_at',
      },
      encryptOAuthTokens: true,
    },
    verification: {
      modelName: 'verifications',
      fields: { ...stamps, expiresAt: 'expires_at' },
      storeIdentifier: 'hashed',
    },
    hooks: { before: checkName },
    advanced: {
      cookiePrefix: 'replatform',
      useSecureCookies: https,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: https, path: '/' },
      // The bridge (bridge.ts) replaces x-forwarded-for with the address Fastify resolved.
      ipAddress: { ipAddressHeaders: ['x-forwarded-for'] },
      // Test runs keep every check of production.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      backgroundTasks: {
        handler: (promise) => {
          promise.catch((error: unknown) =>
            deps.log.error({ err: error }, 'auth background task failed'),
          );
        },
      },
    },
    plugins: [
      replatformEndpoints(deps),
      ...(google
        ? [
            genericOAuth({
              config: [
                {
                  providerId: 'google',
                  name: 'Google',
                  clientId: google.clientId,
                  clientSecret: google.clientSecret,
                  discoveryUrl: `${google.issuer}/.well-known/openid-configuration`,
                  requireIdTokenVerification: true,
                  scopes: ['openid', 'email', 'profile'],
                  pkce: true,
                },
              ],
            }),
          ]
        : []),
    ],
  });
}

export type BetterAuthInstance = ReturnType<typeof createBetterAuth>;
