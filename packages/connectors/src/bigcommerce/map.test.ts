import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSON_SCHEMA, load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { customerSchema as canonicalCustomer, type Customer } from '@replatform/canonical/customer';
import {
  orderSchema as canonicalOrder,
  orderStatuses,
  type Order,
} from '@replatform/canonical/order';
import { productSchema as canonicalProduct, type Product } from '@replatform/canonical/product';
import { BigCommerceSpec } from '@replatform/emulators/bigcommerce/openapi-validator';
import { platformSpecsDir } from '@replatform/emulators/framework/platform-specs';
import {
  categoryToBc,
  categoryToCanonical,
  productToBc,
  productToCanonical,
  storeUnits,
  weightToStore,
  lengthToStore,
} from './map-catalog.ts';
import { customerToBc, customerToCanonical } from './map-customer.ts';
import { orderToBc, orderToCanonical, toStatusId } from './map-order.ts';
import {
  customerSchema,
  orderProductSchema,
  orderSchema,
  orderShippingAddressSchema,
  productSchema,
  treeCategorySchema,
  variantSchema,
} from './payloads.ts';

const spec = new BigCommerceSpec();
const specDir = join(platformSpecsDir(), 'bigcommerce');

/** The `example` BigCommerce documents for a response: the closest thing to real payloads. */
function example(file: string, path: string, method: string): unknown {
  type Node = { [key: string]: Node } & { example?: unknown; value?: unknown; $ref?: string };
  const doc = load(readFileSync(join(specDir, file), 'utf8'), { schema: JSON_SCHEMA }) as Node;
  const at = (node: Node | undefined, keys: string[]): Node | undefined =>
    keys.reduce<Node | undefined>((n, key) => n?.[key], node);
  let response = at(doc, ['paths', path, method, 'responses', '200']);
  if (response?.$ref) response = at(doc, response.$ref.slice(2).split('/'));
  const content = at(response, ['content', 'application/json']);
  const examples = content?.examples ? Object.values(content.examples as Record<string, Node>) : [];
  return content?.example ?? examples[0]?.value ?? examples[0];
}

