import type { Category } from '@replatform/canonical/category';
import type { Customer } from '@replatform/canonical/customer';
import { entitySchemas, type EntityRecord, type EntityType } from '@replatform/canonical/entities';
import type { Order, OrderLine } from '@replatform/canonical/order';
import type { Product, ProductImage, Variant } from '@replatform/canonical/product';
import { z } from 'zod';
import type { Checkpoint, Page } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import {
  addressFromCustomer,
  addressFromOrder,
  customValue,
  isoFromMagento,
  moneyOf,
} from './mapping.ts';
import {
  categorySchema,
  configurableOptionSchema,
  customerSchema,
  orderSchema,
  productSchema,
  searchResults,
  type ConfigurableOption,
  type MagentoCategory,
  type MagentoCustomer,
  type MagentoOrder,
  type MagentoOrderItem,
  type MagentoProduct,
} from './magento-schemas.ts';
import { paymentStatusFromTotals, statusFromMagento } from './order-status.ts';
import { findProducts } from './write-catalog.ts';
import { criteria, type MagentoSession } from './session.ts';

/**
 * Readers. Products, customers and orders are paged by keyset: `entity_id > last id` sorted by
 * entity_id ascending with currentPage 1, so a record inserted or deleted mid-read cannot shift
 * a page, and a resumed read starts after the last id it returned. Whether more remains comes
 * from total_count (Magento answers a currentPage past the end with the last page again, so an
 * empty page never signals the end). Categories are few and must come parents first, so they
 * are paged by page number with a stable level/entity_id sort, again bounded by total_count.
 */

export const pageSizes = { categories: 100, products: 50, customers: 100, orders: 50 } as const;

/** Magento product attributes the canonical model holds in named fields (not in `attributes`). */
const mappedAttributes = new Set([
  'name',
  'sku',
  'price',
  'status',
  'visibility',
  'weight',
  'description',
  'short_description',
  'url_key',
  'url_path',
  'meta_title',
  'meta_description',
  'meta_keyword',
  'special_price',
  'special_from_date',
  'special_to_date',
  'manufacturer',
  'image',
  'small_image',
  'thumbnail',
  'swatch_image',
  'category_ids',
  'tax_class_id',
  'options_container',
  'required_options',
  'has_options',
  'gift_message_available',
  'msrp_display_actual_price_type',
  'quantity_and_stock_status',
  // This service's own marker on the products it created (write-catalog.ts).
  'replatform_source_id',
]);

function cursorOf(checkpoint: Checkpoint | null): number {
  if (!checkpoint) return 0;
  const n = Number(checkpoint.cursor);
  if (checkpoint.version !== 1 || !Number.isInteger(n) || n < 0) {
    throw new ConnectorError(
      'system',
      'bad_checkpoint',
      `Unusable Magento checkpoint '${checkpoint.cursor}'`,
    );
  }
  return n;
}

/** Validates mapped records against the canonical schema; failures become rejected entries. */
function page<E extends EntityType>(
  entity: E,
  mapped: { sourceId: string; record?: EntityRecord[E]; reason?: string }[],
  next: Checkpoint | null,
): Page<E> {
  const records: EntityRecord[E][] = [];
  const rejected: { sourceId: string; reason: string }[] = [];
  for (const m of mapped) {
    if (!m.record) {
      rejected.push({ sourceId: m.sourceId, reason: m.reason ?? 'not readable' });
      continue;
    }
    const parsed = entitySchemas[entity].safeParse(m.record);
    if (parsed.success) records.push(parsed.data as EntityRecord[E]);
    else
      rejected.push({
        sourceId: m.sourceId,
        reason: `does not fit the canonical model: ${parsed.error.message.slice(0, 300)}`,
      });
  }
  return rejected.length ? { records, next, rejected } : { records, next };
}

// ------------------------------------------------------------------ categories

export async function countCategories(session: MagentoSession): Promise<number> {
  const result = await session.client.get(
    '/V1/categories/list',
    searchResults(categorySchema),
    criteria({ filters: [[['level', 2, 'gteq']]], pageSize: 1, currentPage: 1 }),
  );
  return result.total_count;
}

