import { z } from 'zod';

/**
 * WooCommerce's answers as the connector relies on them (parse at the boundary). Shapes follow the
 * resource schemas of wc-v3-index.woocommerce-11.0.1.json and what a real 11.0.1 store answers
 * with `context=edit`; the fields the mapping reads are declared and the rest pass through (the
 * connector's nativeFields in native-fields.ts list every field a store answers with). Where real
 * stores differ from the schema (null images, null stock, numbers sent as strings, an image id
 * sent as a string in refund lines) the schema here accepts what stores really send.
 */

/** A string field that a store may send as null or leave out. */
const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '');
/** A decimal amount, sent as a string ('19.99') and occasionally as a number. */
const decimal = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => (v === null || v === undefined ? '' : String(v)));
const id = z.number().int();
/** An id a store sometimes sends as a numeric string. */
const looseId = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((v) => Number(v ?? 0) || 0);
const flag = z.boolean().catch(false);
/** An integer where stores send -1, null or '' for "none". */
const count = z
  .union([z.number(), z.string()])
  .nullish()
  .transform((v) => (v === null || v === undefined || v === '' ? null : Number(v)))
  .catch(null);

export const wcMetaSchema = z.looseObject({
  id: z.number().int().optional(),
  key: z.string(),
  value: z.unknown(),
});
export type WcMeta = z.infer<typeof wcMetaSchema>;
const meta = z.array(wcMetaSchema).catch([]);

export const wcImageSchema = z.looseObject({
  id: looseId.optional(),
  src: z.string(),
  name: text,
  alt: text,
});
export type WcImage = z.infer<typeof wcImageSchema>;

const termRef = z.looseObject({ id, name: text, slug: text });
export const wcDimensionsSchema = z
  .looseObject({ length: text, width: text, height: text })
  .catch({ length: '', width: '', height: '' });
export type WcDimensions = z.infer<typeof wcDimensionsSchema>;

const download = z.looseObject({ id: text, name: text, file: text });

export const wcProductAttributeSchema = z.looseObject({
  id: id.catch(0),
  name: text,
  slug: text,
  position: z.number().catch(0),
  visible: flag,
  variation: flag,
  options: z.array(z.string()).catch([]),
});
export type WcProductAttribute = z.infer<typeof wcProductAttributeSchema>;

/** What products and variations share: prices, stock, shipping, downloads. */
const sellable = {
  id,
  sku: text,
  global_unique_id: text,
  description: text,
  price: decimal,
  regular_price: decimal,
  sale_price: decimal,
  date_on_sale_from_gmt: z.string().nullish(),
  date_on_sale_to_gmt: z.string().nullish(),
  date_created_gmt: z.string().nullish(),
  date_modified_gmt: z.string().nullish(),
  status: text,
  virtual: flag,
  downloadable: flag,
  downloads: z.array(download).catch([]),
  download_limit: count,
  download_expiry: count,
  tax_status: text,
  tax_class: text,
  manage_stock: z.union([z.boolean(), z.string()]).catch(false),
  stock_quantity: z.number().nullish(),
  stock_status: text,
  backorders: text,
  low_stock_amount: count,
  weight: text,
  dimensions: wcDimensionsSchema,
  shipping_class: text,
  menu_order: z.number().catch(0),
  meta_data: meta,
};

export const wcProductSchema = z.looseObject({
  ...sellable,
  name: text,
  slug: text,
  permalink: text,
  type: z.string(),
  featured: flag,
  catalog_visibility: text,
  short_description: text,
  external_url: text,
  button_text: text,
  sold_individually: flag,
  reviews_allowed: z.boolean().catch(true),
  purchase_note: text,
  post_password: text,
  parent_id: z.number().catch(0),
  upsell_ids: z.array(id).catch([]),
  cross_sell_ids: z.array(id).catch([]),
  grouped_products: z.array(id).catch([]),
  categories: z.array(termRef).catch([]),
  tags: z.array(termRef).catch([]),
  brands: z.array(termRef).catch([]),
  images: z.array(wcImageSchema).catch([]),
  attributes: z.array(wcProductAttributeSchema).catch([]),
  default_attributes: z
    .array(z.looseObject({ id: id.catch(0), name: text, option: text }))
    .catch([]),
  variations: z.array(id).catch([]),
});
export type WcProduct = z.infer<typeof wcProductSchema>;

