import { z } from 'zod';
import { criteria, type MagentoSession } from './session.ts';
import { searchResults } from './magento-schemas.ts';

/**
 * Magento's records as its REST API answers them, with the sub-resources a migration reads
 * along with them, in the form native-fields.ts declares (its header says what is keyed or
 * named differently from the raw answer, and why). The readers map these to the canonical model;
 * the conformance suite compares two stores on them.
 */

export type Json = Record<string, unknown>;

const json = z.record(z.string(), z.unknown());
const jsonList = searchResults(json);

export const isJson = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const listOf = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter(isJson) : [];

const text = (value: unknown): string =>
  value === null || value === undefined
    ? ''
    : Array.isArray(value)
      ? value.join(',')
      : String(value);

/** A Magento product's type: configurable children are read with their parent. */
export const notVisibleIndividually = 1;

/** Records of one list request by entity_id ascending, starting after an id (keyset paging). */
export async function pageAfter(
  session: MagentoSession,
  path: string,
  idField: string,
  after: number,
  pageSize: number,
  filters: [string, string | number, string?][][] = [],
): Promise<{ items: Json[]; total: number }> {
  const result = await session.client.get(
    path,
    jsonList,
    criteria({
      filters: [...filters, [[idField, after, 'gt']]],
      sort: [[idField, 'ASC']],
      pageSize,
      currentPage: 1,
    }),
  );
  return { items: result.items, total: result.total_count };
}

/** Every record of a list whose `field` is one of `values`, in chunks of `chunk`. */
export async function listIn(
  session: MagentoSession,
  path: string,
  field: string,
  values: readonly (string | number)[],
  chunk = 100,
): Promise<Json[]> {
  const out: Json[] = [];
  const unique = [...new Set(values.map(String))].filter((v) => v !== '' && !v.includes(','));
  for (let i = 0; i < unique.length; i += chunk) {
    const part = unique.slice(i, i + chunk);
    for (let page = 1; ; page++) {
      const result = await session.client.get(
        path,
        jsonList,
        criteria({
          filters: [[[field, part.join(','), 'in']]],
          pageSize: 300,
          currentPage: page,
        }),
      );
      out.push(...result.items);
      if (page * 300 >= result.total_count) break;
    }
  }
  return out;
}

// ------------------------------------------------------------------ attributes

/**
 * custom_attributes keyed by code, Magento's own and the merchant's apart; select and
 * multiselect values of the merchant's attributes given by their labels.
 */
async function keyedProductAttributes(
  session: MagentoSession,
  list: unknown,
): Promise<{ own: Json; merchant: Json }> {
  const own: Json = {};
  const merchant: Json = {};
  for (const entry of listOf(list)) {
    const code = text(entry.attribute_code);
    if (!code) continue;
    const meta = await session.attribute(code);
    if (code === 'tax_class_id') {
      own[code] = await session.taxClassName(text(entry.value));
    } else if (meta?.is_user_defined) {
      const input = meta.frontend_input ?? 'text';
      merchant[code] =
        input === 'multiselect'
          ? await session.attributeLabels(code, entry.value)
          : input === 'select'
            ? await session.attributeText(code, entry.value)
            : entry.value;
    } else {
      own[code] = entry.value;
    }
  }
  return { own, merchant };
}

async function keyedCategoryAttributes(
  session: MagentoSession,
  list: unknown,
): Promise<{ own: Json; merchant: Json }> {
  const own: Json = {};
  const merchant: Json = {};
  for (const entry of listOf(list)) {
    const code = text(entry.attribute_code);
    if (!code) continue;
    const meta = await session.categoryAttribute(code);
    if (meta?.is_user_defined) merchant[code] = entry.value;
    else own[code] = entry.value;
  }
  return { own, merchant };
}

const keyed = (list: unknown): Json =>
  Object.fromEntries(listOf(list).map((a) => [text(a.attribute_code), a.value]));

// ------------------------------------------------------------------ products

