import type { Address } from '@replatform/canonical/address';
import type { Category } from '@replatform/canonical/category';
import type { Customer } from '@replatform/canonical/customer';
import { fromMinor } from '@replatform/canonical/money';
import type { Order } from '@replatform/canonical/order';
import type { Product } from '@replatform/canonical/product';
import { MARKER_KEY, MARKER_NAMESPACE, variantsBulkCost } from './documents.ts';

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
  if (p.createdAt)
    warnings.push(
      `Shopify sets a product's creation date itself; the source date ${p.createdAt} was not kept.`,
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

/** Shopify's single-query maximum cost (limits.json shopify.rate_limit.single_query_max_cost). */
export const MAX_QUERY_COST = 1000;
/** Input arrays hold at most 250 items (shopify.dev/docs/api/usage/limits), bar productSet variants. */
export const MAX_INPUT_ARRAY = 250;
/** A product holds at most 250 media (PRODUCT_MEDIA_LIMIT_EXCEEDED), and one productSet as many files. */
export const MAX_PRODUCT_MEDIA = 250;
/** metafieldsSet takes at most 25 metafields a call (limits.json shopify.other). */
export const METAFIELDS_SET_MAX = 25;

type Input = Record<string, unknown>;

export interface ProductWritePlan {
  /** The productSet input: all files and as much of the rest as one call may carry. */
  input: Input;
  /** The files of `input`, in order: the product's media come back in this order. */
  files: { originalSource: string; alt: string }[];
  /** Variants left to productVariantsBulkCreate, as productSet variant inputs. */
  laterVariants: Input[];
  /** Product metafields left to metafieldsSet. */
  laterMetafields: Input[];
  warnings: string[];
}

const fileSourceOf = (variant: Input): string | undefined =>
  (variant.file as { originalSource?: string } | undefined)?.originalSource;

/**
 * Splits a productSet input that Shopify would refuse whole: more than 250 files (kept: the first
 * 250, the rest reported), more than 250 metafields (the rest set afterwards with metafieldsSet),
 * or a cost over the 1,000-point single-query maximum (variants beyond what fits are created
 * afterwards with productVariantsBulkCreate, whose own cost stays under it too).
 */
export function planProductWrite(input: Input): ProductWritePlan {
  const warnings: string[] = [];
  let files = (input.files as { originalSource: string; alt: string }[] | undefined) ?? [];
  let variants = (input.variants as Input[] | undefined) ?? [];
  const metafields = (input.metafields as Input[] | undefined) ?? [];
  if (files.length > MAX_PRODUCT_MEDIA) {
    const dropped = files.slice(MAX_PRODUCT_MEDIA);
    files = files.slice(0, MAX_PRODUCT_MEDIA);
    const kept = new Set(files.map((f) => f.originalSource));
    const unlinked = variants.filter((v) => {
      const source = fileSourceOf(v);
      return source !== undefined && !kept.has(source);
    }).length;
    variants = variants.map((v) => {
      const source = fileSourceOf(v);
      if (source === undefined || kept.has(source)) return v;
      const { file: _file, ...rest } = v;
      return rest;
    });
    warnings.push(
      `The product has ${files.length + dropped.length} images; Shopify keeps at most ${MAX_PRODUCT_MEDIA} per product, so the last ${dropped.length} were not migrated${unlinked === 1 ? ' (1 variant lost its image)' : unlinked ? ` (${unlinked} variants lost their image)` : ''}.`,
    );
  }
  const firstMetafields = metafields.slice(0, MAX_INPUT_ARRAY);
  const laterMetafields = metafields.slice(MAX_INPUT_ARRAY);
  const base: Input = { ...input, files, metafields: firstMetafields };
  // As many variants as keep the call within the maximum cost; the rest follow in bulk.
  // productSet's dynamic cost, as productSetCost() counts it, one variant at a time.
  const fixed = 10 + firstMetafields.length * 0.4 + files.length * 1.9;
  let count = 0;
  let withFile = 0;
  for (const v of variants) {
    const file = fileSourceOf(v) === undefined ? 0 : 1;
    const cost = Math.ceil(fixed + (count + 1) * 0.2 + (withFile + file) * 0.6 - 1e-9);
    if (count > 0 && cost > MAX_QUERY_COST) break;
    count += 1;
    withFile += file;
  }
  const first = variants.slice(0, count);
  const laterVariants = variants.slice(count);
  const options =
    (input.productOptions as { name: string; values: { name: string }[] }[] | undefined) ?? [];
  const used = (option: string, value: string) =>
    first.some((v) =>
      ((v.optionValues as { optionName: string; name: string }[] | undefined) ?? []).some(
        (o) => o.optionName === option && o.name === value,
      ),
    );
  return {
    input: {
      ...base,
      variants: first,
      // Values of variants still to come are added by productVariantsBulkCreate.
      productOptions: laterVariants.length
        ? options.map((o) => ({ ...o, values: o.values.filter((v) => used(o.name, v.name)) }))
        : options,
    },
    files,
    laterVariants,
    laterMetafields,
    warnings,
  };
}

/** A productSet variant input as productVariantsBulkCreate takes it, its image given by media id. */
export function bulkVariantInput(variant: Input, mediaId: string | undefined): Input {
  const {
    sku,
    file: _file,
    inventoryQuantities,
    inventoryItem,
    ...rest
  } = variant as Input & {
    inventoryQuantities?: { locationId: string; quantity: number }[];
    inventoryItem?: Input;
  };
  return {
    ...rest,
    inventoryItem: { ...(inventoryItem ?? {}), ...(sku ? { sku } : {}) },
    ...(inventoryQuantities
      ? {
          inventoryQuantities: inventoryQuantities.map((q) => ({
            locationId: q.locationId,
            availableQuantity: q.quantity,
          })),
        }
      : {}),
    ...(mediaId ? { mediaId } : {}),
  };
}

/** Variants of a product's later variants in calls whose cost stays within the maximum. */
export function variantCalls(variants: readonly Input[]): Input[][] {
  const calls: Input[][] = [];
  let current: Input[] = [];
  for (const v of variants) {
    if (
      current.length > 0 &&
      (current.length >= MAX_INPUT_ARRAY ||
        variantsBulkCost({ variants: [...current, v] }) > MAX_QUERY_COST)
    ) {
      calls.push(current);
      current = [];
    }
    current.push(v);
  }
  if (current.length) calls.push(current);
  return calls;
}

/** The option combination of a variant input ('S / Red'), in the product's option order. */
export function variantCombo(variant: Input, optionNames: readonly string[]): string {
  const values = (variant.optionValues as { optionName: string; name: string }[] | undefined) ?? [];
  return optionNames.map((n) => values.find((v) => v.optionName === n)?.name ?? '').join(' / ');
}

export function collectionCreateInput(c: Category): Built<Record<string, unknown>> {
  const warnings: string[] = [];
  if (c.parentId) warnings.push('Shopify collections are flat; the parent category was not kept.');
  if (c.position !== 0)
    warnings.push(
      `Shopify collections have no position among their siblings; position ${c.position} was not kept.`,
    );
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

/**
 * Country calling codes, and whether national numbers start with a trunk prefix 0 that the
 * international form drops.
 */
const callingCodes: Record<string, { code: string; trunk: boolean }> = {
  US: { code: '1', trunk: false },
  CA: { code: '1', trunk: false },
  GB: { code: '44', trunk: true },
  IE: { code: '353', trunk: true },
  DE: { code: '49', trunk: true },
  AT: { code: '43', trunk: true },
  CH: { code: '41', trunk: true },
  FR: { code: '33', trunk: true },
  BE: { code: '32', trunk: true },
  NL: { code: '31', trunk: true },
  LU: { code: '352', trunk: false },
  IT: { code: '39', trunk: false },
  ES: { code: '34', trunk: false },
  PT: { code: '351', trunk: false },
  SE: { code: '46', trunk: true },
  NO: { code: '47', trunk: false },
  DK: { code: '45', trunk: false },
  FI: { code: '358', trunk: true },
  PL: { code: '48', trunk: false },
  CZ: { code: '420', trunk: false },
  AU: { code: '61', trunk: true },
  NZ: { code: '64', trunk: true },
  JP: { code: '81', trunk: true },
  IN: { code: '91', trunk: true },
  SG: { code: '65', trunk: false },
  MX: { code: '52', trunk: false },
  BR: { code: '55', trunk: true },
  ZA: { code: '27', trunk: true },
};

export type PhoneCheck =
  | { e164: string }
  /** It cannot be a phone number at all (letters, too few or too many digits). */
  | { invalid: string }
  /** A national number of a country whose dialling rules are not known here: Shopify decides. */
  | { unknown: true };

/**
 * A customer phone number in E.164, the only form Shopify stores ('+14155550123'). Numbers with a
 * country code ('+44 20 7946 0958', '0044 …') are taken as they are; national ones are read in the
 * country of the customer's address.
 */
export function e164Phone(raw: string, country: string | undefined): PhoneCheck {
  const compact = raw.trim().replace(/[\s()./-]/g, '');
  if (!/^\+?\d+$/.test(compact)) return { invalid: 'it is not a phone number' };
  let international: string;
  if (compact.startsWith('+')) international = compact;
  else if (compact.startsWith('00')) international = `+${compact.slice(2)}`;
  else {
    const region = country ? callingCodes[country] : undefined;
    if (!region)
      return compact.length < 7 ? { invalid: 'it has too few digits' } : { unknown: true };
    let national = compact;
    if (region.code === '1' && national.length === 11 && national.startsWith('1'))
      national = national.slice(1);
    else if (region.trunk && national.startsWith('0')) national = national.slice(1);
    if (region.code === '1' && national.length !== 10)
      return { invalid: 'a North American number has 10 digits' };
    if (national.length < 6) return { invalid: 'it has too few digits' };
    international = `+${region.code}${national}`;
  }
  if (!/^\+[1-9]\d{7,14}$/.test(international))
    return { invalid: 'it has too few or too many digits' };
  return { e164: international };
}

export function customerInput(
  c: Customer,
  options: { withPhone: boolean },
): Built<Record<string, unknown>> {
  const warnings = [PASSWORD_WARNING];
  warnings.push(
    `Shopify sets a customer's account date itself; the source date ${c.createdAt} was not kept.`,
  );
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
  if (options.withPhone && c.phone.trim()) {
    const address = c.addresses[defaultAddressIndex(c)] ?? c.addresses[0];
    const country = address && isCountryCode(address.countryCode) ? address.countryCode : undefined;
    const phone = e164Phone(c.phone, country);
    if ('e164' in phone) input.phone = phone.e164;
    else if ('unknown' in phone) input.phone = c.phone.trim();
    else
      warnings.push(
        `The phone number '${c.phone}' was not migrated: Shopify keeps phone numbers in international (E.164) form and ${phone.invalid}.`,
      );
  }
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
