import type { Address } from '@replatform/canonical/address';
import type { Brand } from '@replatform/canonical/brand';
import type { Category } from '@replatform/canonical/category';
import type { Coupon } from '@replatform/canonical/coupon';
import type { Customer, CustomerAddress } from '@replatform/canonical/customer';
import {
  brandDefaults,
  categoryDefaults,
  couponDefaults,
  customerDefaults,
  inventoryDefaults,
  orderDefaults,
  productDefaults,
  variantDefaults,
} from '@replatform/canonical/defaults';
import type { Metafield } from '@replatform/canonical/metafield';
import { toMinor, type Money } from '@replatform/canonical/money';
import {
  orderNoteSchema,
  type FeeLine,
  type Order,
  type OrderLine,
  type Refund,
} from '@replatform/canonical/order';
import {
  dimensionsSchema,
  productAttributeSchema,
  type Dimensions,
  type Product,
  type ProductAttribute,
  type ProductImage,
  type ProductOption,
  type Variant,
} from '@replatform/canonical/product';
import type { Review } from '@replatform/canonical/review';
import { z } from 'zod';
import { gidNumber } from './bulk.ts';
import type {
  ShopifyAddress,
  ShopifyCollection,
  ShopifyCoupon,
  ShopifyCustomer,
  ShopifyMedia,
  ShopifyOrder,
  ShopifyProduct,
  ShopifyVariant,
} from './documents.ts';
import { carriedKeys, ownField, parseJson, splitMetafields } from './own-fields.ts';
import type { ReviewEntry } from './reviews.ts';

/** The payment details an order written by a migration keeps in replatform.payment. */
const keptPaymentSchema = z
  .object({
    paymentMethod: z.string(),
    paymentMethodTitle: z.string(),
    transactionId: z.string(),
    paidAt: z.string().nullable(),
    createdVia: z.string(),
  })
  .partial()
  .strict();

/**
 * Shopify -> canonical. Ids are Shopify's global ids (gid://shopify/Product/123). native-fields.ts
 * says what becomes of every field read; the mapping of statuses:
 *
 * Order status (first rule that applies):
 *   cancelledAt set                        -> cancelled
 *   displayFinancialStatus REFUNDED        -> refunded
 *   VOIDED or EXPIRED (no payment taken)   -> failed
 *   displayFulfillmentStatus ON_HOLD       -> on-hold
 *   displayFulfillmentStatus FULFILLED     -> completed
 *   PENDING or AUTHORIZED                  -> pending
 *   PAID, PARTIALLY_PAID, PARTIALLY_REFUNDED -> processing
 * Payment status: the financial status one to one (EXPIRED -> voided, none -> pending).
 * Fulfilment status: FULFILLED -> fulfilled, PARTIALLY_FULFILLED -> partial, else unfulfilled.
 * Product status: ACTIVE -> active, DRAFT -> draft, ARCHIVED -> archived, UNLISTED -> active with
 * visibility 'hidden' (reachable only by its address).
 * Variant prices: a compare-at price above the price is the regular price and the price the sale
 * price; a compare-at price that is not above the price (Shopify shows no sale for it) is kept as
 * the variant's own field shopify.compare_at_price.
 * Inventory policy: CONTINUE (keep selling when out of stock) -> backorders 'yes'.
 */

/** What a record could not carry into the model, named by its native field. */
export interface Loss {
  field: string;
  reason: string;
}

export type Mapped<T> = { record: T; losses: Loss[] } | { rejected: string };

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

export function imagesOf(media: ShopifyMedia[]): {
  images: ProductImage[];
  urlById: Map<string, string>;
} {
  const images: ProductImage[] = [];
  const urlById = new Map<string, string>();
  for (const m of media) {
    if (m.mediaContentType !== 'IMAGE' || !m.image) continue;
    urlById.set(m.id, m.image.url);
    // Shopify images have alternative text but no title.
    images.push({ url: m.image.url, alt: m.alt ?? '', title: '', position: images.length });
  }
  return { images, urlById };
}

const text = (value: string | null | undefined) => value ?? '';

function dimensionsOf(value: string | undefined): Dimensions | null {
  const parsed = dimensionsSchema.safeParse(parseJson(value));
  return parsed.success ? parsed.data : null;
}

