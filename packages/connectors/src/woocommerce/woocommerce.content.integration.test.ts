import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRequest } from '@replatform/emulators/woocommerce/testing/spec';
import { checkWpRequest } from '@replatform/emulators/woocommerce/testing/wp-spec';
import type { Page as ContentPage, Post } from '@replatform/canonical/content';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from '@replatform/emulators/woocommerce/woocommerce-emulator';
import { MemoryIdMap, readAll } from '../kit/conformance/conformance-suite.ts';
import type {
  Connection,
  ConnectorHttp,
  ConnectorHttpRequest,
  WriteOutcome,
} from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { blogPost, webPage } from './test-records.ts';
import { wooCommerceConnector } from './woocommerce.ts';

/**
 * Pages and blog posts read from and written into the emulator through wp/v2 with the
 * administrator's application password (it starts servers on 127.0.0.1).
 */

/** The engine's id map keeps the images each write stored: a later connection reuses them. */
class AssetIdMap extends MemoryIdMap {
  readonly assets = new Map<string, string>();
  asset(_kind: 'image', key: string): string | undefined {
    return this.assets.get(key);
  }
  keep(entity: 'pages' | 'posts', outcomes: WriteOutcome[]): void {
    this.record(entity, outcomes);
    for (const o of outcomes)
      for (const a of o.assets ?? []) this.assets.set(a.key, a.destinationId);
  }
}

/**
 * A request checked against the description of its namespace (wc/v3's index, or the store's wp/v2
 * description for pages and posts); a GET outside the REST API (an image's address) is none.
 */
function checkAnyRequest(r: ConnectorHttpRequest): string[] {
  const path = new URL(r.url).pathname;
  if (path.startsWith('/wp-json/wp/v2')) return checkWpRequest(r);
  if (!path.startsWith('/wp-json') && r.method === 'GET') return [];
  return checkRequest(r);
}

const recordings: ConnectorHttpRequest[][] = [];
afterAll(() => {
  const problems = recordings
    .flat()
    .flatMap((r) => checkAnyRequest(r).map((p) => `${r.method} ${new URL(r.url).pathname}: ${p}`));
  expect(problems).toEqual([]);
});

function connect(
  emu: RunningWooCommerceEmulator,
  options: { http?: ConnectorHttp; wordpress?: boolean } = {},
): Connection {
  const transport = options.http ?? loopbackHttp();
  if (!options.http) recordings.push((transport as ReturnType<typeof loopbackHttp>).requests);
  return wooCommerceConnector.connect(
    {
      storeUrl: emu.url,
      consumerKey: emu.consumerKey,
      consumerSecret: emu.consumerSecret,
      ...(options.wordpress === false
        ? {}
        : {
            wordpressUser: emu.wordpressUser,
            wordpressApplicationPassword: emu.wordpressApplicationPassword,
          }),
    },
    { http: transport },
  );
}

describe('WooCommerce pages and posts read from a seeded store', () => {
  const counts = { products: 6, customers: 1, orders: 1 };
  let emu: RunningWooCommerceEmulator;
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({ seed: counts });
  });
  afterAll(async () => {
    await emu.close();
  });

  it('reads every page with its tree, order, image and path, drafts included', async () => {
    const connection = connect(emu);
    expect(await connection.count('pages')).toBe(5);
    const pages = await readAll(connection, 'pages');
    expect(pages.map((p) => p.title)).toEqual([
      'About us',
      'Shipping & returns',
      'International shipping',
      'Contact',
      'Spring sale',
    ]);
    const [about, shipping, international, contact, sale] = pages as ContentPage[];
    expect(about).toMatchObject({
      slug: 'about-us',
      status: 'published',
      publishedAt: '2024-02-01T09:00:00Z',
      updatedAt: '2024-03-15T12:30:00Z',
      authorName: 'Store Admin',
      sourceUrlPath: '/about-us/',
      body: '<h2>Who we are</h2>\n<p>A small team in <strong>Portland</strong> selling goods made to last.</p>',
      seoTitle: '',
    });
    expect(international).toMatchObject({
      parentId: shipping?.id,
      position: 0,
      sourceUrlPath: '/shipping-returns/international-shipping/',
    });
    expect(contact?.featuredImageUrl).toMatch(/\/media\/pages\/contact\.png$/);
    expect(contact?.featuredImageAlt).toBe('Our shop front');
    expect(sale).toMatchObject({ status: 'draft', publishedAt: null, sourceUrlPath: null });
    expect(await connection.readByIds?.('pages', [String(about?.id)])).toEqual([about]);
  });

  it('reads posts with their categories, tags, excerpt and image by name', async () => {
    const connection = connect(emu);
    const posts = await readAll(connection, 'posts');
    expect(posts).toHaveLength(4);
    const linen = posts.find((p) => p.slug === 'caring-for-your-linen') as Post;
    expect(linen).toMatchObject({
      categories: ['Guides'],
      tags: ['linen', 'care'],
      excerpt: '<p>Three rules that keep linen soft for years.</p>',
      featuredImageAlt: 'Folded linen on a shelf',
      authorName: 'Maja Lind',
      blog: '',
      sourceUrlPath: '/caring-for-your-linen/',
    });
    const holidays = posts.find((p) => p.slug === 'holiday-opening-hours') as Post;
    // A post without categories is in WordPress's Uncategorized.
    expect(holidays).toMatchObject({ status: 'draft', publishedAt: null, categories: ['News'] });
  });

  it('refuses without an application password, saying what to add', async () => {
    const connection = connect(emu, { wordpress: false });
    const error = await connection.count('pages').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).errorClass).toBe('config');
    expect((error as ConnectorError).message).toMatch(
      /add a WordPress application password on the connect form to move pages and posts/,
    );
    await expect(readAll(connection, 'posts')).rejects.toThrow(/application password/);
  });

  it('checks the application password when the connection is made', async () => {
    await expect(connect(emu).check()).resolves.toMatchObject({ ok: true });
    const wrong = wooCommerceConnector.connect(
      {
        storeUrl: emu.url,
        consumerKey: emu.consumerKey,
        consumerSecret: emu.consumerSecret,
        wordpressUser: 'admin',
        wordpressApplicationPassword: 'aaaa bbbb cccc dddd eeee ffff',
      },
      { http: loopbackHttp() },
    );
    await expect(wrong.check()).rejects.toThrow(/WordPress refused the application password/);
  });
});

