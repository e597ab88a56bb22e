import { fromMinor } from '@replatform/canonical/money';
import type { Product, Variant } from '@replatform/canonical/product';
import { z } from 'zod';
import type { AssetRecord, IdMap, WriteOutcome } from '../kit/contract.ts';
import { inventoryDefaults } from '@replatform/canonical/defaults';
import { isTransient } from '../kit/errors.ts';
import { isMagentoStatus, MagentoApiError } from './client.ts';
import {
  attributeSchema,
  booleanAnswer,
  configurableOptionSchema,
  idAnswer,
  mediaEntrySchema,
  productSchema,
  searchResults,
  type MagentoProduct,
  type MediaEntry,
} from './magento-schemas.ts';
import { customValue, magentoFromIso } from './mapping.ts';
import { isMagento, magentoFields, metafieldValue } from './metafields.ts';
import { listIn } from './native.ts';
import { criteria, type MagentoSession } from './session.ts';
import { childName, childUrlKey } from './to-canonical.ts';
import {
  attributeValues,
  ensureOptions,
  metafieldValues,
  optionAttribute,
  productTaxClassId,
  type CustomValue,
} from './write-attributes.ts';
import {
  createOnce,
  ImageCache,
  imageMarker,
  isStoreWide,
  leftUnchanged,
  reasonOf,
  slugify,
} from './write-support.ts';

/**
 * Products, saved in the 'all' store scope (/rest/all/V1/...) so values land on the global level
 * instead of becoming store-view overrides.
 *
 * Markers (how a resumed run finds what an interrupted one wrote, and tells it from what the
 * merchant already had): the SKU finds the product (unique in Magento); the product attribute
 * `replatform_source_id` (a text attribute this service adds to the Default attribute set) says
 * whose it is: the source id for a product, '<source id>:<variant id>' for a configurable's
 * child. A product with the SKU but without the marker is the merchant's: it is linked and left
 * unchanged, never overwritten. Images are found again by their file name, derived from a hash of
 * the source URL.
 *
 * Kinds: a simple product is Magento's simple, virtual or downloadable product (by its variant's
 * flags), a variable one a configurable product with one simple child per variant, a grouped one
 * a grouped product whose associated products are its members; an external product is written
 * as a simple one (Magento has no external products; the destination's declarations say so).
 *
 * Links to other products (up-sells, cross-sells, a grouped product's members, related products)
 * are written to the products already at the destination; a link to one written later in the same
 * connection is added when that one is written, and the engine writes the product again once all
 * are there.
 */

/** Product attribute holding the source id of the products this service created. */
export const markerAttribute = 'replatform_source_id';

const markerOf = (product: MagentoProduct): string | undefined =>
  customValue(product.custom_attributes, markerAttribute) || undefined;

const variantMarker = (productId: string, variantId: string) => `${productId}:${variantId}`;

/** Magento's product link types (GET /V1/products/links/types). */
type LinkType = 'upsell' | 'crosssell' | 'associated' | 'related';

/** What one connection remembers of the products it wrote and the links still to add. */
interface WriteState {
  images: ImageCache;
  /** Source product id -> its SKU and type at the destination. */
  written: Map<string, { sku: string; type: string }>;
  /** Source id of a product not written yet -> products (by SKU) that link to it. */
  waiting: Map<string, Set<string>>;
  /** SKU of a product with links still to add -> its wanted links by type (source ids). */
  wanted: Map<string, Record<LinkType, string[]>>;
}

const states = new WeakMap<MagentoSession, WriteState>();

function stateOf(session: MagentoSession): WriteState {
  let state = states.get(session);
  if (!state) {
    state = { images: new ImageCache(), written: new Map(), waiting: new Map(), wanted: new Map() };
    states.set(session, state);
  }
  return state;
}

// ------------------------------------------------------------------ lookups

export async function findProduct(
  session: MagentoSession,
  sku: string,
): Promise<MagentoProduct | undefined> {
  try {
    // GET /V1/products/{sku} (admin-schema-2.4.9.yaml GetV1ProductsSku)
    return await session.client.get(`/V1/products/${encodeURIComponent(sku)}`, productSchema);
  } catch (error) {
    if (isMagentoStatus(error, 404)) return undefined;
    throw error;
  }
}

