import { z } from 'zod';

export type AuthMode = 'signin' | 'signup' | 'reset' | 'new-password';

export interface AuthFields {
  name: string;
  email: string;
  password: string;
  confirm: string;
}

export type FieldErrors = Partial<Record<keyof AuthFields, string>>;

// Our own address rule, not z.email(): the server takes any address of this shape.
const email = z
  .string()
  .trim()
  .min(1, 'Please enter your email address.')
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Please enter a valid email address.');
const password = z.string().min(1, 'Please enter your password.');

/**
 * spec.md section 5: sign-up needs a full name; the e-mail is required and well-formed; the
 * password is required except when asking for a reset link. Choosing a new password asks for it
 * twice (as the account pages do).
 */
export const authSchemas = {
  signin: z.object({ email, password }),
  signup: z.object({
    name: z.string().trim().min(1, 'Please enter your full name.'),
    email,
    password,
  }),
  reset: z.object({ email }),
  'new-password': z
    .object({ password, confirm: z.string() })
    // An empty password is told once, under its own field.
    .refine((f) => !f.password || f.password === f.confirm, {
      path: ['confirm'],
      message: 'Passwords do not match',
    }),
} satisfies Record<AuthMode, z.ZodType>;

/** A form's values as its mode's schema gives them (trimmed), tagged with the mode. */
export type AuthValues = {
  [M in AuthMode]: { mode: M } & z.output<(typeof authSchemas)[M]>;
}[AuthMode];

/** The mode's values as the schema gives them, or each field's first problem. */
export function checkAuthForm(
  mode: AuthMode,
  fields: AuthFields,
): { values: AuthValues } | { errors: FieldErrors } {
  const result = authSchemas[mode].safeParse(fields);
  if (result.success) return { values: { mode, ...result.data } as AuthValues };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof AuthFields;
    errors[field] ??= issue.message;
  }
  return { errors };
}
