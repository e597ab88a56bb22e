import { describe, expect, it } from 'vitest';
import {
  lineMetaKept,
  asWooKeeps,
  billingEmailKept,
  couponCodeKept,
  createdViaKept,
  productMetafieldsKept,
  productWeightKept,
  sharedAttributesKept,
  sharedOptionsKept,
  statusKept,
  usernameKept,
  variantDimensionsKept,
  variantMetafieldsKept,
  variantWeightKept,
} from './comparable.ts';
import { ownTitle } from './to-canonical.ts';

describe('the form a WooCommerce destination keeps converted fields in', () => {
  it('keeps another platform’s custom field as meta data under a prefixed key', () => {
    const kept = asWooKeeps([
      {
        namespace: 'shopify.custom',
        key: 'fabric',
        value: 'linen',
        type: 'single_line_text_field',
      },
      { namespace: 'woocommerce', key: 'tier', value: 'gold', type: 'string' },
    ]);
    expect(kept).toEqual([
      { namespace: 'woocommerce', key: 'shopify.custom.fabric', value: 'linen', type: 'string' },
      { namespace: 'woocommerce', key: 'tier', value: 'gold', type: 'string' },
    ]);
    expect(asWooKeeps(kept)).toEqual(kept);
  });

  it('writes an archived product as private and leaves the other statuses', () => {
    expect(statusKept('archived')).toBe('private');
    expect(statusKept('draft')).toBe('draft');
  });

  it('reads a username WooCommerce derived from the e-mail as none, and keeps one of the source', () => {
    const record = { email: 'ivy.o-brien+shop@example.com' };
    expect(usernameKept('ivy.o-brien', record)).toBe('');
    expect(usernameKept('ivy.o-brienshop-2', record)).toBe('');
    expect(usernameKept('', record)).toBe('');
    expect(usernameKept('ivy', record)).toBe('ivy');
  });

  it('compares coupon codes lower-cased, and a lost code still differs', () => {
    expect(couponCodeKept('SPRING15')).toBe(couponCodeKept('spring15'));
    expect(couponCodeKept('SPRING15')).not.toBe(couponCodeKept('SUMMER'));
  });

  it("reads the order's e-mail kept as the billing e-mail as none, and a billing e-mail of its own stays", () => {
    const record = { email: 'a@example.com' };
    expect(billingEmailKept('a@example.com', record)).toBe(billingEmailKept('', record));
    expect(billingEmailKept('b@example.com', record)).toBe('b@example.com');
  });

  it("reads the import's created-via marker as none, and another origin stays", () => {
    expect(createdViaKept('replatform')).toBe('');
    expect(createdViaKept('checkout')).toBe('checkout');
    expect(createdViaKept('checkout')).not.toBe(createdViaKept(''));
  });

  it("drops store-wide attributes made with WooCommerce's defaults, keeps one with settings of its own", () => {
    const made = {
      slug: 'size',
      name: 'Size',
      archives: false,
      termOrder: 'position',
      terms: [
        { name: 'S', slug: 's', description: '', position: 0 },
        { name: 'Extra Large', slug: 'extra-large', description: '', position: 0 },
      ],
    };
    expect(sharedAttributesKept([made])).toEqual([]);
    expect(sharedAttributesKept([{ ...made, archives: true }])).toHaveLength(1);
    expect(sharedAttributesKept([{ ...made, termOrder: 'name' }])).toHaveLength(1);
    const described = {
      ...made,
      terms: [{ name: 'S', slug: 'small', description: '', position: 0 }],
    };
    expect(sharedAttributesKept([described])).toHaveLength(1);
  });

  it("compares a store-wide option's values as a set, a product's own option's in order", () => {
    const shared = { name: 'Size', values: ['S', 'M', 'L'], shared: { slug: 'size' } };
    expect(sharedOptionsKept([shared])).toEqual(
      sharedOptionsKept([{ ...shared, values: ['L', 'M', 'S'] }]),
    );
    expect(sharedOptionsKept([shared])).not.toEqual(
      sharedOptionsKept([{ ...shared, values: ['L', 'M'] }]),
    );
    const own = { name: 'Size', values: ['S', 'M'], shared: null };
    expect(sharedOptionsKept([own])).not.toEqual(
      sharedOptionsKept([{ ...own, values: ['M', 'S'] }]),
    );
  });

  it("gives a single-variant product its variant's weight, and variants their product's as none", () => {
    const w = { value: 1, unit: 'kg' };
    expect(productWeightKept(null, { variants: [{ weight: w }] })).toEqual(w);
    expect(productWeightKept(null, { variants: [{ weight: w }, { weight: null }] })).toBeNull();
    expect(variantWeightKept(w, { weight: w })).toBeNull();
    expect(variantWeightKept(w, { weight: { value: 2, unit: 'kg' } })).toEqual(w);
    expect(variantWeightKept(w, { weight: null })).toEqual(w);
    const d = { length: 1, width: 2, height: 3, unit: 'cm' };
    expect(variantDimensionsKept(d, { dimensions: d })).toBeUndefined();
    expect(variantDimensionsKept(d, { dimensions: null })).toEqual(d);
  });

  it("keeps a simple product's variant custom fields with the product's", () => {
    const field = { namespace: 'shopify.custom', key: 'fabric', value: 'linen', type: 'string' };
    const source = { type: 'simple', variants: [{ metafields: [field] }] };
    const destination = { type: 'simple', variants: [{ metafields: [] }] };
    expect(productMetafieldsKept([], source)).toEqual(
      productMetafieldsKept(asWooKeeps([field]), destination),
    );
    expect(variantMetafieldsKept([field], source)).toEqual([]);
    expect(productMetafieldsKept([], source)).not.toEqual(productMetafieldsKept([], destination));
    const variable = { type: 'variable', variants: [{ metafields: [field] }, { metafields: [] }] };
    expect(variantMetafieldsKept([field], variable)).toEqual(asWooKeeps([field]));
  });

  it("reads an image title that is only its file's name as none", () => {
    expect(ownTitle('tee-1', 'https://shop.test/wp-content/uploads/tee-1.jpg')).toBe('');
    expect(ownTitle('tee-1', 'https://shop.test/wp-content/uploads/tee-1-scaled.jpg')).toBe('');
    expect(ownTitle('Front view', 'https://shop.test/wp-content/uploads/tee-1.jpg')).toBe(
      'Front view',
    );
  });

  it('counts once a variation option WooCommerce adds to a line beside the source entry', () => {
    const source = [{ key: 'Color', value: 'Black' }];
    expect(lineMetaKept([{ key: 'pa_color', value: 'black' }, ...source])).toEqual(source);
    expect(lineMetaKept([{ key: 'color', value: 'Black' }, ...source])).toEqual(source);
    expect(lineMetaKept(source)).toEqual(source);
    // A WooCommerce line alone, and entries that are no option, stay as they are.
    const own = [
      { key: 'pa_size', value: 's' },
      { key: 'Engraving', value: 'J.S. 2024' },
    ];
    expect(lineMetaKept(own)).toEqual(own);
    // A source entry that did not arrive still differs.
    expect(lineMetaKept([{ key: 'pa_color', value: 'black' }])).not.toEqual(lineMetaKept(source));
    expect(lineMetaKept([{ key: 'Engraving', value: 'j.s. 2024' }])).not.toEqual(
      lineMetaKept([{ key: 'Engraving', value: 'J.S. 2024' }]),
    );
  });
});
