import { randomUUID } from 'node:crypto';

/**
 * What one emulated BigCommerce store holds, kept in the platform's own field names so that the
 * routes only add computed fields and pick what each endpoint shows. Money of the v3 catalog is a
 * number (as v3 carries it); money of v2 orders is integer ten-thousandths, formatted on the way out.
 */

export interface BcTree {
  id: number;
  name: string;
  channels: number[];
}

export interface BcCategory {
  category_id: number;
  category_uuid: string;
  tree_id: number;
  parent_id: number;
  name: string;
  description: string;
  views: number;
  sort_order: number;
  page_title: string;
  meta_keywords: string[];
  meta_description: string;
  layout_file: string;
  /** Path of the re-hosted category image under /media, '' when none. */
  image_path: string;
  is_visible: boolean;
  search_keywords: string;
  default_product_sort: string;
  url: { path: string; is_customized: boolean };
}

export interface BcBrand {
  id: number;
  name: string;
  page_title: string;
  meta_keywords: string[];
  meta_description: string;
  search_keywords: string;
  image_path: string;
  custom_url: { url: string; is_customized: boolean };
}

export interface BcOptionValue {
  id: number;
  label: string;
  sort_order: number;
  is_default: boolean;
  /** Swatch colours or image, product list target, checkbox state; null when none. */
  value_data: Record<string, unknown> | null;
}

export interface BcOption {
  id: number;
  product_id: number;
  name: string;
  display_name: string;
  type: string;
  sort_order: number;
  /** productOptionConfig_Full; {} for the option types variants use. */
  config: Record<string, unknown>;
  option_values: BcOptionValue[];
}

/** A product modifier (productModifier_Full): a choice or input that makes no variant. */
export interface BcModifier {
  id: number;
  product_id: number;
  name: string;
  display_name: string;
  type: string;
  required: boolean;
  sort_order: number;
  config: Record<string, unknown>;
  option_values: {
    id: number;
    option_id: number;
    label: string;
    sort_order: number;
    is_default: boolean;
    value_data: Record<string, unknown> | null;
    adjusters: Record<string, unknown>;
  }[];
}

/** bulkPricingRule_Full with its id. */
export interface BcBulkPricingRule {
  id: number;
  quantity_min: number;
  quantity_max: number;
  type: 'price' | 'percent' | 'fixed';
  amount: number;
}

/** productVideo_Full. */
export interface BcVideo {
  id: number;
  product_id: number;
  title: string;
  description: string;
  sort_order: number;
  type: 'youtube';
  video_id: string;
  length: string;
}

export interface BcVariant {
  id: number;
  product_id: number;
  sku: string;
  sku_id: number;
  cost_price: number | null;
  price: number | null;
  sale_price: number | null;
  retail_price: number | null;
  map_price: number | null;
  weight: number | null;
  width: number | null;
  height: number | null;
  depth: number | null;
  is_free_shipping: boolean;
  fixed_cost_shipping_price: number | null;
  purchasing_disabled: boolean;
  purchasing_disabled_message: string;
  /** Path of the re-hosted variant image under /media, '' when none. */
  image_path: string;
  upc: string;
  gtin: string;
  mpn: string;
  inventory_level: number;
  inventory_warning_level: number;
  bin_picking_number: string;
  /** [option id, option value id] pairs; empty for the base variant of a simple product. */
  option_value_ids: [number, number][];
}

export interface BcImage {
  id: number;
  product_id: number;
  is_thumbnail: boolean;
  sort_order: number;
  description: string;
  image_file: string;
  /** Path under /media of the re-hosted file. */
  path: string;
  date_modified: number;
}

export interface BcCustomField {
  id: number;
  name: string;
  value: string;
}

