import type { EntityType } from '@replatform/canonical/entities';
import {
  asBigCommerceKeeps,
  hiddenAsDraft,
  asOrderSource,
  buyerEmailOnBilling,
  digitalAsBoth,
  notesInStaffNotes,
  notesKept,
  weightOfOneVariant,
} from './comparable.ts';
import type { DestinationFields, NativeCatalogue, SourceField } from '../kit/fields.ts';
import { reviewTextAsKept, reviewTitleAsWritten, toTheSecond } from './map-review.ts';
import {
  brandExtras,
  categoryExtras,
  couponExtras,
  customerExtras,
  orderExtras,
  productExtras,
  variantExtras,
  webPageExtras,
  type Extra,
} from './extras.ts';

/**
 * What a migration does with each of BigCommerce's own fields (kit/fields.ts), as the native
 * records of native.ts hold them, and which canonical fields a BigCommerce destination cannot
 * hold. docs/fidelity.md is generated from these tables.
 */

const kept = (path: string): SourceField => ({
  converted: path,
  how: `kept as a custom field (namespace bigcommerce_fields) that a BigCommerce destination writes back to this field.`,
});

const extrasOf = (extras: readonly Extra[], prefix: string, path: string) =>
  Object.fromEntries(extras.map((e) => [`${prefix}${e.field}`, kept(path)]));

/** The fields of a metafield list (products, variants, categories, customers). */
function metafieldFields(prefix: string, path: string): Record<string, SourceField> {
  const assigned = (why: string): SourceField => ({ assigned: why });
  return {
    [prefix]: {
      converted: path,
      how: "a BigCommerce metafield of namespace 'ns' is the custom field 'bigcommerce.ns'.",
      unordered: true,
    },
    [`${prefix}[].id`]: assigned('BigCommerce numbers metafields itself'),
    [`${prefix}[].resource_id`]: assigned('the record the metafield belongs to'),
    [`${prefix}[].resource_type`]: assigned('the kind of record the metafield belongs to'),
    [`${prefix}[].date_created`]: assigned('BigCommerce stamps when a metafield is made'),
    [`${prefix}[].date_modified`]: assigned('BigCommerce stamps when a metafield is changed'),
    [`${prefix}[].owner_client_id`]: assigned('the app that wrote the metafield'),
    [`${prefix}[].permission_set`]: {
      converted: path,
      how: "who may read it is kept (in the custom field 'metafield_permissions' when it is not 'write').",
    },
    [`${prefix}[].description`]: {
      converted: path,
      how: "kept in the custom field 'metafield_descriptions'.",
    },
  };
}

const assigned = (why: string): SourceField => ({ assigned: why });
const notCarried = (why: string): SourceField => ({ notCarried: why });

const productFields: Record<string, SourceField> = {
  ...extrasOf(productExtras, '', 'metafields'),
  id: assigned('BigCommerce numbers products itself'),
  name: { carried: 'name' },
  type: {
    converted: ['variants.virtual', 'variants.downloadable'],
    how: 'a digital product is read as a virtual, downloadable item (its files are not in the catalogue API).',
  },
  sku: { carried: ['sku', 'variants.sku'] },
  description: { carried: 'descriptionHtml' },
  weight: { carried: ['weight', 'variants.weight'] },
  width: { converted: 'dimensions', how: "in the store's length unit." },
  depth: { converted: 'dimensions', how: "read as the length, in the store's length unit." },
  height: { converted: 'dimensions', how: "in the store's length unit." },
  price: {
    converted: 'variants.price',
    how: "the regular price; a variant without a price of its own has the product's.",
  },
  sale_price: {
    converted: 'variants.salePrice',
    how: "a sale price above 0; a variant without one of its own has the product's.",
  },
  calculated_price: assigned('derived by BigCommerce from the price and the sale price'),
  tax_class_id: {
    converted: 'taxClass',
    how: "BigCommerce's tax class id ('' for the default class, 0).",
  },
  categories: { carried: 'categoryIds', ref: 'categories', unordered: true },
  brand_id: { converted: 'vendor', how: "the brand's name." },
  option_set_id: assigned('the option set of the legacy catalogue, set by BigCommerce'),
  option_set_display: assigned('a setting of the legacy option sets, set by BigCommerce'),
  base_variant_id: assigned(
    'the id BigCommerce gives the one variant of a product without options',
  ),
  inventory_level: {
    converted: ['variants.inventory.quantity', 'metafields'],
    how: 'the stock of a product counted as a whole; of a product counted by variant, the sum BigCommerce derives.',
  },
  inventory_warning_level: {
    converted: ['variants.inventory.lowStockThreshold', 'metafields'],
    how: '0 means no warning level.',
  },
  inventory_tracking: {
    converted: ['variants.inventory.tracked', 'metafields'],
    how: 'none, by product or by variant.',
  },
  reviews_rating_sum: assigned('summed by BigCommerce from its reviews'),
  reviews_count: assigned('counted by BigCommerce from its reviews'),
  total_sold: assigned('counted by BigCommerce from its orders'),
  view_count: assigned('counted by BigCommerce'),
  is_visible: {
    converted: 'status',
    how: 'a hidden product is read as a draft, or as archived when it is not for sale either.',
  },
  is_featured: { carried: 'featured' },
  related_products: {
    converted: ['upsellIds', 'metafields'],
    how: 'related products are read as up-sells; -1 (BigCommerce chooses them) as none, and an empty list is kept as a custom field.',
    ref: 'products',
    unordered: true,
  },
  upc: {
    converted: ['variants.barcode', 'metafields'],
    how: 'the barcode when the product has no GTIN; also kept as a custom field.',
  },
  gtin: { converted: 'variants.barcode', how: 'read as the barcode.' },
  search_keywords: { converted: 'tags', how: 'comma-separated keywords read as tags.' },
  availability: {
    converted: ['status', 'variants.inventory.stockStatus', 'metafields'],
    how: "'preorder' reads as on backorder and 'disabled' on a hidden product as archived; other values are kept as a custom field.",
  },
  gift_wrapping_options_list: notCarried(
    "gift wrapping options are the store's own (chosen by id in its settings); a migration does not bring them",
  ),
  sort_order: { carried: 'menuOrder' },
  order_quantity_maximum: {
    converted: ['soldIndividually', 'metafields'],
    how: 'a limit of 1 reads as sold individually; other limits are kept as a custom field.',
  },
  page_title: { carried: 'seoTitle' },
  meta_description: { carried: 'seoDescription' },
  date_created: { carried: 'createdAt' },
  date_modified: { carried: 'updatedAt' },
  date_last_imported: assigned(
    'BigCommerce stamps when its product import last changed the product',
  ),
  custom_url: {
    converted: ['slug', 'sourceUrlPath'],
    how: 'the storefront path, and the slug as its last part.',
  },
  variants: { carried: 'variants' },
  'variants[].id': assigned('BigCommerce numbers variants itself'),
  'variants[].product_id': assigned('the product the variant belongs to'),
  'variants[].sku_id': assigned('BigCommerce numbers SKUs itself'),
  'variants[].sku': { carried: 'variants.sku' },
  'variants[].price': {
    converted: 'variants.price',
    how: "null (the product's price) is read as the product's price.",
  },
  'variants[].sale_price': {
    converted: 'variants.salePrice',
    how: "null (the product's sale price) is read as the product's.",
  },
  'variants[].calculated_price': assigned('derived by BigCommerce'),
  'variants[].calculated_weight': assigned('derived by BigCommerce'),
  'variants[].weight': { carried: 'variants.weight' },
  'variants[].width': { converted: 'variants.dimensions', how: 'the variant’s own package size.' },
  'variants[].height': { converted: 'variants.dimensions', how: 'the variant’s own package size.' },
  'variants[].depth': {
    converted: 'variants.dimensions',
    how: 'read as the length of the variant’s own package size.',
  },
  'variants[].inventory_level': { carried: 'variants.inventory.quantity' },
  'variants[].inventory_warning_level': {
    converted: 'variants.inventory.lowStockThreshold',
    how: '0 means no warning level.',
  },
  'variants[].purchasing_disabled': {
    converted: 'variants.status',
    how: 'a variant that is not for sale is read as private.',
  },
  'variants[].upc': {
    converted: ['variants.barcode', 'variants.metafields'],
    how: 'the barcode when the variant has no GTIN; also kept as a custom field.',
  },
  'variants[].gtin': { converted: 'variants.barcode', how: 'read as the barcode.' },
  'variants[].image_url': { carried: 'variants.imageUrl' },
  'variants[].option_values': {
    converted: 'variants.optionValues',
    how: 'the option names and values the variant has.',
  },
  'variants[].option_values[].id': assigned('BigCommerce numbers option values itself'),
  'variants[].option_values[].option_id': assigned('BigCommerce numbers options itself'),
  ...Object.fromEntries(
    variantExtras
      .filter((e) => e.field !== 'upc')
      .map((e) => [`variants[].${e.field}`, kept('variants.metafields')]),
  ),
  ...metafieldFields('variants[].metafields', 'variants.metafields'),
  images: { converted: 'images', how: 'the thumbnail first, then by sort order.' },
  'images[].id': assigned('BigCommerce numbers images itself'),
  'images[].product_id': assigned('the product the image belongs to'),
  'images[].image_file': assigned('the file name BigCommerce gives its copy of the image'),
  'images[].url_zoom': { carried: 'images.url' },
  'images[].url_standard': assigned('a size BigCommerce makes of the image'),
  'images[].url_thumbnail': assigned('a size BigCommerce makes of the image'),
  'images[].url_tiny': assigned('a size BigCommerce makes of the image'),
  'images[].date_modified': assigned('BigCommerce stamps when an image is changed'),
  'images[].description': { carried: 'images.alt' },
  'images[].is_thumbnail': {
    converted: 'images.position',
    how: 'the thumbnail is the first image.',
  },
  'images[].sort_order': { converted: 'images.position', how: 'the gallery order.' },
  custom_fields: {
    converted: 'attributes',
    how: 'each name is an attribute shown on the product page; fields of the same name give it several values.',
  },
  'custom_fields[].id': assigned('BigCommerce numbers custom fields itself'),
  options: {
    converted: ['options', 'defaultOptionValues', 'metafields'],
    how: "the options in their order with their values in theirs; the preselected values as the defaults; a display type other than 'rectangles' and swatch data are kept as custom fields.",
  },
  'options[].id': assigned('BigCommerce numbers options itself'),
  'options[].product_id': assigned('the product the option belongs to'),
  'options[].option_values[].id': assigned('BigCommerce numbers option values itself'),
  'options[].config': notCarried(
    'settings of option types that make no variant (text, date, file limits), which variant options do not use',
  ),
  modifiers: notCarried(
    'modifiers (a text, a choice or a file the shopper adds without making a variant) are not part of the catalogue API a migration writes',
  ),
  bulk_pricing_rules: kept('metafields'),
  'bulk_pricing_rules[].id': assigned('BigCommerce numbers pricing rules itself'),
  videos: kept('metafields'),
  'videos[].id': assigned('BigCommerce numbers videos itself'),
  'videos[].product_id': assigned('the product the video belongs to'),
  'videos[].length': assigned('read by BigCommerce from YouTube'),
  ...metafieldFields('metafields', 'metafields'),
};

