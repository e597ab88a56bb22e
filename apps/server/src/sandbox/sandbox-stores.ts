import { randomBytes, randomInt } from 'node:crypto';
import type { Platform } from '@replatform/contracts/migration';
import type { ConnectorHttp } from '@replatform/connectors/kit/contract';
import { createHttpClient, type HttpClient } from '@replatform/connectors/kit/http/http-client';
import { startBigCommerceEmulator } from '@replatform/emulators/bigcommerce/bigcommerce-emulator';
import type { RunningEmulator } from '@replatform/emulators/framework/server';
import type { SampleStoreOptions } from '@replatform/emulators/framework/sample-store';
import { startMagentoEmulator } from '@replatform/emulators/magento2/magento-emulator';
import { startShopifyEmulator } from '@replatform/emulators/shopify/shopify-emulator';
import { startWooCommerceEmulator } from '@replatform/emulators/woocommerce/woocommerce-emulator';
import type { Side } from '../migrations/store-credentials.ts';

/** The connection details a sandbox store is reached with, in the verify routes' field names. */
export type SandboxFields = Record<string, string>;

/** The app a sandbox shop installs, and where a browser reaches the shop's pages. */
export interface ShopifyApp {
  apiKey: string;
  apiSecret: string;
  browserOrigin: string;
}

interface SandboxSide {
  fields: SandboxFields;
}

const secret = (prefix: string) => `${prefix}${randomBytes(20).toString('hex')}`;

/** A WordPress application password as WordPress shows one: six groups of four. */
const applicationPassword = () => {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const chars = Array.from({ length: 24 }, () => letters[randomInt(letters.length)]);
  return chars.join('').replace(/(.{4})(?!$)/g, '$1 ');
};

export interface PlatformStore {
  emulator: RunningEmulator;
  /** Connection details in the verify routes' field names. */
  fields: SandboxFields;
  shopRoute?: { shop: string; origin: string };
  bigCommerceRoute?: { storeHash: string; origin: string };
  shopifyApp?: { shop: string; app: ShopifyApp };
}

/**
 * Starts one emulated store of a platform, seeded or empty, with credentials made for it. Shopify
 * and BigCommerce stores are reached at their platform's fixed API host, so their routes are
 * returned for the caller's router.
 */
export async function startPlatformStore(
  platform: Platform,
  seed: SampleStoreOptions | 'empty',
  label: string,
  options: { paced?: boolean } = {},
): Promise<PlatformStore> {
  switch (platform) {
    case 'woocommerce': {
      const woo = await startWooCommerceEmulator({
        seed,
        consumerKey: secret('ck_'),
        consumerSecret: secret('cs_'),
        applicationPassword: applicationPassword(),
        siteTitle: `Sandbox ${label} (WooCommerce)`,
      });
      return {
        emulator: woo,
        fields: {
          sourceStoreUrl: woo.url,
          consumerKey: woo.consumerKey,
          consumerSecret: woo.consumerSecret,
          // The sandbox's pages and posts are WordPress's: its application password opens them.
          wordpressUser: woo.wordpressUser,
          wordpressApplicationPassword: woo.wordpressApplicationPassword,
        },
      };
    }
    case 'magento2': {
      const magento = await startMagentoEmulator({ seed });
      return { emulator: magento, fields: { sourceStoreUrl: magento.url, ...magento.credentials } };
    }
    case 'bigcommerce': {
      const storeHash = `sandbox${label.replace(/[^a-z0-9]/g, '')}${randomBytes(4).toString('hex')}`;
      const bigCommerce = await startBigCommerceEmulator({
        seed,
        storeHash,
        accessToken: secret(''),
        plan: 'unlimited',
      });
      return {
        emulator: bigCommerce,
        fields: { storeHash, accessToken: bigCommerce.accessToken },
        bigCommerceRoute: { storeHash, origin: bigCommerce.url },
      };
    }
    case 'shopify': {
      // A name nobody can predict, so no real shop's domain is ever routed to an emulator.
      const shop = `replatform-sandbox-${label.replace(/[^a-z0-9-]/g, '')}-${randomBytes(5).toString('hex')}.myshopify.com`;
      // The Plus plan's restore rate keeps demo migrations brisk; a paced store is on the standard
      // plan, whose tenfold slower rate the connector waits for, so a run there takes minutes.
      const shopify = await startShopifyEmulator({
        seed,
        shops: [shop],
        accessToken: secret('shpat_'),
        plan: options.paced ? 'standard' : 'plus',
      });
      return {
        emulator: shopify,
        fields: { sourceStoreUrl: shop, accessToken: shopify.accessToken },
        shopRoute: { shop, origin: shopify.url },
        shopifyApp: {
          shop,
          app: { apiKey: shopify.apiKey, apiSecret: shopify.apiSecret, browserOrigin: shopify.url },
        },
      };
    }
  }
}

