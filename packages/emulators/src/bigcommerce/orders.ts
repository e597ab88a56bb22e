import { z } from 'zod';
import { variantJson, type CatalogContext } from './catalog.ts';
import { BcHttpError, countryCodeOf, countryName, fromUnits, toUnits, v2Date } from './http.ts';
import {
  orderStatuses,
  type BcOrder,
  type BcOrderAddress,
  type BcOrderFee,
  type BcOrderProduct,
  type BcOrderShippingAddress,
} from './state.ts';

/**
 * v2 orders (orders.v2.oas2.yml). POST /v2/orders imports an order without sending e-mails; the
 * amounts given override what the platform would compute, which is what historical imports use.
 */

const amount = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n) || n < 0) {
    ctx.addIssue({ code: 'custom', message: "can't be negative or non-numeric" });
    return z.NEVER;
  }
  return toUnits(n);
});

const addressInput = z.object({
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  company: z.string().optional(),
  street_1: z.string().optional(),
  street_2: z.string().optional(),
  city: z.string().optional(),
  state: z.string().optional(),
  zip: z.string().optional(),
  country: z.string().optional(),
  country_iso2: z.string().optional(),
  phone: z.string().optional(),
  email: z.string().optional(),
});

const orderProductInput = z.object({
  product_id: z.number().int().min(0).optional(),
  variant_id: z.number().int().min(0).optional(),
  product_options: z
    .array(z.object({ id: z.number().int(), value: z.string() }).loose())
    .optional(),
  name: z.string().min(1).max(250).optional(),
  name_customer: z.string().optional(),
  name_merchant: z.string().optional(),
  quantity: z.number().int().min(1),
  price_inc_tax: amount.optional(),
  price_ex_tax: amount.optional(),
  upc: z.string().optional(),
  sku: z.string().optional(),
  wrapping_id: z.number().int().min(0).optional(),
  wrapping_name: z.string().optional(),
  wrapping_message: z.string().optional(),
  wrapping_cost_ex_tax: amount.optional(),
  wrapping_cost_inc_tax: amount.optional(),
});

/** A fee amount: no sign rule is published for fees, so a credit (negative fee) is taken. */
const signedAmount = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) {
    ctx.addIssue({ code: 'custom', message: 'not numeric' });
    return z.NEVER;
  }
  return toUnits(n);
});

/** orders.v2.oas2.yml orderFees_Post. */
const feeInput = z
  .object({
    type: z.literal('custom_fee').optional(),
    display_name_customer: z.string().optional(),
    display_name_merchant: z.string().optional(),
    source: z.string().optional(),
    cost_ex_tax: signedAmount.optional(),
    cost_inc_tax: signedAmount.optional(),
    cost_tax: signedAmount.optional(),
    tax_class_id: z.number().int().nullable().optional(),
  })
  .superRefine((fee, ctx) => {
    if (!fee.display_name_customer && !fee.display_name_merchant)
      ctx.addIssue({ code: 'custom', message: 'a fee needs a display name' });
    const given = [fee.cost_ex_tax, fee.cost_inc_tax, fee.cost_tax].filter((v) => v !== undefined);
    if (given.length < 2)
      ctx.addIssue({
        code: 'custom',
        message: 'a fee needs two of cost_ex_tax, cost_inc_tax and cost_tax',
      });
  });

