import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startBigCommerceEmulator,
  type RunningBigCommerceEmulator,
} from './bigcommerce-emulator.ts';
import { BigCommerceSpec } from './openapi-validator.ts';

const spec = new BigCommerceSpec();
const sample = { seed: 7, products: 3, customers: 0, orders: 0 };

interface Answer {
  status: number;
  body: unknown;
}

/** Requests and answers checked against redirects.v3.yml. */
function client(emulator: RunningBigCommerceEmulator) {
  return async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const url = `${emulator.url}/stores/${emulator.storeHash}${path}`;
    const headers = {
      'X-Auth-Token': emulator.accessToken,
      Accept: 'application/json',
      'Content-Type': 'application/json',
    };
    const text = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(url, { method, headers, body: text });
    const raw = await response.text();
    const parsed: unknown = raw ? JSON.parse(raw) : undefined;
    if (response.status < 300) {
      expect(spec.validateRequest({ method, url, headers, body: text })).toEqual([]);
      if (parsed !== undefined)
        expect(
          spec.validateResponse(method, url, { status: response.status, body: parsed }),
        ).toEqual([]);
    }
    return { status: response.status, body: parsed };
  };
}

type Json = Record<string, unknown>;
const data = (answer: Answer) => (answer.body as { data: Json[] }).data;

describe('BigCommerce emulator: storefront redirects (redirects v3)', () => {
  let store: RunningBigCommerceEmulator;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    store = await startBigCommerceEmulator({ seed: sample, plan: 'unlimited' });
    call = client(store);
  });
  afterAll(async () => {
    await store.close();
  });

  it('upserts by path and site, filters by keyword from the start of the path, deletes by id', async () => {
    const site = (await call('GET', '/v2/store')).body as { default_site_id: number };
    expect(site.default_site_id).toBe(1000);
    const product = data(await call('GET', '/v3/catalog/products?limit=1'))[0] as {
      id: number;
      custom_url: { url: string };
    };
    const created = await call('PUT', '/v3/storefront/redirects', [
      { from_path: '/old-shirt/', site_id: 1000, to: { type: 'url', url: '/new-shirt/' } },
      { from_path: '/old-item/', site_id: 1000, to: { type: 'product', entity_id: product.id } },
    ]);
    expect(created.status).toBe(201);
    const [shirt, item] = data(created);
    expect(shirt).toMatchObject({ from_path: '/old-shirt/', to: { type: 'url' } });

    // The same path again overwrites, keeping its id.
    const again = await call('PUT', '/v3/storefront/redirects', [
      { from_path: '/old-shirt/', site_id: 1000, to: { type: 'url', url: '/other/' } },
    ]);
    expect(data(again)[0]).toMatchObject({ id: shirt?.id, to: { url: '/other/' } });

    const found = data(await call('GET', '/v3/storefront/redirects?keyword=/old-s&site_id=1000'));
    expect(found.map((r) => r.id)).toEqual([shirt?.id]);
    expect(data(await call('GET', '/v3/storefront/redirects?keyword=shirt'))).toEqual([]);

    // An entity target leads where the record is now.
    const withUrl = data(
      await call('GET', `/v3/storefront/redirects?id:in=${String(item?.id)}&include=to_url`),
    );
    expect(String(withUrl[0]?.to_url)).toMatch(new RegExp(`${product.custom_url.url}$`));

    expect(
      (
        await call('PUT', '/v3/storefront/redirects', [
          { from_path: '/x/', site_id: 1, to: { type: 'url', url: '/y/' } },
        ])
      ).status,
    ).toBe(422);
    expect(
      (
        await call('PUT', '/v3/storefront/redirects', [
          { from_path: '/x/', site_id: 1000, to: { type: 'product', entity_id: 999_999 } },
        ])
      ).status,
    ).toBe(422);

    const removed = await call(
      'DELETE',
      `/v3/storefront/redirects?id:in=${String(shirt?.id)},${String(item?.id)},999`,
    );
    expect(removed.status).toBe(204);
    expect(data(await call('GET', '/v3/storefront/redirects'))).toEqual([]);
    expect((await call('DELETE', '/v3/storefront/redirects')).status).toBe(422);
  });

  it('records the account-created e-mail a customer create asks for', async () => {
    const answer = await call('POST', '/v3/customers', [
      {
        email: 'told@example.com',
        first_name: 'Told',
        last_name: 'Customer',
        trigger_account_created_notification: true,
      },
      { email: 'quiet@example.com', first_name: 'Quiet', last_name: 'Customer' },
    ]);
    expect(answer.status).toBe(200);
    expect(store.state.emails.map((e) => [e.kind, e.to])).toEqual([
      ['account_created', 'told@example.com'],
    ]);
  });
});
