import type { Address } from '@replatform/canonical/address';
import type { Category } from '@replatform/canonical/category';
import type { Customer, CustomerAddress } from '@replatform/canonical/customer';
import { customerSchema } from '@replatform/canonical/customer';
import { money, toMinor, type Money } from '@replatform/canonical/money';
import type { Order } from '@replatform/canonical/order';
import type { Dimensions, Product, Variant } from '@replatform/canonical/product';
import { markers, metaValue } from './markers.ts';
import type {
  WcAddress,
  WcCustomer,
  WcOrder,
  WcProduct,
  WcTerm,
  WcVariation,
} from './wc-schemas.ts';

/**
 * WooCommerce -> canonical. Amounts become minor units, dates UTC ISO-8601 (WooCommerce's `_gmt`
 * fields carry no zone), term names lose WordPress's HTML escaping. Order status mapping
 * (WooCommerce -> canonical status / payment / fulfilment):
 *
 *   pending          -> pending    / pending (paid if a payment date is set)
 *   processing       -> processing / paid
 *   on-hold          -> on-hold    / pending (awaiting e.g. a bank transfer)
 *   completed        -> completed  / paid, fulfilled
 *   cancelled        -> cancelled  / voided (paid if it had been paid)
 *   refunded         -> refunded   / refunded
 *   failed           -> failed     / pending
 *   checkout-draft, auto-draft -> pending; trash -> cancelled; any other (plugin) status ->
 *   processing when paid, else pending.
 *   Refunds on an order that is not fully refunded make the payment partially_refunded.
 *   Fulfilled: completed, or refunded/cancelled after having been completed (date_completed);
 *   WooCommerce core has no partial fulfilment.
 */

export interface StoreUnits {
  weight: string;
  dimension: string;
}

export interface ReadContext {
  currency: string;
  units: StoreUnits;
  /** The store's "Uncategorized" category: WooCommerce's placeholder, not migrated. */
  defaultCategoryId: number | null;
}

const entities: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  ndash: '–',
  mdash: '—',
  hellip: '…',
};

/** Undoes esc_html(): term names come back as 'Hoodies &amp; Sweatshirts'. */
export function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code.startsWith('#x') || code.startsWith('#X'))
      return String.fromCodePoint(Number.parseInt(code.slice(2), 16));
    if (code.startsWith('#')) return String.fromCodePoint(Number(code.slice(1)));
    return entities[code.toLowerCase()] ?? whole;
  });
}