export const wcVariationSchema = z.looseObject({
  ...sellable,
  image: wcImageSchema.nullish().catch(null),
  attributes: z
    .array(z.looseObject({ id: id.catch(0), name: text, slug: text, option: text }))
    .catch([]),
});
export type WcVariation = z.infer<typeof wcVariationSchema>;

export const wcTermSchema = z.looseObject({
  id,
  name: text,
  slug: text,
  parent: z.number().int().catch(0),
  description: text,
  display: text,
  image: wcImageSchema.nullish().catch(null),
  menu_order: z.number().int().catch(0),
  count: z.number().int().catch(0),
});
export type WcTerm = z.infer<typeof wcTermSchema>;

/** A store-wide product attribute (`pa_color`) and its terms. */
export const wcAttributeSchema = z.looseObject({
  id,
  name: text,
  slug: text,
  type: text,
  order_by: text,
  has_archives: flag,
});
export type WcAttribute = z.infer<typeof wcAttributeSchema>;

export const wcAttributeTermSchema = z.looseObject({
  id,
  name: text,
  slug: text,
  description: text,
  menu_order: z.number().int().catch(0),
});
export type WcAttributeTerm = z.infer<typeof wcAttributeTermSchema>;

export const wcShippingClassSchema = z.looseObject({ id, name: text, slug: text });

const address = z.looseObject({
  first_name: text,
  last_name: text,
  company: text,
  address_1: text,
  address_2: text,
  city: text,
  state: text,
  postcode: text,
  country: text,
  email: text,
  phone: text,
});
export type WcAddress = z.infer<typeof address>;
const emptyAddress = address.parse({});

export const wcCustomerSchema = z.looseObject({
  id,
  email: text,
  first_name: text,
  last_name: text,
  username: text,
  role: text,
  date_created_gmt: z.string().nullish(),
  date_modified_gmt: z.string().nullish(),
  billing: address.catch(emptyAddress),
  shipping: address.catch(emptyAddress),
  meta_data: meta,
});
export type WcCustomer = z.infer<typeof wcCustomerSchema>;

const lineMeta = z.array(wcMetaSchema).catch([]);

const lineItem = z.looseObject({
  id,
  name: text,
  product_id: looseId,
  variation_id: looseId,
  quantity: z.number(),
  tax_class: text,
  subtotal: decimal,
  subtotal_tax: decimal,
  total: decimal,
  total_tax: decimal,
  sku: text,
  meta_data: lineMeta,
});
export type WcLineItem = z.infer<typeof lineItem>;

const shippingLine = z.looseObject({
  id,
  method_title: text,
  method_id: text,
  instance_id: text,
  total: decimal,
  total_tax: decimal,
  meta_data: lineMeta,
});

const feeLine = z.looseObject({
  id,
  name: text,
  tax_class: text,
  tax_status: text,
  total: decimal,
  total_tax: decimal,
  meta_data: lineMeta,
});

export const wcRefundSchema = z.looseObject({
  id,
  date_created_gmt: z.string().nullish(),
  amount: decimal,
  reason: text,
  refunded_payment: flag,
  meta_data: meta,
  line_items: z.array(lineItem).catch([]),
  shipping_lines: z.array(shippingLine).catch([]),
  fee_lines: z.array(feeLine).catch([]),
  parent_id: z.number().int().optional(),
});
export type WcRefund = z.infer<typeof wcRefundSchema>;

export const wcOrderNoteSchema = z.looseObject({
  id,
  author: text,
  date_created_gmt: z.string().nullish(),
  note: text,
  customer_note: flag,
});
export type WcOrderNote = z.infer<typeof wcOrderNoteSchema>;

