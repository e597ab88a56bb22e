import { fromMinor, type Money } from '@replatform/canonical/money';
import type { Order } from '@replatform/canonical/order';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { isMagentoStatus } from './client.ts';
import { magentoFromIso, orderAddressPayload } from './mapping.ts';
import {
  orderSchema,
  productSchema,
  searchResults,
  type MagentoOrder,
  type MagentoProduct,
} from './magento-schemas.ts';
import { statusToMagento, totalsForPaymentStatus } from './order-status.ts';
import { criteria, type MagentoSession } from './session.ts';
import { createOnce, isStoreWide, reasonOf } from './write-support.ts';

/**
 * Historical orders through POST /V1/orders (OrderRepositoryInterface::save): the order is stored
 * as a record of what was sold, with its totals, addresses, status and dates, and nothing is
 * charged, reserved or e-mailed (no quote, no invoice, no order confirmation; the notification
 * flag is set off explicitly).
 *
 * Marker: ext_order_id = 'replatform:<source order id>', a column of sales_order meant for
 * external ids and filterable in the order search. The customer-visible number is kept as
 * increment_id; when the destination already has an order with that number (one that is not
 * ours), the deterministic '<number>-M' is used instead, so a resumed run picks the same one.
 */

const orderList = searchResults(orderSchema);

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