/** WooCommerce `_gmt` dates ('2024-05-01T10:00:00') as UTC ISO-8601. */
export function gmtToIso(value: string | null | undefined): string | null {
  if (!value) return null;
  const zoned = /([zZ]|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`;
  const ms = Date.parse(zoned);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

export const weightUnitToCanonical: Record<string, 'g' | 'kg' | 'lb' | 'oz'> = {
  g: 'g',
  kg: 'kg',
  lbs: 'lb',
  oz: 'oz',
};
export const dimensionUnitToCanonical: Record<string, 'cm' | 'm' | 'mm' | 'in' | 'yd'> = {
  cm: 'cm',
  m: 'm',
  mm: 'mm',
  in: 'in',
  yd: 'yd',
};

const amount = (value: string, currency: string): Money => {
  const trimmed = value.trim();
  return money(trimmed === '' ? 0 : toMinor(trimmed, currency), currency);
};
const number = (value: string) => (value.trim() === '' ? 0 : Number(value));
const sameName = (a: string, b: string) =>
  a
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-') ===
  b
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-');

function weightOf(value: string, units: StoreUnits): Variant['weight'] {
  const unit = weightUnitToCanonical[units.weight];
  if (value.trim() === '' || !unit || !Number.isFinite(Number(value))) return null;
  return { value: Math.max(0, Number(value)), unit };
}

function inventoryOf(
  manage: boolean | string,
  quantity: number | null | undefined,
  parentQuantity?: number | null,
) {
  if (manage === true) return { tracked: true, quantity: quantity ?? 0 };
  if (manage === 'parent') return { tracked: true, quantity: quantity ?? parentQuantity ?? 0 };
  return { tracked: false, quantity: 0 };
}

type WcDimensions = WcProduct['dimensions'];

/**
 * A variation's dimensions when it has its own: WooCommerce leaves a variation's dimensions empty
 * to use its product's (and some stores answer with the product's values filled in), so only
 * values that are set and differ from the product's are the variant's own.
 */
function variantDimensions(
  own: WcDimensions,
  product: WcDimensions,
  units: StoreUnits,
): Dimensions | undefined {
  const unit = dimensionUnitToCanonical[units.dimension];
  const set = [own.length, own.width, own.height].some((x) => x.trim() !== '');
  if (!unit || !set) return undefined;
  const pick = (mine: string, parent: string) => Math.max(0, number(mine.trim() || parent));
  const dims = {
    length: pick(own.length, product.length),
    width: pick(own.width, product.width),
    height: pick(own.height, product.height),
    unit,
  };
  const parent = {
    length: Math.max(0, number(product.length)),
    width: Math.max(0, number(product.width)),
    height: Math.max(0, number(product.height)),
  };
  const same =
    dims.length === parent.length && dims.width === parent.width && dims.height === parent.height;
  return same ? undefined : dims;
}

/**
 * What a store shows for a stored category description. WordPress strips `<p>` and `<br>` from
 * term descriptions when saving them and puts paragraphs back when showing them (wpautop on
 * term_description): a blank line starts a paragraph, a single line break is a `<br>`. That
 * displayed form is the description; one that already carries block markup (stored by a plugin
 * that allows HTML in descriptions) is taken as it is.
 */
export function descriptionFromWc(stored: string): string {
  const text = bareAmpersands(stored.replace(/\r\n?/g, '\n').trim());
  if (text === '') return '';
  if (/<(p|div|ul|ol|h[1-6]|table|pre)[\s>]/i.test(text)) return text;
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${paragraph.trim().replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/**
 * WordPress's HTML filter escapes every lone `&` when it stores HTML ('Tea & cake' becomes
 * 'Tea &amp; cake'); both mean the same to a browser. An `&amp;` that could not start a
 * character reference is read back as the plain `&` other stores keep.
 */
export function bareAmpersands(html: string): string {
  return html.replace(/&amp;(?![A-Za-z0-9#]+;?)/g, '&');
}

/** Selling price and compare-at price from WooCommerce's price / regular price. */
function pricesOf(
  item: { price: string; regular_price: string; sale_price: string },
  currency: string,
) {
  const price =
    item.price !== '' ? item.price : item.sale_price !== '' ? item.sale_price : item.regular_price;
  const selling = amount(price, currency);
  const regular = item.regular_price === '' ? undefined : amount(item.regular_price, currency);
  return {
    price: selling,
    compareAtPrice: regular && regular.amount > selling.amount ? regular : null,
  };
}

const validUrl = (value: string | undefined | null): value is string =>
  !!value && URL.canParse(value);

export type Converted<T> = { ok: true; record: T } | { ok: false; reason: string };

export function productToCanonical(
  p: WcProduct,
  variations: WcVariation[],
  ctx: ReadContext,
): Converted<Product> {
  if (p.type === 'grouped')
    return {
      ok: false,
      reason:
        'Grouped product: it has no price of its own; its member products are migrated on their own.',
    };
  if (!['simple', 'variable', 'external'].includes(p.type))
    return { ok: false, reason: `Product type '${p.type}' has no canonical form.` };
  const currency = ctx.currency;
  const attributes: Record<string, string> = {};
  const sorted = [...p.attributes].sort((a, b) => a.position - b.position);
  const optionAttributes =
    p.type === 'variable' ? sorted.filter((a) => a.variation && a.options.length > 0) : [];
  for (const a of sorted)
    if (!optionAttributes.includes(a) && a.options.length)
      attributes[decodeEntities(a.name)] = a.options.join(', ');

  const valueOf = (v: WcVariation, name: string) =>
    v.attributes.find((a) => sameName(a.name, name))?.option ?? '';
  // An option no variation sets ("any Size" everywhere) is a plain attribute, not a variant axis.
  const options = optionAttributes.filter((a) => variations.some((v) => valueOf(v, a.name) !== ''));
  for (const a of optionAttributes)
    if (!options.includes(a)) attributes[decodeEntities(a.name)] = a.options.join(', ');

  let variants: Variant[];
  if (p.type === 'variable') {
    if (variations.length === 0)
      return { ok: false, reason: 'Variable product without any variation.' };
    variants = [];
    for (const v of [...variations].sort((a, b) => a.menu_order - b.menu_order || a.id - b.id)) {
      // A variation for "any" value of an option stands for one variant per value of it.
      let combos: { name: string; value: string }[][] = [[]];
      for (const o of options) {
        const value = valueOf(v, o.name);
        const values = value !== '' ? [value] : o.options;
        combos = combos.flatMap((c) =>
          values.map((x) => [...c, { name: decodeEntities(o.name), value: x }]),
        );
      }
      const ownDimensions = variantDimensions(v.dimensions, p.dimensions, ctx.units);
      combos.forEach((optionValues, i) => {
        variants.push({
          id: i === 0 ? String(v.id) : `${v.id}:${i}`,
          sku: i === 0 ? v.sku : '',
          optionValues,
          ...pricesOf(v, currency),
          weight: weightOf(v.weight !== '' ? v.weight : p.weight, ctx.units),
          ...(ownDimensions ? { dimensions: ownDimensions } : {}),
          ...(v.description.trim() !== ''
            ? { descriptionHtml: bareAmpersands(v.description) }
            : {}),
          inventory: inventoryOf(v.manage_stock, v.stock_quantity, p.stock_quantity),
          barcode: v.global_unique_id,
          imageUrl: validUrl(v.image?.src) ? (v.image?.src ?? null) : null,
        });
      });
    }
  } else {
    variants = [
      {
        id: String(p.id),
        sku: p.sku,
        optionValues: [],
        ...pricesOf(p, currency),
        weight: weightOf(p.weight, ctx.units),
        inventory: inventoryOf(p.manage_stock, p.stock_quantity),
        barcode: p.global_unique_id,
        imageUrl: null,
      },
    ];
  }

  const dimensionUnit = dimensionUnitToCanonical[ctx.units.dimension];
  const d = p.dimensions;
  const hasDimensions = [d.length, d.width, d.height].some((x) => x.trim() !== '');
  const published = p.status === 'publish';
  return {
    ok: true,
    record: {
      id: String(p.id),
      type: p.type === 'variable' ? 'variable' : 'simple',
      name: p.name.trim() || `Product #${p.id}`,
      slug: p.slug.toLowerCase(),
      sku: p.sku,
      descriptionHtml: bareAmpersands(p.description),
      shortDescriptionHtml: bareAmpersands(p.short_description),
      status: published ? 'active' : p.status === 'private' ? 'archived' : 'draft',
      vendor: p.brands[0] ? decodeEntities(p.brands[0].name) : '',
      options: options.map((o) => ({
        name: decodeEntities(o.name),
        values: [...new Set(o.options)],
      })),
      variants,
      images: p.images
        .filter((img) => validUrl(img.src))
        .map((img, position) => ({ url: img.src, alt: img.alt, position })),
      categoryIds: p.categories
        .filter((c) => c.id !== ctx.defaultCategoryId)
        .map((c) => String(c.id)),
      tags: [...new Set(p.tags.map((t) => decodeEntities(t.name)))],
      seoTitle: '',
      seoDescription: '',
      dimensions:
        hasDimensions && dimensionUnit
          ? {
              length: Math.max(0, number(d.length)),
              width: Math.max(0, number(d.width)),
              height: Math.max(0, number(d.height)),
              unit: dimensionUnit,
            }
          : null,
      attributes,
      sourceUrlPath: published && URL.canParse(p.permalink) ? new URL(p.permalink).pathname : null,
      createdAt: gmtToIso(p.date_created_gmt),
      updatedAt: gmtToIso(p.date_modified_gmt),
    },
  };
}