/** Checks a body against the request schema of an operation, as the real API would see it. */
function specProblems(method: string, path: string, body: unknown): string[] {
  return spec.validateRequest({
    method,
    url: `https://api.bigcommerce.com/stores/abc123${path}`,
    headers: {
      'X-Auth-Token': 't',
      Accept: 'application/json',
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
  });
}

const ounces = storeUnits('USD', 'Ounces', 'Inches');
const metric = storeUnits('USD', 'KGS', 'Centimeters');

describe('catalog mapping', () => {
  it('reads the documented product and variant examples into a valid canonical product', () => {
    const productExample = (
      example('products_catalog.v3.yml', '/catalog/products/{product_id}', 'get') as {
        data: object;
      }
    ).data;
    const variants = (
      example(
        'product-variants_catalog.v3.yml',
        '/catalog/products/{product_id}/variants',
        'get',
      ) as { data: object[] }
    ).data.map((v) => variantSchema.parse(v));
    const bc = productSchema.parse({ ...productExample, variants });
    const product = productToCanonical(bc, {
      units: ounces,
      brandName: (id) => (id === 36 ? 'OFS' : ''),
    });
    expect(canonicalProduct.safeParse(product).success).toBe(true);
    expect(product).toMatchObject({
      id: '174',
      type: 'variable',
      name: '1L Le Parfait Jar',
      slug: '1l-le-parfait-jar',
      sourceUrlPath: '/all/1l-le-parfait-jar/',
      vendor: 'OFS',
      categoryIds: ['23', '21'],
      tags: ['jar', 'glass'],
      status: 'active',
      createdAt: '2018-08-15T14:48:46.000Z',
    });
    expect(product.options).toEqual([{ name: 'Color', values: expect.arrayContaining(['Beige']) }]);
    // sale_price 8 under price 10: selling at 8, compare-at 10.
    expect(product.variants[0]).toMatchObject({
      sku: 'SMIT',
      price: { amount: 800, currency: 'USD' },
      compareAtPrice: { amount: 1000, currency: 'USD' },
      weight: { value: 4, unit: 'oz' },
      inventory: { tracked: false, quantity: 0 },
    });
  });

  it('reads a simple product from its base variant and the product fields', () => {
    const bc = productSchema.parse({
      id: 5,
      name: 'Mug',
      sku: 'MUG-1',
      price: 12.5,
      sale_price: 0,
      weight: 0.4,
      inventory_tracking: 'product',
      inventory_level: 7,
      is_visible: false,
      availability: 'disabled',
      upc: '012345678905',
      custom_url: { url: '/kitchen/mug.html' },
      variants: [
        { id: 9, sku: 'MUG-1', price: null, sale_price: null, weight: null, option_values: [] },
      ],
      images: [
        {
          id: 2,
          sort_order: 1,
          description: 'Side',
          url_zoom: 'https://cdn.example.com/2.png',
          is_thumbnail: false,
        },
        {
          id: 1,
          sort_order: 5,
          description: 'Front',
          url_zoom: 'https://cdn.example.com/1.png',
          is_thumbnail: true,
        },
      ],
      custom_fields: [{ name: 'material', value: 'stoneware' }],
    });
    const product = productToCanonical(bc, { units: metric, brandName: () => '' });
    expect(canonicalProduct.safeParse(product).success).toBe(true);
    expect(product).toMatchObject({
      type: 'simple',
      status: 'archived',
      slug: 'mug',
      options: [],
      attributes: { material: 'stoneware' },
      dimensions: null,
    });
    expect(product.variants).toEqual([
      expect.objectContaining({
        id: '9',
        sku: 'MUG-1',
        price: { amount: 1250, currency: 'USD' },
        compareAtPrice: null,
        weight: { value: 0.4, unit: 'kg' },
        inventory: { tracked: true, quantity: 7 },
        barcode: '012345678905',
      }),
    ]);
    // The thumbnail is the main image.
    expect(product.images.map((i) => [i.alt, i.position])).toEqual([
      ['Front', 0],
      ['Side', 1],
    ]);
  });

  const canonical: Product = {
    id: 'src-7',
    type: 'variable',
    name: 'Trail Jacket',
    slug: 'trail-jacket',
    sku: 'TJ',
    descriptionHtml: '<p>Warm.</p>',
    shortDescriptionHtml: '<p>Short.</p>',
    status: 'draft',
    vendor: 'Northwind',
    options: [
      { name: 'Size', values: ['S', 'M'] },
      { name: 'Color', values: ['Red'] },
    ],
    variants: [
      {
        id: 'v1',
        sku: 'TJ-S-RED',
        optionValues: [
          { name: 'Size', value: 'S' },
          { name: 'Color', value: 'Red' },
        ],
        price: { amount: 7999, currency: 'USD' },
        compareAtPrice: { amount: 9999, currency: 'USD' },
        weight: { value: 1, unit: 'kg' },
        inventory: { tracked: true, quantity: 4 },
        barcode: '00012345678905',
        imageUrl: null,
      },
      {
        id: 'v2',
        sku: '',
        optionValues: [
          { name: 'Size', value: 'M' },
          { name: 'Color', value: 'Red' },
        ],
        price: { amount: 8499, currency: 'USD' },
        compareAtPrice: null,
        weight: { value: 1.2, unit: 'kg' },
        inventory: { tracked: true, quantity: -2 },
        barcode: '',
        imageUrl: null,
      },
    ],
    images: [{ url: 'https://source.example.com/media/tj.png', alt: 'Trail Jacket', position: 0 }],
    categoryIds: ['c1'],
    tags: ['outdoor', 'rain, wind'],
    seoTitle: 'Trail Jacket | Store',
    seoDescription: 'Buy it.',
    dimensions: { length: 40, width: 30, height: 5, unit: 'cm' },
    attributes: { material: 'nylon', care: 'x'.repeat(300) },
    sourceUrlPath: '/products/trail-jacket',
    createdAt: null,
    updatedAt: null,
  };

  it('writes a product as one create request the spec accepts, variants and images nested', () => {
    const { body, warnings } = productToBc(canonical, {
      units: metric,
      categoryIds: [31],
      brandId: 40,
    });
    expect(specProblems('POST', '/v3/catalog/products', body)).toEqual([]);
    expect(body).toMatchObject({
      name: 'Trail Jacket',
      type: 'physical',
      sku: 'TJ',
      price: 99.99,
      sale_price: 79.99,
      weight: 1,
      categories: [31],
      brand_id: 40,
      is_visible: false,
      availability: 'available',
      inventory_tracking: 'variant',
      search_keywords: 'outdoor,rain  wind',
      page_title: 'Trail Jacket | Store',
      custom_url: { url: '/products/trail-jacket', is_customized: true },
      depth: 40,
      custom_fields: [{ name: 'material', value: 'nylon' }],
      images: [
        {
          image_url: 'https://source.example.com/media/tj.png',
          description: 'Trail Jacket',
          sort_order: 0,
          is_thumbnail: true,
        },
      ],
    });
    expect(body.variants).toEqual([
      {
        sku: 'TJ-S-RED',
        price: 99.99,
        sale_price: 79.99,
        weight: 1,
        inventory_level: 4,
        upc: '00012345678905',
        option_values: [
          { option_display_name: 'Size', label: 'S' },
          { option_display_name: 'Color', label: 'Red' },
        ],
      },
      {
        sku: 'TJ-2',
        price: 84.99,
        sale_price: 0,
        weight: 1.2,
        inventory_level: 0,
        option_values: [
          { option_display_name: 'Size', label: 'M' },
          { option_display_name: 'Color', label: 'Red' },
        ],
      },
    ]);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining('attributes longer than 250'),
        expect.stringContaining('variants without a SKU'),
      ]),
    );
    const archived = productToBc(
      { ...canonical, status: 'archived' },
      { units: metric, categoryIds: [], brandId: 0 },
    );
    expect(archived.body).toMatchObject({ is_visible: false, availability: 'disabled' });
    expect(archived.body).not.toHaveProperty('brand_id');
  });

  it('converts weights and dimensions into the store units', () => {
    const pounds = storeUnits('USD', 'LBS', 'Inches');
    expect(weightToStore({ value: 1, unit: 'kg' }, pounds)).toBe(2.2046);
    expect(weightToStore({ value: 16, unit: 'oz' }, pounds)).toBe(1);
    expect(lengthToStore(2.54, 'cm', pounds)).toBe(1);
    const { body } = productToBc(canonical, { units: pounds, categoryIds: [], brandId: 0 });
    expect(body).toMatchObject({ weight: 2.2046, depth: 15.748, width: 11.811 });
  });

  it('maps categories both ways through the tree endpoints', () => {
    const bc = treeCategorySchema.parse({
      category_id: 21,
      parent_id: 18,
      tree_id: 1,
      name: 'Bath',
      description: '<p>Bath</p>',
      sort_order: 3,
      image_url: '',
      url: { path: '/shop-all/bath/', is_customized: false },
    });
    const category = categoryToCanonical(bc);
    expect(category).toEqual({
      id: '21',
      parentId: '18',
      name: 'Bath',
      slug: 'bath',
      description: '<p>Bath</p>',
      position: 3,
      imageUrl: null,
      sourceUrlPath: '/shop-all/bath/',
    });
    const { body } = categoryToBc({ ...category, name: 'N'.repeat(60) }, 77, 1);
    expect(specProblems('POST', '/v3/catalog/trees/categories', [body])).toEqual([]);
    expect(body).toMatchObject({
      parent_id: 77,
      tree_id: 1,
      sort_order: 3,
      url: { path: '/shop-all/bath/' },
    });
    expect(body.name).toHaveLength(50);
    const root = categoryToBc(
      { ...category, parentId: null, sourceUrlPath: 'collections/bath?x' },
      0,
      1,
    );
    expect(root.body.url?.path).toBe('/bath/');
  });
});

