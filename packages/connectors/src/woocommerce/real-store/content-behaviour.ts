import { beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../../kit/http/http-client.ts';
import { NativeReader } from './native.ts';
import { resetStore, type RealStore } from './real-stores.ts';
import { withWordPress } from './wordpress-password.ts';

/**
 * What a real WordPress 7.1 store (WooCommerce 11.0.1) does with the pages and posts a migration
 * writes through wp/v2, signed in with an application password: one test per behaviour, against
 * an emptied store. The facts behind the connector's content.ts, kept as tests; the emulator's
 * wp-content.ts answers the same (woocommerce-emulator-content.test.ts).
 */
export function describeContentBehaviour(
  store: RealStore,
  kit: string,
  http: () => HttpClient,
): void {
  describe(`WordPress 7.1 pages and posts as observed on the real store '${store.name}'`, () => {
    let api: NativeReader;
    type Obj = Record<string, unknown>;
    const send = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
      api.send(method, `wp/v2/${path}`, body);
    const made = async (path: string, body: unknown) => {
      const answer = await send('POST', path, body);
      expect(answer.status, `POST ${path}: ${JSON.stringify(answer.body)}`).toBe(201);
      return answer.body;
    };

    beforeAll(async () => {
      await resetStore(kit, store);
      api = new NativeReader(http(), await withWordPress(store));
    }, 120_000);

    it('opens wp/v2 to an application password made by HTTP, and refuses a wrong one', async () => {
      const me = await send('GET', 'users/me?context=edit');
      expect(me.body).toMatchObject({ username: 'admin', roles: ['administrator'] });
      const wrong = new NativeReader(http(), {
        ...store,
        credentials: {
          ...store.credentials,
          wordpressUser: 'admin',
          wordpressApplicationPassword: 'aaaa bbbb cccc dddd eeee ffff',
        },
      });
      expect(await wrong.send('GET', 'wp/v2/users/me?context=edit')).toMatchObject({
        status: 401,
        body: { code: 'incorrect_password' },
      });
    });

    it('keeps a draft’s slug as given (or none), makes a taken slug unique when published', async () => {
      const draft = await made('pages', { title: 'About', slug: 'about', status: 'draft' });
      expect(draft).toMatchObject({ slug: 'about', status: 'draft' });
      // A draft's link is a preview, and WordPress fills its date with the time it was written.
      expect(String(draft.link)).toMatch(/\?page_id=\d+$/);
      expect(draft.date_gmt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
      const published = await made('pages', { title: 'About', slug: 'about', status: 'publish' });
      expect(published.slug).toBe('about-2');
      const noSlug = await made('posts', { title: 'Untitled' });
      expect(noSlug).toMatchObject({ status: 'draft', slug: '' });
    });

    it('lists every status with status=publish,future,draft,pending,private', async () => {
      const list = await send(
        'GET',
        'pages?context=edit&per_page=100&status=publish,future,draft,pending,private',
      );
      const statuses = new Set((list.body as unknown as Obj[]).map((p) => p.status));
      expect(statuses).toEqual(new Set(['publish', 'draft']));
    });

    it('publishes a past scheduled date and schedules a future one', async () => {
      const past = await made('posts', {
        title: 'Past',
        status: 'future',
        date_gmt: '2020-01-01T10:00:00',
      });
      expect(past).toMatchObject({ status: 'publish', date_gmt: '2020-01-01T10:00:00' });
      const later = await made('posts', {
        title: 'Later',
        status: 'future',
        date_gmt: '2099-01-01T10:00:00',
      });
      expect(later.status).toBe('future');
      expect(String(later.link)).toMatch(/\?p=\d+$/);
    });

    it('refuses nothing to save, a missing parent and an unknown status', async () => {
      expect(await send('POST', 'posts', {})).toMatchObject({
        status: 400,
        body: { code: 'empty_content' },
      });
      expect(await send('POST', 'pages', { title: 'x', parent: 999999 })).toMatchObject({
        status: 400,
        body: { code: 'rest_post_invalid_id' },
      });
      expect(await send('POST', 'pages', { title: 'x', status: 'bogus' })).toMatchObject({
        status: 400,
        body: { code: 'rest_invalid_param' },
      });
    });

    it('drops unknown media and categories silently, and files a post without any in Uncategorized', async () => {
      const loose = await made('posts', {
        title: 'y',
        featured_media: 999999,
        categories: [999999],
      });
      expect(loose).toMatchObject({ featured_media: 0, categories: [] });
      const plain = await made('posts', { title: 'z' });
      expect(plain.categories).toEqual([1]);
    });

    it('answers term_exists with the id, and term names HTML-escaped', async () => {
      const news = await made('categories', { name: 'News' });
      expect(await send('POST', 'categories', { name: 'News' })).toMatchObject({
        status: 400,
        body: { code: 'term_exists', data: { term_id: news.id } },
      });
      expect(await made('tags', { name: 'Tips & Tricks' })).toMatchObject({
        name: 'Tips &amp; Tricks',
        slug: 'tips-tricks',
      });
    });

    it('sideloads an image by address without its alt text, which a second request sets', async () => {
      // An image WooCommerce ships, which every store of the kit has.
      const url = `${store.url}/wp-content/plugins/woocommerce/packages/email-editor/src/Integrations/Core/Renderer/Blocks/icons/tiktok/tiktok-white.png`;
      const media = await made('media', { url, alt_text: 'Ignored' });
      expect(media.alt_text).toBe('');
      const altered = await send('POST', `media/${String(media.id)}`, { alt_text: 'Kept' });
      expect(altered.body.alt_text).toBe('Kept');
      // A page's slug is unique among media files too: a file stored before it takes the slug.
      const page = await made('pages', { title: 'Icon', slug: 'tiktok-white', status: 'publish' });
      expect(page.slug).toBe('tiktok-white-2');
      const post = await made('posts', { title: 'Icon', slug: 'tiktok-white', status: 'publish' });
      expect(post.slug).toBe('tiktok-white');
      expect(await send('POST', 'media', { url: `${store.url}/nope/missing.png` })).toMatchObject({
        status: 500,
        body: { code: 'http_404' },
      });
    });
  });
}
