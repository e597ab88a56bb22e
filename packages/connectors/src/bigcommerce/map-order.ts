import type { Address } from '@replatform/canonical/address';
import { fromMinor, toMinor } from '@replatform/canonical/money';
import type { Order, OrderLine, ShippingLine } from '@replatform/canonical/order';
import { isoDate } from './map-catalog.ts';
import type {
  BcOrder,
  BcOrderAddress,
  BcOrderCoupon,
  BcOrderProduct,
  BcOrderShippingAddress,
} from './payloads.ts';

/**
 * BigCommerce v2 orders (orders.v2.oas2.yml) <-> canonical orders.
 *
 * Status mapping (BigCommerce status_id -> canonical, and back):
 *
 * | id | BigCommerce                  | canonical  | written as |
 * |----|------------------------------|------------|------------|
 * | 0  | Incomplete                   | pending    |            |
 * | 1  | Pending                      | pending    |            |
 * | 7  | Awaiting Payment             | pending    | pending    |
 * | 11 | Awaiting Fulfillment         | processing | processing |
 * | 9  | Awaiting Shipment            | processing |            |
 * | 8  | Awaiting Pickup              | processing |            |
 * | 3  | Partially Shipped            | processing |            |
 * | 12 | Manual Verification Required | on-hold    | on-hold    |
 * | 13 | Disputed                     | on-hold    |            |
 * | 10 | Completed                    | completed  | completed  |
 * | 2  | Shipped                      | completed  |            |
 * | 14 | Partially Refunded           | completed  |            |
 * | 4  | Refunded                     | refunded   | refunded   |
 * | 5  | Cancelled                    | cancelled  | cancelled  |
 * | 6  | Declined                     | failed     | failed     |
 *
 * The payment status is read-only on BigCommerce (set by its payment processing), so imported
 * orders carry none; reading derives it from `payment_status`, or from the status when empty.
 * Fulfilment follows items_shipped / items_total, which an import may set.
 */

const fromStatusId: Record<number, Order['status']> = {
  0: 'pending',
  1: 'pending',
  2: 'completed',
  3: 'processing',
  4: 'refunded',
  5: 'cancelled',
  6: 'failed',
  7: 'pending',
  8: 'processing',
  9: 'processing',
  10: 'completed',
  11: 'processing',
  12: 'on-hold',
  13: 'on-hold',
  14: 'completed',
};

export const toStatusId: Record<Order['status'], number> = {
  pending: 7,
  processing: 11,
  'on-hold': 12,
  completed: 10,
  cancelled: 5,
  refunded: 4,
  failed: 6,
};

function paymentStatus(order: BcOrder, status: Order['status']): Order['paymentStatus'] {
  switch (order.payment_status.toLowerCase()) {
    case 'captured':
    case 'paid':
      return 'paid';
    case 'authorized':
      return 'authorized';
    case 'partially refunded':
      return 'partially_refunded';
    case 'refunded':
      return 'refunded';
    case 'void':
    case 'void pending':
    case 'declined':
      return 'voided';
    case '':
      break;
    default:
      return 'pending';
  }
  if (order.status_id === 14) return 'partially_refunded';
  switch (status) {
    case 'processing':
    case 'completed':
      return 'paid';
    case 'refunded':
      return 'refunded';
    case 'cancelled':
      return 'voided';
    default:
      return 'pending';
  }
}

function addressToCanonical(a: BcOrderAddress): Address {
  const code = a.country_iso2.trim().toUpperCase();
  return {
    firstName: a.first_name,
    lastName: a.last_name,
    company: a.company,
    address1: a.street_1,
    address2: a.street_2,
    city: a.city,
    province: a.state,
    postalCode: a.zip,
    countryCode: /^[A-Z]{2}$/.test(code) ? code : '',
    phone: a.phone,
  };
}

const isEmpty = (a: Address) => Object.values(a).every((v) => v === '');

export interface OrderParts {
  products: BcOrderProduct[];
  shippingAddresses: BcOrderShippingAddress[];
  coupons: BcOrderCoupon[];
}

