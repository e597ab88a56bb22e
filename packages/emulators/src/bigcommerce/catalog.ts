import { z } from 'zod';
import { BcHttpError, notFound, v3Date } from './http.ts';
import { deleteMetafieldsOf } from './metafields.ts';
import type {
  BcBrand,
  BcBulkPricingRule,
  BcCategory,
  BcCustomField,
  BcImage,
  BcModifier,
  BcOption,
  BcProduct,
  BcState,
  BcVariant,
} from './state.ts';

/**
 * Catalog rules of BigCommerce as the emulator enforces them, shared by the routes and by seeding
 * (products_catalog.v3.yml, category-trees_catalog.v3.yml, brands_catalog.v3.yml,
 * product-variants_catalog.v3.yml, product-variant-options_catalog.v3.yml).
 */

export interface CatalogContext {
  state: BcState;
  storeHash: string;
  /** Origin the emulator answers on; re-hosted media live under it. */
  baseUrl: () => string;
  now: () => number;
}

export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

const urlPath = z
  .string()
  .min(1)
  .max(255)
  .regex(/^\/[^\s?#]*$/, 'must be a path starting with /');

// ---------------------------------------------------------------- media

/**
 * BigCommerce downloads an image given by URL and serves its own copy from its CDN; the emulator
 * does not fetch anything (it never reaches out to arbitrary hosts) and serves a generated picture
 * under a CDN-like path instead, so the answer has the platform's shape.
 */
export function rehost(
  ctx: CatalogContext,
  sourceUrl: string,
  folder: string,
): { imageFile: string; path: string } {
  let parsed: URL;
  try {
    parsed = new URL(sourceUrl);
  } catch {
    throw new BcHttpError(422, 'The image URL is not valid', { image_url: 'invalid URL' });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new BcHttpError(422, 'The image URL is not valid', { image_url: 'must be http(s)' });
  }
  const last = decodeURIComponent(parsed.pathname.split('/').filter(Boolean).at(-1) ?? 'image');
  const dot = last.lastIndexOf('.');
  const ext = dot > 0 ? last.slice(dot + 1).toLowerCase() : 'jpg';
  if (!['jpg', 'jpeg', 'png', 'gif', 'webp'].includes(ext)) {
    throw new BcHttpError(422, 'The image type is not supported', { image_url: ext });
  }
  const stem = slugify(dot > 0 ? last.slice(0, dot) : last).replace(/-/g, '') || 'image';
  const n = ctx.state.nextId('media', 10_000);
  const stamp = Math.floor(ctx.now() / 1000);
  return {
    imageFile: `${stem[0]}/${String(n % 1000).padStart(3, '0')}/${stem}__${n}.${ext}`,
    path: `/media/s-${ctx.storeHash}/${folder}/${stem}__${n}.${stamp}.${ext}`,
  };
}

function sized(ctx: CatalogContext, path: string, size: string): string {
  const dot = path.lastIndexOf('.');
  return `${ctx.baseUrl()}${path.slice(0, dot)}.${size}${path.slice(dot)}?c=2`;
}

export const mediaUrl = (ctx: CatalogContext, path: string) =>
  path ? `${ctx.baseUrl()}${path}` : '';

// ---------------------------------------------------------------- categories

const categoryFields = {
  description: z.string().max(65_535).optional(),
  views: z.number().int().optional(),
  sort_order: z.number().int().min(-2_147_483_648).max(2_147_483_647).optional(),
  page_title: z.string().optional(),
  meta_keywords: z.array(z.string()).optional(),
  meta_description: z.string().max(65_535).optional(),
  layout_file: z.string().max(50).optional(),
  image_url: z.string().optional(),
  is_visible: z.boolean().optional(),
  search_keywords: z.string().max(255).optional(),
  default_product_sort: z
    .enum([
      'use_store_settings',
      'featured',
      'newest',
      'best_selling',
      'alpha_asc',
      'alpha_desc',
      'avg_customer_review',
      'price_asc',
      'price_desc',
    ])
    .optional(),
  url: z.object({ path: urlPath, is_customized: z.boolean().optional() }).optional(),
};

export const treeCategoryCreateSchema = z.object({
  name: z.string().min(1).max(50),
  parent_id: z.number().int().min(0),
  tree_id: z.number().int().min(1),
  ...categoryFields,
});
export type TreeCategoryCreate = z.infer<typeof treeCategoryCreateSchema>;

export const treeCategoryUpdateSchema = z.object({
  category_id: z.number().int().min(1),
  name: z.string().min(1).max(50).optional(),
  parent_id: z.number().int().min(0).optional(),
  tree_id: z.number().int().min(1).optional(),
  ...categoryFields,
});

const maxCategories = 16_000;
const maxDepth = 8;

function depthOf(state: BcState, category: BcCategory): number {
  let depth = 1;
  let parent = category.parent_id;
  while (parent !== 0) {
    const next = state.categories.find((c) => c.category_id === parent);
    if (!next) break;
    depth += 1;
    parent = next.parent_id;
  }
  return depth;
}

function categoryUrlTaken(state: BcState, path: string, exceptId?: number): boolean {
  return state.categories.some((c) => c.url.path === path && c.category_id !== exceptId);
}

/** Creates one category in a tree, enforcing the store limits of category-trees_catalog.v3.yml. */
export function createCategory(ctx: CatalogContext, input: TreeCategoryCreate): BcCategory {
  const { state } = ctx;
  if (!state.trees.some((t) => t.id === input.tree_id)) {
    throw new BcHttpError(422, 'The category tree does not exist', { tree_id: 'unknown tree' });
  }
  if (state.categories.length >= maxCategories) {
    throw new BcHttpError(422, 'The store already has 16,000 categories', { name: 'store limit' });
  }
  let parentPath = '/';
  if (input.parent_id !== 0) {
    const parent = state.categories.find((c) => c.category_id === input.parent_id);
    if (!parent || parent.tree_id !== input.tree_id) {
      throw new BcHttpError(422, 'The parent category does not exist', {
        parent_id: 'unknown parent',
      });
    }
    if (depthOf(state, parent) >= maxDepth) {
      throw new BcHttpError(422, 'Categories can be nested at most 8 levels deep', {
        parent_id: 'depth limit',
      });
    }
    parentPath = parent.url.path.endsWith('/') ? parent.url.path : `${parent.url.path}/`;
  }
  const sibling = state.categories.find(
    (c) =>
      c.tree_id === input.tree_id &&
      c.parent_id === input.parent_id &&
      c.name.toLowerCase() === input.name.toLowerCase(),
  );
  if (sibling) {
    throw new BcHttpError(409, 'A category with this name already exists at this level', {
      name: `duplicate of category ${sibling.category_id}`,
    });
  }
  let path = input.url?.path ?? `${parentPath}${slugify(input.name) || 'category'}/`;
  if (categoryUrlTaken(state, path)) {
    if (input.url?.path) {
      throw new BcHttpError(409, 'The category URL is already in use', { 'url.path': path });
    }
    path = `${path.replace(/\/$/, '')}-${state.categories.length + 1}/`;
  }
  const category: BcCategory = {
    category_id: state.nextId('category', 18),
    category_uuid: state.uuid(),
    tree_id: input.tree_id,
    parent_id: input.parent_id,
    name: input.name,
    description: input.description ?? '',
    views: input.views ?? 0,
    sort_order: input.sort_order ?? 0,
    page_title: input.page_title ?? '',
    meta_keywords: input.meta_keywords ?? [],
    meta_description: input.meta_description ?? '',
    layout_file: input.layout_file ?? 'category.html',
    image_path: input.image_url ? rehost(ctx, input.image_url, 'category_images').path : '',
    is_visible: input.is_visible ?? true,
    search_keywords: input.search_keywords ?? '',
    default_product_sort: input.default_product_sort ?? 'use_store_settings',
    url: { path, is_customized: input.url?.is_customized ?? false },
  };
  state.categories.push(category);
  return category;
}

export function updateCategory(
  ctx: CatalogContext,
  input: z.infer<typeof treeCategoryUpdateSchema>,
): BcCategory {
  const category = ctx.state.categories.find((c) => c.category_id === input.category_id);
  if (!category) throw notFound(`Category ${input.category_id}`);
  if (input.url?.path && categoryUrlTaken(ctx.state, input.url.path, category.category_id)) {
    throw new BcHttpError(409, 'The category URL is already in use', {
      'url.path': input.url.path,
    });
  }
  const { category_id: _id, image_url: imageUrl, url, ...rest } = input;
  Object.assign(
    category,
    Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
  );
  if (url) category.url = { path: url.path, is_customized: url.is_customized ?? true };
  if (imageUrl !== undefined) {
    category.image_path = imageUrl ? rehost(ctx, imageUrl, 'category_images').path : '';
  }
  return category;
}

/** Shape of /catalog/trees/categories items. */
export function treeCategoryJson(ctx: CatalogContext, c: BcCategory): Record<string, unknown> {
  return {
    category_id: c.category_id,
    category_uuid: c.category_uuid,
    parent_id: c.parent_id,
    tree_id: c.tree_id,
    name: c.name,
    description: c.description,
    views: c.views,
    sort_order: c.sort_order,
    page_title: c.page_title,
    meta_keywords: c.meta_keywords,
    meta_description: c.meta_description,
    layout_file: c.layout_file,
    image_url: mediaUrl(ctx, c.image_path),
    is_visible: c.is_visible,
    search_keywords: c.search_keywords,
    default_product_sort: c.default_product_sort,
    url: c.url,
  };
}

/** Shape of the older /catalog/categories items (default channel tree only). */
export function legacyCategoryJson(ctx: CatalogContext, c: BcCategory): Record<string, unknown> {
  return {
    id: c.category_id,
    parent_id: c.parent_id,
    name: c.name,
    description: c.description,
    views: c.views,
    sort_order: c.sort_order,
    page_title: c.page_title,
    meta_keywords: c.meta_keywords,
    meta_description: c.meta_description,
    layout_file: c.layout_file,
    image_url: mediaUrl(ctx, c.image_path),
    is_visible: c.is_visible,
    search_keywords: c.search_keywords,
    default_product_sort: c.default_product_sort,
    custom_url: { url: c.url.path, is_customized: c.url.is_customized },
  };
}

// ---------------------------------------------------------------- brands

/**
 * brands_catalog.v3.yml: a brand has a name (1 to 255 characters, unique: a repeat answers 409),
 * a page title and search keywords of at most 255 characters, a meta description of at most
 * 65,535, meta keywords as a list, a logo given by URL (BigCommerce keeps its own copy) and the
 * storefront path of its page (custom_url, url and is_customized both required when given; paths
 * are unique among brands, a repeat answers 409). Fields the description does not name are
 * refused (422).
 */
const brandUrlSchema = z.strictObject({
  url: z
    .string()
    .min(1)
    .max(1024)
    .regex(/^(\/([A-Za-z0-9\-_.~]{1,256}))*\/?$/, 'must be a storefront path'),
  is_customized: z.boolean(),
});

const brandFields = {
  page_title: z.string().max(255).optional(),
  meta_keywords: z.array(z.string()).optional(),
  meta_description: z.string().max(65_535).optional(),
  search_keywords: z.string().max(255).optional(),
  /** '' removes the logo. */
  image_url: z.string().optional(),
  custom_url: brandUrlSchema.optional(),
};

export const brandCreateSchema = z.strictObject({
  name: z.string().min(1).max(255),
  ...brandFields,
});

/** PUT takes the name again (x-required put) and leaves the fields it does not name as they are. */
export const brandUpdateSchema = z.strictObject({
  id: z.number().int().optional(),
  name: z.string().min(1).max(255),
  ...brandFields,
});

const brandNameKey = (name: string) => name.normalize('NFC').toLowerCase();

function checkBrandUnique(
  state: BcState,
  self: number | undefined,
  name: string,
  url: string | undefined,
): void {
  const sameName = state.brands.find(
    (b) => b.id !== self && brandNameKey(b.name) === brandNameKey(name),
  );
  if (sameName) {
    throw new BcHttpError(409, 'Brand name is a duplicate', {
      name: `The brand name '${name}' is already in use (brand ${sameName.id})`,
    });
  }
  const sameUrl =
    url === undefined
      ? undefined
      : state.brands.find((b) => b.id !== self && b.custom_url.url === url);
  if (sameUrl) {
    throw new BcHttpError(409, 'The custom URL is a duplicate', {
      custom_url: `The URL '${url}' is already in use by brand ${sameUrl.id}`,
    });
  }
}

/** BigCommerce's own path for a brand page: /brands/<Name>.html, made unique. */
function defaultBrandUrl(state: BcState, name: string, self?: number): string {
  const stem = slugify(name) || 'brand';
  let url = `/brands/${stem}.html`;
  for (let n = 2; state.brands.some((b) => b.id !== self && b.custom_url.url === url); n++)
    url = `/brands/${stem}-${n}.html`;
  return url;
}

function brandImagePath(ctx: CatalogContext, imageUrl: string | undefined, current: string) {
  if (imageUrl === undefined) return current;
  if (imageUrl === '') return '';
  return rehost(ctx, imageUrl, 'product_images').path;
}

export function createBrand(
  ctx: CatalogContext,
  input: z.infer<typeof brandCreateSchema>,
): BcBrand {
  const { state } = ctx;
  checkBrandUnique(state, undefined, input.name, input.custom_url?.url);
  const brand: BcBrand = {
    id: 0,
    name: input.name,
    page_title: input.page_title ?? '',
    meta_keywords: input.meta_keywords ?? [],
    meta_description: input.meta_description ?? '',
    search_keywords: input.search_keywords ?? '',
    image_path: brandImagePath(ctx, input.image_url, ''),
    custom_url: input.custom_url
      ? { ...input.custom_url }
      : { url: defaultBrandUrl(state, input.name), is_customized: false },
  };
  brand.id = state.nextId('brand', 36);
  state.brands.push(brand);
  return brand;
}

export function updateBrand(
  ctx: CatalogContext,
  brand: BcBrand,
  input: z.infer<typeof brandUpdateSchema>,
): BcBrand {
  const { state } = ctx;
  if (input.id !== undefined && input.id !== brand.id) {
    throw new BcHttpError(422, 'The id in the body is not the brand of the address', {
      id: `brand ${brand.id}`,
    });
  }
  checkBrandUnique(state, brand.id, input.name, input.custom_url?.url);
  const image = brandImagePath(ctx, input.image_url, brand.image_path);
  const renamed = brandNameKey(input.name) !== brandNameKey(brand.name);
  brand.name = input.name;
  if (input.page_title !== undefined) brand.page_title = input.page_title;
  if (input.meta_keywords !== undefined) brand.meta_keywords = input.meta_keywords;
  if (input.meta_description !== undefined) brand.meta_description = input.meta_description;
  if (input.search_keywords !== undefined) brand.search_keywords = input.search_keywords;
  brand.image_path = image;
  if (input.custom_url) brand.custom_url = { ...input.custom_url };
  else if (renamed && !brand.custom_url.is_customized)
    brand.custom_url = { url: defaultBrandUrl(state, input.name, brand.id), is_customized: false };
  return brand;
}

/** A deleted brand takes its metafields along; its products keep going without a brand. */
export function deleteBrand(state: BcState, brand: BcBrand): void {
  state.brands.splice(state.brands.indexOf(brand), 1);
  deleteMetafieldsOf(state, 'brand', brand.id);
  for (const product of state.products) if (product.brand_id === brand.id) product.brand_id = 0;
}

/**
 * POST /catalog/brands/{brand_id}/image: one file in the multipart field image_file. The emulator
 * keeps the file's name only (it serves a generated picture, as for images given by URL).
 */
export function uploadBrandImage(
  ctx: CatalogContext,
  brand: BcBrand,
  contentType: string | undefined,
  body: Buffer,
): string {
  if (!contentType?.toLowerCase().startsWith('multipart/form-data')) {
    throw new BcHttpError(400, 'The image must be sent as multipart/form-data');
  }
  const text = body.toString('latin1');
  const part = /name="image_file";\s*filename="([^"]+)"/i.exec(text);
  if (!part?.[1]) {
    throw new BcHttpError(422, 'The image_file field is required', { image_file: 'missing' });
  }
  brand.image_path = rehost(
    ctx,
    `https://upload.invalid/${encodeURIComponent(part[1])}`,
    'product_images',
  ).path;
  return mediaUrl(ctx, brand.image_path);
}

