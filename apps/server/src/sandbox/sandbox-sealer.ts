import type { Platform } from '@replatform/contracts/migration';
import {
  connectorCredentials,
  displayAddress,
  type StoreConnections,
} from '../connections/store-connections.ts';
import { sealCredentials, type Side } from '../migrations/store-credentials.ts';
import type { CredentialVault } from '../security/credential-vault.ts';
import type { SandboxStores } from './sandbox-stores.ts';

/** A sandbox store's address and its credentials sealed for one side of one migration. */
export interface SealedSandboxStore {
  address: string;
  credentials: string;
}

export type SandboxSealer = (
  migrationId: string,
  side: Side,
  platform: Platform,
  options?: { paced?: boolean },
) => Promise<SealedSandboxStore>;

/**
 * Connects a sandbox store to a side of a migration the way the verify routes would, without the
 * round trip: the source is the platform's seeded store, the destination an empty one made for
 * that migration alone (paced: one that takes writes slowly). Demo samples use it so that what
 * they show can really run.
 */
export function sandboxSealer(deps: {
  sandbox: SandboxStores;
  vault: CredentialVault;
  connections: StoreConnections;
}): SandboxSealer {
  return async (migrationId, side, platform, options = {}) => {
    const fields =
      side === 'destination'
        ? await deps.sandbox.destinationFor(migrationId, platform, options)
        : deps.sandbox.fields(platform, side);
    if (!fields) throw new Error(`no ${platform} sandbox store for ${side}`);
    const credentials = deps.connections.parseCredentials(
      platform,
      connectorCredentials(platform, fields),
    ) as Record<string, string>;
    return {
      address: displayAddress(platform, credentials),
      credentials: sealCredentials(deps.vault, migrationId, side, {
        platform,
        secrets: credentials,
      }),
    };
  };
}
