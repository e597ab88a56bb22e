import { describe, expect, it } from 'vitest';
import { checkRequest } from '@replatform/emulators/woocommerce/testing/spec';
import { brandBody } from './from-canonical.ts';
import { brand } from './test-records.ts';
import { brandToCanonical } from './to-canonical.ts';
import { wcTermSchema, type WcTerm } from './wc-schemas.ts';

/** Brands between WooCommerce's answers and bodies and the canonical model. */

const term = (fields: Record<string, unknown>): WcTerm =>
  wcTermSchema.parse({
    id: 20,
    name: 'Copper &amp; Pine',
    slug: 'copper-pine',
    parent: 0,
    description: 'Handmade <strong>copper</strong> and pine.\n\nSecond paragraph.',
    display: 'products',
    image: {
      id: 7,
      src: 'https://shop.example/wp-content/uploads/copper-pine.png',
      name: 'copper-pine',
      alt: 'Copper & Pine logo',
    },
    menu_order: 3,
    count: 4,
    ...fields,
  });

describe('WooCommerce brands read', () => {
  it('reads every field, the name unescaped, paragraphs as WordPress shows them, and the page path through the parents', () => {
    const parent = term({ id: 10, name: 'Makers', slug: 'makers', image: null, menu_order: 0 });
    const child = term({ parent: 10 });
    const all = new Map([
      [10, parent],
      [20, child],
    ]);
    const result = brandToCanonical(child, all);
    expect(result).toMatchObject({ ok: true, losses: [] });
    expect(result.ok && result.record).toEqual({
      id: '20',
      parentId: '10',
      name: 'Copper & Pine',
      slug: 'copper-pine',
      description: '<p>Handmade <strong>copper</strong> and pine.</p><p>Second paragraph.</p>',
      position: 3,
      imageUrl: 'https://shop.example/wp-content/uploads/copper-pine.png',
      imageAlt: 'Copper & Pine logo',
      displayType: 'products',
      seoTitle: '',
      seoDescription: '',
      seoKeywords: [],
      searchKeywords: '',
      metafields: [],
      sourceUrlPath: '/brand/makers/copper-pine/',
    });
    const top = brandToCanonical(parent, all);
    expect(top.ok && top.record).toMatchObject({
      parentId: null,
      imageUrl: null,
      imageAlt: '',
      sourceUrlPath: '/brand/makers/',
    });
  });

  it('reads a negative menu_order (which WordPress keeps) as the first place and an unknown display as the default', () => {
    const t = term({ menu_order: -2, display: 'weird', description: '' });
    const result = brandToCanonical(t, new Map([[20, t]]));
    expect(result.ok && result.record).toMatchObject({
      position: 0,
      displayType: 'default',
      description: '',
    });
  });
});

describe('WooCommerce brand bodies', () => {
  const valid = (body: Record<string, unknown>) =>
    checkRequest({
      method: 'POST',
      url: 'http://127.0.0.1/wp-json/wc/v3/products/brands/batch',
      body: JSON.stringify({ create: [body] }),
    });

  it('writes name, slug, parent, description, display, order and logo, valid for the batch route', () => {
    const b = brand('7', 'Copper & Pine', {
      parentId: '3',
      description: '<p>Handmade.</p><p>Second.</p>',
      position: 2,
      displayType: 'both',
      imageUrl: 'https://old.example/logo.png',
      imageAlt: 'Logo',
      seoTitle: 'Not carried',
    });
    const { body, warnings } = brandBody(b, 41);
    expect(body).toEqual({
      name: 'Copper & Pine',
      slug: 'copper-pine',
      parent: 41,
      description: 'Handmade.\n\nSecond.',
      display: 'both',
      menu_order: 2,
      image: { src: 'https://old.example/logo.png', alt: 'Logo' },
    });
    expect(warnings).toEqual([]);
    expect(valid(body)).toEqual([]);
    // A logo the destination stored already goes by its id.
    expect(brandBody(b, 41, { id: 9 }).body.image).toEqual({ id: 9, alt: 'Logo' });
  });

  it('leaves out a slug the source did not have and a logo it did not have, and says what formatting WordPress drops', () => {
    const { body, warnings } = brandBody(
      brand('8', 'Bare', { slug: '', description: '<ul><li>One</li><li>Two</li></ul>' }),
      0,
    );
    expect(body).not.toHaveProperty('slug');
    expect(body).not.toHaveProperty('image');
    expect(body.description).toBe('One\nTwo');
    expect(warnings).toEqual([
      'WordPress keeps only links and text styles in brand descriptions; the <li>, <ul> formatting of the description was flattened to text.',
    ]);
    expect(valid(body)).toEqual([]);
  });
});