/** Categories; `all` lets the storefront path be built from the ancestors' slugs. */
export function categoryToCanonical(
  t: WcTerm,
  all: Map<number, WcTerm>,
  ctx: ReadContext,
): Category {
  const chain: string[] = [];
  const seen = new Set<number>();
  for (
    let cursor: WcTerm | undefined = t;
    cursor && !seen.has(cursor.id);
    cursor = all.get(cursor.parent)
  ) {
    seen.add(cursor.id);
    chain.unshift(cursor.slug);
  }
  const parent = t.parent && t.parent !== ctx.defaultCategoryId ? String(t.parent) : null;
  return {
    id: String(t.id),
    parentId: parent,
    name: decodeEntities(t.name).trim() || t.slug || `Category #${t.id}`,
    slug: t.slug.toLowerCase(),
    description: descriptionFromWc(t.description),
    position: Math.max(0, t.menu_order),
    imageUrl: validUrl(t.image?.src) ? (t.image?.src ?? null) : null,
    sourceUrlPath: `/product-category/${chain.join('/')}/`,
  };
}

const addressFields = [
  'company',
  'address_1',
  'address_2',
  'city',
  'state',
  'postcode',
  'country',
] as const;
export const hasAddress = (a: WcAddress) => addressFields.some((k) => a[k].trim() !== '');