export const orderCreateSchema = z
  .object({
    billing_address: addressInput.extend({ zip: z.string() }),
    products: z.array(orderProductInput).min(1).optional(),
    shipping_addresses: z
      .array(addressInput.extend({ shipping_method: z.string().optional() }))
      .optional(),
    consignments: z.unknown().optional(),
    customer_id: z.number().int().min(0).optional(),
    status_id: z.number().int().min(0).max(14).optional(),
    date_created: z.string().optional(),
    default_currency_code: z.string().optional(),
    discount_amount: amount.optional(),
    base_shipping_cost: amount.optional(),
    shipping_cost_ex_tax: amount.optional(),
    shipping_cost_inc_tax: amount.optional(),
    handling_cost_ex_tax: amount.optional(),
    handling_cost_inc_tax: amount.optional(),
    wrapping_cost_ex_tax: amount.optional(),
    wrapping_cost_inc_tax: amount.optional(),
    subtotal_ex_tax: amount.optional(),
    subtotal_inc_tax: amount.optional(),
    total_ex_tax: amount.optional(),
    total_inc_tax: amount.optional(),
    items_shipped: z.number().int().min(0).optional(),
    items_total: z.number().int().min(0).optional(),
    payment_method: z.string().optional(),
    payment_provider_id: z.union([z.string(), z.number()]).optional(),
    refunded_amount: amount.optional(),
    base_handling_cost: amount.optional(),
    base_wrapping_cost: amount.optional(),
    order_is_digital: z.boolean().optional(),
    ebay_order_id: z.string().optional(),
    geoip_country: z.string().optional(),
    geoip_country_iso2: z.string().optional(),
    ip_address_v6: z.string().max(39).optional(),
    fees: z.array(feeInput).optional(),
    external_source: z.string().nullable().optional(),
    external_id: z.unknown().optional(),
    external_merchant_id: z.string().nullable().optional(),
    external_order_id: z.string().optional(),
    staff_notes: z.string().max(65_535).optional(),
    customer_message: z.string().optional(),
    channel_id: z.number().int().optional(),
    ip_address: z.string().max(30).optional(),
    customer_locale: z.string().optional(),
    order_source: z.string().optional(),
  })
  .superRefine((order, ctx) => {
    if (!order.products && !order.consignments) {
      ctx.addIssue({
        code: 'custom',
        path: ['products'],
        message: 'products or consignments required',
      });
    }
    if ((order.total_ex_tax === undefined) !== (order.total_inc_tax === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['total_inc_tax'],
        message: 'total_ex_tax and total_inc_tax are given together',
      });
    }
    if (order.external_id !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['external_id'], message: 'external_id is read-only' });
    }
    // "You can set either ip_address or ip_address_v6": one resets the other.
    if (order.ip_address && order.ip_address_v6) {
      ctx.addIssue({
        code: 'custom',
        path: ['ip_address_v6'],
        message: 'set either ip_address or ip_address_v6',
      });
    }
    if ((order.subtotal_ex_tax === undefined) !== (order.subtotal_inc_tax === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['subtotal_inc_tax'],
        message: 'subtotal_ex_tax and subtotal_inc_tax are given together',
      });
    }
    if (
      (order.shipping_cost_ex_tax === undefined) !==
      (order.shipping_cost_inc_tax === undefined)
    ) {
      ctx.addIssue({
        code: 'custom',
        path: ['shipping_cost_inc_tax'],
        message: 'shipping_cost_ex_tax and shipping_cost_inc_tax are given together',
      });
    }
  });
export type OrderCreate = z.infer<typeof orderCreateSchema>;

function address(input: z.infer<typeof addressInput>): BcOrderAddress {
  const iso = (
    input.country_iso2 ?? (input.country ? countryCodeOf(input.country) : '')
  ).toUpperCase();
  return {
    first_name: input.first_name ?? '',
    last_name: input.last_name ?? '',
    company: input.company ?? '',
    street_1: input.street_1 ?? '',
    street_2: input.street_2 ?? '',
    city: input.city ?? '',
    state: input.state ?? '',
    zip: input.zip ?? '',
    country: input.country ?? (iso ? countryName(iso) : ''),
    country_iso2: iso,
    phone: input.phone ?? '',
    email: input.email ?? '',
  };
}

function parseRfc2822(text: string): number {
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) {
    throw new BcHttpError(400, 'date_created must be an RFC 2822 date', { date_created: text });
  }
  return ms;
}

