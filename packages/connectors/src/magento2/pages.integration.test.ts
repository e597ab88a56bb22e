import type { Page as WebPage } from '@replatform/canonical/content';
import { pageDefaults } from '@replatform/canonical/defaults';
import type { EntityType } from '@replatform/canonical/entities';
import { adminSchema } from '@replatform/emulators/magento2/admin-schema';
import {
  startMagentoEmulator,
  type MagentoEmulator,
} from '@replatform/emulators/magento2/magento-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Connection,
  ConnectorHttp,
  ConnectorHttpRequest,
  IdMap,
  Page,
} from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';
import { magentoConnector } from './magento-connector.ts';

const recorded: ConnectorHttpRequest[][] = [];

/** A transport that loses the answer of the first page create (the create itself happens). */
function losingFirstCreate(): ConnectorHttp {
  const http = loopbackHttp();
  recorded.push(http.requests);
  let lost = false;
  return {
    async request(request) {
      const response = await http.request(request);
      if (!lost && request.method === 'POST' && request.url.endsWith('/V1/cmsPage')) {
        lost = true;
        throw new Error('socket hang up');
      }
      return response;
    },
  };
}

function connect(emulator: MagentoEmulator, http?: ConnectorHttp): Connection {
  const transport = http ?? loopbackHttp();
  if (!http) recorded.push((transport as ReturnType<typeof loopbackHttp>).requests);
  return magentoConnector.connect(
    { storeUrl: emulator.url, ...emulator.credentials },
    { http: transport },
  );
}

const webPage = (id: string, slug: string, over: Partial<WebPage> = {}): WebPage => ({
  ...pageDefaults(),
  id,
  title: `Page ${slug}`,
  slug,
  body: `<p>${slug}</p>`,
  status: 'published',
  sourceUrlPath: `/${slug}/`,
  ...over,
});

class TestIdMap implements IdMap {
  readonly entries = new Map<string, string>();
  get(entity: EntityType, sourceId: string) {
    return this.entries.get(`${entity}:${sourceId}`);
  }
  set(entity: EntityType, sourceId: string, destinationId: string) {
    this.entries.set(`${entity}:${sourceId}`, destinationId);
  }
}

async function readAll(connection: Connection): Promise<Page<'pages'>[]> {
  const pages: Page<'pages'>[] = [];
  for await (const page of connection.read('pages', null)) pages.push(page);
  return pages;
}

describe('Magento CMS pages as a source', () => {
  let source: MagentoEmulator;
  beforeAll(async () => {
    source = await startMagentoEmulator({ seed: { seed: 3, products: 4, orders: 0 } });
  });
  afterAll(async () => {
    await source?.close();
  });

  it('reads every CMS page whole, with its SEO fields, order, state, dates and design settings', async () => {
    const stored = [...source.store.cmsPages.pages.values()][0];
    if (!stored) throw new Error('the sample store has pages');
    stored.content_heading = 'Who we are';
    stored.meta_keywords = 'about, team ,Portland';
    const connection = connect(source);
    expect(await connection.count('pages')).toBe(5);
    const read = await readAll(connection);
    expect(read).toHaveLength(1);
    expect(read[0]?.next).toBeNull();
    const pages = read.flatMap((p) => p.records);
    expect(pages.map((p) => p.slug)).toEqual([
      'about-us',
      'shipping-returns',
      'international-shipping',
      'contact-us',
      'spring-sale',
    ]);
    expect(pages[0]).toEqual({
      ...pageDefaults(),
      id: String(stored.page_id),
      title: 'About us',
      slug: 'about-us',
      body: stored.content,
      status: 'published',
      createdAt: '2024-02-01T09:00:00Z',
      updatedAt: '2024-03-15T12:30:00Z',
      seoTitle: 'About the Sample Store',
      seoDescription: 'Who runs the Sample Store, and why.',
      seoKeywords: ['about', 'team', 'Portland'],
      metafields: [
        { namespace: 'magento', key: 'content_heading', value: 'Who we are', type: 'string' },
        { namespace: 'magento', key: 'page_layout', value: '1column', type: 'string' },
      ],
      sourceUrlPath: '/about-us',
      parentId: null,
      position: 0,
    });
    const draft = pages.find((p) => p.slug === 'spring-sale');
    expect(draft).toMatchObject({ status: 'draft', sourceUrlPath: null, position: 3 });
    expect(read[0]?.losses ?? []).toEqual([]);
  });

  it('has no blog posts: counting, reading or writing them fails with the reason', async () => {
    const connection = connect(source);
    await expect(connection.count('posts')).rejects.toThrow(/no blog/);
    expect(() => connection.read('posts', null)).toThrow(/no blog/);
    await expect(connection.write('posts', [], new TestIdMap())).rejects.toThrow(/no blog/);
  });
});

