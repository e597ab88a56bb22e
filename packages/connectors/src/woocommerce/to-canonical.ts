import type { Address } from '@replatform/canonical/address';
import type { Brand } from '@replatform/canonical/brand';
import type { Category } from '@replatform/canonical/category';
import { couponDiscountTypes, couponSchema, type Coupon } from '@replatform/canonical/coupon';
import {
  customerSchema,
  type Customer,
  type CustomerAddress,
} from '@replatform/canonical/customer';
import {
  brandDefaults,
  categoryDefaults,
  couponDefaults,
  productDefaults,
} from '@replatform/canonical/defaults';
import { money, toMinor, type Money } from '@replatform/canonical/money';
import { reviewSchema, type Review, type ReviewStatus } from '@replatform/canonical/review';
import type { Order, OrderLine, OrderNote, Refund } from '@replatform/canonical/order';
import {
  backorderPolicies,
  productVisibilities,
  stockStatuses,
  type Dimensions,
  type Inventory,
  type Product,
  type ProductAttribute,
  type ProductOption,
  type SharedAttributeDefinition,
  type TagDefinition,
  type Variant,
} from '@replatform/canonical/product';
import { markers, metaValue, isMarker } from './markers.ts';
import { decodeEntities, termSlug } from './slugs.ts';

export { decodeEntities, termSlug };
import { metaToMetafields } from './metafields.ts';
import { nativeFields } from './native-fields.ts';
import type {
  WcAddress,
  WcAttribute,
  WcAttributeTerm,
  WcCoupon,
  WcCustomer,
  WcDimensions,
  WcOrder,
  WcOrderNote,
  WcProduct,
  WcRefund,
  WcReview,
  WcTerm,
  WcVariation,
} from './wc-schemas.ts';
import { reviewerNameOf } from './comment-text.ts';

/**
 * WooCommerce -> canonical. Amounts become minor units, dates UTC ISO-8601 (WooCommerce's `_gmt`
 * fields carry no zone), term names lose WordPress's HTML escaping. What a record holds that the
 * model has no place for is returned as its losses (the native field and why), which the engine
 * reports as the record's known differences.
 *
 * Order status mapping (WooCommerce -> canonical status / payment / fulfilment):
 *
 *   pending          -> pending    / pending (paid if a payment date is set)
 *   processing       -> processing / paid
 *   on-hold          -> on-hold    / pending (awaiting e.g. a bank transfer)
 *   completed        -> completed  / paid, fulfilled
 *   cancelled        -> cancelled  / voided (paid if it had been paid)
 *   refunded         -> refunded   / refunded
 *   failed           -> failed     / pending
 *   checkout-draft, auto-draft -> pending; trash -> cancelled; any other (plugin) status ->
 *   processing when paid, else pending.
 *   Refunds on an order that is not fully refunded make the payment partially_refunded.
 *   Fulfilled: completed, or refunded/cancelled after having been completed (date_completed);
 *   WooCommerce core has no partial fulfilment.
 */

export interface StoreUnits {
  weight: string;
  dimension: string;
}

export interface ReadContext {
  currency: string;
  units: StoreUnits;
  /** The store's "Uncategorized" category: WooCommerce's placeholder, not migrated. */
  defaultCategoryId: number | null;
  /** The store's tags by id (their descriptions are not in a product's answer). */
  tags?: ReadonlyMap<number, WcTerm>;
  /** The store-wide attributes with all their terms, by slug without the pa_ prefix. */
  attributes?: ReadonlyMap<string, SharedAttributeDefinition>;
}

/** A native field a record had a value in and the model could not carry. */
export interface Loss {
  field: string;
  reason: string;
}

export type Converted<T> = { ok: true; record: T; losses: Loss[] } | { ok: false; reason: string };

/** WooCommerce `_gmt` dates ('2024-05-01T10:00:00') as UTC ISO-8601. */
export function gmtToIso(value: string | null | undefined): string | null {
  if (!value) return null;
  const zoned = /([zZ]|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`;
  const ms = Date.parse(zoned);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

export const weightUnitToCanonical: Record<string, 'g' | 'kg' | 'lb' | 'oz'> = {
  g: 'g',
  kg: 'kg',
  lbs: 'lb',
  oz: 'oz',
};
export const dimensionUnitToCanonical: Record<string, 'cm' | 'm' | 'mm' | 'in' | 'yd'> = {
  cm: 'cm',
  m: 'm',
  mm: 'mm',
  in: 'in',
  yd: 'yd',
};

const amount = (value: string, currency: string): Money => {
  const trimmed = value.trim();
  return money(trimmed === '' ? 0 : toMinor(trimmed, currency), currency);
};
const number = (value: string) => (value.trim() === '' ? 0 : Number(value));
const oneOf = <T extends string>(list: readonly T[], value: string, fallback: T): T =>
  (list as readonly string[]).includes(value) ? (value as T) : fallback;

/** The declared reason a native field is not carried (native-fields.ts). */
function why(
  entity: 'categories' | 'products' | 'coupons' | 'customers' | 'orders',
  field: string,
): string {
  const declared = nativeFields[entity]?.[field];
  return declared && 'notCarried' in declared ? declared.notCarried : 'Not carried.';
}

function weightOf(value: string, units: StoreUnits): Variant['weight'] {
  const unit = weightUnitToCanonical[units.weight];
  if (value.trim() === '' || !unit || !Number.isFinite(Number(value))) return null;
  return { value: Math.max(0, Number(value)), unit };
}

function dimensionsOf(d: WcDimensions, units: StoreUnits): Dimensions | null {
  const unit = dimensionUnitToCanonical[units.dimension];
  if (!unit || [d.length, d.width, d.height].every((x) => x.trim() === '')) return null;
  return {
    length: Math.max(0, number(d.length)),
    width: Math.max(0, number(d.width)),
    height: Math.max(0, number(d.height)),
    unit,
  };
}

/**
 * What WordPress's HTML filter did to stored text: every lone `&` was escaped to `&amp;`; both
 * mean the same to a browser. An `&amp;` that could not start a character reference is read back
 * as the plain `&` other stores keep.
 */
export function bareAmpersands(html: string): string {
  return html.replace(/&amp;(?![A-Za-z0-9#]+;?)/g, '&');
}

/**
 * What a store shows for a stored category description. WordPress strips `<p>` and `<br>` from
 * term descriptions when saving them and puts paragraphs back when showing them (wpautop on
 * term_description): a blank line starts a paragraph, a single line break is a `<br>`. That
 * displayed form is the description; one that already carries block markup (stored by a plugin
 * that allows HTML in descriptions) is taken as it is.
 */
export function descriptionFromWc(stored: string): string {
  const text = bareAmpersands(stored.replace(/\r\n?/g, '\n').trim());
  if (text === '') return '';
  if (/<(p|div|ul|ol|h[1-6]|table|pre)[\s>]/i.test(text)) return text;
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${paragraph.trim().replace(/\n/g, '<br>')}</p>`)
    .join('');
}

