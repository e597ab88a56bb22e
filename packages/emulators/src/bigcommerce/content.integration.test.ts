import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startBigCommerceEmulator,
  type RunningBigCommerceEmulator,
} from './bigcommerce-emulator.ts';
import { BigCommerceSpec } from './openapi-validator.ts';

const spec = new BigCommerceSpec();
const sample = { seed: 5, products: 4, customers: 0, orders: 0 };

interface Answer {
  status: number;
  body: unknown;
}

/** Requests checked against pages.v3.yml / store_content.v2.yml, and answers the store took. */
function client(emulator: RunningBigCommerceEmulator, token = emulator.accessToken) {
  return async (
    method: string,
    path: string,
    body?: unknown,
    checkAnswer = true,
  ): Promise<Answer> => {
    const url = `${emulator.url}/stores/${emulator.storeHash}${path}`;
    const headers = {
      'X-Auth-Token': token,
      Accept: 'application/json',
      'Content-Type': 'application/json',
    };
    const text = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(url, { method, headers, body: text });
    const raw = await response.text();
    const parsed: unknown = raw ? JSON.parse(raw) : undefined;
    if (response.status < 300) {
      expect(spec.validateRequest({ method, url, headers, body: text })).toEqual([]);
      if (parsed !== undefined && checkAnswer)
        expect(
          spec.validateResponse(method, url, { status: response.status, body: parsed }),
        ).toEqual([]);
    }
    return { status: response.status, body: parsed };
  };
}

type Json = Record<string, unknown>;
const data = (answer: Answer) => (answer.body as { data: Json[] }).data;
const one = (answer: Answer) => (answer.body as { data: Json }).data;