/** One product in native form (children not included). */
async function nativeProduct(session: MagentoSession, raw: Json): Promise<Json> {
  const { custom_attributes: list, ...rest } = raw;
  const { own, merchant } = await keyedProductAttributes(session, list);
  const record: Json = { ...rest, custom_attributes: own, user_defined_attributes: merchant };
  const extension = isJson(rest.extension_attributes) ? { ...rest.extension_attributes } : {};
  if (Array.isArray(extension.configurable_product_options)) {
    const options: Json[] = [];
    for (const option of listOf(extension.configurable_product_options)) {
      const code = (await session.attributeCode(text(option.attribute_id))) ?? '';
      const values: Json[] = [];
      for (const value of listOf(option.values))
        values.push({
          ...value,
          value_index: await session.attributeText(code, value.value_index),
        });
      options.push({ ...option, attribute_id: code, values });
    }
    extension.configurable_product_options = options;
  }
  if (Object.keys(extension).length) record.extension_attributes = extension;
  return record;
}

/** Full product answers by id (list answers carry stock items and galleries). */
async function productsById(session: MagentoSession, ids: readonly number[]): Promise<Json[]> {
  return listIn(session, '/V1/products', 'entity_id', ids);
}

/** Ids of products that are a configurable product's children (links of every configurable). */
export async function configurableChildIds(session: MagentoSession): Promise<Set<number>> {
  const ids = new Set<number>();
  for (let after = 0; ;) {
    const { items, total } = await pageAfter(session, '/V1/products', 'entity_id', after, 100, [
      [['type_id', 'configurable']],
    ]);
    for (const p of items) {
      const extension = isJson(p.extension_attributes) ? p.extension_attributes : {};
      for (const id of Array.isArray(extension.configurable_product_links)
        ? extension.configurable_product_links
        : [])
        ids.add(Number(id));
      after = Math.max(after, Number(p.id));
    }
    if (total <= items.length || !items.length) return ids;
  }
}

/** Whether a product is read as its parent's variant only (a child not visible on its own). */
export const isFoldedChild = (product: Json, children: ReadonlySet<number>) =>
  children.has(Number(product.id)) &&
  Number(product.visibility ?? notVisibleIndividually) === notVisibleIndividually;

/** Native products of a page of list items: folded children left out, the others with theirs. */
export async function nativeProducts(
  session: MagentoSession,
  items: readonly Json[],
  children: ReadonlySet<number>,
): Promise<Json[]> {
  const kept = items.filter((p) => !isFoldedChild(p, children));
  const linkOf = (p: Json) => {
    const extension = isJson(p.extension_attributes) ? p.extension_attributes : {};
    return Array.isArray(extension.configurable_product_links)
      ? extension.configurable_product_links.map(Number)
      : [];
  };
  const childAnswers = new Map(
    (
      await productsById(session, kept.filter((p) => p.type_id === 'configurable').flatMap(linkOf))
    ).map((c) => [Number(c.id), c]),
  );
  // A list answer may leave the stock item out; the product itself has it.
  const full = async (p: Json) => {
    const extension = isJson(p.extension_attributes) ? p.extension_attributes : {};
    if (extension.stock_item !== undefined) return p;
    return session.client.get(`/V1/products/${encodeURIComponent(text(p.sku))}`, json);
  };
  const out: Json[] = [];
  for (const item of kept) {
    const record = await nativeProduct(session, await full(item));
    if (item.type_id === 'configurable') {
      const kids: Json[] = [];
      for (const id of linkOf(item)) {
        const child = childAnswers.get(id);
        if (child) kids.push(await nativeProduct(session, await full(child)));
      }
      record.children = kids;
    }
    out.push(record);
  }
  return out;
}

// ------------------------------------------------------------------ categories

