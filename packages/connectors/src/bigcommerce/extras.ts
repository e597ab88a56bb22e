import type { Metafield } from '@replatform/canonical/metafield';

/**
 * BigCommerce's own fields that the canonical model has no field for (a retail price, a
 * warranty, Open Graph settings, a staff note...). They travel as canonical metafields in the
 * namespace `bigcommerce_fields`, keyed by the field's name in BigCommerce's API: a BigCommerce
 * destination writes each back to its field, so a BigCommerce-to-BigCommerce move keeps them all,
 * and other destinations keep them as custom fields. Only values that differ from what
 * BigCommerce gives a record created without the field are carried, so a record of all defaults
 * brings none.
 */
export const fieldsNamespace = 'bigcommerce_fields';

/**
 * How a field's value is written as text: numbers and booleans as JSON literals, lists and
 * objects as JSON, texts as they are.
 */
export type ExtraKind = 'number' | 'integer' | 'boolean' | 'text' | 'html' | 'json' | 'date';

export interface Extra {
  /** The field's path in BigCommerce's answer ('retail_price', 'custom_url.is_customized'). */
  field: string;
  kind: ExtraKind;
  /** What BigCommerce gives a record created without it: carried only when different. */
  default: unknown;
}

/** Canonical metafield type of each kind (the names Shopify and the model use). */
const types: Record<ExtraKind, string> = {
  number: 'number_decimal',
  integer: 'number_integer',
  boolean: 'boolean',
  text: 'single_line_text_field',
  html: 'multi_line_text_field',
  json: 'json',
  date: 'date_time',
};

const extra = (field: string, kind: ExtraKind, fallback: unknown): Extra => ({
  field,
  kind,
  default: fallback,
});

/** Product fields (products_catalog.v3.yml product_Full) with no canonical field. */
export const productExtras: readonly Extra[] = [
  extra('retail_price', 'number', 0),
  extra('cost_price', 'number', 0),
  extra('map_price', 'number', 0),
  extra('product_tax_code', 'text', ''),
  extra('fixed_cost_shipping_price', 'number', 0),
  extra('is_free_shipping', 'boolean', false),
  extra('warranty', 'html', ''),
  extra('bin_picking_number', 'text', ''),
  extra('layout_file', 'text', 'product.html'),
  extra('mpn', 'text', ''),
  extra('upc', 'text', ''),
  extra('availability_description', 'text', ''),
  extra('gift_wrapping_options_type', 'text', 'any'),
  extra('condition', 'text', 'New'),
  extra('is_condition_shown', 'boolean', false),
  extra('order_quantity_minimum', 'integer', 0),
  extra('meta_keywords', 'json', []),
  extra('preorder_release_date', 'date', null),
  extra('preorder_message', 'text', ''),
  extra('is_preorder_only', 'boolean', false),
  extra('is_price_hidden', 'boolean', false),
  extra('price_hidden_label', 'text', ''),
  extra('open_graph_type', 'text', 'product'),
  extra('open_graph_title', 'text', ''),
  extra('open_graph_description', 'text', ''),
  extra('open_graph_use_meta_description', 'boolean', true),
  extra('open_graph_use_product_name', 'boolean', true),
  extra('open_graph_use_image', 'boolean', true),
  extra('custom_url.is_customized', 'boolean', true),
];

/**
 * Product fields carried as metafields but read and written by hand in map-catalog.ts (they
 * depend on other fields): availability apart from archiving, purchase limits other than one,
 * bulk pricing, videos, 'no related products', stock counted for a product with options as a
 * whole, option display types and swatch data, and the GTIN of a product with options (its
 * variants have their own).
 */
export const productSpecialKeys = [
  'availability',
  'order_quantity_maximum',
  'bulk_pricing_rules',
  'videos',
  'related_products',
  'inventory_tracking',
  'inventory_level',
  'inventory_warning_level',
  'option_types',
  'option_value_data',
  'gtin',
] as const;

/** Keys of every entity read by metafields.ts: who may read each metafield, its description. */
const metafieldKeys = new Set(['metafield_permissions', 'metafield_descriptions']);

/** Variant fields (productVariant_Full) with no canonical field. */
export const variantExtras: readonly Extra[] = [
  extra('cost_price', 'number', null),
  extra('retail_price', 'number', null),
  extra('map_price', 'number', 0),
  extra('is_free_shipping', 'boolean', false),
  extra('fixed_cost_shipping_price', 'number', null),
  extra('purchasing_disabled_message', 'text', ''),
  extra('bin_picking_number', 'text', ''),
  extra('mpn', 'text', ''),
  extra('upc', 'text', ''),
];

/** Category fields (category-trees_catalog.v3.yml) with no canonical field. */
export const categoryExtras: readonly Extra[] = [
  extra('is_visible', 'boolean', true),
  extra('meta_keywords', 'json', []),
  extra('search_keywords', 'text', ''),
  extra('layout_file', 'text', 'category.html'),
  extra('default_product_sort', 'text', 'use_store_settings'),
  extra('url.is_customized', 'boolean', true),
];