const categoryFields: Record<string, SourceField> = {
  ...extrasOf(categoryExtras, '', 'metafields'),
  category_id: assigned('BigCommerce numbers categories itself'),
  category_uuid: assigned('BigCommerce gives each category a UUID of its own'),
  parent_id: { carried: 'parentId', ref: 'categories' },
  tree_id: assigned("the destination storefront's category tree"),
  name: { carried: 'name' },
  description: { carried: 'description' },
  views: assigned('counted by BigCommerce'),
  sort_order: { carried: 'position' },
  page_title: { carried: 'seoTitle' },
  meta_description: { carried: 'seoDescription' },
  image_url: { carried: 'imageUrl' },
  url: {
    converted: ['slug', 'sourceUrlPath'],
    how: 'the storefront path, and the slug as its last part.',
  },
  ...metafieldFields('metafields', 'metafields'),
};

const brandFields: Record<string, SourceField> = {
  ...extrasOf(brandExtras, '', 'metafields'),
  id: assigned('BigCommerce numbers brands itself'),
  name: { carried: 'name' },
  page_title: { carried: 'seoTitle' },
  meta_keywords: {
    converted: 'seoKeywords',
    how: 'in their order; empty keywords are left out.',
    meaning: (value) => (Array.isArray(value) ? value.filter((k) => k !== '') : value),
  },
  meta_description: { carried: 'seoDescription' },
  search_keywords: { carried: 'searchKeywords' },
  image_url: { carried: 'imageUrl' },
  custom_url: {
    converted: ['slug', 'sourceUrlPath'],
    how: "the storefront path of the brand's page, and the slug as its last part (without .html).",
  },
  ...metafieldFields('metafields', 'metafields'),
};

