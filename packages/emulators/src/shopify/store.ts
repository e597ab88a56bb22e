import { createHash, randomBytes } from 'node:crypto';

/**
 * The state of one emulated Shopify shop: what the Admin GraphQL API reads and writes. Records keep
 * Shopify's own shapes (handles, option/variant model, MoneyBag amounts as decimals, display
 * statuses) so that the GraphQL views are thin. Numeric ids are the `legacyResourceId`s; GraphQL
 * ids are `gid://shopify/<Type>/<id>`.
 */

export type Plan = 'standard' | 'advanced' | 'plus' | 'enterprise';

/** Restore rate per plan (limits.json shopify.rate_limit.restore_rate_points_per_second). */
export const restoreRates: Record<Plan, number> = {
  standard: 100,
  advanced: 200,
  plus: 1000,
  enterprise: 2000,
};

export type MetafieldOwnerType =
  | 'PRODUCT'
  | 'PRODUCTVARIANT'
  | 'COLLECTION'
  | 'CUSTOMER'
  | 'ORDER'
  | 'DISCOUNT'
  | 'PAGE'
  | 'BLOG'
  | 'ARTICLE';

export interface MetafieldRec {
  id: number;
  namespace: string;
  key: string;
  type: string;
  value: string;
  createdAt: string;
  updatedAt: string;
}

export interface MetafieldDefinitionRec {
  id: number;
  namespace: string;
  key: string;
  name: string;
  description: string | null;
  type: string;
  ownerType: MetafieldOwnerType;
  uniqueValues: boolean;
  createdAt: string;
}

export interface MediaRec {
  id: number;
  imageId: number;
  alt: string;
  status: 'READY' | 'FAILED' | 'PROCESSING' | 'UPLOADED';
  /** Path under the emulator's base URL where the image is served, or null when not READY. */
  path: string | null;
  originalSource: string;
  mimeType: string | null;
  fileSize: number | null;
  width: number | null;
  height: number | null;
  errors: { code: string; message: string; details: string | null }[];
  /**
   * Clock time until which Shopify is still processing the file: until then the media reads as
   * PROCESSING, without image or errors, whatever the outcome will be.
   */
  processingUntil?: number;
  createdAt: string;
  updatedAt: string;
}

export interface WeightRec {
  unit: 'GRAMS' | 'KILOGRAMS' | 'OUNCES' | 'POUNDS';
  value: number;
}

export interface VariantRec {
  id: number;
  inventoryItemId: number;
  sku: string | null;
  price: string;
  compareAtPrice: string | null;
  barcode: string | null;
  position: number;
  optionValues: { name: string; value: string }[];
  tracked: boolean;
  quantity: number;
  weight: WeightRec | null;
  mediaId: number | null;
  taxable: boolean;
  /** Cost of one unit (InventoryItem.unitCost), a decimal in the shop currency, or null. */
  unitCost: string | null;
  harmonizedSystemCode: string | null;
  countryCodeOfOrigin: string | null;
  provinceCodeOfOrigin: string | null;
  inventoryPolicy: 'DENY' | 'CONTINUE';
  requiresShipping: boolean;
  metafields: MetafieldRec[];
  createdAt: string;
  updatedAt: string;
}

export interface OptionRec {
  id: number;
  name: string;
  position: number;
  values: { id: number; name: string }[];
}

export type ProductStatus = 'ACTIVE' | 'ARCHIVED' | 'DRAFT' | 'UNLISTED';

export interface ProductRec {
  id: number;
  handle: string;
  title: string;
  descriptionHtml: string;
  status: ProductStatus;
  vendor: string;
  productType: string;
  tags: string[];
  options: OptionRec[];
  variants: VariantRec[];
  media: MediaRec[];
  seoTitle: string | null;
  seoDescription: string | null;
  metafields: MetafieldRec[];
  templateSuffix: string | null;
  /** Standard product taxonomy category (gid://shopify/TaxonomyCategory/...), or null. */
  categoryId: string | null;
  isGiftCard: boolean;
  giftCardTemplateSuffix: string | null;
  requiresSellingPlan: boolean;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
}

