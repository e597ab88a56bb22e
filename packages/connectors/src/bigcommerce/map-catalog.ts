import type { Category } from '@replatform/canonical/category';
import { categoryDefaults, productDefaults, variantDefaults } from '@replatform/canonical/defaults';
import type { Metafield } from '@replatform/canonical/metafield';
import { fromMinor, toMinor, type Money } from '@replatform/canonical/money';
import type {
  Product,
  ProductAttribute,
  ProductImage,
  ProductOption,
  Variant,
} from '@replatform/canonical/product';
import {
  categoryExtras,
  fieldMetafield,
  fieldsNamespace,
  productExtras,
  productSpecialKeys,
  readExtras,
  setPath,
  variantExtras,
  writeExtras,
} from './extras.ts';
import { metafieldsToBc, metafieldsToCanonical, type MetafieldInput } from './metafields.ts';
import type { Json } from './native.ts';
import type { BcOption, BcProduct, BcTreeCategory, BcVariant } from './payloads.ts';

/**
 * BigCommerce catalog <-> canonical model.
 *
 * - Prices: `price` is the regular price, `sale_price` (> 0) the sale price. A variant whose
 *   amounts are null has the product's (product-variants_catalog.v3.yml); a destination product
 *   with options takes the price most of its variants have, and those variants inherit it.
 * - Weights and dimensions are in the store's units (GET /v2/store weight_units, dimension_units).
 * - Tags travel as `search_keywords`, attributes as custom fields (one per value), the vendor as
 *   the brand, SEO as page_title/meta_description and the storefront path as custom_url.
 * - A hidden product is a draft, or archived when it is also not for sale (availability
 *   'disabled'); a variant that is not for sale (purchasing_disabled) is private.
 * - BigCommerce's fields the model has no place for travel as metafields (extras.ts).
 */

export interface StoreUnits {
  currency: string;
  weight: { unit: 'g' | 'kg' | 'lb' | 'oz'; factor: number };
  dimension: { unit: 'cm' | 'm' | 'mm' | 'in' | 'ft' | 'yd'; factor: number };
}

/** GET /v2/store weight_units / dimension_units -> canonical units (factor: store value x = unit). */
export function storeUnits(
  currency: string,
  weightUnits: string,
  dimensionUnits: string,
): StoreUnits {
  const w = weightUnits.toLowerCase();
  const weight: StoreUnits['weight'] = w.startsWith('kg')
    ? { unit: 'kg', factor: 1 }
    : w.startsWith('gram')
      ? { unit: 'g', factor: 1 }
      : w.startsWith('tonne')
        ? { unit: 'kg', factor: 1000 }
        : w.startsWith('ounce') || w === 'oz'
          ? { unit: 'oz', factor: 1 }
          : { unit: 'lb', factor: 1 };
  const d = dimensionUnits.toLowerCase();
  const dimension: StoreUnits['dimension'] = d.startsWith('centi')
    ? { unit: 'cm', factor: 1 }
    : d.startsWith('milli')
      ? { unit: 'mm', factor: 1 }
      : d.startsWith('met')
        ? { unit: 'm', factor: 1 }
        : { unit: 'in', factor: 1 };
  return { currency: currency.toUpperCase(), weight, dimension };
}

const grams: Record<string, number> = { g: 1, kg: 1000, lb: 453.59237, oz: 28.349523125 };
const centimetres: Record<string, number> = {
  cm: 1,
  m: 100,
  mm: 0.1,
  in: 2.54,
  ft: 30.48,
  yd: 91.44,
};

const round = (value: number, digits = 4) => Math.round(value * 10 ** digits) / 10 ** digits;

export function weightToStore(weight: { value: number; unit: string }, units: StoreUnits): number {
  if (weight.unit === units.weight.unit) return round(weight.value / units.weight.factor);
  const g = weight.value * (grams[weight.unit] ?? 1);
  return round(g / (grams[units.weight.unit] ?? 1) / units.weight.factor);
}

export function lengthToStore(value: number, unit: string, units: StoreUnits): number {
  if (unit === units.dimension.unit) return round(value / units.dimension.factor);
  const cm = value * (centimetres[unit] ?? 1);
  return round(cm / (centimetres[units.dimension.unit] ?? 1) / units.dimension.factor);
}

/** Last path segment without a file extension: '/shoes/running.html' -> 'running'. */
export function slugFromPath(path: string | undefined | null): string {
  if (!path) return '';
  const last = path.split('/').filter(Boolean).at(-1) ?? '';
  let decoded = last;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    // A path with a stray % keeps its segment as it is.
  }
  return decoded.replace(/\.html?$/i, '').toLowerCase();
}

