import { describe, expect, it } from 'vitest';
import { brandSchema, type Brand } from '@replatform/canonical/brand';
import { brandDefaults } from '@replatform/canonical/defaults';
import { brandPath, brandToBc, brandToCanonical, holdsBrand } from './map-brand.ts';
import { brandFullSchema } from './payloads.ts';

const native = (over: Record<string, unknown> = {}) => ({
  id: 37,
  name: 'Northwind Outfitters',
  page_title: 'Northwind — outdoor',
  meta_keywords: ['outdoor', '', 'tents'],
  meta_description: 'Tents and packs.',
  search_keywords: 'tent, pack',
  image_url: 'https://cdn11.bigcommerce.com/s-abc/product_images/n/northwind__1.png',
  custom_url: { url: '/brands/Northwind-Outfitters.html', is_customized: false },
  metafields: [
    {
      id: 1,
      namespace: 'brand_story',
      key: 'founded',
      value: '1987',
      permission_set: 'write',
      description: '',
      resource_id: 37,
      resource_type: 'brand',
    },
    {
      id: 2,
      namespace: 'replatform',
      key: 'replatform_source_id',
      value: '12',
      permission_set: 'read',
      description: '',
      resource_id: 37,
      resource_type: 'brand',
    },
  ],
  ...over,
});

const read = (raw: Record<string, unknown>) => brandToCanonical(brandFullSchema.parse(raw), raw);

const canonical = (over: Partial<Brand> = {}): Brand =>
  brandSchema.parse({
    ...brandDefaults(),
    id: '9',
    name: 'Acme & Söhne',
    slug: 'acme-sohne',
    sourceUrlPath: '/brand/acme-sohne/',
    seoTitle: 'Acme',
    seoDescription: 'Tools',
    seoKeywords: ['tools'],
    searchKeywords: 'hammer',
    imageUrl: 'https://media.example.com/acme.png',
    ...over,
  });

describe('BigCommerce brand to canonical', () => {
  it('carries every field BigCommerce has, and the neutral value of those it has not', () => {
    const brand = read(native());
    expect(brandSchema.parse(brand)).toEqual(brand);
    expect(brand).toMatchObject({
      id: '37',
      parentId: null,
      name: 'Northwind Outfitters',
      slug: 'northwind-outfitters',
      description: '',
      position: 0,
      imageUrl: 'https://cdn11.bigcommerce.com/s-abc/product_images/n/northwind__1.png',
      imageAlt: '',
      displayType: 'default',
      seoTitle: 'Northwind — outdoor',
      seoDescription: 'Tents and packs.',
      seoKeywords: ['outdoor', 'tents'],
      searchKeywords: 'tent, pack',
      sourceUrlPath: '/brands/Northwind-Outfitters.html',
    });
    // The migration's own marker is not read; an uncustomised path is kept as a field.
    expect(brand.metafields).toEqual([
      { namespace: 'bigcommerce.brand_story', key: 'founded', value: '1987', type: 'string' },
      {
        namespace: 'bigcommerce_fields',
        key: 'custom_url.is_customized',
        value: 'false',
        type: 'boolean',
      },
    ]);
  });

  it('reads a bare brand as one without logo, page or SEO', () => {
    const brand = read({
      id: 5,
      name: 'Bare',
      page_title: '',
      meta_keywords: [],
      meta_description: '',
      search_keywords: '',
      image_url: '',
      custom_url: null,
    });
    expect(brand).toMatchObject({ imageUrl: null, slug: '', sourceUrlPath: null, seoTitle: '' });
    expect(brand.metafields).toEqual([]);
  });
});

describe('canonical brand to BigCommerce', () => {
  it('writes every field BigCommerce holds, the page at the source path', () => {
    const write = brandToBc(
      canonical({
        metafields: [{ namespace: 'custom', key: 'origin', value: 'DE', type: 'string' }],
      }),
    );
    expect(write).toEqual({
      ok: true,
      body: {
        name: 'Acme & Söhne',
        page_title: 'Acme',
        meta_keywords: ['tools'],
        meta_description: 'Tools',
        search_keywords: 'hammer',
        image_url: 'https://media.example.com/acme.png',
        custom_url: { url: '/brand/acme-sohne/', is_customized: true },
      },
      metafields: [{ namespace: 'custom', key: 'origin', value: 'DE', permission_set: 'write' }],
      warnings: [],
    });
  });

  it('round-trips a BigCommerce brand, an uncustomised path included', () => {
    const write = brandToBc(read(native()));
    expect(write.ok && write.body).toMatchObject({
      custom_url: { url: '/brands/Northwind-Outfitters.html', is_customized: false },
    });
    expect(write.ok && write.metafields).toEqual([
      { namespace: 'brand_story', key: 'founded', value: '1987', permission_set: 'write' },
    ]);
  });

  it('makes a page path from the slug, and leaves an unusable path to BigCommerce with a warning', () => {
    expect(brandPath(canonical({ sourceUrlPath: null }))).toBe('/brands/acme-sohne/');
    expect(brandPath(canonical({ sourceUrlPath: null, slug: '' }))).toBeUndefined();
    const write = brandToBc(canonical({ sourceUrlPath: '/brand/a b?', slug: '' }));
    expect(write.ok && write.body.custom_url).toBeUndefined();
    expect(write.ok && write.warnings.join()).toMatch(/sourceUrlPath/);
  });

  it('never invents a value: an empty logo stays empty', () => {
    const write = brandToBc(canonical({ imageUrl: null, seoTitle: '', seoKeywords: [] }));
    expect(write.ok && write.body).toMatchObject({
      image_url: '',
      page_title: '',
      meta_keywords: [],
    });
  });

  it('refuses what BigCommerce cannot hold rather than shortening it', () => {
    expect(brandToBc(canonical({ name: 'n'.repeat(256) }))).toMatchObject({ ok: false });
    expect(brandToBc(canonical({ seoTitle: 't'.repeat(256) }))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/page_title/),
    });
    expect(brandToBc(canonical({ searchKeywords: 'k'.repeat(256) }))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/search_keywords/),
    });
  });

  it('knows when a destination brand already holds what would be written', () => {
    const write = brandToBc(read(native()));
    if (!write.ok) throw new Error('not written');
    const current = brandFullSchema.parse(native({ meta_keywords: ['outdoor', 'tents'] }));
    expect(holdsBrand(current, write.body)).toBe(true);
    expect(holdsBrand({ ...current, page_title: 'Other' }, write.body)).toBe(false);
    expect(holdsBrand({ ...current, image_url: '' }, write.body)).toBe(false);
  });
});