export function brandJson(ctx: CatalogContext, b: BcBrand): Record<string, unknown> {
  return {
    id: b.id,
    name: b.name,
    page_title: b.page_title,
    meta_keywords: b.meta_keywords,
    meta_description: b.meta_description,
    search_keywords: b.search_keywords,
    image_url: mediaUrl(ctx, b.image_path),
    custom_url: b.custom_url,
  };
}

// ---------------------------------------------------------------- products

const money = z.number().min(0);
const nullableMoney = z.number().min(0).nullable();

const optionValueRef = z.object({
  id: z.number().int().optional(),
  option_id: z.number().int().optional(),
  option_display_name: z.string().min(1).max(255).optional(),
  label: z.string().min(1).max(255).optional(),
});

export const variantInputSchema = z.object({
  sku: z.string().min(1).max(255),
  cost_price: nullableMoney.optional(),
  price: nullableMoney.optional(),
  sale_price: nullableMoney.optional(),
  retail_price: nullableMoney.optional(),
  map_price: nullableMoney.optional(),
  weight: z.number().min(0).nullable().optional(),
  width: z.number().min(0).nullable().optional(),
  height: z.number().min(0).nullable().optional(),
  depth: z.number().min(0).nullable().optional(),
  is_free_shipping: z.boolean().optional(),
  fixed_cost_shipping_price: nullableMoney.optional(),
  purchasing_disabled: z.boolean().optional(),
  purchasing_disabled_message: z.string().max(255).optional(),
  image_url: z.string().optional(),
  upc: z.string().max(14).nullable().optional(),
  gtin: z.string().max(14).nullable().optional(),
  mpn: z.string().nullable().optional(),
  inventory_level: z.number().int().min(0).nullable().optional(),
  inventory_warning_level: z.number().int().min(0).nullable().optional(),
  bin_picking_number: z.string().max(255).nullable().optional(),
  option_values: z.array(optionValueRef).default([]),
});
export type VariantInput = z.infer<typeof variantInputSchema>;