/** A storefront path BigCommerce accepts as a custom URL (products_catalog.v3.yml custom_url). */
export function usablePath(path: string | null | undefined): string | undefined {
  if (!path || path.length > 255 || !/^\/[A-Za-z0-9\-_.~/%]*$/.test(path)) return undefined;
  return path;
}

export function urlFor(slug: string, sourceUrlPath: string | null, fallback: string): string {
  const fromSlug = encodeURIComponent(slug).replace(/%2F/gi, '-');
  return usablePath(sourceUrlPath) ?? usablePath(`/${fromSlug}/`) ?? `/${fallback}/`;
}

export const validUrl = (value: string | null | undefined): string | null => {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? value : null;
  } catch {
    return null;
  }
};

export const isoDate = (value: string | null | undefined): string | null => {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
};

/** The metafield of the namespace with this key, when the record has one. */
export function extraValue(metafields: readonly Metafield[], key: string): string | undefined {
  return metafields.find((m) => m.namespace === fieldsNamespace && m.key === key)?.value;
}

function parseJson<T>(text: string | undefined, fallback: T): T {
  if (text === undefined) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

// ------------------------------------------------------------------ categories

export function categoryToCanonical(c: BcTreeCategory, raw: Json): Category {
  const path = c.url?.path ?? null;
  return {
    ...categoryDefaults(),
    id: String(c.category_id),
    parentId: c.parent_id > 0 ? String(c.parent_id) : null,
    name: c.name,
    slug: slugFromPath(path),
    description: c.description,
    position: Math.max(0, c.sort_order ?? 0),
    imageUrl: validUrl(c.image_url),
    seoTitle: c.page_title,
    seoDescription: c.meta_description,
    metafields: [...metafieldsToCanonical(c.metafields), ...readExtras(raw, categoryExtras)],
    sourceUrlPath: path,
  };
}

export interface CategoryCreate {
  name: string;
  parent_id: number;
  tree_id: number;
  description: string;
  sort_order: number;
  is_visible: boolean;
  page_title?: string;
  meta_description?: string;
  url?: { path: string; is_customized: boolean };
  image_url?: string;
  [field: string]: unknown;
}

export function categoryToBc(
  category: Category,
  parentId: number,
  treeId: number,
): { body: CategoryCreate; metafields: MetafieldInput[]; warnings: string[] } {
  const warnings = new Set<string>();
  let name = category.name;
  if (name.length > 50) {
    warnings.add('name shortened to the 50 characters BigCommerce allows (name)');
    name = name.slice(0, 50);
  }
  const body: CategoryCreate = {
    name,
    parent_id: parentId,
    tree_id: treeId,
    description: category.description,
    sort_order: category.position,
    is_visible: true,
    url: {
      path: urlFor(category.slug, category.sourceUrlPath, `category-${category.id}`),
      is_customized: true,
    },
  };
  if (category.seoTitle) body.page_title = category.seoTitle.slice(0, 255);
  if (category.seoDescription) body.meta_description = category.seoDescription;
  if (category.imageUrl) body.image_url = category.imageUrl;
  const extras = writeExtras(category.metafields, categoryExtras);
  for (const [field, value] of extras.fields) setPath(body, field, value);
  if (extras.unknown.length)
    warnings.add(
      `BigCommerce category fields it does not know were left out: ${extras.unknown.join(', ')} (metafields)`,
    );
  const metafields = metafieldsToBc(category.metafields, [], warnings, 'metafields');
  return { body, metafields, warnings: [...warnings] };
}

// ------------------------------------------------------------------ products

export interface ProductContext {
  units: StoreUnits;
  brandName(id: number): string;
}

const bySort = <T extends { sort_order?: number | null; id?: number | null }>(a: T, b: T) =>
  (a.sort_order ?? 0) - (b.sort_order ?? 0) || (a.id ?? 0) - (b.id ?? 0);

/** Options in display order, or rebuilt from the variants when the answer carries none. */
function optionsOf(p: BcProduct): BcOption[] {
  if (p.options.length) return [...p.options].sort(bySort);
  const options: BcOption[] = [];
  for (const v of p.variants) {
    for (const ov of v.option_values) {
      let option = options.find((o) => o.display_name === ov.option_display_name);
      if (!option) {
        option = {
          display_name: ov.option_display_name,
          type: 'rectangles',
          sort_order: options.length,
          option_values: [],
        };
        options.push(option);
      }
      if (!option.option_values.some((x) => x.label === ov.label))
        option.option_values.push({
          label: ov.label,
          sort_order: option.option_values.length,
          is_default: false,
        });
    }
  }
  return options;
}

/** The raw JSON of a variant, for the fields read through the extras table. */
const rawVariant = (raw: Json, id: number): Json =>
  ((raw.variants as Json[] | undefined) ?? []).find((v) => Number(v.id) === id) ?? {};

/** Variant fields mirrored from the product on the base variant of a product without options. */
const mirrored = new Set(['mpn', 'upc']);

export function productToCanonical(p: BcProduct, raw: Json, ctx: ProductContext): Product {
  const { units } = ctx;
  const currency = units.currency;
  const money = (value: number): Money => ({ amount: toMinor(value, currency), currency });
  const weightOf = (value: number | null | undefined) =>
    value === null || value === undefined || value <= 0
      ? null
      : { value: round(value * units.weight.factor), unit: units.weight.unit };
  const f = units.dimension.factor;
  const bcOptions = optionsOf(p);
  const options: ProductOption[] = bcOptions
    .map((o) => ({
      name: o.display_name,
      values: [...new Set([...o.option_values].sort(bySort).map((v) => v.label))],
      shared: null,
      visible: true,
      position: 0,
    }))
    .filter((o) => o.values.length > 0)
    .map((o, position) => ({ ...o, position }));
  const variable = options.length > 0;
  const digital = p.type === 'digital';
  const preorder = p.availability === 'preorder';
  const stockStatus = (tracked: boolean, quantity: number) =>
    preorder ? 'onbackorder' : tracked && quantity <= 0 ? 'outofstock' : 'instock';
  const productWeight = weightOf(p.weight);
  const lowStock = (level: number | null | undefined) => (level && level > 0 ? level : null);
  const metafields: Metafield[] = [
    ...metafieldsToCanonical(p.metafields),
    ...readExtras(raw, productExtras),
  ];
  const archived = !p.is_visible && p.availability === 'disabled';
  // A pre-order is the variants' stock status (on backorder), written back from it.
  if (p.availability !== 'available' && p.availability !== 'preorder' && !archived)
    metafields.push(fieldMetafield('availability', 'text', p.availability));
  if (p.order_quantity_maximum > 1)
    metafields.push(fieldMetafield('order_quantity_maximum', 'integer', p.order_quantity_maximum));
  if (p.bulk_pricing_rules.length)
    metafields.push(
      fieldMetafield(
        'bulk_pricing_rules',
        'json',
        p.bulk_pricing_rules.map(({ id: _id, ...rule }) => rule),
      ),
    );
  if (p.videos.length)
    metafields.push(
      fieldMetafield(
        'videos',
        'json',
        p.videos.map(({ id: _id, product_id: _p, length: _l, ...video }) => video),
      ),
    );
  if (p.related_products.length === 0)
    metafields.push(fieldMetafield('related_products', 'json', []));
  const optionTypes = Object.fromEntries(
    bcOptions.filter((o) => o.type !== 'rectangles').map((o) => [o.display_name, o.type]),
  );
  if (Object.keys(optionTypes).length)
    metafields.push(fieldMetafield('option_types', 'json', optionTypes));
  const valueData = Object.fromEntries(
    bcOptions
      .map((o) => [
        o.display_name,
        Object.fromEntries(
          o.option_values.filter((v) => v.value_data).map((v) => [v.label, v.value_data]),
        ),
      ])
      .filter(([, values]) => Object.keys(values as object).length > 0),
  );
  if (Object.keys(valueData).length)
    metafields.push(fieldMetafield('option_value_data', 'json', valueData));
  if (variable && p.inventory_tracking === 'product') {
    metafields.push(fieldMetafield('inventory_tracking', 'text', 'product'));
    metafields.push(fieldMetafield('inventory_level', 'integer', p.inventory_level));
    if (p.inventory_warning_level > 0)
      metafields.push(
        fieldMetafield('inventory_warning_level', 'integer', p.inventory_warning_level),
      );
  }
  if (variable && p.gtin) metafields.push(fieldMetafield('gtin', 'text', p.gtin));

  const variantMetafields = (v: BcVariant | undefined, base: boolean): Metafield[] =>
    v
      ? [
          ...metafieldsToCanonical(v.metafields),
          ...readExtras(
            rawVariant(raw, v.id),
            base ? variantExtras.filter((e) => !mirrored.has(e.field)) : variantExtras,
          ),
        ]
      : [];
  const dimensionsOf = (v: BcVariant) =>
    (v.width ?? v.height ?? v.depth ?? null) === null
      ? {}
      : {
          dimensions: {
            length: round((v.depth ?? p.depth) * f),
            width: round((v.width ?? p.width) * f),
            height: round((v.height ?? p.height) * f),
            unit: units.dimension.unit,
          },
        };
  const byOption = new Map(options.map((o, i) => [o.name, i]));
  let variants: Variant[];
  if (variable) {
    const tracked = p.inventory_tracking === 'variant';
    variants = p.variants
      .filter((v) => v.option_values.length > 0)
      .map((v, position): Variant => {
        const quantity = tracked ? (v.inventory_level ?? 0) : 0;
        const sale = v.sale_price ?? p.sale_price ?? 0;
        return {
          ...variantDefaults(money(v.price ?? p.price)),
          id: String(v.id),
          sku: v.sku,
          optionValues: [...v.option_values]
            .sort(
              (a, b) =>
                (byOption.get(a.option_display_name) ?? 0) -
                (byOption.get(b.option_display_name) ?? 0),
            )
            .map((ov) => ({ name: ov.option_display_name, value: ov.label })),
          status: v.purchasing_disabled ? 'private' : 'active',
          salePrice: sale > 0 ? money(sale) : null,
          weight: weightOf(v.weight),
          ...dimensionsOf(v),
          inventory: {
            tracked,
            quantity,
            stockStatus: stockStatus(tracked, quantity),
            backorders: 'no',
            lowStockThreshold: lowStock(v.inventory_warning_level),
          },
          barcode: v.gtin || v.upc,
          imageUrl: validUrl(v.image_url),
          virtual: digital,
          downloadable: digital,
          position,
          metafields: variantMetafields(v, false),
        };
      });
  } else {
    const base = p.variants.find((v) => v.id === p.base_variant_id) ?? p.variants[0];
    const tracked = p.inventory_tracking !== 'none';
    const quantity = tracked ? p.inventory_level : 0;
    const sale = p.sale_price ?? 0;
    variants = [
      {
        ...variantDefaults(money(p.price)),
        id: String(base?.id ?? `${p.id}-base`),
        sku: p.sku,
        optionValues: [],
        status: base?.purchasing_disabled ? 'private' : 'active',
        salePrice: sale > 0 ? money(sale) : null,
        weight: productWeight,
        inventory: {
          tracked,
          quantity,
          stockStatus: stockStatus(tracked, quantity),
          backorders: 'no',
          lowStockThreshold: lowStock(p.inventory_warning_level),
        },
        barcode: p.gtin || p.upc,
        imageUrl: validUrl(base?.image_url),
        virtual: digital,
        downloadable: digital,
        position: 0,
        metafields: variantMetafields(base, true),
      },
    ];
  }
  const images: ProductImage[] = [...p.images]
    .sort(
      (a, b) =>
        Number(b.is_thumbnail ?? false) - Number(a.is_thumbnail ?? false) ||
        (a.sort_order ?? 0) - (b.sort_order ?? 0) ||
        a.id - b.id,
    )
    .flatMap((image) => {
      const url = validUrl(image.url_zoom || image.url_standard || image.image_url);
      return url ? [{ url, alt: image.description, title: '', position: 0 }] : [];
    })
    .map((image, position) => ({ ...image, position }));
  const fields = new Map<string, string[]>();
  for (const field of p.custom_fields) {
    const values = fields.get(field.name) ?? [];
    if (!values.includes(field.value)) values.push(field.value);
    fields.set(field.name, values);
  }
  const attributes: ProductAttribute[] = [...fields].map(([name, values], i) => ({
    name,
    values,
    shared: null,
    visible: true,
    position: options.length + i,
  }));
  const hasDimensions = p.width > 0 || p.depth > 0 || p.height > 0;
  return {
    ...productDefaults(),
    id: String(p.id),
    type: variable ? 'variable' : 'simple',
    name: p.name,
    slug: slugFromPath(p.custom_url?.url),
    sku: p.sku,
    descriptionHtml: p.description,
    status: p.is_visible ? 'active' : archived ? 'archived' : 'draft',
    featured: p.is_featured,
    vendor: p.brand_id > 0 ? ctx.brandName(p.brand_id) : '',
    options,
    attributes,
    defaultOptionValues: bcOptions.flatMap((o) =>
      o.option_values
        .filter((v) => v.is_default)
        .slice(0, 1)
        .map((v) => ({ name: o.display_name, value: v.label })),
    ),
    variants,
    images,
    categoryIds: p.categories.map(String),
    tags: [
      ...new Set(
        p.search_keywords
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean),
      ),
    ],
    seoTitle: p.page_title,
    seoDescription: p.meta_description,
    weight: productWeight,
    dimensions: hasDimensions
      ? {
          length: round(p.depth * f),
          width: round(p.width * f),
          height: round(p.height * f),
          unit: units.dimension.unit,
        }
      : null,
    taxClass: p.tax_class_id > 0 ? String(p.tax_class_id) : '',
    soldIndividually: p.order_quantity_maximum === 1,
    menuOrder: p.sort_order,
    upsellIds: p.related_products.filter((id) => id > 0).map(String),
    metafields,
    sourceUrlPath: p.custom_url?.url ?? null,
    createdAt: isoDate(p.date_created),
    updatedAt: isoDate(p.date_modified),
  };
}

