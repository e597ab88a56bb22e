import { describe, expect, it } from 'vitest';
import { entitySchemas } from '@replatform/canonical/entities';
import type { Customer } from '@replatform/canonical/customer';
import type { Order } from '@replatform/canonical/order';
import type { Product } from '@replatform/canonical/product';
import {
  customerBody,
  orderBody,
  productBody,
  variationBody,
  convertLength,
  convertWeight,
} from './from-canonical.ts';
import { markers } from './markers.ts';
import {
  categoryToCanonical,
  customerToCanonical,
  decodeEntities,
  orderStatusToCanonical,
  orderToCanonical,
  paymentStatusToCanonical,
  productToCanonical,
  type ReadContext,
} from './to-canonical.ts';
import {
  wcCustomerSchema,
  wcOrderSchema,
  wcProductSchema,
  wcTermSchema,
  wcVariationSchema,
  type WcOrder,
} from './wc-schemas.ts';

const ctx: ReadContext = {
  currency: 'USD',
  units: { weight: 'lbs', dimension: 'in' },
  defaultCategoryId: 15,
};
const usd = (amount: number) => ({ amount, currency: 'USD' });

const baseProduct = {
  id: 40,
  name: 'Crew Tee',
  slug: 'crew-tee',
  permalink: 'https://shop.test/product/crew-tee/',
  date_created_gmt: '2024-03-01T10:00:00',
  date_modified_gmt: '2024-04-01T10:00:00',
  type: 'simple',
  status: 'publish',
  description: '<p>Soft</p>',
  short_description: '<p>Tee</p>',
  sku: 'TEE-1',
  global_unique_id: '0123456789012',
  price: '15.00',
  regular_price: '20.00',
  sale_price: '15.00',
  manage_stock: true,
  stock_quantity: 7,
  weight: '0.5',
  dimensions: { length: '10', width: '8', height: '' },
  categories: [
    { id: 15, name: 'Uncategorized', slug: 'uncategorized' },
    { id: 21, name: 'Tees', slug: 'tees' },
  ],
  tags: [
    { id: 5, name: 'Fish &amp; Chips', slug: 'fish-chips' },
    { id: 6, name: 'new', slug: 'new' },
  ],
  brands: [{ id: 9, name: 'Copper &amp; Pine', slug: 'copper-pine' }],
  images: [
    { id: 1, src: 'https://shop.test/wp-content/uploads/a.png', alt: 'Front', name: 'a' },
    { id: 2, src: 'https://shop.test/wp-content/uploads/b.png', alt: '', name: 'b' },
  ],
  attributes: [
    {
      id: 0,
      name: 'Material',
      position: 0,
      visible: true,
      variation: false,
      options: ['cotton', 'elastane'],
    },
  ],
  variations: [],
  meta_data: [],
};