export const imageInputSchema = z.object({
  image_url: z.string().min(1),
  is_thumbnail: z.boolean().optional(),
  sort_order: z.number().int().optional(),
  description: z.string().optional(),
});

export const customFieldInputSchema = z.object({
  name: z.string().min(1).max(250),
  value: z.string().min(1).max(250),
});

/** bulkPricingRule_Full: a percentage is sent as a fraction in text ('.10'), amounts as numbers. */
export const bulkPricingRuleInputSchema = z.object({
  quantity_min: z.number().int().min(0),
  quantity_max: z.number().int().min(0),
  type: z.enum(['price', 'percent', 'fixed']),
  amount: z.union([z.number(), z.string().regex(/^-?\d*\.?\d+$/)]),
});

/** productVideo_Base: YouTube videos by their id. */
export const videoInputSchema = z.object({
  title: z.string().max(255).optional(),
  description: z.string().optional(),
  sort_order: z.number().int().optional(),
  type: z.literal('youtube').optional(),
  video_id: z.string().min(1),
});

const productScalars = {
  type: z.enum(['physical', 'digital']),
  sku: z.string().max(255).optional(),
  description: z.string().optional(),
  weight: z.number().min(0),
  width: z.number().min(0).optional(),
  depth: z.number().min(0).optional(),
  height: z.number().min(0).optional(),
  price: money,
  cost_price: money.optional(),
  retail_price: money.optional(),
  sale_price: money.optional(),
  map_price: money.optional(),
  tax_class_id: z.number().int().min(0).max(255).optional(),
  product_tax_code: z.string().max(255).optional(),
  categories: z.array(z.number().int()).max(1000).optional(),
  brand_id: z.number().int().min(0).optional(),
  brand_name: z.string().optional(),
  inventory_level: z.number().int().min(0).optional(),
  inventory_warning_level: z.number().int().min(0).optional(),
  inventory_tracking: z.enum(['none', 'product', 'variant']).optional(),
  fixed_cost_shipping_price: money.optional(),
  is_free_shipping: z.boolean().optional(),
  is_visible: z.boolean().optional(),
  is_featured: z.boolean().optional(),
  related_products: z.array(z.number().int()).optional(),
  warranty: z.string().max(65_535).optional(),
  bin_picking_number: z.string().max(255).optional(),
  layout_file: z.string().max(500).optional(),
  upc: z.string().max(14).optional(),
  gtin: z.string().max(14).optional(),
  mpn: z.string().optional(),
  search_keywords: z.string().max(65_535).optional(),
  availability: z.enum(['available', 'disabled', 'preorder']).optional(),
  availability_description: z.string().max(255).optional(),
  gift_wrapping_options_type: z.enum(['any', 'none', 'list']).optional(),
  gift_wrapping_options_list: z.array(z.number().int()).optional(),
  sort_order: z.number().int().optional(),
  condition: z.enum(['New', 'Used', 'Refurbished']).optional(),
  is_condition_shown: z.boolean().optional(),
  order_quantity_minimum: z.number().int().min(0).optional(),
  order_quantity_maximum: z.number().int().min(0).optional(),
  page_title: z.string().max(255).optional(),
  meta_keywords: z.array(z.string()).optional(),
  meta_description: z.string().max(65_535).optional(),
  preorder_release_date: z.string().nullable().optional(),
  preorder_message: z.string().max(255).optional(),
  is_preorder_only: z.boolean().optional(),
  is_price_hidden: z.boolean().optional(),
  price_hidden_label: z.string().max(200).optional(),
  custom_url: z
    .object({
      url: urlPath,
      is_customized: z.boolean().optional(),
      create_redirect: z.boolean().optional(),
    })
    .optional(),
  open_graph_type: z
    .enum(['product', 'album', 'book', 'drink', 'food', 'game', 'movie', 'song', 'tv_show'])
    .optional(),
  open_graph_title: z.string().optional(),
  open_graph_description: z.string().optional(),
  open_graph_use_meta_description: z.boolean().optional(),
  open_graph_use_product_name: z.boolean().optional(),
  open_graph_use_image: z.boolean().optional(),
};