// ------------------------------------------------------------------ product writes

export interface ProductRefs {
  units: StoreUnits;
  /** Destination category ids of the product's categories that are already migrated. */
  categoryIds: number[];
  brandId: number;
  /** Destination ids of the products it relates to (up-sells, members) already migrated. */
  relatedIds: number[];
  /** When the write happens (sale schedules are judged against it). */
  now: number;
}

/** An option as it should be after the product is created, for the check that follows. */
export interface OptionPlan {
  display_name: string;
  type: string;
  values: {
    label: string;
    sort_order: number;
    is_default: boolean;
    value_data?: Record<string, unknown>;
  }[];
}

export interface ProductWrite {
  body: Json;
  warnings: string[];
  /** Options whose type, value order, default or swatch data BigCommerce does not make itself. */
  optionPlans: OptionPlan[];
  /** The base variant's own fields of a product without options (written after the create). */
  baseVariant: Json | undefined;
  /** Bulk pricing rules, made after the create (POST .../bulk-pricing-rules). */
  bulkPricingRules: Json[];
  metafields: MetafieldInput[];
  /** Metafields of each variant, by the variant's SKU. */
  variantMetafields: Map<string, MetafieldInput[]>;
}

type Warnings = Set<string>;

const amountOf = (m: Money) => Number(fromMinor(m.amount, m.currency));

