import { emptyAddress, type Address } from '@replatform/canonical/address';
import { orderDefaults, orderLineDefaults } from '@replatform/canonical/defaults';
import type { Metafield } from '@replatform/canonical/metafield';
import { fromMinor, toMinor, type Money } from '@replatform/canonical/money';
import type { FeeLine, Order, OrderLine, ShippingLine } from '@replatform/canonical/order';
import {
  fieldMetafield,
  fieldsNamespace,
  orderExtras,
  orderSpecialKeys,
  readExtras,
  writeExtras,
} from './extras.ts';
import { isoDate } from './map-catalog.ts';
import type { Json } from './native.ts';
import type { BcOrder, BcOrderAddress } from './payloads.ts';

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
 * A status that does not map back to its own id (Shipped, Partially Refunded, ...) is kept as the
 * custom field `bigcommerce_fields` / `status_id`, which a BigCommerce destination writes back.
 *
 * The payment status is read-only on BigCommerce (set by its payment processing), so imported
 * orders carry none; reading derives it from `payment_status`, or from the status when empty.
 * Fulfilment follows items_shipped / items_total, which an import may set.
 *
 * Handling and gift-wrapping costs of the order are read as the fees 'Handling' and 'Gift
 * wrapping' (marked by the custom fields `handling_fee` / `wrapping_fee`, so a BigCommerce
 * destination writes them back to those costs). The v2 orders API has neither refunds with dates
 * nor order notes with dates: the refunded total is read, the staff notes are kept as a custom
 * field, and notes from other platforms are written into the staff notes.
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

export const handlingFeeName = 'Handling';
export const wrappingFeeName = 'Gift wrapping';

/** orders.v2.oas2.yml order_source values (order_Shared). */
const orderSources = new Set([
  'www',
  'iphone',
  'ipad',
  'android',
  'mobile',
  'manual',
  'external',
  'checkout_api',
  'buybutton',
  'amazon',
  'ebay',
  'facebookshop',
  'facebookcheckout',
  'facebookmarketplace',
  'pinterest',
  'socialshop',
]);

/** How other platforms name where an order came from, in BigCommerce's words. */
const sourceOf: Record<string, string> = {
  checkout: 'www',
  'store-api': 'www',
  admin: 'manual',
  'rest-api': 'external',
  web: 'www',
};

/**
 * Where an order came from in BigCommerce's words (its order_source), or undefined when it has
 * none there. An order that says nothing is made 'external' by BigCommerce, as every order made
 * through the API without a source.
 */
export function bigCommerceOrderSource(createdVia: string): string | undefined {
  if (createdVia === '') return 'external';
  return orderSources.has(createdVia) ? createdVia : sourceOf[createdVia];
}

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
    email: a.email,
  };
}

const isEmpty = (a: Address) => Object.values(a).every((v) => v === '');

export interface OrderContext {
  /** Ids of the products (of this page's orders) that still exist in the catalogue. */
  liveProducts: ReadonlySet<number>;
}