export function createOrder(ctx: CatalogContext, input: OrderCreate): BcOrder {
  const { state } = ctx;
  if (input.consignments) {
    throw new BcHttpError(400, 'Pickup consignments are not supported by this store');
  }
  if (input.customer_id && !state.customers.some((c) => c.id === input.customer_id)) {
    throw new BcHttpError(400, 'The customer does not exist', {
      customer_id: String(input.customer_id),
    });
  }
  const now = ctx.now();
  const id = state.nextId('order', 100);
  const shipping = (input.shipping_addresses ?? []).map((a) => ({
    ...address(a),
    shipping_method: a.shipping_method ?? '',
  }));
  const firstAddressId = shipping.length ? state.nextId('order_address', 1) : 0;
  const products: BcOrderProduct[] = (input.products ?? []).map((line, index) => {
    const productId = line.product_id ?? 0;
    let variantId = 0;
    let name = line.name;
    let sku = line.sku ?? '';
    let upc = line.upc ?? '';
    let unit = line.price_ex_tax;
    let weight = 0;
    let brand = '';
    let type: BcOrderProduct['type'] = 'physical';
    const options: BcOrderProduct['product_options'] = [];
    if (productId > 0) {
      const product = state.product(productId);
      if (!product) {
        throw new BcHttpError(400, `Product ${productId} does not exist`, {
          [`products[${index}].product_id`]: 'not found',
        });
      }
      const hasOptions = product.options.length > 0;
      let variant = product.variants.find((v) => v.id === line.variant_id);
      if (line.variant_id !== undefined && !variant) {
        throw new BcHttpError(
          400,
          `Variant ${line.variant_id} is not a variant of product ${productId}`,
          {
            [`products[${index}].variant_id`]: 'not found',
          },
        );
      }
      if (!variant && hasOptions) {
        throw new BcHttpError(
          400,
          `Product ${productId} has options: give variant_id or product_options`,
          {
            [`products[${index}]`]: 'options required',
          },
        );
      }
      variant ??= product.variants[0];
      const json = variant ? variantJson(ctx, product, variant) : undefined;
      variantId = variant?.id ?? 0;
      name ??= product.name;
      sku = sku || String(json?.sku ?? product.sku);
      upc = upc || String(json?.upc ?? '');
      unit ??= toUnits(Number(json?.calculated_price ?? product.price));
      weight = Number(json?.calculated_weight ?? product.weight);
      brand = state.brands.find((b) => b.id === product.brand_id)?.name ?? '';
      type = product.type;
      for (const [optionId, valueId] of variant?.option_value_ids ?? []) {
        const option = product.options.find((o) => o.id === optionId);
        const value = option?.option_values.find((v) => v.id === valueId);
        options.push({
          id: state.nextId('order_product_option', 1),
          option_id: optionId,
          product_option_id: optionId,
          display_name: option?.display_name ?? '',
          display_value: value?.label ?? '',
          value: String(valueId),
        });
      }
    } else if (!line.name || line.price_ex_tax === undefined || line.price_inc_tax === undefined) {
      throw new BcHttpError(
        400,
        'A custom product needs name, quantity, price_ex_tax and price_inc_tax',
        {
          [`products[${index}]`]: 'incomplete custom product',
        },
      );
    }
    const exTax = unit ?? 0;
    return {
      id: state.nextId('order_product', 1),
      product_id: productId,
      variant_id: variantId,
      order_address_id: firstAddressId,
      name: name ?? '',
      name_customer: line.name_customer ?? name ?? '',
      name_merchant: line.name_merchant ?? name ?? '',
      sku,
      upc,
      type,
      quantity: line.quantity,
      quantity_shipped: 0,
      quantity_refunded: 0,
      price_ex_tax: exTax,
      price_inc_tax: line.price_inc_tax ?? exTax,
      weight,
      brand,
      wrapping_id: line.wrapping_id ?? 0,
      wrapping_name: line.wrapping_name ?? '',
      wrapping_message: line.wrapping_message ?? '',
      wrapping_cost_ex_tax: line.wrapping_cost_ex_tax ?? 0,
      wrapping_cost_inc_tax: line.wrapping_cost_inc_tax ?? line.wrapping_cost_ex_tax ?? 0,
      product_options: options,
    };
  });
  const fees: BcOrderFee[] = (input.fees ?? []).map((fee) => {
    const exTax = fee.cost_ex_tax ?? (fee.cost_inc_tax ?? 0) - (fee.cost_tax ?? 0);
    const incTax = fee.cost_inc_tax ?? exTax + (fee.cost_tax ?? 0);
    const name = fee.display_name_customer ?? fee.display_name_merchant ?? '';
    return {
      id: state.nextId('order_fee', 1),
      type: 'custom_fee',
      display_name_customer: name,
      display_name_merchant: fee.display_name_merchant ?? name,
      source: fee.source ?? 'v2',
      cost_ex_tax: exTax,
      cost_inc_tax: incTax,
      tax_class_id: fee.tax_class_id ?? null,
    };
  });
  const feesEx = fees.reduce((s, f) => s + f.cost_ex_tax, 0);
  const feesInc = fees.reduce((s, f) => s + f.cost_inc_tax, 0);
  const itemsTotal = products.reduce((s, p) => s + p.quantity, 0);
  const itemsShipped = Math.min(input.items_shipped ?? 0, itemsTotal);
  let toShip = itemsShipped;
  for (const p of products) {
    p.quantity_shipped = Math.min(p.quantity, toShip);
    toShip -= p.quantity_shipped;
  }
  const subtotalEx =
    input.subtotal_ex_tax ?? products.reduce((s, p) => s + p.price_ex_tax * p.quantity, 0);
  const subtotalInc =
    input.subtotal_inc_tax ?? products.reduce((s, p) => s + p.price_inc_tax * p.quantity, 0);
  const shipEx = input.shipping_cost_ex_tax ?? input.base_shipping_cost ?? 0;
  const shipInc = input.shipping_cost_inc_tax ?? shipEx;
  const handlingEx = input.handling_cost_ex_tax ?? 0;
  const handlingInc = input.handling_cost_inc_tax ?? handlingEx;
  const wrappingEx = input.wrapping_cost_ex_tax ?? 0;
  const wrappingInc = input.wrapping_cost_inc_tax ?? wrappingEx;
  const discount = input.discount_amount ?? 0;
  const shippingAddresses: BcOrderShippingAddress[] = shipping.map((a, i) => ({
    ...a,
    id: i === 0 ? firstAddressId : state.nextId('order_address', 1),
    cost_ex_tax: i === 0 ? shipEx : 0,
    cost_inc_tax: i === 0 ? shipInc : 0,
    items_total: i === 0 ? itemsTotal : 0,
    items_shipped: i === 0 ? itemsShipped : 0,
  }));
  const created = input.date_created ? parseRfc2822(input.date_created) : now;
  const order: BcOrder = {
    id,
    customer_id: input.customer_id ?? 0,
    date_created: created,
    date_modified: now,
    date_shipped: itemsShipped > 0 && itemsShipped === itemsTotal ? created : null,
    status_id: input.status_id ?? 1,
    cart_id: '',
    subtotal_ex_tax: subtotalEx,
    subtotal_inc_tax: subtotalInc,
    base_shipping_cost: input.base_shipping_cost ?? shipEx,
    base_handling_cost: input.base_handling_cost ?? handlingEx,
    base_wrapping_cost: input.base_wrapping_cost ?? wrappingEx,
    shipping_cost_ex_tax: shipEx,
    shipping_cost_inc_tax: shipInc,
    handling_cost_ex_tax: handlingEx,
    handling_cost_inc_tax: handlingInc,
    wrapping_cost_ex_tax: wrappingEx,
    wrapping_cost_inc_tax: wrappingInc,
    total_ex_tax:
      input.total_ex_tax ?? subtotalEx + shipEx + handlingEx + wrappingEx + feesEx - discount,
    total_inc_tax:
      input.total_inc_tax ?? subtotalInc + shipInc + handlingInc + wrappingInc + feesInc - discount,
    discount_amount: discount,
    refunded_amount: input.refunded_amount ?? 0,
    store_credit_amount: 0,
    gift_certificate_amount: 0,
    items_shipped: itemsShipped,
    // orders.v2 documents no default for an order created without one.
    payment_method: input.payment_method ?? '',
    payment_provider_id:
      input.payment_provider_id === undefined ? '' : String(input.payment_provider_id),
    // Read-only: an imported order carries no payment of its own.
    payment_status: '',
    // Read-only: follows the store's tax settings (this emulator's store enters prices without tax).
    is_tax_inclusive_pricing: false,
    order_is_digital: input.order_is_digital ?? false,
    currency_code: input.default_currency_code ?? state.settings.currency,
    default_currency_code: input.default_currency_code ?? state.settings.currency,
    staff_notes: input.staff_notes ?? '',
    customer_message: input.customer_message ?? '',
    billing_address: address(input.billing_address),
    is_email_opt_in: false,
    order_source: input.order_source ?? 'external',
    channel_id: input.channel_id ?? 1,
    external_source: input.external_source ?? null,
    external_id: null,
    external_merchant_id: input.external_merchant_id ?? null,
    external_order_id: input.external_order_id ?? '',
    ebay_order_id: input.ebay_order_id ?? '0',
    ip_address: input.ip_address ?? '',
    ip_address_v6: input.ip_address_v6 ?? '',
    geoip_country: input.geoip_country ?? '',
    geoip_country_iso2: input.geoip_country_iso2 ?? '',
    customer_locale: input.customer_locale ?? 'en',
    products,
    shipping_addresses: shippingAddresses,
    coupons: [],
    fees,
  };
  state.orders.push(order);
  return order;
}