const customerFields: Record<string, SourceField> = {
  ...extrasOf(customerExtras, '', 'metafields'),
  id: assigned('BigCommerce numbers customers itself'),
  email: { converted: 'email', how: 'lower-cased.' },
  first_name: { carried: 'firstName' },
  last_name: { carried: 'lastName' },
  phone: { carried: 'phone' },
  notes: { carried: 'note' },
  customer_group_id: {
    converted: 'group',
    how: "the group's id (the customers API does not name groups).",
  },
  date_created: { carried: 'createdAt' },
  date_modified: assigned('BigCommerce stamps when a customer is changed'),
  address_count: assigned('counted by BigCommerce'),
  attribute_count: assigned('counted by BigCommerce'),
  authentication: assigned(
    'set by the migration: passwords never travel, so an imported customer chooses a new one at the first sign-in',
  ),
  accepts_product_review_abandoned_cart_emails: { carried: 'acceptsMarketing' },
  origin_channel_id: notCarried(
    "sales channels are the store's own: a migrated customer belongs to the destination's default storefront",
  ),
  channel_ids: notCarried(
    "sales channels are the store's own: a migrated customer belongs to the destination's default storefront",
  ),
  addresses: {
    converted: 'addresses',
    how: 'in their order; the first is read as the default billing and shipping address.',
  },
  'addresses[].id': assigned('BigCommerce numbers addresses itself'),
  'addresses[].customer_id': assigned('the customer the address belongs to'),
  'addresses[].first_name': { carried: 'addresses.firstName' },
  'addresses[].last_name': { carried: 'addresses.lastName' },
  'addresses[].company': { carried: 'addresses.company' },
  'addresses[].address1': { carried: 'addresses.address1' },
  'addresses[].address2': { carried: 'addresses.address2' },
  'addresses[].city': { carried: 'addresses.city' },
  'addresses[].state_or_province': { carried: 'addresses.province' },
  'addresses[].postal_code': { carried: 'addresses.postalCode' },
  'addresses[].country_code': { carried: 'addresses.countryCode' },
  'addresses[].country': assigned("the country's name, derived from its code"),
  'addresses[].phone': { carried: 'addresses.phone' },
  'addresses[].address_type': notCarried(
    "the model has no address type: BigCommerce destinations mark an address with a company 'commercial', others 'residential'",
  ),
  'addresses[].form_fields': notCarried(
    "fields of the store's own address form, which the model's addresses have no place for",
  ),
  attributes: {
    converted: 'metafields',
    how: "each attribute is the custom field 'bigcommerce' / its name; a BigCommerce destination finds or creates the attribute by name.",
  },
  'attributes[].id': assigned('BigCommerce numbers attribute values itself'),
  'attributes[].customer_id': assigned('the customer the value belongs to'),
  'attributes[].date_created': assigned('BigCommerce stamps when a value is set'),
  'attributes[].date_modified': assigned('BigCommerce stamps when a value is changed'),
  form_fields: {
    converted: 'metafields',
    how: "each field of the store's sign-up form is the custom field 'bigcommerce_form_fields' / its name.",
  },
  'form_fields[].customer_id': assigned('the customer the value belongs to'),
  ...metafieldFields('metafields', 'metafields'),
};

const orderAddress = (prefix: string, path: string): Record<string, SourceField> => ({
  [`${prefix}.first_name`]: { carried: `${path}.firstName` },
  [`${prefix}.last_name`]: { carried: `${path}.lastName` },
  [`${prefix}.company`]: { carried: `${path}.company` },
  [`${prefix}.street_1`]: { carried: `${path}.address1` },
  [`${prefix}.street_2`]: { carried: `${path}.address2` },
  [`${prefix}.city`]: { carried: `${path}.city` },
  [`${prefix}.state`]: { carried: `${path}.province` },
  [`${prefix}.zip`]: { carried: `${path}.postalCode` },
  [`${prefix}.country_iso2`]: { carried: `${path}.countryCode` },
  [`${prefix}.country`]: assigned("the country's name, derived from its code"),
  [`${prefix}.phone`]: { carried: `${path}.phone` },
  [`${prefix}.email`]: { carried: `${path}.email` },
  [`${prefix}.form_fields`]: notCarried(
    "fields of the store's own checkout form, which the model's addresses have no place for",
  ),
});

const derived = assigned('derived by BigCommerce from the amounts it is made of');

