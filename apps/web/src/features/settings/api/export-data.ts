import { contactMessageListSchema, preferencesResponseSchema } from '@replatform/contracts/forms';
import type { Migration } from '@replatform/contracts/migration';
import { migrationListSchema } from '@replatform/contracts/migrations-api';
import { notificationListSchema } from '@replatform/contracts/notifications';
import { apiRequest } from '../../../lib/api-client.ts';
import { getSession } from '../../session/api/get-session.ts';

/** Fields that hold store keys and tokens (only ever masked, but left out of an export). */
const credentialFields = [
  'consumerKey',
  'consumerSecret',
  'accessToken',
  'accessTokenSecret',
  'destinationConsumerKey',
  'destinationConsumerSecret',
  'destinationAccessToken',
  'destinationAccessTokenSecret',
  'apiKey',
  'apiSecret',
  'shopifyAccessToken',
] as const satisfies ReadonlyArray<keyof Migration>;

export function withoutCredentials(migration: Migration): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...migration };
  for (const field of credentialFields) delete copy[field];
  return copy;
}

/** Everything the account holds, as one JSON document. */
export async function collectMyData(now = new Date()) {
  const [session, migrations, notifications, messages, preferences] = await Promise.all([
    getSession(),
    apiRequest('/get-migrations', migrationListSchema),
    apiRequest('/api/notifications', notificationListSchema, { query: { limit: 100 } }),
    apiRequest('/api/contact-messages', contactMessageListSchema),
    apiRequest('/api/preferences', preferencesResponseSchema),
  ]);
  if (!session) throw new Error('Please sign in again to download your data.');
  return {
    exportedAt: now.toISOString(),
    account: {
      id: session.user.id,
      email: session.user.email,
      name: session.user.name ?? null,
    },
    preferences: { notifications: preferences.notifications, ...preferences.preferences },
    migrations: migrations.map(withoutCredentials),
    notifications: notifications.notifications,
    contactMessages: messages.messages,
  };
}

/** Builds the export and hands it to the browser as a file download. */
export async function downloadMyData(): Promise<{ migrations: number; messages: number }> {
  const now = new Date();
  const data = await collectMyData(now);
  const url = URL.createObjectURL(
    new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = `replatform-data-${now.toISOString().slice(0, 10)}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { migrations: data.migrations.length, messages: data.contactMessages.length };
}
