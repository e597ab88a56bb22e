import { z } from 'zod';

/**
 * The parts of BigCommerce's payloads the connector reads, parsed at the boundary before mapping.
 * Field names and types follow the OpenAPI files in platform-specs/bigcommerce (v3 catalog and
 * customers, v2 orders and store information); unknown fields are ignored.
 */

const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '');
const num = z.number().nullish();
/** v2 amounts are strings ('12.3400'); some answers use numbers. */
const amount = z
  .union([z.string(), z.number()])
  .transform((v) => (typeof v === 'number' ? String(v) : v));

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
  currency: z.string().optional(),
  weight_units: text,
  dimension_units: text,
});
export type BcStoreInfo = z.infer<typeof storeInfoSchema>;

export const treeSchema = z.object({
  id: z.number().int(),
  name: text,
  channels: z.array(z.number().int()).default([]),
});

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
});
export type BcTreeCategory = z.infer<typeof treeCategorySchema>;

export const brandSchema = z.object({ id: z.number().int(), name: z.string() });

export const variantSchema = z.object({
  id: z.number().int(),
  product_id: z.number().int().optional(),
  sku: text,
  price: num,
  sale_price: num,
  retail_price: num,
  weight: num,
  inventory_level: num,
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

export const productSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  sku: text,
  description: text,
  weight: z.number().default(0),
  width: z.number().default(0),
  depth: z.number().default(0),
  height: z.number().default(0),
  price: z.number().default(0),
  sale_price: num,
  categories: z.array(z.number().int()).default([]),
  brand_id: z.number().int().default(0),
  inventory_level: z.number().int().default(0),
  inventory_tracking: z.enum(['none', 'product', 'variant']).default('none'),
  is_visible: z.boolean().default(true),
  availability: z.string().default('available'),
  upc: text,
  gtin: text,
  search_keywords: text,
  page_title: text,
  meta_description: text,
  custom_url: z.object({ url: z.string() }).nullish(),
  date_created: z.string().optional(),
  date_modified: z.string().optional(),
  variants: z.array(variantSchema).default([]),
  images: z.array(imageSchema).default([]),
  custom_fields: z
    .array(z.object({ id: z.number().int().optional(), name: z.string(), value: z.string() }))
    .default([]),
});
export type BcProduct = z.infer<typeof productSchema>;

export const metafieldSchema = z.object({
  id: z.number().int(),
  resource_id: z.number().int(),
  namespace: z.string(),
  key: z.string(),
  value: z.string(),
});

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
});

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
});
export type BcCustomer = z.infer<typeof customerSchema>;

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

export const orderSchema = z.object({
  id: z.number().int(),
  customer_id: z.number().int().default(0),
  date_created: z.string(),
  date_modified: z.string().nullish(),
  status_id: z.number().int(),
  subtotal_ex_tax: amount,
  shipping_cost_ex_tax: amount,
  shipping_cost_tax: amount.optional(),
  total_tax: amount,
  total_inc_tax: amount,
  discount_amount: amount.default('0'),
  coupon_discount: amount.default('0'),
  currency_code: z.string(),
  payment_status: text,
  items_total: z.number().default(0),
  items_shipped: z.number().default(0),
  customer_message: text,
  external_order_id: text,
  billing_address: orderAddressSchema,
});
export type BcOrder = z.infer<typeof orderSchema>;

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
});
export type BcOrderProduct = z.infer<typeof orderProductSchema>;

export const orderShippingAddressSchema = orderAddressSchema.extend({
  id: z.number().int(),
  shipping_method: text,
  cost_ex_tax: amount,
  cost_tax: amount.default('0'),
});
export type BcOrderShippingAddress = z.infer<typeof orderShippingAddressSchema>;

export const orderCouponSchema = z.object({
  code: z.string().nullish(),
  amount: amount,
});
export type BcOrderCoupon = z.infer<typeof orderCouponSchema>;

export const orderCountSchema = z.object({ count: z.number() });