export async function* readCategories(
  session: MagentoSession,
  checkpoint: Checkpoint | null,
): AsyncGenerator<Page<'categories'>> {
  const roots = await session.roots();
  const config = await session.storeConfig();
  for (let current = cursorOf(checkpoint) + 1; ; current++) {
    // GET /V1/categories/list (admin-schema-2.4.9.yaml GetV1CategoriesList)
    const result = await session.client.get(
      '/V1/categories/list',
      searchResults(categorySchema),
      criteria({
        filters: [[['level', 2, 'gteq']]],
        sort: [
          ['level', 'ASC'],
          ['entity_id', 'ASC'],
        ],
        pageSize: pageSizes.categories,
        currentPage: current,
      }),
    );
    const pages = Math.ceil(result.total_count / pageSizes.categories);
    const items = current <= pages ? result.items : [];
    const mapped = items.map((c) => ({
      sourceId: String(c.id),
      record: categoryToCanonical(c, roots.all, config.base_media_url),
    }));
    const next = current < pages ? { version: 1 as const, cursor: String(current) } : null;
    yield page('categories', mapped, next);
    if (!next) return;
  }
}

function categoryToCanonical(c: MagentoCategory, roots: Set<string>, mediaUrl: string): Category {
  const attrs = c.custom_attributes;
  const image = customValue(attrs, 'image');
  const urlPath = customValue(attrs, 'url_path');
  const parentId = String(c.parent_id);
  return {
    id: String(c.id),
    parentId: roots.has(parentId) ? null : parentId,
    name: c.name,
    slug: (customValue(attrs, 'url_key') ?? '').toLowerCase(),
    description: customValue(attrs, 'description') ?? '',
    // Magento positions start at 1 among siblings.
    position: Math.max(0, c.position - 1),
    imageUrl: image
      ? image.startsWith('http')
        ? image
        : image.startsWith('/')
          ? new URL(image, mediaUrl).toString()
          : `${mediaUrl.replace(/\/+$/, '')}/catalog/category/${image}`
      : null,
    sourceUrlPath: urlPath ? `/${urlPath}.html` : null,
  };
}

// ------------------------------------------------------------------ products

const productList = searchResults(productSchema);

/** Magento's "Not Visible Individually": a product shown only through its parent. */
const notVisibleIndividually = 1;

/**
 * Ids of simple products that belong to a configurable parent. Those that are not visible on
 * their own are read as the parent's variants only; a child that is also sold on its own
 * (visibility catalog, search or both) is read as a product of its own as well.
 */
async function childIds(session: MagentoSession): Promise<Set<number>> {
  const ids = new Set<number>();
  for (let after = 0; ;) {
    const result = await session.client.get(
      '/V1/products',
      productList,
      criteria({
        filters: [[['type_id', 'configurable']], [['entity_id', after, 'gt']]],
        sort: [['entity_id', 'ASC']],
        pageSize: 100,
        currentPage: 1,
      }),
    );
    for (const p of result.items) {
      for (const id of p.extension_attributes?.configurable_product_links ?? []) ids.add(id);
      after = Math.max(after, p.id);
    }
    if (result.total_count <= result.items.length || !result.items.length) return ids;
  }
}

/** Children of configurable products that are not visible on their own. */
async function hiddenChildIds(session: MagentoSession): Promise<Set<number>> {
  const children = await childIds(session);
  const hidden = new Set<number>();
  if (children.size === 0) return hidden;
  for (let after = 0; ;) {
    const result = await session.client.get(
      '/V1/products',
      productList,
      criteria({
        filters: [[['visibility', notVisibleIndividually]], [['entity_id', after, 'gt']]],
        sort: [['entity_id', 'ASC']],
        pageSize: 100,
        currentPage: 1,
      }),
    );
    for (const p of result.items) {
      if (children.has(p.id)) hidden.add(p.id);
      after = Math.max(after, p.id);
    }
    if (result.total_count <= result.items.length || !result.items.length) return hidden;
  }
}

export async function countProducts(session: MagentoSession): Promise<number> {
  const [all, hidden] = await Promise.all([
    session.client.get('/V1/products', productList, criteria({ pageSize: 1, currentPage: 1 })),
    hiddenChildIds(session),
  ]);
  return all.total_count - hidden.size;
}

