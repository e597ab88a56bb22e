import { z } from 'zod';
import type { Operation } from './graphql-client.ts';

/**
 * Every GraphQL document the connector sends to the Admin API 2026-10
 * (platform-specs/shopify/admin-graphql-2026-10.graphql; the tests validate each one against it),
 * the zod shape of its answer, and its requested cost. Costs follow Shopify's rules (objects 1,
 * connections 2 + first x item, mutations 10, productSet's dynamic formula); the tests check them
 * against the emulator's calculation, and the client learns the real cost from each answer.
 * Page sizes keep every query under the 1,000-point single-query maximum.
 */

export const MARKER_NAMESPACE = 'replatform';
export const MARKER_KEY = 'source_id';

const op = <T>(
  name: string,
  document: string,
  data: z.ZodType<T>,
  cost: number | ((v: Record<string, unknown>) => number),
): Operation<T> => ({
  name,
  document,
  data,
  cost: typeof cost === 'number' ? () => cost : cost,
});

const pageInfo = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });
const money = z.object({ shopMoney: z.object({ amount: z.string(), currencyCode: z.string() }) });
const userError = z.object({
  field: z.array(z.string()).nullable(),
  message: z.string(),
  code: z.string().nullable().optional(),
});

// ------------------------------------------------------------------ fragments

/**
 * What the connector reads of each record: every field that holds the merchant's data (see
 * native-fields.ts for what becomes of each). Nested connections are read a page at a time; the
 * rest of a long one is completed by the *Page queries below.
 */

const METAFIELD_FIELDS = 'namespace key type value';

export const VARIANT_METAFIELDS = 5;
const VARIANT_FIELDS = /* GraphQL */ `
  fragment VariantFields on ProductVariant {
    id
    sku
    barcode
    price
    compareAtPrice
    position
    taxable
    inventoryPolicy
    inventoryQuantity
    selectedOptions {
      name
      value
    }
    inventoryItem {
      tracked
      requiresShipping
      harmonizedSystemCode
      countryCodeOfOrigin
      provinceCodeOfOrigin
      unitCost {
        amount
      }
      measurement {
        weight {
          unit
          value
        }
      }
    }
    media(first: 1) {
      nodes {
        id
      }
    }
    metafields(first: ${VARIANT_METAFIELDS}) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        ${METAFIELD_FIELDS}
      }
    }
  }
`;
/** 1 + selectedOptions 1 + inventoryItem (1 + unitCost 1 + measurement 1 + weight 1) + media 3 + metafields (2 + 5) */
const VARIANT_COST = 1 + 1 + 4 + 3 + (2 + VARIANT_METAFIELDS);

const MEDIA_FIELDS = /* GraphQL */ `
  fragment MediaFields on Media {
    id
    alt
    mediaContentType
    ... on MediaImage {
      image {
        url
      }
    }
  }
`;
const MEDIA_COST = 2;

export const PRODUCT_PAGE_SIZE = 4;
export const PRODUCT_NESTED = { variants: 10, media: 10, metafields: 10, collections: 10 } as const;

const PRODUCT_FIELDS = /* GraphQL */ `
fragment ProductFields on Product {
  id handle title descriptionHtml status vendor productType tags templateSuffix isGiftCard giftCardTemplateSuffix requiresSellingPlan createdAt updatedAt hasOnlyDefaultVariant
  category { id }
  seo { title description }
  options { name position values }
  variants(first: ${PRODUCT_NESTED.variants}) { pageInfo { hasNextPage endCursor } nodes { ...VariantFields } }
  media(first: ${PRODUCT_NESTED.media}) { pageInfo { hasNextPage endCursor } nodes { ...MediaFields } }
  metafields(first: ${PRODUCT_NESTED.metafields}) { pageInfo { hasNextPage endCursor } nodes { ${METAFIELD_FIELDS} } }
  collections(first: ${PRODUCT_NESTED.collections}) { pageInfo { hasNextPage endCursor } nodes { id } }
}
${VARIANT_FIELDS}
${MEDIA_FIELDS}`;
const PRODUCT_COST =
  1 +
  1 +
  1 +
  1 +
  (2 + PRODUCT_NESTED.variants * VARIANT_COST) +
  (2 + PRODUCT_NESTED.media * MEDIA_COST) +
  (2 + PRODUCT_NESTED.metafields) +
  (2 + PRODUCT_NESTED.collections);

const connectionOf = <T extends z.ZodType>(node: T) => z.object({ pageInfo, nodes: z.array(node) });

export const metafieldSchema = z.object({
  namespace: z.string(),
  key: z.string(),
  type: z.string(),
  value: z.string(),
});
export type ShopifyMetafield = z.infer<typeof metafieldSchema>;
const selectedOptionSchema = z.object({ name: z.string(), value: z.string() });

export const variantSchema = z.object({
  id: z.string(),
  sku: z.string().nullable(),
  barcode: z.string().nullable(),
  price: z.string(),
  compareAtPrice: z.string().nullable(),
  position: z.number().int(),
  taxable: z.boolean(),
  inventoryPolicy: z.enum(['DENY', 'CONTINUE']),
  inventoryQuantity: z.number().int().nullable(),
  selectedOptions: z.array(selectedOptionSchema),
  inventoryItem: z.object({
    tracked: z.boolean(),
    requiresShipping: z.boolean(),
    harmonizedSystemCode: z.string().nullable(),
    countryCodeOfOrigin: z.string().nullable(),
    provinceCodeOfOrigin: z.string().nullable(),
    unitCost: z.object({ amount: z.string() }).nullable(),
    measurement: z.object({
      weight: z
        .object({ unit: z.enum(['GRAMS', 'KILOGRAMS', 'OUNCES', 'POUNDS']), value: z.number() })
        .nullable(),
    }),
  }),
  media: z.object({ nodes: z.array(z.object({ id: z.string() })) }),
  metafields: connectionOf(metafieldSchema),
});
export type ShopifyVariant = z.infer<typeof variantSchema>;

export const mediaSchema = z.object({
  id: z.string(),
  alt: z.string().nullable(),
  mediaContentType: z.string(),
  image: z.object({ url: z.string() }).nullable().optional(),
});
export type ShopifyMedia = z.infer<typeof mediaSchema>;

export const productSchema = z.object({
  id: z.string(),
  handle: z.string(),
  title: z.string(),
  descriptionHtml: z.string(),
  status: z.enum(['ACTIVE', 'ARCHIVED', 'DRAFT', 'UNLISTED']),
  vendor: z.string(),
  productType: z.string(),
  tags: z.array(z.string()),
  templateSuffix: z.string().nullable(),
  isGiftCard: z.boolean(),
  giftCardTemplateSuffix: z.string().nullable(),
  requiresSellingPlan: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  hasOnlyDefaultVariant: z.boolean(),
  category: z.object({ id: z.string() }).nullable(),
  seo: z.object({ title: z.string().nullable(), description: z.string().nullable() }),
  options: z.array(
    z.object({ name: z.string(), position: z.number().int(), values: z.array(z.string()) }),
  ),
  variants: connectionOf(variantSchema),
  media: connectionOf(mediaSchema),
  metafields: connectionOf(metafieldSchema),
  collections: connectionOf(z.object({ id: z.string() })),
});
export type ShopifyProduct = z.infer<typeof productSchema>;

