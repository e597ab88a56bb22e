import type { StoredMigration } from '@replatform/db/migrations-repository';
import type { RunningWooCommerceEmulator } from '@replatform/emulators/woocommerce/woocommerce-emulator';
import type { App } from '../app.ts';
import type { EngineServices } from '../jobs/engine-services.ts';
import { sealCredentials } from '../migrations/store-credentials.ts';

/**
 * A migration between two emulated WooCommerce stores, verified on both sides with all data
 * selected, ready to start (as the Connect and Select Data steps leave it).
 */
export async function readyWooCommerceMigration(
  app: App,
  stores: { source: RunningWooCommerceEmulator; destination: RunningWooCommerceEmulator },
  owner: { userId: string; storeName: string },
): Promise<StoredMigration> {
  const { migrations, vault } = app.services;
  const created = await migrations.create({
    userId: owner.userId,
    email: `${owner.userId}@example.com`,
    storeName: owner.storeName,
  });
  const seal = (side: 'source' | 'destination') => {
    const store = stores[side];
    return sealCredentials(vault, created.id, side, {
      platform: 'woocommerce',
      secrets: {
        storeUrl: store.url,
        consumerKey: store.consumerKey,
        consumerSecret: store.consumerSecret,
      },
    });
  };
  const ready = await migrations.update(created.id, owner.userId, {
    sourceStore: 'woocommerce',
    destinationStore: 'woocommerce',
    sourceStoreUrl: stores.source.url,
    destinationStoreUrl: stores.destination.url,
    sourceCredentials: seal('source'),
    destinationCredentials: seal('destination'),
    sourceVerified: true,
    destinationVerified: true,
    dataTypes: { products: true, customers: true, orders: true },
    currentStep: 3,
  });
  if (!ready) throw new Error('the migration just created was not found');
  return ready;
}

/**
 * Lets an engine take these test stores for sandbox stores, so runs between them start free and
 * unlimited (as a sandbox migration does), with no payment to arrange.
 */
export function treatAsSandbox(engine: EngineServices, ...urls: string[]): EngineServices {
  for (const url of urls) engine.sandboxOrigins.add(new URL(url).origin);
  return engine;
}
