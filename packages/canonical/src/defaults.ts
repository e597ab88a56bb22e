import type { Brand } from './brand.ts';
import type { Category } from './category.ts';
import type { Page, Post } from './content.ts';
import type { Coupon } from './coupon.ts';
import type { Customer } from './customer.ts';
import type { Money } from './money.ts';
import type { Order, OrderLine } from './order.ts';
import type { Inventory, Product, Variant } from './product.ts';

/**
 * The neutral value of each field a platform has no notion of: what the model holds when the
 * source says nothing about the field (no featured flag, no sale schedule, no downloads). They
 * are the "empty" values that a comparison and the known-difference check treat as nothing to
 * carry, so spreading them never invents data; a connector overrides each field its platform has.
 */
export function categoryDefaults(): Omit<
  Category,
  'id' | 'parentId' | 'name' | 'slug' | 'description' | 'position' | 'sourceUrlPath'
> {
  return {
    imageUrl: null,
    imageAlt: '',
    imageTitle: '',
    displayType: 'default',
    seoTitle: '',
    seoDescription: '',
    metafields: [],
  };
}

export function brandDefaults(): Omit<Brand, 'id' | 'name' | 'sourceUrlPath'> {
  return {
    parentId: null,
    slug: '',
    description: '',
    position: 0,
    imageUrl: null,
    imageAlt: '',
    displayType: 'default',
    seoTitle: '',
    seoDescription: '',
    seoKeywords: [],
    searchKeywords: '',
    metafields: [],
  };
}

/** What a page and a post hold when the source says nothing of a field. */
function contentDefaults() {
  return {
    title: '',
    slug: '',
    body: '',
    excerpt: '',
    status: 'published' as const,
    publishedAt: null,
    createdAt: null,
    updatedAt: null,
    authorName: '',
    featuredImageUrl: null,
    featuredImageAlt: '',
    seoTitle: '',
    seoDescription: '',
    seoKeywords: [],
    metafields: [],
  };
}

export function pageDefaults(): Omit<Page, 'id' | 'sourceUrlPath'> {
  return { ...contentDefaults(), parentId: null, position: 0 };
}

export function postDefaults(): Omit<Post, 'id' | 'sourceUrlPath'> {
  return { ...contentDefaults(), blog: '', categories: [], tags: [] };
}

export function inventoryDefaults(): Inventory {
  return {
    tracked: false,
    quantity: 0,
    stockStatus: 'instock',
    backorders: 'no',
    lowStockThreshold: null,
  };
}

export function variantDefaults(
  price: Money,
): Omit<Variant, 'id' | 'sku' | 'optionValues' | 'position'> {
  return {
    status: 'active',
    price,
    salePrice: null,
    saleStartsAt: null,
    saleEndsAt: null,
    weight: null,
    inventory: inventoryDefaults(),
    barcode: '',
    imageUrl: null,
    taxClass: null,
    shippingClass: null,
    virtual: false,
    downloadable: false,
    downloads: [],
    downloadLimit: null,
    downloadExpiryDays: null,
    metafields: [],
  };
}

export function productDefaults(): Omit<
  Product,
  'id' | 'type' | 'name' | 'slug' | 'variants' | 'sourceUrlPath' | 'createdAt' | 'updatedAt'
> {
  return {
    sku: '',
    descriptionHtml: '',
    shortDescriptionHtml: '',
    status: 'active',
    visibility: 'visible',
    featured: false,
    vendor: '',
    options: [],
    attributes: [],
    defaultOptionValues: [],
    images: [],
    categoryIds: [],
    tags: [],
    tagDefinitions: [],
    sharedAttributes: [],
    seoTitle: '',
    seoDescription: '',
    weight: null,
    dimensions: null,
    taxStatus: 'taxable',
    taxClass: '',
    shippingClass: '',
    soldIndividually: false,
    reviewsAllowed: true,
    purchaseNote: '',
    menuOrder: 0,
    upsellIds: [],
    crossSellIds: [],
    groupedProductIds: [],
    externalUrl: '',
    buttonText: '',
    metafields: [],
  };
}

export function customerDefaults(): Pick<Customer, 'username' | 'group' | 'metafields'> {
  return { username: '', group: '', metafields: [] };
}

export function orderLineDefaults(): Pick<OrderLine, 'taxClass' | 'meta'> {
  return { taxClass: '', meta: [] };
}

export function orderDefaults(
  currency: string,
): Pick<
  Order,
  | 'fees'
  | 'refunds'
  | 'notes'
  | 'paymentMethod'
  | 'paymentMethodTitle'
  | 'transactionId'
  | 'paidAt'
  | 'completedAt'
  | 'pricesIncludeTax'
  | 'customerIpAddress'
  | 'customerUserAgent'
  | 'createdVia'
  | 'metafields'
  | 'feeTotal'
  | 'refundTotal'
> {
  return {
    fees: [],
    refunds: [],
    notes: [],
    paymentMethod: '',
    paymentMethodTitle: '',
    transactionId: '',
    paidAt: null,
    completedAt: null,
    pricesIncludeTax: false,
    customerIpAddress: '',
    customerUserAgent: '',
    createdVia: '',
    metafields: [],
    feeTotal: { amount: 0, currency },
    refundTotal: { amount: 0, currency },
  };
}

/** A coupon's neutral limits: usable by anyone, any number of times, on anything. */
export function couponDefaults(): Omit<
  Coupon,
  'id' | 'code' | 'discountType' | 'percentOff' | 'amountOff' | 'createdAt'
> {
  return {
    description: '',
    freeShipping: false,
    enabled: true,
    startsAt: null,
    expiresAt: null,
    minimumSpend: null,
    maximumSpend: null,
    usageLimit: null,
    usageLimitPerCustomer: null,
    usageCount: 0,
    itemLimit: null,
    individualUse: false,
    excludeSaleItems: false,
    productIds: [],
    excludedProductIds: [],
    categoryIds: [],
    excludedCategoryIds: [],
    allowedEmails: [],
    metafields: [],
  };
}

const zero: Money = { amount: 0, currency: 'XXX' };

/** One record of each entity made only of neutral values, to look neutral values up by path. */
const neutralRecords: Record<string, unknown> = {
  categories: categoryDefaults(),
  brands: brandDefaults(),
  products: {
    ...productDefaults(),
    variants: [{ ...variantDefaults(zero), position: 0 }],
  },
  customers: { ...customerDefaults(), acceptsMarketing: false, note: '', tags: [] },
  orders: { ...orderDefaults('XXX'), lines: [orderLineDefaults()] },
  coupons: couponDefaults(),
  reviews: { reviewerEmail: '', title: '', body: '', verified: false },
  pages: pageDefaults(),
  posts: postDefaults(),
};

/**
 * The neutral value of a field (a dotted canonical path, through lists), or undefined when the
 * field has none: a record holding it has nothing to carry there.
 */
export function neutralValue(entity: string, path: string): unknown {
  let current: unknown = neutralRecords[entity];
  for (const key of path.split('.')) {
    if (Array.isArray(current)) current = current[0];
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