const ADDRESS_FIELDS = /* GraphQL */ `
  fragment AddressFields on MailingAddress {
    id
    firstName
    lastName
    company
    address1
    address2
    city
    province
    provinceCode
    zip
    countryCodeV2
    phone
  }
`;
export const addressSchema = z.object({
  id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  company: z.string().nullable(),
  address1: z.string().nullable(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  province: z.string().nullable(),
  provinceCode: z.string().nullable(),
  zip: z.string().nullable(),
  countryCodeV2: z.string().nullable(),
  phone: z.string().nullable(),
});
export type ShopifyAddress = z.infer<typeof addressSchema>;

export const CUSTOMER_PAGE_SIZE = 25;
export const CUSTOMER_NESTED = { addresses: 10, metafields: 10 } as const;
const CUSTOMER_FIELDS = /* GraphQL */ `
fragment CustomerFields on Customer {
  id firstName lastName note tags locale taxExempt taxExemptions createdAt updatedAt
  defaultEmailAddress { emailAddress marketingState marketingOptInLevel marketingUpdatedAt }
  defaultPhoneNumber { phoneNumber smsMarketingConsent { state optInLevel updatedAt } }
  defaultAddress { ...AddressFields }
  addressesV2(first: ${CUSTOMER_NESTED.addresses}) { pageInfo { hasNextPage endCursor } nodes { ...AddressFields } }
  metafields(first: ${CUSTOMER_NESTED.metafields}) { pageInfo { hasNextPage endCursor } nodes { ${METAFIELD_FIELDS} } }
}
${ADDRESS_FIELDS}`;
const CUSTOMER_COST =
  1 + 1 + (1 + 1) + 1 + (2 + CUSTOMER_NESTED.addresses) + (2 + CUSTOMER_NESTED.metafields);

export const customerSchema = z.object({
  id: z.string(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  note: z.string().nullable(),
  tags: z.array(z.string()),
  locale: z.string(),
  taxExempt: z.boolean(),
  taxExemptions: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  defaultEmailAddress: z
    .object({
      emailAddress: z.string(),
      marketingState: z.string(),
      marketingOptInLevel: z.string().nullable(),
      marketingUpdatedAt: z.string().nullable(),
    })
    .nullable(),
  defaultPhoneNumber: z
    .object({
      phoneNumber: z.string(),
      smsMarketingConsent: z.object({
        state: z.string(),
        optInLevel: z.string().nullable(),
        updatedAt: z.string().nullable(),
      }),
    })
    .nullable(),
  defaultAddress: addressSchema.nullable(),
  addressesV2: connectionOf(addressSchema),
  metafields: connectionOf(metafieldSchema),
});
export type ShopifyCustomer = z.infer<typeof customerSchema>;

export const ORDER_PAGE_SIZE = 3;
export const ORDER_NESTED = {
  lineItems: 10,
  shippingLines: 3,
  discountApplications: 5,
  metafields: 10,
  refundLines: 10,
} as const;
const MONEY_FIELDS = /* GraphQL */ `
  fragment MoneyFields on MoneyBag {
    shopMoney {
      amount
      currencyCode
    }
  }
`;
const TAX_LINE_FIELDS = /* GraphQL */ `
  fragment TaxLineFields on TaxLine {
    title
    rate
    priceSet {
      ...MoneyFields
    }
  }
`;
const LINE_FIELDS = /* GraphQL */ `
  fragment LineFields on LineItem {
    id
    name
    sku
    quantity
    originalUnitPriceSet {
      ...MoneyFields
    }
    taxLines {
      ...TaxLineFields
    }
    discountAllocations {
      allocatedAmountSet {
        ...MoneyFields
      }
      discountApplication {
        index
        targetSelection
      }
    }
    customAttributes {
      key
      value
    }
    variant {
      id
      title
      selectedOptions {
        name
        value
      }
    }
    product {
      id
    }
  }
`;
/** 1 + money 2 + taxLines (1 + 2) + discountAllocations (1 + 2 + 1) + attributes 1 + variant (1 + selectedOptions 1) + product 1 */
const LINE_COST = 14;
const SHIPPING_FIELDS = /* GraphQL */ `
  fragment ShippingFields on ShippingLine {
    title
    code
    originalPriceSet {
      ...MoneyFields
    }
    taxLines {
      ...TaxLineFields
    }
    discountAllocations {
      allocatedAmountSet {
        ...MoneyFields
      }
      discountApplication {
        index
        targetSelection
      }
    }
  }
`;
const SHIPPING_COST = 10;
const DISCOUNT_FIELDS = /* GraphQL */ `
  fragment DiscountFields on DiscountApplication {
    index
    targetSelection
    targetType
    allocationMethod
    ... on DiscountCodeApplication {
      code
    }
    ... on ManualDiscountApplication {
      title
    }
    ... on AutomaticDiscountApplication {
      title
    }
    ... on ScriptDiscountApplication {
      title
    }
  }
`;
const REFUND_FIELDS = /* GraphQL */ `
  fragment RefundFields on Refund {
    id
    note
    createdAt
    processedAt
    totalRefundedSet {
      ...MoneyFields
    }
    refundLineItems(first: ${ORDER_NESTED.refundLines}) {
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        ...RefundLineFields
      }
    }
  }
`;
const REFUND_LINE_FIELDS = /* GraphQL */ `
  fragment RefundLineFields on RefundLineItem {
    quantity
    lineItem {
      id
    }
    subtotalSet {
      ...MoneyFields
    }
    totalTaxSet {
      ...MoneyFields
    }
  }
`;
/** 1 + lineItem 1 + 2 money bags of 2 */
const REFUND_LINE_COST = 6;
/** 1 + money 2 + refundLineItems (2 + 10 lines) */
const REFUND_COST = 1 + 2 + (2 + ORDER_NESTED.refundLines * REFUND_LINE_COST);
const ORDER_FIELDS = /* GraphQL */ `
fragment OrderFields on Order {
  id name email phone note tags poNumber processedAt updatedAt closedAt cancelledAt cancelReason currencyCode taxesIncluded test sourceName clientIp customerAcceptsMarketing displayFinancialStatus displayFulfillmentStatus
  customAttributes { key value }
  customer { id }
  subtotalPriceSet { ...MoneyFields }
  totalTaxSet { ...MoneyFields }
  totalShippingPriceSet { ...MoneyFields }
  totalDiscountsSet { ...MoneyFields }
  totalPriceSet { ...MoneyFields }
  totalRefundedSet { ...MoneyFields }
  billingAddress { ...AddressFields }
  shippingAddress { ...AddressFields }
  transactions { kind status gateway formattedGateway paymentId processedAt test amountSet { ...MoneyFields } }
  additionalFees { name price { ...MoneyFields } taxLines { ...TaxLineFields } }
  refunds { ...RefundFields }
  lineItems(first: ${ORDER_NESTED.lineItems}) { pageInfo { hasNextPage endCursor } nodes { ...LineFields } }
  shippingLines(first: ${ORDER_NESTED.shippingLines}) { pageInfo { hasNextPage endCursor } nodes { ...ShippingFields } }
  discountApplications(first: ${ORDER_NESTED.discountApplications}) { pageInfo { hasNextPage endCursor } nodes { ...DiscountFields } }
  metafields(first: ${ORDER_NESTED.metafields}) { pageInfo { hasNextPage endCursor } nodes { ${METAFIELD_FIELDS} } }
}
${MONEY_FIELDS}
${TAX_LINE_FIELDS}
${ADDRESS_FIELDS}
${LINE_FIELDS}
${SHIPPING_FIELDS}
${DISCOUNT_FIELDS}
${REFUND_FIELDS}
${REFUND_LINE_FIELDS}`;
const ORDER_COST =
  1 +
  1 +
  1 +
  6 * 2 +
  2 +
  (1 + 2) +
  (1 + 2 + 3) +
  REFUND_COST +
  (2 + ORDER_NESTED.lineItems * LINE_COST) +
  (2 + ORDER_NESTED.shippingLines * SHIPPING_COST) +
  (2 + ORDER_NESTED.discountApplications) +
  (2 + ORDER_NESTED.metafields);

const taxLineSchema = z.object({ title: z.string(), rate: z.number().nullable(), priceSet: money });
const allocationSchema = z.object({
  allocatedAmountSet: money,
  discountApplication: z.object({ index: z.number().int(), targetSelection: z.string() }),
});
const attributeSchema = z.object({ key: z.string(), value: z.string().nullable() });
export const lineSchema = z.object({
  id: z.string(),
  name: z.string(),
  sku: z.string().nullable(),
  quantity: z.number().int(),
  originalUnitPriceSet: money,
  taxLines: z.array(taxLineSchema),
  discountAllocations: z.array(allocationSchema),
  customAttributes: z.array(attributeSchema),
  variant: z
    .object({
      id: z.string(),
      title: z.string(),
      selectedOptions: z.array(selectedOptionSchema),
    })
    .nullable(),
  product: z.object({ id: z.string() }).nullable(),
});
export const shippingLineSchema = z.object({
  title: z.string(),
  code: z.string().nullable(),
  originalPriceSet: money,
  taxLines: z.array(taxLineSchema),
  discountAllocations: z.array(allocationSchema),
});
export const discountApplicationSchema = z.object({
  index: z.number().int(),
  targetSelection: z.string(),
  targetType: z.string(),
  allocationMethod: z.string(),
  code: z.string().optional(),
  title: z.string().optional(),
});
export const refundLineSchema = z.object({
  quantity: z.number().int(),
  lineItem: z.object({ id: z.string() }),
  subtotalSet: money,
  totalTaxSet: money,
});
export const refundSchema = z.object({
  id: z.string(),
  note: z.string().nullable(),
  createdAt: z.string().nullable(),
  processedAt: z.string(),
  totalRefundedSet: money,
  refundLineItems: connectionOf(refundLineSchema),
});
export type ShopifyRefund = z.infer<typeof refundSchema>;
export const transactionSchema = z.object({
  kind: z.string(),
  status: z.string(),
  gateway: z.string().nullable(),
  formattedGateway: z.string().nullable(),
  paymentId: z.string().nullable(),
  processedAt: z.string().nullable(),
  test: z.boolean(),
  amountSet: money,
});
export const orderSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  note: z.string().nullable(),
  tags: z.array(z.string()),
  poNumber: z.string().nullable(),
  processedAt: z.string(),
  updatedAt: z.string(),
  closedAt: z.string().nullable(),
  cancelledAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
  currencyCode: z.string(),
  taxesIncluded: z.boolean(),
  test: z.boolean(),
  sourceName: z.string().nullable(),
  clientIp: z.string().nullable(),
  customerAcceptsMarketing: z.boolean(),
  displayFinancialStatus: z.string().nullable(),
  displayFulfillmentStatus: z.string(),
  customAttributes: z.array(attributeSchema),
  customer: z.object({ id: z.string() }).nullable(),
  subtotalPriceSet: money.nullable(),
  totalTaxSet: money.nullable(),
  totalShippingPriceSet: money,
  totalDiscountsSet: money.nullable(),
  totalPriceSet: money,
  totalRefundedSet: money,
  billingAddress: addressSchema.nullable(),
  shippingAddress: addressSchema.nullable(),
  transactions: z.array(transactionSchema),
  additionalFees: z.array(
    z.object({ name: z.string(), price: money, taxLines: z.array(taxLineSchema) }),
  ),
  refunds: z.array(refundSchema),
  lineItems: connectionOf(lineSchema),
  shippingLines: connectionOf(shippingLineSchema),
  discountApplications: connectionOf(discountApplicationSchema),
  metafields: connectionOf(metafieldSchema),
});
export type ShopifyOrder = z.infer<typeof orderSchema>;

export const COLLECTION_PAGE_SIZE = 50;
export const COLLECTION_METAFIELDS = 10;
const COLLECTION_FIELDS = /* GraphQL */ `
fragment CollectionFields on Collection {
  id handle title descriptionHtml sortOrder templateSuffix updatedAt
  seo { title description }
  image { url altText }
  metafields(first: ${COLLECTION_METAFIELDS}) { pageInfo { hasNextPage endCursor } nodes { ${METAFIELD_FIELDS} } }
}`;
const COLLECTION_COST = 1 + 1 + 1 + (2 + COLLECTION_METAFIELDS);
export const collectionSchema = z.object({
  id: z.string(),
  handle: z.string(),
  title: z.string(),
  descriptionHtml: z.string(),
  sortOrder: z.string(),
  templateSuffix: z.string().nullable(),
  updatedAt: z.string(),
  seo: z.object({ title: z.string().nullable(), description: z.string().nullable() }),
  image: z.object({ url: z.string(), altText: z.string().nullable() }).nullable(),
  metafields: connectionOf(metafieldSchema),
});
export type ShopifyCollection = z.infer<typeof collectionSchema>;