export async function writeOrders(
  session: MagentoSession,
  records: Order[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const products = new Map<string, Promise<MagentoProduct | undefined>>();
  const productBySku = (sku: string) => {
    let found = products.get(sku);
    if (!found) {
      found = session.client
        .get(`/V1/products/${encodeURIComponent(sku)}`, productSchema)
        .catch((error: unknown) => {
          if (isMagentoStatus(error, 404)) return undefined;
          products.delete(sku);
          throw error;
        });
      products.set(sku, found);
    }
    return found;
  };
  const outcomes: WriteOutcome[] = [];
  for (const record of records) {
    try {
      outcomes.push(await writeOrder(session, record, idMap, productBySku));
    } catch (error) {
      if (isStoreWide(error)) throw error;
      outcomes.push({ sourceId: record.id, outcome: 'failed', reason: reasonOf(error) });
    }
  }
  return outcomes;
}

async function writeOrder(
  session: MagentoSession,
  record: Order,
  idMap: IdMap,
  productBySku: (sku: string) => Promise<MagentoProduct | undefined>,
): Promise<WriteOutcome> {
  const marker = orderMarker(record.id);
  const existing = await findByField(session, 'ext_order_id', marker);
  if (existing) {
    return {
      sourceId: record.id,
      outcome: 'skipped',
      destinationId: String(existing.entity_id),
      reason: 'already migrated (historical orders are not changed afterwards)',
    };
  }
  if (!record.email)
    return {
      sourceId: record.id,
      outcome: 'failed',
      reason: 'Magento orders need the buyer e-mail',
    };
  const warnings: string[] = [];
  const taken = await findByField(session, 'increment_id', record.number);
  const incrementId = taken ? `${record.number}-M` : record.number;
  if (taken)
    warnings.push(
      `order number ${record.number} is taken at the destination; saved as ${incrementId}`,
    );

  let customerId: number | undefined;
  if (record.customerId) {
    const mapped = idMap.get('customers', record.customerId);
    if (mapped) customerId = Number(mapped);
    else
      warnings.push(
        `customer ${record.customerId} was not migrated; the order is saved as a guest order`,
      );
  }

  const items: Record<string, unknown>[] = [];
  for (const line of record.lines) {
    const mappedParent = line.productId ? idMap.get('products', line.productId) : undefined;
    const bySku = line.sku ? await productBySku(line.sku) : undefined;
    const isVariantLine =
      line.variantId !== null &&
      mappedParent !== undefined &&
      bySku !== undefined &&
      String(bySku.id) !== mappedParent;
    const productId = mappedParent ?? (bySku ? String(bySku.id) : undefined);
    if (!productId)
      warnings.push(
        `line ${line.sku || line.name}: product not found at the destination; kept without a product link`,
      );
    const unit = amount(line.unitPrice);
    const rowTotal = Math.round(unit * line.quantity * 100) / 100;
    const discount = Math.max(0, Math.round((rowTotal - amount(line.total)) * 100) / 100);
    // The canonical order says that some items were shipped, not which: none is made up.
    const shipped = record.fulfillmentStatus === 'fulfilled' ? line.quantity : 0;
    // A variant line is written as Magento's parent item (the configurable product, holding the
    // bought child's SKU) without its child item: POST /V1/orders cannot link a child to a parent
    // that has no item id yet, and the reader finds the variant through that SKU.
    items.push({
      sku: line.sku || line.name,
      name: line.name,
      ...(productId ? { product_id: Number(productId) } : {}),
      product_type: isVariantLine ? 'configurable' : 'simple',
      qty_ordered: line.quantity,
      qty_shipped: shipped,
      price: unit,
      base_price: unit,
      original_price: unit,
      row_total: rowTotal,
      base_row_total: rowTotal,
      tax_amount: amount(line.tax),
      base_tax_amount: amount(line.tax),
      discount_amount: discount,
      base_discount_amount: discount,
      price_incl_tax: Math.round((unit + amount(line.tax) / line.quantity) * 100) / 100,
      row_total_incl_tax: Math.round((rowTotal + amount(line.tax)) * 100) / 100,
      is_virtual: 0,
    });
  }
  if (record.fulfillmentStatus === 'partial') {
    warnings.push(
      'partially shipped at the source, without shipped quantities per line: no items were marked shipped (fulfillmentStatus)',
    );
  }
  if (record.updatedAt)
    warnings.push('modification date not kept: Magento sets its own on save (updatedAt)');

  const currency = record.currency;
  const grand = record.grandTotal.amount;
  const totals = totalsForPaymentStatus(record.paymentStatus, grand);
  const money = (minor: number) => Number(fromMinor(minor, currency));
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
  const { state, status } = statusToMagento(record.status);

  const billing = record.billingAddress ?? record.shippingAddress;
  const entity: Record<string, unknown> = {
    increment_id: incrementId,
    ext_order_id: marker,
    store_id: 1,
    created_at: magentoFromIso(record.createdAt),
    state,
    status,
    customer_email: record.email,
    ...(customerId !== undefined
      ? { customer_id: customerId, customer_is_guest: 0, customer_group_id: 1 }
      : { customer_is_guest: 1 }),
    customer_firstname: billing?.firstName ?? '',
    customer_lastname: billing?.lastName ?? '',
    customer_note: record.note,
    customer_note_notify: 0,
    base_currency_code: currency,
    order_currency_code: currency,
    store_currency_code: currency,
    global_currency_code: currency,
    subtotal: money(record.subtotal.amount),
    base_subtotal: money(record.subtotal.amount),
    tax_amount: money(record.taxTotal.amount),
    base_tax_amount: money(record.taxTotal.amount),
    shipping_amount: money(record.shippingTotal.amount),
    base_shipping_amount: money(record.shippingTotal.amount),
    shipping_tax_amount: money(shippingTax),
    shipping_description: shipping
      .map((s) => s.title)
      .filter(Boolean)
      .join(' + '),
    discount_amount: -money(record.discountTotal.amount),
    base_discount_amount: -money(record.discountTotal.amount),
    ...(discountCode ? { coupon_code: discountCode, discount_description: discountCode } : {}),
    grand_total: money(grand),
    base_grand_total: money(grand),
    total_paid: money(totals.paid),
    base_total_paid: money(totals.paid),
    total_invoiced: money(totals.paid),
    total_refunded: money(totals.refunded),
    total_canceled: money(totals.canceled),
    total_due: money(Math.max(0, grand - totals.paid)),
    total_qty_ordered: record.lines.reduce((n, l) => n + l.quantity, 0),
    total_item_count: record.lines.length,
    items,
    payment: {
      method: 'checkmo',
      account_status: '',
      additional_information: ['Imported order: payment taken by the previous store'],
      cc_last4: '',
      amount_ordered: money(grand),
      amount_paid: money(totals.paid),
      amount_refunded: money(totals.refunded),
      amount_authorized: money(totals.authorized),
    },
    extension_attributes: {
      // Imported orders must not notify the customer.
      send_notification: 0,
      ...(record.shippingAddress
        ? {
            shipping_assignments: [
              {
                shipping: {
                  address: await orderAddressPayload(
                    session,
                    record.shippingAddress,
                    'shipping',
                    record.email,
                  ),
                  method: shipping[0]?.code ?? '',
                  total: {
                    shipping_amount: money(record.shippingTotal.amount),
                    base_shipping_amount: money(record.shippingTotal.amount),
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
  if (billing)
    entity.billing_address = await orderAddressPayload(session, billing, 'billing', record.email);

  // POST /V1/orders (admin-schema-2.4.9.yaml PostV1Orders)
  const created = await createOnce(
    () =>
      session.client.request('POST', '/V1/orders', orderSchema, {
        body: { entity },
        scope: 'store',
      }),
    () => findByField(session, 'ext_order_id', marker),
  );
  return {
    sourceId: record.id,
    outcome: 'created',
    destinationId: String(created.entity_id),
    ...(warnings.length ? { warnings } : {}),
  };
}
