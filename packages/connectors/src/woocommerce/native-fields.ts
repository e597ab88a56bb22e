import type { EntityType } from '@replatform/canonical/entities';
import {
  allowedEmailsKept,
  asWooKeeps,
  billingEmailKept,
  couponCodeKept,
  createdViaKept,
  lineMetaKept,
  sharedAttributesKept,
  sharedOptionsKept,
  statusKept,
  productMetafieldsKept,
  productWeightKept,
  reviewTextKept,
  usernameKept,
  variantMetafieldsKept,
  variantDimensionsKept,
  variantWeightKept,
} from './comparable.ts';
import type { DestinationFields, NativeCatalogue, SourceField } from '../kit/fields.ts';

/**
 * Every field a WooCommerce 11.0.1 store answers with `context=edit` (checked against a real
 * store), and what a migration from WooCommerce does with it. A product carries its variations
 * under `variation_records` (GET products/{id}/variations), an order its refunds under
 * `refund_records` (GET refunds?parent=...) and its notes under `note_records`
 * (GET orders/{id}/notes): the sub-records a migration reads with it.
 */

const links: SourceField = { assigned: 'links of the REST API to related resources' };
const mediaDates = "stamped by WordPress when the image was stored in the store's media library";

/** An image object of the REST API (products, variations, categories). */
function image(prefix: string, carried: Partial<Record<'src' | 'name' | 'alt', SourceField>>) {
  return {
    [`${prefix}.id`]: { assigned: "the id of the image in the store's media library" },
    [`${prefix}.date_created`]: { assigned: mediaDates },
    [`${prefix}.date_created_gmt`]: { assigned: mediaDates },
    [`${prefix}.date_modified`]: { assigned: mediaDates },
    [`${prefix}.date_modified_gmt`]: { assigned: mediaDates },
    [`${prefix}.src`]: carried.src ?? {
      assigned:
        "the store's own copy of the image; the source's address is what a migration carries, and the destination stores its own copy",
    },
    [`${prefix}.name`]: carried.name ?? { assigned: 'the title WordPress gave the file' },
    [`${prefix}.alt`]: carried.alt ?? { assigned: 'the alternative text of the file' },
    [`${prefix}.srcset`]: { assigned: 'the sizes WordPress made of the image' },
    [`${prefix}.sizes`]: { assigned: 'the sizes WordPress made of the image' },
    [`${prefix}.thumbnail`]: { assigned: 'the thumbnail WordPress made of the image' },
  } satisfies Record<string, SourceField>;
}

/** A decimal string's value in its shortest notation ('12.00' and '12' are one price). */
const decimalMeaning = (value: unknown) =>
  typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? String(Number(value)) : value;

const sale = (prefix: string, canonical: string) =>
  ({
    [`${prefix}regular_price`]: {
      converted: `${canonical}.price`,
      how: "the regular price, as minor units of the store currency (written in its shortest form, '45' for 45.00).",
      meaning: decimalMeaning,
    },
    [`${prefix}sale_price`]: {
      converted: `${canonical}.salePrice`,
      how: 'the sale price (also one scheduled for later), as minor units.',
      meaning: decimalMeaning,
    },
    [`${prefix}date_on_sale_from`]: {
      converted: `${canonical}.saleStartsAt`,
      how: "the store's local time of date_on_sale_from_gmt.",
    },
    [`${prefix}date_on_sale_from_gmt`]: { carried: `${canonical}.saleStartsAt` },
    [`${prefix}date_on_sale_to`]: {
      converted: `${canonical}.saleEndsAt`,
      how: "the store's local time of date_on_sale_to_gmt.",
    },
    [`${prefix}date_on_sale_to_gmt`]: { carried: `${canonical}.saleEndsAt` },
    [`${prefix}price`]: {
      assigned:
        'WooCommerce works out the current price from the regular and sale prices and the sale dates',
    },
    [`${prefix}on_sale`]: { assigned: 'WooCommerce works it out from the sale price and dates' },
    [`${prefix}purchasable`]: {
      assigned: 'WooCommerce works it out from the price, status and product type',
    },
    [`${prefix}virtual`]: { carried: `${canonical}.virtual` },
    [`${prefix}downloadable`]: { carried: `${canonical}.downloadable` },
    [`${prefix}downloads[]`]: { carried: `${canonical}.downloads` },
    // WooCommerce keeps an id sent with a file, but the data model has no place for it.
    [`${prefix}downloads[].id`]: {
      notCarried:
        "The data model keeps a downloadable file's name and address, not WooCommerce's id for it: the destination gives the file an id of its own (download permissions are not migrated).",
    },
    [`${prefix}downloads[].name`]: { carried: `${canonical}.downloads.name` },
    [`${prefix}downloads[].file`]: { carried: `${canonical}.downloads.url` },
    [`${prefix}download_limit`]: {
      converted: `${canonical}.downloadLimit`,
      how: '-1 (no limit) as none.',
    },
    [`${prefix}download_expiry`]: {
      converted: `${canonical}.downloadExpiryDays`,
      how: '-1 (never expires) as none.',
    },
    [`${prefix}stock_quantity`]: { carried: `${canonical}.inventory.quantity` },
    [`${prefix}stock_status`]: { carried: `${canonical}.inventory.stockStatus` },
    [`${prefix}backorders`]: { carried: `${canonical}.inventory.backorders` },
    [`${prefix}backorders_allowed`]: { assigned: 'WooCommerce works it out from backorders' },
    [`${prefix}backordered`]: {
      assigned: 'WooCommerce works it out from the stock and backorders',
    },
    [`${prefix}low_stock_amount`]: { carried: `${canonical}.inventory.lowStockThreshold` },
    [`${prefix}shipping_class_id`]: { assigned: "the store's own id of the shipping class" },
  }) satisfies Record<string, SourceField>;

const meta = (prefix: string, canonical: string) =>
  ({
    [`${prefix}meta_data[]`]: { carried: canonical },
    [`${prefix}meta_data[].id`]: { assigned: 'WordPress numbers meta data entries' },
  }) satisfies Record<string, SourceField>;

