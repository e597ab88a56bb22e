import type { Address } from '@replatform/canonical/address';
import type { Category } from '@replatform/canonical/category';
import type { Customer } from '@replatform/canonical/customer';
import { fromMinor, type Money } from '@replatform/canonical/money';
import type { Order } from '@replatform/canonical/order';
import type { Product, Variant } from '@replatform/canonical/product';
import { createdVia, markers } from './markers.ts';
import type { StoreUnits } from './to-canonical.ts';

/**
 * Canonical -> WooCommerce request bodies, limited to the writable fields of the wc/v3 schemas
 * (wc-v3-index.woocommerce-11.0.1.json). What WooCommerce cannot hold is reported as a warning.
 *
 * Orders are historical records, and WooCommerce recalculates an order's totals itself when the
 * API creates it: taxes come only from the store's own tax rates (none on a store that does not
 * charge tax), and coupon lines must name coupons that exist today and are applied by today's
 * rules. So an imported order carries:
 * - each discount as a negative fee line named after the code (the amount actually given);
 * - the tax actually charged as one non-taxable fee line "Tax" (meta `_replatform_tax_total`),
 *   and per line / shipping line in meta `_replatform_tax`;
 * which keeps the order total what the customer paid, and lets the connector read the same
 * figures back. Status, payment and fulfilment: see orderStatusToWc.
 */

export type Json = Record<string, unknown>;

export interface Written<T = Json> {
  body: T;
  warnings: string[];
}

const gramsPer: Record<string, number> = {
  g: 1,
  kg: 1000,
  lb: 453.59237,
  lbs: 453.59237,
  oz: 28.349523125,
};
const millimetresPer: Record<string, number> = {
  mm: 1,
  cm: 10,
  m: 1000,
  in: 25.4,
  ft: 304.8,
  yd: 914.4,
};

const decimalText = (n: number) => String(Number(n.toFixed(4)));

export function convertWeight(value: number, from: string, to: string): string {
  const a = gramsPer[from];
  const b = gramsPer[to];
  return decimalText(a && b ? (value * a) / b : value);
}

export function convertLength(value: number, from: string, to: string): string {
  const a = millimetresPer[from];
  const b = millimetresPer[to];
  return decimalText(a && b ? (value * a) / b : value);
}

/** The `_gmt` form WooCommerce takes: 'Y-m-d\TH:i:s' in UTC. */
export const isoToGmt = (iso: string) => new Date(iso).toISOString().slice(0, 19);

const price = (m: Money) => fromMinor(m.amount, m.currency);

/** Regular and sale price: WooCommerce's "compare-at" is the regular price of an item on sale. */
export function wcPrices(variant: Pick<Variant, 'price' | 'compareAtPrice'>): {
  regular_price: string;
  sale_price: string;
} {
  const compare = variant.compareAtPrice;
  return compare && compare.amount > variant.price.amount
    ? { regular_price: price(compare), sale_price: price(variant.price) }
    : { regular_price: price(variant.price), sale_price: '' };
}

export function productStatusToWc(status: Product['status']): string {
  return status === 'active' ? 'publish' : status === 'archived' ? 'private' : 'draft';
}

/** The inline tags WordPress keeps in a term description ($allowedtags, via wp_filter_kses). */
const termTags = new Set(
  'a abbr acronym b blockquote cite code del em i q s strike strong'.split(' '),
);
const blocks = new Set('p div h1 h2 h3 h4 h5 h6 ul ol'.split(' '));
/** Markup whose loss is only its look, not its structure. */
const silentlyFlattened = new Set(['p', 'div', 'br']);

/**
 * A category description in the form WordPress keeps it. Every store, even for an administrator,
 * runs term descriptions through wp_filter_kses with the short $allowedtags list (default-filters:
 * pre_term_description), so `<p>` and `<br>` are stripped and paragraphs would run together. They
 * are written as blank lines and line breaks instead, which WordPress turns back into paragraphs
 * when it shows the description (wpautop on term_description) and which descriptionFromWc reads
 * back as the same HTML. Other markup (lists, headings) cannot be kept and is reported.
 */
