import { describe, expect, it } from 'vitest';
import { entitySchemas } from '@replatform/canonical/entities';
import {
  customerBody,
  orderBody,
  orderDatesMeta,
  attributeSettings,
  categoryBody,
  orderStatusToWc,
  price,
  productBody,
  termBody,
  variationBody,
  type ProductRefs,
} from './from-canonical.ts';
import { metafieldsToMeta, metaToMetafields } from './metafields.ts';
import {
  inTermOrder,
  categoryToCanonical,
  customerToCanonical,
  decodeEntities,
  orderStatusToCanonical,
  orderToCanonical,
  paymentStatusToCanonical,
  productToCanonical,
  sharedAttributeToCanonical,
  termSlug,
  type ReadContext,
} from './to-canonical.ts';
import { customer, order, product, usd } from './test-records.ts';
import {
  wcAttributeSchema,
  wcAttributeTermSchema,
  wcCustomerSchema,
  wcOrderNoteSchema,
  wcOrderSchema,
  wcProductSchema,
  wcRefundSchema,
  wcTermSchema,
  wcVariationSchema,
} from './wc-schemas.ts';

const ctx: ReadContext = {
  currency: 'USD',
  units: { weight: 'lbs', dimension: 'in' },
  defaultCategoryId: 15,
};
const units = ctx.units;

/** A product as a real WooCommerce 11.0.1 answers it with context=edit (the fields read). */
const wcProduct = (overrides: Record<string, unknown> = {}) =>
  wcProductSchema.parse({
    id: 40,
    name: 'Crew Tee',
    slug: 'crew-tee',
    permalink: 'https://shop.test/product/crew-tee/',
    date_created_gmt: '2024-03-01T10:00:00',
    date_modified_gmt: '2024-04-01T10:00:00',
    type: 'simple',
    status: 'publish',
    featured: true,
    catalog_visibility: 'hidden',
    description: '<p>Soft &amp; warm</p>',
    short_description: '<p>Tee</p>',
    sku: 'TEE-1',
    global_unique_id: '0123456789012',
    price: '20',
    regular_price: '20',
    sale_price: '15',
    date_on_sale_from_gmt: '2030-11-20T00:00:00',
    date_on_sale_to_gmt: '2030-12-01T23:59:59',
    virtual: false,
    downloadable: true,
    downloads: [{ id: 'u-1', name: 'Pattern', file: 'https://files.test/p.pdf' }],
    download_limit: 5,
    download_expiry: -1,
    tax_status: 'shipping',
    tax_class: 'reduced-rate',
    manage_stock: true,
    stock_quantity: -2,
    stock_status: 'onbackorder',
    backorders: 'notify',
    low_stock_amount: 3,
    sold_individually: true,
    weight: '0.5',
    dimensions: { length: '10', width: '8', height: '' },
    shipping_class: 'bulky',
    reviews_allowed: false,
    upsell_ids: [41],
    cross_sell_ids: [42, 43],
    parent_id: 0,
    purchase_note: 'Thanks &amp; enjoy',
    menu_order: 4,
    categories: [
      { id: 15, name: 'Uncategorized', slug: 'uncategorized' },
      { id: 21, name: 'Tees', slug: 'tees' },
    ],
    tags: [
      { id: 5, name: 'Café ☕ &amp; co', slug: 'cafe' },
      { id: 6, name: 'new', slug: 'new' },
    ],
    brands: [{ id: 9, name: 'Copper &amp; Pine', slug: 'copper-pine' }],
    images: [
      { id: 1, src: 'https://shop.test/a.png', alt: 'Front', name: 'a.png' },
      { id: 2, src: 'https://shop.test/b.png', alt: '', name: 'Back view' },
    ],
    attributes: [
      {
        id: 0,
        name: 'Material',
        slug: 'Material',
        position: 0,
        visible: true,
        variation: false,
        options: ['Cotton', 'Elastane'],
      },
    ],
    meta_data: [
      { id: 1, key: 'care', value: 'Wash cold' },
      { id: 2, key: 'badge', value: { label: 'new' } },
      { id: 3, key: '_replatform_hash', value: 'x' },
    ],
    ...overrides,
  });