describe('BigCommerce emulator: web pages (pages v3)', () => {
  let store: RunningBigCommerceEmulator;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    store = await startBigCommerceEmulator({ seed: sample, plan: 'unlimited' });
    call = client(store);
  });
  afterAll(async () => {
    await store.close();
  });

  it("seeds the sample's pages as BigCommerce holds them", async () => {
    expect(store.countStored('pages')).toBe(5);
    const pages = data(await call('GET', '/v3/content/pages?include=body'));
    expect(pages.map((p) => p.name)).toEqual([
      'About us',
      'Shipping & returns',
      'International shipping',
      'Contact',
      'Spring sale',
    ]);
    const about = pages[0] ?? {};
    expect(about).toMatchObject({
      type: 'page',
      url: '/about-us/',
      is_visible: true,
      meta_title: 'About the Sample Store',
      parent_id: 0,
    });
    expect(String(about.body)).toContain('<h2>Who we are</h2>');
    expect(pages[2]?.parent_id).toBe(pages[1]?.id);
    expect(pages[3]).toMatchObject({ type: 'contact_form', email: 'hello@example.com' });
    expect(pages[4]?.is_visible).toBe(false);
    // Without include=body there is no body.
    const bare = data(await call('GET', '/v3/content/pages?limit=2&page=1'));
    expect(bare).toHaveLength(2);
    expect(bare[0]).not.toHaveProperty('body');
  });

  it('creates pages one or many, with a path made from the name when none is given', async () => {
    const single = await call('POST', '/v3/content/pages', {
      name: 'Our story',
      type: 'page',
      body: '<p>Since 1987.</p>',
    });
    expect(single.status).toBe(201);
    expect(one(single)).toMatchObject({ name: 'Our story', url: '/our-story/', is_visible: true });
    // An array answers an array ("Response.data will inherit the data type of the request"),
    // which the description's answer schema, an object, does not cover.
    const many = await call(
      'POST',
      '/v3/content/pages',
      [
        { name: 'Raw page', type: 'raw', body: '<html></html>', url: '/raw/' },
        { name: 'Instagram', type: 'link', link: 'https://instagram.com/sample' },
      ],
      false,
    );
    expect(many.status).toBe(201);
    expect(data(many).map((p) => p.type)).toEqual(['raw', 'link']);
    // A link is no content page.
    expect(store.countStored('pages')).toBe(7);
  });

  it('refuses invalid pages with 422 and a detail, creating the valid ones of a bulk', async () => {
    const cases: [unknown, RegExp][] = [
      [{ name: 'About us', type: 'page' }, /unique/],
      [{ name: 'Other', type: 'page', url: '/about-us/' }, /url/],
      [{ name: 'Raw', type: 'raw' }, /body/],
      [{ name: 'Link', type: 'link' }, /link/],
      [{ name: 'Blog', type: 'blog' }, /control panel/],
      [{ name: 'Orphan', type: 'page', parent_id: 9999 }, /parent_id/],
      [{ name: 'x'.repeat(101), type: 'page' }, /name/],
      [{ type: 'page' }, /name/],
      [{ name: 'Odd', type: 'page', author: 'Me' }, /author/],
    ];
    for (const [body, detail] of cases) {
      const answer = await call('POST', '/v3/content/pages', body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect((answer.body as { detail: string }).detail).toMatch(detail);
    }
    const before = store.state.webPages.length;
    const bulk = await call('POST', '/v3/content/pages', [
      { name: 'Fine', type: 'page' },
      { name: 'Raw again', type: 'raw' },
    ]);
    expect(bulk.status).toBe(422);
    expect(store.state.webPages.length).toBe(before + 1);
  });

  it('updates one page or several, keeping what is not named', async () => {
    const [about] = data(await call('GET', '/v3/content/pages?name=About%20us'));
    const id = Number(about?.id);
    const answer = await call('PUT', `/v3/content/pages/${id}`, { meta_description: 'New' });
    expect(one(answer)).toMatchObject({ name: 'About us', meta_description: 'New' });
    const bulk = await call('PUT', '/v3/content/pages', [{ id, sort_order: 7 }]);
    expect(data(bulk)[0]).toMatchObject({ id, sort_order: 7, meta_description: 'New' });
    expect((await call('PUT', '/v3/content/pages/9999', { name: 'x' })).status).toBe(404);
  });

  it('moves the children of a deleted page to the top, hidden', async () => {
    const pages = data(await call('GET', '/v3/content/pages'));
    const parent = pages.find((p) => p.name === 'Shipping & returns');
    const child = pages.find((p) => p.name === 'International shipping');
    expect((await call('DELETE', `/v3/content/pages/${String(parent?.id)}`)).status).toBe(204);
    const after = one(await call('GET', `/v3/content/pages/${String(child?.id)}`));
    expect(after).toMatchObject({ parent_id: 0, is_visible: false });
    expect((await call('DELETE', '/v3/content/pages')).status).toBe(422);
  });

  it('asks for the Content scope', async () => {
    const reader = await startBigCommerceEmulator({
      seed: 'empty',
      plan: 'unlimited',
      apiAccounts: [{ accessToken: 'ro', scopes: ['store_v2_content_read_only'] }],
    });
    try {
      const ro = client(reader, 'ro');
      expect((await ro('GET', '/v3/content/pages')).status).toBe(200);
      expect((await ro('POST', '/v3/content/pages', { name: 'x', type: 'page' })).status).toBe(403);
      expect((await ro('GET', '/v2/blog/posts/count')).status).toBe(200);
    } finally {
      await reader.close();
    }
  });
});