const orderFields: Record<string, SourceField> = {
  ...extrasOf(orderExtras, '', 'metafields'),
  id: { converted: 'number', how: "BigCommerce's order id is its order number." },
  customer_id: { carried: 'customerId', ref: 'customers' },
  date_created: { carried: 'createdAt' },
  date_modified: { carried: 'updatedAt' },
  date_shipped: { converted: 'completedAt', how: 'the date the order was shipped in full.' },
  status_id: {
    converted: ['status', 'metafields'],
    how: 'mapped onto the model’s statuses (table in map-order.ts); a status that maps back to another id is kept as a custom field.',
  },
  status: derived,
  custom_status: assigned("the store's own label of the status"),
  cart_id: assigned('the checkout the order came from'),
  subtotal_ex_tax: { carried: 'subtotal' },
  subtotal_inc_tax: { converted: 'subtotal', how: "the subtotal plus the lines' tax." },
  subtotal_tax: derived,
  base_shipping_cost: {
    converted: ['shippingTotal', 'metafields'],
    how: 'kept as a custom field when it differs from the shipping cost.',
  },
  shipping_cost_ex_tax: { carried: 'shippingTotal' },
  shipping_cost_inc_tax: { converted: 'shippingLines.tax', how: 'the shipping cost plus its tax.' },
  shipping_cost_tax: { converted: 'shippingLines.tax', how: "the shipping lines' tax." },
  shipping_cost_tax_class_id: assigned("the store's tax class for shipping"),
  base_handling_cost: {
    converted: ['fees', 'metafields'],
    how: 'kept as a custom field when it differs from the handling cost.',
  },
  handling_cost_ex_tax: {
    converted: ['fees', 'metafields'],
    how: "read as the fee 'Handling' (marked as BigCommerce's handling cost).",
  },
  handling_cost_inc_tax: { converted: 'fees', how: "the handling fee's tax." },
  handling_cost_tax: derived,
  handling_cost_tax_class_id: assigned("the store's tax class for handling"),
  base_wrapping_cost: {
    converted: ['fees', 'metafields'],
    how: 'kept as a custom field when it differs from the wrapping cost.',
  },
  wrapping_cost_ex_tax: {
    converted: ['fees', 'metafields'],
    how: "read as the fee 'Gift wrapping' (marked as BigCommerce's wrapping cost).",
  },
  wrapping_cost_inc_tax: { converted: 'fees', how: "the wrapping fee's tax." },
  wrapping_cost_tax: derived,
  wrapping_cost_tax_class_id: assigned("the store's tax class for gift wrapping"),
  total_ex_tax: { converted: 'grandTotal', how: 'the grand total less the tax.' },
  total_inc_tax: { carried: 'grandTotal' },
  total_tax: { carried: 'taxTotal' },
  is_tax_inclusive_pricing: { carried: 'pricesIncludeTax' },
  items_total: derived,
  items_shipped: {
    converted: ['fulfillmentStatus', 'metafields'],
    how: 'none, some or all items shipped; a partial count is kept as a custom field.',
  },
  payment_method: { carried: 'paymentMethodTitle' },
  payment_provider_id: { carried: 'transactionId' },
  payment_status: { converted: 'paymentStatus', how: 'mapped onto the model’s payment states.' },
  refunded_amount: { carried: 'refundTotal' },
  store_credit_amount: notCarried(
    'the part paid with store credit: the model keeps what was paid, not how',
  ),
  gift_certificate_amount: notCarried(
    'the part paid with a gift certificate: the model keeps what was paid, not how',
  ),
  ip_address: { carried: 'customerIpAddress' },
  ip_address_v6: { converted: 'customerIpAddress', how: 'when the order has no IPv4 address.' },
  currency_id: assigned("BigCommerce's id of the order's display currency"),
  currency_code: { converted: 'currency', how: 'when the order names no transactional currency.' },
  currency_exchange_rate: assigned('set by BigCommerce (1 for orders made through the API)'),
  default_currency_id: assigned("BigCommerce's id of the order's currency"),
  default_currency_code: { carried: 'currency' },
  store_default_currency_code: assigned("the store's own currency"),
  store_default_to_transactional_exchange_rate: assigned('set by BigCommerce'),
  customer_message: { carried: 'note' },
  discount_amount: {
    converted: ['discounts', 'discountTotal'],
    how: 'a discount without a code.',
  },
  coupon_discount: derived,
  coupons: { converted: ['discounts', 'discountTotal'], how: 'one discount per coupon code.' },
  'coupons[].id': assigned('BigCommerce numbers order coupons itself'),
  'coupons[].coupon_id': assigned("the store's coupon"),
  'coupons[].order_id': assigned('the order the coupon belongs to'),
  'coupons[].code': { carried: 'discounts.code' },
  'coupons[].amount': { carried: 'discounts.amount' },
  'coupons[].discount': derived,
  'coupons[].type': assigned(
    "the kind of the store's coupon (amount or percentage off); the order keeps the amount it took off",
  ),
  shipping_address_count: derived,
  is_deleted: assigned('archived orders are not listed'),
  is_email_opt_in: notCarried(
    'the opt-in box ticked at checkout: the model keeps marketing consent on the customer',
  ),
  order_source: { converted: 'createdVia', how: 'as BigCommerce names it (www, manual, ...).' },
  channel_id: notCarried(
    "sales channels are the store's own: a migrated order belongs to the destination's default storefront",
  ),
  external_id: assigned('read-only: the order id of a marketplace the order came from'),
  external_source: notCarried(
    "the outside system that made the order: a migration marks the orders it imports with BigCommerce's code for historical orders (M-MIG) instead",
  ),
  tax_provider_id: assigned('set by BigCommerce from its tax settings'),
  ...orderAddress('billing_address', 'billingAddress'),
  'billing_address.email': { carried: ['email', 'billingAddress.email'] },
  fees: { converted: 'fees', how: 'each fee or credit by its name.' },
  'fees[].id': assigned('BigCommerce numbers fees itself'),
  'fees[].type': assigned("always 'custom_fee'"),
  'fees[].display_name_customer': { carried: 'fees.name' },
  'fees[].display_name_merchant': notCarried(
    'the name the merchant sees when it differs from the one the customer sees: the model keeps one name per fee',
  ),
  'fees[].source': assigned('which API created the fee'),
  'fees[].base_cost': derived,
  'fees[].cost_ex_tax': { carried: 'fees.amount' },
  'fees[].cost_inc_tax': { converted: 'fees.tax', how: 'the fee plus its tax.' },
  'fees[].cost_tax': { carried: 'fees.tax' },
  'fees[].tax_class_id': {
    converted: 'fees.taxClass',
    how: "the tax class id ('' for the store's fee class).",
  },
  products: { converted: 'lines', how: 'one line per order product, in their order.' },
  'products[].id': assigned('BigCommerce numbers order lines itself'),
  'products[].order_id': assigned('the order the line belongs to'),
  'products[].product_id': {
    converted: 'lines.productId',
    how: 'the product, or none when it has been deleted since.',
    ref: 'products',
  },
  'products[].variant_id': {
    converted: 'lines.variantId',
    how: 'the variant, or none when its product has been deleted since.',
    ref: 'variants',
  },
  'products[].order_address_id': assigned('the shipping address the line goes to'),
  'products[].name': { carried: 'lines.name' },
  'products[].name_customer': assigned('always equal to the name'),
  'products[].name_merchant': notCarried(
    'the name the merchant sees when it differs from the one the customer sees: the model keeps one name per line',
  ),
  'products[].sku': { carried: 'lines.sku' },
  'products[].upc': assigned('copied by BigCommerce from the ordered variant'),
  'products[].type': assigned('taken by BigCommerce from the ordered product'),
  'products[].base_price': derived,
  'products[].price_ex_tax': { carried: 'lines.unitPrice' },
  'products[].price_inc_tax': {
    converted: 'lines.tax',
    how: "the unit price plus the line's tax per unit.",
  },
  'products[].price_tax': derived,
  'products[].base_total': derived,
  'products[].total_ex_tax': { carried: 'lines.total' },
  'products[].total_inc_tax': derived,
  'products[].total_tax': { carried: 'lines.tax' },
  'products[].discounted_total_inc_tax': derived,
  'products[].applied_discounts': assigned(
    "BigCommerce spreads the order's discounts over its lines",
  ),
  'products[].weight': assigned('taken by BigCommerce from the ordered product'),
  'products[].width': assigned('taken by BigCommerce from the ordered product'),
  'products[].height': assigned('taken by BigCommerce from the ordered product'),
  'products[].depth': assigned('taken by BigCommerce from the ordered product'),
  'products[].brand': assigned('taken by BigCommerce from the ordered product'),
  'products[].bin_picking_number': assigned('taken by BigCommerce from the ordered variant'),
  'products[].option_set_id': assigned('the option set of the legacy catalogue'),
  'products[].quantity': { carried: 'lines.quantity' },
  'products[].quantity_shipped': {
    converted: 'fulfillmentStatus',
    how: "BigCommerce spreads the order's shipped items over its lines.",
  },
  'products[].base_cost_price': notCarried(
    "the line's cost price, which the model's order lines have no place for",
  ),
  'products[].cost_price_inc_tax': notCarried(
    "the line's cost price, which the model's order lines have no place for",
  ),
  'products[].cost_price_ex_tax': notCarried(
    "the line's cost price, which the model's order lines have no place for",
  ),
  'products[].cost_price_tax': notCarried(
    "the line's cost price, which the model's order lines have no place for",
  ),
  'products[].is_refunded': notCarried(
    'the orders API tells that a line was refunded, not the refund it belongs to (its date and amount)',
  ),
  'products[].quantity_refunded': notCarried(
    'the orders API tells how many units of a line were refunded, not the refund they belong to (its date and amount)',
  ),
  'products[].refund_amount': assigned('always 0 in the orders API'),
  'products[].return_id': notCarried(
    'the return the line belongs to: the model does not keep returns',
  ),
  'products[].wrapping_id': notCarried(
    "the gift wrapping chosen for the line, which the model's order lines have no place for",
  ),
  'products[].wrapping_name': notCarried(
    "the gift wrapping chosen for the line, which the model's order lines have no place for",
  ),
  'products[].wrapping_message': notCarried(
    "the gift message of the line, which the model's order lines have no place for",
  ),
  'products[].base_wrapping_cost': notCarried(
    "the gift wrapping cost of the line, which the model's order lines have no place for",
  ),
  'products[].wrapping_cost_ex_tax': notCarried(
    "the gift wrapping cost of the line, which the model's order lines have no place for",
  ),
  'products[].wrapping_cost_inc_tax': notCarried(
    "the gift wrapping cost of the line, which the model's order lines have no place for",
  ),
  'products[].wrapping_cost_tax': notCarried(
    "the gift wrapping cost of the line, which the model's order lines have no place for",
  ),
  'products[].event_name': notCarried(
    "the event date the shopper chose for the line, which the model's order lines have no place for",
  ),
  'products[].event_date': notCarried(
    "the event date the shopper chose for the line, which the model's order lines have no place for",
  ),
  'products[].fixed_shipping_cost': notCarried(
    'the fixed shipping cost of the product at the time',
  ),
  'products[].ebay_item_id': notCarried(
    'the eBay listing the line came from, which the model has no place for',
  ),
  'products[].ebay_transaction_id': notCarried(
    'the eBay sale the line came from, which the model has no place for',
  ),
  'products[].parent_order_product_id': notCarried(
    "the bundle the line was part of, which the model's order lines have no place for",
  ),
  'products[].is_bundled_product': notCarried(
    "the bundle the line was part of, which the model's order lines have no place for",
  ),
  'products[].external_id': notCarried(
    "the line's id in a marketplace the order came from, which the model has no place for",
  ),
  'products[].configurable_fields': notCarried(
    "files and texts the shopper gave for the line, which the model's order lines have no place for",
  ),
  'products[].gift_certificate_id': notCarried(
    'the gift certificate the line sold, which the model has no place for',
  ),
  'products[].product_options': {
    converted: 'lines.meta',
    how: 'each chosen option as name and value.',
  },
  'products[].product_options[].id': assigned('BigCommerce numbers line options itself'),
  'products[].product_options[].option_id': assigned("the product's option"),
  'products[].product_options[].order_product_id': assigned('the line the option belongs to'),
  'products[].product_options[].product_option_id': assigned("the product's option"),
  'products[].product_options[].value': assigned("the id of the option's value"),
  'products[].product_options[].display_name': { carried: 'lines.meta' },
  'products[].product_options[].display_name_customer': assigned('equal to the display name'),
  'products[].product_options[].display_name_merchant': assigned('equal to the display name'),
  'products[].product_options[].display_value': { carried: 'lines.meta' },
  'products[].product_options[].display_value_customer': assigned('equal to the display value'),
  'products[].product_options[].display_value_merchant': assigned('equal to the display value'),
  'products[].product_options[].name': assigned('equal to the display name'),
  'products[].product_options[].type': assigned("the kind of the product's option"),
  'products[].product_options[].display_style': assigned("the look of the product's option"),
  shipping_addresses: {
    converted: ['shippingAddress', 'shippingLines'],
    how: 'the first address is the shipping address; each address with a method or a cost is a shipping line.',
  },
  ...orderAddress('shipping_addresses[]', 'shippingAddress'),
  'shipping_addresses[].id': assigned('BigCommerce numbers shipping addresses itself'),
  'shipping_addresses[].order_id': assigned('the order the address belongs to'),
  'shipping_addresses[].items_total': derived,
  'shipping_addresses[].items_shipped': derived,
  'shipping_addresses[].shipping_method': { carried: 'shippingLines.title' },
  'shipping_addresses[].base_cost': derived,
  'shipping_addresses[].cost_ex_tax': { carried: 'shippingLines.price' },
  'shipping_addresses[].cost_inc_tax': {
    converted: 'shippingLines.tax',
    how: 'the cost plus its tax.',
  },
  'shipping_addresses[].cost_tax': { carried: 'shippingLines.tax' },
  'shipping_addresses[].cost_tax_class_id': assigned("the store's tax class for shipping"),
  'shipping_addresses[].base_handling_cost': derived,
  'shipping_addresses[].handling_cost_ex_tax': assigned("the share of the order's handling cost"),
  'shipping_addresses[].handling_cost_inc_tax': assigned("the share of the order's handling cost"),
  'shipping_addresses[].handling_cost_tax': derived,
  'shipping_addresses[].handling_cost_tax_class_id': assigned("the store's tax class for handling"),
  'shipping_addresses[].shipping_zone_id': assigned("the store's shipping zone"),
  'shipping_addresses[].shipping_zone_name': assigned("the store's shipping zone"),
  'shipping_addresses[].shipping_quotes': assigned('a link to the quotes of the address'),
};

