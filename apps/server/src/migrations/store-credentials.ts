import { z } from 'zod';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import type { ContentAccess, Migration } from '@replatform/contracts/migration';
import { mask, type CredentialVault } from '../security/credential-vault.ts';

export type Side = 'source' | 'destination';
export const sideSchema = z.enum(['source', 'destination']);

/**
 * What is sealed for one side of a migration: the platform it was verified for and the secrets
 * its connector needs. The store URL (or BigCommerce store hash / Shopify domain) is kept in the
 * clear on the migration row because the owner sees it anyway.
 */
export const sealedCredentialsSchema = z.object({
  platform: z.enum(['magento2', 'shopify', 'woocommerce', 'bigcommerce']),
  secrets: z.record(z.string(), z.string()),
});
export type SealedCredentials = z.infer<typeof sealedCredentialsSchema>;

const context = (migrationId: string, side: Side) => `migration:${migrationId}:${side}`;

export function sealCredentials(
  vault: CredentialVault,
  migrationId: string,
  side: Side,
  value: SealedCredentials,
): string {
  return vault.seal(value, context(migrationId, side));
}

export function openCredentials(
  vault: CredentialVault,
  migration: StoredMigration,
  side: Side,
): SealedCredentials | undefined {
  const sealed = side === 'source' ? migration.sourceCredentials : migration.destinationCredentials;
  if (!sealed) return undefined;
  return sealedCredentialsSchema.parse(vault.open(sealed, context(migration.id, side)));
}

type MaskedFields = Pick<
  Migration,
  | 'consumerKey'
  | 'consumerSecret'
  | 'accessToken'
  | 'accessTokenSecret'
  | 'destinationConsumerKey'
  | 'destinationConsumerSecret'
  | 'destinationAccessToken'
  | 'destinationAccessTokenSecret'
  | 'shopifyAccessToken'
  | 'wordpressUser'
  | 'wordpressApplicationPassword'
  | 'destinationWordpressUser'
  | 'destinationWordpressApplicationPassword'
>;

/** The spec's credential fields of a migration, masked, for whichever side holds them. */
export function maskedCredentialFields(
  vault: CredentialVault,
  migration: StoredMigration,
): MaskedFields {
  const fields: MaskedFields = {};
  for (const side of ['source', 'destination'] as const) {
    let credentials: SealedCredentials | undefined;
    try {
      credentials = openCredentials(vault, migration, side);
    } catch {
      // Sealed with a key this server no longer has: show nothing rather than fail the page.
      credentials = undefined;
    }
    if (!credentials) continue;
    const s = credentials.secrets;
    if (credentials.platform === 'shopify') {
      fields.shopifyAccessToken = mask(s.accessToken);
      continue;
    }
    if (side === 'source') {
      fields.consumerKey = mask(s.consumerKey);
      fields.consumerSecret = mask(s.consumerSecret);
      fields.accessToken = mask(s.accessToken);
      fields.accessTokenSecret = mask(s.accessTokenSecret);
      fields.wordpressUser = s.wordpressUser;
      fields.wordpressApplicationPassword = mask(s.wordpressApplicationPassword);
    } else {
      fields.destinationConsumerKey = mask(s.consumerKey);
      fields.destinationConsumerSecret = mask(s.consumerSecret);
      fields.destinationAccessToken = mask(s.accessToken);
      fields.destinationAccessTokenSecret = mask(s.accessTokenSecret);
      fields.destinationWordpressUser = s.wordpressUser;
      fields.destinationWordpressApplicationPassword = mask(s.wordpressApplicationPassword);
    }
  }
  return Object.fromEntries(
    Object.entries(fields).filter(([, v]) => v !== undefined),
  ) as MaskedFields;
}

/**
 * Whether each side's connection opens the store's web pages and blog posts (a WooCommerce store
 * connected with a WordPress application password), as `dataTypeUnavailable` takes it.
 */
export function contentAccess(vault: CredentialVault, migration: StoredMigration): ContentAccess {
  const access: ContentAccess = {};
  for (const side of ['source', 'destination'] as const) {
    let credentials: SealedCredentials | undefined;
    try {
      credentials = openCredentials(vault, migration, side);
    } catch {
      credentials = undefined;
    }
    if (credentials?.platform === 'woocommerce')
      access[side] = Boolean(credentials.secrets.wordpressApplicationPassword);
  }
  return access;
}
