import { z } from 'zod';

/**
 * The parts of BigCommerce's payloads the connector maps, parsed at the boundary before mapping.
 * Field names and types follow the OpenAPI files in platform-specs/bigcommerce (v3 catalog and
 * customers, v2 orders and store information; v2 coupons in the emulators' specs/bigcommerce).
 * The native records themselves (what nativeFields
 * declares) are kept whole beside these parsed views: see native.ts.
 */

const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '');
const num = z.number().nullish();
const int = z.number().int().nullish();
/** v2 amounts are strings ('12.3400'); some answers use numbers. */
const amount = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? '0' : typeof v === 'number' ? String(v) : v));

export const paginationSchema = z.object({
  total: z.number().int(),
  count: z.number().int().optional(),
  per_page: z.number().int().optional(),
  current_page: z.number().int().optional(),
  total_pages: z.number().int(),
});

export function collectionSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    meta: z.object({ pagination: paginationSchema.optional() }).optional(),
  });
}

export const storeInfoSchema = z.object({
  name: z.string(),
  /** The storefront's address, where a blog thumbnail's /product_images/ path is served. */
  secure_url: z.string().optional(),
  currency: z.string().optional(),
  /** The site of the default channel, to which storefront redirects belong. */
  default_site_id: z.number().int().nullish(),
  weight_units: text,
  dimension_units: text,
});
export type BcStoreInfo = z.infer<typeof storeInfoSchema>;

export const treeSchema = z.object({
  id: z.number().int(),
  name: text,
  channels: z.array(z.number().int()).default([]),
});

export const metafieldSchema = z.object({
  id: z.number().int(),
  resource_id: z.number().int(),
  namespace: z.string(),
  key: z.string(),
  value: z.string(),
  permission_set: z.string().default('write'),
  description: text,
});
export type BcMetafield = z.infer<typeof metafieldSchema>;

export const treeCategorySchema = z.object({
  category_id: z.number().int(),
  parent_id: z.number().int(),
  tree_id: z.number().int().optional(),
  name: z.string(),
  description: text,
  sort_order: num,
  image_url: text,
  is_visible: z.boolean().optional(),
  page_title: text,
  meta_description: text,
  url: z.object({ path: z.string(), is_customized: z.boolean().optional() }).nullish(),
  metafields: z.array(metafieldSchema).default([]),
});
export type BcTreeCategory = z.infer<typeof treeCategorySchema>;

export const brandSchema = z.object({ id: z.number().int(), name: z.string() });

/** A brand as brands_catalog.v3.yml brand_Full gives it, with its metafields (native.ts). */
export const brandFullSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  page_title: text,
  meta_keywords: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? []),
  meta_description: text,
  search_keywords: text,
  image_url: text,
  custom_url: z.object({ url: z.string(), is_customized: z.boolean().optional() }).nullish(),
  metafields: z.array(metafieldSchema).default([]),
});
export type BcBrandFull = z.infer<typeof brandFullSchema>;

export const variantSchema = z.object({
  id: z.number().int(),
  product_id: z.number().int().optional(),
  sku: text,
  price: num,
  sale_price: num,
  weight: num,
  width: num,
  height: num,
  depth: num,
  purchasing_disabled: z.boolean().default(false),
  inventory_level: num,
  inventory_warning_level: num,
  upc: text,
  gtin: text,
  image_url: text,
  option_values: z
    .array(
      z.object({
        id: z.number().int().optional(),
        option_id: z.number().int().optional(),
        label: z.string(),
        option_display_name: z.string(),
      }),
    )
    .default([]),
  metafields: z.array(metafieldSchema).default([]),
});
export type BcVariant = z.infer<typeof variantSchema>;

export const imageSchema = z.object({
  id: z.number().int(),
  is_thumbnail: z.boolean().optional(),
  sort_order: num,
  description: text,
  url_zoom: text,
  url_standard: text,
  image_url: text,
});
export type BcImage = z.infer<typeof imageSchema>;

export const optionSchema = z.object({
  id: z.number().int().nullish(),
  display_name: z.string(),
  type: z.string().default('rectangles'),
  sort_order: int,
  option_values: z
    .array(
      z.object({
        id: z.number().int().optional(),
        label: z.string(),
        sort_order: int,
        is_default: z.boolean().default(false),
        value_data: z.record(z.string(), z.unknown()).nullish(),
      }),
    )
    .default([]),
});
export type BcOption = z.infer<typeof optionSchema>;

