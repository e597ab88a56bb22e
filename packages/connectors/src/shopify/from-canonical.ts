import type { Address } from '@replatform/canonical/address';
import type { Category } from '@replatform/canonical/category';
import type { Coupon } from '@replatform/canonical/coupon';
import type { Customer } from '@replatform/canonical/customer';
import type { Metafield } from '@replatform/canonical/metafield';
import { inventoryDefaults, variantDefaults } from '@replatform/canonical/defaults';
import { fromMinor } from '@replatform/canonical/money';
import type { Order, Refund } from '@replatform/canonical/order';
import type { Product, Variant } from '@replatform/canonical/product';
import type { Review } from '@replatform/canonical/review';
import { MARKER_KEY, MARKER_NAMESPACE, variantsBulkCost } from './documents.ts';
import {
  CARRIED_NAMESPACE,
  carriedKeys,
  isMarker,
  OWN_NAMESPACE,
  ownValue,
  parseJson,
  SOURCE_NUMBER_KEY,
} from './own-fields.ts';
import { naturalKey, type WantedEntry } from './reviews.ts';
import { FEE_PROPERTY } from './to-canonical.ts';

/**
 * Canonical -> Shopify inputs (ProductSetInput, CollectionCreateInput, CustomerInput,
 * OrderCreateOrderInput, RefundInput of the 2026-10 schema). Each builder answers the input, or a
 * reason the record cannot go to Shopify, plus warnings for what the record holds that Shopify
 * cannot (what no record of the kind can hold is declared in native-fields.ts instead).
 */

/** productSet's default variant limit (its 2026-10 description; limits.json). */
export const MAX_VARIANTS = 2048;
/** Shopify products have at most three options. */
export const MAX_OPTIONS = 3;

export type Built<T> = { input: T; warnings: string[] } | { failure: string };

export function markerMetafield(sourceId: string) {
  return {
    namespace: MARKER_NAMESPACE,
    key: MARKER_KEY,
    type: 'single_line_text_field',
    value: sourceId,
  };
}

const weightUnits = { g: 'GRAMS', kg: 'KILOGRAMS', oz: 'OUNCES', lb: 'POUNDS' } as const;
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** True for an ISO 3166-1 alpha-2 code (Shopify's CountryCode enum refuses anything else). */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && regionNames.of(code) !== undefined;
}

export function mailingAddress(a: Address): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (key: string, value: string) => {
    if (value.trim() !== '') out[key] = value.trim();
  };
  put('firstName', a.firstName);
  put('lastName', a.lastName);
  put('company', a.company);
  put('address1', a.address1);
  put('address2', a.address2);
  put('city', a.city);
  put('provinceCode', a.province);
  put('zip', a.postalCode);
  put('phone', a.phone);
  if (isCountryCode(a.countryCode)) out.countryCode = a.countryCode;
  return out;
}

/** A storefront path ('/shoes/red?x=1' or a full URL) as Shopify's redirect `path` wants it. */
export function redirectPath(sourceUrlPath: string | null): string | null {
  if (!sourceUrlPath) return null;
  try {
    const url = new URL(sourceUrlPath, 'https://example.invalid');
    return url.pathname + url.search;
  } catch {
    return null;
  }
}

/** Metafield types Shopify knows (its list of types), for custom fields that name one. */
const shopifyTypes = new Set([
  'boolean',
  'color',
  'date',
  'date_time',
  'dimension',
  'id',
  'json',
  'link',
  'money',
  'multi_line_text_field',
  'number_decimal',
  'number_integer',
  'rating',
  'rich_text_field',
  'single_line_text_field',
  'url',
  'volume',
  'weight',
]);

/** Reference types whose values are ids of records the migration maps to the destination. */
const referenceKinds = {
  product_reference: 'products',
  collection_reference: 'categories',
  customer_reference: 'customers',
} as const;

/** A Shopify metafield namespace or key made of the characters Shopify takes. */
function shopifyName(text: string, min: number, max: number): string {
  let name = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .slice(0, max);
  while (name.length < min) name = `${name}_`;
  return name;
}

export interface MetafieldContext {
  /** Destination id of a migrated record, for reference metafields. */
  idOf?: (entity: 'products' | 'categories' | 'customers', sourceId: string) => string | undefined;
}

/**
 * The model's custom fields as Shopify metafields: Shopify's own metafields ('shopify.<namespace>')
 * back under their namespace with their type; other platforms' custom fields under their
 * namespace, with the characters Shopify refuses replaced and a text type. Shopify's own fields
 * (namespace 'shopify') are not metafields: the builders write them into their fields.
 */
export function shopifyMetafields(
  list: readonly Metafield[],
  warnings: string[],
  ctx: MetafieldContext = {},
): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  for (const m of list) {
    if (m.namespace === OWN_NAMESPACE) continue;
    const shopify = m.namespace.startsWith(`${OWN_NAMESPACE}.`);
    const namespace = shopify
      ? m.namespace.slice(OWN_NAMESPACE.length + 1)
      : shopifyName(m.namespace.replace(/\./g, '-'), 3, 255);
    const key = shopify ? m.key : shopifyName(m.key, 2, 64);
    const label = `${m.namespace}.${m.key}`;
    if (isMarker({ namespace, key })) continue;
    if (m.value === '') {
      warnings.push(`The custom field ${label} is empty; Shopify keeps no empty metafields.`);
      continue;
    }
    let type = m.type;
    let value = m.value;
    const kind = referenceKinds[type.replace(/^list\./, '') as keyof typeof referenceKinds];
    if (!kind && type.endsWith('_reference')) {
      // Files, pages, metaobjects and variants of the source shop are not records the migration
      // maps: their ids would point at nothing (or at something else) at the destination.
      warnings.push(
        `The custom field ${label} refers to ${type
          .replace(/^list\./, '')
          .replace(/_reference$/, '')
          .replace(
            /_/g,
            ' ',
          )} records of the source store, which are not migrated; it was not migrated.`,
      );
      continue;
    }
    if (kind) {
      const ids = type.startsWith('list.') ? (parseJson(value) as unknown) : [value];
      const mapped = Array.isArray(ids) ? ids.map((id) => ctx.idOf?.(kind, String(id))) : [];
      if (!Array.isArray(ids) || mapped.some((id) => id === undefined)) {
        warnings.push(
          `The custom field ${label} refers to records that are not at the destination; it was not migrated.`,
        );
        continue;
      }
      value = type.startsWith('list.') ? JSON.stringify(mapped) : String(mapped[0]);
    } else if (!shopifyTypes.has(type) && !/^list\.[a-z_]+$/.test(type)) {
      type = /[\r\n]/.test(value) ? 'multi_line_text_field' : 'single_line_text_field';
      if (m.type === 'json' || m.type.startsWith('list.')) type = 'json';
    }
    if (out.some((x) => x.namespace === namespace && x.key === key)) {
      warnings.push(
        `The custom field ${label} has the same Shopify name (${namespace}.${key}) as another one; it was not migrated.`,
      );
      continue;
    }
    if (!shopify && `${namespace}.${key}` !== label)
      warnings.push(`The custom field ${label} was stored as the metafield ${namespace}.${key}.`);
    out.push({ namespace, key, type, value });
  }
  return out;
}