describe('customer mapping', () => {
  it('reads the documented customer example (with the id and date the example leaves out)', () => {
    const documented = (example('customers.v3.yml', '/customers', 'get') as { data: object[] })
      .data[0];
    const bc = customerSchema.parse({
      ...documented,
      id: 4,
      email: 'Jane.Smith@Example.com',
      date_created: '2024-02-01T10:00:00+00:00',
    });
    const customer = customerToCanonical(bc);
    expect(canonicalCustomer.safeParse(customer).success).toBe(true);
    expect(customer).toMatchObject({
      id: '4',
      email: 'jane.smith@example.com',
      acceptsMarketing: true,
      note: 'Preferred customer',
      createdAt: '2024-02-01T10:00:00.000Z',
    });
    expect(customer.addresses[0]).toMatchObject({
      address1: 'Addr1',
      isDefaultBilling: true,
      isDefaultShipping: true,
    });
  });

  it('writes a customer the spec accepts, addresses in order, without notification or password', () => {
    const address = {
      firstName: 'Ada',
      lastName: 'Lovelace',
      company: '',
      address1: '1 Main St',
      address2: '',
      city: 'Austin',
      province: 'TX',
      postalCode: '78701',
      countryCode: 'US',
      phone: '',
    };
    const customer: Customer = {
      id: 'c9',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: '',
      phone: '+1 555',
      acceptsMarketing: true,
      addresses: [
        { ...address, city: 'Dallas', isDefaultBilling: false, isDefaultShipping: false },
        { ...address, isDefaultBilling: true, isDefaultShipping: true },
        { ...address, countryCode: '', isDefaultBilling: false, isDefaultShipping: false },
      ],
      note: 'VIP',
      tags: ['vip'],
      createdAt: '2022-01-01T00:00:00.000Z',
    };
    const { body, warnings } = customerToBc(customer);
    expect(specProblems('POST', '/v3/customers', [body])).toEqual([]);
    expect(body).toMatchObject({
      email: 'ada@example.com',
      last_name: '-',
      notes: 'VIP',
      accepts_product_review_abandoned_cart_emails: true,
      trigger_account_created_notification: false,
      authentication: { force_password_reset: true },
    });
    expect((body.addresses as { city: string }[]).map((a) => a.city)).toEqual(['Dallas', 'Austin']);
    expect(warnings).toHaveLength(5);
    expect(warnings.join('\n')).toContain('addresses.isDefaultBilling');
    // A default that is already first loses nothing.
    const defaultFirst = customerToBc({
      ...customer,
      tags: [],
      addresses: [customer.addresses[1], customer.addresses[0]].flatMap((a) => (a ? [a] : [])),
    });
    expect(defaultFirst.warnings.join('\n')).not.toContain('default');
  });
});