export function orderToCanonical(order: BcOrder, parts: OrderParts): Order {
  const currency = order.currency_code.toUpperCase();
  const money = (value: string) => ({ amount: toMinor(value, currency), currency });
  const createdAt = isoDate(order.date_created);
  if (!createdAt) throw new Error(`order ${order.id} has no readable date_created`);
  if (parts.products.length === 0) throw new Error(`order ${order.id} has no products`);
  const status = fromStatusId[order.status_id] ?? 'pending';
  const lines: OrderLine[] = parts.products.map((p) => ({
    id: String(p.id),
    productId: p.product_id > 0 ? String(p.product_id) : null,
    variantId: p.variant_id ? String(p.variant_id) : null,
    sku: p.sku,
    name: p.name || p.sku || `Item ${p.id}`,
    quantity: p.quantity,
    unitPrice: money(p.price_ex_tax),
    tax: money(p.total_tax),
    total: money(p.total_ex_tax),
  }));
  const shippingLines: ShippingLine[] = parts.shippingAddresses.flatMap((a) => {
    const method = a.shipping_method.trim();
    const named = method !== '' && method !== 'None';
    const price = money(a.cost_ex_tax);
    const tax = money(a.cost_tax);
    if (!named && price.amount === 0 && tax.amount === 0) return [];
    return [{ title: named ? method : 'Shipping', code: '', price, tax }];
  });
  const shippingTotal = money(order.shipping_cost_ex_tax);
  if (parts.shippingAddresses.length === 0 && shippingTotal.amount > 0) {
    shippingLines.push({
      title: 'Shipping',
      code: '',
      price: shippingTotal,
      tax: money(order.shipping_cost_tax ?? '0'),
    });
  }
  const manual = money(order.discount_amount);
  const discounts = parts.coupons.map((c) => ({ code: c.code ?? '', amount: money(c.amount) }));
  if (manual.amount > 0) discounts.push({ code: '', amount: manual });
  const billing = addressToCanonical(order.billing_address);
  const firstShipping = parts.shippingAddresses[0];
  const shipping = firstShipping ? addressToCanonical(firstShipping) : null;
  const itemsTotal = order.items_total || lines.reduce((s, l) => s + l.quantity, 0);
  return {
    id: String(order.id),
    number: String(order.id),
    createdAt,
    updatedAt: isoDate(order.date_modified),
    currency,
    customerId: order.customer_id > 0 ? String(order.customer_id) : null,
    email: order.billing_address.email.trim().toLowerCase(),
    status,
    paymentStatus: paymentStatus(order, status),
    fulfillmentStatus:
      order.items_shipped <= 0
        ? 'unfulfilled'
        : order.items_shipped >= itemsTotal
          ? 'fulfilled'
          : 'partial',
    lines,
    shippingLines,
    discounts,
    subtotal: money(order.subtotal_ex_tax),
    taxTotal: money(order.total_tax),
    shippingTotal,
    discountTotal: { amount: manual.amount + money(order.coupon_discount).amount, currency },
    grandTotal: money(order.total_inc_tax),
    billingAddress: isEmpty(billing) ? null : billing,
    shippingAddress: shipping && !isEmpty(shipping) ? shipping : null,
    note: order.customer_message,
  };
}

/** RFC 2822, as v2 wants date_created: 'Tue, 20 Nov 2012 00:00:00 +0000'. */
export function rfc2822(iso: string): string {
  return new Date(iso).toUTCString().replace('GMT', '+0000');
}

/** Marker written in `external_order_id`; GET /v2/orders?external_order_id= finds it again. */
export const orderMarker = (sourceId: string) => `replatform_source_id:${sourceId}`;

export interface LineTarget {
  productId: number;
  variantId: number | undefined;
}

function addressToBc(a: Address, email: string): Record<string, string> {
  return {
    first_name: a.firstName,
    last_name: a.lastName,
    company: a.company,
    street_1: a.address1,
    street_2: a.address2,
    city: a.city,
    state: a.province,
    zip: a.postalCode,
    country_iso2: a.countryCode,
    phone: a.phone,
    email,
  };
}

/**
 * The body of POST /v2/orders for a historical import: amounts as they were, the status mapped,
 * `external_source: 'M-MIG'` (orders.v2 createOrder: migrated orders stay out of the store's
 * order count and GMV), and the marker in `external_order_id`. v2 sends no e-mails for API orders.
 */