export const productCreateSchema = z.object({
  name: z.string().min(1).max(250),
  ...productScalars,
  custom_fields: z.array(customFieldInputSchema).max(200).optional(),
  bulk_pricing_rules: z.array(bulkPricingRuleInputSchema).optional(),
  images: z.array(imageInputSchema).max(1000).optional(),
  videos: z.array(videoInputSchema).optional(),
  variants: z.array(variantInputSchema).max(600).optional(),
});
export type ProductCreate = z.infer<typeof productCreateSchema>;

export const productUpdateSchema = z.object({
  name: z.string().min(1).max(250).optional(),
  ...Object.fromEntries(Object.entries(productScalars).map(([k, v]) => [k, v.optional()])),
}) as z.ZodType<Partial<ProductCreate>>;

function assertProductUnique(
  state: BcState,
  fields: { name?: string; sku?: string; url?: string },
  exceptId?: number,
): void {
  if (fields.name && state.nameTaken(fields.name, exceptId)) {
    throw new BcHttpError(409, 'The product name is a duplicate', {
      name: `The product name '${fields.name}' is already in use`,
    });
  }
  if (fields.sku && state.skuTaken(fields.sku, exceptId)) {
    throw new BcHttpError(409, 'The product sku is a duplicate', {
      sku: `The SKU '${fields.sku}' is already in use`,
    });
  }
  if (fields.url && state.urlTaken(fields.url, exceptId)) {
    throw new BcHttpError(409, 'The product custom URL is a duplicate', {
      'custom_url.url': `The URL '${fields.url}' is already in use`,
    });
  }
}

function checkReferences(state: BcState, categories: number[] | undefined, brandId: number): void {
  for (const id of categories ?? []) {
    if (!state.categories.some((c) => c.category_id === id)) {
      throw new BcHttpError(422, 'A category of the product does not exist', {
        categories: `category ${id} not found`,
      });
    }
  }
  if (brandId !== 0 && !state.brands.some((b) => b.id === brandId)) {
    throw new BcHttpError(422, 'The brand does not exist', { brand_id: `brand ${brandId}` });
  }
}

function resolveBrand(
  ctx: CatalogContext,
  input: { brand_id?: number; brand_name?: string },
): number {
  if (input.brand_id !== undefined) return input.brand_id;
  if (!input.brand_name) return 0;
  const found = ctx.state.brands.find(
    (b) => b.name.toLowerCase() === input.brand_name?.toLowerCase(),
  );
  return found ? found.id : createBrand(ctx, { name: input.brand_name }).id;
}

function newVariant(
  ctx: CatalogContext,
  productId: number,
  input: Omit<VariantInput, 'option_values'>,
  optionValueIds: [number, number][],
): BcVariant {
  return {
    id: ctx.state.nextId('variant', 64),
    product_id: productId,
    sku: input.sku,
    sku_id: ctx.state.nextId('sku', 100),
    cost_price: input.cost_price ?? null,
    price: input.price ?? null,
    sale_price: input.sale_price ?? null,
    retail_price: input.retail_price ?? null,
    map_price: input.map_price ?? null,
    weight: input.weight ?? null,
    width: input.width ?? null,
    height: input.height ?? null,
    depth: input.depth ?? null,
    is_free_shipping: input.is_free_shipping ?? false,
    fixed_cost_shipping_price: input.fixed_cost_shipping_price ?? null,
    purchasing_disabled: input.purchasing_disabled ?? false,
    purchasing_disabled_message: input.purchasing_disabled_message ?? '',
    image_path: input.image_url ? rehost(ctx, input.image_url, 'attribute_rule_images').path : '',
    upc: input.upc ?? '',
    gtin: input.gtin ?? '',
    mpn: input.mpn ?? '',
    inventory_level: input.inventory_level ?? 0,
    inventory_warning_level: input.inventory_warning_level ?? 0,
    bin_picking_number: input.bin_picking_number ?? '',
    option_value_ids: optionValueIds,
  };
}

