import { z } from 'zod';

/**
 * The parts of Magento's REST payloads this connector reads, named as in admin-schema-2.4.9.yaml
 * definitions. Loose objects: Magento answers with many more fields (and extensions add their
 * own), which are kept out of the way rather than refused.
 */

const num = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);
const int = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number),
]);
const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '');

export const customAttributeSchema = z.looseObject({
  attribute_code: z.string(),
  value: z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()])), z.null()]),
});
export type CustomAttribute = z.infer<typeof customAttributeSchema>;

/** store-data-store-config-interface */
export const storeConfigSchema = z.looseObject({
  id: int,
  code: z.string(),
  base_currency_code: z.string(),
  weight_unit: z.string(),
  base_url: z.string(),
  base_media_url: z.string(),
  secure_base_media_url: z.string().optional(),
});
export type StoreConfig = z.infer<typeof storeConfigSchema>;

export const storeGroupSchema = z.looseObject({
  id: int,
  name: z.string(),
  root_category_id: int,
  default_store_id: int,
});

export const storeViewSchema = z.looseObject({
  id: int,
  code: z.string(),
  name: z.string(),
  store_group_id: int,
});

/** catalog-data-category-interface */
export const categorySchema = z.looseObject({
  id: int,
  parent_id: int,
  name: z.string(),
  is_active: z.boolean().optional(),
  position: int,
  level: int,
  path: z.string().optional(),
  custom_attributes: z.array(customAttributeSchema).optional(),
});
export type MagentoCategory = z.infer<typeof categorySchema>;

export const mediaEntrySchema = z.looseObject({
  id: int,
  media_type: z.string(),
  label: text,
  position: int.nullish(),
  disabled: z.boolean().optional(),
  types: z.array(z.string()),
  file: z.string(),
});
export type MediaEntry = z.infer<typeof mediaEntrySchema>;

export const configurableOptionSchema = z.looseObject({
  id: int.optional(),
  attribute_id: z.union([z.string(), z.number()]).transform(String),
  label: text,
  position: int.nullish(),
  values: z.array(z.looseObject({ value_index: int })),
});
export type ConfigurableOption = z.infer<typeof configurableOptionSchema>;

export const stockItemSchema = z.looseObject({
  qty: num.nullish(),
  is_in_stock: z.boolean().optional(),
  manage_stock: z.boolean().optional(),
  use_config_manage_stock: z.boolean().optional(),
});

