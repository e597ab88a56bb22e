export type AuthMode = 'signin' | 'signup' | 'reset' | 'new-password';

export interface AuthFields {
  name: string;
  email: string;
  password: string;
  confirm: string;
}

export type FieldErrors = Partial<Record<keyof AuthFields, string>>;

const emailFormat = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * spec.md section 5: sign-up needs a full name; the e-mail is required and well-formed; the
 * password is required except when asking for a reset link. Choosing a new password asks for it
 * twice (as the account pages do).
 */
export function validateAuthForm(mode: AuthMode, fields: AuthFields): FieldErrors {
  const errors: FieldErrors = {};
  if (mode === 'signup' && !fields.name.trim()) errors.name = 'Please enter your full name.';
  if (mode !== 'new-password') {
    const email = fields.email.trim();
    if (!email) errors.email = 'Please enter your email address.';
    else if (!emailFormat.test(email)) errors.email = 'Please enter a valid email address.';
  }
  if (mode !== 'reset' && !fields.password) errors.password = 'Please enter your password.';
  if (mode === 'new-password' && fields.password && fields.password !== fields.confirm)
    errors.confirm = 'Passwords do not match';
  return errors;
}