/** The sale price that applies now: a sale that has not started or is over is left out. */
function saleNow(v: Variant, now: number, warnings: Warnings): Money | null {
  if (!v.salePrice) return null;
  const starts = v.saleStartsAt ? Date.parse(v.saleStartsAt) : Number.NEGATIVE_INFINITY;
  const ends = v.saleEndsAt ? Date.parse(v.saleEndsAt) : Number.POSITIVE_INFINITY;
  if (starts > now) {
    warnings.add(
      'a sale that had not started yet was left out: BigCommerce sale prices apply at once (variants.salePrice)',
    );
    return null;
  }
  if (ends <= now) {
    warnings.add('a sale that was over was left out (variants.salePrice)');
    return null;
  }
  return v.salePrice;
}

/** The value most of the list has (the first of equals), for a product's inherited amounts. */
function mostCommon(values: number[]): number {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best = values[0] ?? 0;
  for (const [value, count] of counts) if (count > (counts.get(best) ?? 0)) best = value;
  return best;
}

function barcodes(
  barcode: string,
  upc: unknown,
  warnings: Warnings,
): { gtin?: string; upc?: string } {
  const out: { gtin?: string; upc?: string } = {};
  const own = typeof upc === 'string' ? upc : '';
  // The barcode came from the UPC when the record had no GTIN (see productToCanonical).
  const gtin = own && barcode === own ? '' : barcode;
  for (const [key, value] of [
    ['gtin', gtin],
    ['upc', own],
  ] as const) {
    if (!value) continue;
    if (value.length > 14) {
      warnings.add(
        'barcodes longer than 14 characters were left out (BigCommerce UPC/GTIN limit) (variants.barcode)',
      );
      continue;
    }
    out[key] = value;
  }
  return out;
}

