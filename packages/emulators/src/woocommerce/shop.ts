import {
  asBool,
  asInt,
  asList,
  asObject,
  asString,
  CatalogStore,
  formatDecimal,
  parseWcDate,
  type ImageFetcher,
  type Json,
  type Meta,
  type Product,
  type StoreSettings,
} from './store.ts';
import { ProductReviews } from './reviews.ts';
import { routeTable } from './route-table.ts';
import { RestError } from './wp-rest.ts';
import { WpContent } from './wp-content.ts';

/** get_woocommerce_currencies(), as the orders route lists them. */
const currencies = new Set(
  (
    routeTable['/wc/v3/orders']?.endpoints.find((e) => e.methods.includes('POST'))?.args.currency
      ?.enum ?? []
  ).map(String),
);

/**
 * Customers, orders, coupons, settings and e-mail of the emulated store, with the order rules a
 * migration runs into: totals recalculated by the store (taxes off, as on a fresh install),
 * coupons that must exist, `set_paid` running payment_complete(), status changes that send the
 * status's e-mails and reduce stock unless the order says its stock was already reduced.
 */

export interface WcAddress {
  first_name: string;
  last_name: string;
  company: string;
  address_1: string;
  address_2: string;
  city: string;
  state: string;
  postcode: string;
  country: string;
  phone: string;
  email?: string;
}

export interface Customer {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  username: string;
  role: string;
  billing: WcAddress & { email: string };
  shipping: WcAddress;
  meta: Meta[];
  created: number;
  modified: number;
  isPayingCustomer: boolean;
}

export interface TaxEntry {
  id: number;
  total: string;
  subtotal: string;
}

export interface LineItem {
  id: number;
  name: string;
  productId: number;
  variationId: number;
  quantity: number;
  taxClass: string;
  subtotal: number;
  subtotalTax: number;
  total: number;
  totalTax: number;
  taxes: TaxEntry[];
  meta: Meta[];
}

export interface ShippingLine {
  id: number;
  methodTitle: string;
  methodId: string;
  instanceId: string;
  total: number;
  totalTax: number;
  taxes: { id: number; total: string }[];
  meta: Meta[];
}

export interface FeeLine {
  id: number;
  name: string;
  taxClass: string;
  taxStatus: string;
  total: number;
  totalTax: number;
  meta: Meta[];
}

export interface CouponLine {
  id: number;
  /** The coupon's id when it was applied (its coupon_info). */
  couponId: number;
  code: string;
  discount: number;
  discountTax: number;
  discountType: string;
  nominalAmount: number;
  freeShipping: boolean;
  meta: Meta[];
}

export interface TaxLine {
  id: number;
  rateCode: string;
  rateId: number;
  label: string;
  compound: boolean;
  taxTotal: number;
  shippingTaxTotal: number;
}

export interface Order {
  id: number;
  parentId: number;
  status: string;
  currency: string;
  createdVia: string;
  version: string;
  pricesIncludeTax: boolean;
  customerId: number;
  customerNote: string;
  customerIpAddress: string;
  customerUserAgent: string;
  billing: WcAddress & { email: string };
  shipping: WcAddress;
  paymentMethod: string;
  paymentMethodTitle: string;
  transactionId: string;
  orderKey: string;
  created: number;
  modified: number;
  datePaid: number | null;
  dateCompleted: number | null;
  meta: Meta[];
  lineItems: LineItem[];
  taxLines: TaxLine[];
  shippingLines: ShippingLine[];
  feeLines: FeeLine[];
  couponLines: CouponLine[];
  notes: OrderNote[];
  stockReduced: boolean;
  discountTotal: number;
  discountTax: number;
  shippingTotal: number;
  shippingTax: number;
  cartTax: number;
  total: number;
  totalTax: number;
}

/** An order note (a WordPress comment on the order). */
export interface OrderNote {
  id: number;
  author: string;
  created: number;
  content: string;
  customerNote: boolean;
}

/** A refund (an order of type shop_order_refund whose parent is the order). */
export interface Refund {
  id: number;
  parentId: number;
  created: number;
  amount: number;
  reason: string;
  refundedBy: number;
  refundedPayment: boolean;
  meta: Meta[];
  /** Items given back: negative quantities and amounts, `_refunded_item_id` naming the item. */
  lineItems: LineItem[];
}

export interface Coupon {
  id: number;
  code: string;
  /**
   * Post status: only 'publish' coupons apply at checkout or are found by their code. The REST
   * API stores any status it is sent.
   */
  status: string;
  /** When it stops applying (ms), or null. */
  dateExpires: number | null;
  amount: string;
  discountType: string;
  description: string;
  freeShipping: boolean;
  /** Lower case, as WC_Coupon::set_email_restrictions() keeps them; `null` for a dropped entry. */
  emailRestrictions: (string | null)[];
  individualUse: boolean;
  productIds: number[];
  excludedProductIds: number[];
  /** 0 is no limit. */
  usageLimit: number;
  usageLimitPerUser: number;
  limitUsageToXItems: number;
  productCategories: number[];
  excludedProductCategories: number[];
  excludeSaleItems: boolean;
  /** '' when none. */
  minimumAmount: string;
  maximumAmount: string;
  usageCount: number;
  usedBy: string[];
  created: number;
  modified: number;
  meta: Meta[];
}

export interface SentEmail {
  template: string;
  to: string;
  orderId?: number;
  customerId?: number;
}

/** The e-mails of WooCommerce 11, with their titles; the first three go to the shop owner. */
export const emailTemplates: Record<string, string> = {
  new_order: 'New order',
  cancelled_order: 'Cancelled order',
  failed_order: 'Failed order',
  customer_cancelled_order: 'Cancelled order',
  customer_failed_order: 'Failed order',
  customer_on_hold_order: 'Order on-hold',
  customer_processing_order: 'Processing order',
  customer_completed_order: 'Completed order',
  customer_refunded_order: 'Refunded order',
  customer_invoice: 'Order details',
  customer_note: 'Customer note',
  customer_reset_password: 'Reset password',
  customer_new_account: 'New account',
};

