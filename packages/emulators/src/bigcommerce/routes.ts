import { z } from 'zod';
import { Router, type EmulatorRequest, type EmulatorResponse } from '../framework/server.ts';
import {
  defaultSiteId,
  deleteRedirects,
  listRedirects,
  redirectJson,
  redirectUpsertSchema,
  upsertRedirects,
  type RedirectFilter,
} from './redirects.ts';
import {
  addBulkPricingRule,
  addCustomField,
  addImage,
  bulkPricingRuleInputSchema,
  addVariantRoute,
  brandCreateSchema,
  brandJson,
  brandUpdateSchema,
  createBrand,
  deleteBrand,
  updateBrand,
  uploadBrandImage,
  createCategory,
  createOption,
  createProduct,
  customFieldInputSchema,
  deleteProduct,
  imageInputSchema,
  imageJson,
  legacyCategoryJson,
  optionCreateSchema,
  optionJson,
  productCreateSchema,
  productJson,
  productUpdateSchema,
  treeCategoryCreateSchema,
  treeCategoryJson,
  treeCategoryUpdateSchema,
  updateCategory,
  updateOption,
  updateProduct,
  updateVariant,
  variantUpdateSchema,
  optionUpdateSchema,
  variantInputSchema,
  variantJson,
  type CatalogContext,
} from './catalog.ts';
import {
  couponCreateSchema,
  couponJson,
  couponUpdateSchema,
  createCoupon,
  updateCoupon,
} from './coupons.ts';
import {
  blogTags,
  createPage,
  createPost,
  deletePage,
  pageBulkUpdateSchema,
  pageCreateSchema,
  pageError,
  pageJson,
  pageUpdateSchema,
  postCreateSchema,
  postJson,
  postUpdateSchema,
  updatePage,
  updatePost,
  type PageCreate,
} from './content.ts';
import {
  addressInputSchema,
  addressJson,
  attributeCreateSchema,
  attributeJson,
  createAttributes,
  consentJson,
  consentSchema,
  createCustomers,
  customerCreateSchema,
  customerJson,
  customerUpdateSchema,
  newAddress,
  setConsent,
  updateCustomers,
} from './customers.ts';
import {
  BcHttpError,
  boolParam,
  intListParam,
  intParam,
  jsonBody,
  listParam,
  notFound,
  pageRequest,
  paginate,
  parseBody,
  v3Date,
} from './http.ts';
import {
  createMetafield,
  createMetafieldBatch,
  deleteMetafieldsOf,
  listMetafields,
  metafieldInputSchema,
  metafieldJson,
} from './metafields.ts';
import {
  createOrder,
  orderCouponJson,
  orderFeeJson,
  orderCreateSchema,
  orderJson,
  orderProductJson,
  orderShippingAddressJson,
} from './orders.ts';
import {
  createReview,
  deleteReview,
  reviewCreateSchema,
  reviewJson,
  reviewsOf,
  reviewUpdateSchema,
  updateReview,
} from './reviews.ts';
import {
  orderStatuses,
  type BcCategory,
  type BcCustomer,
  type BcProduct,
  type BcReview,
} from './state.ts';

export interface RouteOptions {
  /** How long a customers write stays in flight (makes the concurrency limit observable). */
  customerWriteMs: number;
  /** customers.v3.yml: "Limit of 3 concurrent requests". */
  customerConcurrency: number;
}

export interface ConcurrencyStats {
  /** Most customers writes seen in flight at once. */
  max: number;
  /** Customers writes refused with 429 for exceeding the concurrency limit. */
  limited: number;
}

const ok = (body: unknown, status = 200): EmulatorResponse => ({ status, body });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function intId(raw: string | undefined, what: string): number {
  if (!raw || !/^\d+$/.test(raw)) throw new BcHttpError(404, `${what} not found`);
  return Number(raw);
}

function includeSet(url: URL): Set<string> {
  return new Set(listParam(url, 'include') ?? []);
}

/** `include_fields` keeps only the named fields (and the id) of each item. */
function pickFields(
  url: URL,
  idKey: string,
  item: Record<string, unknown>,
): Record<string, unknown> {
  const fields = listParam(url, 'include_fields');
  const excluded = new Set(listParam(url, 'exclude_fields') ?? []);
  let out = item;
  if (fields) {
    out = Object.fromEntries(
      Object.entries(item).filter(([k]) => k === idKey || fields.includes(k)),
    );
  }
  if (excluded.size)
    out = Object.fromEntries(Object.entries(out).filter(([k]) => k === idKey || !excluded.has(k)));
  return out;
}

function matchesNumber(value: number, url: URL, name: string): boolean {
  const min = intParam(url, `${name}:min`);
  const max = intParam(url, `${name}:max`);
  const greater = intParam(url, `${name}:greater`);
  const less = intParam(url, `${name}:less`);
  const exact = intParam(url, name);
  const inList = intListParam(url, `${name}:in`);
  const notIn = intListParam(url, `${name}:not_in`);
  return (
    (exact === undefined || value === exact) &&
    (min === undefined || value >= min) &&
    (max === undefined || value <= max) &&
    (greater === undefined || value > greater) &&
    (less === undefined || value < less) &&
    (!inList || inList.includes(value)) &&
    (!notIn || !notIn.includes(value))
  );
}

