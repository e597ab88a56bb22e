import { z } from 'zod';

/**
 * WooCommerce's answers as the connector relies on them (parse at the boundary). Shapes follow the
 * resource schemas of wc-v3-index.woocommerce-11.0.1.json; only the fields the mapping reads are
 * declared and the rest pass through. Where real stores differ from the schema (null images,
 * null stock, numbers sent as strings) the schema here accepts what stores really send.
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

export const wcMetaSchema = z.looseObject({
  id: z.number().int().optional(),
  key: z.string(),
  value: z.unknown(),
});
export type WcMeta = z.infer<typeof wcMetaSchema>;
const meta = z.array(wcMetaSchema).catch([]);

export const wcImageSchema = z.looseObject({
  id: id.optional(),
  src: z.string(),
  name: text,
  alt: text,
});
export type WcImage = z.infer<typeof wcImageSchema>;

const termRef = z.looseObject({ id, name: text, slug: text });
const dimensions = z
  .looseObject({ length: text, width: text, height: text })
  .catch({ length: '', width: '', height: '' });

export const wcProductSchema = z.looseObject({
  id,
  name: text,
  slug: text,
  permalink: text,
  date_created_gmt: z.string().nullish(),
  date_modified_gmt: z.string().nullish(),
  type: z.string(),
  status: z.string(),
  description: text,
  short_description: text,
  sku: text,
  global_unique_id: text,
  price: decimal,
  regular_price: decimal,
  sale_price: decimal,
  manage_stock: z.union([z.boolean(), z.string()]).catch(false),
  stock_quantity: z.number().nullish(),
  weight: text,
  dimensions,
  categories: z.array(termRef).catch([]),
  tags: z.array(termRef).catch([]),
  brands: z.array(termRef).catch([]),
  images: z.array(wcImageSchema).catch([]),
  attributes: z
    .array(
      z.looseObject({
        id: id.catch(0),
        name: text,
        position: z.number().catch(0),
        visible: z.boolean().catch(false),
        variation: z.boolean().catch(false),
        options: z.array(z.string()).catch([]),
      }),
    )
    .catch([]),
  variations: z.array(id).catch([]),
  meta_data: meta,
});
export type WcProduct = z.infer<typeof wcProductSchema>;

export const wcVariationSchema = z.looseObject({
  id,
  sku: text,
  description: text,
  dimensions,
  global_unique_id: text,
  price: decimal,
  regular_price: decimal,
  sale_price: decimal,
  manage_stock: z.union([z.boolean(), z.string()]).catch(false),
  stock_quantity: z.number().nullish(),
  weight: text,
  image: wcImageSchema.nullish().catch(null),
  attributes: z.array(z.looseObject({ id: id.catch(0), name: text, option: text })).catch([]),
  menu_order: z.number().catch(0),
  meta_data: meta,
});
export type WcVariation = z.infer<typeof wcVariationSchema>;

export const wcTermSchema = z.looseObject({
  id,
  name: text,
  slug: text,
  parent: z.number().int().catch(0),
  description: text,
  image: wcImageSchema.nullish().catch(null),
  menu_order: z.number().int().catch(0),
  count: z.number().int().catch(0),
});
export type WcTerm = z.infer<typeof wcTermSchema>;

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
  role: text,
  date_created_gmt: z.string().nullish(),
  billing: address.catch(emptyAddress),
  shipping: address.catch(emptyAddress),
  meta_data: meta,
});
export type WcCustomer = z.infer<typeof wcCustomerSchema>;

const lineMeta = z.array(wcMetaSchema).catch([]);

export const wcOrderSchema = z.looseObject({
  id,
  number: z.union([z.string(), z.number()]).transform(String),
  status: z.string(),
  currency: z.string(),
  created_via: text,
  date_created_gmt: z.string().nullish(),
  date_modified_gmt: z.string().nullish(),
  date_paid_gmt: z.string().nullish(),
  date_completed_gmt: z.string().nullish(),
  customer_id: z.number().int().catch(0),
  customer_note: text,
  billing: address.catch(emptyAddress),
  shipping: address.catch(emptyAddress),
  discount_total: decimal,
  shipping_total: decimal,
  total: decimal,
  total_tax: decimal,
  line_items: z
    .array(
      z.looseObject({
        id,
        name: text,
        product_id: z
          .union([z.number(), z.string()])
          .nullish()
          .transform((v) => Number(v ?? 0) || 0),
        variation_id: z
          .number()
          .nullish()
          .transform((v) => v ?? 0),
        quantity: z.number(),
        subtotal: decimal,
        total: decimal,
        total_tax: decimal,
        sku: text,
        meta_data: lineMeta,
      }),
    )
    .catch([]),
  shipping_lines: z
    .array(
      z.looseObject({
        id,
        method_title: text,
        method_id: text,
        total: decimal,
        total_tax: decimal,
        meta_data: lineMeta,
      }),
    )
    .catch([]),
  fee_lines: z
    .array(z.looseObject({ id, name: text, total: decimal, meta_data: lineMeta }))
    .catch([]),
  coupon_lines: z
    .array(z.looseObject({ id, code: text, discount: decimal, meta_data: lineMeta }))
    .catch([]),
  refunds: z.array(z.looseObject({ id, total: decimal })).catch([]),
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