export interface EmailSetting {
  enabled: 'yes' | 'no';
  subject: string;
  heading: string;
  additional_content: string;
  email_type: string;
  recipient?: string;
}

export const orderStatuses = [
  'pending',
  'processing',
  'on-hold',
  'completed',
  'cancelled',
  'refunded',
  'failed',
  'checkout-draft',
] as const;

const round = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;
const money = (v: unknown) => {
  const n = Number(formatDecimal(v));
  return Number.isFinite(n) ? n : 0;
};

export function emptyAddress(): WcAddress {
  return {
    first_name: '',
    last_name: '',
    company: '',
    address_1: '',
    address_2: '',
    city: '',
    state: '',
    postcode: '',
    country: '',
    phone: '',
  };
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class WooStore extends CatalogStore {
  readonly customers = new Map<number, Customer>();
  readonly orders = new Map<number, Order>();
  readonly coupons = new Map<number, Coupon>();
  readonly refunds = new Map<number, Refund>();
  /** Product reviews (WordPress comments, numbered with the order notes). */
  readonly reviews: ProductReviews = new ProductReviews(this);
  readonly emails = new Map<string, EmailSetting>();
  readonly outbox: SentEmail[] = [];
  readonly adminEmail = 'admin@example.com';
  protected nextUserId = 2;
  protected nextItemId = 1;
  protected nextCommentId = 1;
  /** WordPress's own pages, blog posts, their categories and tags, and its users (wp/v2). */
  readonly wp: WpContent = new WpContent(this);

  /** WordPress users (customers and authors) share one ID sequence; 1 is the administrator. */
  userId(): number {
    return this.nextUserId++;
  }

  constructor(settings: StoreSettings, fetchImage: ImageFetcher) {
    super(settings, fetchImage);
    for (const id of Object.keys(emailTemplates)) {
      this.emails.set(id, {
        enabled: 'yes',
        subject: '',
        heading: '',
        additional_content: '',
        email_type: 'html',
        ...(id.startsWith('customer_') ? {} : { recipient: this.adminEmail }),
      });
    }
  }

  /** wp_delete_post() deletes the post's comments: a deleted product's reviews go with it. */
  override deleteProduct(product: Product): void {
    super.deleteProduct(product);
    for (const review of [...this.reviews.all.values()])
      if (review.productId === product.id) this.reviews.all.delete(review.id);
  }

  itemId(): number {
    return this.nextItemId++;
  }

  /** The next comment id (order notes are WordPress comments). */
  noteId(): number {
    return this.nextCommentId++;
  }

  /**
   * Sends an e-mail if it is switched on, as WC_Email::trigger() does; an order's e-mail that
   * went out is noted on the order.
   */
  private mail(template: string, to: string, ref: { orderId?: number; customerId?: number }) {
    if (this.emails.get(template)?.enabled !== 'yes' || !to) return;
    this.outbox.push({ template, to, ...ref });
    const order = ref.orderId ? this.orders.get(ref.orderId) : undefined;
    if (order) this.addNote(order, `Email "${emailTemplates[template] ?? template}" sent.`);
  }

  // -------------------------------------------------------------------------------------------
  // Customers

  private address(
    input: unknown,
    base: WcAddress,
    withEmail: boolean,
    kind = 'billing',
  ): WcAddress & { email: string } {
    const a = asObject(input);
    const out = { ...base, email: base.email ?? '' } as WcAddress & { email: string };
    for (const key of Object.keys(emptyAddress()) as (keyof WcAddress)[])
      if (a[key] !== undefined)
        out[key] = asString(a[key])
          .replace(/<[^>]*>/g, '')
          .trim();
    if (withEmail && a.email !== undefined && a.email !== null) {
      const email = asString(a.email).trim();
      // The route's schema gives the e-mail the 'email' format, which '' does not pass.
      if (email === '')
        throw new RestError(400, 'rest_invalid_param', `Invalid parameter(s): ${kind}`, {
          params: { [kind]: 'Invalid email address.' },
          details: {
            [kind]: { code: 'rest_invalid_email', message: 'Invalid email address.', data: null },
          },
        });
      if (!emailPattern.test(email))
        throw new RestError(400, 'customer_invalid_billing_email', 'Invalid billing email address');
      out.email = email;
    }
    if (!withEmail) delete (out as Partial<WcAddress>).email;
    return out;
  }

  private usernameFrom(email: string): string {
    const base =
      (email.split('@')[0] ?? 'customer')
        .replace(/\+.*$/, '')
        .replace(/[^A-Za-z0-9_.-]/g, '')
        .toLowerCase() || 'customer';
    const taken = new Set([...this.customers.values()].map((c) => c.username));
    taken.add('admin');
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}-${n}`;
    return candidate;
  }

  private emailTaken(email: string, self: number): boolean {
    const lower = email.toLowerCase();
    return (
      lower === this.adminEmail ||
      [...this.customers.values()].some((c) => c.email.toLowerCase() === lower && c.id !== self)
    );
  }

  /** WC_REST_Customers_Controller::create_item(): wc_create_new_customer() rules. */
  createCustomer(input: Json, created?: number): Customer {
    const email = asString(input.email).trim();
    if (!emailPattern.test(email))
      throw new RestError(
        400,
        'registration-error-invalid-email',
        'Please provide a valid email address.',
      );
    if (this.emailTaken(email, 0))
      throw new RestError(
        400,
        'registration-error-email-exists',
        'An account is already registered with your email address. <a href="#" class="showlogin">Please log in.</a>',
      );
    let username = asString(input.username).trim();
    if (username && [...this.customers.values()].some((c) => c.username === username))
      throw new RestError(
        400,
        'registration-error-username-exists',
        'An account is already registered with that username. Please choose another.',
      );
    username ||= this.usernameFrom(email);
    const now = this.now();
    const customer: Customer = {
      id: this.nextUserId++,
      email,
      firstName: '',
      lastName: '',
      username,
      role: 'customer',
      billing: { ...emptyAddress(), email: '' },
      shipping: emptyAddress(),
      meta: [],
      created: created ?? now,
      modified: now,
      isPayingCustomer: false,
    };
    this.applyCustomer(customer, input);
    // wc_create_new_customer() flags an account whose password it generated; the REST request's
    // own meta data was applied to an object that did not hold the flag yet.
    if (!asString(input.password)) customer.meta.unshift(this.newMeta('default_password_nag', '1'));
    this.customers.set(customer.id, customer);
    this.mail('customer_new_account', customer.email, { customerId: customer.id });
    return customer;
  }

  /**
   * wp_delete_user() as WC_REST_Customers_Controller calls it (no reassign): the account goes, and
   * its orders stay as guest orders (customer_id 0), as a real WooCommerce 11 store leaves them.
   */
  deleteCustomer(customer: Customer): void {
    this.customers.delete(customer.id);
    for (const order of this.orders.values())
      if (order.customerId === customer.id) order.customerId = 0;
  }

  updateCustomer(existing: Customer, input: Json): Customer {
    const customer = structuredClone(existing);
    if (input.email !== undefined) {
      const email = asString(input.email).trim();
      if (!emailPattern.test(email))
        throw new RestError(400, 'customer_invalid_email', 'Invalid email address');
      if (this.emailTaken(email, customer.id))
        throw new RestError(
          400,
          'existing_user_email',
          'Sorry, that email address is already used!',
        );
      customer.email = email;
    }
    if (input.username !== undefined && asString(input.username) !== customer.username)
      throw new RestError(
        400,
        'woocommerce_rest_customer_invalid_argument',
        "Username isn't editable.",
      );
    this.applyCustomer(customer, input);
    customer.modified = this.now();
    this.customers.set(customer.id, customer);
    return customer;
  }

  private applyCustomer(customer: Customer, input: Json) {
    if (input.first_name !== undefined) customer.firstName = asString(input.first_name).trim();
    if (input.last_name !== undefined) customer.lastName = asString(input.last_name).trim();
    if (input.billing !== undefined)
      customer.billing = this.address(input.billing, customer.billing, true);
    if (input.shipping !== undefined)
      customer.shipping = this.address(input.shipping, customer.shipping, false);
    // update_customer_meta_fields(): protected user meta (a leading _) is not written.
    this.applyMeta(
      customer.meta,
      asList(input.meta_data).filter((m) => !asString(asObject(m).key).startsWith('_')),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Coupons

  createCoupon(input: Json): Coupon {
    if (asString(input.code).trim() === '')
      throw new RestError(
        400,
        'woocommerce_rest_empty_coupon_code',
        'The coupon code cannot be empty.',
      );
    const now = this.now();
    const coupon: Coupon = {
      id: 0,
      code: '',
      status: 'publish',
      dateExpires: null,
      amount: '0',
      discountType: 'fixed_cart',
      description: '',
      freeShipping: false,
      emailRestrictions: [],
      individualUse: false,
      productIds: [],
      excludedProductIds: [],
      usageLimit: 0,
      usageLimitPerUser: 0,
      limitUsageToXItems: 0,
      productCategories: [],
      excludedProductCategories: [],
      excludeSaleItems: false,
      minimumAmount: '',
      maximumAmount: '',
      usageCount: 0,
      usedBy: [],
      created: now,
      modified: now,
      meta: [],
    };
    this.applyCouponFields(coupon, input);
    coupon.id = this.postId();
    this.coupons.set(coupon.id, coupon);
    return coupon;
  }

  /** WC_REST_Coupons_Controller::prepare_object_for_database() for an existing coupon. */
  updateCoupon(existing: Coupon, input: Json): Coupon {
    const coupon = structuredClone(existing);
    this.applyCouponFields(coupon, input);
    coupon.modified = this.now();
    this.coupons.set(coupon.id, coupon);
    return coupon;
  }

  /**
   * The coupon of a code as wc_get_coupon_id_by_code() finds it: published coupons only, the
   * oldest first.
   */
  couponByCode(code: string, except = 0): Coupon | undefined {
    const key = code.trim().toLowerCase();
    return [...this.coupons.values()].find(
      (c) => c.code === key && c.status === 'publish' && c.id !== except,
    );
  }

  /**
   * The merchant's coupons: not the importer's record of switched-off e-mails, nor its temporary
   * coupons of order lines (their meta data says so).
   */
  merchantCoupons(): Coupon[] {
    return [...this.coupons.values()].filter(
      (c) =>
        c.status !== 'trash' &&
        c.code !== 'replatform-import-email-switch' &&
        !c.meta.some((m) => m.key === '_replatform_temporary_coupon'),
    );
  }

  /**
   * The writable fields in WooCommerce's order: the code first (wc_format_coupon_code, then refused
   * when a published coupon other than this one has it), null values ignored, numbers through
   * absint (the batch route does not check types), the expiry only through `date_expires`
   * (WooCommerce 11 has no setter for `date_expires_gmt`, so the REST API ignores it).
   */
  private applyCouponFields(coupon: Coupon, input: Json) {
    const given = (key: string) => input[key] !== undefined && input[key] !== null;
    if (given('code')) {
      const code = asString(input.code).trim().toLowerCase();
      if (!code)
        throw new RestError(
          400,
          'woocommerce_rest_empty_coupon_code',
          'The coupon code cannot be empty.',
        );
      if (this.couponByCode(code, coupon.id))
        throw new RestError(
          400,
          'woocommerce_rest_coupon_code_already_exists',
          'The coupon code already exists',
        );
      coupon.code = code;
    }
    if (given('discount_type')) {
      const type = asString(input.discount_type);
      if (!['percent', 'fixed_cart', 'fixed_product'].includes(type))
        throw new RestError(400, 'coupon_invalid_discount_type', 'Invalid discount type.');
      coupon.discountType = type;
    }
    // A scheduled status without a date to publish on is published at once (wp_insert_post).
    if (given('status'))
      coupon.status = asString(input.status) === 'future' ? 'publish' : asString(input.status);
    if (given('amount')) coupon.amount = formatDecimal(input.amount) || '0';
    if (given('date_expires')) coupon.dateExpires = parseWcDate(input.date_expires) ?? null;
    if (given('description')) coupon.description = asString(input.description);
    const flags = [
      ['free_shipping', 'freeShipping'],
      ['individual_use', 'individualUse'],
      ['exclude_sale_items', 'excludeSaleItems'],
    ] as const;
    for (const [key, field] of flags) if (given(key)) coupon[field] = asBool(input[key]);
    const counts = [
      ['usage_limit', 'usageLimit'],
      ['usage_limit_per_user', 'usageLimitPerUser'],
      ['limit_usage_to_x_items', 'limitUsageToXItems'],
    ] as const;
    for (const [key, field] of counts)
      if (given(key)) coupon[field] = Math.abs(Math.trunc(Number(input[key]))) || 0;
    const lists = [
      ['product_ids', 'productIds'],
      ['excluded_product_ids', 'excludedProductIds'],
      ['product_categories', 'productCategories'],
      ['excluded_product_categories', 'excludedProductCategories'],
    ] as const;
    for (const [key, field] of lists)
      if (given(key))
        coupon[field] = asList(input[key])
          .map((v) => Math.abs(Math.trunc(Number(v))) || 0)
          .filter((v) => v > 0);
    if (given('minimum_amount')) coupon.minimumAmount = formatDecimal(input.minimum_amount);
    if (given('maximum_amount')) coupon.maximumAmount = formatDecimal(input.maximum_amount);
    if (given('email_restrictions')) {
      // sanitize_email() empties what is not an address, and array_filter() drops it but keeps
      // the others' positions.
      const kept = asList(input.email_restrictions).map((e) => {
        const email = asString(e).trim().toLowerCase();
        return emailPattern.test(email.replace(/\*/g, 'x')) ? email : null;
      });
      coupon.emailRestrictions = kept.some((e) => e !== null) ? kept : [];
    }
    this.applyMeta(coupon.meta, input.meta_data);
  }

  // -------------------------------------------------------------------------------------------
  // Orders

  blankOrder(): Order {
    const now = this.now();
    return {
      id: 0,
      parentId: 0,
      status: 'pending',
      currency: this.settings.currency,
      createdVia: 'rest-api',
      version: '11.0.1',
      pricesIncludeTax: false,
      customerId: 0,
      customerNote: '',
      customerIpAddress: '',
      customerUserAgent: '',
      billing: { ...emptyAddress(), email: '' },
      shipping: emptyAddress(),
      paymentMethod: '',
      paymentMethodTitle: '',
      transactionId: '',
      orderKey: '',
      created: now,
      modified: now,
      datePaid: null,
      dateCompleted: null,
      meta: [],
      lineItems: [],
      taxLines: [],
      shippingLines: [],
      feeLines: [],
      couponLines: [],
      notes: [],
      stockReduced: false,
      discountTotal: 0,
      discountTax: 0,
      shippingTotal: 0,
      shippingTax: 0,
      cartTax: 0,
      total: 0,
      totalTax: 0,
    };
  }

  /**
   * WC_REST_Orders_V2_Controller::get_product_id() and the product it names: a SKU first, then
   * a product or variation id. Undefined: no reference at all; null: one that names no product
   * (the line is then a line without product).
   */
  private lineProduct(
    posted: Json,
  ): { productId: number; variationId: number; price: string; name: string } | null | undefined {
    const sku = asString(posted.sku).trim();
    const variationId = asInt(posted.variation_id);
    const productId = asInt(posted.product_id);
    const given =
      !!sku || !!variationId || (posted.product_id !== undefined && !!posted.product_id);
    if (!given) return undefined;
    const bySku = sku ? this.skuTaken(sku, 0) : undefined;
    const id = sku ? (bySku ?? 0) : variationId || productId;
    const variation = this.variations.get(id);
    if (variation) {
      const parent = this.products.get(variation.parentId);
      const values = Object.values(variation.attributes).filter(Boolean);
      return {
        productId: variation.parentId,
        variationId: variation.id,
        price: this.activePrice(variation),
        name: `${parent?.name ?? ''}${values.length ? ` - ${values.join(', ')}` : ''}`,
      };
    }
    const product = this.products.get(id);
    if (!product) return null;
    return {
      productId: product.id,
      variationId: 0,
      price: this.activePrice(product),
      name: product.name,
    };
  }

  /** The price a shopper pays now (WC_Product::get_price()). */
  activePrice(p: {
    regularPrice: string;
    salePrice: string;
    saleFrom: number | null;
    saleTo: number | null;
  }): string {
    const now = this.now();
    const onSale =
      p.salePrice !== '' &&
      Number(p.salePrice) < Number(p.regularPrice) &&
      !(p.saleFrom !== null && p.saleFrom > now) &&
      !(p.saleTo !== null && p.saleTo < now);
    return onSale ? p.salePrice : p.regularPrice;
  }

  /** WC_REST_Orders_Controller::prepare_line_items(). */
  private lineItem(posted: Json, existing?: LineItem): LineItem {
    const product = this.lineProduct(posted);
    if (!existing && product === undefined)
      throw new RestError(
        400,
        'woocommerce_rest_required_product_reference',
        'Product ID or SKU is required.',
      );
    const item: LineItem = existing ?? {
      id: this.itemId(),
      name: '',
      productId: 0,
      variationId: 0,
      quantity: 1,
      taxClass: '',
      subtotal: 0,
      subtotalTax: 0,
      total: 0,
      totalTax: 0,
      taxes: [],
      meta: [],
    };
    if (
      product &&
      (product.productId !== item.productId || product.variationId !== item.variationId)
    ) {
      item.productId = product.productId;
      item.variationId = product.variationId;
      item.name = product.name;
      if (!existing) {
        const quantity = posted.quantity === undefined ? 1 : asInt(posted.quantity);
        item.subtotal = item.total = round(Number(product.price || 0) * quantity);
      }
      // set_product() stores the variation's attribute values as item meta.
      const variation = product.variationId ? this.variations.get(product.variationId) : undefined;
      for (const [slug, value] of Object.entries(variation?.attributes ?? {}))
        if (value) this.applyMeta(item.meta, [{ key: slug, value }]);
    }
    if (posted.name !== undefined) item.name = asString(posted.name);
    if (posted.quantity !== undefined) item.quantity = asInt(posted.quantity);
    if (posted.total !== undefined) item.total = money(posted.total);
    if (posted.subtotal !== undefined) item.subtotal = money(posted.subtotal);
    if (posted.tax_class !== undefined)
      item.taxClass = this.itemTaxClass(posted.tax_class, 'order_item_product_invalid_tax_class');
    this.applyMeta(item.meta, posted.meta_data);
    return item;
  }

  /** The sub-items of an order request: an item with an id is updated, without one added. */
  /**
   * An order line's or fee's set_tax_class(): '' (the standard class) or the slug of a class the
   * store has; anything else, 'standard' and a class's name included, is refused (observed on a
   * real 11.0.1 store, which then creates no order).
   */
  private itemTaxClass(value: unknown, code: string): string {
    const taxClass = asString(value);
    if (taxClass && !this.taxClasses.some((c) => c.slug === taxClass))
      throw new RestError(400, code, 'Invalid tax class');
    return taxClass;
  }

  private items<T extends { id: number }>(
    list: T[],
    input: unknown,
    build: (posted: Json, existing?: T) => T,
  ): T[] {
    const out = [...list];
    for (const raw of asList(input)) {
      const posted = asObject(raw);
      const id = asInt(posted.id);
      if (id) {
        const index = out.findIndex((i) => i.id === id);
        if (index < 0)
          throw new RestError(
            400,
            'woocommerce_rest_invalid_item_id',
            'Order item ID provided is not associated with order.',
          );
        // An item updated to quantity 0 (or name null) is removed, as WooCommerce does.
        if (posted.quantity !== undefined && asInt(posted.quantity) === 0) {
          out.splice(index, 1);
          continue;
        }
        out[index] = build(posted, out[index]);
      } else out.push(build(posted));
    }
    return out;
  }

  /** WC_Abstract_Order::calculate_totals() on a store that does not calculate taxes. */
  private calculateTotals(order: Order) {
    for (const item of order.lineItems) {
      item.subtotalTax = item.totalTax = 0;
      item.taxes = [];
    }
    for (const line of order.shippingLines) {
      line.totalTax = 0;
      line.taxes = [];
    }
    for (const fee of order.feeLines) fee.totalTax = 0;
    order.taxLines = [];
    this.sumTotals(order);
  }

  /** Order totals from its items (used as is for seeded orders that carry historical taxes). */
  sumTotals(order: Order) {
    const cartSubtotal = order.lineItems.reduce((s, i) => s + round(i.subtotal), 0);
    const cartTotal = order.lineItems.reduce((s, i) => s + round(i.total), 0);
    order.cartTax = round(
      order.lineItems.reduce((s, i) => s + i.totalTax, 0) +
        order.feeLines.reduce((s, f) => s + f.totalTax, 0),
    );
    order.shippingTotal = round(order.shippingLines.reduce((s, l) => s + l.total, 0));
    order.shippingTax = round(order.shippingLines.reduce((s, l) => s + l.totalTax, 0));
    const fees = order.feeLines.reduce((s, f) => s + f.total, 0);
    order.discountTotal = round(cartSubtotal - cartTotal);
    order.totalTax = round(order.cartTax + order.shippingTax);
    order.total = round(cartTotal + fees + order.shippingTotal + order.totalTax);
  }

  /**
   * WC_Discounts::is_coupon_valid() for an order: the coupon exists (published), has not expired,
   * the order's subtotal is within its minimum and maximum spend, and, when restricted to e-mails,
   * it names the buyer's or the API user's. WooCommerce escapes the code's quotes in its messages.
   */
  private validCoupon(order: Order, code: string): Coupon {
    const coupon = this.couponByCode(code);
    if (!coupon)
      throw new RestError(
        400,
        'woocommerce_rest_invalid_coupon',
        `Coupon "${code}" does not exist!`,
      );
    const invalid = (message: string) =>
      new RestError(400, 'woocommerce_rest_invalid_coupon', message);
    const quoted = `&quot;${coupon.code}&quot;`;
    if (coupon.dateExpires !== null && this.now() > coupon.dateExpires)
      throw invalid(`Coupon ${quoted} has expired.`);
    const subtotal = order.lineItems.reduce((s, i) => s + i.subtotal, 0);
    if (coupon.minimumAmount !== '' && Number(coupon.minimumAmount) > subtotal)
      throw invalid(`The minimum spend for coupon ${quoted} is ${coupon.minimumAmount}.`);
    if (
      coupon.maximumAmount !== '' &&
      Number(coupon.maximumAmount) > 0 &&
      Number(coupon.maximumAmount) < subtotal
    )
      throw invalid(`The maximum spend for coupon ${quoted} is ${coupon.maximumAmount}.`);
    const emails = [this.adminEmail, order.billing.email.toLowerCase()].filter(Boolean);
    const allowed = (pattern: string | null) => {
      if (pattern === null) return false;
      const regex = new RegExp(
        `^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`,
      );
      return emails.some((e) => regex.test(e));
    };
    const restrictions = coupon.emailRestrictions.filter((e) => e !== null);
    if (restrictions.length && !restrictions.some(allowed))
      throw new RestError(
        400,
        'woocommerce_rest_invalid_coupon',
        'Sorry, it seems the coupon "' + coupon.code + '" is not yours.',
      );
    return coupon;
  }

  /** WC_Abstract_Order::apply_coupon(): the coupon's discount goes onto the lines. */
  private applyCoupon(order: Order, coupon: Coupon) {
    const subtotal = order.lineItems.reduce((s, i) => s + i.total, 0);
    const amount = Number(coupon.amount);
    const discount = round(
      Math.min(subtotal, coupon.discountType === 'percent' ? (subtotal * amount) / 100 : amount),
    );
    let left = discount;
    order.lineItems.forEach((item, index) => {
      const share =
        index === order.lineItems.length - 1
          ? left
          : round(subtotal > 0 ? (discount * item.total) / subtotal : 0);
      item.total = round(item.total - share);
      left = round(left - share);
    });
    order.couponLines.push({
      id: this.itemId(),
      couponId: coupon.id,
      code: coupon.code,
      discount,
      discountTax: 0,
      discountType: coupon.discountType,
      nominalAmount: amount,
      freeShipping: coupon.freeShipping,
      meta: [],
    });
  }

  /** WC_Order_Data_Store internal meta keys a REST request's meta_data is routed to. */
  private orderSetters(order: Order): Record<string, (v: unknown) => void> {
    const date = (v: unknown): number | null => {
      const text = asString(v).trim();
      if (!text) return null;
      return /^\d+$/.test(text) ? Number(text) * 1000 : (parseWcDate(text) ?? null);
    };
    return {
      _order_stock_reduced: (v) => {
        order.stockReduced = asBool(v);
      },
      _date_paid: (v) => {
        order.datePaid = date(v);
      },
      _date_completed: (v) => {
        order.dateCompleted = date(v);
      },
      _customer_ip_address: (v) => {
        order.customerIpAddress = asString(v);
      },
      _customer_user_agent: (v) => {
        order.customerUserAgent = asString(v);
      },
      _prices_include_tax: (v) => {
        order.pricesIncludeTax = asBool(v);
      },
      _created_via: (v) => {
        order.createdVia = asString(v);
      },
    };
  }

  /** Creates or updates an order as the V3 orders controller does (prepare + save_object). */
  saveOrder(input: Json, existing?: Order): Order {
    const creating = !existing;
    const order = existing ? structuredClone(existing) : this.blankOrder();
    const previousStatus = order.status;
    if (input.parent_id !== undefined) order.parentId = asInt(input.parent_id);
    if (input.currency !== undefined) {
      const currency = asString(input.currency).toUpperCase();
      if (!currencies.has(currency))
        throw new RestError(400, 'order_invalid_currency', 'Invalid currency code');
      order.currency = currency;
    }
    if (input.customer_id !== undefined) {
      const customerId = asInt(input.customer_id);
      if (customerId !== 0 && customerId !== 1 && !this.customers.has(customerId))
        throw new RestError(400, 'woocommerce_rest_invalid_customer_id', 'Customer ID is invalid.');
      order.customerId = customerId;
    }
    if (input.customer_note !== undefined) order.customerNote = asString(input.customer_note);
    if (input.billing !== undefined)
      order.billing = this.address(input.billing, order.billing, true);
    if (input.shipping !== undefined)
      order.shipping = this.address(input.shipping, order.shipping, false, 'shipping');
    if (input.payment_method !== undefined) order.paymentMethod = asString(input.payment_method);
    if (input.payment_method_title !== undefined)
      order.paymentMethodTitle = asString(input.payment_method_title);
    if (input.transaction_id !== undefined) order.transactionId = asString(input.transaction_id);
    this.applyMeta(order.meta, input.meta_data, this.orderSetters(order));
    if (input.line_items !== undefined)
      order.lineItems = this.items(order.lineItems, input.line_items, (p, e) =>
        this.lineItem(p, e),
      );
    if (input.shipping_lines !== undefined)
      order.shippingLines = this.items(order.shippingLines, input.shipping_lines, (p, e) => {
        if (!e && !asString(p.method_id))
          throw new RestError(
            400,
            'woocommerce_rest_invalid_shipping_item',
            'Shipping method ID is required.',
          );
        const line: ShippingLine = e ?? {
          id: this.itemId(),
          methodTitle: '',
          methodId: '',
          instanceId: '',
          total: 0,
          totalTax: 0,
          taxes: [],
          meta: [],
        };
        if (p.method_title !== undefined) line.methodTitle = asString(p.method_title);
        if (p.method_id !== undefined) line.methodId = asString(p.method_id);
        if (p.instance_id !== undefined) line.instanceId = asString(p.instance_id);
        if (p.total !== undefined) line.total = money(p.total);
        this.applyMeta(line.meta, p.meta_data);
        return line;
      });
    if (input.fee_lines !== undefined)
      order.feeLines = this.items(order.feeLines, input.fee_lines, (p, e) => {
        if (!e && !asString(p.name))
          throw new RestError(400, 'woocommerce_rest_invalid_fee_item', 'Fee name is required.');
        const fee: FeeLine = e ?? {
          id: this.itemId(),
          name: '',
          taxClass: '',
          taxStatus: 'taxable',
          total: 0,
          totalTax: 0,
          meta: [],
        };
        if (p.name !== undefined) fee.name = asString(p.name);
        if (p.tax_class !== undefined)
          fee.taxClass = this.itemTaxClass(p.tax_class, 'order_item_fee_invalid_tax_class');
        if (p.tax_status !== undefined) fee.taxStatus = asString(p.tax_status);
        if (p.total !== undefined) fee.total = money(p.total);
        this.applyMeta(fee.meta, p.meta_data);
        return fee;
      });
    if (creating) {
      // Only on creation, and the store's own setting decides whether prices include tax.
      order.createdVia = asString(input.created_via) || 'rest-api';
      order.pricesIncludeTax = false;
    }
    const itemsChanged = [
      'billing',
      'shipping',
      'line_items',
      'shipping_lines',
      'fee_lines',
      'coupon_lines',
    ].some((k) => input[k] !== undefined);
    if (creating || itemsChanged) this.calculateTotals(order);
    if (input.coupon_lines !== undefined) {
      // calculate_coupons(): every posted code is checked, then the coupons are applied again.
      const coupons = asList(input.coupon_lines).map((raw) => {
        const c = asObject(raw);
        if (c.id)
          throw new RestError(
            400,
            'woocommerce_rest_coupon_item_id_readonly',
            'Coupon item ID is readonly.',
          );
        const code = asString(c.code);
        if (!code.trim())
          throw new RestError(400, 'woocommerce_rest_invalid_coupon', 'Coupon code is required.');
        const applied = order.couponLines.some((l) => l.code === code.trim().toLowerCase());
        return applied
          ? ([...this.coupons.values()].find((x) => x.code === code.trim().toLowerCase()) ??
              this.validCoupon(order, code))
          : this.validCoupon(order, code);
      });
      for (const item of order.lineItems) item.total = item.subtotal;
      order.couponLines = [];
      for (const coupon of coupons) this.applyCoupon(order, coupon);
      this.sumTotals(order);
    }
    if (input.status !== undefined && asString(input.status)) {
      const status = asString(input.status).replace(/^wc-/, '');
      order.status = (orderStatuses as readonly string[]).includes(status) ? status : 'pending';
    }
    if (creating) {
      order.id = this.postId();
      order.orderKey = `wc_order_${order.id.toString(36).padStart(13, 'x')}`;
    }
    order.modified = this.now();
    this.orders.set(order.id, order);
    this.statusChanged(order, creating ? 'pending' : previousStatus);
    if (input.set_paid === true || input.set_paid === 'true') this.paymentComplete(order);
    return order;
  }

  /** WC_Order::payment_complete(). */
  private paymentComplete(order: Order) {
    if (!['on-hold', 'pending', 'failed', 'cancelled'].includes(order.status)) return;
    const from = order.status;
    order.datePaid ??= this.now();
    order.status = 'processing';
    this.statusChanged(order, from);
  }

  /** WC_Order::add_order_note(): by the store ('WooCommerce') or by the API key's user. */
  addNote(order: Order, content: string, customerNote = false, byUser = false): OrderNote {
    const note: OrderNote = {
      id: this.noteId(),
      author: byUser ? 'admin' : 'WooCommerce',
      created: this.now(),
      // wp_filter_kses on comment content: a lone & is stored escaped.
      content: content.replace(/&(?!(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);)/gi, '&amp;'),
      customerNote,
    };
    order.notes.push(note);
    if (customerNote) this.mail('customer_note', order.billing.email, { orderId: order.id });
    return note;
  }

  /** What WooCommerce does on woocommerce_order_status_{from}_to_{to}. */
  private statusChanged(order: Order, from: string) {
    const to = order.status;
    if (from === to) return;
    const now = this.now();
    // maybe_set_date_paid() and maybe_set_date_completed().
    if ((to === 'processing' || to === 'completed') && order.datePaid === null)
      order.datePaid = now;
    if (to === 'completed') order.dateCompleted = now;
    this.addNote(
      order,
      `Order status changed from ${statusNames[from] ?? from} to ${statusNames[to] ?? to}.`,
    );
    if (['processing', 'completed', 'on-hold'].includes(to) && !order.stockReduced) {
      this.changeStock(order, -1);
      order.stockReduced = true;
    }
    if ((to === 'cancelled' || to === 'pending') && order.stockReduced) {
      this.changeStock(order, +1);
      order.stockReduced = false;
    }
    if ((to === 'processing' || to === 'completed') && order.customerId) {
      const customer = this.customers.get(order.customerId);
      if (customer) customer.isPayingCustomer = true;
    }
    const to_customer = order.billing.email;
    const fresh = ['pending', 'failed', 'cancelled'].includes(from);
    const ref = { orderId: order.id };
    if (fresh && ['processing', 'completed', 'on-hold'].includes(to))
      this.mail('new_order', this.adminEmail, ref);
    if (to === 'processing' && from !== 'completed')
      this.mail('customer_processing_order', to_customer, ref);
    if (to === 'completed') this.mail('customer_completed_order', to_customer, ref);
    if (to === 'on-hold' && fresh) this.mail('customer_on_hold_order', to_customer, ref);
    if (to === 'refunded') this.mail('customer_refunded_order', to_customer, ref);
    // The shop hears of a cancelled order also when it was pending (an order the API creates
    // cancelled); the customer only of one that was processing or on hold.
    if (to === 'cancelled' && ['pending', 'processing', 'on-hold'].includes(from))
      this.mail('cancelled_order', this.adminEmail, ref);
    if (to === 'cancelled' && ['processing', 'on-hold'].includes(from))
      this.mail('customer_cancelled_order', to_customer, ref);
    if (to === 'failed' && ['pending', 'on-hold'].includes(from)) {
      this.mail('failed_order', this.adminEmail, ref);
      this.mail('customer_failed_order', to_customer, ref);
    }
    // wc_order_fully_refunded(): what no refund gave back is refunded now.
    if (to === 'refunded') {
      const rest = round(order.total - this.refundedTotal(order));
      if (rest > 0) {
        this.recordRefund(order, {
          amount: rest,
          reason: 'Order fully refunded.',
          lines: new Map(),
        });
        this.addNote(
          order,
          'Order status set to refunded. To return funds to the customer you will need to issue a refund through your payment gateway.',
        );
      }
    }
  }

  /**
   * wc_reduce_stock_levels() / wc_increase_stock_levels() for products that manage stock. Only
   * items that carry `_reduced_stock` (what was actually taken) are given back.
   */
  private changeStock(order: Order, sign: 1 | -1) {
    for (const item of order.lineItems) {
      const variation = item.variationId ? this.variations.get(item.variationId) : undefined;
      const parent = this.products.get(item.productId);
      const holder =
        variation && variation.manageStock === true
          ? variation
          : variation && variation.manageStock === 'parent'
            ? parent
            : variation
              ? undefined
              : parent;
      if (!holder || holder.manageStock !== true || holder.stockQuantity === null) continue;
      const reduced = Number(item.meta.find((m) => m.key === '_reduced_stock')?.value ?? 0);
      if (sign > 0 && !reduced) continue;
      holder.stockQuantity += sign > 0 ? reduced : -item.quantity;
      holder.stockStatus =
        holder.stockQuantity > 0
          ? 'instock'
          : holder.backorders === 'no'
            ? 'outofstock'
            : 'onbackorder';
      if (sign < 0)
        this.applyMeta(item.meta, [{ key: '_reduced_stock', value: String(item.quantity) }]);
      else item.meta = item.meta.filter((m) => m.key !== '_reduced_stock');
    }
  }

  // -------------------------------------------------------------------------------------------
  // Refunds

  refundsOf(order: Order): Refund[] {
    return [...this.refunds.values()].filter((r) => r.parentId === order.id);
  }

  refundedTotal(order: Order): number {
    return round(this.refundsOf(order).reduce((s, r) => s + r.amount, 0));
  }

  /** wc_create_refund() without its payment and stock side effects. */
  private recordRefund(
    order: Order,
    args: { amount: number; reason: string; lines: Map<number, { qty: number; total: number }> },
  ): Refund {
    const refund: Refund = {
      id: this.postId(),
      parentId: order.id,
      created: this.now(),
      amount: args.amount,
      reason: args.reason,
      refundedBy: 1,
      refundedPayment: false,
      meta: [],
      lineItems: [],
    };
    for (const item of [...order.lineItems, ...order.feeLines, ...order.shippingLines]) {
      const line = args.lines.get(item.id);
      if (!line || 'methodId' in item || !('quantity' in item)) continue;
      refund.lineItems.push({
        ...structuredClone(item),
        id: this.itemId(),
        quantity: -line.qty,
        subtotal: -line.total,
        total: -line.total,
        subtotalTax: 0,
        totalTax: 0,
        taxes: [],
        meta: [this.newMeta('_refunded_item_id', String(item.id))],
      });
    }
    this.refunds.set(refund.id, refund);
    return refund;
  }

  /**
   * WC_REST_Order_Refunds_Controller: wc_create_refund() with the request's amount, reason and
   * line items. `api_refund` (default true) refunds through the order's payment gateway, which no
   * gateway of this store supports; `api_restock` (default true) puts the items back in stock.
   * The refund that leaves nothing to refund moves the order to refunded.
   */
  createRefund(order: Order, input: Json): Refund {
    const lines = new Map<number, { qty: number; total: number }>();
    for (const raw of asList(input.line_items)) {
      const l = asObject(raw);
      lines.set(asInt(l.id), { qty: asInt(l.quantity ?? l.qty), total: money(l.refund_total) });
    }
    const amount =
      input.amount !== undefined
        ? money(input.amount)
        : round([...lines.values()].reduce((s, l) => s + l.total, 0));
    const fail = (message: string) =>
      new RestError(500, 'woocommerce_rest_cannot_create_order_refund', message);
    if (amount < 0)
      throw new RestError(
        400,
        'woocommerce_rest_invalid_order_refund',
        'Refund amount must be greater than zero.',
      );
    const remaining = round(order.total - this.refundedTotal(order));
    if (amount > remaining) throw fail('Invalid refund amount.');
    if (input.api_refund !== false)
      throw fail(
        order.paymentMethod
          ? 'The payment gateway for this order does not support automatic refunds.'
          : 'The payment gateway for this order does not exist.',
      );
    const refund = this.recordRefund(order, {
      amount,
      reason: asString(input.reason),
      lines,
    });
    this.applyMeta(refund.meta, input.meta_data);
    if (input.api_restock !== false)
      for (const item of order.lineItems) {
        const line = lines.get(item.id);
        if (!line?.qty) continue;
        const holder = this.variations.get(item.variationId) ?? this.products.get(item.productId);
        if (holder && holder.manageStock === true && holder.stockQuantity !== null)
          holder.stockQuantity += line.qty;
      }
    const full = round(remaining - amount) <= 0;
    refund.meta.push(this.newMeta('_refund_type', full ? 'full' : 'partial'));
    // woocommerce_order_partially_refunded: the customer's "Refunded order" e-mail (partial); a
    // full refund sends it with the status change to refunded.
    if (!full) this.mail('customer_refunded_order', order.billing.email, { orderId: order.id });
    if (full && order.status !== 'refunded') {
      const from = order.status;
      order.status = 'refunded';
      this.statusChanged(order, from);
    }
    order.modified = this.now();
    return refund;
  }
}

/** wc_get_order_status_name(). */
export const statusNames: Record<string, string> = {
  pending: 'Pending payment',
  processing: 'Processing',
  'on-hold': 'On hold',
  completed: 'Completed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  failed: 'Failed',
  'checkout-draft': 'Draft',
};
