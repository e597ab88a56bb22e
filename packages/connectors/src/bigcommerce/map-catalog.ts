import type { Category } from '@replatform/canonical/category';
import { fromMinor, toMinor, type Money } from '@replatform/canonical/money';
import type { Product, ProductImage, Variant } from '@replatform/canonical/product';
import type { BcProduct, BcTreeCategory, BcVariant } from './payloads.ts';

/**
 * BigCommerce catalog <-> canonical model.
 *
 * - Prices: BigCommerce keeps a regular `price` and an optional `sale_price` (> 0 when on sale);
 *   the canonical selling price is the sale price when there is one, and `compareAtPrice` is then
 *   the regular price.
 * - Variants whose amounts are null inherit the product's (product-variants_catalog.v3.yml).
 * - Weights and dimensions are in the store's units (GET /v2/store weight_units, dimension_units).
 * - Tags travel as `search_keywords` (comma-separated), attributes as custom fields, the vendor as
 *   the brand, SEO as page_title/meta_description and the storefront path as custom_url.
 * - draft = hidden product; archived = hidden and `availability: disabled`.
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
  return decodeURIComponent(last)
    .replace(/\.html?$/i, '')
    .toLowerCase();
}

/** A storefront path BigCommerce accepts as a custom URL (products_catalog.v3.yml custom_url). */
export function usablePath(path: string | null | undefined): string | undefined {
  if (!path || path.length > 255 || !/^\/[A-Za-z0-9\-_.~/%]*$/.test(path)) return undefined;
  return path;
}

export function urlFor(slug: string, sourceUrlPath: string | null, fallback: string): string {
  return usablePath(sourceUrlPath) ?? `/${slug || fallback}/`;
}