export function addressToCanonical(a: WcAddress): Address {
  const country = a.country.trim().toUpperCase();
  return {
    firstName: a.first_name,
    lastName: a.last_name,
    company: a.company,
    address1: a.address_1,
    address2: a.address_2,
    city: a.city,
    province: a.state,
    postalCode: a.postcode,
    countryCode: /^[A-Z]{2}$/.test(country) ? country : '',
    phone: a.phone,
  };
}

const sameAddress = (a: Address, b: Address) =>
  (Object.keys(a) as (keyof Address)[]).every((k) => k === 'phone' || a[k] === b[k]) &&
  (b.phone === '' || a.phone === b.phone);

export function customerToCanonical(c: WcCustomer): Converted<Customer> {
  const addresses: CustomerAddress[] = [];
  const billing = hasAddress(c.billing) ? addressToCanonical(c.billing) : null;
  const shipping = hasAddress(c.shipping) ? addressToCanonical(c.shipping) : null;
  if (billing && shipping && sameAddress(billing, shipping))
    addresses.push({ ...billing, isDefaultBilling: true, isDefaultShipping: true });
  else {
    if (billing) addresses.push({ ...billing, isDefaultBilling: true, isDefaultShipping: false });
    if (shipping) addresses.push({ ...shipping, isDefaultBilling: false, isDefaultShipping: true });
  }
  const record: Customer = {
    id: String(c.id),
    email: c.email.trim().toLowerCase(),
    firstName: c.first_name,
    lastName: c.last_name,
    phone: c.billing.phone,
    acceptsMarketing: false,
    addresses,
    note: '',
    tags: [],
    createdAt: gmtToIso(c.date_created_gmt) ?? new Date(0).toISOString(),
  };
  const parsed = customerSchema.safeParse(record);
  return parsed.success
    ? { ok: true, record }
    : { ok: false, reason: `Customer ${c.id}: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
}

export function orderStatusToCanonical(status: string, paid: boolean): Order['status'] {
  switch (status) {
    case 'pending':
    case 'processing':
    case 'on-hold':
    case 'completed':
    case 'cancelled':
    case 'refunded':
    case 'failed':
      return status;
    case 'checkout-draft':
    case 'auto-draft':
      return 'pending';
    case 'trash':
      return 'cancelled';
    default:
      return paid ? 'processing' : 'pending';
  }
}

/**
 * Completed is WooCommerce's only fulfilled state; an order refunded or cancelled after it was
 * completed keeps its completion date and counts as fulfilled too.
 */
export function fulfillmentOf(o: WcOrder): Order['fulfillmentStatus'] {
  if (o.status === 'completed') return 'fulfilled';
  if (o.date_completed_gmt && ['refunded', 'cancelled'].includes(o.status)) return 'fulfilled';
  return 'unfulfilled';
}

export function paymentStatusToCanonical(o: WcOrder, currency: string): Order['paymentStatus'] {
  if (o.status === 'refunded') return 'refunded';
  const paid = !!o.date_paid_gmt;
  if (paid && o.refunds.some((r) => amount(r.total, currency).amount !== 0))
    return 'partially_refunded';
  if (paid) return 'paid';
  if (o.status === 'cancelled') return 'voided';
  return 'pending';
}

const metaAmount = (
  list: { key: string; value: unknown }[],
  key: string,
  currency: string,
): number | undefined => {
  const value = metaValue(list, key);
  if (value === undefined || value === null || value === '') return undefined;
  try {
    return toMinor(String(value), currency);
  } catch {
    return undefined;
  }
};

export function orderToCanonical(o: WcOrder): Converted<Order> {
  const currency = o.currency.toUpperCase();
  const m = (v: string) => amount(v, currency);
  if (o.line_items.length === 0)
    return { ok: false, reason: `Order ${o.number} has no product lines.` };
  const badQuantity = o.line_items.find((l) => !Number.isInteger(l.quantity) || l.quantity <= 0);
  if (badQuantity)
    return {
      ok: false,
      reason: `Order ${o.number} has a line with quantity ${badQuantity.quantity}.`,
    };
  const createdAt = gmtToIso(o.date_created_gmt);
  if (!createdAt) return { ok: false, reason: `Order ${o.number} has no creation date.` };

  // Taxes an import could not make the store calculate travel in meta (see from-canonical.ts).
  const taxOf = (line: { total_tax: string; meta_data: { key: string; value: unknown }[] }) => {
    const own = m(line.total_tax).amount;
    return money(
      own !== 0 ? own : (metaAmount(line.meta_data, markers.tax, currency) ?? 0),
      currency,
    );
  };
  const lines = o.line_items.map((l) => {
    const subtotal = m(l.subtotal);
    return {
      id: String(l.id),
      productId: l.product_id ? String(l.product_id) : null,
      variantId: l.variation_id ? String(l.variation_id) : null,
      sku: l.sku,
      name: l.name.trim() || `Item ${l.id}`,
      quantity: l.quantity,
      unitPrice: money(Math.round(subtotal.amount / l.quantity), currency),
      tax: taxOf(l),
      total: subtotal,
    };
  });
  const taxFees = o.fee_lines.filter((f) => metaValue(f.meta_data, markers.taxTotal) !== undefined);
  const discountFees = o.fee_lines.filter((f) => !taxFees.includes(f) && m(f.total).amount < 0);
  const discounts = [
    ...o.coupon_lines.map((c) => ({ code: c.code, amount: m(c.discount) })),
    ...discountFees.map((f) => ({ code: f.name, amount: money(-m(f.total).amount, currency) })),
  ];
  const taxFeeTotal = taxFees.reduce((s, f) => s + m(f.total).amount, 0);
  const paid = !!o.date_paid_gmt;
  return {
    ok: true,
    record: {
      id: String(o.id),
      number: o.number.replace(/^#/, '') || String(o.id),
      createdAt,
      updatedAt: gmtToIso(o.date_modified_gmt),
      currency,
      customerId: o.customer_id ? String(o.customer_id) : null,
      email: o.billing.email.trim(),
      status: orderStatusToCanonical(o.status, paid),
      paymentStatus: paymentStatusToCanonical(o, currency),
      fulfillmentStatus: fulfillmentOf(o),
      lines,
      shippingLines: o.shipping_lines.map((s) => ({
        title: s.method_title,
        // 'other' stands in for a source line without a method code (WooCommerce needs one).
        code: metaValue(s.meta_data, markers.shippingCode) === '' ? '' : s.method_id,
        price: m(s.total),
        tax: taxOf(s),
      })),
      discounts,
      subtotal: money(
        lines.reduce((s, l) => s + l.total.amount, 0),
        currency,
      ),
      taxTotal: money(m(o.total_tax).amount + taxFeeTotal, currency),
      shippingTotal: m(o.shipping_total),
      discountTotal: money(
        m(o.discount_total).amount + discountFees.reduce((s, f) => s - m(f.total).amount, 0),
        currency,
      ),
      grandTotal: m(o.total),
      billingAddress: hasAddress(o.billing) ? addressToCanonical(o.billing) : null,
      shippingAddress: hasAddress(o.shipping) ? addressToCanonical(o.shipping) : null,
      note: o.customer_note,
    },
  };
}