/** Brand fields (brands_catalog.v3.yml brand_Full) with no canonical field. */
export const brandExtras: readonly Extra[] = [extra('custom_url.is_customized', 'boolean', true)];

/**
 * Web page fields (pages.v3.yml) with no canonical field: its kind (a raw page holds markup of
 * its own, a contact form its address and fields), its channel, search keywords, and whether it
 * is the home page or for signed-in customers only.
 */
export const webPageExtras: readonly Extra[] = [
  extra('type', 'text', 'page'),
  extra('channel_id', 'integer', 1),
  extra('search_keywords', 'text', ''),
  extra('is_customers_only', 'boolean', false),
  extra('is_homepage', 'boolean', false),
  extra('email', 'text', ''),
  extra('contact_fields', 'text', ''),
];

/** Customer fields (customers.v3.yml customer_Full) with no canonical field. */
export const customerExtras: readonly Extra[] = [
  extra('company', 'text', ''),
  extra('registration_ip_address', 'text', ''),
  extra('tax_exempt_category', 'text', ''),
  extra('store_credit_amounts', 'json', []),
];

/** Order fields (orders.v2.oas2.yml order_Resp) with no canonical field. */
export const orderExtras: readonly Extra[] = [
  extra('staff_notes', 'html', ''),
  extra('order_is_digital', 'boolean', false),
  extra('geoip_country', 'text', ''),
  extra('geoip_country_iso2', 'text', ''),
  extra('ebay_order_id', 'text', '0'),
  extra('external_merchant_id', 'text', null),
  extra('external_order_id', 'text', ''),
  extra('customer_locale', 'text', 'en'),
];

/** Coupon fields (marketing.v2.yml coupon_Full) with no canonical field. */
export const couponExtras: readonly Extra[] = [
  extra('restricted_to', 'json', {}),
  extra('shipping_methods', 'json', []),
];

/**
 * Order fields carried as metafields but read and written by hand in map-order.ts: a status the
 * model's statuses do not tell apart, a partial shipped count, base costs that differ from the
 * cost itself, and which fees are BigCommerce's handling and wrapping costs.
 */
export const orderSpecialKeys = [
  'status_id',
  'items_shipped',
  'base_shipping_cost',
  'base_handling_cost',
  'base_wrapping_cost',
  'handling_fee',
  'wrapping_fee',
] as const;

/** The value at a dotted path of a JSON record. */
export function pathValue(record: unknown, path: string): unknown {
  let current: unknown = record;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Sets a value at a dotted path, making the objects on the way. */
export function setPath(record: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let current = record;
  for (const key of keys.slice(0, -1)) {
    const next = current[key];
    if (next === null || typeof next !== 'object') current[key] = {};
    current = current[key] as Record<string, unknown>;
  }
  current[keys.at(-1) ?? ''] = value;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A metafield of the namespace (a JSON value goes as text, with type 'json'). */
export function fieldMetafield(key: string, kind: ExtraKind, value: unknown): Metafield {
  return {
    namespace: fieldsNamespace,
    key,
    value:
      kind === 'text' || kind === 'html' || kind === 'date' ? String(value) : JSON.stringify(value),
    type: types[kind],
  };
}

/** The metafields of a native record's fields that differ from BigCommerce's defaults. */
export function readExtras(record: unknown, extras: readonly Extra[]): Metafield[] {
  const out: Metafield[] = [];
  for (const { field, kind, default: fallback } of extras) {
    const value = pathValue(record, field);
    if (value === undefined || same(value, fallback)) continue;
    // A field that reads null where the default is not null has no value to keep.
    if (value === null) continue;
    out.push(fieldMetafield(field, kind, value));
  }
  return out;
}

/** The value a metafield of the namespace holds, parsed back into the field's form. */
export function parseExtra(kind: ExtraKind, text: string): unknown {
  if (kind === 'text' || kind === 'html' || kind === 'date') return text;
  return JSON.parse(text) as unknown;
}

/**
 * The fields a record's metafields of the namespace give back, by key, and the keys that name no
 * field this entity has (a record edited elsewhere), for a warning.
 */
export function writeExtras(
  metafields: readonly Metafield[],
  extras: readonly Extra[],
  special: readonly string[] = [],
): { fields: Map<string, unknown>; special: Map<string, string>; unknown: string[] } {
  const fields = new Map<string, unknown>();
  const specials = new Map<string, string>();
  const unknown: string[] = [];
  for (const m of metafields) {
    if (m.namespace !== fieldsNamespace || metafieldKeys.has(m.key)) continue;
    const known = extras.find((e) => e.field === m.key);
    try {
      if (known) fields.set(m.key, parseExtra(known.kind, m.value));
      else if (special.includes(m.key)) specials.set(m.key, m.value);
      else unknown.push(m.key);
    } catch {
      unknown.push(m.key);
    }
  }
  return { fields, special: specials, unknown };
}

/** The metafields of a record apart from those of the namespace. */
export const ownMetafields = (metafields: readonly Metafield[]) =>
  metafields.filter((m) => m.namespace !== fieldsNamespace);
