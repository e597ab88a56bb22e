import type { Address } from '@replatform/canonical/address';
import type { Category } from '@replatform/canonical/category';
import type { Customer } from '@replatform/canonical/customer';
import { fromMinor } from '@replatform/canonical/money';
import type { Order } from '@replatform/canonical/order';
import type { Product } from '@replatform/canonical/product';
import { MARKER_KEY, MARKER_NAMESPACE } from './documents.ts';

/**
 * Canonical -> Shopify inputs (ProductSetInput, CollectionCreateInput, CustomerInput,
 * OrderCreateOrderInput of the 2026-10 schema). Each builder answers the input, or a reason the
 * record cannot go to Shopify, plus warnings for what Shopify cannot hold.
 */

/** productSet's default variant limit (its 2026-10 description; limits.json). */
export const MAX_VARIANTS = 2048;
/** Shopify products have at most three options. */
export const MAX_OPTIONS = 3;

export type Built<T> = { input: T; warnings: string[] } | { failure: string };

export function markerMetafield(sourceId: string) {
  return {
    namespace: MARKER_NAMESPACE,
    key: MARKER_KEY,
    type: 'single_line_text_field',
    value: sourceId,
  };
}

const weightUnits = { g: 'GRAMS', kg: 'KILOGRAMS', oz: 'OUNCES', lb: 'POUNDS' } as const;
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** True for an ISO 3166-1 alpha-2 code (Shopify's CountryCode enum refuses anything else). */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && regionNames.of(code) !== undefined;
}

export function mailingAddress(a: Address): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (key: string, value: string) => {
    if (value.trim() !== '') out[key] = value.trim();
  };
  put('firstName', a.firstName);
  put('lastName', a.lastName);
  put('company', a.company);
  put('address1', a.address1);
  put('address2', a.address2);
  put('city', a.city);
  put('provinceCode', a.province);
  put('zip', a.postalCode);
  put('phone', a.phone);
  if (isCountryCode(a.countryCode)) out.countryCode = a.countryCode;
  return out;
}

/** A storefront path ('/shoes/red?x=1' or a full URL) as Shopify's redirect `path` wants it. */
export function redirectPath(sourceUrlPath: string | null): string | null {
  if (!sourceUrlPath) return null;
  try {
    const url = new URL(sourceUrlPath, 'https://example.invalid');
    return url.pathname + url.search;
  } catch {
    return null;
  }
}

/** Attribute name -> metafield namespace and key (keys: 2-64 of [a-z0-9_-]). */
export function attributeMetafield(name: string): { namespace: string; key: string } {
  const dot = name.indexOf('.');
  const namespace =
    dot > 2 && /^[a-z0-9_-]+$/i.test(name.slice(0, dot)) ? name.slice(0, dot) : 'custom';
  const raw = namespace === 'custom' && dot <= 2 ? name : name.slice(dot + 1);
  let key = raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  if (key.length < 2) key = `attr_${key}`.slice(0, 64);
  return { namespace, key };
}

export interface ProductContext {
  locationId: string;
  collectionIds: (sourceCategoryId: string) => string | undefined;
}