export interface CollectionRec {
  id: number;
  handle: string;
  title: string;
  descriptionHtml: string;
  image: MediaRec | null;
  seoTitle: string | null;
  seoDescription: string | null;
  productIds: number[];
  metafields: MetafieldRec[];
  sortOrder: string;
  templateSuffix: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface AddressRec {
  id: number;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  provinceCode: string | null;
  countryCode: string | null;
  zip: string | null;
  phone: string | null;
}

export type EmailMarketingState =
  'INVALID' | 'NOT_SUBSCRIBED' | 'PENDING' | 'REDACTED' | 'SUBSCRIBED' | 'UNSUBSCRIBED';

export type SmsMarketingState =
  'NOT_SUBSCRIBED' | 'PENDING' | 'REDACTED' | 'SUBSCRIBED' | 'UNSUBSCRIBED';

export type OptInLevel = 'CONFIRMED_OPT_IN' | 'SINGLE_OPT_IN' | 'UNKNOWN';

/** SMS marketing consent of a customer's phone number. */
export interface SmsConsentRec {
  state: SmsMarketingState;
  optInLevel: OptInLevel | null;
  updatedAt: string | null;
}

export interface CustomerRec {
  id: number;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  note: string | null;
  tags: string[];
  locale: string;
  marketingState: EmailMarketingState;
  marketingOptInLevel: OptInLevel | null;
  marketingUpdatedAt: string | null;
  /** SMS consent of the phone number (null without a phone number). */
  sms: SmsConsentRec | null;
  addresses: AddressRec[];
  defaultAddressId: number | null;
  metafields: MetafieldRec[];
  taxExempt: boolean;
  taxExemptions: string[];
  createdAt: string;
  updatedAt: string;
}

export interface TaxLineRec {
  title: string;
  rate: number;
  amount: string;
}

export interface AllocationRec {
  index: number;
  amount: string;
}

export interface LineItemRec {
  id: number;
  title: string;
  variantTitle: string | null;
  sku: string | null;
  vendor: string | null;
  quantity: number;
  unitPrice: string;
  productId: number | null;
  variantId: number | null;
  taxLines: TaxLineRec[];
  requiresShipping: boolean;
  taxable: boolean;
  discountAllocations: AllocationRec[];
  /** Line item properties (customAttributes): personalisation given at checkout. */
  customAttributes: { key: string; value: string }[];
}

export interface ShippingLineRec {
  id: number;
  title: string;
  code: string | null;
  source: string | null;
  price: string;
  taxLines: TaxLineRec[];
  discountAllocations: AllocationRec[];
}

export interface DiscountApplicationRec {
  index: number;
  kind: 'code' | 'manual';
  code: string;
  value: { kind: 'money'; amount: string } | { kind: 'percentage'; percentage: number };
  targetType: 'LINE_ITEM' | 'SHIPPING_LINE';
  targetSelection: 'ALL' | 'ENTITLED' | 'EXPLICIT';
  allocationMethod: 'ACROSS' | 'EACH';
}

export type FinancialStatus =
  | 'AUTHORIZED'
  | 'EXPIRED'
  | 'PAID'
  | 'PARTIALLY_PAID'
  | 'PARTIALLY_REFUNDED'
  | 'PENDING'
  | 'REFUNDED'
  | 'VOIDED';

export type DisplayFulfillmentStatus =
  | 'FULFILLED'
  | 'IN_PROGRESS'
  | 'ON_HOLD'
  | 'OPEN'
  | 'PARTIALLY_FULFILLED'
  | 'PENDING_FULFILLMENT'
  | 'RESTOCKED'
  | 'SCHEDULED'
  | 'UNFULFILLED';

export type TransactionKind =
  | 'AUTHORIZATION'
  | 'CAPTURE'
  | 'CHANGE'
  | 'EMV_AUTHORIZATION'
  | 'REFUND'
  | 'SALE'
  | 'SUGGESTED_REFUND'
  | 'VOID';

export interface TransactionRec {
  id: number;
  kind: TransactionKind;
  status: 'AWAITING_RESPONSE' | 'ERROR' | 'FAILURE' | 'PENDING' | 'SUCCESS' | 'UNKNOWN';
  gateway: string | null;
  /** Decimal in the order currency. */
  amount: string;
  authorizationCode: string | null;
  processedAt: string | null;
  createdAt: string;
  parentId: number | null;
  test: boolean;
}

export interface RefundLineRec {
  id: number;
  lineItemId: number;
  quantity: number;
  restockType: 'CANCEL' | 'LEGACY_RESTOCK' | 'NO_RESTOCK' | 'RETURN';
}

export interface RefundRec {
  id: number;
  note: string | null;
  createdAt: string;
  processedAt: string;
  lines: RefundLineRec[];
  /** The REFUND transactions of the order that give this refund's money back. */
  transactionIds: number[];
  /** The idempotency key refundCreate was called with (a repeat answers the same refund). */
  idempotencyKey: string | null;
}

/** An additional fee of an order (charged at checkout; the Admin API cannot create one). */
export interface AdditionalFeeRec {
  id: number;
  name: string;
  price: string;
  taxLines: TaxLineRec[];
}

export interface FulfillmentOrderRec {
  id: number;
  status: 'CANCELLED' | 'CLOSED' | 'INCOMPLETE' | 'IN_PROGRESS' | 'ON_HOLD' | 'OPEN' | 'SCHEDULED';
  holdReason: string | null;
}

export interface OrderRec {
  id: number;
  number: number;
  name: string;
  email: string | null;
  phone: string | null;
  customerId: number | null;
  currency: string;
  processedAt: string;
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  cancelReason: string | null;
  closedAt: string | null;
  financialStatus: FinancialStatus;
  fulfillmentStatus: DisplayFulfillmentStatus;
  fulfillmentOrders: FulfillmentOrderRec[];
  lineItems: LineItemRec[];
  shippingLines: ShippingLineRec[];
  discountApplications: DiscountApplicationRec[];
  billingAddress: AddressRec | null;
  shippingAddress: AddressRec | null;
  note: string | null;
  tags: string[];
  /** Order attributes (customAttributes) given at checkout. */
  customAttributes: { key: string; value: string }[];
  poNumber: string | null;
  /** The buyer's IP address (checkout only). */
  clientIp: string | null;
  transactions: TransactionRec[];
  refunds: RefundRec[];
  additionalFees: AdditionalFeeRec[];
  metafields: MetafieldRec[];
  taxesIncluded: boolean;
  test: boolean;
  sourceName: string | null;
  /** Made by an app through orderCreate (which orderDelete may delete), not the shop's checkout. */
  createdByApp?: boolean;
  buyerAcceptsMarketing: boolean;
}

/** One redeem code of a code discount (DiscountRedeemCode). */
export interface RedeemCodeRec {
  id: number;
  code: string;
  asyncUsageCount: number;
}

/** What a basic discount takes off: a share of the items, or an amount (decimal, shop currency). */
export type DiscountValueRec =
  { percentage: number } | { amount: string; appliesOnEachItem: boolean };

/** The items a basic discount applies to. */
export type DiscountItemsRec =
  { all: true } | { productIds: number[]; variantIds: number[] } | { collectionIds: number[] };

/**
 * A code discount (DiscountCodeNode) of the kinds the Admin API creates with the discountCode*
 * mutations: 'basic' (amount off: DiscountCodeBasic) or 'freeShipping' (DiscountCodeFreeShipping).
 * Buy X get Y and app discounts are kept with their kind only, as a store may hold them.
 */
export interface DiscountRec {
  id: number;
  kind: 'basic' | 'freeShipping' | 'bxgy' | 'app';
  title: string;
  codes: RedeemCodeRec[];
  startsAt: string;
  endsAt: string | null;
  usageLimit: number | null;
  appliesOncePerCustomer: boolean;
  combinesWith: { orderDiscounts: boolean; productDiscounts: boolean; shippingDiscounts: boolean };
  /** Smallest subtotal (decimal) or quantity the discount asks for, null when none. */
  minimumRequirement: { subtotal: string } | { quantity: string } | null;
  /** basic: what it takes off and from which items. */
  value: DiscountValueRec | null;
  items: DiscountItemsRec;
  /** Customers the discount is limited to (its context), null for all buyers. */
  customerIds: number[] | null;
  /** freeShipping: the dearest shipping rate it makes free (decimal), null for any. */
  maximumShippingPrice: string | null;
  /** freeShipping: the countries it applies to, null for all. */
  countries: string[] | null;
  appliesOnOneTimePurchase: boolean;
  appliesOnSubscription: boolean;
  recurringCycleLimit: number | null;
  tags: string[];
  metafields: MetafieldRec[];
  createdAt: string;
  updatedAt: string;
}

/** Shopify's status of a discount, from its dates. */
export function discountStatus(d: DiscountRec, now: number): 'ACTIVE' | 'EXPIRED' | 'SCHEDULED' {
  if (Date.parse(d.startsAt) > now) return 'SCHEDULED';
  if (d.endsAt !== null && Date.parse(d.endsAt) <= now) return 'EXPIRED';
  return 'ACTIVE';
}

/**
 * A page of the online store (Page). Visible when `publishedAt` is set and has come; a future
 * `publishedAt` is a page scheduled to become visible then; null is a hidden page.
 */
export interface PageRec {
  id: number;
  handle: string;
  title: string;
  body: string;
  publishedAt: string | null;
  templateSuffix: string | null;
  metafields: MetafieldRec[];
  createdAt: string;
  updatedAt: string;
}

/** A blog of the online store (Blog); its articles are kept apart, naming it by id. */
export interface BlogRec {
  id: number;
  handle: string;
  title: string;
  commentPolicy: 'AUTO_PUBLISHED' | 'CLOSED' | 'MODERATED';
  templateSuffix: string | null;
  metafields: MetafieldRec[];
  createdAt: string;
  updatedAt: string;
}

/** A blog article (Article); published as a page is (see PageRec.publishedAt). */
export interface ArticleRec {
  id: number;
  blogId: number;
  handle: string;
  title: string;
  body: string;
  summary: string | null;
  authorName: string | null;
  image: MediaRec | null;
  tags: string[];
  publishedAt: string | null;
  templateSuffix: string | null;
  metafields: MetafieldRec[];
  createdAt: string;
  updatedAt: string;
}

/** Whether a page or article is visible now: published, and its date has come. */
export function isVisible(record: { publishedAt: string | null }, now: number): boolean {
  return record.publishedAt !== null && Date.parse(record.publishedAt) <= now;
}

export interface UrlRedirectRec {
  id: number;
  path: string;
  target: string;
}

export interface BulkOperationRec {
  id: number;
  query: string;
  type: 'QUERY' | 'MUTATION';
  status: 'CANCELED' | 'CANCELING' | 'COMPLETED' | 'CREATED' | 'EXPIRED' | 'FAILED' | 'RUNNING';
  createdAt: string;
  /** Clock time (ms) at which the operation reports COMPLETED. */
  readyAt: number;
  completedAt: string | null;
  objectCount: number;
  rootObjectCount: number;
  jsonl: string;
  token: string;
}

/** An e-mail the shop would have sent to a customer, as a test can look at it. */
export interface NotificationRec {
  kind: 'order_receipt' | 'fulfillment_receipt' | 'order_cancelled' | 'refund' | 'account_invite';
  /** The order's name or the customer's gid. */
  subject: string;
  to: string | null;
}

export interface ShopStats {
  graphqlRequests: number;
  throttled: number;
  maxCostExceeded: number;
  pointsRequested: number;
  pointsCharged: number;
  /**
   * Customer/shipping notifications the shop would have e-mailed (orderCreate, orderCancel,
   * refundCreate, customerSendAccountInviteEmail); each is in ShopStore.notifications.
   */
  notificationsSent: number;
  /** orderCreate calls refused by the development-store limit. */
  orderCreateRefused: number;
  /** Inventory changes caused by orderCreate (0 when orders are imported with BYPASS). */
  inventoryAdjustments: number;
}

export interface ShopConfig {
  domain: string;
  name: string;
  currency: string;
  plan: Plan;
  developmentStore: boolean;
  /** A store on a free trial: like a development store, orderCreate takes 5 orders a minute. */
  trialStore: boolean;
  /** How long (clock ms) Shopify takes to process a media file after it was given (default 0). */
  mediaProcessingMs: number;
  bucketSize: number;
  restoreRate: number;
}

/** Minor-unit arithmetic for MoneyBag amounts (decimal strings with the currency's precision). */
const zeroDecimalCurrencies = new Set(['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'UGX', 'XAF', 'XOF']);
const threeDecimalCurrencies = new Set(['BHD', 'KWD', 'OMR', 'JOD', 'TND', 'IQD', 'LYD']);

export function exponentOf(currency: string): number {
  if (zeroDecimalCurrencies.has(currency)) return 0;
  if (threeDecimalCurrencies.has(currency)) return 3;
  return 2;
}

export function toMinorUnits(amount: string | number, currency: string): number {
  const scaled = Number(amount) * 10 ** exponentOf(currency);
  return Math.sign(scaled) * Math.round(Math.abs(scaled) + 1e-9);
}

export function fromMinorUnits(minor: number, currency: string): string {
  const e = exponentOf(currency);
  return (minor / 10 ** e).toFixed(e);
}

/** Shopify answers Decimal amounts in their shortest form ('19.99', '5.0' -> '5.0'). */
export function decimalOf(minor: number, currency: string): string {
  const text = fromMinorUnits(minor, currency);
  if (!text.includes('.')) return `${text}.0`;
  const trimmed = text.replace(/0+$/, '');
  return trimmed.endsWith('.') ? `${trimmed}0` : trimmed;
}

/** A DateTime as Shopify answers it: UTC, to the second ('2024-01-01T10:00:00Z'). */
export function dateTime(value: string): string {
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function gid(type: string, id: number): string {
  return `gid://shopify/${type}/${id}`;
}

/** Parses 'gid://shopify/Product/123' (optionally with a query) into ['Product', 123]. */
export function parseGid(value: unknown): { type: string; id: number } | undefined {
  if (typeof value !== 'string') return undefined;
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)(\?.*)?$/.exec(value);
  if (!match) return undefined;
  return { type: match[1] ?? '', id: Number(match[2]) };
}

/** Shopify's handle rules: lower case, letters, digits and hyphens, no leading/trailing hyphen. */
export function handleize(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9\p{L}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Tags as Shopify keeps them: split on commas, trimmed, without duplicates and in alphabetical
 * order (case-insensitive), whatever order they were given in.
 */
export function shopifyTags(value: unknown): string[] {
  const given = Array.isArray(value) ? (value as unknown[]).map((t) => String(t)) : [];
  const tags = new Set(
    given
      .flatMap((t) => t.split(','))
      .map((t) => t.trim())
      .filter(Boolean),
  );
  return [...tags].sort((a, b) => {
    const x = a.toLowerCase();
    const y = b.toLowerCase();
    if (x !== y) return x < y ? -1 : 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

export function compareDigest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function randomToken(bytes = 16): string {
  return randomBytes(bytes).toString('hex');
}

export class ShopStore {
  readonly config: ShopConfig;
  readonly now: () => number;
  readonly products = new Map<number, ProductRec>();
  readonly collections = new Map<number, CollectionRec>();
  readonly customers = new Map<number, CustomerRec>();
  readonly orders = new Map<number, OrderRec>();
  readonly discounts = new Map<number, DiscountRec>();
  readonly pages = new Map<number, PageRec>();
  readonly blogs = new Map<number, BlogRec>();
  readonly articles = new Map<number, ArticleRec>();
  readonly metafieldDefinitions: MetafieldDefinitionRec[] = [];
  readonly urlRedirects: UrlRedirectRec[] = [];
  /** Every customer e-mail the shop would have sent, in order (stats.notificationsSent counts them). */
  readonly notifications: NotificationRec[] = [];
  readonly bulkOperations = new Map<number, BulkOperationRec>();
  /** Bytes of media the shop downloaded (productSet files, collection images), by served path. */
  readonly files = new Map<string, { body: Buffer; contentType: string }>();
  /** Access tokens valid for this shop, with their granted scopes. */
  readonly tokens = new Map<string, Set<string>>();
  readonly location = { id: 1, name: 'Shop location' };
  readonly stats: ShopStats = {
    graphqlRequests: 0,
    throttled: 0,
    maxCostExceeded: 0,
    pointsRequested: 0,
    pointsCharged: 0,
    notificationsSent: 0,
    orderCreateRefused: 0,
    inventoryAdjustments: 0,
  };
  /** Clock times of recent orderCreate calls (development-store limit). */
  readonly orderCreateTimes: number[] = [];
  readonly createdAt: string;
  nextOrderNumber = 1001;

  /** Records a customer e-mail the shop would have sent. */
  notify(kind: NotificationRec['kind'], subject: string, to: string | null): void {
    this.notifications.push({ kind, subject, to });
    this.stats.notificationsSent += 1;
  }
  #nextId = 1;
  #bucket: { available: number; at: number };

  constructor(config: ShopConfig, now: () => number) {
    this.config = config;
    this.now = now;
    this.createdAt = new Date(now()).toISOString();
    this.#bucket = { available: config.bucketSize, at: now() };
  }

  /** Ids are unique across all record types of the shop, like Shopify's, and grow over time. */
  nextId(): number {
    return this.#nextId++;
  }

  timestamp(): string {
    return new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  // ------------------------------------------------------------ leaky bucket

  /** Points available now: the bucket refills continuously at the restore rate. */
  available(): number {
    const elapsed = Math.max(0, this.now() - this.#bucket.at) / 1000;
    return Math.min(
      this.config.bucketSize,
      this.#bucket.available + elapsed * this.config.restoreRate,
    );
  }

  /** Takes `cost` points if the bucket has them; answers false (and takes nothing) otherwise. */
  take(cost: number): boolean {
    const available = this.available();
    if (cost > available) {
      this.#bucket = { available, at: this.now() };
      return false;
    }
    this.#bucket = { available: available - cost, at: this.now() };
    return true;
  }

  /** Gives back the difference between requested and actual cost after execution. */
  refund(points: number): void {
    const available = this.available();
    this.#bucket = {
      available: Math.min(this.config.bucketSize, available + Math.max(0, points)),
      at: this.now(),
    };
  }

  throttleStatus(): { maximumAvailable: number; currentlyAvailable: number; restoreRate: number } {
    return {
      maximumAvailable: this.config.bucketSize,
      currentlyAvailable: Math.floor(this.available()),
      restoreRate: this.config.restoreRate,
    };
  }

  // ------------------------------------------------------------ lookups

  productByHandle(handle: string): ProductRec | undefined {
    for (const p of this.products.values()) if (p.handle === handle) return p;
    return undefined;
  }

  /**
   * The vendors the products name, each once (as QueryRoot.productVendors lists them): a product
   * without a vendor ('') names none. Names are kept as written, so 'Acme' and 'acme' are two.
   */
  productVendors(): string[] {
    const vendors = new Set<string>();
    for (const p of this.products.values()) if (p.vendor !== '') vendors.add(p.vendor);
    return [...vendors];
  }

  collectionByHandle(handle: string): CollectionRec | undefined {
    for (const c of this.collections.values()) if (c.handle === handle) return c;
    return undefined;
  }

  customerByEmail(email: string): CustomerRec | undefined {
    const wanted = email.toLowerCase();
    for (const c of this.customers.values()) if (c.email?.toLowerCase() === wanted) return c;
    return undefined;
  }

  /** The code discount one of whose codes is `code`, in any case (codes are unique in a shop). */
  discountByCode(code: string): DiscountRec | undefined {
    const wanted = code.toLowerCase();
    for (const d of this.discounts.values())
      if (d.codes.some((c) => c.code.toLowerCase() === wanted)) return d;
    return undefined;
  }

  customerByPhone(phone: string): CustomerRec | undefined {
    for (const c of this.customers.values()) if (c.phone === phone) return c;
    return undefined;
  }

  /**
   * A media file of the shop's library. One file may be shown by several products (productSet
   * files given by id), so it is found wherever it is used.
   */
  mediaById(id: number): MediaRec | undefined {
    for (const p of this.products.values()) {
      const found = p.media.find((m) => m.id === id);
      if (found) return found;
    }
    return undefined;
  }

  findVariant(id: number): { product: ProductRec; variant: VariantRec } | undefined {
    for (const product of this.products.values()) {
      const variant = product.variants.find((v) => v.id === id);
      if (variant) return { product, variant };
    }
    return undefined;
  }

  collectionsOf(productId: number): CollectionRec[] {
    return [...this.collections.values()].filter((c) => c.productIds.includes(productId));
  }

  definitionFor(
    ownerType: MetafieldOwnerType,
    namespace: string,
    key: string,
  ): MetafieldDefinitionRec | undefined {
    return this.metafieldDefinitions.find(
      (d) => d.ownerType === ownerType && d.namespace === namespace && d.key === key,
    );
  }

  /** Records of one owner type, for unique-value checks and custom-id lookups. */
  ownersOf(ownerType: MetafieldOwnerType): { id: number; metafields: MetafieldRec[] }[] {
    switch (ownerType) {
      case 'PRODUCT':
        return [...this.products.values()];
      case 'PRODUCTVARIANT':
        return [...this.products.values()].flatMap((p) => p.variants);
      case 'COLLECTION':
        return [...this.collections.values()];
      case 'CUSTOMER':
        return [...this.customers.values()];
      case 'ORDER':
        return [...this.orders.values()];
      case 'DISCOUNT':
        return [...this.discounts.values()];
      case 'PAGE':
        return [...this.pages.values()];
      case 'BLOG':
        return [...this.blogs.values()];
      case 'ARTICLE':
        return [...this.articles.values()];
    }
  }

  /**
   * Finds the record whose unique-valued metafield (a custom id) has `value`. Throws when no
   * definition with the unique-values capability exists, as custom ids require one.
   */
  findByCustomId(
    ownerType: MetafieldOwnerType,
    namespace: string,
    key: string,
    value: string,
  ): number | undefined {
    const definition = this.definitionFor(ownerType, namespace, key);
    if (!definition?.uniqueValues) {
      throw new Error(
        `No metafield definition with the unique values capability exists for ${namespace}.${key} on ${ownerType}.`,
      );
    }
    for (const owner of this.ownersOf(ownerType)) {
      if (
        owner.metafields.some(
          (m) => m.namespace === namespace && m.key === key && m.value === value,
        )
      )
        return owner.id;
    }
    return undefined;
  }
}
