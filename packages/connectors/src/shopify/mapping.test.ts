import { describe, expect, it } from 'vitest';
import { customerSchema as canonicalCustomer } from '@replatform/canonical/customer';
import { orderSchema as canonicalOrder, type Order } from '@replatform/canonical/order';
import { productSchema as canonicalProduct, type Product } from '@replatform/canonical/product';
import {
  productSetCost,
  variantsBulkCost,
  type ShopifyCustomer,
  type ShopifyOrder,
  type ShopifyProduct,
} from './documents.ts';
import {
  attributeMetafield,
  bulkVariantInput,
  customerInput,
  e164Phone,
  financialStatusOf,
  fulfillmentStatusOf,
  isCountryCode,
  mailingAddress,
  orderCreateInput,
  planProductWrite,
  productSetInput,
  redirectPath,
  variantCalls,
} from './from-canonical.ts';
import {
  customerToCanonical,
  orderStatusOf,
  orderToCanonical,
  productToCanonical,
} from './to-canonical.ts';

const page = <T>(nodes: T[]) => ({ pageInfo: { hasNextPage: false, endCursor: null }, nodes });
const usd = (amount: string) => ({ shopMoney: { amount, currencyCode: 'USD' } });

function shopifyProduct(overrides: Partial<ShopifyProduct> = {}): ShopifyProduct {
  return {
    id: 'gid://shopify/Product/1',
    handle: 'tee',
    title: 'Tee',
    descriptionHtml: '<p>Soft</p>',
    status: 'UNLISTED',
    vendor: 'Acme',
    productType: 'Shirts',
    tags: ['a', 'a', 'b'],
    createdAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-02-01T00:00:00Z',
    hasOnlyDefaultVariant: false,
    seo: { title: null, description: 'Buy' },
    options: [
      { name: 'Size', values: ['S', 'M'] },
      { name: 'Color', values: ['Red'] },
    ],
    variants: page([
      {
        id: 'gid://shopify/ProductVariant/11',
        sku: 'TEE-S',
        price: '10.00',
        compareAtPrice: '12.50',
        barcode: null,
        inventoryQuantity: 4,
        position: 1,
        selectedOptions: [
          { name: 'Color', value: 'Red' },
          { name: 'Size', value: 'S' },
        ],
        inventoryItem: { tracked: true, measurement: { weight: { unit: 'GRAMS', value: 250 } } },
        media: { nodes: [{ id: 'gid://shopify/MediaImage/2' }] },
      },
      {
        id: 'gid://shopify/ProductVariant/12',
        sku: null,
        price: '10.00',
        compareAtPrice: null,
        barcode: '123',
        inventoryQuantity: 9,
        position: 2,
        selectedOptions: [
          { name: 'Size', value: 'M' },
          { name: 'Color', value: 'Red' },
        ],
        inventoryItem: { tracked: false, measurement: { weight: { unit: 'KILOGRAMS', value: 0 } } },
        media: { nodes: [] },
      },
    ]),
    media: page([
      {
        id: 'gid://shopify/MediaImage/1',
        alt: 'front',
        mediaContentType: 'IMAGE',
        status: 'READY',
        image: { url: 'https://cdn.example/1.png', altText: 'front' },
      },
      {
        id: 'gid://shopify/Video/9',
        alt: null,
        mediaContentType: 'VIDEO',
        status: 'READY',
        image: null,
      },
      {
        id: 'gid://shopify/MediaImage/2',
        alt: null,
        mediaContentType: 'IMAGE',
        status: 'READY',
        image: { url: 'https://cdn.example/2.png', altText: 'back' },
      },
    ]),
    metafields: page([
      { namespace: 'replatform', key: 'source_id', value: 'src-9' },
      { namespace: 'custom', key: 'material', value: 'cotton' },
      { namespace: 'specs', key: 'fit', value: 'slim' },
    ]),
    collections: page([{ id: 'gid://shopify/Collection/5' }]),
    ...overrides,
  };
}