/**
 * Sends requests for emulated Shopify shops (by exact host) and BigCommerce stores (by exact store
 * hash on api.bigcommerce.com) to their emulators, naming the shop as a reverse proxy would; every
 * other request passes through unchanged (and so through the egress guard as usual). The routes
 * come only from this server's own configuration.
 */
export function routeToEmulators(
  http: ConnectorHttp,
  shopRoutes: ReadonlyMap<string, string>,
  bigCommerceRoutes: ReadonlyMap<string, string>,
): ConnectorHttp {
  return {
    request: (request) => {
      const url = new URL(request.url);
      const shop = url.protocol === 'https:' ? shopRoutes.get(url.hostname) : undefined;
      if (shop) {
        return http.request({
          ...request,
          url: `${shop}${url.pathname}${url.search}`,
          headers: { ...request.headers, 'x-forwarded-host': url.hostname },
        });
      }
      const hash =
        url.protocol === 'https:' && url.hostname === 'api.bigcommerce.com'
          ? /^\/stores\/([a-z0-9]+)\//.exec(url.pathname)?.[1]
          : undefined;
      const bigCommerce = hash ? bigCommerceRoutes.get(hash) : undefined;
      if (bigCommerce)
        return http.request({ ...request, url: `${bigCommerce}${url.pathname}${url.search}` });
      return http.request(request);
    },
  };
}

/** A destination store of its own for one migration, and the only client that may reach it. */
interface DedicatedStore {
  store: PlatformStore;
  client: HttpClient;
  lastUsed: number;
}

/** How many per-migration destination stores live at once; the least recently used go first. */
const maxDedicatedStores = 32;

/**
 * Built-in emulators of the four platforms (decisions.md section 2): for each platform a seeded
 * source store (1,500 products, 750 customers, 250 orders by default) and an empty destination
 * store, on 127.0.0.1 with credentials made at start. They are reached only through the egress
 * allow-list (their exact origins) and, for the two platforms whose API host is fixed (Shopify,
 * BigCommerce), through exact-host routes that only this server's configuration creates.
 */
export class SandboxStores {
  readonly #emulators: RunningEmulator[];
  readonly #sides: Map<string, SandboxSide>;
  readonly #shopRoutes: Map<string, string>;
  readonly #bigCommerceRoutes: Map<string, string>;
  readonly #shopifyApps: Map<string, ShopifyApp>;
  /** Per-migration destinations, by `${migrationId}:${platform}`. */
  readonly #dedicated = new Map<string, DedicatedStore>();
  readonly #starting = new Map<string, Promise<DedicatedStore>>();
  /** The dedicated store behind each of their origins, shop domains and store hashes. */
  readonly #dedicatedByOrigin = new Map<string, DedicatedStore>();
  readonly #dedicatedByShop = new Map<string, DedicatedStore>();
  readonly #dedicatedByHash = new Map<string, DedicatedStore>();
  #closed = false;