export async function* readProducts(
  session: MagentoSession,
  checkpoint: Checkpoint | null,
): AsyncGenerator<Page<'products'>> {
  const children = await childIds(session);
  for (let after = cursorOf(checkpoint); ;) {
    // GET /V1/products (admin-schema-2.4.9.yaml GetV1Products)
    const result = await session.client.get(
      '/V1/products',
      productList,
      criteria({
        filters: [[['entity_id', after, 'gt']]],
        sort: [['entity_id', 'ASC']],
        pageSize: pageSizes.products,
        currentPage: 1,
      }),
    );
    const mapped: { sourceId: string; record?: Product; reason?: string }[] = [];
    for (const item of result.items) {
      after = Math.max(after, item.id);
      if (
        children.has(item.id) &&
        (item.visibility ?? notVisibleIndividually) === notVisibleIndividually
      )
        continue;
      mapped.push(await productToCanonical(session, item));
    }
    const more = result.items.length > 0 && result.total_count > result.items.length;
    const next = more ? { version: 1 as const, cursor: String(after) } : null;
    yield page('products', mapped, next);
    if (!next) return;
  }
}

async function productToCanonical(
  session: MagentoSession,
  p: MagentoProduct,
): Promise<{ sourceId: string; record?: Product; reason?: string }> {
  const sourceId = String(p.id);
  if (
    p.type_id !== 'simple' &&
    p.type_id !== 'virtual' &&
    p.type_id !== 'downloadable' &&
    p.type_id !== 'configurable'
  ) {
    return {
      sourceId,
      reason: `Magento ${p.type_id} products have no equivalent in the migration model`,
    };
  }
  const currency = await session.currency();
  const mediaUrl = await session.productMediaUrl();
  const attrs = p.custom_attributes;
  const roots = await session.roots();
  let variants: Variant[];
  let options: Product['options'] = [];
  const optionCodes = new Set<string>();
  if (p.type_id === 'configurable') {
    const built = await configurableVariants(session, p, currency, mediaUrl);
    if ('reason' in built) return { sourceId, reason: built.reason };
    variants = built.variants;
    options = built.options;
    for (const code of built.codes) optionCodes.add(code);
  } else {
    variants = [await variantOf(session, p, [], currency, mediaUrl, false)];
  }
  const attributes: Record<string, string> = {};
  for (const a of attrs ?? []) {
    if (mappedAttributes.has(a.attribute_code) || optionCodes.has(a.attribute_code)) continue;
    const meta = await session.attribute(a.attribute_code);
    if (!meta?.is_user_defined) continue;
    const value = await session.attributeText(a.attribute_code, a.value);
    if (value !== '') attributes[a.attribute_code] = value;
  }
  const manufacturer = customValue(attrs, 'manufacturer');
  const urlKey = customValue(attrs, 'url_key') ?? '';
  const record: Product = {
    id: sourceId,
    type: p.type_id === 'configurable' ? 'variable' : 'simple',
    name: p.name ?? p.sku,
    slug: urlKey.toLowerCase(),
    sku: p.sku,
    descriptionHtml: customValue(attrs, 'description') ?? '',
    shortDescriptionHtml: customValue(attrs, 'short_description') ?? '',
    status: p.status === 2 ? 'draft' : 'active',
    vendor: manufacturer ? await session.attributeText('manufacturer', manufacturer) : '',
    options,
    variants,
    images: imagesOf(p, mediaUrl),
    categoryIds: [
      ...new Set(
        (p.extension_attributes?.category_links ?? [])
          .map((l) => l.category_id)
          .filter((id) => !roots.all.has(id)),
      ),
    ],
    tags: [],
    seoTitle: customValue(attrs, 'meta_title') ?? '',
    seoDescription: customValue(attrs, 'meta_description') ?? '',
    dimensions: null,
    attributes,
    sourceUrlPath: urlKey ? `/${urlKey}.html` : null,
    createdAt: isoFromMagento(p.created_at),
    updatedAt: isoFromMagento(p.updated_at),
  };
  return { sourceId, record };
}

function imagesOf(p: MagentoProduct, mediaUrl: string): ProductImage[] {
  return [...(p.media_gallery_entries ?? [])]
    .filter((m) => m.media_type === 'image')
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0) || a.id - b.id)
    .map((m, position) => ({
      url: `${mediaUrl}${m.file.startsWith('/') ? '' : '/'}${m.file}`,
      alt: m.label,
      position,
    }));
}

