import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationHeader, signRequest } from '@replatform/connectors/kit/oauth1/oauth1';
import { checkRequest, checkResource } from './testing/spec.ts';
import { signedUrl, wcClient, type WcResponse } from './testing/signed-fetch.ts';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from './woocommerce-emulator.ts';

type Obj = Record<string, unknown>;
const list = (r: WcResponse) => r.body as Obj[];
const obj = (r: WcResponse) => r.body as Obj;

describe('WooCommerce emulator', () => {
  let emu: RunningWooCommerceEmulator;
  let wc: ReturnType<typeof wcClient>;
  const options = () => ({
    baseUrl: emu.url,
    consumerKey: emu.consumerKey,
    consumerSecret: emu.consumerSecret,
  });

  beforeAll(async () => {
    emu = await startWooCommerceEmulator({
      seed: { seed: 7, products: 30, customers: 12, orders: 10 },
    });
    wc = wcClient(options());
  });
  afterAll(async () => {
    // Every request these tests sent on purpose as valid is valid by WooCommerce's own index.
    const problems = wc.calls.flatMap((c) =>
      checkRequest(c).map((p) => `${c.method} ${c.url}: ${p}`),
    );
    expect(problems).toEqual([]);
    await emu.close();
  });

  describe('authentication (WC_REST_Authentication over plain http)', () => {
    const products = () => `${emu.apiUrl}/products`;

    it('answers 401 to an unauthenticated request', async () => {
      const r = await fetch(products());
      expect(r.status).toBe(401);
      expect(await r.json()).toEqual({
        code: 'woocommerce_rest_cannot_view',
        message: 'Sorry, you cannot list resources.',
        data: { status: 401 },
      });
    });

    it('refuses Basic auth and query keys over http, as real stores do', async () => {
      const basic = Buffer.from(`${emu.consumerKey}:${emu.consumerSecret}`).toString('base64');
      const r1 = await fetch(products(), { headers: { authorization: `Basic ${basic}` } });
      expect(r1.status).toBe(401);
      const url = new URL(products());
      url.searchParams.set('consumer_key', emu.consumerKey);
      url.searchParams.set('consumer_secret', emu.consumerSecret);
      const r2 = await fetch(url);
      expect(r2.status).toBe(401);
      expect(((await r2.json()) as Obj).code).toBe('woocommerce_rest_cannot_view');
    });

    it('accepts HMAC-SHA256 and HMAC-SHA1 signatures, in the query or the header', async () => {
      const sha1 = wcClient({ ...options(), signatureMethod: 'HMAC-SHA1' });
      expect((await sha1.call('GET', '/products', { query: { per_page: 1 } })).status).toBe(200);
      const url = `${products()}?per_page=1`;
      const oauth = signRequest({
        method: 'GET',
        url,
        credentials: { consumerKey: emu.consumerKey, consumerSecret: emu.consumerSecret },
      });
      const r = await fetch(url, { headers: { authorization: authorizationHeader(oauth) } });
      expect(r.status).toBe(200);
    });

    it('refuses a wrong signature, an unknown key, a stale timestamp and a replayed nonce', async () => {
      const wrong = signedUrl({ ...options(), consumerSecret: 'cs_wrong' }, 'GET', products());
      expect(await (await fetch(wrong)).json()).toMatchObject({
        code: 'woocommerce_rest_authentication_error',
        message: 'Invalid signature - provided signature does not match.',
        data: { status: 401 },
      });
      const unknown = signedUrl({ ...options(), consumerKey: 'ck_unknown' }, 'GET', products());
      expect(((await (await fetch(unknown)).json()) as Obj).message).toBe(
        'Consumer key is invalid.',
      );
      const stale = signedUrl(options(), 'GET', products(), {
        timestamp: Math.floor(Date.now() / 1000) - 16 * 60,
      });
      expect(((await (await fetch(stale)).json()) as Obj).message).toBe('Invalid timestamp.');
      const once = signedUrl(options(), 'GET', products(), { nonce: 'n-0001' });
      expect((await fetch(once)).status).toBe(200);
      const replay = await fetch(once);
      expect(replay.status).toBe(401);
      expect(((await replay.json()) as Obj).message).toBe(
        'Invalid nonce - nonce has already been used.',
      );
    });

    it('refuses a partial OAuth parameter set', async () => {
      const r = await fetch(`${products()}?oauth_consumer_key=${emu.consumerKey}`);
      expect(r.status).toBe(401);
      expect(((await r.json()) as Obj).code).toBe(
        'woocommerce_rest_authentication_missing_parameter',
      );
    });

    it('serves the namespace index without authentication', async () => {
      const r = await fetch(emu.apiUrl);
      expect(r.status).toBe(200);
      const body = (await r.json()) as { namespace: string; routes: Record<string, unknown> };
      expect(body.namespace).toBe('wc/v3');
      expect(Object.keys(body.routes)).toContain('/wc/v3/products/batch');
    });
  });

  describe('collections', () => {
    it('pages with X-WP-Total, X-WP-TotalPages and a Link header', async () => {
      const r = await wc.call('GET', '/products', {
        query: { per_page: 7, page: 2, orderby: 'id', order: 'asc' },
      });
      expect(r.status).toBe(200);
      expect(r.headers.get('x-wp-total')).toBe('30');
      expect(r.headers.get('x-wp-totalpages')).toBe('5');
      expect(r.headers.get('link')).toContain('rel="next"');
      expect(r.headers.get('link')).toContain('rel="prev"');
      expect(r.headers.get('link')).not.toContain('oauth_signature');
      const ids = list(r).map((p) => p.id as number);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      const last = await wc.call('GET', '/products', { query: { per_page: 7, page: 9 } });
      expect(list(last)).toEqual([]);
    });

    it('refuses per_page outside 1..100 and unknown enum values with rest_invalid_param', async () => {
      for (const perPage of [0, 101]) {
        const r = await wc.call('GET', '/products', { query: { per_page: perPage } });
        expect(r.status).toBe(400);
        expect(obj(r)).toMatchObject({
          code: 'rest_invalid_param',
          message: 'Invalid parameter(s): per_page',
          data: {
            status: 400,
            params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' },
          },
        });
      }
      const r = await wc.call('GET', '/customers', { query: { orderby: 'email' } });
      expect(obj(r)).toMatchObject({
        code: 'rest_invalid_param',
        data: {
          params: { orderby: 'orderby is not one of id, include, name, and registered_date.' },
        },
      });
      wc.calls.splice(-3);
    });

    it('answers rest_no_route for unknown routes and methods', async () => {
      const r = await wc.call('GET', '/nothing-here');
      expect(obj(r)).toEqual({
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
      expect((await wc.call('DELETE', '/products')).status).toBe(404);
      wc.calls.splice(-2);
    });

    it('answers 404 with WooCommerce codes for missing records', async () => {
      expect(obj(await wc.call('GET', '/products/999999'))).toMatchObject({
        code: 'woocommerce_rest_product_invalid_id',
        data: { status: 404 },
      });
      expect(obj(await wc.call('GET', '/customers/999999'))).toMatchObject({
        code: 'woocommerce_rest_invalid_id',
      });
      expect(obj(await wc.call('GET', '/orders/999999'))).toMatchObject({
        code: 'woocommerce_rest_shop_order_invalid_id',
      });
      expect(obj(await wc.call('GET', '/products/categories/999999'))).toMatchObject({
        code: 'woocommerce_rest_term_invalid',
      });
    });

    it('filters products by a comma list of SKUs, customers by e-mail, orders by created_via', async () => {
      const all = list(
        await wc.call('GET', '/products', { query: { per_page: 3, orderby: 'id', order: 'asc' } }),
      );
      const skus = all.map((p) => p.sku as string);
      const bySku = list(
        await wc.call('GET', '/products', { query: { sku: skus.slice(0, 2).join(',') } }),
      );
      expect(bySku.map((p) => p.sku).sort()).toEqual(skus.slice(0, 2).sort());
      const customer = list(
        await wc.call('GET', '/customers', { query: { per_page: 1 } }),
      )[0] as Obj;
      const byEmail = list(
        await wc.call('GET', '/customers', { query: { email: customer.email as string } }),
      );
      expect(byEmail.map((c) => c.id)).toEqual([customer.id]);
      const checkout = await wc.call('GET', '/orders', {
        query: { created_via: 'checkout', per_page: 100 },
      });
      expect(list(checkout)).toHaveLength(
        [...emu.store.orders.values()].filter((o) => o.createdVia === 'checkout').length,
      );
      expect(list(checkout).length).toBeGreaterThan(0);
      expect(
        list(await wc.call('GET', '/orders', { query: { created_via: 'replatform' } })),
      ).toEqual([]);
      const trimmed = list(
        await wc.call('GET', '/orders', { query: { include_meta: '_none', per_page: 1 } }),
      );
      expect(trimmed[0]?.meta_data).toEqual([]);
    });

    it('answers with bodies valid against the resource schemas of the 11.0.1 index', async () => {
      const problems: string[] = [];
      const checkAll = async (
        path: string,
        route: string,
        query: Record<string, string | number> = {},
      ) => {
        for (const item of list(await wc.call('GET', path, { query: { per_page: 100, ...query } })))
          problems.push(
            ...checkResource(route, item).map((p) => `${path} ${String(item.id)}: ${p}`),
          );
      };
      await checkAll('/products', '/wc/v3/products', { context: 'edit' });
      await checkAll('/products/categories', '/wc/v3/products/categories');
      await checkAll('/products/tags', '/wc/v3/products/tags');
      await checkAll('/products/brands', '/wc/v3/products/brands');
      await checkAll('/customers', '/wc/v3/customers');
      await checkAll('/orders', '/wc/v3/orders');
      const variable = list(
        await wc.call('GET', '/products', { query: { type: 'variable', per_page: 3 } }),
      );
      expect(variable.length).toBeGreaterThan(0);
      for (const p of variable)
        await checkAll(
          `/products/${String(p.id)}/variations`,
          '/wc/v3/products/(?P<product_id>[\\d]+)/variations',
        );
      problems.push(
        ...checkResource('/wc/v3/system_status', obj(await wc.call('GET', '/system_status'))),
      );
      problems.push(
        ...checkResource(
          '/wc/v3/settings/(?P<group_id>[\\w-]+)/(?P<id>[\\w-]+)',
          obj(await wc.call('GET', '/settings/email_new_order/enabled')),
        ),
      );
      expect(problems).toEqual([]);
    });
  });

  describe('batch endpoints', () => {
    it('refuses more than 100 items counted across create, update and delete with 413', async () => {
      const r = await wc.call('POST', '/products/categories/batch', {
        body: {
          create: Array.from({ length: 60 }, (_, i) => ({ name: `Batch ${i}` })),
          update: Array.from({ length: 41 }, () => ({ id: 1, name: 'x' })),
        },
      });
      expect(r.status).toBe(413);
      expect(obj(r)).toEqual({
        code: 'woocommerce_rest_request_entity_too_large',
        message: 'Unable to accept more than 100 items for this request.',
        data: { status: 413 },
      });
      expect(emu.store.termsOf('product_cat').some((t) => t.name === 'Batch 0')).toBe(false);
      wc.calls.pop();
    });

    it('answers each failed item as {id, error} and carries out the others', async () => {
      const existing = list(
        await wc.call('GET', '/products', { query: { per_page: 1 } }),
      )[0] as Obj;
      const r = await wc.call('POST', '/products/batch', {
        body: {
          create: [
            { name: 'Fresh product', sku: 'FRESH-1', regular_price: '10.00' },
            { name: 'Copy', sku: existing.sku },
          ],
          update: [{ id: 987654, name: 'Nobody' }],
        },
      });
      expect(r.status).toBe(200);
      const body = r.body as { create: Obj[]; update: Obj[] };
      expect(body.create[0]).toMatchObject({ sku: 'FRESH-1', name: 'Fresh product' });
      expect(body.create[1]).toEqual({
        id: 0,
        error: {
          code: 'product_invalid_sku',
          message: 'Invalid or duplicated SKU.',
          data: { status: 400, resource_id: existing.id, unique_sku: `${String(existing.sku)}-1` },
        },
      });
      expect(body.update[0]).toEqual({
        id: 987654,
        error: {
          code: 'woocommerce_rest_product_invalid_id',
          message: 'Invalid ID.',
          data: { status: 400 },
        },
      });
    });
  });

  describe('products', () => {
    it('downloads images given by src into its own media library and serves them', async () => {
      const source = list(
        await wc.call('GET', '/products', { query: { per_page: 1, orderby: 'id', order: 'asc' } }),
      )[0] as {
        images: { src: string }[];
      };
      const src = source.images[0]?.src ?? '';
      const r = await wc.call('POST', '/products', {
        body: { name: 'Imaged', images: [{ src, alt: 'Front' }] },
      });
      expect(r.status).toBe(201);
      const image = (obj(r).images as Obj[])[0] as Obj;
      expect(image.alt).toBe('Front');
      expect(String(image.src)).toMatch(/\/wp-content\/uploads\/\d{4}\/\d{2}\/[^/]+\.png$/);
      expect(String(image.src).split('/').pop()).toBe(src.split('/').pop());
      const served = await fetch(String(image.src));
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(
        Buffer.from(await served.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
      // A product without categories goes to Uncategorized.
      expect((obj(r).categories as Obj[]).map((c) => c.slug)).toEqual(['uncategorized']);
    });

    it('refuses an image it cannot download, and creates nothing then', async () => {
      const before = emu.store.counts().products;
      const r = await wc.call('POST', '/products', {
        body: { name: 'Broken', images: [{ src: `${emu.url}/media/missing.png` }] },
      });
      expect(obj(r)).toMatchObject({
        code: 'woocommerce_product_image_upload_error',
        message: `Error getting remote image ${emu.url}/media/missing.png. Error: Not Found`,
        data: { status: 400 },
      });
      expect(emu.store.counts().products).toBe(before);
    });

    it('sanitises slugs, filters descriptions and escapes term names as WordPress does', async () => {
      const a = obj(
        await wc.call('POST', '/products', {
          body: {
            name: 'Crème Brûlée Set',
            description: '<p onclick="x()">Hi</p><script>alert(1)</script> & \\co',
          },
        }),
      );
      expect(a.slug).toBe('creme-brulee-set');
      expect(a.description).toBe('<p>Hi</p>alert(1) &amp; co');
      const b = obj(await wc.call('POST', '/products', { body: { name: 'Crème Brûlée Set' } }));
      expect(b.slug).toBe('creme-brulee-set-2');
      const cat = obj(
        await wc.call('POST', '/products/categories', {
          body: { name: 'Pots & Pans', description: '<p>Good <b>pans</b></p>' },
        }),
      );
      expect(cat).toMatchObject({
        name: 'Pots &amp; Pans',
        slug: 'pots-pans',
        description: 'Good <b>pans</b>',
        image: null,
      });
      const again = await wc.call('POST', '/products/categories', {
        body: { name: 'Pots & Pans' },
      });
      expect(obj(again)).toMatchObject({
        code: 'term_exists',
        data: { status: 400, resource_id: cat.id },
      });
      const view = obj(
        await wc.call('GET', `/products/${String(a.id)}`, { query: { context: 'view' } }),
      );
      expect(view.description).not.toBe(a.description);
    });

    it('keeps variation attributes only for the parent’s variation attributes', async () => {
      const parent = obj(
        await wc.call('POST', '/products', {
          body: {
            name: 'Var parent',
            type: 'variable',
            attributes: [
              { name: 'Size', variation: true, visible: true, options: ['S', 'M'] },
              { name: 'Material', variation: false, options: ['Wool'] },
            ],
          },
        }),
      );
      const r = await wc.call('POST', `/products/${String(parent.id)}/variations/batch`, {
        body: {
          create: [
            {
              sku: 'VP-S',
              regular_price: '5',
              attributes: [
                { name: 'Size', option: 'S' },
                { name: 'Material', option: 'Wool' },
              ],
            },
            { sku: 'VP-ANY', regular_price: '6', attributes: [] },
          ],
        },
      });
      const created = (r.body as { create: Obj[] }).create;
      expect(created[0]?.attributes).toEqual([{ id: 0, name: 'Size', slug: 'size', option: 'S' }]);
      expect(created[1]?.attributes).toEqual([]);
      const again = obj(await wc.call('GET', `/products/${String(parent.id)}`));
      expect(again.variations).toHaveLength(2);
      expect(again.price).toBe('5');
    });
  });

  describe('customers and orders', () => {
    it('refuses a second account with the same e-mail and derives the username', async () => {
      const created = obj(
        await wc.call('POST', '/customers', {
          body: { email: 'ann+shop@example.org', first_name: 'Ann' },
        }),
      );
      expect(created.username).toBe('ann');
      expect(
        emu.store.outbox.some(
          (m) => m.template === 'customer_new_account' && m.to === 'ann+shop@example.org',
        ),
      ).toBe(true);
      const again = await wc.call('POST', '/customers/batch', {
        body: { create: [{ email: 'ANN+shop@example.org' }] },
      });
      expect((again.body as { create: Obj[] }).create[0]).toMatchObject({
        id: 0,
        error: { code: 'registration-error-email-exists', data: { status: 400 } },
      });
    });

    it('calculates totals itself, needs existing coupons, and runs payment_complete on set_paid', async () => {
      const product = list(
        await wc.call('GET', '/products', { query: { type: 'simple', per_page: 1 } }),
      )[0] as Obj;
      const coupon = await wc.call('POST', '/orders', {
        body: {
          line_items: [{ product_id: product.id, quantity: 1 }],
          coupon_lines: [{ code: 'NOPE' }],
        },
      });
      expect(obj(coupon)).toMatchObject({
        code: 'woocommerce_rest_invalid_coupon',
        message: 'Coupon "NOPE" does not exist!',
      });
      const currency = await wc.call('POST', '/orders/batch', {
        body: {
          create: [{ currency: 'XXX', line_items: [{ product_id: product.id, quantity: 1 }] }],
        },
      });
      expect((currency.body as { create: Obj[] }).create[0]).toEqual({
        id: 0,
        error: {
          code: 'order_invalid_currency',
          message: 'Invalid currency code',
          data: { status: 400 },
        },
      });
      wc.calls.pop();
      const r = await wc.call('POST', '/orders', {
        body: {
          set_paid: true,
          billing: { email: 'buyer@example.org' },
          line_items: [{ product_id: product.id, quantity: 2, subtotal: '20.00', total: '20.00' }],
          shipping_lines: [{ method_id: 'flat_rate', method_title: 'Flat', total: '5.00' }],
          fee_lines: [{ name: 'Discount', total: '-3.00', tax_status: 'none' }],
        },
      });
      const order = obj(r);
      expect(order).toMatchObject({
        status: 'processing',
        total: '22.00',
        total_tax: '0.00',
        created_via: 'rest-api',
      });
      expect(order.date_paid).not.toBeNull();
      expect(emu.store.outbox.map((m) => m.template)).toEqual(
        expect.arrayContaining(['new_order', 'customer_processing_order']),
      );
    });

    it('reduces stock when an order is processing unless the order says it already was', async () => {
      const product = obj(
        await wc.call('POST', '/products', {
          body: {
            name: 'Stocked',
            sku: 'STOCK-1',
            regular_price: '4',
            manage_stock: true,
            stock_quantity: 10,
          },
        }),
      );
      await wc.call('POST', '/orders', {
        body: { status: 'completed', line_items: [{ product_id: product.id, quantity: 3 }] },
      });
      expect(obj(await wc.call('GET', `/products/${String(product.id)}`)).stock_quantity).toBe(7);
      await wc.call('POST', '/orders', {
        body: {
          status: 'completed',
          line_items: [{ product_id: product.id, quantity: 3 }],
          meta_data: [{ key: '_order_stock_reduced', value: 'yes' }],
        },
      });
      expect(obj(await wc.call('GET', `/products/${String(product.id)}`)).stock_quantity).toBe(7);
    });

    it('adds line items sent without an id on update (they are new items)', async () => {
      const order = obj(
        await wc.call('POST', '/orders', {
          body: {
            line_items: [
              { product_id: -1, name: 'Custom', quantity: 1, total: '1.00', subtotal: '1.00' },
            ],
          },
        }),
      );
      const updated = obj(
        await wc.call('PUT', `/orders/${String(order.id)}`, {
          body: {
            line_items: [
              { product_id: -1, name: 'Custom', quantity: 1, total: '1.00', subtotal: '1.00' },
            ],
          },
        }),
      );
      expect(updated.line_items).toHaveLength(2);
    });
  });

  describe('settings', () => {
    it('switches an e-mail off and on through the settings API', async () => {
      const before = obj(await wc.call('GET', '/settings/email_customer_completed_order/enabled'));
      expect(before).toMatchObject({
        id: 'enabled',
        type: 'checkbox',
        value: 'yes',
        group_id: 'email_customer_completed_order',
      });
      const off = obj(
        await wc.call('PUT', '/settings/email_customer_completed_order/enabled', {
          body: { value: 'no' },
        }),
      );
      expect(off.value).toBe('no');
      const sent = emu.store.outbox.length;
      await wc.call('POST', '/orders', {
        body: {
          status: 'completed',
          billing: { email: 'quiet@example.org' },
          line_items: [{ product_id: -1, name: 'x', quantity: 1, total: '1', subtotal: '1' }],
        },
      });
      expect(emu.store.outbox.slice(sent).map((m) => m.template)).toEqual(['new_order']);
      const bad = await wc.call('PUT', '/settings/email_customer_completed_order/enabled', {
        body: { value: 'maybe' },
      });
      expect(obj(bad)).toMatchObject({ code: 'rest_setting_value_invalid', data: { status: 400 } });
      expect(obj(await wc.call('GET', '/settings/email_nothing/enabled'))).toMatchObject({
        code: 'rest_setting_setting_group_invalid',
        data: { status: 404 },
      });
      await wc.call('PUT', '/settings/email_customer_completed_order/enabled', {
        body: { value: 'yes' },
      });
    });

    it('reports currency and version in system_status', async () => {
      const status = obj(await wc.call('GET', '/system_status'));
      expect(status).toMatchObject({
        environment: { version: '11.0.1', home_url: emu.url },
        settings: { currency: 'USD' },
      });
    });
  });
});

describe('WooCommerce emulator seeded with WooCommerce’s sample products', () => {
  it('holds the sample store: variable products with variations, grouped, external, nested categories', async () => {
    const emu = await startWooCommerceEmulator({ seed: 'woocommerce-samples' });
    try {
      const wc = wcClient({
        baseUrl: emu.url,
        consumerKey: emu.consumerKey,
        consumerSecret: emu.consumerSecret,
      });
      const products = list(
        await wc.call('GET', '/products', { query: { per_page: 100, context: 'edit' } }),
      );
      expect(products).toHaveLength(18);
      const types = products.map((p) => p.type);
      expect(types.filter((t) => t === 'variable')).toHaveLength(2);
      expect(types).toContain('grouped');
      expect(types).toContain('external');
      const hoodie = products.find((p) => p.sku === 'woo-hoodie') as Obj;
      const variations = list(
        await wc.call('GET', `/products/${String(hoodie.id)}/variations`, {
          query: { per_page: 100 },
        }),
      );
      expect(variations.map((v) => v.sku).sort()).toEqual([
        'woo-hoodie-blue',
        'woo-hoodie-blue-logo',
        'woo-hoodie-green',
        'woo-hoodie-red',
      ]);
      const tshirts = list(
        await wc.call('GET', '/products/categories', { query: { slug: 'tshirts' } }),
      )[0] as Obj;
      const clothing = list(
        await wc.call('GET', '/products/categories', { query: { slug: 'clothing' } }),
      )[0] as Obj;
      expect(tshirts.parent).toBe(clothing.id);
      const image = (hoodie.images as Obj[])[0] as Obj;
      expect(String(image.src)).toBe(`${emu.url}/media/2017/12/hoodie-2.jpg`);
      expect((await fetch(String(image.src))).status).toBe(200);
      const problems = products.flatMap((p) => checkResource('/wc/v3/products', p));
      expect(problems).toEqual([]);
    } finally {
      await emu.close();
    }
  });
});
