import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const okSchema = z.object({}).passthrough();

export function updateName(name: string) {
  return apiRequest('/api/auth/update-user', okSchema, { method: 'POST', body: { name } });
}

/** Re-authenticates with the current password; other devices are signed out. */
export function changePassword(input: { currentPassword: string; newPassword: string }) {
  return apiRequest('/api/auth/change-password', okSchema, {
    method: 'POST',
    body: { ...input, revokeOtherSessions: true },
  });
}

/** Ends every session of the account except this one. */
export function signOutOtherDevices() {
  return apiRequest('/api/auth/revoke-other-sessions', okSchema, { method: 'POST', body: {} });
}
