import { describe, expect, it } from 'vitest';
import {
  comparableNative,
  differingPaths,
  fieldFate,
  hasValue,
  inDestinationForm,
  knownDifferences,
  undeclaredFields,
  type SourceField,
} from './fields.ts';

const catalogue: Record<string, SourceField> = {
  id: { assigned: 'the store numbers its records' },
  name: { carried: 'name' },
  featured: { carried: 'featured' },
  upsell_ids: { carried: 'upsellIds', ref: 'products' },
  tags: { carried: 'tags', unordered: true },
  'images[]': { carried: 'images' },
  'images[].id': { assigned: 'media library id' },
  'images[].src': { assigned: "the store's own copy" },
  dimensions: { carried: 'dimensions' },
  total_sales: { assigned: 'counted by the store' },
  purchase_note: { notCarried: 'no place for it' },
};

describe('undeclaredFields', () => {
  it('finds every field of a native record that nothing declares, at any depth', () => {
    const record = {
      id: 1,
      name: 'Tee',
      featured: true,
      upsell_ids: [2],
      tags: [{ id: 3, name: 'x' }],
      images: [{ id: 9, src: 'https://a/x.jpg', alt: 'front', caption: '' }],
      dimensions: { length: '1', width: '2' },
      gtin: '',
      meta_data: [{ key: 'a', value: 'b' }],
    };
    expect(undeclaredFields(record, catalogue)).toEqual(['gtin', 'meta_data']);
  });

  it('counts a field the platform answers with even when it is empty', () => {
    expect(undeclaredFields({ name: 'a', brands: [] }, catalogue)).toEqual(['brands']);
    expect(undeclaredFields({ name: 'a', low_stock_amount: null }, catalogue)).toEqual([
      'low_stock_amount',
    ]);
  });
});

describe('comparableNative', () => {
  const source = {
    id: 10,
    name: 'Tee',
    featured: true,
    upsell_ids: [11, 12],
    tags: ['b', 'a'],
    images: [{ id: 5, src: 'https://src/a.jpg', alt: 'front', name: 'Front' }],
    dimensions: { length: '1' },
    total_sales: 40,
    purchase_note: 'Thanks',
  };
  const destination = {
    id: 90,
    name: 'Tee',
    featured: true,
    upsell_ids: [91, 92],
    tags: ['a', 'b'],
    images: [{ id: 70, src: 'https://dst/a-1.jpg', alt: 'front', name: 'Front' }],
    dimensions: { length: '1' },
    total_sales: 0,
    purchase_note: '',
  };
  const back = (_kind: string, id: string) => ({ '91': '11', '92': '12' })[id];

  it('keeps carried fields, maps references back, sorts unordered lists, drops the rest', () => {
    expect(comparableNative(source, catalogue)).toEqual({
      name: 'Tee',
      featured: true,
      upsell_ids: ['11', '12'],
      tags: ['a', 'b'],
      images: [{ alt: 'front', name: 'Front' }],
      dimensions: { length: '1' },
    });
    expect(comparableNative(destination, catalogue, back)).toEqual(
      comparableNative(source, catalogue),
    );
  });

  it('keeps values that are no ids (0, negative numbers) as they are in an id field', () => {
    const auto = { ...source, upsell_ids: [-1] };
    expect(comparableNative(auto, catalogue)).toMatchObject({ upsell_ids: [-1] });
    expect(comparableNative({ ...destination, upsell_ids: [-1] }, catalogue, back)).toEqual(
      comparableNative(auto, catalogue),
    );
  });

  it('sees a field the destination lost, and names where', () => {
    const lost = {
      ...destination,
      featured: false,
      images: [{ ...destination.images[0], alt: '' }],
    };
    expect(
      differingPaths(comparableNative(source, catalogue), comparableNative(lost, catalogue, back)),
    ).toEqual(['featured', 'images[0].alt']);
    const unmapped = { ...destination, upsell_ids: [91, 93] };
    expect(
      differingPaths(
        comparableNative(source, catalogue),
        comparableNative(unmapped, catalogue, back),
      ),
    ).toEqual(['upsell_ids[1]']);
  });
});

describe('fates and known differences', () => {
  const shopify = {
    unsupported: { featured: 'Shopify has no featured flag.', 'variants.downloads': 'No files.' },
    converted: { tags: 'Tags are kept as Shopify tags, lower-cased.' },
  };

  it('tells each source field carried, converted or not representable at a destination', () => {
    expect(fieldFate({ carried: 'name' }, shopify)).toEqual({ fate: 'carried' });
    expect(fieldFate({ carried: 'featured' }, shopify)).toEqual({
      fate: 'not representable',
      why: 'Shopify has no featured flag.',
    });
    expect(fieldFate({ carried: 'tags' }, shopify)).toEqual({
      fate: 'converted',
      how: 'Tags are kept as Shopify tags, lower-cased.',
    });
    expect(fieldFate({ converted: 'price', how: 'Minor units.' }, {})).toEqual({
      fate: 'converted',
      how: 'Minor units.',
    });
    expect(fieldFate({ assigned: 'ids' }, shopify).fate).toBe('assigned');
    expect(fieldFate({ notCarried: 'why' }, shopify)).toEqual({
      fate: 'not representable',
      why: 'why',
    });
  });

  it('names only the unsupported fields a record holds something other than neutral in', () => {
    const product = {
      featured: false,
      visibility: 'visible',
      variants: [{ downloads: [] }, { downloads: [{ name: 'a', url: 'https://x/a.pdf' }] }],
    };
    expect(knownDifferences('products', product, shopify)).toEqual([
      { field: 'variants.downloads', reason: 'No files.' },
    ]);
    expect(knownDifferences('products', { ...product, featured: true }, shopify)).toHaveLength(2);
    expect(hasValue('products', { visibility: 'visible' }, 'visibility')).toBe(false);
    expect(hasValue('products', { visibility: 'hidden' }, 'visibility')).toBe(true);
    expect(
      hasValue(
        'products',
        { variants: [{ inventory: { backorders: 'no' } }] },
        'variants.inventory.backorders',
      ),
    ).toBe(false);
    expect(
      hasValue(
        'products',
        {
          variants: [{ inventory: { backorders: 'no' } }, { inventory: { backorders: 'notify' } }],
        },
        'variants.inventory.backorders',
      ),
    ).toBe(true);
  });
});

describe('inDestinationForm', () => {
  it('brings the declared fields to the destination form, through lists, seeing the record', () => {
    const form = {
      weight: 2,
      status: 'private',
      variants: [{ weight: null }, { weight: 3 }],
    };
    inDestinationForm(form, {
      comparable: {
        'variants.weight': (weight, product) => weight ?? product.weight,
        status: (status) => (status === 'private' ? 'draft' : status),
        missing: () => 'never called for a field the record does not have',
      },
    });
    expect(form).toEqual({ weight: 2, status: 'draft', variants: [{ weight: 2 }, { weight: 3 }] });
  });
});