function variantToCanonical(
  v: ShopifyVariant,
  p: ShopifyProduct,
  currency: string,
  imageUrl: string | null,
): Variant {
  const simple = p.hasOnlyDefaultVariant;
  const weight = v.inventoryItem.measurement.weight;
  const price = moneyOf(v.price, currency);
  const compareAt = v.compareAtPrice === null ? null : moneyOf(v.compareAtPrice, currency);
  const onSale = compareAt !== null && compareAt.amount > price.amount;
  const own: Metafield[] = [];
  const item = v.inventoryItem;
  if (item.unitCost) own.push(ownField('unit_cost', item.unitCost.amount, 'number_decimal'));
  if (item.harmonizedSystemCode)
    own.push(
      ownField('harmonized_system_code', item.harmonizedSystemCode, 'single_line_text_field'),
    );
  if (item.countryCodeOfOrigin)
    own.push(
      ownField('country_code_of_origin', item.countryCodeOfOrigin, 'single_line_text_field'),
    );
  if (item.provinceCodeOfOrigin)
    own.push(
      ownField('province_code_of_origin', item.provinceCodeOfOrigin, 'single_line_text_field'),
    );
  if (compareAt !== null && !onSale)
    own.push(ownField('compare_at_price', v.compareAtPrice ?? '', 'number_decimal'));
  const split = splitMetafields(v.metafields.nodes, Object.values(carriedKeys.variant));
  const description = split.carried.get(carriedKeys.variant.descriptionHtml);
  const dimensions = dimensionsOf(split.carried.get(carriedKeys.variant.dimensions));
  const tracked = item.tracked;
  const quantity = tracked ? (v.inventoryQuantity ?? 0) : 0;
  const backorders = v.inventoryPolicy === 'CONTINUE' ? 'yes' : 'no';
  return {
    ...variantDefaults(onSale && compareAt ? compareAt : price),
    id: v.id,
    sku: v.sku ?? '',
    optionValues: simple
      ? []
      : p.options
          .map((o) => v.selectedOptions.find((s) => s.name === o.name))
          .filter((s): s is { name: string; value: string } => s !== undefined)
          .map((s) => ({ name: s.name, value: s.value })),
    salePrice: onSale ? price : null,
    // Shopify stores 0 when no weight was entered.
    weight:
      weight && weight.value > 0 ? { value: weight.value, unit: weightUnits[weight.unit] } : null,
    ...(dimensions ? { dimensions } : {}),
    ...(description !== undefined ? { descriptionHtml: description } : {}),
    inventory: {
      ...inventoryDefaults(),
      tracked,
      quantity,
      // Shopify tells stock status by the quantity and whether it keeps selling without stock.
      stockStatus:
        !tracked || quantity > 0 ? 'instock' : backorders === 'yes' ? 'onbackorder' : 'outofstock',
      backorders,
    },
    barcode: v.barcode ?? '',
    imageUrl,
    // A variant has no tax or shipping class of its own at Shopify: it takes the product's.
    taxClass: null,
    shippingClass: null,
    virtual: !item.requiresShipping,
    position: v.position - 1,
    metafields: [...split.metafields, ...own],
  };
}

/** Options with the flags the model keeps for them, as written into replatform.options. */
interface CarriedOption {
  name: string;
  shared: { slug: string } | null;
  visible: boolean;
  position: number;
}