export function orderToCanonical(order: BcOrder, raw: Json, ctx: OrderContext): Order {
  const currency = (order.default_currency_code || order.currency_code).toUpperCase();
  const money = (value: string): Money => ({ amount: toMinor(value, currency), currency });
  const createdAt = isoDate(order.date_created);
  if (!createdAt) throw new Error(`order ${order.id} has no readable date_created`);
  if (order.products.length === 0) throw new Error(`order ${order.id} has no products`);
  const status = fromStatusId[order.status_id] ?? 'pending';
  // The migration's own marker (an order imported before) is not the order's id elsewhere.
  const metafields: Metafield[] = readExtras(raw, orderExtras).filter(
    (m) => !(m.key === 'external_order_id' && m.value.startsWith(markerPrefix)),
  );
  if (toStatusId[status] !== order.status_id)
    metafields.push(fieldMetafield('status_id', 'integer', order.status_id));
  const lines: OrderLine[] = order.products.map((p) => {
    const live = p.product_id > 0 && ctx.liveProducts.has(p.product_id);
    return {
      ...orderLineDefaults(),
      id: String(p.id),
      productId: live ? String(p.product_id) : null,
      variantId: live && p.variant_id ? String(p.variant_id) : null,
      sku: p.sku,
      name: p.name || p.sku || `Item ${p.id}`,
      quantity: p.quantity,
      unitPrice: money(p.price_ex_tax),
      tax: money(p.total_tax),
      total: money(p.total_ex_tax),
      meta: p.product_options
        .filter((o) => o.display_name)
        .map((o) => ({ key: o.display_name, value: o.display_value })),
    };
  });
  const shippingLines: ShippingLine[] = order.shipping_addresses.flatMap((a) => {
    const method = a.shipping_method.trim();
    const named = method !== '' && method !== 'None';
    const price = money(a.cost_ex_tax);
    const tax = { amount: money(a.cost_inc_tax).amount - price.amount, currency };
    if (!named && price.amount === 0 && tax.amount === 0) return [];
    return [{ title: named ? method : '', code: '', price, tax }];
  });
  const shippingTotal = money(order.shipping_cost_ex_tax);
  if (order.shipping_addresses.length === 0 && shippingTotal.amount !== 0) {
    shippingLines.push({
      title: '',
      code: '',
      price: shippingTotal,
      tax: money(order.shipping_cost_tax),
    });
  }
  if (money(order.base_shipping_cost).amount !== shippingTotal.amount)
    metafields.push(fieldMetafield('base_shipping_cost', 'text', order.base_shipping_cost));
  const fees: FeeLine[] = order.fees.map((f) => {
    const amount = money(f.cost_ex_tax);
    return {
      name: f.display_name_customer || f.display_name_merchant,
      amount,
      tax: { amount: money(f.cost_inc_tax).amount - amount.amount, currency },
      taxClass:
        f.tax_class_id === null || f.tax_class_id === undefined ? '' : String(f.tax_class_id),
      taxStatus: 'taxable',
    };
  });
  const charge = (
    name: string,
    ex: string,
    inc: string,
    base: string,
    marker: 'handling_fee' | 'wrapping_fee',
    baseKey: 'base_handling_cost' | 'base_wrapping_cost',
  ) => {
    const amount = money(ex);
    const withTax = money(inc);
    if (amount.amount === 0 && withTax.amount === 0) return;
    fees.push({
      name,
      amount,
      tax: { amount: withTax.amount - amount.amount, currency },
      taxClass: '',
      taxStatus: 'taxable',
    });
    metafields.push(fieldMetafield(marker, 'boolean', true));
    if (money(base).amount !== amount.amount)
      metafields.push(fieldMetafield(baseKey, 'text', base));
  };
  charge(
    handlingFeeName,
    order.handling_cost_ex_tax,
    order.handling_cost_inc_tax,
    order.base_handling_cost,
    'handling_fee',
    'base_handling_cost',
  );
  charge(
    wrappingFeeName,
    order.wrapping_cost_ex_tax,
    order.wrapping_cost_inc_tax,
    order.base_wrapping_cost,
    'wrapping_fee',
    'base_wrapping_cost',
  );
  const manual = money(order.discount_amount);
  const discounts = order.coupons.map((c) => ({
    code: c.code ?? '',
    amount: money(c.amount),
    tax: { amount: 0, currency },
  }));
  if (manual.amount > 0) discounts.push({ code: '', amount: manual, tax: { amount: 0, currency } });
  const billing = addressToCanonical(order.billing_address);
  const firstShipping = order.shipping_addresses[0];
  const shipping = firstShipping ? addressToCanonical(firstShipping) : null;
  const itemsTotal = order.items_total || lines.reduce((s, l) => s + l.quantity, 0);
  if (order.items_shipped > 0 && order.items_shipped < itemsTotal)
    metafields.push(fieldMetafield('items_shipped', 'integer', order.items_shipped));
  return {
    ...orderDefaults(currency),
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
    fees,
    subtotal: money(order.subtotal_ex_tax),
    taxTotal: money(order.total_tax),
    shippingTotal,
    discountTotal: { amount: manual.amount + money(order.coupon_discount).amount, currency },
    feeTotal: { amount: fees.reduce((s, f) => s + f.amount.amount, 0), currency },
    refundTotal: money(order.refunded_amount),
    grandTotal: money(order.total_inc_tax),
    billingAddress: isEmpty(billing) ? null : billing,
    shippingAddress: shipping && !isEmpty(shipping) ? shipping : null,
    note: order.customer_message,
    paymentMethodTitle: order.payment_method,
    transactionId: order.payment_provider_id,
    completedAt: isoDate(order.date_shipped),
    pricesIncludeTax: order.is_tax_inclusive_pricing,
    customerIpAddress: order.ip_address || order.ip_address_v6,
    createdVia: order.order_source,
    metafields,
  };
}

/** RFC 2822, as v2 wants date_created: 'Tue, 20 Nov 2012 00:00:00 +0000'. */
export function rfc2822(iso: string): string {
  return new Date(iso).toUTCString().replace('GMT', '+0000');
}

const markerPrefix = 'replatform_source_id:';

/**
 * What an imported order's `external_order_id` holds, so GET /v2/orders?external_order_id= finds
 * it again: the order's own id in another system when it has one (BigCommerce's field for just
 * that), else a marker with the source id.
 */
