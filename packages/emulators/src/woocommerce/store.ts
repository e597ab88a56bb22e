import { randomUUID } from 'node:crypto';
import { RestError } from './wp-rest.ts';
import { escHtml, filterPostHtml, filterTermDescription, sanitizeTitle } from './wp-text.ts';

/**
 * The state of one emulated WooCommerce store and the rules WooCommerce applies when the REST API
 * writes to it (the V3 controllers' prepare_object_for_database and the data stores): unique SKUs
 * and slugs, images downloaded from `src` into the media library, categories defaulting to
 * "Uncategorized", term names kept escaped, descriptions filtered, meta_data merged by key.
 */

export interface Meta {
  id: number;
  key: string;
  value: unknown;
}

export interface Attachment {
  id: number;
  /** Path under the store's home URL ('/wp-content/uploads/2026/11/shirt.png'). */
  path: string;
  name: string;
  alt: string;
  created: number;
  bytes?: Buffer;
  contentType: string;
  /** Where it was downloaded from (WooCommerce keeps this as `_wc_attachment_source`). */
  source: string;
}

/** Categories, tags, brands, shipping classes, and the terms of a store-wide attribute (pa_*). */
export type Taxonomy =
  'product_cat' | 'product_tag' | 'product_brand' | 'product_shipping_class' | `pa_${string}`;

/** A store-wide attribute (wc_create_attribute): its terms are the taxonomy `pa_<slug>`. */
export interface GlobalAttribute {
  id: number;
  name: string;
  /** With the pa_ prefix, as the REST API answers it. */
  slug: string;
  type: string;
  orderBy: string;
  hasArchives: boolean;
}

export interface Download {
  id: string;
  name: string;
  file: string;
}

export interface Term {
  id: number;
  taxonomy: Taxonomy;
  /** As stored by WordPress: HTML-escaped. */
  name: string;
  slug: string;
  parent: number;
  description: string;
  display: string;
  imageId: number;
  menuOrder: number;
}

export interface ProductAttribute {
  /** The store-wide attribute's id, 0 for the product's own attribute. */
  id: number;
  /** A store-wide attribute's values: ids of its terms. */
  termIds?: number[];
  /** The product's own attribute's name as given; a store-wide one's taxonomy (pa_color). */
  name: string;
  position: number;
  visible: boolean;
  variation: boolean;
  options: string[];
}

export interface Dimensions {
  length: string;
  width: string;
  height: string;
}

export type ProductType = 'simple' | 'variable' | 'grouped' | 'external';

export interface Product {
  id: number;
  name: string;
  slug: string;
  type: ProductType;
  status: string;
  featured: boolean;
  catalogVisibility: string;
  description: string;
  shortDescription: string;
  sku: string;
  globalUniqueId: string;
  regularPrice: string;
  salePrice: string;
  saleFrom: number | null;
  saleTo: number | null;
  virtual: boolean;
  downloadable: boolean;
  downloads: Download[];
  downloadLimit: number;
  downloadExpiry: number;
  shippingClassId: number;
  postPassword: string;
  externalUrl: string;
  buttonText: string;
  taxStatus: string;
  taxClass: string;
  manageStock: boolean;
  stockQuantity: number | null;
  stockStatus: string;
  backorders: string;
  lowStockAmount: number | null;
  soldIndividually: boolean;
  weight: string;
  dimensions: Dimensions;
  reviewsAllowed: boolean;
  purchaseNote: string;
  menuOrder: number;
  parentId: number;
  upsellIds: number[];
  crossSellIds: number[];
  groupedIds: number[];
  categoryIds: number[];
  tagIds: number[];
  brandIds: number[];
  /** Featured image first, then the gallery. */
  imageIds: number[];
  attributes: ProductAttribute[];
  /** Attribute key (pa_color, or the sanitised name of the product's own) -> value or slug. */
  defaultAttributes: Record<string, string>;
  meta: Meta[];
  created: number;
  modified: number;
  totalSales: number;
}

export interface Variation {
  id: number;
  parentId: number;
  description: string;
  sku: string;
  globalUniqueId: string;
  regularPrice: string;
  salePrice: string;
  saleFrom: number | null;
  saleTo: number | null;
  status: string;
  virtual: boolean;
  downloadable: boolean;
  downloads: Download[];
  downloadLimit: number;
  downloadExpiry: number;
  shippingClassId: number;
  taxStatus: string;
  taxClass: string;
  manageStock: boolean | 'parent';
  stockQuantity: number | null;
  stockStatus: string;
  backorders: string;
  lowStockAmount: number | null;
  weight: string;
  dimensions: Dimensions;
  imageId: number;
  /**
   * Attribute key (pa_color, or sanitize_title of the parent's own attribute's name) -> value:
   * a term slug for a store-wide attribute, the value itself otherwise; '' = any.
   */
  attributes: Record<string, string>;
  menuOrder: number;
  meta: Meta[];
  created: number;
  modified: number;
}

export type Json = Record<string, unknown>;

export const asString = (v: unknown): string =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v : String(v);
export const asBool = (v: unknown): boolean =>
  v === true || v === 1 || v === '1' || v === 'true' || v === 'yes';
export const asInt = (v: unknown): number => {
  const n = Number.parseInt(asString(v), 10);
  return Number.isFinite(n) ? n : 0;
};
export const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const asObject = (v: unknown): Json =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};

/** wc_format_decimal() without rounding: '19.9' stays, ',' is not a separator here. */
export function formatDecimal(v: unknown): string {
  const text = asString(v).trim();
  if (text === '') return '';
  const n = Number(text);
  return Number.isFinite(n) ? text.replace(/^\+/, '') : '';
}

