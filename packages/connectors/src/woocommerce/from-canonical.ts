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
 * figures back. `set_paid` is sent only for paid orders already processing or completed: on any
 * other status WooCommerce's payment_complete() would move the order to processing.
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

export function categoryBody(c: Category, parent: number): Json {
  return {
    name: c.name,
    slug: c.slug,
    parent,
    description: c.description,
    ...(c.imageUrl ? { image: { src: c.imageUrl } } : {}),
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

/** A variation; `imageId` is the gallery image WooCommerce stored for the variant's image URL. */
export function variationBody(
  v: Variant,
  units: StoreUnits,
  menuOrder: number,
  imageId: number | undefined,
): Json {
  return {
    sku: v.sku,
    global_unique_id: v.barcode,
    ...wcPrices(v),
    manage_stock: v.inventory.tracked,
    ...(v.inventory.tracked ? { stock_quantity: v.inventory.quantity } : {}),
    weight: v.weight ? convertWeight(v.weight.value, v.weight.unit, units.weight) : '',
    attributes: v.optionValues.map((o) => ({ name: o.name, option: o.value })),
    menu_order: menuOrder,
    image: imageId ? { id: imageId } : {},
  };
}

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
      `WooCommerce keeps one billing and one shipping address; ${dropped} other address(es) were not copied.`,
    );
  if (c.acceptsMarketing)
    warnings.push('WooCommerce has no marketing consent field; the consent was not copied.');
  if (c.note) warnings.push('WooCommerce has no customer note; the note was not copied.');
  if (c.tags.length) warnings.push('WooCommerce has no customer tags; the tags were not copied.');
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

export function orderStatusToWc(status: Order['status']): string {
  return status;
}

export function orderBody(o: Order, customerId: number, lines: LineRefs[]): Written {
  const warnings: string[] = [];
  const m = (x: Money) => fromMinor(x.amount, o.currency);
  const paid = ['paid', 'partially_paid', 'partially_refunded'].includes(o.paymentStatus);
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
  if (paid && !['processing', 'completed'].includes(o.status))
    warnings.push(
      `A paid order with status '${o.status}' keeps its status; WooCommerce shows it as unpaid.`,
    );
  if (o.lines.some((l) => l.total.amount !== l.unitPrice.amount * l.quantity))
    warnings.push('Line discounts are folded into the line totals.');
  const billing: Json = {
    ...(o.billingAddress ? { ...address(o.billingAddress), phone: o.billingAddress.phone } : {}),
    ...(o.email ? { email: o.email } : {}),
  };
  return {
    body: {
      status: orderStatusToWc(o.status),
      currency: o.currency,
      customer_id: customerId,
      customer_note: o.note,
      created_via: createdVia,
      ...(Object.keys(billing).length ? { billing } : {}),
      ...(o.shippingAddress ? { shipping: address(o.shippingAddress) } : {}),
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
        meta_data: [{ key: markers.tax, value: m(s.tax) }],
      })),
      fee_lines: feeLines,
      set_paid: paid && ['processing', 'completed'].includes(o.status),
    },
    warnings,
  };
}