const validUrl = (value: string | undefined | null): value is string =>
  !!value && URL.canParse(value);

const positiveOrNull = (value: number | null) =>
  value !== null && Number.isInteger(value) && value > 0 ? value : null;

/** Normalised for matching names: entities decoded, Unicode composed, case folded. */
export const nameKey = (value: string) =>
  decodeEntities(value).normalize('NFC').trim().toLocaleLowerCase('en');

function inventoryOf(
  item: {
    manage_stock: boolean | string;
    stock_quantity?: number | null;
    stock_status: string;
    backorders: string;
    low_stock_amount: number | null;
  },
  tracked: boolean,
): Inventory {
  return {
    tracked,
    quantity: tracked ? Math.trunc(item.stock_quantity ?? 0) : 0,
    stockStatus: oneOf(stockStatuses, item.stock_status, 'instock'),
    backorders: oneOf(backorderPolicies, item.backorders, 'no'),
    lowStockThreshold:
      item.low_stock_amount !== null && Number.isInteger(item.low_stock_amount)
        ? item.low_stock_amount
        : null,
  };
}

/** Prices, sale and downloads of a product or variation. */
function sellableOf(
  item: WcProduct | WcVariation,
  currency: string,
): Pick<
  Variant,
  | 'price'
  | 'salePrice'
  | 'saleStartsAt'
  | 'saleEndsAt'
  | 'virtual'
  | 'downloadable'
  | 'downloads'
  | 'downloadLimit'
  | 'downloadExpiryDays'
> {
  return {
    price: amount(item.regular_price !== '' ? item.regular_price : item.price, currency),
    salePrice: item.sale_price !== '' ? amount(item.sale_price, currency) : null,
    saleStartsAt: gmtToIso(item.date_on_sale_from_gmt),
    saleEndsAt: gmtToIso(item.date_on_sale_to_gmt),
    virtual: item.virtual,
    downloadable: item.downloadable,
    downloads: item.downloads
      .filter((d) => d.file.trim() !== '')
      .map((d) => ({ name: d.name, url: d.file })),
    downloadLimit: positiveOrNull(item.download_limit),
    downloadExpiryDays: positiveOrNull(item.download_expiry),
  };
}

/**
 * A store-wide attribute's values on a product, in an order that does not change between reads.
 * WooCommerce answers them in the attribute's own order; with "name (numeric)" it compares the
 * names as numbers (PHP floatval: a name that is no number counts as 0), and names that tie come
 * back in whatever order the database gives, which differs from one read to the next on a real
 * store. Those are put in the order the store created the terms, so a second run does not see a
 * change that is not there. Other orders are deterministic and kept as answered.
 */
export function inTermOrder(
  values: string[],
  definition: SharedAttributeDefinition | undefined,
): string[] {
  if (definition?.termOrder !== 'name_numeric') return values;
  const created = new Map(definition.terms.map((t, i) => [t.name, i]));
  const asNumber = (v: string) => {
    const n = Number.parseFloat(v);
    return Number.isFinite(n) ? n : 0;
  };
  return [...values].sort(
    (x, y) =>
      asNumber(x) - asNumber(y) ||
      (created.get(x) ?? Number.MAX_SAFE_INTEGER) - (created.get(y) ?? Number.MAX_SAFE_INTEGER),
  );
}

const productStatuses: Record<string, Product['status']> = {
  publish: 'active',
  private: 'private',
  pending: 'pending',
  draft: 'draft',
  future: 'draft',
};

/**
 * A product and its variations (WooCommerce answers a variation's own weight, dimensions and
 * shipping class, or its product's when it has none of its own: only values that differ from the
 * product's are the variant's).
 */