export function productSetInput(p: Product, ctx: ProductContext): Built<Record<string, unknown>> {
  const warnings: string[] = [];
  if (p.options.length > MAX_OPTIONS)
    return {
      failure: `The product has ${p.options.length} options; Shopify allows at most ${MAX_OPTIONS}.`,
    };
  if (p.variants.length > MAX_VARIANTS)
    return {
      failure: `The product has ${p.variants.length} variants; Shopify allows at most ${MAX_VARIANTS} per product.`,
    };
  const simple = p.options.length === 0;
  if (simple && p.variants.length !== 1)
    return {
      failure: `The product has no options but ${p.variants.length} variants; Shopify needs options to tell variants apart.`,
    };
  const combos = new Set<string>();
  for (const v of p.variants) {
    if (simple) break;
    for (const o of p.options) {
      const value = v.optionValues.find((x) => x.name === o.name)?.value;
      if (!value || !o.values.includes(value))
        return { failure: `Variant ${v.sku || v.id} has no valid value for option '${o.name}'.` };
    }
    const combo = p.options
      .map((o) => v.optionValues.find((x) => x.name === o.name)?.value)
      .join(' / ');
    if (combos.has(combo))
      return {
        failure: `Two variants have the same options (${combo}); Shopify needs each combination once.`,
      };
    combos.add(combo);
  }
  if (p.dimensions)
    warnings.push('Shopify has no product dimensions; the dimensions were not migrated.');
  if (p.shortDescriptionHtml.trim())
    warnings.push('Shopify has no short description; it was not migrated.');
  if (!simple && p.sku)
    warnings.push(
      `Shopify has no product-level SKU; '${p.sku}' was not migrated (variant SKUs were).`,
    );

  const currency = p.variants[0]?.price.currency ?? 'USD';
  const images = [...p.images].sort((a, b) => a.position - b.position);
  const files: Record<string, unknown>[] = images.map((i) => ({
    originalSource: i.url,
    alt: i.alt,
    contentType: 'IMAGE',
  }));
  for (const v of p.variants) {
    if (v.imageUrl && !files.some((f) => f.originalSource === v.imageUrl))
      files.push({ originalSource: v.imageUrl, alt: p.name, contentType: 'IMAGE' });
  }

  const variants = p.variants.map((v) => {
    if (v.price.currency !== currency)
      warnings.push(`Variant ${v.sku || v.id} is priced in ${v.price.currency}, not ${currency}.`);
    const inventoryItem: Record<string, unknown> = { tracked: v.inventory.tracked };
    if (v.weight)
      inventoryItem.measurement = {
        weight: { unit: weightUnits[v.weight.unit], value: v.weight.value },
      };
    return {
      optionValues: simple
        ? [{ optionName: 'Title', name: 'Default Title' }]
        : p.options.map((o) => ({
            optionName: o.name,
            name: v.optionValues.find((x) => x.name === o.name)?.value ?? '',
          })),
      price: fromMinor(v.price.amount, v.price.currency),
      compareAtPrice: v.compareAtPrice
        ? fromMinor(v.compareAtPrice.amount, v.compareAtPrice.currency)
        : null,
      sku: v.sku || null,
      barcode: v.barcode || null,
      inventoryPolicy: 'DENY',
      inventoryItem,
      ...(v.inventory.tracked
        ? {
            inventoryQuantities: [
              { locationId: ctx.locationId, name: 'available', quantity: v.inventory.quantity },
            ],
          }
        : {}),
      ...(v.imageUrl ? { file: { originalSource: v.imageUrl, contentType: 'IMAGE' } } : {}),
    };
  });

  const metafields: Record<string, string>[] = [markerMetafield(p.id)];
  let productType = '';
  for (const [name, value] of Object.entries(p.attributes)) {
    if (name === 'product_type') {
      productType = value;
      continue;
    }
    const { namespace, key } = attributeMetafield(name);
    if (namespace === MARKER_NAMESPACE) continue;
    if ((namespace === 'custom' ? key : `${namespace}.${key}`) !== name)
      warnings.push(`Attribute '${name}' was stored as metafield ${namespace}.${key}.`);
    if (metafields.some((m) => m.namespace === namespace && m.key === key)) {
      warnings.push(
        `Attribute '${name}' clashes with another attribute after renaming; it was not migrated.`,
      );
      continue;
    }
    metafields.push({
      namespace,
      key,
      type: /[\r\n]/.test(value) ? 'multi_line_text_field' : 'single_line_text_field',
      value,
    });
  }

  const collections: string[] = [];
  for (const categoryId of p.categoryIds) {
    const id = ctx.collectionIds(categoryId);
    if (id) collections.push(id);
    else
      warnings.push(
        `Category ${categoryId} is not at the destination; the product was not added to it.`,
      );
  }

  const input: Record<string, unknown> = {
    title: p.name,
    descriptionHtml: p.descriptionHtml,
    status: p.status === 'draft' ? 'DRAFT' : p.status === 'archived' ? 'ARCHIVED' : 'ACTIVE',
    vendor: p.vendor,
    productType,
    tags: p.tags,
    seo: { title: p.seoTitle || null, description: p.seoDescription || null },
    productOptions: simple
      ? [{ name: 'Title', values: [{ name: 'Default Title' }] }]
      : p.options.map((o) => ({ name: o.name, values: o.values.map((name) => ({ name })) })),
    variants,
    files,
    metafields,
    collections,
  };
  if (p.slug) input.handle = p.slug;
  return { input, warnings };
}

export function collectionCreateInput(c: Category): Built<Record<string, unknown>> {
  const warnings: string[] = [];
  if (c.parentId) warnings.push('Shopify collections are flat; the parent category was not kept.');
  const input: Record<string, unknown> = {
    title: c.name,
    descriptionHtml: c.description,
    metafields: [markerMetafield(c.id)],
  };
  if (c.slug) input.handle = c.slug;
  if (c.imageUrl) input.image = { src: c.imageUrl, altText: c.name };
  return { input, warnings };
}

/** The index of the address Shopify should keep as the default (shipping first). */
export function defaultAddressIndex(c: Customer): number {
  const shipping = c.addresses.findIndex((a) => a.isDefaultShipping);
  if (shipping !== -1) return shipping;
  return Math.max(
    0,
    c.addresses.findIndex((a) => a.isDefaultBilling),
  );
}

export const PASSWORD_WARNING =
  'Passwords cannot be migrated to Shopify: the customer must set a new password (for example through an account invitation).';

