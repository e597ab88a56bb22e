import { startWooCommerceEmulator } from '@replatform/emulators/woocommerce/woocommerce-emulator';
import { createHttpClient } from '../kit/http/http-client.ts';
import { describeConformance } from '../kit/conformance/conformance-suite.ts';
import { nativeAccess, storeAssigned, storedCount, storeOwned } from './conformance-support.ts';
import { wooCommerceConnector } from './woocommerce.ts';

/**
 * The conformance suite through the production client: the egress guard admitting exactly the
 * emulator's origin, its time-outs, and its refusal to repeat requests the connector signed. The
 * stores serve plain http, so every request carries a one-time OAuth 1.0a signature, and the
 * fault tests (cut-off bodies, resets, 5xx, time-outs) prove that retries are signed afresh.
 */

describeConformance('woocommerce through the egress-guarded client', {
  connector: wooCommerceConnector,
  storeOwned,
  storeAssigned,
  strictUnsupported: true,
  native: nativeAccess(),
  compareVariantLinks: true,
  http: (store) => createHttpClient({ allowlist: [store.emulator.url], timeoutMs: 10_000 }),
  startStore: async (kind, sample) => {
    const emulator = await startWooCommerceEmulator({
      seed: kind === 'seeded' ? sample : 'empty',
      faultSeed: 7,
    });
    return {
      credentials: {
        storeUrl: emulator.url,
        consumerKey: emulator.consumerKey,
        consumerSecret: emulator.consumerSecret,
        wordpressUser: emulator.wordpressUser,
        wordpressApplicationPassword: emulator.wordpressApplicationPassword,
      },
      emulator,
      countStored: (entity) => storedCount(emulator, entity),
      close: () => emulator.close(),
    };
  },
});