const productFields: Record<string, SourceField> = {
  id: { assigned: 'WooCommerce numbers products' },
  name: { carried: 'name' },
  slug: { carried: 'slug' },
  permalink: {
    assigned:
      "the product's address on the store, which WooCommerce builds from its slug (its path is kept for redirects)",
  },
  date_created: { converted: 'createdAt', how: "the store's local time of date_created_gmt." },
  date_created_gmt: { carried: 'createdAt' },
  date_modified: { assigned: 'stamped by WooCommerce whenever the product changes' },
  date_modified_gmt: { assigned: 'stamped by WooCommerce whenever the product changes' },
  type: { carried: 'type' },
  status: {
    converted: 'status',
    how: 'publish as active, private, pending and draft as they are, future (scheduled) as draft.',
  },
  featured: { carried: 'featured' },
  catalog_visibility: { carried: 'visibility' },
  description: {
    converted: 'descriptionHtml',
    how: "the HTML as stored; WordPress's &amp; for a lone & is read as &.",
  },
  short_description: {
    converted: 'shortDescriptionHtml',
    how: "the HTML as stored; WordPress's &amp; for a lone & is read as &.",
  },
  sku: { carried: ['sku', 'variants.sku'] },
  global_unique_id: { carried: 'variants.barcode' },
  ...sale('', 'variants'),
  price_html: { assigned: 'the price as the storefront shows it' },
  total_sales: { assigned: 'counted by WooCommerce from the orders that bought the product' },
  external_url: { carried: 'externalUrl' },
  button_text: { carried: 'buttonText' },
  tax_status: { carried: 'taxStatus' },
  tax_class: { carried: 'taxClass' },
  manage_stock: { carried: 'variants.inventory.tracked' },
  sold_individually: { carried: 'soldIndividually' },
  weight: {
    converted: ['weight', 'variants.weight'],
    how: "a number in the store's weight unit.",
  },
  dimensions: { converted: 'dimensions', how: "numbers in the store's dimension unit." },
  shipping_required: { assigned: 'WooCommerce works it out from virtual' },
  shipping_taxable: { assigned: 'WooCommerce works it out from the tax status' },
  shipping_class: { carried: 'shippingClass' },
  reviews_allowed: { carried: 'reviewsAllowed' },
  post_password: {
    notCarried:
      'A password-protected product is migrated without its password: the data model has no place for it.',
  },
  average_rating: {
    assigned:
      "worked out by WooCommerce from the product's approved reviews, which move as reviews when they are selected",
  },
  rating_count: {
    assigned:
      "counted by WooCommerce from the product's approved reviews, which move as reviews when they are selected",
  },
  related_ids: {
    assigned: 'picked by WooCommerce from products with the same categories and tags',
  },
  upsell_ids: { carried: 'upsellIds', ref: 'products', unordered: true },
  cross_sell_ids: { carried: 'crossSellIds', ref: 'products', unordered: true },
  parent_id: {
    notCarried:
      "WooCommerce 3 and later no longer use a product's parent (a grouped product lists its members instead); a parent set by a plugin is not migrated.",
  },
  purchase_note: { carried: 'purchaseNote' },
  'categories[]': { carried: 'categoryIds', unordered: true },
  'categories[].id': { carried: 'categoryIds', ref: 'categories' },
  'categories[].name': { assigned: "the category's own name, migrated with the category" },
  'categories[].slug': { assigned: "the category's own slug, migrated with the category" },
  'brands[]': { converted: 'vendor', how: 'the name of the first brand.', unordered: true },
  'brands[].id': { assigned: "the store's own id of the brand" },
  'brands[].name': { converted: 'vendor', how: 'the name of the first brand.' },
  'brands[].slug': { assigned: 'WordPress makes a brand slug from its name' },
  'tags[]': {
    converted: ['tags', 'tagDefinitions'],
    how: "each tag's name, with its slug and its description (read from the store's tag list).",
    unordered: true,
  },
  'tags[].id': { assigned: "the store's own id of the tag" },
  'tags[].name': { carried: ['tags', 'tagDefinitions.name'] },
  'tags[].slug': { carried: 'tagDefinitions.slug' },
  'images[]': { carried: 'images' },
  ...image('images[]', { name: { carried: 'images.title' }, alt: { carried: 'images.alt' } }),
  has_options: { assigned: 'WooCommerce works it out from the product type and attributes' },
  'attributes[]': {
    converted: ['options', 'attributes'],
    how: 'an attribute used for variations as an option, the others as descriptive attributes.',
  },
  'attributes[].id': {
    assigned: "the store's own id of a store-wide attribute (0 for the product's own)",
  },
  'attributes[].name': { carried: ['options.name', 'attributes.name'] },
  'attributes[].slug': {
    converted: ['options.shared', 'attributes.shared', 'sharedAttributes'],
    how: "a store-wide attribute (pa_color) by its slug without the pa_ prefix, with its settings (archives, sort order) and all its terms (slug, description, sort position) read from the store's attribute list; a product's own attribute has none.",
  },
  'attributes[].position': { carried: ['options.position', 'attributes.position'] },
  'attributes[].visible': { carried: ['options.visible', 'attributes.visible'] },
  'attributes[].variation': {
    converted: ['options', 'attributes'],
    how: 'used for variations: an option; not: a descriptive attribute.',
  },
  'attributes[].options': { carried: ['options.values', 'attributes.values'] },
  'default_attributes[]': { carried: 'defaultOptionValues' },
  'default_attributes[].id': { assigned: "the store's own id of a store-wide attribute" },
  'default_attributes[].name': { carried: 'defaultOptionValues.name' },
  'default_attributes[].option': {
    converted: 'defaultOptionValues.value',
    how: "a store-wide attribute's value is answered as its term slug and read as the term's name.",
  },
  variations: { assigned: 'the ids of the variations, read in full under variation_records' },
  grouped_products: { carried: 'groupedProductIds', ref: 'products' },
  menu_order: { carried: 'menuOrder' },
  ...meta('', 'metafields'),
  permalink_template: { assigned: "the store's address pattern for products" },
  generated_slug: { assigned: 'the slug WordPress would make from the name' },
  _links: links,
  // The list's order means nothing: menu_order orders the variations.
  'variation_records[]': { carried: 'variants', unordered: true },
  'variation_records[].id': { assigned: 'WooCommerce numbers variations' },
  'variation_records[].type': { assigned: "always 'variation'" },
  'variation_records[].date_created': {
    notCarried:
      "WooCommerce dates a variation when it is created: its REST API cannot set a variation's creation date, so the destination's is the time of the import.",
  },
  'variation_records[].date_created_gmt': {
    notCarried:
      "WooCommerce dates a variation when it is created: its REST API cannot set a variation's creation date, so the destination's is the time of the import.",
  },
  'variation_records[].date_modified': {
    assigned: 'stamped by WooCommerce whenever the variation changes',
  },
  'variation_records[].date_modified_gmt': {
    assigned: 'stamped by WooCommerce whenever the variation changes',
  },
  'variation_records[].description': {
    converted: 'variants.descriptionHtml',
    how: 'the HTML as WooCommerce formats it (paragraphs added).',
  },
  'variation_records[].permalink': { assigned: "the variation's address on the store" },
  'variation_records[].sku': { carried: 'variants.sku' },
  'variation_records[].global_unique_id': { carried: 'variants.barcode' },
  ...sale('variation_records[].', 'variants'),
  'variation_records[].status': {
    converted: 'variants.status',
    how: 'publish as active; private, draft and pending as private (not offered to shoppers).',
  },
  'variation_records[].tax_status': {
    notCarried:
      'The data model keeps a tax status per product, not per variant: a variant taxed differently from the taxable default is migrated as taxable.',
  },
  'variation_records[].tax_class': {
    converted: 'variants.taxClass',
    how: "'parent' (the product's class) as none of its own, '' as the standard class.",
  },
  'variation_records[].manage_stock': {
    converted: 'variants.inventory.tracked',
    how: "'parent' (stock kept on the product) as tracked with the product's quantity.",
  },
  'variation_records[].weight': {
    converted: 'variants.weight',
    how: "WooCommerce answers the product's weight for a variation without its own; only a weight of its own is the variant's.",
  },
  'variation_records[].dimensions': {
    converted: 'variants.dimensions',
    how: "WooCommerce answers the product's dimensions for a variation without its own; only dimensions of its own are the variant's.",
  },
  'variation_records[].shipping_class': {
    converted: 'variants.shippingClass',
    how: "WooCommerce answers the product's class for a variation without its own; only a class of its own is the variant's.",
  },
  'variation_records[].image': { carried: 'variants.imageUrl' },
  ...image('variation_records[].image', {
    name: {
      notCarried:
        "The data model keeps a variant's image by its address: its title comes along only when a product gallery shows the same image.",
    },
    alt: {
      notCarried:
        "The data model keeps a variant's image by its address: its alternative text comes along only when a product gallery shows the same image.",
    },
  }),
  'variation_records[].gallery_image_ids': {
    notCarried:
      "The data model keeps one image per variant; a variation's extra gallery images are not migrated.",
  },
  'variation_records[].attributes[]': { carried: 'variants.optionValues' },
  'variation_records[].attributes[].id': {
    assigned: "the store's own id of a store-wide attribute",
  },
  'variation_records[].attributes[].name': { carried: 'variants.optionValues.name' },
  'variation_records[].attributes[].slug': {
    assigned: "WooCommerce's slug of the attribute (pa_color or the sanitised name)",
  },
  'variation_records[].attributes[].option': { carried: 'variants.optionValues.value' },
  'variation_records[].menu_order': {
    converted: 'variants.position',
    how: 'the order of the variants.',
  },
  ...meta('variation_records[].', 'variants.metafields'),
  'variation_records[].name': { assigned: 'made by WooCommerce from the attribute values' },
  'variation_records[].parent_id': { assigned: 'the product the variation belongs to' },
  'variation_records[]._links': links,
};

