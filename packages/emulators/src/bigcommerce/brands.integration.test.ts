import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSampleStore } from '../framework/sample-store.ts';
import {
  startBigCommerceEmulator,
  type RunningBigCommerceEmulator,
} from './bigcommerce-emulator.ts';
import { BigCommerceSpec } from './openapi-validator.ts';

const spec = new BigCommerceSpec();
const sample = { seed: 11, products: 12, customers: 0, orders: 0 };

interface Answer {
  status: number;
  body: unknown;
}

/** Requests checked against brands_catalog.v3.yml, and answers too when the store took them. */
function client(emulator: RunningBigCommerceEmulator) {
  return async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const url = `${emulator.url}/stores/${emulator.storeHash}${path}`;
    const headers = {
      'X-Auth-Token': emulator.accessToken,
      Accept: 'application/json',
      'Content-Type': 'application/json',
    };
    const text = body === undefined ? undefined : JSON.stringify(body);
    const response = await fetch(url, { method, headers, body: text });
    const raw = await response.text();
    const parsed: unknown = raw ? JSON.parse(raw) : undefined;
    if (response.status < 300) {
      expect(spec.validateRequest({ method, url, headers, body: text })).toEqual([]);
      expect(spec.validateResponse(method, url, { status: response.status, body: parsed })).toEqual(
        [],
      );
    }
    return { status: response.status, body: parsed };
  };
}

type BrandJson = Record<string, unknown> & { id: number; name: string };
const data = (answer: Answer) => (answer.body as { data: BrandJson[] }).data;
const one = (answer: Answer) => (answer.body as { data: BrandJson }).data;
const errors = (answer: Answer) => (answer.body as { errors: Record<string, string> }).errors;

