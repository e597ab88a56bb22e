import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSON_SCHEMA, load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { customerSchema as canonicalCustomer, type Customer } from '@replatform/canonical/customer';
import { categoryDefaults, productDefaults, variantDefaults } from '@replatform/canonical/defaults';
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
import { fieldsNamespace } from './extras.ts';
import { nativeLosses } from './losses.ts';
import { customerToBc, customerToCanonical } from './map-customer.ts';
import { orderToBc, orderToCanonical, toStatusId } from './map-order.ts';
import { bigCommerceNativeFields } from './native-fields.ts';
import { neutralValues, orderLosses } from './read.ts';
import { customerSchema, orderSchema, productSchema, treeCategorySchema } from './payloads.ts';

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
const usd = (amount: number) => ({ amount, currency: 'USD' });
const field = (metafields: { namespace: string; key: string; value: string }[], key: string) =>
  metafields.find((m) => m.namespace === fieldsNamespace && m.key === key)?.value;
const refs = { units: metric, categoryIds: [], brandId: 0, relatedIds: [], now: Date.now() };

/** Reads a native product as the connector does (payload schema, then mapping). */
function readProduct(raw: Record<string, unknown>, units = metric): Product {
  const product = productToCanonical(productSchema.parse(raw), raw, {
    units,
    brandName: (id) => (id === 36 ? 'OFS' : ''),
  });
  expect(canonicalProduct.safeParse(product).error).toBeUndefined();
  return product;
}