describe('WooCommerce -> canonical', () => {
  it('maps every field of a simple product', () => {
    const result = productToCanonical(wcProduct(), [], ctx);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(entitySchemas.products.safeParse(result.record).success).toBe(true);
    // WooCommerce's id of a downloadable file has no place in the model.
    expect(result.losses.map((l) => l.field)).toEqual(['downloads[].id']);
    expect(result.record).toMatchObject({
      id: '40',
      type: 'simple',
      status: 'active',
      visibility: 'hidden',
      featured: true,
      descriptionHtml: '<p>Soft & warm</p>',
      vendor: 'Copper & Pine',
      taxStatus: 'shipping',
      taxClass: 'reduced-rate',
      shippingClass: 'bulky',
      soldIndividually: true,
      reviewsAllowed: false,
      purchaseNote: 'Thanks & enjoy',
      menuOrder: 4,
      upsellIds: ['41'],
      crossSellIds: ['42', '43'],
      categoryIds: ['21'],
      tags: ['Café ☕ & co', 'new'],
      weight: { value: 0.5, unit: 'lb' },
      dimensions: { length: 10, width: 8, height: 0, unit: 'in' },
      images: [
        { url: 'https://shop.test/a.png', alt: 'Front', title: 'a.png', position: 0 },
        { url: 'https://shop.test/b.png', alt: '', title: 'Back view', position: 1 },
      ],
      // Several values of one attribute stay apart.
      attributes: [
        {
          name: 'Material',
          values: ['Cotton', 'Elastane'],
          shared: null,
          visible: true,
          position: 0,
        },
      ],
      metafields: [
        { namespace: 'woocommerce', key: 'care', value: 'Wash cold', type: 'string' },
        { namespace: 'woocommerce', key: 'badge', value: '{"label":"new"}', type: 'json' },
      ],
      sourceUrlPath: '/product/crew-tee/',
      createdAt: '2024-03-01T10:00:00.000Z',
    });
    expect(result.record.variants).toEqual([
      expect.objectContaining({
        id: '40',
        sku: 'TEE-1',
        price: usd(2000),
        // A sale that starts later keeps its sale price.
        salePrice: usd(1500),
        saleStartsAt: '2030-11-20T00:00:00.000Z',
        saleEndsAt: '2030-12-01T23:59:59.000Z',
        inventory: {
          tracked: true,
          quantity: -2,
          stockStatus: 'onbackorder',
          backorders: 'notify',
          lowStockThreshold: 3,
        },
        downloadable: true,
        downloads: [{ name: 'Pattern', url: 'https://files.test/p.pdf' }],
        downloadLimit: 5,
        downloadExpiryDays: null,
        barcode: '0123456789012',
        weight: { value: 0.5, unit: 'lb' },
      }),
    ]);
  });

  it('keeps grouped products with their members and external products with their buy link', () => {
    const grouped = productToCanonical(
      wcProduct({ type: 'grouped', grouped_products: [13, 14], regular_price: '', price: '18' }),
      [],
      ctx,
    );
    expect(grouped.ok && grouped.record).toMatchObject({
      type: 'grouped',
      variants: [],
      groupedProductIds: ['13', '14'],
    });
    const external = productToCanonical(
      wcProduct({ type: 'external', external_url: 'https://x.test/p', button_text: 'Buy there' }),
      [],
      ctx,
    );
    expect(external.ok && external.record).toMatchObject({
      type: 'external',
      externalUrl: 'https://x.test/p',
      buttonText: 'Buy there',
    });
    expect(productToCanonical(wcProduct({ type: 'bundle' }), [], ctx).ok).toBe(false);
  });

  it('maps a variable product: store-wide options, "any" values, defaults, what variations inherit', () => {
    const parent = wcProduct({
      type: 'variable',
      sku: 'HOOD',
      global_unique_id: '',
      manage_stock: false,
      regular_price: '',
      sale_price: '',
      weight: '1.5',
      dimensions: { length: '10', width: '8', height: '3' },
      shipping_class: '',
      attributes: [
        {
          id: 1,
          name: 'Color',
          slug: 'pa_color',
          position: 0,
          visible: true,
          variation: true,
          options: ['Blue', 'Light &amp; Dark'],
        },
        {
          id: 2,
          name: 'Size',
          slug: 'pa_size',
          position: 1,
          visible: true,
          variation: true,
          options: ['Large', 'Medium', 'Small'],
        },
        {
          id: 0,
          name: 'Logo',
          slug: 'Logo',
          position: 2,
          visible: false,
          variation: true,
          options: ['Yes', 'No'],
        },
      ],
      default_attributes: [{ id: 1, name: 'Color', option: 'light-dark' }],
    });
    const variation = (o: Record<string, unknown>) =>
      wcVariationSchema.parse({
        sku: '',
        regular_price: '45',
        sale_price: '',
        status: 'publish',
        tax_class: 'parent',
        manage_stock: false,
        stock_status: 'instock',
        backorders: 'no',
        weight: '1.5',
        dimensions: { length: '10', width: '8', height: '3' },
        shipping_class: '',
        menu_order: 0,
        attributes: [],
        meta_data: [],
        ...o,
      });
    const result = productToCanonical(
      parent,
      [
        variation({
          id: 30,
          sku: 'HOOD-B',
          menu_order: 1,
          attributes: [
            { id: 1, name: 'Color', slug: 'pa_color', option: 'Blue' },
            { id: 0, name: 'Logo', slug: 'logo', option: 'No' },
          ],
          status: 'private',
          tax_class: '',
          weight: '2',
          image: { id: 9, src: 'https://shop.test/swatch.png', name: 'Swatch', alt: '' },
          meta_data: [{ id: 1, key: 'supplier', value: 'S-1' }],
          date_created_gmt: '2026-11-26T13:05:51',
          downloadable: true,
          downloads: [{ id: 'f-2', name: 'Chart', file: 'https://files.test/c.pdf' }],
        }),
        variation({
          id: 31,
          menu_order: 0,
          attributes: [{ id: 1, name: 'Color', slug: 'pa_color', option: 'Light &amp; Dark' }],
          manage_stock: 'parent',
          stock_quantity: 4,
          dimensions: { length: '20', width: '8', height: '3' },
          description: '<p>Runs large.</p>\n',
        }),
      ],
      ctx,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(entitySchemas.products.safeParse(result.record).success).toBe(true);
    const p = result.record;
    // "Any Size": Size stays an option with its values apart; no variation sets it.
    expect(p.options).toEqual([
      {
        name: 'Color',
        values: ['Blue', 'Light & Dark'],
        shared: { slug: 'color' },
        visible: true,
        position: 0,
      },
      {
        name: 'Size',
        values: ['Large', 'Medium', 'Small'],
        shared: { slug: 'size' },
        visible: true,
        position: 1,
      },
      { name: 'Logo', values: ['Yes', 'No'], shared: null, visible: false, position: 2 },
    ]);
    expect(p.defaultOptionValues).toEqual([{ name: 'Color', value: 'Light & Dark' }]);
    expect(p.weight).toEqual({ value: 1.5, unit: 'lb' });
    expect(p.variants.map((v) => v.id)).toEqual(['31', '30']);
    const [first, second] = p.variants;
    expect(first).toMatchObject({
      optionValues: [{ name: 'Color', value: 'Light & Dark' }],
      status: 'active',
      taxClass: null,
      // The product's weight answered for a variation without its own is not the variant's.
      weight: null,
      dimensions: { length: 20, width: 8, height: 3, unit: 'in' },
      descriptionHtml: '<p>Runs large.</p>',
      inventory: { tracked: true, quantity: 4 },
      position: 0,
    });
    expect(second).toMatchObject({
      optionValues: [
        { name: 'Color', value: 'Blue' },
        { name: 'Logo', value: 'No' },
      ],
      status: 'private',
      taxClass: '',
      weight: { value: 2, unit: 'lb' },
      imageUrl: 'https://shop.test/swatch.png',
      position: 1,
      metafields: [{ namespace: 'woocommerce', key: 'supplier', value: 'S-1', type: 'string' }],
    });
    expect(second?.dimensions).toBeUndefined();
    expect(second?.downloads).toEqual([{ name: 'Chart', url: 'https://files.test/c.pdf' }]);
    // A variant image no gallery shows keeps only its address: its title is a loss. A
    // variation's creation date and its files' ids have no place in the model either.
    expect(result.losses.map((l) => l.field)).toEqual([
      'variation_records[].date_created',
      'variation_records[].date_created_gmt',
      'variation_records[].downloads[].id',
      'variation_records[].image.name',
    ]);
  });

  it('reports what the model cannot carry, record by record', () => {
    const result = productToCanonical(
      wcProduct({
        status: 'future',
        post_password: 'secret',
        brands: [
          { id: 9, name: 'A', slug: 'a' },
          { id: 10, name: 'B', slug: 'b' },
        ],
      }),
      [],
      ctx,
    );
    expect(result.ok && result.record.status).toBe('draft');
    expect(result.ok && result.losses.map((l) => l.field)).toEqual([
      'downloads[].id',
      'post_password',
      'status',
      'brands[]',
    ]);
  });

  it('maps categories with their storefront path, display, image alt; leaves the default out', () => {
    const all = new Map(
      [
        { id: 15, name: 'Uncategorized', slug: 'uncategorized', parent: 0 },
        { id: 20, name: 'Clothing', slug: 'clothing', parent: 0 },
        {
          id: 21,
          name: 'Tees &amp; Tops',
          slug: 'tees',
          parent: 20,
          description: 'First\n\nSecond',
          display: 'subcategories',
          menu_order: 2,
          image: { id: 3, src: 'https://shop.test/c.png', alt: 'Tees', name: 'c' },
        },
      ].map((t) => [t.id, wcTermSchema.parse(t)]),
    );
    const result = categoryToCanonical(all.get(21) as never, all, 15);
    expect(result.ok && result.record).toEqual({
      id: '21',
      parentId: '20',
      name: 'Tees & Tops',
      slug: 'tees',
      description: '<p>First</p><p>Second</p>',
      position: 2,
      imageUrl: 'https://shop.test/c.png',
      imageAlt: 'Tees',
      // The image's title is only its file's name.
      imageTitle: '',
      displayType: 'subcategories',
      seoTitle: '',
      seoDescription: '',
      metafields: [],
      sourceUrlPath: '/product-category/clothing/tees/',
    });
    expect(result.ok && result.losses).toEqual([]);
  });

  it("reads a store-wide attribute's settings and every term, and a product's tags with slug and description", () => {
    const colour = sharedAttributeToCanonical(
      wcAttributeSchema.parse({
        id: 1,
        name: 'Farbe &amp; Ton',
        slug: 'pa_farbe',
        type: 'select',
        order_by: 'name_num',
        has_archives: true,
      }),
      [
        { id: 9, name: 'Wool', slug: 'wool', description: '', menu_order: 0 },
        {
          id: 4,
          name: 'Red &amp; Pink',
          slug: 'red-pink',
          description: '<b>warm</b>',
          menu_order: 7,
        },
      ].map((t) => wcAttributeTermSchema.parse(t)),
    );
    expect(colour).toEqual({
      slug: 'farbe',
      name: 'Farbe & Ton',
      archives: true,
      termOrder: 'name_numeric',
      terms: [
        { name: 'Red & Pink', slug: 'red-pink', description: '<b>warm</b>', position: 7 },
        { name: 'Wool', slug: 'wool', description: '', position: 0 },
      ],
    });
    const p = wcProduct({
      attributes: [
        {
          id: 1,
          name: 'Farbe',
          slug: 'pa_farbe',
          position: 0,
          visible: true,
          variation: false,
          options: ['Wool'],
        },
      ],
      tags: [
        { id: 31, name: 'Bio &amp; Öko', slug: 'oeko' },
        { id: 32, name: 'Neu', slug: 'neu' },
      ],
    });
    const result = productToCanonical(p, [], {
      ...ctx,
      tags: new Map([
        [31, wcTermSchema.parse({ id: 31, name: 'Öko', slug: 'oeko', description: 'Bio 🌱' })],
      ]),
      attributes: new Map([['farbe', colour]]),
    });
    expect(result.ok && result.record.tagDefinitions).toEqual([
      { name: 'Bio & Öko', slug: 'oeko', description: 'Bio 🌱' },
      // 'Neu' keeps nothing beyond its name (the slug WordPress makes from it, no description).
    ]);
    expect(result.ok && result.record.sharedAttributes).toEqual([colour]);
    // Without the store's lists (a product read alone) nothing is made up.
    const alone = productToCanonical(p, [], ctx);
    expect(alone.ok && alone.record.sharedAttributes).toEqual([]);
  });

  it('maps customers without making anything up: separate addresses, the billing e-mail as it is', () => {
    const base = {
      id: 7,
      email: 'Ava@Example.com',
      username: 'ava.j',
      first_name: 'Ava',
      last_name: 'Jones',
      role: 'customer',
      date_created_gmt: '2024-01-02T03:04:05',
      billing: {
        first_name: 'Ava',
        last_name: 'Jones',
        address_1: '1 Main St',
        city: 'Austin',
        country: 'us',
        email: '',
        phone: '+1 555 0100',
      },
      shipping: {
        first_name: 'Ava',
        last_name: 'Jones',
        address_1: '1 Main St',
        city: 'Austin',
        country: 'us',
        phone: '',
      },
      meta_data: [
        { id: 1, key: 'loyalty', value: 'gold' },
        { id: 2, key: 'replatform_hash', value: 'x' },
      ],
    };
    const result = customerToCanonical(wcCustomerSchema.parse(base));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.record).toMatchObject({
      email: 'ava@example.com',
      username: 'ava.j',
      phone: '+1 555 0100',
      group: '',
      metafields: [{ namespace: 'woocommerce', key: 'loyalty', value: 'gold', type: 'string' }],
    });
    // The shipping address has no phone: it is not the billing address, and keeps none.
    expect(result.record.addresses).toEqual([
      expect.objectContaining({
        phone: '+1 555 0100',
        email: '',
        isDefaultBilling: true,
        isDefaultShipping: false,
      }),
      expect.objectContaining({
        phone: '',
        email: '',
        isDefaultBilling: false,
        isDefaultShipping: true,
      }),
    ]);
    const same = customerToCanonical(
      wcCustomerSchema.parse({
        ...base,
        shipping: { ...base.shipping, phone: '+1 555 0100' },
        role: 'wholesale',
      }),
    );
    expect(same.ok && same.record.addresses).toHaveLength(1);
    expect(same.ok && same.record.group).toBe('wholesale');
  });

  const wcOrder = (overrides: Record<string, unknown> = {}) =>
    wcOrderSchema.parse({
      id: 90,
      number: '90',
      status: 'completed',
      currency: 'usd',
      created_via: 'checkout',
      prices_include_tax: false,
      date_created_gmt: '2025-01-01T10:00:00',
      date_modified_gmt: '2025-01-05T10:00:00',
      date_paid_gmt: '2025-01-01T10:05:00',
      date_completed_gmt: '2025-01-03T10:00:00',
      customer_id: 7,
      customer_note: 'Leave at the door',
      customer_ip_address: '203.0.113.9',
      customer_user_agent: 'Mozilla/5.0',
      payment_method: 'stripe',
      payment_method_title: 'Credit card',
      transaction_id: 'ch_1',
      billing: { first_name: 'Ava', email: 'ava@example.com', phone: '1' },
      shipping: { first_name: 'Ava', address_1: '1 Main St', phone: '' },
      discount_total: '5.00',
      shipping_total: '7.00',
      total: '141.00',
      total_tax: '0.00',
      line_items: [
        {
          id: 75,
          name: 'Hoodie - Red',
          product_id: 12,
          variation_id: 30,
          quantity: 2,
          tax_class: '',
          subtotal: '84.00',
          total: '82.00',
          total_tax: '0.00',
          sku: 'HOOD-R',
          meta_data: [
            { id: 1, key: 'pa_color', value: 'red', display_key: 'Color', display_value: 'Red' },
            { id: 2, key: '_reduced_stock', value: '2' },
          ],
        },
        {
          id: 76,
          name: 'Old thing',
          product_id: 0,
          variation_id: 0,
          quantity: 1,
          subtotal: '54.00',
          total: '51.00',
          total_tax: '0.00',
          sku: null,
          meta_data: [],
        },
      ],
      shipping_lines: [
        {
          id: 77,
          method_title: 'Flat rate',
          method_id: 'flat_rate',
          instance_id: '1',
          total: '7.00',
          total_tax: '0.00',
          meta_data: [],
        },
      ],
      fee_lines: [
        {
          id: 78,
          name: 'Gift wrap',
          tax_class: '',
          tax_status: 'none',
          total: '4.00',
          meta_data: [],
        },
        {
          id: 79,
          name: 'Credit',
          tax_class: '',
          tax_status: 'none',
          total: '-1.00',
          meta_data: [],
        },
      ],
      coupon_lines: [
        {
          id: 80,
          code: 'save5',
          discount: '5',
          discount_tax: '0',
          discount_type: 'fixed_cart',
          nominal_amount: 5,
          meta_data: [{ id: 3, key: 'coupon_info', value: '[1,"save5",null,5]' }],
        },
      ],
      refunds: [
        { id: 91, reason: 'Damaged', total: '-41.00' },
        { id: 92, reason: '', total: '-3.00' },
      ],
      meta_data: [{ id: 4, key: 'gift_message', value: 'Happy birthday' }],
      ...overrides,
    });
  const refunds = [
    wcRefundSchema.parse({
      id: 92,
      date_created_gmt: '2025-01-06T10:00:00',
      amount: '3.00',
      reason: '',
      line_items: [],
      meta_data: [{ key: '_refund_type', value: 'partial' }],
    }),
    wcRefundSchema.parse({
      id: 91,
      date_created_gmt: '2025-01-04T10:00:00',
      amount: '41.00',
      reason: 'Damaged',
      meta_data: [],
      line_items: [
        {
          id: 95,
          name: 'Hoodie - Red',
          quantity: -1,
          subtotal: '-41.00',
          total: '-41.00',
          total_tax: '0.00',
          meta_data: [{ key: '_refunded_item_id', value: '75' }],
        },
      ],
    }),
  ];
  const notes = [
    wcOrderNoteSchema.parse({
      id: 2,
      author: 'admin',
      date_created_gmt: '2025-01-02T10:00:00',
      note: 'Called &amp; confirmed',
      customer_note: false,
    }),
    wcOrderNoteSchema.parse({
      id: 1,
      author: 'WooCommerce',
      date_created_gmt: '2025-01-01T10:01:00',
      note: 'Order status changed from Pending payment to Processing.',
      customer_note: false,
    }),
  ];

  it('maps every field of an order: coupon lines, fees, refunds with their lines, notes, payment', () => {
    const result = orderToCanonical(wcOrder(), refunds, notes);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(entitySchemas.orders.safeParse(result.record).success).toBe(true);
    expect(result.record).toMatchObject({
      currency: 'USD',
      customerId: '7',
      email: 'ava@example.com',
      status: 'completed',
      paymentStatus: 'partially_refunded',
      fulfillmentStatus: 'fulfilled',
      lines: [
        {
          id: '75',
          productId: '12',
          variantId: '30',
          unitPrice: usd(4200),
          total: usd(8200),
          meta: [
            { key: 'pa_color', value: 'red' },
            { key: '_reduced_stock', value: '2' },
          ],
        },
        // A line whose product was deleted keeps its name and amounts, without a product.
        {
          id: '76',
          productId: null,
          variantId: null,
          sku: '',
          name: 'Old thing',
          unitPrice: usd(5400),
          total: usd(5100),
        },
      ],
      shippingLines: [{ title: 'Flat rate', code: 'flat_rate:1', price: usd(700), tax: usd(0) }],
      discounts: [{ code: 'save5', amount: usd(500), tax: usd(0) }],
      fees: [
        { name: 'Gift wrap', amount: usd(400), tax: usd(0), taxClass: '', taxStatus: 'none' },
        { name: 'Credit', amount: usd(-100), tax: usd(0), taxClass: '', taxStatus: 'none' },
      ],
      refunds: [
        {
          id: '91',
          createdAt: '2025-01-04T10:00:00.000Z',
          amount: usd(4100),
          reason: 'Damaged',
          lines: [{ lineId: '75', quantity: 1, amount: usd(4100), tax: usd(0) }],
        },
        {
          id: '92',
          createdAt: '2025-01-06T10:00:00.000Z',
          amount: usd(300),
          reason: '',
          lines: [],
        },
      ],
      notes: [
        {
          content: 'Order status changed from Pending payment to Processing.',
          customerNote: false,
          author: '',
          createdAt: '2025-01-01T10:01:00.000Z',
        },
        {
          content: 'Called & confirmed',
          customerNote: false,
          author: 'admin',
          createdAt: '2025-01-02T10:00:00.000Z',
        },
      ],
      subtotal: usd(13800),
      discountTotal: usd(500),
      feeTotal: usd(300),
      refundTotal: usd(4400),
      grandTotal: usd(14100),
      paymentMethod: 'stripe',
      paymentMethodTitle: 'Credit card',
      transactionId: 'ch_1',
      paidAt: '2025-01-01T10:05:00.000Z',
      completedAt: '2025-01-03T10:00:00.000Z',
      customerIpAddress: '203.0.113.9',
      customerUserAgent: 'Mozilla/5.0',
      createdVia: 'checkout',
      note: 'Leave at the door',
      metafields: [
        { namespace: 'woocommerce', key: 'gift_message', value: 'Happy birthday', type: 'string' },
      ],
    });
    expect(result.record.shippingAddress?.phone).toBe('');
    // The coupon's own definition is not migrated: said, record by record.
    expect(result.losses.map((l) => l.field)).toEqual([
      'coupon_lines[].discount_type',
      'coupon_lines[].nominal_amount',
      'coupon_lines[].meta_data',
    ]);
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
    const pay = (o: Record<string, unknown>) => paymentStatusToCanonical(wcOrder(o), 'USD');
    expect(pay({ status: 'refunded' })).toBe('refunded');
    expect(pay({ status: 'processing', refunds: [] })).toBe('paid');
    expect(pay({ status: 'cancelled', date_paid_gmt: null, refunds: [] })).toBe('voided');
    expect(pay({ status: 'on-hold', date_paid_gmt: null, refunds: [] })).toBe('pending');
  });

  it('refuses orders the canonical model cannot hold', () => {
    expect(orderToCanonical(wcOrder({ line_items: [] })).ok).toBe(false);
    expect(
      orderToCanonical(
        wcOrder({ line_items: [{ id: 1, name: 'x', quantity: 0, subtotal: '0', total: '0' }] }),
      ).ok,
    ).toBe(false);
  });

  it('decodes the entities WordPress escapes term names with, and makes term slugs', () => {
    expect(decodeEntities('Tom &amp; Jerry&#039;s &quot;best&quot; &#8211; &#x263A;')).toBe(
      'Tom & Jerry\'s "best" – ☺',
    );
    expect(termSlug('Light &amp; Dark')).toBe('light-dark');
    expect(termSlug('Größe XL')).toBe('grosse-xl');
  });

  it('keeps meta data as metafields and writes them back as the same values', () => {
    const meta = [
      { key: 'plain', value: 'text' },
      { key: 'structured', value: { a: [1, 2] } },
      { key: '_replatform_source_id', value: '9' },
    ];
    const fields = metaToMetafields(meta);
    expect(fields).toHaveLength(2);
    expect(metafieldsToMeta(fields)).toEqual(meta.slice(0, 2));
    expect(
      metafieldsToMeta([
        {
          namespace: 'shopify.custom',
          key: 'fabric',
          value: 'wool',
          type: 'single_line_text_field',
        },
      ]),
    ).toEqual([{ key: 'shopify.custom.fabric', value: 'wool' }]);
  });
});

