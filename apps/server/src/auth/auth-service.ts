import type { FastifyRequest } from 'fastify';
import type { BetterAuthInstance } from './better-auth.ts';
import type { Mailer } from './mailer.ts';
import type { AuthRateLimiter } from './rate-limit.ts';
import type { CurrentUser } from './require-user.ts';

/** Accounts and sign-in as the rest of the server sees them (app.services.auth). */
export interface AuthService {
  readonly betterAuth: BetterAuthInstance;
  readonly mailer: Mailer;
  readonly limiter: AuthRateLimiter;
  /** Sign-in methods besides e-mail and password that this instance offers. */
  readonly providers: { google: boolean };
  /** The user of the request's session cookie, or null (no cookie, expired or revoked). */
  currentUser(request: FastifyRequest): Promise<CurrentUser | null>;
  /**
   * Registers clean-up for data of ours a user owns, run before an account is deleted (by its
   * owner or by the demo sweep). Migrations, and the store credentials in them, are built in.
   */
  onUserDeleted(handler: (userId: string) => Promise<void>): void;
  /** Deletes an account and everything it owns, and revokes all its sessions. */
  deleteUser(userId: string): Promise<void>;
  /** Deletes expired demo accounts, sessions and tokens; runs periodically on its own. */
  sweep(now?: Date): Promise<{ demoAccounts: number }>;
  /** Starts the periodic sweep (called once the app is ready). */
  start(): void;
  /** Stops background work and closes the mail transport. */
  close(): Promise<void>;
}