export function productToCanonical(p: ShopifyProduct, currency: string): Mapped<Product> {
  const losses: Loss[] = [];
  const simple = p.hasOnlyDefaultVariant;
  const { images, urlById } = imagesOf(p.media.nodes);
  const others = p.media.nodes.filter((m) => m.mediaContentType !== 'IMAGE' || !m.image);
  if (others.length)
    losses.push({
      field: 'media.nodes[].mediaContentType',
      reason: `${others.length} video or 3D media (${[...new Set(others.map((m) => m.mediaContentType))].join(', ')}) are not carried: only images are.`,
    });
  const variants = p.variants.nodes.map((v) => {
    const mediaId = v.media.nodes[0]?.id;
    return variantToCanonical(v, p, currency, mediaId ? (urlById.get(mediaId) ?? null) : null);
  });
  const taxable = new Set(p.variants.nodes.map((v) => v.taxable));
  if (taxable.size > 1)
    losses.push({
      field: 'variants.nodes[].taxable',
      reason:
        'Some variants are taxed and others not; the model keeps one tax status per product (taxed).',
    });
  const keys = carriedKeys.product;
  const split = splitMetafields(p.metafields.nodes, Object.values(keys));
  const carried = (key: string) => split.carried.get(key);
  const own: Metafield[] = [];
  if (p.productType) own.push(ownField('product_type', p.productType, 'single_line_text_field'));
  if (p.templateSuffix)
    own.push(ownField('template_suffix', p.templateSuffix, 'single_line_text_field'));
  if (p.isGiftCard) own.push(ownField('gift_card', 'true', 'boolean'));
  if (p.giftCardTemplateSuffix)
    own.push(
      ownField('gift_card_template_suffix', p.giftCardTemplateSuffix, 'single_line_text_field'),
    );
  if (p.requiresSellingPlan) own.push(ownField('requires_selling_plan', 'true', 'boolean'));
  if (p.category) own.push(ownField('category', p.category.id, 'single_line_text_field'));
  const optionFlags = new Map(
    (Array.isArray(parseJson(carried(keys.options)))
      ? (parseJson(carried(keys.options)) as CarriedOption[])
      : []
    ).map((o) => [o.name, o]),
  );
  const options: ProductOption[] = simple
    ? []
    : [...p.options]
        .sort((a, b) => a.position - b.position)
        .map((o, i) => ({
          name: o.name,
          values: [...new Set(o.values)],
          shared: optionFlags.get(o.name)?.shared ?? null,
          visible: optionFlags.get(o.name)?.visible ?? true,
          position: optionFlags.get(o.name)?.position ?? i,
        }));
  const attributes: ProductAttribute[] =
    z.array(productAttributeSchema).safeParse(parseJson(carried(keys.attributes))).data ?? [];
  const externalUrl = carried(keys.externalUrl) ?? '';
  const grouped = carried(keys.grouped) === 'true';
  const record: Product = {
    ...productDefaults(),
    id: p.id,
    type: grouped ? 'grouped' : simple ? (externalUrl ? 'external' : 'simple') : 'variable',
    name: p.title,
    slug: p.handle,
    sku: simple ? (variants[0]?.sku ?? '') : (carried(keys.sku) ?? ''),
    descriptionHtml: p.descriptionHtml,
    shortDescriptionHtml: carried(keys.shortDescriptionHtml) ?? '',
    status:
      p.status === 'DRAFT' ? 'draft' : p.status === 'ARCHIVED' ? 'archived' : ('active' as const),
    visibility: p.status === 'UNLISTED' ? 'hidden' : 'visible',
    vendor: p.vendor,
    options,
    attributes,
    // A group's one variant is the stand-in Shopify needs (groupStandIn), not something sold.
    variants: grouped ? [] : variants,
    weight: grouped ? (variants[0]?.weight ?? null) : null,
    images,
    categoryIds: p.collections.nodes.map((c) => c.id),
    // In the order Shopify keeps them: alphabetical, whatever order they were entered in.
    tags: [...new Set(p.tags)],
    seoTitle: text(p.seo.title),
    seoDescription: text(p.seo.description),
    dimensions: dimensionsOf(carried(keys.dimensions)),
    taxStatus: taxable.has(true) || taxable.size === 0 ? 'taxable' : 'none',
    purchaseNote: carried(keys.purchaseNote) ?? '',
    externalUrl,
    buttonText: carried(keys.buttonText) ?? '',
    metafields: [...split.metafields, ...own],
    sourceUrlPath: productUrlPath(p.handle),
    createdAt: canonicalTime(p.createdAt),
    updatedAt: canonicalTime(p.updatedAt),
  };
  return { record, losses };
}

export function collectionToCategory(c: ShopifyCollection): Mapped<Category> {
  const split = splitMetafields(c.metafields.nodes, []);
  const own: Metafield[] = [ownField('sort_order', c.sortOrder, 'single_line_text_field')];
  if (c.templateSuffix)
    own.push(ownField('template_suffix', c.templateSuffix, 'single_line_text_field'));
  return {
    record: {
      ...categoryDefaults(),
      id: c.id,
      // Shopify collections are flat.
      parentId: null,
      name: c.title || c.handle,
      slug: c.handle,
      description: c.descriptionHtml,
      position: 0,
      imageUrl: c.image?.url ?? null,
      imageAlt: text(c.image?.altText),
      seoTitle: text(c.seo.title),
      seoDescription: text(c.seo.description),
      metafields: [...split.metafields, ...own],
      sourceUrlPath: collectionUrlPath(c.handle),
    },
    losses: [],
  };
}

