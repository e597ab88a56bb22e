import { describe, expect, it } from 'vitest';
import {
  asBigCommerceKeeps,
  asOrderSource,
  buyerEmailOnBilling,
  digitalAsBoth,
  notesInStaffNotes,
  notesKept,
  weightOfOneVariant,
} from './comparable.ts';

describe('the form a BigCommerce destination keeps custom fields in', () => {
  it('keeps another platform’s custom field as a metafield of the same namespace, as text', () => {
    const kept = asBigCommerceKeeps([
      { namespace: 'woocommerce', key: 'prefs', value: '{"a":1}', type: 'json' },
    ]);
    expect(kept).toEqual([
      { namespace: 'bigcommerce.woocommerce', key: 'prefs', value: '{"a":1}', type: 'string' },
    ]);
    expect(asBigCommerceKeeps(kept)).toEqual(kept);
  });

  it('leaves a field BigCommerce refuses (empty) as it was', () => {
    const empty = [{ namespace: 'woocommerce', key: 'e', value: '', type: 'string' }];
    expect(asBigCommerceKeeps(empty)).toEqual(empty);
  });

  it('compares an order’s notes as the staff notes BigCommerce keeps them in', () => {
    const order = {
      notes: [
        {
          content: 'Call first',
          customerNote: false,
          author: 'Ana',
          createdAt: '2024-09-29T09:19:02.000Z',
        },
      ],
    };
    const kept = notesInStaffNotes([], order);
    expect(kept).toEqual([
      {
        namespace: 'bigcommerce_fields',
        key: 'staff_notes',
        value: '[2024-09-29 09:19 UTC, Ana] Call first',
        type: expect.any(String) as string,
      },
    ]);
    expect(notesKept(order.notes)).toEqual([]);
    // A destination order has no notes of its own: its staff notes stay as they are.
    expect(notesInStaffNotes(kept, { notes: [] })).toEqual(kept);
  });
});

describe('the form a BigCommerce destination keeps products and orders in', () => {
  const kg = (value: number) => ({ value, unit: 'kg' });

  it('compares the weight of a product without options by its variant’s', () => {
    const simple = { options: [], variants: [{ weight: kg(2) }] };
    expect(weightOfOneVariant(null, simple)).toEqual(kg(2));
    expect(weightOfOneVariant(kg(2), simple)).toEqual(kg(2));
    // A weight of the product's own that differs from its variant's stays as it is.
    expect(weightOfOneVariant(kg(3), simple)).toEqual(kg(3));
    // A product with options has no weight of its own at BigCommerce unless the source had one.
    const variable = { options: [{ name: 'Size' }], variants: [{ weight: kg(2) }] };
    expect(weightOfOneVariant(null, variable)).toBeNull();
  });

  it('compares a virtual or downloadable variant as digital, a physical one as it is', () => {
    const variants = [
      { sku: 'a', virtual: true, downloadable: false },
      { sku: 'b', virtual: false, downloadable: true },
      { sku: 'c', virtual: false, downloadable: false },
    ];
    expect(digitalAsBoth(variants)).toEqual([
      { sku: 'a', virtual: true, downloadable: true },
      { sku: 'b', virtual: true, downloadable: true },
      { sku: 'c', virtual: false, downloadable: false },
    ]);
    // A physical variant written as digital still compares different.
    expect(digitalAsBoth([variants[2]])).not.toEqual(digitalAsBoth([variants[0]]));
  });

  it('compares where an order came from in BigCommerce’s words, and keeps what has none', () => {
    expect(asOrderSource('checkout')).toBe('www');
    expect(asOrderSource('web')).toBe('www');
    expect(asOrderSource('www')).toBe('www');
    expect(asOrderSource('')).toBe('external');
    expect(asOrderSource('pos')).toBe('pos');
    expect(asOrderSource('pos')).not.toBe(asOrderSource(''));
  });

  it('compares a billing address without e-mail as holding the buyer’s, and keeps another', () => {
    const order = { email: 'ana@example.com' };
    expect(buyerEmailOnBilling('', order)).toBe('ana@example.com');
    expect(buyerEmailOnBilling('billing@example.com', order)).toBe('billing@example.com');
  });
});