export interface BcProduct {
  id: number;
  name: string;
  type: 'physical' | 'digital';
  sku: string;
  description: string;
  weight: number;
  width: number;
  depth: number;
  height: number;
  price: number;
  cost_price: number;
  retail_price: number;
  sale_price: number;
  map_price: number;
  tax_class_id: number;
  product_tax_code: string;
  categories: number[];
  brand_id: number;
  inventory_level: number;
  inventory_warning_level: number;
  inventory_tracking: 'none' | 'product' | 'variant';
  fixed_cost_shipping_price: number;
  is_free_shipping: boolean;
  is_visible: boolean;
  is_featured: boolean;
  related_products: number[];
  warranty: string;
  bin_picking_number: string;
  layout_file: string;
  upc: string;
  gtin: string;
  mpn: string;
  search_keywords: string;
  availability: 'available' | 'disabled' | 'preorder';
  availability_description: string;
  gift_wrapping_options_type: 'any' | 'none' | 'list';
  gift_wrapping_options_list: number[];
  sort_order: number;
  condition: 'New' | 'Used' | 'Refurbished';
  is_condition_shown: boolean;
  order_quantity_minimum: number;
  order_quantity_maximum: number;
  page_title: string;
  meta_keywords: string[];
  meta_description: string;
  view_count: number;
  preorder_release_date: string | null;
  preorder_message: string;
  is_preorder_only: boolean;
  is_price_hidden: boolean;
  price_hidden_label: string;
  custom_url: { url: string; is_customized: boolean };
  open_graph_type: string;
  open_graph_title: string;
  open_graph_description: string;
  open_graph_use_meta_description: boolean;
  open_graph_use_product_name: boolean;
  open_graph_use_image: boolean;
  reviews_rating_sum: number;
  reviews_count: number;
  total_sold: number;
  date_created: number;
  date_modified: number;
  options: BcOption[];
  modifiers: BcModifier[];
  variants: BcVariant[];
  images: BcImage[];
  custom_fields: BcCustomField[];
  bulk_pricing_rules: BcBulkPricingRule[];
  videos: BcVideo[];
}

export type MetafieldResource = 'product' | 'category' | 'customer' | 'brand' | 'variant';

export interface BcMetafield {
  id: number;
  namespace: string;
  key: string;
  value: string;
  permission_set: 'app_only' | 'read' | 'write' | 'read_and_sf_access' | 'write_and_sf_access';
  description: string;
  resource_type: MetafieldResource;
  resource_id: number;
  date_created: number;
  date_modified: number;
}

export interface BcCustomerAddress {
  id: number;
  customer_id: number;
  first_name: string;
  last_name: string;
  company: string;
  address1: string;
  address2: string;
  city: string;
  state_or_province: string;
  postal_code: string;
  country_code: string;
  phone: string;
  address_type: 'residential' | 'commercial';
  form_fields: BcFormFieldValue[];
}

/** A value of a form field the store added to its sign-up or address form (formFieldValue). */
export interface BcFormFieldValue {
  name: string;
  value: string | number | string[];
}

/** A customer attribute the store defines (attribute_Full of /customers/attributes). */
export interface BcCustomerAttribute {
  id: number;
  name: string;
  type: 'string' | 'number' | 'date';
  date_created: number;
  date_modified: number;
}

/** One customer's value of a store attribute (/customers/attribute-values). */
export interface BcAttributeValue {
  id: number;
  attribute_id: number;
  attribute_value: string;
  date_created: number;
  date_modified: number;
}

export type ConsentCategory = 'essential' | 'functional' | 'analytics' | 'targeting';

export interface BcCustomer {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  company: string;
  phone: string;
  registration_ip_address: string;
  notes: string;
  tax_exempt_category: string;
  customer_group_id: number;
  date_created: number;
  date_modified: number;
  force_password_reset: boolean;
  accepts_product_review_abandoned_cart_emails: boolean;
  origin_channel_id: number;
  channel_ids: number[];
  store_credit_amounts: { amount: number }[];
  addresses: BcCustomerAddress[];
  attributes: BcAttributeValue[];
  form_fields: BcFormFieldValue[];
  consent: { allow: ConsentCategory[]; deny: ConsentCategory[]; updated_at: number };
}

export interface BcOrderAddress {
  first_name: string;
  last_name: string;
  company: string;
  street_1: string;
  street_2: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  country_iso2: string;
  phone: string;
  email: string;
}

export interface BcOrderShippingAddress extends BcOrderAddress {
  id: number;
  shipping_method: string;
  /** Ten-thousandths. */
  cost_ex_tax: number;
  cost_inc_tax: number;
  items_total: number;
  items_shipped: number;
}

