import type { EntityType } from '@replatform/canonical/entities';
import type { Platform } from '@replatform/contracts/migration';
import { startBigCommerceEmulator } from '@replatform/emulators/bigcommerce/bigcommerce-emulator';
import type { SampleStoreOptions } from '@replatform/emulators/framework/sample-store';
import type { RunningEmulator } from '@replatform/emulators/framework/server';
import { startMagentoEmulator } from '@replatform/emulators/magento2/magento-emulator';
import { startShopifyEmulator } from '@replatform/emulators/shopify/shopify-emulator';
import { startWooCommerceEmulator } from '@replatform/emulators/woocommerce/woocommerce-emulator';

/** What a benchmark worker needs to reach a store (passed to the child as JSON). */
export interface StoreAddress {
  platform: Platform;
  /** The emulator's origin on 127.0.0.1. */
  origin: string;
  credentials: Record<string, string>;
}

export interface BenchStore {
  address: StoreAddress;
  emulator: RunningEmulator;
  countStored(entity: EntityType): number;
  /** Requests the store admitted per second on its plan, when it has a published limit. */
  requestsPerSecond: number | undefined;
  /** Requests admitted under the store's quota (BigCommerce), for the limit-derived bound. */
  admittedRequests(): number;
  close(): Promise<void>;
}

export interface BenchStoreOptions {
  seed: SampleStoreOptions | 'empty';
  latencyMs?: number;
  /** Enforce the platform's published rate limit (default: unlimited plan). */
  limited?: boolean;
}

let shops = 0;

/** Starts an emulated store of a platform on 127.0.0.1, seeded or empty. */
export async function startBenchStore(
  platform: Platform,
  options: BenchStoreOptions,
): Promise<BenchStore> {
  const latencyMs = options.latencyMs ?? 0;
  switch (platform) {
    case 'woocommerce': {
      const e = await startWooCommerceEmulator({ seed: options.seed, latencyMs });
      return {
        address: {
          platform,
          origin: e.url,
          credentials: {
            storeUrl: e.url,
            consumerKey: e.consumerKey,
            consumerSecret: e.consumerSecret,
          },
        },
        emulator: e,
        countStored: (entity) => {
          const counts = e.store.counts();
          // 'Uncategorized' is WooCommerce's own placeholder, present in every store.
          return entity === 'categories' ? counts.categories - 1 : counts[entity];
        },
        requestsPerSecond: undefined,
        admittedRequests: () => e.stats.requests,
        close: () => e.close(),
      };
    }
    case 'magento2': {
      const e = await startMagentoEmulator({
        seed: options.seed,
        latencyMs,
        bulk: { tickMs: 2, perTick: 200 },
      });
      return {
        address: { platform, origin: e.url, credentials: { storeUrl: e.url, ...e.credentials } },
        emulator: e,
        countStored: (entity) => e.store.countCanonical(entity),
        requestsPerSecond: undefined,
        admittedRequests: () => e.stats.requests,
        close: () => e.close(),
      };
    }
    case 'bigcommerce': {
      const e = await startBigCommerceEmulator({
        seed: options.seed,
        latencyMs,
        plan: options.limited ? 'standard' : 'unlimited',
      });
      const quota = e.quotaStats();
      return {
        address: {
          platform,
          origin: e.url,
          credentials: { storeHash: e.storeHash, accessToken: e.accessToken },
        },
        emulator: e,
        countStored: (entity) => e.countStored(entity),
        requestsPerSecond: options.limited ? quota.quota / (quota.windowMs / 1000) : undefined,
        admittedRequests: () => e.quotaStats().windows.reduce((n, w) => n + w.used, 0),
        close: () => e.close(),
      };
    }
    case 'shopify': {
      shops += 1;
      const shopDomain = `bench-${process.pid}-${shops}.myshopify.com`;
      const e = await startShopifyEmulator({
        shops: [shopDomain],
        seed: options.seed,
        latencyMs,
        plan: options.limited ? 'standard' : 'plus',
        bulkDelayMs: 50,
      });
      return {
        address: {
          platform,
          origin: e.url,
          credentials: { shopDomain, accessToken: e.accessToken },
        },
        emulator: e,
        countStored: (entity) => e.countStored(entity, shopDomain),
        requestsPerSecond: undefined,
        admittedRequests: () => e.stats.requests,
        close: () => e.close(),
      };
    }
  }
}
