import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '@replatform/db/test-databases';
import type { App } from '../../app.ts';
import { createTestApp } from '../../testing/test-app.ts';
import { signUp, testOrigin } from '../../testing/sign-up.ts';

const origin = testOrigin;

describe.each(testDialects())('migration API on %s', (dialect) => {
  let app: App;
  let close: () => Promise<void>;
  let alice: string;
  let bob: string;

  beforeAll(async () => {
    ({ app, close } = await createTestApp({}, dialect));
    alice = await signUp(app, 'alice@example.com');
    bob = await signUp(app, 'bob@example.com');
  });
  afterAll(async () => {
    await close();
  });

  const call = (
    cookie: string | undefined,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    app.inject({
      method,
      url,
      headers: {
        origin,
        ...(cookie ? { cookie } : {}),
        ...(payload ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload ? { payload: payload as object } : {}),
    });

  it('requires a session', async () => {
    for (const [method, url] of [
      ['GET', '/get-migrations'],
      ['GET', '/migration/x'],
      ['POST', '/api/migrations'],
    ] as const) {
      const res = await call(
        undefined,
        method,
        url,
        method === 'POST' ? { storeName: 'x' } : undefined,
      );
      expect(res.statusCode, url).toBe(401);
      expect(res.json().error.code).toBe('unauthenticated');
    }
  });

  it('creates a migration as spec.md describes a new one, trimming and requiring the name', async () => {
    const res = await call(alice, 'POST', '/api/migrations', { storeName: '  Alice Store  ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      storeName: 'Alice Store',
      email: 'alice@example.com',
      sourceStore: '',
      destinationStore: '',
      currentStep: 1,
      status: 'pending',
      dataTypes: {},
      paymentInfo: null,
    });
    const empty = await call(alice, 'POST', '/api/migrations', { storeName: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe('Migration name is required');
  });

  it('names the limit when a migration name is too long, on create and on rename', async () => {
    const fits = await call(alice, 'POST', '/api/migrations', { storeName: 'n'.repeat(120) });
    expect(fits.statusCode).toBe(201);
    const long = await call(alice, 'POST', '/api/migrations', { storeName: 'n'.repeat(121) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error).toMatchObject({
      code: 'invalid_request',
      message: 'Migration name must be at most 120 characters',
    });
    const renamed = await call(alice, 'PATCH', `/api/migrations/${fits.json().id}`, {
      storeName: 'n'.repeat(121),
    });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().error.message).toBe('Migration name must be at most 120 characters');
    // Rules the contract does not word for people keep the general message.
    const unknown = await call(alice, 'POST', '/api/migrations', { storeName: 'x', extra: 1 });
    expect(unknown.json().error.message).toBe('The request is not valid.');
  });

  it("never lets user B read, list, change, delete or widen a list to user A's migration", async () => {
    const created = (await call(alice, 'POST', '/api/migrations', { storeName: 'Private' })).json();
    const id = created.id as string;

    expect((await call(bob, 'GET', `/migration/${id}`)).statusCode).toBe(404);
    const bobList = (await call(bob, 'GET', '/get-migrations?email=alice%40example.com')).json();
    expect(bobList.map((m: { id: string }) => m.id)).not.toContain(id);
    expect(
      (await call(bob, 'PATCH', `/api/migrations/${id}`, { storeName: 'mine now' })).statusCode,
    ).toBe(404);
    expect((await call(bob, 'DELETE', `/api/migrations/${id}`)).statusCode).toBe(404);

    const still = await call(alice, 'GET', `/migration/${id}`);
    expect(still.statusCode).toBe(200);
    expect(still.json().storeName).toBe('Private');
    const aliceList = (await call(alice, 'GET', '/get-migrations')).json();
    expect(aliceList.map((m: { id: string }) => m.id)).toContain(id);
  });

  it('applies the lifecycle: no step forward without connected stores, selected data or payment', async () => {
    const id = (await call(alice, 'POST', '/api/migrations', { storeName: 'Flow' })).json()
      .id as string;
    const platforms = await call(alice, 'PATCH', `/api/migrations/${id}`, {
      sourceStore: 'woocommerce',
      destinationStore: 'shopify',
      sourceStoreUrl: 'https://shop.example.com',
    });
    expect(platforms.statusCode).toBe(200);
    expect(platforms.json()).toMatchObject({
      sourceStore: 'woocommerce',
      destinationStore: 'shopify',
      sourceVerified: false,
    });
    const step2 = await call(alice, 'PATCH', `/api/migrations/${id}`, { currentStep: 2 });
    expect(step2.statusCode).toBe(409);
    expect(step2.json().error.message).toBe('Connect both stores first.');
    expect(
      (await call(alice, 'PATCH', `/api/migrations/${id}`, { currentStep: 5 })).statusCode,
    ).toBe(409);
    expect(
      (
        await call(alice, 'PATCH', `/api/migrations/${id}`, {
          dataTypes: { products: true, bogus: true },
        })
      ).statusCode,
    ).toBe(400);
  });

  it('keeps the owner’s order-status mapping, merged with what was kept, and refuses statuses it does not know', async () => {
    const id = (await call(alice, 'POST', '/api/migrations', { storeName: 'Mapped' })).json()
      .id as string;
    expect((await call(alice, 'GET', `/migration/${id}`)).json().fieldMappings).toEqual({});
    const first = await call(alice, 'PATCH', `/api/migrations/${id}`, {
      fieldMappings: { orderStatuses: { 'on-hold': 'processing' } },
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().fieldMappings).toEqual({ orderStatuses: { 'on-hold': 'processing' } });
    const again = await call(alice, 'PATCH', `/api/migrations/${id}`, {
      fieldMappings: { orderStatuses: { failed: 'cancelled' } },
    });
    expect(again.json().fieldMappings).toEqual({ orderStatuses: { failed: 'cancelled' } });
    const values = {
      customerGroups: { wholesale_customer: 'Wholesale' },
      taxClasses: { 'reduced-rate': '' },
      currency: { from: 'EUR', to: 'USD', mode: 'convert', rate: '1.08' },
    };
    const more = await call(alice, 'PATCH', `/api/migrations/${id}`, { fieldMappings: values });
    expect(more.json().fieldMappings).toEqual({
      orderStatuses: { failed: 'cancelled' },
      ...values,
    });
    for (const wrong of [
      { orderStatuses: { 'on-hold': 'shipped' } },
      { orderStatuses: { paid: 'processing' } },
      { currencies: {} },
      { currency: { from: 'EUR', to: 'USD', mode: 'convert' } },
      { currency: { from: 'EUR', to: 'USD', mode: 'convert', rate: '0' } },
      { customerGroups: { a: 5 } },
    ]) {
      const res = await call(alice, 'PATCH', `/api/migrations/${id}`, { fieldMappings: wrong });
      expect(res.statusCode, JSON.stringify(wrong)).toBe(400);
    }
    expect(
      (await call(bob, 'PATCH', `/api/migrations/${id}`, { fieldMappings: {} })).statusCode,
    ).toBe(404);
  });

  it('refuses a data type one of the stores cannot hold, with the reason, and clears it when a platform changes to such a one', async () => {
    const id = (await call(alice, 'POST', '/api/migrations', { storeName: 'Reviews' })).json()
      .id as string;
    await call(alice, 'PATCH', `/api/migrations/${id}`, {
      sourceStore: 'woocommerce',
      destinationStore: 'magento2',
    });
    const refused = await call(alice, 'PATCH', `/api/migrations/${id}`, {
      dataTypes: { products: true, reviews: true },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: 'data_type_unavailable',
      message: expect.stringMatching(/Magento 2's web API has no product reviews/),
    });
    await call(alice, 'PATCH', `/api/migrations/${id}`, { destinationStore: 'shopify' });
    const chosen = await call(alice, 'PATCH', `/api/migrations/${id}`, {
      dataTypes: { products: true, reviews: true },
    });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().dataTypes).toMatchObject({ products: true, reviews: true });
    const moved = await call(alice, 'PATCH', `/api/migrations/${id}`, {
      sourceStore: 'magento2',
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().dataTypes).toMatchObject({ products: true, reviews: false });
  });

  it('refuses brands into Shopify, which keeps none, but takes them out of Shopify', async () => {
    const id = (await call(alice, 'POST', '/api/migrations', { storeName: 'Brands' })).json()
      .id as string;
    await call(alice, 'PATCH', `/api/migrations/${id}`, {
      sourceStore: 'woocommerce',
      destinationStore: 'shopify',
    });
    const refused = await call(alice, 'PATCH', `/api/migrations/${id}`, {
      dataTypes: { products: true, brands: true },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({
      code: 'data_type_unavailable',
      message: expect.stringMatching(/Shopify has no brand records/),
    });
    const reversed = await call(alice, 'PATCH', `/api/migrations/${id}`, {
      sourceStore: 'shopify',
      destinationStore: 'woocommerce',
    });
    expect(reversed.statusCode).toBe(200);
    const chosen = await call(alice, 'PATCH', `/api/migrations/${id}`, {
      dataTypes: { products: true, brands: true },
    });
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json().dataTypes).toMatchObject({ products: true, brands: true });
    const into = await call(alice, 'PATCH', `/api/migrations/${id}`, {
      destinationStore: 'shopify',
    });
    expect(into.json().dataTypes).toMatchObject({ products: true, brands: false });
  });

  it('deletes only the owner’s migration', async () => {
    const id = (await call(alice, 'POST', '/api/migrations', { storeName: 'Temp' })).json()
      .id as string;
    expect((await call(alice, 'DELETE', `/api/migrations/${id}`)).statusCode).toBe(204);
    expect((await call(alice, 'GET', `/migration/${id}`)).statusCode).toBe(404);
  });
});