describe('WooCommerce pages and posts written into a store', () => {
  let source: RunningWooCommerceEmulator;
  let emu: RunningWooCommerceEmulator;
  beforeAll(async () => {
    source = await startWooCommerceEmulator({ seed: { products: 4, customers: 1, orders: 1 } });
    emu = await startWooCommerceEmulator({ seed: 'empty' });
  });
  afterAll(async () => {
    await Promise.all([source.close(), emu.close()]);
  });

  const image = () => `${source.url}/media/pages/contact.png`;

  it('creates a tree with its featured image, then skips it unchanged and updates a change', async () => {
    const connection = connect(emu);
    const ids = new AssetIdMap();
    const parent = webPage('p1', 'Shipping', { position: 1 });
    const child = webPage('p2', 'Abroad', {
      parentId: 'p1',
      featuredImageUrl: image(),
      featuredImageAlt: 'A map',
    });
    const first = await connection.write('pages', [parent], ids);
    ids.keep('pages', first);
    const second = await connection.write('pages', [child], ids);
    ids.keep('pages', second);
    expect([...first, ...second].map((o) => o.outcome)).toEqual(['created', 'created']);
    expect(second[0]?.assets?.[0]?.key).toBe(image());

    const read = await readAll(connection, 'pages');
    const abroad = read.find((p) => p.slug === 'abroad') as ContentPage;
    expect(abroad).toMatchObject({
      parentId: first[0]?.destinationId,
      featuredImageAlt: 'A map',
      sourceUrlPath: '/shipping/abroad/',
      status: 'published',
      publishedAt: '2024-02-01T09:00:00Z',
    });
    expect(abroad.featuredImageUrl).toMatch(/\/wp-content\/uploads\/.*contact\.png$/);

    const again = await connection.write('pages', [parent], ids);
    expect(again[0]).toMatchObject({ outcome: 'skipped', reason: 'Already up to date.' });
    const changed = await connect(emu).write('pages', [{ ...child, body: '<p>New text</p>' }], ids);
    expect(changed[0]).toMatchObject({ outcome: 'updated' });
    // The image is not uploaded twice: a new connection finds it in the id map.
    expect(emu.store.counts().attachments).toBe(1);
  });

  it('finds categories and tags by name or makes them, and keeps statuses and dates', async () => {
    const connection = connect(emu);
    const ids = new MemoryIdMap();
    const posts = [
      blogPost('b1', 'Linen care', { categories: ['Guides'], tags: ['linen', 'care'] }),
      blogPost('b2', 'Later', { status: 'scheduled', publishedAt: '2099-03-01T10:00:00Z' }),
      blogPost('b3', 'Notes', { status: 'draft', publishedAt: null, categories: ['guides'] }),
      blogPost('b4', 'Private', { status: 'private' }),
      blogPost('b5', 'Waiting', { status: 'pending', publishedAt: null, excerpt: '<p>Soon</p>' }),
    ];
    const outcomes = await connection.write('posts', posts, ids);
    ids.record('posts', outcomes);
    expect(outcomes.map((o) => o.outcome)).toEqual(Array(5).fill('created'));
    const read = await connection.readByIds?.(
      'posts',
      outcomes.map((o) => String(o.destinationId)),
    );
    const bySlug = new Map((read as Post[]).map((p) => [p.slug, p]));
    expect(bySlug.get('linen-care')).toMatchObject({
      categories: ['Guides'],
      tags: ['linen', 'care'],
    });
    expect(bySlug.get('later')).toMatchObject({
      status: 'scheduled',
      publishedAt: '2099-03-01T10:00:00Z',
      sourceUrlPath: null,
    });
    expect(bySlug.get('notes')).toMatchObject({ status: 'draft', categories: ['Guides'] });
    expect(bySlug.get('private')).toMatchObject({ status: 'private' });
    expect(bySlug.get('waiting')).toMatchObject({ status: 'pending', excerpt: '<p>Soon</p>' });
    // One category 'Guides' (found again in any case) next to Uncategorized.
    expect([...emu.store.wp.terms.values()].filter((t) => t.taxonomy === 'category')).toHaveLength(
      2,
    );
    const skipped = await connection.write('posts', posts, ids);
    expect(skipped.map((o) => o.outcome)).toEqual(Array(5).fill('skipped'));
  });

  it('finds a page whose answer was lost by its slug, and creates nothing twice', async () => {
    const inner = loopbackHttp();
    recordings.push(inner.requests);
    let lost = false;
    const http: ConnectorHttp = {
      async request(request: ConnectorHttpRequest) {
        const answer = await inner.request(request);
        if (!lost && request.method === 'POST' && request.url.includes('/wp/v2/pages')) {
          lost = true;
          throw new ConnectorError('transient', 'timeout', 'no answer in time');
        }
        return answer;
      },
    };
    const connection = connect(emu, { http });
    const ids = new MemoryIdMap();
    const page = webPage('lost1', 'Lost answer');
    // The create went through but its answer was lost: the page is found by its slug at once.
    const outcomes = await connection.write('pages', [page], ids);
    expect(lost).toBe(true);
    expect(outcomes[0]).toMatchObject({ outcome: 'created' });
    ids.record('pages', outcomes);
    expect((await connection.write('pages', [page], ids))[0]?.outcome).toBe('skipped');
    const same = [...emu.store.wp.posts.values()].filter((p) => p.slug.startsWith('lost-answer'));
    expect(same).toHaveLength(1);
    expect(outcomes[0]?.destinationId).toBe(String(same[0]?.id));
  });

  it('finds a draft that has no slug yet by its title, so a run without the id map creates it once', async () => {
    const connection = connect(emu);
    const draft = webPage('d1', 'Unnamed draft', { slug: '', status: 'draft', publishedAt: null });
    const [first] = await connection.write('pages', [draft], new MemoryIdMap());
    expect(first).toMatchObject({ outcome: 'created' });
    // Another connection, as after a crash that lost the id map's row.
    const [again] = await connect(emu).write('pages', [draft], new MemoryIdMap());
    expect(again).toMatchObject({ outcome: 'skipped', destinationId: first?.destinationId });
    const drafts = [...emu.store.wp.posts.values()].filter((p) => p.title === 'Unnamed draft');
    expect(drafts).toHaveLength(1);
  });

  it("links the merchant's own page of the same slug and never changes it", async () => {
    const mine = emu.store.wp.savePost('page', {
      title: 'Imprint',
      slug: 'imprint',
      content: '<p>The merchant’s own</p>',
      status: 'publish',
    });
    const connection = connect(emu);
    const ids = new MemoryIdMap();
    const outcomes = await connection.write('pages', [webPage('c1', 'Imprint')], ids);
    expect(outcomes[0]).toMatchObject({
      outcome: 'skipped',
      linked: true,
      destinationId: String(mine.id),
    });
    expect(outcomes[0]?.reason).toMatch(/merchant's own/);
    expect(emu.store.wp.posts.get(mine.id)?.content).toBe('<p>The merchant’s own</p>');
  });

  it('fails a page the store refuses with its reason, and writes the rest', async () => {
    const connection = connect(emu);
    const ids = new MemoryIdMap();
    const empty = webPage('e1', '', { slug: 'empty', body: '', excerpt: '' });
    const fine = webPage('e2', 'Fine page');
    const outcomes = await connection.write('pages', [empty, fine], ids);
    expect(outcomes[0]).toMatchObject({ outcome: 'failed' });
    expect(outcomes[0]?.reason).toMatch(/empty_content/);
    expect(outcomes[1]).toMatchObject({ outcome: 'created' });
  });

  it('writes without a featured image it cannot download, and says so', async () => {
    const connection = connect(emu);
    const outcomes = await connection.write(
      'posts',
      [blogPost('i1', 'Broken image', { featuredImageUrl: `${source.url}/media/missing.png` })],
      new MemoryIdMap(),
    );
    expect(outcomes[0]).toMatchObject({ outcome: 'created', incomplete: true });
    expect(outcomes[0]?.warnings?.[0]).toMatch(/could not copy the featured image/);
  });
});