describe('WooCommerce -> canonical', () => {
  it('maps every field of a simple product', () => {
    const result = productToCanonical(wcProductSchema.parse(baseProduct), [], ctx);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.record).toEqual({
      id: '40',
      type: 'simple',
      name: 'Crew Tee',
      slug: 'crew-tee',
      sku: 'TEE-1',
      descriptionHtml: '<p>Soft</p>',
      shortDescriptionHtml: '<p>Tee</p>',
      status: 'active',
      vendor: 'Copper & Pine',
      options: [],
      variants: [
        {
          id: '40',
          sku: 'TEE-1',
          optionValues: [],
          price: usd(1500),
          compareAtPrice: usd(2000),
          weight: { value: 0.5, unit: 'lb' },
          inventory: { tracked: true, quantity: 7 },
          barcode: '0123456789012',
          imageUrl: null,
        },
      ],
      images: [
        { url: 'https://shop.test/wp-content/uploads/a.png', alt: 'Front', position: 0 },
        { url: 'https://shop.test/wp-content/uploads/b.png', alt: '', position: 1 },
      ],
      categoryIds: ['21'],
      tags: ['Fish & Chips', 'new'],
      seoTitle: '',
      seoDescription: '',
      dimensions: { length: 10, width: 8, height: 0, unit: 'in' },
      attributes: { Material: 'cotton, elastane' },
      sourceUrlPath: '/product/crew-tee/',
      createdAt: '2024-03-01T10:00:00.000Z',
      updatedAt: '2024-04-01T10:00:00.000Z',
    });
    expect(entitySchemas.products.safeParse(result.record).success).toBe(true);
  });

  it('maps product statuses and refuses what has no canonical form', () => {
    const status = (s: string) => {
      const r = productToCanonical(wcProductSchema.parse({ ...baseProduct, status: s }), [], ctx);
      return r.ok ? [r.record.status, r.record.sourceUrlPath] : r.reason;
    };
    expect(status('publish')).toEqual(['active', '/product/crew-tee/']);
    expect(status('draft')).toEqual(['draft', null]);
    expect(status('pending')).toEqual(['draft', null]);
    expect(status('private')).toEqual(['archived', null]);
    const grouped = productToCanonical(
      wcProductSchema.parse({ ...baseProduct, type: 'grouped' }),
      [],
      ctx,
    );
    expect(grouped).toMatchObject({ ok: false, reason: expect.stringMatching(/Grouped/) });
    const empty = productToCanonical(
      wcProductSchema.parse({ ...baseProduct, type: 'variable' }),
      [],
      ctx,
    );
    expect(empty).toMatchObject({ ok: false });
    const external = productToCanonical(
      wcProductSchema.parse({ ...baseProduct, type: 'external' }),
      [],
      ctx,
    );
    expect(external.ok && external.record.type).toBe('simple');
  });

  it('maps a variable product: options, variants, "any" values, parent stock and weight', () => {
    const parent = wcProductSchema.parse({
      ...baseProduct,
      type: 'variable',
      sku: 'HOOD',
      weight: '1.5',
      stock_quantity: 30,
      attributes: [
        {
          id: 0,
          name: 'Color',
          position: 0,
          visible: true,
          variation: true,
          options: ['Blue', 'Red'],
        },
        { id: 0, name: 'Size', position: 1, visible: true, variation: true, options: ['S', 'M'] },
        {
          id: 0,
          name: 'Fit',
          position: 2,
          visible: true,
          variation: true,
          options: ['Slim', 'Loose'],
        },
      ],
    });
    const variations = [
      {
        id: 51,
        sku: 'HOOD-BLUE-S',
        price: '40',
        regular_price: '40',
        sale_price: '',
        manage_stock: true,
        stock_quantity: 3,
        weight: '',
        image: { id: 1, src: 'https://shop.test/wp-content/uploads/a.png', alt: '' },
        attributes: [
          { id: 0, name: 'Color', option: 'Blue' },
          { id: 0, name: 'Size', option: 'S' },
        ],
        menu_order: 1,
      },
      {
        id: 50,
        sku: 'HOOD-RED',
        price: '35',
        regular_price: '45',
        sale_price: '35',
        manage_stock: 'parent',
        stock_quantity: null,
        weight: '2',
        image: null,
        attributes: [{ id: 0, name: 'Color', option: 'Red' }],
        menu_order: 0,
      },
    ].map((v) => wcVariationSchema.parse({ ...v, meta_data: [] }));
    const result = productToCanonical(parent, variations, ctx);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const p = result.record;
    expect(p.options).toEqual([
      { name: 'Color', values: ['Blue', 'Red'] },
      { name: 'Size', values: ['S', 'M'] },
    ]);
    // "Fit" is set by no variation: it describes the product, it is not a variant axis.
    expect(p.attributes).toEqual({ Fit: 'Slim, Loose' });
    expect(
      p.variants.map((v) => [
        v.id,
        v.sku,
        v.optionValues.map((o) => o.value).join('/'),
        v.price.amount,
        v.compareAtPrice?.amount ?? null,
        v.weight?.value,
        v.inventory,
      ]),
    ).toEqual([
      ['50', 'HOOD-RED', 'Red/S', 3500, 4500, 2, { tracked: true, quantity: 30 }],
      ['50:1', '', 'Red/M', 3500, 4500, 2, { tracked: true, quantity: 30 }],
      ['51', 'HOOD-BLUE-S', 'Blue/S', 4000, null, 1.5, { tracked: true, quantity: 3 }],
    ]);
    expect(p.variants[2]?.imageUrl).toBe('https://shop.test/wp-content/uploads/a.png');
    expect(entitySchemas.products.safeParse(p).success).toBe(true);
  });

  it('maps categories with their storefront path, leaving the default category out', () => {
    const terms = [
      { id: 15, name: 'Uncategorized', slug: 'uncategorized', parent: 0 },
      { id: 20, name: 'Clothing', slug: 'clothing', parent: 0 },
      {
        id: 21,
        name: 'Hoodies &amp; Sweats',
        slug: 'hoodies-sweats',
        parent: 20,
        description: 'Warm',
        menu_order: 3,
        image: { id: 4, src: 'https://shop.test/c.png', alt: '' },
      },
      { id: 22, name: 'Odd', slug: 'odd', parent: 15 },
    ].map((t) => wcTermSchema.parse(t));
    const byId = new Map(terms.map((t) => [t.id, t]));
    expect(categoryToCanonical(terms[2] as never, byId, ctx)).toEqual({
      id: '21',
      parentId: '20',
      name: 'Hoodies & Sweats',
      slug: 'hoodies-sweats',
      // WordPress shows a stored term description with paragraphs put back (wpautop).
      description: '<p>Warm</p>',
      position: 3,
      imageUrl: 'https://shop.test/c.png',
      sourceUrlPath: '/product-category/clothing/hoodies-sweats/',
    });
    expect(categoryToCanonical(terms[3] as never, byId, ctx).parentId).toBeNull();
  });

  it('maps customers: one address for billing and shipping when they are the same', () => {
    const address = {
      first_name: 'Ann',
      last_name: 'Lee',
      company: '',
      address_1: '1 Main St',
      address_2: '',
      city: 'Austin',
      state: 'TX',
      postcode: '78701',
      country: 'us',
    };
    const same = customerToCanonical(
      wcCustomerSchema.parse({
        id: 3,
        email: 'Ann@Example.com',
        first_name: 'Ann',
        last_name: 'Lee',
        date_created_gmt: '2023-01-02T03:04:05',
        billing: { ...address, email: 'ann@example.com', phone: '555' },
        shipping: { ...address, phone: '' },
        meta_data: [],
      }),
    );
    expect(same).toEqual({
      ok: true,
      record: {
        id: '3',
        email: 'ann@example.com',
        firstName: 'Ann',
        lastName: 'Lee',
        phone: '555',
        acceptsMarketing: false,
        addresses: [
          {
            firstName: 'Ann',
            lastName: 'Lee',
            company: '',
            address1: '1 Main St',
            address2: '',
            city: 'Austin',
            province: 'TX',
            postalCode: '78701',
            countryCode: 'US',
            phone: '555',
            isDefaultBilling: true,
            isDefaultShipping: true,
          },
        ],
        note: '',
        tags: [],
        createdAt: '2023-01-02T03:04:05.000Z',
      },
    });
    const split = customerToCanonical(
      wcCustomerSchema.parse({
        id: 4,
        email: 'b@example.com',
        billing: { ...address, phone: '1' },
        shipping: { ...address, city: 'Dallas' },
        meta_data: [],
      }),
    );
    expect(
      split.ok &&
        split.record.addresses.map((a) => [a.city, a.isDefaultBilling, a.isDefaultShipping]),
    ).toEqual([
      ['Austin', true, false],
      ['Dallas', false, true],
    ]);
    const none = customerToCanonical(
      wcCustomerSchema.parse({
        id: 5,
        email: 'c@example.com',
        billing: { first_name: 'C' },
        meta_data: [],
      }),
    );
    expect(none.ok && none.record.addresses).toEqual([]);
    expect(
      customerToCanonical(wcCustomerSchema.parse({ id: 6, email: 'not-an-email', meta_data: [] }))
        .ok,
    ).toBe(false);
  });

  const order = (overrides: Record<string, unknown> = {}): WcOrder =>
    wcOrderSchema.parse({
      id: 77,
      number: '77',
      status: 'completed',
      currency: 'USD',
      date_created_gmt: '2024-05-01T12:00:00',
      date_modified_gmt: '2024-05-02T12:00:00',
      date_paid_gmt: '2024-05-01T12:05:00',
      customer_id: 3,
      customer_note: 'Gift',
      billing: {
        first_name: 'Ann',
        last_name: 'Lee',
        address_1: '1 Main St',
        city: 'Austin',
        country: 'US',
        email: 'ann@example.com',
        phone: '555',
      },
      shipping: {
        first_name: 'Ann',
        last_name: 'Lee',
        address_1: '2 Side St',
        city: 'Austin',
        country: 'US',
      },
      discount_total: '5.00',
      shipping_total: '4.99',
      total: '57.39',
      total_tax: '3.40',
      line_items: [
        {
          id: 1,
          name: 'Tee - Red',
          product_id: 40,
          variation_id: 50,
          quantity: 2,
          subtotal: '40.00',
          total: '35.00',
          total_tax: '3.40',
          sku: 'TEE-RED',
          meta_data: [],
        },
      ],
      shipping_lines: [
        {
          id: 2,
          method_title: 'Flat rate',
          method_id: 'flat_rate',
          total: '4.99',
          total_tax: '0.00',
          meta_data: [],
        },
      ],
      fee_lines: [
        { id: 3, name: 'Loyalty', total: '-2.00', meta_data: [] },
        {
          id: 4,
          name: 'Tax',
          total: '1.00',
          meta_data: [{ key: markers.taxTotal, value: '1.00' }],
        },
      ],
      coupon_lines: [{ id: 5, code: 'spring', discount: '5.00', meta_data: [] }],
      refunds: [],
      meta_data: [],
      ...overrides,
    });

  it('maps every field of an order, with discounts from coupons and negative fees', () => {
    const result = orderToCanonical(order());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.record).toEqual({
      id: '77',
      number: '77',
      createdAt: '2024-05-01T12:00:00.000Z',
      updatedAt: '2024-05-02T12:00:00.000Z',
      currency: 'USD',
      customerId: '3',
      email: 'ann@example.com',
      status: 'completed',
      paymentStatus: 'paid',
      fulfillmentStatus: 'fulfilled',
      lines: [
        {
          id: '1',
          productId: '40',
          variantId: '50',
          sku: 'TEE-RED',
          name: 'Tee - Red',
          quantity: 2,
          unitPrice: usd(2000),
          tax: usd(340),
          total: usd(4000),
        },
      ],
      shippingLines: [{ title: 'Flat rate', code: 'flat_rate', price: usd(499), tax: usd(0) }],
      discounts: [
        { code: 'spring', amount: usd(500) },
        { code: 'Loyalty', amount: usd(200) },
      ],
      subtotal: usd(4000),
      taxTotal: usd(440),
      shippingTotal: usd(499),
      discountTotal: usd(700),
      grandTotal: usd(5739),
      billingAddress: {
        firstName: 'Ann',
        lastName: 'Lee',
        company: '',
        address1: '1 Main St',
        address2: '',
        city: 'Austin',
        province: '',
        postalCode: '',
        countryCode: 'US',
        phone: '555',
      },
      shippingAddress: {
        firstName: 'Ann',
        lastName: 'Lee',
        company: '',
        address1: '2 Side St',
        address2: '',
        city: 'Austin',
        province: '',
        postalCode: '',
        countryCode: 'US',
        phone: '',
      },
      note: 'Gift',
    });
    expect(entitySchemas.orders.safeParse(result.record).success).toBe(true);
  });

  it('reads taxes carried in meta when the store calculated none', () => {
    const result = orderToCanonical(
      order({
        total_tax: '0.00',
        line_items: [
          {
            id: 1,
            name: 'Tee',
            product_id: 40,
            quantity: 1,
            subtotal: '10.00',
            total: '10.00',
            total_tax: '0.00',
            meta_data: [{ key: markers.tax, value: '0.80' }],
          },
        ],
        shipping_lines: [
          {
            id: 2,
            method_title: 'Flat',
            method_id: 'flat_rate',
            total: '5.00',
            total_tax: '0.00',
            meta_data: [{ key: markers.tax, value: '0.20' }],
          },
        ],
      }),
    );
    expect(
      result.ok && [
        result.record.lines[0]?.tax.amount,
        result.record.shippingLines[0]?.tax.amount,
        result.record.taxTotal.amount,
      ],
    ).toEqual([80, 20, 100]);
  });

  it('maps order statuses and payment states (status table in to-canonical.ts)', () => {
    expect(
      ['pending', 'processing', 'on-hold', 'completed', 'cancelled', 'refunded', 'failed'].map(
        (s) => orderStatusToCanonical(s, false),
      ),
    ).toEqual(['pending', 'processing', 'on-hold', 'completed', 'cancelled', 'refunded', 'failed']);
    expect(orderStatusToCanonical('checkout-draft', false)).toBe('pending');
    expect(orderStatusToCanonical('trash', true)).toBe('cancelled');
    expect(orderStatusToCanonical('shipped', true)).toBe('processing');
    expect(orderStatusToCanonical('awaiting-stock', false)).toBe('pending');
    const pay = (o: Record<string, unknown>) => paymentStatusToCanonical(order(o), 'USD');
    expect(pay({ status: 'refunded' })).toBe('refunded');
    expect(pay({ status: 'completed', refunds: [{ id: 1, total: '-5.00' }] })).toBe(
      'partially_refunded',
    );
    expect(pay({ status: 'processing' })).toBe('paid');
    expect(pay({ status: 'cancelled', date_paid_gmt: null })).toBe('voided');
    expect(pay({ status: 'on-hold', date_paid_gmt: null })).toBe('pending');
    const fulfil = (status: string) => {
      const r = orderToCanonical(order({ status }));
      return r.ok ? r.record.fulfillmentStatus : undefined;
    };
    expect([fulfil('completed'), fulfil('processing')]).toEqual(['fulfilled', 'unfulfilled']);
  });

  it('refuses orders the canonical model cannot hold', () => {
    expect(orderToCanonical(order({ line_items: [] })).ok).toBe(false);
    expect(
      orderToCanonical(
        order({
          line_items: [
            { id: 1, name: 'x', quantity: 0, subtotal: '0', total: '0', total_tax: '0' },
          ],
        }),
      ).ok,
    ).toBe(false);
  });

  it('decodes the entities WordPress escapes term names with', () => {
    expect(decodeEntities('Tom &amp; Jerry&#039;s &quot;best&quot; &#8211; &#x263A;')).toBe(
      'Tom & Jerry\'s "best" – ☺',
    );
  });
});