/** marketing.v2.yml coupon_Full. */
const couponFields: Record<string, SourceField> = {
  ...extrasOf(couponExtras, '', 'metafields'),
  id: assigned('BigCommerce numbers coupons itself'),
  code: { carried: 'code' },
  name: {
    converted: 'description',
    how: "the coupon's name is its description; a name that is the code itself is no description.",
  },
  type: {
    converted: ['discountType', 'freeShipping'],
    how: "percentage_discount is 'percent', per_total_discount 'fixed_cart', per_item_discount 'fixed_product', free_shipping a 'fixed_cart' of 0 with free shipping; a shipping_discount or a promotion's coupon is not read (reported).",
  },
  amount: {
    converted: ['percentOff', 'amountOff'],
    how: "the percentage of a percentage discount, otherwise an amount in the store's currency.",
  },
  min_purchase: {
    converted: 'minimumSpend',
    how: "an amount in the store's currency; 0 is none.",
  },
  expires: { converted: 'expiresAt', how: 'an RFC 2822 date, read as ISO-8601; empty is never.' },
  enabled: { carried: 'enabled' },
  applies_to: {
    converted: ['productIds', 'categoryIds'],
    how: 'the products or the categories the coupon is limited to; categories [0] is the whole store.',
  },
  num_uses: { carried: 'usageCount' },
  max_uses: { converted: 'usageLimit', how: '0 is unlimited.' },
  max_uses_per_customer: { converted: 'usageLimitPerCustomer', how: '0 is unlimited.' },
  date_created: { carried: 'createdAt' },
};

/** products_catalog.v3.yml Product Review, with the product it belongs to. */
const reviewFields: Record<string, SourceField> = {
  id: assigned('BigCommerce numbers reviews itself'),
  product_id: { carried: 'productId', ref: 'products' },
  title: { carried: 'title' },
  text: {
    converted: 'body',
    how: 'plain text, read as HTML paragraphs (a blank line apart) with line breaks, escaped; runs of spaces read as one.',
  },
  status: {
    converted: 'status',
    how: "approved and pending are the same; disapproved is 'rejected'.",
  },
  rating: {
    converted: 'rating',
    how: '1 to 5 stars; 0 (BigCommerce takes 0 to 5) is a review given without stars: no rating (null), written back as 0.',
  },
  email: { carried: 'reviewerEmail' },
  name: {
    converted: 'reviewerName',
    how: 'a review without a name (BigCommerce shows it as anonymous) has no place in the model, which needs one, and is not read (reported).',
  },
  date_reviewed: {
    converted: 'createdAt',
    how: 'read as ISO-8601.',
    meaning: (value) => (typeof value === 'string' ? Date.parse(value) : value),
  },
  date_created: assigned('BigCommerce stamps the date a review is entered'),
  date_modified: assigned('BigCommerce stamps the date a review is changed'),
};

