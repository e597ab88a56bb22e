import { beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../../kit/http/http-client.ts';
import { NativeReader } from './native.ts';
import { resetStore, type RealStore } from './real-stores.ts';
import { withWordPress } from './wordpress-password.ts';

/**
 * What a real WooCommerce 11.0.1 store on WordPress 7.1 does with deletes, the facts behind the
 * connector's remove.ts (undo), kept as tests; the emulator answers the same
 * (woocommerce-emulator-remove.test.ts): force or the bin, what goes with a record, what is
 * refused, and how a batch answers an id the store does not have.
 */
export function describeRemoveBehaviour(
  store: RealStore,
  kit: string,
  http: () => HttpClient,
): void {
  describe(`WooCommerce 11.0.1 deletes as observed on the real store '${store.name}'`, () => {
    let api: NativeReader;
    type Obj = Record<string, unknown>;
    const wc = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
      api.send(method, `wc/v3/${path}`, body);
    const wp = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
      api.send(method, `wp/v2/${path}`, body);
    const made = async (path: string, body: unknown, ns = 'wc/v3') => {
      const answer = await api.send('POST', `${ns}/${path}`, body);
      expect(answer.status, `POST ${path}: ${JSON.stringify(answer.body)}`).toBe(201);
      return answer.body as Obj & { id: number };
    };
    const deleted = async (path: string, ids: number[]) =>
      ((await wc('POST', `${path}/batch`, { delete: ids })).body as { delete: Obj[] }).delete;

    beforeAll(async () => {
      await resetStore(kit, store);
      api = new NativeReader(http(), await withWordPress(store));
    }, 120_000);

    it('puts a product, an order and a coupon in the bin without force; a batch delete is for good', async () => {
      const product = await made('products', { name: 'Bin', regular_price: '3' });
      const order = await made('orders', { fee_lines: [{ name: 'Fee', total: '3' }] });
      const coupon = await made('coupons', { code: 'obs-bin', amount: '1' });
      for (const path of [`products/${product.id}`, `orders/${order.id}`, `coupons/${coupon.id}`])
        expect((await wc('DELETE', path)).status, path).toBe(200);
      expect(((await wc('GET', 'products?status=trash')).body as unknown as Obj[]).length).toBe(1);
      expect((await deleted('products', [product.id]))[0]).toMatchObject({ id: product.id });
      expect((await deleted('orders', [order.id]))[0]).toMatchObject({ id: order.id });
      expect((await deleted('coupons', [coupon.id]))[0]).toMatchObject({ id: coupon.id });
      expect((await wc('GET', `products/${product.id}`)).status).toBe(404);
      expect((await wc('GET', `orders/${order.id}`)).status).toBe(404);
    });

    it('answers a missing id in a batch delete as an error item with status 404, per route', async () => {
      const missing = 987654;
      const codes: Record<string, string> = {
        products: 'woocommerce_rest_product_invalid_id',
        orders: 'woocommerce_rest_shop_order_invalid_id',
        coupons: 'woocommerce_rest_shop_coupon_invalid_id',
        customers: 'wc_user_invalid_id',
        'products/tags': 'woocommerce_rest_term_invalid',
        'products/categories': 'woocommerce_rest_term_invalid',
        'products/brands': 'woocommerce_rest_term_invalid',
        'products/reviews': 'woocommerce_rest_review_invalid_id',
      };
      for (const [path, code] of Object.entries(codes))
        expect((await deleted(path, [missing]))[0], path).toMatchObject({
          id: missing,
          error: { code, data: { status: 404 } },
        });
      const many = Array.from({ length: 101 }, (_, i) => 50_000 + i);
      expect(await wc('POST', 'products/batch', { delete: many })).toMatchObject({
        status: 413,
        body: { code: 'woocommerce_rest_request_entity_too_large' },
      });
    });

    it('deletes a variable product with its variations and its reviews', async () => {
      const size = await made('products/attributes', { name: 'Obs size' });
      const shirt = await made('products', {
        name: 'Shirt',
        type: 'variable',
        attributes: [{ id: size.id, variation: true, options: ['S', 'M'] }],
      });
      const variations = (
        (
          await wc('POST', `products/${shirt.id}/variations/batch`, {
            create: ['S', 'M'].map((option) => ({
              regular_price: '2',
              attributes: [{ id: size.id, option }],
            })),
          })
        ).body as { create: Obj[] }
      ).create.map((v) => v.id as number);
      const review = await made('products/reviews', {
        product_id: shirt.id,
        review: 'Good',
        reviewer: 'Ann',
        reviewer_email: 'ann@example.com',
        rating: 5,
      });
      await deleted('products', [shirt.id]);
      for (const id of variations) expect((await wc('GET', `products/${id}`)).status).toBe(404);
      expect((await wc('GET', `products/reviews/${review.id}`)).status).toBe(404);
      // The store-wide attribute goes without force (its route defaults force to true), with its
      // terms: the terms route then finds no taxonomy.
      expect((await wc('DELETE', `products/attributes/${size.id}`)).status).toBe(200);
      expect(await wc('GET', `products/attributes/${size.id}/terms`)).toMatchObject({
        status: 404,
        body: { code: 'woocommerce_rest_taxonomy_invalid' },
      });
    });

    it('deletes a customer who has orders and keeps the orders as guest orders', async () => {
      const customer = await made('customers', { email: 'obs-buyer@example.com' });
      const order = await made('orders', {
        customer_id: customer.id,
        fee_lines: [{ name: 'Fee', total: '3' }],
      });
      expect(await wc('DELETE', `customers/${customer.id}`)).toMatchObject({
        status: 501,
        body: { code: 'woocommerce_rest_trash_not_supported' },
      });
      expect((await deleted('customers', [customer.id]))[0]).toMatchObject({ id: customer.id });
      expect((await wc('GET', `orders/${order.id}`)).body).toMatchObject({ customer_id: 0 });
      await deleted('orders', [order.id]);
    });

    it('deletes terms only with force, moves subcategories up, and refuses the default category', async () => {
      const tag = await made('products/tags', { name: 'Obs tag' });
      expect(await wc('DELETE', `products/tags/${tag.id}`)).toMatchObject({
        status: 501,
        body: { code: 'woocommerce_rest_trash_not_supported' },
      });
      expect((await deleted('products/tags', [tag.id]))[0]).toMatchObject({ id: tag.id });
      const parent = await made('products/categories', { name: 'Obs parent' });
      const child = await made('products/categories', { name: 'Obs child', parent: parent.id });
      expect((await deleted('products/categories', [parent.id]))[0]).toMatchObject({
        id: parent.id,
      });
      expect((await wc('GET', `products/categories/${child.id}`)).body).toMatchObject({
        parent: 0,
      });
      const uncategorized = (
        (await wc('GET', 'products/categories?slug=uncategorized')).body as unknown as Obj[]
      )[0] as Obj;
      expect((await deleted('products/categories', [uncategorized.id as number]))[0]).toMatchObject(
        { error: { code: 'woocommerce_rest_cannot_delete', data: { status: 500 } } },
      );
      await deleted('products/categories', [child.id]);
    });

    it('wp/v2: a page in the bin keeps its subpages; deleted with force they move up; media and terms need force', async () => {
      const parent = await made('pages', { title: 'Obs parent', status: 'publish' }, 'wp/v2');
      const kid = await made(
        'pages',
        { title: 'Obs kid', status: 'publish', parent: parent.id },
        'wp/v2',
      );
      expect((await wp('DELETE', `pages/${parent.id}`)).body).toMatchObject({ status: 'trash' });
      expect((await wp('GET', `pages/${kid.id}?context=edit`)).body).toMatchObject({
        parent: parent.id,
      });
      expect((await wp('DELETE', `pages/${parent.id}?force=true`)).body).toMatchObject({
        deleted: true,
      });
      expect((await wp('GET', `pages/${kid.id}?context=edit`)).body).toMatchObject({ parent: 0 });
      expect(await wp('DELETE', `pages/${parent.id}?force=true`)).toMatchObject({
        status: 404,
        body: { code: 'rest_post_invalid_id' },
      });
      await wp('DELETE', `pages/${kid.id}?force=true`);

      const category = await made('categories', { name: 'Obs news' }, 'wp/v2');
      expect(await wp('DELETE', `categories/${category.id}`)).toMatchObject({
        status: 501,
        body: { code: 'rest_trash_not_supported' },
      });
      expect((await wp('DELETE', `categories/${category.id}?force=true`)).body).toMatchObject({
        deleted: true,
      });
      expect(await wp('DELETE', 'categories/1?force=true')).toMatchObject({
        status: 403,
        body: { code: 'rest_cannot_delete' },
      });
      // An image WooCommerce ships, which every store of the kit has, sideloaded by address.
      const url = `${store.url}/wp-content/plugins/woocommerce/packages/email-editor/src/Integrations/Core/Renderer/Blocks/icons/tiktok/tiktok-white.png`;
      const media = await made('media', { url }, 'wp/v2');
      expect(await wp('DELETE', `media/${media.id}`)).toMatchObject({
        status: 501,
        body: { code: 'rest_trash_not_supported' },
      });
      expect((await wp('DELETE', `media/${media.id}?force=true`)).body).toMatchObject({
        deleted: true,
      });
      expect((await wp('DELETE', `media/${media.id}?force=true`)).status).toBe(404);
    });
  });
}