export interface BcOrderProductOption {
  id: number;
  option_id: number;
  product_option_id: number;
  display_name: string;
  display_value: string;
  value: string;
}

export interface BcOrderProduct {
  id: number;
  product_id: number;
  variant_id: number;
  order_address_id: number;
  name: string;
  name_customer: string;
  name_merchant: string;
  sku: string;
  upc: string;
  type: 'physical' | 'digital';
  quantity: number;
  quantity_shipped: number;
  quantity_refunded: number;
  /** Ten-thousandths, per unit. */
  price_ex_tax: number;
  price_inc_tax: number;
  weight: number;
  brand: string;
  wrapping_id: number;
  wrapping_name: string;
  wrapping_message: string;
  /** Ten-thousandths, for the line's whole quantity. */
  wrapping_cost_ex_tax: number;
  wrapping_cost_inc_tax: number;
  product_options: BcOrderProductOption[];
}

/** An order fee (orderFees_Resp); amounts in ten-thousandths. */
export interface BcOrderFee {
  id: number;
  type: 'custom_fee';
  display_name_customer: string;
  display_name_merchant: string;
  source: string;
  cost_ex_tax: number;
  cost_inc_tax: number;
  tax_class_id: number | null;
}

export interface BcOrderCoupon {
  id: number;
  coupon_id: number;
  code: string;
  /** Ten-thousandths. */
  amount: number;
  type: 0 | 1 | 2 | 3 | 4 | 5;
}

/** A coupon (marketing.v2.yml coupon_Full); amounts in ten-thousandths like v2 orders. */
export interface BcCoupon {
  id: number;
  name: string;
  code: string;
  type:
    | 'per_item_discount'
    | 'per_total_discount'
    | 'shipping_discount'
    | 'free_shipping'
    | 'percentage_discount'
    | 'promotion';
  amount: number;
  min_purchase: number;
  /** RFC 2822 date the code stops working, '' when never. */
  expires: string;
  enabled: boolean;
  /** ids [0] with categories: the whole store. */
  applies_to: { entity: 'categories' | 'products'; ids: number[] };
  num_uses: number;
  max_uses: number;
  max_uses_per_customer: number;
  /** Country codes the coupon is limited to, as the description gives them. */
  restricted_to: { countries?: string };
  shipping_methods: string[];
  date_created: number;
}

/**
 * A web page (pages.v3.yml): a content page, a raw page (any markup), a contact form, a menu link
 * to another site, or the blog's own page. `body` is null for types without one.
 */
export interface BcWebPage {
  id: number;
  channel_id: number;
  name: string;
  is_visible: boolean;
  parent_id: number;
  sort_order: number;
  type: 'page' | 'raw' | 'contact_form' | 'link' | 'blog';
  body: string | null;
  is_homepage: boolean;
  is_customers_only: boolean;
  /** Storefront path ('/about-us/'); '' for a link. */
  url: string;
  meta_title: string | null;
  meta_keywords: string | null;
  meta_description: string | null;
  search_keywords: string | null;
  /** contact_form only. */
  email?: string;
  contact_fields?: string;
  /** link only. */
  link?: string;
  /** raw only. */
  content_type?: string;
}

/**
 * A blog post (store_content.v2.yml blogPost_Full). `summary` is BigCommerce's own (read-only),
 * made from the body; `published_date` is epoch milliseconds.
 */
export interface BcBlogPost {
  id: number;
  title: string;
  url: string;
  body: string;
  tags: string[];
  is_published: boolean;
  published_date: number;
  meta_description: string;
  meta_keywords: string;
  author: string;
  /** Path of a file in the store's WebDAV /product_images/ folder, '' when none. */
  thumbnail_path: string;
}

/**
 * A product review (products_catalog.v3.yml "Product Review"): the reviewer's title and text, the
 * stars (0 to 5), the moderation state and when it was reviewed; BigCommerce stamps when it was
 * entered and changed. Dates are epoch milliseconds, answered as v3 date-times.
 */
export interface BcReview {
  id: number;
  product_id: number;
  title: string;
  text: string;
  status: 'approved' | 'disapproved' | 'pending';
  rating: number;
  /** '' when the reviewer left none. */
  email: string;
  name: string;
  date_reviewed: number;
  date_created: number;
  date_modified: number;
}

