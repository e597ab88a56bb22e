import type { Address } from '@replatform/canonical/address';
import type { Category } from '@replatform/canonical/category';
import type { Customer, CustomerAddress } from '@replatform/canonical/customer';
import { toMinor, type Money } from '@replatform/canonical/money';
import type { Order, OrderLine } from '@replatform/canonical/order';
import type { Product, ProductImage, Variant } from '@replatform/canonical/product';
import {
  MARKER_NAMESPACE,
  type ShopifyAddress,
  type ShopifyCollection,
  type ShopifyCustomer,
  type ShopifyMedia,
  type ShopifyOrder,
  type ShopifyProduct,
} from './documents.ts';

/**
 * Shopify -> canonical. Ids are Shopify's global ids (gid://shopify/Product/123).
 *
 * Order status mapping (first rule that applies):
 *   cancelledAt set                        -> cancelled
 *   displayFinancialStatus REFUNDED        -> refunded
 *   VOIDED or EXPIRED (no payment taken)   -> failed
 *   displayFulfillmentStatus ON_HOLD       -> on-hold
 *   displayFulfillmentStatus FULFILLED     -> completed
 *   PENDING or AUTHORIZED                  -> pending
 *   PAID, PARTIALLY_PAID, PARTIALLY_REFUNDED -> processing
 * Payment status: the financial status one to one (EXPIRED -> voided, none -> pending).
 * Fulfilment status: FULFILLED -> fulfilled, PARTIALLY_FULFILLED -> partial, else unfulfilled.
 */

const weightUnits = { GRAMS: 'g', KILOGRAMS: 'kg', OUNCES: 'oz', POUNDS: 'lb' } as const;

export function productUrlPath(handle: string): string {
  return `/products/${handle}`;
}

export function collectionUrlPath(handle: string): string {
  return `/collections/${handle}`;
}

/**
 * Shopify writes DateTime values without fractions ('2024-01-01T10:00:00Z'); canonical timestamps
 * take one form whatever the platform, the one toISOString() writes.
 */
export function canonicalTime(value: string): string {
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

function moneyOf(amount: string, currency: string): Money {
  return { amount: toMinor(amount, currency), currency };
}

/** Metafields other than the migration marker become attributes; `custom.x` is just `x`. */
export function attributesOf(
  metafields: { namespace: string; key: string; value: string }[],
  productType: string,
): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const m of metafields) {
    if (m.namespace === MARKER_NAMESPACE) continue;
    attributes[m.namespace === 'custom' ? m.key : `${m.namespace}.${m.key}`] = m.value;
  }
  if (productType) attributes.product_type = productType;
  return attributes;
}

export function imagesOf(media: ShopifyMedia[]): {
  images: ProductImage[];
  urlById: Map<string, string>;
} {
  const images: ProductImage[] = [];
  const urlById = new Map<string, string>();
  for (const m of media) {
    if (m.mediaContentType !== 'IMAGE' || !m.image) continue;
    urlById.set(m.id, m.image.url);
    images.push({ url: m.image.url, alt: m.alt ?? m.image.altText ?? '', position: images.length });
  }
  return { images, urlById };
}