const canonicalProduct: Product = {
  id: 'p1',
  type: 'variable',
  name: 'Hoodie',
  slug: 'hoodie',
  sku: 'HOOD',
  descriptionHtml: '<p>Warm</p>',
  shortDescriptionHtml: '',
  status: 'archived',
  vendor: 'Luma',
  options: [{ name: 'Size', values: ['S', 'M'] }],
  variants: [
    {
      id: 'v1',
      sku: 'HOOD-S',
      optionValues: [{ name: 'Size', value: 'S' }],
      price: usd(3000),
      compareAtPrice: usd(4000),
      weight: { value: 1, unit: 'kg' },
      inventory: { tracked: true, quantity: 4 },
      barcode: '123',
      imageUrl: 'https://src.test/b.png',
    },
    {
      id: 'v2',
      sku: 'HOOD-M',
      optionValues: [{ name: 'Size', value: 'M' }],
      price: usd(3000),
      compareAtPrice: usd(2500),
      weight: null,
      inventory: { tracked: false, quantity: 0 },
      barcode: '',
      imageUrl: null,
    },
  ],
  images: [
    { url: 'https://src.test/b.png', alt: 'Back', position: 1 },
    { url: 'https://src.test/a.png', alt: '', position: 0 },
  ],
  categoryIds: ['c1'],
  tags: ['warm'],
  seoTitle: 'Hoodie | Shop',
  seoDescription: '',
  dimensions: { length: 10, width: 20, height: 2.54, unit: 'cm' },
  attributes: { Material: 'wool' },
  sourceUrlPath: '/p/hoodie',
  createdAt: '2022-02-03T04:05:06.000Z',
  updatedAt: null,
};

