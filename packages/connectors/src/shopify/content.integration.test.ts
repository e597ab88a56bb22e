import { afterAll, describe, expect, it } from 'vitest';
import { pageSchema, postSchema, type Page, type Post } from '@replatform/canonical/content';
import { pageDefaults, postDefaults } from '@replatform/canonical/defaults';
import { validateShopifyRequests } from '@replatform/emulators/shopify/request-validator';
import {
  startShopifyEmulator,
  type ShopifyEmulator,
  type ShopifyEmulatorOptions,
} from '@replatform/emulators/shopify/shopify-emulator';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { ConnectorHttpRequest } from '../kit/contract.ts';
import { connectShopify } from './shopify-connector.ts';
import {
  allRecordedRequests,
  routeShop,
  shopRoutingHttp,
  testShopDomain,
  type RecordingHttp,
} from './test-support.ts';

/**
 * Pages and blog articles against the emulated shop: read from the seeded sample store (SEO from
 * the global metafields, statuses, blog, image), written into an empty one (template, SEO, image,
 * tags, blog found or created), skipped unchanged, updated changed, found again after a lost
 * answer or without the id map, the merchant's own page linked and left alone, and a record
 * Shopify refuses failed with the reason. Every request is valid against the 2026-10 schema.
 */

const emulators: ShopifyEmulator[] = [];
const unroutes: (() => void)[] = [];
afterAll(async () => {
  for (const unroute of unroutes) unroute();
  await Promise.all(emulators.map((e) => e.close()));
  expect(validateShopifyRequests(allRecordedRequests)).toEqual([]);
});

const clock = () => Date.parse('2026-10-15T12:00:00Z');

async function startStore(label: string, options: ShopifyEmulatorOptions = {}) {
  const shopDomain = testShopDomain(label);
  const emulator = await startShopifyEmulator({
    shops: [shopDomain],
    seed: 'empty',
    plan: 'plus',
    clock,
    ...options,
  });
  emulators.push(emulator);
  unroutes.push(routeShop(shopDomain, emulator.url));
  return { emulator, credentials: { shopDomain, accessToken: emulator.accessToken } };
}

type Store = Awaited<ReturnType<typeof startStore>>;

function connect(store: Store, http: RecordingHttp = shopRoutingHttp()) {
  return {
    connection: connectShopify(store.credentials, { http }, { backoffMs: 5, now: clock }),
    http,
  };
}

const bodyOf = (r: ConnectorHttpRequest) =>
  typeof r.body === 'string'
    ? (JSON.parse(r.body) as { operationName?: string; variables?: Record<string, unknown> })
    : {};
const sent = (http: RecordingHttp, name: string) =>
  http.requests.map(bodyOf).filter((b) => b.operationName === name);

function page(id: string, more: Partial<Page> = {}): Page {
  return pageSchema.parse({
    ...pageDefaults(),
    id,
    title: `Page ${id}`,
    slug: `page-${id}`,
    body: `<p>Body ${id}</p>`,
    status: 'published',
    publishedAt: '2024-01-01T00:00:00.000Z',
    sourceUrlPath: `/page-${id}/`,
    ...more,
  });
}

function post(id: string, more: Partial<Post> = {}): Post {
  return postSchema.parse({
    ...postDefaults(),
    id,
    title: `Post ${id}`,
    slug: `post-${id}`,
    body: `<p>Post ${id}</p>`,
    status: 'published',
    publishedAt: '2024-02-01T00:00:00.000Z',
    authorName: 'Ann',
    sourceUrlPath: `/post-${id}/`,
    ...more,
  });
}

describe('reading pages and blog articles', () => {
  it('maps the seeded pages and articles, page by page', async () => {
    const store = await startStore('content-read', {
      seed: { seed: 3, products: 2, customers: 1, orders: 1 },
    });
    const { connection } = connect(store);
    expect(await connection.count('pages')).toBe(5);
    expect(await connection.count('posts')).toBe(4);
    const pages = await readAll(connection, 'pages');
    expect(pages).toHaveLength(5);
    const about = pages.find((p) => p.title === 'About us');
    expect(about).toMatchObject({
      slug: 'about-us',
      status: 'published',
      publishedAt: '2024-02-01T09:00:00.000Z',
      seoTitle: 'About the Sample Store',
      seoDescription: 'Who runs the Sample Store, and why.',
      metafields: [],
      sourceUrlPath: '/pages/about-us',
      parentId: null,
    });
    expect(pages.find((p) => p.title === 'Contact')?.metafields).toEqual([
      {
        namespace: 'shopify',
        key: 'template_suffix',
        value: 'contact',
        type: 'single_line_text_field',
      },
    ]);
    expect(pages.find((p) => p.title === 'Spring sale')).toMatchObject({
      status: 'draft',
      publishedAt: null,
      sourceUrlPath: null,
    });
    const posts = await readAll(connection, 'posts');
    const linen = posts.find((p) => p.slug === 'caring-for-your-linen');
    expect(linen).toMatchObject({
      blog: 'News',
      excerpt: '<p>Three rules that keep linen soft for years.</p>',
      authorName: 'Maja Lind',
      featuredImageAlt: 'Folded linen on a shelf',
      tags: ['care', 'linen'],
      categories: [],
      seoTitle: 'Linen care guide',
      sourceUrlPath: '/blogs/news/caring-for-your-linen',
    });
    expect(linen?.featuredImageUrl).toMatch(/caring-for-your-linen\.png$/);
    expect(posts.find((p) => p.slug === 'holiday-opening-hours')?.status).toBe('draft');
  });
});

