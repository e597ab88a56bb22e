import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSampleStore } from '../framework/sample-store.ts';
import { adminSchema } from './admin-schema.ts';
import { startMagentoEmulator, type MagentoEmulator } from './magento-emulator.ts';
import { searchQuery, signedFetch, type SignedFetchOptions } from './testing/signed-fetch.ts';

const sample = { seed: 5, products: 4, customers: 1, orders: 0 };

type CmsPage = Record<string, unknown> & { id: number; identifier: string };
type Results = { items: CmsPage[]; total_count: number };

describe('Magento emulator CMS pages (integration, 127.0.0.1)', () => {
  let emulator: MagentoEmulator;
  let bare: MagentoEmulator;
  const spec = adminSchema();
  const call = async (method: string, path: string, options: SignedFetchOptions = {}) => {
    const answer = await signedFetch(emulator.url, emulator.credentials, method, path, options);
    if (answer.status === 200)
      expect(spec.checkResponse(method, `${emulator.url}${path}`, 200, answer.body)).toEqual([]);
    return answer;
  };
  const search = async (query: Parameters<typeof searchQuery>[0]) =>
    (await call('GET', `/rest/all/V1/cmsPage/search?${searchQuery(query)}`)).body as Results;

  beforeAll(async () => {
    emulator = await startMagentoEmulator({ seed: sample });
    bare = await startMagentoEmulator({ seed: { ...sample, content: false } });
  });
  afterAll(async () => {
    await emulator?.close();
    await bare?.close();
  });

  it("is seeded with the sample store's pages, flat, a draft inactive, the route-named contact page as contact-us", async () => {
    const pages = generateSampleStore(sample).pages;
    const found = await search({ sort: [['page_id', 'ASC']] });
    expect(found.total_count).toBe(pages.length);
    expect(found.items.map((p) => p.identifier)).toEqual(
      pages.map((p) => (p.slug === 'contact' ? 'contact-us' : p.slug)),
    );
    const about = found.items[0];
    expect(about).toMatchObject({
      title: 'About us',
      meta_title: 'About the Sample Store',
      meta_description: 'Who runs the Sample Store, and why.',
      sort_order: '0',
      active: true,
      page_layout: '1column',
      creation_time: '2024-02-01 09:00:00',
    });
    expect(found.items.find((p) => p.title === 'Spring sale')?.active).toBe(false);
    expect(emulator.store.countCanonical('pages')).toBe(pages.length);
    expect(emulator.store.countCanonical('posts')).toBe(0);
    expect(bare.store.countCanonical('pages')).toBe(0);
  });

  it('filters, sorts and pages a search', async () => {
    const inactive = await search({ groups: [[['active', '0']]] });
    expect(inactive.items.map((p) => p.title)).toEqual(['Spring sale']);
    const byIdentifier = await search({ groups: [[['identifier', 'about-us', 'eq']]] });
    expect(byIdentifier.items).toHaveLength(1);
    const paged = await search({ sort: [['title', 'DESC']], pageSize: 2, currentPage: 2 });
    expect(paged.total_count).toBe(5);
    expect(paged.items).toHaveLength(2);
    const unknown = await call(
      'GET',
      `/rest/all/V1/cmsPage/search?${searchQuery({ groups: [[['colour', 'x']]] })}`,
    );
    expect(unknown.status).toBe(400);
  });

  it('creates, reads, updates (merging the fields sent) and deletes a page', async () => {
    const created = await call('POST', '/rest/all/V1/cmsPage', {
      body: {
        page: {
          identifier: 'faq/orders',
          title: 'Order questions',
          content: '<p>Ask</p>',
          content_heading: 'FAQ',
          sort_order: '4',
          active: true,
          creation_time: '2001-01-01 00:00:00',
        },
      },
    });
    expect(created.status).toBe(200);
    const page = created.body as CmsPage;
    expect(page).toMatchObject({
      identifier: 'faq/orders',
      content_heading: 'FAQ',
      sort_order: '4',
    });
    expect(page.creation_time).not.toBe('2001-01-01 00:00:00');
    const updated = await call('PUT', `/rest/all/V1/cmsPage/${page.id}`, {
      body: { page: { identifier: 'faq/orders', active: false, meta_keywords: 'faq, orders' } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      title: 'Order questions',
      active: false,
      meta_keywords: 'faq, orders',
    });
    expect((await call('GET', `/rest/all/V1/cmsPage/${page.id}`)).body).toEqual(updated.body);
    expect((await call('DELETE', `/rest/all/V1/cmsPage/${page.id}`)).body).toBe(true);
    const gone = await call('GET', `/rest/all/V1/cmsPage/${page.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({
      message: 'The CMS page with the "%1" ID doesn\'t exist.',
      parameters: [page.id],
    });
  });

  it('refuses what Magento refuses, with its messages', async () => {
    const refusals: [unknown, number, string][] = [
      [{}, 400, '"%fieldName" is required'],
      [{ page: { title: 'No key' } }, 400, '"%fieldName" is required'],
      [
        { page: { identifier: 'About Us' } },
        400,
        "can't use capital letters or disallowed symbols",
      ],
      [
        { page: { identifier: 'with space' } },
        400,
        "can't use capital letters or disallowed symbols",
      ],
      [{ page: { identifier: '2024' } }, 400, "can't use only numbers"],
      [{ page: { identifier: 'contact' } }, 400, 'would generate a URL that already exists'],
      [{ page: { identifier: 'about-us' } }, 400, 'would generate a URL that already exists'],
      [{ page: { identifier: 'x-page', store_id: 1 } }, 400, 'does not have accessor method'],
    ];
    for (const [body, status, message] of refusals) {
      const answer = await signedFetch(
        emulator.url,
        emulator.credentials,
        'POST',
        '/rest/all/V1/cmsPage',
        { body },
      );
      expect(answer.status, JSON.stringify(body)).toBe(status);
      const error = answer.body as { message: string; parameters?: unknown };
      expect(`${error.message} ${JSON.stringify(error.parameters ?? [])}`).toContain(message);
    }
    expect(
      (
        await call('PUT', '/rest/all/V1/cmsPage/99999', {
          body: { page: { identifier: 'zz-top' } },
        })
      ).status,
    ).toBe(404);
  });

  it('keeps an identifier unique per store view: the default view may have its own page of an identifier only when no all-views page has it', async () => {
    const own = await call('POST', '/rest/default/V1/cmsPage', {
      body: { page: { identifier: 'store-only', title: 'Default view' } },
    });
    expect(own.status).toBe(200);
    const again = await call('POST', '/rest/default/V1/cmsPage', {
      body: { page: { identifier: 'store-only', title: 'Twice' } },
    });
    expect(again.status).toBe(400);
  });
});
