import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const okSchema = z.object({}).passthrough();

export function updateName(name: string) {
  return apiRequest('/api/auth/update-user', okSchema, { method: 'POST', body: { name } });
}

/** Re-authenticates with the current password before changing the e-mail address. */
export function changeEmail(input: { newEmail: string; currentPassword: string }) {
  return apiRequest('/api/auth/account/change-email', okSchema, { method: 'POST', body: input });
}

/** Re-authenticates with the current password; other devices are signed out. */
export function changePassword(input: { currentPassword: string; newPassword: string }) {
  return apiRequest('/api/auth/change-password', okSchema, {
    method: 'POST',
    body: { ...input, revokeOtherSessions: true },
  });
}

/** Deletes the account, its migrations (with their store credentials) and every session. */
export function deleteAccount() {
  return apiRequest('/api/auth/delete-user', okSchema, { method: 'POST', body: {} });
}