const refs = (overrides: Partial<ProductRefs> = {}): ProductRefs => ({
  categoryIds: [31],
  tagIds: [41],
  brandIds: [51],
  attributeIds: new Map([['color', 7]]),
  images: [{ id: 5, name: 'Front', alt: 'Front' }],
  upsellIds: [61],
  crossSellIds: [62],
  groupedIds: [],
  currency: 'USD',
  units,
  ...overrides,
});

describe('canonical -> WooCommerce', () => {
  it("writes a store-wide attribute's settings, its terms' details and a category image's title", () => {
    expect(
      attributeSettings({
        slug: 'farbe',
        name: 'Farbe',
        archives: true,
        termOrder: 'name_numeric',
        terms: [],
      }),
    ).toEqual({ has_archives: true, order_by: 'name_num' });
    expect(
      attributeSettings({
        slug: 's',
        name: 'S',
        archives: false,
        termOrder: 'position',
        terms: [],
      }),
    ).toEqual({ has_archives: false, order_by: 'menu_order' });
    expect(
      termBody({ name: 'Rot', slug: 'rot', description: 'Rot – Farbe', position: 10 }),
    ).toEqual({ slug: 'rot', description: 'Rot – Farbe', menu_order: 10 });
    expect(termBody({ name: 'Rot', slug: '', description: '', position: 0 })).toEqual({});
    const category = {
      id: '1',
      parentId: null,
      name: 'Kleidung',
      slug: 'kleidung',
      description: '',
      position: 0,
      imageUrl: 'https://shop.test/k.png',
      imageAlt: 'Stange',
      imageTitle: 'Kleidung – Titelbild',
      displayType: 'default' as const,
      seoTitle: '',
      seoDescription: '',
      metafields: [],
      sourceUrlPath: null,
    };
    expect(categoryBody(category, 0, false, { id: 5 }).body.image).toEqual({
      id: 5,
      alt: 'Stange',
      name: 'Kleidung – Titelbild',
    });
    expect(categoryBody({ ...category, imageTitle: '' }, 0).body.image).toEqual({
      src: 'https://shop.test/k.png',
      alt: 'Stange',
    });
  });

  it('writes prices in their shortest form', () => {
    expect([
      price(usd(4500)),
      price(usd(1850)),
      price(usd(1105)),
      price({ amount: 100, currency: 'JPY' }),
    ]).toEqual(['45', '18.5', '11.05', '100']);
  });

  it('builds a simple product body from every field WooCommerce holds', () => {
    const base = product('s');
    const variant = base.variants[0] as (typeof base.variants)[number];
    const p = product('s', {
      featured: true,
      visibility: 'catalog',
      taxStatus: 'shipping',
      taxClass: 'reduced-rate',
      shippingClass: 'bulky',
      soldIndividually: true,
      reviewsAllowed: false,
      purchaseNote: 'Thanks',
      menuOrder: 3,
      weight: { value: 1, unit: 'kg' },
      attributes: [
        {
          name: 'Material',
          values: ['Cotton', 'Linen'],
          shared: null,
          visible: false,
          position: 0,
        },
      ],
      metafields: [{ namespace: 'woocommerce', key: 'care', value: 'Wash cold', type: 'string' }],
      variants: [
        {
          ...variant,
          salePrice: usd(800),
          saleStartsAt: '2030-01-01T00:00:00.000Z',
          saleEndsAt: null,
          inventory: {
            tracked: true,
            quantity: -1,
            stockStatus: 'onbackorder',
            backorders: 'notify',
            lowStockThreshold: 2,
          },
          downloadable: true,
          downloads: [{ name: 'Manual', url: 'https://files.test/m.pdf' }],
          downloadLimit: 3,
          weight: { value: 1, unit: 'kg' },
        },
      ],
    });
    const { body } = productBody(p, refs());
    expect(body).toMatchObject({
      type: 'simple',
      status: 'publish',
      featured: true,
      catalog_visibility: 'catalog',
      sku: 'SKU-s',
      regular_price: '10',
      sale_price: '8',
      date_on_sale_from_gmt: '2030-01-01T00:00:00',
      date_on_sale_to_gmt: '',
      manage_stock: true,
      stock_quantity: -1,
      backorders: 'notify',
      low_stock_amount: 2,
      downloadable: true,
      downloads: [{ name: 'Manual', file: 'https://files.test/m.pdf' }],
      download_limit: 3,
      download_expiry: -1,
      weight: '2.2046',
      tax_status: 'shipping',
      tax_class: 'reduced-rate',
      shipping_class: 'bulky',
      sold_individually: true,
      reviews_allowed: false,
      purchase_note: 'Thanks',
      menu_order: 3,
      upsell_ids: [61],
      cross_sell_ids: [62],
      images: [{ id: 5, name: 'Front', alt: 'Front' }],
      attributes: [
        {
          name: 'Material',
          position: 0,
          visible: false,
          variation: false,
          options: ['Cotton', 'Linen'],
        },
      ],
      meta_data: [{ key: 'care', value: 'Wash cold' }],
    });
    expect(body.grouped_products).toBeUndefined();
  });

  it('builds variable, grouped and external product bodies', () => {
    const base = product('v');
    const variant = base.variants[0] as (typeof base.variants)[number];
    const variable = product('v', {
      type: 'variable',
      options: [
        {
          name: 'Color',
          values: ['Red', 'Blue'],
          shared: { slug: 'color' },
          visible: true,
          position: 0,
        },
        { name: 'Logo', values: ['Yes', 'No'], shared: null, visible: true, position: 1 },
      ],
      defaultOptionValues: [{ name: 'Color', value: 'Blue' }],
      weight: { value: 0.5, unit: 'lb' },
      variants: [{ ...variant, optionValues: [{ name: 'Color', value: 'Red' }] }],
    });
    const { body } = productBody(variable, refs());
    expect(body).toMatchObject({
      type: 'variable',
      weight: '0.5',
      attributes: [
        { id: 7, position: 0, visible: true, variation: true, options: ['Red', 'Blue'] },
        { name: 'Logo', position: 1, visible: true, variation: true, options: ['Yes', 'No'] },
      ],
      default_attributes: [{ id: 7, option: 'Blue' }],
    });
    expect(body.regular_price).toBeUndefined();
    const grouped = productBody(
      product('g', { type: 'grouped', variants: [], groupedProductIds: ['a', 'b'] }),
      refs({ groupedIds: [70, 71] }),
    );
    expect(grouped.body).toMatchObject({ type: 'grouped', grouped_products: [70, 71] });
    // A list with a product not at the destination yet is left as the store has it.
    const unresolved = productBody(
      product('g', { type: 'grouped', variants: [], groupedProductIds: ['a', 'b'] }),
      refs({ upsellIds: undefined, groupedIds: undefined }),
    );
    expect(unresolved.body).not.toHaveProperty('upsell_ids');
    expect(unresolved.body).not.toHaveProperty('grouped_products');
    expect(unresolved.body).toMatchObject({ cross_sell_ids: [62] });
    const external = productBody(
      product('e', { type: 'external', externalUrl: 'https://x.test/p', buttonText: 'Buy there' }),
      refs(),
    );
    expect(external.body).toMatchObject({
      type: 'external',
      external_url: 'https://x.test/p',
      button_text: 'Buy there',
    });
  });

  it("builds variation bodies: the product's tax class or the standard one, status, image, meta", () => {
    const base = product('v');
    const variant = base.variants[0] as (typeof base.variants)[number];
    const options = [
      { name: 'Color', values: ['Red'], shared: { slug: 'color' }, visible: true, position: 0 },
    ];
    const own = variationBody(
      {
        ...variant,
        optionValues: [{ name: 'Color', value: 'Red' }],
        status: 'private',
        taxClass: '',
        shippingClass: 'fragile',
        position: 2,
        metafields: [{ namespace: 'woocommerce', key: 'supplier', value: 'S', type: 'string' }],
      },
      units,
      new Map([['color', 7]]),
      options,
      { id: 9 },
    );
    expect(own).toMatchObject({
      status: 'private',
      tax_class: '',
      shipping_class: 'fragile',
      attributes: [{ id: 7, option: 'Red' }],
      menu_order: 2,
      image: { id: 9 },
      meta_data: [{ key: 'supplier', value: 'S' }],
      weight: '',
      dimensions: { length: '', width: '', height: '' },
    });
    const inherited = variationBody(
      { ...variant, taxClass: null },
      units,
      new Map(),
      [],
      undefined,
    );
    expect(inherited).toMatchObject({ tax_class: 'parent', shipping_class: '', image: {} });
  });

  it('writes a customer without making anything up: no billing e-mail, no shipping phone', () => {
    const address = {
      firstName: 'Ava',
      lastName: 'Jones',
      company: '',
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      province: 'TX',
      postalCode: '78701',
      countryCode: 'US',
      phone: '',
      email: '',
    };
    const { body, warnings } = customerBody(
      customer('c', 'ava@example.com', {
        username: 'ava.j',
        addresses: [
          { ...address, phone: '+1 555', isDefaultBilling: true, isDefaultShipping: false },
          { ...address, isDefaultBilling: false, isDefaultShipping: true },
        ],
        phone: '+1 555',
        metafields: [{ namespace: 'woocommerce', key: 'tier', value: 'gold', type: 'string' }],
      }),
    );
    expect(warnings).toEqual([]);
    expect(body).toMatchObject({
      email: 'ava@example.com',
      username: 'ava.j',
      meta_data: [{ key: 'tier', value: 'gold' }],
    });
    expect((body.billing as Record<string, unknown>).email).toBeUndefined();
    expect((body.billing as Record<string, unknown>).phone).toBe('+1 555');
    expect((body.shipping as Record<string, unknown>).phone).toBe('');
  });

  it('builds an order body: custom lines, coupon lines, fees, historical tax, payment', () => {
    const o = order('o', 'p', {
      lines: [
        {
          id: 'a',
          productId: 'p',
          variantId: null,
          sku: 'S',
          name: 'Linked',
          quantity: 2,
          unitPrice: usd(4200),
          tax: usd(0),
          total: usd(8200),
          taxClass: '',
          meta: [{ key: 'Engraving', value: 'J.S.' }],
        },
        {
          id: 'b',
          productId: null,
          variantId: null,
          sku: 'OLD-1',
          name: 'Gone',
          quantity: 1,
          unitPrice: usd(5400),
          tax: usd(0),
          total: usd(5100),
          taxClass: '',
          meta: [],
        },
      ],
      discounts: [{ code: 'save5', amount: usd(500), tax: usd(0) }],
      fees: [{ name: 'Gift wrap', amount: usd(400), tax: usd(0), taxClass: '', taxStatus: 'none' }],
      shippingLines: [{ title: 'Flat rate', code: 'flat_rate:1', price: usd(700), tax: usd(0) }],
      taxTotal: usd(120),
      paymentMethod: 'stripe',
      paymentMethodTitle: 'Card',
      transactionId: 'ch_1',
      createdVia: 'checkout',
    });
    const { body } = orderBody(
      o,
      0,
      [
        { productId: 11, variationId: 0 },
        { productId: 0, variationId: 0 },
      ],
      true,
    );
    expect(body).toMatchObject({
      created_via: 'checkout',
      payment_method: 'stripe',
      payment_method_title: 'Card',
      transaction_id: 'ch_1',
      line_items: [
        {
          product_id: 11,
          subtotal: '84.00',
          total: '82.00',
          meta_data: [{ key: 'Engraving', value: 'J.S.' }],
        },
        // -1 names no product: WooCommerce makes it a line without one, keeping name and amounts.
        {
          product_id: -1,
          name: 'Gone',
          subtotal: '54.00',
          total: '51.00',
          meta_data: [{ key: '_replatform_sku', value: 'OLD-1' }],
        },
      ],
      shipping_lines: [{ method_id: 'flat_rate', instance_id: '1', total: '7.00' }],
      coupon_lines: [{ code: 'save5' }],
      fee_lines: [
        { name: 'Gift wrap', total: '4.00', tax_status: 'none' },
        { name: 'Tax', total: '1.20', tax_status: 'none' },
      ],
    });
    // Without coupon lines a coded discount is no fee either: the lines keep it.
    expect((orderBody(o, 0, [], false).body.fee_lines as unknown[]).length).toBe(3);
  });

  it('decides the status an order is created in and the dates it keeps', () => {
    const refunded = order('r', 'p', {
      status: 'refunded',
      paymentStatus: 'refunded',
      fulfillmentStatus: 'fulfilled',
    });
    expect(orderStatusToWc(refunded)).toMatchObject({
      status: 'completed',
      finalStatus: 'refunded',
    });
    expect(orderStatusToWc({ ...refunded, fulfillmentStatus: 'unfulfilled' }).status).toBe(
      'processing',
    );
    expect(
      orderStatusToWc(order('a', 'p', { status: 'pending', paymentStatus: 'authorized' }))
        .finalStatus,
    ).toBe('on-hold');
    const dated = order('d', 'p', {
      paidAt: '2025-01-01T00:00:00.000Z',
      completedAt: null,
      status: 'processing',
    });
    expect(orderDatesMeta(dated, 99)).toEqual([
      { key: '_date_paid', value: 1735689600 },
      { key: '_date_completed', value: '' },
      { key: '_prices_include_tax', value: false },
    ]);
    // Paid without a known date: WooCommerce's own stamp stands; on hold it gets the import's.
    expect(orderDatesMeta(order('u', 'p'), 99)[0]?.key).toBe('_date_completed');
    expect(orderDatesMeta(order('h', 'p', { status: 'on-hold' }), 99)[0]).toEqual({
      key: '_date_paid',
      value: 99,
    });
  });
});

describe('a store-wide attribute’s values on a product', () => {
  const definition = (termOrder: 'name_numeric' | 'name') => ({
    slug: 'material',
    name: 'Material',
    archives: false,
    termOrder,
    terms: ['Хлопок', 'Лён 🌾', '10', '2'].map((name, position) => ({
      name,
      slug: `t${position}`,
      description: '',
      position: 0,
    })),
  });

  it('come in one order whatever order WooCommerce answered tied names in', () => {
    const wanted = ['Хлопок', 'Лён 🌾', '2', '10'];
    expect(inTermOrder(['Лён 🌾', '10', 'Хлопок', '2'], definition('name_numeric'))).toEqual(
      wanted,
    );
    expect(inTermOrder(['10', '2', 'Хлопок', 'Лён 🌾'], definition('name_numeric'))).toEqual(
      wanted,
    );
  });

  it('are kept as answered when the attribute has another order, or is unknown', () => {
    expect(inTermOrder(['Лён 🌾', 'Хлопок'], definition('name'))).toEqual(['Лён 🌾', 'Хлопок']);
    expect(inTermOrder(['b', 'a'], undefined)).toEqual(['b', 'a']);
  });
});