export const COUPON_PAGE_SIZE = 10;
export const COUPON_NESTED = { items: 25, metafields: 10 } as const;
const DISCOUNT_COMMON = /* GraphQL */ `
  title startsAt endsAt createdAt usageLimit appliesOncePerCustomer asyncUsageCount tags
  codes(first: 1) { nodes { code } }
  codesCount { count }
  combinesWith { orderDiscounts productDiscounts shippingDiscounts }
  context {
    __typename
    ... on DiscountCustomers { customers { defaultEmailAddress { emailAddress } } }
    ... on DiscountCustomerSegments { segments { name } }
    ... on DiscountMarkets { marketsCount }
  }
  minimumRequirement {
    __typename
    ... on DiscountMinimumSubtotal { greaterThanOrEqualToSubtotal { amount currencyCode } }
    ... on DiscountMinimumQuantity { greaterThanOrEqualToQuantity }
  }`;
const COUPON_FIELDS = /* GraphQL */ `
fragment CouponFields on DiscountNode {
  id
  discount {
    __typename
    ... on DiscountCodeBasic {
      ${DISCOUNT_COMMON}
      customerGets {
        value {
          __typename
          ... on DiscountPercentage { percentage }
          ... on DiscountAmount { amount { amount currencyCode } appliesOnEachItem }
        }
        items {
          __typename
          ... on DiscountProducts {
            products(first: ${COUPON_NESTED.items}) { pageInfo { hasNextPage endCursor } nodes { id } }
            productVariants(first: ${COUPON_NESTED.items}) { pageInfo { hasNextPage endCursor } nodes { id } }
          }
          ... on DiscountCollections {
            collections(first: ${COUPON_NESTED.items}) { pageInfo { hasNextPage endCursor } nodes { id } }
          }
        }
      }
    }
    ... on DiscountCodeFreeShipping {
      ${DISCOUNT_COMMON}
      maximumShippingPrice { amount currencyCode }
      destinationSelection {
        __typename
        ... on DiscountCountries { countries includeRestOfWorld }
        ... on DiscountCountryAll { allCountries }
      }
    }
  }
  metafields(first: ${COUPON_NESTED.metafields}) { pageInfo { hasNextPage endCursor } nodes { ${METAFIELD_FIELDS} } }
}`;
/**
 * A discount: the union's dearest member, DiscountCodeBasic: itself 1, codes 2 + 1, codesCount 1,
 * combinesWith 1, context 1 + a customer's e-mail 2, minimumRequirement 1 + 1, customerGets 1 +
 * value 1 + 1 + items 1 + its dearest kind (products and variants, two connections of ids).
 */
const DISCOUNT_COST =
  1 + (2 + 1) + 1 + 1 + (1 + 2) + (1 + 1) + (1 + (1 + 1) + (1 + 2 * (2 + COUPON_NESTED.items)));
const COUPON_COST = 1 + DISCOUNT_COST + (2 + COUPON_NESTED.metafields);
const itemIds = connectionOf(z.object({ id: z.string() }));
const discountCommon = {
  title: z.string(),
  startsAt: z.string(),
  endsAt: z.string().nullable(),
  createdAt: z.string(),
  usageLimit: z.number().int().nullable(),
  appliesOncePerCustomer: z.boolean(),
  asyncUsageCount: z.number().int(),
  tags: z.array(z.string()),
  codes: z.object({ nodes: z.array(z.object({ code: z.string() })) }),
  codesCount: z.object({ count: z.number().int() }).nullable(),
  combinesWith: z.object({
    orderDiscounts: z.boolean(),
    productDiscounts: z.boolean(),
    shippingDiscounts: z.boolean(),
  }),
  context: z.object({
    __typename: z.string(),
    customers: z
      .array(
        z.object({
          defaultEmailAddress: z.object({ emailAddress: z.string().nullable() }).nullable(),
        }),
      )
      .optional(),
    segments: z.array(z.object({ name: z.string() })).optional(),
    marketsCount: z.number().int().optional(),
  }),
  minimumRequirement: z
    .object({
      __typename: z.string(),
      greaterThanOrEqualToSubtotal: z
        .object({ amount: z.string(), currencyCode: z.string() })
        .optional(),
      greaterThanOrEqualToQuantity: z.union([z.string(), z.number()]).optional(),
    })
    .nullable(),
};
export const discountSchema = z.discriminatedUnion('__typename', [
  z.object({
    __typename: z.literal('DiscountCodeBasic'),
    ...discountCommon,
    customerGets: z.object({
      value: z.object({
        __typename: z.string(),
        percentage: z.number().optional(),
        amount: z.object({ amount: z.string(), currencyCode: z.string() }).optional(),
        appliesOnEachItem: z.boolean().optional(),
      }),
      items: z.object({
        __typename: z.string(),
        products: itemIds.optional(),
        productVariants: itemIds.optional(),
        collections: itemIds.optional(),
      }),
    }),
  }),
  z.object({
    __typename: z.literal('DiscountCodeFreeShipping'),
    ...discountCommon,
    maximumShippingPrice: z.object({ amount: z.string(), currencyCode: z.string() }).nullable(),
    destinationSelection: z.object({
      __typename: z.string(),
      countries: z.array(z.string()).optional(),
      includeRestOfWorld: z.boolean().optional(),
      allCountries: z.boolean().optional(),
    }),
  }),
  // Buy X get Y, app and automatic discounts: known by their kind only.
  z.object({
    __typename: z.enum([
      'DiscountCodeBxgy',
      'DiscountCodeApp',
      'DiscountAutomaticApp',
      'DiscountAutomaticBasic',
      'DiscountAutomaticBxgy',
      'DiscountAutomaticFreeShipping',
    ]),
  }),
]);
export const couponSchema = z.object({
  id: z.string(),
  discount: discountSchema,
  metafields: connectionOf(metafieldSchema),
});
export type ShopifyCoupon = z.infer<typeof couponSchema>;
export type ShopifyDiscount = z.infer<typeof discountSchema>;

const firstOf = (v: Record<string, unknown>, fallback: number) =>
  typeof v.first === 'number' ? v.first : fallback;

// ------------------------------------------------------------------ queries

export const shopInfo = op(
  'ShopInfo',
  /* GraphQL */ `
    query ShopInfo {
      shop {
        name
        currencyCode
        myshopifyDomain
        plan {
          partnerDevelopment
          publicDisplayName
          shopifyPlus
        }
      }
    }
  `,
  z.object({
    shop: z.object({
      name: z.string(),
      currencyCode: z.string(),
      myshopifyDomain: z.string(),
      plan: z.object({
        partnerDevelopment: z.boolean(),
        publicDisplayName: z.string(),
        shopifyPlus: z.boolean(),
      }),
    }),
  }),
  2,
);

export const appAccessScopes = op(
  'AppAccessScopes',
  /* GraphQL */ `
    query AppAccessScopes {
      currentAppInstallation {
        accessScopes {
          handle
        }
      }
    }
  `,
  z.object({
    currentAppInstallation: z.object({ accessScopes: z.array(z.object({ handle: z.string() })) }),
  }),
  2,
);

const countSchema = z.object({ count: z.number().int(), precision: z.string() }).nullable();
export const counts = {
  categories: op(
    'CollectionsCount',
    /* GraphQL */ `
      query CollectionsCount {
        count: collectionsCount(limit: null) {
          count
          precision
        }
      }
    `,
    z.object({ count: countSchema }),
    1,
  ),
  products: op(
    'ProductsCount',
    /* GraphQL */ `
      query ProductsCount {
        count: productsCount(limit: null) {
          count
          precision
        }
      }
    `,
    z.object({ count: countSchema }),
    1,
  ),
  customers: op(
    'CustomersCount',
    /* GraphQL */ `
      query CustomersCount {
        count: customersCount(limit: null) {
          count
          precision
        }
      }
    `,
    z.object({ count: countSchema }),
    1,
  ),
  // Discounts, not codes: discountCodesCount counts every code of a discount with several.
  coupons: op(
    'CouponsCount',
    /* GraphQL */ `
      query CouponsCount {
        count: discountNodesCount(query: "method:code", limit: null) {
          count
          precision
        }
      }
    `,
    z.object({ count: countSchema }),
    1,
  ),
  orders: op(
    'OrdersCount',
    /* GraphQL */ `
      query OrdersCount {
        count: ordersCount(limit: null) {
          count
          precision
        }
      }
    `,
    z.object({ count: countSchema }),
    1,
  ),
  pages: op(
    'PagesCount',
    /* GraphQL */ `
      query PagesCount {
        count: pagesCount(limit: null) {
          count
          precision
        }
      }
    `,
    z.object({ count: countSchema }),
    1,
  ),
};

export const productsPage = op(
  'ProductsPage',
  /* GraphQL */ `
    query ProductsPage($first: Int!, $after: String) {
      products(first: $first, after: $after, sortKey: ID) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...ProductFields
        }
      }
    }
    ${PRODUCT_FIELDS}
  `,
  z.object({ products: connectionOf(productSchema) }),
  (v) => 2 + firstOf(v, PRODUCT_PAGE_SIZE) * PRODUCT_COST,
);

export const productVariantsPage = op(
  'ProductVariantsPage',
  /* GraphQL */ `
    query ProductVariantsPage($id: ID!, $after: String) {
      product(id: $id) {
        variants(first: 50, after: $after) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            ...VariantFields
          }
        }
      }
    }
    ${VARIANT_FIELDS}
  `,
  z.object({ product: z.object({ variants: connectionOf(variantSchema) }).nullable() }),
  1 + 2 + 50 * VARIANT_COST,
);

export const productMediaPage = op(
  'ProductMediaPage',
  /* GraphQL */ `
    query ProductMediaPage($id: ID!, $after: String) {
      product(id: $id) {
        media(first: 100, after: $after) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            ...MediaFields
          }
        }
      }
    }
    ${MEDIA_FIELDS}
  `,
  z.object({ product: z.object({ media: connectionOf(mediaSchema) }).nullable() }),
  1 + 2 + 100 * MEDIA_COST,
);

