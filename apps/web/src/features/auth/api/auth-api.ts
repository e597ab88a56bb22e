import { z } from 'zod';
import {
  authConfigSchema,
  sessionUserSchema,
  signUpAnswerSchema,
} from '@replatform/contracts/session';
import { apiRequest } from '../../../lib/api-client.ts';

const signedInSchema = z.object({ user: sessionUserSchema }).passthrough();
const statusSchema = z.object({ status: z.boolean() }).passthrough();

export function signInWithEmail(input: { email: string; password: string }) {
  return apiRequest('/api/auth/sign-in/email', signedInSchema, {
    method: 'POST',
    body: { ...input, rememberMe: true },
  });
}

/** Answers the same whether or not the address has an account: the next step is in the mail. */
export function signUpWithEmail(input: { name: string; email: string; password: string }) {
  return apiRequest('/api/auth/sign-up/email', signUpAnswerSchema, { method: 'POST', body: input });
}

/** Opens the confirmation link of a new account, which signs it in. */
export function confirmEmail(token: string) {
  return apiRequest('/api/auth/verify-email', z.object({ status: z.boolean() }).passthrough(), {
    query: { token },
  });
}

/** Answers the same whether or not the address has an account. */
export function requestPasswordReset(email: string) {
  return apiRequest('/api/auth/request-password-reset', statusSchema, {
    method: 'POST',
    body: { email },
  });
}

export function resetPassword(input: { token: string; newPassword: string }) {
  return apiRequest('/api/auth/reset-password', statusSchema, { method: 'POST', body: input });
}

/** A fresh demo account made by the server; the client holds no credentials for it. */
export function signInAsDemo() {
  return apiRequest('/api/auth/demo/sign-in', signedInSchema, { method: 'POST', body: {} });
}

/** Starts Google sign-in; the answer is the provider's address to send the browser to. */
export function startGoogleSignIn(input: { callbackURL: string; errorCallbackURL: string }) {
  return apiRequest('/api/auth/sign-in/social', z.object({ url: z.string() }).passthrough(), {
    method: 'POST',
    body: { provider: 'google', ...input, newUserCallbackURL: input.callbackURL },
  });
}

/** Which sign-in providers the server offers, and its password rules. */
export function getAuthConfig() {
  return apiRequest('/api/auth-config', authConfigSchema);
}
