import type { Category } from '@replatform/canonical/category';
import { fromMinor } from '@replatform/canonical/money';
import type { Product, Variant } from '@replatform/canonical/product';
import { z } from 'zod';
import type { IdMap, WriteOutcome } from '../kit/contract.ts';
import { ConnectorError, isTransient } from '../kit/errors.ts';
import { isMagentoStatus, MagentoApiError } from './client.ts';
import {
  anyJson,
  attributeSchema,
  booleanAnswer,
  categorySchema,
  configurableOptionSchema,
  idAnswer,
  mediaEntrySchema,
  productSchema,
  searchResults,
  type MagentoAttribute,
  type MagentoCategory,
  type MagentoProduct,
  type MediaEntry,
} from './magento-schemas.ts';
import { customValue } from './mapping.ts';
import { attributeCodeFor, criteria, type MagentoSession } from './session.ts';
import { createOnce, downloadImage, imageMarker, isStoreWide, reasonOf } from './write-support.ts';

/**
 * Catalogue writers. Everything is saved in the 'all' store scope (/rest/all/V1/...), so values
 * land on the global level instead of becoming store-view overrides.
 *
 * Markers (how a resumed run finds what an interrupted one wrote, and tells it from what the
 * merchant already had):
 * - products: the SKU finds the product (unique in Magento); the product attribute
 *   `replatform_source_id` (a text attribute this service adds to the Default attribute set) says
 *   whose it is: the source id for a product, '<source id>:<variant id>' for a configurable's
 *   child. A product with the SKU but without the marker is the merchant's: it is linked and left
 *   unchanged, never overwritten.
 * - categories: Magento's REST API cannot add category attributes, so categories carry no marker;
 *   a category is created once and never changed afterwards. One with the same URL key under the
 *   same parent is linked and left unchanged, as is one the id map already names.
 * - images: the file name, derived from a hash of the source URL.
 */

/** Product attribute holding the source id of the products this service created. */
export const markerAttribute = 'replatform_source_id';

export const leftUnchanged = 'already at destination, left unchanged';

const markerOf = (product: MagentoProduct): string | undefined =>
  customValue(product.custom_attributes, markerAttribute) || undefined;

const variantMarker = (productId: string, variantId: string) => `${productId}:${variantId}`;

function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

// ------------------------------------------------------------------ categories

async function findCategory(
  session: MagentoSession,
  parentId: number,
  urlKey: string,
): Promise<MagentoCategory | undefined> {
  const result = await session.client.get(
    '/V1/categories/list',
    searchResults(categorySchema),
    criteria({
      filters: [[['parent_id', parentId]], [['url_key', urlKey]]],
      pageSize: 1,
      currentPage: 1,
    }),
  );
  return result.items[0];
}

