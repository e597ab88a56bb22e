import { describe, expect, it } from 'vitest';
import type { Customer } from '@replatform/canonical/customer';
import { customerSchema as canonicalCustomer } from '@replatform/canonical/customer';
import {
  customerDefaults,
  orderDefaults,
  orderLineDefaults,
  productDefaults,
  variantDefaults,
} from '@replatform/canonical/defaults';
import { orderSchema as canonicalOrder, type Order } from '@replatform/canonical/order';
import {
  productSchema as canonicalProduct,
  type Product,
  type Variant,
} from '@replatform/canonical/product';
import {
  productSetCost,
  variantsBulkCost,
  type ShopifyCustomer,
  type ShopifyOrder,
  type ShopifyProduct,
  type ShopifyVariant,
} from './documents.ts';
import {
  bulkVariantInput,
  cancelReasonOf,
  collectionCreateInput,
  customerInput,
  e164Phone,
  financialStatusOf,
  fulfillmentStatusOf,
  isCountryCode,
  mailingAddress,
  orderCreateInput,
  type LineLink,
  planProductWrite,
  productSetInput,
  redirectPath,
  refundInput,
  saleRuns,
  shopifyMetafields,
  variantCalls,
  type PlannedFile,
} from './from-canonical.ts';
import {
  collectionToCategory,
  customerToCanonical,
  orderStatusOf,
  orderToCanonical,
  productToCanonical,
  type Mapped,
} from './to-canonical.ts';

const page = <T>(nodes: T[]) => ({ pageInfo: { hasNextPage: false, endCursor: null }, nodes });
const usd = (amount: string) => ({ shopMoney: { amount, currencyCode: 'USD' } });
const money = (amount: number) => ({ amount, currency: 'USD' });
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- GraphQL inputs navigated in assertions
type Loose = Record<string, any>;

function recordOf<T>(mapped: Mapped<T>): T {
  if ('rejected' in mapped) throw new Error(mapped.rejected);
  return mapped.record;
}

function shopifyVariant(overrides: Partial<ShopifyVariant> = {}): ShopifyVariant {
  return {
    id: 'gid://shopify/ProductVariant/11',
    sku: 'TEE-S',
    price: '10.00',
    compareAtPrice: '12.50',
    barcode: null,
    inventoryQuantity: 4,
    position: 1,
    taxable: true,
    inventoryPolicy: 'DENY',
    selectedOptions: [
      { name: 'Color', value: 'Red' },
      { name: 'Size', value: 'S' },
    ],
    inventoryItem: {
      tracked: true,
      requiresShipping: true,
      harmonizedSystemCode: '610910',
      countryCodeOfOrigin: 'PT',
      provinceCodeOfOrigin: null,
      unitCost: { amount: '4.5' },
      measurement: { weight: { unit: 'GRAMS', value: 250 } },
    },
    media: { nodes: [{ id: 'gid://shopify/MediaImage/2' }] },
    metafields: page([
      { namespace: 'custom', key: 'fabric', type: 'single_line_text_field', value: 'jersey' },
      {
        namespace: 'replatform',
        key: 'description',
        type: 'multi_line_text_field',
        value: '<p>Small</p>',
      },
    ]),
    ...overrides,
  };
}

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
    templateSuffix: 'alternate',
    isGiftCard: false,
    giftCardTemplateSuffix: null,
    requiresSellingPlan: true,
    createdAt: '2025-01-01T00:00:00Z',
    updatedAt: '2025-02-01T00:00:00Z',
    hasOnlyDefaultVariant: false,
    category: { id: 'gid://shopify/TaxonomyCategory/aa-1' },
    seo: { title: null, description: 'Buy' },
    options: [
      { name: 'Size', position: 1, values: ['S', 'M'] },
      { name: 'Color', position: 2, values: ['Red'] },
    ],
    variants: page([
      shopifyVariant(),
      shopifyVariant({
        id: 'gid://shopify/ProductVariant/12',
        sku: null,
        compareAtPrice: '10.00',
        barcode: '123',
        inventoryQuantity: null,
        position: 2,
        inventoryPolicy: 'CONTINUE',
        selectedOptions: [
          { name: 'Size', value: 'M' },
          { name: 'Color', value: 'Red' },
        ],
        inventoryItem: {
          tracked: false,
          requiresShipping: false,
          harmonizedSystemCode: null,
          countryCodeOfOrigin: null,
          provinceCodeOfOrigin: null,
          unitCost: null,
          measurement: { weight: { unit: 'KILOGRAMS', value: 0 } },
        },
        media: { nodes: [] },
        metafields: page([]),
      }),
    ]),
    media: page([
      {
        id: 'gid://shopify/MediaImage/1',
        alt: 'front',
        mediaContentType: 'IMAGE',
        image: { url: 'https://cdn.example/1.png' },
      },
      { id: 'gid://shopify/Video/9', alt: null, mediaContentType: 'VIDEO', image: null },
      {
        id: 'gid://shopify/MediaImage/2',
        alt: null,
        mediaContentType: 'IMAGE',
        image: { url: 'https://cdn.example/2.png' },
      },
    ]),
    metafields: page([
      { namespace: 'replatform', key: 'source_id', type: 'single_line_text_field', value: 'x' },
      { namespace: 'custom', key: 'material', type: 'single_line_text_field', value: 'cotton' },
      { namespace: 'specs', key: 'fit', type: 'json', value: '{"cut":"slim"}' },
      {
        namespace: 'replatform',
        key: 'short_description',
        type: 'multi_line_text_field',
        value: '<p>Short</p>',
      },
      {
        namespace: 'replatform',
        key: 'attributes',
        type: 'json',
        value: JSON.stringify([
          {
            name: 'Material',
            values: ['Cotton', 'Linen'],
            shared: null,
            visible: true,
            position: 2,
          },
        ]),
      },
      {
        namespace: 'replatform',
        key: 'options',
        type: 'json',
        value: JSON.stringify([
          { name: 'Size', shared: { slug: 'size' }, visible: true, position: 0 },
          { name: 'Color', shared: null, visible: false, position: 1 },
        ]),
      },
    ]),
    collections: page([{ id: 'gid://shopify/Collection/5' }]),
    ...overrides,
  };
}

