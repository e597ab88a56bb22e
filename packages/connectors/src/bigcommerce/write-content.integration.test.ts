import { afterAll, describe, expect, it } from 'vitest';
import { pageSchema, postSchema, type Page, type Post } from '@replatform/canonical/content';
import { pageDefaults, postDefaults } from '@replatform/canonical/defaults';
import {
  startBigCommerceEmulator,
  type BigCommerceEmulatorOptions,
  type RunningBigCommerceEmulator,
} from '@replatform/emulators/bigcommerce/bigcommerce-emulator';
import { BigCommerceSpec } from '@replatform/emulators/bigcommerce/openapi-validator';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type { ConnectorHttp, ConnectorHttpRequest } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { createBigCommerceConnector } from './bigcommerce-connector.ts';

const spec = new BigCommerceSpec();
const origins = new Map<string, string>();
const emulators: RunningBigCommerceEmulator[] = [];
let counter = 0;

const connector = createBigCommerceConnector({
  apiBaseUrl: (storeHash) => origins.get(storeHash) ?? 'http://127.0.0.1:9',
  retry: { baseDelayMs: 5, maxDelayMs: 50 },
  pageSizes: { posts: 2 },
});
const seed = { seed: 5, products: 2, customers: 0, orders: 0 };

async function store(options: BigCommerceEmulatorOptions): Promise<RunningBigCommerceEmulator> {
  counter += 1;
  const emulator = await startBigCommerceEmulator({
    storeHash: `content${counter}`,
    plan: 'unlimited',
    ...options,
  });
  origins.set(emulator.storeHash, emulator.url);
  emulators.push(emulator);
  return emulator;
}

function connect(emulator: RunningBigCommerceEmulator, http?: ConnectorHttp) {
  const loopback = loopbackHttp();
  const connection = connector.connect(
    { storeHash: emulator.storeHash, accessToken: emulator.accessToken },
    { http: http ?? loopback },
  );
  return { connection, requests: loopback.requests };
}

const specProblems = (requests: ConnectorHttpRequest[]) => [
  ...new Set(requests.flatMap((r) => spec.validateRequest(r))),
];