export function productToCanonical(
  p: ShopifyProduct,
  currency: string,
  variantMedia?: Map<string, string>,
): Product {
  const simple = p.hasOnlyDefaultVariant;
  const { images, urlById } = imagesOf(p.media.nodes);
  const variants: Variant[] = p.variants.nodes.map((v) => {
    const mediaId = variantMedia?.get(v.id) ?? v.media?.nodes[0]?.id;
    const weight = v.inventoryItem.measurement.weight;
    return {
      id: v.id,
      sku: v.sku ?? '',
      optionValues: simple
        ? []
        : p.options
            .map((o) => v.selectedOptions.find((s) => s.name === o.name))
            .filter((s): s is { name: string; value: string } => s !== undefined)
            .map((s) => ({ name: s.name, value: s.value })),
      price: moneyOf(v.price, currency),
      compareAtPrice: v.compareAtPrice === null ? null : moneyOf(v.compareAtPrice, currency),
      // Shopify stores 0 when no weight was entered.
      weight:
        weight && weight.value > 0 ? { value: weight.value, unit: weightUnits[weight.unit] } : null,
      inventory: {
        tracked: v.inventoryItem.tracked,
        quantity: v.inventoryItem.tracked ? (v.inventoryQuantity ?? 0) : 0,
      },
      barcode: v.barcode ?? '',
      imageUrl: mediaId ? (urlById.get(mediaId) ?? null) : null,
    };
  });
  return {
    id: p.id,
    type: simple ? 'simple' : 'variable',
    name: p.title,
    slug: p.handle,
    sku: simple ? (variants[0]?.sku ?? '') : '',
    descriptionHtml: p.descriptionHtml,
    shortDescriptionHtml: '',
    status: p.status === 'DRAFT' ? 'draft' : p.status === 'ARCHIVED' ? 'archived' : 'active',
    vendor: p.vendor,
    options: simple ? [] : p.options.map((o) => ({ name: o.name, values: [...new Set(o.values)] })),
    variants,
    images,
    categoryIds: p.collections.nodes.map((c) => c.id),
    // In the order Shopify keeps them: alphabetical, whatever order they were entered in.
    tags: [...new Set(p.tags)],
    seoTitle: p.seo.title ?? '',
    seoDescription: p.seo.description ?? '',
    dimensions: null,
    attributes: attributesOf(p.metafields.nodes, p.productType),
    sourceUrlPath: productUrlPath(p.handle),
    createdAt: canonicalTime(p.createdAt),
    updatedAt: canonicalTime(p.updatedAt),
  };
}

export function collectionToCategory(c: ShopifyCollection): Category {
  return {
    id: c.id,
    // Shopify collections are flat.
    parentId: null,
    name: c.title || c.handle,
    slug: c.handle,
    description: c.descriptionHtml,
    position: 0,
    imageUrl: c.image?.url ?? null,
    sourceUrlPath: collectionUrlPath(c.handle),
  };
}

export function addressToCanonical(a: ShopifyAddress): Address {
  return {
    firstName: a.firstName ?? '',
    lastName: a.lastName ?? '',
    company: a.company ?? '',
    address1: a.address1 ?? '',
    address2: a.address2 ?? '',
    city: a.city ?? '',
    province: a.provinceCode ?? a.province ?? '',
    postalCode: a.zip ?? '',
    countryCode: (a.countryCodeV2 ?? '').toUpperCase(),
    phone: a.phone ?? '',
  };
}

/** Answers the canonical customer, or a reason when it cannot be one (no e-mail address). */
export function customerToCanonical(c: ShopifyCustomer): Customer | { rejected: string } {
  const email = c.defaultEmailAddress?.emailAddress.trim().toLowerCase() ?? '';
  if (!email)
    return {
      rejected: 'The customer has no e-mail address; the migration identifies customers by e-mail.',
    };
  const defaultId = c.defaultAddress?.id;
  const addresses: CustomerAddress[] = c.addressesV2.nodes.map((a) => ({
    ...addressToCanonical(a),
    // Shopify has one default address, used for both billing and shipping.
    isDefaultBilling: a.id === defaultId,
    isDefaultShipping: a.id === defaultId,
  }));
  return {
    id: c.id,
    email,
    firstName: c.firstName ?? '',
    lastName: c.lastName ?? '',
    phone: c.defaultPhoneNumber?.phoneNumber ?? '',
    acceptsMarketing: c.defaultEmailAddress?.marketingState === 'SUBSCRIBED',
    addresses,
    note: c.note ?? '',
    tags: [...new Set(c.tags)],
    createdAt: canonicalTime(c.createdAt),
  };
}

export function orderStatusOf(
  o: Pick<ShopifyOrder, 'cancelledAt' | 'displayFinancialStatus' | 'displayFulfillmentStatus'>,
): Order['status'] {
  const financial = o.displayFinancialStatus;
  if (o.cancelledAt) return 'cancelled';
  if (financial === 'REFUNDED') return 'refunded';
  if (financial === 'VOIDED' || financial === 'EXPIRED') return 'failed';
  if (o.displayFulfillmentStatus === 'ON_HOLD') return 'on-hold';
  if (o.displayFulfillmentStatus === 'FULFILLED') return 'completed';
  if (financial === 'PENDING' || financial === 'AUTHORIZED' || financial === null) return 'pending';
  return 'processing';
}

