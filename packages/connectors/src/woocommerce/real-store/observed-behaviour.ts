import { beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../../kit/http/http-client.ts';
import { NativeReader } from './native.ts';
import { resetStore, storedMediaCount, type RealStore } from './real-stores.ts';

/**
 * What a real WooCommerce 11.0.1 store does with what a migration writes, one test per behaviour,
 * each written against an empty store. These are the facts behind the connector's choices and the
 * real-store comparison's rules (assigned.ts), kept as tests rather than prose so that they stay
 * true; the emulator should answer the same.
 */
export function describeObservedBehaviour(
  store: RealStore,
  kit: string,
  http: () => HttpClient,
): void {
  describe(`WooCommerce 11.0.1 as observed on the real store '${store.name}'`, () => {
    let api: NativeReader;
    const post = async (path: string, body: unknown) => {
      const answer = await api.send('POST', `wc/v3/${path}`, body);
      expect(answer.status, `POST ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      return answer.body;
    };
    const get = async (path: string) => (await api.send('GET', `wc/v3/${path}`)).body;
    const billing = { first_name: 'Ana', email: 'ana@example.com' };
    let product: Record<string, unknown>;

    beforeAll(async () => {
      await resetStore(kit, store);
      api = new NativeReader(http(), store);
      product = await post('products', { name: 'Becher 🍵', sku: 'OBS-MUG', regular_price: '10' });
    }, 120_000);

    it('takes an order’s status and created_via, but numbers and dates it itself and ignores a customer IP address, prices-include-tax and a payment date it is given', async () => {
      const order = await post('orders', {
        status: 'processing',
        created_via: 'legacy-shop',
        number: '9999',
        date_created: '2020-01-01T00:00:00',
        date_paid: '2020-01-02T00:00:00',
        customer_ip_address: '10.1.2.3',
        prices_include_tax: true,
        billing,
      });
      expect(order).toMatchObject({
        status: 'processing',
        created_via: 'legacy-shop',
        number: String(order.id),
        date_paid: null,
        customer_ip_address: '',
        prices_include_tax: false,
      });
      expect(String(order.date_created)).not.toMatch(/^2020/);
    });

    it('writes notes of its own on an order created with a status, and stamps payment and completion when it completes one', async () => {
      const completed = await post('orders', {
        status: 'completed',
        billing,
        line_items: [{ product_id: product.id, quantity: 1 }],
      });
      expect(completed.date_paid).not.toBeNull();
      expect(completed.date_completed).not.toBeNull();
      const notes = (await api.send('GET', `wc/v3/orders/${completed.id}/notes`)).body;
      expect(
        (notes as unknown as { note: string; author: string }[]).map((n) => [n.author, n.note]),
      ).toContainEqual(['WooCommerce', 'Order status changed from Pending payment to Completed.']);
    });

    it('writes no note of its own on an order created pending; moved on, it writes its status note after the notes added before; it lists notes newest first by the second, those of one second in the order added', async () => {
      const order = await post('orders', {
        status: 'pending',
        billing,
        line_items: [{ product_id: product.id, quantity: 1 }],
        meta_data: [{ key: '_order_stock_reduced', value: 'yes' }],
      });
      // This store sends e-mails (and notes that it did); an import switches them off.
      const listed = async () =>
        (
          (await api.send('GET', `wc/v3/orders/${order.id}/notes`)).body as unknown as {
            id: number;
            note: string;
            date_created_gmt: string;
          }[]
        ).filter((n) => !n.note.startsWith('Email '));
      expect(await listed()).toEqual([]);
      await post(`orders/${order.id}/notes`, { note: 'Before' });
      await post('orders/batch', { update: [{ id: order.id, status: 'on-hold' }] });
      await post(`orders/${order.id}/notes`, { note: 'After' });
      const notes = await listed();
      expect([...notes].sort((a, b) => a.id - b.id).map((n) => n.note)).toEqual([
        'Before',
        'Order status changed from Pending payment to On hold.',
        'After',
      ]);
      const newestFirst = [...notes].sort(
        (a, b) => b.date_created_gmt.localeCompare(a.date_created_gmt) || a.id - b.id,
      );
      expect(notes.map((n) => n.id)).toEqual(newestFirst.map((n) => n.id));
    });

    it('signs a note "WooCommerce" unless it is added by the key’s user, and dates it itself', async () => {
      const order = await post('orders', { status: 'on-hold', billing });
      const plain = await post(`orders/${order.id}/notes`, {
        note: 'Packed 📦',
        customer_note: true,
        date_created: '2020-01-01T00:00:00',
      });
      const signed = await post(`orders/${order.id}/notes`, {
        note: 'Called the customer',
        added_by_user: true,
      });
      expect(plain).toMatchObject({ author: 'WooCommerce', customer_note: true });
      expect(String(plain.date_created)).not.toMatch(/^2020/);
      expect(signed).toMatchObject({ author: 'admin', customer_note: false });
    });

    it('refuses an order with an empty billing e-mail, which a customer account keeps', async () => {
      const refused = await api.send('POST', 'wc/v3/orders', { billing: { email: '' } });
      expect(refused).toMatchObject({ status: 400, body: { code: 'rest_invalid_param' } });
      const customer = await post('customers', {
        email: 'nikos@example.com',
        billing: { first_name: 'Νίκος', city: 'Αθήνα' },
      });
      expect((customer.billing as Record<string, unknown>).email).toBe('');
    });

    it('applies a coupon named on a new order (its line totals drop), and refuses a coupon it does not have, leaving a draft order behind', async () => {
      await post('coupons', { code: 'Zehn-Prozent', discount_type: 'percent', amount: '10' });
      const order = await post('orders', {
        status: 'completed',
        billing,
        line_items: [{ product_id: product.id, quantity: 2 }],
        coupon_lines: [{ code: 'zehn-prozent' }],
      });
      expect(order).toMatchObject({
        discount_total: '2.00',
        total: '18.00',
        line_items: [{ subtotal: '20.00', total: '18.00' }],
        coupon_lines: [{ code: 'zehn-prozent', discount: '2' }],
      });
      const refused = await api.send('POST', 'wc/v3/orders', {
        billing,
        line_items: [{ product_id: product.id, quantity: 1 }],
        coupon_lines: [{ code: 'gibt-es-nicht' }],
      });
      expect(refused).toMatchObject({
        status: 400,
        body: { code: 'woocommerce_rest_invalid_coupon' },
      });
      const draft = (refused.body.data as Record<string, unknown>).new_draft_order_id;
      expect(await get(`orders/${draft}`)).toMatchObject({ status: 'checkout-draft' });
    });

    it('stores an image given by URL again for every product that names it (renamed -1), and reuses one given by id', async () => {
      const placeholder = `${store.url}/wp-content/uploads/woocommerce-placeholder.webp`;
      const before = await storedMediaCount(store);
      const first = await post('products', { name: 'A', images: [{ src: placeholder }] });
      const second = await post('products', { name: 'B', images: [{ src: placeholder }] });
      const [a] = first.images as Record<string, unknown>[];
      const [b] = second.images as Record<string, unknown>[];
      expect(a?.id).not.toBe(b?.id);
      expect(String(b?.src)).toMatch(/woocommerce-placeholder-1\.webp$/);
      // Without a name, the image's title is its file name.
      expect(b?.name).toBe('woocommerce-placeholder-1.webp');
      const third = await post('products', { name: 'C', images: [{ id: a?.id }] });
      expect((third.images as Record<string, unknown>[])[0]?.id).toBe(a?.id);
      expect(await storedMediaCount(store)).toBe(before + 2);
    });

    it('keeps an order line whose product was deleted, with product_id 0 and sku null', async () => {
      const doomed = await post('products', {
        name: 'Weg',
        sku: 'OBS-GONE',
        regular_price: '7.77',
      });
      const order = await post('orders', {
        billing,
        line_items: [{ product_id: doomed.id, quantity: 1 }],
      });
      expect((await api.send('DELETE', `wc/v3/products/${doomed.id}?force=true`)).status).toBe(200);
      const [line] = (await get(`orders/${order.id}`)).line_items as Record<string, unknown>[];
      expect(line).toMatchObject({ name: 'Weg', product_id: 0, sku: null, total: '7.77' });
    });

    it('dates a new product modified when it was created, also when it is given an earlier creation date; a save dates it now', async () => {
      const before = Date.now() - 5000;
      const old = await post('products', {
        name: 'Alt',
        sku: 'OBS-OLD',
        date_created_gmt: '2019-03-04T05:06:07',
      });
      expect(old).toMatchObject({
        date_created_gmt: '2019-03-04T05:06:07',
        date_modified_gmt: '2019-03-04T05:06:07',
      });
      const saved = await api.send('PUT', `wc/v3/products/${String(old.id)}`, { name: 'Neu' });
      expect(Date.parse(`${String(saved.body.date_modified_gmt)}Z`)).toBeGreaterThanOrEqual(before);
    });

    it('takes a category’s menu_order, although its REST index marks it read-only', async () => {
      const category = await post('products/categories', { name: 'Tassen ☕', menu_order: 5 });
      expect((await get(`products/categories/${category.id}`)).menu_order).toBe(5);
    });

    it('takes grouped_products on create, although its REST index marks it read-only', async () => {
      const grouped = await post('products', {
        name: 'Set',
        type: 'grouped',
        grouped_products: [product.id],
      });
      expect((await get(`products/${grouped.id}`)).grouped_products).toEqual([product.id]);
    });

    it('keeps coupon codes and e-mail restrictions lower case, refuses a code a published coupon has in any case, and lets a draft share it', async () => {
      const coupon = await post('coupons', {
        code: 'Obs-Spring',
        amount: '15',
        email_restrictions: ['Ana@Example.com', '*@Staff.example.com'],
      });
      expect(coupon).toMatchObject({
        code: 'obs-spring',
        email_restrictions: ['ana@example.com', '*@staff.example.com'],
        usage_limit: null,
        usage_limit_per_user: null,
        limit_usage_to_x_items: null,
        minimum_amount: '0.00',
      });
      const again = await api.send('POST', 'wc/v3/coupons', { code: 'OBS-SPRING ' });
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({
        code: 'woocommerce_rest_coupon_code_already_exists',
        message: 'The coupon code already exists',
      });
      const draft = await post('coupons', { code: 'obs-later', status: 'draft' });
      expect((await post('coupons', { code: 'obs-later' })).status).toBe('publish');
      // Drafts are listed only with status=any, and never found by their code.
      const listed = async (query: string) =>
        ((await get(`coupons?per_page=100&${query}`)) as unknown as { id: number }[]).map(
          (c) => c.id,
        );
      expect(await listed('')).not.toContain(draft.id);
      expect(await listed('status=any')).toContain(draft.id);
      expect(
        ((await get('coupons?code=obs-later')) as unknown as { status: string }[]).map(
          (c) => c.status,
        ),
      ).toEqual(['publish']);
    });

    it('sets a coupon’s expiry only through date_expires, ignores a null, and clears it with an empty string', async () => {
      const ignored = await post('coupons', {
        code: 'obs-gmt',
        date_expires_gmt: '2027-03-31T12:30:00',
      });
      expect(ignored.date_expires_gmt).toBeNull();
      const coupon = await post('coupons', {
        code: 'obs-expiry',
        date_expires: '2027-03-31T12:30:00+02:00',
      });
      expect(coupon.date_expires_gmt).toBe('2027-03-31T10:30:00');
      const kept = await api.send('PUT', `wc/v3/coupons/${coupon.id}`, { date_expires: null });
      expect(kept.body.date_expires_gmt).toBe('2027-03-31T10:30:00');
      const cleared = await api.send('PUT', `wc/v3/coupons/${coupon.id}`, { date_expires: '' });
      expect(cleared.body.date_expires_gmt).toBeNull();
    });

    it('drops an e-mail restriction that is no address and answers the rest by position; refuses an unknown discount kind in a batch', async () => {
      const coupon = await post('coupons', {
        code: 'obs-mails',
        email_restrictions: ['not-an-address', 'ok@example.com'],
      });
      expect(coupon.email_restrictions).toEqual({ '1': 'ok@example.com' });
      const batch = await post('coupons/batch', {
        update: [{ id: coupon.id, discount_type: 'nope' }],
      });
      expect(batch.update).toMatchObject([{ error: { code: 'coupon_invalid_discount_type' } }]);
    });

    it('refuses to apply an expired coupon to an order, or one whose minimum spend it is under', async () => {
      await post('coupons', {
        code: 'obs-gone',
        amount: '1',
        date_expires: '2020-01-01T00:00:00Z',
      });
      await post('coupons', { code: 'obs-big', amount: '1', minimum_amount: '1000' });
      for (const code of ['obs-gone', 'obs-big']) {
        const order = await api.send('POST', 'wc/v3/orders', {
          billing,
          line_items: [{ product_id: product.id, quantity: 1 }],
          coupon_lines: [{ code }],
        });
        expect(order.status, code).toBe(400);
        expect(order.body.code).toBe('woocommerce_rest_invalid_coupon');
      }
    });

    describe('product brands', () => {
      type Answer = Record<string, unknown>;
      const brands = 'wc/v3/products/brands';
      const send = (path: string, body?: unknown, method: 'POST' | 'DELETE' = 'POST') =>
        api.send(method, `${brands}${path}`, body);

      it('requires a name; refuses a second brand of a name under one parent (ASCII letters in any case, other letters only in the same case) with its id, takes it under another parent with a longer slug, and makes a taken slug unique', async () => {
        expect((await send('', {})).body).toMatchObject({ code: 'rest_missing_callback_param' });
        const acme = await post('products/brands', { name: 'Acme & Söhne' });
        expect(acme).toMatchObject({ name: 'Acme &amp; Söhne', slug: 'acme-sohne', parent: 0 });
        const again = await send('', { name: 'ACME & Söhne' });
        expect(again).toMatchObject({
          status: 400,
          body: { code: 'term_exists', data: { status: 400, resource_id: acme.id } },
        });
        const parent = await post('products/brands', { name: 'Obs Dach' });
        const child = await post('products/brands', { name: 'Acme & Söhne', parent: parent.id });
        expect(child).toMatchObject({ parent: parent.id, slug: 'acme-sohne-obs-dach' });
        const taken = await post('products/brands', { name: 'Andere', slug: 'acme-sohne' });
        expect(taken.slug).toBe('acme-sohne-2');
        // Only ASCII letters compare without case: Ö is not ö.
        const other = await send('', { name: 'Acme & SÖHNE' });
        expect(other.status).toBe(201);
        expect(other.body.slug).toBe('acme-sohne-3');
        // Tags are stripped from a name.
        expect(await post('products/brands', { name: ' <b>Fett</b> Marke ' })).toMatchObject({
          name: 'Fett Marke',
        });
        const batch = await send('/batch', { create: [{ description: 'ohne Namen' }] });
        expect(((batch.body.create as Answer[])[0]?.error as Answer).code).toBe('empty_term_name');
      });

      it('refuses a parent it lacks (400 on a create, 500 on an update) and a slug in use on an update (500)', async () => {
        const missing = await send('', { name: 'Waise', parent: 999_999 });
        expect(missing).toMatchObject({ status: 400, body: { code: 'missing_parent' } });
        const brand = await post('products/brands', { name: 'Obs Update' });
        const update = await send(`/${String(brand.id)}`, { parent: 999_999 });
        expect(update).toMatchObject({ status: 500, body: { code: 'missing_parent' } });
        await post('products/brands', { name: 'Obs Belegt' });
        const slug = await send(`/${String(brand.id)}`, { slug: 'obs-belegt' });
        expect(slug).toMatchObject({ status: 500, body: { code: 'duplicate_term_slug' } });
      });

      it('writes menu_order (negative too) and display, checks display against its enum outside a batch only, and filters the description like a category’s', async () => {
        const brand = await post('products/brands', {
          name: 'Obs Ordnung',
          menu_order: -2,
          display: 'both',
          description: '<p>Erster <strong>Absatz</strong>.</p><ul><li>Punkt</li></ul>',
        });
        expect(brand).toMatchObject({ menu_order: -2, display: 'both' });
        expect(brand.description).toBe('Erster <strong>Absatz</strong>.Punkt');
        expect((await send('', { name: 'Obs Anzeige', display: 'weird' })).body).toMatchObject({
          code: 'rest_invalid_param',
        });
        const batch = await send('/batch', { create: [{ name: 'Obs Batch', display: 'weird' }] });
        expect((batch.body.create as Answer[])[0]).toMatchObject({ display: 'weird' });
      });

      it('downloads a logo given by URL (with its alt text), and refuses the whole brand when it cannot', async () => {
        const placeholder = `${store.url}/wp-content/uploads/woocommerce-placeholder.webp`;
        const brand = await post('products/brands', {
          name: 'Obs Logo',
          image: { src: placeholder, alt: 'Das Logo' },
        });
        const image = brand.image as Answer;
        expect(image.alt).toBe('Das Logo');
        // A copy of its own in the media library, not the address it was given.
        expect(String(image.src)).toMatch(
          /\/wp-content\/uploads\/\d{4}\/\d{2}\/woocommerce-placeholder(-\d+)?\.webp$/,
        );
        expect(image.src).not.toBe(placeholder);
        const refused = await send('', {
          name: 'Obs Ohne Logo',
          image: { src: 'http://127.0.0.1:9/keins.png' },
        });
        expect(refused).toMatchObject({
          status: 400,
          body: { code: 'woocommerce_rest_invalid_remote_image_url' },
        });
        expect(await get('products/brands?slug=obs-ohne-logo')).toEqual([]);
      });

      it('moves the children of a deleted brand up to its parent, deletes only with force, and gives a brand a page under its parents (wp/v2 link)', async () => {
        const top = await post('products/brands', { name: 'Obs Oben' });
        const middle = await post('products/brands', { name: 'Obs Mitte', parent: top.id });
        const low = await post('products/brands', { name: 'Obs Unten', parent: middle.id });
        const term = await api.send('GET', `wp/v2/product_brand/${String(low.id)}`);
        expect(String(term.body.link)).toBe(`${store.url}/brand/obs-oben/obs-mitte/obs-unten/`);
        expect((await send(`/${String(middle.id)}`, undefined, 'DELETE')).body).toMatchObject({
          code: 'woocommerce_rest_trash_not_supported',
        });
        await api.send('DELETE', `${brands}/${String(middle.id)}?force=true`);
        expect(await get(`products/brands/${String(low.id)}`)).toMatchObject({ parent: top.id });
      });
    });

    describe('product reviews', () => {
      type Answer = Record<string, unknown>;
      const review = (over: Answer = {}) => ({
        product_id: product.id,
        reviewer: 'Ana',
        reviewer_email: 'ana@example.com',
        review: 'Gut.',
        rating: 4,
        ...over,
      });
      const batch = async (body: Answer) =>
        (await post('products/reviews/batch', body)) as { create?: Answer[]; update?: Answer[] };
      const reviewsListed = async (query: string) =>
        (
          (await get(`products/reviews?per_page=100&context=edit&${query}`)) as unknown as {
            id: number;
            status: string;
          }[]
        ).map((r) => [r.id, r.status]);

      it('takes a review’s date through date_created_gmt or date_created although its index lists both read-only, and dates one without it now', async () => {
        const gmt = await post(
          'products/reviews',
          review({
            reviewer: 'Datum',
            date_created_gmt: '2023-04-12T10:15:00',
          }),
        );
        expect(gmt.date_created_gmt).toBe('2023-04-12T10:15:00');
        const local = await post(
          'products/reviews',
          review({
            reviewer: 'Datum 2',
            date_created: '2023-04-12T10:15:00+02:00',
          }),
        );
        expect(local.date_created_gmt).toBe('2023-04-12T08:15:00');
        const now = await post('products/reviews', review({ reviewer: 'Jetzt' }));
        expect(String(now.date_created_gmt)).not.toMatch(/^2023/);
      });

      it('needs reviewer_email on a create outside a batch but takes an empty one, saves an address it does not accept as none and keeps the case of one it does; a batch needs neither', async () => {
        const missing = await api.send('POST', 'wc/v3/products/reviews', {
          product_id: product.id,
          reviewer: 'Ohne',
          review: 'x',
        });
        expect(missing).toMatchObject({
          status: 400,
          body: { code: 'rest_missing_callback_param', data: { params: ['reviewer_email'] } },
        });
        const empty = await post(
          'products/reviews',
          review({ reviewer: 'Gast', reviewer_email: '' }),
        );
        expect(empty).toMatchObject({ reviewer_email: '', status: 'approved', verified: false });
        const bad = await post(
          'products/reviews',
          review({ reviewer: 'Bad', reviewer_email: 'keine-adresse' }),
        );
        expect(bad.reviewer_email).toBe('');
        const cased = await post(
          'products/reviews',
          review({ reviewer: 'Case', reviewer_email: ' Tom@Example.COM ' }),
        );
        expect(cased.reviewer_email).toBe('Tom@Example.COM');
        const { create } = await batch({
          create: [
            { product_id: product.id, reviewer: 'Batch', review: 'ohne Adresse', rating: '5' },
          ],
        });
        expect(create?.[0]).toMatchObject({ reviewer_email: '', rating: 5, status: 'approved' });
      });

      it('saves the name as plain text on one line, HTML-escaped, and keeps a created text’s HTML, adding rel "nofollow ugc" to its links', async () => {
        const saved = await post(
          'products/reviews',
          review({
            reviewer: '  Tom & <b>Jerry</b>\n x ',
            review:
              '<p>Gut & <script>x</script><a href="https://a.example/">a</a> <a href="https://b.example/" rel="noopener">b</a> C:\\Temp</p>',
          }),
        );
        expect(saved).toMatchObject({
          reviewer: 'Tom &amp; Jerry x',
          review:
            '<p>Gut & <script>x</script><a href="https://a.example/" rel="nofollow ugc">a</a> <a href="https://b.example/" rel="noopener nofollow ugc">b</a> C:\\Temp</p>',
        });
      });

      it('refuses a review repeating one of the product’s outside the bin (same name, address and text in any case, whatever the date), but not one whose text has a link', async () => {
        const first = await post(
          'products/reviews',
          review({ reviewer: 'Bob', review: '<p>Derselbe Text.</p>' }),
        );
        const again = await api.send(
          'POST',
          'wc/v3/products/reviews',
          review({
            reviewer: 'BOB',
            reviewer_email: 'ANA@example.com',
            review: '<p>DERSELBE Text.</p>',
            date_created_gmt: '2020-01-01T00:00:00',
          }),
        );
        expect(again).toMatchObject({
          status: 409,
          body: {
            code: 'woocommerce_rest_comment_duplicate',
            message:
              'Duplicate comment detected; it looks as though you&#8217;ve already said that!',
          },
        });
        const { create } = await batch({
          create: [review({ reviewer: 'Bob', review: '<p>Derselbe Text.</p>' })],
        });
        expect(create?.[0]).toMatchObject({
          id: 0,
          error: { code: 'woocommerce_rest_comment_duplicate', data: { status: 409 } },
        });
        const linked = review({
          reviewer: 'Link',
          review: 'Siehe <a href="https://x.example/">x</a>',
        });
        await post('products/reviews', linked);
        await post('products/reviews', linked);
        await post('products/reviews/batch', { update: [{ id: first.id, status: 'trash' }] });
        await post(
          'products/reviews',
          review({ reviewer: 'Bob', review: '<p>Derselbe Text.</p>' }),
        );
      });

      it('passes a review’s whole text through the comment filter on any update, a change of status included', async () => {
        const saved = await post(
          'products/reviews',
          review({
            reviewer: 'Filter',
            review:
              '<p>Absatz & <strong>fett</strong> <a href="https://u.example/" rel="noopener">u</a></p>',
          }),
        );
        const held = await api.send('PUT', `wc/v3/products/reviews/${saved.id}`, {
          status: 'hold',
        });
        expect(held.body).toMatchObject({
          status: 'hold',
          review:
            'Absatz &amp; <strong>fett</strong> <a href="https://u.example/" rel="nofollow ugc">u</a>',
        });
      });

      it('stores any rating it is given, sets the status after saving, and gives back the status before spam or the bin (hold when there was none)', async () => {
        const { create } = await batch({
          create: [
            review({ reviewer: 'Null', review: 'null', rating: 0 }),
            review({ reviewer: 'Sechs', review: 'sechs', rating: 6 }),
            review({ reviewer: 'Spam', review: 'spam', status: 'spam' }),
            review({ reviewer: 'Warten', review: 'warten', status: 'hold' }),
            review({ reviewer: 'Weg', review: 'weg', status: 'trash' }),
          ],
        });
        expect(create?.map((r) => [r.rating, r.status])).toEqual([
          [0, 'approved'],
          [6, 'approved'],
          [4, 'spam'],
          [4, 'hold'],
          [4, 'trash'],
        ]);
        const [zero, six, spam, held] = create ?? [];
        const moved = await batch({
          update: [
            { id: zero?.id, status: 'spam' },
            { id: six?.id, status: 'trash' },
            { id: spam?.id, status: 'unspam' },
            { id: held?.id, status: 'trash' },
          ],
        });
        const back = await batch({
          update: [
            { id: zero?.id, status: 'unspam' },
            { id: six?.id, status: 'untrash' },
            { id: held?.id, status: 'untrash' },
          ],
        });
        expect(moved.update?.map((r) => r.status)).toEqual(['spam', 'trash', 'hold', 'trash']);
        expect(back.update?.map((r) => r.status)).toEqual(['approved', 'approved', 'hold']);
      });

      it('lists approved reviews by default, approved and held ones for status=all, spam and the bin apart, and every status for status=any, which its enum does not list', async () => {
        await batch({
          create: ['approved', 'hold', 'spam', 'trash'].map((status) =>
            review({ reviewer: `Liste ${status}`, review: `liste ${status}`, status }),
          ),
        });
        const statuses = async (query: string) =>
          new Set((await reviewsListed(query)).map(([, status]) => status));
        expect(await statuses('')).toEqual(new Set(['approved']));
        expect(await statuses('status=all')).toEqual(new Set(['approved', 'hold']));
        expect(await statuses('status=spam')).toEqual(new Set(['spam']));
        expect(await statuses('status=trash')).toEqual(new Set(['trash']));
        const every = await reviewsListed('status=any');
        const apart = [
          ...(await reviewsListed('status=all')),
          ...(await reviewsListed('status=spam')),
          ...(await reviewsListed('status=trash')),
        ];
        expect(new Set(every.map(([id]) => id))).toEqual(new Set(apart.map(([id]) => id)));
      });

      it('works "verified" out when it first answers a review, from a paid order of the product by its address, keeps that, and takes verified: true', async () => {
        await post('orders', {
          status: 'completed',
          billing: { first_name: 'Käufer', email: 'kaeufer@example.com' },
          line_items: [{ product_id: product.id, quantity: 1 }],
        });
        const later = await post('orders', {
          status: 'pending',
          billing: { first_name: 'Später', email: 'spaeter@example.com' },
          line_items: [{ product_id: product.id, quantity: 1 }],
        });
        const bought = await post(
          'products/reviews',
          review({
            reviewer: 'Käufer',
            reviewer_email: 'KAEUFER@example.com',
            review: 'gekauft',
          }),
        );
        expect(bought.verified).toBe(true);
        const pending = await post(
          'products/reviews',
          review({
            reviewer: 'Später',
            reviewer_email: 'spaeter@example.com',
            review: 'noch nicht bezahlt',
          }),
        );
        expect(pending.verified).toBe(false);
        await post('orders/batch', { update: [{ id: later.id, status: 'completed' }] });
        expect((await get(`products/reviews/${pending.id}`)).verified).toBe(false);
        const claimed = await post(
          'products/reviews',
          review({
            reviewer: 'Behauptet',
            reviewer_email: 'b@example.com',
            review: 'behauptet',
            verified: true,
          }),
        );
        expect(claimed.verified).toBe(true);
      });

      it('refuses a review without text or of a product it does not have, and one with too long a name, in a batch item by item', async () => {
        const { create } = await batch({
          create: [
            review({ reviewer: 'Leer', review: '' }),
            review({ reviewer: 'Null', review: '0' }),
            review({ product_id: 999999 }),
            review({ reviewer: 'N'.repeat(246), review: 'lang' }),
          ],
        });
        expect(create?.map((r) => (r.error as Answer | undefined)?.code)).toEqual([
          'woocommerce_rest_review_content_invalid',
          'woocommerce_rest_review_content_invalid',
          'woocommerce_rest_product_invalid_id',
          'woocommerce_rest_reviewer_column_length',
        ]);
        const binned = await post(
          'products/reviews',
          review({ reviewer: 'Tonne', review: 'tonne' }),
        );
        const first = await api.send('DELETE', `wc/v3/products/reviews/${binned.id}`);
        expect(first.body).toMatchObject({ id: binned.id, status: 'trash' });
        const twice = await api.send('DELETE', `wc/v3/products/reviews/${binned.id}`);
        expect(twice).toMatchObject({
          status: 410,
          body: { code: 'woocommerce_rest_already_trashed' },
        });
      });
    });

    it('moves a completed order to refunded on a full refund, with a note of its own, and marks each refund full or partial', async () => {
      const order = await post('orders', {
        status: 'completed',
        billing,
        line_items: [{ product_id: product.id, quantity: 2 }],
      });
      const partial = await post(`orders/${order.id}/refunds`, {
        amount: '5.00',
        reason: 'Kulanz',
        api_refund: false,
      });
      const rest = await post(`orders/${order.id}/refunds`, {
        amount: '15.00',
        reason: 'Rest',
        api_refund: false,
      });
      const type = (refund: Record<string, unknown>) =>
        (refund.meta_data as { key: string; value: unknown }[]).find(
          (m) => m.key === '_refund_type',
        )?.value;
      expect([type(partial), type(rest)]).toEqual(['partial', 'full']);
      expect((await get(`orders/${order.id}`)).status).toBe('refunded');
      const notes = (await api.send('GET', `wc/v3/orders/${order.id}/notes`)).body as unknown as {
        note: string;
      }[];
      expect(notes.map((n) => n.note)).toContain(
        'Order status changed from Completed to Refunded.',
      );
    });
  });
}