export const productCollectionsPage = op(
  'ProductCollectionsPage',
  /* GraphQL */ `
    query ProductCollectionsPage($id: ID!, $after: String) {
      product(id: $id) {
        collections(first: 100, after: $after) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            id
          }
        }
      }
    }
  `,
  z.object({
    product: z.object({ collections: connectionOf(z.object({ id: z.string() })) }).nullable(),
  }),
  1 + 2 + 100,
);

/** The rest of the metafields of any record (product, variant, collection, customer, order). */
export const metafieldsPage = op(
  'MetafieldsPage',
  /* GraphQL */ `
    query MetafieldsPage($id: ID!, $after: String) {
      node(id: $id) {
        ... on HasMetafields {
          metafields(first: 100, after: $after) {
            pageInfo {
              hasNextPage
              endCursor
            }
            nodes {
              ${METAFIELD_FIELDS}
            }
          }
        }
      }
    }
  `,
  z.object({
    node: z.object({ metafields: connectionOf(metafieldSchema).optional() }).nullable(),
  }),
  1 + 2 + 100,
);

/** The rest of the products or collections a discount is limited to. */
export const couponItemsPage = op(
  'CouponItemsPage',
  /* GraphQL */ `
    query CouponItemsPage($id: ID!, $after: String) {
      discountNode(id: $id) {
        discount {
          ... on DiscountCodeBasic {
            customerGets {
              items {
                ... on DiscountProducts {
                  products(first: 250, after: $after) {
                    pageInfo {
                      hasNextPage
                      endCursor
                    }
                    nodes {
                      id
                    }
                  }
                }
                ... on DiscountCollections {
                  collections(first: 250, after: $after) {
                    pageInfo {
                      hasNextPage
                      endCursor
                    }
                    nodes {
                      id
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  `,
  z.object({
    discountNode: z
      .object({
        discount: z.object({
          customerGets: z
            .object({
              items: z.object({
                products: itemIds.optional(),
                collections: itemIds.optional(),
              }),
            })
            .optional(),
        }),
      })
      .nullable(),
  }),
  1 + 1 + 1 + 1 + (2 + 250),
);

/** Where Shopify stands with a product's media: processing, ready, or failed and why. */
export const productMediaState = op(
  'ProductMediaState',
  /* GraphQL */ `
    query ProductMediaState($id: ID!, $first: Int!) {
      product(id: $id) {
        media(first: $first) {
          nodes {
            id
            status
            mediaErrors {
              code
              message
            }
          }
        }
      }
    }
  `,
  z.object({
    product: z
      .object({
        media: z.object({
          nodes: z.array(
            z.object({
              id: z.string(),
              status: z.enum(['UPLOADED', 'PROCESSING', 'READY', 'FAILED']),
              mediaErrors: z.array(z.object({ code: z.string(), message: z.string() })),
            }),
          ),
        }),
      })
      .nullable(),
  }),
  (v) => 1 + 2 + firstOf(v, 250) * 2,
);

/** The option combinations (and images) of a product's variants, to tell which are missing. */
export const productVariantCombos = op(
  'ProductVariantCombos',
  /* GraphQL */ `
    query ProductVariantCombos($id: ID!, $after: String) {
      product(id: $id) {
        variants(first: 100, after: $after) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            id
            selectedOptions {
              name
              value
            }
            media(first: 1) {
              nodes {
                id
              }
            }
          }
        }
      }
    }
  `,
  z.object({
    product: z
      .object({
        variants: connectionOf(
          z.object({
            id: z.string(),
            selectedOptions: z.array(selectedOptionSchema),
            media: z.object({ nodes: z.array(z.object({ id: z.string() })) }),
          }),
        ),
      })
      .nullable(),
  }),
  1 + 2 + 100 * (1 + 1 + (2 + 1)),
);

export const collectionImage = op(
  'CollectionImage',
  /* GraphQL */ `
    query CollectionImage($id: ID!) {
      collection(id: $id) {
        id
        image {
          url
        }
      }
    }
  `,
  z.object({
    collection: z
      .object({ id: z.string(), image: z.object({ url: z.string() }).nullable() })
      .nullable(),
  }),
  2,
);

export const collectionsPage = op(
  'CollectionsPage',
  /* GraphQL */ `
    query CollectionsPage($first: Int!, $after: String) {
      collections(first: $first, after: $after, sortKey: ID) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...CollectionFields
        }
      }
    }
    ${COLLECTION_FIELDS}
  `,
  z.object({ collections: connectionOf(collectionSchema) }),
  (v) => 2 + firstOf(v, COLLECTION_PAGE_SIZE) * COLLECTION_COST,
);

export const customersPage = op(
  'CustomersPage',
  /* GraphQL */ `
    query CustomersPage($first: Int!, $after: String) {
      customers(first: $first, after: $after, sortKey: ID) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...CustomerFields
        }
      }
    }
    ${CUSTOMER_FIELDS}
  `,
  z.object({ customers: connectionOf(customerSchema) }),
  (v) => 2 + firstOf(v, CUSTOMER_PAGE_SIZE) * CUSTOMER_COST,
);

export const customerAddressesPage = op(
  'CustomerAddressesPage',
  /* GraphQL */ `
    query CustomerAddressesPage($id: ID!, $after: String) {
      customer(id: $id) {
        addressesV2(first: 100, after: $after) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            ...AddressFields
          }
        }
      }
    }
    ${ADDRESS_FIELDS}
  `,
  z.object({ customer: z.object({ addressesV2: connectionOf(addressSchema) }).nullable() }),
  1 + 2 + 100,
);

export const ordersPage = op(
  'OrdersPage',
  /* GraphQL */ `
    query OrdersPage($first: Int!, $after: String) {
      orders(first: $first, after: $after, sortKey: ID) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...OrderFields
        }
      }
    }
    ${ORDER_FIELDS}
  `,
  z.object({ orders: connectionOf(orderSchema) }),
  (v) => 2 + firstOf(v, ORDER_PAGE_SIZE) * ORDER_COST,
);

export const orderLinesPage = op(
  'OrderLinesPage',
  /* GraphQL */ `
    query OrderLinesPage($id: ID!, $after: String) {
      order(id: $id) {
        lineItems(first: 50, after: $after) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            ...LineFields
          }
        }
      }
    }
    ${MONEY_FIELDS}
    ${TAX_LINE_FIELDS}
    ${LINE_FIELDS}
  `,
  z.object({ order: z.object({ lineItems: connectionOf(lineSchema) }).nullable() }),
  1 + 2 + 50 * LINE_COST,
);

/** The rest of an order's shipping lines, beyond the ORDER_NESTED.shippingLines of the page query. */
export const orderShippingLinesPage = op(
  'OrderShippingLinesPage',
  /* GraphQL */ `
    query OrderShippingLinesPage($id: ID!, $after: String) {
      order(id: $id) {
        shippingLines(first: 50, after: $after) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            ...ShippingFields
          }
        }
      }
    }
    ${MONEY_FIELDS}
    ${TAX_LINE_FIELDS}
    ${SHIPPING_FIELDS}
  `,
  z.object({ order: z.object({ shippingLines: connectionOf(shippingLineSchema) }).nullable() }),
  1 + 2 + 50 * SHIPPING_COST,
);

/** The rest of an order's discount applications. */
export const orderDiscountApplicationsPage = op(
  'OrderDiscountApplicationsPage',
  /* GraphQL */ `
    query OrderDiscountApplicationsPage($id: ID!, $after: String) {
      order(id: $id) {
        discountApplications(first: 100, after: $after) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            ...DiscountFields
          }
        }
      }
    }
    ${DISCOUNT_FIELDS}
  `,
  z.object({
    order: z.object({ discountApplications: connectionOf(discountApplicationSchema) }).nullable(),
  }),
  1 + 2 + 100,
);

/** An order's refunds, for orders read in bulk (their line items are a connection too deep for it). */
export const orderRefunds = op(
  'OrderRefunds',
  /* GraphQL */ `
    query OrderRefunds($id: ID!) {
      order(id: $id) {
        refunds {
          ...RefundFields
        }
      }
    }
    ${MONEY_FIELDS}
    ${REFUND_FIELDS}
    ${REFUND_LINE_FIELDS}
  `,
  z.object({ order: z.object({ refunds: z.array(refundSchema) }).nullable() }),
  1 + REFUND_COST,
);

/** The rest of a refund's line items. */
export const refundLinesPage = op(
  'RefundLinesPage',
  /* GraphQL */ `
    query RefundLinesPage($id: ID!, $after: String) {
      refund(id: $id) {
        refundLineItems(first: 100, after: $after) {
          pageInfo {
            hasNextPage
            endCursor
          }
          nodes {
            ...RefundLineFields
          }
        }
      }
    }
    ${MONEY_FIELDS}
    ${REFUND_LINE_FIELDS}
  `,
  z.object({
    refund: z.object({ refundLineItems: connectionOf(refundLineSchema) }).nullable(),
  }),
  1 + 2 + 100 * REFUND_LINE_COST,
);

export const couponsPage = op(
  'CouponsPage',
  /* GraphQL */ `
    query CouponsPage($first: Int!, $after: String) {
      discountNodes(first: $first, after: $after, sortKey: ID, query: "method:code") {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...CouponFields
        }
      }
    }
    ${COUPON_FIELDS}
  `,
  z.object({
    discountNodes: z.object({ pageInfo, nodes: z.array(z.unknown()) }),
  }),
  (v) => 2 + firstOf(v, COUPON_PAGE_SIZE) * COUPON_COST,
);

export const primaryLocation = op(
  'PrimaryLocation',
  /* GraphQL */ `
    query PrimaryLocation {
      location {
        id
      }
    }
  `,
  z.object({ location: z.object({ id: z.string() }).nullable() }),
  1,
);