  private constructor(
    emulators: RunningEmulator[],
    sides: Map<string, SandboxSide>,
    shopRoutes: Map<string, string>,
    bigCommerceRoutes: Map<string, string>,
    shopifyApps: Map<string, ShopifyApp>,
  ) {
    this.#emulators = emulators;
    this.#sides = sides;
    this.#shopRoutes = shopRoutes;
    this.#bigCommerceRoutes = bigCommerceRoutes;
    this.#shopifyApps = shopifyApps;
  }

  static async start(seed: SampleStoreOptions = {}): Promise<SandboxStores> {
    const sides = new Map<string, SandboxSide>();
    const emulators: RunningEmulator[] = [];
    const shopRoutes = new Map<string, string>();
    const bigCommerceRoutes = new Map<string, string>();
    const shopifyApps = new Map<string, ShopifyApp>();
    try {
      for (const side of ['source', 'destination'] as const) {
        for (const platform of ['woocommerce', 'magento2', 'bigcommerce', 'shopify'] as const) {
          const store = await startPlatformStore(
            platform,
            side === 'source' ? seed : 'empty',
            side,
          );
          emulators.push(store.emulator);
          sides.set(`${platform}:${side}`, { fields: store.fields });
          if (store.shopRoute) shopRoutes.set(store.shopRoute.shop, store.shopRoute.origin);
          if (store.bigCommerceRoute)
            bigCommerceRoutes.set(store.bigCommerceRoute.storeHash, store.bigCommerceRoute.origin);
          if (store.shopifyApp) shopifyApps.set(store.shopifyApp.shop, store.shopifyApp.app);
        }
      }
    } catch (error) {
      await Promise.all(emulators.map((e) => e.close()));
      throw error;
    }
    return new SandboxStores(emulators, sides, shopRoutes, bigCommerceRoutes, shopifyApps);
  }

  /** Whether a stored store address is one of the sandbox stores (no real store, no real money). */
  isSandboxAddress(platform: string, address: string): boolean {
    const addressOf = (fields: SandboxFields) => fields.sourceStoreUrl ?? fields.storeHash;
    return (
      [...this.#sides.entries()].some(
        ([key, side]) => key.startsWith(`${platform}:`) && addressOf(side.fields) === address,
      ) ||
      [...this.#dedicated.entries()].some(
        ([key, dedicated]) =>
          key.endsWith(`:${platform}`) && addressOf(dedicated.store.fields) === address,
      )
    );
  }

  /** The sandbox app of a sandbox shop, or undefined for any other shop. */
  shopifyApp(shop: string): ShopifyApp | undefined {
    return this.#shopifyApps.get(shop) ?? this.#dedicatedByShop.get(shop)?.store.shopifyApp?.app;
  }

