import { z } from 'zod';
import { metafieldSchema } from './metafield.ts';
import { moneySchema } from './money.ts';

export const productImageSchema = z.strictObject({
  /** Absolute URL of the original image at the source: the image's identity across records. */
  url: z.url(),
  /** Alternative text, '' when none. */
  alt: z.string(),
  /** The image's title (media library name), '' when none. Never replaced by the file name. */
  title: z.string(),
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

/**
 * Where an attribute or option is defined. A shared one is the store's own (WooCommerce global
 * attribute `pa_color`, Magento attribute, BigCommerce shared option): the destination finds or
 * creates it by this natural key once and every product uses it. A product's own attribute
 * (null) exists only on that product.
 */
export const sharedAttributeSchema = z
  .strictObject({
    /** The store-wide attribute's slug or code ('color'), without platform prefixes. */
    slug: z.string().min(1),
  })
  .nullable();

/** A term (value) of a store-wide attribute, as the store defines it. */
export const sharedAttributeTermSchema = z.strictObject({
  /** The value as shoppers see it ('Red'). */
  name: z.string().min(1),
  /** URL key of the term, '' when the source has none. */
  slug: z.string(),
  /** Description of the term (HTML), '' when none. */
  description: z.string(),
  /** Sort position set by the merchant, used where the attribute sorts its terms by hand. */
  position: z.number().int(),
});
export type SharedAttributeTerm = z.infer<typeof sharedAttributeTermSchema>;

/**
 * A store-wide attribute's own settings and every one of its terms, including those no product
 * uses (WooCommerce global attributes): what a destination needs to create the attribute as the
 * source has it, not only the values products name.
 */
export const sharedAttributeDefinitionSchema = z.strictObject({
  /** The store-wide attribute's slug or code, as in `shared.slug` of options and attributes. */
  slug: z.string().min(1),
  name: z.string().min(1),
  /** Whether the store gives each term its own archive page (a product listing). */
  archives: z.boolean(),
  /**
   * How the store sorts the terms wherever it lists them (a product's values included): 'position'
   * (by hand), 'name', 'name_numeric' (names read as numbers), 'id' (order of creation).
   */
  termOrder: z.enum(['position', 'name', 'name_numeric', 'id']),
  /** Every term, in the store's own order. */
  terms: z.array(sharedAttributeTermSchema),
});
export type SharedAttributeDefinition = z.infer<typeof sharedAttributeDefinitionSchema>;

/** A merchant tag as the store defines it, where it keeps more than the name. */
export const tagDefinitionSchema = z.strictObject({
  /** The tag's name, as in the product's `tags`. */
  name: z.string().min(1),
  /** URL key of the tag, '' when the source has none. */
  slug: z.string(),
  /** Description of the tag (HTML), '' when none. */
  description: z.string(),
});
export type TagDefinition = z.infer<typeof tagDefinitionSchema>;

/** One option of a product with options (e.g. name 'Size', values ['S', 'M', 'L']). */
export const productOptionSchema = z.strictObject({
  /** The option's name as shoppers see it ('Size'). */
  name: z.string().min(1),
  /** Values in display order, unique. Each is one choice; never joined into one text. */
  values: z.array(z.string().min(1)).min(1),
  /** The store-wide attribute it comes from, or null when it is the product's own. */
  shared: sharedAttributeSchema,
  /** Whether the option is listed on the product page besides being chosen. */
  visible: z.boolean(),
  /** Position among the product's options and attributes together (0 first). */
  position: z.number().int().nonnegative(),
});
export type ProductOption = z.infer<typeof productOptionSchema>;

/**
 * A descriptive attribute of the product that variants do not vary by ('Material': ['Cotton']).
 * Multi-valued attributes keep their values apart.
 */
export const productAttributeSchema = z.strictObject({
  name: z.string().min(1),
  /** Values in display order, unique. */
  values: z.array(z.string()).min(1),
  shared: sharedAttributeSchema,
  /** Whether the attribute is shown on the product page. */
  visible: z.boolean(),
  /** Position among the product's options and attributes together (0 first). */
  position: z.number().int().nonnegative(),
});
export type ProductAttribute = z.infer<typeof productAttributeSchema>;

/** How the store behaves when a tracked item runs out. */
export const backorderPolicies = ['no', 'notify', 'yes'] as const;
/** Stock status as the store states it (for items whose stock it does not count, the only fact). */
export const stockStatuses = ['instock', 'outofstock', 'onbackorder'] as const;

export const inventorySchema = z.strictObject({
  /** Whether the store tracks stock for this item. */
  tracked: z.boolean(),
  /** Units on hand when tracked; 0 otherwise. */
  quantity: z.number().int(),
  /** Stock status as the source states it. */
  stockStatus: z.enum(stockStatuses),
  /** Backorders: 'no' (refused), 'notify' (allowed, the customer is told), 'yes' (allowed). */
  backorders: z.enum(backorderPolicies),
  /** Stock level at which the store warns the merchant, or null to use the store's default. */
  lowStockThreshold: z.number().int().nullable(),
});
export type Inventory = z.infer<typeof inventorySchema>;

/** The value a variant has for one of its product's options. */
export const optionValueSchema = z.strictObject({
  /** Name of the product option ('Size'). */
  name: z.string().min(1),
  /** This variant's value of it ('M'), one of the option's values. */
  value: z.string().min(1),
});

/** A file a buyer of a downloadable item may download. */
export const downloadSchema = z.strictObject({
  /** The file's name as buyers see it. */
  name: z.string(),
  /** Where the file is (absolute URL, or the store's own path for files it serves). */
  url: z.string().min(1),
});

/** A purchasable variant: one combination of option values with its own SKU, price and stock. */
export const variantSchema = z.strictObject({
  /** The source platform's variant id, as a string. */
  id: z.string().min(1),
  /** Stock-keeping unit, '' when the store has none. */
  sku: z.string(),
  /**
   * Option values in the order of the product's options, e.g. [{name:'Size', value:'M'}]. A
   * variable product's variant may leave an option out: it then matches any value of it.
   */
  optionValues: z.array(optionValueSchema),
  /** 'active': for sale; 'private': kept but not offered to shoppers. */
  status: z.enum(['active', 'private']),
  /** Regular (list) price. */
  price: moneySchema,
  /** Sale price, or null when the item has none (now or scheduled). */
  salePrice: moneySchema.nullable(),
  /** When the sale starts (ISO-8601), null when it is not scheduled to start. */
  saleStartsAt: z.iso.datetime({ offset: true }).nullable(),
  /** When the sale ends (ISO-8601), null when it does not end by itself. */
  saleEndsAt: z.iso.datetime({ offset: true }).nullable(),
  /** Shipping weight of one unit, or null when the store has none (a variant: the product's). */
  weight: weightSchema.nullable(),
  /**
   * Package dimensions of this variant when they differ from the product's; absent when the
   * product's apply.
   */
  dimensions: dimensionsSchema.optional(),
  /** Description of this variant alone (HTML), absent when it has none. */
  descriptionHtml: z.string().optional(),
  /** Stock of this variant. */
  inventory: inventorySchema,
  /** Barcode (GTIN/UPC/EAN), '' when none. */
  barcode: z.string(),
  /** URL of this variant's own image (at the source), or null. */
  imageUrl: z.url().nullable(),
  /** Tax class, '' for the store's standard class; null: the product's (variants only). */
  taxClass: z.string().nullable(),
  /** Shipping class slug, '' for none; null: the product's (variants only). */
  shippingClass: z.string().nullable(),
  /** Sold without shipping (a service, a booking). */
  virtual: z.boolean(),
  /** Sold as files to download. */
  downloadable: z.boolean(),
  /** The files of a downloadable item ([] otherwise). */
  downloads: z.array(downloadSchema),
  /** How many times a buyer may download, or null for no limit. */
  downloadLimit: z.number().int().positive().nullable(),
  /** Days a download link stays valid after purchase, or null for ever. */
  downloadExpiryDays: z.number().int().positive().nullable(),
  /** Position among the product's variants (0 first). */
  position: z.number().int().nonnegative(),
  /** Custom fields of the variant (see metafieldSchema). */
  metafields: z.array(metafieldSchema),
});
export type Variant = z.infer<typeof variantSchema>;

/**
 * Product kinds:
 * - simple: one variant and no options;
 * - variable: options and one variant per offered combination;
 * - grouped: a set of other products shown together; no variant and no price of its own;
 * - external: one variant whose "buy" button leads to another site (externalUrl, buttonText).
 */
export const productTypes = ['simple', 'variable', 'grouped', 'external'] as const;

/**
 * Visibility in the storefront: 'visible' (shop and search), 'catalog' (shop only), 'search'
 * (search results only), 'hidden' (reachable only by its address).
 */
export const productVisibilities = ['visible', 'catalog', 'search', 'hidden'] as const;

/** A catalogue product. */
export const productSchema = z
  .strictObject({
    /** The source platform's id, as a string. */
    id: z.string().min(1),
    type: z.enum(productTypes),
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
    /**
     * 'active': for sale; 'draft': being prepared; 'pending': awaiting review; 'private': only
     * the store's staff see it; 'archived': no longer sold.
     */
    status: z.enum(['active', 'draft', 'pending', 'private', 'archived']),
    visibility: z.enum(productVisibilities),
    /** Shown as a featured product. */
    featured: z.boolean(),
    /** Brand / vendor name, '' when none. */
    vendor: z.string(),
    /** Options of a variable product, in display order; [] for other kinds. */
    options: z.array(productOptionSchema),
    /** Descriptive attributes (not varied by), [] when none. */
    attributes: z.array(productAttributeSchema),
    /** The option values preselected on the product page, [] when none. */
    defaultOptionValues: z.array(optionValueSchema),
    /**
     * Variants: exactly one for simple and external products (carrying price and stock), at
     * least one for variable products, none for grouped products.
     */
    variants: z.array(variantSchema),
    /** Gallery images in position order. */
    images: z.array(productImageSchema),
    /** Source ids of the categories the product belongs to. */
    categoryIds: z.array(z.string().min(1)),
    /**
     * Merchant tags, unique. Their order carries no meaning (platforms list tags
     * alphabetically), so comparisons sort them.
     */
    tags: z.array(z.string()),
    /**
     * Slug and description of the product's tags where the source keeps them (one per tag in
     * `tags`); [] when the source keeps tags as names only.
     */
    tagDefinitions: z.array(tagDefinitionSchema),
    /**
     * The store-wide attributes the product's options and attributes come from (`shared.slug`),
     * with their settings and all their terms; [] when the source keeps nothing beyond the slug.
     */
    sharedAttributes: z.array(sharedAttributeDefinitionSchema),
    /** SEO page title, '' to use the product name. */
    seoTitle: z.string(),
    /** SEO meta description, '' when none. */
    seoDescription: z.string(),
    /** Shipping weight of the product (a variable product's default for its variants), or null. */
    weight: weightSchema.nullable(),
    /** Dimensions of the shipped item, or null. */
    dimensions: dimensionsSchema.nullable(),
    /** 'taxable', 'shipping' (only its shipping is taxed) or 'none'. */
    taxStatus: z.enum(['taxable', 'shipping', 'none']),
    /** Tax class, '' for the store's standard class. */
    taxClass: z.string(),
    /** Shipping class slug, '' for none. */
    shippingClass: z.string(),
    /** At most one per order. */
    soldIndividually: z.boolean(),
    /** Customers may review it. */
    reviewsAllowed: z.boolean(),
    /** Note sent to the buyer after purchase (HTML), '' when none. */
    purchaseNote: z.string(),
    /** Sort position set by the merchant (0 when unset). */
    menuOrder: z.number().int(),
    /** Source ids of products offered instead (up-sells). */
    upsellIds: z.array(z.string().min(1)),
    /** Source ids of products offered with it in the cart (cross-sells). */
    crossSellIds: z.array(z.string().min(1)),
    /** Source ids of the member products of a grouped product, in order ([] otherwise). */
    groupedProductIds: z.array(z.string().min(1)),
    /** Where an external product is bought ('' for other kinds). */
    externalUrl: z.string(),
    /** Text of an external product's buy button ('' for other kinds or the store's default). */
    buttonText: z.string(),
    /** Custom fields of the product (see metafieldSchema). */
    metafields: z.array(metafieldSchema),
    /** Path of the product on the source storefront ('/products/red-shirt'), or null if unknown. */
    sourceUrlPath: z.string().nullable(),
    /** When the product was created at the source (ISO-8601), null when unknown. */
    createdAt: z.iso.datetime({ offset: true }).nullable(),
    /** When the product was last changed at the source (ISO-8601), null when unknown. */
    updatedAt: z.iso.datetime({ offset: true }).nullable(),
  })
  .check((ctx) => {
    const { type, variants } = ctx.value;
    const wanted =
      type === 'grouped'
        ? variants.length === 0
        : type === 'variable'
          ? variants.length >= 1
          : variants.length === 1;
    if (!wanted)
      ctx.issues.push({
        code: 'custom',
        input: variants,
        path: ['variants'],
        message: `a ${type} product has ${type === 'grouped' ? 'no variants' : type === 'variable' ? 'at least one variant' : 'exactly one variant'}`,
      });
  });
export type Product = z.infer<typeof productSchema>;
