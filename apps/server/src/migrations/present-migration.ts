import {
  fieldMappingsSchema,
  migrationOptionsSchema,
  normaliseStatus,
  optionsOf,
  type FieldMappings,
  type Migration,
  type MigrationOptions,
} from '@replatform/contracts/migration';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import type { CredentialVault } from '../security/credential-vault.ts';
import { maskedCredentialFields } from './store-credentials.ts';

const platformOrEmpty = (value: string): Migration['sourceStore'] =>
  value === 'magento2' || value === 'shopify' || value === 'woocommerce' || value === 'bigcommerce'
    ? value
    : '';

/** A stored migration as the API shows it: spec.md section 3's field names, secrets masked. */
export function presentMigration(stored: StoredMigration, vault: CredentialVault): Migration {
  return {
    id: stored.id,
    storeName: stored.storeName,
    userId: stored.userId,
    email: stored.email,
    sourceStore: platformOrEmpty(stored.sourceStore),
    destinationStore: platformOrEmpty(stored.destinationStore),
    sourceStoreUrl: stored.sourceStoreUrl,
    destinationStoreUrl: stored.destinationStoreUrl,
    ...maskedCredentialFields(vault, stored),
    sourceVerified: stored.sourceVerified,
    destinationVerified: stored.destinationVerified,
    currentStep: Math.min(Math.max(stored.currentStep, 1), 5),
    status: normaliseStatus(stored.status),
    dataTypes: stored.dataTypes,
    fieldMappings: storedMappings(stored),
    migrationOptions: storedOptions(stored),
    lastUpdated: stored.lastUpdated,
    startedAt: stored.startedAt,
    completedAt: stored.completedAt,
    totalEntities: stored.totalEntities,
    migratedEntities: stored.migratedEntities,
    entityCounts: stored.entityCounts,
    migrationStats: stored.migrationStats,
    paymentInfo: (stored.paymentInfo as Migration['paymentInfo']) ?? null,
  };
}

/** The owner's mappings as stored, or none when what is stored is not a mapping we know. */
export function storedMappings(stored: StoredMigration): FieldMappings {
  const parsed = fieldMappingsSchema.safeParse(stored.fieldMappings);
  return parsed.success ? parsed.data : {};
}

/** The owner's options as stored, with the defaults of those never chosen. */
export function storedOptions(stored: StoredMigration): Required<MigrationOptions> {
  const parsed = migrationOptionsSchema.safeParse(stored.migrationOptions);
  return optionsOf(parsed.success ? parsed.data : {});
}

export function isPaid(stored: StoredMigration): boolean {
  return stored.paymentInfo?.paymentStatus === 'paid';
}