export function addressToCanonical(a: ShopifyAddress): Address {
  return {
    firstName: text(a.firstName),
    lastName: text(a.lastName),
    company: text(a.company),
    address1: text(a.address1),
    address2: text(a.address2),
    city: text(a.city),
    province: a.provinceCode ?? a.province ?? '',
    postalCode: text(a.zip),
    countryCode: text(a.countryCodeV2).toUpperCase(),
    phone: text(a.phone),
    // Shopify addresses hold no e-mail address.
    email: '',
  };
}

/** Answers the canonical customer, or a reason when it cannot be one (no e-mail address). */
export function customerToCanonical(c: ShopifyCustomer): Mapped<Customer> {
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
  const split = splitMetafields(c.metafields.nodes, []);
  const own: Metafield[] = [ownField('locale', c.locale, 'single_line_text_field')];
  if (c.taxExempt) own.push(ownField('tax_exempt', 'true', 'boolean'));
  if (c.taxExemptions.length)
    own.push(ownField('tax_exemptions', JSON.stringify(c.taxExemptions), 'json'));
  const mail = c.defaultEmailAddress;
  if (mail && mail.marketingState !== 'SUBSCRIBED' && mail.marketingState !== 'NOT_SUBSCRIBED')
    own.push(ownField('email_marketing_state', mail.marketingState, 'single_line_text_field'));
  if (mail?.marketingOptInLevel)
    own.push(
      ownField('email_marketing_opt_in_level', mail.marketingOptInLevel, 'single_line_text_field'),
    );
  if (mail?.marketingUpdatedAt)
    own.push(ownField('email_marketing_updated_at', mail.marketingUpdatedAt, 'date_time'));
  const sms = c.defaultPhoneNumber?.smsMarketingConsent;
  if (sms && sms.state !== 'NEVER_SUBSCRIBED')
    own.push(ownField('sms_marketing_state', sms.state, 'single_line_text_field'));
  if (sms?.optInLevel)
    own.push(ownField('sms_marketing_opt_in_level', sms.optInLevel, 'single_line_text_field'));
  if (sms?.updatedAt) own.push(ownField('sms_marketing_updated_at', sms.updatedAt, 'date_time'));
  return {
    record: {
      ...customerDefaults(),
      id: c.id,
      email,
      firstName: text(c.firstName),
      lastName: text(c.lastName),
      phone: c.defaultPhoneNumber?.phoneNumber ?? '',
      acceptsMarketing: mail?.marketingState === 'SUBSCRIBED',
      addresses,
      note: text(c.note),
      tags: [...new Set(c.tags)],
      metafields: [...split.metafields, ...own],
      createdAt: canonicalTime(c.createdAt),
    },
    losses: [],
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

/**
 * Line property that marks a custom line holding a fee of the source store (a Shopify destination
 * writes fees so, the order total being kept); reading turns it back into a fee. Properties that
 * start with an underscore are hidden from customers by Shopify themes.
 */
export const FEE_PROPERTY = '_replatform_fee';

type TaxLines = { priceSet: { shopMoney: { amount: string } } }[];

export function orderToCanonical(o: ShopifyOrder): Mapped<Order> {
  const currency = o.currencyCode;
  const losses: Loss[] = [];
  const amount = (m: { shopMoney: { amount: string } } | null | undefined) =>
    toMinor(m?.shopMoney.amount ?? '0', currency);
  const money = (minor: number): Money => ({ amount: minor, currency });
  const taxOf = (lines: TaxLines) => lines.reduce((n, t) => n + amount(t.priceSet), 0);
  // Allocations of order-wide discounts (targetSelection ALL) are order discounts; others
  // (ENTITLED/EXPLICIT) are discounts of the line itself and lower the line total.
  const lineDiscount = (
    allocations: ShopifyOrder['lineItems']['nodes'][number]['discountAllocations'],
  ) =>
    allocations
      .filter((a) => a.discountApplication.targetSelection !== 'ALL')
      .reduce((n, a) => n + amount(a.allocatedAmountSet), 0);
  const isFee = (l: ShopifyOrder['lineItems']['nodes'][number]) =>
    l.product === null && l.customAttributes.some((a) => a.key === FEE_PROPERTY);
  const productLines = o.lineItems.nodes.filter((l) => !isFee(l));
  if (productLines.length === 0) return { rejected: 'The order has no line items.' };
  const lines: OrderLine[] = productLines.map((l) => {
    const unit = amount(l.originalUnitPriceSet);
    // Every Shopify product has a variant; the implicit one of a simple product is not a variant
    // in the canonical model, and its 'Title: Default Title' is no option chosen.
    const variant = l.variant && l.variant.title !== 'Default Title' ? l.variant : null;
    return {
      id: l.id,
      productId: l.product?.id ?? null,
      variantId: variant?.id ?? null,
      sku: l.sku ?? '',
      name: l.name || l.sku || 'Item',
      quantity: l.quantity,
      unitPrice: money(unit),
      tax: money(taxOf(l.taxLines)),
      total: money(unit * l.quantity - lineDiscount(l.discountAllocations)),
      taxClass: '',
      // Shopify shows the variant's options on the line from the variant itself; the model holds
      // them in the line's meta, as the other platforms keep them on the line.
      meta: [
        ...(variant?.selectedOptions ?? []).map((o) => ({ key: o.name, value: o.value })),
        ...l.customAttributes.map((a) => ({ key: a.key, value: a.value ?? '' })),
      ],
    };
  });
  const fees: FeeLine[] = [
    ...o.additionalFees.map((f) => ({
      name: f.name,
      amount: money(amount(f.price)),
      tax: money(taxOf(f.taxLines)),
      taxClass: '',
      taxStatus: f.taxLines.length ? ('taxable' as const) : ('none' as const),
    })),
    ...o.lineItems.nodes.filter(isFee).map((l) => ({
      name: l.name,
      amount: money(amount(l.originalUnitPriceSet) * l.quantity),
      tax: money(taxOf(l.taxLines)),
      taxClass: '',
      taxStatus: l.taxLines.length ? ('taxable' as const) : ('none' as const),
    })),
  ];
  const allocations = [
    ...o.lineItems.nodes.flatMap((l) => l.discountAllocations),
    ...o.shippingLines.nodes.flatMap((s) => s.discountAllocations),
  ];
  const discounts = o.discountApplications.nodes
    .filter((d) => d.targetSelection === 'ALL')
    .map((d) => ({
      code: d.code ?? d.title ?? '',
      amount: money(
        allocations
          .filter((a) => a.discountApplication.index === d.index)
          .reduce((n, a) => n + amount(a.allocatedAmountSet), 0),
      ),
      tax: money(0),
    }));
  const refunds: Refund[] = o.refunds.map((r) => ({
    id: r.id,
    createdAt: canonicalTime(r.processedAt),
    amount: money(amount(r.totalRefundedSet)),
    reason: text(r.note),
    lines: r.refundLineItems.nodes.map((l) => ({
      lineId: l.lineItem.id,
      quantity: l.quantity,
      amount: money(amount(l.subtotalSet)),
      tax: money(amount(l.totalTaxSet)),
    })),
  }));
  const succeeded = o.transactions.filter((t) => t.status === 'SUCCESS');
  const payment = succeeded.find((t) => ['SALE', 'CAPTURE', 'AUTHORIZATION'].includes(t.kind));
  const paid = succeeded.find((t) => t.kind === 'SALE' || t.kind === 'CAPTURE');
  const payments = succeeded.filter((t) => t.kind === 'SALE' || t.kind === 'AUTHORIZATION');
  if (payments.length > 1)
    losses.push({
      field: 'transactions[]',
      reason: `The order was paid in ${payments.length} payments; the model keeps one payment method and transaction code (the first).`,
    });
  if (
    payment?.kind === 'AUTHORIZATION' &&
    payment.processedAt &&
    Date.parse(payment.processedAt) !== Date.parse(o.processedAt)
  )
    losses.push({
      field: 'transactions[].processedAt',
      reason:
        'The payment was authorised after the order was placed; the model keeps the date of a payment, not of an authorisation.',
    });
  const split = splitMetafields(o.metafields.nodes, Object.values(carriedKeys.order));
  const notes = z
    .array(orderNoteSchema)
    .safeParse(parseJson(split.carried.get(carriedKeys.order.notes)));
  const kept = keptPaymentSchema.safeParse(parseJson(split.carried.get(carriedKeys.order.payment)));
  const own: Metafield[] = [];
  if (o.tags.length) own.push(ownField('tags', JSON.stringify(o.tags), 'json'));
  if (o.phone) own.push(ownField('phone', o.phone, 'single_line_text_field'));
  if (o.poNumber) own.push(ownField('po_number', o.poNumber, 'single_line_text_field'));
  if (o.customAttributes.length)
    own.push(
      ownField(
        'note_attributes',
        JSON.stringify(o.customAttributes.map((a) => ({ key: a.key, value: a.value ?? '' }))),
        'json',
      ),
    );
  if (o.cancelReason) own.push(ownField('cancel_reason', o.cancelReason, 'single_line_text_field'));
  if (o.test) own.push(ownField('test', 'true', 'boolean'));
  if (o.customerAcceptsMarketing) own.push(ownField('buyer_accepts_marketing', 'true', 'boolean'));
  const subtotal = lines.reduce((n, l) => n + l.total.amount, 0);
  const discountTotal = discounts.reduce((n, d) => n + d.amount.amount, 0);
  const financial = o.displayFinancialStatus;
  const record: Order = {
    ...orderDefaults(currency),
    id: o.id,
    number: o.name.replace(/^#/, '') || o.id,
    createdAt: canonicalTime(o.processedAt),
    updatedAt: canonicalTime(o.updatedAt),
    currency,
    customerId: o.customer?.id ?? null,
    email: text(o.email),
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
      code: text(s.code),
      price: money(amount(s.originalPriceSet)),
      tax: money(taxOf(s.taxLines)),
    })),
    discounts,
    fees,
    refunds,
    subtotal: money(subtotal),
    taxTotal: money(amount(o.totalTaxSet)),
    shippingTotal: money(amount(o.totalShippingPriceSet)),
    discountTotal: money(discountTotal),
    feeTotal: money(fees.reduce((n, f) => n + f.amount.amount, 0)),
    refundTotal: money(amount(o.totalRefundedSet)),
    grandTotal: money(amount(o.totalPriceSet)),
    billingAddress: o.billingAddress ? addressToCanonical(o.billingAddress) : null,
    shippingAddress: o.shippingAddress ? addressToCanonical(o.shippingAddress) : null,
    note: text(o.note),
    notes: notes.data ?? [],
    paymentMethod: text(payment?.gateway),
    paymentMethodTitle: text(payment?.formattedGateway),
    transactionId: text(payment?.paymentId),
    paidAt: paid?.processedAt ? canonicalTime(paid.processedAt) : null,
    // Shopify closes an order when it is cancelled: that closing is not a completion.
    completedAt: o.closedAt && o.closedAt !== o.cancelledAt ? canonicalTime(o.closedAt) : null,
    pricesIncludeTax: o.taxesIncluded,
    customerIpAddress: text(o.clientIp),
    createdVia: text(o.sourceName),
    metafields: [...split.metafields, ...own],
    ...(kept.success ? kept.data : {}),
  };
  return { record, losses };
}