export function productToCanonical(
  p: WcProduct,
  variations: WcVariation[],
  ctx: ReadContext,
): Converted<Product> {
  if (!['simple', 'variable', 'grouped', 'external'].includes(p.type))
    return { ok: false, reason: `Product type '${p.type}' has no canonical form.` };
  const type = p.type as Product['type'];
  const currency = ctx.currency;
  const losses: Loss[] = [];
  const lose = (field: string, reason = why('products', field)) => {
    if (!losses.some((l) => l.field === field)) losses.push({ field, reason });
  };

  const options: ProductOption[] = [];
  const attributes: ProductAttribute[] = [];
  for (const a of [...p.attributes].sort((x, y) => x.position - y.position)) {
    const name = decodeEntities(a.name).trim();
    const shared =
      a.id > 0 || a.slug.startsWith('pa_') ? { slug: a.slug.replace(/^pa_/, '') } : null;
    const values = inTermOrder(
      [...new Set(a.options.map((o) => decodeEntities(o)))],
      shared ? ctx.attributes?.get(shared.slug) : undefined,
    );
    if (!name || values.length === 0) continue;
    const position = Math.max(0, Math.trunc(a.position));
    if (type === 'variable' && a.variation) {
      const nonEmpty = values.filter((v) => v.trim() !== '');
      if (nonEmpty.length)
        options.push({ name, values: nonEmpty, shared, visible: a.visible, position });
      continue;
    }
    if (a.variation)
      lose(
        'attributes[].variation',
        `The attribute '${name}' is marked for variations on a product that has none; it is migrated as a descriptive attribute.`,
      );
    attributes.push({ name, values, shared, visible: a.visible, position });
  }
  const optionFor = (attribute: { name: string; slug: string }) =>
    options.find(
      (o) =>
        (o.shared && attribute.slug.replace(/^pa_/, '') === o.shared.slug) ||
        nameKey(o.name) === nameKey(attribute.name) ||
        termSlug(o.name) === termSlug(attribute.name),
    );
  const valueIn = (option: ProductOption, raw: string) =>
    option.values.find((v) => v === raw) ??
    option.values.find((v) => nameKey(v) === nameKey(raw)) ??
    option.values.find((v) => termSlug(v) === termSlug(raw)) ??
    decodeEntities(raw);

  const defaultOptionValues = p.default_attributes.flatMap((d) => {
    const option = optionFor({ name: d.name, slug: '' });
    return option && d.option !== ''
      ? [{ name: option.name, value: valueIn(option, d.option) }]
      : [];
  });

  const productWeight = weightOf(p.weight, ctx.units);
  const productDimensions = dimensionsOf(p.dimensions, ctx.units);
  const gallery = new Set(p.images.map((i) => i.src));
  let variants: Variant[] = [];
  if (type === 'variable') {
    if (p.manage_stock === true)
      lose(
        'manage_stock',
        "The stock kept on the variable product itself (shared by its variations) is migrated as each variation's own stock.",
      );
    for (const v of [...variations].sort((a, b) => a.menu_order - b.menu_order || a.id - b.id)) {
      const optionValues = options.flatMap((o) => {
        const set = v.attributes.find((a) => optionFor(a) === o);
        return set && set.option !== '' ? [{ name: o.name, value: valueIn(o, set.option) }] : [];
      });
      const weight = weightOf(v.weight, ctx.units);
      const dimensions = dimensionsOf(v.dimensions, ctx.units);
      const ownDimensions =
        dimensions && JSON.stringify(dimensions) !== JSON.stringify(productDimensions)
          ? dimensions
          : undefined;
      if (v.date_created_gmt) {
        lose('variation_records[].date_created');
        lose('variation_records[].date_created_gmt');
      }
      if (v.downloads.some((d) => d.id !== '')) lose('variation_records[].downloads[].id');
      if (v.tax_status !== '' && v.tax_status !== 'taxable') lose('variation_records[].tax_status');
      if (Array.isArray(v.gallery_image_ids) && v.gallery_image_ids.length)
        lose('variation_records[].gallery_image_ids');
      if (v.image && validUrl(v.image.src) && !gallery.has(v.image.src)) {
        if (v.image.name) lose('variation_records[].image.name');
        if (v.image.alt) lose('variation_records[].image.alt');
      }
      variants.push({
        id: String(v.id),
        sku: v.sku,
        optionValues,
        status: v.status === 'publish' ? 'active' : 'private',
        ...sellableOf(v, currency),
        weight: weight && JSON.stringify(weight) !== JSON.stringify(productWeight) ? weight : null,
        ...(ownDimensions ? { dimensions: ownDimensions } : {}),
        // WooCommerce answers it formatted for display (wc_format_content, a line break added).
        ...(v.description.trim() !== ''
          ? { descriptionHtml: bareAmpersands(v.description.trim()) }
          : {}),
        inventory: inventoryOf(v, v.manage_stock === true || v.manage_stock === 'parent'),
        barcode: v.global_unique_id,
        imageUrl: v.image && validUrl(v.image.src) ? v.image.src : null,
        taxClass: v.tax_class === 'parent' ? null : v.tax_class,
        shippingClass:
          v.shipping_class !== '' && v.shipping_class !== p.shipping_class
            ? v.shipping_class
            : null,
        position: Math.max(0, Math.trunc(v.menu_order)),
        metafields: metaToMetafields(v.meta_data),
      });
    }
    if (variants.length === 0)
      return { ok: false, reason: 'Variable product without any variation.' };
    if (p.global_unique_id)
      lose(
        'global_unique_id',
        'The GTIN of the variable product itself has no place in the model, which keeps one per variant.',
      );
  } else if (type !== 'grouped') {
    if (p.downloads.some((d) => d.id !== '')) lose('downloads[].id');
    variants = [
      {
        id: String(p.id),
        sku: p.sku,
        optionValues: [],
        status: 'active',
        ...sellableOf(p, currency),
        weight: productWeight,
        inventory: inventoryOf(p, p.manage_stock === true),
        barcode: p.global_unique_id,
        imageUrl: null,
        taxClass: null,
        shippingClass: null,
        position: 0,
        metafields: [],
      },
    ];
  }
  if (p.post_password) lose('post_password');
  if (p.parent_id) lose('parent_id');
  if (p.status === 'future')
    lose('status', 'A product scheduled to be published later is migrated as a draft.');
  if (p.brands.length > 1)
    lose(
      'brands[]',
      `The product has ${p.brands.length} brands; the data model keeps one, so only '${decodeEntities(p.brands[0]?.name ?? '')}' is migrated.`,
    );

  const published = p.status === 'publish';
  return {
    ok: true,
    losses,
    record: {
      ...productDefaults(),
      id: String(p.id),
      type,
      name: p.name.trim() || `Product #${p.id}`,
      slug: p.slug.toLowerCase(),
      sku: p.sku,
      descriptionHtml: bareAmpersands(p.description),
      shortDescriptionHtml: bareAmpersands(p.short_description),
      status: productStatuses[p.status] ?? 'draft',
      visibility: oneOf(productVisibilities, p.catalog_visibility, 'visible'),
      featured: p.featured,
      vendor: p.brands[0] ? decodeEntities(p.brands[0].name) : '',
      options,
      attributes,
      defaultOptionValues,
      variants,
      images: p.images
        .filter((img) => validUrl(img.src))
        .map((img, position) => ({
          url: img.src,
          alt: img.alt,
          title: ownTitle(img.name, img.src),
          position,
        })),
      categoryIds: p.categories
        .filter((c) => c.id !== ctx.defaultCategoryId)
        .map((c) => String(c.id)),
      tags: [...new Set(p.tags.map((t) => decodeEntities(t.name)))],
      tagDefinitions: tagDefinitionsOf(p, ctx.tags),
      sharedAttributes: [
        ...new Set([...options, ...attributes].flatMap((a) => (a.shared ? [a.shared.slug] : []))),
      ].flatMap((slug) => {
        const definition = ctx.attributes?.get(slug);
        return definition ? [definition] : [];
      }),
      weight: productWeight,
      dimensions: productDimensions,
      taxStatus: oneOf(['taxable', 'shipping', 'none'] as const, p.tax_status, 'taxable'),
      taxClass: p.tax_class,
      shippingClass: p.shipping_class,
      soldIndividually: p.sold_individually,
      reviewsAllowed: p.reviews_allowed,
      purchaseNote: bareAmpersands(p.purchase_note),
      menuOrder: Math.trunc(p.menu_order),
      upsellIds: p.upsell_ids.map(String),
      crossSellIds: p.cross_sell_ids.map(String),
      groupedProductIds: type === 'grouped' ? p.grouped_products.map(String) : [],
      externalUrl: type === 'external' ? p.external_url : '',
      buttonText: type === 'external' ? p.button_text : '',
      metafields: metaToMetafields(p.meta_data),
      sourceUrlPath: published && URL.canParse(p.permalink) ? new URL(p.permalink).pathname : null,
      createdAt: gmtToIso(p.date_created_gmt),
      updatedAt: gmtToIso(p.date_modified_gmt),
    },
  };
}

