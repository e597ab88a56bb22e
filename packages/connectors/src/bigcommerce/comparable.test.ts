import { describe, expect, it } from 'vitest';
import { asBigCommerceKeeps, notesInStaffNotes, notesKept } from './comparable.ts';

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