const weightIn = (w: Variant['weight'], units: StoreUnits) => (w ? weightToStore(w, units) : null);

/** The variant fields of a BigCommerce variant (or of the base variant) from a canonical one. */
function variantFields(v: Variant, units: StoreUnits, warnings: Warnings, base: boolean): Json {
  const out: Json = {};
  const extras = writeExtras(
    v.metafields,
    base ? variantExtras.filter((e) => !mirrored.has(e.field)) : variantExtras,
  );
  for (const [field, value] of extras.fields) if (field !== 'upc') out[field] = value;
  if (extras.unknown.length)
    warnings.add(
      `BigCommerce variant fields it does not know were left out: ${extras.unknown.join(', ')} (variants.metafields)`,
    );
  if (v.status === 'private') out.purchasing_disabled = true;
  if (v.imageUrl && validUrl(v.imageUrl)) out.image_url = v.imageUrl;
  if (!base) {
    Object.assign(out, barcodes(v.barcode, extras.fields.get('upc'), warnings));
    if (v.dimensions) {
      const { length, width, height, unit } = v.dimensions;
      out.depth = lengthToStore(length, unit, units);
      out.width = lengthToStore(width, unit, units);
      out.height = lengthToStore(height, unit, units);
    }
  }
  return out;
}

/**
 * The body of POST /v3/catalog/products: one product with its variants, images, custom fields,
 * videos and pricing rules; then what must follow the create (option settings BigCommerce does
 * not take in it, the base variant's own fields, metafields).
 */
