import { fromMinor, type Money } from '@replatform/canonical/money';
import type { Order, OrderLine } from '@replatform/canonical/order';
import { z } from 'zod';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { isMagentoStatus } from './client.ts';
import { magentoFromIso, orderAddressPayload } from './mapping.ts';
import { isKnownElsewhere, magentoMethodFor, NO_SKU } from './order-values.ts';
import {
  configurableOptionSchema,
  customerSchema,
  orderSchema,
  productSchema,
  searchResults,
  type MagentoOrder,
  type MagentoProduct,
} from './magento-schemas.ts';
import { isMagento, metafieldValue } from './metafields.ts';
import { listIn, listOf, type Json } from './native.ts';
import { statusToMagento, totalsForPaymentStatus } from './order-status.ts';
import { criteria, type MagentoSession } from './session.ts';
import { createOnce, isStoreWide, reasonOf, slugify } from './write-support.ts';

/**
 * Historical orders through POST /V1/orders (OrderRepositoryInterface::save): the order is stored
 * as a record of what was sold, with its totals, addresses, status, dates, payment and comments
 * (saved with the order by its relation, so nothing is e-mailed), and nothing is charged,
 * reserved or e-mailed (no quote, no order confirmation; the notification flag is set off).
 * Its parts follow, each through its repository, which stores and sends nothing else:
 * - a configurable line's child item, once the parent item has an id (a second save of the
 *   order; POST /V1/orders cannot link a child to a parent item it creates in the same request);
 * - the invoice of a paid order, dated when it was paid (POST /V1/invoices/);
 * - one credit memo per refund, with its lines, amount, date and reason (POST /V1/creditmemo).
 *
 * Marker: ext_order_id = 'replatform:<source order id>', a column of sales_order meant for
 * external ids and filterable in the order search. The customer-visible number is kept as
 * increment_id; when the destination already has an order with that number (one that is not
 * ours), the deterministic '<number>-M' is used instead, so a resumed run picks the same one.
 * An order found by its marker is not changed, only completed with the parts an interrupted run
 * left out.
 *
 * The owner's choices (session.choices):
 * - keepOrderNumbers false: no increment_id is sent, so Magento numbers the order from the store
 *   view's sequence (the order resource model does when none is set); the source's number is
 *   kept as a status comment of the order ("Order number at the previous store: …", not shown
 *   to the customer). The marker alone finds the order again.
 * - notifyCustomers true: once the order is created, POST /V1/orders/{id}/emails has Magento send
 *   its order confirmation (the admin's "Send Email"); the repository save itself never e-mails.
 *   Only a new order is e-mailed, never one found again.
 */

/** The status comment that keeps the source's number of an order Magento numbered itself. */
export function previousNumberComment(number: string): string {
  return `Order number at the previous store: ${number}`;
}

const orderList = searchResults(orderSchema);
const json = z.record(z.string(), z.unknown());

export function orderMarker(sourceId: string): string {
  return `replatform:${sourceId}`;
}

async function findByField(
  session: MagentoSession,
  field: string,
  value: string,
): Promise<MagentoOrder | undefined> {
  const result = await session.client.get(
    '/V1/orders',
    orderList,
    criteria({ filters: [[[field, value]]], pageSize: 1, currentPage: 1 }),
  );
  return result.items[0];
}

const amount = (m: Money) => Number(fromMinor(m.amount, m.currency));
const round = (n: number) => Math.round(n * 100) / 100;

/** What a batch of orders looks up at the destination once. */
interface Lookups {
  productBySku(sku: string): Promise<MagentoProduct | undefined>;
  productById(id: string): Promise<Json | undefined>;
  customerGroup(customerId: number): Promise<number>;
}