const termOrders: Record<string, SharedAttributeDefinition['termOrder']> = {
  menu_order: 'position',
  name: 'name',
  name_num: 'name_numeric',
  id: 'id',
};

/**
 * A store-wide attribute with its settings and every term, listed in the order the store created
 * them (where it sorts by name as numbers, names that are no numbers keep that order).
 */
export function sharedAttributeToCanonical(
  a: WcAttribute,
  terms: readonly WcAttributeTerm[],
): SharedAttributeDefinition {
  const slug = a.slug.replace(/^pa_/, '');
  return {
    slug,
    name: decodeEntities(a.name).trim() || slug,
    archives: a.has_archives,
    termOrder: termOrders[a.order_by] ?? 'position',
    terms: [...terms]
      .sort((x, y) => x.id - y.id)
      .filter((t) => decodeEntities(t.name).trim() !== '')
      .map((t) => ({
        name: decodeEntities(t.name),
        slug: t.slug,
        description: t.description,
        position: Math.trunc(t.menu_order),
      })),
  };
}

/** The tags of a product with their slug and description, from the store's own list. */
function tagDefinitionsOf(p: WcProduct, tags: ReadonlyMap<number, WcTerm> | undefined) {
  const seen = new Set<string>();
  const out: TagDefinition[] = [];
  for (const t of p.tags) {
    const name = decodeEntities(t.name);
    if (seen.has(name) || name.trim() === '') continue;
    seen.add(name);
    const description = tags?.get(t.id)?.description ?? '';
    // A tag whose slug is the one WordPress makes from its name keeps nothing beyond the name.
    if (description === '' && t.slug === termSlug(name)) continue;
    out.push({ name, slug: t.slug, description });
  }
  return out;
}

/**
 * An image's title, '' when it is only the name of its file: WordPress titles an image stored
 * without one after its file (less the extension and the '-scaled' of a reduced copy), so that
 * name says nothing the image's address does not.
 */