/** catalog-data-product-interface */
export const productSchema = z.looseObject({
  id: int,
  sku: z.string(),
  name: z.string().nullish(),
  price: num.nullish(),
  status: int.nullish(),
  visibility: int.nullish(),
  type_id: z.string(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  weight: num.nullish(),
  extension_attributes: z
    .looseObject({
      website_ids: z.array(int).optional(),
      category_links: z
        .array(
          z.looseObject({
            category_id: z.union([z.string(), z.number()]).transform(String),
            position: int.nullish(),
          }),
        )
        .optional(),
      stock_item: stockItemSchema.optional(),
      configurable_product_options: z.array(configurableOptionSchema).optional(),
      configurable_product_links: z.array(int).optional(),
    })
    .optional(),
  media_gallery_entries: z.array(mediaEntrySchema).nullish(),
  custom_attributes: z.array(customAttributeSchema).optional(),
});
export type MagentoProduct = z.infer<typeof productSchema>;

export const attributeOptionSchema = z.looseObject({
  label: z.union([z.string(), z.number()]).transform(String),
  value: z.union([z.string(), z.number()]).transform(String),
});

/** catalog-data-product-attribute-interface */
export const attributeSchema = z.looseObject({
  attribute_id: int,
  attribute_code: z.string(),
  frontend_input: z.string().nullish(),
  default_frontend_label: z.string().nullish(),
  is_user_defined: z.boolean().optional(),
  is_visible_on_front: z.union([z.string(), z.boolean()]).optional(),
  scope: z.string().optional(),
  options: z.array(attributeOptionSchema).optional(),
});
export type MagentoAttribute = z.infer<typeof attributeSchema>;

export const attributeSetSchema = z.looseObject({
  attribute_set_id: int,
  attribute_set_name: z.string(),
});

export const attributeGroupSchema = z.looseObject({
  attribute_group_id: z.union([z.string(), z.number()]).transform(Number),
  attribute_group_name: z.string(),
  attribute_set_id: int,
});

/** customer-data-group-interface */
export const customerGroupSchema = z.looseObject({
  id: int,
  code: z.string(),
  tax_class_id: int.optional(),
});

/** tax-data-tax-class-interface */
export const taxClassSchema = z.looseObject({
  class_id: int,
  class_name: z.string(),
  class_type: z.string(),
});

/** customer-data-attribute-metadata-interface */
export const customerAttributeSchema = z.looseObject({
  attribute_code: z.string(),
  frontend_input: z.string().optional(),
});

/** customer-data-region-interface */
const regionSchema = z.looseObject({
  region_code: z.string().nullish(),
  region: z.string().nullish(),
  region_id: int.nullish(),
});

/** customer-data-address-interface */
export const customerAddressSchema = z.looseObject({
  id: int.optional(),
  region: regionSchema.nullish(),
  region_id: int.nullish(),
  country_id: text,
  street: z.array(z.string()).nullish(),
  company: text,
  telephone: text,
  postcode: text,
  city: text,
  firstname: text,
  lastname: text,
  default_billing: z.boolean().optional(),
  default_shipping: z.boolean().optional(),
});
export type MagentoCustomerAddress = z.infer<typeof customerAddressSchema>;

/** customer-data-customer-interface */
export const customerSchema = z.looseObject({
  id: int,
  email: z.string(),
  firstname: text,
  lastname: text,
  created_at: z.string().nullish(),
  created_in: z.string().nullish(),
  default_billing: z.union([z.string(), z.number()]).nullish(),
  default_shipping: z.union([z.string(), z.number()]).nullish(),
  addresses: z.array(customerAddressSchema).optional(),
  extension_attributes: z.looseObject({ is_subscribed: z.boolean().optional() }).optional(),
});
export type MagentoCustomer = z.infer<typeof customerSchema>;

/** sales-data-order-address-interface */
export const orderAddressSchema = z.looseObject({
  address_type: z.string().nullish(),
  firstname: text,
  lastname: text,
  company: text,
  street: z.array(z.string()).nullish(),
  city: text,
  region: text,
  region_code: text,
  postcode: text,
  country_id: text,
  telephone: text,
});
export type MagentoOrderAddress = z.infer<typeof orderAddressSchema>;

/** sales-data-order-item-interface */
export const orderItemSchema = z.looseObject({
  item_id: int,
  parent_item_id: int.nullish(),
  product_id: int.nullish(),
  product_type: z.string().nullish(),
  sku: z.string(),
  name: text,
  qty_ordered: num.nullish(),
  qty_shipped: num.nullish(),
  price: num.nullish(),
  row_total: num.nullish(),
  tax_amount: num.nullish(),
  discount_amount: num.nullish(),
});
export type MagentoOrderItem = z.infer<typeof orderItemSchema>;

/** sales-data-order-interface */
export const orderSchema = z.looseObject({
  entity_id: int,
  increment_id: z.string(),
  ext_order_id: z.string().nullish(),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  state: z.string().nullish(),
  status: z.string().nullish(),
  customer_id: int.nullish(),
  customer_is_guest: int.nullish(),
  customer_email: text,
  customer_note: text,
  order_currency_code: z.string().nullish(),
  base_currency_code: z.string().nullish(),
  subtotal: num.nullish(),
  tax_amount: num.nullish(),
  shipping_amount: num.nullish(),
  shipping_tax_amount: num.nullish(),
  shipping_description: text,
  discount_amount: num.nullish(),
  discount_description: text,
  coupon_code: text,
  grand_total: num,
  total_paid: num.nullish(),
  total_refunded: num.nullish(),
  total_canceled: num.nullish(),
  items: z.array(orderItemSchema),
  billing_address: orderAddressSchema.nullish(),
  payment: z
    .looseObject({ method: z.string().nullish(), amount_authorized: num.nullish() })
    .nullish(),
  extension_attributes: z
    .looseObject({
      shipping_assignments: z
        .array(
          z.looseObject({
            shipping: z
              .looseObject({
                address: orderAddressSchema.nullish(),
                method: z.string().nullish(),
              })
              .nullish(),
          }),
        )
        .optional(),
    })
    .optional(),
});
export type MagentoOrder = z.infer<typeof orderSchema>;

/** The `{items, search_criteria, total_count}` answer of every searchCriteria list. */
export function searchResults<T extends z.ZodType>(item: T) {
  return z.looseObject({
    items: z
      .array(item)
      .nullish()
      .transform((v) => v ?? []),
    total_count: int,
  });
}

export const countrySchema = z.looseObject({
  id: z.string(),
  available_regions: z
    .array(
      z.looseObject({
        id: z.union([z.string(), z.number()]).transform(Number),
        code: z.string(),
        name: z.string(),
      }),
    )
    .optional(),
});

/** Async bulk acceptance: `{bulk_uuid, request_items, errors}` (limits.json magento2.async_bulk). */
export const bulkAcceptedSchema = z.looseObject({
  bulk_uuid: z.string(),
  request_items: z.array(
    z.looseObject({
      id: int,
      data_hash: z.string().nullish(),
      status: z.string(),
      error_message: z.string().nullish(),
    }),
  ),
  errors: z.boolean(),
});

/** asynchronous-operations-data-detailed-bulk-operations-status-interface */
export const bulkDetailedStatusSchema = z.looseObject({
  bulk_id: z.string(),
  operation_count: int,
  operations_list: z.array(
    z.looseObject({
      id: int,
      status: int,
      result_message: z.string().nullish(),
      result_serialized_data: z.string().nullish(),
      error_code: int.nullish(),
    }),
  ),
});

export const anyJson = z.unknown();
export const idAnswer = z.union([z.number(), z.string()]);
export const booleanAnswer = z.boolean();