/** A 'replatform' metafield holding a field of the model Shopify has no place for. */
function carriedMetafield(key: string, value: string, type: string): Record<string, string> {
  return { namespace: CARRIED_NAMESPACE, key, type, value };
}

const textType = (value: string) =>
  /[\r\n]/.test(value) ? 'multi_line_text_field' : 'single_line_text_field';

/** Shopify's own fields of a record (namespace 'shopify'), by key. */
function ownFields(list: readonly Metafield[]): Map<string, string> {
  return new Map(list.filter((m) => m.namespace === OWN_NAMESPACE).map((m) => [m.key, m.value]));
}

/** Own fields a builder did not know where to write. */
function unknownOwn(fields: Map<string, string>, known: readonly string[], warnings: string[]) {
  for (const key of fields.keys())
    if (!known.includes(key))
      warnings.push(`The Shopify field ${OWN_NAMESPACE}.${key} has no place on this record.`);
}

export interface ProductContext extends MetafieldContext {
  locationId: string;
  collectionIds: (sourceCategoryId: string) => string | undefined;
  /** The destination's copy of an image stored before (its media id), by its source URL. */
  imageId?: (url: string) => string | undefined;
  /** The time now (ms), to tell a sale running now from a scheduled or ended one. */
  now?: number;
}

/** A file of a product: its source URL and alt text, and the destination's media id if stored. */
export interface PlannedFile {
  source: string;
  alt: string;
  id?: string;
}

export type BuiltProduct =
  | { input: Record<string, unknown>; files: PlannedFile[]; warnings: string[] }
  | { failure: string };

const fileInput = (f: PlannedFile): Record<string, unknown> =>
  f.id ? { id: f.id, alt: f.alt } : { originalSource: f.source, alt: f.alt, contentType: 'IMAGE' };

/** Whether a variant's sale applies now (no schedule, or within it). */
export function saleRuns(v: Variant, now: number): boolean {
  if (!v.salePrice) return false;
  if (v.saleStartsAt && Date.parse(v.saleStartsAt) > now) return false;
  if (v.saleEndsAt && Date.parse(v.saleEndsAt) <= now) return false;
  return true;
}

const productOwnKeys = [
  'product_type',
  'template_suffix',
  'gift_card',
  'gift_card_template_suffix',
  'requires_selling_plan',
  'category',
];
const variantOwnKeys = [
  'unit_cost',
  'harmonized_system_code',
  'country_code_of_origin',
  'province_code_of_origin',
  'compare_at_price',
];

const stockWords = {
  instock: 'in stock',
  outofstock: 'out of stock',
  onbackorder: 'on backorder',
} as const;

/**
 * A grouped product as Shopify can hold it: a product needs a variant at Shopify, so the group
 * gets one that cannot be bought (price 0, its stock counted at none, not sold without stock).
 */
function groupStandIn(p: Product): Product {
  return {
    ...p,
    variants: [
      {
        ...variantDefaults({ amount: 0, currency: p.variants[0]?.price.currency ?? 'USD' }),
        id: `${p.id}-group`,
        sku: p.sku,
        optionValues: [],
        position: 0,
        inventory: { ...inventoryDefaults(), tracked: true, stockStatus: 'outofstock' },
        virtual: true,
      },
    ],
  };
}

