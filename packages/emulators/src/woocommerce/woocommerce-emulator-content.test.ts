import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSampleStore } from '../framework/sample-store.ts';
import { checkWpResource } from './testing/wp-spec.ts';
import {
  defaultApplicationPassword,
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from './woocommerce-emulator.ts';

/**
 * WordPress's pages, posts, media, categories, tags and users (wp/v2) behind an application
 * password, as a WordPress 7.1 store with WooCommerce 11.0.1 answers them
 * (real-store/observed-behaviour.ts of the connector checks the same on a real store).
 */

type Obj = Record<string, unknown>;
const counts = { products: 6, customers: 1, orders: 1 };

describe('WooCommerce emulator pages and posts (wp/v2)', () => {
  let emu: RunningWooCommerceEmulator;
  const sample = generateSampleStore(counts);
  let auth = '';
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({ seed: counts });
    auth = `Basic ${Buffer.from(`admin:${defaultApplicationPassword}`).toString('base64')}`;
  });
  afterAll(async () => {
    await emu.close();
  });

  const call = async (
    method: string,
    path: string,
    body?: Obj,
    headers: Record<string, string> = { authorization: auth },
  ) => {
    const response = await fetch(`${emu.url}/wp-json/wp/v2${path}`, {
      method,
      headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Obj & Obj[],
    };
  };
  const all = '?context=edit&status=publish,future,draft,pending,private&per_page=100';

  it('opens wp/v2 with the application password only, over plain http too', async () => {
    expect(emu.wordpressUser).toBe('admin');
    expect((await call('GET', '/users/me?context=edit')).body).toMatchObject({
      id: 1,
      username: 'admin',
      roles: ['administrator'],
    });
    const wrong = `Basic ${Buffer.from('admin:aaaa bbbb cccc dddd eeee ffff').toString('base64')}`;
    expect(
      await call('GET', '/users/me?context=edit', undefined, { authorization: wrong }),
    ).toMatchObject({ status: 401, body: { code: 'incorrect_password' } });
    // WooCommerce's keys are no WordPress user.
    const keys = `Basic ${Buffer.from(`${emu.consumerKey}:${emu.consumerSecret}`).toString('base64')}`;
    expect(
      await call('GET', '/pages?context=edit', undefined, { authorization: keys }),
    ).toMatchObject({ status: 401, body: { code: 'invalid_username' } });
    expect(await call('GET', '/pages?context=edit', undefined, {})).toMatchObject({
      status: 401,
      body: { code: 'rest_forbidden_context' },
    });
    // Without a user only published pages are listed.
    const open = await call('GET', '/pages', undefined, {});
    expect(open.body.every((p) => p.status === 'publish')).toBe(true);
  });

  it("holds the sample's pages and posts, drafts included, in the description's shape", async () => {
    const pages = (await call('GET', `/pages${all}&orderby=id&order=asc`)).body;
    expect(pages.map((p) => (p.title as Obj).raw)).toEqual(sample.pages.map((p) => p.title));
    for (const page of pages) expect(checkWpResource('/wp/v2/pages', page)).toEqual([]);
    const shipping = pages.find((p) => p.slug === 'shipping-returns') as Obj;
    const child = pages.find((p) => p.slug === 'international-shipping') as Obj;
    expect(child).toMatchObject({ parent: shipping.id, menu_order: 0 });
    expect(child.link).toBe(`${emu.url}/shipping-returns/international-shipping/`);
    const draft = pages.find((p) => p.status === 'draft') as Obj;
    expect(draft.link).toBe(`${emu.url}/?page_id=${String(draft.id)}`);
    const contact = pages.find((p) => p.slug === 'contact') as Obj;
    const media = (await call('GET', `/media/${String(contact.featured_media)}`)).body;
    expect(media).toMatchObject({ alt_text: 'Our shop front' });
    expect(String(media.source_url)).toContain('/media/pages/contact.png');

    const posts = (await call('GET', `/posts${all}`)).body;
    expect(posts).toHaveLength(sample.posts.length);
    for (const post of posts) expect(checkWpResource('/wp/v2/posts', post)).toEqual([]);
    const cats = (await call('GET', '/categories?per_page=100')).body;
    expect(cats.map((c) => c.name).sort()).toEqual(['Guides', 'News', 'Stories', 'Uncategorized']);
    expect(emu.store.counts()).toMatchObject({
      pages: sample.pages.length,
      posts: sample.posts.length,
    });
  });

  it('makes a taken slug unique when published, keeps a draft’s, and checks the parent', async () => {
    const a = await call('POST', '/pages', { title: 'About us', status: 'publish' });
    expect(a).toMatchObject({ status: 201, body: { slug: 'about-us-2' } });
    const d = await call('POST', '/pages', {
      title: 'About us',
      slug: 'about-us',
      status: 'draft',
    });
    expect(d.body.slug).toBe('about-us');
    const noSlug = await call('POST', '/posts', { title: 'Untitled draft' });
    expect(noSlug.body).toMatchObject({ status: 'draft', slug: '', categories: [1] });
    expect(await call('POST', '/pages', { title: 'x', parent: 99999 })).toMatchObject({
      status: 400,
      body: { code: 'rest_post_invalid_id' },
    });
    expect(await call('POST', '/posts', {})).toMatchObject({
      status: 400,
      body: { code: 'empty_content' },
    });
    expect(await call('POST', '/posts', { title: 'x', status: 'bogus' })).toMatchObject({
      status: 400,
      body: { code: 'rest_invalid_param' },
    });
    // Unknown media and categories are left out without a word.
    const loose = await call('POST', '/posts', {
      title: 'y',
      featured_media: 99999,
      categories: [99999],
    });
    expect(loose.body).toMatchObject({ featured_media: 0, categories: [] });
    const past = await call('POST', '/posts', {
      title: 'Past',
      status: 'future',
      date_gmt: '2020-01-01T10:00:00',
    });
    expect(past.body).toMatchObject({ status: 'publish', date_gmt: '2020-01-01T10:00:00' });
    const later = await call('POST', '/posts', {
      title: 'Later',
      status: 'future',
      date_gmt: '2099-01-01T10:00:00',
    });
    expect(later.body.status).toBe('future');
    expect(later.body.link).toBe(`${emu.url}/?p=${String(later.body.id)}`);
  });

  it('uploads media with its file name and alt text, and answers term_exists with the id', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000', 'hex');
    const upload = async (headers: Record<string, string>) => {
      const r = await fetch(`${emu.url}/wp-json/wp/v2/media?alt_text=An%20alt`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'image/png', ...headers },
        body: png,
      });
      return { status: r.status, body: (await r.json()) as Obj };
    };
    const one = await upload({ 'content-disposition': 'attachment; filename="sale.png"' });
    expect(one).toMatchObject({ status: 201, body: { alt_text: 'An alt', media_type: 'image' } });
    const two = await upload({ 'content-disposition': 'attachment; filename="sale.png"' });
    expect(String(two.body.source_url)).toMatch(/sale-1\.png$/);
    expect(await upload({})).toMatchObject({
      status: 400,
      body: { code: 'rest_upload_no_content_disposition' },
    });
    const bytes = await fetch(String(one.body.source_url));
    expect(Buffer.from(await bytes.arrayBuffer())).toEqual(png);

    // Sideloading by address: the store downloads it; the alt text of that request is not kept.
    const side = await call('POST', '/media', { url: String(one.body.source_url), alt_text: 'x' });
    expect(side).toMatchObject({ status: 201, body: { alt_text: '' } });
    expect(
      await call('POST', '/media', { url: `${emu.url}/wp-content/uploads/none.png` }),
    ).toMatchObject({ status: 500, body: { code: 'http_404' } });
    expect(await call('POST', '/media', { url: 'https://example.org/a.png' })).toMatchObject({
      status: 400,
      body: { code: 'rest_invalid_param' },
    });
    const altered = await call('POST', `/media/${String(side.body.id)}`, { alt_text: 'Now' });
    expect(altered.body.alt_text).toBe('Now');

    const news = (await call('GET', '/categories?slug=news')).body[0] as Obj;
    expect(await call('POST', '/categories', { name: 'news' })).toMatchObject({
      status: 400,
      body: { code: 'term_exists', data: { term_id: news.id } },
    });
    const tag = await call('POST', '/tags', { name: 'Tips & Tricks' });
    expect(tag.body).toMatchObject({ name: 'Tips &amp; Tricks', slug: 'tips-tricks' });
  });

  it('moves a deleted page to the bin unless forced', async () => {
    const p = (await call('POST', '/pages', { title: 'Temp', status: 'publish' })).body;
    expect((await call('DELETE', `/pages/${String(p.id)}`)).body.status).toBe('trash');
    expect((await call('DELETE', `/pages/${String(p.id)}?force=true`)).body.deleted).toBe(true);
    expect((await call('GET', `/pages/${String(p.id)}`)).status).toBe(404);
  });
});
