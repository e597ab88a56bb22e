import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSampleStore } from '../framework/sample-store.ts';
import { checkResource } from './testing/spec.ts';
import { wcClient } from './testing/signed-fetch.ts';
import {
  startWooCommerceEmulator,
  type RunningWooCommerceEmulator,
} from './woocommerce-emulator.ts';

/**
 * The product brands routes (products/brands, products/brands/{id}, products/brands/batch) as a
 * real WooCommerce 11.0.1 store answers them (real-store/observed-behaviour.ts checks the same on
 * a real store).
 */

type Obj = Record<string, unknown>;
const counts = { products: 12, customers: 2, orders: 2 };

function client(emu: RunningWooCommerceEmulator) {
  return wcClient({
    baseUrl: emu.url,
    consumerKey: emu.consumerKey,
    consumerSecret: emu.consumerSecret,
  });
}

describe('WooCommerce emulator brands', () => {
  let emu: RunningWooCommerceEmulator;
  let wc: ReturnType<typeof client>;
  const sample = generateSampleStore(counts);
  beforeAll(async () => {
    emu = await startWooCommerceEmulator({ seed: counts });
    wc = client(emu);
  });
  afterAll(async () => {
    await emu.close();
  });

  const post = async (path: string, body: Obj) => wc.call('POST', path, { body });

  it("holds the sample's brands with their logo, description and order, and the products name them", async () => {
    const { body } = await wc.call('GET', '/products/brands', {
      query: { per_page: 100, orderby: 'id', order: 'asc', context: 'edit' },
    });
    const brands = body as Obj[];
    expect(brands.map((b) => b.name)).toEqual(
      sample.brands.map((b) => b.name.replace(/&/g, '&amp;')),
    );
    for (const brand of brands)
      expect(checkResource('/wc/v3/products/brands', brand), String(brand.name)).toEqual([]);
    for (const [i, s] of sample.brands.entries()) {
      const b = brands[i] as Obj;
      expect(b).toMatchObject({ slug: s.slug, parent: 0, menu_order: s.position });
      expect(b.image === null).toBe(s.logoPath === null);
      if (s.logoPath) expect((b.image as Obj).src).toContain(s.logoPath);
      // WordPress strips <p> from term descriptions.
      expect(b.description).toBe(s.description.replace(/<\/?p>/g, ''));
    }
    expect(emu.store.counts().brands).toBe(sample.brands.length);
    const products = (await wc.call('GET', '/products', { query: { per_page: 100 } }))
      .body as Obj[];
    const ids = new Set(brands.map((b) => b.id));
    for (const p of products)
      for (const ref of p.brands as Obj[]) expect(ids.has(ref.id)).toBe(true);
  });

  it('refuses a second brand of a name under one parent (ASCII case folded), but not under another', async () => {
    const first = await post('/products/brands', { name: 'Obs Brand' });
    expect(first.status).toBe(201);
    const again = await post('/products/brands', { name: 'OBS BRAND' });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({
      code: 'term_exists',
      data: { status: 400, resource_id: (first.body as Obj).id },
    });
    const parent = (await post('/products/brands', { name: 'Obs Parent' })).body as Obj;
    const child = await post('/products/brands', { name: 'Obs Brand', parent: parent.id });
    expect(child.status).toBe(201);
    expect(child.body).toMatchObject({ slug: 'obs-brand-obs-parent', parent: parent.id });
    // A slug taken by another brand is made unique on a create.
    const taken = await post('/products/brands', { name: 'Other', slug: 'obs-brand' });
    expect(taken.body).toMatchObject({ slug: 'obs-brand-2' });
    // Only ASCII letters compare without case (a real store took 'Ärger' beside 'ärger').
    expect((await post('/products/brands', { name: 'ärger' })).status).toBe(201);
    expect((await post('/products/brands', { name: 'Ärger' })).status).toBe(201);
  });

  it('requires a name, refuses a parent it lacks (400 on a create, 500 on an update) and a slug in use on an update', async () => {
    expect((await post('/products/brands', {})).body).toMatchObject({
      code: 'rest_missing_callback_param',
    });
    const missing = await post('/products/brands', { name: 'Orphan', parent: 999_999 });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'missing_parent' });
    const brand = (await post('/products/brands', { name: 'Obs Update' })).body as Obj;
    const update = await post(`/products/brands/${String(brand.id)}`, { parent: 999_999 });
    expect(update.status).toBe(500);
    expect(update.body).toMatchObject({ code: 'missing_parent' });
    const slug = await post(`/products/brands/${String(brand.id)}`, { slug: 'obs-parent' });
    expect(slug.status).toBe(500);
    expect(slug.body).toMatchObject({ code: 'duplicate_term_slug' });
    const batch = await post('/products/brands/batch', {
      create: [{ description: 'no name' }, { name: 'Y', parent: 999_999 }],
    });
    expect(((batch.body as Obj).create as Obj[]).map((r) => (r.error as Obj).code)).toEqual([
      'empty_term_name',
      'missing_parent',
    ]);
  });

  it('keeps menu_order (negative too) and display, refuses a logo it cannot download, moves children up when a parent is deleted', async () => {
    const b = (
      await post('/products/brands', { name: 'Obs Order', menu_order: -2, display: 'both' })
    ).body as Obj;
    expect(b).toMatchObject({ menu_order: -2, display: 'both' });
    // display is checked against its enum outside a batch only.
    expect(
      (await post('/products/brands', { name: 'Obs Weird', display: 'weird' })).body,
    ).toMatchObject({ code: 'rest_invalid_param' });
    const batch = await post('/products/brands/batch', {
      create: [{ name: 'Obs Weird', display: 'weird' }],
    });
    expect(((batch.body as Obj).create as Obj[])[0]).toMatchObject({ display: 'weird' });
    const logo = await post('/products/brands', {
      name: 'Obs Logo',
      image: { src: 'http://127.0.0.1:9/none.png', alt: 'A' },
    });
    expect(logo.status).toBe(400);
    expect(logo.body).toMatchObject({ code: 'woocommerce_rest_invalid_remote_image_url' });
    const grand = (await post('/products/brands', { name: 'Obs Grand' })).body as Obj;
    const kid = (await post('/products/brands', { name: 'Obs Kid', parent: grand.id })).body as Obj;
    const trash = await wc.call('DELETE', `/products/brands/${String(grand.id)}`);
    expect(trash.body).toMatchObject({ code: 'woocommerce_rest_trash_not_supported' });
    await wc.call('DELETE', `/products/brands/${String(grand.id)}`, { query: { force: 'true' } });
    expect((await wc.call('GET', `/products/brands/${String(kid.id)}`)).body).toMatchObject({
      parent: 0,
    });
  });
});

describe('WooCommerce emulator without brand records', () => {
  it('seeds only the brands the products name, bare', async () => {
    const emu = await startWooCommerceEmulator({ seed: { ...counts, brands: false } });
    try {
      const { body } = await client(emu).call('GET', '/products/brands', {
        query: { per_page: 100 },
      });
      for (const b of body as Obj[]) expect(b).toMatchObject({ description: '', image: null });
    } finally {
      await emu.close();
    }
  });
});