const categoryFields: Record<string, SourceField> = {
  id: { assigned: 'WordPress numbers terms' },
  name: { converted: 'name', how: "WordPress's HTML escaping (&amp;) undone." },
  slug: { carried: 'slug' },
  parent: { carried: 'parentId', ref: 'categories' },
  description: {
    converted: 'description',
    how: 'WordPress keeps paragraphs as blank lines; they are read as the paragraphs it shows.',
  },
  display: { carried: 'displayType' },
  image: { carried: 'imageUrl' },
  ...image('image', {
    alt: { carried: 'imageAlt' },
    name: { carried: 'imageTitle' },
  }),
  menu_order: { carried: 'position' },
  count: { assigned: 'counted by WordPress from the products in the category' },
  _links: links,
};

const brandFields: Record<string, SourceField> = {
  id: { assigned: 'WordPress numbers terms' },
  name: { converted: 'name', how: "WordPress's HTML escaping (&amp;) undone." },
  slug: { carried: 'slug' },
  parent: { carried: 'parentId', ref: 'brands' },
  description: {
    converted: 'description',
    how: 'WordPress keeps paragraphs as blank lines; they are read as the paragraphs it shows.',
  },
  display: { carried: 'displayType' },
  image: { carried: 'imageUrl' },
  ...image('image', {
    alt: { carried: 'imageAlt' },
    name: {
      assigned:
        "the title WordPress gave the logo's file; the model keeps no title for a brand's logo",
    },
  }),
  menu_order: {
    converted: 'position',
    how: 'a negative menu_order (which WordPress keeps) is read as 0, the first place.',
  },
  count: { assigned: 'counted by WordPress from the published products of the brand' },
  _links: links,
};

const address = (kind: 'billing' | 'shipping', canonical: string, phoneToo = false) =>
  ({
    [kind]: { converted: canonical, how: `the ${kind} address` },
    [`${kind}.phone`]: phoneToo
      ? { carried: [`${canonical}.phone`, 'phone'] }
      : { carried: `${canonical}.phone` },
  }) satisfies Record<string, SourceField>;

const customerFields: Record<string, SourceField> = {
  id: { assigned: 'WordPress numbers accounts' },
  date_created: { converted: 'createdAt', how: "the store's local time of date_created_gmt." },
  date_created_gmt: { carried: 'createdAt' },
  date_modified: { assigned: 'stamped by WooCommerce whenever the account changes' },
  date_modified_gmt: { assigned: 'stamped by WooCommerce whenever the account changes' },
  email: { converted: 'email', how: 'lower-cased.' },
  first_name: { carried: 'firstName' },
  last_name: { carried: 'lastName' },
  role: { converted: 'group', how: "'customer' (the role of every shop customer) as none." },
  username: { carried: 'username' },
  ...address('billing', 'addresses', true),
  'billing.email': { carried: 'addresses.email' },
  ...address('shipping', 'addresses'),
  is_paying_customer: { assigned: 'set by WooCommerce once the customer has a paid order' },
  avatar_url: { assigned: "the Gravatar picture of the customer's e-mail" },
  ...meta('', 'metafields'),
  _links: links,
};

const orderItemMeta = (prefix: string) =>
  ({
    [`${prefix}.meta_data[].id`]: { assigned: 'WordPress numbers meta data entries' },
    [`${prefix}.meta_data[].display_key`]: {
      assigned: 'the label WooCommerce shows for the entry',
    },
    [`${prefix}.meta_data[].display_value`]: {
      assigned: 'the value as WooCommerce shows it',
    },
  }) satisfies Record<string, SourceField>;

