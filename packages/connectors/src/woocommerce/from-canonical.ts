import type { Address } from '@replatform/canonical/address';
import type { Brand } from '@replatform/canonical/brand';
import type { Category } from '@replatform/canonical/category';
import type { Coupon } from '@replatform/canonical/coupon';
import type { Customer } from '@replatform/canonical/customer';
import { fromMinor, type Money } from '@replatform/canonical/money';
import type { Order } from '@replatform/canonical/order';
import type { Review, ReviewStatus } from '@replatform/canonical/review';
import type {
  Dimensions,
  Product,
  SharedAttributeDefinition,
  SharedAttributeTerm,
  Variant,
  Weight,
} from '@replatform/canonical/product';
import { storedEmail, storedReviewerName } from './comment-text.ts';
import { createdVia, markers } from './markers.ts';
import { metafieldsToMeta } from './metafields.ts';
import type { StoreUnits } from './to-canonical.ts';

/**
 * Canonical -> WooCommerce request bodies, limited to the writable fields of the wc/v3 routes
 * (wc-v3-index.woocommerce-11.0.1.json) plus the few a real store reads although the index does
 * not list them as writable (each named where it is written). What WooCommerce cannot hold is
 * declared in native-fields.ts (destinationFields); what depends on the record at hand is a
 * warning.
 *
 * Orders are historical records, and WooCommerce recalculates an order's taxes itself when the
 * API creates it: only from the store's own tax rates (none on a store that does not charge tax).
 * So an imported order carries the tax actually charged as one non-taxable fee line "Tax" (meta
 * `_replatform_tax_total`), and per line / shipping line in meta `_replatform_tax`, which keeps
 * the order total what the customer paid and lets the connector read the same figures back.
 * Status, payment and fulfilment: see orderStatusToWc.
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

/**
 * A catalogue price as WooCommerce's own importer and admin keep it: WooCommerce stores the text
 * it is given ('45' and '45.00' are the same price to it), and stores commonly hold the shortest
 * form.
 */