export function orderKey(order: Order): string {
  const own = order.metafields.find(
    (m) => m.namespace === fieldsNamespace && m.key === 'external_order_id',
  )?.value;
  return own && !own.startsWith(markerPrefix) ? own : `${markerPrefix}${order.id}`;
}

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

/** A note as one paragraph of the staff notes: when, who, whether the customer saw it. */
export function noteText(note: Order['notes'][number]): string {
  const when = `${note.createdAt.slice(0, 16).replace('T', ' ')} UTC`;
  const who = note.author || 'store';
  return `[${when}, ${who}${note.customerNote ? ', sent to the customer' : ''}] ${note.content}`;
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
  const warnings = new Set<string>();
  const c = order.currency;
  const decimal = (amount: number) => fromMinor(amount, c);
  const lineTax = order.lines.reduce((s, l) => s + l.tax.amount, 0);
  const shippingTax = order.shippingLines.reduce((s, l) => s + l.tax.amount, 0);
  const extras = writeExtras(order.metafields, orderExtras, orderSpecialKeys);
  const special = extras.special;
  const billing = order.billingAddress ?? order.shippingAddress;
  if (!order.billingAddress && order.shippingAddress)
    warnings.add(
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
    if (line.total.amount !== line.unitPrice.amount * line.quantity)
      warnings.add(
        `line '${line.name}': BigCommerce computes a line's total from its price and quantity; its discount is kept only in the order's discount total (lines.total)`,
      );
    if (target) {
      if (line.meta.length)
        warnings.add(
          `line '${line.name}': BigCommerce shows a line's details as the options of its variant; details that are not one of them are not kept (lines.meta)`,
        );
      return {
        product_id: target.productId,
        ...(target.variantId ? { variant_id: target.variantId } : {}),
        ...common,
      };
    }
    if (line.productId)
      warnings.add(
        `line '${line.name}' was imported as a custom item (its product is not at the destination) (lines.productId)`,
      );
    if (line.meta.length)
      warnings.add(
        `the options of line '${line.name}' were not kept: a custom item has no options (lines.meta)`,
      );
    return { ...common, ...(line.sku ? { sku: line.sku } : {}) };
  });
  if (order.lines.some((l) => l.unitPrice.currency !== c || l.tax.currency !== c)) {
    warnings.add(
      'some line amounts are in another currency than the order (not converted) (lines.unitPrice)',
    );
  }
  const itemsTotal = order.lines.reduce((s, l) => s + l.quantity, 0);
  // The canonical order says that some items were shipped, not which or how many: no number is
  // made up for them unless the source's own count travelled with it.
  let itemsShipped = order.fulfillmentStatus === 'fulfilled' ? itemsTotal : 0;
  if (order.fulfillmentStatus === 'partial') {
    const counted = Number(special.get('items_shipped') ?? 0);
    if (counted > 0) itemsShipped = Math.min(counted, itemsTotal);
    else
      warnings.add(
        'partially shipped at the source, without shipped quantities per line: no items were marked shipped (fulfillmentStatus)',
      );
  }
  if (order.shippingLines.length > 1) {
    warnings.add(
      'several shipping lines were combined into one (BigCommerce keeps one per address) (shippingLines)',
    );
  }
  const method = order.shippingLines
    .map((l) => l.title)
    .filter(Boolean)
    .join(' + ');
  if (!order.shippingAddress && method)
    warnings.add(
      `the shipping method '${method}' was not kept: BigCommerce names it on a shipping address, and the order had none (shippingLines)`,
    );
  // Fees: BigCommerce's own handling and wrapping costs go back there, the rest are fees.
  const fees = [...order.fees];
  const takeFee = (marker: string, name: string) => {
    if (special.get(marker) !== 'true') return undefined;
    const index = fees.findIndex((f) => f.name === name);
    return index < 0 ? undefined : fees.splice(index, 1)[0];
  };
  const handling = takeFee('handling_fee', handlingFeeName);
  const wrapping = takeFee('wrapping_fee', wrappingFeeName);
  const totals = orderTotals(order, warnings);
  const body: Record<string, unknown> = {
    customer_id: refs.customerId,
    status_id: Number(special.get('status_id') ?? toStatusId[order.status]),
    date_created: rfc2822(order.createdAt),
    default_currency_code: c,
    billing_address: addressToBc(
      billing ?? emptyAddress(),
      order.billingAddress?.email || order.email,
    ),
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
    external_source: 'M-MIG',
    external_order_id: orderKey(order),
  };
  const base = special.get('base_shipping_cost');
  if (base) body.base_shipping_cost = base;
  if (handling) {
    body.handling_cost_ex_tax = decimal(handling.amount.amount);
    body.handling_cost_inc_tax = decimal(handling.amount.amount + handling.tax.amount);
    const baseHandling = special.get('base_handling_cost');
    if (baseHandling) body.base_handling_cost = baseHandling;
  }
  if (wrapping) {
    body.wrapping_cost_ex_tax = decimal(wrapping.amount.amount);
    body.wrapping_cost_inc_tax = decimal(wrapping.amount.amount + wrapping.tax.amount);
    const baseWrapping = special.get('base_wrapping_cost');
    if (baseWrapping) body.base_wrapping_cost = baseWrapping;
  }
  if (fees.length) {
    body.fees = fees.map((fee) => {
      if (!fee.name)
        warnings.add("fees without a name were named 'Fee' (BigCommerce requires one) (fees.name)");
      const taxClass = Number(fee.taxClass);
      if (fee.taxClass && !(Number.isInteger(taxClass) && taxClass >= 0))
        warnings.add(
          `the tax class '${fee.taxClass}' of a fee is not a BigCommerce tax class id (fees.taxClass)`,
        );
      return {
        type: 'custom_fee',
        display_name_customer: fee.name || 'Fee',
        cost_ex_tax: decimal(fee.amount.amount),
        cost_inc_tax: decimal(fee.amount.amount + fee.tax.amount),
        ...(fee.taxClass && Number.isInteger(taxClass) && taxClass >= 0
          ? { tax_class_id: taxClass }
          : {}),
      };
    });
  }
  const staffNotes = [extras.fields.get('staff_notes'), ...order.notes.map(noteText)]
    .filter((text): text is string => typeof text === 'string' && text !== '')
    .join('\n\n');
  if (staffNotes) body.staff_notes = staffNotes.slice(0, 65_535);
  const payment = order.paymentMethodTitle || order.paymentMethod;
  if (payment) body.payment_method = payment;
  if (order.transactionId) body.payment_provider_id = order.transactionId;
  if (order.refundTotal.amount > 0) body.refunded_amount = decimal(order.refundTotal.amount);
  const ip = order.customerIpAddress;
  if (ip) {
    const v6 = ip.includes(':');
    if (ip.length > (v6 ? 39 : 30))
      warnings.add("the buyer's IP address is longer than BigCommerce takes (customerIpAddress)");
    else body[v6 ? 'ip_address_v6' : 'ip_address'] = ip;
  }
  const source = order.createdVia ? bigCommerceOrderSource(order.createdVia) : undefined;
  if (source) body.order_source = source;
  else if (order.createdVia)
    warnings.add(
      `where the order came from ('${order.createdVia}') has no BigCommerce order source; BigCommerce marks it external (createdVia)`,
    );
  for (const [field, value] of extras.fields) {
    if (field === 'staff_notes' || field === 'external_order_id' || value === null) continue;
    body[field] = value;
  }
  if (extras.unknown.length)
    warnings.add(
      `BigCommerce order fields it does not know were left out: ${extras.unknown.join(', ')} (metafields)`,
    );
  const foreign = order.metafields.filter((m) => !m.namespace.startsWith('bigcommerce'));
  if (foreign.length)
    warnings.add(
      `custom fields of the order were not kept (BigCommerce orders have none): ${[...new Set(foreign.map((m) => `${m.namespace}/${m.key}`))].join(', ')} (metafields)`,
    );
  if (order.shippingAddress) {
    body.shipping_addresses = [
      {
        ...addressToBc(order.shippingAddress, order.shippingAddress.email),
        shipping_method: method,
      },
    ];
  }
  return { body, warnings: [...warnings] };
}

/**
 * Order totals as BigCommerce takes them: it refuses a negative total_ex_tax or total_inc_tax
 * (422 "can't be negative"). A source order whose discounts exceed what was charged before tax
 * (tax computed before the discount, or a coupon larger than the basket) keeps what the
 * customer paid and writes the total before tax as 0, with a warning.
 */
export function orderTotals(
  order: Order,
  warnings: Set<string>,
): { exTax: number; incTax: number } {
  const c = order.currency;
  const grand = order.grandTotal.amount;
  const exTax = grand - order.taxTotal.amount;
  if (grand >= 0 && exTax >= 0) return { exTax, incTax: grand };
  const incTax = Math.max(0, grand);
  if (grand < 0) {
    warnings.add(
      `the order total was negative (${fromMinor(grand, c)} ${c}); written as 0 (BigCommerce totals cannot be negative) (grandTotal)`,
    );
  }
  if (exTax < 0) {
    warnings.add(
      `discounts exceed the order's total before tax (${fromMinor(exTax, c)} ${c}); the total excluding tax was written as 0 (taxTotal)`,
    );
  }
  return { exTax: Math.max(0, Math.min(incTax, exTax)), incTax };
}
