import { randomBytes } from 'node:crypto';
import type { Platform } from '@replatform/contracts/migration';
import type { ConnectorHttp } from '@replatform/connectors/kit/contract';
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
): Promise<PlatformStore> {
  switch (platform) {
    case 'woocommerce': {
      const woo = await startWooCommerceEmulator({
        seed,
        consumerKey: secret('ck_'),
        consumerSecret: secret('cs_'),
        siteTitle: `Sandbox ${label} (WooCommerce)`,
      });
      return {
        emulator: woo,
        fields: {
          sourceStoreUrl: woo.url,
          consumerKey: woo.consumerKey,
          consumerSecret: woo.consumerSecret,
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
      const shop = `replatform-sandbox-${label.replace(/[^a-z0-9-]/g, '')}.myshopify.com`;
      // The Plus plan's restore rate keeps demo migrations brisk; the connector paces itself either way.
      const shopify = await startShopifyEmulator({
        seed,
        shops: [shop],
        accessToken: secret('shpat_'),
        plan: 'plus',
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
    return [...this.#sides.entries()].some(
      ([key, side]) =>
        key.startsWith(`${platform}:`) &&
        (side.fields.sourceStoreUrl ?? side.fields.storeHash) === address,
    );
  }

  /** The sandbox app of a sandbox shop, or undefined for any other shop. */
  shopifyApp(shop: string): ShopifyApp | undefined {
    return this.#shopifyApps.get(shop);
  }

  /** Exact origins to admit through the egress guard. */
  origins(): string[] {
    return this.#emulators.map((e) => e.url);
  }

  /** Prefill for the Connect step (mock mode and demo accounts only). */
  fields(platform: Platform, side: Side): SandboxFields | undefined {
    return this.#sides.get(`${platform}:${side}`)?.fields;
  }

  /** Sends requests for the sandbox shops and store hashes to their emulators. */
  route(http: ConnectorHttp): ConnectorHttp {
    return routeToEmulators(http, this.#shopRoutes, this.#bigCommerceRoutes);
  }

  async close(): Promise<void> {
    await Promise.all(this.#emulators.map((e) => e.close()));
  }
}