const lineFields = (prefix: string, canonical: string) =>
  ({
    [`${prefix}.id`]: { assigned: 'WooCommerce numbers order items' },
    [`${prefix}.name`]: { carried: `${canonical}.name` },
    [`${prefix}.product_id`]: { carried: `${canonical}.productId`, ref: 'products' },
    [`${prefix}.variation_id`]: { carried: `${canonical}.variantId`, ref: 'variants' },
    [`${prefix}.quantity`]: { carried: `${canonical}.quantity` },
    [`${prefix}.tax_class`]: { carried: `${canonical}.taxClass` },
    [`${prefix}.subtotal`]: {
      converted: `${canonical}.unitPrice`,
      how: 'the line before discounts, divided by the quantity.',
    },
    [`${prefix}.subtotal_tax`]: {
      assigned: 'WooCommerce works out the tax before discounts from its tax rates',
    },
    [`${prefix}.total`]: {
      converted: `${canonical}.total`,
      how: 'after discounts, as minor units.',
    },
    [`${prefix}.total_tax`]: { converted: `${canonical}.tax`, how: 'as minor units.' },
    [`${prefix}.taxes`]: { assigned: "WooCommerce's split of the line tax by tax rate" },
    [`${prefix}.meta_data[]`]: { carried: `${canonical}.meta` },
    ...orderItemMeta(prefix),
    [`${prefix}.sku`]: {
      converted: `${canonical}.sku`,
      how: "the product's SKU as WooCommerce answers it (none for a product that no longer exists).",
    },
    [`${prefix}.global_unique_id`]: { assigned: "the product's GTIN as WooCommerce answers it" },
    [`${prefix}.price`]: { assigned: 'WooCommerce works it out: the line total by the quantity' },
    [`${prefix}.image`]: { assigned: "the product's image as WooCommerce answers it" },
    [`${prefix}.parent_name`]: { assigned: "the variable product's name, for a variation" },
  }) satisfies Record<string, SourceField>;