/** Finds or creates the option and value a nested variant names ({option_display_name, label}). */
function optionValueFor(
  ctx: CatalogContext,
  product: BcProduct,
  ref: z.infer<typeof optionValueRef>,
): [number, number] {
  if (ref.id !== undefined && ref.option_id !== undefined) {
    const option = product.options.find((o) => o.id === ref.option_id);
    const value = option?.option_values.find((v) => v.id === ref.id);
    if (!option || !value) {
      throw new BcHttpError(422, 'The option value does not exist', {
        option_values: `option ${ref.option_id} value ${ref.id}`,
      });
    }
    return [option.id, value.id];
  }
  if (!ref.option_display_name || !ref.label) {
    throw new BcHttpError(422, 'Option values need option_display_name and label, or ids', {
      option_values: 'incomplete',
    });
  }
  let option = product.options.find((o) => o.display_name === ref.option_display_name);
  if (!option) {
    option = {
      id: ctx.state.nextId('option', 100),
      product_id: product.id,
      name: `${ref.option_display_name}${product.id}`,
      display_name: ref.option_display_name,
      type: 'rectangles',
      sort_order: product.options.length,
      config: {},
      option_values: [],
    };
    product.options.push(option);
  }
  let value = option.option_values.find((v) => v.label === ref.label);
  if (!value) {
    value = {
      id: ctx.state.nextId('option_value', 60),
      label: ref.label,
      sort_order: option.option_values.length,
      is_default: false,
      value_data: null,
    };
    option.option_values.push(value);
  }
  return [option.id, value.id];
}

function addVariant(ctx: CatalogContext, product: BcProduct, input: VariantInput): BcVariant {
  if (product.variants.length >= 600) {
    throw new BcHttpError(422, 'A product can have at most 600 SKUs', { sku: 'limit' });
  }
  if (ctx.state.skuTaken(input.sku) || product.variants.some((v) => v.sku === input.sku)) {
    throw new BcHttpError(409, 'The variant sku is a duplicate', { sku: input.sku });
  }
  if (input.option_values.length === 0) {
    throw new BcHttpError(422, 'A variant needs option values', { option_values: 'empty' });
  }
  const ids = input.option_values.map((ref) => optionValueFor(ctx, product, ref));
  if (new Set(ids.map(([o]) => o)).size !== ids.length) {
    throw new BcHttpError(422, 'A variant may hold one value per option', {
      option_values: 'repeated option',
    });
  }
  const key = (pairs: [number, number][]) =>
    pairs
      .map((p) => p.join(':'))
      .sort()
      .join(',');
  if (product.variants.some((v) => key(v.option_value_ids) === key(ids))) {
    throw new BcHttpError(409, 'A variant with these option values already exists', {
      option_values: 'duplicate combination',
    });
  }
  // The base variant of a simple product gives way once the product has real options.
  product.variants = product.variants.filter((v) => v.option_value_ids.length > 0);
  const variant = newVariant(ctx, product.id, input, ids);
  product.variants.push(variant);
  return variant;
}

export function addImage(
  ctx: CatalogContext,
  product: BcProduct,
  input: z.infer<typeof imageInputSchema>,
): BcImage {
  if (product.images.length >= 1000) {
    throw new BcHttpError(422, 'A product can have at most 1000 images', { image_url: 'limit' });
  }
  const id = ctx.state.nextId('image', 300);
  const hosted = rehost(ctx, input.image_url, `products/${product.id}/images/${id}`);
  const thumbnail = input.is_thumbnail ?? product.images.length === 0;
  if (thumbnail) for (const other of product.images) other.is_thumbnail = false;
  const image: BcImage = {
    id,
    product_id: product.id,
    is_thumbnail: thumbnail,
    sort_order: input.sort_order ?? product.images.length,
    description: input.description ?? '',
    image_file: hosted.imageFile,
    path: hosted.path,
    date_modified: ctx.now(),
  };
  product.images.push(image);
  return image;
}

export function addCustomField(
  ctx: CatalogContext,
  product: BcProduct,
  input: z.infer<typeof customFieldInputSchema>,
): BcCustomField {
  if (product.custom_fields.length >= 255) {
    throw new BcHttpError(422, 'A product can have at most 255 custom fields', { name: 'limit' });
  }
  const field = { id: ctx.state.nextId('custom_field', 1), ...input };
  product.custom_fields.push(field);
  return field;
}

export function addBulkPricingRule(
  ctx: CatalogContext,
  product: BcProduct,
  input: z.infer<typeof bulkPricingRuleInputSchema>,
): BcBulkPricingRule {
  if (input.quantity_max !== 0 && input.quantity_max <= input.quantity_min) {
    throw new BcHttpError(422, 'quantity_max must be greater than quantity_min', {
      quantity_max: String(input.quantity_max),
    });
  }
  if (input.type === 'fixed' && input.quantity_min < 2) {
    throw new BcHttpError(422, 'A fixed price rule starts at a quantity of two or more', {
      quantity_min: String(input.quantity_min),
    });
  }
  const rule: BcBulkPricingRule = {
    id: ctx.state.nextId('bulk_pricing_rule', 1),
    quantity_min: input.quantity_min,
    quantity_max: input.quantity_max,
    type: input.type,
    // A percentage travels as a fraction in text and is answered as a number of percent.
    amount:
      typeof input.amount === 'string'
        ? Math.round(Number(input.amount) * 100 * 10_000) / 10_000
        : input.amount,
  };
  product.bulk_pricing_rules.push(rule);
  return rule;
}

export function addVideo(
  ctx: CatalogContext,
  product: BcProduct,
  input: z.infer<typeof videoInputSchema>,
): void {
  product.videos.push({
    id: ctx.state.nextId('video', 1),
    product_id: product.id,
    title: input.title ?? `Video ${input.video_id}`,
    description: input.description ?? '',
    sort_order: input.sort_order ?? product.videos.length,
    type: 'youtube',
    video_id: input.video_id,
    // The host site tells the length; the emulator has no host to ask.
    length: '01:00',
  });
}