/** Dates the REST API accepts: ISO-8601 with or without zone; without one it is site time (UTC). */
export function parseWcDate(v: unknown): number | undefined {
  const text = asString(v).trim();
  if (!text) return undefined;
  const zoned = /([zZ]|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
  const ms = Date.parse(zoned.replace(' ', 'T'));
  return Number.isFinite(ms) ? ms : undefined;
}

/** wc_rest_prepare_date_response(): 'Y-m-d\TH:i:s', no zone. The site runs on UTC. */
export function wcDate(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  return new Date(ms).toISOString().slice(0, 19);
}

export type ImageFetcher = (url: string) => Promise<{ bytes: Buffer; contentType: string }>;

export interface StoreSettings {
  currency: string;
  weightUnit: string;
  dimensionUnit: string;
  siteTitle: string;
  /** The WooCommerce version the store reports (system_status). */
  version?: string;
}

const imageExtensions = /\.(jpe?g|png|gif|webp|avif|bmp|ico|heic)$/i;

export class CatalogStore {
  readonly settings: StoreSettings;
  readonly attributes = new Map<number, GlobalAttribute>();
  readonly products = new Map<number, Product>();
  readonly variations = new Map<number, Variation>();
  readonly attachments = new Map<number, Attachment>();
  readonly terms = new Map<number, Term>();
  /** WordPress shares one ID sequence between products, variations, attachments, orders, coupons. */
  protected nextPostId = 10;
  protected nextTermId = 15;
  protected nextMetaId = 1;
  protected nextAttributeId = 1;
  readonly defaultCategoryId: number;
  /**
   * The store's tax classes besides the standard one (WC_Tax::get_tax_classes), as a fresh
   * install has them. The standard class has no slug of its own: a product in it holds ''.
   */
  readonly taxClasses: { slug: string; name: string }[] = [
    { slug: 'reduced-rate', name: 'Reduced rate' },
    { slug: 'zero-rate', name: 'Zero rate' },
  ];
  fetchImage: ImageFetcher;
  now: () => number = () => Date.now();

  constructor(settings: StoreSettings, fetchImage: ImageFetcher) {
    this.settings = settings;
    this.fetchImage = fetchImage;
    this.defaultCategoryId = this.insertTerm('product_cat', { name: 'Uncategorized' }).id;
  }

  /**
   * WC_Product::set_tax_class() (and the variation's, which also takes 'parent'): the value is
   * sanitised as a slug (a class's name names it too); 'standard' and a class the store does not
   * have are stored as the standard class, '' (observed on a real 11.0.1 store).
   */
  productTaxClass(value: unknown, variation = false): string {
    const slug = sanitizeTitle(asString(value));
    if (variation && slug === 'parent') return slug;
    return this.taxClasses.some((c) => c.slug === slug) ? slug : '';
  }

  /** WC_Tax::create_tax_class(): the slug made from the name; a name or a slug taken is refused. */
  addTaxClass(name: string): { slug: string; name: string } {
    const slug = sanitizeTitle(name.trim());
    if (!slug)
      throw new RestError(
        400,
        'woocommerce_rest_tax_class_invalid_name',
        'Tax class requires a valid name',
      );
    if (this.taxClasses.some((c) => c.name === name))
      throw new RestError(400, 'woocommerce_rest_tax_class_exists', 'Tax class already exists');
    if (this.taxClasses.some((c) => c.slug === slug))
      throw new RestError(
        400,
        'woocommerce_rest_tax_class_slug_exists',
        'Tax class slug already exists',
      );
    const created = { slug, name: name.trim() };
    this.taxClasses.push(created);
    // The store lists its classes by name.
    this.taxClasses.sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
    return created;
  }

  postId(): number {
    return this.nextPostId++;
  }

  // -------------------------------------------------------------------------------------------
  // meta_data

  /** WC_Data::update_meta_data for each entry, as prepare_object_for_database does. */
  applyMeta(current: Meta[], input: unknown, internal: Record<string, (v: unknown) => void> = {}) {
    for (const raw of asList(input)) {
      const entry = asObject(raw);
      const key = asString(entry.key);
      if (!key) continue;
      const setter = internal[key];
      if (setter) {
        setter(entry.value);
        continue;
      }
      const byId =
        entry.id !== undefined ? current.find((m) => m.id === asInt(entry.id)) : undefined;
      if (entry.value === null || entry.value === undefined) {
        // WC_Data::save_meta_data() deletes an entry whose value was set to null.
        for (let i = current.length - 1; i >= 0; i--)
          if (byId ? current[i] === byId : current[i]?.key === key) current.splice(i, 1);
        continue;
      }
      const existing = byId ?? current.find((m) => m.key === key);
      if (existing) {
        existing.key = key;
        existing.value = entry.value;
        for (let i = current.length - 1; i >= 0; i--) {
          const other = current[i];
          if (other && other !== existing && other.key === key && !byId) current.splice(i, 1);
        }
      } else current.push({ id: this.nextMetaId++, key, value: entry.value });
    }
  }

  newMeta(key: string, value: unknown): Meta {
    return { id: this.nextMetaId++, key, value };
  }

  // -------------------------------------------------------------------------------------------
  // Terms (categories, tags, brands)

  termsOf(taxonomy: Taxonomy): Term[] {
    return [...this.terms.values()].filter((t) => t.taxonomy === taxonomy);
  }

  private uniqueTermSlug(taxonomy: Taxonomy, slug: string, parent: number, self = 0): string {
    const taken = (s: string) => this.termsOf(taxonomy).some((t) => t.slug === s && t.id !== self);
    if (!taken(slug)) return slug;
    const parentTerm = this.terms.get(parent);
    let candidate = parentTerm ? `${slug}-${parentTerm.slug}` : slug;
    let n = 2;
    const base = candidate;
    while (taken(candidate)) candidate = `${base}-${n++}`;
    return candidate;
  }

  /**
   * Whether the REST API writes a term's menu_order: always for brands; for categories up to
   * WooCommerce 10 (writable in the 9.9.5 index, read-only in 11.0.1).
   */
  private takesMenuOrder(taxonomy: Taxonomy): boolean {
    if (taxonomy === 'product_brand' || taxonomy.startsWith('pa_')) return true;
    const major = Number(/^(\d+)\./.exec(this.settings.version ?? '')?.[1] ?? Number.NaN);
    return taxonomy === 'product_cat' && Number.isFinite(major) && major < 11;
  }

  /** wp_insert_term() plus WooCommerce's term meta (display, thumbnail, order). */
  insertTerm(taxonomy: Taxonomy, input: Json, imageId = 0): Term {
    const rawName = asString(input.name)
      .replace(/<[^>]*>/g, '')
      .trim();
    if (!rawName) throw new RestError(400, 'empty_term_name', 'A name is required for this term.');
    const hierarchical = taxonomy === 'product_cat' || taxonomy === 'product_brand';
    const parent = hierarchical ? asInt(input.parent) : 0;
    // wp_insert_term's own check (WooCommerce's controller leaves it to WordPress).
    if (parent && !this.terms.get(parent))
      throw new RestError(400, 'missing_parent', 'Parent term does not exist.');
    const name = escHtml(rawName);
    const slugGiven = asString(input.slug).trim() !== '';
    // MySQL's collation compares names without regard to case; a real store took 'FJÄLLBO'
    // beside 'Fjällbo' but refused 'ACME' beside 'Acme', so only ASCII letters are folded here.
    const folded = (n: string) => n.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const sibling = this.termsOf(taxonomy).find(
      (t) => folded(t.name) === folded(name) && (!hierarchical || t.parent === parent),
    );
    if (sibling && (!slugGiven || sibling.slug === sanitizeTitle(asString(input.slug)))) {
      throw new RestError(
        400,
        'term_exists',
        hierarchical
          ? 'A term with the name provided already exists with this parent.'
          : 'A term with the name provided already exists in this taxonomy.',
        { resource_id: sibling.id },
      );
    }
    const slug = this.uniqueTermSlug(
      taxonomy,
      sanitizeTitle(slugGiven ? asString(input.slug) : rawName) || String(this.nextTermId),
      parent,
    );
    const term: Term = {
      id: this.nextTermId++,
      taxonomy,
      name,
      slug,
      parent,
      description: filterTermDescription(asString(input.description)),
      display: asString(input.display) || 'default',
      imageId,
      menuOrder: this.takesMenuOrder(taxonomy) ? asInt(input.menu_order) : 0,
    };
    this.terms.set(term.id, term);
    return term;
  }

  /** wp_update_term(): a provided slug already used by another term is an error here. */
  updateTerm(term: Term, input: Json): void {
    if (input.name !== undefined) {
      const rawName = asString(input.name)
        .replace(/<[^>]*>/g, '')
        .trim();
      if (!rawName)
        throw new RestError(400, 'empty_term_name', 'A name is required for this term.');
      term.name = escHtml(rawName);
    }
    if (
      input.parent !== undefined &&
      (term.taxonomy === 'product_cat' || term.taxonomy === 'product_brand')
    ) {
      // A term made its own parent stays where it was; an unknown parent is wp_update_term's
      // WP_Error without a status, which the REST API answers with 500.
      const parent = asInt(input.parent) === term.id ? term.parent : asInt(input.parent);
      if (parent && !this.terms.get(parent))
        throw new RestError(500, 'missing_parent', 'Parent term does not exist.');
      let cursor = parent;
      while (cursor) {
        if (cursor === term.id)
          throw new RestError(
            400,
            'woocommerce_rest_term_invalid',
            'Parent resource does not exist.',
          );
        cursor = this.terms.get(cursor)?.parent ?? 0;
      }
      term.parent = parent;
    }
    if (input.slug !== undefined) {
      const slug = sanitizeTitle(asString(input.slug));
      if (slug && slug !== term.slug) {
        if (this.termsOf(term.taxonomy).some((t) => t.slug === slug && t.id !== term.id))
          throw new RestError(
            500,
            'duplicate_term_slug',
            `The slug &#8220;${slug}&#8221; is already in use by another term.`,
          );
        term.slug = slug;
      }
    }
    if (input.description !== undefined)
      term.description = filterTermDescription(asString(input.description));
    if (input.display !== undefined) term.display = asString(input.display) || 'default';
    if (input.menu_order !== undefined && this.takesMenuOrder(term.taxonomy))
      term.menuOrder = asInt(input.menu_order);
  }

  deleteTerm(term: Term): void {
    if (term.id === this.defaultCategoryId)
      throw new RestError(500, 'woocommerce_rest_cannot_delete', 'The resource cannot be deleted.');
    this.terms.delete(term.id);
    for (const t of this.terms.values()) if (t.parent === term.id) t.parent = term.parent;
    for (const p of this.products.values()) {
      p.categoryIds = p.categoryIds.filter((id) => id !== term.id);
      p.tagIds = p.tagIds.filter((id) => id !== term.id);
      p.brandIds = p.brandIds.filter((id) => id !== term.id);
      if (p.shippingClassId === term.id) p.shippingClassId = 0;
      for (const a of p.attributes)
        if (a.termIds) a.termIds = a.termIds.filter((id) => id !== term.id);
      if (!p.categoryIds.length) p.categoryIds = [this.defaultCategoryId];
    }
  }

  // -------------------------------------------------------------------------------------------
  // Store-wide attributes (wc_create_attribute, wc_update_attribute)

  private attributeSlug(input: unknown, name: string): string {
    const slug = sanitizeTitle(asString(input) || name).replace(/^pa_/, '');
    return `pa_${slug}`;
  }

  createAttribute(input: Json): GlobalAttribute {
    const name = asString(input.name).trim();
    if (!name)
      throw new RestError(
        400,
        'woocommerce_rest_invalid_product_attribute_name',
        'Please, provide an attribute name.',
      );
    const slug = this.attributeSlug(input.slug, name);
    if (slug.length > 'pa_'.length + 28)
      throw new RestError(
        400,
        'woocommerce_rest_invalid_product_attribute_slug_too_long',
        `Slug "${slug.slice(3)}" is too long (28 characters max). Shorten it, please.`,
      );
    if ([...this.attributes.values()].some((a) => a.slug === slug))
      throw new RestError(
        400,
        'woocommerce_rest_cannot_create',
        `Slug "${slug.slice(3)}" is already in use. Change it, please.`,
      );
    const attribute: GlobalAttribute = {
      id: this.nextAttributeId++,
      name,
      slug,
      type: asString(input.type) || 'select',
      orderBy: asString(input.order_by) || 'menu_order',
      hasArchives: asBool(input.has_archives),
    };
    this.attributes.set(attribute.id, attribute);
    return attribute;
  }

  updateAttribute(attribute: GlobalAttribute, input: Json): GlobalAttribute {
    if (input.name !== undefined) attribute.name = asString(input.name).trim() || attribute.name;
    if (input.type !== undefined) attribute.type = asString(input.type);
    if (input.order_by !== undefined) attribute.orderBy = asString(input.order_by);
    if (input.has_archives !== undefined) attribute.hasArchives = asBool(input.has_archives);
    return attribute;
  }

  deleteAttribute(attribute: GlobalAttribute): void {
    this.attributes.delete(attribute.id);
    for (const t of this.termsOf(attribute.slug as Taxonomy)) this.terms.delete(t.id);
    for (const p of this.products.values())
      p.attributes = p.attributes.filter((a) => a.id !== attribute.id);
  }

  attributeByTaxonomy(taxonomy: string): GlobalAttribute | undefined {
    return [...this.attributes.values()].find((a) => a.slug === taxonomy);
  }

  /**
   * A store-wide attribute's terms in the order its order_by names (wc_change_get_terms_defaults,
   * wc_terms_clauses): 'menu_order' by position, then name; 'name' by name; 'name_num' by the
   * name read as a number (`t.name+0`: names that are no numbers count as 0 and keep the order
   * they were created in); 'id' by id.
   */
  orderedTerms(ids: number[]): Term[] {
    const terms = ids
      .map((id) => this.terms.get(id))
      .filter((t): t is Term => t !== undefined)
      .sort((a, b) => a.id - b.id);
    const orderBy = terms[0] ? this.attributeByTaxonomy(terms[0].taxonomy)?.orderBy : undefined;
    const byName = (a: Term, b: Term) => a.name.localeCompare(b.name);
    const asNumber = (t: Term) => Number.parseFloat(t.name) || 0;
    if (orderBy === 'id') return terms;
    if (orderBy === 'name') return terms.sort(byName);
    if (orderBy === 'name_num') return terms.sort((a, b) => asNumber(a) - asNumber(b));
    return terms.sort((a, b) => a.menuOrder - b.menuOrder || byName(a, b));
  }

  /** The term of a store-wide attribute by name (get_term_by('name')), created when missing. */
  attributeTerm(taxonomy: Taxonomy, name: string, create: boolean): Term | undefined {
    const escaped = escHtml(name.trim());
    const found = this.termsOf(taxonomy).find((t) => t.name === escaped);
    if (found || !create || !name.trim()) return found;
    return this.insertTerm(taxonomy, { name });
  }

  termCount(term: Term): number {
    const holds = (p: Product): boolean => {
      if (term.taxonomy === 'product_cat') return p.categoryIds.includes(term.id);
      if (term.taxonomy === 'product_tag') return p.tagIds.includes(term.id);
      if (term.taxonomy === 'product_brand') return p.brandIds.includes(term.id);
      if (term.taxonomy === 'product_shipping_class') return p.shippingClassId === term.id;
      return p.attributes.some((a) => a.termIds?.includes(term.id));
    };
    return [...this.products.values()].filter((p) => p.status === 'publish' && holds(p)).length;
  }

  // -------------------------------------------------------------------------------------------
  // Media

  uniqueUploadPath(fileName: string): string {
    const date = new Date(this.now());
    const dir = `/wp-content/uploads/${date.getUTCFullYear()}/${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
    const dot = fileName.lastIndexOf('.');
    const stem = dot > 0 ? fileName.slice(0, dot) : fileName;
    const ext = dot > 0 ? fileName.slice(dot) : '';
    const used = new Set([...this.attachments.values()].map((a) => a.path));
    let candidate = `${dir}/${fileName}`;
    for (let n = 1; used.has(candidate); n++) candidate = `${dir}/${stem}-${n}${ext}`;
    return candidate;
  }

  /** wc_rest_upload_image_from_url() + wc_rest_set_uploaded_image_as_attachment(). */
  async sideloadImage(src: string, errorCode: string): Promise<Attachment> {
    const fileName = decodeURIComponent((src.split('?')[0] ?? '').split('/').pop() ?? '').replace(
      /[^A-Za-z0-9._-]/g,
      '-',
    );
    if (!imageExtensions.test(fileName))
      throw new RestError(
        400,
        errorCode,
        'Invalid image: Sorry, you are not allowed to upload this file type.',
      );
    let fetched: { bytes: Buffer; contentType: string };
    try {
      fetched = await this.fetchImage(src);
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'download failed';
      throw new RestError(400, errorCode, `Error getting remote image ${src}. Error: ${reason}`);
    }
    const attachment: Attachment = {
      id: this.postId(),
      path: this.uniqueUploadPath(fileName),
      name: fileName.replace(/\.[^.]+$/, ''),
      alt: '',
      created: this.now(),
      bytes: fetched.bytes,
      contentType: fetched.contentType,
      source: src,
    };
    this.attachments.set(attachment.id, attachment);
    return attachment;
  }

  /** An attachment that already exists in the media library (seeding). */
  addAttachment(path: string, alt: string, created: number, name?: string): Attachment {
    const attachment: Attachment = {
      id: this.postId(),
      path,
      name: name ?? (path.split('/').pop() ?? '').replace(/\.[^.]+$/, ''),
      alt,
      created,
      contentType: 'image/png',
      source: '',
    };
    this.attachments.set(attachment.id, attachment);
    return attachment;
  }

  /** Resolves an image object of a request ({id} or {src}) into an attachment id. */
  async resolveImage(raw: unknown, errorCode: string, invalidCode: string): Promise<number> {
    const image = asObject(raw);
    let id = asInt(image.id);
    if (!id && asString(image.src))
      id = (await this.sideloadImage(asString(image.src), errorCode)).id;
    const attachment = this.attachments.get(id);
    if (!attachment) throw new RestError(400, invalidCode, `#${id} is an invalid image ID.`);
    if (asString(image.alt)) attachment.alt = asString(image.alt).trim();
    if (asString(image.name)) attachment.name = asString(image.name);
    return id;
  }

  // -------------------------------------------------------------------------------------------
  // Products

  skuTaken(sku: string, self: number): number | undefined {
    if (!sku) return undefined;
    for (const p of this.products.values()) if (p.sku === sku && p.id !== self) return p.id;
    for (const v of this.variations.values()) if (v.sku === sku && v.id !== self) return v.id;
    return undefined;
  }

  private gtinTaken(gtin: string, self: number): boolean {
    if (!gtin) return false;
    return (
      [...this.products.values()].some((p) => p.globalUniqueId === gtin && p.id !== self) ||
      [...this.variations.values()].some((v) => v.globalUniqueId === gtin && v.id !== self)
    );
  }

  private uniquePostSlug(slug: string, self: number): string {
    const taken = (s: string) =>
      [...this.products.values()].some(
        (p) => p.slug === s && p.id !== self && p.status !== 'draft',
      );
    let candidate = slug;
    for (let n = 2; taken(candidate); n++) candidate = `${slug}-${n}`;
    return candidate;
  }

  blankProduct(id: number): Product {
    const now = this.now();
    return {
      id,
      name: '',
      slug: '',
      type: 'simple',
      status: 'publish',
      featured: false,
      catalogVisibility: 'visible',
      description: '',
      shortDescription: '',
      sku: '',
      globalUniqueId: '',
      regularPrice: '',
      salePrice: '',
      saleFrom: null,
      saleTo: null,
      virtual: false,
      downloadable: false,
      downloads: [],
      downloadLimit: -1,
      downloadExpiry: -1,
      shippingClassId: 0,
      postPassword: '',
      externalUrl: '',
      buttonText: '',
      taxStatus: 'taxable',
      taxClass: '',
      manageStock: false,
      stockQuantity: null,
      stockStatus: 'instock',
      backorders: 'no',
      lowStockAmount: null,
      soldIndividually: false,
      weight: '',
      dimensions: { length: '', width: '', height: '' },
      reviewsAllowed: true,
      purchaseNote: '',
      menuOrder: 0,
      parentId: 0,
      upsellIds: [],
      crossSellIds: [],
      groupedIds: [],
      categoryIds: [],
      tagIds: [],
      brandIds: [],
      imageIds: [],
      attributes: [],
      defaultAttributes: {},
      meta: [],
      created: now,
      modified: now,
      totalSales: 0,
    };
  }

  private termIds(input: unknown, taxonomy: Taxonomy): number[] {
    // wp_set_object_terms() skips ids that are not terms of the taxonomy.
    const ids = asList(input).map((t) => asInt(asObject(t).id));
    return [...new Set(ids)].filter((id) => this.terms.get(id)?.taxonomy === taxonomy);
  }

  /** The sale price, its schedule and the downloads, as the products controllers set them. */
  private applySellable(
    item: {
      salePrice: string;
      regularPrice: string;
      saleFrom: number | null;
      saleTo: number | null;
      downloadable: boolean;
      downloads: Download[];
      downloadLimit: number;
      downloadExpiry: number;
    },
    input: Json,
  ) {
    if (input.regular_price !== undefined) item.regularPrice = formatDecimal(input.regular_price);
    if (input.sale_price !== undefined) item.salePrice = formatDecimal(input.sale_price);
    // A '' date clears the schedule; null is "not sent" (isset() is false for it).
    const date = (v: unknown) => (asString(v) ? (parseWcDate(v) ?? null) : null);
    if (input.date_on_sale_from !== undefined && input.date_on_sale_from !== null)
      item.saleFrom = date(input.date_on_sale_from);
    if (input.date_on_sale_from_gmt !== undefined && input.date_on_sale_from_gmt !== null)
      item.saleFrom = date(input.date_on_sale_from_gmt);
    if (input.date_on_sale_to !== undefined && input.date_on_sale_to !== null)
      item.saleTo = date(input.date_on_sale_to);
    if (input.date_on_sale_to_gmt !== undefined && input.date_on_sale_to_gmt !== null)
      item.saleTo = date(input.date_on_sale_to_gmt);
    if (input.downloadable !== undefined) item.downloadable = asBool(input.downloadable);
    if (!item.downloadable) return;
    if (Array.isArray(input.downloads))
      item.downloads = input.downloads.flatMap((raw) => {
        const d = asObject(raw);
        const file = asString(d.file).trim();
        if (!file) return [];
        const kept = item.downloads.find((x) => x.file === file);
        return [{ id: asString(d.id) || kept?.id || randomUUID(), name: asString(d.name), file }];
      });
    if (input.download_limit !== undefined) item.downloadLimit = asInt(input.download_limit) || -1;
    if (input.download_expiry !== undefined)
      item.downloadExpiry = asInt(input.download_expiry) || -1;
  }

  /** The shipping class id of a slug (0 when the store has no such class). */
  private shippingClassId(slug: unknown): number {
    const wanted = asString(slug).trim();
    return this.termsOf('product_shipping_class').find((t) => t.slug === wanted)?.id ?? 0;
  }

  /** Stock fields as WC_REST_Products_Controller sets them (woocommerce_manage_stock is on). */
  private applyStock(
    item: {
      manageStock: boolean | 'parent';
      stockQuantity: number | null;
      stockStatus: string;
      backorders: string;
      lowStockAmount: number | null;
    },
    input: Json,
    kind: ProductType | 'variation',
  ) {
    if (input.manage_stock !== undefined)
      item.manageStock =
        kind === 'variation' && input.manage_stock === 'parent'
          ? 'parent'
          : asBool(input.manage_stock);
    if (input.backorders !== undefined) item.backorders = asString(input.backorders) || 'no';
    const status =
      input.stock_status !== undefined ? asString(input.stock_status) : item.stockStatus;
    if (kind === 'grouped' || kind === 'external') {
      item.manageStock = false;
      item.backorders = 'no';
      item.stockQuantity = null;
      item.stockStatus = kind === 'external' ? 'instock' : status;
      return;
    }
    if (item.manageStock === true) {
      if (input.stock_quantity !== undefined) item.stockQuantity = asInt(input.stock_quantity);
      item.stockQuantity ??= 0;
      if ('low_stock_amount' in input)
        item.lowStockAmount =
          input.low_stock_amount === null || input.low_stock_amount === ''
            ? null
            : asInt(input.low_stock_amount);
      // validate_props(): the status follows the quantity and the backorder setting.
      if (kind !== 'variable')
        item.stockStatus =
          item.stockQuantity > 0
            ? 'instock'
            : item.backorders === 'no'
              ? 'outofstock'
              : 'onbackorder';
      return;
    }
    if (item.manageStock === 'parent') return;
    item.stockQuantity = null;
    item.lowStockAmount = null;
    if (kind !== 'variable') item.stockStatus = status || 'instock';
  }

  /** A virtual item has no shipping data (WC_Product::validate_props). */
  private clearShippingWhenVirtual(item: {
    virtual: boolean;
    weight: string;
    dimensions: Dimensions;
    shippingClassId: number;
  }) {
    if (!item.virtual) return;
    item.weight = '';
    item.dimensions = { length: '', width: '', height: '' };
    item.shippingClassId = 0;
  }

  /** WC_REST_Products_Controller::prepare_object_for_database() and save(). */
  async saveProduct(input: Json, existing?: Product): Promise<Product> {
    const creating = !existing;
    const product: Product = existing ? structuredClone(existing) : this.blankProduct(0);
    if (input.type !== undefined) {
      const type = asString(input.type);
      if (!['simple', 'variable', 'grouped', 'external'].includes(type))
        throw new RestError(400, 'woocommerce_rest_invalid_product_type', 'Invalid product type.');
      product.type = type as ProductType;
    }
    if (input.name !== undefined) product.name = asString(input.name);
    if (input.status !== undefined) product.status = asString(input.status) || 'publish';
    if (input.featured !== undefined) product.featured = asBool(input.featured);
    if (input.catalog_visibility !== undefined)
      product.catalogVisibility = asString(input.catalog_visibility);
    if (input.description !== undefined)
      product.description = filterPostHtml(asString(input.description));
    if (input.short_description !== undefined)
      product.shortDescription = filterPostHtml(asString(input.short_description));
    if (input.sku !== undefined) {
      const sku = asString(input.sku).trim();
      const owner = this.skuTaken(sku, product.id);
      if (owner !== undefined)
        throw new RestError(400, 'product_invalid_sku', 'Invalid or duplicated SKU.', {
          resource_id: owner,
          unique_sku: `${sku}-1`,
        });
      product.sku = sku;
    }
    if (input.global_unique_id !== undefined) {
      const gtin = asString(input.global_unique_id).trim();
      if (gtin && !/^[0-9-]+$/.test(gtin))
        throw new RestError(
          400,
          'product_invalid_global_unique_id',
          'Invalid GTIN, UPC, EAN or ISBN.',
        );
      if (this.gtinTaken(gtin, product.id))
        throw new RestError(
          400,
          'product_invalid_global_unique_id',
          'Invalid or duplicated GTIN, UPC, EAN or ISBN.',
        );
      product.globalUniqueId = gtin;
    }
    if (input.virtual !== undefined) product.virtual = asBool(input.virtual);
    if (input.tax_status !== undefined) product.taxStatus = asString(input.tax_status);
    if (input.tax_class !== undefined) product.taxClass = this.productTaxClass(input.tax_class);
    if (input.post_password !== undefined) product.postPassword = asString(input.post_password);
    if (input.weight !== undefined) product.weight = formatDecimal(input.weight);
    if (input.dimensions !== undefined) {
      const d = asObject(input.dimensions);
      for (const k of ['length', 'width', 'height'] as const)
        if (d[k] !== undefined) product.dimensions[k] = formatDecimal(d[k]);
    }
    if (input.shipping_class !== undefined)
      product.shippingClassId = this.shippingClassId(input.shipping_class);
    if (input.attributes !== undefined)
      product.attributes = this.productAttributes(input.attributes);
    if (product.type === 'variable' || product.type === 'grouped') {
      // Their prices are their children's.
      product.regularPrice = '';
      product.salePrice = '';
      product.saleFrom = null;
      product.saleTo = null;
    } else this.applySellable(product, input);
    if (product.type === 'variable' || product.type === 'grouped') {
      if (input.downloadable !== undefined) product.downloadable = asBool(input.downloadable);
    }
    if (input.parent_id !== undefined) product.parentId = asInt(input.parent_id);
    if (input.sold_individually !== undefined)
      product.soldIndividually = asBool(input.sold_individually);
    this.applyStock(product, input, product.type);
    if (input.reviews_allowed !== undefined) product.reviewsAllowed = asBool(input.reviews_allowed);
    if (input.purchase_note !== undefined)
      product.purchaseNote = filterPostHtml(asString(input.purchase_note));
    if (input.menu_order !== undefined) product.menuOrder = asInt(input.menu_order);
    if (input.upsell_ids !== undefined)
      product.upsellIds = asList(input.upsell_ids)
        .map(asInt)
        .filter((id) => id > 0);
    if (input.cross_sell_ids !== undefined)
      product.crossSellIds = asList(input.cross_sell_ids)
        .map(asInt)
        .filter((id) => id > 0);
    if (input.categories !== undefined)
      product.categoryIds = this.termIds(input.categories, 'product_cat');
    if (input.tags !== undefined) product.tagIds = this.termIds(input.tags, 'product_tag');
    if (input.brands !== undefined) product.brandIds = this.termIds(input.brands, 'product_brand');
    if (product.type === 'external') {
      if (input.external_url !== undefined) product.externalUrl = asString(input.external_url);
      if (input.button_text !== undefined) product.buttonText = asString(input.button_text);
    }
    if (product.type === 'variable' && Array.isArray(input.default_attributes))
      product.defaultAttributes = this.defaultAttributes(product, input.default_attributes);
    // Not in the index's writable fields, but read by the controller (set_children).
    if (product.type === 'grouped' && Array.isArray(input.grouped_products))
      product.groupedIds = input.grouped_products.map(asInt).filter((id) => id > 0);
    if (input.images !== undefined) product.imageIds = await this.productImages(input.images);
    this.applyMeta(product.meta, input.meta_data);
    const created = parseWcDate(input.date_created_gmt) ?? parseWcDate(input.date_created);
    if (created !== undefined) product.created = created;
    this.clearShippingWhenVirtual(product);

    if (input.slug !== undefined || creating || !product.slug) {
      const wanted = sanitizeTitle(
        asString(input.slug ?? '') || (product.status === 'draft' ? '' : product.name),
      );
      // Drafts keep what they were given (or nothing) and skip the uniqueness check.
      product.slug =
        product.status === 'draft'
          ? wanted
          : this.uniquePostSlug(wanted || `product-${product.id}`, product.id);
    }
    if (!product.categoryIds.length) product.categoryIds = [this.defaultCategoryId];
    if (creating) product.id = this.postId();
    // wp_insert_post(): a new post's modification date is its creation date; a save is now.
    product.modified = creating && created !== undefined ? created : this.now();
    if (creating && created === undefined) product.created = product.modified;
    this.products.set(product.id, product);
    return product;
  }

  /** WC_REST_Products_V2_Controller::save_default_attributes(). */
  private defaultAttributes(product: Product, input: unknown[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const raw of input) {
      const a = asObject(raw);
      const global = asInt(a.id) ? this.attributes.get(asInt(a.id)) : undefined;
      const key = global ? global.slug : sanitizeTitle(asString(a.name));
      const attribute = product.attributes.find((x) =>
        global ? x.id === global.id : x.id === 0 && sanitizeTitle(x.name) === key,
      );
      if (!key || !attribute?.variation) continue;
      let value = asString(a.option).trim();
      if (global) {
        const term = this.attributeTerm(global.slug as Taxonomy, value, false);
        value = term ? term.slug : sanitizeTitle(value);
      }
      if (value) out[key] = value;
    }
    return out;
  }

  /** Attributes of a product: store-wide ones by id (their terms found or made by name). */
  private productAttributes(input: unknown): ProductAttribute[] {
    const out: ProductAttribute[] = [];
    for (const [index, raw] of asList(input).entries()) {
      const a = asObject(raw);
      const position = a.position === undefined ? index : asInt(a.position);
      const values = Array.isArray(a.options)
        ? a.options.map((o) => asString(o).trim()).filter(Boolean)
        : asString(a.options)
            .split('|')
            .map((o) => o.trim())
            .filter(Boolean);
      const id = asInt(a.id);
      if (id > 0) {
        const global = this.attributes.get(id);
        // WooCommerce skips an id it cannot resolve, and a store-wide attribute without values.
        if (!global || !values.length) continue;
        const termIds = values.flatMap(
          (v) => this.attributeTerm(global.slug as Taxonomy, v, true)?.id ?? [],
        );
        out.push({
          id,
          termIds: [...new Set(termIds)],
          name: global.slug,
          position,
          visible: asBool(a.visible),
          variation: asBool(a.variation),
          options: [],
        });
        continue;
      }
      const name = asString(a.name).trim();
      if (!name) continue;
      out.push({
        id: 0,
        name,
        position,
        visible: asBool(a.visible),
        variation: asBool(a.variation),
        options: values,
      });
    }
    return out;
  }

  /** The values of a product attribute as the REST API answers them. */
  attributeOptions(a: ProductAttribute): string[] {
    return a.id > 0 ? this.orderedTerms(a.termIds ?? []).map((t) => t.name) : a.options;
  }

  private async productImages(input: unknown): Promise<number[]> {
    const positions: { id: number; position: number }[] = [];
    for (const [index, raw] of asList(input).entries()) {
      const id = await this.resolveImage(
        raw,
        'woocommerce_product_image_upload_error',
        'woocommerce_product_invalid_image_id',
      );
      const position = asObject(raw).position;
      positions.push({ id, position: position === undefined ? index : asInt(position) });
    }
    return positions.sort((a, b) => a.position - b.position).map((p) => p.id);
  }

  deleteProduct(product: Product): void {
    this.products.delete(product.id);
    for (const v of [...this.variations.values()])
      if (v.parentId === product.id) this.variations.delete(v.id);
  }

  variationsOf(productId: number): Variation[] {
    return [...this.variations.values()].filter((v) => v.parentId === productId);
  }

  // -------------------------------------------------------------------------------------------
  // Variations

  /** WC_REST_Product_Variations_Controller::prepare_object_for_database() and save(). */
  async saveVariation(parent: Product, input: Json, existing?: Variation): Promise<Variation> {
    if (parent.type !== 'variable')
      throw new RestError(
        404,
        'woocommerce_rest_product_variation_invalid_parent',
        'Invalid parent product ID.',
      );
    const now = this.now();
    const v: Variation = existing
      ? structuredClone(existing)
      : {
          id: 0,
          parentId: parent.id,
          description: '',
          sku: '',
          globalUniqueId: '',
          regularPrice: '',
          salePrice: '',
          saleFrom: null,
          saleTo: null,
          status: 'publish',
          virtual: false,
          downloadable: false,
          downloads: [],
          downloadLimit: -1,
          downloadExpiry: -1,
          shippingClassId: 0,
          taxStatus: 'taxable',
          taxClass: 'parent',
          manageStock: false,
          stockQuantity: null,
          stockStatus: 'instock',
          backorders: 'no',
          lowStockAmount: null,
          weight: '',
          dimensions: { length: '', width: '', height: '' },
          imageId: 0,
          attributes: {},
          menuOrder: 0,
          meta: [],
          created: now,
          modified: now,
        };
    if (input.description !== undefined)
      v.description = filterPostHtml(asString(input.description));
    if (input.sku !== undefined) {
      const sku = asString(input.sku).trim();
      const owner = this.skuTaken(sku, v.id);
      if (owner !== undefined)
        throw new RestError(400, 'product_invalid_sku', 'Invalid or duplicated SKU.', {
          resource_id: owner,
          unique_sku: `${sku}-1`,
        });
      v.sku = sku;
    }
    if (input.global_unique_id !== undefined) {
      const gtin = asString(input.global_unique_id).trim();
      if (this.gtinTaken(gtin, v.id))
        throw new RestError(
          400,
          'product_invalid_global_unique_id',
          'Invalid or duplicated GTIN, UPC, EAN or ISBN.',
        );
      v.globalUniqueId = gtin;
    }
    if (input.status !== undefined) v.status = asString(input.status) || 'publish';
    if (input.virtual !== undefined) v.virtual = asBool(input.virtual);
    this.applySellable(v, input);
    if (input.tax_status !== undefined) v.taxStatus = asString(input.tax_status);
    if (input.tax_class !== undefined) v.taxClass = this.productTaxClass(input.tax_class, true);
    this.applyStock(v, input, 'variation');
    if (input.weight !== undefined) v.weight = formatDecimal(input.weight);
    if (input.dimensions !== undefined) {
      const d = asObject(input.dimensions);
      for (const k of ['length', 'width', 'height'] as const)
        if (d[k] !== undefined) v.dimensions[k] = formatDecimal(d[k]);
    }
    if (input.shipping_class !== undefined)
      v.shippingClassId = this.shippingClassId(input.shipping_class);
    if (input.menu_order !== undefined) v.menuOrder = asInt(input.menu_order);
    if (input.image !== undefined) {
      const image = asObject(input.image);
      v.imageId =
        Object.keys(image).length === 0
          ? 0
          : await this.resolveImage(
              image,
              'woocommerce_variation_image_upload_error',
              'woocommerce_variation_invalid_image_id',
            );
    }
    if (input.attributes !== undefined) {
      // Only attributes the parent uses for variations are kept: a store-wide one under its
      // taxonomy with the term's slug, a product's own under its sanitised name.
      v.attributes = {};
      for (const raw of asList(input.attributes)) {
        const a = asObject(raw);
        const global = asInt(a.id) ? this.attributes.get(asInt(a.id)) : undefined;
        const key = global ? global.slug : sanitizeTitle(asString(a.name));
        const parentAttribute = parent.attributes.find((pa) =>
          global ? pa.id === global.id : pa.id === 0 && sanitizeTitle(pa.name) === key,
        );
        if (!key || !parentAttribute?.variation) continue;
        let value = asString(a.option).trim();
        if (global && value) {
          const term = this.attributeTerm(global.slug as Taxonomy, value, false);
          value = term ? term.slug : sanitizeTitle(value);
        }
        v.attributes[key] = value;
      }
    }
    this.applyMeta(v.meta, input.meta_data);
    this.clearShippingWhenVirtual(v);
    if (!existing) v.id = this.postId();
    v.modified = now;
    this.variations.set(v.id, v);
    parent.modified = now;
    return v;
  }
}
