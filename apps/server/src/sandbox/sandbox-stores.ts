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
        const data = side === 'source' ? seed : 'empty';

        const woo = await startWooCommerceEmulator({
          seed: data,
          consumerKey: secret('ck_'),
          consumerSecret: secret('cs_'),
          siteTitle: `Sandbox ${side} (WooCommerce)`,
        });
        emulators.push(woo);
        sides.set(`woocommerce:${side}`, {
          fields: {
            sourceStoreUrl: woo.url,
            consumerKey: woo.consumerKey,
            consumerSecret: woo.consumerSecret,
          },
        });

        const magento = await startMagentoEmulator({ seed: data });
        emulators.push(magento);
        sides.set(`magento2:${side}`, {
          fields: { sourceStoreUrl: magento.url, ...magento.credentials },
        });

        const storeHash = `sandbox${side === 'source' ? 'src' : 'dst'}${randomBytes(4).toString('hex')}`;
        const bigCommerce = await startBigCommerceEmulator({
          seed: data,
          storeHash,
          accessToken: secret(''),
          plan: 'unlimited',
        });
        emulators.push(bigCommerce);
        bigCommerceRoutes.set(storeHash, bigCommerce.url);
        sides.set(`bigcommerce:${side}`, {
          fields: { storeHash, accessToken: bigCommerce.accessToken },
        });

        const shopDomain = `replatform-sandbox-${side}.myshopify.com`;
        const shopify = await startShopifyEmulator({
          seed: data,
          shops: [shopDomain],
          accessToken: secret('shpat_'),
        });
        emulators.push(shopify);
        shopRoutes.set(shopDomain, shopify.url);
        shopifyApps.set(shopDomain, {
          apiKey: shopify.apiKey,
          apiSecret: shopify.apiSecret,
          browserOrigin: shopify.url,
        });
        sides.set(`shopify:${side}`, {
          fields: { sourceStoreUrl: shopDomain, accessToken: shopify.accessToken },
        });
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

  /**
   * Sends requests for the sandbox shops and store hashes to their emulators; every other request
   * passes through unchanged (and so through the egress guard as usual).
   */
  route(http: ConnectorHttp): ConnectorHttp {
    return {
      request: (request) => {
        const url = new URL(request.url);
        const shop = url.protocol === 'https:' ? this.#shopRoutes.get(url.hostname) : undefined;
        if (shop) {
          return http.request({
            ...request,
            url: `${shop}${url.pathname}${url.search}`,
            headers: { ...request.headers, 'x-forwarded-host': url.hostname },
          });
        }
        const hash =
          url.hostname === 'api.bigcommerce.com'
            ? /^\/stores\/([a-z0-9]+)\//.exec(url.pathname)?.[1]
            : undefined;
        const bigCommerce = hash ? this.#bigCommerceRoutes.get(hash) : undefined;
        if (bigCommerce)
          return http.request({ ...request, url: `${bigCommerce}${url.pathname}${url.search}` });
        return http.request(request);
      },
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.#emulators.map((e) => e.close()));
  }
}