/** POST /catalog/products: one product, optionally with nested variants, images, custom fields. */
export function createProduct(ctx: CatalogContext, input: ProductCreate): BcProduct {
  const { state } = ctx;
  const url = input.custom_url?.url ?? `/${slugify(input.name) || 'product'}/`;
  assertProductUnique(state, { name: input.name, sku: input.sku, url });
  const brandId = resolveBrand(ctx, input);
  checkReferences(state, input.categories, brandId);
  const variantSkus = (input.variants ?? []).map((v) => v.sku.toLowerCase());
  if (
    new Set(variantSkus).size !== variantSkus.length ||
    variantSkus.includes((input.sku ?? '').toLowerCase())
  ) {
    throw new BcHttpError(409, 'The variant sku is a duplicate', { variants: 'repeated SKU' });
  }
  for (const sku of variantSkus) {
    if (state.skuTaken(sku)) throw new BcHttpError(409, 'The variant sku is a duplicate', { sku });
  }
  const now = ctx.now();
  const withOptions = (input.variants ?? []).filter((v) => v.option_values.length > 0);
  const product: BcProduct = {
    id: state.nextId('product', 77),
    name: input.name,
    type: input.type,
    sku: input.sku ?? '',
    description: input.description ?? '',
    weight: input.weight,
    width: input.width ?? 0,
    depth: input.depth ?? 0,
    height: input.height ?? 0,
    price: input.price,
    cost_price: input.cost_price ?? 0,
    retail_price: input.retail_price ?? 0,
    sale_price: input.sale_price ?? 0,
    map_price: input.map_price ?? 0,
    tax_class_id: input.tax_class_id ?? 0,
    product_tax_code: input.product_tax_code ?? '',
    categories: input.categories ?? [],
    brand_id: brandId,
    inventory_level: input.inventory_level ?? 0,
    inventory_warning_level: input.inventory_warning_level ?? 0,
    inventory_tracking: input.inventory_tracking ?? 'none',
    fixed_cost_shipping_price: input.fixed_cost_shipping_price ?? 0,
    is_free_shipping: input.is_free_shipping ?? false,
    is_visible: input.is_visible ?? true,
    is_featured: input.is_featured ?? false,
    related_products: input.related_products ?? [-1],
    warranty: input.warranty ?? '',
    bin_picking_number: input.bin_picking_number ?? '',
    layout_file: input.layout_file ?? 'product.html',
    upc: input.upc ?? '',
    gtin: input.gtin ?? '',
    mpn: input.mpn ?? '',
    search_keywords: input.search_keywords ?? '',
    availability: input.availability ?? 'available',
    availability_description: input.availability_description ?? '',
    gift_wrapping_options_type: input.gift_wrapping_options_type ?? 'any',
    gift_wrapping_options_list: input.gift_wrapping_options_list ?? [],
    sort_order: input.sort_order ?? 0,
    condition: input.condition ?? 'New',
    is_condition_shown: input.is_condition_shown ?? false,
    order_quantity_minimum: input.order_quantity_minimum ?? 0,
    order_quantity_maximum: input.order_quantity_maximum ?? 0,
    page_title: input.page_title ?? '',
    meta_keywords: input.meta_keywords ?? [],
    meta_description: input.meta_description ?? '',
    view_count: 0,
    preorder_release_date: input.preorder_release_date ?? null,
    preorder_message: input.preorder_message ?? '',
    is_preorder_only: input.is_preorder_only ?? false,
    is_price_hidden: input.is_price_hidden ?? false,
    price_hidden_label: input.price_hidden_label ?? '',
    custom_url: { url, is_customized: input.custom_url?.is_customized ?? false },
    open_graph_type: input.open_graph_type ?? 'product',
    open_graph_title: input.open_graph_title ?? '',
    open_graph_description: input.open_graph_description ?? '',
    open_graph_use_meta_description: input.open_graph_use_meta_description ?? true,
    open_graph_use_product_name: input.open_graph_use_product_name ?? true,
    open_graph_use_image: input.open_graph_use_image ?? true,
    reviews_rating_sum: 0,
    reviews_count: 0,
    total_sold: 0,
    date_created: now,
    date_modified: now,
    options: [],
    modifiers: [],
    variants: [],
    images: [],
    custom_fields: [],
    bulk_pricing_rules: [],
    videos: [],
  };
  // Everything nested is checked on a draft first, so a refused request leaves nothing behind.
  if (withOptions.length > 0) {
    for (const v of withOptions) addVariant(ctx, product, v);
    const optionCount = product.options.length;
    if (product.variants.some((v) => v.option_value_ids.length !== optionCount)) {
      throw new BcHttpError(422, 'Every variant needs one value of every option', {
        variants: 'incomplete option values',
      });
    }
  } else {
    const base = input.variants?.[0];
    product.variants.push(newVariant(ctx, product.id, { ...(base ?? {}), sku: product.sku }, []));
  }
  for (const image of input.images ?? []) addImage(ctx, product, image);
  for (const field of input.custom_fields ?? []) addCustomField(ctx, product, field);
  for (const rule of input.bulk_pricing_rules ?? []) addBulkPricingRule(ctx, product, rule);
  for (const video of input.videos ?? []) addVideo(ctx, product, video);
  state.products.push(product);
  state.indexProduct(product);
  return product;
}

/**
 * DELETE /catalog/products/{id}: orders keep their lines (and the product id) as they were; the
 * product's reviews go with it.
 */
export function deleteProduct(ctx: CatalogContext, product: BcProduct): void {
  const { state } = ctx;
  state.products.splice(state.products.indexOf(product), 1);
  state.unindexProduct(product);
  const kept = state.reviews.filter((r) => r.product_id !== product.id);
  state.reviews.splice(0, state.reviews.length, ...kept);
  deleteMetafieldsOf(state, 'product', product.id);
  for (const variant of product.variants) deleteMetafieldsOf(state, 'variant', variant.id);
}

export function updateProduct(
  ctx: CatalogContext,
  product: BcProduct,
  input: Partial<ProductCreate>,
): BcProduct {
  assertProductUnique(
    ctx.state,
    { name: input.name, sku: input.sku, url: input.custom_url?.url },
    product.id,
  );
  const brandId =
    input.brand_id !== undefined || input.brand_name ? resolveBrand(ctx, input) : product.brand_id;
  checkReferences(ctx.state, input.categories, brandId);
  const { custom_url: customUrl, brand_name: _n, ...rest } = input;
  ctx.state.unindexProduct(product);
  Object.assign(
    product,
    Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
    { brand_id: brandId, date_modified: ctx.now() },
  );
  if (customUrl)
    product.custom_url = { url: customUrl.url, is_customized: customUrl.is_customized ?? true };
  ctx.state.indexProduct(product);
  return product;
}

/** product-variants_catalog.v3.yml productVariant_Put: a variant's own fields, options aside. */
export const variantUpdateSchema = variantInputSchema
  .omit({ option_values: true })
  .partial()
  .extend({ product_id: z.number().int().optional() });