const orderFields: Record<string, SourceField> = {
  id: { assigned: 'WooCommerce numbers orders' },
  parent_id: {
    notCarried:
      'An order made from another order (a renewal or a split, by a plugin) is migrated without the link to it.',
  },
  number: { carried: 'number' },
  order_key: { assigned: "WooCommerce's secret key of the order for its payment page" },
  created_via: { carried: 'createdVia' },
  version: { assigned: 'the WooCommerce version that last saved the order' },
  status: {
    converted: ['status', 'paymentStatus', 'fulfillmentStatus'],
    how: 'the status, with the payment and fulfilment it implies (the table in to-canonical.ts).',
  },
  currency: { carried: 'currency' },
  currency_symbol: { assigned: "the currency's symbol" },
  prices_include_tax: { carried: 'pricesIncludeTax' },
  date_created: { converted: 'createdAt', how: "the store's local time of date_created_gmt." },
  date_created_gmt: { carried: 'createdAt' },
  date_modified: { converted: 'updatedAt', how: "the store's local time of date_modified_gmt." },
  date_modified_gmt: { carried: 'updatedAt' },
  date_paid: { converted: 'paidAt', how: "the store's local time of date_paid_gmt." },
  date_paid_gmt: { carried: 'paidAt' },
  date_completed: {
    converted: 'completedAt',
    how: "the store's local time of date_completed_gmt.",
  },
  date_completed_gmt: { carried: 'completedAt' },
  discount_total: { converted: 'discountTotal', how: 'as minor units.' },
  discount_tax: { converted: 'discounts.tax', how: 'the tax taken off by the coupons.' },
  shipping_total: { converted: 'shippingTotal', how: 'as minor units.' },
  shipping_tax: { converted: 'shippingLines.tax', how: 'the tax of the shipping lines.' },
  cart_tax: { converted: 'taxTotal', how: 'the tax of the product lines and fees.' },
  total: { converted: 'grandTotal', how: 'as minor units.' },
  total_tax: { converted: 'taxTotal', how: 'as minor units.' },
  customer_id: { carried: 'customerId', ref: 'customers' },
  customer_ip_address: { carried: 'customerIpAddress' },
  customer_user_agent: { carried: 'customerUserAgent' },
  customer_note: { carried: 'note' },
  billing: { converted: 'billingAddress', how: 'the billing address (its e-mail is the buyer’s).' },
  'billing.email': { carried: ['email', 'billingAddress.email'] },
  shipping: { converted: 'shippingAddress', how: 'the shipping address.' },
  payment_method: { carried: 'paymentMethod' },
  payment_method_title: { carried: 'paymentMethodTitle' },
  transaction_id: { carried: 'transactionId' },
  cart_hash: { assigned: 'a digest of the cart the order was placed from' },
  ...meta('', 'metafields'),
  'line_items[]': { carried: 'lines' },
  ...lineFields('line_items[]', 'lines'),
  'tax_lines[]': {
    notCarried:
      'The data model keeps the tax amounts of the order, not the tax rates they were worked out with (rate code, label, percentage).',
  },
  'shipping_lines[]': { carried: 'shippingLines' },
  'shipping_lines[].id': { assigned: 'WooCommerce numbers order items' },
  'shipping_lines[].method_title': { carried: 'shippingLines.title' },
  'shipping_lines[].method_id': { carried: 'shippingLines.code' },
  'shipping_lines[].instance_id': {
    converted: 'shippingLines.code',
    how: "with the method, as WooCommerce names shipping rates ('flat_rate:1').",
  },
  'shipping_lines[].total': { converted: 'shippingLines.price', how: 'as minor units.' },
  'shipping_lines[].total_tax': { converted: 'shippingLines.tax', how: 'as minor units.' },
  'shipping_lines[].taxes': { assigned: "WooCommerce's split of the tax by tax rate" },
  'shipping_lines[].tax_status': {
    assigned: "taken by WooCommerce from the shipping method's settings",
  },
  'shipping_lines[].meta_data': {
    notCarried:
      'The data model keeps no details of a shipping line (such as the items it covered) besides its method, price and tax.',
  },
  'fee_lines[]': { carried: 'fees' },
  'fee_lines[].id': { assigned: 'WooCommerce numbers order items' },
  'fee_lines[].name': { carried: 'fees.name' },
  'fee_lines[].tax_class': { carried: 'fees.taxClass' },
  'fee_lines[].tax_status': { carried: 'fees.taxStatus' },
  'fee_lines[].amount': {
    notCarried:
      'The amount a fee was entered with at checkout, before WooCommerce worked out its total; the model keeps the total.',
  },
  'fee_lines[].total': { converted: 'fees.amount', how: 'as minor units (negative for a credit).' },
  'fee_lines[].total_tax': { converted: 'fees.tax', how: 'as minor units.' },
  'fee_lines[].taxes': { assigned: "WooCommerce's split of the tax by tax rate" },
  'fee_lines[].meta_data': {
    notCarried: 'The data model keeps no details of a fee besides its name, amount and tax.',
  },
  'coupon_lines[]': { carried: 'discounts' },
  'coupon_lines[].id': { assigned: 'WooCommerce numbers order items' },
  'coupon_lines[].code': { carried: 'discounts.code' },
  'coupon_lines[].discount': { converted: 'discounts.amount', how: 'as minor units.' },
  'coupon_lines[].discount_tax': { converted: 'discounts.tax', how: 'as minor units.' },
  // WooCommerce's orders API takes only a coupon line's code: the line's kind, own amount,
  // free shipping and coupon_info come from the coupon WooCommerce applies at the destination.
  'coupon_lines[].discount_type': {
    notCarried:
      'The kind of coupon (percentage or fixed amount) belongs to the coupon, which is not migrated: WooCommerce takes it from the coupon it applies, and the line is recorded with a temporary fixed-amount coupon for the amount it took off.',
  },
  'coupon_lines[].nominal_amount': {
    notCarried:
      "The coupon's own amount (such as 10 for 10%) belongs to the coupon, which is not migrated: WooCommerce takes it from the coupon it applies; the line keeps the amount it took off.",
  },
  'coupon_lines[].free_shipping': {
    notCarried:
      "Whether the coupon gave free shipping belongs to the coupon, which is not migrated; the order's shipping lines keep what was charged.",
  },
  'coupon_lines[].meta_data': {
    notCarried:
      "WooCommerce's copy of the coupon it applied (coupon_info: the coupon's id, kind and amount) is not migrated: WooCommerce writes its own from the coupon it applies at the destination, a temporary one when the destination has no coupon of that code.",
  },
  // Newest first by the second they were made in: refunds made in one second come in any order.
  'refunds[]': { carried: 'refunds', unordered: true },
  'refunds[].id': { assigned: 'WooCommerce numbers refunds' },
  'refunds[].reason': { carried: 'refunds.reason' },
  'refunds[].total': { converted: 'refunds.amount', how: 'a positive amount.' },
  'refunds[].total_tax': { converted: 'refunds.lines.tax', how: 'the tax given back.' },
  payment_url: { assigned: "the address of the order's payment page" },
  is_editable: { assigned: 'WooCommerce works it out from the status' },
  needs_payment: { assigned: 'WooCommerce works it out from the status and total' },
  needs_processing: { assigned: 'WooCommerce works it out from the products' },
  _links: links,
  'refund_records[]': { carried: 'refunds' },
  'refund_records[].id': { assigned: 'WooCommerce numbers refunds' },
  'refund_records[].date_created': {
    converted: 'refunds.createdAt',
    how: "the store's local time of date_created_gmt.",
  },
  'refund_records[].date_created_gmt': { carried: 'refunds.createdAt' },
  'refund_records[].amount': { converted: 'refunds.amount', how: 'as minor units.' },
  'refund_records[].reason': { carried: 'refunds.reason' },
  'refund_records[].refunded_by': { assigned: 'the user who recorded the refund' },
  'refund_records[].refunded_payment': {
    notCarried:
      'Whether the money went back through the payment gateway: a migration records refunds and never moves money.',
  },
  'refund_records[].meta_data': {
    notCarried:
      "The data model keeps no custom fields on refunds; WooCommerce's own _refund_type (partial or full) follows from the amounts.",
  },
  'refund_records[].line_items[]': { carried: 'refunds.lines' },
  'refund_records[].line_items[].id': { assigned: 'WooCommerce numbers refund items' },
  'refund_records[].line_items[].name': { assigned: 'the name of the order line it gives back' },
  'refund_records[].line_items[].product_id': {
    assigned: 'the product of the order line it gives back',
  },
  'refund_records[].line_items[].variation_id': {
    assigned: 'the variation of the order line it gives back',
  },
  'refund_records[].line_items[].quantity': {
    converted: 'refunds.lines.quantity',
    how: 'units given back, as a positive number.',
  },
  'refund_records[].line_items[].tax_class': {
    assigned: 'the tax class of the order line it gives back',
  },
  'refund_records[].line_items[].subtotal': {
    converted: 'refunds.lines.amount',
    how: 'a positive amount.',
  },
  'refund_records[].line_items[].subtotal_tax': {
    converted: 'refunds.lines.tax',
    how: 'a positive amount.',
  },
  'refund_records[].line_items[].total': {
    converted: 'refunds.lines.amount',
    how: 'a positive amount.',
  },
  'refund_records[].line_items[].total_tax': {
    converted: 'refunds.lines.tax',
    how: 'a positive amount.',
  },
  'refund_records[].line_items[].taxes': {
    assigned: "WooCommerce's split of the tax by tax rate",
  },
  'refund_records[].line_items[].meta_data': {
    converted: 'refunds.lines.lineId',
    how: 'WooCommerce names the order line given back in the _refunded_item_id entry.',
  },
  'refund_records[].line_items[].sku': { assigned: "the product's SKU as WooCommerce answers it" },
  'refund_records[].line_items[].global_unique_id': {
    assigned: "the product's GTIN as WooCommerce answers it",
  },
  'refund_records[].line_items[].price': { assigned: 'WooCommerce works it out' },
  'refund_records[].line_items[].image': {
    assigned: "the product's image as WooCommerce answers it",
  },
  'refund_records[].line_items[].parent_name': {
    assigned: "the variable product's name, for a variation",
  },
  'refund_records[].shipping_lines': {
    notCarried:
      'Shipping given back by a refund is migrated within the refunded amount, without naming the shipping line.',
  },
  'refund_records[].fee_lines': {
    notCarried:
      'A fee given back by a refund is migrated within the refunded amount, without naming the fee.',
  },
  'refund_records[].tax_lines': {
    assigned: "WooCommerce's split of the refunded tax by tax rate",
  },
  'refund_records[]._links': links,
  'note_records[]': { carried: 'notes', unordered: true },
  'note_records[].id': { assigned: 'WordPress numbers comments, which notes are' },
  'note_records[].author': {
    converted: 'notes.author',
    how: "'WooCommerce' (a note the store wrote itself) as none, a person by name.",
  },
  'note_records[].date_created': {
    converted: 'notes.createdAt',
    how: "the store's local time of date_created_gmt.",
  },
  'note_records[].date_created_gmt': { carried: 'notes.createdAt' },
  'note_records[].note': {
    converted: 'notes.content',
    how: "WordPress's &amp; for a lone & is read as &.",
  },
  'note_records[].customer_note': { carried: 'notes.customerNote' },
  'note_records[]._links': links,
};