/** Existing products by SKU (lower case), looked up in a few list requests. */
export async function findProducts(
  session: MagentoSession,
  skus: string[],
): Promise<Map<string, MagentoProduct>> {
  const found = new Map<string, MagentoProduct>();
  // A SKU with a comma cannot be part of an 'in' filter.
  const listed = skus.filter((sku) => !sku.includes(','));
  for (let i = 0; i < listed.length; i += 50) {
    const chunk = listed.slice(i, i + 50);
    const result = await session.client.get(
      '/V1/products',
      searchResults(productSchema),
      criteria({
        filters: [[['sku', chunk.join(','), 'in']]],
        pageSize: chunk.length,
        currentPage: 1,
      }),
    );
    for (const p of result.items) found.set(p.sku.toLowerCase(), p);
  }
  for (const sku of skus.filter((s) => s.includes(','))) {
    const product = await findProduct(session, sku);
    if (product) found.set(sku.toLowerCase(), product);
  }
  return found;
}

/**
 * The marker attribute, created on first use: a global text attribute in the Default attribute
 * set, neither shown nor searchable on the storefront.
 */
const markerReady = new WeakMap<MagentoSession, Promise<void>>();

function ensureMarkerAttribute(session: MagentoSession): Promise<void> {
  let ready = markerReady.get(session);
  if (!ready) {
    ready = (async () => {
      if (!(await session.attribute(markerAttribute))) {
        // POST /V1/products/attributes (admin-schema-2.4.9.yaml PostV1ProductsAttributes)
        await createOnce(
          () =>
            session.client.request('POST', '/V1/products/attributes', attributeSchema, {
              body: {
                attribute: {
                  attribute_code: markerAttribute,
                  frontend_input: 'text',
                  entity_type_id: '4',
                  is_required: false,
                  frontend_labels: [{ store_id: 0, label: 'Migration source id' }],
                  default_frontend_label: 'Migration source id',
                  note: 'Set by Replatform on the products it created; do not edit.',
                  scope: 'global',
                  is_user_defined: true,
                  is_visible: true,
                  is_visible_on_front: 'false',
                  used_in_product_listing: 'false',
                  is_searchable: 'false',
                  is_comparable: 'false',
                  is_filterable: false,
                  is_unique: 'false',
                  options: [],
                },
              },
              scope: 'all',
            }),
          async () => (await session.attribute(markerAttribute, true)) ?? undefined,
        );
        await session.attribute(markerAttribute, true);
      }
      await session.ensureInSet(markerAttribute);
    })().catch((error: unknown) => {
      markerReady.delete(session);
      throw error;
    });
    markerReady.set(session, ready);
  }
  return ready;
}

type Ownership =
  | { kind: 'absent' }
  | { kind: 'ours'; product: MagentoProduct }
  | { kind: 'theirs'; product: MagentoProduct; owner: string | undefined };

/** Whose product a SKU names at the destination. */
function ownership(product: MagentoProduct | undefined, marker: string): Ownership {
  if (!product) return { kind: 'absent' };
  const owner = markerOf(product);
  return owner === marker ? { kind: 'ours', product } : { kind: 'theirs', product, owner };
}

function productSku(record: Product): string {
  const sku =
    record.sku ||
    (record.type !== 'variable' && record.type !== 'grouped' ? record.variants[0]?.sku : '') ||
    record.slug ||
    `product-${record.id}`;
  return sku.trim();
}

// ------------------------------------------------------------------ stock, prices, weight

/** Magento's stock configuration defaults (cataloginventory/item_options of an installation). */
const stockDefaults = { manage_stock: true, backorders: 0 };

/**
 * The full stock item (the spec marks all its fields required, and Magento fills them anyway):
 * settings that are Magento's defaults follow the store configuration, others are the product's,
 * and the variant's magento.stock_item.* metafields restore what a Magento source had.
 */
function stockItem(
  inventory: Variant['inventory'],
  metafields: Variant['metafields'],
  soldIndividually: boolean,
): Record<string, unknown> {
  const tracked = inventory.tracked;
  const qty = tracked ? inventory.quantity : 0;
  const backorders = { no: 0, yes: 1, notify: 2 }[inventory.backorders];
  const item: Record<string, unknown> = {
    qty,
    is_in_stock: inventory.stockStatus !== 'outofstock',
    is_qty_decimal: false,
    show_default_notification_message: false,
    use_config_min_qty: true,
    min_qty: 0,
    use_config_min_sale_qty: 1,
    min_sale_qty: 1,
    use_config_max_sale_qty: !soldIndividually,
    max_sale_qty: soldIndividually ? 1 : 10000,
    use_config_backorders: backorders === stockDefaults.backorders,
    backorders,
    use_config_notify_stock_qty: inventory.lowStockThreshold === null,
    notify_stock_qty: inventory.lowStockThreshold ?? 1,
    use_config_qty_increments: true,
    qty_increments: 1,
    use_config_enable_qty_inc: true,
    enable_qty_increments: false,
    use_config_manage_stock: tracked === stockDefaults.manage_stock,
    manage_stock: tracked,
    low_stock_date: '',
    is_decimal_divided: false,
    stock_status_changed_auto: 0,
  };
  for (const field of metafields) {
    if (isMagento(field) && field.key.startsWith('stock_item.'))
      item[field.key.slice('stock_item.'.length)] = metafieldValue(field);
  }
  return item;
}