export interface BcOrder {
  id: number;
  customer_id: number;
  date_created: number;
  date_modified: number;
  date_shipped: number | null;
  status_id: number;
  cart_id: string;
  /** All amounts in ten-thousandths. */
  subtotal_ex_tax: number;
  subtotal_inc_tax: number;
  base_shipping_cost: number;
  base_handling_cost: number;
  base_wrapping_cost: number;
  shipping_cost_ex_tax: number;
  shipping_cost_inc_tax: number;
  handling_cost_ex_tax: number;
  handling_cost_inc_tax: number;
  wrapping_cost_ex_tax: number;
  wrapping_cost_inc_tax: number;
  total_ex_tax: number;
  total_inc_tax: number;
  discount_amount: number;
  refunded_amount: number;
  store_credit_amount: number;
  gift_certificate_amount: number;
  items_shipped: number;
  payment_method: string;
  payment_provider_id: string;
  payment_status: string;
  is_tax_inclusive_pricing: boolean;
  order_is_digital: boolean;
  currency_code: string;
  default_currency_code: string;
  staff_notes: string;
  customer_message: string;
  billing_address: BcOrderAddress;
  is_email_opt_in: boolean;
  order_source: string;
  channel_id: number;
  external_source: string | null;
  external_id: string | null;
  external_merchant_id: string | null;
  external_order_id: string;
  ebay_order_id: string;
  ip_address: string;
  ip_address_v6: string;
  geoip_country: string;
  geoip_country_iso2: string;
  customer_locale: string;
  products: BcOrderProduct[];
  shipping_addresses: BcOrderShippingAddress[];
  coupons: BcOrderCoupon[];
  fees: BcOrderFee[];
}

export interface StoreSettings {
  name: string;
  currency: string;
  /** As GET /v2/store reports them: 'KGS' | 'LBS' | 'Ounces' | 'Grams'. */
  weightUnits: string;
  /** 'Centimeters' | 'Inches'. */
  dimensionUnits: string;
  planName: string;
}

/** The order statuses of every BigCommerce store (orders.v2.oas2.yml orderStatusCollection_Resp). */
export const orderStatuses: { id: number; name: string; description: string; order: number }[] = [
  {
    id: 0,
    name: 'Incomplete',
    description:
      'An incomplete order happens when a shopper reached the payment page, but did not complete the transaction.',
    order: 0,
  },
  {
    id: 1,
    name: 'Pending',
    description: 'Customer started the checkout process, but did not complete it.',
    order: 1,
  },
  {
    id: 2,
    name: 'Shipped',
    description: 'Order has been shipped, but receipt has not been confirmed.',
    order: 8,
  },
  {
    id: 3,
    name: 'Partially Shipped',
    description: 'Only some items in the order have been shipped.',
    order: 6,
  },
  { id: 4, name: 'Refunded', description: 'Seller has used the Refund action.', order: 11 },
  {
    id: 5,
    name: 'Cancelled',
    description: 'Seller has cancelled an order, due to a stock inconsistency or other reasons.',
    order: 9,
  },
  {
    id: 6,
    name: 'Declined',
    description: 'Seller has marked the order as declined for lack of manual payment.',
    order: 10,
  },
  {
    id: 7,
    name: 'Awaiting Payment',
    description: 'Customer has completed checkout process, but payment has yet to be confirmed.',
    order: 2,
  },
  {
    id: 8,
    name: 'Awaiting Pickup',
    description: 'Order has been pulled, and is awaiting customer pickup.',
    order: 5,
  },
  {
    id: 9,
    name: 'Awaiting Shipment',
    description: 'Order has been pulled and packaged, and is awaiting collection.',
    order: 4,
  },
  {
    id: 10,
    name: 'Completed',
    description: 'Client has paid for their digital product and their file(s) are available.',
    order: 7,
  },
  {
    id: 11,
    name: 'Awaiting Fulfillment',
    description: 'Customer has completed the checkout process and payment has been confirmed.',
    order: 3,
  },
  {
    id: 12,
    name: 'Manual Verification Required',
    description: 'Order is on hold while some aspect needs to be manually confirmed.',
    order: 13,
  },
  {
    id: 13,
    name: 'Disputed',
    description: 'Customer has initiated a dispute resolution process.',
    order: 12,
  },
  {
    id: 14,
    name: 'Partially Refunded',
    description: 'Seller has partially refunded the order.',
    order: 14,
  },
];