describe('BigCommerce emulator: blog posts (store content v2)', () => {
  let store: RunningBigCommerceEmulator;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    store = await startBigCommerceEmulator({ seed: sample, plan: 'unlimited' });
    call = client(store);
  });
  afterAll(async () => {
    await store.close();
  });

  it("seeds the sample's posts as BigCommerce holds them, newest first", async () => {
    expect(((await call('GET', '/v2/blog/posts/count')).body as { count: number }).count).toBe(4);
    const posts = (await call('GET', '/v2/blog/posts')).body as Json[];
    expect(posts.map((p) => p.title)).toEqual([
      'Holiday opening hours',
      'Our summer lookbook',
      'Behind the brand: Fjällbo',
      'Caring for your linen',
    ]);
    const linen = posts[3] ?? {};
    expect(linen).toMatchObject({
      url: '/blog/caring-for-your-linen/',
      tags: ['linen', 'care'],
      is_published: true,
      author: 'Maja Lind',
      meta_description: 'How to wash, dry and iron linen.',
      thumbnail_path: '/product_images/uploaded_images/caring-for-your-linen.png',
      published_date_iso8601: '2024-05-02T08:00:00+0000',
    });
    expect(linen.summary).toBe(
      'Wash at 40°, dry flat, and iron while damp. Stains Cold water first.',
    );
    expect(posts[0]?.is_published).toBe(false);
    const image = await fetch(`${store.url}${String(linen.thumbnail_path)}`);
    expect(image.headers.get('content-type')).toBe('image/png');
    // getBlogTags answers an array of `blogTags`, itself an array type, where each item is one
    // tag with its posts (its text: "Returns a list of Blog Tags"): the flat list is answered.
    const tags = (await call('GET', '/v2/blog/tags', undefined, false)).body as { tag: string }[];
    expect(tags.map((t) => t.tag)).toContain('Fjällbo');
  });

  it('filters by path, tag and state, pages, and answers 204 past the end', async () => {
    const byUrl = (await call('GET', '/v2/blog/posts?url=%2Fblog%2Four-summer-lookbook%2F'))
      .body as Json[];
    expect(byUrl.map((p) => p.title)).toEqual(['Our summer lookbook']);
    const tagged = (await call('GET', '/v2/blog/posts?tag=care')).body as Json[];
    expect(tagged).toHaveLength(1);
    const drafts = (await call('GET', '/v2/blog/posts?is_published=false')).body as Json[];
    expect(drafts.map((p) => p.title)).toEqual(['Holiday opening hours']);
    expect(((await call('GET', '/v2/blog/posts?limit=3&page=2')).body as Json[]).length).toBe(1);
    expect((await call('GET', '/v2/blog/posts?limit=3&page=3')).status).toBe(204);
  });

  it('creates a draft by default with a path from the title; paths are unique', async () => {
    const created = await call('POST', '/v2/blog/posts', { title: 'New things', body: '<p>x</p>' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ url: '/blog/new-things/', is_published: false });
    const again = await call('POST', '/v2/blog/posts', {
      title: 'Other',
      body: 'y',
      url: '/blog/new-things/',
    });
    expect(again.status).toBe(409);
    expect((again.body as { message: string }[])[0]?.message).toMatch(/already used/);
    const dated = await call('POST', '/v2/blog/posts', {
      title: 'Dated',
      body: 'z',
      is_published: true,
      published_date: 'Tue, 01 Oct 2024 10:00:00 +0200',
    });
    expect((dated.body as Json).published_date_iso8601).toBe('2024-10-01T08:00:00+0000');
  });

  it('refuses invalid posts with 422', async () => {
    for (const body of [
      { title: 'No body' },
      { body: 'no title' },
      { title: 'x', body: 'y', published_date: '2024-10-01' },
      { title: 'x', body: 'y', summary: 'read-only' },
      { title: 'x', body: 'y', url: 'no-slash' },
    ]) {
      const answer = await call('POST', '/v2/blog/posts', body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(Array.isArray(answer.body)).toBe(true);
    }
  });

  it('unpublishes a post updated without is_published, as the description warns', async () => {
    const [post] = (await call('GET', '/v2/blog/posts?url=%2Fblog%2Fcaring-for-your-linen%2F'))
      .body as Json[];
    const id = Number(post?.id);
    const kept = await call('PUT', `/v2/blog/posts/${id}`, {
      title: 'Caring for linen',
      body: '<p>b</p>',
      is_published: true,
    });
    expect(kept.body).toMatchObject({ is_published: true, tags: ['linen', 'care'] });
    const dropped = await call('PUT', `/v2/blog/posts/${id}`, { title: 'T', body: 'b' });
    expect((dropped.body as Json).is_published).toBe(false);
    expect((await call('DELETE', `/v2/blog/posts/${id}`)).status).toBe(204);
    expect((await call('GET', `/v2/blog/posts/${id}`)).status).toBe(404);
  });
});