export async function nativeCategory(
  session: MagentoSession,
  raw: Json,
  roots: ReadonlySet<string>,
): Promise<Json> {
  const { custom_attributes: list, ...rest } = raw;
  const { own, merchant } = await keyedCategoryAttributes(session, list);
  return {
    ...rest,
    parent_id: roots.has(text(raw.parent_id)) ? null : raw.parent_id,
    custom_attributes: own,
    user_defined_attributes: merchant,
  };
}

// ------------------------------------------------------------------ customers

export async function nativeCustomer(session: MagentoSession, raw: Json): Promise<Json> {
  const record: Json = { ...raw, group_id: await session.customerGroupCode(text(raw.group_id)) };
  if (raw.custom_attributes !== undefined) record.custom_attributes = keyed(raw.custom_attributes);
  return record;
}

// ------------------------------------------------------------------ orders

/**
 * Native orders of a page: credit memos and invoices of each, item product ids of products that
 * no longer exist set to null, configurable item options by attribute code and value label,
 * and document items naming their order item by position.
 */
export async function nativeOrders(
  session: MagentoSession,
  orders: readonly Json[],
): Promise<Json[]> {
  const ids = orders.map((o) => Number(o.entity_id));
  const productIds = orders.flatMap((o) =>
    listOf(o.items).flatMap((i) => (i.product_id ? [Number(i.product_id)] : [])),
  );
  const existing = new Set((await productsById(session, productIds)).map((p) => Number(p.id)));
  const documents = async (path: string) => {
    const byOrder = new Map<number, Json[]>();
    for (const d of await listIn(session, path, 'order_id', ids)) {
      const list = byOrder.get(Number(d.order_id)) ?? [];
      list.push(d);
      byOrder.set(Number(d.order_id), list);
    }
    for (const list of byOrder.values())
      list.sort(
        (a, b) =>
          text(a.created_at).localeCompare(text(b.created_at)) ||
          Number(a.entity_id) - Number(b.entity_id),
      );
    return byOrder;
  };
  const [memos, invoices] = [await documents('/V1/creditmemos'), await documents('/V1/invoices')];
  const out: Json[] = [];
  for (const order of orders) {
    // Each item followed by its child items, as an order placed at checkout lists them.
    const all = listOf(order.items);
    const isChild = (i: Json) => i.parent_item_id !== null && i.parent_item_id !== undefined;
    const items = all
      .filter((i) => !isChild(i))
      .flatMap((parent) => [
        parent,
        ...all.filter((c) => isChild(c) && text(c.parent_item_id) === text(parent.item_id)),
      ]);
    items.push(...all.filter((i) => !items.includes(i)));
    const position = (itemId: unknown) =>
      items.findIndex((i) => text(i.item_id) === text(itemId)) + 1;
    const nativeItems: Json[] = [];
    for (const item of items) {
      const copy: Json = { ...item };
      if (!item.product_id || !existing.has(Number(item.product_id))) copy.product_id = null;
      const option = isJson(item.product_option) ? item.product_option : undefined;
      const extension =
        option && isJson(option.extension_attributes) ? option.extension_attributes : undefined;
      if (extension && Array.isArray(extension.configurable_item_options)) {
        const chosen: Json[] = [];
        for (const o of listOf(extension.configurable_item_options)) {
          const code = (await session.attributeCode(text(o.option_id))) ?? text(o.option_id);
          chosen.push({
            ...o,
            option_id: code,
            option_value: await session.attributeText(code, o.option_value),
          });
        }
        copy.product_option = {
          ...option,
          extension_attributes: { ...extension, configurable_item_options: chosen },
        };
      }
      nativeItems.push(copy);
    }
    const byPosition = (documentItems: unknown) =>
      listOf(documentItems).map((i) => ({ ...i, order_item_id: position(i.order_item_id) }));
    const id = Number(order.entity_id);
    out.push({
      ...order,
      items: nativeItems,
      creditmemos: (memos.get(id) ?? []).map((m) => ({ ...m, items: byPosition(m.items) })),
      invoices: (invoices.get(id) ?? []).map((m) => ({ ...m, items: byPosition(m.items) })),
    });
  }
  return out;
}