export function ownTitle(title: string, url: string): string {
  let file = '';
  try {
    file = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    return title;
  }
  const stem = file.replace(/\.[^.]+$/, '');
  return title === stem || title === stem.replace(/-scaled$/, '') ? '' : title;
}

const displayTypes = ['default', 'products', 'subcategories', 'both'] as const;

/** Categories; `all` lets the storefront path be built from the ancestors' slugs. */
export function categoryToCanonical(
  t: WcTerm,
  all: Map<number, WcTerm>,
  defaultCategoryId: number | null = null,
): Converted<Category> {
  const chain: string[] = [];
  const seen = new Set<number>();
  for (
    let cursor: WcTerm | undefined = t;
    cursor && !seen.has(cursor.id);
    cursor = all.get(cursor.parent)
  ) {
    seen.add(cursor.id);
    chain.unshift(cursor.slug);
  }
  const image = t.image && validUrl(t.image.src) ? t.image : null;
  return {
    ok: true,
    losses: [],
    record: {
      ...categoryDefaults(),
      id: String(t.id),
      parentId: t.parent && t.parent !== defaultCategoryId ? String(t.parent) : null,
      name: decodeEntities(t.name).trim() || t.slug || `Category #${t.id}`,
      slug: t.slug.toLowerCase(),
      description: descriptionFromWc(t.description),
      position: Math.max(0, t.menu_order),
      imageUrl: image ? image.src : null,
      imageAlt: image ? image.alt : '',
      imageTitle: image ? ownTitle(image.name, image.src) : '',
      displayType: oneOf(displayTypes, t.display, 'default'),
      sourceUrlPath: `/product-category/${chain.join('/')}/`,
    },
  };
}

/** The slugs from the top of a term tree down to the term (its storefront path). */
function slugChain(t: WcTerm, all: Map<number, WcTerm>): string[] {
  const chain: string[] = [];
  const seen = new Set<number>();
  for (
    let cursor: WcTerm | undefined = t;
    cursor && !seen.has(cursor.id);
    cursor = all.get(cursor.parent)
  ) {
    seen.add(cursor.id);
    chain.unshift(cursor.slug);
  }
  return chain;
}

/**
 * Product brands (WooCommerce Brands, a tree like categories). A brand's page is
 * `/brand/<ancestors' slugs>/<slug>/` on a store with pretty permalinks (the term's `link` in
 * wp/v2; wc/v3 answers none). The logo's title is WordPress's own (the model keeps none).
 */
export function brandToCanonical(t: WcTerm, all: Map<number, WcTerm>): Converted<Brand> {
  const image = t.image && validUrl(t.image.src) ? t.image : null;
  return {
    ok: true,
    losses: [],
    record: {
      ...brandDefaults(),
      id: String(t.id),
      parentId: t.parent ? String(t.parent) : null,
      name: decodeEntities(t.name).trim() || t.slug || `Brand #${t.id}`,
      slug: t.slug.toLowerCase(),
      description: descriptionFromWc(t.description),
      position: Math.max(0, t.menu_order),
      imageUrl: image ? image.src : null,
      imageAlt: image ? image.alt : '',
      displayType: oneOf(displayTypes, t.display, 'default'),
      sourceUrlPath: `/brand/${slugChain(t, all).join('/')}/`,
    },
  };
}

const addressFields = [
  'first_name',
  'last_name',
  'company',
  'address_1',
  'address_2',
  'city',
  'state',
  'postcode',
  'country',
  'phone',
  'email',
] as const;
/** Whether the store holds anything at all in an address. */
export const hasAddress = (a: WcAddress) => addressFields.some((k) => a[k].trim() !== '');

export function addressToCanonical(a: WcAddress, withEmail: boolean): Address {
  const country = a.country.trim().toUpperCase();
  return {
    firstName: a.first_name,
    lastName: a.last_name,
    company: a.company,
    address1: a.address_1,
    address2: a.address_2,
    city: a.city,
    province: a.state,
    postalCode: a.postcode,
    countryCode: /^[A-Z]{2}$/.test(country) ? country : '',
    phone: a.phone,
    email: withEmail ? a.email : '',
  };
}

/** Equal in every field a shipping address has (it has no e-mail of its own). */
const sameAddress = (billing: Address, shipping: Address) =>
  (Object.keys(billing) as (keyof Address)[]).every(
    (k) => k === 'email' || billing[k] === shipping[k],
  );