const paymentStatuses: Record<string, Order['paymentStatus']> = {
  PENDING: 'pending',
  AUTHORIZED: 'authorized',
  PAID: 'paid',
  PARTIALLY_PAID: 'partially_paid',
  PARTIALLY_REFUNDED: 'partially_refunded',
  REFUNDED: 'refunded',
  VOIDED: 'voided',
  EXPIRED: 'voided',
};

export function orderToCanonical(o: ShopifyOrder): Order | { rejected: string } {
  const currency = o.currencyCode;
  const amount = (m: { shopMoney: { amount: string } } | null | undefined) =>
    toMinor(m?.shopMoney.amount ?? '0', currency);
  // Allocations of order-wide discounts (targetSelection ALL) are order discounts; others
  // (ENTITLED/EXPLICIT) are discounts of the line itself and lower the line total.
  const lineDiscount = (
    allocations: ShopifyOrder['lineItems']['nodes'][number]['discountAllocations'],
  ) =>
    allocations
      .filter((a) => a.discountApplication.targetSelection !== 'ALL')
      .reduce((n, a) => n + amount(a.allocatedAmountSet), 0);
  if (o.lineItems.nodes.length === 0) return { rejected: 'The order has no line items.' };
  const lines: OrderLine[] = o.lineItems.nodes.map((l) => {
    const unit = amount(l.originalUnitPriceSet);
    return {
      id: l.id,
      productId: l.product?.id ?? null,
      // Every Shopify product has a variant; the implicit one of a simple product is not a variant
      // in the canonical model.
      variantId: l.variant && l.variant.title !== 'Default Title' ? l.variant.id : null,
      sku: l.sku ?? '',
      name: l.name || l.sku || 'Item',
      quantity: l.quantity,
      unitPrice: { amount: unit, currency },
      tax: { amount: l.taxLines.reduce((n, t) => n + amount(t.priceSet), 0), currency },
      total: { amount: unit * l.quantity - lineDiscount(l.discountAllocations), currency },
    };
  });
  const allocations = [
    ...o.lineItems.nodes.flatMap((l) => l.discountAllocations),
    ...o.shippingLines.nodes.flatMap((s) => s.discountAllocations),
  ];
  const discounts = o.discountApplications.nodes
    .filter((d) => d.targetSelection === 'ALL')
    .map((d) => ({
      code: d.code ?? d.title ?? '',
      amount: {
        amount: allocations
          .filter((a) => a.discountApplication.index === d.index)
          .reduce((n, a) => n + amount(a.allocatedAmountSet), 0),
        currency,
      },
    }));
  const subtotal = lines.reduce((n, l) => n + l.total.amount, 0);
  const discountTotal = discounts.reduce((n, d) => n + d.amount.amount, 0);
  const financial = o.displayFinancialStatus;
  return {
    id: o.id,
    number: o.name.replace(/^#/, '') || o.id,
    createdAt: canonicalTime(o.processedAt),
    updatedAt: canonicalTime(o.updatedAt),
    currency,
    customerId: o.customer?.id ?? null,
    email: o.email ?? '',
    status: orderStatusOf(o),
    paymentStatus: financial ? (paymentStatuses[financial] ?? 'pending') : 'pending',
    fulfillmentStatus:
      o.displayFulfillmentStatus === 'FULFILLED'
        ? 'fulfilled'
        : o.displayFulfillmentStatus === 'PARTIALLY_FULFILLED'
          ? 'partial'
          : 'unfulfilled',
    lines,
    shippingLines: o.shippingLines.nodes.map((s) => ({
      title: s.title,
      code: s.code ?? '',
      price: { amount: amount(s.originalPriceSet), currency },
      tax: { amount: s.taxLines.reduce((n, t) => n + amount(t.priceSet), 0), currency },
    })),
    discounts,
    subtotal: { amount: subtotal, currency },
    taxTotal: { amount: amount(o.totalTaxSet), currency },
    shippingTotal: { amount: amount(o.totalShippingPriceSet), currency },
    discountTotal: { amount: discountTotal, currency },
    grandTotal: { amount: amount(o.totalPriceSet), currency },
    billingAddress: o.billingAddress ? addressToCanonical(o.billingAddress) : null,
    shippingAddress: o.shippingAddress ? addressToCanonical(o.shippingAddress) : null,
    note: o.note ?? '',
  };
}