export function productToBc(product: Product, refs: ProductRefs): ProductWrite {
  const warnings: Warnings = new Set();
  const { units } = refs;
  const currency = units.currency;
  const first = product.variants[0];
  const variable = product.type === 'variable' && product.options.length > 0;
  let name = product.name;
  if (name.length > 250) {
    warnings.add('name shortened to 250 characters (name)');
    name = name.slice(0, 250);
  }
  const moneyWarning = (m: Money) => {
    if (m.currency !== currency)
      warnings.add(
        `prices are in ${m.currency}; the store sells in ${currency} (not converted) (variants.price)`,
      );
  };
  for (const v of product.variants) moneyWarning(v.price);
  const extras = writeExtras(product.metafields, productExtras, productSpecialKeys);
  if (extras.unknown.length)
    warnings.add(
      `BigCommerce product fields it does not know were left out: ${extras.unknown.join(', ')} (metafields)`,
    );
  const special = extras.special;
  const digital = product.variants.some((v) => v.virtual || v.downloadable);
  if (digital && product.variants.some((v) => !v.virtual && !v.downloadable))
    warnings.add(
      'some variants are physical and some not: BigCommerce makes the whole product digital (variants.virtual)',
    );
  // A product without options has one weight, its variant's. A product with options keeps each
  // variant's own; BigCommerce requires one for the product too, written as 0 when it has none.
  const weight =
    weightIn(product.weight, units) ??
    (first && !variable ? weightIn(first.weight, units) : null) ??
    0;
  const body: Json = {
    name,
    type: digital ? 'digital' : 'physical',
    description: product.descriptionHtml,
    weight,
    categories: refs.categoryIds,
    is_visible: product.status === 'active',
    is_featured: product.featured,
    search_keywords: product.tags.map((t) => t.replace(/,/g, ' ')).join(','),
    page_title: product.seoTitle.slice(0, 255),
    meta_description: product.seoDescription,
    sort_order: product.menuOrder,
    custom_url: {
      url: urlFor(product.slug, product.sourceUrlPath, `product-${product.id}`),
      is_customized: true,
    },
  };
  for (const [field, value] of extras.fields) if (field !== 'upc') setPath(body, field, value);
  if (refs.brandId > 0) body.brand_id = refs.brandId;
  if (product.dimensions) {
    const { length, width, height, unit } = product.dimensions;
    body.depth = lengthToStore(length, unit, units);
    body.width = lengthToStore(width, unit, units);
    body.height = lengthToStore(height, unit, units);
  }
  if (product.taxClass) {
    const id = Number(product.taxClass);
    if (Number.isInteger(id) && id >= 0 && id <= 255) body.tax_class_id = id;
    else
      warnings.add(
        `the tax class '${product.taxClass}' is not a BigCommerce tax class id; the store's default was used (taxClass)`,
      );
  }
  // Availability: archived products are hidden and not for sale; a product on backorder is
  // sold before it is in stock, which BigCommerce calls a pre-order.
  const availability = special.get('availability');
  if (product.status === 'archived') body.availability = 'disabled';
  else if (availability) body.availability = availability;
  else if (
    product.variants.length > 0 &&
    product.variants.every((v) => v.inventory.stockStatus === 'onbackorder')
  )
    body.availability = 'preorder';
  if (product.type === 'external') {
    body.availability = 'disabled';
    warnings.add(
      'an external product is written as a simple product that cannot be bought here; its link to the other site is not kept (type, externalUrl)',
    );
    if (product.status !== 'active' && product.status !== 'archived')
      warnings.add(
        `a ${product.status} product that cannot be bought is what BigCommerce calls archived (status)`,
      );
  }
  const limit = special.get('order_quantity_maximum');
  if (product.soldIndividually) body.order_quantity_maximum = 1;
  else if (limit !== undefined) body.order_quantity_maximum = Number(limit);
  // products_catalog.v3.yml asks the create's nested rules for their (read-only) ids: they are
  // made after it, one by one. A percentage is answered as a number of percent and sent as a
  // fraction in text ('.05').
  const bulkPricingRules = parseJson<Json[]>(special.get('bulk_pricing_rules'), []).map((rule) =>
    rule.type === 'percent' ? { ...rule, amount: String(Number(rule.amount) / 100) } : rule,
  );
  const videos = parseJson<Json[]>(special.get('videos'), []);
  if (videos.length) body.videos = videos;
  const related = [...new Set(refs.relatedIds)];
  if (related.length) body.related_products = related;
  else if (special.get('related_products') === '[]') body.related_products = [];
  if (product.type === 'grouped')
    warnings.add(
      'a grouped product is written as a simple product that cannot be bought (availability disabled, with the price of 0 BigCommerce requires), showing its members as related products (type, groupedProductIds, upsellIds, variants, metafields)',
    );
  if (product.options.some((o) => !o.visible))
    warnings.add('hidden options are shown by BigCommerce on the product page (options.visible)');
  const customFields: { name: string; value: string }[] = [];
  for (const attribute of [...product.attributes].sort((a, b) => a.position - b.position)) {
    if (!attribute.visible)
      warnings.add(
        'hidden attributes were written as custom fields, which BigCommerce shows on the product page (attributes.visible)',
      );
    for (const value of attribute.values) customFields.push({ name: attribute.name, value });
  }
  for (const m of product.metafields)
    if (m.namespace === 'bigcommerce') customFields.push({ name: m.key, value: m.value });
  const fitting = customFields.filter((field) => {
    const fits =
      field.name.length > 0 &&
      field.name.length <= 250 &&
      field.value.length > 0 &&
      field.value.length <= 250;
    if (!fits)
      warnings.add(
        'attribute values that are empty or longer than 250 characters were left out (attributes)',
      );
    return fits;
  });
  if (fitting.length > 200)
    warnings.add('only the first 200 custom fields were kept (BigCommerce limit) (attributes)');
  if (fitting.length) body.custom_fields = fitting.slice(0, 200);
  const images = product.images.filter((image) => {
    const usable = validUrl(image.url) !== null;
    if (!usable) warnings.add('images without an http(s) URL were left out (images)');
    return usable;
  });
  if (images.length) {
    const firstPosition = Math.min(...images.map((i) => i.position));
    body.images = images.map((image) => ({
      image_url: image.url,
      description: image.alt,
      sort_order: image.position,
      is_thumbnail: image.position === firstPosition,
    }));
  }
  const variantMetafields = new Map<string, MetafieldInput[]>();
  let baseVariant: Json | undefined;
  let optionPlans: OptionPlan[] = [];
  if (!variable || !first) {
    if (product.type === 'variable')
      warnings.add(
        'a product with variants but no options was written with its first variant (options)',
      );
    const sale = first ? saleNow(first, refs.now, warnings) : null;
    body.price = product.type === 'grouped' || !first ? 0 : amountOf(first.price);
    body.sale_price = sale ? amountOf(sale) : 0;
    const sku = product.sku || first?.sku;
    if (sku) body.sku = sku;
    const inventory = first?.inventory;
    body.inventory_tracking = inventory?.tracked ? 'product' : 'none';
    body.inventory_level = inventory?.tracked ? Math.max(0, inventory.quantity) : 0;
    if (inventory?.lowStockThreshold)
      body.inventory_warning_level = Math.max(0, inventory.lowStockThreshold);
    Object.assign(body, barcodes(first?.barcode ?? '', extras.fields.get('upc'), warnings));
    if (first) {
      const own = variantFields(first, units, warnings, true);
      if (Object.keys(own).length) baseVariant = own;
      const metafields = metafieldsToBc(first.metafields, [], warnings, 'variants.metafields');
      if (metafields.length && sku) variantMetafields.set(sku, metafields);
    }
    if (product.type === 'grouped' || !first) body.availability = 'disabled';
  } else {
    const price = mostCommon(product.variants.map((v) => amountOf(v.price)));
    const sales = product.variants.map((v) => {
      const sale = saleNow(v, refs.now, warnings);
      return sale ? amountOf(sale) : 0;
    });
    const sale = mostCommon(sales);
    body.price = price;
    body.sale_price = sale;
    if (product.sku) body.sku = product.sku;
    const gtin = special.get('gtin');
    if (gtin) body.gtin = gtin;
    const upc = extras.fields.get('upc');
    if (typeof upc === 'string' && upc) body.upc = upc;
    const tracked = product.variants.some((v) => v.inventory.tracked);
    if (tracked && product.variants.some((v) => !v.inventory.tracked))
      warnings.add(
        'BigCommerce counts the stock of all variants of a product or of none: variants whose stock was not counted are counted from 0 (variants.inventory.tracked)',
      );
    body.inventory_tracking = tracked
      ? 'variant'
      : special.get('inventory_tracking') === 'product'
        ? 'product'
        : 'none';
    if (body.inventory_tracking === 'product') {
      body.inventory_level = Number(special.get('inventory_level') ?? 0);
      const warning = special.get('inventory_warning_level');
      if (warning) body.inventory_warning_level = Number(warning);
    }
    const usedSkus = new Set<string>();
    body.variants = product.variants.map((v, index) => {
      let sku = v.sku;
      if (!sku || usedSkus.has(sku.toLowerCase())) {
        sku = `${product.sku || product.slug || `P${product.id}`}-${index + 1}`;
        warnings.add(
          'variants without a SKU of their own got one (BigCommerce requires a unique SKU per variant) (variants.sku)',
        );
      }
      usedSkus.add(sku.toLowerCase());
      const own = amountOf(v.price);
      const variant: Json = {
        sku,
        price: own === price ? null : own,
        sale_price: (sales[index] ?? 0) === sale ? null : (sales[index] ?? 0),
        weight: weightIn(v.weight, units),
        option_values: v.optionValues.map((ov) => ({
          option_display_name: ov.name,
          label: ov.value,
        })),
        ...variantFields(v, units, warnings, false),
      };
      if (v.inventory.tracked) variant.inventory_level = Math.max(0, v.inventory.quantity);
      if (v.inventory.lowStockThreshold)
        variant.inventory_warning_level = Math.max(0, v.inventory.lowStockThreshold);
      const metafields = metafieldsToBc(v.metafields, [], warnings, 'variants.metafields');
      if (metafields.length) variantMetafields.set(sku, metafields);
      return variant;
    });
    optionPlans = planOptions(product, body.variants as Json[]);
  }
  if (
    body.availability !== 'preorder' &&
    product.variants.some((v) => v.inventory.stockStatus === 'onbackorder')
  )
    warnings.add(
      'BigCommerce takes pre-orders for a whole product, not for some of its variants: variants on backorder are out of stock (variants.inventory.stockStatus)',
    );
  if (product.variants.some((v) => v.inventory.tracked && v.inventory.quantity < 0))
    warnings.add(
      'BigCommerce stock cannot be negative: it was written as 0 (variants.inventory.quantity)',
    );
  if (
    product.variants.some((v) => v.inventory.stockStatus === 'outofstock' && !v.inventory.tracked)
  )
    warnings.add(
      'items out of stock whose stock is not counted are for sale at BigCommerce, which derives stock status from counted stock (variants.inventory.stockStatus)',
    );
  const metafields = metafieldsToBc(product.metafields, ['bigcommerce'], warnings, 'metafields');
  return {
    body,
    warnings: [...warnings],
    optionPlans,
    baseVariant,
    bulkPricingRules,
    metafields,
    variantMetafields,
  };
}