export function termDescription(html: string): { text: string; dropped: string[] } {
  const dropped = new Set<string>();
  const text = html
    .replace(/<(\/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*>/g, (whole, slash: string, name: string) => {
      const tag = name.toLowerCase();
      if (termTags.has(tag)) return whole;
      if (!silentlyFlattened.has(tag)) dropped.add(tag);
      // Blocks become paragraphs, list items and <br> lines, as wpautop reads them back.
      if (blocks.has(tag)) return '\n\n';
      if (tag === 'br' || (tag === 'li' && slash)) return '\n';
      return '';
    })
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { text, dropped: [...dropped].sort() };
}

/** Why a category's position was not kept, for a store that cannot take it. */
export const categoryPositionLost = (position: number) =>
  `The category's sort position (${position}) was not kept: this WooCommerce's REST API cannot set it (menu_order is read-only since WooCommerce 11); sort the categories under Products > Categories.`;

/** `menuOrder`: whether the store's categories route takes menu_order (see writesCategoryOrder). */
export function categoryBody(c: Category, parent: number, menuOrder = false): Written {
  const description = termDescription(c.description);
  const warnings: string[] = [];
  if (description.dropped.length)
    warnings.push(
      `WordPress keeps only links and text styles in category descriptions; the ${description.dropped.map((t) => `<${t}>`).join(', ')} formatting of the description was flattened to text.`,
    );
  if (c.position !== 0 && !menuOrder) warnings.push(categoryPositionLost(c.position));
  return {
    body: {
      name: c.name,
      slug: c.slug,
      parent,
      description: description.text,
      ...(menuOrder ? { menu_order: c.position } : {}),
      ...(c.imageUrl ? { image: { src: c.imageUrl } } : {}),
    },
    warnings,
  };
}

export interface ProductRefs {
  categoryIds: number[];
  tagIds: number[];
  brandIds: number[];
  currency: string;
  units: StoreUnits;
}

export function productBody(p: Product, refs: ProductRefs): Written {
  const warnings: string[] = [];
  const variable = p.type === 'variable';
  const first = p.variants[0];
  if (p.seoTitle || p.seoDescription)
    warnings.push('WooCommerce has no SEO title or description of its own; they were not copied.');
  if (first && first.price.currency !== refs.currency)
    warnings.push(
      `Prices are in ${first.price.currency}; the store sells in ${refs.currency}. Amounts were copied unconverted.`,
    );
  const weightUnit = refs.units.weight;
  const body: Json = {
    name: p.name,
    slug: p.slug,
    type: variable ? 'variable' : 'simple',
    status: productStatusToWc(p.status),
    description: p.descriptionHtml,
    short_description: p.shortDescriptionHtml,
    sku: p.sku,
    categories: refs.categoryIds.map((id) => ({ id })),
    tags: refs.tagIds.map((id) => ({ id })),
    brands: refs.brandIds.map((id) => ({ id })),
    images: [...p.images]
      .sort((a, b) => a.position - b.position)
      .map((img) => ({ src: img.url, ...(img.alt ? { alt: img.alt } : {}) })),
    attributes: [
      ...p.options.map((o, position) => ({
        name: o.name,
        position,
        visible: true,
        variation: true,
        options: o.values,
      })),
      ...Object.entries(p.attributes).map(([name, value], i) => ({
        name,
        position: p.options.length + i,
        visible: true,
        variation: false,
        options: [value],
      })),
    ],
    dimensions: p.dimensions
      ? {
          length: convertLength(p.dimensions.length, p.dimensions.unit, refs.units.dimension),
          width: convertLength(p.dimensions.width, p.dimensions.unit, refs.units.dimension),
          height: convertLength(p.dimensions.height, p.dimensions.unit, refs.units.dimension),
        }
      : { length: '', width: '', height: '' },
    ...(p.createdAt ? { date_created_gmt: isoToGmt(p.createdAt) } : {}),
  };
  if (!variable && first) {
    Object.assign(body, wcPrices(first), {
      manage_stock: first.inventory.tracked,
      ...(first.inventory.tracked ? { stock_quantity: first.inventory.quantity } : {}),
      weight: first.weight ? convertWeight(first.weight.value, first.weight.unit, weightUnit) : '',
      global_unique_id: first.barcode,
    });
    if (first.imageUrl && !p.images.some((i) => i.url === first.imageUrl))
      warnings.push('The variant image is not in the gallery and was not copied.');
  }
  return { body, warnings };
}

/**
 * A variation; `imageId` is the gallery image WooCommerce stored for the variant's image URL.
 * Empty dimensions make the variation use its product's, as WooCommerce does.
 */
export function variationBody(
  v: Variant,
  units: StoreUnits,
  menuOrder: number,
  imageId: number | undefined,
): Json {
  const d = v.dimensions;
  return {
    sku: v.sku,
    global_unique_id: v.barcode,
    description: v.descriptionHtml ?? '',
    ...wcPrices(v),
    manage_stock: v.inventory.tracked,
    ...(v.inventory.tracked ? { stock_quantity: v.inventory.quantity } : {}),
    weight: v.weight ? convertWeight(v.weight.value, v.weight.unit, units.weight) : '',
    dimensions: d
      ? {
          length: convertLength(d.length, d.unit, units.dimension),
          width: convertLength(d.width, d.unit, units.dimension),
          height: convertLength(d.height, d.unit, units.dimension),
        }
      : { length: '', width: '', height: '' },
    attributes: v.optionValues.map((o) => ({ name: o.name, option: o.value })),
    menu_order: menuOrder,
    image: imageId ? { id: imageId } : {},
  };
}

/** An address without its phone (the billing address carries it separately). */
function address(a: Address): Json {
  return {
    first_name: a.firstName,
    last_name: a.lastName,
    company: a.company,
    address_1: a.address1,
    address_2: a.address2,
    city: a.city,
    state: a.province,
    postcode: a.postalCode,
    country: a.countryCode,
  };
}

export function customerBody(c: Customer): Written {
  const warnings: string[] = [];
  const billing = c.addresses.find((a) => a.isDefaultBilling);
  const shipping = c.addresses.find((a) => a.isDefaultShipping);
  const held = new Set([billing, shipping]);
  const dropped = c.addresses.filter((a) => !held.has(a)).length;
  if (dropped)
    warnings.push(
      `WooCommerce keeps one billing and one shipping address per customer; the customer's other addresses (${dropped}) were not copied.`,
    );
  if (billing?.phone && c.phone && billing.phone !== c.phone)
    warnings.push(
      `WooCommerce keeps one phone per customer, the billing address's; the account's own phone (${c.phone}) was not copied.`,
    );
  if (c.acceptsMarketing)
    warnings.push('WooCommerce has no marketing consent field; the consent was not copied.');
  if (c.note) warnings.push('WooCommerce has no customer note; the note was not copied.');
  if (c.tags.length) warnings.push('WooCommerce has no customer tags; the tags were not copied.');
  warnings.push(
    `WooCommerce records an account's registration date itself; the source's (${c.createdAt.slice(0, 10)}) was not kept.`,
  );
  return {
    body: {
      email: c.email,
      first_name: c.firstName,
      last_name: c.lastName,
      billing: {
        ...(billing ? address(billing) : { first_name: c.firstName, last_name: c.lastName }),
        email: c.email,
        phone: billing?.phone || c.phone,
      },
      shipping: shipping ? { ...address(shipping), phone: shipping.phone } : {},
    },
    warnings,
  };
}

/** Links of an order line to the destination's product and variation (0 = not linked). */
export interface LineRefs {
  productId: number;
  variationId: number;
}

export interface WcOrderStatus {
  /** The status the order is created with. */
  status: string;
  /**
   * The status it must end in when that differs from the one it is created with: WooCommerce
   * records a payment (date_paid) or a completion (date_completed) only when an order passes
   * through processing or completed, so a paid order on hold, or a fulfilled order refunded since,
   * is created paid or completed and then moved on. The dates stay; the e-mails are off.
   */
  finalStatus?: string;
  /** set_paid: let WooCommerce record the payment (payment_complete(), date_paid). */
  setPaid: boolean;
  /** What of the source's status, payment and fulfilment WooCommerce cannot show. */
  warnings: string[];
}

const paidStatuses: readonly Order['paymentStatus'][] = [
  'paid',
  'partially_paid',
  'partially_refunded',
];

/**
 * WooCommerce has one status per order, a payment date and a completion date. An order counts as
 * paid when it has a payment date and as fulfilled when it is (or was) completed; WooCommerce sets
 * both dates itself when an order reaches processing or completed. So the order ends in:
 *
 *   cancelled / refunded / failed                -> the same status
 *   fulfilled (or completed)                     -> completed
 *   payment authorised, not captured             -> on-hold, as WooCommerce's gateways leave
 *                                                  authorised payments
 *   on-hold / processing / pending               -> the same status
 *
 * and is created paid (set_paid, as processing or completed) when the source was paid, and
 * completed first when it had been fulfilled, before moving to its final status. A warning says
 * what does not fit: authorisation, partial payment or fulfilment, refunds within a paid order,
 * payment states that contradict the status.
 */
export function orderStatusToWc(o: Order): WcOrderStatus {
  const warnings: string[] = [];
  const paid = paidStatuses.includes(o.paymentStatus);
  const fulfilled = o.fulfillmentStatus === 'fulfilled' || o.status === 'completed';
  const closed = ['cancelled', 'refunded', 'failed'].includes(o.status);
  let final: string;
  if (closed) final = o.status;
  else if (fulfilled) final = 'completed';
  else if (o.paymentStatus === 'authorized') {
    final = 'on-hold';
    warnings.push(
      "WooCommerce has no 'authorised' payment status: the order is on-hold, as WooCommerce's payment gateways leave payments that still need capturing.",
    );
  } else final = o.status;

  // A refund presupposes a payment: a refunded order was paid before.
  const wasPaid = paid || o.paymentStatus === 'refunded';
  let created = final;
  if (closed && fulfilled && wasPaid) created = 'completed';
  else if (paid && !['processing', 'completed', 'refunded'].includes(final)) created = 'processing';
  if (closed && fulfilled && !wasPaid)
    warnings.push(
      `WooCommerce counts a fulfilled order as paid; this ${final} order was not, so its fulfillment status (fulfilled) is not kept.`,
    );
  if (final === 'completed' && !paid)
    warnings.push(
      `WooCommerce counts a completed order as paid; this order's payment status was ${o.paymentStatus === 'authorized' ? 'authorised but not captured' : o.paymentStatus}.`,
    );
  if (final === 'processing' && !paid)
    warnings.push(
      `WooCommerce counts a processing order as paid; this order's payment status was ${o.paymentStatus}.`,
    );
  if (o.fulfillmentStatus === 'partial' && final !== 'completed')
    warnings.push(
      'WooCommerce has no partial fulfilment; the fulfillment status shows as not fulfilled yet.',
    );
  if (o.paymentStatus === 'partially_paid')
    warnings.push('WooCommerce has no partial payment; the payment status shows as paid in full.');
  if (o.paymentStatus === 'partially_refunded')
    warnings.push(
      'Refunds are not migrated; the payment status shows as paid in full, without the partial refund.',
    );
  if (o.paymentStatus === 'voided' && final !== 'cancelled' && final !== 'failed')
    warnings.push(
      `WooCommerce shows a voided payment only on cancelled orders; this '${final}' order's payment status shows as unpaid.`,
    );
  return {
    status: created,
    ...(created !== final ? { finalStatus: final } : {}),
    setPaid: wasPaid && (created === 'processing' || created === 'completed'),
    warnings,
  };
}

export function orderBody(
  o: Order,
  customerId: number,
  lines: LineRefs[],
): Written & { finalStatus?: string } {
  const m = (x: Money) => fromMinor(x.amount, o.currency);
  const state = orderStatusToWc(o);
  const warnings: string[] = [
    `WooCommerce numbers and dates orders itself: source order ${o.number} of ${o.createdAt.slice(0, 10)} keeps its number and date in the order's meta data (${markers.sourceNumber}, ${markers.sourceCreatedAt}).`,
    ...state.warnings,
  ];
  const feeLines: Json[] = o.discounts.map((d) => ({
    name: d.code || 'Discount',
    tax_status: 'none',
    total: fromMinor(-d.amount.amount, o.currency),
    meta_data: [{ key: markers.discount, value: d.code }],
  }));
  if (o.taxTotal.amount !== 0)
    feeLines.push({
      name: 'Tax',
      tax_status: 'none',
      total: m(o.taxTotal),
      meta_data: [{ key: markers.taxTotal, value: m(o.taxTotal) }],
    });
  const recalculated =
    o.lines.reduce((s, l) => s + l.total.amount, 0) +
    o.shippingLines.reduce((s, l) => s + l.price.amount, 0) -
    o.discounts.reduce((s, d) => s + d.amount.amount, 0) +
    o.taxTotal.amount;
  if (recalculated !== o.grandTotal.amount)
    warnings.push(
      `The order total at the source (${m(o.grandTotal)}) includes charges WooCommerce cannot hold; it will show ${fromMinor(recalculated, o.currency)}.`,
    );
  if (o.lines.some((l) => l.total.amount !== l.unitPrice.amount * l.quantity))
    warnings.push('Line discounts are folded into the line totals.');
  const billing: Json = {
    ...(o.billingAddress ? { ...address(o.billingAddress), phone: o.billingAddress.phone } : {}),
    ...(o.email ? { email: o.email } : {}),
  };
  return {
    body: {
      status: state.status,
      currency: o.currency,
      customer_id: customerId,
      customer_note: o.note,
      created_via: createdVia,
      ...(Object.keys(billing).length ? { billing } : {}),
      // An order's shipping phone exists since WooCommerce 5.6 (set_shipping_phone), although
      // the REST schema does not list it; the controller sets every address field with a setter.
      ...(o.shippingAddress
        ? { shipping: { ...address(o.shippingAddress), phone: o.shippingAddress.phone } }
        : {}),
      line_items: o.lines.map((l, i) => {
        const ref = lines[i] ?? { productId: 0, variationId: 0 };
        return {
          ...(ref.productId ? { product_id: ref.productId } : {}),
          ...(ref.variationId ? { variation_id: ref.variationId } : {}),
          name: l.name,
          quantity: l.quantity,
          subtotal: m(l.total),
          total: m(l.total),
          meta_data: [{ key: markers.tax, value: m(l.tax) }],
        };
      }),
      shipping_lines: o.shippingLines.map((s) => ({
        method_title: s.title,
        // WooCommerce refuses a shipping line without a method id.
        method_id: s.code || 'other',
        total: m(s.price),
        meta_data: [
          { key: markers.tax, value: m(s.tax) },
          ...(s.code ? [] : [{ key: markers.shippingCode, value: '' }]),
        ],
      })),
      fee_lines: feeLines,
      set_paid: state.setPaid,
    },
    warnings,
    ...(state.finalStatus ? { finalStatus: state.finalStatus } : {}),
  };
}