export const productSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(['physical', 'digital']).default('physical'),
  sku: text,
  description: text,
  weight: z.number().default(0),
  width: z.number().default(0),
  depth: z.number().default(0),
  height: z.number().default(0),
  price: z.number().default(0),
  sale_price: z.number().nullish(),
  tax_class_id: z.number().default(0),
  categories: z.array(z.number().int()).default([]),
  brand_id: z.number().int().default(0),
  base_variant_id: int,
  inventory_level: z.number().int().default(0),
  inventory_warning_level: z.number().int().default(0),
  inventory_tracking: z.enum(['none', 'product', 'variant']).default('none'),
  is_visible: z.boolean().default(true),
  is_featured: z.boolean().default(false),
  related_products: z.array(z.number().int()).default([-1]),
  availability: z.string().default('available'),
  order_quantity_maximum: z.number().int().default(0),
  sort_order: z.number().int().default(0),
  upc: text,
  gtin: text,
  search_keywords: text,
  page_title: text,
  meta_description: text,
  custom_url: z.object({ url: z.string(), is_customized: z.boolean().optional() }).nullish(),
  date_created: z.string().optional(),
  date_modified: z.string().optional(),
  variants: z.array(variantSchema).default([]),
  images: z.array(imageSchema).default([]),
  options: z.array(optionSchema).default([]),
  custom_fields: z
    .array(z.object({ id: z.number().int().optional(), name: z.string(), value: z.string() }))
    .default([]),
  bulk_pricing_rules: z.array(z.record(z.string(), z.unknown())).default([]),
  videos: z.array(z.record(z.string(), z.unknown())).default([]),
  metafields: z.array(metafieldSchema).default([]),
});
export type BcProduct = z.infer<typeof productSchema>;

export const customerAddressSchema = z.object({
  first_name: text,
  last_name: text,
  company: text,
  address1: text,
  address2: text,
  city: text,
  state_or_province: text,
  postal_code: text,
  country_code: text,
  phone: text,
  address_type: text,
});

const formFieldValue = z.union([z.string(), z.number(), z.array(z.string())]);

export const customerSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  first_name: text,
  last_name: text,
  phone: text,
  notes: text,
  date_created: z.string(),
  accepts_product_review_abandoned_cart_emails: z.boolean().nullish(),
  addresses: z.array(customerAddressSchema).default([]),
  attributes: z
    .array(z.object({ attribute_id: z.number().int(), attribute_value: z.string() }))
    .default([]),
  form_fields: z.array(z.object({ name: z.string(), value: formFieldValue })).default([]),
  metafields: z.array(metafieldSchema).default([]),
});
export type BcCustomer = z.infer<typeof customerSchema>;

export const customerAttributeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(['string', 'number', 'date']),
});
export type BcCustomerAttribute = z.infer<typeof customerAttributeSchema>;

export const orderAddressSchema = z.object({
  first_name: text,
  last_name: text,
  company: text,
  street_1: text,
  street_2: text,
  city: text,
  state: text,
  zip: text,
  country: text,
  country_iso2: text,
  phone: text,
  email: text,
});
export type BcOrderAddress = z.infer<typeof orderAddressSchema>;

export const orderProductSchema = z.object({
  id: z.number().int(),
  product_id: z.number().int().default(0),
  variant_id: z.number().int().nullish(),
  name: text,
  sku: text,
  quantity: z.number().int(),
  price_ex_tax: amount,
  total_ex_tax: amount,
  total_tax: amount,
  product_options: z.array(z.object({ display_name: text, display_value: text })).default([]),
});
export type BcOrderProduct = z.infer<typeof orderProductSchema>;

export const orderShippingAddressSchema = orderAddressSchema.extend({
  id: z.number().int(),
  shipping_method: text,
  cost_ex_tax: amount,
  cost_inc_tax: amount,
});
export type BcOrderShippingAddress = z.infer<typeof orderShippingAddressSchema>;

export const orderCouponSchema = z.object({
  code: z.string().nullish(),
  amount: amount,
});
export type BcOrderCoupon = z.infer<typeof orderCouponSchema>;

export const orderFeeSchema = z.object({
  display_name_customer: text,
  display_name_merchant: text,
  cost_ex_tax: amount,
  cost_inc_tax: amount,
  tax_class_id: int,
});
export type BcOrderFee = z.infer<typeof orderFeeSchema>;