function lookups(session: MagentoSession): Lookups {
  const bySku = new Map<string, Promise<MagentoProduct | undefined>>();
  const byId = new Map<string, Promise<Json | undefined>>();
  const groups = new Map<number, Promise<number>>();
  return {
    productBySku(sku) {
      let found = bySku.get(sku);
      if (!found) {
        found = session.client
          .get(`/V1/products/${encodeURIComponent(sku)}`, productSchema)
          .catch((error: unknown) => {
            if (isMagentoStatus(error, 404)) return undefined;
            bySku.delete(sku);
            throw error;
          });
        bySku.set(sku, found);
      }
      return found;
    },
    productById(id) {
      let found = byId.get(id);
      if (!found) {
        found = listIn(session, '/V1/products', 'entity_id', [id]).then((list) => list[0]);
        byId.set(id, found);
      }
      return found;
    },
    customerGroup(customerId) {
      let found = groups.get(customerId);
      if (!found) {
        found = session.client
          .get(`/V1/customers/${customerId}`, customerSchema)
          .then((c) => Number((c as Json).group_id ?? 1));
        groups.set(customerId, found);
      }
      return found;
    },
  };
}

export async function writeOrders(
  session: MagentoSession,
  records: Order[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const found = lookups(session);
  const outcomes: WriteOutcome[] = [];
  for (const record of records) {
    try {
      outcomes.push(await writeOrder(session, record, idMap, found));
    } catch (error) {
      if (isStoreWide(error)) throw error;
      outcomes.push({ sourceId: record.id, outcome: 'failed', reason: reasonOf(error) });
    }
  }
  return outcomes;
}

/** How a line is written: its item, and the child item a configurable line gets afterwards. */
interface LinePlan {
  line: OrderLine;
  item: Record<string, unknown>;
  child?: Record<string, unknown>;
}

async function planLine(
  session: MagentoSession,
  record: Order,
  line: OrderLine,
  idMap: IdMap,
  found: Lookups,
  warnings: string[],
): Promise<LinePlan> {
  const mappedParent = line.productId ? idMap.get('products', line.productId) : undefined;
  const bySku = line.productId && line.sku ? await found.productBySku(line.sku) : undefined;
  const parent = mappedParent ? await found.productById(mappedParent) : undefined;
  const isVariantLine =
    line.variantId !== null &&
    parent?.type_id === 'configurable' &&
    bySku !== undefined &&
    String(bySku.id) !== mappedParent;
  const productId = mappedParent ?? (bySku ? String(bySku.id) : undefined);
  if (line.productId && !productId)
    warnings.push(
      `line ${line.sku || line.name}: product not found at the destination; kept without a product link`,
    );
  const unit = amount(line.unitPrice);
  const rowTotal = round(unit * line.quantity);
  const discount = Math.max(0, round(rowTotal - amount(line.total)));
  const tax = amount(line.tax);
  // The canonical order says that some items were shipped, not which: none is made up.
  const shipped = record.fulfillmentStatus === 'fulfilled' ? line.quantity : 0;
  const paid = ['paid', 'partially_refunded', 'refunded'].includes(record.paymentStatus);
  const refunded = record.refunds
    .flatMap((r) => r.lines)
    .filter((l) => l.lineId === line.id)
    .reduce((n, l) => n + l.quantity, 0);
  const meta = [...line.meta];
  const options: { option_id: string; option_value: number }[] = [];
  if (isVariantLine && parent) {
    const configurable = await session.client.get(
      `/V1/configurable-products/${encodeURIComponent(String(parent.sku))}/options/all`,
      z.array(configurableOptionSchema),
    );
    for (const option of configurable) {
      const code = await session.attributeCode(option.attribute_id);
      const attribute = code ? await session.attribute(code) : undefined;
      const entry = meta.find(
        (m) => m.key === option.label || m.key === attribute?.default_frontend_label,
      );
      const value = attribute?.options?.find((o) => entry && o.label === entry.value)?.value;
      if (!entry || !value) continue;
      options.push({ option_id: option.attribute_id, option_value: Number(value) });
      meta.splice(meta.indexOf(entry), 1);
    }
  }
  const description = meta
    .map((m) => (m.key === 'description' ? m.value : `${m.key}: ${m.value}`))
    .join('\n');
  const type = isVariantLine ? 'configurable' : (bySku?.type_id ?? 'simple');
  const item: Record<string, unknown> = {
    sku: line.sku || NO_SKU,
    name: line.name,
    ...(productId ? { product_id: Number(productId) } : {}),
    product_type: type === 'configurable' && !isVariantLine ? 'simple' : type,
    qty_ordered: line.quantity,
    qty_shipped: shipped,
    qty_invoiced: paid ? line.quantity : 0,
    qty_refunded: refunded,
    price: unit,
    base_price: unit,
    original_price: unit,
    row_total: rowTotal,
    base_row_total: rowTotal,
    tax_amount: tax,
    base_tax_amount: tax,
    tax_percent: rowTotal - discount > 0 ? round((tax / (rowTotal - discount)) * 100) : 0,
    discount_amount: discount,
    base_discount_amount: discount,
    price_incl_tax: round(unit + tax / line.quantity),
    row_total_incl_tax: round(rowTotal + tax),
    is_virtual: type === 'virtual' || type === 'downloadable' ? 1 : 0,
    ...(description ? { description } : {}),
    ...(options.length
      ? { product_option: { extension_attributes: { configurable_item_options: options } } }
      : {}),
  };
  const child =
    isVariantLine && bySku
      ? {
          sku: bySku.sku,
          name: line.name,
          product_id: bySku.id,
          product_type: bySku.type_id,
          qty_ordered: line.quantity,
          qty_shipped: shipped,
          qty_invoiced: paid ? line.quantity : 0,
          qty_refunded: refunded,
          price: 0,
          base_price: 0,
          original_price: 0,
          row_total: 0,
          base_row_total: 0,
          tax_amount: 0,
          base_tax_amount: 0,
          discount_amount: 0,
          price_incl_tax: 0,
          row_total_incl_tax: 0,
          is_virtual: bySku.type_id === 'virtual' || bySku.type_id === 'downloadable' ? 1 : 0,
        }
      : undefined;
  return { line, item, ...(child ? { child } : {}) };
}

/** The payment: a method Magento knows, the title, transaction id and Magento's own fields. */
function paymentOf(
  record: Order,
  totals: { paid: number; refunded: number; authorized: number },
  money: (minor: number) => number,
  warnings: string[],
): Record<string, unknown> {
  const code = record.paymentMethod;
  const method = magentoMethodFor(code);
  // The title comes first, as Magento keeps it; an order without one keeps none.
  const title = record.paymentMethodTitle;
  const information: string[] = title ? [title] : [];
  if (code && method !== code) {
    information.splice(0, 1, title, `Payment method at the previous store: ${code}`);
    if (!isKnownElsewhere(code))
      warnings.push(
        `payment method '${code}' does not exist in Magento; recorded as Check / Money order with its name (paymentMethod)`,
      );
  }
  const payment: Record<string, unknown> = {
    method,
    account_status: '',
    additional_information: information,
    cc_last4: '',
    amount_ordered: money(record.grandTotal.amount),
    amount_paid: money(totals.paid),
    amount_refunded: money(totals.refunded),
    amount_authorized: money(totals.authorized),
    ...(record.transactionId ? { last_trans_id: record.transactionId } : {}),
  };
  for (const field of record.metafields) {
    if (!isMagento(field) || !field.key.startsWith('payment.')) continue;
    payment[field.key.slice('payment.'.length)] = metafieldValue(field);
  }
  return payment;
}

async function writeOrder(
  session: MagentoSession,
  record: Order,
  idMap: IdMap,
  found: Lookups,
): Promise<WriteOutcome> {
  const marker = orderMarker(record.id);
  const warnings: string[] = [];
  const existing = await findByField(session, 'ext_order_id', marker);
  if (existing) {
    const plans = await planLines(session, record, idMap, found, []);
    const added = await completeOrder(session, record, Number(existing.entity_id), plans);
    return {
      sourceId: record.id,
      outcome: added ? 'updated' : 'skipped',
      destinationId: String(existing.entity_id),
      ...(added
        ? {}
        : { reason: 'already migrated (historical orders are not changed afterwards)' }),
    };
  }
  if (!record.email)
    return {
      sourceId: record.id,
      outcome: 'failed',
      reason: 'Magento orders need the buyer e-mail',
    };
  const { keepOrderNumbers, notifyCustomers } = session.choices;
  let incrementId: string | undefined;
  if (keepOrderNumbers) {
    const taken = await findByField(session, 'increment_id', record.number);
    incrementId = taken ? `${record.number}-M` : record.number;
    if (taken)
      warnings.push(
        `order number ${record.number} is taken at the destination; saved as ${incrementId}`,
      );
  }

  let customerId: number | undefined;
  if (record.customerId) {
    const mapped = idMap.get('customers', record.customerId);
    if (mapped) customerId = Number(mapped);
    else
      warnings.push(
        `customer ${record.customerId} was not migrated; the order is saved as a guest order`,
      );
  }
  const plans = await planLines(session, record, idMap, found, warnings);
  if (record.fulfillmentStatus === 'partial') {
    warnings.push(
      'partially shipped at the source, without shipped quantities per line: no items were marked shipped (fulfillmentStatus)',
    );
  }

  const currency = record.currency;
  const money = (minor: number) => Number(fromMinor(minor, currency));
  const grand = record.grandTotal.amount;
  const totals = totalsForPaymentStatus(record.paymentStatus, grand, record.refundTotal.amount);
  if (record.paymentStatus === 'partially_paid')
    warnings.push(
      'paid in part at the source, by an amount the model does not keep: no amount is recorded as paid (paymentStatus)',
    );
  if (record.paymentStatus === 'partially_refunded' && !record.refundTotal.amount)
    warnings.push(
      'refunded in part at the source, by an amount the source did not give: no amount is recorded as refunded (paymentStatus)',
    );
  const shipping = record.shippingLines;
  if (shipping.length > 1)
    warnings.push(
      'several shipping lines combined into one (Magento orders have one shipping method)',
    );
  if (record.discounts.length > 1) warnings.push('several discounts combined into one');
  if (record.status === 'failed')
    warnings.push("status 'failed' written as canceled (Magento has no failed state)");
  const shippingTax = shipping.reduce((n, s) => n + s.tax.amount, 0);
  const discountCode = record.discounts
    .map((d) => d.code)
    .filter(Boolean)
    .join(', ');
  const own = new Map(record.metafields.filter(isMagento).map((f) => [f.key, f]));
  const mapped = statusToMagento(record.status);
  const ownValue = (key: string) => {
    const field = own.get(key);
    return field ? metafieldValue(field) : undefined;
  };
  const rate = Number(ownValue('base_to_order_rate') ?? 1) || 1;
  const base = (minor: number) => round(money(minor) / rate);
  const baseCurrency = String(ownValue('base_currency_code') ?? currency);

  const billing = record.billingAddress ?? record.shippingAddress;
  const notes = record.notes.map((note) => ({
    comment: note.content,
    created_at: magentoFromIso(note.createdAt),
    is_customer_notified: note.customerNote ? 1 : 0,
    is_visible_on_front: note.customerNote ? 1 : 0,
  }));
  if (!keepOrderNumbers && record.number)
    notes.unshift({
      comment: previousNumberComment(record.number),
      created_at: magentoFromIso(record.createdAt),
      is_customer_notified: 0,
      is_visible_on_front: 0,
    });
  const entity: Record<string, unknown> = {
    // Without one, Magento takes the next number of the store view's order sequence.
    ...(incrementId === undefined ? {} : { increment_id: incrementId }),
    ext_order_id: marker,
    store_id: 1,
    created_at: magentoFromIso(record.createdAt),
    state: mapped.state,
    status: mapped.status,
    customer_email: record.email,
    ...(customerId !== undefined
      ? {
          customer_id: customerId,
          customer_is_guest: 0,
          customer_group_id: await found.customerGroup(customerId),
        }
      : { customer_is_guest: 1, customer_group_id: 0 }),
    customer_firstname: billing?.firstName ?? '',
    customer_lastname: billing?.lastName ?? '',
    customer_note: record.note,
    // Whether the order e-mail shows the buyer's note.
    customer_note_notify: notifyCustomers ? 1 : 0,
    ...(record.customerIpAddress ? { remote_ip: record.customerIpAddress } : {}),
    base_currency_code: baseCurrency,
    order_currency_code: currency,
    store_currency_code: baseCurrency,
    global_currency_code: baseCurrency,
    base_to_order_rate: rate,
    subtotal: money(record.subtotal.amount),
    base_subtotal: base(record.subtotal.amount),
    tax_amount: money(record.taxTotal.amount),
    base_tax_amount: base(record.taxTotal.amount),
    shipping_amount: money(record.shippingTotal.amount),
    base_shipping_amount: base(record.shippingTotal.amount),
    shipping_tax_amount: money(shippingTax),
    shipping_description: shipping
      .map((s) => s.title)
      .filter(Boolean)
      .join(' + '),
    discount_amount: -money(record.discountTotal.amount),
    base_discount_amount: -base(record.discountTotal.amount),
    ...(discountCode ? { coupon_code: discountCode, discount_description: discountCode } : {}),
    grand_total: money(grand),
    base_grand_total: base(grand),
    total_paid: money(totals.paid),
    base_total_paid: base(totals.paid),
    total_invoiced: money(totals.paid),
    total_refunded: money(totals.refunded),
    base_total_refunded: base(totals.refunded),
    total_canceled: money(totals.canceled),
    total_due: money(Math.max(0, grand - totals.paid)),
    total_qty_ordered: record.lines.reduce((n, l) => n + l.quantity, 0),
    total_item_count: record.lines.length,
    items: plans.map((p) => p.item),
    payment: paymentOf(record, totals, money, warnings),
    status_histories: notes.map((note) => ({
      ...note,
      // Set to the order's id by Magento when the order is saved.
      parent_id: 0,
      status: mapped.status,
      entity_name: 'order',
    })),
    extension_attributes: {
      // In-store pickup's "order ready" notification: never for a historical order.
      send_notification: 0,
      ...(record.fees.length
        ? {
            custom_fees: record.fees.map((fee, i) => ({
              order_id: '',
              custom_fee_code: slugify(fee.name).replace(/-/g, '_') || `fee_${i + 1}`,
              custom_fee_label: fee.name,
              custom_fee_amount: amount(fee.amount),
              base_custom_fee_amount: round(amount(fee.amount) / rate),
              custom_fee_amount_invoiced: totals.paid ? amount(fee.amount) : 0,
              base_custom_fee_amount_invoiced: totals.paid ? round(amount(fee.amount) / rate) : 0,
              custom_fee_amount_refunded: 0,
              base_custom_fee_amount_refunded: 0,
              apply_fee_on_last_invoice: false,
              apply_fee_on_last_creditmemo: false,
            })),
          }
        : {}),
      ...(record.shippingAddress
        ? {
            shipping_assignments: [
              {
                shipping: {
                  address: await orderAddressPayload(session, record.shippingAddress, 'shipping'),
                  method: shipping[0]?.code ?? '',
                  total: {
                    shipping_amount: money(record.shippingTotal.amount),
                    base_shipping_amount: base(record.shippingTotal.amount),
                    shipping_tax_amount: money(shippingTax),
                  },
                },
                items: [],
              },
            ],
          }
        : {}),
    },
  };
  // Magento's own order fields the source had (magento.*), back where they came from.
  for (const [key, field] of own) {
    if (key.startsWith('payment.') || key === 'base_currency_code' || key === 'base_to_order_rate')
      continue;
    entity[key] = metafieldValue(field);
  }
  for (const field of record.metafields.filter((f) => !isMagento(f)))
    warnings.push(
      `custom field ${field.namespace}.${field.key} not migrated: Magento orders have no custom fields (metafields)`,
    );
  if (billing) entity.billing_address = await orderAddressPayload(session, billing, 'billing');

  // POST /V1/orders (admin-schema-2.4.9.yaml PostV1Orders)
  const created = await createOnce(
    () =>
      session.client.request('POST', '/V1/orders', orderSchema, {
        body: { entity },
        scope: 'store',
      }),
    () => findByField(session, 'ext_order_id', marker),
  );
  await completeOrder(session, record, Number(created.entity_id), plans);
  if (notifyCustomers) await sendOrderEmail(session, Number(created.entity_id), warnings);
  return {
    sourceId: record.id,
    outcome: 'created',
    destinationId: String(created.entity_id),
    ...(warnings.length ? { warnings } : {}),
  };
}

/**
 * Has Magento send its order confirmation for an order just written (POST /V1/orders/{id}/emails,
 * OrderManagementInterface::notify). Sent once, never repeated: a lost answer may mean the e-mail
 * went out. Magento answers false when it sent nothing (order e-mails switched off in its
 * configuration); either way the order stays written and its report row says so.
 */
async function sendOrderEmail(
  session: MagentoSession,
  orderId: number,
  warnings: string[],
): Promise<void> {
  try {
    const sent = await session.client.request('POST', `/V1/orders/${orderId}/emails`, z.boolean(), {
      scope: 'store',
      retry: 'throttle-only',
    });
    if (!sent)
      warnings.push(
        'order e-mail not sent: Magento sent no order confirmation (Stores > Configuration > Sales > Sales Emails > Order may be disabled)',
      );
  } catch (error) {
    // The order is written: whatever stopped the e-mail is said on its row, not thrown.
    warnings.push(
      isMagentoStatus(error, 401)
        ? 'order e-mail not sent: the integration may not send sales e-mails (grant Sales > Operations > Orders > Actions > Send Sales Emails, Magento_Sales::emails)'
        : `order e-mail not sent: ${reasonOf(error)}`,
    );
  }
}

async function planLines(
  session: MagentoSession,
  record: Order,
  idMap: IdMap,
  found: Lookups,
  warnings: string[],
): Promise<LinePlan[]> {
  const plans: LinePlan[] = [];
  for (const line of record.lines)
    plans.push(await planLine(session, record, line, idMap, found, warnings));
  return plans;
}

/**
 * Adds what an order saved through POST /V1/orders lacks, by what the destination order holds:
 * the child items of configurable lines, the invoice of a paid order, one credit memo per refund.
 * Answers whether anything was added.
 */
async function completeOrder(
  session: MagentoSession,
  record: Order,
  orderId: number,
  plans: LinePlan[],
): Promise<boolean> {
  let added = false;
  const order = await session.client.get(`/V1/orders/${orderId}`, json);
  const items = listOf(order.items);
  const top = items.filter((i) => i.parent_item_id === null || i.parent_item_id === undefined);
  const children = plans.flatMap((plan, i) => {
    const parent = top[i];
    if (!plan.child || !parent) return [];
    const has = items.some((c) => String(c.parent_item_id ?? '') === String(parent.item_id));
    return has ? [] : [{ ...plan.child, parent_item_id: Number(parent.item_id) }];
  });
  if (children.length) {
    // POST /V1/orders with the order's id: the repository saves the new items with the order,
    // each linked to its parent item by id. A lost answer is settled by looking at the order.
    await createOnce(
      () =>
        session.client.request('POST', '/V1/orders', json, {
          body: {
            entity: {
              entity_id: orderId,
              increment_id: order.increment_id,
              customer_email: order.customer_email,
              base_grand_total: order.base_grand_total,
              grand_total: order.grand_total,
              items: children,
            },
          },
          scope: 'store',
        }),
      async () => {
        const fresh = await session.client.get(`/V1/orders/${orderId}`, json);
        return listOf(fresh.items).some(
          (i) => i.parent_item_id !== null && i.parent_item_id !== undefined,
        )
          ? fresh
          : undefined;
      },
    );
    added = true;
  }
  const lineItem = new Map(record.lines.map((line, i) => [line.id, top[i]]));
  const currency = record.currency;
  const money = (m: Money) => Number(fromMinor(m.amount, currency));

  const documents = (path: string) =>
    session.client.get(
      path,
      searchResults(json),
      criteria({ filters: [[['order_id', orderId]]], pageSize: 100, currentPage: 1 }),
    );
  const invoices = await documents('/V1/invoices');
  const paidAt = record.paidAt;
  if (paidAt && invoices.total_count === 0) {
    // POST /V1/invoices/ (admin-schema-2.4.9.yaml PostV1Invoices): InvoiceRepository::save.
    const create = () =>
      session.client.request('POST', '/V1/invoices/', json, {
        body: {
          entity: {
            order_id: orderId,
            created_at: magentoFromIso(paidAt),
            total_qty: record.lines.reduce((n, l) => n + l.quantity, 0),
            grand_total: money(record.grandTotal),
            subtotal: money(record.subtotal),
            tax_amount: money(record.taxTotal),
            shipping_amount: money(record.shippingTotal),
            discount_amount: -money(record.discountTotal),
            ...(record.transactionId ? { transaction_id: record.transactionId } : {}),
            items: record.lines.flatMap((line) => {
              const item = lineItem.get(line.id);
              return item
                ? [
                    {
                      order_item_id: Number(item.item_id),
                      sku: String(item.sku),
                      qty: line.quantity,
                      price: money(line.unitPrice),
                      row_total: money(line.total),
                      tax_amount: money(line.tax),
                    },
                  ]
                : [];
            }),
          },
        },
      });
    await createOnce(create, async () => (await documents('/V1/invoices')).items[0]);
    added = true;
  }

  const memos = await documents('/V1/creditmemos');
  const keyOf = (m: Json) => `${String(m.created_at)}|${Number(m.grand_total)}`;
  const done = new Set(memos.items.map(keyOf));
  for (const refund of record.refunds) {
    const key = `${magentoFromIso(refund.createdAt)}|${money(refund.amount)}`;
    if (done.has(key)) continue;
    const rows = refund.lines.flatMap((l) => {
      const item = lineItem.get(l.lineId);
      return item
        ? [
            {
              order_item_id: Number(item.item_id),
              sku: String(item.sku),
              qty: l.quantity,
              price: l.quantity ? round(money(l.amount) / l.quantity) : 0,
              base_price: l.quantity ? round(money(l.amount) / l.quantity) : 0,
              base_cost: 0,
              row_total: money(l.amount),
              tax_amount: money(l.tax),
              // Required by the spec; Magento numbers a new item itself.
              entity_id: 0,
            },
          ]
        : [];
    });
    const subtotal = round(rows.reduce((n, r) => n + r.row_total, 0));
    const tax = round(rows.reduce((n, r) => n + r.tax_amount, 0));
    const rest = round(money(refund.amount) - subtotal - tax);
    // POST /V1/creditmemo (admin-schema-2.4.9.yaml PostV1Creditmemo): CreditmemoRepository::save.
    const create = () =>
      session.client.request('POST', '/V1/creditmemo', json, {
        body: {
          entity: {
            order_id: orderId,
            created_at: magentoFromIso(refund.createdAt),
            subtotal,
            tax_amount: tax,
            grand_total: money(refund.amount),
            // What is neither a line nor its tax: shipping or an adjustment, which the model
            // does not tell apart.
            adjustment_positive: rest > 0 ? rest : 0,
            adjustment_negative: rest < 0 ? -rest : 0,
            items: rows,
            comments: refund.reason
              ? [
                  {
                    comment: refund.reason,
                    is_customer_notified: 0,
                    is_visible_on_front: 0,
                    parent_id: 0,
                  },
                ]
              : [],
          },
        },
      });
    await createOnce(create, async () =>
      (await documents('/V1/creditmemos')).items.find((m) => keyOf(m) === key),
    );
    added = true;
  }
  return added;
}
