import { describe, expect, it } from 'vitest';
import { asWooKeeps, statusKept } from './comparable.ts';

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
});
