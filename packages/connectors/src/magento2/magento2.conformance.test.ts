import { adminSchema } from '@replatform/emulators/magento2/admin-schema';
import { startMagentoEmulator } from '@replatform/emulators/magento2/magento-emulator';
import { expect, it } from 'vitest';
import type { ConnectorHttpRequest } from '../kit/contract.ts';
import { describeConformance } from '../kit/conformance/conformance-suite.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { magentoConnector } from './magento-connector.ts';

// Every request of every connection the suite opens, checked against the spec at the end.
const recorded: ConnectorHttpRequest[][] = [];
const emulators: Awaited<ReturnType<typeof startMagentoEmulator>>[] = [];

describeConformance('magento2', {
  compareVariantLinks: true,
  connector: magentoConnector,
  // Magento writes a product's parts one request after another, so every hung request of the
  // fault tests costs its full deadline; the emulator answers in milliseconds.
  faultTimeoutMs: 1_000,
  http: () => {
    const http = loopbackHttp();
    recorded.push(http.requests);
    return http;
  },
  async startStore(kind, sample) {
    const emulator = await startMagentoEmulator({
      seed: kind === 'seeded' ? sample : 'empty',
      bulk: { tickMs: 2, perTick: 50 },
    });
    emulators.push(emulator);
    return {
      credentials: { storeUrl: emulator.url, ...emulator.credentials },
      emulator,
      countStored: (entity) => emulator.store.countCanonical(entity),
      close: () => emulator.close(),
    };
  },
});

it('sent only requests that admin-schema-2.4.9.yaml describes', () => {
  const spec = adminSchema();
  const requests = recorded.flat().filter((r) => new URL(r.url).pathname.startsWith('/rest/'));
  expect(requests.length).toBeGreaterThan(500);
  const problems = [...new Set(requests.flatMap((r) => spec.checkRequest(r)))];
  expect(problems).toEqual([]);
});

it('never e-mailed a customer while importing', () => {
  expect(emulators.length).toBeGreaterThanOrEqual(3);
  for (const emulator of emulators) expect(emulator.store.customers.outbox).toEqual([]);
});