export function productSetInput(product: Product, ctx: ProductContext): BuiltProduct {
  const grouped = product.type === 'grouped';
  const p = grouped ? groupStandIn(product) : product;
  const warnings: string[] = [];
  if (p.options.length > MAX_OPTIONS)
    return {
      failure: `The product has ${p.options.length} options; Shopify allows at most ${MAX_OPTIONS}.`,
    };
  if (p.variants.length > MAX_VARIANTS)
    return {
      failure: `The product has ${p.variants.length} variants; Shopify allows at most ${MAX_VARIANTS} per product.`,
    };
  const options = [...p.options].sort((a, b) => a.position - b.position);
  const simple = options.length === 0;
  if (simple && p.variants.length !== 1)
    return {
      failure: `The product has no options but ${p.variants.length} variants; Shopify needs options to tell variants apart.`,
    };
  const combos = new Set<string>();
  for (const v of p.variants) {
    if (simple) break;
    for (const o of options) {
      const value = v.optionValues.find((x) => x.name === o.name)?.value;
      if (!value || !o.values.includes(value))
        return {
          failure: `Variant ${v.sku || v.id} has no value for option '${o.name}'; Shopify needs one value of every option on each variant.`,
        };
    }
    const combo = options
      .map((o) => v.optionValues.find((x) => x.name === o.name)?.value)
      .join(' / ');
    if (combos.has(combo))
      return {
        failure: `Two variants have the same options (${combo}); Shopify needs each combination once.`,
      };
    combos.add(combo);
  }
  if (p.visibility === 'catalog' || p.visibility === 'search')
    warnings.push(
      `The product is listed only in the ${p.visibility === 'catalog' ? 'shop' : 'search results'} at the source; Shopify lists it in both (visibility).`,
    );
  // Only an active product can be unlisted at Shopify; a draft or archived one has no visibility.
  if (p.visibility === 'hidden' && p.status !== 'active')
    warnings.push(
      `The product is hidden from the shop at the source and not for sale; Shopify keeps no visibility for a ${p.status === 'archived' ? 'archived' : 'draft'} product, so it is listed once published (visibility).`,
    );
  const hiddenOptions = options.filter((o) => !o.visible).map((o) => o.name);
  if (hiddenOptions.length)
    warnings.push(
      `Shopify shows every option on the product page, also ${hiddenOptions.join(', ')} (not shown at the source).`,
    );

  const now = ctx.now ?? Date.now();
  const currency = p.variants[0]?.price.currency ?? 'USD';
  const files: PlannedFile[] = [];
  const addFile = (url: string, alt: string) => {
    if (!files.some((f) => f.source === url)) {
      const id = ctx.imageId?.(url);
      files.push({ source: url, alt, ...(id ? { id } : {}) });
    }
  };
  for (const i of [...p.images].sort((a, b) => a.position - b.position)) addFile(i.url, i.alt);
  for (const v of p.variants) {
    if (!v.imageUrl) continue;
    if (!files.some((f) => f.source === v.imageUrl))
      warnings.push(
        `The image of variant ${v.sku || v.id} is added to the product's images: Shopify keeps a variant's image among them (images).`,
      );
    addFile(v.imageUrl, '');
  }
  if (
    p.weight &&
    p.variants.length > 0 &&
    p.variants.every((v) => v.weight && JSON.stringify(v.weight) !== JSON.stringify(p.weight))
  )
    warnings.push(
      `The product's own weight (${p.weight.value} ${p.weight.unit}) is not kept: Shopify weighs variants only, and each has a weight of its own (weight).`,
    );

  const own = ownFields(p.metafields);
  unknownOwn(own, productOwnKeys, warnings);
  const variants = [...p.variants]
    .sort((a, b) => a.position - b.position)
    .map((v) => {
      if (v.price.currency !== currency)
        warnings.push(
          `Variant ${v.sku || v.id} is priced in ${v.price.currency}, not ${currency}.`,
        );
      const vOwn = ownFields(v.metafields);
      unknownOwn(vOwn, variantOwnKeys, warnings);
      // Shopify works out the stock status from the counted stock and whether it keeps selling.
      const shown =
        !v.inventory.tracked || v.inventory.quantity > 0
          ? 'instock'
          : v.inventory.backorders === 'no'
            ? 'outofstock'
            : 'onbackorder';
      if (shown !== v.inventory.stockStatus)
        warnings.push(
          `Variant ${v.sku || v.id} is ${stockWords[v.inventory.stockStatus]} at the source; Shopify works out the stock status from the counted stock and shows it ${stockWords[shown]} (variants).`,
        );
      if (v.inventory.backorders === 'notify')
        warnings.push(
          `Variant ${v.sku || v.id} keeps selling when out of stock, but Shopify does not tell the customer it is on backorder (variants).`,
        );
      const inventoryItem: Record<string, unknown> = {
        tracked: v.inventory.tracked,
        requiresShipping: !v.virtual,
      };
      const weight = v.weight ?? p.weight;
      if (weight)
        inventoryItem.measurement = {
          weight: { unit: weightUnits[weight.unit], value: weight.value },
        };
      const cost = vOwn.get('unit_cost');
      if (cost !== undefined) inventoryItem.cost = cost;
      const hs = vOwn.get('harmonized_system_code');
      if (hs !== undefined) inventoryItem.harmonizedSystemCode = hs;
      const origin = vOwn.get('country_code_of_origin');
      if (origin !== undefined && isCountryCode(origin)) inventoryItem.countryCodeOfOrigin = origin;
      const province = vOwn.get('province_code_of_origin');
      if (province !== undefined) inventoryItem.provinceCodeOfOrigin = province;
      const onSale = saleRuns(v, now) && v.salePrice !== null;
      if (v.salePrice && !onSale)
        warnings.push(
          `Variant ${v.sku || v.id}'s sale price is not applied: its sale ${v.saleStartsAt && Date.parse(v.saleStartsAt) > now ? 'starts later' : 'has ended'}, and Shopify has no sale schedule (variants).`,
        );
      const metafields = shopifyMetafields(v.metafields, warnings, ctx);
      if (v.descriptionHtml)
        metafields.push(
          carriedMetafield(
            carriedKeys.variant.descriptionHtml,
            v.descriptionHtml,
            'multi_line_text_field',
          ),
        );
      if (v.dimensions)
        metafields.push(
          carriedMetafield(carriedKeys.variant.dimensions, JSON.stringify(v.dimensions), 'json'),
        );
      const file = v.imageUrl ? files.find((f) => f.source === v.imageUrl) : undefined;
      return {
        optionValues: simple
          ? [{ optionName: 'Title', name: 'Default Title' }]
          : options.map((o) => ({
              optionName: o.name,
              name: v.optionValues.find((x) => x.name === o.name)?.value ?? '',
            })),
        price: fromMinor(onSale && v.salePrice ? v.salePrice.amount : v.price.amount, currency),
        compareAtPrice: onSale
          ? fromMinor(v.price.amount, currency)
          : (vOwn.get('compare_at_price') ?? null),
        sku: v.sku || null,
        barcode: v.barcode || null,
        taxable: p.taxStatus === 'taxable',
        inventoryPolicy: v.inventory.backorders === 'no' ? 'DENY' : 'CONTINUE',
        inventoryItem,
        ...(v.inventory.tracked
          ? {
              inventoryQuantities: [
                { locationId: ctx.locationId, name: 'available', quantity: v.inventory.quantity },
              ],
            }
          : {}),
        ...(file
          ? {
              file: file.id
                ? { id: file.id }
                : { originalSource: file.source, contentType: 'IMAGE' },
            }
          : {}),
        ...(metafields.length ? { metafields } : {}),
      };
    });

  const metafields: Record<string, string>[] = [
    markerMetafield(p.id),
    ...shopifyMetafields(p.metafields, warnings, ctx),
  ];
  const keys = carriedKeys.product;
  const carry = (key: string, value: string, type = textType(value)) => {
    if (value) metafields.push(carriedMetafield(key, value, type));
  };
  carry(keys.shortDescriptionHtml, p.shortDescriptionHtml, 'multi_line_text_field');
  carry(keys.purchaseNote, p.purchaseNote, 'multi_line_text_field');
  carry(keys.externalUrl, p.externalUrl, /^https?:\/\//.test(p.externalUrl) ? 'url' : undefined);
  carry(keys.buttonText, p.buttonText);
  if (grouped) carry(keys.grouped, 'true', 'boolean');
  if (!simple) carry(keys.sku, p.sku);
  if (p.dimensions) carry(keys.dimensions, JSON.stringify(p.dimensions), 'json');
  if (p.attributes.length) carry(keys.attributes, JSON.stringify(p.attributes), 'json');
  const plainOptions = options.every((o, i) => o.shared === null && o.visible && o.position === i);
  if (!plainOptions)
    carry(
      keys.options,
      JSON.stringify(
        options.map((o) => ({
          name: o.name,
          shared: o.shared,
          visible: o.visible,
          position: o.position,
        })),
      ),
      'json',
    );

  const collections: string[] = [];
  for (const categoryId of p.categoryIds) {
    const id = ctx.collectionIds(categoryId);
    if (id) collections.push(id);
    else
      warnings.push(
        `Category ${categoryId} is not at the destination; the product was not added to it.`,
      );
  }

  const status =
    p.status === 'archived'
      ? 'ARCHIVED'
      : p.status === 'active'
        ? p.visibility === 'hidden'
          ? 'UNLISTED'
          : 'ACTIVE'
        : 'DRAFT';
  const input: Record<string, unknown> = {
    title: p.name,
    descriptionHtml: p.descriptionHtml,
    status,
    vendor: p.vendor,
    productType: own.get('product_type') ?? '',
    tags: p.tags,
    seo: { title: p.seoTitle || null, description: p.seoDescription || null },
    productOptions: simple
      ? [{ name: 'Title', values: [{ name: 'Default Title' }] }]
      : options.map((o) => ({ name: o.name, values: o.values.map((name) => ({ name })) })),
    variants,
    files: files.map(fileInput),
    metafields,
    collections,
  };
  if (p.slug) input.handle = p.slug;
  const template = own.get('template_suffix');
  if (template) input.templateSuffix = template;
  if (own.get('gift_card') === 'true') input.giftCard = true;
  const giftTemplate = own.get('gift_card_template_suffix');
  if (giftTemplate) input.giftCardTemplateSuffix = giftTemplate;
  if (own.get('requires_selling_plan') === 'true') input.requiresSellingPlan = true;
  const category = own.get('category');
  if (category) {
    if (/^gid:\/\/shopify\/TaxonomyCategory\//.test(category)) input.category = category;
    else
      warnings.push(
        `'${category}' is not a category of Shopify's product taxonomy; it was not set.`,
      );
  }
  return { input, files, warnings };
}

/** Shopify's single-query maximum cost (limits.json shopify.rate_limit.single_query_max_cost). */
export const MAX_QUERY_COST = 1000;
/** Input arrays hold at most 250 items (shopify.dev/docs/api/usage/limits), bar productSet variants. */
export const MAX_INPUT_ARRAY = 250;
/** A product holds at most 250 media (PRODUCT_MEDIA_LIMIT_EXCEEDED), and one productSet as many files. */
export const MAX_PRODUCT_MEDIA = 250;
/** metafieldsSet takes at most 25 metafields a call (limits.json shopify.other). */
export const METAFIELDS_SET_MAX = 25;

type Input = Record<string, unknown>;

export interface ProductWritePlan {
  /** The productSet input: all files and as much of the rest as one call may carry. */
  input: Input;
  /** The files of `input`, in order: the product's media come back in this order. */
  files: PlannedFile[];
  /** Variants left to productVariantsBulkCreate, as productSet variant inputs. */
  laterVariants: Input[];
  /** Product metafields left to metafieldsSet. */
  laterMetafields: Input[];
  warnings: string[];
}

/** The file a variant input shows: its source URL, or the media id of a stored copy. */
export const fileKeyOf = (variant: Input): string | undefined => {
  const file = variant.file as { originalSource?: string; id?: string } | undefined;
  return file?.originalSource ?? file?.id;
};
const keyOfFile = (f: PlannedFile) => f.id ?? f.source;

/**
 * Splits a productSet input that Shopify would refuse whole: more than 250 files (kept: the first
 * 250, the rest reported), more than 250 metafields (the rest set afterwards with metafieldsSet),
 * or a cost over the 1,000-point single-query maximum (variants beyond what fits are created
 * afterwards with productVariantsBulkCreate, whose own cost stays under it too).
 */
export function planProductWrite(input: Input, planned: PlannedFile[]): ProductWritePlan {
  const warnings: string[] = [];
  let files = planned;
  let variants = (input.variants as Input[] | undefined) ?? [];
  const metafields = (input.metafields as Input[] | undefined) ?? [];
  if (files.length > MAX_PRODUCT_MEDIA) {
    const dropped = files.slice(MAX_PRODUCT_MEDIA);
    files = files.slice(0, MAX_PRODUCT_MEDIA);
    const kept = new Set(files.map(keyOfFile));
    const unlinked = variants.filter((v) => {
      const key = fileKeyOf(v);
      return key !== undefined && !kept.has(key);
    }).length;
    variants = variants.map((v) => {
      const key = fileKeyOf(v);
      if (key === undefined || kept.has(key)) return v;
      const { file: _file, ...rest } = v;
      return rest;
    });
    warnings.push(
      `The product has ${files.length + dropped.length} images; Shopify keeps at most ${MAX_PRODUCT_MEDIA} per product, so the last ${dropped.length} were not migrated${unlinked === 1 ? ' (1 variant lost its image)' : unlinked ? ` (${unlinked} variants lost their image)` : ''}.`,
    );
  }
  const fileInputs = files.map(fileInput);
  const firstMetafields = metafields.slice(0, MAX_INPUT_ARRAY);
  const laterMetafields = metafields.slice(MAX_INPUT_ARRAY);
  const base: Input = { ...input, files: fileInputs, metafields: firstMetafields };
  // As many variants as keep the call within the maximum cost; the rest follow in bulk.
  // productSet's dynamic cost, as productSetCost() counts it, one variant at a time.
  const fixed = 10 + firstMetafields.length * 0.4 + files.length * 1.9;
  let count = 0;
  let withFile = 0;
  let variantMetafields = 0;
  for (const v of variants) {
    const file = fileKeyOf(v) === undefined ? 0 : 1;
    const own = ((v.metafields as unknown[] | undefined) ?? []).length;
    const cost = Math.ceil(
      fixed + (count + 1) * 0.2 + (withFile + file) * 0.6 + (variantMetafields + own) * 0.4 - 1e-9,
    );
    if (count > 0 && cost > MAX_QUERY_COST) break;
    count += 1;
    withFile += file;
    variantMetafields += own;
  }
  const first = variants.slice(0, count);
  const laterVariants = variants.slice(count);
  const options =
    (input.productOptions as { name: string; values: { name: string }[] }[] | undefined) ?? [];
  const used = (option: string, value: string) =>
    first.some((v) =>
      ((v.optionValues as { optionName: string; name: string }[] | undefined) ?? []).some(
        (o) => o.optionName === option && o.name === value,
      ),
    );
  return {
    input: {
      ...base,
      variants: first,
      // Values of variants still to come are added by productVariantsBulkCreate.
      productOptions: laterVariants.length
        ? options.map((o) => ({ ...o, values: o.values.filter((v) => used(o.name, v.name)) }))
        : options,
    },
    files,
    laterVariants,
    laterMetafields,
    warnings,
  };
}

/** A productSet variant input as productVariantsBulkCreate takes it, its image given by media id. */
export function bulkVariantInput(variant: Input, mediaId: string | undefined): Input {
  const {
    sku,
    file: _file,
    inventoryQuantities,
    inventoryItem,
    ...rest
  } = variant as Input & {
    inventoryQuantities?: { locationId: string; quantity: number }[];
    inventoryItem?: Input;
  };
  return {
    ...rest,
    inventoryItem: { ...(inventoryItem ?? {}), ...(sku ? { sku } : {}) },
    ...(inventoryQuantities
      ? {
          inventoryQuantities: inventoryQuantities.map((q) => ({
            locationId: q.locationId,
            availableQuantity: q.quantity,
          })),
        }
      : {}),
    ...(mediaId ? { mediaId } : {}),
  };
}

/** Variants of a product's later variants in calls whose cost stays within the maximum. */
export function variantCalls(variants: readonly Input[]): Input[][] {
  const calls: Input[][] = [];
  let current: Input[] = [];
  for (const v of variants) {
    if (
      current.length > 0 &&
      (current.length >= MAX_INPUT_ARRAY ||
        variantsBulkCost({ variants: [...current, v] }) > MAX_QUERY_COST)
    ) {
      calls.push(current);
      current = [];
    }
    current.push(v);
  }
  if (current.length) calls.push(current);
  return calls;
}

/** The option combination of a variant input ('S / Red'), in the product's option order. */
export function variantCombo(variant: Input, optionNames: readonly string[]): string {
  const values = (variant.optionValues as { optionName: string; name: string }[] | undefined) ?? [];
  return optionNames.map((n) => values.find((v) => v.optionName === n)?.name ?? '').join(' / ');
}

/** Sort orders of a collection's products (CollectionSortOrder of the 2026-10 schema). */
const sortOrders = new Set([
  'ALPHA_ASC',
  'ALPHA_DESC',
  'BEST_SELLING',
  'CREATED',
  'CREATED_DESC',
  'MANUAL',
  'MOST_RELEVANT',
  'PRICE_ASC',
  'PRICE_DESC',
]);

export function collectionCreateInput(
  c: Category,
  ctx: MetafieldContext = {},
): Built<Record<string, unknown>> {
  const warnings: string[] = [];
  const own = ownFields(c.metafields);
  unknownOwn(own, ['sort_order', 'template_suffix'], warnings);
  const input: Record<string, unknown> = {
    title: c.name,
    descriptionHtml: c.description,
    metafields: [markerMetafield(c.id), ...shopifyMetafields(c.metafields, warnings, ctx)],
  };
  if (c.slug) input.handle = c.slug;
  if (c.imageUrl) input.image = imageInput(c);
  if (c.seoTitle || c.seoDescription)
    input.seo = { title: c.seoTitle || null, description: c.seoDescription || null };
  const sortOrder = own.get('sort_order');
  if (sortOrder && sortOrders.has(sortOrder)) input.sortOrder = sortOrder;
  const template = own.get('template_suffix');
  if (template) input.templateSuffix = template;
  return { input, warnings };
}

/** A collection's image as collectionCreate and collectionUpdate take it, with its alt text. */
export function imageInput(c: Category): Record<string, string> {
  return { src: c.imageUrl ?? '', altText: c.imageAlt };
}

/** The index of the address Shopify should keep as the default (shipping first). */
export function defaultAddressIndex(c: Customer): number {
  const shipping = c.addresses.findIndex((a) => a.isDefaultShipping);
  if (shipping !== -1) return shipping;
  return Math.max(
    0,
    c.addresses.findIndex((a) => a.isDefaultBilling),
  );
}

export const PASSWORD_NOTE =
  'Passwords cannot be migrated to Shopify: customers set a new password (for example through an account invitation).';

/**
 * Country calling codes, and whether national numbers start with a trunk prefix 0 that the
 * international form drops.
 */
const callingCodes: Record<string, { code: string; trunk: boolean }> = {
  US: { code: '1', trunk: false },
  CA: { code: '1', trunk: false },
  GB: { code: '44', trunk: true },
  IE: { code: '353', trunk: true },
  DE: { code: '49', trunk: true },
  AT: { code: '43', trunk: true },
  CH: { code: '41', trunk: true },
  FR: { code: '33', trunk: true },
  BE: { code: '32', trunk: true },
  NL: { code: '31', trunk: true },
  LU: { code: '352', trunk: false },
  IT: { code: '39', trunk: false },
  ES: { code: '34', trunk: false },
  PT: { code: '351', trunk: false },
  SE: { code: '46', trunk: true },
  NO: { code: '47', trunk: false },
  DK: { code: '45', trunk: false },
  FI: { code: '358', trunk: true },
  PL: { code: '48', trunk: false },
  CZ: { code: '420', trunk: false },
  AU: { code: '61', trunk: true },
  NZ: { code: '64', trunk: true },
  JP: { code: '81', trunk: true },
  IN: { code: '91', trunk: true },
  SG: { code: '65', trunk: false },
  MX: { code: '52', trunk: false },
  BR: { code: '55', trunk: true },
  ZA: { code: '27', trunk: true },
};

export type PhoneCheck =
  | { e164: string }
  /** It cannot be a phone number at all (letters, too few or too many digits). */
  | { invalid: string }
  /** A national number of a country whose dialling rules are not known here: Shopify decides. */
  | { unknown: true };

/**
 * A customer phone number in E.164, the only form Shopify stores ('+14155550123'). Numbers with a
 * country code ('+44 20 7946 0958', '0044 …') are taken as they are; national ones are read in the
 * country of the customer's address.
 */
export function e164Phone(raw: string, country: string | undefined): PhoneCheck {
  const compact = raw.trim().replace(/[\s()./-]/g, '');
  if (!/^\+?\d+$/.test(compact)) return { invalid: 'it is not a phone number' };
  let international: string;
  if (compact.startsWith('+')) international = compact;
  else if (compact.startsWith('00')) international = `+${compact.slice(2)}`;
  else {
    const region = country ? callingCodes[country] : undefined;
    if (!region)
      return compact.length < 7 ? { invalid: 'it has too few digits' } : { unknown: true };
    let national = compact;
    if (region.code === '1' && national.length === 11 && national.startsWith('1'))
      national = national.slice(1);
    else if (region.trunk && national.startsWith('0')) national = national.slice(1);
    if (region.code === '1' && national.length !== 10)
      return { invalid: 'a North American number has 10 digits' };
    if (national.length < 6) return { invalid: 'it has too few digits' };
    international = `+${region.code}${national}`;
  }
  if (!/^\+[1-9]\d{7,14}$/.test(international))
    return { invalid: 'it has too few or too many digits' };
  return { e164: international };
}

const emailStates = new Set([
  'INVALID',
  'NOT_SUBSCRIBED',
  'PENDING',
  'REDACTED',
  'SUBSCRIBED',
  'UNSUBSCRIBED',
]);
const smsStates = new Set(['NOT_SUBSCRIBED', 'PENDING', 'REDACTED', 'SUBSCRIBED', 'UNSUBSCRIBED']);
const optInLevels = new Set(['CONFIRMED_OPT_IN', 'SINGLE_OPT_IN', 'UNKNOWN']);
const customerOwnKeys = [
  'locale',
  'tax_exempt',
  'tax_exemptions',
  'email_marketing_state',
  'email_marketing_opt_in_level',
  'email_marketing_updated_at',
  'sms_marketing_state',
  'sms_marketing_opt_in_level',
  'sms_marketing_updated_at',
];

/** A marketing consent input from Shopify's own fields of the record, or the model's flag. */
function consentInput(
  own: Map<string, string>,
  channel: 'email' | 'sms',
  fallback: string | undefined,
): Record<string, string> | undefined {
  const state = own.get(`${channel}_marketing_state`);
  const valid = channel === 'email' ? emailStates : smsStates;
  const marketingState = state && valid.has(state) ? state : fallback;
  if (!marketingState) return undefined;
  const level = own.get(`${channel}_marketing_opt_in_level`);
  const updated = own.get(`${channel}_marketing_updated_at`);
  return {
    marketingState,
    ...(level && optInLevels.has(level) ? { marketingOptInLevel: level } : {}),
    ...(updated ? { consentUpdatedAt: updated } : {}),
  };
}

export function customerInput(
  c: Customer,
  options: { withPhone: boolean },
): Built<Record<string, unknown>> {
  const warnings: string[] = [];
  const own = ownFields(c.metafields);
  unknownOwn(own, customerOwnKeys, warnings);
  const billingOnly = c.addresses.some(
    (a, i) => a.isDefaultBilling && i !== defaultAddressIndex(c),
  );
  if (billingOnly)
    warnings.push(
      'Shopify keeps one default address; the default shipping address was kept as default.',
    );
  const input: Record<string, unknown> = {
    email: c.email,
    firstName: c.firstName || null,
    lastName: c.lastName || null,
    note: c.note || null,
    tags: c.tags,
    emailMarketingConsent: consentInput(
      own,
      'email',
      c.acceptsMarketing ? 'SUBSCRIBED' : 'NOT_SUBSCRIBED',
    ),
    // The deprecated `addresses` input creates the customer and its addresses in one mutation,
    // so a crash cannot leave a customer without addresses (customerAddressCreate would need one
    // call per address).
    addresses: c.addresses.map((a) => mailingAddress(a)),
    metafields: [markerMetafield(c.id), ...shopifyMetafields(c.metafields, warnings)],
  };
  const locale = own.get('locale');
  if (locale) input.locale = locale;
  if (own.get('tax_exempt') === 'true') input.taxExempt = true;
  const exemptions = parseJson(own.get('tax_exemptions'));
  if (Array.isArray(exemptions) && exemptions.length) input.taxExemptions = exemptions;
  if (options.withPhone && c.phone.trim()) {
    const address = c.addresses[defaultAddressIndex(c)] ?? c.addresses[0];
    const country = address && isCountryCode(address.countryCode) ? address.countryCode : undefined;
    const phone = e164Phone(c.phone, country);
    if ('invalid' in phone)
      warnings.push(
        `The phone number '${c.phone}' was not migrated: Shopify keeps phone numbers in international (E.164) form and ${phone.invalid}.`,
      );
    else {
      input.phone = 'e164' in phone ? phone.e164 : c.phone.trim();
      const sms = consentInput(own, 'sms', undefined);
      if (sms) input.smsMarketingConsent = sms;
    }
  }
  return { input, warnings };
}

/** Financial status written by orderCreate (the reverse of to-canonical's mapping). */
export function financialStatusOf(o: Order): string {
  if (o.status === 'refunded') return 'REFUNDED';
  if (o.status === 'failed' && (o.paymentStatus === 'pending' || o.paymentStatus === 'authorized'))
    return 'VOIDED';
  const map: Record<Order['paymentStatus'], string> = {
    pending: 'PENDING',
    authorized: 'AUTHORIZED',
    paid: 'PAID',
    partially_paid: 'PARTIALLY_PAID',
    partially_refunded: 'PARTIALLY_REFUNDED',
    refunded: 'REFUNDED',
    voided: 'VOIDED',
  };
  return map[o.paymentStatus];
}

export function fulfillmentStatusOf(o: Order): string | undefined {
  if (o.status === 'completed' || o.fulfillmentStatus === 'fulfilled') return 'FULFILLED';
  if (o.fulfillmentStatus === 'partial') return 'PARTIAL';
  return undefined;
}

/** The destination product and variant an order line points at. */
export interface LineLink {
  productId?: string;
  variantId?: string;
  /** The options the variant stands for, which Shopify shows on the line from the variant. */
  variantOptions?: { name: string; value: string }[];
}

export interface OrderContext extends MetafieldContext {
  customerId: string | undefined;
  line: (index: number) => LineLink;
  /**
   * Whether the order keeps the source's number as its name (default true). False: no name is
   * sent, so the shop numbers the order itself, and the source's number is kept in the metafield
   * replatform.source_number.
   */
  keepNumber?: boolean;
}

export { SOURCE_NUMBER_KEY };

function moneyBag(amount: number, currency: string) {
  return { shopMoney: { amount: fromMinor(amount, currency), currencyCode: currency } };
}

function taxLines(tax: number, base: number, currency: string) {
  if (tax === 0) return [];
  const rate = base > 0 ? Math.round((tax / base) * 10_000) / 10_000 : 0;
  return [{ title: 'Tax', rate: String(rate), priceSet: moneyBag(tax, currency) }];
}

const orderOwnKeys = [
  'tags',
  'phone',
  'po_number',
  'note_attributes',
  'cancel_reason',
  'test',
  'buyer_accepts_marketing',
];

/** Payment states in which the order's money was taken. */
const paidStates = new Set<Order['paymentStatus']>(['paid', 'partially_refunded', 'refunded']);

/** The gateway an order's payment and refunds are recorded against. */
function gatewayOf(o: Order): string {
  return o.paymentMethod || 'manual';
}

/** How Shopify names a gateway in the admin ('cash_on_delivery' -> 'Cash On Delivery'). */
function gatewayTitle(gateway: string): string {
  return gateway
    .split('_')
    .map((w) => (w ? (w[0]?.toUpperCase() ?? '') + w.slice(1) : w))
    .join(' ');
}

/** The payment details an order keeps in the metafield replatform.payment. */
export interface KeptPayment {
  paymentMethod?: string;
  paymentMethodTitle?: string;
  transactionId?: string;
  paidAt?: string | null;
  createdVia?: string;
}

/**
 * The payment details Shopify would not show as the source has them: without a payment
 * transaction an order names no gateway, code or payment date; a payment method's title is the
 * gateway's name at Shopify; and an order the source says nothing about the origin of is
 * attributed to the app that created it.
 */
function paymentKept(
  o: Order,
  transaction: Record<string, unknown> | undefined,
): KeptPayment | null {
  const kept: KeptPayment = {};
  const gateway = transaction ? String(transaction.gateway) : '';
  if (o.paymentMethod !== gateway) kept.paymentMethod = o.paymentMethod;
  if (o.paymentMethodTitle !== (gateway ? gatewayTitle(gateway) : ''))
    kept.paymentMethodTitle = o.paymentMethodTitle;
  if (o.transactionId && !transaction) kept.transactionId = o.transactionId;
  const paidAt = transaction?.kind === 'SALE' ? String(transaction.processedAt) : null;
  if ((o.paidAt ?? null) !== paidAt) kept.paidAt = o.paidAt;
  if (!o.createdVia) kept.createdVia = '';
  return Object.keys(kept).length ? kept : null;
}

/**
 * orderCreate input. Imported orders never notify the customer or touch stock: those options are
 * set by the writer (sendReceipt false, sendFulfillmentReceipt false, inventoryBehaviour BYPASS).
 * The payment is recorded as a transaction (gateway, authorisation code, date) when the source
 * names one or refunds need one to be given back from; refunds follow with refundCreate.
 */
export function orderCreateInput(o: Order, ctx: OrderContext): Built<Record<string, unknown>> {
  const warnings: string[] = [];
  const currency = o.currency;
  const own = ownFields(o.metafields);
  unknownOwn(own, orderOwnKeys, warnings);
  const credits = o.fees.filter((f) => f.amount.amount < 0);
  const charges = o.fees.filter((f) => f.amount.amount >= 0);
  const lineDiscounts = o.lines.reduce(
    (n, l) => n + (l.unitPrice.amount * l.quantity - l.total.amount),
    0,
  );
  // The order's discounts are usually already spread over its lines (WooCommerce, Magento): only
  // line discounts beyond them are added, so a coupon is not counted twice.
  const orderDiscounts = o.discounts.reduce((n, d) => n + d.amount.amount, 0);
  const discountAmount =
    Math.max(orderDiscounts, lineDiscounts) - credits.reduce((n, f) => n + f.amount.amount, 0);
  const codes = [...o.discounts.map((d) => d.code), ...credits.map((f) => f.name)].filter(Boolean);
  if (o.discounts.length + credits.length > 1)
    warnings.push(
      `Shopify orders take one discount code; ${codes.join(', ')} were written as one discount.`,
    );
  if (lineDiscounts > orderDiscounts)
    warnings.push(
      'Line discounts were added to the order discount (orderCreate has no per-line discounts).',
    );
  const lineItems: Record<string, unknown>[] = o.lines.map((l, i) => {
    const link = ctx.line(i);
    // The variant's own options are shown from the variant: written again as properties they
    // would show twice.
    const options = link.variantId ? (link.variantOptions ?? []) : [];
    const properties = l.meta.filter(
      (m) => !options.some((opt) => opt.name === m.key && opt.value === m.value),
    );
    return {
      title: l.name,
      quantity: l.quantity,
      sku: l.sku || null,
      priceSet: moneyBag(l.unitPrice.amount, currency),
      taxLines: taxLines(l.tax.amount, l.total.amount, currency),
      ...(properties.length
        ? { properties: properties.map((m) => ({ name: m.key, value: m.value })) }
        : {}),
      ...(link.variantId
        ? { variantId: link.variantId }
        : link.productId
          ? { productId: link.productId }
          : {}),
    };
  });
  for (const fee of charges)
    lineItems.push({
      title: fee.name || 'Fee',
      quantity: 1,
      priceSet: moneyBag(fee.amount.amount, currency),
      taxLines: taxLines(fee.tax.amount, fee.amount.amount, currency),
      taxable: fee.taxStatus === 'taxable',
      requiresShipping: false,
      properties: [{ name: FEE_PROPERTY, value: 'true' }],
    });
  const metafields = [markerMetafield(o.id), ...shopifyMetafields(o.metafields, warnings, ctx)];
  if (o.notes.length)
    metafields.push(carriedMetafield(carriedKeys.order.notes, JSON.stringify(o.notes), 'json'));
  const test = own.get('test') === 'true';
  const transactions: Record<string, unknown>[] = [];
  const kind = paidStates.has(o.paymentStatus)
    ? 'SALE'
    : o.paymentStatus === 'authorized'
      ? 'AUTHORIZATION'
      : undefined;
  if (kind && (o.paymentMethod || o.refunds.length))
    transactions.push({
      kind,
      status: 'SUCCESS',
      gateway: gatewayOf(o),
      amountSet: moneyBag(o.grandTotal.amount, currency),
      processedAt: (kind === 'SALE' ? o.paidAt : null) ?? o.createdAt,
      ...(o.transactionId ? { authorizationCode: o.transactionId } : {}),
      ...(test ? { test: true } : {}),
    });
  const payment = paymentKept(o, transactions[0]);
  if (payment)
    metafields.push(carriedMetafield(carriedKeys.order.payment, JSON.stringify(payment), 'json'));
  const keepNumber = ctx.keepNumber ?? true;
  if (!keepNumber)
    metafields.push(
      carriedMetafield(SOURCE_NUMBER_KEY, String(o.number), 'single_line_text_field'),
    );
  const input: Record<string, unknown> = {
    ...(keepNumber ? { name: `#${o.number}` } : {}),
    currency,
    processedAt: o.createdAt,
    email: o.email || null,
    note: o.note || null,
    // Refunds are made afterwards against the payment; they set the status as they go.
    financialStatus: o.refunds.length && kind === 'SALE' ? 'PAID' : financialStatusOf(o),
    lineItems,
    shippingLines: o.shippingLines.map((s) => ({
      title: s.title || 'Shipping',
      code: s.code || null,
      priceSet: moneyBag(s.price.amount, currency),
      taxLines: taxLines(s.tax.amount, s.price.amount, currency),
    })),
    metafields,
    ...(transactions.length ? { transactions } : {}),
    ...(o.pricesIncludeTax ? { taxesIncluded: true } : {}),
    ...(o.completedAt ? { closedAt: o.completedAt } : {}),
    ...(o.createdVia ? { sourceName: o.createdVia } : {}),
    ...(test ? { test: true } : {}),
    ...(own.get('buyer_accepts_marketing') === 'true' ? { buyerAcceptsMarketing: true } : {}),
  };
  const tags = parseJson(own.get('tags'));
  if (Array.isArray(tags) && tags.length) input.tags = tags.map(String);
  const phone = own.get('phone');
  if (phone) input.phone = phone;
  const po = own.get('po_number');
  if (po) input.poNumber = po;
  const attributes = parseJson(own.get('note_attributes'));
  if (Array.isArray(attributes) && attributes.length)
    input.customAttributes = (attributes as { key: string; value: string }[]).map((a) => ({
      key: String(a.key),
      value: String(a.value),
    }));
  const fulfillment = fulfillmentStatusOf(o);
  if (fulfillment) input.fulfillmentStatus = fulfillment;
  if (fulfillment === 'FULFILLED' && o.fulfillmentStatus !== 'fulfilled')
    warnings.push(
      `The order is completed but ${o.fulfillmentStatus === 'partial' ? 'only partly fulfilled' : 'not fulfilled'} at the source; Shopify shows a completed order as fulfilled (fulfillmentStatus).`,
    );
  const refunded = o.refunds.reduce((n, r) => n + r.amount.amount, 0);
  if (o.refundTotal.amount > refunded)
    warnings.push(
      `The source says ${fromMinor(o.refundTotal.amount - refunded, currency)} ${currency} more was refunded than its refunds give back; Shopify works out the refunded total from the refunds (refundTotal).`,
    );
  if (ctx.customerId) input.customer = { toAssociate: { id: ctx.customerId } };
  else if (o.customerId)
    warnings.push(
      'The customer is not at the destination; the order was imported as a guest order.',
    );
  if (o.billingAddress) input.billingAddress = mailingAddress(o.billingAddress);
  if (o.shippingAddress) input.shippingAddress = mailingAddress(o.shippingAddress);
  if (discountAmount > 0)
    input.discountCode = {
      itemFixedDiscountCode: {
        code: codes.join(' + ') || 'DISCOUNT',
        amountSet: moneyBag(discountAmount, currency),
      },
    };
  return { input, warnings };
}

/** Reasons orderCancel takes (OrderCancelReason of the 2026-10 schema). */
const cancelReasons = new Set(['CUSTOMER', 'DECLINED', 'FRAUD', 'INVENTORY', 'OTHER', 'STAFF']);

/** Why the order was cancelled, as orderCancel takes it (OTHER when the source does not say). */
export function cancelReasonOf(o: Order): string {
  const reason = ownValue(o.metafields, 'cancel_reason');
  return reason && cancelReasons.has(reason) ? reason : 'OTHER';
}

/**
 * refundCreate input for one refund of the order: the lines given back (by their destination
 * ids), the amount given back from the order's payment, the reason and the date. Lines are never
 * restocked: the refund is history, not a return of goods now.
 */
export function refundInput(
  o: Order,
  refund: Refund,
  target: {
    orderId: string;
    lineIds: readonly string[];
    payment?: { id: string; gateway: string };
  },
): Built<Record<string, unknown>> {
  const warnings: string[] = [];
  const lines: Record<string, unknown>[] = [];
  for (const l of refund.lines) {
    const index = o.lines.findIndex((x) => x.id === l.lineId);
    const lineItemId = index === -1 ? undefined : target.lineIds[index];
    if (!lineItemId || l.quantity < 1) {
      if (l.quantity >= 1)
        warnings.push(
          `A refunded line of refund ${refund.id} is not on the order; it was left out.`,
        );
      continue;
    }
    lines.push({ lineItemId, quantity: l.quantity, restockType: 'NO_RESTOCK' });
  }
  const money = refund.amount.amount > 0 && target.payment;
  if (!money && lines.length === 0)
    return {
      failure: `Refund ${refund.id} gives money back, but the order has no payment at the destination to give it back from.`,
    };
  if (!target.payment && refund.amount.amount > 0)
    warnings.push(
      `Refund ${refund.id} records the lines given back but not its amount: the order has no payment to refund from.`,
    );
  return {
    input: {
      orderId: target.orderId,
      note: refund.reason || null,
      processedAt: refund.createdAt,
      notify: false,
      ...(lines.length ? { refundLineItems: lines } : {}),
      ...(money && target.payment
        ? {
            transactions: [
              {
                orderId: target.orderId,
                parentId: target.payment.id,
                gateway: target.payment.gateway,
                kind: 'REFUND',
                amount: fromMinor(refund.amount.amount, o.currency),
              },
            ],
          }
        : {}),
    },
    warnings,
  };
}

// ------------------------------------------------------------------ coupons

/** Longest discount title Shopify takes. */
export const MAX_DISCOUNT_TITLE = 255;

export interface CouponContext extends MetafieldContext {
  /** The shop's currency: amounts off and minimum spends must be in it. */
  currency: string;
  /** When the coupon is written, for a coupon without a start date (Shopify needs one). */
  now: number;
  productId: (sourceId: string) => string | undefined;
  collectionId: (sourceId: string) => string | undefined;
}

export interface CouponWrite {
  /** Which mutation creates it: an amount off discount, or a free shipping discount. */
  kind: 'basic' | 'freeShipping';
  input: Record<string, unknown>;
  /** Custom fields written with metafieldsSet after the discount (discount inputs take none). */
  metafields: Record<string, string>[];
}

const listed = (ids: readonly string[]) => ids.map((id) => `'${id}'`).join(', ');

/**
 * A coupon as a DiscountCodeBasicInput or DiscountCodeFreeShippingInput. It fails rather than
 * arrive broader than at the source when a product or category it is limited to was not
 * migrated, and when an amount is in another currency than the shop's. What Shopify cannot hold
 * (native-fields.ts, destination fields) is a warning.
 */
export function couponInput(c: Coupon, ctx: CouponContext): Built<CouponWrite> {
  const warnings: string[] = [];
  for (const [what, money] of [
    ['amount off', c.amountOff],
    ['minimum spend', c.minimumSpend],
  ] as const)
    if (money && money.currency !== ctx.currency)
      return {
        failure: `The coupon's ${what} is in ${money.currency}, the destination store's currency is ${ctx.currency}: it was not converted.`,
      };
  const missingProducts = c.productIds.filter((id) => !ctx.productId(id));
  if (missingProducts.length)
    return {
      failure: `The coupon is limited to products that were not migrated (${listed(missingProducts)}): select Products too, or it would apply to everything.`,
    };
  const missingCategories = c.categoryIds.filter((id) => !ctx.collectionId(id));
  if (missingCategories.length)
    return {
      failure: `The coupon is limited to categories that were not migrated (${listed(missingCategories)}): select Categories too, or it would apply to everything.`,
    };
  const freeShippingOnly =
    c.freeShipping && c.discountType === 'fixed_cart' && (c.amountOff?.amount ?? 0) === 0;
  if (!freeShippingOnly) {
    const off = c.discountType === 'percent' ? (c.percentOff ?? 0) : (c.amountOff?.amount ?? 0);
    if (off <= 0)
      return { failure: 'The coupon takes nothing off; Shopify keeps no discount of zero.' };
  }
  if (c.freeShipping && !freeShippingOnly)
    warnings.push(
      'The coupon also makes shipping free: Shopify discount codes are unique and one discount is either an amount off or free shipping, so it was written as the amount off only.',
    );
  if (c.productIds.length && c.categoryIds.length)
    return {
      failure:
        'The coupon is limited to products and to categories at once; a Shopify discount applies to products or to collections: recreate it at the destination.',
    };
  for (const [field, why] of Object.entries(couponLimitsShopifyLacks)) {
    const value = c[field as keyof typeof couponLimitsShopifyLacks];
    if (Array.isArray(value) ? value.length : value !== null && value !== false) warnings.push(why);
  }
  if ((c.usageLimitPerCustomer ?? 1) > 1)
    warnings.push(
      `Shopify limits a code to one use per customer or none: the limit of ${c.usageLimitPerCustomer} uses per customer was not kept.`,
    );
  if (c.usageCount > 0)
    warnings.push(
      `Shopify counts the uses of a code itself: the ${c.usageCount} uses at the source start again from 0.`,
    );
  let title = c.description.trim() || c.code;
  if (title.length > MAX_DISCOUNT_TITLE) {
    warnings.push(
      `The description was shortened to Shopify's ${MAX_DISCOUNT_TITLE} characters for the discount's title.`,
    );
    title = title.slice(0, MAX_DISCOUNT_TITLE);
  }
  const combinesWith = c.individualUse
    ? { orderDiscounts: false, productDiscounts: false, shippingDiscounts: false }
    : // Shipping discounts do not combine with one another.
      { orderDiscounts: true, productDiscounts: true, shippingDiscounts: !freeShippingOnly };
  const own = ownFields(c.metafields);
  unknownOwn(own, ['tags'], warnings);
  const tags = parseJson(own.get('tags'));
  const common: Record<string, unknown> = {
    title,
    code: c.code,
    startsAt: c.startsAt ?? c.createdAt ?? new Date(ctx.now).toISOString(),
    endsAt: c.expiresAt,
    usageLimit: c.usageLimit,
    appliesOncePerCustomer: c.usageLimitPerCustomer === 1,
    context: { all: 'ALL' },
    combinesWith,
    minimumRequirement: c.minimumSpend
      ? {
          subtotal: {
            greaterThanOrEqualToSubtotal: fromMinor(c.minimumSpend.amount, c.minimumSpend.currency),
          },
        }
      : null,
    ...(Array.isArray(tags) ? { tags: tags.map(String) } : {}),
  };
  const metafields = shopifyMetafields(c.metafields, warnings, ctx);
  if (freeShippingOnly)
    return { input: { kind: 'freeShipping', input: common, metafields }, warnings };
  const items = c.productIds.length
    ? { products: { productsToAdd: c.productIds.map((id) => ctx.productId(id)) } }
    : c.categoryIds.length
      ? { collections: { add: c.categoryIds.map((id) => ctx.collectionId(id)) } }
      : { all: true };
  const value =
    c.discountType === 'percent'
      ? // Shopify takes a share between 0 and 1.
        { percentage: Math.round((c.percentOff ?? 0) * 1e4) / 1e6 }
      : {
          discountAmount: {
            amount: fromMinor(c.amountOff?.amount ?? 0, c.amountOff?.currency ?? ctx.currency),
            appliesOnEachItem: c.discountType === 'fixed_product',
          },
        };
  return {
    input: { kind: 'basic', input: { ...common, customerGets: { value, items } }, metafields },
    warnings,
  };
}

/** Limits of the model's coupons that Shopify discounts have no place for, with the reason. */
export const couponLimitsShopifyLacks = {
  maximumSpend: 'Shopify discounts have no maximum order subtotal: the maximum spend was not kept.',
  itemLimit:
    'Shopify discounts cannot limit how many items a discount applies to: the item limit was not kept.',
  excludeSaleItems:
    'Shopify discounts cannot leave out items on sale: the code now also applies to them.',
  excludedProductIds:
    'Shopify discounts cannot leave out products: the code now also applies to the excluded products.',
  excludedCategoryIds:
    'Shopify discounts cannot leave out collections: the code now also applies to the excluded categories.',
  allowedEmails:
    'Shopify limits a code to customer accounts or segments, not to e-mail addresses, and customers are migrated after coupons: the code is open to every customer; limit it to a segment in the Shopify admin.',
} as const;

// ------------------------------------------------------------------ reviews

/**
 * A review as an entry of its product's replatform.reviews list (reviews.ts), without the entry's
 * key, which the list gives it: every field is kept as the model has it, the date in UTC and the
 * source id as the migration's marker.
 */
export function reviewEntry(r: Review): WantedEntry {
  const entry = {
    source_id: r.id,
    reviewer_name: r.reviewerName,
    reviewer_email: r.reviewerEmail,
    rating: r.rating,
    title: r.title,
    body_html: r.body,
    status: r.status,
    verified: r.verified,
    created_at: new Date(Date.parse(r.createdAt)).toISOString(),
  };
  return { sourceId: r.id, entry, natural: naturalKey(entry) };
}