describe('catalog mapping', () => {
  it('reads the documented product and variant examples into a valid canonical product', () => {
    const productExample = (
      example('products_catalog.v3.yml', '/catalog/products/{product_id}', 'get') as {
        data: Record<string, unknown>;
      }
    ).data;
    const variants = (
      example(
        'product-variants_catalog.v3.yml',
        '/catalog/products/{product_id}/variants',
        'get',
      ) as { data: object[] }
    ).data;
    const product = readProduct({ ...productExample, variants }, ounces);
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
    expect(product.options).toEqual([
      {
        name: 'Color',
        values: expect.arrayContaining(['Beige']),
        shared: null,
        visible: true,
        position: 0,
      },
    ]);
    // The regular price 10 and the sale price 8.
    expect(product.variants[0]).toMatchObject({
      sku: 'SMIT',
      price: usd(1000),
      salePrice: usd(800),
      weight: { value: 4, unit: 'oz' },
      inventory: { tracked: false, quantity: 0, stockStatus: 'instock' },
    });
  });

  it('reads a simple product from its base variant and the product fields', () => {
    const product = readProduct({
      id: 5,
      name: 'Mug',
      type: 'digital',
      sku: 'MUG-1',
      price: 12.5,
      sale_price: 0,
      weight: 0.4,
      inventory_tracking: 'product',
      inventory_level: 7,
      inventory_warning_level: 2,
      is_visible: false,
      availability: 'disabled',
      upc: '012345678905',
      is_featured: true,
      sort_order: 4,
      order_quantity_maximum: 1,
      related_products: [-1],
      custom_url: { url: '/kitchen/mug.html', is_customized: true },
      variants: [
        {
          id: 9,
          sku: 'MUG-1',
          price: null,
          sale_price: null,
          weight: null,
          purchasing_disabled: true,
          purchasing_disabled_message: 'Soon',
          upc: '012345678905',
          option_values: [],
        },
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
      custom_fields: [
        { name: 'material', value: 'stoneware' },
        { name: 'material', value: 'glaze' },
      ],
    });
    expect(product).toMatchObject({
      type: 'simple',
      status: 'archived',
      slug: 'mug',
      featured: true,
      menuOrder: 4,
      soldIndividually: true,
      options: [],
      upsellIds: [],
      attributes: [
        {
          name: 'material',
          values: ['stoneware', 'glaze'],
          shared: null,
          visible: true,
          position: 0,
        },
      ],
      weight: { value: 0.4, unit: 'kg' },
      dimensions: null,
    });
    expect(product.variants).toEqual([
      expect.objectContaining({
        id: '9',
        sku: 'MUG-1',
        status: 'private',
        price: usd(1250),
        salePrice: null,
        weight: { value: 0.4, unit: 'kg' },
        inventory: {
          tracked: true,
          quantity: 7,
          stockStatus: 'instock',
          backorders: 'no',
          lowStockThreshold: 2,
        },
        barcode: '012345678905',
        virtual: true,
        downloadable: true,
      }),
    ]);
    // The base variant's own message; its UPC mirrors the product's and is not carried twice.
    expect(product.variants[0]?.metafields).toEqual([
      {
        namespace: fieldsNamespace,
        key: 'purchasing_disabled_message',
        value: 'Soon',
        type: 'single_line_text_field',
      },
    ]);
    // The product's UPC is kept as a field of its own too (the barcode is the GTIN when it has one).
    expect(field(product.metafields, 'upc')).toBe('012345678905');
    // The thumbnail is the main image.
    expect(product.images.map((i) => [i.alt, i.position])).toEqual([
      ['Front', 0],
      ['Side', 1],
    ]);
  });

  it("carries BigCommerce's own fields as custom fields and writes them back to their fields", () => {
    const raw = {
      id: 8,
      name: 'Lamp',
      price: 40,
      retail_price: 55,
      warranty: '<p>2 years</p>',
      open_graph_use_image: false,
      meta_keywords: ['lamp', 'light'],
      availability: 'preorder',
      preorder_release_date: '2027-03-01T00:00:00+00:00',
      order_quantity_maximum: 6,
      layout_file: 'product.html',
      custom_url: { url: '/lamp/', is_customized: false },
      related_products: [],
      bulk_pricing_rules: [{ id: 3, quantity_min: 5, quantity_max: 9, type: 'percent', amount: 5 }],
      videos: [
        {
          id: 1,
          product_id: 8,
          title: 'Tour',
          description: '',
          sort_order: 0,
          type: 'youtube',
          video_id: 'z3f',
          length: '01:00',
        },
      ],
      metafields: [
        {
          id: 1,
          resource_id: 8,
          namespace: 'specs',
          key: 'origin',
          value: 'PT',
          permission_set: 'write',
          description: '',
        },
        {
          id: 2,
          resource_id: 8,
          namespace: 'sf',
          key: 'badge',
          value: 'New',
          permission_set: 'read_and_sf_access',
          description: 'Badge',
        },
        {
          id: 3,
          resource_id: 8,
          namespace: 'replatform',
          key: 'replatform_source_id',
          value: '1',
          permission_set: 'read',
          description: '',
        },
      ],
      variants: [{ id: 1, sku: '', option_values: [] }],
    };
    const product = readProduct(raw);
    const keys = product.metafields.map((m) => `${m.namespace}/${m.key}`);
    expect(keys).toEqual([
      'bigcommerce.specs/origin',
      'bigcommerce.sf/badge',
      'bigcommerce_fields/metafield_permissions',
      'bigcommerce_fields/metafield_descriptions',
      `${fieldsNamespace}/retail_price`,
      `${fieldsNamespace}/warranty`,
      `${fieldsNamespace}/meta_keywords`,
      `${fieldsNamespace}/preorder_release_date`,
      `${fieldsNamespace}/open_graph_use_image`,
      `${fieldsNamespace}/custom_url.is_customized`,
      `${fieldsNamespace}/order_quantity_maximum`,
      `${fieldsNamespace}/bulk_pricing_rules`,
      `${fieldsNamespace}/videos`,
      `${fieldsNamespace}/related_products`,
    ]);
    expect(product.variants[0]?.inventory.stockStatus).toBe('onbackorder');
    const write = productToBc(product, refs);
    expect(specProblems('POST', '/v3/catalog/products', write.body)).toEqual([]);
    expect(write.body).toMatchObject({
      retail_price: 55,
      warranty: '<p>2 years</p>',
      open_graph_use_image: false,
      meta_keywords: ['lamp', 'light'],
      availability: 'preorder',
      preorder_release_date: '2027-03-01T00:00:00+00:00',
      order_quantity_maximum: 6,
      custom_url: { url: '/lamp/', is_customized: false },
      related_products: [],
      videos: [{ title: 'Tour', description: '', sort_order: 0, type: 'youtube', video_id: 'z3f' }],
    });
    // Rules are made after the product, the percentage as a fraction in text.
    expect(write.bulkPricingRules).toEqual([
      { quantity_min: 5, quantity_max: 9, type: 'percent', amount: '0.05' },
    ]);
    expect(write.metafields).toEqual([
      { namespace: 'specs', key: 'origin', value: 'PT', permission_set: 'write' },
      {
        namespace: 'sf',
        key: 'badge',
        value: 'New',
        permission_set: 'read_and_sf_access',
        description: 'Badge',
      },
    ]);
    expect(write.warnings).toEqual([]);
  });

  it('reads inherited variant prices, and writes the price most variants have as the product’s', () => {
    const option = (label: string) => ({ option_display_name: 'Size', label });
    const product = readProduct({
      id: 3,
      name: 'Tee',
      price: 20,
      sale_price: 15,
      inventory_tracking: 'variant',
      options: [
        {
          id: 7,
          display_name: 'Size',
          type: 'swatch',
          sort_order: 0,
          option_values: [
            {
              id: 2,
              label: 'M',
              sort_order: 1,
              is_default: true,
              value_data: { colors: ['#000'] },
            },
            { id: 1, label: 'S', sort_order: 0, is_default: false, value_data: null },
            { id: 3, label: 'L', sort_order: 2, is_default: false, value_data: null },
          ],
        },
      ],
      variants: [
        {
          id: 11,
          sku: 'T-M',
          price: null,
          sale_price: null,
          inventory_level: 0,
          option_values: [option('M')],
        },
        {
          id: 12,
          sku: 'T-S',
          price: null,
          sale_price: null,
          inventory_level: 4,
          option_values: [option('S')],
        },
        {
          id: 13,
          sku: 'T-L',
          price: 22,
          sale_price: 0,
          inventory_level: 1,
          option_values: [option('L')],
        },
      ],
    });
    expect(product.options[0]?.values).toEqual(['S', 'M', 'L']);
    expect(product.defaultOptionValues).toEqual([{ name: 'Size', value: 'M' }]);
    expect(product.variants.map((v) => [v.price.amount, v.salePrice?.amount ?? null])).toEqual([
      [2000, 1500],
      [2000, 1500],
      [2200, null],
    ]);
    expect(product.variants.map((v) => v.inventory.stockStatus)).toEqual([
      'outofstock',
      'instock',
      'instock',
    ]);
    const write = productToBc(product, refs);
    expect(specProblems('POST', '/v3/catalog/products', write.body)).toEqual([]);
    expect(write.body).toMatchObject({ price: 20, sale_price: 15, inventory_tracking: 'variant' });
    expect(
      (write.body.variants as Record<string, unknown>[]).map((v) => [v.price, v.sale_price]),
    ).toEqual([
      [null, null],
      [null, null],
      [22, 0],
    ]);
    // BigCommerce makes the option a list of rectangles from the variants (M, S, L): set it back.
    expect(write.optionPlans).toEqual([
      {
        display_name: 'Size',
        type: 'swatch',
        values: [
          { label: 'S', sort_order: 0, is_default: false },
          { label: 'M', sort_order: 1, is_default: true, value_data: { colors: ['#000'] } },
          { label: 'L', sort_order: 2, is_default: false },
        ],
      },
    ]);
  });

  const canonical: Product = {
    ...productDefaults(),
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
      { name: 'Size', values: ['S', 'M'], shared: { slug: 'size' }, visible: true, position: 0 },
      { name: 'Color', values: ['Red'], shared: null, visible: true, position: 1 },
    ],
    variants: [
      {
        ...variantDefaults(usd(9999)),
        id: 'v1',
        sku: 'TJ-S-RED',
        optionValues: [
          { name: 'Size', value: 'S' },
          { name: 'Color', value: 'Red' },
        ],
        salePrice: usd(7999),
        weight: { value: 1, unit: 'kg' },
        inventory: {
          tracked: true,
          quantity: 4,
          stockStatus: 'instock',
          backorders: 'no',
          lowStockThreshold: 3,
        },
        barcode: '00012345678905',
        position: 0,
      },
      {
        ...variantDefaults(usd(8499)),
        id: 'v2',
        sku: '',
        optionValues: [
          { name: 'Size', value: 'M' },
          { name: 'Color', value: 'Red' },
        ],
        weight: { value: 1.2, unit: 'kg' },
        inventory: {
          tracked: true,
          quantity: -2,
          stockStatus: 'onbackorder',
          backorders: 'notify',
          lowStockThreshold: null,
        },
        status: 'private',
        position: 1,
      },
    ],
    images: [
      {
        url: 'https://source.example.com/media/tj.png',
        alt: 'Trail Jacket',
        title: 'Jacket',
        position: 0,
      },
    ],
    categoryIds: ['c1'],
    tags: ['outdoor', 'rain, wind'],
    seoTitle: 'Trail Jacket | Store',
    seoDescription: 'Buy it.',
    dimensions: { length: 40, width: 30, height: 5, unit: 'cm' },
    attributes: [
      {
        name: 'material',
        values: ['nylon', 'x'.repeat(300)],
        shared: null,
        visible: true,
        position: 2,
      },
    ],
    sourceUrlPath: '/products/trail-jacket',
    createdAt: null,
    updatedAt: null,
  };

  it('writes a product as one create request the spec accepts, variants and images nested', () => {
    const { body, warnings } = productToBc(canonical, {
      ...refs,
      categoryIds: [31],
      brandId: 40,
      relatedIds: [90],
    });
    expect(specProblems('POST', '/v3/catalog/products', body)).toEqual([]);
    expect(body).toMatchObject({
      name: 'Trail Jacket',
      type: 'physical',
      sku: 'TJ',
      price: 99.99,
      // The sale price of the first variant, as many variants have it as have none.
      sale_price: 79.99,
      // BigCommerce requires a weight; a product with options and none of its own gets 0.
      weight: 0,
      categories: [31],
      brand_id: 40,
      related_products: [90],
      is_visible: false,
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
    expect(body).not.toHaveProperty('availability');
    expect(body.variants).toEqual([
      {
        sku: 'TJ-S-RED',
        price: null,
        sale_price: null,
        weight: 1,
        inventory_level: 4,
        inventory_warning_level: 3,
        gtin: '00012345678905',
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
        purchasing_disabled: true,
        option_values: [
          { option_display_name: 'Size', label: 'M' },
          { option_display_name: 'Color', label: 'Red' },
        ],
      },
    ]);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringContaining('longer than 250'),
        expect.stringContaining('variants without a SKU'),
      ]),
    );
    const archived = productToBc({ ...canonical, status: 'archived' }, refs);
    expect(archived.body).toMatchObject({ is_visible: false, availability: 'disabled' });
    expect(archived.body).not.toHaveProperty('brand_id');
  });

  it('writes a sale running now, leaves out one that has not started or is over', () => {
    const now = Date.parse('2026-06-01T00:00:00Z');
    const simple: Product = {
      ...canonical,
      type: 'simple',
      options: [],
      variants: [{ ...(canonical.variants[0] as Product['variants'][number]), optionValues: [] }],
    };
    const at = (saleStartsAt: string | null, saleEndsAt: string | null) => {
      const variant = {
        ...(simple.variants[0] as Product['variants'][number]),
        saleStartsAt,
        saleEndsAt,
      };
      return productToBc({ ...simple, variants: [variant] }, { ...refs, now });
    };
    expect(at(null, '2026-07-01T00:00:00Z').body.sale_price).toBe(79.99);
    const future = at('2026-07-01T00:00:00Z', null);
    expect(future.body.sale_price).toBe(0);
    expect(future.warnings.join('\n')).toContain('had not started');
    const over = at(null, '2026-05-01T00:00:00Z');
    expect(over.body.sale_price).toBe(0);
    expect(over.warnings.join('\n')).toContain('was over');
  });

  it('writes external and grouped products as products that cannot be bought', () => {
    const external = productToBc(
      {
        ...canonical,
        type: 'external',
        options: [],
        externalUrl: 'https://elsewhere.example.com/x',
        variants: [{ ...(canonical.variants[0] as Product['variants'][number]), optionValues: [] }],
      },
      refs,
    );
    expect(external.body).toMatchObject({ availability: 'disabled', price: 99.99 });
    expect(external.warnings.join('\n')).toContain('(type, externalUrl)');
    expect(external.warnings.join('\n')).toContain('(status)');
    const grouped = productToBc(
      { ...canonical, type: 'grouped', options: [], variants: [], groupedProductIds: ['a', 'b'] },
      { ...refs, relatedIds: [7, 8] },
    );
    expect(specProblems('POST', '/v3/catalog/products', grouped.body)).toEqual([]);
    expect(grouped.body).toMatchObject({
      price: 0,
      availability: 'disabled',
      related_products: [7, 8],
    });
    expect(grouped.warnings.join('\n')).toContain('(type, groupedProductIds, upsellIds');
  });

  it('converts weights and dimensions into the store units', () => {
    const pounds = storeUnits('USD', 'LBS', 'Inches');
    expect(weightToStore({ value: 1, unit: 'kg' }, pounds)).toBe(2.2046);
    expect(weightToStore({ value: 16, unit: 'oz' }, pounds)).toBe(1);
    expect(lengthToStore(2.54, 'cm', pounds)).toBe(1);
    const { body } = productToBc(
      { ...canonical, weight: { value: 1, unit: 'kg' } },
      { ...refs, units: pounds },
    );
    expect(body).toMatchObject({ weight: 2.2046, depth: 15.748, width: 11.811 });
  });

  it('writes the weight of a product without options from its variant, and none invented', () => {
    const simple = productToBc(
      {
        ...canonical,
        type: 'simple',
        options: [],
        weight: null,
        variants: [{ ...(canonical.variants[0] as Product['variants'][number]), optionValues: [] }],
      },
      refs,
    );
    expect(simple.body.weight).toBe(1);
    const none = productToBc(
      {
        ...canonical,
        weight: null,
        variants: canonical.variants.map((v) => ({ ...v, weight: null })),
      },
      refs,
    );
    expect(none.body.weight).toBe(0);
  });

  it('names what BigCommerce cannot hold for some variants or options only', () => {
    type V = Product['variants'][number];
    const [first, second] = canonical.variants as [V, V];
    const steady = canonical.variants.map((v) => ({
      ...v,
      inventory: { ...v.inventory, tracked: true, quantity: 4, stockStatus: 'instock' as const },
    }));
    const mixed = productToBc(
      {
        ...canonical,
        options: canonical.options.map((o) => ({ ...o, visible: false })),
        variants: [
          {
            ...first,
            inventory: {
              ...first.inventory,
              tracked: true,
              quantity: -2,
              stockStatus: 'onbackorder',
            },
          },
          { ...second, inventory: { ...second.inventory, tracked: false, stockStatus: 'instock' } },
        ],
      },
      refs,
    );
    const text = mixed.warnings.join('\n');
    expect(text).toContain('(options.visible)');
    expect(text).toContain('(variants.inventory.tracked)');
    expect(text).toContain('(variants.inventory.stockStatus)');
    expect(text).toContain('(variants.inventory.quantity)');
    expect(mixed.body.availability).toBeUndefined();
    const plain = productToBc({ ...canonical, variants: steady }, refs).warnings.join('\n');
    expect(plain).not.toContain('options.visible');
    expect(plain).not.toContain('variants.inventory');
  });

  it('maps categories both ways through the tree endpoints', () => {
    const raw = {
      category_id: 21,
      parent_id: 18,
      tree_id: 1,
      name: 'Bath',
      description: '<p>Bath</p>',
      sort_order: 3,
      image_url: '',
      page_title: 'Bath | Store',
      meta_description: 'Soaps',
      is_visible: false,
      default_product_sort: 'use_store_settings',
      url: { path: '/shop-all/bath/', is_customized: true },
      metafields: [
        {
          id: 1,
          resource_id: 21,
          namespace: 'merch',
          key: 'banner',
          value: 'Sale',
          permission_set: 'write',
          description: '',
        },
      ],
    };
    const category = categoryToCanonical(treeCategorySchema.parse(raw), raw);
    expect(category).toEqual({
      ...categoryDefaults(),
      id: '21',
      parentId: '18',
      name: 'Bath',
      slug: 'bath',
      description: '<p>Bath</p>',
      position: 3,
      imageUrl: null,
      seoTitle: 'Bath | Store',
      seoDescription: 'Soaps',
      metafields: [
        { namespace: 'bigcommerce.merch', key: 'banner', value: 'Sale', type: 'string' },
        { namespace: fieldsNamespace, key: 'is_visible', value: 'false', type: 'boolean' },
      ],
      sourceUrlPath: '/shop-all/bath/',
    });
    const { body, metafields } = categoryToBc({ ...category, name: 'N'.repeat(60) }, 77, 1);
    expect(specProblems('POST', '/v3/catalog/trees/categories', [body])).toEqual([]);
    expect(body).toMatchObject({
      parent_id: 77,
      tree_id: 1,
      sort_order: 3,
      is_visible: false,
      page_title: 'Bath | Store',
      meta_description: 'Soaps',
      url: { path: '/shop-all/bath/' },
    });
    expect(metafields).toEqual([
      { namespace: 'merch', key: 'banner', value: 'Sale', permission_set: 'write' },
    ]);
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
  const attributes = new Map([
    [1, { id: 1, name: 'Loyalty tier', type: 'string' as const }],
    [2, { id: 2, name: 'Shoe size', type: 'number' as const }],
  ]);

  it('reads the documented customer example (with the id and date the example leaves out)', () => {
    const documented = (example('customers.v3.yml', '/customers', 'get') as { data: object[] })
      .data[0];
    const raw = {
      ...documented,
      id: 4,
      email: 'Jane.Smith@Example.com',
      date_created: '2024-02-01T10:00:00+00:00',
      customer_group_id: 3,
      company: 'Acme',
      attributes: [{ attribute_id: 2, attribute_value: '41' }],
      form_fields: [{ name: 'Interests', value: ['a', 'b'] }],
    };
    const customer = customerToCanonical(customerSchema.parse(raw), raw, attributes);
    expect(canonicalCustomer.safeParse(customer).error).toBeUndefined();
    expect(customer).toMatchObject({
      id: '4',
      email: 'jane.smith@example.com',
      acceptsMarketing: true,
      note: 'Preferred customer',
      group: '3',
      createdAt: '2024-02-01T10:00:00.000Z',
    });
    expect(customer.addresses[0]).toMatchObject({
      address1: 'Addr1',
      email: '',
      isDefaultBilling: true,
      isDefaultShipping: true,
    });
    expect(customer.metafields).toEqual(
      expect.arrayContaining([
        {
          namespace: fieldsNamespace,
          key: 'company',
          value: 'Acme',
          type: 'single_line_text_field',
        },
        { namespace: 'bigcommerce', key: 'Shoe size', value: '41', type: 'number_decimal' },
        {
          namespace: 'bigcommerce_form_fields',
          key: 'Interests',
          value: '["a","b"]',
          type: 'json',
        },
      ]),
    );
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
      email: '',
    };
    const customer: Customer = {
      id: 'c9',
      email: 'ada@example.com',
      username: '',
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
      group: '',
      metafields: [
        {
          namespace: 'bigcommerce',
          key: 'loyalty tier',
          value: 'Gold',
          type: 'single_line_text_field',
        },
        { namespace: 'bigcommerce_form_fields', key: 'Interests', value: '["a"]', type: 'json' },
        {
          namespace: fieldsNamespace,
          key: 'registration_ip_address',
          value: '203.0.113.9',
          type: 'single_line_text_field',
        },
        {
          namespace: fieldsNamespace,
          key: 'store_credit_amounts',
          value: '[{"amount":5}]',
          type: 'json',
        },
        { namespace: 'woocommerce', key: 'favourite', value: 'tea', type: 'string' },
      ],
      createdAt: '2022-01-01T00:00:00.000Z',
    };
    const byName = new Map([...attributes.values()].map((a) => [a.name.toLowerCase(), a]));
    const { body, warnings, update, metafields } = customerToBc(customer, byName);
    expect(specProblems('POST', '/v3/customers', [body])).toEqual([]);
    expect(body).toMatchObject({
      email: 'ada@example.com',
      last_name: '-',
      notes: 'VIP',
      accepts_product_review_abandoned_cart_emails: true,
      trigger_account_created_notification: false,
      authentication: { force_password_reset: true },
      attributes: [{ attribute_id: 1, attribute_value: 'Gold' }],
      form_fields: [{ name: 'Interests', value: ['a'] }],
      store_credit_amounts: [{ amount: 5 }],
    });
    // The sign-up address is taken by an update only.
    expect(update).toEqual({ registration_ip_address: '203.0.113.9' });
    expect(specProblems('PUT', '/v3/customers', [{ id: 1, ...update }])).toEqual([]);
    expect(metafields).toEqual([
      { namespace: 'woocommerce', key: 'favourite', value: 'tea', permission_set: 'write' },
    ]);
    expect((body.addresses as { city: string }[]).map((a) => a.city)).toEqual(['Dallas', 'Austin']);
    expect(warnings.join('\n')).toContain('last name was empty');
    expect(warnings.join('\n')).toContain('without street, city or country');
  });

  it('reports what the model cannot carry, only where the record has something', () => {
    const catalogue = bigCommerceNativeFields.customers ?? {};
    const plain = {
      origin_channel_id: 1,
      channel_ids: [1],
      addresses: [{ company: '', address_type: 'residential', form_fields: [] }],
    };
    expect(nativeLosses(plain, catalogue, neutralValues.customers)).toEqual([]);
    const other = {
      origin_channel_id: 2,
      channel_ids: [1, 2],
      addresses: [
        { company: '', address_type: 'commercial', form_fields: [{ name: 'Door', value: 'Side' }] },
      ],
    };
    expect(nativeLosses(other, catalogue, neutralValues.customers).map((l) => l.field)).toEqual([
      'origin_channel_id',
      'channel_ids',
      'addresses[].address_type',
      'addresses[].form_fields',
    ]);
  });
});