export function customerToCanonical(c: WcCustomer): Converted<Customer> {
  const addresses: CustomerAddress[] = [];
  const billing = hasAddress(c.billing) ? addressToCanonical(c.billing, true) : null;
  const shipping = hasAddress(c.shipping) ? addressToCanonical(c.shipping, false) : null;
  if (billing && shipping && sameAddress(billing, shipping))
    addresses.push({ ...billing, isDefaultBilling: true, isDefaultShipping: true });
  else {
    if (billing) addresses.push({ ...billing, isDefaultBilling: true, isDefaultShipping: false });
    if (shipping) addresses.push({ ...shipping, isDefaultBilling: false, isDefaultShipping: true });
  }
  const record: Customer = {
    id: String(c.id),
    email: c.email.trim().toLowerCase(),
    username: c.username,
    firstName: c.first_name,
    lastName: c.last_name,
    phone: c.billing.phone,
    acceptsMarketing: false,
    addresses,
    note: '',
    tags: [],
    group: c.role === 'customer' || c.role === '' ? '' : c.role,
    metafields: metaToMetafields(c.meta_data),
    createdAt: gmtToIso(c.date_created_gmt) ?? new Date(0).toISOString(),
  };
  const parsed = customerSchema.safeParse(record);
  return parsed.success
    ? { ok: true, record, losses: [] }
    : { ok: false, reason: `Customer ${c.id}: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
}

export function orderStatusToCanonical(status: string, paid: boolean): Order['status'] {
  switch (status) {
    case 'pending':
    case 'processing':
    case 'on-hold':
    case 'completed':
    case 'cancelled':
    case 'refunded':
    case 'failed':
      return status;
    case 'checkout-draft':
    case 'auto-draft':
      return 'pending';
    case 'trash':
      return 'cancelled';
    default:
      return paid ? 'processing' : 'pending';
  }
}

/**
 * Completed is WooCommerce's only fulfilled state; an order refunded or cancelled after it was
 * completed keeps its completion date and counts as fulfilled too.
 */
export function fulfillmentOf(o: WcOrder): Order['fulfillmentStatus'] {
  if (o.status === 'completed') return 'fulfilled';
  if (o.date_completed_gmt && ['refunded', 'cancelled'].includes(o.status)) return 'fulfilled';
  return 'unfulfilled';
}

export function paymentStatusToCanonical(o: WcOrder, currency: string): Order['paymentStatus'] {
  if (o.status === 'refunded') return 'refunded';
  const paid = !!o.date_paid_gmt;
  if (paid && o.refunds.some((r) => amount(r.total, currency).amount !== 0))
    return 'partially_refunded';
  if (paid) return 'paid';
  if (o.status === 'cancelled') return 'voided';
  return 'pending';
}

const metaAmount = (
  list: { key: string; value: unknown }[],
  key: string,
  currency: string,
): number | undefined => {
  const value = metaValue(list, key);
  if (value === undefined || value === null || value === '') return undefined;
  try {
    return toMinor(String(value), currency);
  } catch {
    return undefined;
  }
};

const metaText = (value: unknown) =>
  typeof value === 'string' ? value : JSON.stringify(value ?? null);

function refundToCanonical(r: WcRefund, currency: string, lose: (f: string) => void): Refund {
  const m = (v: string) => amount(v, currency);
  if (r.refunded_payment) lose('refund_records[].refunded_payment');
  if (r.meta_data.some((x) => x.key !== '_refund_type' && !isMarker(x.key)))
    lose('refund_records[].meta_data');
  if (r.shipping_lines.length) lose('refund_records[].shipping_lines');
  if (r.fee_lines.length) lose('refund_records[].fee_lines');
  return {
    id: String(r.id),
    createdAt: gmtToIso(r.date_created_gmt) ?? new Date(0).toISOString(),
    amount: money(Math.abs(m(r.amount).amount), currency),
    reason: r.reason,
    lines: r.line_items.flatMap((li) => {
      const lineId = metaValue(li.meta_data, '_refunded_item_id');
      if (lineId === undefined || lineId === null || lineId === '') return [];
      return [
        {
          lineId: String(lineId),
          quantity: Math.abs(Math.trunc(li.quantity)),
          amount: money(Math.abs(m(li.total).amount), currency),
          tax: money(Math.abs(m(li.total_tax).amount), currency),
        },
      ];
    }),
  };
}

function noteToCanonical(n: WcOrderNote): OrderNote | undefined {
  const content = bareAmpersands(n.note);
  if (content.trim() === '') return undefined;
  return {
    content,
    customerNote: n.customer_note,
    author: n.author === 'WooCommerce' || n.author === 'system' ? '' : n.author,
    createdAt: gmtToIso(n.date_created_gmt) ?? new Date(0).toISOString(),
  };
}

/** An order with the refunds and notes read along with it (refunds endpoint, notes endpoint). */
export function orderToCanonical(
  o: WcOrder,
  refunds: WcRefund[] = [],
  notes: WcOrderNote[] = [],
): Converted<Order> {
  const currency = o.currency.toUpperCase();
  const m = (v: string) => amount(v, currency);
  if (o.line_items.length === 0)
    return { ok: false, reason: `Order ${o.number} has no product lines.` };
  const badQuantity = o.line_items.find((l) => !Number.isInteger(l.quantity) || l.quantity <= 0);
  if (badQuantity)
    return {
      ok: false,
      reason: `Order ${o.number} has a line with quantity ${badQuantity.quantity}.`,
    };
  const createdAt = gmtToIso(o.date_created_gmt);
  if (!createdAt) return { ok: false, reason: `Order ${o.number} has no creation date.` };
  const losses: Loss[] = [];
  const lose = (field: string, reason = why('orders', field)) => {
    if (!losses.some((l) => l.field === field)) losses.push({ field, reason });
  };

  // Taxes an import could not make the store calculate travel in meta (see from-canonical.ts).
  const taxOf = (line: { total_tax: string; meta_data: { key: string; value: unknown }[] }) => {
    const own = m(line.total_tax).amount;
    return money(
      own !== 0 ? own : (metaAmount(line.meta_data, markers.tax, currency) ?? 0),
      currency,
    );
  };
  const lines: OrderLine[] = o.line_items.map((l) => {
    const subtotal = m(l.subtotal);
    const unit = Math.round(subtotal.amount / l.quantity);
    if (unit * l.quantity !== subtotal.amount)
      lose(
        'line_items[].subtotal',
        `The line '${l.name}' costs ${l.subtotal} for ${l.quantity} units, which is no whole price per unit; the unit price is rounded.`,
      );
    const meta = l.meta_data.filter((x) => x.key !== '' && !isMarker(x.key));
    if (meta.some((x) => typeof x.value !== 'string'))
      lose(
        'line_items[].meta_data[]',
        'An order line holds structured meta data, which is migrated as its JSON text.',
      );
    const customSku = metaValue(l.meta_data, markers.sku);
    return {
      id: String(l.id),
      productId: l.product_id ? String(l.product_id) : null,
      variantId: l.variation_id ? String(l.variation_id) : null,
      sku: l.sku || (l.product_id === 0 && typeof customSku === 'string' ? customSku : ''),
      name: l.name.trim() || `Item ${l.id}`,
      quantity: l.quantity,
      unitPrice: money(unit, currency),
      tax: taxOf(l),
      total: m(l.total),
      taxClass: l.tax_class,
      meta: meta.map((x) => ({ key: x.key, value: metaText(x.value) })),
    };
  });
  const taxFees = o.fee_lines.filter((f) => metaValue(f.meta_data, markers.taxTotal) !== undefined);
  const fees = o.fee_lines
    .filter((f) => !taxFees.includes(f))
    .map((f) => {
      if (f.meta_data.some((x) => !isMarker(x.key))) lose('fee_lines[].meta_data');
      const entered = (f as { amount?: unknown }).amount;
      if (typeof entered === 'string' && entered !== '' && m(entered).amount !== m(f.total).amount)
        lose('fee_lines[].amount');
      return {
        name: f.name,
        amount: m(f.total),
        tax: m(f.total_tax),
        taxClass: f.tax_class,
        taxStatus: oneOf(['taxable', 'none'] as const, f.tax_status, 'taxable'),
      };
    });
  for (const c of o.coupon_lines) {
    const raw = c as Record<string, unknown>;
    if (raw.discount_type !== undefined) lose('coupon_lines[].discount_type');
    if (raw.nominal_amount !== undefined) lose('coupon_lines[].nominal_amount');
    if (raw.free_shipping === true) lose('coupon_lines[].free_shipping');
    if (c.meta_data.length) lose('coupon_lines[].meta_data');
  }
  for (const s of o.shipping_lines) {
    if (s.meta_data.some((x) => !isMarker(x.key))) lose('shipping_lines[].meta_data');
  }
  const taxLines = (o as { tax_lines?: unknown }).tax_lines;
  if (Array.isArray(taxLines) && taxLines.length) lose('tax_lines[]');
  if (o.parent_id) lose('parent_id');

  const taxFeeTotal = taxFees.reduce((s, f) => s + m(f.total).amount, 0);
  const refundList = [...refunds]
    .sort(
      (a, b) =>
        (gmtToIso(a.date_created_gmt) ?? '').localeCompare(gmtToIso(b.date_created_gmt) ?? '') ||
        a.id - b.id,
    )
    .map((r) => refundToCanonical(r, currency, (f) => lose(f)));
  const noteList = [...notes]
    .sort(
      (a, b) =>
        (gmtToIso(a.date_created_gmt) ?? '').localeCompare(gmtToIso(b.date_created_gmt) ?? '') ||
        a.id - b.id,
    )
    .flatMap((n) => noteToCanonical(n) ?? []);
  const paid = !!o.date_paid_gmt;
  const sum = (list: { amount: number }[]) => list.reduce((s, x) => s + x.amount, 0);
  return {
    ok: true,
    losses,
    record: {
      id: String(o.id),
      number: o.number.replace(/^#/, '') || String(o.id),
      createdAt,
      updatedAt: gmtToIso(o.date_modified_gmt),
      currency,
      customerId: o.customer_id ? String(o.customer_id) : null,
      email: o.billing.email.trim(),
      status: orderStatusToCanonical(o.status, paid),
      paymentStatus: paymentStatusToCanonical(o, currency),
      fulfillmentStatus: fulfillmentOf(o),
      lines,
      shippingLines: o.shipping_lines.map((s) => ({
        title: s.method_title,
        // 'other' stands in for a source line without a method code (WooCommerce needs one); a
        // method of a shipping zone is named with its instance, as WooCommerce's rate ids are.
        code:
          metaValue(s.meta_data, markers.shippingCode) === ''
            ? ''
            : s.instance_id !== '' && s.instance_id !== '0'
              ? `${s.method_id}:${s.instance_id}`
              : s.method_id,
        price: m(s.total),
        tax: taxOf(s),
      })),
      discounts: o.coupon_lines.map((c) => ({
        code: c.code,
        amount: m(c.discount),
        tax: m(c.discount_tax),
      })),
      fees,
      refunds: refundList,
      subtotal: money(
        o.line_items.reduce((s, l) => s + m(l.subtotal).amount, 0),
        currency,
      ),
      taxTotal: money(m(o.total_tax).amount + taxFeeTotal, currency),
      shippingTotal: m(o.shipping_total),
      discountTotal: m(o.discount_total),
      feeTotal: money(sum(fees.map((f) => f.amount)), currency),
      refundTotal: money(sum(refundList.map((r) => r.amount)), currency),
      grandTotal: m(o.total),
      billingAddress: hasAddress(o.billing) ? addressToCanonical(o.billing, true) : null,
      shippingAddress: hasAddress(o.shipping) ? addressToCanonical(o.shipping, false) : null,
      note: o.customer_note,
      notes: noteList,
      paymentMethod: o.payment_method,
      paymentMethodTitle: o.payment_method_title,
      transactionId: o.transaction_id,
      paidAt: gmtToIso(o.date_paid_gmt),
      completedAt: gmtToIso(o.date_completed_gmt),
      pricesIncludeTax: o.prices_include_tax,
      customerIpAddress: o.customer_ip_address,
      customerUserAgent: o.customer_user_agent,
      createdVia: o.created_via,
      metafields: metaToMetafields(o.meta_data),
    },
  };
}

/** WooCommerce answers a limit of 0 (none) as null; either is no limit. */
const limitOf = (value: number | null) => (value === null || value <= 0 ? null : value);
/** WooCommerce answers a spend limit that is not set as '0.00'. */
const spendOf = (value: string, currency: string): Money | null => {
  const parsed = amount(value, currency);
  return parsed.amount > 0 ? parsed : null;
};

/**
 * A coupon. Only a published coupon applies at checkout (WooCommerce finds coupons by code among
 * published ones), so every other status is a coupon that is switched off. WooCommerce has no
 * start date, and stores codes lower case.
 */
export function couponToCanonical(c: WcCoupon, currency: string): Converted<Coupon> {
  const discountType = (couponDiscountTypes as readonly string[]).includes(c.discount_type)
    ? (c.discount_type as Coupon['discountType'])
    : undefined;
  if (!discountType)
    return {
      ok: false,
      reason: `Coupon '${c.code}' gives a discount of a kind a plugin added ('${c.discount_type}'); only percentage, fixed cart and fixed product discounts can be migrated.`,
    };
  const losses: Loss[] = [];
  const usedBy = (c as { used_by?: unknown }).used_by;
  if (Array.isArray(usedBy) && usedBy.length > 0)
    losses.push({ field: 'used_by', reason: why('coupons', 'used_by') });
  const record: Coupon = {
    ...couponDefaults(),
    id: String(c.id),
    code: c.code,
    description: c.description,
    discountType,
    percentOff: discountType === 'percent' ? number(c.amount) : null,
    amountOff: discountType === 'percent' ? null : amount(c.amount, currency),
    freeShipping: c.free_shipping,
    enabled: c.status === 'publish',
    expiresAt: gmtToIso(c.date_expires_gmt),
    minimumSpend: spendOf(c.minimum_amount, currency),
    maximumSpend: spendOf(c.maximum_amount, currency),
    usageLimit: limitOf(c.usage_limit),
    usageLimitPerCustomer: limitOf(c.usage_limit_per_user),
    usageCount: Math.max(0, c.usage_count ?? 0),
    itemLimit: limitOf(c.limit_usage_to_x_items),
    individualUse: c.individual_use,
    excludeSaleItems: c.exclude_sale_items,
    productIds: c.product_ids.filter((id) => id > 0).map(String),
    excludedProductIds: c.excluded_product_ids.filter((id) => id > 0).map(String),
    categoryIds: c.product_categories.filter((id) => id > 0).map(String),
    excludedCategoryIds: c.excluded_product_categories.filter((id) => id > 0).map(String),
    allowedEmails: c.email_restrictions.filter((e) => e.trim() !== ''),
    metafields: metaToMetafields(c.meta_data),
    createdAt: gmtToIso(c.date_created_gmt),
  };
  const parsed = couponSchema.safeParse(record);
  return parsed.success
    ? { ok: true, record, losses }
    : { ok: false, reason: `Coupon ${c.id}: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
}

/**
 * A review's status: approved as approved, held for moderation (hold) as pending, spam as spam,
 * and a review in the bin (trash) as rejected, which is how a merchant turns a review down in
 * WordPress (the bin is emptied after 30 days).
 */
export const reviewStatusToCanonical: Readonly<Record<string, ReviewStatus>> = {
  approved: 'approved',
  hold: 'pending',
  spam: 'spam',
  trash: 'rejected',
};

/**
 * A product review. WooCommerce reviews have no headline (title ''). A review without stars (a
 * store that does not ask for ratings answers 0) has a rating of null. One without a name, or
 * with a rating outside 0 to 5, cannot be a canonical review: it is refused with the reason
 * rather than given values it did not have.
 */
export function reviewToCanonical(r: WcReview): Converted<Review> {
  const status = reviewStatusToCanonical[r.status];
  if (!status)
    return {
      ok: false,
      reason: `Review ${r.id} has a status WooCommerce does not list ('${r.status}').`,
    };
  const reviewerName = reviewerNameOf(r.reviewer);
  if (reviewerName.trim() === '')
    return { ok: false, reason: `Review ${r.id} has no reviewer name, which a review needs.` };
  if (!Number.isInteger(r.rating) || r.rating < 0 || r.rating > 5)
    return {
      ok: false,
      reason: `Review ${r.id} has a rating of ${r.rating}; a review gives 1 to 5 stars, or none.`,
    };
  const createdAt = gmtToIso(r.date_created_gmt);
  if (createdAt === null)
    return { ok: false, reason: `Review ${r.id} has no creation date the store could answer.` };
  const record: Review = {
    id: String(r.id),
    productId: String(r.product_id),
    reviewerName,
    reviewerEmail: r.reviewer_email,
    rating: r.rating === 0 ? null : r.rating,
    title: '',
    body: r.review,
    status,
    verified: r.verified,
    createdAt,
  };
  const parsed = reviewSchema.safeParse(record);
  return parsed.success
    ? { ok: true, record, losses: [] }
    : { ok: false, reason: `Review ${r.id}: ${parsed.error.issues[0]?.message ?? 'invalid'}` };
}