/**
 * The options as the source has them, when BigCommerce would make them otherwise from the
 * variants of the create request: options come out as rectangles, their values in the order the
 * variants first name them, none preselected.
 */
function planOptions(product: Product, variants: Json[]): OptionPlan[] {
  const types = parseJson<Record<string, string>>(
    extraValue(product.metafields, 'option_types'),
    {},
  );
  const data = parseJson<Record<string, Record<string, Record<string, unknown>>>>(
    extraValue(product.metafields, 'option_value_data'),
    {},
  );
  const appearance = new Map<string, string[]>();
  for (const v of variants)
    for (const ov of v.option_values as { option_display_name: string; label: string }[]) {
      const seen = appearance.get(ov.option_display_name) ?? [];
      if (!seen.includes(ov.label)) seen.push(ov.label);
      appearance.set(ov.option_display_name, seen);
    }
  const plans: OptionPlan[] = [];
  for (const option of product.options) {
    const made = appearance.get(option.name) ?? [];
    const values = [...option.values, ...made.filter((v) => !option.values.includes(v))];
    const defaults = new Set(
      product.defaultOptionValues.filter((d) => d.name === option.name).map((d) => d.value),
    );
    const type = types[option.name] ?? 'rectangles';
    const valueData = data[option.name] ?? {};
    const plain =
      type === 'rectangles' &&
      defaults.size === 0 &&
      Object.keys(valueData).length === 0 &&
      values.every((v, i) => made[i] === v);
    if (plain) continue;
    plans.push({
      display_name: option.name,
      type,
      values: values.map((label, sort_order) => ({
        label,
        sort_order,
        is_default: defaults.has(label),
        ...(valueData[label] ? { value_data: valueData[label] } : {}),
      })),
    });
  }
  return plans;
}