describe('order mapping', () => {
  const documented = example('orders.v2.oas2.yml', '/orders/{order_id}', 'get') as Record<
    string,
    unknown
  >;
  const products = example('orders.v2.oas2.yml', '/orders/{order_id}/products', 'get') as Record<
    string,
    unknown
  >[];
  const shippingAddresses = example(
    'orders.v2.oas2.yml',
    '/orders/{order_id}/shipping_addresses',
    'get',
  ) as object[];
  const native = (overrides: Record<string, unknown> = {}) => ({
    ...documented,
    products,
    shipping_addresses: shippingAddresses.slice(0, 1),
    coupons: [{ code: 'SAVE5', amount: '5.0000' }],
    fees: [],
    ...overrides,
  });
  const live = { liveProducts: new Set([77, 80]) };
  const read = (raw: Record<string, unknown>, ctx = live): Order => {
    const order = orderToCanonical(orderSchema.parse(raw), raw, ctx);
    expect(canonicalOrder.safeParse(order).error).toBeUndefined();
    return order;
  };

  it('reads the documented order, products and shipping addresses', () => {
    const canonical = read(native());
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
      subtotal: usd(6268),
      shippingTotal: usd(1109),
      taxTotal: usd(531),
      grandTotal: usd(6984),
      discountTotal: usd(1000),
      paymentMethodTitle: 'Cash',
      billingAddress: {
        address1: '555 East Street',
        countryCode: 'US',
        province: 'Texas',
        postalCode: '78108',
        email: 'janedoe@example.com',
      },
    });
    expect(canonical.lines[0]).toMatchObject({
      productId: '77',
      sku: 'S-ORAN',
      quantity: 1,
      unitPrice: usd(5599),
      tax: usd(924),
    });
    expect(canonical.shippingLines).toEqual([
      { title: '', code: '', price: usd(1200), tax: usd(99) },
    ]);
    expect(canonical.discounts.map((d) => d.code)).toEqual(['SAVE5', '']);
  });

  it("reports the order's fields the model cannot carry, where the order has them", () => {
    const catalogue = bigCommerceNativeFields.orders ?? {};
    const losses = (raw: Record<string, unknown>) =>
      [...nativeLosses(raw, catalogue, neutralValues.orders), ...orderLosses(raw)].map(
        (l) => l.field,
      );
    // The documented order has a checkout form field, a bundled line and cost prices.
    const documentedLosses = [
      'billing_address.form_fields',
      'products[].base_cost_price',
      'products[].cost_price_inc_tax',
      'products[].cost_price_ex_tax',
      'products[].fixed_shipping_cost',
      'products[].parent_order_product_id',
      'products[].is_bundled_product',
    ];
    expect(losses(native({ channel_id: 1, external_source: 'M-MIG' }))).toEqual(documentedLosses);
    const lines = products.map((p, i) =>
      i === 0 ? { ...p, quantity_refunded: 1, name_merchant: 'Towel (merchant)' } : p,
    );
    const more = losses(
      native({
        channel_id: 2,
        external_source: 'POS (Square)',
        store_credit_amount: '5.0000',
        products: lines,
        shipping_addresses: shippingAddresses.slice(0, 2),
      }),
    );
    expect(more.sort()).toEqual(
      [
        ...documentedLosses,
        'store_credit_amount',
        'channel_id',
        'external_source',
        'products[].name_merchant',
        'products[].quantity_refunded',
        'shipping_addresses',
      ].sort(),
    );
  });

  it('keeps the line of a deleted product, without a product', () => {
    const canonical = read(native(), { liveProducts: new Set() });
    expect(canonical.lines[0]).toMatchObject({ productId: null, variantId: null, sku: 'S-ORAN' });
    const { body, warnings } = orderToBc(canonical, { customerId: 0, lines: [undefined] });
    expect((body.products as Record<string, unknown>[])[0]).toMatchObject({
      name: 'Fog Linen Chambray Towel - Beige Stripe',
      sku: 'S-ORAN',
      price_ex_tax: 55.99,
    });
    expect(warnings.join('\n')).not.toContain('is not at the destination');
  });

  it('maps every canonical status to a BigCommerce status and back, and keeps the others', () => {
    for (const status of orderStatuses) {
      const canonical = read(native({ status_id: toStatusId[status], payment_status: '' }));
      expect(canonical.status, status).toBe(status);
      expect(orderToBc(canonical, { customerId: 0, lines: [] }).body.status_id).toBe(
        toStatusId[status],
      );
    }
    const shipped = read(native({ status_id: 2 }));
    expect(shipped.status).toBe('completed');
    expect(orderToBc(shipped, { customerId: 0, lines: [] }).body.status_id).toBe(2);
  });

  it('reads fees, handling and wrapping, refunds, payment and notes, and writes them back', () => {
    const canonical = read(
      native({
        fees: [
          {
            id: 1,
            display_name_customer: 'Gift wrap',
            display_name_merchant: 'Gift wrap',
            cost_ex_tax: '4.0000',
            cost_inc_tax: '4.3200',
            cost_tax: '0.3200',
            tax_class_id: null,
          },
          {
            id: 2,
            display_name_customer: 'Loyalty credit',
            display_name_merchant: 'Loyalty credit',
            cost_ex_tax: '-2.5000',
            cost_inc_tax: '-2.5000',
            cost_tax: '0.0000',
            tax_class_id: 0,
          },
        ],
        handling_cost_ex_tax: '3.0000',
        handling_cost_inc_tax: '3.2400',
        base_handling_cost: '3.0000',
        refunded_amount: '10.0000',
        payment_provider_id: 'ch_123',
        ip_address: '',
        ip_address_v6: '2001:db8::7',
        staff_notes: 'Checked by phone.',
        order_source: 'manual',
      }),
    );
    expect(canonical.fees).toEqual([
      { name: 'Gift wrap', amount: usd(400), tax: usd(32), taxClass: '', taxStatus: 'taxable' },
      {
        name: 'Loyalty credit',
        amount: usd(-250),
        tax: usd(0),
        taxClass: '0',
        taxStatus: 'taxable',
      },
      { name: 'Handling', amount: usd(300), tax: usd(24), taxClass: '', taxStatus: 'taxable' },
    ]);
    expect(canonical).toMatchObject({
      feeTotal: usd(450),
      refundTotal: usd(1000),
      refunds: [],
      transactionId: 'ch_123',
      customerIpAddress: '2001:db8::7',
      createdVia: 'manual',
    });
    expect(field(canonical.metafields, 'staff_notes')).toBe('Checked by phone.');
    const notes: Order['notes'] = [
      {
        content: 'Called the customer',
        customerNote: false,
        author: 'Ana',
        createdAt: '2024-05-01T10:00:00.000Z',
      },
      {
        content: 'Your order ships Monday',
        customerNote: true,
        author: '',
        createdAt: '2024-05-02T09:30:00.000Z',
      },
    ];
    const { body } = orderToBc(
      { ...canonical, notes },
      { customerId: 40, lines: [{ productId: 501, variantId: 902 }] },
    );
    expect(specProblems('POST', '/v2/orders', body)).toEqual([]);
    expect(body).toMatchObject({
      handling_cost_ex_tax: '3.00',
      handling_cost_inc_tax: '3.24',
      fees: [
        {
          type: 'custom_fee',
          display_name_customer: 'Gift wrap',
          cost_ex_tax: '4.00',
          cost_inc_tax: '4.32',
        },
        {
          type: 'custom_fee',
          display_name_customer: 'Loyalty credit',
          cost_ex_tax: '-2.50',
          cost_inc_tax: '-2.50',
          tax_class_id: 0,
        },
      ],
      refunded_amount: '10.00',
      payment_method: 'Cash',
      payment_provider_id: 'ch_123',
      ip_address_v6: '2001:db8::7',
      order_source: 'manual',
      staff_notes:
        'Checked by phone.\n\n[2024-05-01 10:00 UTC, Ana] Called the customer\n\n[2024-05-02 09:30 UTC, store, sent to the customer] Your order ships Monday',
    });
  });

  it('names where an order came from when BigCommerce has no word for it, and line details it drops', () => {
    const canonical = read(native({ coupons: [], coupon_discount: '0', external_order_id: '' }));
    const refs = {
      customerId: 0,
      lines: canonical.lines.map(() => ({ productId: 5, variantId: undefined })),
    };
    const web = orderToBc({ ...canonical, createdVia: 'web' }, refs);
    expect(web.body.order_source).toBe('www');
    expect(web.warnings.join('\n')).not.toContain('(createdVia)');
    const pos = orderToBc({ ...canonical, createdVia: 'pos' }, refs);
    expect(pos.body).not.toHaveProperty('order_source');
    expect(pos.warnings.join('\n')).toContain("('pos')");
    const [line] = canonical.lines as [Order['lines'][number]];
    const detailed = orderToBc(
      {
        ...canonical,
        lines: [
          {
            ...line,
            meta: [{ key: 'Engraving', value: 'J.S.' }],
            total: { ...line.total, amount: line.unitPrice.amount * line.quantity - 100 },
          },
        ],
      },
      { customerId: 0, lines: [{ productId: 5, variantId: undefined }] },
    );
    const text = detailed.warnings.join('\n');
    expect(text).toContain('(lines.meta)');
    expect(text).toContain('(lines.total)');
    const plain = orderToBc(
      {
        ...canonical,
        lines: [
          {
            ...line,
            meta: [],
            total: { ...line.total, amount: line.unitPrice.amount * line.quantity },
          },
        ],
      },
      { customerId: 0, lines: [{ productId: 5, variantId: undefined }] },
    );
    expect(plain.warnings.join('\n')).not.toContain('lines.');
  });

  it('writes a historical import the spec accepts: M-MIG, marker, amounts as they were', () => {
    const canonical = read(native({ coupons: [], coupon_discount: '0', external_order_id: '' }));
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
      // The example's manual discount.
      discount_amount: '5.00',
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
    // An order with an id of its own elsewhere keeps it, and is found again by it.
    const own = orderToBc(
      {
        ...canonical,
        metafields: [
          {
            namespace: fieldsNamespace,
            key: 'external_order_id',
            value: 'AMZ-1',
            type: 'single_line_text_field',
          },
        ],
      },
      { customerId: 0, lines: [undefined] },
    );
    expect(own.body.external_order_id).toBe('AMZ-1');
  });

  // Two orders of a 5,000-order BigCommerce -> BigCommerce run: a 16.00 coupon on a 13.99 basket
  // with free shipping, tax 1.12 charged before the discount, so 'what was paid' is -0.89 and the
  // total before tax -2.01, which BigCommerce refuses with 422 "total_ex_tax can't be negative".
  it('never writes a negative total when discounts exceed what was charged', () => {
    const canonical: Order = {
      ...read(native({ shipping_addresses: [], coupons: [] })),
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
          taxClass: '',
          meta: [],
        },
      ],
      shippingLines: [{ title: 'Free shipping', code: '', price: usd(0), tax: usd(0) }],
      discounts: [{ code: 'SPRING15', amount: usd(1600), tax: usd(0) }],
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
    const canonical = read(native({ shipping_addresses: [], coupons: [] }));
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
    // BigCommerce's own count travels with an order read from BigCommerce.
    const counted = read(
      native({ items_shipped: 1, items_total: 3, shipping_addresses: [], coupons: [] }),
    );
    expect(orderToBc(counted, { customerId: 0, lines }).body.items_shipped).toBe(1);
    const none = orderToBc(
      { ...canonical, fulfillmentStatus: 'unfulfilled' },
      { customerId: 0, lines },
    );
    expect(none.body.items_shipped).toBe(0);
    expect(none.warnings.join('\n')).not.toContain('shipped');
  });
});