describe('Shopify -> canonical', () => {
  it('maps a product: options, prices and sales, stock, media, own fields and metafields', () => {
    const mapped = productToCanonical(shopifyProduct(), 'USD');
    const product = recordOf(mapped);
    expect(canonicalProduct.safeParse(product).success).toBe(true);
    expect(product).toMatchObject({
      type: 'variable',
      status: 'active',
      visibility: 'hidden',
      sku: '',
      tags: ['a', 'b'],
      seoTitle: '',
      seoDescription: 'Buy',
      shortDescriptionHtml: '<p>Short</p>',
      options: [
        { name: 'Size', values: ['S', 'M'], shared: { slug: 'size' }, visible: true, position: 0 },
        { name: 'Color', values: ['Red'], shared: null, visible: false, position: 1 },
      ],
      attributes: [{ name: 'Material', values: ['Cotton', 'Linen'], position: 2 }],
      images: [
        { url: 'https://cdn.example/1.png', alt: 'front', title: '', position: 0 },
        { url: 'https://cdn.example/2.png', alt: '', title: '', position: 1 },
      ],
      categoryIds: ['gid://shopify/Collection/5'],
      taxStatus: 'taxable',
      sourceUrlPath: '/products/tee',
      createdAt: '2025-01-01T00:00:00.000Z',
      updatedAt: '2025-02-01T00:00:00.000Z',
    });
    // The marker is the migration's own; Shopify's own fields become shopify.* custom fields.
    expect(product.metafields).toEqual([
      {
        namespace: 'shopify.custom',
        key: 'material',
        type: 'single_line_text_field',
        value: 'cotton',
      },
      { namespace: 'shopify.specs', key: 'fit', type: 'json', value: '{"cut":"slim"}' },
      {
        namespace: 'shopify',
        key: 'product_type',
        type: 'single_line_text_field',
        value: 'Shirts',
      },
      {
        namespace: 'shopify',
        key: 'template_suffix',
        type: 'single_line_text_field',
        value: 'alternate',
      },
      { namespace: 'shopify', key: 'requires_selling_plan', type: 'boolean', value: 'true' },
      {
        namespace: 'shopify',
        key: 'category',
        type: 'single_line_text_field',
        value: 'gid://shopify/TaxonomyCategory/aa-1',
      },
    ]);
    expect(product.variants[0]).toMatchObject({
      sku: 'TEE-S',
      optionValues: [
        { name: 'Size', value: 'S' },
        { name: 'Color', value: 'Red' },
      ],
      // A compare-at price above the price is the regular price; the price is the sale price.
      price: money(1250),
      salePrice: money(1000),
      weight: { value: 250, unit: 'g' },
      inventory: { tracked: true, quantity: 4, stockStatus: 'instock', backorders: 'no' },
      imageUrl: 'https://cdn.example/2.png',
      virtual: false,
      descriptionHtml: '<p>Small</p>',
      position: 0,
    });
    expect(product.variants[0]?.metafields).toEqual([
      {
        namespace: 'shopify.custom',
        key: 'fabric',
        type: 'single_line_text_field',
        value: 'jersey',
      },
      { namespace: 'shopify', key: 'unit_cost', type: 'number_decimal', value: '4.5' },
      {
        namespace: 'shopify',
        key: 'harmonized_system_code',
        type: 'single_line_text_field',
        value: '610910',
      },
      {
        namespace: 'shopify',
        key: 'country_code_of_origin',
        type: 'single_line_text_field',
        value: 'PT',
      },
    ]);
    expect(product.variants[1]).toMatchObject({
      sku: '',
      barcode: '123',
      // A compare-at price that is not above the price is no sale: kept as Shopify's own field.
      price: money(1000),
      salePrice: null,
      weight: null,
      inventory: { tracked: false, quantity: 0, stockStatus: 'instock', backorders: 'yes' },
      imageUrl: null,
      virtual: true,
      metafields: [
        { namespace: 'shopify', key: 'compare_at_price', type: 'number_decimal', value: '10.00' },
      ],
    });
    expect('losses' in mapped && mapped.losses).toEqual([
      {
        field: 'media.nodes[].mediaContentType',
        reason: expect.stringMatching(/1 video or 3D media \(VIDEO\) are not carried/),
      },
    ]);
  });

  it('tells simple, external and untaxed products, stock on backorder and mixed taxes apart', () => {
    const only = shopifyVariant({
      selectedOptions: [{ name: 'Title', value: 'Default Title' }],
      inventoryQuantity: 0,
      inventoryPolicy: 'CONTINUE',
      taxable: false,
      compareAtPrice: null,
    });
    const simple = recordOf(
      productToCanonical(
        shopifyProduct({
          hasOnlyDefaultVariant: true,
          options: [{ name: 'Title', position: 1, values: ['Default Title'] }],
          variants: page([only]),
          status: 'ARCHIVED',
          metafields: page([
            {
              namespace: 'replatform',
              key: 'external_url',
              type: 'url',
              value: 'https://x.example/a',
            },
            {
              namespace: 'replatform',
              key: 'button_text',
              type: 'single_line_text_field',
              value: 'Go',
            },
          ]),
        }),
        'USD',
      ),
    );
    expect(simple).toMatchObject({
      type: 'external',
      options: [],
      sku: 'TEE-S',
      status: 'archived',
      visibility: 'visible',
      taxStatus: 'none',
      externalUrl: 'https://x.example/a',
      buttonText: 'Go',
    });
    expect(simple.variants[0]).toMatchObject({
      optionValues: [],
      inventory: { tracked: true, quantity: 0, stockStatus: 'onbackorder', backorders: 'yes' },
    });
    // A group written by a migration: its one variant is the stand-in Shopify needs.
    const group = recordOf(
      productToCanonical(
        shopifyProduct({
          hasOnlyDefaultVariant: true,
          options: [{ name: 'Title', position: 1, values: ['Default Title'] }],
          variants: page([only]),
          metafields: page([
            { namespace: 'replatform', key: 'grouped', type: 'boolean', value: 'true' },
          ]),
        }),
        'USD',
      ),
    );
    expect(group).toMatchObject({ type: 'grouped', variants: [], options: [], sku: 'TEE-S' });
    const mixed = productToCanonical(
      shopifyProduct({
        variants: page([
          shopifyVariant(),
          shopifyVariant({ id: 'gid://shopify/ProductVariant/13', taxable: false, position: 2 }),
        ]),
        media: page([]),
      }),
      'USD',
    );
    expect(recordOf(mixed).taxStatus).toBe('taxable');
    expect('losses' in mixed && mixed.losses.map((l) => l.field)).toEqual([
      'variants.nodes[].taxable',
    ]);
  });

  it('maps collections with SEO, image alt text, sort order and metafields', () => {
    const category = recordOf(
      collectionToCategory({
        id: 'gid://shopify/Collection/5',
        handle: 'tees',
        title: 'Tees',
        descriptionHtml: '<p>All</p>',
        sortOrder: 'BEST_SELLING',
        templateSuffix: null,
        updatedAt: '2025-01-01T00:00:00Z',
        seo: { title: 'Tees | Shop', description: null },
        image: { url: 'https://cdn.example/c.png', altText: 'Banner' },
        metafields: page([
          { namespace: 'custom', key: 'banner', type: 'single_line_text_field', value: 'New' },
        ]),
      }),
    );
    expect(category).toMatchObject({
      parentId: null,
      imageUrl: 'https://cdn.example/c.png',
      imageAlt: 'Banner',
      seoTitle: 'Tees | Shop',
      seoDescription: '',
      metafields: [
        {
          namespace: 'shopify.custom',
          key: 'banner',
          type: 'single_line_text_field',
          value: 'New',
        },
        {
          namespace: 'shopify',
          key: 'sort_order',
          type: 'single_line_text_field',
          value: 'BEST_SELLING',
        },
      ],
    });
  });

  it('maps customers: lower-cased e-mail, consent in detail, one default address; refuses one without e-mail', () => {
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
      locale: 'fr',
      taxExempt: true,
      taxExemptions: ['CA_STATUS_CARD_EXEMPTION'],
      createdAt: '2024-03-01T10:00:00Z',
      updatedAt: '2024-03-01T10:00:00Z',
      defaultEmailAddress: {
        emailAddress: 'Ann@Example.com',
        marketingState: 'UNSUBSCRIBED',
        marketingOptInLevel: 'SINGLE_OPT_IN',
        marketingUpdatedAt: '2024-03-02T10:00:00Z',
      },
      defaultPhoneNumber: {
        phoneNumber: '+15550100',
        smsMarketingConsent: { state: 'SUBSCRIBED', optInLevel: null, updatedAt: null },
      },
      defaultAddress: { ...address, id: 'gid://shopify/MailingAddress/2', provinceCode: null },
      addressesV2: page([
        { ...address, id: 'gid://shopify/MailingAddress/1' },
        { ...address, id: 'gid://shopify/MailingAddress/2', provinceCode: null },
      ]),
      metafields: page([
        { namespace: 'custom', key: 'tier', type: 'single_line_text_field', value: 'gold' },
      ]),
    };
    const mapped = recordOf(customerToCanonical(customer));
    expect(canonicalCustomer.safeParse(mapped).success).toBe(true);
    expect(mapped).toMatchObject({
      email: 'ann@example.com',
      firstName: '',
      acceptsMarketing: false,
      phone: '+15550100',
      createdAt: '2024-03-01T10:00:00.000Z',
    });
    expect(mapped.metafields.map((m) => `${m.namespace}.${m.key}=${m.value}`)).toEqual([
      'shopify.custom.tier=gold',
      'shopify.locale=fr',
      'shopify.tax_exempt=true',
      'shopify.tax_exemptions=["CA_STATUS_CARD_EXEMPTION"]',
      'shopify.email_marketing_state=UNSUBSCRIBED',
      'shopify.email_marketing_opt_in_level=SINGLE_OPT_IN',
      'shopify.email_marketing_updated_at=2024-03-02T10:00:00Z',
      'shopify.sms_marketing_state=SUBSCRIBED',
    ]);
    expect(
      mapped.addresses.map((a) => [a.province, a.email, a.isDefaultBilling, a.isDefaultShipping]),
    ).toEqual([
      ['TX', '', false, false],
      ['Texas', '', true, true],
    ]);
    expect(customerToCanonical({ ...customer, defaultEmailAddress: null })).toEqual({
      rejected: expect.stringContaining('no e-mail'),
    });
  });

  it('maps order statuses (documented table)', () => {
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

  const allocation = (amount: string, index: number, targetSelection: string) => ({
    allocatedAmountSet: usd(amount),
    discountApplication: { index, targetSelection },
  });
  const tax = (amount: string) => ({ title: 'VAT', rate: 0.2, priceSet: usd(amount) });

  function shopifyOrder(overrides: Partial<ShopifyOrder> = {}): ShopifyOrder {
    return {
      id: 'gid://shopify/Order/1',
      name: '#1042',
      email: 'x@example.com',
      phone: '+14155550100',
      note: 'Leave at the door',
      tags: ['priority', 'wholesale'],
      poNumber: 'PO-7',
      processedAt: '2024-05-01T10:00:00Z',
      updatedAt: '2024-05-02T10:00:00Z',
      closedAt: '2024-05-05T10:00:00Z',
      cancelledAt: null,
      cancelReason: null,
      currencyCode: 'USD',
      taxesIncluded: false,
      test: false,
      sourceName: 'web',
      clientIp: '203.0.113.7',
      customerAcceptsMarketing: true,
      displayFinancialStatus: 'PARTIALLY_REFUNDED',
      displayFulfillmentStatus: 'FULFILLED',
      customAttributes: [{ key: 'gift_message', value: 'Enjoy' }],
      customer: null,
      subtotalPriceSet: usd('35.00'),
      totalTaxSet: usd('3.00'),
      totalShippingPriceSet: usd('5.00'),
      totalDiscountsSet: usd('10.00'),
      totalPriceSet: usd('42.00'),
      totalRefundedSet: usd('7.00'),
      billingAddress: null,
      shippingAddress: null,
      transactions: [
        {
          kind: 'SALE',
          status: 'SUCCESS',
          gateway: 'bogus',
          formattedGateway: 'Bogus',
          paymentId: 'AUTH-1',
          processedAt: '2024-05-01T11:00:00Z',
          test: false,
          amountSet: usd('42.00'),
        },
        {
          kind: 'REFUND',
          status: 'SUCCESS',
          gateway: 'bogus',
          formattedGateway: 'Bogus',
          paymentId: null,
          processedAt: '2024-05-03T11:00:00Z',
          test: false,
          amountSet: usd('7.00'),
        },
      ],
      additionalFees: [{ name: 'Import fee', price: usd('2.00'), taxLines: [] }],
      refunds: [
        {
          id: 'gid://shopify/Refund/8',
          note: 'Damaged',
          createdAt: '2024-05-03T11:00:05Z',
          processedAt: '2024-05-03T11:00:00Z',
          totalRefundedSet: usd('7.00'),
          refundLineItems: page([
            {
              quantity: 1,
              lineItem: { id: 'gid://shopify/LineItem/1' },
              subtotalSet: usd('6.00'),
              totalTaxSet: usd('1.00'),
            },
          ]),
        },
      ],
      lineItems: page([
        {
          id: 'gid://shopify/LineItem/1',
          name: 'Tee - S',
          sku: 'TEE-S',
          quantity: 2,
          originalUnitPriceSet: usd('10.00'),
          taxLines: [tax('2.00')],
          discountAllocations: [allocation('2.00', 0, 'EXPLICIT'), allocation('3.00', 1, 'ALL')],
          customAttributes: [{ key: 'Engraving', value: 'Ana' }],
          variant: {
            id: 'gid://shopify/ProductVariant/1',
            title: 'S',
            selectedOptions: [{ name: 'Size', value: 'S' }],
          },
          product: { id: 'gid://shopify/Product/1' },
        },
        {
          id: 'gid://shopify/LineItem/2',
          name: 'Mug',
          sku: null,
          quantity: 1,
          originalUnitPriceSet: usd('20.00'),
          taxLines: [tax('1.00')],
          discountAllocations: [allocation('3.00', 1, 'ALL')],
          customAttributes: [],
          variant: null,
          product: null,
        },
        {
          id: 'gid://shopify/LineItem/3',
          name: 'Gift wrap',
          sku: null,
          quantity: 1,
          originalUnitPriceSet: usd('4.00'),
          taxLines: [],
          discountAllocations: [],
          customAttributes: [{ key: '_replatform_fee', value: 'true' }],
          variant: null,
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
      metafields: page([
        { namespace: 'replatform', key: 'source_id', type: 'single_line_text_field', value: 'o' },
        {
          namespace: 'replatform',
          key: 'notes',
          type: 'json',
          value: JSON.stringify([
            {
              content: 'Called',
              customerNote: true,
              author: 'Ana',
              createdAt: '2024-05-02T09:00:00.000Z',
            },
          ]),
        },
      ]),
      ...overrides,
    };
  }

  it('maps an order: lines, discounts, fees, refunds, payment, notes and own fields', () => {
    const mapped = orderToCanonical(shopifyOrder());
    const order = recordOf(mapped);
    expect(canonicalOrder.safeParse(order).success).toBe(true);
    expect(order).toMatchObject({
      number: '1042',
      createdAt: '2024-05-01T10:00:00.000Z',
      updatedAt: '2024-05-02T10:00:00.000Z',
      status: 'completed',
      paymentStatus: 'partially_refunded',
      fulfillmentStatus: 'fulfilled',
      note: 'Leave at the door',
      paymentMethod: 'bogus',
      paymentMethodTitle: 'Bogus',
      transactionId: 'AUTH-1',
      paidAt: '2024-05-01T11:00:00.000Z',
      completedAt: '2024-05-05T10:00:00.000Z',
      customerIpAddress: '203.0.113.7',
      createdVia: 'web',
      refundTotal: money(700),
      feeTotal: money(600),
      notes: [{ content: 'Called', customerNote: true, author: 'Ana' }],
    });
    expect(
      order.lines.map((l) => [
        l.name,
        l.total.amount,
        l.tax.amount,
        l.variantId,
        l.productId,
        l.meta,
      ]),
    ).toEqual([
      [
        'Tee - S',
        1800,
        200,
        'gid://shopify/ProductVariant/1',
        'gid://shopify/Product/1',
        // The variant's chosen option first, then the line's own properties.
        [
          { key: 'Size', value: 'S' },
          { key: 'Engraving', value: 'Ana' },
        ],
      ],
      // The product of this line no longer exists: the line keeps its name and price.
      ['Mug', 2000, 100, null, null, []],
    ]);
    expect(order.discounts).toEqual([
      { code: 'SAVE6', amount: money(600), tax: money(0) },
      { code: 'SHIP2', amount: money(200), tax: money(0) },
    ]);
    expect(order.fees).toEqual([
      { name: 'Import fee', amount: money(200), tax: money(0), taxClass: '', taxStatus: 'none' },
      { name: 'Gift wrap', amount: money(400), tax: money(0), taxClass: '', taxStatus: 'none' },
    ]);
    expect(order.refunds).toEqual([
      {
        id: 'gid://shopify/Refund/8',
        createdAt: '2024-05-03T11:00:00.000Z',
        amount: money(700),
        reason: 'Damaged',
        lines: [
          { lineId: 'gid://shopify/LineItem/1', quantity: 1, amount: money(600), tax: money(100) },
        ],
      },
    ]);
    expect(order.metafields.map((m) => `${m.namespace}.${m.key}=${m.value}`)).toEqual([
      'shopify.tags=["priority","wholesale"]',
      'shopify.phone=+14155550100',
      'shopify.po_number=PO-7',
      'shopify.note_attributes=[{"key":"gift_message","value":"Enjoy"}]',
      'shopify.buyer_accepts_marketing=true',
    ]);
    // Nothing of this order depends on its data to be lost (the reader adds, for each order, the
    // fields that no order can carry, such as the names of its taxes).
    expect('losses' in mapped && mapped.losses).toEqual([]);
    // Payment details Shopify would not show as the source had them, kept by a migration.
    const kept = recordOf(
      orderToCanonical({
        ...shopifyOrder(),
        metafields: page([
          {
            namespace: 'replatform',
            key: 'payment',
            type: 'json',
            value: JSON.stringify({
              paymentMethod: 'bacs',
              paymentMethodTitle: 'Direct bank transfer',
              paidAt: null,
              createdVia: '',
            }),
          },
        ]),
      }),
    );
    expect(kept).toMatchObject({
      paymentMethod: 'bacs',
      paymentMethodTitle: 'Direct bank transfer',
      paidAt: null,
      createdVia: '',
    });
    expect(kept.metafields.some((m) => m.key === 'payment')).toBe(false);
    // Shopify closes an order when it is cancelled: that is no completion.
    const at = '2024-05-06T10:00:00Z';
    expect(
      recordOf(orderToCanonical({ ...shopifyOrder(), cancelledAt: at, closedAt: at })).completedAt,
    ).toBeNull();
    expect(orderToCanonical({ ...shopifyOrder(), lineItems: page([]) })).toEqual({
      rejected: 'The order has no line items.',
    });
  });

  it("keeps no option in a line's meta for the only variant of a simple product", () => {
    const [line] = shopifyOrder().lineItems.nodes;
    const simple = recordOf(
      orderToCanonical(
        shopifyOrder({
          lineItems: page([
            {
              ...line!,
              variant: {
                id: 'gid://shopify/ProductVariant/9',
                title: 'Default Title',
                selectedOptions: [{ name: 'Title', value: 'Default Title' }],
              },
            },
          ]),
        }),
      ),
    );
    expect(simple.lines.map((l) => [l.variantId, l.meta])).toEqual([
      [null, [{ key: 'Engraving', value: 'Ana' }]],
    ]);
  });

  it('reports an order paid in several payments, and an authorisation dated after the order', () => {
    const sale = shopifyOrder().transactions[0]!;
    const split = orderToCanonical(
      shopifyOrder({ transactions: [sale, { ...sale, paymentId: 'AUTH-2' }] }),
    );
    expect('losses' in split && split.losses.map((l) => l.field)).toEqual(['transactions[]']);
    const authorised = orderToCanonical(
      shopifyOrder({
        displayFinancialStatus: 'AUTHORIZED',
        transactions: [{ ...sale, kind: 'AUTHORIZATION' }],
      }),
    );
    expect('losses' in authorised && authorised.losses.map((l) => l.field)).toEqual([
      'transactions[].processedAt',
    ]);
    expect(recordOf(authorised).paidAt).toBeNull();
  });
});

function canonicalVariant(overrides: Partial<Variant> = {}): Variant {
  return {
    ...variantDefaults(money(1250)),
    id: 'v1',
    sku: 'TEE-S',
    optionValues: [{ name: 'Size', value: 'S' }],
    position: 0,
    ...overrides,
  };
}

function canonicalProductFixture(overrides: Partial<Product> = {}): Product {
  return {
    ...productDefaults(),
    id: 'p1',
    type: 'variable',
    name: 'Tee',
    slug: 'tee',
    options: [{ name: 'Size', values: ['S', 'M'], shared: null, visible: true, position: 0 }],
    variants: [
      canonicalVariant({ salePrice: money(1000), imageUrl: 'https://src.example/2.png' }),
      canonicalVariant({
        id: 'v2',
        sku: 'TEE-M',
        optionValues: [{ name: 'Size', value: 'M' }],
        position: 1,
        price: money(1300),
        inventory: {
          tracked: true,
          quantity: 0,
          stockStatus: 'onbackorder',
          backorders: 'notify',
          lowStockThreshold: 2,
        },
        virtual: true,
      }),
    ],
    images: [
      { url: 'https://src.example/1.png', alt: 'front', title: 'Front', position: 0 },
      { url: 'https://src.example/2.png', alt: 'back', title: '', position: 1 },
    ],
    categoryIds: ['c5'],
    weight: { value: 0.3, unit: 'kg' },
    sourceUrlPath: '/shop/tee',
    createdAt: null,
    updatedAt: null,
    ...overrides,
  };
}

const productContext = {
  locationId: 'gid://shopify/Location/1',
  collectionIds: (id: string) => (id === 'c5' ? 'gid://shopify/Collection/50' : undefined),
  now: Date.parse('2025-06-01T00:00:00Z'),
};

describe('canonical -> Shopify', () => {
  it('builds productSet input: prices and sales, stock policy, weights, files, own and carried fields', () => {
    const product = canonicalProductFixture({
      status: 'active',
      visibility: 'hidden',
      sku: 'TEE',
      shortDescriptionHtml: '<p>x</p>',
      purchaseNote: 'Thanks!',
      dimensions: { length: 1, width: 2, height: 3, unit: 'cm' },
      attributes: [
        { name: 'Material', values: ['Cotton'], shared: null, visible: true, position: 1 },
      ],
      taxStatus: 'none',
      metafields: [
        {
          namespace: 'shopify',
          key: 'product_type',
          value: 'Shirts',
          type: 'single_line_text_field',
        },
        {
          namespace: 'shopify',
          key: 'category',
          value: 'gid://shopify/TaxonomyCategory/aa-1',
          type: 'single_line_text_field',
        },
        { namespace: 'shopify', key: 'gift_card', value: 'true', type: 'boolean' },
        { namespace: 'shopify.custom', key: 'fit', value: 'slim', type: 'single_line_text_field' },
      ],
    });
    const built = productSetInput(product, productContext);
    if (!('input' in built)) throw new Error(JSON.stringify(built));
    const input = built.input as Loose;
    expect(input).toMatchObject({
      title: 'Tee',
      handle: 'tee',
      status: 'UNLISTED',
      productType: 'Shirts',
      category: 'gid://shopify/TaxonomyCategory/aa-1',
      giftCard: true,
      seo: { title: null, description: null },
      productOptions: [{ name: 'Size', values: [{ name: 'S' }, { name: 'M' }] }],
      collections: ['gid://shopify/Collection/50'],
      files: [
        { originalSource: 'https://src.example/1.png', alt: 'front', contentType: 'IMAGE' },
        { originalSource: 'https://src.example/2.png', alt: 'back', contentType: 'IMAGE' },
      ],
    });
    expect(input.variants[0]).toMatchObject({
      optionValues: [{ optionName: 'Size', name: 'S' }],
      // The sale runs now: its price is the price and the regular price the compare-at price.
      price: '10.00',
      compareAtPrice: '12.50',
      taxable: false,
      inventoryPolicy: 'DENY',
      inventoryItem: {
        tracked: false,
        requiresShipping: true,
        measurement: { weight: { unit: 'KILOGRAMS', value: 0.3 } },
      },
      file: { originalSource: 'https://src.example/2.png', contentType: 'IMAGE' },
    });
    expect(input.variants[1]).toMatchObject({
      price: '13.00',
      compareAtPrice: null,
      inventoryPolicy: 'CONTINUE',
      inventoryItem: { tracked: true, requiresShipping: false },
      inventoryQuantities: [
        { locationId: 'gid://shopify/Location/1', name: 'available', quantity: 0 },
      ],
    });
    expect(input.metafields.map((m: Loose) => `${m.namespace}.${m.key}:${m.type}`)).toEqual([
      'replatform.source_id:single_line_text_field',
      'custom.fit:single_line_text_field',
      'replatform.short_description:multi_line_text_field',
      'replatform.purchase_note:multi_line_text_field',
      'replatform.sku:single_line_text_field',
      'replatform.dimensions:json',
      'replatform.attributes:json',
    ]);
    expect(built.files).toEqual([
      { source: 'https://src.example/1.png', alt: 'front' },
      { source: 'https://src.example/2.png', alt: 'back' },
    ]);
  });

  it('applies a sale only while it runs, and keeps options flags and own variant fields', () => {
    const at = (iso: string) => Date.parse(iso);
    const sale = canonicalVariant({
      salePrice: money(1000),
      saleStartsAt: '2025-07-01T00:00:00.000Z',
      saleEndsAt: '2025-08-01T00:00:00.000Z',
    });
    expect(saleRuns(sale, at('2025-06-01T00:00:00Z'))).toBe(false);
    expect(saleRuns(sale, at('2025-07-15T00:00:00Z'))).toBe(true);
    expect(saleRuns(sale, at('2025-08-01T00:00:00Z'))).toBe(false);
    const product = canonicalProductFixture({
      options: [
        { name: 'Size', values: ['S'], shared: { slug: 'size' }, visible: false, position: 0 },
      ],
      variants: [
        {
          ...sale,
          metafields: [
            { namespace: 'shopify', key: 'unit_cost', value: '4.5', type: 'number_decimal' },
            {
              namespace: 'shopify',
              key: 'country_code_of_origin',
              value: 'PT',
              type: 'single_line_text_field',
            },
            {
              namespace: 'shopify',
              key: 'compare_at_price',
              value: '9.00',
              type: 'number_decimal',
            },
          ],
        },
      ],
    });
    const built = productSetInput(product, productContext);
    if (!('input' in built)) throw new Error(JSON.stringify(built));
    const variant = (built.input as Loose).variants[0];
    expect(variant).toMatchObject({
      price: '12.50',
      compareAtPrice: '9.00',
      inventoryItem: { cost: '4.5', countryCodeOfOrigin: 'PT' },
    });
    expect((built.input as Loose).metafields).toContainEqual({
      namespace: 'replatform',
      key: 'options',
      type: 'json',
      value: JSON.stringify([
        { name: 'Size', shared: { slug: 'size' }, visible: false, position: 0 },
      ]),
    });
    expect(built.warnings).toEqual([
      'Shopify shows every option on the product page, also Size (not shown at the source).',
      "Variant TEE-S's sale price is not applied: its sale starts later, and Shopify has no sale schedule (variants).",
    ]);
  });

  it('names the visibility of a hidden product that is not for sale, which only an active product keeps', () => {
    const hidden = (status: 'active' | 'draft' | 'archived') => {
      const built = productSetInput(
        canonicalProductFixture({ status, visibility: 'hidden' }),
        productContext,
      );
      if (!('input' in built)) throw new Error(JSON.stringify(built));
      return { status: (built.input as Loose).status, warnings: built.warnings };
    };
    expect(hidden('active').status).toBe('UNLISTED');
    expect(hidden('active').warnings.some((w) => w.includes('(visibility)'))).toBe(false);
    expect(hidden('draft').status).toBe('DRAFT');
    expect(hidden('draft').warnings.some((w) => w.includes('(visibility)'))).toBe(true);
    expect(hidden('archived').warnings.some((w) => w.includes('(visibility)'))).toBe(true);
  });

  it('reuses images stored before, writes a grouped product that cannot be bought and refuses what Shopify cannot hold', () => {
    const product = canonicalProductFixture();
    const built = productSetInput(product, {
      ...productContext,
      imageId: (url) => (url.endsWith('2.png') ? 'gid://shopify/MediaImage/77' : undefined),
    });
    if (!('input' in built)) throw new Error(JSON.stringify(built));
    const input = built.input as Loose;
    expect(input.files[1]).toEqual({ id: 'gid://shopify/MediaImage/77', alt: 'back' });
    expect(input.variants[0].file).toEqual({ id: 'gid://shopify/MediaImage/77' });
    const group = productSetInput(
      { ...product, type: 'grouped', variants: [], options: [] },
      productContext,
    );
    if (!('input' in group)) throw new Error(JSON.stringify(group));
    const groupInput = group.input as Loose;
    // Shopify needs a variant: the group's cannot be bought (price 0, no stock, not sold without).
    expect(groupInput.variants).toHaveLength(1);
    expect(groupInput.variants[0]).toMatchObject({
      price: '0.00',
      inventoryPolicy: 'DENY',
      inventoryItem: { tracked: true, requiresShipping: false },
    });
    expect(groupInput.metafields).toContainEqual(
      expect.objectContaining({ namespace: 'replatform', key: 'grouped', value: 'true' }),
    );
    const duplicate = {
      ...product,
      variants: [product.variants[0]!, { ...product.variants[0]!, id: 'd' }],
    };
    expect(productSetInput(duplicate, productContext)).toEqual({
      failure: expect.stringMatching(/same options/),
    });
    const missing = { ...product, variants: [{ ...product.variants[0]!, optionValues: [] }] };
    expect(productSetInput(missing, productContext)).toEqual({
      failure: expect.stringMatching(/no value for option 'Size'/),
    });
    const simple = productSetInput(
      {
        ...product,
        type: 'simple',
        options: [],
        variants: [{ ...product.variants[0]!, optionValues: [] }],
      },
      productContext,
    );
    if (!('input' in simple)) throw new Error('refused');
    expect(simple.input.productOptions).toEqual([
      { name: 'Title', values: [{ name: 'Default Title' }] },
    ]);
  });

  it('writes custom fields as metafields under their namespace, naming what it had to change', () => {
    const warnings: string[] = [];
    const metafields = shopifyMetafields(
      [
        { namespace: 'shopify.custom', key: 'fit', value: 'slim', type: 'single_line_text_field' },
        {
          namespace: 'shopify',
          key: 'product_type',
          value: 'Shirts',
          type: 'single_line_text_field',
        },
        { namespace: 'woocommerce', key: '_gift wrap', value: 'yes', type: 'string' },
        { namespace: 'woocommerce', key: 'notes', value: 'a\nb', type: 'string' },
        { namespace: 'woocommerce', key: 'data', value: '{"a":1}', type: 'json' },
        { namespace: 'bigcommerce.specs', key: 'Größe', value: 'L', type: 'string' },
        { namespace: 'woocommerce', key: 'empty', value: '', type: 'string' },
        {
          namespace: 'shopify.custom',
          key: 'related',
          value: '["p1","p2"]',
          type: 'list.product_reference',
        },
        { namespace: 'shopify.custom', key: 'lost', value: 'p9', type: 'product_reference' },
        {
          namespace: 'shopify.custom',
          key: 'manual',
          value: '["gid://shopify/GenericFile/1"]',
          type: 'list.file_reference',
        },
      ],
      warnings,
      {
        idOf: (_e, id) => ({ p1: 'gid://shopify/Product/11', p2: 'gid://shopify/Product/12' })[id],
      },
    );
    expect(metafields).toEqual([
      { namespace: 'custom', key: 'fit', type: 'single_line_text_field', value: 'slim' },
      { namespace: 'woocommerce', key: '_gift_wrap', type: 'single_line_text_field', value: 'yes' },
      { namespace: 'woocommerce', key: 'notes', type: 'multi_line_text_field', value: 'a\nb' },
      { namespace: 'woocommerce', key: 'data', type: 'json', value: '{"a":1}' },
      { namespace: 'bigcommerce-specs', key: 'Gro_e', type: 'single_line_text_field', value: 'L' },
      {
        namespace: 'custom',
        key: 'related',
        type: 'list.product_reference',
        value: '["gid://shopify/Product/11","gid://shopify/Product/12"]',
      },
    ]);
    expect(warnings).toEqual([
      'The custom field woocommerce._gift wrap was stored as the metafield woocommerce._gift_wrap.',
      'The custom field bigcommerce.specs.Größe was stored as the metafield bigcommerce-specs.Gro_e.',
      'The custom field woocommerce.empty is empty; Shopify keeps no empty metafields.',
      'The custom field shopify.custom.lost refers to records that are not at the destination; it was not migrated.',
      'The custom field shopify.custom.manual refers to file records of the source store, which are not migrated; it was not migrated.',
    ]);
  });

  it('builds collections with SEO, image alt text and own fields', () => {
    const built = collectionCreateInput({
      id: 'c1',
      parentId: 'c0',
      name: 'Tees',
      slug: 'tees',
      description: '',
      position: 3,
      imageUrl: 'https://src.example/c.png',
      imageAlt: 'Banner',
      imageTitle: '',
      displayType: 'default',
      seoTitle: 'Tees | Shop',
      seoDescription: '',
      metafields: [
        {
          namespace: 'shopify',
          key: 'sort_order',
          value: 'BEST_SELLING',
          type: 'single_line_text_field',
        },
      ],
      sourceUrlPath: null,
    });
    if ('failure' in built) throw new Error(built.failure);
    expect(built.input).toMatchObject({
      handle: 'tees',
      image: { src: 'https://src.example/c.png', altText: 'Banner' },
      seo: { title: 'Tees | Shop', description: null },
      sortOrder: 'BEST_SELLING',
    });
    // What no collection can hold at Shopify (its parent, its position) is declared, not warned.
    expect(built.warnings).toEqual([]);
  });

  const customer = (overrides: Partial<Customer> = {}): Customer => ({
    ...customerDefaults(),
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
        email: 'billing@example.com',
        isDefaultBilling: true,
        isDefaultShipping: true,
      },
    ],
    ...overrides,
  });

  it('builds customer input with consent, addresses, own fields and the marker', () => {
    const built = customerInput(customer(), { withPhone: true });
    if ('failure' in built) throw new Error(built.failure);
    expect(built.input).toEqual({
      email: 'a@example.com',
      firstName: 'A',
      lastName: null,
      note: null,
      tags: ['x'],
      phone: '+15550100',
      emailMarketingConsent: { marketingState: 'NOT_SUBSCRIBED' },
      addresses: [
        { firstName: 'A', address1: '1 St', city: 'Oslo', zip: '0150', countryCode: 'NO' },
      ],
      metafields: [
        { namespace: 'replatform', key: 'source_id', type: 'single_line_text_field', value: 'c1' },
      ],
    });
    expect(built.warnings).toEqual([]);
    const detailed = customerInput(
      customer({
        acceptsMarketing: false,
        metafields: [
          { namespace: 'shopify', key: 'locale', value: 'fr', type: 'single_line_text_field' },
          { namespace: 'shopify', key: 'tax_exempt', value: 'true', type: 'boolean' },
          {
            namespace: 'shopify',
            key: 'tax_exemptions',
            value: '["CA_STATUS_CARD_EXEMPTION"]',
            type: 'json',
          },
          {
            namespace: 'shopify',
            key: 'email_marketing_state',
            value: 'UNSUBSCRIBED',
            type: 'single_line_text_field',
          },
          {
            namespace: 'shopify',
            key: 'email_marketing_updated_at',
            value: '2024-03-02T10:00:00Z',
            type: 'date_time',
          },
          {
            namespace: 'shopify',
            key: 'sms_marketing_state',
            value: 'SUBSCRIBED',
            type: 'single_line_text_field',
          },
          {
            namespace: 'shopify.custom',
            key: 'tier',
            value: 'gold',
            type: 'single_line_text_field',
          },
        ],
      }),
      { withPhone: true },
    );
    if ('failure' in detailed) throw new Error(detailed.failure);
    expect(detailed.input).toMatchObject({
      locale: 'fr',
      taxExempt: true,
      taxExemptions: ['CA_STATUS_CARD_EXEMPTION'],
      emailMarketingConsent: {
        marketingState: 'UNSUBSCRIBED',
        consentUpdatedAt: '2024-03-02T10:00:00Z',
      },
      smsMarketingConsent: { marketingState: 'SUBSCRIBED' },
      metafields: [
        { namespace: 'replatform', key: 'source_id', type: 'single_line_text_field', value: 'c1' },
        { namespace: 'custom', key: 'tier', type: 'single_line_text_field', value: 'gold' },
      ],
    });
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

  function canonicalOrderFixture(overrides: Partial<Order> = {}): Order {
    return {
      ...orderDefaults('USD'),
      id: 'o1',
      number: '100023',
      createdAt: '2024-05-01T10:00:00.000Z',
      updatedAt: null,
      currency: 'USD',
      customerId: 'c9',
      email: 'x@example.com',
      status: 'completed',
      paymentStatus: 'partially_refunded',
      fulfillmentStatus: 'fulfilled',
      lines: [
        {
          ...orderLineDefaults(),
          id: 'l1',
          productId: 'p1',
          variantId: 'v1',
          sku: 'S-1',
          name: 'Shirt - S',
          quantity: 2,
          unitPrice: money(1000),
          tax: money(160),
          total: money(1800),
          meta: [{ key: 'Engraving', value: 'Ana' }],
        },
      ],
      shippingLines: [{ title: '', code: 'flat', price: money(500), tax: money(50) }],
      discounts: [
        { code: 'A', amount: money(100), tax: money(0) },
        { code: 'B', amount: money(100), tax: money(0) },
      ],
      fees: [
        { name: 'Gift wrap', amount: money(400), tax: money(0), taxClass: '', taxStatus: 'none' },
        {
          name: 'Loyalty credit',
          amount: money(-300),
          tax: money(0),
          taxClass: '',
          taxStatus: 'none',
        },
      ],
      refunds: [
        {
          id: 'r1',
          createdAt: '2024-05-03T10:00:00.000Z',
          amount: money(900),
          reason: 'Damaged',
          lines: [{ lineId: 'l1', quantity: 1, amount: money(900), tax: money(0) }],
        },
      ],
      subtotal: money(1800),
      taxTotal: money(210),
      shippingTotal: money(500),
      discountTotal: money(200),
      feeTotal: money(100),
      refundTotal: money(900),
      grandTotal: money(2410),
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
        email: '',
      },
      shippingAddress: null,
      note: '',
      notes: [
        {
          content: 'Packed twice',
          customerNote: false,
          author: '',
          createdAt: '2024-05-01T12:00:00.000Z',
        },
      ],
      paymentMethod: 'stripe',
      paymentMethodTitle: 'Credit card',
      transactionId: 'ch_1',
      paidAt: '2024-05-01T10:05:00.000Z',
      completedAt: '2024-05-04T10:00:00.000Z',
      createdVia: 'checkout',
      metafields: [
        { namespace: 'shopify', key: 'tags', value: '["vip"]', type: 'json' },
        { namespace: 'shopify', key: 'po_number', value: 'PO-1', type: 'single_line_text_field' },
        {
          namespace: 'shopify',
          key: 'note_attributes',
          value: '[{"key":"k","value":"v"}]',
          type: 'json',
        },
      ],
      ...overrides,
    };
  }

  it('builds orderCreate input: payment, one discount code, fees, notes, own fields and marker', () => {
    const order = canonicalOrderFixture();
    const built = orderCreateInput(order, {
      customerId: undefined,
      line: () => ({
        productId: 'gid://shopify/Product/1',
        variantId: 'gid://shopify/ProductVariant/2',
      }),
    });
    if ('failure' in built) throw new Error(built.failure);
    const input = built.input as Loose;
    expect(input).toMatchObject({
      name: '#100023',
      processedAt: '2024-05-01T10:00:00.000Z',
      // The refund made afterwards sets the status from the payment.
      financialStatus: 'PAID',
      closedAt: '2024-05-04T10:00:00.000Z',
      sourceName: 'checkout',
      tags: ['vip'],
      poNumber: 'PO-1',
      customAttributes: [{ key: 'k', value: 'v' }],
      transactions: [
        {
          kind: 'SALE',
          status: 'SUCCESS',
          gateway: 'stripe',
          authorizationCode: 'ch_1',
          processedAt: '2024-05-01T10:05:00.000Z',
          amountSet: { shopMoney: { amount: '24.10', currencyCode: 'USD' } },
        },
      ],
      lineItems: [
        {
          title: 'Shirt - S',
          quantity: 2,
          sku: 'S-1',
          variantId: 'gid://shopify/ProductVariant/2',
          priceSet: { shopMoney: { amount: '10.00', currencyCode: 'USD' } },
          taxLines: [{ title: 'Tax', rate: '0.0889', priceSet: { shopMoney: { amount: '1.60' } } }],
          properties: [{ name: 'Engraving', value: 'Ana' }],
        },
        {
          title: 'Gift wrap',
          quantity: 1,
          priceSet: { shopMoney: { amount: '4.00' } },
          requiresShipping: false,
          properties: [{ name: '_replatform_fee', value: 'true' }],
        },
      ],
      shippingLines: [{ title: 'Shipping', code: 'flat', taxLines: [{ rate: '0.1' }] }],
      // Both codes and the credit in one discount code; the codes are already spread over the
      // line (2 x 10.00 - 18.00), so they are not counted again.
      discountCode: {
        itemFixedDiscountCode: {
          code: 'A + B + Loyalty credit',
          amountSet: { shopMoney: { amount: '5.00' } },
        },
      },
      billingAddress: { firstName: 'X' },
    });
    expect(input.metafields).toEqual([
      { namespace: 'replatform', key: 'source_id', type: 'single_line_text_field', value: 'o1' },
      { namespace: 'replatform', key: 'notes', type: 'json', value: JSON.stringify(order.notes) },
      // Shopify would name the payment 'Stripe', after its gateway.
      {
        namespace: 'replatform',
        key: 'payment',
        type: 'json',
        value: JSON.stringify({ paymentMethodTitle: 'Credit card' }),
      },
    ]);
    expect(input.customer).toBeUndefined();
    expect(built.warnings).toEqual([
      'Shopify orders take one discount code; A, B, Loyalty credit were written as one discount.',
      'The customer is not at the destination; the order was imported as a guest order.',
    ]);
    const pending = orderCreateInput(
      canonicalOrderFixture({ paymentStatus: 'pending', status: 'pending', refunds: [] }),
      { customerId: 'gid://shopify/Customer/1', line: () => ({}) },
    );
    if ('failure' in pending) throw new Error(pending.failure);
    expect(pending.input).toMatchObject({
      financialStatus: 'PENDING',
      customer: { toAssociate: { id: 'gid://shopify/Customer/1' } },
    });
    expect((pending.input as Loose).transactions).toBeUndefined();
    // Without a payment transaction, the order keeps its payment details in the metafield.
    expect((pending.input as Loose).metafields).toContainEqual({
      namespace: 'replatform',
      key: 'payment',
      type: 'json',
      value: JSON.stringify({
        paymentMethod: 'stripe',
        paymentMethodTitle: 'Credit card',
        transactionId: 'ch_1',
        paidAt: '2024-05-01T10:05:00.000Z',
      }),
    });
    expect(cancelReasonOf(order)).toBe('OTHER');
    expect(
      cancelReasonOf({
        ...order,
        metafields: [{ namespace: 'shopify', key: 'cancel_reason', value: 'FRAUD', type: 'x' }],
      }),
    ).toBe('FRAUD');
  });

  it("writes as properties only the meta entries that are not the destination variant's options", () => {
    const [line] = canonicalOrderFixture().lines;
    const order = canonicalOrderFixture({
      lines: [
        {
          ...line!,
          meta: [
            { key: 'Size', value: 'S' },
            { key: 'Color', value: 'Red' },
            { key: 'Engraving', value: 'Ana' },
          ],
        },
      ],
    });
    const propertiesOf = (link: LineLink) => {
      const built = orderCreateInput(order, { customerId: undefined, line: () => link });
      if ('failure' in built) throw new Error(built.failure);
      return ((built.input as Loose).lineItems as Loose[])[0]?.properties;
    };
    // Size S is the variant's own option; Color Red is not (the variant is Blue).
    expect(
      propertiesOf({
        productId: 'gid://shopify/Product/1',
        variantId: 'gid://shopify/ProductVariant/2',
        variantOptions: [
          { name: 'Size', value: 'S' },
          { name: 'Color', value: 'Blue' },
        ],
      }),
    ).toEqual([
      { name: 'Color', value: 'Red' },
      { name: 'Engraving', value: 'Ana' },
    ]);
    // A line that points at no variant keeps all its meta.
    expect(propertiesOf({})).toEqual([
      { name: 'Size', value: 'S' },
      { name: 'Color', value: 'Red' },
      { name: 'Engraving', value: 'Ana' },
    ]);
  });

  it('builds refunds against the destination lines and payment', () => {
    const order = canonicalOrderFixture();
    const refund = order.refunds[0]!;
    const built = refundInput(order, refund, {
      orderId: 'gid://shopify/Order/9',
      lineIds: ['gid://shopify/LineItem/91', 'gid://shopify/LineItem/92'],
      payment: { id: 'gid://shopify/OrderTransaction/5', gateway: 'stripe' },
    });
    expect(built).toEqual({
      input: {
        orderId: 'gid://shopify/Order/9',
        note: 'Damaged',
        processedAt: '2024-05-03T10:00:00.000Z',
        notify: false,
        refundLineItems: [
          { lineItemId: 'gid://shopify/LineItem/91', quantity: 1, restockType: 'NO_RESTOCK' },
        ],
        transactions: [
          {
            orderId: 'gid://shopify/Order/9',
            parentId: 'gid://shopify/OrderTransaction/5',
            gateway: 'stripe',
            kind: 'REFUND',
            amount: '9.00',
          },
        ],
      },
      warnings: [],
    });
    expect(refundInput(order, { ...refund, lines: [] }, { orderId: 'o', lineIds: [] })).toEqual({
      failure: expect.stringMatching(/no payment at the destination/),
    });
  });

  it('normalises redirect paths, countries and addresses', () => {
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
        email: 'a@example.com',
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
    const files: PlannedFile[] = Array.from({ length: 260 }, (_v, i) => ({
      source: url(i),
      alt: '',
    }));
    const input = {
      title: 'Big',
      productOptions: [
        { name: 'N', values: Array.from({ length: 900 }, (_v, i) => ({ name: `v${i}` })) },
      ],
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
    const plan = planProductWrite(input, files);
    expect(plan.files).toHaveLength(250);
    expect(plan.input.files).toHaveLength(250);
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