export function orderToBc(
  order: Order,
  refs: { customerId: number; lines: (LineTarget | undefined)[] },
): { body: Record<string, unknown>; warnings: string[] } {
  const warnings: string[] = [];
  const c = order.currency;
  const decimal = (amount: number) => fromMinor(amount, c);
  const lineTax = order.lines.reduce((s, l) => s + l.tax.amount, 0);
  const shippingTax = order.shippingLines.reduce((s, l) => s + l.tax.amount, 0);
  const billing = order.billingAddress ?? order.shippingAddress;
  if (!order.billingAddress)
    warnings.push(
      'no billing address at the source; the shipping address was used (billingAddress)',
    );
  const products = order.lines.map((line, index) => {
    const target = refs.lines[index];
    const unit = Number(decimal(line.unitPrice.amount));
    // Unit tax to 4 decimals, so that quantity x unit tax rounds back to the line's tax.
    const unitTax = Number(decimal(line.tax.amount)) / line.quantity;
    const unitInc = Math.round((unit + unitTax) * 10_000) / 10_000;
    const common = {
      name: line.name.slice(0, 250),
      quantity: line.quantity,
      price_ex_tax: unit,
      price_inc_tax: unitInc,
    };
    if (target) {
      return {
        product_id: target.productId,
        ...(target.variantId ? { variant_id: target.variantId } : {}),
        ...common,
      };
    }
    if (line.productId)
      warnings.push(
        `line '${line.name}' was imported as a custom item (its product is not at the destination) (lines.productId)`,
      );
    return { ...common, ...(line.sku ? { sku: line.sku } : {}) };
  });
  if (order.lines.some((l) => l.unitPrice.currency !== c || l.tax.currency !== c)) {
    warnings.push(
      'some line amounts are in another currency than the order (not converted) (lines.unitPrice)',
    );
  }
  const itemsTotal = order.lines.reduce((s, l) => s + l.quantity, 0);
  // The canonical order says that some items were shipped, not which or how many: no number is
  // made up for them.
  const itemsShipped = order.fulfillmentStatus === 'fulfilled' ? itemsTotal : 0;
  if (order.fulfillmentStatus === 'partial') {
    warnings.push(
      'partially shipped at the source, without shipped quantities per line: no items were marked shipped (fulfillmentStatus)',
    );
  }
  if (order.shippingLines.length > 1) {
    warnings.push(
      'several shipping lines were combined into one (BigCommerce keeps one per address) (shippingLines)',
    );
  }
  const method = order.shippingLines
    .map((l) => l.title)
    .filter(Boolean)
    .join(' + ');
  const shippingAddress = order.shippingAddress ?? (order.shippingLines.length ? billing : null);
  const totals = orderTotals(order, warnings);
  // What BigCommerce decides for itself on an imported order (capabilities.unsupportedFields).
  warnings.push(
    `BigCommerce numbers orders itself: the source number ${order.number} is kept in the staff notes (number)`,
    'payment status not kept: BigCommerce sets it from its own payment processing (paymentStatus)',
  );
  if (order.updatedAt)
    warnings.push('modification date not kept: BigCommerce sets its own (updatedAt)');
  if (order.shippingLines.some((l) => l.code)) {
    warnings.push(
      'shipping method codes not kept: BigCommerce keeps the method name (shippingLines.code)',
    );
  }
  if (order.discounts.some((d) => d.code)) {
    warnings.push(
      'discount codes not kept: an imported order carries one discount amount (discounts.code)',
    );
  }
  const body: Record<string, unknown> = {
    customer_id: refs.customerId,
    status_id: toStatusId[order.status],
    date_created: rfc2822(order.createdAt),
    default_currency_code: c,
    billing_address: addressToBc(billing ?? emptyAddress(), order.email),
    products,
    subtotal_ex_tax: decimal(order.subtotal.amount),
    subtotal_inc_tax: decimal(order.subtotal.amount + lineTax),
    shipping_cost_ex_tax: decimal(order.shippingTotal.amount),
    shipping_cost_inc_tax: decimal(order.shippingTotal.amount + shippingTax),
    discount_amount: decimal(order.discountTotal.amount),
    total_ex_tax: decimal(totals.exTax),
    total_inc_tax: decimal(totals.incTax),
    items_shipped: itemsShipped,
    customer_message: order.note,
    staff_notes: `Imported by Replatform from order #${order.number} (source id ${order.id}).`,
    external_source: 'M-MIG',
    external_order_id: orderMarker(order.id),
    payment_method: 'Imported order',
  };
  if (shippingAddress) {
    body.shipping_addresses = [
      { ...addressToBc(shippingAddress, order.email), shipping_method: method },
    ];
  }
  return { body, warnings };
}

/**
 * Order totals as BigCommerce takes them: it refuses a negative total_ex_tax or total_inc_tax
 * (422 "can't be negative"). A source order whose discounts exceed what was charged before tax
 * (tax computed before the discount, or a coupon larger than the basket) keeps what the
 * customer paid and writes the total before tax as 0, with a warning.
 */
export function orderTotals(order: Order, warnings: string[]): { exTax: number; incTax: number } {
  const c = order.currency;
  const grand = order.grandTotal.amount;
  const exTax = grand - order.taxTotal.amount;
  if (grand >= 0 && exTax >= 0) return { exTax, incTax: grand };
  const incTax = Math.max(0, grand);
  if (grand < 0) {
    warnings.push(
      `the order total was negative (${fromMinor(grand, c)} ${c}); written as 0 (BigCommerce totals cannot be negative) (grandTotal)`,
    );
  }
  if (exTax < 0) {
    warnings.push(
      `discounts exceed the order's total before tax (${fromMinor(exTax, c)} ${c}); the total excluding tax was written as 0 (taxTotal)`,
    );
  }
  return { exTax: Math.max(0, Math.min(incTax, exTax)), incTax };
}

function emptyAddress(): Address {
  return {
    firstName: '',
    lastName: '',
    company: '',
    address1: '',
    address2: '',
    city: '',
    province: '',
    postalCode: '',
    countryCode: '',
    phone: '',
  };
}