export function customerInput(
  c: Customer,
  options: { withPhone: boolean },
): Built<Record<string, unknown>> {
  const warnings = [PASSWORD_WARNING];
  const billingOnly = c.addresses.some(
    (a, i) => a.isDefaultBilling && i !== defaultAddressIndex(c),
  );
  if (billingOnly)
    warnings.push(
      'Shopify keeps one default address; the default shipping address was kept as default.',
    );
  const input: Record<string, unknown> = {
    email: c.email,
    firstName: c.firstName || null,
    lastName: c.lastName || null,
    note: c.note || null,
    tags: c.tags,
    emailMarketingConsent: {
      marketingState: c.acceptsMarketing ? 'SUBSCRIBED' : 'NOT_SUBSCRIBED',
      marketingOptInLevel: 'SINGLE_OPT_IN',
    },
    // The deprecated `addresses` input creates the customer and its addresses in one mutation,
    // so a crash cannot leave a customer without addresses (customerAddressCreate would need one
    // call per address).
    addresses: c.addresses.map((a) => mailingAddress(a)),
    metafields: [markerMetafield(c.id)],
  };
  if (options.withPhone && c.phone) input.phone = c.phone;
  return { input, warnings };
}

/** Financial status written by orderCreate (the reverse of to-canonical's mapping). */
export function financialStatusOf(o: Order): string {
  if (o.status === 'refunded') return 'REFUNDED';
  if (o.status === 'failed' && (o.paymentStatus === 'pending' || o.paymentStatus === 'authorized'))
    return 'VOIDED';
  const map: Record<Order['paymentStatus'], string> = {
    pending: 'PENDING',
    authorized: 'AUTHORIZED',
    paid: 'PAID',
    partially_paid: 'PARTIALLY_PAID',
    partially_refunded: 'PARTIALLY_REFUNDED',
    refunded: 'REFUNDED',
    voided: 'VOIDED',
  };
  return map[o.paymentStatus];
}

export function fulfillmentStatusOf(o: Order): string | undefined {
  if (o.status === 'completed' || o.fulfillmentStatus === 'fulfilled') return 'FULFILLED';
  if (o.fulfillmentStatus === 'partial') return 'PARTIAL';
  return undefined;
}

export interface OrderContext {
  customerId: string | undefined;
  line: (index: number) => { productId?: string; variantId?: string };
}

function moneyBag(amount: number, currency: string) {
  return { shopMoney: { amount: fromMinor(amount, currency), currencyCode: currency } };
}

function taxLines(tax: number, base: number, currency: string) {
  if (tax === 0) return [];
  const rate = base > 0 ? Math.round((tax / base) * 10_000) / 10_000 : 0;
  return [{ title: 'Tax', rate: String(rate), priceSet: moneyBag(tax, currency) }];
}

/**
 * orderCreate input. Imported orders never notify the customer or touch stock: those options are
 * set by the writer (sendReceipt false, sendFulfillmentReceipt false, inventoryBehaviour BYPASS).
 */
export function orderCreateInput(o: Order, ctx: OrderContext): Built<Record<string, unknown>> {
  const warnings: string[] = [];
  const currency = o.currency;
  const lineDiscounts = o.lines.reduce(
    (n, l) => n + (l.unitPrice.amount * l.quantity - l.total.amount),
    0,
  );
  const discountAmount =
    o.discounts.reduce((n, d) => n + d.amount.amount, 0) + Math.max(0, lineDiscounts);
  if (o.discounts.length > 1)
    warnings.push(
      `Shopify orders take one discount code; ${o.discounts.map((d) => d.code).join(', ')} were combined into one.`,
    );
  if (lineDiscounts > 0)
    warnings.push(
      'Line discounts were added to the order discount (orderCreate has no per-line discounts).',
    );
  const lineItems = o.lines.map((l, i) => {
    const link = ctx.line(i);
    return {
      title: l.name,
      quantity: l.quantity,
      sku: l.sku || null,
      priceSet: moneyBag(l.unitPrice.amount, currency),
      taxLines: taxLines(l.tax.amount, l.total.amount, currency),
      ...(link.variantId
        ? { variantId: link.variantId }
        : link.productId
          ? { productId: link.productId }
          : {}),
    };
  });
  const input: Record<string, unknown> = {
    name: `#${o.number}`,
    currency,
    processedAt: o.createdAt,
    email: o.email || null,
    note: o.note || null,
    financialStatus: financialStatusOf(o),
    lineItems,
    shippingLines: o.shippingLines.map((s) => ({
      title: s.title || 'Shipping',
      code: s.code || null,
      priceSet: moneyBag(s.price.amount, currency),
      taxLines: taxLines(s.tax.amount, s.price.amount, currency),
    })),
    metafields: [markerMetafield(o.id)],
  };
  const fulfillment = fulfillmentStatusOf(o);
  if (fulfillment) input.fulfillmentStatus = fulfillment;
  if (ctx.customerId) input.customer = { toAssociate: { id: ctx.customerId } };
  else if (o.customerId)
    warnings.push(
      'The customer is not at the destination; the order was imported as a guest order.',
    );
  if (o.billingAddress) input.billingAddress = mailingAddress(o.billingAddress);
  if (o.shippingAddress) input.shippingAddress = mailingAddress(o.shippingAddress);
  if (discountAmount > 0)
    input.discountCode = {
      itemFixedDiscountCode: {
        code:
          o.discounts
            .map((d) => d.code)
            .filter(Boolean)
            .join(' + ') || 'DISCOUNT',
        amountSet: moneyBag(discountAmount, currency),
      },
    };
  return { input, warnings };
}