const pageFields: Record<string, SourceField> = {
  ...extrasOf(webPageExtras, '', 'metafields'),
  is_homepage: {
    converted: 'metafields',
    how: "kept as a custom field (namespace bigcommerce_fields); a BigCommerce destination does not make the page its home page, which would take the flag from the store's own.",
  },
  id: assigned('BigCommerce numbers pages itself'),
  name: { carried: 'title' },
  body: { carried: 'body' },
  url: {
    converted: ['slug', 'sourceUrlPath'],
    how: 'the storefront path, and the slug as its last part.',
  },
  parent_id: {
    converted: 'parentId',
    how: 'the parent page (0, none, is a top page).',
    ref: 'pages',
  },
  sort_order: {
    converted: 'position',
    how: 'the order among its siblings (a negative order reads as 0).',
  },
  is_visible: {
    converted: 'status',
    how: "a visible page is 'published', a hidden one 'draft'.",
  },
  meta_title: { carried: 'seoTitle' },
  meta_keywords: {
    converted: 'seoKeywords',
    how: 'the comma-separated keywords as a list, in their order; empty ones left out.',
    meaning: (value) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((k) => k.trim())
            .filter(Boolean)
        : value,
  },
  meta_description: { carried: 'seoDescription' },
  link: {
    notCarried:
      'only menu links have one, and a menu link is not read (it has no content): each is named in the report.',
  },
  content_type: assigned("BigCommerce's type of a raw page's body (text/html)"),
};

const postFields: Record<string, SourceField> = {
  id: assigned('BigCommerce numbers blog posts itself'),
  title: { carried: 'title' },
  body: { carried: 'body' },
  url: {
    converted: ['slug', 'sourceUrlPath'],
    how: 'the storefront path, and the slug as its last part.',
  },
  preview_url: assigned('the address BigCommerce previews the post at, its path'),
  tags: { carried: 'tags' },
  summary: {
    converted: 'excerpt',
    how: "BigCommerce's own summary, which it makes from the body (the API cannot set it).",
  },
  is_published: {
    converted: 'status',
    how: "a published post is 'published', an unpublished one 'draft'.",
  },
  published_date: {
    converted: 'publishedAt',
    how: 'as ISO-8601 (BigCommerce gives every post a date, a draft too).',
    meaning: (value) =>
      value && typeof value === 'object' && 'date' in value
        ? Date.parse(String((value as { date: unknown }).date))
        : value,
  },
  published_date_iso8601: {
    converted: 'publishedAt',
    how: 'the same date in ISO-8601.',
    meaning: (value) =>
      typeof value === 'string' ? Date.parse(value.replace(/([+-]\d\d)(\d\d)$/, '$1:$2')) : value,
  },
  meta_description: { carried: 'seoDescription' },
  meta_keywords: {
    converted: 'seoKeywords',
    how: 'the comma-separated keywords as a list, in their order; empty ones left out.',
    meaning: (value) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((k) => k.trim())
            .filter(Boolean)
        : value,
  },
  author: { carried: 'authorName' },
  thumbnail_path: {
    converted: 'featuredImageUrl',
    how: "the thumbnail's address: its /product_images/ path on the store's storefront.",
  },
};

export const bigCommerceNativeFields: NativeCatalogue = {
  categories: categoryFields,
  brands: brandFields,
  products: productFields,
  coupons: couponFields,
  customers: customerFields,
  orders: orderFields,
  reviews: reviewFields,
  pages: pageFields,
  posts: postFields,
};

/**
 * Native fields a BigCommerce store assigns itself when a record is written, left out when two
 * BigCommerce stores are compared (the conformance suite's 'native round trip').
 */
export const bigCommerceAssignedOnWrite: Partial<Record<EntityType, Record<string, string>>> = {
  categories: {
    image_url: 'BigCommerce downloads the image and serves its own copy',
  },
  brands: {
    image_url: 'BigCommerce downloads the logo and serves its own copy',
  },
  pages: {
    is_homepage:
      "a migrated page is not made the destination's home page, which would take the flag from the store's own",
  },
  posts: {
    summary: 'BigCommerce makes the summary from the body itself',
    thumbnail_path:
      "a thumbnail is a file uploaded to the store's /product_images/ folder by WebDAV, which the API cannot do",
  },
  products: {
    date_created: 'BigCommerce stamps the date a product is made and takes none',
    date_modified: 'BigCommerce stamps the date a product is changed',
    brand_id: 'BigCommerce numbers brands itself; the brand is found or created by its name',
    'images[].url_zoom': 'BigCommerce downloads each image and serves its own copy',
    'variants[].image_url': 'BigCommerce downloads each image and serves its own copy',
  },
  coupons: {
    date_created: 'BigCommerce stamps the date a coupon is made and takes none',
    num_uses: 'BigCommerce counts the uses of a coupon itself; a written coupon starts at 0',
    'applies_to.ids':
      "the ids of the destination's own products or categories, compared through the id map by the round trip (productIds, categoryIds)",
  },
  customers: {
    date_created: 'BigCommerce stamps the date a customer is made and takes none',
    customer_group_id:
      "customer groups are the store's own (with their prices and discounts); a migration does not put customers in one",
    'attributes[].attribute_id':
      'BigCommerce numbers attributes itself; the attribute is found or created by its name',
  },
  orders: {
    id: 'BigCommerce numbers orders itself and takes no order number',
    date_modified: 'BigCommerce stamps the date an order is changed',
    date_shipped: 'BigCommerce stamps the date an order is shipped in full',
    payment_status: 'set by BigCommerce from its own payment processing',
    is_tax_inclusive_pricing: "follows the destination store's tax settings",
    external_order_id:
      "the migration keeps the source order's id there when the order has no id of its own, to find it again on a second run",
    coupons:
      "an imported order takes no coupons: their amount is written as the order's discount and their codes are reported",
    'coupons[].code':
      "an imported order takes no coupons: their amount is written as the order's discount and their codes are reported",
    'coupons[].amount':
      "an imported order takes no coupons: their amount is written as the order's discount and their codes are reported",
    discount_amount:
      "an imported order has one discount amount: the coupons' and the manual discount together",
    'products[].product_id':
      'the line of a product deleted at the source is written as a custom line, without a product',
    'products[].variant_id':
      'the line of a product deleted at the source is written as a custom line, without a variant',
  },
};