const definitionNodes = z.object({
  nodes: z.array(
    z.object({
      id: z.string(),
      capabilities: z.object({ uniqueValues: z.object({ enabled: z.boolean() }) }),
    }),
  ),
});
const definitionField = (alias: string, ownerType: string) =>
  `${alias}: metafieldDefinitions(first: 1, ownerType: ${ownerType}, namespace: "${MARKER_NAMESPACE}", key: "${MARKER_KEY}") { nodes { id capabilities { uniqueValues { enabled } } } }`;
export const markerDefinitions = op(
  'MarkerDefinitions',
  /* GraphQL */ `query MarkerDefinitions {
  ${definitionField('PRODUCT', 'PRODUCT')}
  ${definitionField('COLLECTION', 'COLLECTION')}
  ${definitionField('CUSTOMER', 'CUSTOMER')}
  ${definitionField('ORDER', 'ORDER')}
}`,
  z.object({
    PRODUCT: definitionNodes,
    COLLECTION: definitionNodes,
    CUSTOMER: definitionNodes,
    ORDER: definitionNodes,
  }),
  4 * (2 + 3),
);

const markerField = `marker: metafield(namespace: "${MARKER_NAMESPACE}", key: "${MARKER_KEY}") { value }`;
const markerSchema = z.object({ value: z.string() }).nullable();

export const productByIdentifier = op(
  'ProductByIdentifier',
  /* GraphQL */ `query ProductByIdentifier($identifier: ProductIdentifierInput!) {
  productByIdentifier(identifier: $identifier) { id handle ${markerField} }
}`,
  z.object({
    productByIdentifier: z
      .object({ id: z.string(), handle: z.string(), marker: markerSchema })
      .nullable(),
  }),
  2,
);

export const collectionByIdentifier = op(
  'CollectionByIdentifier',
  /* GraphQL */ `query CollectionByIdentifier($identifier: CollectionIdentifierInput!) {
  collectionByIdentifier(identifier: $identifier) { id handle ${markerField} }
}`,
  z.object({
    collectionByIdentifier: z
      .object({ id: z.string(), handle: z.string(), marker: markerSchema })
      .nullable(),
  }),
  2,
);

/** Collections by title (Shopify search syntax), to find one the merchant already has. */
export const collectionsByTitle = op(
  'CollectionsByTitle',
  /* GraphQL */ `query CollectionsByTitle($query: String!) {
  collections(first: 10, query: $query) { nodes { id handle title ${markerField} } }
}`,
  z.object({
    collections: z.object({
      nodes: z.array(
        z.object({ id: z.string(), handle: z.string(), title: z.string(), marker: markerSchema }),
      ),
    }),
  }),
  2 + 10 * 2,
);

/** The discount that has a code, in any case: codes are unique in a shop. */
export const discountByCode = op(
  'DiscountByCode',
  /* GraphQL */ `query DiscountByCode($code: String!) {
  codeDiscountNodeByCode(code: $code) {
    id ${markerField}
    codeDiscount { __typename ... on DiscountCodeBasic { status } ... on DiscountCodeFreeShipping { status } }
  }
}`,
  z.object({
    codeDiscountNodeByCode: z
      .object({
        id: z.string(),
        marker: markerSchema,
        codeDiscount: z.object({ __typename: z.string(), status: z.string().optional() }),
      })
      .nullable(),
  }),
  3,
);

export const customerByIdentifier = op(
  'CustomerByIdentifier',
  /* GraphQL */ `query CustomerByIdentifier($identifier: CustomerIdentifierInput!) {
  customerByIdentifier(identifier: $identifier) { id ${markerField} }
}`,
  z.object({ customerByIdentifier: z.object({ id: z.string(), marker: markerSchema }).nullable() }),
  2,
);

const orderStateFields = `id name cancelledAt displayFulfillmentStatus ${markerField} fulfillmentOrders(first: 5) { nodes { id status } }`;
export const orderStateSchema = z.object({
  id: z.string(),
  name: z.string(),
  cancelledAt: z.string().nullable(),
  displayFulfillmentStatus: z.string(),
  marker: markerSchema,
  fulfillmentOrders: z.object({ nodes: z.array(z.object({ id: z.string(), status: z.string() })) }),
});
export type ShopifyOrderState = z.infer<typeof orderStateSchema>;
const ORDER_STATE_COST = 1 + 1 + (2 + 5);

export const orderByIdentifier = op(
  'OrderByIdentifier',
  /* GraphQL */ `query OrderByIdentifier($identifier: OrderIdentifierInput!) {
  orderByIdentifier(identifier: $identifier) { ${orderStateFields} }
}`,
  z.object({ orderByIdentifier: orderStateSchema.nullable() }),
  ORDER_STATE_COST,
);

export const ordersByName = op(
  'OrdersByName',
  /* GraphQL */ `query OrdersByName($query: String!) {
  orders(first: 5, query: $query) { nodes { ${orderStateFields} } }
}`,
  z.object({ orders: z.object({ nodes: z.array(orderStateSchema) }) }),
  2 + 5 * ORDER_STATE_COST,
);

export const variantsBySku = op(
  'VariantsBySku',
  /* GraphQL */ `
    query VariantsBySku($query: String!) {
      productVariants(first: 10, query: $query) {
        nodes {
          id
          sku
          selectedOptions {
            name
            value
          }
          product {
            id
          }
        }
      }
    }
  `,
  z.object({
    productVariants: z.object({
      nodes: z.array(
        z.object({
          id: z.string(),
          sku: z.string().nullable(),
          selectedOptions: z.array(selectedOptionSchema),
          product: z.object({ id: z.string() }),
        }),
      ),
    }),
  }),
  2 + 10 * 3,
);

export const productFirstVariants = op(
  'ProductFirstVariants',
  /* GraphQL */ `
    query ProductFirstVariants($id: ID!) {
      product(id: $id) {
        variants(first: 2) {
          nodes {
            id
            selectedOptions {
              name
              value
            }
          }
        }
      }
    }
  `,
  z.object({
    product: z
      .object({
        variants: z.object({
          nodes: z.array(
            z.object({ id: z.string(), selectedOptions: z.array(selectedOptionSchema) }),
          ),
        }),
      })
      .nullable(),
  }),
  1 + 2 + 2 * 2,
);

export const bulkStatus = op(
  'BulkStatus',
  /* GraphQL */ `
    query BulkStatus($id: ID!) {
      bulkOperation(id: $id) {
        id
        status
        errorCode
        objectCount
        url
        partialDataUrl
      }
    }
  `,
  z.object({
    bulkOperation: z
      .object({
        id: z.string(),
        status: z.string(),
        errorCode: z.string().nullable(),
        objectCount: z.string(),
        url: z.string().nullable(),
        partialDataUrl: z.string().nullable(),
      })
      .nullable(),
  }),
  1,
);

export const jobStatus = op(
  'JobStatus',
  /* GraphQL */ `
    query JobStatus($id: ID!) {
      job(id: $id) {
        id
        done
      }
    }
  `,
  z.object({ job: z.object({ id: z.string(), done: z.boolean() }).nullable() }),
  1,
);

// ------------------------------------------------------------------ mutations

