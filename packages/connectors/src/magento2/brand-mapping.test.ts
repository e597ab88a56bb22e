import { brandDefaults } from '@replatform/canonical/defaults';
import { describe, expect, it } from 'vitest';
import { brandToCanonical, optionPayload, unwritable } from './brand-mapping.ts';

describe('Magento brand mapping', () => {
  it('reads an option: id from value, name from the admin label, position from sort_order', () => {
    expect(brandToCanonical({ value: '41', label: 'Fjällbo', sort_order: 3 }, 0)).toEqual({
      ...brandDefaults(),
      id: '41',
      name: 'Fjällbo',
      position: 3,
      sourceUrlPath: null,
    });
  });

  it('takes the place in the list as the position when the store gives no sort order', () => {
    expect(brandToCanonical({ value: '7', label: 'Acme & Co' }, 4).position).toBe(4);
    expect(brandToCanonical({ value: '7', label: 'Acme & Co', sort_order: -1 }, 2).position).toBe(
      2,
    );
  });

  it('writes the name as the admin label and the position as the sort order, nothing else', () => {
    const brand = {
      ...brandDefaults(),
      id: '9',
      name: 'Northwind',
      position: 2,
      description: '<p>Outdoor.</p>',
      seoTitle: 'Northwind',
      sourceUrlPath: '/brand/northwind/',
    };
    expect(optionPayload(brand)).toEqual({
      label: 'Northwind',
      value: '',
      sort_order: 2,
      is_default: false,
      store_labels: [{ store_id: 0, label: 'Northwind' }],
    });
    expect(optionPayload(brand, '12').value).toBe('12');
  });

  it('refuses a name longer than an option label holds, rather than cutting it', () => {
    const brand = { ...brandDefaults(), id: '1', name: 'x'.repeat(256), sourceUrlPath: null };
    expect(unwritable(brand)).toContain('255');
    expect(unwritable({ ...brand, name: 'x'.repeat(255) })).toBeUndefined();
  });
});