describe('Magento CMS pages as a destination', () => {
  let destination: MagentoEmulator;
  const idMap = new TestIdMap();
  const byIdentifier = (identifier: string) =>
    [...destination.store.cmsPages.pages.values()].filter((p) => p.identifier === identifier);

  beforeAll(async () => {
    destination = await startMagentoEmulator({ seed: 'empty' });
    // The merchant's own page, of an identifier a source page has too.
    destination.store.cmsPages.save(
      { page: { identifier: 'faq', title: 'Our FAQ', content: '<p>Ours</p>' } },
      [0],
    );
  });
  afterAll(async () => {
    await destination?.close();
  });

  const record = (outcomes: { sourceId: string; destinationId?: string }[]) => {
    for (const o of outcomes) if (o.destinationId) idMap.set('pages', o.sourceId, o.destinationId);
  };

  it('creates pages with their SEO fields, order, state and Magento settings; the parent, featured image and author are left to the declarations', async () => {
    const connection = connect(destination);
    const pages = [
      webPage('10', 'about-us', {
        seoTitle: 'About',
        seoDescription: 'Who we are',
        seoKeywords: ['team', 'story'],
        position: 2,
        metafields: [
          { namespace: 'magento', key: 'content_heading', value: 'Hello', type: 'string' },
          { namespace: 'wp', key: 'hero', value: 'x', type: 'string' },
        ],
      }),
      webPage('11', 'international-shipping', {
        parentId: '9',
        featuredImageUrl: 'https://example.com/a.png',
        featuredImageAlt: 'A',
        authorName: 'Maja',
        excerpt: '<p>short</p>',
      }),
      webPage('12', 'spring-sale', { status: 'scheduled', publishedAt: '2030-01-01T00:00:00Z' }),
    ];
    const outcomes = await connection.write('pages', pages, idMap);
    expect(outcomes.map((o) => o.outcome)).toEqual(['created', 'created', 'created']);
    expect(outcomes[0]?.warnings).toEqual([
      'custom field wp.hero not kept: a Magento CMS page has no custom fields',
    ]);
    record(outcomes);
    const [about] = byIdentifier('about-us');
    expect(about).toMatchObject({
      title: 'Page about-us',
      content: '<p>about-us</p>',
      meta_title: 'About',
      meta_description: 'Who we are',
      meta_keywords: 'team, story',
      sort_order: '2',
      content_heading: 'Hello',
      active: true,
      store_ids: [0],
    });
    expect(byIdentifier('spring-sale')[0]?.active).toBe(false);
    // Read back: what was written comes back, the rest as the declarations say.
    const back = (await readAll(connection)).flatMap((p) => p.records);
    expect(back.find((p) => p.slug === 'international-shipping')).toMatchObject({
      parentId: null,
      featuredImageUrl: null,
      authorName: '',
      excerpt: '',
    });
    expect(back.find((p) => p.slug === 'spring-sale')?.status).toBe('draft');
  });

  it('skips an unchanged page, updates a changed one, renames one whose slug changed', async () => {
    const connection = connect(destination);
    const unchanged = await connection.write(
      'pages',
      [webPage('12', 'spring-sale', { status: 'scheduled' })],
      idMap,
    );
    expect(unchanged[0]).toMatchObject({
      outcome: 'skipped',
      reason: expect.stringContaining('unchanged'),
    });
    expect(unchanged[0]?.linked).toBeUndefined();
    const changed = await connection.write(
      'pages',
      [webPage('12', 'spring-sale', { status: 'published', body: '<p>Now on</p>' })],
      idMap,
    );
    expect(changed[0]?.outcome).toBe('updated');
    expect(byIdentifier('spring-sale')[0]).toMatchObject({
      active: true,
      content: '<p>Now on</p>',
    });
    const renamed = await connection.write(
      'pages',
      [webPage('12', 'spring-offers', { body: '<p>Now on</p>' })],
      idMap,
    );
    expect(renamed[0]?.outcome).toBe('updated');
    expect(byIdentifier('spring-sale')).toEqual([]);
    expect(byIdentifier('spring-offers')).toHaveLength(1);
  });

  it("links the merchant's own page of the same identifier and never changes it", async () => {
    const connection = connect(destination);
    const [theirs] = byIdentifier('faq');
    const outcomes = await connection.write(
      'pages',
      [webPage('20', 'faq', { body: '<p>Source FAQ</p>' })],
      idMap,
    );
    expect(outcomes[0]).toMatchObject({
      outcome: 'skipped',
      linked: true,
      destinationId: String(theirs?.page_id),
      reason: expect.stringContaining("store's own CMS page 'faq'"),
    });
    expect(byIdentifier('faq')).toHaveLength(1);
    expect(byIdentifier('faq')[0]?.content).toBe('<p>Ours</p>');
  });

  it('finds a page whose create answer was lost instead of creating it twice', async () => {
    const connection = connect(destination, losingFirstCreate());
    const map = new TestIdMap();
    const outcomes = await connection.write('pages', [webPage('30', 'lost-answer')], map);
    expect(outcomes[0]?.outcome).toBe('created');
    expect(byIdentifier('lost-answer')).toHaveLength(1);
    expect(outcomes[0]?.destinationId).toBe(String(byIdentifier('lost-answer')[0]?.page_id));
    // A later run (the id map now knows it) leaves it alone.
    map.set('pages', '30', outcomes[0]?.destinationId ?? '');
    const again = await connect(destination).write('pages', [webPage('30', 'lost-answer')], map);
    expect(again[0]?.outcome).toBe('skipped');
    expect(byIdentifier('lost-answer')).toHaveLength(1);
  });

  it('fails a page the store refuses, with its reason, and writes the rest of the batch', async () => {
    const connection = connect(destination);
    const outcomes = await connection.write(
      'pages',
      [
        webPage('41', 'Shipping Info'),
        webPage('42', '2024'),
        webPage('43', ''),
        webPage('44', 'kept-page'),
        webPage('45', 'kept-page'),
      ],
      new TestIdMap(),
    );
    expect(outcomes.map((o) => o.outcome)).toEqual([
      'failed',
      'failed',
      'failed',
      'created',
      'failed',
    ]);
    expect(outcomes[0]?.reason).toContain("can't use capital letters or disallowed symbols");
    expect(outcomes[1]?.reason).toContain("can't use only numbers");
    expect(outcomes[2]?.reason).toContain('no URL key');
    expect(outcomes[4]?.reason).toContain('another page in this batch');
  });

  it('writes a page whose URL key is a storefront route of Magento (contact) under that key with -page added, says so, and finds it there again', async () => {
    const connection = connect(destination);
    const map = new TestIdMap();
    const [first] = await connection.write('pages', [webPage('46', 'contact')], map);
    expect(first).toMatchObject({ outcome: 'created' });
    expect(first?.warnings?.join(' ')).toMatch(
      /slug: Magento keeps \/contact for a storefront route of its own, so the page is at \/contact-page/,
    );
    expect(byIdentifier('contact')).toEqual([]);
    expect(byIdentifier('contact-page')).toHaveLength(1);
    map.set('pages', '46', first?.destinationId ?? '');
    const [again] = await connection.write('pages', [webPage('46', 'contact')], map);
    expect(again).toMatchObject({ outcome: 'skipped', destinationId: first?.destinationId });
    expect(byIdentifier('contact-page')).toHaveLength(1);
  });

  it('sent only requests that admin-schema-2.4.9.yaml describes', () => {
    const spec = adminSchema();
    const requests = recorded.flat();
    expect(requests.some((r) => r.method === 'PUT' && r.url.includes('/V1/cmsPage/'))).toBe(true);
    expect(requests.some((r) => r.method === 'POST' && r.url.endsWith('/V1/cmsPage'))).toBe(true);
    expect([...new Set(requests.flatMap((r) => spec.checkRequest(r)))]).toEqual([]);
  });
});