export function price(m: Money): string {
  const text = fromMinor(m.amount, m.currency);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

const weightText = (weight: Weight | null, units: StoreUnits) =>
  weight ? convertWeight(weight.value, weight.unit, units.weight) : '';

function dimensionsBody(d: Dimensions | null | undefined, units: StoreUnits) {
  return d
    ? {
        length: convertLength(d.length, d.unit, units.dimension),
        width: convertLength(d.width, d.unit, units.dimension),
        height: convertLength(d.height, d.unit, units.dimension),
      }
    : { length: '', width: '', height: '' };
}

/** Price, sale (with its schedule), stock and downloads of a simple product or a variation. */
/**
 * The stock status WooCommerce keeps for an item (WC_Product_Data_Store::validate_props): one
 * whose stock it counts is in stock while units are left, else on backorder when backorders are
 * allowed, else out of stock; the stated status stands only for stock it does not count.
 */
export function stockStatusKept(inventory: Variant['inventory']): string {
  if (!inventory.tracked) return inventory.stockStatus;
  if (inventory.quantity > 0) return 'instock';
  return inventory.backorders === 'no' ? 'outofstock' : 'onbackorder';
}

export function sellableBody(v: Variant): Json {
  const inventory = v.inventory;
  return {
    regular_price: price(v.price),
    sale_price: v.salePrice ? price(v.salePrice) : '',
    // '' clears a schedule (WooCommerce skips a null one).
    date_on_sale_from_gmt: v.saleStartsAt ? isoToGmt(v.saleStartsAt) : '',
    date_on_sale_to_gmt: v.saleEndsAt ? isoToGmt(v.saleEndsAt) : '',
    virtual: v.virtual,
    downloadable: v.downloadable,
    downloads: v.downloads.map((d) => ({ name: d.name, file: d.url })),
    download_limit: v.downloadLimit ?? -1,
    download_expiry: v.downloadExpiryDays ?? -1,
    manage_stock: inventory.tracked,
    ...(inventory.tracked ? { stock_quantity: inventory.quantity } : {}),
    stock_status: inventory.stockStatus,
    backorders: inventory.backorders,
    low_stock_amount: inventory.lowStockThreshold,
    global_unique_id: v.barcode,
  };
}

export function productStatusToWc(status: Product['status']): string {
  return status === 'active'
    ? 'publish'
    : status === 'archived'
      ? 'private'
      : status === 'pending' || status === 'private'
        ? status
        : 'draft';
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

/**
 * `menuOrder`: whether the store's categories route takes menu_order (see writesCategoryOrder).
 * `image`: the image as the destination takes it ({id} of an image it already stored, or {src}).
 */
export function categoryBody(
  c: Category,
  parent: number,
  menuOrder = false,
  image?: Json,
): Written {
  const description = termDescription(c.description);
  const warnings: string[] = [];
  if (description.dropped.length)
    warnings.push(
      `WordPress keeps only links and text styles in category descriptions; the ${description.dropped.map((t) => `<${t}>`).join(', ')} formatting of the description was flattened to text.`,
    );
  return {
    body: {
      name: c.name,
      // Without one (the owner chose not to keep slugs) WordPress makes it from the name.
      ...(c.slug ? { slug: c.slug } : {}),
      parent,
      description: description.text,
      display: c.displayType,
      ...(menuOrder ? { menu_order: c.position } : {}),
      ...(c.imageUrl
        ? {
            image: {
              ...(image ?? { src: c.imageUrl }),
              ...(c.imageAlt ? { alt: c.imageAlt } : {}),
              ...(c.imageTitle ? { name: c.imageTitle } : {}),
            },
          }
        : {}),
    },
    warnings,
  };
}

/**
 * A brand as the brands route takes it. Unlike a category's, a brand's menu_order is writable in
 * WooCommerce 11. `image`: the logo as the destination takes it ({id} of an image it already
 * stored, or {src}), with its alternative text; the model keeps no title for it.
 */
export function brandBody(b: Brand, parent: number, image?: Json): Written {
  const description = termDescription(b.description);
  const warnings: string[] = [];
  if (description.dropped.length)
    warnings.push(
      `WordPress keeps only links and text styles in brand descriptions; the ${description.dropped.map((t) => `<${t}>`).join(', ')} formatting of the description was flattened to text.`,
    );
  return {
    body: {
      name: b.name,
      ...(b.slug ? { slug: b.slug } : {}),
      parent,
      description: description.text,
      display: b.displayType,
      menu_order: b.position,
      ...(b.imageUrl
        ? {
            image: {
              ...(image ?? { src: b.imageUrl }),
              ...(b.imageAlt ? { alt: b.imageAlt } : {}),
            },
          }
        : {}),
    },
    warnings,
  };
}

const orderByOf: Record<SharedAttributeDefinition['termOrder'], string> = {
  position: 'menu_order',
  name: 'name',
  name_numeric: 'name_num',
  id: 'id',
};

/** The settings a store-wide attribute is created with. */
export function attributeSettings(a: SharedAttributeDefinition) {
  return { has_archives: a.archives, order_by: orderByOf[a.termOrder] };
}

/** What a store-wide attribute's term is created with besides its name. */
export function termBody(t: SharedAttributeTerm): Json {
  return {
    ...(t.slug ? { slug: t.slug } : {}),
    ...(t.description ? { description: t.description } : {}),
    ...(t.position !== 0 ? { menu_order: t.position } : {}),
  };
}

/** How a product's links, terms and images were resolved at the destination. */
export interface ProductRefs {
  categoryIds: number[];
  tagIds: number[];
  brandIds: number[];
  /** Destination ids of store-wide attributes, by their slug. */
  attributeIds: Map<string, number>;
  /** The gallery as the destination takes it, in position order. */
  images: Json[];
  /**
   * Linked products by destination id; undefined when one of them is not at the destination yet.
   * Such a list is left out of the request, so the store keeps the one it has: a list cut short
   * could remove links a later write set, were this request to reach the store after it (one
   * sent by a run that was stopped, or that timed out, can still be carried out afterwards).
   */
  upsellIds: number[] | undefined;
  crossSellIds: number[] | undefined;
  groupedIds: number[] | undefined;
  currency: string;
  units: StoreUnits;
}

export function productBody(p: Product, refs: ProductRefs): Written {
  const warnings: string[] = [];
  const first = p.variants[0];
  const sellable = p.type === 'simple' || p.type === 'external';
  if (first && first.price.currency !== refs.currency)
    warnings.push(
      `Prices are in ${first.price.currency}; the store sells in ${refs.currency}. Amounts were copied unconverted.`,
    );
  for (const v of sellable ? p.variants.slice(0, 1) : p.variants) {
    const label = v.sku || v.optionValues.map((o) => o.value).join(' / ') || p.name;
    if (v.virtual && (v.weight || v.dimensions))
      warnings.push(
        `WooCommerce keeps no shipping weight or dimensions on virtual (not shipped) products and variants: those of ${label} were not copied.`,
      );
    const kept = stockStatusKept(v.inventory);
    if (kept !== v.inventory.stockStatus)
      warnings.push(
        `WooCommerce works out the stock status of products and variants whose stock it counts from the quantity: ${label} (${v.inventory.stockStatus} with ${v.inventory.quantity} in stock) shows as ${kept}.`,
      );
  }
  const attribute = (
    a: {
      name: string;
      values: string[];
      shared: { slug: string } | null;
      visible: boolean;
      position: number;
    },
    variation: boolean,
  ) => {
    const id = a.shared ? refs.attributeIds.get(a.shared.slug) : undefined;
    return {
      ...(id ? { id } : { name: a.name }),
      position: a.position,
      visible: a.visible,
      variation,
      options: a.values,
    };
  };
  const attributes = [
    ...p.options.map((o) => ({ position: o.position, body: attribute(o, true) })),
    ...p.attributes.map((a) => ({ position: a.position, body: attribute(a, false) })),
  ]
    .sort((a, b) => a.position - b.position)
    .map((a) => a.body);
  const defaults =
    p.type === 'variable'
      ? p.defaultOptionValues.flatMap((d) => {
          const option = p.options.find((o) => o.name === d.name);
          if (!option) return [];
          const id = option.shared ? refs.attributeIds.get(option.shared.slug) : undefined;
          return [{ ...(id ? { id } : { name: option.name }), option: d.value }];
        })
      : [];
  const body: Json = {
    name: p.name,
    // Without one (a draft, or the owner chose not to keep slugs) WooCommerce makes it from the
    // name when the product is published.
    ...(p.slug ? { slug: p.slug } : {}),
    type: p.type,
    status: productStatusToWc(p.status),
    featured: p.featured,
    catalog_visibility: p.visibility,
    description: p.descriptionHtml,
    short_description: p.shortDescriptionHtml,
    sku: sellable ? p.sku || (first?.sku ?? '') : p.sku,
    categories: refs.categoryIds.map((id) => ({ id })),
    tags: refs.tagIds.map((id) => ({ id })),
    brands: refs.brandIds.map((id) => ({ id })),
    images: refs.images,
    attributes,
    ...(p.type === 'variable' ? { default_attributes: defaults } : {}),
    weight: weightText(sellable ? (first?.weight ?? p.weight) : p.weight, refs.units),
    dimensions: dimensionsBody(p.dimensions, refs.units),
    tax_status: p.taxStatus,
    tax_class: p.taxClass,
    shipping_class: p.shippingClass,
    sold_individually: p.soldIndividually,
    reviews_allowed: p.reviewsAllowed,
    purchase_note: p.purchaseNote,
    menu_order: p.menuOrder,
    ...(refs.upsellIds ? { upsell_ids: refs.upsellIds } : {}),
    ...(refs.crossSellIds ? { cross_sell_ids: refs.crossSellIds } : {}),
    ...(p.type === 'external' ? { external_url: p.externalUrl, button_text: p.buttonText } : {}),
    // A real store sets a grouped product's members from grouped_products although the index
    // lists the field as read-only (WC_REST_Products_Controller: set_children).
    ...(p.type === 'grouped' && refs.groupedIds ? { grouped_products: refs.groupedIds } : {}),
    ...(p.createdAt ? { date_created_gmt: isoToGmt(p.createdAt) } : {}),
    // A simple product is its only variant: the variant's custom fields are the product's.
    meta_data: metafieldsToMeta(
      sellable && first ? [...p.metafields, ...first.metafields] : p.metafields,
    ),
  };
  if (sellable && first) Object.assign(body, sellableBody(first));
  return { body, warnings };
}

/**
 * A variation. `imageId`: the destination's media id of the variant's image, or the image by URL
 * when the destination has none yet. Empty dimensions make the variation use its product's.
 */
export function variationBody(
  v: Variant,
  units: StoreUnits,
  attributeIds: Map<string, number>,
  options: Product['options'],
  image: Json | undefined,
): Json {
  return {
    sku: v.sku,
    status: v.status === 'active' ? 'publish' : 'private',
    description: v.descriptionHtml ?? '',
    ...sellableBody(v),
    tax_class: v.taxClass ?? 'parent',
    shipping_class: v.shippingClass ?? '',
    weight: weightText(v.weight, units),
    dimensions: dimensionsBody(v.dimensions, units),
    attributes: v.optionValues.map((o) => {
      const option = options.find((x) => x.name === o.name);
      const id = option?.shared ? attributeIds.get(option.shared.slug) : undefined;
      return { ...(id ? { id } : { name: o.name }), option: o.value };
    }),
    menu_order: v.position,
    image: image ?? {},
    meta_data: metafieldsToMeta(v.metafields),
  };
}

/** An address as WooCommerce keeps it; an e-mail is only sent when there is one. */
function address(a: Address, withEmail: boolean): Json {
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
    phone: a.phone,
    // WooCommerce refuses an empty billing e-mail: none is sent, and none is made up.
    ...(withEmail && a.email ? { email: a.email } : {}),
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
  const hidden = c.metafields.filter((m) => m.key.startsWith('_')).map((m) => m.key);
  if (hidden.length)
    warnings.push(
      `WordPress keeps user meta whose key starts with '_' away from the REST API; the custom fields ${hidden.join(', ')} were not copied.`,
    );
  if (billing?.phone && c.phone && billing.phone !== c.phone)
    warnings.push(
      `WooCommerce keeps one phone per customer, the billing address's; the account's own phone (${c.phone}) was not copied.`,
    );
  const billingBody: Json = billing ? address(billing, true) : c.phone ? { phone: c.phone } : {};
  if (billing && !billing.phone && c.phone) billingBody.phone = c.phone;
  return {
    body: {
      email: c.email,
      ...(c.username ? { username: c.username } : {}),
      first_name: c.firstName,
      last_name: c.lastName,
      billing: billingBody,
      // A merged billing-and-shipping address has no e-mail of its own on the shipping side.
      shipping: shipping ? address(shipping, false) : {},
      meta_data: metafieldsToMeta(c.metafields.filter((m) => !m.key.startsWith('_'))),
    },
    warnings,
  };
}

/** Links of an order line to the destination's product and variation (0 = not linked). */
export interface LineRefs {
  productId: number;
  variationId: number;
}

const paidStatuses: readonly Order['paymentStatus'][] = [
  'paid',
  'partially_paid',
  'partially_refunded',
  'refunded',
];

export interface WcOrderStatus {
  /** The status the order is created with. */
  status: string;
  /** The status it must end in when refunds change it on the way (a partly refunded order). */
  finalStatus: string;
  /** What of the source's status, payment and fulfilment WooCommerce cannot show. */
  warnings: string[];
}

/**
 * WooCommerce has one status per order, a payment date and a completion date, which the import
 * sets from the source's (`_date_paid`, `_date_completed` meta, which WooCommerce routes to the
 * order's setters). An order ends in:
 *
 *   cancelled / refunded / failed                -> the same status
 *   fulfilled (or completed)                     -> completed
 *   payment authorised, not captured             -> on-hold, as WooCommerce's gateways leave
 *                                                  authorised payments
 *   on-hold / processing / pending               -> the same status
 *
 * A refunded order is created in the status it had before its refunds (completed when it had
 * been fulfilled, else processing): the refunds then make it refunded, as they did at the source,
 * without WooCommerce adding a refund of its own for the whole amount.
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
  const created = final === 'refunded' ? (fulfilled ? 'completed' : 'processing') : final;
  const refunded = o.refunds.reduce((s, r) => s + r.amount.amount, 0);
  if (final === 'refunded' && refunded < o.grandTotal.amount)
    warnings.push(
      `WooCommerce records the part of a refunded order's total that no refund gave back (${fromMinor(o.grandTotal.amount - refunded, o.currency)}) as a refund of its own, which the order's refunds then list.`,
    );
  if (o.fulfillmentStatus === 'partial' && final !== 'completed')
    warnings.push(
      'WooCommerce has no partial fulfilment; the fulfillment status shows as not fulfilled yet.',
    );
  // WooCommerce counts a completed order as fulfilled, and a refunded or cancelled one that has
  // a completion date.
  const shownFulfilled =
    final === 'completed' ||
    (['refunded', 'cancelled'].includes(final) && (fulfilled || o.completedAt !== null));
  if (shownFulfilled && o.fulfillmentStatus !== 'fulfilled')
    warnings.push(
      `WooCommerce counts this order as fulfilled (completed); its fulfillment status was ${o.fulfillmentStatus}.`,
    );
  if (o.refundTotal.amount !== refunded)
    warnings.push(
      `WooCommerce counts as refunded only what its refunds give back: the source's refund total (${fromMinor(o.refundTotal.amount, o.currency)}) has no refund of its own behind it, so the refund total and the payment status show only the refunds listed.`,
    );
  if (o.paymentStatus === 'partially_paid')
    warnings.push('WooCommerce has no partial payment; the payment status shows as paid in full.');
  if (paid && !o.paidAt)
    warnings.push(
      'WooCommerce counts an order as paid by its payment date, which the source did not have: the order shows as paid at the date of the import.',
    );
  if ((final === 'completed' || o.fulfillmentStatus === 'fulfilled') && !o.completedAt)
    warnings.push(
      'WooCommerce dates the completion of a completed order, which the source did not: the order shows as completed at the date of the import.',
    );
  if (final === 'completed' && !paid)
    warnings.push(
      `WooCommerce counts a completed order as paid; this order's payment status was ${o.paymentStatus === 'authorized' ? 'authorised but not captured' : o.paymentStatus}.`,
    );
  return { status: created, finalStatus: final, warnings };
}

/**
 * The order meta WooCommerce routes to its own setters (WC_Data internal meta keys): the payment
 * and completion dates, and whether the prices include tax. WooCommerce counts an order as paid
 * by its payment date and stamps one (and a completion date) as the order passes through
 * processing or completed: a date the source did not have is cleared, except where the order was
 * paid or fulfilled without a known date, whose stamp then stands (see orderStatusToWc).
 */
export function orderDatesMeta(o: Order, stamp = Math.floor(Date.now() / 1000)): Json[] {
  const timestamp = (iso: string) => Math.floor(Date.parse(iso) / 1000);
  const paid = paidStatuses.includes(o.paymentStatus);
  const fulfilled = o.fulfillmentStatus === 'fulfilled' || o.status === 'completed';
  const final = orderStatusToWc(o).finalStatus;
  // WooCommerce stamps a payment date only on the way through processing or completed.
  const stampsPayment = ['processing', 'completed', 'refunded'].includes(final);
  return [
    ...(o.paidAt
      ? [{ key: '_date_paid', value: timestamp(o.paidAt) }]
      : !paid
        ? [{ key: '_date_paid', value: '' }]
        : stampsPayment
          ? []
          : [{ key: '_date_paid', value: stamp }]),
    ...(o.completedAt
      ? [{ key: '_date_completed', value: timestamp(o.completedAt) }]
      : fulfilled
        ? []
        : [{ key: '_date_completed', value: '' }]),
    { key: '_prices_include_tax', value: o.pricesIncludeTax },
  ];
}

/**
 * Whether an order's line totals already carry its order-level discounts (as WooCommerce's own
 * lines do, a coupon's share taken off each): then the lines are given those totals back after
 * the coupons are applied. Otherwise WooCommerce's spreading of the coupons over the lines stands.
 */
export function discountInLines(o: Order): boolean {
  const before = o.lines.reduce((s, l) => s + l.unitPrice.amount * l.quantity, 0);
  const after = o.lines.reduce((s, l) => s + l.total.amount, 0);
  return after + o.discountTotal.amount <= before;
}

/**
 * The body that creates an order. `lines` links each line to the destination's product, or to
 * none (a line whose product is not at the destination is written as a custom line: WooCommerce
 * needs a product reference to create a line and makes one that points at no product a line
 * without product, which keeps its name, quantity and amounts). `coupons`: whether the discounts
 * are written as coupon lines (their coupons exist at the destination for the time of the write).
 */
export function orderBody(
  o: Order,
  customerId: number,
  lines: LineRefs[],
  coupons: boolean,
): Written & { finalStatus: string } {
  const m = (x: Money) => fromMinor(x.amount, o.currency);
  const state = orderStatusToWc(o);
  const warnings = [...state.warnings];
  const taxMeta = (tax: Money) => (tax.amount !== 0 ? [{ key: markers.tax, value: m(tax) }] : []);
  const fees: Json[] = o.fees.map((f) => ({
    name: f.name || 'Fee',
    total: m(f.amount),
    tax_class: f.taxClass,
    tax_status: f.taxStatus,
  }));
  const couponLines = coupons ? o.discounts.filter((d) => d.code !== '') : [];
  if (couponLines.length && !discountInLines(o))
    warnings.push(
      "WooCommerce spreads an order's coupon discounts over its lines: the lines' totals include their share of the discount.",
    );
  for (const d of o.discounts.filter((x) => !couponLines.includes(x)))
    fees.push({
      name: d.code || 'Discount',
      total: m({ ...d.amount, amount: -d.amount.amount }),
      tax_status: 'none',
    });
  if (o.discounts.some((d) => !couponLines.includes(d)))
    warnings.push(
      "WooCommerce records discounts only as coupon lines with a code; a discount without one is kept as a negative fee among the order's fees (its amount counts in the fee total, not the discount total).",
    );
  if (o.fees.some((f) => f.tax.amount !== 0))
    warnings.push(
      "WooCommerce works out the tax of fees only from its own tax rates: the fees' own taxes are kept in the order's tax ('Tax' fee line), not on each fee.",
    );
  if (o.refunds.some((r) => r.lines.some((l) => l.tax.amount !== 0)))
    warnings.push(
      "WooCommerce refunds taxes only against its own tax rates: the refunds keep the amount of each line, not the line's tax.",
    );
  const authors = [...new Set(o.notes.map((n) => n.author).filter((a) => a !== ''))];
  if (authors.length)
    warnings.push(
      `WooCommerce attributes the notes a person wrote to the user of the API key: the notes by ${authors.join(', ')} show that user as their author.`,
    );
  if (o.taxTotal.amount !== 0)
    fees.push({
      name: 'Tax',
      tax_status: 'none',
      total: m(o.taxTotal),
      meta_data: [{ key: markers.taxTotal, value: m(o.taxTotal) }],
    });
  const billing: Json = o.billingAddress ? address(o.billingAddress, true) : {};
  if (o.email && !billing.email) billing.email = o.email;
  return {
    body: {
      status: state.status,
      currency: o.currency,
      customer_id: customerId,
      customer_note: o.note,
      created_via: o.createdVia || createdVia,
      payment_method: o.paymentMethod,
      payment_method_title: o.paymentMethodTitle,
      transaction_id: o.transactionId,
      ...(Object.keys(billing).length ? { billing } : {}),
      // An order's shipping phone exists since WooCommerce 5.6 (set_shipping_phone), although
      // the REST schema does not list it; the controller sets every address field with a setter.
      ...(o.shippingAddress ? { shipping: address(o.shippingAddress, false) } : {}),
      line_items: o.lines.map((l, i) => {
        const ref = lines[i] ?? { productId: 0, variationId: 0 };
        const linked = ref.productId > 0;
        return {
          // -1 names no product: WooCommerce then makes a line without one (see above).
          product_id: linked ? ref.productId : -1,
          ...(ref.variationId ? { variation_id: ref.variationId } : {}),
          name: l.name,
          quantity: l.quantity,
          tax_class: l.taxClass,
          subtotal: m({ ...l.unitPrice, amount: l.unitPrice.amount * l.quantity }),
          total: m(l.total),
          meta_data: [
            ...l.meta.map((x) => ({ key: x.key, value: x.value })),
            ...taxMeta(l.tax),
            ...(!linked && l.sku ? [{ key: markers.sku, value: l.sku }] : []),
          ],
        };
      }),
      shipping_lines: o.shippingLines.map((s) => {
        const [, method, instance] = /^(.+):(\d+)$/.exec(s.code) ?? [];
        return {
          method_title: s.title,
          // WooCommerce refuses a shipping line without a method id.
          method_id: method ?? (s.code || 'other'),
          ...(instance ? { instance_id: instance } : {}),
          total: m(s.price),
          meta_data: [
            ...taxMeta(s.tax),
            ...(s.code ? [] : [{ key: markers.shippingCode, value: '' }]),
          ],
        };
      }),
      fee_lines: fees,
      ...(couponLines.length ? { coupon_lines: couponLines.map((d) => ({ code: d.code })) } : {}),
    },
    warnings,
    finalStatus: state.finalStatus,
  };
}

/** Where a coupon's restrictions are at the destination, and the destination's currency. */
export interface CouponRefs {
  currency: string;
  /** The destination id of a source product or category, undefined when it was not migrated. */
  product: (sourceId: string) => string | undefined;
  category: (sourceId: string) => string | undefined;
  /** Now (ms), to tell a start date still to come. */
  now: number;
}

export type CouponWritten = ({ ok: true } & Written) | { ok: false; reason: string };

/**
 * A coupon's body for coupons/batch. A coupon never arrives broader than at the source: a
 * restriction whose product or category is not at the destination fails the coupon, and so does
 * an amount in another currency than the destination's. WooCommerce has no start date: a coupon
 * whose start is still to come is written switched off (draft), to be published on that date.
 * Limits of 0 read as "no limit" to WooCommerce, so a coupon that may be used 0 times is written
 * switched off too. The expiry goes as `date_expires` with its offset: WooCommerce 11 ignores
 * `date_expires_gmt` on writes.
 */
export function couponBody(c: Coupon, refs: CouponRefs): CouponWritten {
  const amounts = [c.amountOff, c.minimumSpend, c.maximumSpend].filter((m) => m !== null);
  const foreign = amounts.find((m) => m.currency !== refs.currency);
  if (foreign)
    return {
      ok: false,
      reason: `The coupon's amounts are in ${foreign.currency} and the destination store's currency is ${refs.currency}; an amount off cannot be converted between currencies.`,
    };
  const missing: string[] = [];
  const mapped = (ids: readonly string[], kind: 'product' | 'category', what: string) =>
    ids.flatMap((id) => {
      const found = refs[kind](id);
      if (found === undefined) {
        missing.push(`${what} ${id}`);
        return [];
      }
      return [Number(found)];
    });
  const productIds = mapped(c.productIds, 'product', 'product');
  const excludedProductIds = mapped(c.excludedProductIds, 'product', 'excluded product');
  const categoryIds = mapped(c.categoryIds, 'category', 'category');
  const excludedCategoryIds = mapped(c.excludedCategoryIds, 'category', 'excluded category');
  if (missing.length) {
    const needs = [
      ...(missing.some((m) => m.includes('product')) ? ['Products'] : []),
      ...(missing.some((m) => m.includes('category')) ? ['Categories'] : []),
    ];
    return {
      ok: false,
      reason: `The coupon is limited to products or categories that were not migrated (${missing.join(', ')}): select ${needs.join(' and ')} too, so the coupon does not apply to more than at the source.`,
    };
  }
  // WordPress's sanitize_email() empties what is not an address, and WooCommerce then drops it.
  const unusable = c.allowedEmails.filter(
    (e) => !/^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(e.replace(/\*/g, 'x')),
  );
  if (unusable.length)
    return {
      ok: false,
      reason: `WooCommerce drops e-mail restrictions that are not addresses (${unusable.join(', ')}), which would let more customers use the coupon than at the source.`,
    };
  const warnings: string[] = [];
  if (c.code !== c.code.toLowerCase())
    warnings.push(
      `WooCommerce keeps coupon codes in lower case: '${c.code}' is kept as '${c.code.toLowerCase()}' (customers may type it in any case).`,
    );
  let enabled = c.enabled;
  if (c.startsAt !== null && enabled && Date.parse(c.startsAt) > refs.now) {
    enabled = false;
    warnings.push(
      `WooCommerce coupons have no start date: the coupon starts on ${c.startsAt} at the source, so it was written as a draft; publish it under Marketing > Coupons on that date.`,
    );
  } else if (c.startsAt !== null)
    warnings.push(
      `WooCommerce coupons have no start date; the coupon's start (${c.startsAt}) was not copied.`,
    );
  const never = [
    ...(c.usageLimit === 0 ? ['in all'] : []),
    ...(c.usageLimitPerCustomer === 0 ? ['per customer'] : []),
  ];
  if (never.length && enabled) {
    enabled = false;
    warnings.push(
      `The coupon may be used 0 times ${never.join(' and ')}, which WooCommerce reads as no limit; it was written as a draft so it cannot be used.`,
    );
  }
  // The count and who used the coupon stay at the source (WooCommerce counts itself).
  const limits = [
    ...(c.usageLimit !== null ? [`${c.usageLimit} uses in all`] : []),
    ...(c.usageLimitPerCustomer !== null ? [`${c.usageLimitPerCustomer} per customer`] : []),
  ];
  if (c.usageCount > 0 && limits.length && enabled)
    warnings.push(
      `The coupon was used ${c.usageCount} times at the source; WooCommerce counts its uses from 0 at the destination, so its limits (${limits.join(', ')}) start afresh there.`,
    );
  return {
    ok: true,
    body: {
      code: c.code,
      description: c.description,
      discount_type: c.discountType,
      amount:
        c.discountType === 'percent'
          ? decimalText(c.percentOff ?? 0)
          : price(c.amountOff ?? zeroIn(refs.currency)),
      free_shipping: c.freeShipping,
      status: enabled ? 'publish' : 'draft',
      // WooCommerce ignores null in a write: '' is what clears an expiry on an update.
      date_expires: c.expiresAt === null ? '' : new Date(c.expiresAt).toISOString(),
      minimum_amount: c.minimumSpend ? price(c.minimumSpend) : '',
      maximum_amount: c.maximumSpend ? price(c.maximumSpend) : '',
      // WooCommerce's 0 is "no limit"; these arguments take no null.
      usage_limit: c.usageLimit ?? 0,
      usage_limit_per_user: c.usageLimitPerCustomer ?? 0,
      limit_usage_to_x_items: c.itemLimit ?? 0,
      individual_use: c.individualUse,
      exclude_sale_items: c.excludeSaleItems,
      product_ids: productIds,
      excluded_product_ids: excludedProductIds,
      product_categories: categoryIds,
      excluded_product_categories: excludedCategoryIds,
      email_restrictions: c.allowedEmails,
      meta_data: metafieldsToMeta(c.metafields),
    },
    warnings,
  };
}

const zeroIn = (currency: string): Money => ({ amount: 0, currency });

/** A review's status as WooCommerce keeps it (see reviewStatusToCanonical). */
export const reviewStatusToWc: Readonly<Record<ReviewStatus, string>> = {
  approved: 'approved',
  pending: 'hold',
  rejected: 'trash',
  spam: 'spam',
};

export type ReviewWritten = ({ ok: true } & Written) | { ok: false; reason: string };

/**
 * A review's body for products/reviews/batch, on the destination's copy of its product. The date
 * goes as `date_created_gmt` and a verified buyer's flag as `verified: true`: the reviews
 * controller reads both although the index lists them read-only; an unverified review leaves the
 * flag to the store, which works it out from its own orders (false cannot be written). The name
 * is sent as it is and WordPress keeps it as plain text; an address WordPress would not keep is
 * not sent (WordPress would save the review without it, which the owner is told). WooCommerce
 * refuses a review without text; it has no headline (declared in native-fields.ts).
 */
export function reviewBody(r: Review, productId: number): ReviewWritten {
  if (r.body === '' || r.body === '0')
    return {
      ok: false,
      reason:
        r.body === ''
          ? 'WooCommerce refuses a review without text, and the review has none (only its stars' +
            (r.title ? ' and headline' : '') +
            ').'
          : "WooCommerce refuses a review whose whole text is '0' (it reads it as no text).",
    };
  const name = storedReviewerName(r.reviewerName);
  if (name === '')
    return {
      ok: false,
      reason: `WordPress keeps a reviewer's name as plain text, and nothing is left of '${r.reviewerName}'.`,
    };
  const warnings: string[] = [];
  if (name !== r.reviewerName)
    warnings.push(
      `WordPress keeps a reviewer name as plain text on one line: '${r.reviewerName}' is kept as '${name}'.`,
    );
  const email = r.reviewerEmail.trim();
  const kept = email === '' || storedEmail(email) === email;
  if (!kept)
    warnings.push(
      `WordPress keeps only e-mail addresses it accepts: the reviewer email '${r.reviewerEmail}' is not one, so the review was written without it.`,
    );
  if (r.status === 'rejected')
    warnings.push(
      "A rejected review is kept in WooCommerce's bin (trash), which WordPress empties 30 days after a review is put there: the review will then be deleted at the destination.",
    );
  return {
    ok: true,
    body: {
      product_id: productId,
      reviewer: r.reviewerName,
      // Always sent: the create route requires the field ('' for a reviewer without one).
      reviewer_email: kept ? email : '',
      review: r.body,
      // WooCommerce keeps a review given without stars as a rating of 0.
      rating: r.rating ?? 0,
      status: reviewStatusToWc[r.status],
      date_created_gmt: new Date(r.createdAt).toISOString().slice(0, 19),
      ...(r.verified ? { verified: true } : {}),
    },
    warnings,
  };
}