const statusName = (id: number) => orderStatuses.find((s) => s.id === id)?.name ?? 'Pending';

export function orderFeeJson(f: BcOrderFee): Record<string, unknown> {
  return {
    id: f.id,
    type: f.type,
    display_name_customer: f.display_name_customer,
    display_name_merchant: f.display_name_merchant,
    source: f.source,
    base_cost: fromUnits(f.cost_ex_tax),
    cost_ex_tax: fromUnits(f.cost_ex_tax),
    cost_inc_tax: fromUnits(f.cost_inc_tax),
    cost_tax: fromUnits(f.cost_inc_tax - f.cost_ex_tax),
    tax_class_id: f.tax_class_id,
  };
}

/** `include=fees` puts the fees in the order instead of the link to them. */
export function orderJson(
  ctx: CatalogContext,
  o: BcOrder,
  include: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const base = `${ctx.baseUrl()}/stores/${ctx.storeHash}/v2`;
  const subtotalTax = o.subtotal_inc_tax - o.subtotal_ex_tax;
  const shippingTax = o.shipping_cost_inc_tax - o.shipping_cost_ex_tax;
  const couponDiscount = o.coupons.reduce((s, c) => s + c.amount, 0);
  return {
    id: o.id,
    customer_id: o.customer_id,
    date_created: v2Date(o.date_created),
    date_modified: v2Date(o.date_modified),
    date_shipped: o.date_shipped === null ? '' : v2Date(o.date_shipped),
    status_id: o.status_id,
    status: statusName(o.status_id),
    subtotal_ex_tax: fromUnits(o.subtotal_ex_tax),
    subtotal_inc_tax: fromUnits(o.subtotal_inc_tax),
    subtotal_tax: fromUnits(subtotalTax),
    base_shipping_cost: fromUnits(o.base_shipping_cost),
    shipping_cost_ex_tax: fromUnits(o.shipping_cost_ex_tax),
    shipping_cost_inc_tax: fromUnits(o.shipping_cost_inc_tax),
    shipping_cost_tax: fromUnits(shippingTax),
    shipping_cost_tax_class_id: 0,
    base_handling_cost: fromUnits(o.base_handling_cost),
    handling_cost_ex_tax: fromUnits(o.handling_cost_ex_tax),
    handling_cost_inc_tax: fromUnits(o.handling_cost_inc_tax),
    handling_cost_tax: fromUnits(o.handling_cost_inc_tax - o.handling_cost_ex_tax),
    handling_cost_tax_class_id: 0,
    base_wrapping_cost: fromUnits(o.base_wrapping_cost),
    wrapping_cost_ex_tax: fromUnits(o.wrapping_cost_ex_tax),
    wrapping_cost_inc_tax: fromUnits(o.wrapping_cost_inc_tax),
    wrapping_cost_tax: fromUnits(o.wrapping_cost_inc_tax - o.wrapping_cost_ex_tax),
    wrapping_cost_tax_class_id: 0,
    total_ex_tax: fromUnits(o.total_ex_tax),
    total_inc_tax: fromUnits(o.total_inc_tax),
    total_tax: fromUnits(o.total_inc_tax - o.total_ex_tax),
    is_tax_inclusive_pricing: o.is_tax_inclusive_pricing,
    items_total: o.products.reduce((s, p) => s + p.quantity, 0),
    items_shipped: o.items_shipped,
    payment_method: o.payment_method,
    payment_provider_id: o.payment_provider_id,
    payment_status: o.payment_status,
    refunded_amount: fromUnits(o.refunded_amount),
    order_is_digital: o.order_is_digital,
    store_credit_amount: fromUnits(o.store_credit_amount),
    gift_certificate_amount: fromUnits(o.gift_certificate_amount),
    ip_address: o.ip_address,
    ip_address_v6: o.ip_address_v6,
    geoip_country: o.geoip_country,
    geoip_country_iso2: o.geoip_country_iso2,
    currency_id: 1,
    currency_code: o.currency_code,
    currency_exchange_rate: '1.0000000000',
    default_currency_id: 1,
    default_currency_code: o.default_currency_code,
    staff_notes: o.staff_notes,
    customer_message: o.customer_message,
    discount_amount: fromUnits(o.discount_amount),
    coupon_discount: fromUnits(couponDiscount),
    shipping_address_count: o.shipping_addresses.length,
    is_deleted: false,
    ebay_order_id: o.ebay_order_id,
    cart_id: o.cart_id,
    billing_address: { ...o.billing_address, form_fields: [] },
    is_email_opt_in: o.is_email_opt_in,
    order_source: o.order_source,
    channel_id: o.channel_id,
    external_source: o.external_source,
    products: { url: `${base}/orders/${o.id}/products`, resource: `/orders/${o.id}/products` },
    shipping_addresses: {
      url: `${base}/orders/${o.id}/shippingaddresses`,
      resource: `/orders/${o.id}/shippingaddresses`,
    },
    coupons: { url: `${base}/orders/${o.id}/coupons`, resource: `/orders/${o.id}/coupons` },
    fees: include.has('fees')
      ? o.fees.map(orderFeeJson)
      : { url: `${base}/orders/${o.id}/fees`, resource: `/orders/${o.id}/fees` },
    external_id: o.external_id,
    external_merchant_id: o.external_merchant_id,
    tax_provider_id: 'BasicTaxProvider',
    store_default_currency_code: ctx.state.settings.currency,
    store_default_to_transactional_exchange_rate: '1.0000000000',
    custom_status: statusName(o.status_id),
    customer_locale: o.customer_locale,
    external_order_id: o.external_order_id,
  };
}

