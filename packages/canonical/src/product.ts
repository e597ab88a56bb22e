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

/** Grams, kilograms, pounds (avoirdupois), ounces. */
export const weightUnits = ['g', 'kg', 'lb', 'oz'] as const;
/** Centimetres, metres, millimetres, inches, feet, yards. */
export const dimensionUnits = ['cm', 'm', 'mm', 'in', 'ft', 'yd'] as const;

/** A shipping weight in the unit the source store uses (converted only when written). */
export const weightSchema = z.strictObject({
  /** The weight, in `unit`. */
  value: z.number().nonnegative(),
  unit: z.enum(weightUnits),
});
/** Package dimensions in the unit the source store uses (converted only when written). */
export const dimensionsSchema = z.strictObject({
  /** Length, in `unit`. */
  length: z.number().nonnegative(),
  /** Width, in `unit`. */
  width: z.number().nonnegative(),
  /** Height, in `unit`. */
  height: z.number().nonnegative(),
  unit: z.enum(dimensionUnits),
});
export type Weight = z.infer<typeof weightSchema>;
export type Dimensions = z.infer<typeof dimensionsSchema>;

/** One option of a product with options (e.g. name 'Size', values ['S', 'M', 'L']). */
export const productOptionSchema = z.strictObject({
  /** The option's name as shoppers see it ('Size'). */
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

/** The value a variant has for one of its product's options. */
export const optionValueSchema = z.strictObject({
  /** Name of the product option ('Size'). */
  name: z.string().min(1),
  /** This variant's value of it ('M'), one of the option's values. */
  value: z.string().min(1),
});

/** A purchasable variant: one combination of option values with its own SKU, price and stock. */
export const variantSchema = z.strictObject({
  /** The source platform's variant id, as a string. */
  id: z.string().min(1),
  /** Stock-keeping unit, '' when the store has none. */
  sku: z.string(),
  /** Option values in the order of the product's options, e.g. [{name:'Size', value:'M'}]. */
  optionValues: z.array(optionValueSchema),
  /** Selling price. */
  price: moneySchema,
  /** Compare-at (regular, before sale) price, or null when not on sale. */
  compareAtPrice: moneySchema.nullable(),
  /** Shipping weight of one unit, or null when the store has none. */
  weight: weightSchema.nullable(),
  /**
   * Package dimensions of this variant when they differ from the product's; absent when the
   * product's apply. WooCommerce and BigCommerce keep them per variant; Shopify and Magento do
   * not, and report them as unsupported.
   */
  dimensions: dimensionsSchema.optional(),
  /**
   * Description of this variant alone (HTML), absent when it has none. Only WooCommerce keeps
   * one; other destinations report it as unsupported.
   */
  descriptionHtml: z.string().optional(),
  /** Stock of this variant. */
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
  /** Product name (title) as shoppers see it. */
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
  /**
   * Merchant tags, unique. Their order carries no meaning (platforms list tags alphabetically),
   * so comparisons sort them.
   */
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
  /** When the product was created at the source (ISO-8601), null when unknown. */
  createdAt: z.iso.datetime({ offset: true }).nullable(),
  /** When the product was last changed at the source (ISO-8601), null when unknown. */
  updatedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type Product = z.infer<typeof productSchema>;
