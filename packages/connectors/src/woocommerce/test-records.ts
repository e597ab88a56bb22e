import type { Brand } from '@replatform/canonical/brand';
import type { Coupon } from '@replatform/canonical/coupon';
import type { Customer } from '@replatform/canonical/customer';
import {
  pageDefaults,
  postDefaults,
  brandDefaults,
  couponDefaults,
  customerDefaults,
  orderDefaults,
  orderLineDefaults,
  productDefaults,
  variantDefaults,
} from '@replatform/canonical/defaults';
import type { Order } from '@replatform/canonical/order';
import type { Product } from '@replatform/canonical/product';
import type { Review } from '@replatform/canonical/review';
import type { Page as ContentPage, Post } from '@replatform/canonical/content';

/** Canonical records for the connector's tests: neutral values, and what each test sets. */

export const usd = (amount: number) => ({ amount, currency: 'USD' });

export function product(id: string, overrides: Partial<Product> = {}): Product {
  return {
    ...productDefaults(),
    id,
    type: 'simple',
    name: `Product ${id}`,
    slug: `product-${id}`,
    sku: `SKU-${id}`,
    variants: [
      {
        ...variantDefaults(usd(1000)),
        id: `${id}-v`,
        sku: `SKU-${id}`,
        optionValues: [],
        position: 0,
        inventory: {
          tracked: true,
          quantity: 10,
          stockStatus: 'instock',
          backorders: 'no',
          lowStockThreshold: null,
        },
      },
    ],
    sourceUrlPath: null,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: null,
    ...overrides,
  };
}

export function customer(id: string, email: string, overrides: Partial<Customer> = {}): Customer {
  return {
    ...customerDefaults(),
    id,
    email,
    firstName: 'Test',
    lastName: id,
    phone: '',
    acceptsMarketing: false,
    addresses: [],
    note: '',
    tags: [],
    createdAt: '2024-01-01T00:00:00.000Z',
    ...overrides,
  };
}

export function order(id: string, productId: string | null, overrides: Partial<Order> = {}): Order {
  return {
    ...orderDefaults('USD'),
    id,
    number: id,
    createdAt: '2024-02-01T00:00:00.000Z',
    updatedAt: null,
    currency: 'USD',
    customerId: null,
    email: `${id}@example.com`,
    status: 'processing',
    paymentStatus: 'paid',
    fulfillmentStatus: 'unfulfilled',
    lines: [
      {
        ...orderLineDefaults(),
        id: 'l',
        productId,
        variantId: null,
        sku: productId ? `SKU-${productId}` : '',
        name: 'Thing',
        quantity: 1,
        unitPrice: usd(1000),
        tax: usd(0),
        total: usd(1000),
      },
    ],
    shippingLines: [],
    discounts: [],
    subtotal: usd(1000),
    taxTotal: usd(0),
    shippingTotal: usd(0),
    discountTotal: usd(0),
    grandTotal: usd(1000),
    billingAddress: null,
    shippingAddress: null,
    note: '',
    ...overrides,
  };
}

/** A top-level brand named `name`, its slug made from the name. */
export function brand(id: string, name: string, overrides: Partial<Brand> = {}): Brand {
  return {
    ...brandDefaults(),
    id,
    name,
    slug: name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, ''),
    sourceUrlPath: null,
    ...overrides,
  };
}

/** A percentage coupon unless the overrides say otherwise. */
export function coupon(id: string, overrides: Partial<Coupon> = {}): Coupon {
  return {
    ...couponDefaults(),
    id,
    code: `CODE-${id}`,
    discountType: 'percent',
    percentOff: 10,
    amountOff: null,
    createdAt: '2024-01-02T03:04:05.000Z',
    ...overrides,
  };
}

/** An approved four-star review of product `productId`. */
export function review(id: string, productId: string, overrides: Partial<Review> = {}): Review {
  return {
    id,
    productId,
    reviewerName: `Reviewer ${id}`,
    reviewerEmail: `reviewer-${id}@example.com`,
    rating: 4,
    title: '',
    body: `<p>Review ${id}: does what it says.</p>`,
    status: 'approved',
    verified: false,
    createdAt: '2024-03-04T05:06:07.000Z',
    ...overrides,
  };
}

/** A published top page unless the overrides say otherwise. */
export function webPage(
  id: string,
  title: string,
  overrides: Partial<ContentPage> = {},
): ContentPage {
  return {
    ...pageDefaults(),
    id,
    title,
    slug: title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, ''),
    body: `<p>${title}</p>`,
    status: 'published',
    publishedAt: '2024-02-01T09:00:00Z',
    sourceUrlPath: null,
    ...overrides,
  };
}

/** A published blog post unless the overrides say otherwise. */
export function blogPost(id: string, title: string, overrides: Partial<Post> = {}): Post {
  return {
    ...postDefaults(),
    id,
    title,
    slug: title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, ''),
    body: `<p>${title}</p>`,
    status: 'published',
    publishedAt: '2024-05-02T08:00:00Z',
    sourceUrlPath: null,
    ...overrides,
  };
}