/**
 * A Shopify code discount as a coupon. An amount off discount takes a share (percent) or an amount
 * off the order, or off each item (fixed_product); a free shipping discount is a free-shipping-only
 * coupon. Its title is the description, unless it is the code itself (Shopify's admin names a
 * discount by its code). A discount that combines with no other discount is for individual use.
 * Buy X get Y and app discounts, and discounts limited to single variants, have no coupon form:
 * they are rejected with the reason.
 */
export function couponToCanonical(node: ShopifyCoupon, currency: string): Mapped<Coupon> {
  const d = node.discount;
  if (d.__typename !== 'DiscountCodeBasic' && d.__typename !== 'DiscountCodeFreeShipping')
    return {
      rejected: `A ${d.__typename === 'DiscountCodeBxgy' ? "'buy X get Y'" : d.__typename === 'DiscountCodeApp' ? 'app-provided' : 'automatic'} discount has no coupon form on other platforms: recreate it at the destination.`,
    };
  const code = d.codes.nodes[0]?.code;
  if (!code) return { rejected: 'The discount has no code.' };
  const losses: Loss[] = [];
  if ((d.codesCount?.count ?? 1) > 1)
    losses.push({
      field: 'discount.codesCount',
      reason: `The discount has ${d.codesCount?.count} codes; a coupon has one: only ${code} was read.`,
    });
  const money = (m: { amount: string; currencyCode: string }) => ({
    amount: toMinor(m.amount, m.currencyCode),
    currency: m.currencyCode,
  });
  let discount: Pick<Coupon, 'discountType' | 'percentOff' | 'amountOff' | 'freeShipping'>;
  let productIds: string[] = [];
  let categoryIds: string[] = [];
  if (d.__typename === 'DiscountCodeFreeShipping') {
    discount = {
      discountType: 'fixed_cart',
      percentOff: null,
      amountOff: { amount: 0, currency },
      freeShipping: true,
    };
  } else {
    const { value, items } = d.customerGets;
    if ((items.productVariants?.nodes.length ?? 0) > 0)
      return {
        rejected:
          'The discount is limited to single variants of products; coupons are limited to whole products, so it would apply to more: recreate it at the destination.',
      };
    productIds = items.products?.nodes.map((p) => p.id) ?? [];
    categoryIds = items.collections?.nodes.map((c) => c.id) ?? [];
    if (value.percentage !== undefined)
      discount = {
        discountType: 'percent',
        // Shopify keeps a share (0.1); the model a percentage (10), without float noise.
        percentOff: Math.round(value.percentage * 1e6) / 1e4,
        amountOff: null,
        freeShipping: false,
      };
    else if (value.amount)
      discount = {
        discountType: value.appliesOnEachItem ? 'fixed_product' : 'fixed_cart',
        percentOff: null,
        amountOff: money(value.amount),
        freeShipping: false,
      };
    else
      return {
        rejected: `The discount's value (${value.__typename}) has no coupon form: recreate it at the destination.`,
      };
  }
  // A minimum quantity, customer segments and markets are declared notCarried (native-fields.ts).
  const minimum = d.minimumRequirement;
  const allowedEmails = (d.context.customers ?? []).flatMap((c) => {
    const email = c.defaultEmailAddress?.emailAddress;
    return email ? [email] : [];
  });
  const split = splitMetafields(node.metafields.nodes, []);
  const own: Metafield[] = [];
  if (d.tags.length) own.push(ownField('tags', JSON.stringify(d.tags), 'json'));
  const combines = d.combinesWith;
  return {
    record: {
      ...couponDefaults(),
      id: node.id,
      code,
      description: d.title === code ? '' : d.title,
      ...discount,
      startsAt: canonicalTime(d.startsAt),
      expiresAt: d.endsAt ? canonicalTime(d.endsAt) : null,
      minimumSpend: minimum?.greaterThanOrEqualToSubtotal
        ? money(minimum.greaterThanOrEqualToSubtotal)
        : null,
      usageLimit: d.usageLimit,
      usageLimitPerCustomer: d.appliesOncePerCustomer ? 1 : null,
      usageCount: d.asyncUsageCount,
      individualUse:
        !combines.orderDiscounts && !combines.productDiscounts && !combines.shippingDiscounts,
      productIds,
      categoryIds,
      allowedEmails,
      metafields: [...split.metafields, ...own],
      createdAt: canonicalTime(d.createdAt),
    },
    losses,
  };
}