const spend = (canonical: string) =>
  ({
    converted: canonical,
    how: "minor units of the store currency; '0.00' (no limit) as none.",
    meaning: decimalMeaning,
  }) satisfies SourceField;

const couponFields: Record<string, SourceField> = {
  id: { assigned: 'WooCommerce numbers coupons' },
  code: {
    converted: 'code',
    how: 'as WooCommerce stores it, lower case (customers may type it in any case).',
    meaning: couponCodeKept,
  },
  amount: {
    converted: ['percentOff', 'amountOff'],
    how: 'the percentage of a percentage coupon, the amount (in minor units) of a fixed one.',
    meaning: decimalMeaning,
  },
  status: {
    converted: 'enabled',
    how: 'publish as enabled; draft, pending, private and any other status as switched off (WooCommerce applies only published coupons).',
  },
  date_created: { converted: 'createdAt', how: "the store's local time of date_created_gmt." },
  date_created_gmt: { carried: 'createdAt' },
  date_modified: { assigned: 'stamped by WooCommerce whenever the coupon changes' },
  date_modified_gmt: { assigned: 'stamped by WooCommerce whenever the coupon changes' },
  discount_type: { carried: 'discountType' },
  description: { carried: 'description' },
  date_expires: { converted: 'expiresAt', how: "the store's local time of date_expires_gmt." },
  date_expires_gmt: { carried: 'expiresAt' },
  usage_count: { carried: 'usageCount' },
  individual_use: { carried: 'individualUse' },
  product_ids: { carried: 'productIds', ref: 'products', unordered: true },
  excluded_product_ids: { carried: 'excludedProductIds', ref: 'products', unordered: true },
  usage_limit: { carried: 'usageLimit' },
  usage_limit_per_user: { carried: 'usageLimitPerCustomer' },
  limit_usage_to_x_items: { carried: 'itemLimit' },
  free_shipping: { carried: 'freeShipping' },
  product_categories: { carried: 'categoryIds', ref: 'categories', unordered: true },
  excluded_product_categories: {
    carried: 'excludedCategoryIds',
    ref: 'categories',
    unordered: true,
  },
  exclude_sale_items: { carried: 'excludeSaleItems' },
  minimum_amount: spend('minimumSpend'),
  maximum_amount: spend('maximumSpend'),
  email_restrictions: { carried: 'allowedEmails', unordered: true },
  used_by: {
    notCarried:
      'Who used the coupon (customer ids, or billing e-mails of guests) is not migrated: WooCommerce records it itself as orders use the coupon at the destination.',
  },
  ...meta('', 'metafields'),
  _links: links,
};

/** A product review (a WordPress comment of type 'review'), as `context=edit` answers it. */
const reviewFields: Record<string, SourceField> = {
  id: { assigned: 'WordPress numbers comments (order notes and reviews together)' },
  date_created: { converted: 'createdAt', how: "the store's local time of date_created_gmt." },
  date_created_gmt: { carried: 'createdAt' },
  product_id: { carried: 'productId', ref: 'products' },
  product_name: { assigned: "the reviewed product's name, answered from the product" },
  product_permalink: { assigned: "the reviewed product's address in the shop" },
  status: {
    converted: 'status',
    how: 'approved as approved, hold (awaiting moderation) as pending, spam as spam, trash (the bin, where a merchant puts a review turned down; WordPress empties it after 30 days) as rejected.',
  },
  reviewer: {
    converted: 'reviewerName',
    how: "WordPress's HTML escaping (&amp;) undone; a review without a name is not migrated (with the reason).",
  },
  reviewer_email: { carried: 'reviewerEmail' },
  review: { carried: 'body' },
  rating: {
    converted: 'rating',
    how: 'as it is; 0 (a review given without stars, in a store that does not ask for them) is no rating (null), written back as 0; a rating outside 0 to 5 is not migrated (with the reason).',
  },
  verified: {
    converted: 'verified',
    how: 'as WooCommerce decided it when it first answered the review: whether a paid order of the product had the reviewer’s address.',
  },
  reviewer_avatar_urls: {
    assigned: "Gravatar addresses WordPress makes from the reviewer's e-mail address",
  },
  _links: links,
};

/** What a page and a post of wp/v2 share (`context=edit`). */
const contentFields = (kind: 'page' | 'post'): Record<string, SourceField> => ({
  id: { assigned: 'WordPress numbers posts, pages and media in one sequence' },
  date: {
    converted: 'publishedAt',
    how: "the store's local time of date_gmt (read through date_gmt).",
  },
  date_gmt: {
    converted: ['publishedAt', 'createdAt'],
    how: 'the publication date, also a scheduled one; WordPress fills a draft’s or pending one’s with the day it was started, which is no publication date: read as its creation date (createdAt), and written back as a draft’s date.',
  },
  guid: { assigned: "WordPress's permanent identifier of the post (its first address)" },
  modified: { converted: 'updatedAt', how: "the store's local time of modified_gmt." },
  modified_gmt: { carried: 'updatedAt' },
  password: {
    notCarried:
      'Protected by a password, which the model cannot carry and a migration never moves unseen: read as private (shown to the staff only) so it does not become public at the destination; protect it with a password there again.',
  },
  slug: { carried: 'slug' },
  status: {
    converted: 'status',
    how: 'publish → published, future → scheduled, draft, pending and private as they are; a password-protected published one → private (see password).',
  },
  type: { assigned: `always '${kind}'` },
  link: {
    converted: 'sourceUrlPath',
    how: 'the path of the permalink when published or private; a draft’s, pending or scheduled one’s link is a preview (?page_id= / ?p=): no storefront path (null).',
    // Each store has its own address and numbers its previews itself: the path is what counts.
    meaning: (value: unknown) =>
      typeof value === 'string' && URL.canParse(value) && !new URL(value).search
        ? new URL(value).pathname
        : null,
  },
  'title.raw': { carried: 'title' },
  'title.rendered': { assigned: 'the title as the theme shows it (texturised)' },
  'content.raw': { carried: 'body' },
  'content.rendered': {
    assigned: 'the content as the theme shows it (blocks and shortcodes rendered)',
  },
  'content.protected': { assigned: 'whether a password protects it (see password)' },
  'content.block_version': { assigned: 'whether the content is made of blocks (from content.raw)' },
  'excerpt.raw': { carried: 'excerpt' },
  'excerpt.rendered': {
    assigned: 'the excerpt as the theme shows it (made from the content when empty)',
  },
  'excerpt.protected': { assigned: 'whether a password protects it (see password)' },
  author: {
    converted: 'authorName',
    how: "the display name (name) of the WordPress user (users?context=edit); '' when the user is gone.",
  },
  featured_media: {
    converted: ['featuredImageUrl', 'featuredImageAlt'],
    how: "the media library item's source_url and alt_text (media?include=).",
  },
  comment_status: {
    notCarried: 'Whether comments are open is not in the model (WordPress discussion setting).',
  },
  ping_status: {
    notCarried:
      'Whether pingbacks are accepted is not in the model (WordPress discussion setting).',
  },
  template: {
    notCarried:
      "The page template is the theme's own (a file of the source's theme); the model keeps no template.",
  },
  meta: {
    assigned:
      'only keys a plugin registers are listed; core WordPress registers footnotes, made from the footnote blocks of the content, which the body carries',
  },
  class_list: { assigned: 'CSS classes WordPress works out for the theme' },
  permalink_template: { assigned: 'the permalink pattern WordPress works out' },
  generated_slug: { assigned: 'the slug WordPress would make from the title' },
  _links: links,
});