export function updateVariant(
  ctx: CatalogContext,
  product: BcProduct,
  variant: BcVariant,
  input: z.infer<typeof variantUpdateSchema>,
): BcVariant {
  const { image_url: imageUrl, product_id: _product, sku, ...rest } = input;
  if (sku !== undefined && sku !== variant.sku) {
    if (variant.option_value_ids.length === 0)
      throw new BcHttpError(422, "The base variant's SKU is the product's", { sku });
    if (ctx.state.skuTaken(sku, product.id) || product.variants.some((v) => v.sku === sku))
      throw new BcHttpError(409, 'The variant sku is a duplicate', { sku });
    variant.sku = sku;
  }
  Object.assign(
    variant,
    Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
  );
  if (imageUrl !== undefined)
    variant.image_path = imageUrl ? rehost(ctx, imageUrl, 'attribute_rule_images').path : '';
  product.date_modified = ctx.now();
  ctx.state.indexProduct(product);
  return variant;
}

export function addVariantRoute(
  ctx: CatalogContext,
  product: BcProduct,
  input: VariantInput,
): BcVariant {
  const variant = addVariant(ctx, product, input);
  product.date_modified = ctx.now();
  ctx.state.indexProduct(product);
  return variant;
}

export const optionCreateSchema = z.object({
  display_name: z.string().min(1).max(255),
  type: z.enum([
    'radio_buttons',
    'rectangles',
    'dropdown',
    'product_list',
    'product_list_with_images',
    'swatch',
  ]),
  sort_order: z.number().int().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  option_values: z
    .array(
      z.object({
        label: z.string().min(1),
        sort_order: z.number().int().optional(),
        is_default: z.boolean().optional(),
        value_data: z.record(z.string(), z.unknown()).nullable().optional(),
      }),
    )
    .min(1),
});

/** product-variant-options_catalog.v3.yml updateProductVariantOption ("Option Put"). */
export const optionUpdateSchema = z.object({
  id: z.number().int().nullable().optional(),
  product_id: z.number().int(),
  display_name: z.string().min(1).max(255),
  type: optionCreateSchema.shape.type,
  sort_order: z.number().int().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  option_values: z
    .array(
      z.object({
        id: z.number().int().optional(),
        label: z.string().min(1),
        sort_order: z.number().int(),
        is_default: z.boolean().optional(),
        value_data: z.record(z.string(), z.unknown()).nullable().optional(),
      }),
    )
    .min(1),
});

/**
 * Replaces an option's name, type, order and values. Values are matched by id; a value whose id
 * is left out is removed unless a variant uses it (the platform refuses that with 422).
 */
export function updateOption(
  ctx: CatalogContext,
  product: BcProduct,
  option: BcOption,
  input: z.infer<typeof optionUpdateSchema>,
): BcOption {
  if (input.product_id !== product.id) {
    throw new BcHttpError(422, 'product_id does not match the product of the option', {
      product_id: String(input.product_id),
    });
  }
  if (product.options.some((o) => o.id !== option.id && o.display_name === input.display_name)) {
    throw new BcHttpError(409, 'An option with this name already exists', {
      display_name: input.display_name,
    });
  }
  const kept = new Set(input.option_values.flatMap((v) => (v.id === undefined ? [] : [v.id])));
  for (const value of option.option_values) {
    const used = product.variants.some((v) =>
      v.option_value_ids.some(([o, x]) => o === option.id && x === value.id),
    );
    if (!kept.has(value.id) && used) {
      throw new BcHttpError(422, 'An option value used by a variant cannot be removed', {
        option_values: String(value.id),
      });
    }
  }
  option.option_values = input.option_values.map((v) => {
    const existing = option.option_values.find((x) => x.id === v.id);
    if (v.id !== undefined && !existing) {
      throw new BcHttpError(422, 'The option value does not exist', {
        option_values: String(v.id),
      });
    }
    return {
      id: existing?.id ?? ctx.state.nextId('option_value', 60),
      label: v.label,
      sort_order: v.sort_order,
      is_default: v.is_default ?? false,
      value_data: v.value_data ?? null,
    };
  });
  option.display_name = input.display_name;
  option.type = input.type;
  if (input.sort_order !== undefined) option.sort_order = input.sort_order;
  if (input.config) option.config = input.config;
  product.date_modified = ctx.now();
  return option;
}

export function createOption(
  ctx: CatalogContext,
  product: BcProduct,
  input: z.infer<typeof optionCreateSchema>,
): BcOption {
  if (product.options.some((o) => o.display_name === input.display_name)) {
    throw new BcHttpError(409, 'An option with this name already exists', {
      display_name: input.display_name,
    });
  }
  const option: BcOption = {
    id: ctx.state.nextId('option', 100),
    product_id: product.id,
    name: `${input.display_name}${product.id}`,
    display_name: input.display_name,
    type: input.type,
    sort_order: input.sort_order ?? product.options.length,
    config: input.config ?? {},
    option_values: input.option_values.map((v, i) => ({
      id: ctx.state.nextId('option_value', 60),
      label: v.label,
      sort_order: v.sort_order ?? i,
      is_default: v.is_default ?? false,
      value_data: v.value_data ?? null,
    })),
  };
  product.options.push(option);
  return option;
}

// ---------------------------------------------------------------- product JSON

export function optionJson(o: BcOption): Record<string, unknown> {
  return {
    id: o.id,
    product_id: o.product_id,
    display_name: o.display_name,
    type: o.type,
    sort_order: o.sort_order,
    option_values: o.option_values.map((v) => ({
      id: v.id,
      label: v.label,
      sort_order: v.sort_order,
      value_data: v.value_data,
      is_default: v.is_default,
    })),
    config: o.config,
  };
}

export function modifierJson(m: BcModifier): Record<string, unknown> {
  return {
    id: m.id,
    product_id: m.product_id,
    name: m.name,
    display_name: m.display_name,
    type: m.type,
    required: m.required,
    sort_order: m.sort_order,
    config: m.config,
    option_values: m.option_values.map((v) => ({ ...v })),
  };
}

/**
 * `resolved` fills the inherited (null) amounts from the product: /catalog/variants declares them
 * as plain numbers, while /catalog/products/{id}/variants answers null for "same as the product".
 */