export function buildRoutes(
  ctx: CatalogContext,
  options: RouteOptions,
): {
  router: Router;
  concurrency: ConcurrencyStats;
} {
  const { state } = ctx;
  const router = new Router();
  const concurrency: ConcurrencyStats = { max: 0, limited: 0 };
  let customerWrites = 0;

  const productOr404 = (params: Record<string, string>): BcProduct => {
    const product = state.product(intId(params.product_id, 'Product'));
    if (!product) throw notFound(`Product ${params.product_id}`);
    return product;
  };
  const customerOr404 = (params: Record<string, string>): BcCustomer => {
    const id = intId(params.customer_id, 'Customer');
    const customer = state.customers.find((c) => c.id === id);
    if (!customer) throw notFound(`Customer ${id}`);
    return customer;
  };
  const arrayBody = (request: EmulatorRequest): unknown[] => {
    const body = jsonBody(request);
    if (!Array.isArray(body)) throw new BcHttpError(422, 'The request body must be an array');
    return body;
  };
  /** customers.v3.yml: create/update take ≤ 10 customers and ≤ 3 concurrent requests. */
  const customerWrite = async <T>(work: () => T): Promise<T> => {
    if (customerWrites >= options.customerConcurrency) {
      concurrency.limited += 1;
      throw new BcHttpError(429, 'Too many concurrent requests to the customers API', {
        concurrency: `at most ${options.customerConcurrency} requests at a time`,
      });
    }
    customerWrites += 1;
    concurrency.max = Math.max(concurrency.max, customerWrites);
    try {
      if (options.customerWriteMs > 0) await sleep(options.customerWriteMs);
      return work();
    } finally {
      customerWrites -= 1;
    }
  };

  // ------------------------------------------------------------ category trees
  router.on('GET', '/v3/catalog/trees', (request) => {
    const ids = intListParam(request.url, 'id:in');
    const channels = intListParam(request.url, 'channel_id:in');
    const trees = state.trees.filter(
      (t) =>
        (!ids || ids.includes(t.id)) && (!channels || t.channels.some((c) => channels.includes(c))),
    );
    return ok(paginate(trees, pageRequest(request.url), request.url));
  });

  router.on('PUT', '/v3/catalog/trees', (request) => {
    const items = parseBody(
      z
        .array(
          z.object({
            id: z.number().int().optional(),
            name: z.string().min(1).max(255).optional(),
            channels: z.array(z.number().int()).length(1).optional(),
          }),
        )
        .max(50),
      jsonBody(request),
    );
    const data = items.map((item) => {
      if (item.id !== undefined) {
        const tree = state.trees.find((t) => t.id === item.id);
        if (!tree) throw notFound(`Tree ${item.id}`);
        if (item.channels) throw new BcHttpError(422, 'channels cannot be changed on update');
        if (item.name) tree.name = item.name;
        return tree;
      }
      if (!item.name || !item.channels) {
        throw new BcHttpError(422, 'A new tree needs a name and one channel');
      }
      if (state.trees.some((t) => t.channels.includes(item.channels?.[0] ?? -1))) {
        throw new BcHttpError(422, 'The channel already has a category tree');
      }
      const tree = { id: state.nextId('tree', 2), name: item.name, channels: item.channels };
      state.trees.push(tree);
      return tree;
    });
    return ok({ data, meta: {} });
  });

  const treeCategoryFilter = (url: URL) => {
    const treeIds = intListParam(url, 'tree_id:in');
    const treeNot = intListParam(url, 'tree_id:not_in');
    const parentIds = intListParam(url, 'parent_id:in');
    const parentNot = intListParam(url, 'parent_id:not_in');
    const ids = intListParam(url, 'category_id:in');
    const idsNot = intListParam(url, 'category_id:not_in');
    const uuids = listParam(url, 'category_uuid:in');
    const name = url.searchParams.get('name');
    const nameLike = url.searchParams.get('name:like')?.toLowerCase();
    const keyword = url.searchParams.get('keyword')?.toLowerCase();
    const visible = boolParam(url, 'is_visible');
    return (c: BcCategory) =>
      (!treeIds || treeIds.includes(c.tree_id)) &&
      (!treeNot || !treeNot.includes(c.tree_id)) &&
      (!parentIds || parentIds.includes(c.parent_id)) &&
      (!parentNot || !parentNot.includes(c.parent_id)) &&
      (!ids || ids.includes(c.category_id)) &&
      (!idsNot || !idsNot.includes(c.category_id)) &&
      (!uuids || uuids.includes(c.category_uuid)) &&
      (name === null || c.name === name) &&
      (!nameLike || c.name.toLowerCase().includes(nameLike)) &&
      (!keyword || `${c.name} ${c.search_keywords}`.toLowerCase().includes(keyword)) &&
      (visible === undefined || c.is_visible === visible);
  };

  router.on('GET', '/v3/catalog/trees/categories', (request) => {
    const items = state.categories.filter(treeCategoryFilter(request.url));
    const page = paginate(items, pageRequest(request.url), request.url);
    return ok({
      data: page.data.map((c) => pickFields(request.url, 'category_id', treeCategoryJson(ctx, c))),
      meta: page.meta,
    });
  });

  // category-trees_catalog.v3.yml createCategories: 201 all created, 207 some, 422 none.
  router.on('POST', '/v3/catalog/trees/categories', (request) => {
    const items = arrayBody(request);
    const data: Record<string, unknown>[] = [];
    const errors: Record<string, string> = {};
    items.forEach((item, index) => {
      try {
        const input = parseBody(treeCategoryCreateSchema, item);
        data.push(treeCategoryJson(ctx, createCategory(ctx, input)));
      } catch (error) {
        if (!(error instanceof BcHttpError)) throw error;
        errors[`[${index}]`] = `${error.message}${
          Object.keys(error.errors).length ? `: ${JSON.stringify(error.errors)}` : ''
        }`;
      }
    });
    const meta = { total: items.length, success: data.length, failed: items.length - data.length };
    if (data.length === 0) {
      const type = 'https://developer.bigcommerce.com/api-docs/getting-started/api-status-codes';
      return ok(
        { errors: { status: 422, title: 'No category was created', type, errors }, meta },
        422,
      );
    }
    if (Object.keys(errors).length > 0) {
      return ok(
        {
          data,
          errors: {
            status: 207,
            title: 'Some categories were not created',
            type: 'about:blank',
            errors,
          },
          meta,
        },
        207,
      );
    }
    return ok({ data, meta }, 201);
  });

  router.on('PUT', '/v3/catalog/trees/categories', (request) => {
    const items = arrayBody(request).map((item) => parseBody(treeCategoryUpdateSchema, item));
    for (const item of items) updateCategory(ctx, item);
    return ok({ meta: { total: items.length, success: items.length, failed: 0 } });
  });

  router.on('DELETE', '/v3/catalog/trees/categories', (request) => {
    const ids = intListParam(request.url, 'category_id:in');
    if (!ids) throw new BcHttpError(422, 'A filter is required to delete categories');
    const doomed = new Set(ids);
    // Deleting a category deletes its subtree, as on the platform.
    let grew = true;
    while (grew) {
      grew = false;
      for (const c of state.categories) {
        if (!doomed.has(c.category_id) && doomed.has(c.parent_id)) {
          doomed.add(c.category_id);
          grew = true;
        }
      }
    }
    for (let i = state.categories.length - 1; i >= 0; i--) {
      const c = state.categories[i];
      if (c && doomed.has(c.category_id)) {
        state.categories.splice(i, 1);
        deleteMetafieldsOf(state, 'category', c.category_id);
      }
    }
    for (const p of state.products) p.categories = p.categories.filter((id) => !doomed.has(id));
    // category-trees_catalog.v3.yml deleteTreeCategories answers 202 "Categories are deleted".
    return { status: 202 };
  });

  router.on('GET', '/v3/catalog/trees/:tree_id/categories', (_request, params) => {
    const treeId = intId(params.tree_id, 'Tree');
    if (!state.trees.some((t) => t.id === treeId)) throw notFound(`Tree ${treeId}`);
    const node = (c: BcCategory): Record<string, unknown> => ({
      id: c.category_id,
      parent_id: c.parent_id,
      depth: 0,
      path: [],
      name: c.name,
      is_visible: c.is_visible,
      children: state.categories.filter((x) => x.parent_id === c.category_id).map(node),
      url: c.url.path,
    });
    return ok({
      data: state.categories.filter((c) => c.tree_id === treeId && c.parent_id === 0).map(node),
      meta: {},
    });
  });

  // ------------------------------------------------------------ categories (default tree)
  const defaultTree = () => state.trees.find((t) => t.channels.includes(1))?.id ?? 1;

  router.on('GET', '/v3/catalog/categories', (request) => {
    const url = request.url;
    const parentId = intParam(url, 'parent_id');
    const items = state.categories.filter(
      (c) =>
        c.tree_id === defaultTree() &&
        matchesNumber(c.category_id, url, 'id') &&
        (parentId === undefined || c.parent_id === parentId) &&
        (url.searchParams.get('name') === null || c.name === url.searchParams.get('name')),
    );
    const page = paginate(items, pageRequest(url), url);
    return ok({ data: page.data.map((c) => legacyCategoryJson(ctx, c)), meta: page.meta });
  });

  router.on('POST', '/v3/catalog/categories', (request) => {
    const body = parseBody(
      treeCategoryCreateSchema.omit({ tree_id: true, url: true }).extend({
        custom_url: z
          .object({ url: z.string().min(1), is_customized: z.boolean().optional() })
          .optional(),
      }),
      jsonBody(request),
    );
    const { custom_url: customUrl, ...rest } = body;
    const category = createCategory(ctx, {
      ...rest,
      tree_id: defaultTree(),
      url: customUrl ? { path: customUrl.url, is_customized: customUrl.is_customized } : undefined,
    });
    return ok({ data: legacyCategoryJson(ctx, category), meta: {} });
  });

  router.on('GET', '/v3/catalog/categories/metafields', (request) =>
    ok(listMetafields(state, 'category', request.url)),
  );
  router.on('POST', '/v3/catalog/categories/metafields', (request) => {
    const result = createMetafieldBatch(
      state,
      'category',
      jsonBody(request),
      (id) => state.categories.some((c) => c.category_id === id),
      ctx.now(),
    );
    return ok(result.body, result.status);
  });

  router.on('GET', '/v3/catalog/categories/:category_id', (_request, params) => {
    const id = intId(params.category_id, 'Category');
    const category = state.categories.find((c) => c.category_id === id);
    if (!category) throw notFound(`Category ${id}`);
    return ok({ data: legacyCategoryJson(ctx, category), meta: {} });
  });

  router.on('PUT', '/v3/catalog/categories/:category_id', (request, params) => {
    const id = intId(params.category_id, 'Category');
    const body = parseBody(
      treeCategoryUpdateSchema.omit({ category_id: true, tree_id: true, url: true }).extend({
        custom_url: z
          .object({ url: z.string().min(1), is_customized: z.boolean().optional() })
          .optional(),
      }),
      jsonBody(request),
    );
    const { custom_url: customUrl, ...rest } = body;
    const category = updateCategory(ctx, {
      ...rest,
      category_id: id,
      url: customUrl ? { path: customUrl.url, is_customized: customUrl.is_customized } : undefined,
    });
    return ok({ data: legacyCategoryJson(ctx, category), meta: {} });
  });

  router.on('GET', '/v3/catalog/categories/:category_id/metafields', (request, params) => {
    const id = intId(params.category_id, 'Category');
    if (!state.categories.some((c) => c.category_id === id)) throw notFound(`Category ${id}`);
    return ok(listMetafields(state, 'category', request.url, id));
  });
  router.on('POST', '/v3/catalog/categories/:category_id/metafields', (request, params) => {
    const id = intId(params.category_id, 'Category');
    if (!state.categories.some((c) => c.category_id === id)) throw notFound(`Category ${id}`);
    const input = parseBody(metafieldInputSchema, jsonBody(request));
    return ok({
      data: metafieldJson(createMetafield(state, 'category', id, input, ctx.now())),
      meta: {},
    });
  });

  // ------------------------------------------------------------ brands
  const brandOr404 = (params: Record<string, string | undefined>) => {
    const id = intId(params.brand_id, 'Brand');
    const brand = state.brands.find((b) => b.id === id);
    if (!brand) throw notFound(`Brand ${id}`);
    return brand;
  };
  router.on('GET', '/v3/catalog/brands', (request) => {
    const url = request.url;
    const name = url.searchParams.get('name');
    const like = url.searchParams.get('name:like')?.toLowerCase();
    const pageTitle = url.searchParams.get('page_title');
    let items = state.brands.filter(
      (b) =>
        matchesNumber(b.id, url, 'id') &&
        (name === null || b.name === name) &&
        (!like || b.name.toLowerCase().includes(like)) &&
        (pageTitle === null || b.page_title === pageTitle),
    );
    const sort = url.searchParams.get('sort');
    if (sort === 'name') items = [...items].sort((a, b) => a.name.localeCompare(b.name));
    else items = [...items].sort((a, b) => a.id - b.id);
    if (url.searchParams.get('direction') === 'desc') items = [...items].reverse();
    const page = paginate(items, pageRequest(url), url);
    return ok({
      data: page.data.map((b) => pickFields(url, 'id', brandJson(ctx, b))),
      meta: page.meta,
    });
  });
  router.on('POST', '/v3/catalog/brands', (request) => {
    const brand = createBrand(ctx, parseBody(brandCreateSchema, jsonBody(request)));
    return ok({ data: brandJson(ctx, brand), meta: {} });
  });
  // Deletes the brands of a name (required) and, when given, page title.
  router.on('DELETE', '/v3/catalog/brands', (request) => {
    const name = request.url.searchParams.get('name');
    if (name === null) throw new BcHttpError(422, 'name is required', { name: 'required' });
    const pageTitle = request.url.searchParams.get('page_title');
    for (const brand of state.brands.filter(
      (b) => b.name === name && (pageTitle === null || b.page_title === pageTitle),
    ))
      deleteBrand(state, brand);
    return { status: 204 };
  });
  router.on('GET', '/v3/catalog/brands/metafields', (request) =>
    ok(listMetafields(state, 'brand', request.url)),
  );
  router.on('POST', '/v3/catalog/brands/metafields', (request) => {
    const result = createMetafieldBatch(
      state,
      'brand',
      jsonBody(request),
      (id) => state.brands.some((b) => b.id === id),
      ctx.now(),
    );
    return ok(result.body, result.status);
  });
  router.on('GET', '/v3/catalog/brands/:brand_id', (request, params) => {
    return ok({
      data: pickFields(request.url, 'id', brandJson(ctx, brandOr404(params))),
      meta: {},
    });
  });
  router.on('PUT', '/v3/catalog/brands/:brand_id', (request, params) => {
    const brand = brandOr404(params);
    updateBrand(ctx, brand, parseBody(brandUpdateSchema, jsonBody(request)));
    return ok({ data: brandJson(ctx, brand), meta: {} });
  });
  router.on('DELETE', '/v3/catalog/brands/:brand_id', (_request, params) => {
    deleteBrand(state, brandOr404(params));
    return { status: 204 };
  });
  router.on('POST', '/v3/catalog/brands/:brand_id/image', (request, params) => {
    const brand = brandOr404(params);
    const type = request.headers['content-type'];
    const imageUrl = uploadBrandImage(
      ctx,
      brand,
      typeof type === 'string' ? type : undefined,
      request.body,
    );
    return ok({ data: { image_url: imageUrl }, meta: {} });
  });
  router.on('DELETE', '/v3/catalog/brands/:brand_id/image', (_request, params) => {
    brandOr404(params).image_path = '';
    return { status: 204 };
  });
  router.on('GET', '/v3/catalog/brands/:brand_id/metafields', (request, params) => {
    const brand = brandOr404(params);
    return ok(listMetafields(state, 'brand', request.url, brand.id));
  });
  router.on('POST', '/v3/catalog/brands/:brand_id/metafields', (request, params) => {
    const brand = brandOr404(params);
    const input = parseBody(metafieldInputSchema, jsonBody(request));
    return ok({
      data: metafieldJson(createMetafield(state, 'brand', brand.id, input, ctx.now())),
      meta: {},
    });
  });
  const brandMetafieldOr404 = (params: Record<string, string | undefined>) => {
    const brand = brandOr404(params);
    const id = intId(params.metafield_id, 'Metafield');
    const metafield = state.metafields.find(
      (m) => m.id === id && m.resource_type === 'brand' && m.resource_id === brand.id,
    );
    if (!metafield) throw notFound(`Metafield ${id}`);
    return metafield;
  };
  router.on('GET', '/v3/catalog/brands/:brand_id/metafields/:metafield_id', (_request, params) =>
    ok({ data: metafieldJson(brandMetafieldOr404(params)), meta: {} }),
  );
  router.on('PUT', '/v3/catalog/brands/:brand_id/metafields/:metafield_id', (request, params) => {
    const metafield = brandMetafieldOr404(params);
    const input = parseBody(metafieldInputSchema.partial(), jsonBody(request));
    const clash = state.metafields.find(
      (m) =>
        m !== metafield &&
        m.resource_type === 'brand' &&
        m.resource_id === metafield.resource_id &&
        m.namespace === (input.namespace ?? metafield.namespace) &&
        m.key === (input.key ?? metafield.key),
    );
    if (clash) {
      throw new BcHttpError(409, 'A metafield with this namespace and key already exists', {
        key: `metafield ${clash.id}`,
      });
    }
    Object.assign(metafield, input, { date_modified: ctx.now() });
    return ok({ data: metafieldJson(metafield), meta: {} });
  });
  router.on(
    'DELETE',
    '/v3/catalog/brands/:brand_id/metafields/:metafield_id',
    (_request, params) => {
      const metafield = brandMetafieldOr404(params);
      state.metafields.splice(state.metafields.indexOf(metafield), 1);
      return { status: 204 };
    },
  );

  // ------------------------------------------------------------ products
  router.on('GET', '/v3/catalog/products', (request) => {
    const url = request.url;
    const include = includeSet(url);
    const skus = listParam(url, 'sku:in')?.map((s) => s.toLowerCase());
    const sku = url.searchParams.get('sku')?.toLowerCase();
    const name = url.searchParams.get('name');
    const keyword = url.searchParams.get('keyword')?.toLowerCase();
    const categories = intListParam(url, 'categories:in') ?? intListParam(url, 'categories');
    const brandId = intParam(url, 'brand_id');
    const visible = boolParam(url, 'is_visible');
    const type = url.searchParams.get('type');
    const modifiedMin = url.searchParams.get('date_modified:min');
    let items = state.products.filter(
      (p) =>
        matchesNumber(p.id, url, 'id') &&
        (!skus || skus.includes(p.sku.toLowerCase())) &&
        (sku === undefined || p.sku.toLowerCase() === sku) &&
        (name === null || p.name === name) &&
        (!keyword || `${p.name} ${p.sku} ${p.search_keywords}`.toLowerCase().includes(keyword)) &&
        (!categories || p.categories.some((c) => categories.includes(c))) &&
        (brandId === undefined || p.brand_id === brandId) &&
        (visible === undefined || p.is_visible === visible) &&
        (type === null || p.type === type) &&
        (!modifiedMin || p.date_modified >= Date.parse(modifiedMin)),
    );
    const sort = url.searchParams.get('sort');
    if (sort === 'name' || sort === 'sku') {
      items = [...items].sort((a, b) => a[sort].localeCompare(b[sort]));
    } else if (
      sort === 'id' ||
      sort === 'price' ||
      sort === 'date_modified' ||
      sort === 'inventory_level'
    ) {
      items = [...items].sort((a, b) => a[sort] - b[sort]);
    }
    if (url.searchParams.get('direction') === 'desc') items = [...items].reverse();
    // products_catalog.v3.yml IncludeParamGetProducts: with options or modifiers, 10 per page.
    const max = include.has('options') || include.has('modifiers') ? 10 : 250;
    const page = paginate(items, pageRequest(url, 50, max), url);
    return ok({
      data: page.data.map((p) => pickFields(url, 'id', productJson(ctx, p, include))),
      meta: page.meta,
    });
  });

  // products_catalog.v3.yml deleteProducts: a filter is required (so that no call deletes every
  // product) and at most 250 products go at a time. Each product takes its variants, images,
  // reviews and metafields along (deleteProduct). 204 whether or not the ids existed.
  router.on('DELETE', '/v3/catalog/products', (request) => {
    const url = request.url;
    const ids = intListParam(url, 'id:in');
    const filtered = [...url.searchParams.keys()].length > 0;
    if (!filtered) throw new BcHttpError(422, 'A filter is required to delete products');
    if (ids && ids.length > 250)
      throw new BcHttpError(422, 'At most 250 products can be deleted at one time', {
        'id:in': 'lists more than 250 products',
      });
    const name = url.searchParams.get('name');
    const sku = url.searchParams.get('sku')?.toLowerCase();
    const brandId = intParam(url, 'brand_id');
    const doomed = state.products.filter(
      (p) =>
        (!ids || ids.includes(p.id)) &&
        (name === null || p.name === name) &&
        (sku === undefined || p.sku.toLowerCase() === sku) &&
        (brandId === undefined || p.brand_id === brandId),
    );
    if (doomed.length > 250)
      throw new BcHttpError(422, 'At most 250 products can be deleted at one time');
    for (const product of doomed) deleteProduct(ctx, product);
    return { status: 204 };
  });

  router.on('POST', '/v3/catalog/products', (request) => {
    const body = jsonBody(request);
    if (Array.isArray(body)) {
      throw new BcHttpError(422, 'Only one product can be created at a time');
    }
    const product = createProduct(ctx, parseBody(productCreateSchema, body));
    return ok({
      data: productJson(ctx, product, new Set(['variants', 'images', 'custom_fields'])),
      meta: {},
    });
  });

  // products_catalog.v3.yml updateProducts: batches are limited to 10 products.
  router.on('PUT', '/v3/catalog/products', (request) => {
    const items = arrayBody(request);
    if (items.length > 10) throw new BcHttpError(413, 'At most 10 products can be updated at once');
    const parsed = items.map((item) =>
      parseBody(productUpdateSchema.and(z.object({ id: z.number().int() })), item),
    );
    const data = parsed.map((item) => {
      const product = state.product(item.id);
      if (!product) throw notFound(`Product ${item.id}`);
      const { id: _id, ...changes } = item;
      return productJson(ctx, updateProduct(ctx, product, changes));
    });
    return ok({ data, meta: {} });
  });

  router.on('GET', '/v3/catalog/products/metafields', (request) =>
    ok(listMetafields(state, 'product', request.url)),
  );
  router.on('POST', '/v3/catalog/products/metafields', (request) => {
    const result = createMetafieldBatch(
      state,
      'product',
      jsonBody(request),
      (id) => state.product(id) !== undefined,
      ctx.now(),
    );
    return ok(result.body, result.status);
  });

  router.on('GET', '/v3/catalog/products/:product_id', (request, params) => {
    const product = productOr404(params);
    return ok({
      data: pickFields(request.url, 'id', productJson(ctx, product, includeSet(request.url))),
      meta: {},
    });
  });
  router.on('PUT', '/v3/catalog/products/:product_id', (request, params) => {
    const product = productOr404(params);
    updateProduct(ctx, product, parseBody(productUpdateSchema, jsonBody(request)));
    return ok({ data: productJson(ctx, product), meta: {} });
  });
  router.on('DELETE', '/v3/catalog/products/:product_id', (_request, params) => {
    deleteProduct(ctx, productOr404(params));
    return { status: 204 };
  });

  router.on('GET', '/v3/catalog/products/:product_id/variants', (request, params) => {
    const product = productOr404(params);
    const page = paginate(product.variants, pageRequest(request.url), request.url);
    return ok({ data: page.data.map((v) => variantJson(ctx, product, v)), meta: page.meta });
  });
  router.on('POST', '/v3/catalog/products/:product_id/variants', (request, params) => {
    const product = productOr404(params);
    const variant = addVariantRoute(ctx, product, parseBody(variantInputSchema, jsonBody(request)));
    return ok({ data: variantJson(ctx, product, variant), meta: {} });
  });
  router.on('GET', '/v3/catalog/products/:product_id/variants/:variant_id', (_request, params) => {
    const product = productOr404(params);
    const id = intId(params.variant_id, 'Variant');
    const variant = product.variants.find((v) => v.id === id);
    if (!variant) throw notFound(`Variant ${id}`);
    return ok({ data: variantJson(ctx, product, variant), meta: {} });
  });
  router.on('PUT', '/v3/catalog/products/:product_id/variants/:variant_id', (request, params) => {
    const product = productOr404(params);
    const id = intId(params.variant_id, 'Variant');
    const variant = product.variants.find((v) => v.id === id);
    if (!variant) throw notFound(`Variant ${id}`);
    const input = parseBody(variantUpdateSchema, jsonBody(request));
    return ok({
      data: variantJson(ctx, product, updateVariant(ctx, product, variant, input)),
      meta: {},
    });
  });

  router.on('GET', '/v3/catalog/variants', (request) => {
    const url = request.url;
    const productIds = intListParam(url, 'product_id:in');
    const sku = url.searchParams.get('sku')?.toLowerCase();
    const id = intParam(url, 'id');
    const items = state.products
      .filter((p) => !productIds || productIds.includes(p.id))
      .flatMap((p) => p.variants.map((v) => ({ p, v })))
      .filter(
        ({ p, v }) =>
          (id === undefined || v.id === id) &&
          (sku === undefined || (v.option_value_ids.length ? v.sku : p.sku).toLowerCase() === sku),
      );
    const page = paginate(items, pageRequest(url), url);
    return ok({ data: page.data.map(({ p, v }) => variantJson(ctx, p, v, true)), meta: page.meta });
  });

  const variantExists = (id: number) =>
    state.products.some((p) => p.variants.some((v) => v.id === id));
  router.on('GET', '/v3/catalog/variants/metafields', (request) =>
    ok(listMetafields(state, 'variant', request.url)),
  );
  router.on('POST', '/v3/catalog/variants/metafields', (request) => {
    const result = createMetafieldBatch(
      state,
      'variant',
      jsonBody(request),
      variantExists,
      ctx.now(),
    );
    return ok(result.body, result.status);
  });

  router.on('GET', '/v3/catalog/products/:product_id/options', (request, params) => {
    const product = productOr404(params);
    const page = paginate(product.options, pageRequest(request.url), request.url);
    return ok({ data: page.data.map(optionJson), meta: page.meta });
  });
  router.on('POST', '/v3/catalog/products/:product_id/options', (request, params) => {
    const product = productOr404(params);
    const option = createOption(ctx, product, parseBody(optionCreateSchema, jsonBody(request)));
    return ok({ data: optionJson(option), meta: {} });
  });
  router.on('GET', '/v3/catalog/products/:product_id/options/:option_id', (_request, params) => {
    const product = productOr404(params);
    const id = intId(params.option_id, 'Option');
    const option = product.options.find((o) => o.id === id);
    if (!option) throw notFound(`Option ${id}`);
    return ok({ data: optionJson(option), meta: {} });
  });
  router.on('PUT', '/v3/catalog/products/:product_id/options/:option_id', (request, params) => {
    const product = productOr404(params);
    const id = intId(params.option_id, 'Option');
    const option = product.options.find((o) => o.id === id);
    if (!option) throw notFound(`Option ${id}`);
    const input = parseBody(optionUpdateSchema, jsonBody(request));
    const json = optionJson(updateOption(ctx, product, option, input));
    // The answer's schema (updateProductVariantOption) has value_data as an object, never null.
    json.option_values = (json.option_values as Record<string, unknown>[]).map(
      ({ value_data: data, ...value }) => (data === null ? value : { ...value, value_data: data }),
    );
    return ok({ data: json, meta: {} });
  });
  router.on(
    'GET',
    '/v3/catalog/products/:product_id/options/:option_id/values',
    (request, params) => {
      const product = productOr404(params);
      const id = intId(params.option_id, 'Option');
      const option = product.options.find((o) => o.id === id);
      if (!option) throw notFound(`Option ${id}`);
      const page = paginate(option.option_values, pageRequest(request.url), request.url);
      return ok({
        data: page.data.map((v) => ({ ...v, value_data: null })),
        meta: page.meta,
      });
    },
  );

  router.on('GET', '/v3/catalog/products/:product_id/images', (request, params) => {
    const product = productOr404(params);
    const page = paginate(product.images, pageRequest(request.url), request.url);
    return ok({ data: page.data.map((i) => imageJson(ctx, i)), meta: page.meta });
  });
  // products_catalog.v3.yml createProductImage: one image per call.
  router.on('POST', '/v3/catalog/products/:product_id/images', (request, params) => {
    const product = productOr404(params);
    const body = jsonBody(request);
    if (Array.isArray(body)) throw new BcHttpError(422, 'Only one image can be created at a time');
    const image = addImage(ctx, product, parseBody(imageInputSchema, body));
    return ok({ data: imageJson(ctx, image), meta: {} });
  });
  router.on('DELETE', '/v3/catalog/products/:product_id/images/:image_id', (_request, params) => {
    const product = productOr404(params);
    const id = intId(params.image_id, 'Image');
    const index = product.images.findIndex((i) => i.id === id);
    if (index < 0) throw notFound(`Image ${id}`);
    product.images.splice(index, 1);
    return { status: 204 };
  });

  router.on('GET', '/v3/catalog/products/:product_id/bulk-pricing-rules', (request, params) => {
    const product = productOr404(params);
    return ok(paginate(product.bulk_pricing_rules, pageRequest(request.url), request.url));
  });
  router.on('POST', '/v3/catalog/products/:product_id/bulk-pricing-rules', (request, params) => {
    const product = productOr404(params);
    const rule = addBulkPricingRule(
      ctx,
      product,
      parseBody(bulkPricingRuleInputSchema, jsonBody(request)),
    );
    return ok({ data: rule, meta: {} });
  });

  router.on('GET', '/v3/catalog/products/:product_id/custom-fields', (request, params) => {
    const product = productOr404(params);
    return ok(paginate(product.custom_fields, pageRequest(request.url), request.url));
  });
  router.on('POST', '/v3/catalog/products/:product_id/custom-fields', (request, params) => {
    const product = productOr404(params);
    const field = addCustomField(
      ctx,
      product,
      parseBody(customFieldInputSchema, jsonBody(request)),
    );
    return ok({ data: field, meta: {} });
  });

  // products_catalog.v3.yml Reviews: list (page/limit, status 0 pending or 1 approved), create,
  // get, update and delete (reviews.ts).
  const reviewOr404 = (product: BcProduct, params: Record<string, string>) => {
    const id = intId(params.review_id, 'Review');
    const review = state.reviews.find((r) => r.id === id && r.product_id === product.id);
    if (!review) throw notFound(`Review ${id}`);
    return review;
  };
  // include_fields/exclude_fields keep the id and the fields the answer requires.
  const reviewFields = (url: URL, review: BcReview) => {
    const json = reviewJson(review);
    return { ...pickFields(url, 'id', json), title: json.title, date_reviewed: json.date_reviewed };
  };
  router.on('GET', '/v3/catalog/products/:product_id/reviews', (request, params) => {
    const product = productOr404(params);
    const url = request.url;
    const all = reviewsOf(ctx, product.id);
    // getProductReviews: 204 "There are no reviews on this product."
    if (all.length === 0) return { status: 204 };
    const status = intParam(url, 'status');
    if (status !== undefined && status !== 0 && status !== 1)
      throw new BcHttpError(422, 'The query parameter status must be 0 or 1');
    const wanted = status === undefined ? undefined : status === 1 ? 'approved' : 'pending';
    const items = all.filter((r) => wanted === undefined || r.status === wanted);
    const page = paginate(items, pageRequest(url), url);
    return ok({ data: page.data.map((r) => reviewFields(url, r)), meta: page.meta });
  });
  router.on('POST', '/v3/catalog/products/:product_id/reviews', (request, params) => {
    const product = productOr404(params);
    const review = createReview(ctx, product, parseBody(reviewCreateSchema, jsonBody(request)));
    return ok({ data: reviewJson(review), meta: {} });
  });
  router.on('GET', '/v3/catalog/products/:product_id/reviews/:review_id', (request, params) => {
    const review = reviewOr404(productOr404(params), params);
    return ok({ data: reviewFields(request.url, review), meta: {} });
  });
  router.on('PUT', '/v3/catalog/products/:product_id/reviews/:review_id', (request, params) => {
    const product = productOr404(params);
    const review = reviewOr404(product, params);
    updateReview(ctx, product, review, parseBody(reviewUpdateSchema, jsonBody(request)));
    return ok({ data: reviewJson(review), meta: {} });
  });
  router.on('DELETE', '/v3/catalog/products/:product_id/reviews/:review_id', (_request, params) => {
    const product = productOr404(params);
    deleteReview(ctx, product, reviewOr404(product, params));
    return { status: 204 };
  });

  router.on('GET', '/v3/catalog/products/:product_id/metafields', (request, params) => {
    const product = productOr404(params);
    return ok(listMetafields(state, 'product', request.url, product.id));
  });
  router.on('POST', '/v3/catalog/products/:product_id/metafields', (request, params) => {
    const product = productOr404(params);
    const input = parseBody(metafieldInputSchema, jsonBody(request));
    return ok({
      data: metafieldJson(createMetafield(state, 'product', product.id, input, ctx.now())),
      meta: {},
    });
  });

  // ------------------------------------------------------------ customers
  router.on('GET', '/v3/customers', (request) => {
    const url = request.url;
    const ids = intListParam(url, 'id:in');
    const emails = listParam(url, 'email:in')?.map((e) => e.toLowerCase());
    const names = listParam(url, 'name:in')?.map((n) => n.toLowerCase());
    const likes = listParam(url, 'name:like')?.map((n) => n.toLowerCase());
    const companies = listParam(url, 'company:in')?.map((n) => n.toLowerCase());
    const createdMin = url.searchParams.get('date_created:min');
    const createdMax = url.searchParams.get('date_created:max');
    const modifiedMin = url.searchParams.get('date_modified:min');
    let items = state.customers.filter((c) => {
      const full = `${c.first_name} ${c.last_name}`.toLowerCase();
      return (
        (!ids || ids.includes(c.id)) &&
        (!emails || emails.includes(c.email.toLowerCase())) &&
        (!names || names.includes(full)) &&
        (!likes || likes.some((l) => full.includes(l))) &&
        (!companies || companies.includes(c.company.toLowerCase())) &&
        (!createdMin || c.date_created >= Date.parse(createdMin)) &&
        (!createdMax || c.date_created <= Date.parse(createdMax)) &&
        (!modifiedMin || c.date_modified >= Date.parse(modifiedMin))
      );
    });
    const sort = url.searchParams.get('sort');
    if (sort) {
      const [field, direction] = sort.split(':');
      const key = (c: BcCustomer) =>
        field === 'last_name'
          ? c.last_name
          : field === 'date_modified'
            ? c.date_modified
            : c.date_created;
      items = [...items].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
      if (direction === 'desc') items.reverse();
    }
    const include = includeSet(url);
    const page = paginate(items, pageRequest(url), url);
    return ok({ data: page.data.map((c) => customerJson(c, include)), meta: page.meta });
  });

  router.on('POST', '/v3/customers', (request) => {
    const items = arrayBody(request);
    return customerWrite(() => {
      const inputs = items.map((item) => parseBody(customerCreateSchema, item));
      const created = createCustomers(state, inputs, ctx.now());
      return ok({ data: created.map((c) => customerJson(c, new Set(['addresses']))), meta: {} });
    });
  });

  router.on('PUT', '/v3/customers', (request) => {
    const items = arrayBody(request);
    return customerWrite(() => {
      const inputs = items.map((item) => parseBody(customerUpdateSchema, item));
      const updated = updateCustomers(state, inputs, ctx.now());
      return ok({ data: updated.map((c) => customerJson(c, new Set())), meta: {} });
    });
  });

  router.on('DELETE', '/v3/customers', (request) => {
    const ids = intListParam(request.url, 'id:in');
    if (!ids) throw new BcHttpError(422, 'id:in is required');
    for (const id of ids) {
      const index = state.customers.findIndex((c) => c.id === id);
      if (index >= 0) {
        state.customers.splice(index, 1);
        deleteMetafieldsOf(state, 'customer', id);
      }
    }
    return { status: 204 };
  });

  router.on('GET', '/v3/customers/addresses', (request) => {
    const url = request.url;
    const customerIds = intListParam(url, 'customer_id:in');
    const ids = intListParam(url, 'id:in');
    const items = state.customers
      .filter((c) => !customerIds || customerIds.includes(c.id))
      .flatMap((c) => c.addresses)
      .filter((a) => !ids || ids.includes(a.id));
    const page = paginate(items, pageRequest(url), url);
    const withFormFields = includeSet(url).has('formfields');
    return ok({ data: page.data.map((a) => addressJson(a, withFormFields)), meta: page.meta });
  });

  router.on('POST', '/v3/customers/addresses', (request) => {
    const items = arrayBody(request).map((item) =>
      parseBody(addressInputSchema.extend({ customer_id: z.number().int() }), item),
    );
    const data = items.map((item) => {
      const customer = state.customers.find((c) => c.id === item.customer_id);
      if (!customer) throw new BcHttpError(422, `Customer ${item.customer_id} not found`);
      if (customer.addresses.length >= 10) {
        throw new BcHttpError(422, 'A customer can have at most 10 addresses');
      }
      const address = newAddress(state, customer.id, item);
      customer.addresses.push(address);
      return addressJson(address, true);
    });
    return ok({ data, meta: {} });
  });

  router.on('GET', '/v3/customers/attributes', (request) => {
    const url = request.url;
    const name = url.searchParams.get('name');
    const like = url.searchParams.get('name:like')?.toLowerCase();
    const type = url.searchParams.get('type');
    const items = state.customerAttributes.filter(
      (a) =>
        (name === null || a.name === name) &&
        (!like || a.name.toLowerCase().includes(like)) &&
        (type === null || a.type === type),
    );
    const page = paginate(items, pageRequest(url), url);
    return ok({ data: page.data.map(attributeJson), meta: page.meta });
  });
  // customers.v3.yml deleteCustomerAttributes: id:in is required; an attribute takes every
  // customer's value of it along. 204 whether or not the ids existed.
  router.on('DELETE', '/v3/customers/attributes', (request) => {
    const ids = intListParam(request.url, 'id:in');
    if (!ids?.length) throw new BcHttpError(422, 'id:in is required', { 'id:in': 'required' });
    const kept = state.customerAttributes.filter((a) => !ids.includes(a.id));
    state.customerAttributes.splice(0, state.customerAttributes.length, ...kept);
    for (const customer of state.customers)
      customer.attributes = customer.attributes.filter((v) => !ids.includes(v.attribute_id));
    return { status: 204 };
  });
  // customers.v3.yml getCustomersAttributeValues: the values customers hold, by attribute or
  // customer.
  router.on('GET', '/v3/customers/attribute-values', (request) => {
    const url = request.url;
    const attributes = intListParam(url, 'attribute_id:in');
    const customers = intListParam(url, 'customer_id:in');
    const items = state.customers.flatMap((c) =>
      !customers || customers.includes(c.id)
        ? c.attributes
            .filter((v) => !attributes || attributes.includes(v.attribute_id))
            .map((v) => ({ customer: c, value: v }))
        : [],
    );
    const page = paginate(items, pageRequest(url), url);
    return ok({
      data: page.data.map(({ customer, value }) => ({
        id: value.id,
        customer_id: customer.id,
        attribute_id: value.attribute_id,
        attribute_value: value.attribute_value,
        date_created: v3Date(value.date_created),
        date_modified: v3Date(value.date_modified),
      })),
      meta: page.meta,
    });
  });
  router.on('POST', '/v3/customers/attributes', (request) => {
    const inputs = arrayBody(request).map((item) => parseBody(attributeCreateSchema, item));
    return ok({ data: createAttributes(state, inputs, ctx.now()).map(attributeJson), meta: {} });
  });

  router.on('GET', '/v3/customers/metafields', (request) =>
    ok(listMetafields(state, 'customer', request.url)),
  );
  router.on('POST', '/v3/customers/metafields', (request) => {
    const result = createMetafieldBatch(
      state,
      'customer',
      jsonBody(request),
      (id) => state.customers.some((c) => c.id === id),
      ctx.now(),
    );
    return ok(result.body, result.status);
  });

  router.on('GET', '/v3/customers/:customer_id/consent', (_request, params) =>
    ok(consentJson(customerOr404(params))),
  );
  router.on('PUT', '/v3/customers/:customer_id/consent', (request, params) => {
    const customer = customerOr404(params);
    setConsent(customer, parseBody(consentSchema, jsonBody(request)), ctx.now());
    return ok(consentJson(customer));
  });

  router.on('GET', '/v3/customers/:customer_id/metafields', (request, params) => {
    const customer = customerOr404(params);
    return ok(listMetafields(state, 'customer', request.url, customer.id));
  });
  router.on('POST', '/v3/customers/:customer_id/metafields', (request, params) => {
    const customer = customerOr404(params);
    const input = parseBody(metafieldInputSchema, jsonBody(request));
    return ok({
      data: metafieldJson(createMetafield(state, 'customer', customer.id, input, ctx.now())),
      meta: {},
    });
  });

  // ------------------------------------------------------------ v2 store and orders
  router.on('GET', '/v2/store', () => {
    const s = state.settings;
    return ok({
      id: ctx.storeHash,
      account_uuid: '8d4d492f-17a1-4d95-b396-e1c5720815a5',
      domain: `${ctx.storeHash}.mybigcommerce.com`,
      // The storefront of a sandbox store is the emulator itself: it serves /product_images/.
      secure_url: ctx.baseUrl(),
      control_panel_base_url: `https://store-${ctx.storeHash}.mybigcommerce.com`,
      status: 'live',
      name: s.name,
      first_name: 'Sandbox',
      last_name: 'Owner',
      address: '',
      country: 'United States',
      country_code: 'US',
      phone: '',
      admin_email: 'owner@example.com',
      order_email: 'orders@example.com',
      favicon_url: '',
      timezone: {
        name: 'Etc/UTC',
        raw_offset: 0,
        dst_offset: 0,
        dst_correction: false,
        date_format: { display: 'M jS Y', export: 'M jS Y', extended_display: 'M jS Y @ g:i A' },
      },
      language: 'en',
      currency: s.currency,
      currency_symbol: s.currency === 'EUR' ? '€' : s.currency === 'GBP' ? '£' : '$',
      decimal_separator: '.',
      thousands_separator: ',',
      decimal_places: 2,
      currency_symbol_location: 'left',
      weight_units: s.weightUnits,
      dimension_units: s.dimensionUnits,
      dimension_decimal_places: 2,
      dimension_decimal_token: '.',
      dimension_thousands_token: ',',
      plan_name: s.planName,
      plan_level: s.planName,
      plan_is_trial: false,
      industry: 'Retail',
      logo: [],
      is_price_entered_with_tax: false,
      store_id: 1001,
      default_channel_id: 1,
      default_site_id: defaultSiteId,
      active_comparison_modules: [],
      features: {
        stencil_enabled: true,
        sitewidehttps_enabled: true,
        facebook_catalog_id: '',
        checkout_type: 'optimized',
        wishlists_enabled: true,
        graphql_storefront_api_enabled: true,
        shopper_consent_tracking_enabled: true,
        multi_storefront_enabled: false,
        storefront_limits: { active: 1, total_including_inactive: 1 },
      },
    });
  });
  router.on('GET', '/v2/time', () => ok({ time: Math.floor(ctx.now() / 1000) }));

  router.on('GET', '/v2/order_statuses', () =>
    ok(
      orderStatuses.map((s) => ({
        id: s.id,
        name: s.name,
        system_label: s.name,
        custom_label: s.name,
        system_description: s.description,
        order: s.order,
      })),
    ),
  );

  const orderFilter = (url: URL) => {
    const min = intParam(url, 'min_id');
    const max = intParam(url, 'max_id');
    const customer = intParam(url, 'customer_id');
    const status = intParam(url, 'status_id');
    const email = url.searchParams.get('email')?.toLowerCase();
    const external = url.searchParams.get('external_order_id');
    const createdMin = url.searchParams.get('min_date_created');
    const createdMax = url.searchParams.get('max_date_created');
    return (o: (typeof state.orders)[number]) =>
      (min === undefined || o.id >= min) &&
      (max === undefined || o.id <= max) &&
      (customer === undefined || o.customer_id === customer) &&
      (status === undefined || o.status_id === status) &&
      (email === undefined || o.billing_address.email.toLowerCase() === email) &&
      (external === null || o.external_order_id === external) &&
      (!createdMin || o.date_created >= Date.parse(createdMin)) &&
      (!createdMax || o.date_created <= Date.parse(createdMax));
  };

  router.on('GET', '/v2/orders/count', (request) => {
    const items = state.orders.filter(orderFilter(request.url));
    return ok({
      statuses: orderStatuses.map((s) => ({
        id: s.id,
        name: s.name,
        system_label: s.name,
        custom_label: s.name,
        system_description: s.description,
        count: items.filter((o) => o.status_id === s.id).length,
        sort_order: s.order,
      })),
      count: items.length,
    });
  });

  router.on('GET', '/v2/orders', (request) => {
    const url = request.url;
    let items = state.orders.filter(orderFilter(url));
    const sort = url.searchParams.get('sort');
    if (sort) {
      const [field, direction] = sort.split(':');
      if (
        field === 'date_created' ||
        field === 'date_modified' ||
        field === 'status_id' ||
        field === 'customer_id'
      ) {
        items = [...items].sort((a, b) => a[field] - b[field]);
      }
      if (direction === 'desc') items.reverse();
    }
    const { page, limit } = pageRequest(url, 50, 250);
    const include = includeSet(url);
    return ok(items.slice((page - 1) * limit, page * limit).map((o) => orderJson(ctx, o, include)));
  });

  router.on('POST', '/v2/orders', (request) => {
    const order = createOrder(ctx, parseBody(orderCreateSchema, jsonBody(request)));
    return ok(orderJson(ctx, order));
  });

  const orderOr404 = (params: Record<string, string>) => {
    const id = intId(params.order_id, 'Order');
    const order = state.orders.find((o) => o.id === id);
    if (!order) throw notFound(`Order ${id}`);
    return order;
  };
  router.on('GET', '/v2/orders/:order_id', (request, params) =>
    ok(orderJson(ctx, orderOr404(params), includeSet(request.url))),
  );
  // orders.v2.oas2.yml deleteAnOrder "Archives an order": the store keeps it among its archived
  // orders, which GET /v2/orders, the count and GET /v2/orders/{id} no longer answer.
  router.on('DELETE', '/v2/orders/:order_id', (_request, params) => {
    const order = orderOr404(params);
    state.orders.splice(state.orders.indexOf(order), 1);
    state.archivedOrders.push(order);
    return { status: 204 };
  });
  router.on('GET', '/v2/orders/:order_id/fees', (_request, params) =>
    ok({ fees: orderOr404(params).fees.map(orderFeeJson) }),
  );
  router.on('PUT', '/v2/orders/:order_id', (request, params) => {
    const order = orderOr404(params);
    const changes = parseBody(
      z.object({
        status_id: z.number().int().min(0).max(14).optional(),
        staff_notes: z.string().optional(),
        customer_message: z.string().optional(),
        external_order_id: z.string().optional(),
      }),
      jsonBody(request),
    );
    Object.assign(
      order,
      Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)),
    );
    order.date_modified = ctx.now();
    return ok(orderJson(ctx, order));
  });
  router.on('GET', '/v2/orders/:order_id/products', (request, params) => {
    const order = orderOr404(params);
    const { page, limit } = pageRequest(request.url, 50, 250);
    return ok(
      order.products.slice((page - 1) * limit, page * limit).map((p) => orderProductJson(order, p)),
    );
  });
  router.on('GET', '/v2/orders/:order_id/shipping_addresses', (request, params) => {
    const order = orderOr404(params);
    const { page, limit } = pageRequest(request.url, 50, 250);
    return ok(
      order.shipping_addresses
        .slice((page - 1) * limit, page * limit)
        .map((a) => orderShippingAddressJson(ctx, order, a)),
    );
  });
  router.on('GET', '/v2/orders/:order_id/coupons', (request, params) => {
    const order = orderOr404(params);
    const { page, limit } = pageRequest(request.url, 50, 250);
    return ok(orderCouponJson(order).slice((page - 1) * limit, page * limit));
  });

  // ------------------------------------------------------------------ coupons (marketing.v2)
  const couponFilter = (url: URL) => {
    const id = intParam(url, 'id');
    const min = intParam(url, 'min_id');
    const max = intParam(url, 'max_id');
    const code = url.searchParams.get('code')?.toLowerCase();
    const name = url.searchParams.get('name')?.toLowerCase();
    const type = url.searchParams.get('type');
    const excluded = url.searchParams.get('exclude_type');
    return (c: (typeof state.coupons)[number]) =>
      (id === undefined || c.id === id) &&
      (min === undefined || c.id >= min) &&
      (max === undefined || c.id <= max) &&
      (code === undefined || c.code.toLowerCase() === code) &&
      (name === undefined || c.name.toLowerCase() === name) &&
      (type === null || c.type === type) &&
      (excluded === null || c.type !== excluded);
  };
  const couponOr404 = (params: Record<string, string>) => {
    const id = intId(params.coupon_id, 'Coupon');
    const coupon = state.coupons.find((c) => c.id === id);
    if (!coupon) throw notFound(`Coupon ${id}`);
    return coupon;
  };
  router.on('GET', '/v2/coupons/count', () => ok({ count: state.coupons.length }));
  router.on('GET', '/v2/coupons', (request) => {
    const items = state.coupons.filter(couponFilter(request.url)).sort((a, b) => a.id - b.id);
    const { page, limit } = pageRequest(request.url, 50, 250);
    return ok(items.slice((page - 1) * limit, page * limit).map(couponJson));
  });
  router.on('POST', '/v2/coupons', (request) =>
    ok(couponJson(createCoupon(ctx, parseBody(couponCreateSchema, jsonBody(request)))), 201),
  );
  router.on('DELETE', '/v2/coupons', (request) => {
    // marketing.v2.yml deleteCoupons: without `id:in` every coupon goes.
    const ids = intListParam(request.url, 'id:in');
    const kept = state.coupons.filter((c) => ids !== undefined && !ids.includes(c.id));
    state.coupons.splice(0, state.coupons.length, ...kept);
    return { status: 204 };
  });
  router.on('PUT', '/v2/coupons/:coupon_id', (request, params) => {
    const coupon = couponOr404(params);
    updateCoupon(ctx, coupon, parseBody(couponUpdateSchema, jsonBody(request)));
    return ok(couponJson(coupon));
  });
  router.on('DELETE', '/v2/coupons/:coupon_id', (_request, params) => {
    const coupon = couponOr404(params);
    state.coupons.splice(state.coupons.indexOf(coupon), 1);
    return { status: 204 };
  });

  // ------------------------------------------------------- storefront redirects (redirects.v3)
  router.on('GET', '/v3/storefront/redirects', (request) => {
    const { url } = request;
    const sort = url.searchParams.get('sort') ?? 'id';
    const direction = url.searchParams.get('direction') ?? 'asc';
    if (!['from_path', 'type', 'site_id', 'id'].includes(sort))
      throw new BcHttpError(422, 'Invalid sort', { sort: 'from_path, type, site_id or id' });
    if (!['asc', 'desc'].includes(direction))
      throw new BcHttpError(422, 'Invalid direction', { direction: 'asc or desc' });
    const items = listRedirects(state, {
      siteId: intParam(url, 'site_id'),
      ids: intListParam(url, 'id:in'),
      idMin: intParam(url, 'id:min'),
      idMax: intParam(url, 'id:max'),
      keyword: url.searchParams.get('keyword') ?? undefined,
      sort: sort as RedirectFilter['sort'],
      direction: direction as RedirectFilter['direction'],
    });
    const withUrl = includeSet(url).has('to_url');
    const page = paginate(items, pageRequest(url), url);
    return ok({ ...page, data: page.data.map((r) => redirectJson(ctx, r, withUrl)) });
  });
  router.on('PUT', '/v3/storefront/redirects', (request) => {
    const inputs = arrayBody(request).map((item) => parseBody(redirectUpsertSchema, item));
    const written = upsertRedirects(state, inputs);
    const all = written.map((r) => redirectJson(ctx, r, false));
    return ok(paginate(all, { page: 1, limit: Math.max(all.length, 1) }, request.url), 201);
  });
  router.on('DELETE', '/v3/storefront/redirects', (request) => {
    const ids = intListParam(request.url, 'id:in');
    if (!ids?.length) throw new BcHttpError(422, 'missing the required field: id:in');
    deleteRedirects(state, ids);
    return { status: 204 };
  });

  // ------------------------------------------------------------------ web pages (pages.v3)
  // The pages API answers its own error bodies (ResponseErrorDetailed, with `detail`).
  const pagesRoute =
    (handler: (request: EmulatorRequest, params: Record<string, string>) => EmulatorResponse) =>
    (request: EmulatorRequest, params: Record<string, string>): EmulatorResponse => {
      try {
        return handler(request, params);
      } catch (error) {
        if (error instanceof BcHttpError) return pageError(error);
        throw error;
      }
    };
  const withBody = (url: URL) => includeSet(url).has('body');
  const pageOr404 = (params: Record<string, string>) => {
    const id = intId(params.page_id, 'Page');
    const page = state.webPages.find((p) => p.id === id);
    if (!page) throw new BcHttpError(404, `A Page was not found with an ID of ${id}`);
    return page;
  };
  router.on(
    'GET',
    '/v3/content/pages',
    pagesRoute((request) => {
      const { url } = request;
      const channel = intParam(url, 'channel_id');
      const ids = intListParam(url, 'id:in');
      const name = url.searchParams.get('name');
      const like = url.searchParams.get('name:like')?.toLowerCase();
      const items = state.webPages
        .filter(
          (p) =>
            (channel === undefined || p.channel_id === channel) &&
            (ids === undefined || ids.includes(p.id)) &&
            (name === null || p.name === name) &&
            (like === undefined ||
              p.name.toLowerCase().includes(like) ||
              (p.body ?? '').toLowerCase().includes(like)),
        )
        .sort((a, b) => a.id - b.id);
      const result = paginate(items, pageRequest(url, 50, 250), url);
      return ok({ ...result, data: result.data.map((p) => pageJson(p, withBody(url))) });
    }),
  );
  router.on(
    'POST',
    '/v3/content/pages',
    pagesRoute((request) => {
      const input = jsonBody(request);
      const many = Array.isArray(input);
      const entries = many ? input : [input];
      const created = [];
      let refused: BcHttpError | undefined;
      // An invalid entry answers 422 for the whole request; the valid ones are still created.
      for (const entry of entries) {
        try {
          created.push(createPage(ctx, parseBody(pageCreateSchema, entry) as PageCreate));
        } catch (error) {
          if (!(error instanceof BcHttpError)) throw error;
          refused ??= error;
        }
      }
      if (refused) throw refused;
      const data = created.map((p) => pageJson(p, true));
      return ok({ data: many ? data : data[0], meta: {} }, 201);
    }),
  );
  router.on(
    'PUT',
    '/v3/content/pages',
    pagesRoute((request) => {
      const input = jsonBody(request);
      const entries = (Array.isArray(input) ? input : [input]).map((entry) =>
        parseBody(pageBulkUpdateSchema, entry),
      );
      const pages = entries.map((entry) => {
        if (entry.id === undefined) throw new BcHttpError(422, 'missing the required field: id');
        return { page: pageOr404({ page_id: String(entry.id) }), entry };
      });
      for (const { page, entry } of pages) updatePage(ctx, page, entry);
      return ok({ data: pages.map(({ page }) => pageJson(page, withBody(request.url))), meta: {} });
    }),
  );
  router.on(
    'DELETE',
    '/v3/content/pages',
    pagesRoute((request) => {
      const ids = intListParam(request.url, 'id:in');
      if (!ids?.length) throw new BcHttpError(422, 'missing the required field: id');
      const withChildren = boolParam(request.url, 'delete_children') ?? false;
      const missing = ids.filter((id) => !state.webPages.some((p) => p.id === id));
      for (const id of ids) {
        const page = state.webPages.find((p) => p.id === id);
        if (page) deletePage(state, page, withChildren);
      }
      if (missing.length)
        throw new BcHttpError(404, `A Page was not found with an ID of ${missing.join(', ')}`);
      return { status: 204 };
    }),
  );
  router.on(
    'GET',
    '/v3/content/pages/:page_id',
    pagesRoute((request, params) =>
      ok({ data: pageJson(pageOr404(params), withBody(request.url)), meta: {} }),
    ),
  );
  router.on(
    'PUT',
    '/v3/content/pages/:page_id',
    pagesRoute((request, params) => {
      const page = pageOr404(params);
      updatePage(ctx, page, parseBody(pageUpdateSchema, jsonBody(request)));
      return ok({ data: pageJson(page, true), meta: {} });
    }),
  );
  router.on(
    'DELETE',
    '/v3/content/pages/:page_id',
    pagesRoute((request, params) => {
      deletePage(state, pageOr404(params), boolParam(request.url, 'delete_children') ?? false);
      return { status: 204 };
    }),
  );

  // ------------------------------------------------------------------ blog (store_content.v2)
  const postOr404 = (params: Record<string, string>) => {
    const id = intId(params.post_id, 'Blog post');
    const post = state.blogPosts.find((p) => p.id === id);
    if (!post) throw notFound(`Blog post ${id}`);
    return post;
  };
  /** getBlogPosts: newest published date first (then the newest post). */
  const postsInOrder = () =>
    [...state.blogPosts].sort((a, b) => b.published_date - a.published_date || b.id - a.id);
  router.on('GET', '/v2/blog/posts/count', () => ok({ count: state.blogPosts.length }));
  router.on('GET', '/v2/blog/tags', () => ok(blogTags(state)));
  router.on('GET', '/v2/blog/posts', (request) => {
    const { url } = request;
    const published = boolParam(url, 'is_published');
    const path = url.searchParams.get('url');
    const tag = url.searchParams.get('tag')?.toLowerCase();
    const items = postsInOrder().filter(
      (p) =>
        (published === undefined || p.is_published === published) &&
        (path === null || p.url.toLowerCase() === path.toLowerCase()) &&
        (tag === undefined || p.tags.some((t) => t.toLowerCase() === tag)),
    );
    const { page, limit } = pageRequest(url, 50, 250);
    const data = items.slice((page - 1) * limit, page * limit);
    // v2 lists answer 204 No Content past their end.
    return data.length ? ok(data.map(postJson)) : { status: 204 };
  });
  router.on('POST', '/v2/blog/posts', (request) =>
    ok(postJson(createPost(ctx, parseBody(postCreateSchema, jsonBody(request))))),
  );
  router.on('DELETE', '/v2/blog/posts', (request) => {
    const { page, limit } = pageRequest(request.url, 50, 250);
    for (const post of postsInOrder().slice((page - 1) * limit, page * limit))
      state.blogPosts.splice(state.blogPosts.indexOf(post), 1);
    return { status: 204 };
  });
  router.on('GET', '/v2/blog/posts/:post_id', (_request, params) =>
    ok(postJson(postOr404(params))),
  );
  router.on('PUT', '/v2/blog/posts/:post_id', (request, params) => {
    const post = postOr404(params);
    updatePost(ctx, post, parseBody(postUpdateSchema, jsonBody(request)));
    return ok(postJson(post));
  });
  router.on('DELETE', '/v2/blog/posts/:post_id', (_request, params) => {
    const post = postOr404(params);
    state.blogPosts.splice(state.blogPosts.indexOf(post), 1);
    return { status: 204 };
  });

  return { router, concurrency };
}