export function orderProductJson(o: BcOrder, p: BcOrderProduct): Record<string, unknown> {
  const total = (units: number) => fromUnits(units * p.quantity);
  return {
    id: p.id,
    order_id: o.id,
    product_id: p.product_id,
    variant_id: p.variant_id,
    order_address_id: p.order_address_id,
    name: p.name,
    name_customer: p.name_customer,
    name_merchant: p.name_merchant,
    sku: p.sku,
    upc: p.upc,
    type: p.type,
    base_price: fromUnits(p.price_ex_tax),
    price_ex_tax: fromUnits(p.price_ex_tax),
    price_inc_tax: fromUnits(p.price_inc_tax),
    price_tax: fromUnits(p.price_inc_tax - p.price_ex_tax),
    base_total: total(p.price_ex_tax),
    total_ex_tax: total(p.price_ex_tax),
    total_inc_tax: total(p.price_inc_tax),
    total_tax: total(p.price_inc_tax - p.price_ex_tax),
    discounted_total_inc_tax: total(p.price_inc_tax),
    weight: p.weight,
    width: '0.0000',
    height: '0.0000',
    depth: '0.0000',
    quantity: p.quantity,
    base_cost_price: '0.0000',
    cost_price_inc_tax: '0.0000',
    cost_price_ex_tax: '0.0000',
    cost_price_tax: '0.0000',
    is_refunded: p.quantity_refunded > 0,
    quantity_refunded: p.quantity_refunded,
    refund_amount: '0.0000',
    return_id: 0,
    wrapping_id: p.wrapping_id,
    wrapping_name: p.wrapping_name,
    base_wrapping_cost: fromUnits(p.wrapping_cost_ex_tax),
    wrapping_cost_ex_tax: fromUnits(p.wrapping_cost_ex_tax),
    wrapping_cost_inc_tax: fromUnits(p.wrapping_cost_inc_tax),
    wrapping_cost_tax: fromUnits(p.wrapping_cost_inc_tax - p.wrapping_cost_ex_tax),
    wrapping_message: p.wrapping_message,
    quantity_shipped: p.quantity_shipped,
    event_name: null,
    event_date: null,
    fixed_shipping_cost: '0.0000',
    ebay_item_id: '',
    ebay_transaction_id: '',
    option_set_id: p.product_options.length ? 1 : null,
    parent_order_product_id: null,
    is_bundled_product: false,
    bin_picking_number: '',
    external_id: null,
    brand: p.brand,
    applied_discounts: [],
    product_options: p.product_options.map((opt) => ({
      id: opt.id,
      option_id: opt.option_id,
      order_product_id: p.id,
      product_option_id: opt.product_option_id,
      display_name: opt.display_name,
      display_name_customer: opt.display_name,
      display_name_merchant: opt.display_name,
      display_value: opt.display_value,
      display_value_customer: opt.display_value,
      display_value_merchant: opt.display_value,
      value: opt.value,
      type: 'Multiple choice',
      name: opt.display_name,
      display_style: 'Rectangle',
    })),
    configurable_fields: [],
    gift_certificate_id: null,
  };
}