export const wcOrderSchema = z.looseObject({
  id,
  parent_id: z.number().int().catch(0),
  number: z.union([z.string(), z.number()]).transform(String),
  status: z.string(),
  currency: z.string(),
  created_via: text,
  prices_include_tax: flag,
  date_created_gmt: z.string().nullish(),
  date_modified_gmt: z.string().nullish(),
  date_paid_gmt: z.string().nullish(),
  date_completed_gmt: z.string().nullish(),
  customer_id: z.number().int().catch(0),
  customer_note: text,
  customer_ip_address: text,
  customer_user_agent: text,
  payment_method: text,
  payment_method_title: text,
  transaction_id: text,
  billing: address.catch(emptyAddress),
  shipping: address.catch(emptyAddress),
  discount_total: decimal,
  discount_tax: decimal,
  shipping_total: decimal,
  shipping_tax: decimal,
  cart_tax: decimal,
  total: decimal,
  total_tax: decimal,
  line_items: z.array(lineItem).catch([]),
  shipping_lines: z.array(shippingLine).catch([]),
  fee_lines: z.array(feeLine).catch([]),
  coupon_lines: z
    .array(
      z.looseObject({
        id,
        code: text,
        discount: decimal,
        discount_tax: decimal,
        meta_data: lineMeta,
      }),
    )
    .catch([]),
  refunds: z.array(z.looseObject({ id, reason: text, total: decimal })).catch([]),
  meta_data: meta,
});
export type WcOrder = z.infer<typeof wcOrderSchema>;

export const wcErrorSchema = z.looseObject({
  code: z.string(),
  message: z.string(),
  data: z.looseObject({ status: z.number().optional() }).nullish(),
});
export type WcError = z.infer<typeof wcErrorSchema>;

/** One entry of a batch answer: the resource, or `{id, error}` for an item that failed. */
export const wcBatchResponseSchema = z.looseObject({
  create: z.array(z.unknown()).optional(),
  update: z.array(z.unknown()).optional(),
  delete: z.array(z.unknown()).optional(),
});
export const wcBatchErrorItemSchema = z.looseObject({ id: z.number(), error: wcErrorSchema });

export const wcSettingSchema = z.looseObject({ id: z.string(), value: z.unknown(), label: text });
export type WcSetting = z.infer<typeof wcSettingSchema>;

export const wcSystemStatusSchema = z.looseObject({
  environment: z.looseObject({ home_url: text, site_url: text, version: text }).catch({
    home_url: '',
    site_url: '',
    version: '',
  }),
  settings: z.looseObject({ currency: text }).catch({ currency: '' }),
});

export const wpRootSchema = z.looseObject({
  name: text,
  home: text,
  namespaces: z.array(z.string()).catch([]),
});

export const anyJson = z.unknown();

/** A record asked for with `_fields=id`. */
export const wcIdSchema = z.object({ id: z.number() });

const ids = z.array(looseId).catch([]);

/** A coupon (GET coupons, `context=edit`); its code is stored lower case. */
export const wcCouponSchema = z.looseObject({
  id,
  code: text,
  amount: decimal,
  status: text,
  date_created_gmt: z.string().nullish(),
  discount_type: text,
  description: text,
  date_expires_gmt: z.string().nullish(),
  usage_count: count,
  individual_use: flag,
  product_ids: ids,
  excluded_product_ids: ids,
  usage_limit: count,
  usage_limit_per_user: count,
  limit_usage_to_x_items: count,
  free_shipping: flag,
  product_categories: ids,
  excluded_product_categories: ids,
  exclude_sale_items: flag,
  minimum_amount: decimal,
  maximum_amount: decimal,
  // PHP answers a list it dropped an entry from (an address WordPress's sanitize_email emptied)
  // as an object keyed by position.
  email_restrictions: z
    .union([z.array(z.string()), z.record(z.string(), z.string()).transform(Object.values)])
    .catch([]),
  meta_data: meta,
});
export type WcCoupon = z.infer<typeof wcCouponSchema>;

/** A product review (`context=edit`: the text as saved, the name HTML-escaped). */
export const wcReviewSchema = z.looseObject({
  id,
  date_created_gmt: z.string().nullish(),
  product_id: looseId,
  status: text,
  reviewer: text,
  reviewer_email: text,
  review: text,
  // The store answers (int) of what it was given; a rating it was never given is 0.
  rating: z
    .union([z.number(), z.string()])
    .nullish()
    .transform((v) => Number(v ?? 0) || 0),
  verified: flag,
});
export type WcReview = z.infer<typeof wcReviewSchema>;