describe('BigCommerce emulator: brands (catalog v3)', () => {
  let store: RunningBigCommerceEmulator;
  let call: ReturnType<typeof client>;

  beforeAll(async () => {
    store = await startBigCommerceEmulator({ seed: sample, plan: 'unlimited' });
    call = client(store);
  });
  afterAll(async () => {
    await store.close();
  });

  it("seeds the sample's brands as BigCommerce holds them, and every vendor has one", async () => {
    const generated = generateSampleStore(sample);
    const vendors = new Set(generated.products.map((p) => p.vendor));
    expect(store.countStored('brands')).toBe(
      new Set([...vendors, ...generated.brands.map((b) => b.name)]).size,
    );
    const list = data(await call('GET', '/v3/catalog/brands?limit=250'));
    for (const b of generated.brands) {
      const held = list.find((x) => x.name === b.name);
      expect(held, b.name).toMatchObject({
        page_title: b.seoTitle,
        meta_description: b.seoDescription,
        custom_url: { url: `/brands/${b.slug}/`, is_customized: true },
      });
      expect(Boolean(held?.image_url)).toBe(b.logoPath !== null);
      if (b.logoPath) expect(String(held?.image_url)).toContain('/product_images/');
    }
    for (const p of store.state.products) expect(p.brand_id).toBeGreaterThan(0);
    const first = list.find((x) => x.name === generated.brands[0]?.name);
    const metafields = data(await call('GET', `/v3/catalog/brands/${first?.id}/metafields`));
    expect(metafields.map((m) => [m.namespace, m.key])).toEqual([['brand_story', 'founded']]);

    const bare = await startBigCommerceEmulator({
      seed: { ...sample, brands: false },
      plan: 'unlimited',
    });
    // Without brand records the products still make a brand of each vendor they name.
    expect(bare.countStored('brands')).toBe(vendors.size);
    expect(bare.state.brands.every((b) => b.page_title === '' && b.image_path === '')).toBe(true);
    await bare.close();
  });

  it('pages the list with its meta and filters it by id, name and page title', async () => {
    const total = store.countStored('brands');
    const page = await call('GET', '/v3/catalog/brands?limit=2&page=2');
    expect(data(page)).toHaveLength(2);
    expect(
      (page.body as { meta: { pagination: Record<string, unknown> } }).meta.pagination,
    ).toMatchObject({
      total,
      count: 2,
      per_page: 2,
      current_page: 2,
      total_pages: Math.ceil(total / 2),
    });
    const [first] = store.state.brands;
    expect(
      data(
        await call('GET', `/v3/catalog/brands?name=${encodeURIComponent(first?.name ?? '')}`),
      ).map((b) => b.id),
    ).toEqual([first?.id]);
    expect(data(await call('GET', `/v3/catalog/brands?id:in=${first?.id}`))).toHaveLength(1);
    const fields = data(await call('GET', '/v3/catalog/brands?include_fields=name&limit=1'));
    expect(Object.keys(fields[0] ?? {}).sort()).toEqual(['id', 'name']);
  });

  it('creates, updates and deletes a brand, keeping names and page paths unique', async () => {
    const created = await call('POST', '/v3/catalog/brands', {
      name: 'Common Good',
      page_title: 'Common Good',
      meta_keywords: ['modern', 'clean'],
      meta_description: 'A modern brand.',
      search_keywords: 'kitchen, laundry',
      image_url: 'https://media.example.com/common-good.png',
    });
    expect(created.status).toBe(200);
    const brand = one(created);
    expect(brand).toMatchObject({
      name: 'Common Good',
      custom_url: { url: '/brands/common-good.html', is_customized: false },
    });
    expect(String(brand.image_url)).toMatch(/\/product_images\/commongood__\d+\.\d+\.png$/);

    const repeat = await call('POST', '/v3/catalog/brands', { name: 'COMMON GOOD' });
    expect(repeat.status).toBe(409);
    expect(errors(repeat)).toHaveProperty('name');
    const samePath = await call('POST', '/v3/catalog/brands', {
      name: 'Other Good',
      custom_url: { url: '/brands/common-good.html', is_customized: true },
    });
    expect(samePath.status).toBe(409);
    expect(errors(samePath)).toHaveProperty('custom_url');

    // PUT takes the name again and keeps what it does not name.
    const renamed = await call('PUT', `/v3/catalog/brands/${brand.id}`, {
      name: 'Common Better',
      image_url: '',
    });
    expect(one(renamed)).toMatchObject({
      name: 'Common Better',
      page_title: 'Common Good',
      image_url: '',
      meta_keywords: ['modern', 'clean'],
      custom_url: { url: '/brands/common-better.html', is_customized: false },
    });
    expect((await call('PUT', `/v3/catalog/brands/${brand.id}`, { page_title: 'x' })).status).toBe(
      422,
    );

    await call('POST', `/v3/catalog/brands/${brand.id}/metafields`, {
      namespace: 'story',
      key: 'founded',
      value: '2001',
      permission_set: 'read',
    });
    const product = store.state.products[0];
    if (product) product.brand_id = brand.id;
    expect((await call('DELETE', `/v3/catalog/brands/${brand.id}`)).status).toBe(204);
    expect((await call('GET', `/v3/catalog/brands/${brand.id}`)).status).toBe(404);
    expect(
      store.state.metafields.some((m) => m.resource_type === 'brand' && m.resource_id === brand.id),
    ).toBe(false);
    expect(product?.brand_id).toBe(0);
  });

  it('refuses brands the description does not allow (422)', async () => {
    const refused = async (body: unknown, field: string) => {
      const answer = await call('POST', '/v3/catalog/brands', body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(errors(answer)).join(), JSON.stringify(body)).toContain(field);
      expect(answer.body).toMatchObject({ status: 422, title: expect.any(String) });
    };
    await refused({ page_title: 'no name' }, 'name');
    await refused({ name: '' }, 'name');
    await refused({ name: 'n'.repeat(256) }, 'name');
    await refused({ name: 'Long title', page_title: 't'.repeat(256) }, 'page_title');
    await refused({ name: 'Long keywords', search_keywords: 'k'.repeat(256) }, 'search_keywords');
    await refused(
      { name: 'Bad path', custom_url: { url: 'no-slash', is_customized: true } },
      'custom_url',
    );
    await refused({ name: 'Half path', custom_url: { url: '/half/' } }, 'custom_url');
    await refused({ name: 'Unknown', description: '<p>none</p>' }, 'description');
    await refused({ name: 'Bitmap', image_url: 'https://x.example/logo.bmp' }, 'image_url');
    expect(store.state.brands.some((b) => ['Bad path', 'Unknown', 'Bitmap'].includes(b.name))).toBe(
      false,
    );
  });

  it('takes a logo upload as multipart form data and keeps its own copy', async () => {
    const brand = one(await call('POST', '/v3/catalog/brands', { name: 'Upload Co' }));
    const form = new FormData();
    form.append('image_file', new Blob([new Uint8Array([137, 80, 78, 71])]), 'logo.png');
    const response = await fetch(
      `${store.url}/stores/${store.storeHash}/v3/catalog/brands/${brand.id}/image`,
      { method: 'POST', headers: { 'X-Auth-Token': store.accessToken }, body: form },
    );
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { data: { image_url: string } };
    expect(answer.data.image_url).toMatch(/\/product_images\/logo__\d+\.\d+\.png$/);
    expect(one(await call('GET', `/v3/catalog/brands/${brand.id}`)).image_url).toBe(
      answer.data.image_url,
    );
    expect((await call('DELETE', `/v3/catalog/brands/${brand.id}/image`)).status).toBe(204);
    expect(one(await call('GET', `/v3/catalog/brands/${brand.id}`)).image_url).toBe('');
  });

  it('keeps brand metafields unique per namespace and key, in batches too', async () => {
    const brand = one(await call('POST', '/v3/catalog/brands', { name: 'Meta Co' }));
    const input = { namespace: 'n', key: 'k', value: 'v', permission_set: 'write' };
    expect((await call('POST', `/v3/catalog/brands/${brand.id}/metafields`, input)).status).toBe(
      200,
    );
    expect((await call('POST', `/v3/catalog/brands/${brand.id}/metafields`, input)).status).toBe(
      409,
    );
    const batch = await call('POST', '/v3/catalog/brands/metafields', [
      { ...input, resource_id: brand.id },
      { ...input, key: 'k2', resource_id: brand.id },
    ]);
    expect((batch.body as { meta: Record<string, number> }).meta).toMatchObject({
      success: 1,
      failed: 1,
    });
    const listed = data(await call('GET', `/v3/catalog/brands/metafields?namespace=n`));
    expect(listed.map((m) => m.key).sort()).toEqual(['k', 'k2']);
    const id = listed[0]?.id;
    const changed = await call('PUT', `/v3/catalog/brands/${brand.id}/metafields/${id}`, {
      value: 'w',
    });
    expect(one(changed)).toMatchObject({ value: 'w' });
    expect((await call('DELETE', `/v3/catalog/brands/${brand.id}/metafields/${id}`)).status).toBe(
      204,
    );
  });
});