export function orderShippingAddressJson(
  ctx: CatalogContext,
  o: BcOrder,
  a: BcOrderShippingAddress,
): Record<string, unknown> {
  const base = `${ctx.baseUrl()}/stores/${ctx.storeHash}/v2`;
  return {
    id: a.id,
    order_id: o.id,
    first_name: a.first_name,
    last_name: a.last_name,
    company: a.company,
    street_1: a.street_1,
    street_2: a.street_2,
    city: a.city,
    zip: a.zip,
    country: a.country,
    country_iso2: a.country_iso2,
    state: a.state,
    email: a.email,
    phone: a.phone,
    items_total: a.items_total,
    items_shipped: a.items_shipped,
    shipping_method: a.shipping_method,
    base_cost: fromUnits(a.cost_inc_tax),
    cost_ex_tax: fromUnits(a.cost_ex_tax),
    cost_inc_tax: fromUnits(a.cost_inc_tax),
    cost_tax: fromUnits(a.cost_inc_tax - a.cost_ex_tax),
    cost_tax_class_id: 0,
    base_handling_cost: '0.0000',
    handling_cost_ex_tax: '0.0000',
    handling_cost_inc_tax: '0.0000',
    handling_cost_tax: '0.0000',
    handling_cost_tax_class_id: 0,
    shipping_zone_id: 1,
    shipping_zone_name: a.country || 'Default',
    shipping_quotes: {
      url: `${base}/orders/${o.id}/shippingaddresses/${a.id}/shippingquotes`,
      resource: `/orders/${o.id}/shippingaddresses/${a.id}/shippingquotes`,
    },
    form_fields: [],
  };
}

export function orderCouponJson(o: BcOrder): Record<string, unknown>[] {
  return o.coupons.map((c) => ({
    id: c.id,
    coupon_id: c.coupon_id,
    order_id: o.id,
    code: c.code,
    amount: fromUnits(c.amount),
    type: c.type,
    discount: c.amount / 10_000,
  }));
}