describe('canonical -> WooCommerce', () => {
  const units = { weight: 'lbs', dimension: 'in' };

  it('builds a product body from every holdable field', () => {
    const { body, warnings } = productBody(canonicalProduct, {
      categoryIds: [31],
      tagIds: [41],
      brandIds: [51],
      currency: 'USD',
      units,
    });
    expect(body).toEqual({
      name: 'Hoodie',
      slug: 'hoodie',
      type: 'variable',
      status: 'private',
      description: '<p>Warm</p>',
      short_description: '',
      sku: 'HOOD',
      categories: [{ id: 31 }],
      tags: [{ id: 41 }],
      brands: [{ id: 51 }],
      images: [{ src: 'https://src.test/a.png' }, { src: 'https://src.test/b.png', alt: 'Back' }],
      attributes: [
        { name: 'Size', position: 0, visible: true, variation: true, options: ['S', 'M'] },
        { name: 'Material', position: 1, visible: true, variation: false, options: ['wool'] },
      ],
      dimensions: { length: '3.937', width: '7.874', height: '1' },
      date_created_gmt: '2022-02-03T04:05:06',
    });
    expect(warnings).toEqual([expect.stringMatching(/SEO/)]);
    const simple = productBody(
      {
        ...canonicalProduct,
        type: 'simple',
        options: [],
        variants: [canonicalProduct.variants[0] as Product['variants'][number]],
        status: 'active',
        dimensions: null,
      },
      { categoryIds: [], tagIds: [], brandIds: [], currency: 'EUR', units },
    );
    expect(simple.body).toMatchObject({
      status: 'publish',
      regular_price: '40.00',
      sale_price: '30.00',
      manage_stock: true,
      stock_quantity: 4,
      weight: '2.2046',
      global_unique_id: '123',
      dimensions: { length: '', width: '', height: '' },
    });
    expect(simple.warnings).toEqual(
      expect.arrayContaining([expect.stringMatching(/in USD; the store sells in EUR/)]),
    );
  });

  it('builds variation bodies; a compare-at price below the price is not a sale', () => {
    const [a, b] = canonicalProduct.variants;
    expect(variationBody(a as never, units, 0, 99)).toEqual({
      sku: 'HOOD-S',
      global_unique_id: '123',
      description: '',
      dimensions: { length: '', width: '', height: '' },
      regular_price: '40.00',
      sale_price: '30.00',
      manage_stock: true,
      stock_quantity: 4,
      weight: '2.2046',
      attributes: [{ name: 'Size', option: 'S' }],
      menu_order: 0,
      image: { id: 99 },
    });
    expect(
      variationBody(
        {
          ...(b as never as object),
          dimensions: { length: 1, width: 2, height: 3, unit: 'm' },
          descriptionHtml: '<p>Own text</p>',
        } as never,
        units,
        1,
        undefined,
      ),
    ).toMatchObject({
      description: '<p>Own text</p>',
      dimensions: { length: '39.3701', width: '78.7402', height: '118.1102' },
      regular_price: '30.00',
      sale_price: '',
      manage_stock: false,
      weight: '',
      image: {},
    });
    expect(convertWeight(16, 'oz', 'lbs')).toBe('1');
    expect(convertLength(1, 'yd', 'in')).toBe('36');
  });

  it('puts the default billing and shipping addresses on the account and reports the rest', () => {
    const address = {
      firstName: 'Ann',
      lastName: 'Lee',
      company: '',
      address1: '1 Main',
      address2: '',
      city: 'Austin',
      province: 'TX',
      postalCode: '1',
      countryCode: 'US',
      phone: '',
    };
    const customer: Customer = {
      id: 'c1',
      email: 'ann@example.com',
      firstName: 'Ann',
      lastName: 'Lee',
      phone: '555',
      acceptsMarketing: true,
      addresses: [
        { ...address, city: 'Other', isDefaultBilling: false, isDefaultShipping: false },
        { ...address, isDefaultBilling: true, isDefaultShipping: false },
        {
          ...address,
          city: 'Dallas',
          phone: '777',
          isDefaultBilling: false,
          isDefaultShipping: true,
        },
      ],
      note: 'VIP',
      tags: ['vip'],
      createdAt: '2020-01-01T00:00:00.000Z',
    };
    const { body, warnings } = customerBody(customer);
    expect(body).toEqual({
      email: 'ann@example.com',
      first_name: 'Ann',
      last_name: 'Lee',
      billing: {
        first_name: 'Ann',
        last_name: 'Lee',
        company: '',
        address_1: '1 Main',
        address_2: '',
        city: 'Austin',
        state: 'TX',
        postcode: '1',
        country: 'US',
        email: 'ann@example.com',
        phone: '555',
      },
      shipping: {
        first_name: 'Ann',
        last_name: 'Lee',
        company: '',
        address_1: '1 Main',
        address_2: '',
        city: 'Dallas',
        state: 'TX',
        postcode: '1',
        country: 'US',
        phone: '777',
      },
    });
    expect(warnings).toHaveLength(5);
  });

  const canonicalOrder: Order = {
    id: 'o1',
    number: '1001',
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: null,
    currency: 'USD',
    customerId: 'c1',
    email: '',
    status: 'completed',
    paymentStatus: 'paid',
    fulfillmentStatus: 'fulfilled',
    lines: [
      {
        id: 'l1',
        productId: 'p1',
        variantId: 'v1',
        sku: 'HOOD-S',
        name: 'Hoodie - S',
        quantity: 2,
        unitPrice: usd(3000),
        tax: usd(480),
        total: usd(6000),
      },
    ],
    shippingLines: [{ title: 'Courier', code: '', price: usd(500), tax: usd(40) }],
    discounts: [{ code: 'WELCOME10', amount: usd(1000) }],
    subtotal: usd(6000),
    taxTotal: usd(520),
    shippingTotal: usd(500),
    discountTotal: usd(1000),
    grandTotal: usd(6020),
    billingAddress: null,
    shippingAddress: null,
    note: '',
  };

  it('builds an order body that keeps totals, taxes and discounts as the customer paid them', () => {
    const { body, warnings } = orderBody(canonicalOrder, 12, [{ productId: 30, variationId: 31 }]);
    expect(body).toEqual({
      status: 'completed',
      currency: 'USD',
      customer_id: 12,
      customer_note: '',
      created_via: 'replatform',
      line_items: [
        {
          product_id: 30,
          variation_id: 31,
          name: 'Hoodie - S',
          quantity: 2,
          subtotal: '60.00',
          total: '60.00',
          meta_data: [{ key: markers.tax, value: '4.80' }],
        },
      ],
      shipping_lines: [
        {
          method_title: 'Courier',
          method_id: 'other',
          total: '5.00',
          // The source had no method code: read back without the 'other' WooCommerce needs.
          meta_data: [
            { key: markers.tax, value: '0.40' },
            { key: markers.shippingCode, value: '' },
          ],
        },
      ],
      fee_lines: [
        {
          name: 'WELCOME10',
          tax_status: 'none',
          total: '-10.00',
          meta_data: [{ key: markers.discount, value: 'WELCOME10' }],
        },
        {
          name: 'Tax',
          tax_status: 'none',
          total: '5.20',
          meta_data: [{ key: markers.taxTotal, value: '5.20' }],
        },
      ],
      set_paid: true,
    });
    expect(warnings).toEqual([
      "WooCommerce numbers and dates orders itself: source order 1001 of 2024-01-01 keeps its number and date in the order's meta data (_replatform_source_number, _replatform_source_created_at).",
    ]);
  });

  it('records payment and completion by passing through processing or completed', () => {
    // Paid but on hold: created paid (processing, set_paid), then moved on to on-hold.
    const paidOnHold = orderBody(
      { ...canonicalOrder, status: 'on-hold', fulfillmentStatus: 'unfulfilled' },
      0,
      [],
    );
    expect(paidOnHold.body).toMatchObject({ status: 'processing', set_paid: true });
    expect(paidOnHold.finalStatus).toBe('on-hold');
    // Fulfilled and refunded since: created completed, then refunded.
    const refunded = orderBody(
      { ...canonicalOrder, status: 'refunded', paymentStatus: 'refunded' },
      0,
      [],
    );
    expect(refunded.body).toMatchObject({ status: 'completed', set_paid: true });
    expect(refunded.finalStatus).toBe('refunded');
    // Nothing to record: created in its final status.
    const pending = orderBody(
      {
        ...canonicalOrder,
        status: 'pending',
        paymentStatus: 'pending',
        fulfillmentStatus: 'unfulfilled',
      },
      0,
      [],
    );
    expect(pending.body).toMatchObject({ status: 'pending', set_paid: false });
    expect(pending.finalStatus).toBeUndefined();
    const unpaid = orderBody(
      { ...canonicalOrder, paymentStatus: 'pending', status: 'processing' },
      0,
      [],
    );
    // Fulfilled, so completed; but not paid, so no payment_complete() and a warning.
    expect(unpaid.body).toMatchObject({ status: 'completed', set_paid: false });
    expect(unpaid.warnings).toEqual(
      expect.arrayContaining([expect.stringMatching(/counts a completed order as paid/)]),
    );
    expect(orderBody({ ...canonicalOrder, grandTotal: usd(9999) }, 0, []).warnings).toEqual([
      expect.stringMatching(/numbers and dates orders itself/),
      expect.stringMatching(/cannot hold/),
    ]);
  });
});