async function variantOf(
  session: MagentoSession,
  p: MagentoProduct,
  optionValues: { name: string; value: string }[],
  currency: string,
  mediaUrl: string,
  withImage: boolean,
): Promise<Variant> {
  let stock = p.extension_attributes?.stock_item;
  if (!stock) {
    // List and children answers may leave the stock item out; the product itself has it.
    const full = await session.client.get(
      `/V1/products/${encodeURIComponent(p.sku)}`,
      productSchema,
    );
    stock = full.extension_attributes?.stock_item;
  }
  const regular = p.price ?? 0;
  const special = customValue(p.custom_attributes, 'special_price');
  const onSale = special !== undefined && special !== '' && Number(special) < Number(regular);
  const tracked = stock
    ? stock.use_config_manage_stock === true
      ? true
      : (stock.manage_stock ?? true)
    : false;
  const unit = await session.weightUnit();
  const image = withImage ? imagesOf(p, mediaUrl)[0] : undefined;
  return {
    id: String(p.id),
    sku: p.sku,
    optionValues,
    price: moneyOf(onSale ? special : regular, currency),
    compareAtPrice: onSale ? moneyOf(regular, currency) : null,
    weight: p.weight === null || p.weight === undefined ? null : { value: Number(p.weight), unit },
    inventory: { tracked, quantity: tracked ? Math.round(Number(stock?.qty ?? 0)) : 0 },
    barcode: '',
    imageUrl: image?.url ?? null,
  };
}

async function configurableVariants(
  session: MagentoSession,
  p: MagentoProduct,
  currency: string,
  mediaUrl: string,
): Promise<
  { variants: Variant[]; options: Product['options']; codes: string[] } | { reason: string }
> {
  const sku = encodeURIComponent(p.sku);
  let rawOptions: ConfigurableOption[] | undefined =
    p.extension_attributes?.configurable_product_options;
  if (!rawOptions) {
    // GET /V1/configurable-products/{sku}/options/all
    rawOptions = await session.client.get(
      `/V1/configurable-products/${sku}/options/all`,
      z.array(configurableOptionSchema),
    );
  }
  // GET /V1/configurable-products/{sku}/children
  const children = await session.client.get(
    `/V1/configurable-products/${sku}/children`,
    z.array(productSchema),
  );
  const sorted = [...rawOptions].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  const options: Product['options'] = [];
  const codes: string[] = [];
  for (const option of sorted) {
    const code = await session.attributeCode(option.attribute_id);
    if (!code)
      return { reason: `configurable option attribute ${option.attribute_id} no longer exists` };
    codes.push(code);
    const attribute = await session.attribute(code);
    const values: string[] = [];
    for (const v of option.values) {
      const label = await session.attributeText(code, String(v.value_index));
      if (label && !values.includes(label)) values.push(label);
    }
    if (!values.length) return { reason: `configurable option '${option.label}' has no values` };
    options.push({ name: option.label || attribute?.default_frontend_label || code, values });
  }
  if (!children.length) return { reason: 'configurable product without child products' };
  const variants: Variant[] = [];
  for (const child of children) {
    const optionValues: { name: string; value: string }[] = [];
    for (const [i, code] of codes.entries()) {
      const raw = customValue(child.custom_attributes, code);
      const value = raw ? await session.attributeText(code, raw) : '';
      const name = options[i]?.name ?? code;
      if (!value) return { reason: `child ${child.sku} has no value for option '${name}'` };
      optionValues.push({ name, value });
    }
    variants.push(await variantOf(session, child, optionValues, currency, mediaUrl, true));
  }
  return { variants, options, codes };
}

// ------------------------------------------------------------------ customers

const customerList = searchResults(customerSchema);

export async function countCustomers(session: MagentoSession): Promise<number> {
  return (
    await session.client.get(
      '/V1/customers/search',
      customerList,
      criteria({ pageSize: 1, currentPage: 1 }),
    )
  ).total_count;
}