const validUrl = (value: string): string | null => {
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

// ------------------------------------------------------------------ categories

export function categoryToCanonical(c: BcTreeCategory): Category {
  const path = c.url?.path ?? null;
  return {
    id: String(c.category_id),
    parentId: c.parent_id > 0 ? String(c.parent_id) : null,
    name: c.name,
    slug: slugFromPath(path),
    description: c.description,
    position: Math.max(0, c.sort_order ?? 0),
    imageUrl: c.image_url ? validUrl(c.image_url) : null,
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
  url?: { path: string; is_customized: boolean };
  image_url?: string;
}

export function categoryToBc(
  category: Category,
  parentId: number,
  treeId: number,
): { body: CategoryCreate; warnings: string[] } {
  const warnings: string[] = [];
  let name = category.name;
  if (name.length > 50) {
    warnings.push('name shortened to the 50 characters BigCommerce allows (name)');
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
  if (category.imageUrl) body.image_url = category.imageUrl;
  return { body, warnings };
}

// ------------------------------------------------------------------ products

export interface ProductContext {
  units: StoreUnits;
  brandName(id: number): string;
}

function prices(
  v: BcVariant | undefined,
  p: BcProduct,
  currency: string,
): { price: Money; compareAtPrice: Money | null } {
  const regular = v?.price ?? p.price;
  const sale = v?.sale_price ?? p.sale_price ?? 0;
  const money = (value: number) => ({ amount: toMinor(value, currency), currency });
  if (sale > 0 && sale !== regular) return { price: money(sale), compareAtPrice: money(regular) };
  return { price: money(sale > 0 ? sale : regular), compareAtPrice: null };
}

export function productToCanonical(p: BcProduct, ctx: ProductContext): Product {
  const { units } = ctx;
  const optionVariants = p.variants.filter((v) => v.option_values.length > 0);
  const variable = optionVariants.length > 0;
  const options: { name: string; values: string[] }[] = [];
  for (const v of optionVariants) {
    for (const ov of v.option_values) {
      let option = options.find((o) => o.name === ov.option_display_name);
      if (!option) {
        option = { name: ov.option_display_name, values: [] };
        options.push(option);
      }
      if (!option.values.includes(ov.label)) option.values.push(ov.label);
    }
  }
  const inventory = (v: BcVariant | undefined) =>
    p.inventory_tracking === 'none'
      ? { tracked: false, quantity: 0 }
      : {
          tracked: true,
          quantity:
            p.inventory_tracking === 'variant' ? (v?.inventory_level ?? 0) : p.inventory_level,
        };
  const toVariant = (v: BcVariant | undefined): Variant => ({
    id: String(v?.id ?? `${p.id}-base`),
    sku: v && variable ? v.sku : p.sku || (v?.sku ?? ''),
    optionValues: (v?.option_values ?? []).map((ov) => ({
      name: ov.option_display_name,
      value: ov.label,
    })),
    ...prices(v, p, units.currency),
    weight: {
      value: round((v?.weight ?? p.weight) * units.weight.factor),
      unit: units.weight.unit,
    },
    inventory: inventory(v),
    barcode: (v && variable ? v.upc || v.gtin : p.upc || p.gtin || v?.upc || v?.gtin) ?? '',
    imageUrl: v?.image_url ? validUrl(v.image_url) : null,
  });
  const images: ProductImage[] = [...p.images]
    .sort(
      (a, b) =>
        Number(b.is_thumbnail ?? false) - Number(a.is_thumbnail ?? false) ||
        (a.sort_order ?? 0) - (b.sort_order ?? 0) ||
        a.id - b.id,
    )
    .flatMap((image) => {
      const url = validUrl(image.url_zoom || image.url_standard || image.image_url);
      return url ? [{ url, alt: image.description, position: 0 }] : [];
    })
    .map((image, position) => ({ ...image, position }));
  const attributes: Record<string, string> = {};
  for (const field of p.custom_fields) {
    attributes[field.name] = attributes[field.name]
      ? `${attributes[field.name]}, ${field.value}`
      : field.value;
  }
  const hasDimensions = p.width > 0 || p.depth > 0 || p.height > 0;
  const f = units.dimension.factor;
  return {
    id: String(p.id),
    type: variable ? 'variable' : 'simple',
    name: p.name,
    slug: slugFromPath(p.custom_url?.url),
    sku: p.sku,
    descriptionHtml: p.description,
    shortDescriptionHtml: '',
    status: p.is_visible ? 'active' : p.availability === 'disabled' ? 'archived' : 'draft',
    vendor: p.brand_id > 0 ? ctx.brandName(p.brand_id) : '',
    options: variable ? options : [],
    variants: variable ? optionVariants.map(toVariant) : [toVariant(p.variants[0])],
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
    dimensions: hasDimensions
      ? {
          length: round(p.depth * f),
          width: round(p.width * f),
          height: round(p.height * f),
          unit: units.dimension.unit,
        }
      : null,
    attributes,
    sourceUrlPath: p.custom_url?.url ?? null,
    createdAt: isoDate(p.date_created),
    updatedAt: isoDate(p.date_modified),
  };
}

export interface ProductRefs {
  units: StoreUnits;
  /** Destination category ids of the product's categories that are already migrated. */
  categoryIds: number[];
  brandId: number;
}

type Json = Record<string, unknown>;

function priceFields(variant: Variant, units: StoreUnits, warnings: Set<string>) {
  if (variant.price.currency !== units.currency) {
    warnings.add(
      `prices are in ${variant.price.currency}; the store sells in ${units.currency} (not converted) (variants.price)`,
    );
  }
  const amount = (m: Money) => Number(fromMinor(m.amount, m.currency));
  return variant.compareAtPrice
    ? { price: amount(variant.compareAtPrice), sale_price: amount(variant.price) }
    : { price: amount(variant.price), sale_price: 0 };
}

function barcode(value: string, warnings: Set<string>): string | undefined {
  if (!value) return undefined;
  if (value.length > 14) {
    warnings.add(
      'barcodes longer than 14 characters were left out (BigCommerce UPC/GTIN limit) (variants.barcode)',
    );
    return undefined;
  }
  return value;
}

/** The body of POST /v3/catalog/products: one product with its variants, images, custom fields. */
export function productToBc(
  product: Product,
  refs: ProductRefs,
): { body: Json; warnings: string[] } {
  const warnings = new Set<string>();
  const { units } = refs;
  const first = product.variants[0];
  if (!first) throw new Error('a canonical product has at least one variant');
  const variable = product.options.length > 0;
  const weightOf = (v: Variant) => (v.weight ? weightToStore(v.weight, units) : 0);
  let name = product.name;
  if (name.length > 250) {
    warnings.add('name shortened to 250 characters (name)');
    name = name.slice(0, 250);
  }
  if (product.shortDescriptionHtml.trim()) {
    warnings.add(
      'short description not kept: BigCommerce products have one description (shortDescriptionHtml)',
    );
  }
  if (product.createdAt || product.updatedAt) {
    warnings.add(
      'creation and modification dates not kept: BigCommerce sets its own (createdAt, updatedAt)',
    );
  }
  const body: Json = {
    name,
    type: 'physical',
    description: product.descriptionHtml,
    weight: weightOf(first),
    ...priceFields(first, units, warnings),
    categories: refs.categoryIds,
    is_visible: product.status === 'active',
    availability: product.status === 'archived' ? 'disabled' : 'available',
    search_keywords: product.tags.map((t) => t.replace(/,/g, ' ')).join(','),
    page_title: product.seoTitle.slice(0, 255),
    meta_description: product.seoDescription,
    custom_url: {
      url: urlFor(product.slug, product.sourceUrlPath, `product-${product.id}`),
      is_customized: true,
    },
  };
  if (refs.brandId > 0) body.brand_id = refs.brandId;
  if (product.dimensions) {
    const { length, width, height, unit } = product.dimensions;
    body.depth = lengthToStore(length, unit, units);
    body.width = lengthToStore(width, unit, units);
    body.height = lengthToStore(height, unit, units);
  }
  const fields = Object.entries(product.attributes).filter(([key, value]) => {
    const fits = key.length > 0 && key.length <= 250 && value.length > 0 && value.length <= 250;
    if (!fits)
      warnings.add('attributes longer than 250 characters (or empty) were left out (attributes)');
    return fits;
  });
  if (fields.length) body.custom_fields = fields.map(([name, value]) => ({ name, value }));
  const images = product.images.filter((image) => {
    const usable = validUrl(image.url) !== null;
    if (!usable) warnings.add('images without an http(s) URL were left out (images)');
    return usable;
  });
  if (images.length) {
    const first = Math.min(...images.map((i) => i.position));
    body.images = images.map((image) => ({
      image_url: image.url,
      description: image.alt,
      sort_order: image.position,
      is_thumbnail: image.position === first,
    }));
  }
  if (!variable) {
    const sku = first.sku || product.sku;
    if (sku) body.sku = sku;
    body.inventory_tracking = first.inventory.tracked ? 'product' : 'none';
    body.inventory_level = first.inventory.tracked ? Math.max(0, first.inventory.quantity) : 0;
    const code = barcode(first.barcode, warnings);
    if (code) body.upc = code;
    if (first.imageUrl)
      warnings.add(
        'the variant image of a simple product is kept as a product image only (variants.imageUrl)',
      );
    return { body, warnings: [...warnings] };
  }
  if (product.sku) body.sku = product.sku;
  const tracked = product.variants.some((v) => v.inventory.tracked);
  body.inventory_tracking = tracked ? 'variant' : 'none';
  body.variants = product.variants.map((v, index) => {
    let sku = v.sku;
    if (!sku) {
      sku = `${product.sku || product.slug || `P${product.id}`}-${index + 1}`;
      warnings.add(
        'variants without a SKU got one (BigCommerce requires a SKU per variant) (variants.sku)',
      );
    }
    const variant: Json = {
      sku,
      ...priceFields(v, units, warnings),
      weight: weightOf(v),
      inventory_level: v.inventory.tracked ? Math.max(0, v.inventory.quantity) : 0,
      option_values: v.optionValues.map((ov) => ({
        option_display_name: ov.name,
        label: ov.value,
      })),
    };
    const code = barcode(v.barcode, warnings);
    if (code) variant.upc = code;
    if (v.imageUrl && validUrl(v.imageUrl)) variant.image_url = v.imageUrl;
    return variant;
  });
  return { body, warnings: [...warnings] };
}