const pageFields: Record<string, SourceField> = {
  ...contentFields('page'),
  parent: { carried: 'parentId', ref: 'pages' },
  menu_order: {
    converted: 'position',
    how: 'a negative menu_order (which WordPress keeps) is read as 0, the first place.',
  },
};

const postFields: Record<string, SourceField> = {
  ...contentFields('post'),
  categories: {
    converted: 'categories',
    how: "the names of the post's categories (wp/v2/categories, WordPress's escaping undone); a category's parent is not carried.",
  },
  tags: { converted: 'tags', how: "the names of the post's tags (wp/v2/tags)." },
  sticky: { notCarried: 'A sticky post (kept at the top of the blog) has no place in the model.' },
  format: {
    notCarried:
      'A post format other than standard (aside, gallery, quote…) has no place in the model.',
  },
};

export const nativeFields: NativeCatalogue = {
  pages: pageFields,
  posts: postFields,
  categories: categoryFields,
  brands: brandFields,
  products: productFields,
  coupons: couponFields,
  customers: customerFields,
  orders: orderFields,
  reviews: reviewFields,
};

const contentDestination = (kind: 'page' | 'post'): DestinationFields => ({
  unsupported: {
    seoTitle: `Core WordPress has no SEO title for a ${kind} (SEO plugins keep it, outside wp/v2).`,
    seoDescription: `Core WordPress has no SEO description for a ${kind} (SEO plugins keep it, outside wp/v2).`,
    seoKeywords: `Core WordPress has no SEO keywords for a ${kind}.`,
    metafields: `wp/v2 writes only meta keys a plugin registered: a ${kind}'s custom fields are not written.`,
    createdAt: `WordPress keeps no creation date apart from a ${kind}'s publication date (a draft's date is the day it was started, which it keeps).`,
    authorName:
      "WordPress keeps an author as one of its users, and a migration makes no user accounts (they need an e-mail address and a password the source does not give): a name the destination has a user of is kept, any other is written as the connected user's (its report row says so).",
    updatedAt: 'WordPress stamps the modification date itself.',
    ...(kind === 'post'
      ? { blog: 'A WordPress site has one blog: the posts of every blog of the source go into it.' }
      : {}),
  },
  converted: {
    status:
      'Each status has its WordPress twin (publish, future, draft, pending, private); a scheduled one whose date has passed is published by WordPress at once (its report row says so).',
    publishedAt:
      'Written as date_gmt for published, scheduled and private ones; a draft or pending one gets the day it is written, which WordPress shows as its date until it is published.',
    featuredImageUrl:
      "Downloaded from the source and uploaded into the destination's media library (POST wp/v2/media), once per address, with its alternative text; answered with its new address there.",
    slug: `A published ${kind} whose slug another ${kind} of the store has gets WordPress's next free one (slug-2; the report row says so).`,
    ...(kind === 'page'
      ? {
          parentId:
            'A parent not migrated yet leaves the page at the top (and writes it again next run).',
        }
      : {
          categories:
            'Found by name among the WordPress categories (case folded), else created (at the top level).',
          tags: 'Found by name among the WordPress tags (case folded), else created.',
        }),
  },
});

