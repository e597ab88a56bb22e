import type { EntityType } from '@replatform/canonical/entities';
import type { Platform } from '@replatform/contracts/migration';
import { startBigCommerceEmulator } from '@replatform/emulators/bigcommerce/bigcommerce-emulator';
import type { SampleStoreOptions } from '@replatform/emulators/framework/sample-store';
import type { RunningEmulator } from '@replatform/emulators/framework/server';
import { startMagentoEmulator } from '@replatform/emulators/magento2/magento-emulator';
import { startShopifyEmulator } from '@replatform/emulators/shopify/shopify-emulator';
import { restoreRates } from '@replatform/emulators/shopify/store';
import { startWooCommerceEmulator } from '@replatform/emulators/woocommerce/woocommerce-emulator';

/** What a benchmark worker needs to reach a store (passed to the child as JSON). */
export interface StoreAddress {
  platform: Platform;
  /** The emulator's origin on 127.0.0.1. */
  origin: string;
  credentials: Record<string, string>;
}

/** What a store with a published limit counted of a run, as the platform would. */
export interface StoreLimitUse {
  unit: 'requests' | 'points';
  /** The plan's limit per second (BigCommerce: quota / window; Shopify: restore rate). */
  perSecond: number;
  /** Units charged against the limit so far (admitted requests, query-cost points). */
  used: number;
  /** Requests refused for going over the limit (429, THROTTLED). */
  refused: number;
  /** The quota windows so far (BigCommerce), with their start in epoch milliseconds. */
  windows?: { startedAt: number; used: number; refused: number }[];
  windowMs?: number;
  /** Requests allowed per window. */
  quota?: number;
}

export interface BenchStore {
  address: StoreAddress;
  emulator: RunningEmulator;
  countStored(entity: EntityType): number;
  /** The store's own count against its published limit; undefined when it publishes none. */
  limitUse(): StoreLimitUse | undefined;
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
        limitUse: () => undefined,
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
        limitUse: () => undefined,
        close: () => e.close(),
      };
    }
    case 'bigcommerce': {
      const e = await startBigCommerceEmulator({
        seed: options.seed,
        latencyMs,
        plan: options.limited ? 'standard' : 'unlimited',
      });
      return {
        address: {
          platform,
          origin: e.url,
          credentials: { storeHash: e.storeHash, accessToken: e.accessToken },
        },
        emulator: e,
        countStored: (entity) => e.countStored(entity),
        limitUse: () => {
          if (!options.limited) return undefined;
          const quota = e.quotaStats();
          return {
            unit: 'requests',
            perSecond: quota.quota / (quota.windowMs / 1000),
            used: quota.windows.reduce((n, w) => n + w.used, 0),
            refused: quota.limited,
            // The emulator keeps window starts on this process's performance clock.
            windows: quota.windows.map((w) => ({
              startedAt: performance.timeOrigin + w.startedAt,
              used: w.used,
              refused: w.limited,
            })),
            windowMs: quota.windowMs,
            quota: quota.quota,
          };
        },
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
        limitUse: () => {
          if (!options.limited) return undefined;
          const shop = e.shop(shopDomain);
          return {
            unit: 'points',
            perSecond: restoreRates.standard,
            used: shop.stats.pointsCharged,
            refused: shop.stats.throttled,
          };
        },
        close: () => e.close(),
      };
    }
  }
}