describe('order mapping', () => {
  const order = orderSchema.parse(example('orders.v2.oas2.yml', '/orders/{order_id}', 'get'));
  const products = (
    example('orders.v2.oas2.yml', '/orders/{order_id}/products', 'get') as object[]
  ).map((p) => orderProductSchema.parse(p));
  const shippingAddresses = (
    example('orders.v2.oas2.yml', '/orders/{order_id}/shipping_addresses', 'get') as object[]
  ).map((a) => orderShippingAddressSchema.parse(a));

  it('reads the documented order, products and shipping addresses', () => {
    const canonical = orderToCanonical(order, {
      products,
      shippingAddresses: shippingAddresses.slice(0, 1),
      coupons: [{ code: 'SAVE5', amount: '5.0000' }],
    });
    expect(canonicalOrder.safeParse(canonical).success).toBe(true);
    expect(canonical).toMatchObject({
      id: '218',
      number: '218',
      customerId: '11',
      status: 'pending',
      paymentStatus: 'authorized',
      fulfillmentStatus: 'unfulfilled',
      currency: 'USD',
      email: 'janedoe@example.com',
      createdAt: '2019-03-05T21:40:11.000Z',
      subtotal: { amount: 6268, currency: 'USD' },
      shippingTotal: { amount: 1109, currency: 'USD' },
      taxTotal: { amount: 531, currency: 'USD' },
      grandTotal: { amount: 6984, currency: 'USD' },
      discountTotal: { amount: 1000, currency: 'USD' },
      billingAddress: {
        address1: '555 East Street',
        countryCode: 'US',
        province: 'Texas',
        postalCode: '78108',
      },
    });
    expect(canonical.lines[0]).toMatchObject({
      productId: '77',
      sku: 'S-ORAN',
      quantity: 1,
      unitPrice: { amount: 5599, currency: 'USD' },
      tax: { amount: 924, currency: 'USD' },
    });
    expect(canonical.shippingLines).toEqual([
      {
        title: 'Shipping',
        code: '',
        price: { amount: 1200, currency: 'USD' },
        tax: { amount: 99, currency: 'USD' },
      },
    ]);
    expect(canonical.discounts.map((d) => d.code)).toEqual(['SAVE5', '']);
  });

  it('maps every canonical status to a BigCommerce status and back', () => {
    for (const status of orderStatuses) {
      const read = orderToCanonical(
        { ...order, status_id: toStatusId[status], payment_status: '' },
        { products, shippingAddresses, coupons: [] },
      );
      expect(read.status, status).toBe(status);
    }
  });

  it('writes a historical import the spec accepts: M-MIG, marker, amounts as they were', () => {
    const canonical: Order = orderToCanonical(order, {
      products,
      shippingAddresses: shippingAddresses.slice(0, 1),
      coupons: [],
    });
    const { body } = orderToBc(
      { ...canonical, status: 'completed', fulfillmentStatus: 'fulfilled' },
      {
        customerId: 40,
        lines: [{ productId: 501, variantId: 902 }],
      },
    );
    expect(specProblems('POST', '/v2/orders', body)).toEqual([]);
    expect(body).toMatchObject({
      customer_id: 40,
      status_id: 10,
      external_source: 'M-MIG',
      external_order_id: 'replatform_source_id:218',
      date_created: 'Tue, 05 Mar 2019 21:40:11 +0000',
      subtotal_ex_tax: '62.68',
      total_inc_tax: '69.84',
      total_ex_tax: '64.53',
      shipping_cost_ex_tax: '11.09',
      // The example carries a manual discount and a coupon of 5.00 each.
      discount_amount: '10.00',
      items_shipped: canonical.lines.reduce((sum, l) => sum + l.quantity, 0),
    });
    const line = (body.products as Record<string, unknown>[])[0];
    expect(line).toMatchObject({
      product_id: 501,
      variant_id: 902,
      quantity: 1,
      price_ex_tax: 55.99,
      price_inc_tax: 65.23,
    });
    const custom = orderToBc(canonical, {
      customerId: 0,
      lines: canonical.lines.map(() => undefined),
    });
    expect((custom.body.products as Record<string, unknown>[])[0]).toEqual({
      name: 'Fog Linen Chambray Towel - Beige Stripe',
      quantity: 1,
      price_ex_tax: 55.99,
      price_inc_tax: 65.23,
      sku: 'S-ORAN',
    });
    expect(custom.warnings).toEqual(
      expect.arrayContaining([expect.stringContaining('custom item')]),
    );
    expect(custom.body.customer_id).toBe(0);
  });

  // Two orders of a 5,000-order BigCommerce -> BigCommerce run: a 16.00 coupon on a 13.99 basket
  // with free shipping, tax 1.12 charged before the discount, so 'what was paid' is -0.89 and the
  // total before tax -2.01, which BigCommerce refuses with 422 "total_ex_tax can't be negative".
  it('never writes a negative total when discounts exceed what was charged', () => {
    const usd = (amount: number) => ({ amount, currency: 'USD' });
    const canonical: Order = {
      ...orderToCanonical(order, { products, shippingAddresses: [], coupons: [] }),
      lines: [
        {
          id: '1',
          productId: null,
          variantId: null,
          sku: 'S-1',
          name: 'Mug',
          quantity: 1,
          unitPrice: usd(1399),
          tax: usd(112),
          total: usd(1399),
        },
      ],
      shippingLines: [{ title: 'Free shipping', code: '', price: usd(0), tax: usd(0) }],
      discounts: [{ code: 'SPRING15', amount: usd(1600) }],
      subtotal: usd(1399),
      shippingTotal: usd(0),
      taxTotal: usd(112),
      discountTotal: usd(1600),
      grandTotal: usd(-89),
    };
    const { body, warnings } = orderToBc(canonical, { customerId: 0, lines: [undefined] });
    expect(body).toMatchObject({ total_ex_tax: '0.00', total_inc_tax: '0.00' });
    expect(specProblems('POST', '/v2/orders', body)).toEqual([]);
    expect(warnings.join('\n')).toContain('total excluding tax was written as 0');

    // Paid 0.50 with 1.12 tax: the tax stays what was paid, the total before tax 0.
    const paid = orderToBc(
      { ...canonical, grandTotal: usd(50) },
      { customerId: 0, lines: [undefined] },
    );
    expect(paid.body).toMatchObject({ total_ex_tax: '0.00', total_inc_tax: '0.50' });
    // An ordinary order is written as it was, without a warning about totals.
    const plain = orderToBc(
      { ...canonical, discounts: [], discountTotal: usd(0), grandTotal: usd(1511) },
      { customerId: 0, lines: [undefined] },
    );
    expect(plain.body).toMatchObject({ total_ex_tax: '13.99', total_inc_tax: '15.11' });
    expect(plain.warnings.join('\n')).not.toContain('total');
  });

  it('marks items shipped only when the source says how many', () => {
    const canonical = orderToCanonical(order, { products, shippingAddresses: [], coupons: [] });
    const lines = canonical.lines.map(() => undefined);
    const fulfilled = orderToBc(
      { ...canonical, fulfillmentStatus: 'fulfilled' },
      { customerId: 0, lines },
    );
    expect(fulfilled.body.items_shipped).toBe(canonical.lines.reduce((n, l) => n + l.quantity, 0));
    const partial = orderToBc(
      { ...canonical, fulfillmentStatus: 'partial' },
      { customerId: 0, lines },
    );
    expect(partial.body.items_shipped).toBe(0);
    expect(partial.warnings.join('\n')).toContain('partially shipped');
    const none = orderToBc(
      { ...canonical, fulfillmentStatus: 'unfulfilled' },
      { customerId: 0, lines },
    );
    expect(none.body.items_shipped).toBe(0);
    expect(none.warnings.join('\n')).not.toContain('shipped');
  });
});