/** Canonical fields WooCommerce cannot hold as a destination, or holds in another form. */
export const destinationFields: Partial<Record<EntityType, DestinationFields>> = {
  pages: contentDestination('page'),
  posts: contentDestination('post'),
  categories: {
    unsupported: {
      position:
        "WooCommerce 11 does not let its REST API set a category's sort position (menu_order is read-only); sort categories under Products > Categories.",
      seoTitle: 'WooCommerce has no SEO title of its own (SEO plugins keep it).',
      seoDescription: 'WooCommerce has no SEO description of its own (SEO plugins keep it).',
      metafields: "WooCommerce's REST API keeps no custom fields on categories.",
    },
    converted: {
      description:
        'WordPress keeps only links and text styles in category descriptions: paragraphs and line breaks are kept as such, other block markup (lists, headings) as plain text.',
    },
  },
  brands: {
    unsupported: {
      seoTitle:
        'WooCommerce brands have no SEO title of their own (SEO plugins keep it; wc/v3 gives terms no meta data).',
      seoDescription:
        'WooCommerce brands have no SEO description of their own (SEO plugins keep it; wc/v3 gives terms no meta data).',
      seoKeywords: 'WooCommerce brands have no SEO keywords.',
      searchKeywords: 'WooCommerce brands have no search keywords of their own.',
      metafields:
        "WooCommerce's REST API keeps no custom fields on brands (no term meta in wc/v3).",
    },
    converted: {
      description:
        'WordPress keeps only links and text styles in brand descriptions: paragraphs and line breaks are kept as such, other block markup (lists, headings) as plain text.',
      imageUrl:
        "The logo is copied into the destination's media library (once per address) and answered with its new address there.",
      sourceUrlPath:
        "A brand's page is /brand/<parent slugs>/<slug>/ on the destination, as on a WooCommerce source.",
    },
  },
  products: {
    comparable: {
      metafields: productMetafieldsKept,
      'variants.metafields': variantMetafieldsKept,
      status: statusKept,
      options: sharedOptionsKept,
      sharedAttributes: sharedAttributesKept,
      weight: productWeightKept,
      'variants.weight': variantWeightKept,
      'variants.dimensions': variantDimensionsKept,
    },
    unsupported: {
      seoTitle: 'WooCommerce has no SEO title of its own (SEO plugins keep it).',
      seoDescription: 'WooCommerce has no SEO description of its own (SEO plugins keep it).',
      updatedAt: 'WooCommerce stamps the modification date itself.',
    },
    converted: {
      status:
        'WooCommerce has no archived status: an archived product is written as private (not for sale, shown to the shop staff only).',
      vendor: 'Kept as the product brand (WooCommerce Brands).',
      'options.shared':
        'A store-wide option or attribute becomes a WooCommerce global attribute (pa_<slug>), found by its slug or name or created once.',
      options:
        "The values of an option from a store-wide attribute are listed in the attribute's own term order, not in the order they were sent.",
      weight:
        "A simple product has one weight: a product without one whose only variant has one is written with the variant's.",
      'variants.weight':
        "A variation with its product's weight leaves it empty and inherits the product's.",
      'variants.dimensions':
        "A variation with its product's dimensions leaves them empty and inherits the product's.",
      sharedAttributes:
        "A store-wide attribute the source defined by its slug only is created with WooCommerce's defaults (no archives, terms in the order of the product's values).",
      metafields:
        "Kept as the product's meta data; a key from another platform is prefixed with its namespace.",
      'variants.metafields':
        "Kept as the variation's meta data (a simple product's only variant's with the product's); a key from another platform is prefixed with its namespace.",
    },
  },
  coupons: {
    comparable: { code: couponCodeKept, allowedEmails: allowedEmailsKept, metafields: asWooKeeps },
    unsupported: {
      startsAt:
        'WooCommerce coupons have no start date: a coupon whose start is still to come is written as a draft, to be published on that date under Marketing > Coupons.',
      usageCount:
        "WooCommerce counts a coupon's uses itself, from the orders that use it at the destination; the count at the source is not copied.",
      createdAt: 'WooCommerce dates a coupon when it is created (the REST API cannot set it).',
    },
    converted: {
      code: 'WooCommerce keeps coupon codes in lower case; customers may type them in any case.',
      allowedEmails: "WooCommerce keeps a coupon's e-mail restrictions in lower case.",
      metafields:
        "Kept as the coupon's meta data; a key from another platform is prefixed with its namespace.",
    },
  },
  reviews: {
    comparable: { body: reviewTextKept },
    unsupported: {
      title:
        'WooCommerce reviews have no headline; the title is not written (nor added to the text, which stays the reviewer’s).',
    },
    converted: {
      status:
        "Pending is kept as held for moderation; rejected is kept in the bin (trash), which WordPress empties 30 days after a review is put there, so a rejected review is deleted at the destination then (each such review's report row says so).",
      body: 'WordPress adds rel="nofollow ugc" to the links in a review’s text.',
      reviewerName:
        "WordPress keeps a reviewer's name as plain text on one line (tags and extra white space removed; the review's report row says so when it changed).",
      reviewerEmail:
        "An address WordPress does not accept is not kept: the review is written without it (the review's report row says so).",
      verified:
        'A verified review is written verified (the REST API takes verified: true although its index lists it read-only); for any other, WooCommerce decides when the review is written whether its reviewer has a paid order of the product at the destination, and marks it verified if so (the report row says so).',
      createdAt:
        'Kept through date_created_gmt, to the second (the REST API takes it although its index lists it read-only).',
    },
  },
  customers: {
    comparable: { metafields: asWooKeeps, username: usernameKept },
    unsupported: {
      acceptsMarketing: 'WooCommerce keeps no marketing consent on the account.',
      note: 'WooCommerce keeps no note on a customer account.',
      tags: 'WooCommerce has no customer tags.',
      group:
        "WooCommerce's REST API creates every account with the customer role; other roles or groups are not kept.",
      createdAt: 'WooCommerce dates an account when it is created (the REST API cannot set it).',
    },
    converted: {
      phone: "Kept as the billing address's phone (WooCommerce has no other phone on an account).",
      username:
        'An account without a username gets the one WooCommerce derives from its e-mail address.',
      metafields:
        "Kept as the account's meta data; a key from another platform is prefixed with its namespace.",
    },
  },
  orders: {
    comparable: {
      metafields: asWooKeeps,
      'discounts.code': couponCodeKept,
      'billingAddress.email': billingEmailKept,
      createdVia: createdViaKept,
      'lines.meta': lineMetaKept,
    },
    unsupported: {
      'shippingAddress.email': "WooCommerce keeps no e-mail on an order's shipping address.",
      number:
        "WooCommerce numbers orders itself; the source's number is kept in the order's meta data (_replatform_source_number).",
      createdAt:
        "WooCommerce dates an order when it is created (the REST API cannot set it); the source's date is kept in the order's meta data (_replatform_source_created_at).",
      updatedAt: 'WooCommerce stamps the modification date itself.',
      'refunds.createdAt': 'WooCommerce dates a refund when it is recorded (not writable).',
      'notes.createdAt': 'WooCommerce dates a note when it is added (not writable).',
    },
    converted: {
      discounts:
        'Coupon lines are recorded through a temporary coupon of the same code and amount, deleted right after; the lines keep their totals before and after the discount.',
      taxTotal:
        "WooCommerce works out taxes only from its own tax rates: historical taxes are kept as a non-taxable fee line 'Tax' and the line and shipping taxes in their meta data (_replatform_tax).",
      'discounts.code': 'WooCommerce lower-cases coupon codes.',
      'billingAddress.email':
        "WooCommerce keeps an order's e-mail as its billing address's e-mail (written there when the billing address has none).",
      createdVia:
        "WooCommerce names where every order was created; an order whose source did not is marked as created by the import ('replatform').",
      'notes.author':
        "A note written by a person is attributed to the user of the API key; one the store wrote stays the store's.",
      paymentStatus:
        'Kept through the order status and the payment date; partial payment and authorisation have no WooCommerce form and are reported per order.',
      fulfillmentStatus:
        'Kept through the completed status and the completion date; partial fulfilment has no WooCommerce form and is reported per order.',
      metafields:
        "Kept as the order's meta data; a key from another platform is prefixed with its namespace.",
      'lines.meta':
        "Kept as the line's meta data; WooCommerce also adds the chosen variation's attributes to a line that points at a variation (pa_color: black), beside the source's own entries.",
    },
  },
};

/** The embedded sub-record keys (see the top of this file). */
export const embedded = {
  variations: 'variation_records',
  refunds: 'refund_records',
  notes: 'note_records',
} as const;