export function variantJson(
  ctx: CatalogContext,
  p: BcProduct,
  v: BcVariant,
  resolved = false,
): Record<string, unknown> {
  if (resolved) {
    return variantJson(ctx, p, {
      ...v,
      price: v.price ?? p.price,
      sale_price: v.sale_price ?? p.sale_price,
      weight: v.weight ?? p.weight,
      cost_price: v.cost_price ?? p.cost_price,
      retail_price: v.retail_price ?? p.retail_price,
      width: v.width ?? p.width,
      height: v.height ?? p.height,
      depth: v.depth ?? p.depth,
      fixed_cost_shipping_price: v.fixed_cost_shipping_price ?? p.fixed_cost_shipping_price,
    });
  }
  const base = v.option_value_ids.length === 0;
  const price = v.price ?? p.price;
  const sale = v.sale_price ?? p.sale_price;
  return {
    id: v.id,
    product_id: p.id,
    sku: base ? p.sku : v.sku,
    sku_id: v.sku_id,
    price: v.price,
    calculated_price: sale > 0 ? sale : price,
    sale_price: v.sale_price,
    retail_price: v.retail_price,
    map_price: v.map_price ?? 0,
    weight: v.weight,
    calculated_weight: v.weight ?? p.weight,
    width: v.width,
    height: v.height,
    depth: v.depth,
    is_free_shipping: v.is_free_shipping,
    fixed_cost_shipping_price: v.fixed_cost_shipping_price,
    purchasing_disabled: v.purchasing_disabled,
    purchasing_disabled_message: v.purchasing_disabled_message,
    image_url: mediaUrl(ctx, v.image_path),
    cost_price: v.cost_price,
    upc: base ? p.upc : v.upc,
    mpn: base ? p.mpn : v.mpn,
    gtin: base ? p.gtin : v.gtin,
    inventory_level: base ? p.inventory_level : v.inventory_level,
    inventory_warning_level: v.inventory_warning_level,
    bin_picking_number: v.bin_picking_number,
    option_values: v.option_value_ids.map(([optionId, valueId]) => {
      const option = p.options.find((o) => o.id === optionId);
      const value = option?.option_values.find((x) => x.id === valueId);
      return {
        id: valueId,
        label: value?.label ?? '',
        option_id: optionId,
        option_display_name: option?.display_name ?? '',
      };
    }),
  };
}

export function imageJson(ctx: CatalogContext, i: BcImage): Record<string, unknown> {
  return {
    id: i.id,
    product_id: i.product_id,
    is_thumbnail: i.is_thumbnail,
    sort_order: i.sort_order,
    description: i.description,
    image_file: i.image_file,
    url_zoom: sized(ctx, i.path, '1280.1280'),
    url_standard: sized(ctx, i.path, '560.850'),
    url_thumbnail: sized(ctx, i.path, '330.500'),
    url_tiny: sized(ctx, i.path, '66.100'),
    date_modified: v3Date(i.date_modified),
  };
}

export type ProductInclude =
  | 'variants'
  | 'images'
  | 'custom_fields'
  | 'bulk_pricing_rules'
  | 'primary_image'
  | 'modifiers'
  | 'options'
  | 'videos'
  | 'channels'
  | 'parent_relations';

export function productJson(
  ctx: CatalogContext,
  p: BcProduct,
  include: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const base = p.variants.find((v) => v.option_value_ids.length === 0);
  const json: Record<string, unknown> = {
    id: p.id,
    name: p.name,
    type: p.type,
    sku: p.sku,
    description: p.description,
    weight: p.weight,
    width: p.width,
    depth: p.depth,
    height: p.height,
    price: p.price,
    cost_price: p.cost_price,
    retail_price: p.retail_price,
    sale_price: p.sale_price,
    map_price: p.map_price,
    tax_class_id: p.tax_class_id,
    product_tax_code: p.product_tax_code,
    calculated_price: p.sale_price > 0 ? p.sale_price : p.price,
    categories: p.categories,
    brand_id: p.brand_id,
    option_set_display: 'right',
    inventory_level:
      p.inventory_tracking === 'variant'
        ? p.variants.reduce((sum, v) => sum + v.inventory_level, 0)
        : p.inventory_level,
    inventory_warning_level: p.inventory_warning_level,
    inventory_tracking: p.inventory_tracking,
    reviews_rating_sum: p.reviews_rating_sum,
    reviews_count: p.reviews_count,
    total_sold: p.total_sold,
    fixed_cost_shipping_price: p.fixed_cost_shipping_price,
    is_free_shipping: p.is_free_shipping,
    is_visible: p.is_visible,
    is_featured: p.is_featured,
    related_products: p.related_products,
    warranty: p.warranty,
    bin_picking_number: p.bin_picking_number,
    layout_file: p.layout_file,
    upc: p.upc,
    mpn: p.mpn,
    gtin: p.gtin,
    search_keywords: p.search_keywords,
    availability: p.availability,
    availability_description: p.availability_description,
    gift_wrapping_options_type: p.gift_wrapping_options_type,
    gift_wrapping_options_list: p.gift_wrapping_options_list,
    sort_order: p.sort_order,
    condition: p.condition,
    is_condition_shown: p.is_condition_shown,
    order_quantity_minimum: p.order_quantity_minimum,
    order_quantity_maximum: p.order_quantity_maximum,
    page_title: p.page_title,
    meta_keywords: p.meta_keywords,
    meta_description: p.meta_description,
    date_created: v3Date(p.date_created),
    date_modified: v3Date(p.date_modified),
    view_count: p.view_count,
    preorder_release_date: p.preorder_release_date,
    preorder_message: p.preorder_message,
    is_preorder_only: p.is_preorder_only,
    is_price_hidden: p.is_price_hidden,
    price_hidden_label: p.price_hidden_label,
    custom_url: p.custom_url,
    open_graph_type: p.open_graph_type,
    open_graph_title: p.open_graph_title,
    open_graph_description: p.open_graph_description,
    open_graph_use_meta_description: p.open_graph_use_meta_description,
    open_graph_use_product_name: p.open_graph_use_product_name,
    open_graph_use_image: p.open_graph_use_image,
  };
  if (base) json.base_variant_id = base.id;
  if (include.has('variants')) json.variants = p.variants.map((v) => variantJson(ctx, p, v));
  if (include.has('images')) json.images = p.images.map((i) => imageJson(ctx, i));
  if (include.has('custom_fields')) json.custom_fields = p.custom_fields.map((f) => ({ ...f }));
  if (include.has('options')) json.options = p.options.map(optionJson);
  if (include.has('modifiers')) json.modifiers = p.modifiers.map(modifierJson);
  if (include.has('bulk_pricing_rules'))
    json.bulk_pricing_rules = p.bulk_pricing_rules.map((r) => ({ ...r }));
  if (include.has('videos')) json.videos = p.videos.map((v) => ({ ...v }));
  if (include.has('primary_image')) {
    const thumb = p.images.find((i) => i.is_thumbnail) ?? p.images[0];
    if (thumb) json.primary_image = imageJson(ctx, thumb);
  }
  if (include.has('channels')) json.channels = [1];
  return json;
}