const amount = (m: { amount: number; currency: string }) => Number(fromMinor(m.amount, m.currency));

/** Price and sale attributes of a variant (an empty special price removes an old one). */
function priceFields(variant: Variant): { price: number; custom: CustomValue[] } {
  const custom: CustomValue[] = [
    {
      attribute_code: 'special_price',
      value: variant.salePrice
        ? fromMinor(variant.salePrice.amount, variant.salePrice.currency)
        : '',
    },
    {
      attribute_code: 'special_from_date',
      value: variant.saleStartsAt ? magentoFromIso(variant.saleStartsAt) : '',
    },
    {
      attribute_code: 'special_to_date',
      value: variant.saleEndsAt ? magentoFromIso(variant.saleEndsAt) : '',
    },
  ];
  return { price: amount(variant.price), custom };
}

async function weightIn(
  session: MagentoSession,
  weight: Product['weight'],
): Promise<number | undefined> {
  if (!weight) return undefined;
  const unit = await session.weightUnit();
  const grams = { g: 1, kg: 1000, lb: 453.59237, oz: 28.349523125 }[weight.unit] * weight.value;
  return Math.round((unit === 'kg' ? grams / 1000 : grams / 453.59237) * 10000) / 10000;
}

// ------------------------------------------------------------------ links

/** How a link names its target: the source id, or 'sku:<sku>' for related products. */
const skuKey = (sku: string) => `sku:${sku.toLowerCase()}`;

/** The destination SKU and type of the products a batch links to, by link key. */
async function linkTargets(
  session: MagentoSession,
  records: readonly Product[],
  idMap: IdMap,
): Promise<Map<string, { sku: string; type: string }>> {
  const state = stateOf(session);
  const out = new Map(state.written);
  const wanted = new Map<string, string>();
  const skus: string[] = [];
  for (const record of records)
    for (const key of Object.values(linksOf(record)).flat()) {
      if (out.has(key)) continue;
      if (key.startsWith('sku:')) skus.push(key.slice(4));
      const destination = idMap.get('products', key);
      if (destination) wanted.set(destination, key);
    }
  for (const p of await listIn(session, '/V1/products', 'entity_id', [...wanted.keys()])) {
    const source = wanted.get(String(p.id));
    if (source) out.set(source, { sku: String(p.sku), type: String(p.type_id) });
  }
  for (const [sku, p] of await findProducts(session, skus))
    out.set(skuKey(sku), { sku: p.sku, type: p.type_id });
  return out;
}

/** What a product links to, by Magento link type: source ids, related products by SKU. */
function linksOf(record: Product): Record<LinkType, string[]> {
  const related = magentoFields(record.metafields).get('related');
  const skus = related ? metafieldValue(related) : [];
  return {
    upsell: record.upsellIds,
    crosssell: record.crossSellIds,
    associated: record.type === 'grouped' ? record.groupedProductIds : [],
    related: Array.isArray(skus) ? skus.map((sku) => skuKey(String(sku))) : [],
  };
}

function productLinks(
  sku: string,
  wanted: Record<LinkType, string[]>,
  targets: ReadonlyMap<string, { sku: string; type: string }>,
): { links: Record<string, unknown>[]; missing: string[] } {
  const links: Record<string, unknown>[] = [];
  const missing: string[] = [];
  for (const [type, ids] of Object.entries(wanted) as [LinkType, string[]][]) {
    ids.forEach((id, position) => {
      const target = targets.get(id);
      if (!target) {
        missing.push(id);
        return;
      }
      links.push({
        sku,
        link_type: type,
        linked_product_sku: target.sku,
        linked_product_type: target.type,
        position: position + 1,
        ...(type === 'associated' ? { extension_attributes: { qty: 0 } } : {}),
      });
    });
  }
  return { links, missing };
}

/**
 * Adds the links that products written earlier in this connection wanted to the product just
 * written (POST /V1/products/{sku}/links replaces the links of the types it is sent).
 */