describe('writing pages and blog articles', () => {
  it('creates pages with SEO and template, skips them unchanged and updates them changed', async () => {
    const store = await startStore('content-pages');
    const { connection, http } = connect(store);
    const idMap = new MemoryIdMap();
    const about = page('1', {
      seoTitle: 'About',
      seoDescription: 'Who we are',
      metafields: [
        {
          namespace: 'shopify',
          key: 'template_suffix',
          value: 'wide',
          type: 'single_line_text_field',
        },
        { namespace: 'custom', key: 'note', value: 'x', type: 'text' },
      ],
      parentId: null,
    });
    const child = page('2', { parentId: '1', position: 1, status: 'pending' });
    const later = page('3', { status: 'scheduled', publishedAt: '2027-03-01T00:00:00.000Z' });
    const first = await connection.write('pages', [about, child, later], idMap);
    expect(first.map((o) => o.outcome)).toEqual(['created', 'created', 'created']);
    idMap.record('pages', first);
    const shop = store.emulator.shop();
    const written = [...shop.pages.values()];
    expect(written.map((p) => [p.handle, p.templateSuffix, p.publishedAt])).toEqual([
      ['page-1', 'wide', '2024-01-01T00:00:00Z'],
      ['page-2', null, null],
      ['page-3', null, '2027-03-01T00:00:00Z'],
    ]);
    expect(written[0]?.metafields.map((m) => `${m.namespace}.${m.key}=${m.value}`).sort()).toEqual([
      'custom.note=x',
      'global.description_tag=Who we are',
      'global.title_tag=About',
      'replatform.source_id=1',
    ]);

    // Read back: what Shopify holds of them.
    const back = await readAll(connection, 'pages');
    expect(back.map((p) => p.status)).toEqual(['published', 'draft', 'scheduled']);
    expect(back[0]).toMatchObject({ seoTitle: 'About', seoDescription: 'Who we are' });

    const again = await connection.write('pages', [about, child, later], idMap);
    expect(again.map((o) => o.outcome)).toEqual(['skipped', 'skipped', 'skipped']);
    const changed = await connection.write('pages', [{ ...about, body: '<p>New</p>' }], idMap);
    expect(changed[0]).toMatchObject({
      outcome: 'updated',
      destinationId: first[0]?.destinationId,
    });
    expect(written[0]?.body).toBe('<p>New</p>');
    expect(sent(http, 'PageCreate')).toHaveLength(3);
    expect(store.emulator.countStored('pages')).toBe(3);
  });

  it("links the merchant's own page of the same handle and leaves it alone", async () => {
    const store = await startStore('content-own');
    const { connection } = connect(store);
    const shop = store.emulator.shop();
    const id = shop.nextId();
    shop.pages.set(id, {
      id,
      handle: 'page-1',
      title: 'Their page',
      body: '<p>Theirs</p>',
      publishedAt: '2020-01-01T00:00:00Z',
      templateSuffix: null,
      metafields: [],
      createdAt: '2020-01-01T00:00:00Z',
      updatedAt: '2020-01-01T00:00:00Z',
    });
    const [outcome] = await connection.write('pages', [page('1')], new MemoryIdMap());
    expect(outcome).toMatchObject({
      outcome: 'skipped',
      linked: true,
      destinationId: `gid://shopify/Page/${id}`,
    });
    expect(outcome?.reason).toMatch(/not created by this migration/);
    expect(shop.pages.get(id)).toMatchObject({ title: 'Their page', body: '<p>Theirs</p>' });
    expect(store.emulator.countStored('pages')).toBe(1);
  });

  it('finds a page whose answer was lost, and pages of an earlier run without the id map', async () => {
    const store = await startStore('content-lost');
    const inner = shopRoutingHttp();
    let lost = 0;
    const flaky: RecordingHttp = {
      requests: inner.requests,
      async request(request) {
        const answer = await inner.request(request);
        if (lost === 0 && bodyOf(request).operationName === 'PageCreate') {
          lost += 1;
          return { status: 502, headers: {}, body: new TextEncoder().encode('bad gateway') };
        }
        return answer;
      },
    };
    const { connection } = connect(store, flaky);
    const outcomes = await connection.write('pages', [page('1')], new MemoryIdMap());
    expect(lost).toBe(1);
    expect(outcomes[0]?.outcome).toBe('created');
    expect(store.emulator.countStored('pages')).toBe(1);
    const rerun = await connection.write('pages', [page('1')], new MemoryIdMap());
    expect(rerun[0]).toMatchObject({
      outcome: 'skipped',
      destinationId: outcomes[0]?.destinationId,
    });
    expect(rerun[0]?.linked).toBeUndefined();
    expect(store.emulator.countStored('pages')).toBe(1);
  });

  it('finds its own page without a handle again by title and marker, never the merchant’s', async () => {
    const store = await startStore('content-noslug');
    const { connection } = connect(store);
    const first = await connection.write(
      'pages',
      [page('1', { slug: '', title: 'FAQ' })],
      new MemoryIdMap(),
    );
    expect(first[0]?.outcome).toBe('created');
    const again = await connection.write(
      'pages',
      [page('1', { slug: '', title: 'FAQ' })],
      new MemoryIdMap(),
    );
    expect(again[0]).toMatchObject({ outcome: 'skipped', destinationId: first[0]?.destinationId });
    // Another source page of the same title is not ours: it becomes a page of its own.
    const other = await connection.write(
      'pages',
      [page('2', { slug: '', title: 'FAQ' })],
      new MemoryIdMap(),
    );
    expect(other[0]?.outcome).toBe('created');
    expect([...store.emulator.shop().pages.values()].map((p) => p.handle)).toEqual([
      'faq',
      'faq-1',
    ]);
  });

  it('fails a page Shopify cannot take, with the reason, and writes the rest', async () => {
    const store = await startStore('content-refused');
    const { connection } = connect(store);
    const outcomes = await connection.write(
      'pages',
      [page('1', { title: '' }), page('2')],
      new MemoryIdMap(),
    );
    expect(outcomes[0]).toMatchObject({ outcome: 'failed' });
    expect(outcomes[0]?.reason).toMatch(/needs a title/);
    expect(outcomes[1]?.outcome).toBe('created');
  });

  it('writes articles into their blog (found or created), with image, tags and summary', async () => {
    const source = await startStore('content-media', {
      seed: { seed: 3, products: 1, customers: 1, orders: 1 },
    });
    const [linen] = (await readAll(connect(source).connection, 'posts')).filter(
      (p) => p.slug === 'caring-for-your-linen',
    );
    const store = await startStore('content-posts');
    const { connection, http } = connect(store);
    const idMap = new MemoryIdMap();
    const posts = [
      { ...(linen as Post), id: 'a', categories: ['Guides'] },
      post('b', { blog: 'Recipes', tags: ['z', 'a'] }),
      post('c', { blog: '' }),
      post('d', { authorName: '' }),
      post('e', { featuredImageUrl: 'http://images.invalid/x.png' }),
    ];
    const outcomes = await connection.write('posts', posts, idMap);
    expect(outcomes.map((o) => o.outcome)).toEqual([
      'created',
      'created',
      'created',
      'failed',
      'failed',
    ]);
    expect(outcomes[3]?.reason).toMatch(/author/);
    expect(outcomes[4]?.reason).toMatch(/Shopify refused the blog article: image\.url/);
    idMap.record('posts', outcomes);
    const shop = store.emulator.shop();
    expect([...shop.blogs.values()].map((b) => b.title)).toEqual(['News', 'Recipes']);
    expect(sent(http, 'BlogCreate')).toHaveLength(2);
    const back = await readAll(connection, 'posts');
    expect(back.map((p) => [p.blog, p.tags])).toEqual([
      ['News', ['care', 'linen']],
      ['Recipes', ['a', 'z']],
      ['News', []],
    ]);
    expect(back[0]).toMatchObject({
      excerpt: '<p>Three rules that keep linen soft for years.</p>',
      featuredImageAlt: 'Folded linen on a shelf',
      authorName: 'Maja Lind',
      seoTitle: 'Linen care guide',
    });
    expect(back[0]?.featuredImageUrl).toMatch(/\/cdn\/shop\/files\//);

    const again = await connection.write('posts', posts.slice(0, 3), idMap);
    expect(again.map((o) => o.outcome)).toEqual(['skipped', 'skipped', 'skipped']);
    const retitled = await connection.write(
      'posts',
      [{ ...(posts[1] as Post), tags: ['new'] }],
      idMap,
    );
    expect(retitled[0]?.outcome).toBe('updated');
    expect(store.emulator.countStored('posts')).toBe(3);
  });
});
