import { z } from 'zod';

/** The signed-in user as the web app sees it (GET /api/auth/get-session). */
export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable().optional(),
  /** A visitor's throw-away demo account (sample data, mock mode, expires after a day). */
  isDemo: z.union([z.boolean(), z.number()]).transform(Boolean).optional(),
  /** When a demo account is deleted with its data (ISO 8601); absent for real accounts. */
  demoExpiresAt: z.string().or(z.date()).nullish(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

export const sessionSchema = z
  .object({
    user: sessionUserSchema,
    session: z
      .object({ id: z.string().optional(), expiresAt: z.string().or(z.date()).optional() })
      .passthrough(),
  })
  .passthrough()
  .nullable();
export type Session = z.infer<typeof sessionSchema>;

/** Name shown in the top bar: display name, else the part of the e-mail before '@', else 'User'. */
export function displayNameOf(
  user: { name?: string | null; email?: string | null } | null | undefined,
): string {
  const name = user?.name?.trim();
  if (name) return name;
  const local = user?.email?.split('@')[0]?.trim();
  return local || 'User';
}

/**
 * GET /api/auth-config: the sign-in methods this instance offers, and where its mail goes: `outbox`
 * when no mail server is configured (the operator reads it with `npm run outbox`).
 */
export const authConfigSchema = z.object({
  providers: z.object({ google: z.boolean(), demo: z.boolean() }),
  passwordMinLength: z.number().int().positive(),
  mail: z.enum(['smtp', 'outbox']),
});
export type AuthConfig = z.infer<typeof authConfigSchema>;

/**
 * POST /api/auth/sign-up/email's answer, the same whether or not the address already has an
 * account: the next step is in the mail.
 */
export const signUpAnswerSchema = z.object({
  status: z.literal('confirmation_sent'),
  message: z.string(),
});