export async function* readCustomers(
  session: MagentoSession,
  checkpoint: Checkpoint | null,
): AsyncGenerator<Page<'customers'>> {
  for (let after = cursorOf(checkpoint); ;) {
    // GET /V1/customers/search (admin-schema-2.4.9.yaml GetV1CustomersSearch)
    const result = await session.client.get(
      '/V1/customers/search',
      customerList,
      criteria({
        filters: [[['entity_id', after, 'gt']]],
        sort: [['entity_id', 'ASC']],
        pageSize: pageSizes.customers,
        currentPage: 1,
      }),
    );
    const mapped = result.items.map((c) => {
      after = Math.max(after, c.id);
      return { sourceId: String(c.id), record: customerToCanonical(c) };
    });
    const more = result.items.length > 0 && result.total_count > result.items.length;
    const next = more ? { version: 1 as const, cursor: String(after) } : null;
    yield page('customers', mapped, next);
    if (!next) return;
  }
}

export function customerToCanonical(c: MagentoCustomer): Customer {
  const addresses = (c.addresses ?? []).map((a) => ({
    ...addressFromCustomer(a),
    isDefaultBilling:
      a.default_billing === true ||
      (a.id !== undefined && String(a.id) === String(c.default_billing ?? '')),
    isDefaultShipping:
      a.default_shipping === true ||
      (a.id !== undefined && String(a.id) === String(c.default_shipping ?? '')),
  }));
  const billing = addresses.find((a) => a.isDefaultBilling) ?? addresses[0];
  return {
    id: String(c.id),
    email: c.email.trim().toLowerCase(),
    firstName: c.firstname,
    lastName: c.lastname,
    // Magento keeps phone numbers on addresses only.
    phone: billing?.phone ?? '',
    acceptsMarketing: c.extension_attributes?.is_subscribed ?? false,
    addresses,
    note: '',
    tags: [],
    createdAt: isoFromMagento(c.created_at) ?? new Date(0).toISOString(),
  };
}

// ------------------------------------------------------------------ orders

const orderList = searchResults(orderSchema);

export async function countOrders(session: MagentoSession): Promise<number> {
  return (
    await session.client.get('/V1/orders', orderList, criteria({ pageSize: 1, currentPage: 1 }))
  ).total_count;
}

export async function* readOrders(
  session: MagentoSession,
  checkpoint: Checkpoint | null,
): AsyncGenerator<Page<'orders'>> {
  for (let after = cursorOf(checkpoint); ;) {
    // GET /V1/orders (admin-schema-2.4.9.yaml GetV1Orders)
    const result = await session.client.get(
      '/V1/orders',
      orderList,
      criteria({
        filters: [[['entity_id', after, 'gt']]],
        sort: [['entity_id', 'ASC']],
        pageSize: pageSizes.orders,
        currentPage: 1,
      }),
    );
    const fallbackCurrency = await session.currency();
    const variants = await variantIdsBySku(session, result.items);
    const mapped = result.items.map((o) => {
      after = Math.max(after, o.entity_id);
      return orderToCanonical(o, fallbackCurrency, variants);
    });
    const more = result.items.length > 0 && result.total_count > result.items.length;
    const next = more ? { version: 1 as const, cursor: String(after) } : null;
    yield page('orders', mapped, next);
    if (!next) return;
  }
}

/** The child item Magento links to a configurable parent item, if it has one. */
const childOf = (o: MagentoOrder, item: MagentoOrderItem) =>
  o.items.find((c) => c.parent_item_id === item.item_id);

/**
 * A configurable item saved through POST /V1/orders has no child item: the order item resource
 * links a child only to a parent instance saved in the same request, which an API caller cannot
 * name (the parent has no item id yet). Such an item still carries the bought child's SKU, as
 * every configurable parent item does (the configurable type gives the cart item its child's
 * SKU), so the variant is found through it. One search per page of orders.
 */
async function variantIdsBySku(
  session: MagentoSession,
  orders: readonly MagentoOrder[],
): Promise<Map<string, number>> {
  const skus = new Set<string>();
  for (const o of orders)
    for (const item of o.items)
      if (item.product_type === 'configurable' && item.sku && !childOf(o, item)) skus.add(item.sku);
  const ids = new Map<string, number>();
  const found = await findProducts(session, [...skus]);
  for (const sku of skus) {
    const product = found.get(sku.toLowerCase());
    if (product && product.type_id !== 'configurable') ids.set(sku, product.id);
  }
  return ids;
}