/** One 301 redirect (redirects.v3.yml 301RedirectRead, without the computed to_url). */
export interface BcRedirect {
  id: number;
  site_id: number;
  from_path: string;
  to: {
    type: 'product' | 'brand' | 'category' | 'page' | 'post' | 'url';
    entity_id?: number;
    url?: string;
  };
}

/** An e-mail the store sent to a customer on an API call's request. */
export interface BcEmail {
  kind: 'account_created';
  to: string;
  customerId: number;
}

/** Ids are per resource and never reused, like the platform's auto-increment keys. */
export class BcState {
  readonly settings: StoreSettings;
  readonly trees: BcTree[] = [{ id: 1, name: 'Default', channels: [1] }];
  readonly categories: BcCategory[] = [];
  readonly brands: BcBrand[] = [];
  readonly products: BcProduct[] = [];
  readonly metafields: BcMetafield[] = [];
  readonly customers: BcCustomer[] = [];
  readonly customerAttributes: BcCustomerAttribute[] = [];
  readonly orders: BcOrder[] = [];
  /** Orders DELETE /v2/orders/{id} archived: kept by the store, no longer listed or counted. */
  readonly archivedOrders: BcOrder[] = [];
  readonly coupons: BcCoupon[] = [];
  readonly reviews: BcReview[] = [];
  readonly webPages: BcWebPage[] = [];
  readonly blogPosts: BcBlogPost[] = [];
  /** 301 redirects of the store's sites (redirects.v3.yml), see redirects.ts. */
  readonly redirects: BcRedirect[] = [];
  /**
   * E-mails the store would have sent because an API call asked for them, so tests can see
   * whether a customer would have been told (a customer create with
   * trigger_account_created_notification true sends the account-created e-mail).
   */
  readonly emails: BcEmail[] = [];
  readonly #counters = new Map<string, number>();

  constructor(settings: StoreSettings) {
    this.settings = settings;
  }

  nextId(kind: string, start = 1): number {
    const next = (this.#counters.get(kind) ?? start - 1) + 1;
    this.#counters.set(kind, next);
    return next;
  }

  uuid(): string {
    return randomUUID();
  }

  product(id: number): BcProduct | undefined {
    return this.products.find((p) => p.id === id);
  }

  // Unique keys of products (lower-cased SKU, lower-cased name, custom URL) -> product id, so a
  // sandbox store of thousands of products checks uniqueness without scanning the catalog.
  readonly #skus = new Map<string, number>();
  readonly #names = new Map<string, number>();
  readonly #urls = new Map<string, number>();

  indexProduct(product: BcProduct): void {
    for (const sku of [product.sku, ...product.variants.map((v) => v.sku)]) {
      if (sku) this.#skus.set(sku.toLowerCase(), product.id);
    }
    this.#names.set(product.name.toLowerCase(), product.id);
    this.#urls.set(product.custom_url.url, product.id);
  }

  unindexProduct(product: BcProduct): void {
    for (const map of [this.#skus, this.#names, this.#urls]) {
      for (const [key, id] of map) if (id === product.id) map.delete(key);
    }
  }

  /** SKUs are unique across products and variants, ignoring case (productVariant_Full.sku). */
  skuTaken(sku: string, exceptProductId?: number): boolean {
    const owner = this.#skus.get(sku.toLowerCase());
    return owner !== undefined && owner !== exceptProductId;
  }

  /** Product names are unique, ignoring case ("The product name is a duplicate"). */
  nameTaken(name: string, exceptProductId?: number): boolean {
    const owner = this.#names.get(name.toLowerCase());
    return owner !== undefined && owner !== exceptProductId;
  }

  urlTaken(url: string, exceptProductId?: number): boolean {
    const owner = this.#urls.get(url);
    return owner !== undefined && owner !== exceptProductId;
  }
}
