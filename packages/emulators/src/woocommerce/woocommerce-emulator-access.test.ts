import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResource } from './testing/spec.ts';
import { signedUrl, wcClient } from './testing/signed-fetch.ts';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from './woocommerce-emulator.ts';

type Obj = Record<string, unknown>;

/** A GET over https trusting the emulator's own certificate; answers status and parsed body. */
function httpsGet(
  emu: RunningWooCommerceEmulator,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Obj }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca: emu.certificate, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Obj,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('WooCommerce emulator over https (WC_REST_Authentication with is_ssl())', () => {
  let emu: RunningWooCommerceEmulator;
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({
      seed: { seed: 1, products: 2, customers: 1, orders: 1 },
      https: true,
    });
  });
  afterAll(async () => {
    await emu.close();
  });

  const basic = (key: string, secret: string) =>
    `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;

  it('serves https with its own certificate, links included', async () => {
    expect(emu.url).toMatch(/^https:\/\/127\.0\.0\.1:/);
    const r = await httpsGet(emu, `${emu.apiUrl}/system_status`, {
      authorization: basic(emu.consumerKey, emu.consumerSecret),
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      environment: { home_url: emu.url },
      security: { secure_connection: true },
    });
  });

  it('accepts Basic auth and query-string keys', async () => {
    const header = await httpsGet(emu, `${emu.apiUrl}/products`, {
      authorization: basic(emu.consumerKey, emu.consumerSecret),
    });
    expect(header.status).toBe(200);
    const url = new URL(`${emu.apiUrl}/products`);
    url.searchParams.set('consumer_key', emu.consumerKey);
    url.searchParams.set('consumer_secret', emu.consumerSecret);
    expect((await httpsGet(emu, url.href)).status).toBe(200);
  });

  it('answers a wrong secret with WooCommerce’s error, and an unknown key as not logged in', async () => {
    const wrong = await httpsGet(emu, `${emu.apiUrl}/products`, {
      authorization: basic(emu.consumerKey, 'cs_wrong'),
    });
    expect(wrong).toEqual({
      status: 401,
      body: {
        code: 'woocommerce_rest_authentication_error',
        message: 'Consumer secret is invalid.',
        data: { status: 401 },
      },
    });
    const unknown = await httpsGet(emu, `${emu.apiUrl}/products`, {
      authorization: basic('ck_nobody', 'cs_nothing'),
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('woocommerce_rest_cannot_view');
  });

  it('still takes an OAuth 1.0a signature, built on the https address', async () => {
    const url = signedUrl(
      { baseUrl: emu.url, consumerKey: emu.consumerKey, consumerSecret: emu.consumerSecret },
      'GET',
      `${emu.apiUrl}/products`,
    );
    expect((await httpsGet(emu, url)).status).toBe(200);
  });
});

describe('WooCommerce emulator API key permissions (check_permissions)', () => {
  let emu: RunningWooCommerceEmulator;
  const read = { consumerKey: 'ck_read', consumerSecret: 'cs_read' };
  const write = { consumerKey: 'ck_write', consumerSecret: 'cs_write' };
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({
      seed: 'empty',
      extraKeys: [
        { ...read, permissions: 'read' },
        { ...write, permissions: 'write' },
      ],
    });
  });
  afterAll(async () => {
    await emu.close();
  });

  const client = (key: { consumerKey: string; consumerSecret: string }) =>
    wcClient({ baseUrl: emu.url, ...key });

  it('lets a read key read and refuses its writes before any route runs', async () => {
    const wc = client(read);
    expect((await wc.call('GET', '/products')).status).toBe(200);
    for (const [method, path] of [
      ['POST', '/products'],
      ['PUT', '/settings/email_new_order/enabled'],
      ['POST', '/orders/batch'],
      ['DELETE', '/products/1'],
      ['POST', '/no-such-route'],
    ] as const) {
      const r = await wc.call(method, path, { body: { name: 'x', value: 'no' } });
      expect(r, `${method} ${path}`).toEqual({
        status: 401,
        headers: r.headers,
        body: {
          code: 'woocommerce_rest_authentication_error',
          message: 'The API key provided does not have write permissions.',
          data: { status: 401 },
        },
      });
    }
    expect(emu.store.counts().products).toBe(0);
  });

  it('lets a write key change but not read', async () => {
    const wc = client(write);
    expect((await wc.call('POST', '/products', { body: { name: 'Made' } })).status).toBe(201);
    const r = await wc.call('GET', '/products');
    expect(r.status).toBe(401);
    expect((r.body as Obj).message).toBe('The API key provided does not have read permissions.');
  });

  it('answers an empty batch with an empty list and changes nothing', async () => {
    const before = emu.store.counts();
    const r = await wcClient({
      baseUrl: emu.url,
      consumerKey: emu.consumerKey,
      consumerSecret: emu.consumerSecret,
    }).call('POST', '/products/batch', { body: {} });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
    expect(emu.store.counts()).toEqual(before);
  });
});

describe('WooCommerce emulator coupons and order addresses', () => {
  let emu: RunningWooCommerceEmulator;
  let wc: ReturnType<typeof wcClient>;
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({ seed: 'empty' });
    wc = wcClient({
      baseUrl: emu.url,
      consumerKey: emu.consumerKey,
      consumerSecret: emu.consumerSecret,
    });
  });
  afterAll(async () => {
    await emu.close();
  });

  it('finds coupons by code only when published, and never applies an expired or draft one', async () => {
    const draft = await wc.call('POST', '/coupons', {
      body: { code: 'LATER', status: 'draft', amount: '5' },
    });
    expect(draft.status).toBe(201);
    expect((draft.body as Obj).status).toBe('draft');
    expect((await wc.call('GET', '/coupons', { query: { code: 'later' } })).body).toEqual([]);
    // WooCommerce 11 has no setter for date_expires_gmt: only date_expires sets the expiry.
    const ignored = await wc.call('POST', '/coupons', {
      body: { code: 'GMT', amount: '5', date_expires_gmt: '2000-01-01T00:00:00' },
    });
    expect((ignored.body as Obj).date_expires_gmt).toBeNull();
    const expired = await wc.call('POST', '/coupons', {
      body: { code: 'OLD', amount: '5', date_expires: '2000-01-01T02:00:00+02:00' },
    });
    expect((expired.body as Obj).date_expires_gmt).toBe('2000-01-01T00:00:00');
    const found = await wc.call('GET', '/coupons', { query: { code: 'old' } });
    expect((found.body as Obj[]).map((c) => c.code)).toEqual(['old']);
    const id = (expired.body as Obj).id as number;
    const updated = await wc.call('PUT', `/coupons/${id}`, {
      body: { meta_data: [{ key: '_note', value: 'x' }] },
    });
    expect((updated.body as Obj).meta_data).toMatchObject([{ key: '_note', value: 'x' }]);
    for (const code of ['later', 'old']) {
      const order = await wc.call('POST', '/orders', {
        body: {
          line_items: [{ product_id: -1, name: 'Thing', quantity: 1, total: '10' }],
          coupon_lines: [{ code }],
        },
      });
      expect(order.status, code).toBe(400);
    }
    expect((await wc.call('DELETE', `/coupons/${id}`, { query: { force: 'true' } })).status).toBe(
      200,
    );
    expect(emu.store.coupons.has(id)).toBe(false);
  });

  it("keeps and answers an order's shipping phone, as WooCommerce has since 5.6", async () => {
    const r = await wc.call('POST', '/orders', {
      body: {
        line_items: [{ product_id: -1, name: 'Thing', quantity: 1, total: '10' }],
        shipping: { first_name: 'A', city: 'B', phone: '+1 555 0100' },
      },
    });
    expect(r.status).toBe(201);
    expect((r.body as { shipping: Obj }).shipping.phone).toBe('+1 555 0100');
    expect(checkResource('/wc/v3/orders', r.body)).toEqual([]);
  });
});