export function orderToCanonical(
  o: MagentoOrder,
  fallbackCurrency: string,
  variantIdBySku: ReadonlyMap<string, number> = new Map(),
): { sourceId: string; record?: Order; reason?: string } {
  const sourceId = String(o.entity_id);
  const currency = (
    o.order_currency_code ??
    o.base_currency_code ??
    fallbackCurrency
  ).toUpperCase();
  const m = (v: number | string | null | undefined) => moneyOf(v, currency);
  // Configurable lines are a parent item (price, totals) with a child item (the simple
  // product bought); the pair is one canonical line.
  const lines: OrderLine[] = o.items
    .filter((item) => item.parent_item_id === null || item.parent_item_id === undefined)
    .map((item) => {
      const child = childOf(o, item);
      const quantity = Math.max(1, Math.round(Number(item.qty_ordered ?? 1)));
      const price = Number(item.price ?? 0);
      const rowTotal = item.row_total ?? price * quantity;
      const variantId =
        child?.product_id ??
        (item.product_type === 'configurable' ? variantIdBySku.get(item.sku) : undefined);
      return {
        id: String(item.item_id),
        productId: item.product_id ? String(item.product_id) : null,
        variantId: variantId && variantId !== item.product_id ? String(variantId) : null,
        sku: child?.sku ?? item.sku,
        name: item.name || item.sku,
        quantity,
        unitPrice: m(price),
        tax: m(item.tax_amount),
        total: { amount: m(rowTotal).amount - Math.abs(m(item.discount_amount).amount), currency },
      };
    });
  if (!lines.length) return { sourceId, reason: 'order has no items' };
  const shippedAll = o.items
    .filter((i) => i.parent_item_id === null || i.parent_item_id === undefined)
    .map((i) => {
      const child = childOf(o, i);
      return {
        ordered: Number(i.qty_ordered ?? 0),
        shipped: Math.max(Number(i.qty_shipped ?? 0), Number(child?.qty_shipped ?? 0)),
      };
    });
  const fulfillmentStatus = shippedAll.every((s) => s.shipped >= s.ordered)
    ? 'fulfilled'
    : shippedAll.some((s) => s.shipped > 0)
      ? 'partial'
      : 'unfulfilled';
  const grand = m(o.grand_total);
  const shipping = o.extension_attributes?.shipping_assignments?.[0]?.shipping;
  const shippingAmount = m(o.shipping_amount);
  const discount = Math.abs(m(o.discount_amount).amount);
  const record: Order = {
    id: sourceId,
    number: o.increment_id,
    createdAt: isoFromMagento(o.created_at) ?? new Date(0).toISOString(),
    updatedAt: isoFromMagento(o.updated_at),
    currency,
    customerId: o.customer_is_guest === 1 || !o.customer_id ? null : String(o.customer_id),
    email: o.customer_email,
    status: statusFromMagento(o.state, o.status),
    paymentStatus: paymentStatusFromTotals({
      grand: grand.amount,
      paid: m(o.total_paid).amount,
      refunded: m(o.total_refunded).amount,
      authorized: m(o.payment?.amount_authorized).amount,
      canceled: m(o.total_canceled).amount > 0,
    }),
    fulfillmentStatus,
    lines,
    shippingLines:
      o.shipping_description || shippingAmount.amount > 0
        ? [
            {
              title: o.shipping_description,
              code: shipping?.method ?? '',
              price: shippingAmount,
              tax: m(o.shipping_tax_amount),
            },
          ]
        : [],
    discounts: discount
      ? [{ code: o.coupon_code || o.discount_description, amount: { amount: discount, currency } }]
      : [],
    subtotal: m(o.subtotal),
    taxTotal: m(o.tax_amount),
    shippingTotal: shippingAmount,
    discountTotal: { amount: discount, currency },
    grandTotal: grand,
    billingAddress: o.billing_address ? addressFromOrder(o.billing_address) : null,
    shippingAddress: shipping?.address ? addressFromOrder(shipping.address) : null,
    note: o.customer_note,
  };
  return { sourceId, record };
}