async function api(
  emulator: RunningBigCommerceEmulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${emulator.url}/stores/${emulator.storeHash}${path}`, {
    method,
    headers: { 'X-Auth-Token': emulator.accessToken, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** A page as WordPress would give it: author, dates, an excerpt, a featured image. */
const page = (over: Partial<Page>): Page =>
  pageSchema.parse({
    ...pageDefaults(),
    id: '10',
    title: 'About us',
    slug: 'about-us',
    body: '<p>Who we are.</p>',
    status: 'published',
    sourceUrlPath: '/about-us/',
    seoTitle: 'About',
    seoKeywords: ['about', 'team'],
    ...over,
  });

const post = (over: Partial<Post>): Post =>
  postSchema.parse({
    ...postDefaults(),
    id: '50',
    title: 'Caring for linen',
    slug: 'caring-for-linen',
    body: '<p>Wash at 40°.</p>',
    status: 'published',
    publishedAt: '2024-05-02T08:00:00.000Z',
    authorName: 'Maja Lind',
    tags: ['linen', 'care'],
    categories: ['Guides'],
    featuredImageUrl: 'https://example.com/linen.png',
    featuredImageAlt: 'Linen',
    seoTitle: 'Linen care',
    seoDescription: 'How to wash linen.',
    sourceUrlPath: '/2024/05/caring-for-linen/',
    ...over,
  });

afterAll(async () => {
  await Promise.all(emulators.map((e) => e.close()));
});

describe('BigCommerce web page writes', () => {
  it('creates a tree parents first, skips it unchanged, updates what changed', async () => {
    const destination = await store({ seed: 'empty' });
    const { connection, requests } = connect(destination);
    const idMap = new MemoryIdMap();
    const child = page({
      id: '11',
      title: 'International shipping',
      slug: 'international',
      sourceUrlPath: '/shipping/international/',
      parentId: '12',
      position: 1,
    });
    const parent = page({ id: '12', title: 'Shipping', slug: 'shipping', sourceUrlPath: null });
    const draft = page({
      id: '13',
      title: 'Spring sale',
      status: 'pending',
      sourceUrlPath: '/sale/',
    });
    // The child first: the writer puts its parent before it.
    const first = await connection.write('pages', [child, parent, draft], idMap);
    expect(first.map((o) => [o.sourceId, o.outcome])).toEqual([
      ['11', 'created'],
      ['12', 'created'],
      ['13', 'created'],
    ]);
    idMap.record('pages', first);
    expect(first[2]?.warnings?.join()).toMatch(/'pending' was written as hidden/);
    const stored = destination.state.webPages;
    const parentCopy = stored.find((p) => p.name === 'Shipping');
    expect(parentCopy?.url).toBe('/shipping/');
    expect(stored.find((p) => p.name === 'International shipping')).toMatchObject({
      parent_id: parentCopy?.id,
      sort_order: 1,
      url: '/shipping/international/',
      is_visible: true,
    });
    expect(stored.find((p) => p.name === 'Spring sale')?.is_visible).toBe(false);
    expect(stored.find((p) => p.name === 'International shipping')?.meta_keywords).toBe(
      'about,team',
    );

    const again = await connection.write('pages', [child, parent, draft], idMap);
    expect(again.map((o) => o.outcome)).toEqual(['skipped', 'skipped', 'skipped']);
    const changed = await connection.write(
      'pages',
      [{ ...child, body: '<p>Now to Japan too.</p>' }],
      idMap,
    );
    expect(changed[0]?.outcome).toBe('updated');
    expect(stored.find((p) => p.name === 'International shipping')?.body).toBe(
      '<p>Now to Japan too.</p>',
    );
    expect(stored).toHaveLength(3);
    expect(specProblems(requests)).toEqual([]);
  });

  it("links the merchant's page at the same path without changing it", async () => {
    const destination = await store({ seed: 'empty' });
    await api(destination, 'POST', '/v3/content/pages', {
      name: 'Our story',
      type: 'page',
      body: '<p>Merchant text</p>',
      url: '/about-us/',
    });
    const before = JSON.stringify(destination.state.webPages);
    const { connection, requests } = connect(destination);
    const [outcome] = await connection.write('pages', [page({})], new MemoryIdMap());
    expect(outcome).toMatchObject({ outcome: 'skipped', linked: true });
    expect(outcome?.reason).toMatch(/already existed at the destination/);
    expect(JSON.stringify(destination.state.webPages)).toBe(before);
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('fails a page BigCommerce cannot take, with the reason, and writes the others', async () => {
    const destination = await store({ seed: 'empty' });
    await api(destination, 'POST', '/v3/content/pages', {
      name: 'Contact',
      type: 'page',
      url: '/reach-us/',
    });
    const { connection } = connect(destination);
    const outcomes = await connection.write(
      'pages',
      [
        page({ id: '1', title: '' }),
        page({ id: '2', title: 'x'.repeat(101), sourceUrlPath: '/long/' }),
        page({ id: '3', title: 'Contact', sourceUrlPath: '/contact/' }),
        page({ id: '4' }),
      ],
      new MemoryIdMap(),
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['failed', 'failed', 'failed', 'created']);
    expect(outcomes[0]?.reason).toMatch(/no title/);
    expect(outcomes[1]?.reason).toMatch(/101 characters/);
    expect(outcomes[2]?.reason).toMatch(/names are unique/);
  });

  it('reads raw pages and contact forms, and reports menu links as not read', async () => {
    const source = await store({ seed });
    await api(source, 'POST', '/v3/content/pages', {
      name: 'Instagram',
      type: 'link',
      link: 'https://instagram.com/sample',
    });
    await api(source, 'POST', '/v3/content/pages', {
      name: 'Landing',
      type: 'raw',
      body: '<html><body>Hi</body></html>',
      url: '/landing/',
    });
    const { connection } = connect(source);
    const pages = [];
    const rejected = [];
    for await (const p of connection.read('pages', null)) {
      pages.push(...p.records);
      rejected.push(...(p.rejected ?? []));
    }
    expect(pages).toHaveLength(6);
    expect(await connection.count('pages')).toBe(6);
    expect(rejected).toEqual([
      {
        sourceId: expect.any(String),
        reason: expect.stringMatching(/menu link to https:\/\/instagram/),
      },
    ]);
    const contact = pages.find((p) => p.title === 'Contact');
    expect(contact?.metafields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'type', value: 'contact_form' }),
        expect.objectContaining({ key: 'email', value: 'hello@example.com' }),
      ]),
    );
    const raw = pages.find((p) => p.title === 'Landing');
    expect(raw?.body).toBe('<html><body>Hi</body></html>');
    const international = pages.find((p) => p.title === 'International shipping');
    const shipping = pages.find((p) => p.title === 'Shipping & returns');
    expect(international?.parentId).toBe(shipping?.id);
    expect(pages.find((p) => p.title === 'Spring sale')?.status).toBe('draft');

    // BigCommerce to BigCommerce: the contact form and the raw page keep their kind.
    const destination = await store({ seed: 'empty' });
    const idMap = new MemoryIdMap();
    const ordered = [...pages].sort(
      (a, b) => Number(a.parentId !== null) - Number(b.parentId !== null),
    );
    const outcomes = await connect(destination).connection.write('pages', ordered, idMap);
    expect(outcomes.every((o) => o.outcome === 'created')).toBe(true);
    expect(destination.state.webPages.map((p) => p.type).sort()).toEqual([
      'contact_form',
      'page',
      'page',
      'page',
      'page',
      'raw',
    ]);
  });
});

describe('BigCommerce blog post writes', () => {
  it('creates posts with tags, author and date, skips unchanged ones, updates changed ones', async () => {
    const destination = await store({ seed: 'empty' });
    const { connection, requests } = connect(destination);
    const idMap = new MemoryIdMap();
    const scheduled = post({
      id: '51',
      title: 'Summer lookbook',
      status: 'scheduled',
      publishedAt: '2030-06-01T08:00:00.000Z',
      sourceUrlPath: null,
      slug: 'summer-lookbook',
      featuredImageUrl: null,
    });
    const first = await connection.write('posts', [post({}), scheduled], idMap);
    expect(first.map((o) => o.outcome)).toEqual(['created', 'created']);
    idMap.record('posts', first);
    expect(first[1]?.warnings?.join()).toMatch(/unpublished with its date/);
    const [linen, summer] = destination.state.blogPosts;
    expect(linen).toMatchObject({
      title: 'Caring for linen',
      url: '/2024/05/caring-for-linen/',
      tags: ['linen', 'care'],
      author: 'Maja Lind',
      is_published: true,
      meta_description: 'How to wash linen.',
      thumbnail_path: '',
      published_date: Date.parse('2024-05-02T08:00:00Z'),
    });
    expect(summer).toMatchObject({ url: '/blog/summer-lookbook/', is_published: false });

    const again = await connection.write('posts', [post({}), scheduled], idMap);
    expect(again.map((o) => o.outcome)).toEqual(['skipped', 'skipped']);
    const changed = await connection.write('posts', [post({ tags: ['linen'] })], idMap);
    expect(changed[0]?.outcome).toBe('updated');
    expect(destination.state.blogPosts[0]?.tags).toEqual(['linen']);
    // An update sends is_published again, so a published post stays published.
    expect(destination.state.blogPosts[0]?.is_published).toBe(true);
    expect(destination.state.blogPosts).toHaveLength(2);
    expect(specProblems(requests)).toEqual([]);
  });

  it("links the merchant's post at the same path without changing it", async () => {
    const destination = await store({ seed: 'empty' });
    await api(destination, 'POST', '/v2/blog/posts', {
      title: 'Mine',
      body: 'merchant',
      url: '/2024/05/caring-for-linen/',
    });
    const before = JSON.stringify(destination.state.blogPosts);
    const { connection, requests } = connect(destination);
    const [outcome] = await connection.write('posts', [post({})], new MemoryIdMap());
    expect(outcome).toMatchObject({ outcome: 'skipped', linked: true });
    expect(JSON.stringify(destination.state.blogPosts)).toBe(before);
    expect(requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('finds a post whose create answer was lost instead of creating it again', async () => {
    const destination = await store({ seed: 'empty' });
    const inner = loopbackHttp();
    let cut = false;
    const lossy: ConnectorHttp = {
      async request(request) {
        const response = await inner.request(request);
        if (request.method === 'POST' && !cut) {
          cut = true;
          throw new Error('socket hang up');
        }
        return response;
      },
    };
    const { connection } = connect(destination, lossy);
    const [outcome] = await connection.write('posts', [post({})], new MemoryIdMap());
    expect(outcome?.outcome).toBe('created');
    expect(destination.state.blogPosts).toHaveLength(1);
  });

  it('fails a post without a title or with a longer one; one without a path gets a path from BigCommerce', async () => {
    const destination = await store({ seed: 'empty' });
    const { connection } = connect(destination);
    const outcomes = await connection.write(
      'posts',
      [
        post({ id: '1', title: '  ' }),
        post({ id: '2', sourceUrlPath: null, slug: '' }),
        post({ id: '3', title: 'x'.repeat(256) }),
      ],
      new MemoryIdMap(),
    );
    expect(outcomes.map((o) => o.outcome)).toEqual(['failed', 'created', 'failed']);
    expect(outcomes[0]?.reason).toMatch(/no title/);
    expect(outcomes[1]?.warnings?.join()).toMatch(/no storefront path/);
    expect(outcomes[2]?.reason).toMatch(/255/);
  });

  it('reads posts page by page with checkpoints, the thumbnail at its storefront address', async () => {
    const source = await store({ seed });
    const { connection, requests } = connect(source);
    const posts = await readAll(connection, 'posts');
    expect(posts).toHaveLength(4);
    expect(await connection.count('posts')).toBe(4);
    const linen = posts.find((p) => p.title === 'Caring for your linen');
    expect(linen).toMatchObject({
      slug: 'caring-for-your-linen',
      sourceUrlPath: '/blog/caring-for-your-linen/',
      tags: ['linen', 'care'],
      authorName: 'Maja Lind',
      status: 'published',
      publishedAt: '2024-05-02T08:00:00.000Z',
      seoDescription: 'How to wash, dry and iron linen.',
      categories: [],
      seoTitle: '',
      featuredImageUrl: `${source.url}/product_images/uploaded_images/caring-for-your-linen.png`,
    });
    expect(linen?.excerpt).toBe(
      'Wash at 40°, dry flat, and iron while damp. Stains Cold water first.',
    );
    expect(posts.find((p) => p.title === 'Holiday opening hours')?.status).toBe('draft');
    // The second page read again from its checkpoint.
    const pages = [];
    for await (const p of connection.read('posts', null)) pages.push(p);
    expect(pages.length).toBeGreaterThan(1);
    const resumed = [];
    for await (const p of connection.read('posts', pages[0]?.next ?? null))
      resumed.push(...p.records);
    expect(resumed.map((p) => p.id)).toEqual(posts.slice(2).map((p) => p.id));
    expect(specProblems(requests)).toEqual([]);
  });
});