describe('Shopify -> canonical', () => {
  it('maps a product with options, variants, media, SEO and metafields', () => {
    const product = productToCanonical(shopifyProduct(), 'USD');
    expect(canonicalProduct.safeParse(product).success).toBe(true);
    expect(product).toMatchObject({
      type: 'variable',
      status: 'active',
      sku: '',
      tags: ['a', 'b'],
      seoTitle: '',
      seoDescription: 'Buy',
      options: [
        { name: 'Size', values: ['S', 'M'] },
        { name: 'Color', values: ['Red'] },
      ],
      images: [
        { url: 'https://cdn.example/1.png', alt: 'front', position: 0 },
        { url: 'https://cdn.example/2.png', alt: 'back', position: 1 },
      ],
      categoryIds: ['gid://shopify/Collection/5'],
      attributes: { material: 'cotton', 'specs.fit': 'slim', product_type: 'Shirts' },
      sourceUrlPath: '/products/tee',
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-02-01T00:00:00.000Z',
    });
    expect(product.variants[0]).toMatchObject({
      sku: 'TEE-S',
      optionValues: [
        { name: 'Size', value: 'S' },
        { name: 'Color', value: 'Red' },
      ],
      price: { amount: 1000, currency: 'USD' },
      compareAtPrice: { amount: 1250, currency: 'USD' },
      weight: { value: 250, unit: 'g' },
      inventory: { tracked: true, quantity: 4 },
      imageUrl: 'https://cdn.example/2.png',
    });
    expect(product.variants[1]).toMatchObject({
      sku: '',
      barcode: '123',
      weight: null,
      inventory: { tracked: false, quantity: 0 },
      imageUrl: null,
    });
  });

  it('maps a product with only the default variant as simple', () => {
    const simple = productToCanonical(
      shopifyProduct({
        hasOnlyDefaultVariant: true,
        options: [{ name: 'Title', values: ['Default Title'] }],
        variants: page([
          {
            ...shopifyProduct().variants.nodes[0]!,
            selectedOptions: [{ name: 'Title', value: 'Default Title' }],
          },
        ]),
        status: 'ARCHIVED',
      }),
      'USD',
    );
    expect(simple).toMatchObject({ type: 'simple', options: [], sku: 'TEE-S', status: 'archived' });
    expect(simple.variants[0]?.optionValues).toEqual([]);
  });

  it('maps customers: lower-cased e-mail, consent, one default address; refuses one without e-mail', () => {
    const address = {
      firstName: 'A',
      lastName: 'B',
      company: null,
      address1: '1 St',
      address2: null,
      city: 'X',
      province: 'Texas',
      provinceCode: 'TX',
      zip: '1',
      countryCodeV2: 'US',
      phone: null,
    };
    const customer: ShopifyCustomer = {
      id: 'gid://shopify/Customer/1',
      firstName: null,
      lastName: 'B',
      note: null,
      tags: [],
      createdAt: '2024-03-01T10:00:00Z',
      updatedAt: '2024-03-01T10:00:00Z',
      defaultEmailAddress: { emailAddress: 'Ann@Example.com', marketingState: 'SUBSCRIBED' },
      defaultPhoneNumber: { phoneNumber: '+15550100' },
      defaultAddress: { id: 'gid://shopify/MailingAddress/2' },
      addressesV2: page([
        { ...address, id: 'gid://shopify/MailingAddress/1' },
        { ...address, id: 'gid://shopify/MailingAddress/2', provinceCode: null },
      ]),
    };
    const mapped = customerToCanonical(customer);
    expect(canonicalCustomer.safeParse(mapped).success).toBe(true);
    expect(mapped).toMatchObject({
      email: 'ann@example.com',
      firstName: '',
      acceptsMarketing: true,
      phone: '+15550100',
      createdAt: '2024-03-01T10:00:00.000Z',
    });
    if ('rejected' in mapped) throw new Error('rejected');
    expect(
      mapped.addresses.map((a) => [a.province, a.isDefaultBilling, a.isDefaultShipping]),
    ).toEqual([
      ['TX', false, false],
      ['Texas', true, true],
    ]);
    expect(customerToCanonical({ ...customer, defaultEmailAddress: null })).toEqual({
      rejected: expect.stringContaining('no e-mail'),
    });
  });

  it('maps order statuses (documented table) and money', () => {
    const table: [string | null, string, string | null, Order['status']][] = [
      ['PAID', 'FULFILLED', '2025-01-01T00:00:00Z', 'cancelled'],
      ['REFUNDED', 'FULFILLED', null, 'refunded'],
      ['VOIDED', 'UNFULFILLED', null, 'failed'],
      ['EXPIRED', 'UNFULFILLED', null, 'failed'],
      ['AUTHORIZED', 'ON_HOLD', null, 'on-hold'],
      ['PAID', 'FULFILLED', null, 'completed'],
      ['PENDING', 'UNFULFILLED', null, 'pending'],
      ['AUTHORIZED', 'UNFULFILLED', null, 'pending'],
      ['PAID', 'UNFULFILLED', null, 'processing'],
      ['PARTIALLY_REFUNDED', 'PARTIALLY_FULFILLED', null, 'processing'],
    ];
    for (const [financial, fulfillment, cancelledAt, status] of table)
      expect(
        orderStatusOf({
          displayFinancialStatus: financial,
          displayFulfillmentStatus: fulfillment,
          cancelledAt,
        }),
        `${financial} ${fulfillment}`,
      ).toBe(status);
  });

  it('separates line discounts from order discounts and keeps totals consistent', () => {
    const allocation = (amount: string, index: number, targetSelection: string) => ({
      allocatedAmountSet: usd(amount),
      discountApplication: { index, targetSelection },
    });
    const order: ShopifyOrder = {
      id: 'gid://shopify/Order/1',
      name: '#1042',
      processedAt: '2024-05-01T10:00:00Z',
      updatedAt: '2024-05-02T10:00:00Z',
      currencyCode: 'USD',
      email: 'x@example.com',
      note: null,
      cancelledAt: null,
      displayFinancialStatus: 'PAID',
      displayFulfillmentStatus: 'FULFILLED',
      customer: null,
      subtotalPriceSet: usd('35.00'),
      totalTaxSet: usd('3.00'),
      totalShippingPriceSet: usd('5.00'),
      totalDiscountsSet: usd('10.00'),
      totalPriceSet: usd('38.00'),
      billingAddress: null,
      shippingAddress: null,
      lineItems: page([
        {
          id: 'gid://shopify/LineItem/1',
          name: 'Tee - S',
          sku: 'TEE-S',
          quantity: 2,
          originalUnitPriceSet: usd('10.00'),
          taxLines: [{ priceSet: usd('2.00') }],
          discountAllocations: [allocation('2.00', 0, 'EXPLICIT'), allocation('3.00', 1, 'ALL')],
          variant: { id: 'gid://shopify/ProductVariant/1', title: 'S' },
          product: { id: 'gid://shopify/Product/1' },
        },
        {
          id: 'gid://shopify/LineItem/2',
          name: 'Mug',
          sku: null,
          quantity: 1,
          originalUnitPriceSet: usd('20.00'),
          taxLines: [{ priceSet: usd('1.00') }],
          discountAllocations: [allocation('3.00', 1, 'ALL')],
          variant: { id: 'gid://shopify/ProductVariant/2', title: 'Default Title' },
          product: null,
        },
      ]),
      shippingLines: page([
        {
          title: 'Post',
          code: null,
          originalPriceSet: usd('5.00'),
          taxLines: [],
          discountAllocations: [allocation('2.00', 2, 'ALL')],
        },
      ]),
      discountApplications: page([
        {
          index: 0,
          targetSelection: 'EXPLICIT',
          targetType: 'LINE_ITEM',
          allocationMethod: 'EACH',
          title: 'Staff',
        },
        {
          index: 1,
          targetSelection: 'ALL',
          targetType: 'LINE_ITEM',
          allocationMethod: 'ACROSS',
          code: 'SAVE6',
        },
        {
          index: 2,
          targetSelection: 'ALL',
          targetType: 'SHIPPING_LINE',
          allocationMethod: 'EACH',
          code: 'SHIP2',
        },
      ]),
    };
    const mapped = orderToCanonical(order);
    expect(canonicalOrder.safeParse(mapped).success).toBe(true);
    if ('rejected' in mapped) throw new Error('rejected');
    expect(mapped).toMatchObject({
      number: '1042',
      // Canonical timestamps have one form: toISOString()'s, with milliseconds.
      createdAt: '2024-05-01T10:00:00.000Z',
      updatedAt: '2024-05-02T10:00:00.000Z',
      status: 'completed',
      paymentStatus: 'paid',
      fulfillmentStatus: 'fulfilled',
    });
    expect(mapped.lines.map((l) => [l.total.amount, l.tax.amount, l.variantId])).toEqual([
      [1800, 200, 'gid://shopify/ProductVariant/1'],
      [2000, 100, null],
    ]);
    expect(mapped.discounts).toEqual([
      { code: 'SAVE6', amount: { amount: 600, currency: 'USD' } },
      { code: 'SHIP2', amount: { amount: 200, currency: 'USD' } },
    ]);
    expect(
      mapped.subtotal.amount -
        mapped.discountTotal.amount +
        mapped.shippingTotal.amount +
        mapped.taxTotal.amount,
    ).toBe(mapped.grandTotal.amount);
    expect(orderToCanonical({ ...order, lineItems: page([]) })).toEqual({
      rejected: 'The order has no line items.',
    });
  });
});