export async function writeCategories(
  session: MagentoSession,
  records: Category[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const roots = await session.roots();
  const written = new Map<string, string>();
  const outcomes = new Map<string, WriteOutcome>();
  for (const record of parentsFirst(records)) {
    try {
      outcomes.set(
        record.id,
        await writeCategory(session, record, idMap, written, roots.storeRoot),
      );
    } catch (error) {
      if (isStoreWide(error)) throw error;
      outcomes.set(record.id, { sourceId: record.id, outcome: 'failed', reason: reasonOf(error) });
    }
  }
  return records.map(
    (r) => outcomes.get(r.id) ?? { sourceId: r.id, outcome: 'failed', reason: 'not processed' },
  );
}

/** The batch in an order where a parent in the same batch is written before its children. */
function parentsFirst(records: Category[]): Category[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  const ordered: Category[] = [];
  const placed = new Set<string>();
  const place = (record: Category, path: Set<string>) => {
    if (placed.has(record.id) || path.has(record.id)) return;
    const parent = record.parentId ? byId.get(record.parentId) : undefined;
    if (parent) place(parent, new Set([...path, record.id]));
    placed.add(record.id);
    ordered.push(record);
  };
  for (const record of records) place(record, new Set());
  return ordered;
}

async function writeCategory(
  session: MagentoSession,
  record: Category,
  idMap: IdMap,
  written: Map<string, string>,
  storeRoot: number,
): Promise<WriteOutcome> {
  let parentId = storeRoot;
  if (record.parentId !== null) {
    const mapped = written.get(record.parentId) ?? idMap.get('categories', record.parentId);
    if (!mapped) {
      return {
        sourceId: record.id,
        outcome: 'failed',
        reason: `its parent category ${record.parentId} was not migrated`,
      };
    }
    parentId = Number(mapped);
  }
  const mapped = idMap.get('categories', record.id);
  if (mapped) {
    written.set(record.id, mapped);
    return {
      sourceId: record.id,
      outcome: 'skipped',
      destinationId: mapped,
      reason: 'already migrated (categories are written once: they carry no migration marker)',
    };
  }
  const urlKey = slugify(record.slug || record.name);
  const warnings = record.imageUrl
    ? [
        'category image not migrated (Magento category images need a file upload the REST API does not offer) (imageUrl)',
      ]
    : [];
  const payload = {
    category: {
      parent_id: parentId,
      name: record.name,
      is_active: true,
      include_in_menu: true,
      position: record.position + 1,
      custom_attributes: [
        { attribute_code: 'url_key', value: urlKey },
        { attribute_code: 'description', value: record.description },
      ],
    },
  };
  const existing = await findCategory(session, parentId, urlKey);
  if (existing) {
    // The merchant's own category, or one an interrupted run created from this same record:
    // either way it is linked, not rewritten.
    written.set(record.id, String(existing.id));
    return {
      sourceId: record.id,
      outcome: 'skipped',
      destinationId: String(existing.id),
      reason: leftUnchanged,
    };
  }
  // POST /V1/categories (admin-schema-2.4.9.yaml PostV1Categories)
  const created = await createOnce(
    () =>
      session.client.request('POST', '/V1/categories', categorySchema, {
        body: payload,
        scope: 'all',
      }),
    () => findCategory(session, parentId, urlKey),
  );
  written.set(record.id, String(created.id));
  return {
    sourceId: record.id,
    outcome: 'created',
    destinationId: String(created.id),
    ...(warnings.length ? { warnings } : {}),
  };
}

// ------------------------------------------------------------------ products

/** Full stock item: the spec marks all its fields required, and Magento fills them anyway. */
function stockItem(inventory: Variant['inventory']): Record<string, unknown> {
  const tracked = inventory.tracked;
  const qty = tracked ? inventory.quantity : 0;
  return {
    qty,
    is_in_stock: tracked ? qty > 0 : true,
    is_qty_decimal: false,
    show_default_notification_message: false,
    use_config_min_qty: true,
    min_qty: 0,
    use_config_min_sale_qty: 1,
    min_sale_qty: 1,
    use_config_max_sale_qty: true,
    max_sale_qty: 10000,
    use_config_backorders: true,
    backorders: 0,
    use_config_notify_stock_qty: true,
    notify_stock_qty: 1,
    use_config_qty_increments: true,
    qty_increments: 0,
    use_config_enable_qty_inc: true,
    enable_qty_increments: false,
    use_config_manage_stock: false,
    manage_stock: tracked,
    low_stock_date: '',
    is_decimal_divided: false,
    stock_status_changed_auto: 0,
  };
}

async function findProduct(
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

/** Select-type attribute whose options include every label, created/extended as needed. */
async function ensureOptions(
  session: MagentoSession,
  code: string,
  labels: string[],
): Promise<Map<string, string>> {
  let attribute = await session.attribute(code);
  if (!attribute)
    throw new ConnectorError('system', 'attribute_missing', `attribute ${code} does not exist`);
  const valueOf = (a: MagentoAttribute, label: string) =>
    a.options?.find(
      (o) => o.value !== '' && o.label.trim().toLowerCase() === label.trim().toLowerCase(),
    )?.value;
  const missing = labels.filter((label) => !valueOf(attribute as MagentoAttribute, label));
  for (const label of missing) {
    // POST /V1/products/attributes/{attributeCode}/options (admin-schema-2.4.9.yaml)
    await createOnce(
      () =>
        session.client.request(
          'POST',
          `/V1/products/attributes/${encodeURIComponent(code)}/options`,
          anyJson,
          {
            body: {
              option: {
                label,
                value: '',
                sort_order: 0,
                is_default: false,
                store_labels: [{ store_id: 0, label }],
              },
            },
            scope: 'all',
          },
        ),
      async () => {
        const fresh = await session.attribute(code, true);
        return fresh && valueOf(fresh, label) ? true : undefined;
      },
    );
  }
  if (missing.length) attribute = (await session.attribute(code, true)) ?? attribute;
  const map = new Map<string, string>();
  for (const label of labels) {
    const value = valueOf(attribute, label);
    if (!value)
      throw new ConnectorError(
        'system',
        'option_missing',
        `option '${label}' of ${code} could not be created`,
      );
    map.set(label, value);
  }
  return map;
}

/**
 * The attribute for a canonical option (configurable: a global select) or attribute
 * (text), created when the store lacks it and put into the product attribute set.
 */
async function ensureAttribute(
  session: MagentoSession,
  name: string,
  kind: 'configurable' | 'text',
): Promise<MagentoAttribute> {
  const code = attributeCodeFor(name);
  let attribute = await session.attribute(code);
  if (!attribute) {
    // POST /V1/products/attributes (admin-schema-2.4.9.yaml PostV1ProductsAttributes)
    await createOnce(
      () =>
        session.client.request('POST', '/V1/products/attributes', attributeSchema, {
          body: {
            attribute: {
              attribute_code: code,
              frontend_input: kind === 'configurable' ? 'select' : 'text',
              entity_type_id: '4',
              is_required: false,
              frontend_labels: [{ store_id: 0, label: name }],
              default_frontend_label: name,
              scope: 'global',
              is_user_defined: true,
              is_visible: true,
              is_filterable: kind === 'configurable',
              options: [],
            },
          },
          scope: 'all',
        }),
      async () => (await session.attribute(code, true)) ?? undefined,
    );
    attribute = await session.attribute(code, true);
    if (!attribute)
      throw new ConnectorError(
        'system',
        'attribute_missing',
        `attribute ${code} could not be created`,
      );
  }
  if (
    kind === 'configurable' &&
    (attribute.frontend_input !== 'select' || (attribute.scope && attribute.scope !== 'global'))
  ) {
    throw new ConnectorError(
      'system',
      'attribute_unusable',
      `Magento attribute '${code}' exists but is not a global dropdown, so it cannot carry the option '${name}'`,
    );
  }
  await session.ensureInSet(code);
  return attribute;
}

/** Custom attribute values for canonical `attributes` (text, select, multiselect, yes/no). */
async function attributeValues(
  session: MagentoSession,
  attributes: Record<string, string>,
  warnings: string[],
): Promise<{ attribute_code: string; value: string }[]> {
  const values: { attribute_code: string; value: string }[] = [];
  for (const [name, text] of Object.entries(attributes)) {
    const attribute = await ensureAttribute(session, name, 'text').catch((error: unknown) => {
      if (isStoreWide(error)) throw error;
      warnings.push(`attribute '${name}' not migrated: ${reasonOf(error)}`);
      return undefined;
    });
    if (!attribute) continue;
    const code = attribute.attribute_code;
    const input = attribute.frontend_input ?? 'text';
    if (input === 'select' || input === 'multiselect') {
      const labels =
        input === 'multiselect'
          ? text
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : [text];
      const map = await ensureOptions(session, code, labels);
      values.push({ attribute_code: code, value: labels.map((l) => map.get(l)).join(',') });
    } else if (input === 'boolean') {
      values.push({ attribute_code: code, value: /^(yes|1|true)$/i.test(text) ? '1' : '0' });
    } else {
      values.push({ attribute_code: code, value: text });
    }
  }
  return values;
}

function pricing(variant: Variant): { price: number; special: string | undefined } {
  const currency = variant.price.currency;
  if (variant.compareAtPrice && variant.compareAtPrice.amount > variant.price.amount) {
    return {
      price: Number(fromMinor(variant.compareAtPrice.amount, currency)),
      special: fromMinor(variant.price.amount, currency),
    };
  }
  return { price: Number(fromMinor(variant.price.amount, currency)), special: undefined };
}

async function weightOf(session: MagentoSession, variant: Variant): Promise<number | undefined> {
  if (!variant.weight) return undefined;
  const unit = await session.weightUnit();
  const grams =
    { g: 1, kg: 1000, lb: 453.59237, oz: 28.349523125 }[variant.weight.unit] * variant.weight.value;
  return Math.round((unit === 'kg' ? grams / 1000 : grams / 453.59237) * 10000) / 10000;
}

interface ProductPlan {
  sku: string;
  name: string;
  typeId: 'simple' | 'configurable';
  visibility: number;
  variant: Variant | undefined;
  custom: { attribute_code: string; value: string }[];
  categoryLinks: { category_id: string; position: number }[];
  status: number;
}

const urlKeyTaken = (error: unknown) =>
  error instanceof MagentoApiError &&
  error.magentoMessage === 'URL key for specified store already exists.';

/**
 * Saves the product; when its URL key belongs to another product, saves it under
 * '<url key>-<sku>' instead and says so (the redirect map then carries the old path).
 */
async function saveProductKeyed(
  session: MagentoSession,
  plan: ProductPlan,
  warnings: string[],
): Promise<MagentoProduct> {
  try {
    return await saveProduct(session, plan);
  } catch (error) {
    const urlKey = plan.custom.find((c) => c.attribute_code === 'url_key')?.value;
    if (!urlKeyTaken(error) || !urlKey) throw error;
    const unique = `${urlKey}-${slugify(plan.sku)}`;
    warnings.push(
      `URL key '${urlKey}' is used by another product at the destination; saved as '${unique}'`,
    );
    return saveProduct(session, {
      ...plan,
      custom: plan.custom.map((c) =>
        c.attribute_code === 'url_key' ? { ...c, value: unique } : c,
      ),
    });
  }
}

async function saveProduct(session: MagentoSession, plan: ProductPlan): Promise<MagentoProduct> {
  const custom = [...plan.custom];
  let price = 0;
  if (plan.variant) {
    const p = pricing(plan.variant);
    price = p.price;
    // An empty special_price removes an old sale price on update.
    custom.push({ attribute_code: 'special_price', value: p.special ?? '' });
  }
  const weight = plan.variant ? await weightOf(session, plan.variant) : undefined;
  const { id: attributeSetId } = await session.attributeSet();
  // POST /V1/products (admin-schema-2.4.9.yaml PostV1Products) saves by SKU: it creates the
  // product or updates the one with that SKU, so repeating it is safe.
  return session.client.request('POST', '/V1/products', productSchema, {
    body: {
      product: {
        sku: plan.sku,
        name: plan.name,
        attribute_set_id: attributeSetId,
        price,
        status: plan.status,
        visibility: plan.visibility,
        type_id: plan.typeId,
        ...(weight === undefined ? {} : { weight }),
        extension_attributes: {
          website_ids: [1],
          category_links: plan.categoryLinks,
          stock_item: stockItem(plan.variant?.inventory ?? { tracked: false, quantity: 0 }),
        },
        custom_attributes: custom,
      },
    },
    scope: 'all',
    retry: 'always',
  });
}

/** Uploads the images a product lacks, as base64 gallery entries named by their marker. */
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
      content = await downloadImage(session.context.http, image.url);
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

export async function writeProducts(
  session: MagentoSession,
  records: Product[],
  idMap: IdMap,
): Promise<WriteOutcome[]> {
  const outcomes: WriteOutcome[] = [];
  for (const record of records) {
    try {
      outcomes.push(await writeProduct(session, record, idMap));
    } catch (error) {
      if (isStoreWide(error)) throw error;
      outcomes.push({ sourceId: record.id, outcome: 'failed', reason: reasonOf(error) });
    }
  }
  return outcomes;
}

function productSku(record: Product): string {
  const sku =
    record.sku ||
    (record.type === 'simple' ? record.variants[0]?.sku : '') ||
    record.slug ||
    `product-${record.id}`;
  return sku.trim();
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

async function writeProduct(
  session: MagentoSession,
  record: Product,
  idMap: IdMap,
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
  if (record.tags.length) warnings.push('tags not migrated (Magento products have no tags) (tags)');
  if (record.dimensions)
    warnings.push(
      'dimensions not migrated (Magento has no product dimensions by default) (dimensions)',
    );
  if (record.variants.some((v) => v.barcode))
    warnings.push(
      'barcodes not migrated (Magento has no barcode field by default) (variants.barcode)',
    );
  if (record.createdAt || record.updatedAt) {
    warnings.push(
      'creation and modification dates not kept: Magento sets its own on save (createdAt, updatedAt)',
    );
  }

  // Configurable: the children are planned (and checked against the store) before anything is
  // written, so that a product whose variant SKUs belong to the merchant is not half-written.
  const configurable = record.type !== 'simple' && record.options.length > 0;
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
            reason: `variant ${variant.sku || variant.id} has no value for option '${option.name}'`,
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

  await ensureMarkerAttribute(session);
  const categoryLinks: { category_id: string; position: number }[] = [];
  for (const [position, id] of record.categoryIds.entries()) {
    const mapped = idMap.get('categories', id);
    if (mapped) categoryLinks.push({ category_id: mapped, position });
    else
      warnings.push(
        `category ${id} was not migrated; the product is not linked to it (categoryIds)`,
      );
  }
  const custom: { attribute_code: string; value: string }[] = [
    { attribute_code: markerAttribute, value: record.id },
    { attribute_code: 'description', value: record.descriptionHtml },
    { attribute_code: 'short_description', value: record.shortDescriptionHtml },
    { attribute_code: 'meta_title', value: record.seoTitle },
    { attribute_code: 'meta_description', value: record.seoDescription },
  ];
  if (record.slug) custom.push({ attribute_code: 'url_key', value: slugify(record.slug) });
  if (record.vendor) {
    const manufacturer = await session.attribute('manufacturer');
    if (manufacturer) {
      await session.ensureInSet('manufacturer');
      const map = await ensureOptions(session, 'manufacturer', [record.vendor]);
      custom.push({ attribute_code: 'manufacturer', value: map.get(record.vendor) ?? '' });
    } else {
      warnings.push('vendor not migrated: the store has no manufacturer attribute (vendor)');
    }
  }
  custom.push(...(await attributeValues(session, record.attributes, warnings)));
  const status = record.status === 'active' ? 1 : 2;
  if (record.status === 'archived')
    warnings.push(
      "status 'archived' written as disabled (Magento has enabled/disabled only) (status)",
    );
  const images = { incomplete: false };

  if (!configurable) {
    const variant = record.variants[0];
    if (!variant)
      return { sourceId: record.id, outcome: 'failed', reason: 'product without a variant' };
    if (existing && existing.type_id === 'configurable') {
      return {
        sourceId: record.id,
        outcome: 'failed',
        reason: `SKU ${sku} is a configurable product at the destination`,
      };
    }
    const saved = await saveProductKeyed(
      session,
      {
        sku,
        name: record.name,
        typeId: 'simple',
        visibility: 4,
        variant,
        custom,
        categoryLinks,
        status,
      },
      warnings,
    );
    await syncImages(session, sku, record.images, warnings, !existing, images);
    return done(record, existing, saved, warnings, images.incomplete);
  }

  // One global select attribute per option, one simple child per variant.
  const optionAttributes: {
    name: string;
    code: string;
    attributeId: string;
    values: Map<string, string>;
  }[] = [];
  for (const option of record.options) {
    const attribute = await ensureAttribute(session, option.name, 'configurable');
    const values = await ensureOptions(session, attribute.attribute_code, option.values);
    optionAttributes.push({
      name: option.name,
      code: attribute.attribute_code,
      attributeId: String(attribute.attribute_id),
      values,
    });
  }
  if (existing && existing.type_id !== 'configurable') {
    return {
      sourceId: record.id,
      outcome: 'failed',
      reason: `SKU ${sku} is a ${existing.type_id} product at the destination`,
    };
  }
  const parent = await saveProductKeyed(
    session,
    {
      sku,
      name: record.name,
      typeId: 'configurable',
      visibility: 4,
      variant: undefined,
      custom,
      categoryLinks,
      status,
    },
    warnings,
  );
  const children: { id: number; sku: string }[] = [];
  for (const plan of childPlans) {
    const suffix = plan.values.map((v) => slugify(v.value)).join('-');
    const child = await saveProduct(session, {
      sku: plan.sku,
      name: `${record.name}-${plan.values.map((v) => v.value).join('-')}`,
      typeId: 'simple',
      visibility: 1,
      variant: plan.variant,
      custom: [
        { attribute_code: markerAttribute, value: variantMarker(record.id, plan.variant.id) },
        { attribute_code: 'url_key', value: `${slugify(record.slug || record.name)}-${suffix}` },
        ...optionAttributes.map((o, i) => ({
          attribute_code: o.code,
          value: o.values.get(plan.values[i]?.value ?? '') ?? '',
        })),
      ],
      categoryLinks,
      status,
    });
    children.push({ id: child.id, sku: plan.sku });
    if (plan.variant.imageUrl) {
      await syncImages(
        session,
        plan.sku,
        [{ url: plan.variant.imageUrl, alt: record.name, position: 0 }],
        warnings,
        !childrenBefore.has(plan.sku.toLowerCase()),
        images,
      );
    }
  }
  await linkConfigurable(session, sku, optionAttributes, record, children);
  await syncImages(session, sku, record.images, warnings, !existing, images);
  return done(record, existing, parent, warnings, images.incomplete);
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

function done(
  record: Product,
  before: MagentoProduct | undefined,
  saved: MagentoProduct,
  warnings: string[],
  incomplete: boolean,
): WriteOutcome {
  return {
    sourceId: record.id,
    outcome: before ? 'updated' : 'created',
    destinationId: String(saved.id),
    ...(warnings.length ? { warnings } : {}),
    ...(incomplete ? { incomplete: true } : {}),
  };
}