export const orderSchema = z.object({
  id: z.number().int(),
  customer_id: z.number().int().default(0),
  date_created: z.string(),
  date_modified: z.string().nullish(),
  date_shipped: text,
  status_id: z.number().int(),
  subtotal_ex_tax: amount,
  shipping_cost_ex_tax: amount,
  shipping_cost_tax: amount,
  handling_cost_ex_tax: amount,
  handling_cost_inc_tax: amount,
  wrapping_cost_ex_tax: amount,
  wrapping_cost_inc_tax: amount,
  base_shipping_cost: amount,
  base_handling_cost: amount,
  base_wrapping_cost: amount,
  total_tax: amount,
  total_inc_tax: amount,
  discount_amount: amount,
  coupon_discount: amount,
  refunded_amount: amount,
  currency_code: z.string(),
  default_currency_code: text,
  payment_method: text,
  payment_provider_id: z
    .union([z.string(), z.number()])
    .nullish()
    .transform((v) => (v === null || v === undefined ? '' : String(v))),
  payment_status: text,
  is_tax_inclusive_pricing: z.boolean().default(false),
  items_total: z.number().default(0),
  items_shipped: z.number().default(0),
  customer_message: text,
  ip_address: text,
  ip_address_v6: text,
  order_source: text,
  billing_address: orderAddressSchema,
  products: z.array(orderProductSchema).default([]),
  shipping_addresses: z.array(orderShippingAddressSchema).default([]),
  coupons: z.array(orderCouponSchema).default([]),
  fees: z.array(orderFeeSchema).default([]),
});
export type BcOrder = z.infer<typeof orderSchema>;

export const orderCountSchema = z.object({ count: z.number() });

/** marketing.v2.yml coupon_Full. */
export const couponSchema = z.object({
  id: z.number().int(),
  name: text,
  code: z.string().min(1),
  type: z.enum([
    'per_item_discount',
    'per_total_discount',
    'shipping_discount',
    'free_shipping',
    'percentage_discount',
    'promotion',
  ]),
  amount: amount,
  min_purchase: amount,
  expires: text,
  enabled: z.boolean().default(true),
  applies_to: z
    .object({
      entity: z.enum(['categories', 'products']),
      ids: z.array(z.number().int()).default([]),
    })
    .nullish(),
  num_uses: z.number().int().default(0),
  max_uses: z.number().int().nullish(),
  max_uses_per_customer: z.number().int().nullish(),
  date_created: text,
});
export type BcCoupon = z.infer<typeof couponSchema>;

export const couponCountSchema = z.object({ count: z.number().int() });

/** products_catalog.v3.yml Product Review (with `product_id`, as its examples show). */
export const reviewSchema = z.object({
  id: z.number().int(),
  product_id: z.number().int().optional(),
  title: text,
  text: text,
  status: z.string(),
  rating: z.number().int().default(0),
  email: text,
  name: text,
  date_reviewed: z.string(),
  date_created: z.string().optional(),
  date_modified: z.string().optional(),
});
export type BcReview = z.infer<typeof reviewSchema>;

/** A web page (pages.v3.yml typePage/typeRaw/typeContactForm/typeLink/typeBlog). */
export const webPageSchema = z.object({
  id: z.number().int(),
  channel_id: int,
  name: z.string(),
  is_visible: z.boolean().nullish(),
  parent_id: int,
  sort_order: int,
  type: z.string(),
  body: text,
  is_homepage: z.boolean().nullish(),
  is_customers_only: z.boolean().nullish(),
  url: text,
  meta_title: text,
  meta_keywords: text,
  meta_description: text,
  search_keywords: text,
  email: text,
  contact_fields: text,
  link: text,
});
export type BcWebPage = z.infer<typeof webPageSchema>;

/** A blog post (store_content.v2.yml blogPost_Full). */
export const blogPostSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  url: text,
  body: text,
  tags: z
    .array(z.string())
    .nullish()
    .transform((v) => v ?? []),
  summary: text,
  is_published: z.boolean().nullish(),
  published_date: z.object({ date: z.string(), timezone: z.string().optional() }).loose().nullish(),
  published_date_iso8601: text,
  meta_description: text,
  meta_keywords: text,
  author: text,
  thumbnail_path: text,
});
export type BcBlogPost = z.infer<typeof blogPostSchema>;
