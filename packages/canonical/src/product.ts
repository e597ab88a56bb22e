import { z } from 'zod';
import { moneySchema } from './money.ts';

export const productImageSchema = z.strictObject({
  /** Absolute URL of the original image at the source. */
  url: z.url(),
  /** Alternative text, '' when none. */
  alt: z.string(),
  /** Position in the gallery, 0 = main image. */
  position: z.number().int().nonnegative(),
});
export type ProductImage = z.infer<typeof productImageSchema>;

export const weightUnits = ['g', 'kg', 'lb', 'oz'] as const;
export const dimensionUnits = ['cm', 'm', 'mm', 'in', 'ft', 'yd'] as const;

export const weightSchema = z.strictObject({
  value: z.number().nonnegative(),
  unit: z.enum(weightUnits),
});
export const dimensionsSchema = z.strictObject({
  length: z.number().nonnegative(),
  width: z.number().nonnegative(),
  height: z.number().nonnegative(),
  unit: z.enum(dimensionUnits),
});

/** One option of a product with options (e.g. name 'Size', values ['S', 'M', 'L']). */
export const productOptionSchema = z.strictObject({
  name: z.string().min(1),
  /** Values in display order, unique. */
  values: z.array(z.string().min(1)).min(1),
});
export type ProductOption = z.infer<typeof productOptionSchema>;

export const inventorySchema = z.strictObject({
  /** Whether the store tracks stock for this item. */
  tracked: z.boolean(),
  /** Units on hand when tracked; 0 otherwise. */
  quantity: z.number().int(),
});

/** A purchasable variant: one combination of option values with its own SKU, price and stock. */
export const variantSchema = z.strictObject({
  /** The source platform's variant id, as a string. */
  id: z.string().min(1),
  /** Stock-keeping unit, '' when the store has none. */
  sku: z.string(),
  /** Option values in the order of the product's options, e.g. [{name:'Size', value:'M'}]. */
  optionValues: z.array(z.strictObject({ name: z.string().min(1), value: z.string().min(1) })),
  /** Selling price. */
  price: moneySchema,
  /** Compare-at (regular, before sale) price, or null when not on sale. */
  compareAtPrice: moneySchema.nullable(),
  weight: weightSchema.nullable(),
  inventory: inventorySchema,
  /** Barcode (GTIN/UPC/EAN), '' when none. */
  barcode: z.string(),
  /** URL of this variant's own image (one of the product's images), or null. */
  imageUrl: z.url().nullable(),
});
export type Variant = z.infer<typeof variantSchema>;

/** A catalogue product: simple (no options, one variant) or with options and several variants. */
export const productSchema = z.strictObject({
  /** The source platform's id, as a string. */
  id: z.string().min(1),
  /** 'simple': one variant and no options; 'variable': options and one variant per combination. */
  type: z.enum(['simple', 'variable']),
  name: z.string().min(1),
  /** URL key / handle, lower case. */
  slug: z.string(),
  /** Product-level SKU (the parent SKU of a variable product); '' when none. */
  sku: z.string(),
  /** Full HTML description; sanitised before we ever render it. */
  descriptionHtml: z.string(),
  /** Short description / excerpt (HTML), '' when none. */
  shortDescriptionHtml: z.string(),
  /** 'active': for sale; 'draft': hidden, being prepared; 'archived': no longer sold. */
  status: z.enum(['active', 'draft', 'archived']),
  /** Brand / vendor name, '' when none. */
  vendor: z.string(),
  /** Options of a variable product, in display order; [] for a simple product. */
  options: z.array(productOptionSchema),
  /** At least one variant; a simple product has exactly one carrying its price and stock. */
  variants: z.array(variantSchema).min(1),
  /** Gallery images in position order. */
  images: z.array(productImageSchema),
  /** Source ids of the categories the product belongs to. */
  categoryIds: z.array(z.string().min(1)),
  /** Merchant tags, in source order, unique. */
  tags: z.array(z.string()),
  /** SEO page title, '' to use the product name. */
  seoTitle: z.string(),
  /** SEO meta description, '' when none. */
  seoDescription: z.string(),
  /** Dimensions of the shipped item, or null. */
  dimensions: dimensionsSchema.nullable(),
  /** Other attributes the model has no field for (e.g. 'material': 'cotton'); values as text. */
  attributes: z.record(z.string(), z.string()),
  /** Path of the product on the source storefront ('/products/red-shirt'), or null if unknown. */
  sourceUrlPath: z.string().nullable(),
  createdAt: z.iso.datetime({ offset: true }).nullable(),
  updatedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type Product = z.infer<typeof productSchema>;