function canonicalProductFixture(overrides: Partial<Product> = {}): Product {
  const base = productToCanonical(shopifyProduct(), 'USD');
  return { ...base, ...overrides };
}

describe('canonical -> Shopify', () => {
  it('builds productSet input with options, variants, inventory, media, metafields and collections', () => {
    const product = canonicalProductFixture({
      dimensions: { length: 1, width: 2, height: 3, unit: 'cm' },
      shortDescriptionHtml: '<p>x</p>',
      attributes: {
        material: 'cotton',
        'Screen Size': '13"',
        product_type: 'Shirts',
        'specs.fit': 'slim',
      },
    });
    const built = productSetInput(product, {
      locationId: 'gid://shopify/Location/1',
      collectionIds: (id) =>
        id === 'gid://shopify/Collection/5' ? 'gid://shopify/Collection/50' : undefined,
    });
    if ('failure' in built) throw new Error(built.failure);
    const input = built.input as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a GraphQL input navigated in assertions
    expect(input).toMatchObject({
      title: 'Tee',
      handle: 'tee',
      status: 'ACTIVE',
      productType: 'Shirts',
      seo: { title: null, description: 'Buy' },
      productOptions: [
        { name: 'Size', values: [{ name: 'S' }, { name: 'M' }] },
        { name: 'Color', values: [{ name: 'Red' }] },
      ],
      collections: ['gid://shopify/Collection/50'],
      files: [
        { originalSource: 'https://cdn.example/1.png', alt: 'front', contentType: 'IMAGE' },
        { originalSource: 'https://cdn.example/2.png', alt: 'back', contentType: 'IMAGE' },
      ],
    });
    expect(input.variants[0]).toMatchObject({
      optionValues: [
        { optionName: 'Size', name: 'S' },
        { optionName: 'Color', name: 'Red' },
      ],
      price: '10.00',
      compareAtPrice: '12.50',
      inventoryItem: { tracked: true, measurement: { weight: { unit: 'GRAMS', value: 250 } } },
      inventoryQuantities: [
        { locationId: 'gid://shopify/Location/1', name: 'available', quantity: 4 },
      ],
      file: { originalSource: 'https://cdn.example/2.png', contentType: 'IMAGE' },
    });
    expect(input.variants[1].inventoryQuantities).toBeUndefined();
    expect(input.metafields).toEqual([
      {
        namespace: 'replatform',
        key: 'source_id',
        type: 'single_line_text_field',
        value: 'gid://shopify/Product/1',
      },
      { namespace: 'custom', key: 'material', type: 'single_line_text_field', value: 'cotton' },
      { namespace: 'custom', key: 'screen_size', type: 'single_line_text_field', value: '13"' },
      { namespace: 'specs', key: 'fit', type: 'single_line_text_field', value: 'slim' },
    ]);
    expect(built.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/dimensions/),
        expect.stringMatching(/short description/),
        "Attribute 'Screen Size' was stored as metafield custom.screen_size.",
      ]),
    );
  });

  it('gives a simple product Shopify’s default option and refuses what Shopify cannot hold', () => {
    const simple = productToCanonical(
      shopifyProduct({
        hasOnlyDefaultVariant: true,
        variants: page([shopifyProduct().variants.nodes[0]!]),
      }),
      'USD',
    );
    const built = productSetInput(simple, { locationId: 'L', collectionIds: () => undefined });
    if ('failure' in built) throw new Error(built.failure);
    expect(built.input.productOptions).toEqual([
      { name: 'Title', values: [{ name: 'Default Title' }] },
    ]);
    expect(built.warnings).toContain(
      'Category gid://shopify/Collection/5 is not at the destination; the product was not added to it.',
    );
    const base = canonicalProductFixture();
    const duplicate = {
      ...base,
      variants: [base.variants[0]!, { ...base.variants[0]!, id: 'dup' }],
    };
    expect(productSetInput(duplicate, { locationId: 'L', collectionIds: () => undefined })).toEqual(
      { failure: expect.stringMatching(/same options/) },
    );
    const missing = { ...base, variants: [{ ...base.variants[0]!, optionValues: [] }] };
    expect(productSetInput(missing, { locationId: 'L', collectionIds: () => undefined })).toEqual({
      failure: expect.stringMatching(/no valid value for option 'Size'/),
    });
  });

  it('builds customer input with consent, addresses and the marker', () => {
    const built = customerInput(
      {
        id: 'c1',
        email: 'a@example.com',
        firstName: 'A',
        lastName: '',
        phone: '+15550100',
        acceptsMarketing: false,
        note: '',
        tags: ['x'],
        createdAt: '2024-01-01T00:00:00Z',
        addresses: [
          {
            firstName: 'A',
            lastName: '',
            company: '',
            address1: '1 St',
            address2: '',
            city: 'Oslo',
            province: '',
            postalCode: '0150',
            countryCode: 'NO',
            phone: '',
            isDefaultBilling: true,
            isDefaultShipping: true,
          },
        ],
      },
      { withPhone: true },
    );
    if ('failure' in built) throw new Error(built.failure);
    expect(built.input).toEqual({
      email: 'a@example.com',
      firstName: 'A',
      lastName: null,
      note: null,
      tags: ['x'],
      phone: '+15550100',
      emailMarketingConsent: {
        marketingState: 'NOT_SUBSCRIBED',
        marketingOptInLevel: 'SINGLE_OPT_IN',
      },
      addresses: [
        { firstName: 'A', address1: '1 St', city: 'Oslo', zip: '0150', countryCode: 'NO' },
      ],
      metafields: [
        { namespace: 'replatform', key: 'source_id', type: 'single_line_text_field', value: 'c1' },
      ],
    });
    expect(built.warnings[0]).toMatch(/Passwords cannot be migrated/);
  });

  it('maps every canonical order status to what orderCreate (and its follow-ups) can store, and back', () => {
    const statuses: [
      Order['status'],
      Order['paymentStatus'],
      Order['fulfillmentStatus'],
      string,
      string | undefined,
    ][] = [
      ['pending', 'pending', 'unfulfilled', 'PENDING', undefined],
      ['processing', 'paid', 'unfulfilled', 'PAID', undefined],
      ['completed', 'paid', 'unfulfilled', 'PAID', 'FULFILLED'],
      ['refunded', 'paid', 'fulfilled', 'REFUNDED', 'FULFILLED'],
      ['failed', 'pending', 'unfulfilled', 'VOIDED', undefined],
      ['cancelled', 'voided', 'unfulfilled', 'VOIDED', undefined],
      ['on-hold', 'authorized', 'unfulfilled', 'AUTHORIZED', undefined],
      ['processing', 'partially_refunded', 'partial', 'PARTIALLY_REFUNDED', 'PARTIAL'],
    ];
    for (const [status, paymentStatus, fulfillmentStatus, financial, fulfillment] of statuses) {
      const order = { status, paymentStatus, fulfillmentStatus } as Order;
      expect(financialStatusOf(order), status).toBe(financial);
      expect(fulfillmentStatusOf(order), status).toBe(fulfillment);
      const display =
        fulfillment === 'FULFILLED'
          ? 'FULFILLED'
          : status === 'on-hold'
            ? 'ON_HOLD'
            : fulfillment === 'PARTIAL'
              ? 'PARTIALLY_FULFILLED'
              : 'UNFULFILLED';
      const back = orderStatusOf({
        displayFinancialStatus: financial,
        displayFulfillmentStatus: display,
        cancelledAt: status === 'cancelled' ? '2024-01-01T00:00:00Z' : null,
      });
      expect(back, status).toBe(status);
    }
  });

  it('builds orderCreate input: one discount code, taxes, shipping, guest and marker', () => {
    const usdMoney = (amount: number) => ({ amount, currency: 'USD' });
    const order: Order = {
      id: 'o1',
      number: '100023',
      createdAt: '2024-05-01T10:00:00Z',
      updatedAt: null,
      currency: 'USD',
      customerId: 'c9',
      email: 'x@example.com',
      status: 'processing',
      paymentStatus: 'paid',
      fulfillmentStatus: 'unfulfilled',
      lines: [
        {
          id: 'l1',
          productId: 'p1',
          variantId: 'v1',
          sku: 'S-1',
          name: 'Shirt - S',
          quantity: 2,
          unitPrice: usdMoney(1000),
          tax: usdMoney(160),
          total: usdMoney(1800),
        },
      ],
      shippingLines: [{ title: '', code: 'flat', price: usdMoney(500), tax: usdMoney(50) }],
      discounts: [
        { code: 'A', amount: usdMoney(100) },
        { code: 'B', amount: usdMoney(100) },
      ],
      subtotal: usdMoney(1800),
      taxTotal: usdMoney(210),
      shippingTotal: usdMoney(500),
      discountTotal: usdMoney(200),
      grandTotal: usdMoney(2310),
      billingAddress: {
        firstName: 'X',
        lastName: '',
        company: '',
        address1: '',
        address2: '',
        city: '',
        province: '',
        postalCode: '',
        countryCode: 'ZZ',
        phone: '',
      },
      shippingAddress: null,
      note: '',
    };
    const built = orderCreateInput(order, {
      customerId: undefined,
      line: () => ({
        productId: 'gid://shopify/Product/1',
        variantId: 'gid://shopify/ProductVariant/2',
      }),
    });
    if ('failure' in built) throw new Error(built.failure);
    expect(built.input).toMatchObject({
      name: '#100023',
      processedAt: '2024-05-01T10:00:00Z',
      financialStatus: 'PAID',
      lineItems: [
        {
          title: 'Shirt - S',
          quantity: 2,
          sku: 'S-1',
          variantId: 'gid://shopify/ProductVariant/2',
          priceSet: { shopMoney: { amount: '10.00', currencyCode: 'USD' } },
          taxLines: [{ title: 'Tax', rate: '0.0889', priceSet: { shopMoney: { amount: '1.60' } } }],
        },
      ],
      shippingLines: [
        {
          title: 'Shipping',
          code: 'flat',
          priceSet: { shopMoney: { amount: '5.00' } },
          taxLines: [{ rate: '0.1' }],
        },
      ],
      discountCode: {
        itemFixedDiscountCode: { code: 'A + B', amountSet: { shopMoney: { amount: '4.00' } } },
      },
      billingAddress: { firstName: 'X' },
      metafields: [{ namespace: 'replatform', key: 'source_id', value: 'o1' }],
    });
    expect(built.input.customer).toBeUndefined();
    expect(built.warnings).toEqual([
      'Shopify orders take one discount code; A, B were combined into one.',
      'Line discounts were added to the order discount (orderCreate has no per-line discounts).',
      'The customer is not at the destination; the order was imported as a guest order.',
    ]);
  });

  it('normalises metafield keys, redirect paths, countries and addresses', () => {
    expect(attributeMetafield('material')).toEqual({ namespace: 'custom', key: 'material' });
    expect(attributeMetafield('Größe')).toEqual({ namespace: 'custom', key: 'gro_e' });
    expect(attributeMetafield('x')).toEqual({ namespace: 'custom', key: 'attr_x' });
    expect(attributeMetafield('specs.weight_class')).toEqual({
      namespace: 'specs',
      key: 'weight_class',
    });
    expect(redirectPath('https://old.example/shop/red.html?ref=1')).toBe('/shop/red.html?ref=1');
    expect(redirectPath('/a/b')).toBe('/a/b');
    expect(redirectPath(null)).toBeNull();
    expect(isCountryCode('DE')).toBe(true);
    expect(isCountryCode('de')).toBe(false);
    expect(isCountryCode('QQ')).toBe(false);
    expect(
      mailingAddress({
        firstName: ' A ',
        lastName: '',
        company: '',
        address1: '',
        address2: '',
        city: 'Y',
        province: 'ON',
        postalCode: '',
        countryCode: 'CA',
        phone: '',
      }),
    ).toEqual({ firstName: 'A', city: 'Y', provinceCode: 'ON', countryCode: 'CA' });
  });

  it('writes customer phone numbers in E.164, reading national numbers in the address country', () => {
    expect(e164Phone('+1 (512) 555-0100', undefined)).toEqual({ e164: '+15125550100' });
    expect(e164Phone('0044 20 7946 0958', undefined)).toEqual({ e164: '+442079460958' });
    expect(e164Phone('020 7946 0958', 'GB')).toEqual({ e164: '+442079460958' });
    expect(e164Phone('07911 123456', 'GB')).toEqual({ e164: '+447911123456' });
    expect(e164Phone('1-512-555-0100', 'US')).toEqual({ e164: '+15125550100' });
    expect(e164Phone('030 1234567', 'DE')).toEqual({ e164: '+49301234567' });
    expect(e164Phone('555-0100', 'US')).toEqual({
      invalid: 'a North American number has 10 digits',
    });
    expect(e164Phone('12', 'GB')).toEqual({ invalid: 'it has too few digits' });
    expect(e164Phone('ask for Bob', 'US')).toEqual({ invalid: 'it is not a phone number' });
    expect(e164Phone('+0123456789', undefined)).toEqual({
      invalid: 'it has too few or too many digits',
    });
    // A national number of a country whose rules are not known here is left to Shopify.
    expect(e164Phone('8 800 555 35 35', 'KZ')).toEqual({ unknown: true });
  });

  it('plans a product Shopify takes only in parts', () => {
    const url = (i: number) => `https://cdn.example/${i}.png`;
    const input = {
      title: 'Big',
      productOptions: [
        { name: 'N', values: Array.from({ length: 900 }, (_v, i) => ({ name: `v${i}` })) },
      ],
      files: Array.from({ length: 260 }, (_v, i) => ({
        originalSource: url(i),
        alt: '',
        contentType: 'IMAGE',
      })),
      metafields: Array.from({ length: 270 }, (_v, i) => ({
        namespace: 'custom',
        key: `k${i}`,
        type: 'single_line_text_field',
        value: 'x',
      })),
      variants: Array.from({ length: 900 }, (_v, i) => ({
        optionValues: [{ optionName: 'N', name: `v${i}` }],
        sku: `S${i}`,
        inventoryQuantities: [{ locationId: 'L', name: 'available', quantity: 3 }],
        file: { originalSource: url(i === 1 ? 255 : i % 250), contentType: 'IMAGE' },
      })),
    };
    const plan = planProductWrite(input);
    expect(plan.files).toHaveLength(250);
    expect(plan.warnings).toEqual([
      'The product has 260 images; Shopify keeps at most 250 per product, so the last 10 were not migrated (1 variant lost its image).',
    ]);
    expect(plan.input.metafields).toHaveLength(250);
    expect(plan.laterMetafields).toHaveLength(20);
    const first = plan.input.variants as Record<string, unknown>[];
    expect(productSetCost({ input: plan.input })).toBeLessThanOrEqual(1000);
    expect(
      productSetCost({ input: { ...plan.input, variants: [...first, plan.laterVariants[0]] } }),
    ).toBeGreaterThan(1000);
    expect(first.length + plan.laterVariants.length).toBe(900);
    expect(first[1]?.file).toBeUndefined();
    // Option values of later variants are added with them.
    expect((plan.input.productOptions as { values: unknown[] }[])[0]?.values).toHaveLength(
      first.length,
    );
    const calls = variantCalls(
      plan.laterVariants.map((v) => bulkVariantInput(v, 'gid://shopify/MediaImage/1')),
    );
    expect(calls.flat()).toHaveLength(plan.laterVariants.length);
    for (const call of calls) {
      expect(call.length).toBeLessThanOrEqual(250);
      expect(variantsBulkCost({ variants: call })).toBeLessThanOrEqual(1000);
    }
    expect(bulkVariantInput(plan.laterVariants[0]!, 'gid://shopify/MediaImage/1')).toEqual({
      optionValues: [{ optionName: 'N', name: expect.any(String) }],
      inventoryItem: { sku: expect.stringMatching(/^S/) },
      inventoryQuantities: [{ locationId: 'L', availableQuantity: 3 }],
      mediaId: 'gid://shopify/MediaImage/1',
    });
  });
});
