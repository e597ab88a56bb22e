import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mappingChoicesSchema } from '@replatform/contracts/value-mappings';
import { MemoryStore, memoryConnector } from '@replatform/engine/testing/memory-store';
import { buildApp, type App } from '../../app.ts';
import { parseConfig } from '../../config.ts';
import { signUp, testOrigin } from '../../testing/sign-up.ts';

describe('the Map fields panel’s choices', () => {
  let app: App;
  let dataDir: string;
  let alice: string;
  let bob: string;
  const stores: Record<string, MemoryStore> = {};

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'replatform-mapping-choices-'));
    const config = parseConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      SANDBOX_STORES: 'false',
    });
    app = await buildApp(config, {
      registry: {
        woocommerce: memoryConnector(stores, {
          destinationFields: {
            customers: { unsupported: { group: 'This store cannot put customers in groups.' } },
          },
        }),
      },
    });
    alice = await signUp(app, 'alice@example.com');
    bob = await signUp(app, 'bob@example.com');
  });
  afterAll(async () => {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (cookie: string, method: 'GET' | 'POST', url: string, body?: object) =>
    app.inject({
      method,
      url,
      headers: {
        origin: testOrigin,
        cookie,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { payload: body } : {}),
    });

  it('reads both stores’ lists and currencies now, proposes a value per source value, and says why a list cannot be mapped', async () => {
    const source = new MemoryStore();
    source.currency = 'EUR';
    source.values = {
      customerGroups: {
        values: [
          { value: '', label: 'Customer' },
          { value: 'wholesale', label: 'Wholesale' },
        ],
        createsMissing: false,
      },
      taxClasses: {
        values: [
          { value: '', label: 'Standard' },
          { value: 'reduced-rate', label: 'Reduced rate' },
          { value: 'luxury', label: 'Luxury' },
        ],
        createsMissing: false,
      },
    };
    const destination = new MemoryStore();
    destination.currency = 'USD';
    destination.values = {
      taxClasses: {
        values: [
          { value: '', label: 'Taxable Goods' },
          { value: 'Reduced Rate', label: 'Reduced Rate' },
        ],
        createsMissing: true,
      },
    };
    stores['https://source.example.com'] = source;
    stores['https://destination.example.com'] = destination;
    const id = (await call(alice, 'POST', '/api/migrations', { storeName: 'Mapped' })).json()
      .id as string;
    const url = `/api/migrations/${id}/mapping-choices`;
    expect((await call(alice, 'GET', url)).statusCode).toBe(409);
    for (const [side, storeUrl] of [
      ['source', 'https://source.example.com'],
      ['destination', 'https://destination.example.com'],
    ] as const) {
      const verified = await call(alice, 'POST', '/verify-woocommerce-connection', {
        migrationId: id,
        side,
        sourceStoreUrl: storeUrl,
        consumerKey: 'ck',
        consumerSecret: 'secret',
      });
      expect(verified.statusCode, verified.body).toBe(200);
    }
    const answer = await call(alice, 'GET', url);
    expect(answer.statusCode, answer.body).toBe(200);
    const choices = mappingChoicesSchema.parse(answer.json());
    expect(choices.currency).toEqual({ source: 'EUR', destination: 'USD' });
    expect(choices.taxClasses).toMatchObject({
      createsMissing: true,
      defaults: { '': '', 'reduced-rate': 'Reduced Rate', luxury: 'Luxury' },
    });
    expect(choices.taxClasses.unavailable).toBeUndefined();
    expect(choices.customerGroups).toMatchObject({
      unavailable: 'This store cannot put customers in groups.',
      defaults: {},
    });
    // A store whose list changes is read afresh.
    destination.values = {};
    const again = mappingChoicesSchema.parse((await call(alice, 'GET', url)).json());
    expect(again.taxClasses.unavailable).toBe(
      "Replatform reads no tax classes from WooCommerce, so the source's are written as they are.",
    );
    expect((await call(bob, 'GET', url)).statusCode).toBe(404);
  });
});
