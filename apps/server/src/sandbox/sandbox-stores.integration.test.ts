import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '@replatform/contracts/migration';
import { createHttpClient } from '@replatform/connectors/kit/http/http-client';
import { connectorRegistry } from '@replatform/connectors/registry';
import { connectorCredentials } from '../connections/store-connections.ts';
import { SandboxStores } from './sandbox-stores.ts';

const platforms: Platform[] = ['woocommerce', 'magento2', 'bigcommerce', 'shopify'];

describe('sandbox stores (integration)', () => {
  let sandbox: SandboxStores;
  // The shared egress guard knows only the shared stores, as in the app.
  let guarded: ReturnType<typeof createHttpClient>;

  beforeAll(async () => {
    sandbox = await SandboxStores.start({ products: 3, customers: 2, orders: 1 });
    guarded = createHttpClient({ allowlist: sandbox.origins() });
  });
  afterAll(async () => {
    await guarded.close();
    await sandbox.close();
  });

  const connect = (platform: Platform, fields: Record<string, string>) => {
    const connector = connectorRegistry[platform];
    if (!connector) throw new Error(`no ${platform} connector`);
    return connector.connect(
      connector.credentialsSchema.parse(connectorCredentials(platform, fields)),
      { http: sandbox.route(guarded) },
    );
  };

  it.each(platforms)(
    'gives each migration an empty %s destination of its own, reachable only through the sandbox',
    async (platform) => {
      const first = await sandbox.destinationFor('migration-a', platform);
      const again = await sandbox.destinationFor('migration-a', platform);
      const second = await sandbox.destinationFor('migration-b', platform);
      expect(again).toEqual(first);
      expect(second).not.toEqual(first);
      expect(first).not.toEqual(sandbox.fields(platform, 'destination'));

      const address = (f: Record<string, string>) => f.sourceStoreUrl ?? f.storeHash ?? '';
      expect(sandbox.isSandboxAddress(platform, address(first))).toBe(true);
      expect(sandbox.isSandboxAddress(platform, address(second))).toBe(true);

      // Both answer through the sandbox's routing, and both start empty.
      for (const fields of [first, second]) {
        const connection = connect(platform, fields);
        await expect(connection.check()).resolves.toMatchObject({ ok: true });
        expect(await connection.count('products')).toBe(0);
      }
      // The shared guard alone does not reach a dedicated store.
      if (platform === 'woocommerce' || platform === 'magento2') {
        await expect(
          guarded.request({ method: 'GET', url: `${address(first)}/` }),
        ).rejects.toThrow();
      }

      await sandbox.forgetMigration('migration-b');
      expect(sandbox.isSandboxAddress(platform, address(second))).toBe(false);
      await expect(connect(platform, second).check()).rejects.toThrow();
    },
  );

  it('names sandbox shops unpredictably, so no real shop is routed to an emulator', async () => {
    const shop = sandbox.fields('shopify', 'source')?.sourceStoreUrl ?? '';
    expect(shop).toMatch(/^replatform-sandbox-source-[0-9a-f]{10}\.myshopify\.com$/);
    expect(sandbox.shopifyApp(shop)).toBeDefined();
    expect(sandbox.shopifyApp('replatform-sandbox-source.myshopify.com')).toBeUndefined();
    const dedicated = await sandbox.destinationFor('migration-c', 'shopify');
    expect(sandbox.shopifyApp(dedicated.sourceStoreUrl ?? '')).toBeDefined();
  });
});