  /**
   * An empty destination store of the platform for this migration alone, started on first use.
   * Demo visitors each migrate into their own store, so nobody's run finds another's records
   * already there. The least recently used of them are closed past a limit. A paced store takes
   * writes at a standard Shopify plan's rate (the other platforms answer as fast as ever).
   */
  async destinationFor(
    migrationId: string,
    platform: Platform,
    options: { paced?: boolean } = {},
  ): Promise<SandboxFields> {
    if (this.#closed) throw new Error('sandbox stores are closed');
    const key = `${migrationId}:${platform}`;
    const existing = this.#dedicated.get(key);
    if (existing) {
      existing.lastUsed = Date.now();
      return existing.store.fields;
    }
    let pending = this.#starting.get(key);
    if (!pending) {
      pending = this.#startDedicated(key, platform, options.paced ?? false);
      this.#starting.set(key, pending);
      pending.finally(() => this.#starting.delete(key)).catch(() => {});
    }
    return (await pending).store.fields;
  }

  async #startDedicated(key: string, platform: Platform, paced: boolean): Promise<DedicatedStore> {
    const store = await startPlatformStore(platform, 'empty', 'destination', { paced });
    // Only this client may reach the new store: the shared egress guard's allow-list stays as
    // the server's configuration made it.
    const client = createHttpClient({ allowlist: [store.emulator.url], timeoutMs: 30_000 });
    const dedicated: DedicatedStore = { store, client, lastUsed: Date.now() };
    if (this.#closed) {
      await Promise.all([client.close(), store.emulator.close()]);
      throw new Error('sandbox stores are closed');
    }
    this.#dedicated.set(key, dedicated);
    this.#dedicatedByOrigin.set(new URL(store.emulator.url).origin, dedicated);
    if (store.shopRoute) this.#dedicatedByShop.set(store.shopRoute.shop, dedicated);
    if (store.bigCommerceRoute)
      this.#dedicatedByHash.set(store.bigCommerceRoute.storeHash, dedicated);
    await this.#evict();
    return dedicated;
  }

  async #evict(): Promise<void> {
    const byAge = [...this.#dedicated.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    const excess = byAge.slice(0, Math.max(0, byAge.length - maxDedicatedStores));
    await Promise.all(excess.map(([key]) => this.#closeDedicated(key)));
  }

  async #closeDedicated(key: string): Promise<void> {
    const dedicated = this.#dedicated.get(key);
    if (!dedicated) return;
    this.#dedicated.delete(key);
    this.#dedicatedByOrigin.delete(new URL(dedicated.store.emulator.url).origin);
    if (dedicated.store.shopRoute) this.#dedicatedByShop.delete(dedicated.store.shopRoute.shop);
    if (dedicated.store.bigCommerceRoute)
      this.#dedicatedByHash.delete(dedicated.store.bigCommerceRoute.storeHash);
    await Promise.all([dedicated.client.close(), dedicated.store.emulator.close()]);
  }

  /** Closes the destinations made for a migration (when it is deleted). */
  async forgetMigration(migrationId: string): Promise<void> {
    const keys = [...this.#dedicated.keys()].filter((k) => k.startsWith(`${migrationId}:`));
    await Promise.all(keys.map((key) => this.#closeDedicated(key)));
  }

  /** Exact origins to admit through the egress guard. */
  origins(): string[] {
    return this.#emulators.map((e) => e.url);
  }

  /** Prefill for the Connect step (mock mode and demo accounts only). */
  fields(platform: Platform, side: Side): SandboxFields | undefined {
    return this.#sides.get(`${platform}:${side}`)?.fields;
  }

  /**
   * Sends requests for the sandbox shops and store hashes to their emulators, and requests for a
   * per-migration destination through the client made for it alone.
   */
  route(http: ConnectorHttp): ConnectorHttp {
    const shared = routeToEmulators(http, this.#shopRoutes, this.#bigCommerceRoutes);
    return {
      request: (request) => {
        const url = new URL(request.url);
        const byOrigin = this.#dedicatedByOrigin.get(url.origin);
        if (byOrigin) {
          byOrigin.lastUsed = Date.now();
          return byOrigin.client.request(request);
        }
        const byShop =
          url.protocol === 'https:' ? this.#dedicatedByShop.get(url.hostname) : undefined;
        const hash =
          url.protocol === 'https:' && url.hostname === 'api.bigcommerce.com'
            ? /^\/stores\/([a-z0-9]+)\//.exec(url.pathname)?.[1]
            : undefined;
        const byHash = hash ? this.#dedicatedByHash.get(hash) : undefined;
        const dedicated = byShop ?? byHash;
        if (!dedicated) return shared.request(request);
        dedicated.lastUsed = Date.now();
        return routeToEmulators(
          dedicated.client,
          new Map(byShop?.store.shopRoute ? [[url.hostname, byShop.store.shopRoute.origin]] : []),
          new Map(
            byHash?.store.bigCommerceRoute && hash
              ? [[hash, byHash.store.bigCommerceRoute.origin]]
              : [],
          ),
        ).request(request);
      },
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.allSettled([...this.#starting.values()]);
    await Promise.all([...this.#dedicated.keys()].map((key) => this.#closeDedicated(key)));
    await Promise.all(this.#emulators.map((e) => e.close()));
  }
}