/** Canonical fields a BigCommerce store cannot hold, or holds in another form. */
export const bigCommerceDestinationFields: Partial<Record<EntityType, DestinationFields>> = {
  categories: {
    comparable: { metafields: asBigCommerceKeeps },
    unsupported: {
      imageAlt: 'BigCommerce categories have no alternative text for their image.',
      imageTitle: 'BigCommerce category images have no title.',
      displayType:
        'BigCommerce category pages show what the theme shows; a category has no display setting.',
    },
    converted: {
      imageUrl: 'BigCommerce downloads the image and serves its own copy.',
      metafields:
        "Kept as category metafields; BigCommerce's own fields (namespace bigcommerce_fields) go back to their fields.",
    },
  },
  brands: {
    comparable: { metafields: asBigCommerceKeeps },
    unsupported: {
      parentId:
        'BigCommerce brands form a flat list: a brand has no parent (the brand is written at the top level).',
      description: 'BigCommerce brands have no description.',
      position: 'BigCommerce brands have no sort position: the storefront lists them by name.',
      imageAlt: 'BigCommerce brands have no alternative text for their logo.',
      displayType:
        'BigCommerce brand pages show what the theme shows; a brand has no display setting.',
    },
    converted: {
      imageUrl: 'BigCommerce downloads the logo and serves its own copy.',
      slug: "Written as the last part of the brand page's path (/brands/<slug>/ when the brand has no path of its own).",
      sourceUrlPath:
        "Written as the brand page's custom URL; a path BigCommerce does not take (or another brand has) is left to BigCommerce, which makes one from the name, named in the brand's report row.",
      metafields:
        "Kept as brand metafields; BigCommerce's own brand fields (namespace bigcommerce_fields) go back to their fields.",
    },
  },
  products: {
    comparable: {
      metafields: asBigCommerceKeeps,
      'variants.metafields': asBigCommerceKeeps,
      weight: weightOfOneVariant,
      variants: digitalAsBoth,
    },
    unsupported: {
      shortDescriptionHtml: 'BigCommerce products have one description.',
      'images.title': 'BigCommerce images have a description (the alternative text) but no title.',
      tagDefinitions:
        "BigCommerce keeps tags as search keywords: a tag's slug and description have no place.",
      sharedAttributes:
        "BigCommerce's catalogue API makes options per product: a store-wide attribute's settings, its values' descriptions and order, and the values no product uses have no place.",
      createdAt: 'BigCommerce stamps the date a product is made.',
      updatedAt: 'BigCommerce stamps the date a product is changed.',
      visibility:
        'BigCommerce shows a product both in its catalogue and in search results, or not at all.',
      taxStatus:
        'BigCommerce taxes a product by its tax class; a product cannot be marked untaxed on its own.',
      shippingClass: 'BigCommerce has no shipping classes: its shipping rules are set per zone.',
      reviewsAllowed: 'BigCommerce turns product reviews on or off for the whole store.',
      purchaseNote: 'BigCommerce has no note sent to the buyer after a purchase.',
      crossSellIds:
        'BigCommerce has one list of related products, which takes the up-sells; cross-sells have no place.',
      groupedProductIds:
        'BigCommerce has no grouped products: a grouped product is written as a product that cannot be bought, showing its members as related products.',
      externalUrl:
        'BigCommerce has no external products: such a product is written as one that cannot be bought, without the link to the other site.',
      buttonText: 'BigCommerce has no external products, so no text for their button.',
      'options.shared':
        "BigCommerce's catalogue API makes options per product; a store-wide attribute becomes each product's own option.",
      'attributes.shared':
        "BigCommerce's custom fields belong to each product; a store-wide attribute becomes each product's own field.",
      'variants.saleStartsAt':
        'BigCommerce sale prices have no schedule: a sale running now is written as the sale price, a future or past one is left out.',
      'variants.saleEndsAt':
        'BigCommerce sale prices have no schedule: a sale running now is written as the sale price, a future or past one is left out.',
      'variants.descriptionHtml': 'BigCommerce variants have no description of their own.',
      'variants.taxClass': "BigCommerce variants are taxed by their product's tax class.",
      'variants.shippingClass': 'BigCommerce has no shipping classes.',
      'variants.downloads':
        "BigCommerce's catalogue API cannot attach files to a digital product; they are added in the control panel.",
      'variants.downloadLimit': "BigCommerce's catalogue API has no download limit.",
      'variants.downloadExpiryDays': "BigCommerce's catalogue API has no download expiry.",
      'variants.inventory.backorders':
        'BigCommerce products have no backorder setting: selling out of stock is a store-wide inventory setting.',
    },
    converted: {
      'images.url': 'BigCommerce downloads each image (one copy per product) and serves its own.',
      'variants.imageUrl': 'BigCommerce downloads the image and serves its own copy.',
      tags: 'Written as the search keywords, comma-separated.',
      vendor: 'Written as the brand, found or created by its name.',
      attributes:
        'Written as custom fields, one per value, shown on the product page (BigCommerce shows every custom field).',
      'options.visible': 'BigCommerce shows every option on the product page.',
      'attributes.visible': 'BigCommerce shows every custom field on the product page.',
      'variants.virtual':
        'A virtual or downloadable item is written as a digital product, which is both.',
      'variants.downloadable':
        'A virtual or downloadable item is written as a digital product, which is both.',
      weight:
        "A product without options has one weight, its variant's; BigCommerce requires a weight, so a product with options and no weight of its own is written with 0, which reads as none.",
      'variants.status': 'A private variant is written as not for sale (purchasing disabled).',
      'variants.inventory.stockStatus':
        'BigCommerce derives it from the stock of tracked items; an item on backorder is written as a pre-order.',
      soldIndividually: 'Written as a purchase limit of one per order.',
      taxClass: "Written as BigCommerce's tax class id when it is one.",
      defaultOptionValues: "Written as the options' preselected values.",
      metafields:
        "Kept as product metafields; BigCommerce's own fields (namespace bigcommerce_fields) go back to their fields and 'bigcommerce' custom fields to custom fields.",
      'variants.metafields':
        "Kept as variant metafields; BigCommerce's own fields go back to their fields.",
      upsellIds: 'Written as related products.',
    },
  },
  coupons: {
    unsupported: {
      startsAt: 'BigCommerce coupons have no start date: the code works as soon as it is written.',
      maximumSpend: 'BigCommerce coupons have a minimum order value but no maximum.',
      excludedProductIds:
        'BigCommerce coupons cannot leave products out: they apply to the products or categories they name, or to the whole store.',
      excludedCategoryIds:
        'BigCommerce coupons cannot leave categories out: they apply to the products or categories they name, or to the whole store.',
      allowedEmails:
        'BigCommerce coupons cannot be limited to e-mail addresses: any customer can use the code.',
      individualUse:
        "BigCommerce coupons have no setting of their own for being used alone: whether codes combine is the store's setting.",
      excludeSaleItems: 'BigCommerce coupons have no setting to leave out items on sale.',
      itemLimit: 'BigCommerce coupons have no limit on how many items a per-item discount takes.',
      usageCount: 'BigCommerce counts the uses of a coupon itself: a written coupon starts at 0.',
      createdAt: 'BigCommerce stamps the date a coupon is made.',
    },
    converted: {
      description:
        "Written as the coupon's name, which BigCommerce requires and keeps unique (at most 100 characters): a coupon without a description is named by its code, and one whose name is taken gets its code appended.",
      freeShipping:
        "A coupon that only gives free shipping is BigCommerce's free-shipping coupon; a BigCommerce coupon gives a discount or free shipping, so one with both keeps its discount and the free shipping is reported.",
      productIds:
        'Written as the products the coupon applies to; a BigCommerce coupon applies to products or to categories, so a coupon limited to both is not written.',
      categoryIds: 'Written as the categories the coupon applies to.',
      metafields:
        "BigCommerce coupons have no custom fields: BigCommerce's own coupon fields (namespace bigcommerce_fields) go back to their fields, others are named in the report.",
    },
  },
  pages: {
    comparable: { metafields: asBigCommerceKeeps, status: hiddenAsDraft },
    unsupported: {
      excerpt: 'BigCommerce web pages have no excerpt.',
      publishedAt: 'BigCommerce web pages have no publishing date.',
      createdAt: 'BigCommerce web pages have no creation date.',
      updatedAt: 'BigCommerce web pages have no date of change.',
      authorName: 'BigCommerce web pages have no author.',
      featuredImageUrl: 'BigCommerce web pages have no featured image.',
      featuredImageAlt: 'BigCommerce web pages have no featured image, so no text for one.',
    },
    converted: {
      status:
        "BigCommerce pages are visible or hidden: 'published' is visible; 'draft', 'pending', 'private' and 'scheduled' are hidden (a scheduled page has no date to be shown at), named in the page's report row.",
      seoKeywords: 'Written as comma-separated meta keywords (a raw page has none).',
      slug: "Written as the last part of the page's path (/<slug>/ when the page has no path of its own).",
      sourceUrlPath:
        "Written as the page's path; a path BigCommerce does not take is left to BigCommerce, which makes one from the name, named in the page's report row.",
      parentId:
        "Written as the parent's copy; a page whose parent is not at the destination goes to the top level, named in its report row.",
      metafields:
        "BigCommerce web pages have no custom fields: BigCommerce's own page fields (namespace bigcommerce_fields: kind, channel, search keywords, home page, customers only, contact form) go back to their fields, others are named in the report.",
    },
  },
  posts: {
    comparable: { status: hiddenAsDraft },
    unsupported: {
      excerpt: 'BigCommerce makes the summary of a blog post from its body; the API cannot set it.',
      featuredImageUrl:
        "A BigCommerce blog post's thumbnail is a file uploaded to the store's /product_images/ folder by WebDAV, which the API cannot upload: the image is not written.",
      featuredImageAlt: 'BigCommerce blog post thumbnails have no alternative text.',
      seoTitle: 'BigCommerce blog posts have no SEO title: the storefront uses the title.',
      categories: 'BigCommerce blog posts have no categories (tags are kept).',
      blog: 'A BigCommerce store has one blog.',
      createdAt: 'BigCommerce blog posts have no creation date.',
      updatedAt: 'BigCommerce blog posts have no date of change.',
      metafields: 'BigCommerce blog posts have no custom fields.',
    },
    converted: {
      status:
        "BigCommerce posts are published or not: 'published' is published; 'draft', 'pending' and 'private' are unpublished, 'scheduled' unpublished with its date (BigCommerce publishes no post by itself), named in the post's report row.",
      publishedAt:
        'Written as the published date; a post without one gets the date BigCommerce gives it.',
      seoKeywords: 'Written as comma-separated meta keywords.',
      slug: "Written as the last part of the post's path (/blog/<slug>/ when the post has no path of its own).",
      sourceUrlPath:
        "Written as the post's path; a path BigCommerce does not take is left to BigCommerce, which makes one from the title, named in the post's report row.",
    },
  },
  reviews: {
    // The title's form is taken from the body as written, so it comes first.
    comparable: {
      title: reviewTitleAsWritten,
      body: reviewTextAsKept,
      createdAt: toTheSecond,
    },
    unsupported: {
      verified: 'BigCommerce reviews do not say whether the reviewer bought the product.',
    },
    converted: {
      title:
        "BigCommerce requires a title (at most 255 characters): a review without one is written with the first sentence of its text (its rating in stars when it has no text), and a longer one is shortened; both are named in the review's report row.",
      body: "Written as plain text, which is what BigCommerce keeps: paragraphs and line breaks stay, other formatting (bold, links, lists) does not, which the review's report row names.",
      status:
        "Written as BigCommerce's moderation state: approved and pending as they are, rejected and spam both as disapproved (a spam review's report row says so).",
      reviewerName:
        "BigCommerce keeps at most 255 characters of a reviewer's name: a longer one is shortened, named in the review's report row.",
      createdAt: 'Written as the date reviewed, which BigCommerce keeps to the second.',
    },
  },
  customers: {
    comparable: { metafields: asBigCommerceKeeps },
    unsupported: {
      username: 'BigCommerce customers sign in with their e-mail address and have no user name.',
      tags: 'BigCommerce customers have no tags.',
      group:
        "BigCommerce customer groups are the store's own (with their prices and discounts); a migration does not put customers in one.",
      createdAt: 'BigCommerce stamps the date a customer is made.',
      'addresses.isDefaultBilling':
        'BigCommerce addresses have no default flag: the addresses keep their order.',
      'addresses.isDefaultShipping':
        'BigCommerce addresses have no default flag: the addresses keep their order.',
      'addresses.email': 'BigCommerce customer addresses have no e-mail address.',
    },
    converted: {
      metafields:
        "Kept as customer metafields; 'bigcommerce' custom fields become customer attributes (found or created by name), 'bigcommerce_form_fields' sign-up form fields, and BigCommerce's own fields go back to their fields.",
    },
  },
  orders: {
    comparable: {
      metafields: notesInStaffNotes,
      notes: notesKept,
      createdVia: asOrderSource,
      'billingAddress.email': buyerEmailOnBilling,
    },
    unsupported: {
      number: 'BigCommerce numbers orders itself and takes no order number.',
      updatedAt: 'BigCommerce stamps the date an order is changed.',
      paymentStatus: 'BigCommerce sets the payment status from its own payment processing.',
      paymentMethod:
        "BigCommerce keeps the payment method's name; the code of the method is not kept when it has a name.",
      'shippingLines.code': "BigCommerce keeps the shipping method's name, not its code.",
      discounts:
        "BigCommerce's order API takes one discount amount (the order's discount total is kept): the discount lines, their coupon codes and their tax are not.",
      refunds:
        "BigCommerce's order API takes the total refunded, not each refund with its date, reason and lines.",
      paidAt: 'BigCommerce orders have no payment date.',
      completedAt: 'BigCommerce stamps the date an order is shipped in full.',
      pricesIncludeTax: "Follows the destination store's tax settings.",
      customerUserAgent: "BigCommerce orders do not keep the buyer's browser.",
      'lines.taxClass': 'BigCommerce order lines have no tax class.',
      'fees.taxStatus':
        'BigCommerce taxes a fee by its tax class; a fee cannot be marked untaxed on its own.',
    },
    converted: {
      notes: 'Written into the staff notes, each with its date, its author and who saw it.',
      shippingLines:
        "Written as the order's shipping cost; several methods are named together on the one shipping address.",
      fees: "Written as the order's fees; BigCommerce's own handling and wrapping costs go back there.",
      'billingAddress.email':
        "BigCommerce keeps one e-mail address on the billing address: the buyer's, when the address has none of its own.",
      createdVia:
        "Written as BigCommerce's order source when it has one ('checkout' and 'web' are its storefront, 'www'); an order without one is what BigCommerce calls external.",
      metafields:
        "BigCommerce orders have no custom fields: BigCommerce's own order fields (namespace bigcommerce_fields) go back to their fields, others are named in the report.",
      'lines.productId':
        'A line whose product is not at the destination is written as a custom line with its name, SKU and price.',
      'lines.meta':
        "BigCommerce takes a line's options from its variant; the options of a custom line are named in the report.",
      'lines.total':
        "BigCommerce computes a line's total from its unit price and quantity; line discounts are part of the order's discount total.",
    },
  },
};