async function completeWaiting(session: MagentoSession, sourceId: string): Promise<void> {
  const state = stateOf(session);
  const waiting = state.waiting.get(sourceId);
  if (!waiting) return;
  state.waiting.delete(sourceId);
  for (const sku of waiting) {
    const wanted = state.wanted.get(sku);
    if (!wanted) continue;
    const { links: items, missing } = productLinks(sku, wanted, state.written);
    if (!missing.length) state.wanted.delete(sku);
    if (!items.length) continue;
    // POST /V1/products/{sku}/links (admin-schema-2.4.9.yaml PostV1ProductsSkuLinks)
    await session.client.request(
      'POST',
      `/V1/products/${encodeURIComponent(sku)}/links`,
      booleanAnswer,
      { body: { items }, scope: 'all', retry: 'always' },
    );
  }
}

// ------------------------------------------------------------------ writing

export async function writeProducts(
  session: MagentoSession,
  records: Product[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const outcomes: WriteOutcome[] = [];
  for (const record of records) {
    // Attribute options this record's write creates: recorded on its outcome, failed or not.
    const terms: AssetRecord[] = [];
    const withTerms = (outcome: WriteOutcome): WriteOutcome =>
      terms.length ? { ...outcome, assets: [...(outcome.assets ?? []), ...terms] } : outcome;
    try {
      const targets = await linkTargets(session, [record], idMap);
      outcomes.push(withTerms(await writeProduct(session, record, idMap, targets, terms)));
    } catch (error) {
      if (isStoreWide(error)) throw error;
      outcomes.push(withTerms({ sourceId: record.id, outcome: 'failed', reason: reasonOf(error) }));
    }
  }
  return outcomes;
}

interface ProductPlan {
  sku: string;
  name: string;
  typeId: string;
  visibility: number;
  status: number;
  price: number | undefined;
  weight: number | undefined;
  attributeSetId: number;
  custom: CustomValue[];
  categoryLinks: { category_id: string; position: number }[];
  stock: Record<string, unknown>;
  links?: Record<string, unknown>[];
  downloads?: Record<string, unknown>[];
}

const visibilities = { hidden: 1, catalog: 2, search: 3, visible: 4 } as const;

async function writeProduct(
  session: MagentoSession,
  record: Product,
  idMap: IdMap,
  targets: ReadonlyMap<string, { sku: string; type: string }>,
  terms: AssetRecord[],
): Promise<WriteOutcome> {
  const warnings: string[] = [];
  const sku = productSku(record);
  if (sku.length > 64) {
    return {
      sourceId: record.id,
      outcome: 'failed',
      reason: `SKU '${sku}' is longer than Magento's 64 characters`,
    };
  }
  const before = ownership(await findProduct(session, sku), record.id);
  if (before.kind === 'theirs') {
    if (before.owner === undefined) {
      return {
        sourceId: record.id,
        outcome: 'skipped',
        destinationId: String(before.product.id),
        reason: leftUnchanged,
        linked: true,
      };
    }
    return {
      sourceId: record.id,
      outcome: 'failed',
      reason: `SKU ${sku} belongs to another migrated product (source id ${before.owner})`,
    };
  }
  const existing = before.kind === 'ours' ? before.product : undefined;
  if (record.sku !== sku) {
    warnings.push(
      record.sku
        ? `SKU saved as '${sku}' (sku)`
        : `the product had no SKU of its own; Magento needs one, so it was saved as '${sku}' (sku)`,
    );
  }

  // Configurable: the children are planned (and checked against the store) before anything is
  // written, so that a product whose variant SKUs belong to the merchant is not half-written.
  const configurable = record.type === 'variable';
  const childPlans: { variant: Variant; sku: string; values: { name: string; value: string }[] }[] =
    [];
  let childrenBefore = new Map<string, MagentoProduct>();
  if (configurable) {
    const skus = new Set<string>();
    for (const variant of record.variants) {
      const values: { name: string; value: string }[] = [];
      for (const option of record.options) {
        const value = variant.optionValues.find((v) => v.name === option.name)?.value;
        if (!value) {
          return {
            sourceId: record.id,
            outcome: 'failed',
            reason: `variant ${variant.sku || variant.id} has no value for option '${option.name}' (Magento needs one for every option)`,
          };
        }
        values.push({ name: option.name, value });
      }
      const suffix = values.map((v) => slugify(v.value)).join('-');
      const childSku = (variant.sku || `${sku}-${suffix}`).trim();
      if (skus.has(childSku.toLowerCase())) {
        return {
          sourceId: record.id,
          outcome: 'failed',
          reason: `two variants share the SKU ${childSku}`,
        };
      }
      skus.add(childSku.toLowerCase());
      childPlans.push({ variant, sku: childSku, values });
    }
    childrenBefore = await findProducts(
      session,
      childPlans.map((c) => c.sku),
    );
    for (const plan of childPlans) {
      const child = ownership(
        childrenBefore.get(plan.sku.toLowerCase()),
        variantMarker(record.id, plan.variant.id),
      );
      if (child.kind === 'theirs') {
        return {
          sourceId: record.id,
          outcome: 'failed',
          reason:
            child.owner === undefined
              ? `variant SKU ${plan.sku} is already used by a product at the destination that this migration did not create; the product was left out`
              : `variant SKU ${plan.sku} belongs to another migrated product (source id ${child.owner})`,
        };
      }
    }
  }

  const variant = record.variants[0];
  const typeId = configurable
    ? 'configurable'
    : record.type === 'grouped'
      ? 'grouped'
      : variant?.downloadable
        ? 'downloadable'
        : variant?.virtual
          ? 'virtual'
          : 'simple';
  if (existing && (existing.type_id === 'configurable') !== configurable) {
    return {
      sourceId: record.id,
      outcome: 'failed',
      reason: `SKU ${sku} is a ${existing.type_id} product at the destination`,
    };
  }
  if (!configurable && record.type !== 'grouped' && !variant)
    return { sourceId: record.id, outcome: 'failed', reason: 'product without a variant' };

  await ensureMarkerAttribute(session);
  const categoryLinks: { category_id: string; position: number }[] = [];
  for (const id of record.categoryIds) {
    const mapped = idMap.get('categories', id);
    if (mapped) categoryLinks.push({ category_id: mapped, position: record.menuOrder });
    else
      warnings.push(
        `category ${id} was not migrated; the product is not linked to it (categoryIds)`,
      );
  }
  const own = magentoFields(record.metafields);
  let attributeSetId = (await session.attributeSet()).id;
  const setName = own.get('attribute_set');
  if (setName) {
    const found = [...(await session.attributeSets())].find(([, name]) => name === setName.value);
    if (found) attributeSetId = found[0];
    else
      warnings.push(
        `attribute set '${setName.value}' does not exist at the destination; the product is in Default (metafields)`,
      );
  }
  const custom: CustomValue[] = [
    { attribute_code: markerAttribute, value: record.id },
    { attribute_code: 'description', value: record.descriptionHtml },
    { attribute_code: 'short_description', value: record.shortDescriptionHtml },
    { attribute_code: 'meta_title', value: record.seoTitle },
    { attribute_code: 'meta_description', value: record.seoDescription },
  ];
  // Without the source's URL key (the owner's choice), Magento makes one from the name.
  if (record.slug && session.choices.keepSlugs)
    custom.push({ attribute_code: 'url_key', value: slugify(record.slug) });
  if (record.vendor) {
    const manufacturer = await session.attribute('manufacturer');
    if (manufacturer) {
      await session.ensureInSet('manufacturer');
      const map = await ensureOptions(session, 'manufacturer', [record.vendor], terms);
      custom.push({ attribute_code: 'manufacturer', value: map.get(record.vendor) ?? '' });
    } else {
      warnings.push('vendor not migrated: the store has no manufacturer attribute (vendor)');
    }
  }
  if (record.type !== 'grouped') {
    const taxClass = record.taxStatus === 'none' ? 'None' : record.taxClass;
    if (record.taxStatus === 'shipping')
      warnings.push(
        'Magento taxes a product or not: this product, of which only the shipping is taxed at the source, is written as taxable (tax status)',
      );
    custom.push({
      attribute_code: 'tax_class_id',
      value: String(await productTaxClassId(session, taxClass)),
    });
  }
  custom.push(...(await attributeValues(session, record.attributes, warnings, terms)));
  custom.push(...(await metafieldValues(session, record.metafields, warnings, terms)));
  const wanted = linksOf(record);
  const { links, missing } = productLinks(sku, wanted, targets);
  const status = record.status === 'active' ? 1 : 2;
  // Set when part of the product may be written by a later run (an image download failed).
  const images = { incomplete: false };
  if (record.variants.some((v) => v.downloadable && !v.virtual))
    warnings.push(
      'a downloadable product that is also shipped is written as not shipped: Magento’s downloadable products are virtual (variants.virtual)',
    );
  if (record.variants.some(backorderLost))
    warnings.push(
      "stock status 'on backorder' not kept: Magento shows a product on backorder only while it tracks stock, has none left and accepts backorders (variants.inventory.stockStatus)",
    );
  const base = {
    sku,
    name: record.name,
    visibility: visibilities[record.visibility],
    status,
    attributeSetId,
    categoryLinks,
    links,
  };

  let saved: MagentoProduct;
  if (!configurable) {
    const sale = variant ? priceFields(variant) : { price: undefined, custom: [] };
    const variantFields = variant
      ? await metafieldValues(session, variant.metafields, warnings, terms)
      : [];
    saved = await saveProductKeyed(
      session,
      {
        ...base,
        typeId,
        price: sale.price,
        weight: await weightIn(session, record.weight ?? variant?.weight ?? null),
        custom: [...custom, ...sale.custom, ...variantFields],
        stock: variant
          ? stockItem(variant.inventory, variant.metafields, record.soldIndividually)
          : stockItem({ ...inventoryDefaults(), tracked: true }, [], record.soldIndividually),
        ...(variant?.downloadable ? { downloads: downloadLinks(variant) } : {}),
      },
      warnings,
      images,
    );
    await syncImages(session, sku, record.images, warnings, !existing, images);
  } else {
    // One global select attribute per option, one simple child per variant.
    const optionAttributes: {
      name: string;
      code: string;
      attributeId: string;
      values: Map<string, string>;
    }[] = [];
    for (const option of record.options) {
      const attribute = await optionAttribute(session, option.name, option.shared?.slug);
      const values = await ensureOptions(session, attribute.attribute_code, option.values, terms);
      optionAttributes.push({
        name: option.name,
        code: attribute.attribute_code,
        attributeId: String(attribute.attribute_id),
        values,
      });
    }
    saved = await saveProductKeyed(
      session,
      {
        ...base,
        typeId: 'configurable',
        price: undefined,
        weight: await weightIn(session, record.weight),
        custom,
        // A configurable product has no quantity of its own; it is in stock while a variant is.
        stock: stockItem(
          {
            ...inventoryDefaults(),
            tracked: true,
            stockStatus: record.variants.some((v) => v.inventory.stockStatus !== 'outofstock')
              ? 'instock'
              : 'outofstock',
          },
          [],
          record.soldIndividually,
        ),
      },
      warnings,
    );
    const productTax = record.taxStatus === 'none' ? 'None' : record.taxClass;
    const children: { id: number; sku: string }[] = [];
    for (const plan of childPlans) {
      const v = plan.variant;
      const labels = plan.values.map((x) => x.value);
      const ownChild = magentoFields(v.metafields);
      const sale = priceFields(v);
      const child = await saveProductKeyed(
        session,
        {
          sku: plan.sku,
          name: ownChild.get('name')?.value ?? childName(record.name, labels),
          typeId: v.downloadable ? 'downloadable' : v.virtual ? 'virtual' : 'simple',
          ...(v.downloadable ? { downloads: downloadLinks(v) } : {}),
          visibility: 1,
          status: v.status === 'active' ? 1 : 2,
          price: sale.price,
          weight: await weightIn(session, v.weight),
          attributeSetId,
          categoryLinks,
          stock: stockItem(v.inventory, v.metafields, false),
          custom: [
            { attribute_code: markerAttribute, value: variantMarker(record.id, v.id) },
            {
              attribute_code: 'url_key',
              value: session.choices.keepSlugs
                ? (ownChild.get('url_key')?.value ??
                  childUrlKey(slugify(record.slug || record.name), labels))
                : childUrlKey(slugify(record.name), labels),
            },
            {
              attribute_code: 'tax_class_id',
              value: String(await productTaxClassId(session, v.taxClass ?? productTax)),
            },
            ...(v.descriptionHtml
              ? [{ attribute_code: 'description', value: v.descriptionHtml }]
              : []),
            ...sale.custom,
            ...optionAttributes.map((o, i) => ({
              attribute_code: o.code,
              value: o.values.get(plan.values[i]?.value ?? '') ?? '',
            })),
            ...(await metafieldValues(session, v.metafields, warnings, terms)),
          ],
        },
        warnings,
        images,
      );
      children.push({ id: child.id, sku: plan.sku });
      if (v.imageUrl) {
        await syncImages(
          session,
          plan.sku,
          [{ url: v.imageUrl, alt: '', position: 0 }],
          warnings,
          !childrenBefore.has(plan.sku.toLowerCase()),
          images,
        );
      }
    }
    await linkConfigurable(session, sku, optionAttributes, record, children);
    await syncImages(session, sku, record.images, warnings, !existing, images);
  }

  const state = stateOf(session);
  state.written.set(record.id, { sku, type: typeId });
  state.written.set(skuKey(sku), { sku, type: typeId });
  if (missing.length) {
    state.wanted.set(sku, wanted);
    for (const id of missing) {
      const set = state.waiting.get(id) ?? new Set<string>();
      set.add(sku);
      state.waiting.set(id, set);
    }
  } else state.wanted.delete(sku);
  try {
    await completeWaiting(session, record.id);
    await completeWaiting(session, skuKey(sku));
  } catch (error) {
    if (isStoreWide(error)) throw error;
    warnings.push(
      `products written earlier could not be linked to this one: ${reasonOf(error)} (upsellIds, crossSellIds)`,
    );
  }
  return {
    sourceId: record.id,
    outcome: existing ? 'updated' : 'created',
    destinationId: String(saved.id),
    ...(warnings.length ? { warnings } : {}),
    ...(images.incomplete ? { incomplete: true } : {}),
  };
}

/** A variant said to be on backorder whose stock Magento would not show as on backorder. */
const backorderLost = (v: Variant): boolean =>
  v.inventory.stockStatus === 'onbackorder' &&
  !(v.inventory.tracked && v.inventory.quantity <= 0 && v.inventory.backorders !== 'no');

/**
 * A downloadable variant's files as links to their addresses. The spec requires a sample type
 * on every link; without a sample URL or file the link has no sample.
 */
function downloadLinks(variant: Variant): Record<string, unknown>[] {
  return variant.downloads.map((d, i) => ({
    title: d.name,
    sort_order: i + 1,
    is_shareable: 2,
    price: 0,
    number_of_downloads: variant.downloadLimit ?? 0,
    link_type: 'url',
    link_url: d.url,
    sample_type: 'url',
  }));
}

/** Configurable options and child links the parent lacks (admin-schema-2.4.9.yaml configurable-products). */
async function linkConfigurable(
  session: MagentoSession,
  sku: string,
  optionAttributes: {
    name: string;
    code: string;
    attributeId: string;
    values: Map<string, string>;
  }[],
  record: Product,
  children: { id: number; sku: string }[],
): Promise<void> {
  const base = `/V1/configurable-products/${encodeURIComponent(sku)}`;
  const currentOptions = () =>
    session.client.get(`${base}/options/all`, z.array(configurableOptionSchema));
  let options = await currentOptions();
  for (const [position, o] of optionAttributes.entries()) {
    if (options.some((x) => x.attribute_id === o.attributeId)) continue;
    const option = record.options[position];
    await createOnce(
      () =>
        session.client.request('POST', `${base}/options`, idAnswer, {
          body: {
            option: {
              attribute_id: o.attributeId,
              label: o.name,
              position,
              is_use_default: true,
              values: (option?.values ?? []).map((v) => ({ value_index: Number(o.values.get(v)) })),
            },
          },
          scope: 'all',
        }),
      async () => {
        options = await currentOptions();
        return options.some((x) => x.attribute_id === o.attributeId) ? 0 : undefined;
      },
    );
  }
  const currentChildren = async () =>
    new Set(
      (await session.client.get(`${base}/children`, z.array(productSchema))).map((c) => c.id),
    );
  let linked = await currentChildren();
  for (const child of children) {
    if (linked.has(child.id)) continue;
    await createOnce(
      () =>
        session.client.request('POST', `${base}/child`, booleanAnswer, {
          body: { childSku: child.sku },
          scope: 'all',
        }),
      async () => {
        linked = await currentChildren();
        return linked.has(child.id) ? true : undefined;
      },
    );
  }
}

const urlKeyTaken = (error: unknown) =>
  error instanceof MagentoApiError &&
  error.magentoMessage === 'URL key for specified store already exists.';

const domainRefused = (error: unknown) =>
  error instanceof MagentoApiError && error.magentoMessage.includes('downloadable_domains');

/**
 * Saves the product; when its URL key belongs to another product, saves it under
 * '<url key>-<sku>' instead and says so (the redirect map then carries the old path). Files
 * whose domain the store does not accept downloads from are left out, and said so.
 */
async function saveProductKeyed(
  session: MagentoSession,
  plan: ProductPlan,
  warnings: string[],
  result: { incomplete: boolean } = { incomplete: false },
): Promise<MagentoProduct> {
  try {
    return await saveProduct(session, plan);
  } catch (error) {
    if (domainRefused(error) && plan.downloads?.length) {
      const hosts = [
        ...new Set(plan.downloads.map((d) => new URL(String(d.link_url)).hostname)),
      ].join(', ');
      warnings.push(
        `downloadable files not added: the store accepts download links only from the domains in its env.php (add ${hosts} with bin/magento downloadable:domains:add, then run the migration again) (variants.downloads)`,
      );
      // Written again on the next run, once the domain may be allowed.
      result.incomplete = true;
      return saveProductKeyed(session, { ...plan, downloads: [] }, warnings, result);
    }
    const sent = plan.custom.find((c) => c.attribute_code === 'url_key')?.value;
    // None sent: Magento made it from the name, as slugify does.
    const urlKey = sent ?? slugify(plan.name);
    if (!urlKeyTaken(error) || !urlKey) throw error;
    const unique = `${urlKey}-${slugify(plan.sku)}`;
    warnings.push(
      `URL key '${urlKey}' is used by another product at the destination; saved as '${unique}'`,
    );
    return saveProduct(session, {
      ...plan,
      custom:
        sent === undefined
          ? [...plan.custom, { attribute_code: 'url_key', value: unique }]
          : plan.custom.map((c) => (c.attribute_code === 'url_key' ? { ...c, value: unique } : c)),
    });
  }
}

async function saveProduct(session: MagentoSession, plan: ProductPlan): Promise<MagentoProduct> {
  // POST /V1/products (admin-schema-2.4.9.yaml PostV1Products) saves by SKU: it creates the
  // product or updates the one with that SKU, so repeating it is safe.
  return session.client.request('POST', '/V1/products', productSchema, {
    body: {
      product: {
        sku: plan.sku,
        name: plan.name,
        attribute_set_id: plan.attributeSetId,
        ...(plan.price === undefined ? {} : { price: plan.price }),
        status: plan.status,
        visibility: plan.visibility,
        type_id: plan.typeId,
        ...(plan.weight === undefined ? {} : { weight: plan.weight }),
        extension_attributes: {
          website_ids: [1],
          category_links: plan.categoryLinks,
          stock_item: plan.stock,
          ...(plan.downloads ? { downloadable_product_links: plan.downloads } : {}),
        },
        ...(plan.links ? { product_links: plan.links } : {}),
        custom_attributes: plan.custom,
      },
    },
    scope: 'all',
    retry: 'always',
  });
}

/**
 * Uploads the images a product lacks, as base64 gallery entries named by their marker. Magento
 * keeps a copy per product (its REST API cannot point two products at one file), so an image
 * several products show is uploaded to each, but fetched from the source once per connection.
 */
async function syncImages(
  session: MagentoSession,
  sku: string,
  images: { url: string; alt: string; position: number }[],
  warnings: string[],
  isNew: boolean,
  result: { incomplete: boolean },
): Promise<void> {
  if (!images.length) return;
  const path = `/V1/products/${encodeURIComponent(sku)}/media`;
  const list = () => session.client.get(path, z.array(mediaEntrySchema), []);
  const has = (entries: MediaEntry[], marker: string) =>
    entries.some((e) => (e.file.split('/').pop() ?? '').startsWith(marker));
  // A product created just now has no gallery yet.
  let existing = isNew ? [] : await list();
  for (const image of images) {
    const marker = imageMarker(image.url);
    if (has(existing, marker)) continue;
    let content: { data: Uint8Array; type: string };
    try {
      content = await stateOf(session).images.get(session.context.http, image.url);
    } catch (error) {
      // A download that kept failing may work on the next run; a file that is not an image won't.
      if (isTransient(error)) result.incomplete = true;
      warnings.push(`image ${image.url} not migrated: ${reasonOf(error)} (images)`);
      continue;
    }
    // POST /V1/products/{sku}/media (admin-schema-2.4.9.yaml PostV1ProductsSkuMedia)
    await createOnce(
      () =>
        session.client.request('POST', path, idAnswer, {
          body: {
            entry: {
              media_type: 'image',
              label: image.alt,
              position: image.position + 1,
              disabled: false,
              types: image.position === 0 ? ['image', 'small_image', 'thumbnail'] : [],
              content: {
                base64_encoded_data: Buffer.from(content.data).toString('base64'),
                type: content.type,
                name: marker,
              },
            },
          },
          scope: 'all',
        }),
      async () => {
        existing = await list();
        return has(existing, marker) ? 0 : undefined;
      },
    );
  }
}