/**
 * An entry of a product's reviews list (reviews.ts) as a review. Its id is the product's number
 * and the entry's key ('1234:r0a1b2c3d4e5f'), which stay the same however the list is rewritten;
 * its product is the product that holds the list.
 */
export function reviewToCanonical(productId: string, entry: ReviewEntry): Review {
  return {
    id: `${gidNumber(productId)}:${entry.key}`,
    productId,
    reviewerName: entry.reviewer_name,
    reviewerEmail: entry.reviewer_email ?? '',
    rating: entry.rating,
    title: entry.title ?? '',
    body: entry.body_html,
    status: entry.status,
    verified: entry.verified ?? false,
    createdAt: canonicalTime(entry.created_at),
  };
}

/**
 * The storefront page a Shopify store shows for a vendor: the vendor collection, which lists the
 * products of that vendor (what Liquid's url_for_vendor links to), the name URL-encoded.
 */
export function vendorUrlPath(vendor: string): string {
  return `/collections/vendors?q=${encodeURIComponent(vendor)}`;
}

/**
 * A vendor the shop's products name, as a brand: Shopify has no brand records, so the vendor is
 * the brand's id and name, and every other field is the model's neutral value (Shopify has no
 * description, logo, SEO or custom fields for a vendor to carry). Its page is the vendor
 * collection.
 */
export function vendorToBrand(vendor: string): Brand {
  return { ...brandDefaults(), id: vendor, name: vendor, sourceUrlPath: vendorUrlPath(vendor) };
}