export const markerDefinitionCreate = op(
  'MarkerDefinitionCreate',
  /* GraphQL */ `
    mutation MarkerDefinitionCreate($definition: MetafieldDefinitionInput!) {
      metafieldDefinitionCreate(definition: $definition) {
        createdDefinition {
          id
        }
        userErrors {
          field
          message
          code
        }
      }
    }
  `,
  z.object({
    metafieldDefinitionCreate: z
      .object({
        createdDefinition: z.object({ id: z.string() }).nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  10,
);

/**
 * productSet's dynamic cost (changelog "Dynamic complexity cost for productSet mutation"):
 * 10 + 0.2/variant + 0.6/variant file + 0.4/variant metafield + 0.4/product metafield + 1.9/file.
 */
export function productSetCost(variables: Record<string, unknown>): number {
  const input = (variables.input ?? {}) as {
    variants?: { file?: unknown; metafields?: unknown[] }[];
    metafields?: unknown[];
    files?: unknown[];
  };
  const variants = input.variants ?? [];
  const cost =
    10 +
    variants.length * 0.2 +
    variants.filter((v) => v.file).length * 0.6 +
    variants.reduce((n, v) => n + (v.metafields?.length ?? 0), 0) * 0.4 +
    (input.metafields?.length ?? 0) * 0.4 +
    (input.files?.length ?? 0) * 1.9;
  return Math.ceil(cost - 1e-9);
}

export const productSet = op(
  'ProductSet',
  /* GraphQL */ `
    mutation ProductSet($identifier: ProductSetIdentifiers, $input: ProductSetInput!) {
      productSet(identifier: $identifier, input: $input, synchronous: true) {
        product {
          id
          handle
        }
        userErrors {
          field
          message
          code
        }
      }
    }
  `,
  z.object({
    productSet: z
      .object({
        product: z.object({ id: z.string(), handle: z.string() }).nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  productSetCost,
);

export const collectionCreate = op(
  'CollectionCreate',
  /* GraphQL */ `
    mutation CollectionCreate($collection: CollectionCreateInput!) {
      collectionCreate(collection: $collection) {
        collection {
          id
          handle
          image {
            url
          }
        }
        userErrors {
          field
          message
        }
      }
    }
  `,
  z.object({
    collectionCreate: z
      .object({
        collection: z
          .object({
            id: z.string(),
            handle: z.string(),
            image: z.object({ url: z.string() }).nullable(),
          })
          .nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  10,
);

export const collectionUpdate = op(
  'CollectionUpdate',
  /* GraphQL */ `
    mutation CollectionUpdate($collection: CollectionUpdateInput!) {
      collectionUpdate(collection: $collection) {
        collection {
          id
          image {
            url
          }
        }
        userErrors {
          field
          message
        }
      }
    }
  `,
  z.object({
    collectionUpdate: z
      .object({
        collection: z
          .object({ id: z.string(), image: z.object({ url: z.string() }).nullable() })
          .nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  10,
);

/**
 * productVariantsBulkCreate's dynamic cost (changelog "Dynamic complexity for
 * productVariantsBulkCreate and productVariantsBulkUpdate mutations"): 10 + 0.2/variant +
 * 0.6/variant media + 0.4/variant metafield + 1.9/product media.
 */
export function variantsBulkCost(variables: Record<string, unknown>): number {
  const variants = (variables.variants ?? []) as {
    mediaId?: unknown;
    mediaSrc?: unknown[];
    metafields?: unknown[];
  }[];
  const cost =
    10 +
    variants.length * 0.2 +
    variants.filter((v) => v.mediaId || v.mediaSrc?.length).length * 0.6 +
    variants.reduce((n, v) => n + (v.metafields?.length ?? 0), 0) * 0.4 +
    ((variables.media as unknown[] | undefined)?.length ?? 0) * 1.9;
  return Math.ceil(cost - 1e-9);
}

const variantsPayload = z
  .object({
    productVariants: z.array(z.object({ id: z.string() })).nullable(),
    userErrors: z.array(userError),
  })
  .nullable();

export const productVariantsBulkCreate = op(
  'ProductVariantsBulkCreate',
  /* GraphQL */ `
    mutation ProductVariantsBulkCreate(
      $productId: ID!
      $variants: [ProductVariantsBulkInput!]!
      $strategy: ProductVariantsBulkCreateStrategy
    ) {
      productVariantsBulkCreate(productId: $productId, variants: $variants, strategy: $strategy) {
        productVariants {
          id
        }
        userErrors {
          field
          message
          code
        }
      }
    }
  `,
  z.object({ productVariantsBulkCreate: variantsPayload }),
  variantsBulkCost,
);

export const productVariantsBulkUpdate = op(
  'ProductVariantsBulkUpdate',
  /* GraphQL */ `
    mutation ProductVariantsBulkUpdate($productId: ID!, $variants: [ProductVariantsBulkInput!]!) {
      productVariantsBulkUpdate(productId: $productId, variants: $variants) {
        productVariants {
          id
        }
        userErrors {
          field
          message
          code
        }
      }
    }
  `,
  z.object({ productVariantsBulkUpdate: variantsPayload }),
  variantsBulkCost,
);

export const metafieldsSet = op(
  'MetafieldsSet',
  /* GraphQL */ `
    mutation MetafieldsSet($metafields: [MetafieldsSetInput!]!) {
      metafieldsSet(metafields: $metafields) {
        metafields {
          id
        }
        userErrors {
          field
          message
          code
        }
      }
    }
  `,
  z.object({
    metafieldsSet: z
      .object({
        metafields: z.array(z.object({ id: z.string() })).nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  // 10, and 4 for the product all of them belong to (changelog "Dynamic complexity cost for
  // metafieldsSet mutation").
  14,
);

const discountPayload = z
  .object({
    codeDiscountNode: z.object({ id: z.string() }).nullable(),
    userErrors: z.array(userError),
  })
  .nullable();
const DISCOUNT_PAYLOAD = 'codeDiscountNode { id } userErrors { field message code }';

export const discountCodeBasicCreate = op(
  'DiscountCodeBasicCreate',
  /* GraphQL */ `mutation DiscountCodeBasicCreate($input: DiscountCodeBasicInput!) {
  discountCodeBasicCreate(basicCodeDiscount: $input) { ${DISCOUNT_PAYLOAD} }
}`,
  z.object({ discountCodeBasicCreate: discountPayload }),
  10,
);

/** Adds more products or collections to a discount than one input array takes. */
export const discountCodeBasicUpdate = op(
  'DiscountCodeBasicUpdate',
  /* GraphQL */ `mutation DiscountCodeBasicUpdate($id: ID!, $input: DiscountCodeBasicInput!) {
  discountCodeBasicUpdate(id: $id, basicCodeDiscount: $input) { ${DISCOUNT_PAYLOAD} }
}`,
  z.object({ discountCodeBasicUpdate: discountPayload }),
  10,
);

export const discountCodeFreeShippingCreate = op(
  'DiscountCodeFreeShippingCreate',
  /* GraphQL */ `mutation DiscountCodeFreeShippingCreate($input: DiscountCodeFreeShippingInput!) {
  discountCodeFreeShippingCreate(freeShippingCodeDiscount: $input) { ${DISCOUNT_PAYLOAD} }
}`,
  z.object({ discountCodeFreeShippingCreate: discountPayload }),
  10,
);

export const discountCodeDeactivate = op(
  'DiscountCodeDeactivate',
  /* GraphQL */ `mutation DiscountCodeDeactivate($id: ID!) {
  discountCodeDeactivate(id: $id) { ${DISCOUNT_PAYLOAD} }
}`,
  z.object({ discountCodeDeactivate: discountPayload }),
  10,
);

/** The marker and custom fields of a discount (metafieldsSet: 10, no weight for discounts). */
export const discountMetafieldsSet = op(
  'DiscountMetafieldsSet',
  /* GraphQL */ `
    mutation DiscountMetafieldsSet($metafields: [MetafieldsSetInput!]!) {
      metafieldsSet(metafields: $metafields) {
        metafields {
          id
        }
        userErrors {
          field
          message
          code
        }
      }
    }
  `,
  z.object({
    metafieldsSet: z
      .object({
        metafields: z.array(z.object({ id: z.string() })).nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  10,
);

export const customerCreate = op(
  'CustomerCreate',
  /* GraphQL */ `
    mutation CustomerCreate($input: CustomerInput!) {
      customerCreate(input: $input) {
        customer {
          id
          addressesV2(first: 20) {
            nodes {
              id
            }
          }
        }
        userErrors {
          field
          message
        }
      }
    }
  `,
  z.object({
    customerCreate: z
      .object({
        customer: z
          .object({
            id: z.string(),
            addressesV2: z.object({ nodes: z.array(z.object({ id: z.string() })) }),
          })
          .nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  10,
);

export const customerUpdateDefaultAddress = op(
  'CustomerUpdateDefaultAddress',
  /* GraphQL */ `
    mutation CustomerUpdateDefaultAddress($customerId: ID!, $addressId: ID!) {
      customerUpdateDefaultAddress(customerId: $customerId, addressId: $addressId) {
        customer {
          id
        }
        userErrors {
          field
          message
        }
      }
    }
  `,
  z.object({
    customerUpdateDefaultAddress: z
      .object({ customer: z.object({ id: z.string() }).nullable(), userErrors: z.array(userError) })
      .nullable(),
  }),
  10,
);

export const orderCreate = op(
  'OrderCreate',
  /* GraphQL */ `mutation OrderCreate($order: OrderCreateOrderInput!, $options: OrderCreateOptionsInput) {
  orderCreate(order: $order, options: $options) {
    order { ${orderStateFields} }
    userErrors { field message code }
  }
}`,
  z.object({
    orderCreate: z
      .object({ order: orderStateSchema.nullable(), userErrors: z.array(userError) })
      .nullable(),
  }),
  10,
);

export const orderCancel = op(
  'OrderCancel',
  /* GraphQL */ `
    mutation OrderCancel(
      $orderId: ID!
      $reason: OrderCancelReason!
      $staffNote: String
      $notifyCustomer: Boolean
    ) {
      orderCancel(
        orderId: $orderId
        reason: $reason
        restock: false
        notifyCustomer: $notifyCustomer
        staffNote: $staffNote
      ) {
        job {
          id
          done
        }
        orderCancelUserErrors {
          field
          message
          code
        }
      }
    }
  `,
  z.object({
    orderCancel: z
      .object({
        job: z.object({ id: z.string(), done: z.boolean() }).nullable(),
        orderCancelUserErrors: z.array(userError),
      })
      .nullable(),
  }),
  10,
);

/**
 * What refunds of an order are written against: its line items (in the order they were given to
 * orderCreate), its payment transactions, and the refunds it already has.
 */
export const orderRefundTargets = op(
  'OrderRefundTargets',
  /* GraphQL */ `
    query OrderRefundTargets($id: ID!) {
      order(id: $id) {
        id
        lineItems(first: 250) {
          nodes {
            id
          }
        }
        transactions {
          id
          kind
          status
          gateway
        }
        refunds {
          id
        }
      }
    }
  `,
  z.object({
    order: z
      .object({
        id: z.string(),
        lineItems: z.object({ nodes: z.array(z.object({ id: z.string() })) }),
        transactions: z.array(
          z.object({
            id: z.string(),
            kind: z.string(),
            status: z.string(),
            gateway: z.string().nullable(),
          }),
        ),
        refunds: z.array(z.object({ id: z.string() })),
      })
      .nullable(),
  }),
  1 + (2 + 250) + 1 + 1,
);

/**
 * refundCreate requires an idempotency key (2026-04 and later): the same key given again answers
 * the refund made the first time, so a refund whose answer was lost is never made twice.
 */
export const refundCreate = op(
  'RefundCreate',
  /* GraphQL */ `
    mutation RefundCreate($input: RefundInput!, $key: String!) {
      refundCreate(input: $input) @idempotent(key: $key) {
        refund {
          id
        }
        userErrors {
          field
          message
        }
      }
    }
  `,
  z.object({
    refundCreate: z
      .object({
        refund: z.object({ id: z.string() }).nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  10,
);

export const fulfillmentOrderHold = op(
  'FulfillmentOrderHold',
  /* GraphQL */ `
    mutation FulfillmentOrderHold($id: ID!, $hold: FulfillmentOrderHoldInput!) {
      fulfillmentOrderHold(id: $id, fulfillmentHold: $hold) {
        fulfillmentOrder {
          id
          status
        }
        userErrors {
          field
          message
          code
        }
      }
    }
  `,
  z.object({
    fulfillmentOrderHold: z
      .object({
        fulfillmentOrder: z.object({ id: z.string(), status: z.string() }).nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  10,
);

export const urlRedirectCreate = op(
  'UrlRedirectCreate',
  /* GraphQL */ `
    mutation UrlRedirectCreate($urlRedirect: UrlRedirectInput!) {
      urlRedirectCreate(urlRedirect: $urlRedirect) {
        urlRedirect {
          id
          path
          target
        }
        userErrors {
          field
          message
          code
        }
      }
    }
  `,
  z.object({
    urlRedirectCreate: z
      .object({
        urlRedirect: z.object({ id: z.string(), path: z.string(), target: z.string() }).nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  10,
);

/** The shop's account invitation e-mail to a customer (asked for when the owner chose e-mails). */
export const customerInvite = op(
  'CustomerInvite',
  /* GraphQL */ `
    mutation CustomerInvite($customerId: ID!) {
      customerSendAccountInviteEmail(customerId: $customerId) {
        customer {
          id
        }
        userErrors {
          field
          message
          code
        }
      }
    }
  `,
  z.object({
    customerSendAccountInviteEmail: z
      .object({
        customer: z.object({ id: z.string() }).nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  10,
);

export const bulkRun = op(
  'BulkRun',
  /* GraphQL */ `
    mutation BulkRun($query: String!) {
      bulkOperationRunQuery(query: $query) {
        bulkOperation {
          id
          status
        }
        userErrors {
          field
          message
          code
        }
      }
    }
  `,
  z.object({
    bulkOperationRunQuery: z
      .object({
        bulkOperation: z.object({ id: z.string(), status: z.string() }).nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  10,
);

// ------------------------------------------------------------------ bulk queries

/**
 * Bulk queries (shopify.dev/docs/api/usage/bulk-operations/queries): no page sizes, at most five
 * connections, two levels of nesting, `id` on every parent of a nested connection. They select
 * what the page queries select; what would need a sixth connection or a third level (variant
 * images and metafields, refund lines) comes from a second bulk query or, for the few orders
 * with refunds, from OrderRefunds.
 */
const bulkMoney = '{ shopMoney { amount currencyCode } }';
const bulkTaxLines = `taxLines { title rate priceSet ${bulkMoney} }`;
const bulkAllocations = `discountAllocations { allocatedAmountSet ${bulkMoney} discountApplication { index targetSelection } }`;
const bulkMetafields = `metafields { edges { node { id ${METAFIELD_FIELDS} } } }`;
const bulkAddress =
  '{ id firstName lastName company address1 address2 city province provinceCode zip countryCodeV2 phone }';

export function bulkProductsQuery(filter: string): string {
  return /* GraphQL */ `{
  products(query: ${JSON.stringify(filter)}, sortKey: ID) { edges { node {
    id handle title descriptionHtml status vendor productType tags templateSuffix isGiftCard giftCardTemplateSuffix requiresSellingPlan createdAt updatedAt hasOnlyDefaultVariant
    category { id }
    seo { title description }
    options { name position values }
    variants { edges { node {
      id sku barcode price compareAtPrice position taxable inventoryPolicy inventoryQuantity
      selectedOptions { name value }
      inventoryItem { tracked requiresShipping harmonizedSystemCode countryCodeOfOrigin provinceCodeOfOrigin unitCost { amount } measurement { weight { unit value } } }
    } } }
    media { edges { node { id alt mediaContentType ... on MediaImage { image { url } } } } }
    ${bulkMetafields}
    collections { edges { node { id } } }
  } } }
}`;
}

/** Each variant's image and metafields (a third level under products). */
export function bulkVariantExtrasQuery(filter: string): string {
  return /* GraphQL */ `{
  productVariants(query: ${JSON.stringify(filter)}) { edges { node {
    id product { id }
    media { edges { node { id } } }
    ${bulkMetafields}
  } } }
}`;
}

export function bulkCustomersQuery(filter: string): string {
  return /* GraphQL */ `{
  customers(query: ${JSON.stringify(filter)}, sortKey: ID) { edges { node {
    id firstName lastName note tags locale taxExempt taxExemptions createdAt updatedAt
    defaultEmailAddress { emailAddress marketingState marketingOptInLevel marketingUpdatedAt }
    defaultPhoneNumber { phoneNumber smsMarketingConsent { state optInLevel updatedAt } }
    defaultAddress ${bulkAddress}
    addressesV2 { edges { node ${bulkAddress} } }
    ${bulkMetafields}
  } } }
}`;
}

export function bulkOrdersQuery(filter: string): string {
  return /* GraphQL */ `{
  orders(query: ${JSON.stringify(filter)}, sortKey: ID) { edges { node {
    id name email phone note tags poNumber processedAt updatedAt closedAt cancelledAt cancelReason currencyCode taxesIncluded test sourceName clientIp customerAcceptsMarketing displayFinancialStatus displayFulfillmentStatus
    customAttributes { key value }
    customer { id }
    subtotalPriceSet ${bulkMoney} totalTaxSet ${bulkMoney} totalShippingPriceSet ${bulkMoney} totalDiscountsSet ${bulkMoney} totalPriceSet ${bulkMoney} totalRefundedSet ${bulkMoney}
    billingAddress ${bulkAddress} shippingAddress ${bulkAddress}
    transactions { kind status gateway formattedGateway paymentId processedAt test amountSet ${bulkMoney} }
    additionalFees { name price ${bulkMoney} ${bulkTaxLines} }
    refunds { id }
    lineItems { edges { node {
      id name sku quantity originalUnitPriceSet ${bulkMoney} ${bulkTaxLines} ${bulkAllocations}
      customAttributes { key value }
      variant { id title selectedOptions { name value } } product { id }
    } } }
    shippingLines { edges { node { id title code originalPriceSet ${bulkMoney} ${bulkTaxLines} ${bulkAllocations} } } }
    discountApplications { edges { node {
      index targetSelection targetType allocationMethod
      ... on DiscountCodeApplication { code }
      ... on ManualDiscountApplication { title }
      ... on AutomaticDiscountApplication { title }
      ... on ScriptDiscountApplication { title }
    } } }
    ${bulkMetafields}
  } } }
}`;
}

export function bulkCollectionsQuery(filter: string): string {
  return /* GraphQL */ `{
  collections(query: ${JSON.stringify(filter)}, sortKey: ID) { edges { node {
    id handle title descriptionHtml sortOrder templateSuffix updatedAt
    seo { title description }
    image { url altText }
    ${bulkMetafields}
  } } }
}`;
}

// ------------------------------------------------------------------ brands (vendors)

/** productVendors' largest page (its description in the 2026-10 schema). */
export const VENDOR_PAGE_SIZE = 1000;

/**
 * The distinct vendors the shop's products name, a page at a time: Shopify's brands. The field is
 * a connection of strings, so a page costs 2 points whatever its size; the schema has no count of
 * vendors, so counting walks it too.
 */
export const productVendorsPage = op(
  'ProductVendorsPage',
  /* GraphQL */ `
    query ProductVendorsPage($first: Int!, $after: String) {
      productVendors(first: $first, after: $after) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes
      }
    }
  `,
  z.object({ productVendors: connectionOf(z.string()).nullable() }),
  2,
);

// ------------------------------------------------------------------ reviews

/**
 * Product reviews live in the product metafield replatform.reviews (reviews.ts). Shopify's search
 * cannot filter products by a json metafield, so reading walks the products and asks each for it.
 */
const REVIEWS_LIST = 'metafield(namespace: "replatform", key: "reviews")';

/** Products walked per request when reading reviews, each with its reviews list. */
export const REVIEW_PRODUCTS_PAGE = 50;

const reviewsMetafieldSchema = z.object({ type: z.string(), value: z.string() }).nullable();

/** Products in id order with their reviews list: 1 + the metafield 1 each. */
export const productReviewsPage = op(
  'ProductReviewsPage',
  /* GraphQL */ `
    query ProductReviewsPage($first: Int!, $after: String, $query: String) {
      products(first: $first, after: $after, query: $query, sortKey: ID) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          reviews: ${REVIEWS_LIST} {
            type
            value
          }
        }
      }
    }
  `,
  z.object({
    products: connectionOf(z.object({ id: z.string(), reviews: reviewsMetafieldSchema })),
  }),
  (v) => 2 + firstOf(v, REVIEW_PRODUCTS_PAGE) * 2,
);

/**
 * One product's reviews list with the digest that compare-and-set needs, and its star rating
 * metafields (Shopify's standard reviews.rating and reviews.rating_count).
 */
export const productReviewsState = op(
  'ProductReviewsState',
  /* GraphQL */ `
    query ProductReviewsState($id: ID!) {
      product(id: $id) {
        id
        reviews: ${REVIEWS_LIST} {
          type
          value
          compareDigest
        }
        rating: metafield(namespace: "reviews", key: "rating") {
          type
          value
        }
        ratingCount: metafield(namespace: "reviews", key: "rating_count") {
          type
          value
        }
      }
    }
  `,
  z.object({
    product: z
      .object({
        id: z.string(),
        reviews: z
          .object({ type: z.string(), value: z.string(), compareDigest: z.string() })
          .nullable(),
        rating: reviewsMetafieldSchema,
        ratingCount: reviewsMetafieldSchema,
      })
      .nullable(),
  }),
  1 + 3,
);

/**
 * A product's reviews list and star rating, set at once (metafieldsSet is atomic), the list with
 * compareDigest so that a list changed since it was read is not overwritten.
 */
export const productReviewsSet = op(
  'ProductReviewsSet',
  /* GraphQL */ `
    mutation ProductReviewsSet($metafields: [MetafieldsSetInput!]!) {
      metafieldsSet(metafields: $metafields) {
        metafields {
          id
        }
        userErrors {
          field
          message
          code
        }
      }
    }
  `,
  z.object({
    metafieldsSet: z
      .object({
        metafields: z.array(z.object({ id: z.string() })).nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  // 10, and 4 for the product.
  14,
);

/** Removes a product's star rating metafields once none of its reviews is approved. */
export const productRatingDelete = op(
  'ProductRatingDelete',
  /* GraphQL */ `
    mutation ProductRatingDelete($metafields: [MetafieldIdentifierInput!]!) {
      metafieldsDelete(metafields: $metafields) {
        deletedMetafields {
          key
        }
        userErrors {
          field
          message
        }
      }
    }
  `,
  z.object({
    metafieldsDelete: z
      .object({
        deletedMetafields: z.array(z.object({ key: z.string() }).nullable()).nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  10,
);

// ------------------------------------------------------------------ pages and blog articles

export const PAGE_PAGE_SIZE = 50;
export const ARTICLE_PAGE_SIZE = 50;
export const BLOG_PAGE_SIZE = 50;
/** Metafields read with each page or article; the rest are read with MetafieldsPage. */
export const CONTENT_METAFIELDS = 10;

const PAGE_FIELDS = /* GraphQL */ `
fragment PageFields on Page {
  id
  handle
  title
  body
  isPublished
  publishedAt
  templateSuffix
  createdAt
  updatedAt
  metafields(first: ${CONTENT_METAFIELDS}) {
    pageInfo {
      hasNextPage
      endCursor
    }
    nodes {
      ${METAFIELD_FIELDS}
    }
  }
}`;

const ARTICLE_FIELDS = /* GraphQL */ `
fragment ArticleFields on Article {
  id
  handle
  title
  body
  summary
  author {
    name
  }
  image {
    url
    altText
  }
  tags
  isPublished
  publishedAt
  templateSuffix
  createdAt
  updatedAt
  blog {
    id
    handle
    title
  }
  metafields(first: ${CONTENT_METAFIELDS}) {
    pageInfo {
      hasNextPage
      endCursor
    }
    nodes {
      ${METAFIELD_FIELDS}
    }
  }
}`;

export const pageSchema = z.object({
  id: z.string(),
  handle: z.string(),
  title: z.string(),
  body: z.string(),
  isPublished: z.boolean(),
  publishedAt: z.string().nullable(),
  templateSuffix: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  metafields: connectionOf(metafieldSchema),
});
export type ShopifyPage = z.infer<typeof pageSchema>;

export const articleSchema = z.object({
  id: z.string(),
  handle: z.string(),
  title: z.string(),
  body: z.string(),
  summary: z.string().nullable(),
  author: z.object({ name: z.string() }).nullable(),
  image: z.object({ url: z.string(), altText: z.string().nullable() }).nullable(),
  tags: z.array(z.string()),
  isPublished: z.boolean(),
  publishedAt: z.string().nullable(),
  templateSuffix: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  blog: z.object({ id: z.string(), handle: z.string(), title: z.string() }),
  metafields: connectionOf(metafieldSchema),
});
export type ShopifyArticle = z.infer<typeof articleSchema>;

/** A page or article costs 1, its metafields connection 2 + 10 (one per metafield). */
const CONTENT_COST = 1 + 2 + CONTENT_METAFIELDS;

export const pagesPage = op(
  'PagesPage',
  /* GraphQL */ `
    query PagesPage($first: Int!, $after: String) {
      pages(first: $first, after: $after, sortKey: ID) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...PageFields
        }
      }
    }
    ${PAGE_FIELDS}
  `,
  z.object({ pages: z.object({ pageInfo, nodes: z.array(z.unknown()) }) }),
  (v) => 2 + firstOf(v, PAGE_PAGE_SIZE) * CONTENT_COST,
);

export const articlesPage = op(
  'ArticlesPage',
  /* GraphQL */ `
    query ArticlesPage($first: Int!, $after: String) {
      articles(first: $first, after: $after, sortKey: ID) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          ...ArticleFields
        }
      }
    }
    ${ARTICLE_FIELDS}
  `,
  z.object({ articles: z.object({ pageInfo, nodes: z.array(z.unknown()) }) }),
  (v) => 2 + firstOf(v, ARTICLE_PAGE_SIZE) * (CONTENT_COST + 3),
);

/** The shop's blogs with their number of articles (there is no articlesCount at the root). */
export const blogsPage = op(
  'BlogsPage',
  /* GraphQL */ `
    query BlogsPage($first: Int!, $after: String) {
      blogs(first: $first, after: $after, sortKey: ID) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          title
          handle
          articlesCount(limit: null) {
            count
          }
        }
      }
    }
  `,
  z.object({
    blogs: z.object({
      pageInfo,
      nodes: z.array(
        z.object({
          id: z.string(),
          title: z.string(),
          handle: z.string(),
          articlesCount: z.object({ count: z.number().int() }).nullable(),
        }),
      ),
    }),
  }),
  (v) => 2 + firstOf(v, BLOG_PAGE_SIZE) * 2,
);

const contentMarker = /* GraphQL */ `marker: metafield(namespace: "${MARKER_NAMESPACE}", key: "${MARKER_KEY}") {
  value
}`;

const contentMarkerSchema = z.object({ value: z.string() }).nullable();

/** Pages found by a search (a handle or an id), with the migration's marker. */
export const pagesSearch = op(
  'PagesSearch',
  /* GraphQL */ `
    query PagesSearch($query: String!) {
      pages(first: 5, query: $query) {
        nodes {
          ...PageFields
          ${contentMarker}
        }
      }
    }
    ${PAGE_FIELDS}
  `,
  z.object({
    pages: z.object({
      nodes: z.array(z.object({ id: z.string(), marker: contentMarkerSchema }).loose()),
    }),
  }),
  2 + 5 * (CONTENT_COST + 1),
);

/** Articles found by a search (a handle in a blog, or an id), with the migration's marker. */
export const articlesSearch = op(
  'ArticlesSearch',
  /* GraphQL */ `
    query ArticlesSearch($query: String!) {
      articles(first: 5, query: $query) {
        nodes {
          ...ArticleFields
          ${contentMarker}
        }
      }
    }
    ${ARTICLE_FIELDS}
  `,
  z.object({
    articles: z.object({
      nodes: z.array(z.object({ id: z.string(), marker: contentMarkerSchema }).loose()),
    }),
  }),
  2 + 5 * (CONTENT_COST + 4),
);

const contentUserErrors = /* GraphQL */ `userErrors {
  field
  message
  code
}`;

export const pageCreate = op(
  'PageCreate',
  /* GraphQL */ `
    mutation PageCreate($page: PageCreateInput!) {
      pageCreate(page: $page) {
        page {
          id
          handle
        }
        ${contentUserErrors}
      }
    }
  `,
  z.object({
    pageCreate: z
      .object({
        page: z.object({ id: z.string(), handle: z.string() }).nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  10,
);

export const pageUpdate = op(
  'PageUpdate',
  /* GraphQL */ `
    mutation PageUpdate($id: ID!, $page: PageUpdateInput!) {
      pageUpdate(id: $id, page: $page) {
        page {
          id
          handle
        }
        ${contentUserErrors}
      }
    }
  `,
  z.object({
    pageUpdate: z
      .object({
        page: z.object({ id: z.string(), handle: z.string() }).nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  10,
);

export const blogCreate = op(
  'BlogCreate',
  /* GraphQL */ `
    mutation BlogCreate($blog: BlogCreateInput!) {
      blogCreate(blog: $blog) {
        blog {
          id
          title
          handle
        }
        ${contentUserErrors}
      }
    }
  `,
  z.object({
    blogCreate: z
      .object({
        blog: z.object({ id: z.string(), title: z.string(), handle: z.string() }).nullable(),
        userErrors: z.array(userError),
      })
      .nullable(),
  }),
  10,
);

const articlePayload = z
  .object({
    article: z
      .object({ id: z.string(), handle: z.string(), blog: z.object({ handle: z.string() }) })
      .nullable(),
    userErrors: z.array(userError),
  })
  .nullable();

export const articleCreate = op(
  'ArticleCreate',
  /* GraphQL */ `
    mutation ArticleCreate($article: ArticleCreateInput!) {
      articleCreate(article: $article) {
        article {
          id
          handle
          blog {
            handle
          }
        }
        ${contentUserErrors}
      }
    }
  `,
  z.object({ articleCreate: articlePayload }),
  10,
);

export const articleUpdate = op(
  'ArticleUpdate',
  /* GraphQL */ `
    mutation ArticleUpdate($id: ID!, $article: ArticleUpdateInput!) {
      articleUpdate(id: $id, article: $article) {
        article {
          id
          handle
          blog {
            handle
          }
        }
        ${contentUserErrors}
      }
    }
  `,
  z.object({ articleUpdate: articlePayload }),
  10,
);

/** All documents, for validation against the schema in tests. */
export const allOperations: Operation<unknown>[] = [
  shopInfo,
  appAccessScopes,
  ...Object.values(counts),
  productsPage,
  productVariantsPage,
  productMediaPage,
  metafieldsPage,
  productCollectionsPage,
  productMediaState,
  productVariantCombos,
  collectionImage,
  collectionsPage,
  customersPage,
  customerAddressesPage,
  ordersPage,
  orderLinesPage,
  orderShippingLinesPage,
  orderDiscountApplicationsPage,
  orderRefunds,
  refundLinesPage,
  primaryLocation,
  markerDefinitions,
  productByIdentifier,
  collectionByIdentifier,
  collectionsByTitle,
  customerByIdentifier,
  orderByIdentifier,
  ordersByName,
  variantsBySku,
  productFirstVariants,
  bulkStatus,
  jobStatus,
  markerDefinitionCreate,
  productSet,
  collectionCreate,
  collectionUpdate,
  productVariantsBulkCreate,
  productVariantsBulkUpdate,
  metafieldsSet,
  customerCreate,
  customerUpdateDefaultAddress,
  orderCreate,
  orderCancel,
  orderRefundTargets,
  refundCreate,
  fulfillmentOrderHold,
  urlRedirectCreate,
  customerInvite,
  bulkRun,
  couponsPage,
  couponItemsPage,
  discountByCode,
  discountCodeBasicCreate,
  discountCodeBasicUpdate,
  discountCodeFreeShippingCreate,
  discountCodeDeactivate,
  discountMetafieldsSet,
  productVendorsPage,
  productReviewsPage,
  productReviewsState,
  productReviewsSet,
  productRatingDelete,
  pagesPage,
  articlesPage,
  blogsPage,
  pagesSearch,
  articlesSearch,
  pageCreate,
  pageUpdate,
  blogCreate,
  articleCreate,
  articleUpdate,
] as Operation<unknown>[];
