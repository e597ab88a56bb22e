import { describe, expect, it } from 'vitest';
import { brandSchema } from '@replatform/canonical/brand';
import { brandDefaults } from '@replatform/canonical/defaults';
import { unwritableDataTypes } from '@replatform/contracts/migration';
import { canonicalPathsOf } from '../kit/fields.ts';
import { shopifyCapabilities } from './shopify-connector.ts';
import { vendorToBrand, vendorUrlPath } from './to-canonical.ts';

describe('a Shopify vendor as a brand', () => {
  it('is named and identified by the vendor, every other field neutral, invented nothing', () => {
    const brand = vendorToBrand('Northwind Outfitters');
    expect(brand).toEqual({
      ...brandDefaults(),
      id: 'Northwind Outfitters',
      name: 'Northwind Outfitters',
      sourceUrlPath: '/collections/vendors?q=Northwind%20Outfitters',
    });
    expect(brandSchema.parse(brand)).toEqual(brand);
  });

  it('has the vendor collection as its page, the name URL-encoded as written', () => {
    expect(vendorUrlPath('Fjällbo')).toBe('/collections/vendors?q=Fj%C3%A4llbo');
    expect(vendorUrlPath('Copper & Pine')).toBe('/collections/vendors?q=Copper%20%26%20Pine');
    expect(vendorUrlPath('50/50 #1?')).toBe('/collections/vendors?q=50%2F50%20%231%3F');
    expect(vendorUrlPath('ACME')).not.toBe(vendorUrlPath('acme'));
  });
});

describe('Shopify brand capabilities and declarations', () => {
  it('reads brands but does not write them, for the reason the contracts give', () => {
    expect(shopifyCapabilities.read).toContain('brands');
    expect(shopifyCapabilities.write).not.toContain('brands');
    expect(unwritableDataTypes.shopify.brands).toMatch(/no brand records/);
    // A page is a page of productVendors (its largest, 1000).
    expect(shopifyCapabilities.pageSize.brands).toBe(1000);
    expect(shopifyCapabilities.batchSize.brands).toBeUndefined();
    expect(shopifyCapabilities.destinationFields.brands).toBeUndefined();
  });

  it('declares the vendor, its one native field, as carried into the name', () => {
    const catalogue = shopifyCapabilities.nativeFields.brands ?? {};
    expect(Object.keys(catalogue)).toEqual(['vendor']);
    expect(canonicalPathsOf(catalogue.vendor!)).toEqual(['name']);
    expect('carried' in catalogue.vendor!).toBe(true);
  });
});
