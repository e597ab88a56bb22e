import { GraphQLError } from 'graphql';
import { mediaState } from './media.ts';
import { matchesSearch, parseSearchQuery, type FieldValues } from './search-query.ts';
import {
  compareDigest,
  decimalOf,
  discountStatus,
  gid,
  parseGid,
  toMinorUnits,
  type AddressRec,
  type BulkOperationRec,
  type CollectionRec,
  type CustomerRec,
  type DiscountApplicationRec,
  type DiscountRec,
  type LineItemRec,
  type MediaRec,
  type MetafieldDefinitionRec,
  type MetafieldOwnerType,
  type MetafieldRec,
  type OrderRec,
  type ProductRec,
  type RefundLineRec,
  type RefundRec,
  type TransactionRec,
  type AdditionalFeeRec,
  type ShippingLineRec,
  type ShopStore,
  type TaxLineRec,
  type VariantRec,
} from './store.ts';

/**
 * Read-side views: each record becomes an object whose properties are the GraphQL fields, values
 * or functions `(args) => value` that graphql-js's default resolver calls. The schema itself is
 * Shopify's; these objects only supply data, so every answer is shaped by the official schema.
 */

export interface ViewContext {
  store: ShopStore;
  baseUrl: string;
  /** Bulk operations ignore page sizes: every connection returns all its objects. */
  bulk: boolean;
  scopes: Set<string>;
}

type Args = Record<string, unknown>;
type View = Record<string, unknown>;

/** Read scope implied by a write scope (write_products grants read_products). */
export function requireScope(ctx: ViewContext, scope: string, field: string): void {
  const write = scope.replace(/^read_/, 'write_');
  if (ctx.scopes.has(scope) || ctx.scopes.has(write)) return;
  throw new GraphQLError(
    `Access denied for ${field} field. Required access: \`${scope}\` access scope.`,
    {
      extensions: {
        code: 'ACCESS_DENIED',
        documentation: 'https://shopify.dev/api/usage/access-scopes',
        requiredAccess: `\`${scope}\` access scope.`,
      },
    },
  );
}

// ------------------------------------------------------------------ connections

export const MAX_PAGE_SIZE = 250;
/** limits.json shopify.pagination.max_objects_reachable_by_pagination */
export const MAX_REACHABLE = 25_000;

type Key = (string | number)[];

function compareKeys(a: Key, b: Key): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

function encodeCursor(key: Key): string {
  return Buffer.from(JSON.stringify({ last: key })).toString('base64url');
}

function decodeCursor(cursor: string): Key {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      last?: unknown;
    };
    if (Array.isArray(parsed.last)) return parsed.last as Key;
  } catch {
    // fall through
  }
  throw new GraphQLError(`Invalid cursor for current pagination sort.`, {
    extensions: { code: 'BAD_REQUEST' },
  });
}

/**
 * A Relay connection over `items` sorted by `sortKey`. Page sizes are required and at most 250,
 * as Shopify enforces; in a bulk operation the whole list is returned.
 */
export function connection<T>(
  ctx: ViewContext,
  items: T[],
  args: Args,
  keyOf: (item: T) => Key,
  view: (item: T) => unknown,
  /** The connection's own largest page, where the schema documents one (productVendors: 1000). */
  maxPageSize = MAX_PAGE_SIZE,
): View {
  const reverse = args.reverse === true;
  const direction = reverse ? -1 : 1;
  const sorted = [...items].sort((a, b) => direction * compareKeys(keyOf(a), keyOf(b)));
  const first = typeof args.first === 'number' ? args.first : null;
  const last = typeof args.last === 'number' ? args.last : null;
  if (!ctx.bulk) {
    if (first === null && last === null)
      throw new GraphQLError('you must provide one of first or last', {
        extensions: { code: 'BAD_REQUEST' },
      });
    if (first !== null && last !== null)
      throw new GraphQLError(
        'Passing both `first` and `last` to paginate a connection is not supported.',
        {
          extensions: { code: 'BAD_REQUEST' },
        },
      );
    const size = first ?? last ?? 0;
    if (size < 0 || size > maxPageSize)
      throw new GraphQLError(
        `The ${first !== null ? 'first' : 'last'} argument must be between 0 and ${maxPageSize}.`,
        {
          extensions: { code: 'BAD_REQUEST' },
        },
      );
  }
  let start = 0;
  let end = sorted.length;
  if (typeof args.after === 'string') {
    const after = decodeCursor(args.after);
    const index = sorted.findIndex((item) => direction * compareKeys(keyOf(item), after) > 0);
    start = index === -1 ? sorted.length : index;
  }
  if (typeof args.before === 'string') {
    const before = decodeCursor(args.before);
    const index = sorted.findIndex((item) => direction * compareKeys(keyOf(item), before) >= 0);
    end = index === -1 ? sorted.length : index;
  }
  let page = sorted.slice(start, Math.max(start, end));
  let hasNextPage = end < sorted.length;
  let hasPreviousPage = start > 0;
  if (!ctx.bulk) {
    if (first !== null) {
      // The emulator's answer past the documented 25,000 reachable objects: a clear error rather
      // than a silently short list (Shopify does not document the exact response).
      if (start >= MAX_REACHABLE && page.length > 0)
        throw new GraphQLError(
          `Pagination is limited to the first ${MAX_REACHABLE} objects; use a search query or a bulk operation to read further.`,
          { extensions: { code: 'BAD_REQUEST' } },
        );
      hasNextPage = page.length > first;
      page = page.slice(0, Math.min(first, MAX_REACHABLE - start));
    } else if (last !== null) {
      hasPreviousPage = page.length > last || start > 0;
      page = page.slice(Math.max(0, page.length - last));
    }
  }
  const edges = page.map((item) => ({ cursor: encodeCursor(keyOf(item)), node: view(item) }));
  return {
    edges,
    nodes: edges.map((e) => e.node),
    pageInfo: {
      hasNextPage,
      hasPreviousPage,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

function count(n: number, args: Args): View {
  const limit = args.limit === null ? null : typeof args.limit === 'number' ? args.limit : 10_000;
  if (limit !== null && n > limit) return { count: limit, precision: 'AT_LEAST' };
  return { count: n, precision: 'EXACT' };
}

// ------------------------------------------------------------------ small pieces

export function absoluteUrl(ctx: ViewContext, pathOrUrl: string): string {
  return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${ctx.baseUrl}${pathOrUrl}`;
}

function moneyBag(ctx: ViewContext, minor: number, currency = ctx.store.config.currency): View {
  const money = {
    __typename: 'MoneyV2',
    amount: decimalOf(minor, currency),
    currencyCode: currency,
  };
  return { shopMoney: money, presentmentMoney: money };
}

function stripTags(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function metafieldView(
  ctx: ViewContext,
  ownerType: MetafieldOwnerType,
  m: MetafieldRec,
): View {
  return {
    __typename: 'Metafield',
    id: gid('Metafield', m.id),
    legacyResourceId: String(m.id),
    namespace: m.namespace,
    key: m.key,
    type: m.type,
    value: m.value,
    jsonValue: () => {
      try {
        return JSON.parse(m.value) as unknown;
      } catch {
        return m.value;
      }
    },
    ownerType,
    compareDigest: compareDigest(m.value),
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    definition: () => {
      const d = ctx.store.definitionFor(ownerType, m.namespace, m.key);
      return d ? metafieldDefinitionView(ctx, d) : null;
    },
  };
}

export function metafieldFields(
  ctx: ViewContext,
  ownerType: MetafieldOwnerType,
  list: MetafieldRec[],
): View {
  return {
    metafield: (args: Args) => {
      const namespace = typeof args.namespace === 'string' ? args.namespace : 'app--replatform';
      const found = list.find((m) => m.namespace === namespace && m.key === args.key);
      return found ? metafieldView(ctx, ownerType, found) : null;
    },
    metafields: (args: Args) => {
      const keys = Array.isArray(args.keys) ? (args.keys as string[]) : null;
      const filtered = list.filter(
        (m) =>
          (typeof args.namespace !== 'string' || m.namespace === args.namespace) &&
          (!keys || keys.includes(`${m.namespace}.${m.key}`)),
      );
      return connection(
        ctx,
        filtered,
        args,
        (m) => [m.id],
        (m) => metafieldView(ctx, ownerType, m),
      );
    },
  };
}

export function metafieldDefinitionView(ctx: ViewContext, d: MetafieldDefinitionRec): View {
  return {
    __typename: 'MetafieldDefinition',
    id: gid('MetafieldDefinition', d.id),
    namespace: d.namespace,
    key: d.key,
    name: d.name,
    description: d.description,
    ownerType: d.ownerType,
    pinnedPosition: null,
    type: { name: d.type, category: d.type.includes('number') ? 'NUMBER' : 'TEXT' },
    validations: [],
    capabilities: {
      uniqueValues: { enabled: d.uniqueValues, eligible: true },
      adminFilterable: { enabled: false, eligible: true, status: 'NOT_FILTERABLE' },
      smartCollectionCondition: { enabled: false, eligible: true },
      analyticsQueryable: { enabled: false, eligible: false },
      cartToOrderCopyable: { enabled: false, eligible: false, status: null },
    },
    metafieldsCount: () =>
      ctx.store
        .ownersOf(d.ownerType)
        .filter((o) => o.metafields.some((m) => m.namespace === d.namespace && m.key === d.key))
        .length,
  };
}

export function imageView(ctx: ViewContext, media: MediaRec): View | null {
  const state = mediaState(media, ctx.store.now());
  if (state.status !== 'READY' || !state.path) return null;
  const url = absoluteUrl(ctx, state.path);
  return {
    id: gid('ImageSource', media.imageId),
    url: () => url,
    altText: media.alt,
    width: media.width,
    height: media.height,
    thumbhash: null,
    ...metafieldFields(ctx, 'PRODUCT', []),
  };
}

export function mediaView(ctx: ViewContext, media: MediaRec): View {
  const image = imageView(ctx, media);
  const state = mediaState(media, ctx.store.now());
  return {
    __typename: 'MediaImage',
    id: gid('MediaImage', media.id),
    alt: media.alt,
    status: state.status,
    fileStatus: state.status,
    mediaContentType: 'IMAGE',
    mediaErrors: state.errors,
    mediaWarnings: [],
    fileErrors: state.errors.map((e) => ({
      code: 'UNKNOWN',
      message: e.message,
      details: e.details,
    })),
    image,
    preview: { image, status: state.status },
    mimeType: media.mimeType,
    originalSource: { url: absoluteUrl(ctx, media.originalSource), fileSize: media.fileSize },
    createdAt: media.createdAt,
    updatedAt: media.updatedAt,
  };
}

function addressView(a: AddressRec | null, defaultId?: number | null): View | null {
  if (!a) return null;
  const country = a.countryCode
    ? (new Intl.DisplayNames(['en'], { type: 'region' }).of(a.countryCode) ?? a.countryCode)
    : null;
  const name = [a.firstName, a.lastName].filter(Boolean).join(' ') || null;
  return {
    __typename: 'MailingAddress',
    id: gid('MailingAddress', a.id),
    firstName: a.firstName,
    lastName: a.lastName,
    name,
    company: a.company,
    address1: a.address1,
    address2: a.address2,
    city: a.city,
    province: a.provinceCode,
    provinceCode: a.provinceCode,
    country,
    countryCodeV2: a.countryCode,
    zip: a.zip,
    phone: a.phone,
    coordinatesValidated: false,
    latitude: null,
    longitude: null,
    timeZone: null,
    formattedArea: [a.city, a.provinceCode, country].filter(Boolean).join(', ') || null,
    formatted: () =>
      [
        a.company,
        a.address1,
        a.address2,
        [a.city, a.provinceCode, a.zip].filter(Boolean).join(' '),
        country,
      ].filter((x): x is string => Boolean(x)),
    isDefault: defaultId === a.id,
  };
}

// ------------------------------------------------------------------ products

/**
 * Names of the top of Shopify's Standard Product Taxonomy, for the categories the sandbox knows;
 * any other well-formed category id is accepted and named by its id.
 */
const taxonomyNames: Record<string, string> = {
  aa: 'Apparel & Accessories',
  'aa-1': 'Clothing',
  hg: 'Home & Garden',
};

export const TAXONOMY_ID = /^gid:\/\/shopify\/TaxonomyCategory\/([a-z]{2}(?:-\d+)*)$/;

function taxonomyCategoryView(id: string): View {
  const code = TAXONOMY_ID.exec(id)?.[1] ?? id;
  const parts = code.split('-');
  const ancestors = parts.slice(1).map((_p, i) => parts.slice(0, i + 1).join('-'));
  const name = (c: string) => taxonomyNames[c] ?? c;
  return {
    __typename: 'TaxonomyCategory',
    id,
    name: name(code),
    fullName: [...ancestors, code].map(name).join(' > '),
    level: parts.length,
    isRoot: parts.length === 1,
    isLeaf: false,
    isArchived: false,
    parentId: ancestors.length ? `gid://shopify/TaxonomyCategory/${ancestors.at(-1)}` : null,
    ancestorIds: ancestors.map((a) => `gid://shopify/TaxonomyCategory/${a}`),
    childrenIds: [],
  };
}

export const productSortKeys: Record<string, (p: ProductRec) => string | number> = {
  ID: (p) => p.id,
  TITLE: (p) => p.title.toLowerCase(),
  CREATED_AT: (p) => p.createdAt,
  UPDATED_AT: (p) => p.updatedAt,
  VENDOR: (p) => p.vendor.toLowerCase(),
  PRODUCT_TYPE: (p) => p.productType.toLowerCase(),
  PUBLISHED_AT: (p) => p.publishedAt ?? '',
  INVENTORY_TOTAL: (p) => p.variants.reduce((n, v) => n + v.quantity, 0),
  RELEVANCE: (p) => p.id,
};

export function productSearchValues(store: ShopStore, p: ProductRec): FieldValues {
  return (field) => {
    switch (field) {
      case 'id':
        return [p.id];
      case 'handle':
        return [p.handle];
      case 'title':
        return [p.title];
      case 'status':
        return [p.status.toLowerCase()];
      case 'vendor':
        return [p.vendor];
      case 'product_type':
        return [p.productType];
      case 'tag':
        return p.tags;
      case 'tag_not':
        return undefined;
      case 'sku':
        return p.variants.map((v) => v.sku);
      case 'barcode':
        return p.variants.map((v) => v.barcode);
      case 'created_at':
        return [p.createdAt];
      case 'updated_at':
        return [p.updatedAt];
      case 'published_at':
        return [p.publishedAt];
      case 'collection_id':
        return store.collectionsOf(p.id).map((c) => c.id);
      default:
        return undefined;
    }
  };
}

export function searchProducts(ctx: ViewContext, query: unknown): ProductRec[] {
  const node = parseSearchQuery(typeof query === 'string' ? query : null);
  return [...ctx.store.products.values()].filter((p) =>
    matchesSearch(node, productSearchValues(ctx.store, p), [
      p.title,
      p.handle,
      p.vendor,
      ...p.tags,
    ]),
  );
}

function optionValueView(
  p: ProductRec,
  option: ProductRec['options'][number],
  value: { id: number; name: string },
): View {
  return {
    __typename: 'ProductOptionValue',
    id: gid('ProductOptionValue', value.id),
    name: value.name,
    hasVariants: p.variants.some((v) =>
      v.optionValues.some((o) => o.name === option.name && o.value === value.name),
    ),
    linkedMetafieldValue: null,
    swatch: null,
    translations: () => [],
  };
}

function variantTitle(v: VariantRec): string {
  return v.optionValues.map((o) => o.value).join(' / ') || 'Default Title';
}

export function variantView(ctx: ViewContext, p: ProductRec, v: VariantRec): View {
  const media = v.mediaId === null ? undefined : p.media.find((m) => m.id === v.mediaId);
  return {
    __typename: 'ProductVariant',
    id: gid('ProductVariant', v.id),
    legacyResourceId: String(v.id),
    title: variantTitle(v),
    displayName: `${p.title} - ${variantTitle(v)}`,
    sku: v.sku,
    price: v.price,
    compareAtPrice: v.compareAtPrice,
    barcode: v.barcode,
    position: v.position,
    inventoryQuantity: v.tracked ? v.quantity : null,
    sellableOnlineQuantity: v.quantity,
    inventoryPolicy: v.inventoryPolicy,
    taxable: v.taxable,
    availableForSale:
      p.status === 'ACTIVE' && (!v.tracked || v.quantity > 0 || v.inventoryPolicy === 'CONTINUE'),
    requiresComponents: false,
    showUnitPrice: false,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
    selectedOptions: v.optionValues.map((o) => {
      const option = p.options.find((x) => x.name === o.name);
      const value = option?.values.find((x) => x.name === o.value);
      return {
        name: o.name,
        value: o.value,
        optionValue: option && value ? optionValueView(p, option, value) : null,
      };
    }),
    inventoryItem: {
      __typename: 'InventoryItem',
      id: gid('InventoryItem', v.inventoryItemId),
      legacyResourceId: String(v.inventoryItemId),
      sku: v.sku,
      tracked: v.tracked,
      requiresShipping: v.requiresShipping,
      createdAt: v.createdAt,
      updatedAt: v.updatedAt,
      duplicateSkuCount: 0,
      harmonizedSystemCode: v.harmonizedSystemCode,
      countryCodeOfOrigin: v.countryCodeOfOrigin,
      provinceCodeOfOrigin: v.provinceCodeOfOrigin,
      unitCost:
        v.unitCost === null
          ? null
          : {
              __typename: 'MoneyV2',
              amount: decimalOf(
                toMinorUnits(v.unitCost, ctx.store.config.currency),
                ctx.store.config.currency,
              ),
              currencyCode: ctx.store.config.currency,
            },
      measurement: {
        id: gid('InventoryItemMeasurement', v.inventoryItemId),
        weight: v.weight,
      },
    },
    image: media ? imageView(ctx, media) : null,
    media: (args: Args) =>
      connection(
        ctx,
        media ? [media] : [],
        args,
        (m) => [m.id],
        (m) => mediaView(ctx, m),
      ),
    product: () => productView(ctx, p),
    ...metafieldFields(ctx, 'PRODUCTVARIANT', v.metafields),
  };
}

const variantSortKeys: Record<string, (v: VariantRec) => string | number> = {
  POSITION: (v) => v.position,
  ID: (v) => v.id,
  SKU: (v) => v.sku ?? '',
  TITLE: (v) => variantTitle(v),
  INVENTORY_QUANTITY: (v) => v.quantity,
};

export function productView(ctx: ViewContext, p: ProductRec): View {
  return {
    __typename: 'Product',
    id: gid('Product', p.id),
    legacyResourceId: String(p.id),
    handle: p.handle,
    title: p.title,
    descriptionHtml: p.descriptionHtml,
    description: (args: Args) => {
      const text = stripTags(p.descriptionHtml);
      return typeof args.truncateAt === 'number' ? text.slice(0, args.truncateAt) : text;
    },
    status: p.status,
    vendor: p.vendor,
    productType: p.productType,
    tags: p.tags,
    templateSuffix: p.templateSuffix,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    publishedAt: p.publishedAt,
    isGiftCard: p.isGiftCard,
    giftCardTemplateSuffix: p.giftCardTemplateSuffix,
    requiresSellingPlan: p.requiresSellingPlan,
    category: p.categoryId === null ? null : taxonomyCategoryView(p.categoryId),
    hasOnlyDefaultVariant:
      p.variants.length === 1 && p.options.length === 1 && p.options[0]?.name === 'Title',
    hasOutOfStockVariants: p.variants.some((v) => v.tracked && v.quantity <= 0),
    tracksInventory: p.variants.some((v) => v.tracked),
    totalInventory: p.variants.reduce((n, v) => n + (v.tracked ? v.quantity : 0), 0),
    onlineStoreUrl: null,
    onlineStorePreviewUrl: null,
    seo: { title: p.seoTitle, description: p.seoDescription },
    options: (args: Args) =>
      p.options.slice(0, typeof args.first === 'number' ? args.first : undefined).map((o) => ({
        __typename: 'ProductOption',
        id: gid('ProductOption', o.id),
        name: o.name,
        position: o.position,
        values: o.values.map((v) => v.name),
        optionValues: o.values.map((v) => optionValueView(p, o, v)),
        linkedMetafield: null,
        translations: () => [],
      })),
    variants: (args: Args) => {
      const sortKey =
        variantSortKeys[String(args.sortKey ?? 'POSITION')] ?? variantSortKeys.POSITION;
      return connection(
        ctx,
        p.variants,
        args,
        (v) => [sortKey?.(v) ?? v.position, v.id],
        (v) => variantView(ctx, p, v),
      );
    },
    variantsCount: () => ({ count: p.variants.length, precision: 'EXACT' }),
    media: (args: Args) =>
      connection(
        ctx,
        p.media,
        args,
        (m) => [p.media.indexOf(m), m.id],
        (m) => mediaView(ctx, m),
      ),
    mediaCount: () => ({ count: p.media.length, precision: 'EXACT' }),
    featuredMedia: () => (p.media[0] ? mediaView(ctx, p.media[0]) : null),
    collections: (args: Args) =>
      connection(
        ctx,
        ctx.store.collectionsOf(p.id),
        args,
        (c) => [c.id],
        (c) => collectionView(ctx, c),
      ),
    inCollection: (args: Args) => {
      const parsed = parseGid(args.id);
      return ctx.store.collectionsOf(p.id).some((c) => c.id === parsed?.id);
    },
    priceRangeV2: () => {
      const prices = p.variants.map((v) => toMinorUnits(v.price, ctx.store.config.currency));
      const min = Math.min(...prices);
      const max = Math.max(...prices);
      const money = (n: number) => ({
        amount: decimalOf(n, ctx.store.config.currency),
        currencyCode: ctx.store.config.currency,
      });
      return { minVariantPrice: money(min), maxVariantPrice: money(max) };
    },
    ...metafieldFields(ctx, 'PRODUCT', p.metafields),
  };
}

// ------------------------------------------------------------------ collections

export const collectionSortKeys: Record<string, (c: CollectionRec) => string | number> = {
  ID: (c) => c.id,
  TITLE: (c) => c.title.toLowerCase(),
  UPDATED_AT: (c) => c.updatedAt,
  RELEVANCE: (c) => c.id,
};

export function collectionSearchValues(c: CollectionRec): FieldValues {
  return (field) => {
    switch (field) {
      case 'id':
        return [c.id];
      case 'handle':
        return [c.handle];
      case 'title':
        return [c.title];
      case 'updated_at':
        return [c.updatedAt];
      case 'collection_type':
        return ['custom'];
      case 'product_id':
        return c.productIds;
      default:
        return undefined;
    }
  };
}

export function collectionView(ctx: ViewContext, c: CollectionRec): View {
  return {
    __typename: 'Collection',
    id: gid('Collection', c.id),
    legacyResourceId: String(c.id),
    handle: c.handle,
    title: c.title,
    descriptionHtml: c.descriptionHtml,
    description: (args: Args) => {
      const text = stripTags(c.descriptionHtml);
      return typeof args.truncateAt === 'number' ? text.slice(0, args.truncateAt) : text;
    },
    image: () => (c.image ? imageView(ctx, c.image) : null),
    seo: { title: c.seoTitle, description: c.seoDescription },
    sortOrder: c.sortOrder,
    templateSuffix: c.templateSuffix,
    updatedAt: c.updatedAt,
    ruleSet: null,
    sources: [],
    products: (args: Args) => {
      const products = c.productIds
        .map((id) => ctx.store.products.get(id))
        .filter((p): p is ProductRec => p !== undefined);
      return connection(
        ctx,
        products,
        args,
        (p) => [c.productIds.indexOf(p.id), p.id],
        (p) => productView(ctx, p),
      );
    },
    productsCount: () => ({ count: c.productIds.length, precision: 'EXACT' }),
    hasProduct: (args: Args) => c.productIds.includes(parseGid(args.id)?.id ?? -1),
    ...metafieldFields(ctx, 'COLLECTION', c.metafields),
  };
}

// ------------------------------------------------------------------ customers

export const customerSortKeys: Record<string, (c: CustomerRec) => string | number> = {
  ID: (c) => c.id,
  CREATED_AT: (c) => c.createdAt,
  UPDATED_AT: (c) => c.updatedAt,
  NAME: (c) => `${c.firstName ?? ''} ${c.lastName ?? ''}`.toLowerCase(),
  LOCATION: (c) => c.addresses[0]?.countryCode ?? '',
  RELEVANCE: (c) => c.id,
};

export function customerSearchValues(c: CustomerRec): FieldValues {
  return (field) => {
    switch (field) {
      case 'id':
        return [c.id];
      case 'email':
        return [c.email];
      case 'phone':
        return [c.phone];
      case 'first_name':
        return [c.firstName];
      case 'last_name':
        return [c.lastName];
      case 'tag':
        return c.tags;
      case 'country':
        return c.addresses.map((a) => a.countryCode);
      case 'created_at':
        return [c.createdAt];
      case 'updated_at':
        return [c.updatedAt];
      case 'accepts_marketing':
        return [String(c.marketingState === 'SUBSCRIBED')];
      default:
        return undefined;
    }
  };
}

export function customerView(ctx: ViewContext, c: CustomerRec): View {
  const defaultAddress = c.addresses.find((a) => a.id === c.defaultAddressId) ?? null;
  const orders = () => [...ctx.store.orders.values()].filter((o) => o.customerId === c.id);
  const consent = {
    marketingState: c.marketingState,
    marketingOptInLevel: c.marketingOptInLevel,
    consentUpdatedAt: c.marketingUpdatedAt,
    sourceLocation: null,
  };
  return {
    __typename: 'Customer',
    id: gid('Customer', c.id),
    legacyResourceId: String(c.id),
    firstName: c.firstName,
    lastName: c.lastName,
    displayName: [c.firstName, c.lastName].filter(Boolean).join(' ') || c.email || c.phone || '',
    email: c.email,
    phone: c.phone,
    note: c.note,
    tags: c.tags,
    locale: c.locale,
    state: 'DISABLED',
    verifiedEmail: c.email !== null,
    validEmailAddress: c.email !== null,
    taxExempt: c.taxExempt,
    taxExemptions: c.taxExemptions,
    dataSaleOptOut: false,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    defaultEmailAddress: c.email
      ? {
          emailAddress: c.email,
          marketingState: c.marketingState === 'REDACTED' ? 'INVALID' : c.marketingState,
          marketingOptInLevel: c.marketingOptInLevel,
          marketingUpdatedAt: c.marketingUpdatedAt,
          validFormat: true,
          openTrackingLevel: 'UNKNOWN',
          sourceLocation: null,
        }
      : null,
    emailMarketingConsent: c.email ? consent : null,
    defaultPhoneNumber: c.phone
      ? {
          phoneNumber: c.phone,
          // The consent's read type names a customer who never subscribed NEVER_SUBSCRIBED.
          smsMarketingConsent: {
            state: !c.sms || c.sms.state === 'NOT_SUBSCRIBED' ? 'NEVER_SUBSCRIBED' : c.sms.state,
            optInLevel: c.sms?.optInLevel ?? null,
            updatedAt: c.sms?.updatedAt ?? null,
            collectedFrom: 'OTHER',
            sourceLocation: null,
          },
        }
      : null,
    defaultAddress: addressView(defaultAddress, c.defaultAddressId),
    addresses: (args: Args) =>
      c.addresses
        .slice(0, typeof args.first === 'number' ? args.first : undefined)
        .map((a) => addressView(a, c.defaultAddressId)),
    addressesV2: (args: Args) =>
      connection(
        ctx,
        c.addresses,
        args,
        (a) => [c.addresses.indexOf(a), a.id],
        (a) => addressView(a, c.defaultAddressId),
      ),
    numberOfOrders: () => String(orders().length),
    amountSpent: () => {
      const total = orders().reduce((n, o) => n + orderTotals(ctx, o).total, 0);
      return {
        amount: decimalOf(total, ctx.store.config.currency),
        currencyCode: ctx.store.config.currency,
      };
    },
    orders: (args: Args) =>
      connection(
        ctx,
        orders(),
        args,
        (o) => [o.id],
        (o) => orderView(ctx, o),
      ),
    ...metafieldFields(ctx, 'CUSTOMER', c.metafields),
  };
}

// ------------------------------------------------------------------ orders

export const orderSortKeys: Record<string, (o: OrderRec) => string | number> = {
  ID: (o) => o.id,
  CREATED_AT: (o) => o.createdAt,
  UPDATED_AT: (o) => o.updatedAt,
  PROCESSED_AT: (o) => o.processedAt,
  ORDER_NUMBER: (o) => o.number,
  FINANCIAL_STATUS: (o) => o.financialStatus,
  FULFILLMENT_STATUS: (o) => o.fulfillmentStatus,
  RELEVANCE: (o) => o.id,
};

function orderStatusWord(o: OrderRec): string {
  if (o.cancelledAt) return 'cancelled';
  if (o.closedAt) return 'closed';
  return 'open';
}

export function orderSearchValues(o: OrderRec): FieldValues {
  return (field) => {
    switch (field) {
      case 'id':
        return [o.id];
      case 'name':
        return [o.name, o.name.replace(/^#/, '')];
      case 'email':
        return [o.email];
      case 'customer_id':
        return [o.customerId];
      case 'created_at':
        return [o.createdAt];
      case 'updated_at':
        return [o.updatedAt];
      case 'processed_at':
        return [o.processedAt];
      case 'financial_status':
        return [o.financialStatus.toLowerCase()];
      case 'fulfillment_status':
        return [o.fulfillmentStatus.toLowerCase()];
      case 'status':
        return [orderStatusWord(o), 'any'];
      case 'tag':
        return o.tags;
      case 'sku':
        return o.lineItems.map((l) => l.sku);
      default:
        return undefined;
    }
  };
}

export interface OrderTotals {
  lineOriginal: number;
  lineDiscounts: number;
  shipping: number;
  shippingDiscounts: number;
  /** Additional fees, before their tax. */
  fees: number;
  tax: number;
  subtotal: number;
  total: number;
  /** Money given back by successful refund transactions. */
  refunded: number;
  /** Money received by successful sales and captures. */
  received: number;
}

const sumTax = (lines: TaxLineRec[], currency: string) =>
  lines.reduce((n, t) => n + toMinorUnits(t.amount, currency), 0);

export function orderTotals(_ctx: ViewContext, o: OrderRec): OrderTotals {
  const c = o.currency;
  const lineOriginal = o.lineItems.reduce(
    (n, l) => n + toMinorUnits(l.unitPrice, c) * l.quantity,
    0,
  );
  const lineDiscounts = o.lineItems.reduce(
    (n, l) => n + l.discountAllocations.reduce((m, a) => m + toMinorUnits(a.amount, c), 0),
    0,
  );
  const shipping = o.shippingLines.reduce((n, s) => n + toMinorUnits(s.price, c), 0);
  const shippingDiscounts = o.shippingLines.reduce(
    (n, s) => n + s.discountAllocations.reduce((m, a) => m + toMinorUnits(a.amount, c), 0),
    0,
  );
  const fees = o.additionalFees.reduce((n, f) => n + toMinorUnits(f.price, c), 0);
  const tax =
    o.lineItems.reduce((n, l) => n + sumTax(l.taxLines, c), 0) +
    o.shippingLines.reduce((n, s) => n + sumTax(s.taxLines, c), 0) +
    o.additionalFees.reduce((n, f) => n + sumTax(f.taxLines, c), 0);
  const subtotal = lineOriginal - lineDiscounts;
  const total = subtotal + shipping - shippingDiscounts + fees + (o.taxesIncluded ? 0 : tax);
  const successful = (kinds: string[]) =>
    o.transactions
      .filter((t) => t.status === 'SUCCESS' && kinds.includes(t.kind))
      .reduce((n, t) => n + toMinorUnits(t.amount, c), 0);
  const refunds = successful(['REFUND']);
  // An order imported as refunded without refund records has given everything back.
  const refunded = refunds || (o.financialStatus === 'REFUNDED' ? total : 0);
  const received = o.transactions.length
    ? successful(['SALE', 'CAPTURE'])
    : ['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(o.financialStatus)
      ? total
      : 0;
  return {
    lineOriginal,
    lineDiscounts,
    shipping,
    shippingDiscounts,
    fees,
    tax,
    subtotal,
    total,
    refunded,
    received,
  };
}

/** How Shopify names a gateway in the admin ('manual' -> 'Manual', 'shopify_payments' -> ...). */
export function formattedGateway(gateway: string | null): string | null {
  if (gateway === null) return null;
  return gateway
    .split('_')
    .map((w) => (w ? w[0]?.toUpperCase() + w.slice(1) : w))
    .join(' ');
}

function transactionView(ctx: ViewContext, o: OrderRec, t: TransactionRec): View {
  const parent = t.parentId === null ? undefined : o.transactions.find((x) => x.id === t.parentId);
  return {
    __typename: 'OrderTransaction',
    id: gid('OrderTransaction', t.id),
    kind: t.kind,
    status: t.status,
    gateway: t.gateway,
    formattedGateway: formattedGateway(t.gateway),
    manualPaymentGateway: t.gateway === 'manual',
    amountSet: moneyBag(ctx, toMinorUnits(t.amount, o.currency), o.currency),
    authorizationCode: t.authorizationCode,
    processedAt: t.processedAt,
    createdAt: t.createdAt,
    test: t.test,
    errorCode: null,
    // The payment's id at its gateway: the authorisation code it was recorded with (the sandbox
    // makes none up for transactions recorded without one).
    paymentId: t.authorizationCode,
    receiptJson: null,
    fees: [],
    multiCapturable: false,
    manuallyCapturable: false,
    parentTransaction: () => (parent ? transactionView(ctx, o, parent) : null),
    order: () => orderView(ctx, o),
  };
}

export function refundView(ctx: ViewContext, o: OrderRec, r: RefundRec): View {
  const c = o.currency;
  const lineTotals = (l: RefundLineRec) => {
    const line = o.lineItems.find((x) => x.id === l.lineItemId);
    if (!line) return { unit: 0, subtotal: 0, tax: 0, line };
    const unit = toMinorUnits(line.unitPrice, c);
    const discount = line.discountAllocations.reduce((n, a) => n + toMinorUnits(a.amount, c), 0);
    const discounted = unit * line.quantity - discount;
    return {
      unit,
      subtotal: Math.round((discounted * l.quantity) / line.quantity),
      tax: Math.round((sumTax(line.taxLines, c) * l.quantity) / line.quantity),
      line,
    };
  };
  const transactions = o.transactions.filter((t) => r.transactionIds.includes(t.id));
  const refunded = transactions
    .filter((t) => t.status === 'SUCCESS')
    .reduce((n, t) => n + toMinorUnits(t.amount, c), 0);
  return {
    __typename: 'Refund',
    id: gid('Refund', r.id),
    legacyResourceId: String(r.id),
    note: r.note,
    createdAt: r.createdAt,
    processedAt: r.processedAt,
    updatedAt: r.createdAt,
    totalRefundedSet: moneyBag(ctx, refunded, c),
    duties: [],
    staffMember: null,
    return: null,
    refundLineItems: (args: Args) =>
      connection(
        ctx,
        r.lines,
        args,
        (l) => [r.lines.indexOf(l)],
        (l) => {
          const totals = lineTotals(l);
          return {
            __typename: 'RefundLineItem',
            id: gid('RefundLineItem', l.id),
            quantity: l.quantity,
            restockType: l.restockType,
            restocked: l.restockType === 'RETURN' || l.restockType === 'CANCEL',
            location: null,
            priceSet: moneyBag(ctx, totals.unit, c),
            subtotalSet: moneyBag(ctx, totals.subtotal, c),
            totalTaxSet: moneyBag(ctx, totals.tax, c),
            lineItem: totals.line ? lineItemView(ctx, o, totals.line) : null,
          };
        },
      ),
    refundShippingLines: (args: Args) =>
      connection(
        ctx,
        [],
        args,
        () => [0],
        () => null,
      ),
    orderAdjustments: (args: Args) =>
      connection(
        ctx,
        [],
        args,
        () => [0],
        () => null,
      ),
    transactions: (args: Args) =>
      connection(
        ctx,
        transactions,
        args,
        (t) => [t.id],
        (t) => transactionView(ctx, o, t),
      ),
    order: () => orderView(ctx, o),
  };
}

function additionalFeeView(ctx: ViewContext, o: OrderRec, f: AdditionalFeeRec): View {
  return {
    __typename: 'AdditionalFee',
    id: gid('AdditionalFee', f.id),
    name: f.name,
    price: moneyBag(ctx, toMinorUnits(f.price, o.currency), o.currency),
    taxLines: f.taxLines.map((t) => taxLineView(ctx, t, o.currency)),
  };
}

function taxLineView(ctx: ViewContext, t: TaxLineRec, currency: string): View {
  return {
    title: t.title,
    rate: t.rate,
    ratePercentage: Math.round(t.rate * 100 * 1e6) / 1e6,
    priceSet: moneyBag(ctx, toMinorUnits(t.amount, currency), currency),
    channelLiable: false,
    source: null,
  };
}

function discountApplicationView(_ctx: ViewContext, o: OrderRec, d: DiscountApplicationRec): View {
  const value =
    d.value.kind === 'money'
      ? { __typename: 'MoneyV2', amount: d.value.amount, currencyCode: o.currency }
      : { __typename: 'PricingPercentageValue', percentage: d.value.percentage };
  const common = {
    index: d.index,
    allocationMethod: d.allocationMethod,
    targetSelection: d.targetSelection,
    targetType: d.targetType,
    value,
  };
  return d.kind === 'code'
    ? { __typename: 'DiscountCodeApplication', code: d.code, ...common }
    : { __typename: 'ManualDiscountApplication', title: d.code, description: null, ...common };
}

function allocationsView(
  ctx: ViewContext,
  o: OrderRec,
  allocations: LineItemRec['discountAllocations'],
): View[] {
  return allocations.map((a) => {
    const application = o.discountApplications.find((d) => d.index === a.index);
    return {
      allocatedAmountSet: moneyBag(ctx, toMinorUnits(a.amount, o.currency), o.currency),
      discountApplication: application ? discountApplicationView(ctx, o, application) : null,
    };
  });
}

function lineItemView(ctx: ViewContext, o: OrderRec, l: LineItemRec): View {
  const c = o.currency;
  const unit = toMinorUnits(l.unitPrice, c);
  const discount = l.discountAllocations.reduce((n, a) => n + toMinorUnits(a.amount, c), 0);
  const found = l.variantId === null ? undefined : ctx.store.findVariant(l.variantId);
  const product = l.productId === null ? undefined : ctx.store.products.get(l.productId);
  return {
    __typename: 'LineItem',
    id: gid('LineItem', l.id),
    title: l.title,
    variantTitle: l.variantTitle,
    name: l.variantTitle ? `${l.title} - ${l.variantTitle}` : l.title,
    sku: l.sku,
    vendor: l.vendor,
    quantity: l.quantity,
    currentQuantity: o.cancelledAt ? 0 : l.quantity,
    refundableQuantity: l.quantity,
    unfulfilledQuantity: o.fulfillmentStatus === 'FULFILLED' ? 0 : l.quantity,
    nonFulfillableQuantity: 0,
    requiresShipping: l.requiresShipping,
    taxable: l.taxable,
    isGiftCard: false,
    merchantEditable: true,
    restockable: true,
    customAttributes: l.customAttributes.map((a) => ({ key: a.key, value: a.value })),
    duties: [],
    originalUnitPriceSet: moneyBag(ctx, unit, c),
    originalTotalSet: moneyBag(ctx, unit * l.quantity, c),
    discountedUnitPriceSet: moneyBag(
      ctx,
      Math.round((unit * l.quantity - discount) / l.quantity),
      c,
    ),
    discountedUnitPriceAfterAllDiscountsSet: moneyBag(
      ctx,
      Math.round((unit * l.quantity - discount) / l.quantity),
      c,
    ),
    discountedTotalSet: () => moneyBag(ctx, unit * l.quantity - discount, c),
    totalDiscountSet: moneyBag(ctx, discount, c),
    taxLines: (args: Args) =>
      l.taxLines
        .slice(0, typeof args.first === 'number' ? args.first : undefined)
        .map((t) => taxLineView(ctx, t, c)),
    discountAllocations: allocationsView(ctx, o, l.discountAllocations),
    variant: found ? variantView(ctx, found.product, found.variant) : null,
    product: product ? productView(ctx, product) : null,
    image: null,
  };
}

function shippingLineView(ctx: ViewContext, o: OrderRec, s: ShippingLineRec): View {
  const c = o.currency;
  const price = toMinorUnits(s.price, c);
  const discount = s.discountAllocations.reduce((n, a) => n + toMinorUnits(a.amount, c), 0);
  return {
    id: gid('ShippingLine', s.id),
    title: s.title,
    code: s.code,
    source: s.source,
    custom: true,
    isRemoved: false,
    carrierIdentifier: null,
    deliveryCategory: null,
    phone: null,
    shippingRateHandle: null,
    originalPriceSet: moneyBag(ctx, price, c),
    discountedPriceSet: moneyBag(ctx, price - discount, c),
    currentDiscountedPriceSet: moneyBag(ctx, price - discount, c),
    taxLines: s.taxLines.map((t) => taxLineView(ctx, t, c)),
    discountAllocations: allocationsView(ctx, o, s.discountAllocations),
  };
}

export function orderView(ctx: ViewContext, o: OrderRec): View {
  const c = o.currency;
  const totals = () => orderTotals(ctx, o);
  const customer = o.customerId === null ? undefined : ctx.store.customers.get(o.customerId);
  const codes = o.discountApplications.filter((d) => d.kind === 'code').map((d) => d.code);
  const paid = ['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(o.financialStatus);
  const limited = <T>(items: T[], args: Args) =>
    items.slice(0, typeof args.first === 'number' ? args.first : undefined);
  return {
    __typename: 'Order',
    id: gid('Order', o.id),
    legacyResourceId: String(o.id),
    name: o.name,
    number: o.number,
    email: o.email,
    phone: o.phone,
    note: o.note,
    tags: o.tags,
    test: o.test,
    customAttributes: o.customAttributes.map((a) => ({ key: a.key, value: a.value })),
    poNumber: o.poNumber,
    clientIp: o.clientIp,
    transactions: (args: Args) =>
      limited(o.transactions, args).map((t) => transactionView(ctx, o, t)),
    refunds: (args: Args) => limited(o.refunds, args).map((r) => refundView(ctx, o, r)),
    additionalFees: () => o.additionalFees.map((f) => additionalFeeView(ctx, o, f)),
    paymentGatewayNames: [
      ...new Set(o.transactions.map((t) => t.gateway).filter((g): g is string => g !== null)),
    ],
    confirmed: true,
    closed: o.closedAt !== null,
    closedAt: o.closedAt,
    cancelledAt: o.cancelledAt,
    cancelReason: o.cancelReason,
    createdAt: o.createdAt,
    processedAt: o.processedAt,
    updatedAt: o.updatedAt,
    currencyCode: c,
    presentmentCurrencyCode: c,
    taxesIncluded: o.taxesIncluded,
    taxExempt: false,
    sourceName: o.sourceName,
    sourceIdentifier: null,
    customerAcceptsMarketing: o.buyerAcceptsMarketing,
    displayFinancialStatus: o.financialStatus,
    displayFulfillmentStatus: o.fulfillmentStatus,
    fullyPaid: paid,
    unpaid: !paid,
    edited: false,
    requiresShipping: o.lineItems.some((l) => l.requiresShipping),
    customer: customer ? customerView(ctx, customer) : null,
    billingAddress: addressView(o.billingAddress),
    shippingAddress: addressView(o.shippingAddress),
    billingAddressMatchesShippingAddress:
      JSON.stringify({ ...o.billingAddress, id: 0 }) ===
      JSON.stringify({ ...o.shippingAddress, id: 0 }),
    discountCode: codes[0] ?? null,
    discountCodes: codes,
    lineItems: (args: Args) =>
      connection(
        ctx,
        o.lineItems,
        args,
        (l) => [o.lineItems.indexOf(l)],
        (l) => lineItemView(ctx, o, l),
      ),
    shippingLines: (args: Args) =>
      connection(
        ctx,
        o.shippingLines,
        args,
        (s) => [o.shippingLines.indexOf(s)],
        (s) => shippingLineView(ctx, o, s),
      ),
    shippingLine: () => (o.shippingLines[0] ? shippingLineView(ctx, o, o.shippingLines[0]) : null),
    discountApplications: (args: Args) =>
      connection(
        ctx,
        o.discountApplications,
        args,
        (d) => [d.index],
        (d) => discountApplicationView(ctx, o, d),
      ),
    taxLines: () => {
      const byTitle = new Map<string, TaxLineRec>();
      for (const t of [
        ...o.lineItems.flatMap((l) => l.taxLines),
        ...o.shippingLines.flatMap((s) => s.taxLines),
      ]) {
        const existing = byTitle.get(t.title);
        if (existing)
          existing.amount = decimalOf(
            toMinorUnits(existing.amount, c) + toMinorUnits(t.amount, c),
            c,
          );
        else byTitle.set(t.title, { ...t });
      }
      return [...byTitle.values()].map((t) => taxLineView(ctx, t, c));
    },
    subtotalLineItemsQuantity: o.lineItems.reduce((n, l) => n + l.quantity, 0),
    subtotalPriceSet: () => moneyBag(ctx, totals().subtotal, c),
    currentSubtotalPriceSet: () => moneyBag(ctx, totals().subtotal, c),
    totalDiscountsSet: () => moneyBag(ctx, totals().lineDiscounts + totals().shippingDiscounts, c),
    currentTotalDiscountsSet: () =>
      moneyBag(ctx, totals().lineDiscounts + totals().shippingDiscounts, c),
    totalShippingPriceSet: () => moneyBag(ctx, totals().shipping, c),
    currentShippingPriceSet: () => moneyBag(ctx, totals().shipping - totals().shippingDiscounts, c),
    totalTaxSet: () => moneyBag(ctx, totals().tax, c),
    currentTotalTaxSet: () => moneyBag(ctx, totals().tax, c),
    totalPriceSet: () => moneyBag(ctx, totals().total, c),
    currentTotalPriceSet: () => moneyBag(ctx, totals().total, c),
    originalTotalPriceSet: () => moneyBag(ctx, totals().total, c),
    totalReceivedSet: () => moneyBag(ctx, totals().received, c),
    totalOutstandingSet: () =>
      moneyBag(ctx, paid ? 0 : Math.max(0, totals().total - totals().received), c),
    totalRefundedSet: () => moneyBag(ctx, totals().refunded, c),
    netPaymentSet: () => moneyBag(ctx, totals().received - totals().refunded, c),
    fulfillmentOrders: (args: Args) =>
      connection(
        ctx,
        o.fulfillmentOrders,
        args,
        (f) => [f.id],
        (f) => ({
          __typename: 'FulfillmentOrder',
          id: gid('FulfillmentOrder', f.id),
          status: f.status,
          orderId: gid('Order', o.id),
          orderName: o.name,
        }),
      ),
    ...metafieldFields(ctx, 'ORDER', o.metafields),
  };
}

// ------------------------------------------------------------------ bulk operations, redirects

export function bulkOperationView(ctx: ViewContext, b: BulkOperationRec): View {
  const done = ctx.store.now() >= b.readyAt && b.status === 'RUNNING';
  const status = done ? 'COMPLETED' : b.status;
  const completedAt = done ? new Date(b.readyAt).toISOString() : b.completedAt;
  return {
    __typename: 'BulkOperation',
    id: gid('BulkOperation', b.id),
    type: b.type,
    status,
    query: b.query,
    createdAt: b.createdAt,
    completedAt,
    errorCode: null,
    objectCount: status === 'COMPLETED' ? String(b.objectCount) : '0',
    rootObjectCount: status === 'COMPLETED' ? String(b.rootObjectCount) : '0',
    fileSize:
      status === 'COMPLETED' && b.objectCount > 0 ? String(Buffer.byteLength(b.jsonl)) : null,
    // Shopify answers a null url when the query matched no objects.
    url:
      status === 'COMPLETED' && b.objectCount > 0
        ? `${ctx.baseUrl}/bulk-results/${b.id}.jsonl?token=${b.token}`
        : null,
    partialDataUrl: null,
  };
}

export function locationView(ctx: ViewContext): View {
  const { location, config } = ctx.store;
  return {
    __typename: 'Location',
    id: gid('Location', location.id),
    legacyResourceId: String(location.id),
    name: location.name,
    isActive: true,
    isPrimary: true,
    activatable: false,
    deactivatable: false,
    deletable: false,
    fulfillsOnlineOrders: true,
    hasActiveInventory: true,
    hasUnfulfilledOrders: false,
    isFulfillmentService: false,
    shipsInventory: true,
    addressVerified: true,
    deactivatedAt: null,
    createdAt: ctx.store.createdAt,
    updatedAt: ctx.store.createdAt,
    address: {
      countryCode: 'US',
      country: 'United States',
      city: null,
      address1: null,
      formatted: [config.name],
    },
    ...metafieldFields(ctx, 'PRODUCT', []),
  };
}

export function shopView(ctx: ViewContext): View {
  const { config } = ctx.store;
  const planNames = {
    standard: 'Shopify',
    advanced: 'Advanced',
    plus: 'Shopify Plus',
    enterprise: 'Commerce Components',
  } as const;
  const displayName = config.developmentStore
    ? 'Development'
    : config.trialStore
      ? config.plan === 'plus'
        ? 'Plus Trial'
        : 'Trial'
      : planNames[config.plan];
  return {
    __typename: 'Shop',
    id: gid('Shop', 1),
    name: config.name,
    email: `owner@${config.domain}`,
    contactEmail: `owner@${config.domain}`,
    myshopifyDomain: config.domain,
    currencyCode: config.currency,
    enabledPresentmentCurrencies: [config.currency],
    ianaTimezone: 'UTC',
    timezoneAbbreviation: 'UTC',
    timezoneOffset: '+0000',
    timezoneOffsetMinutes: 0,
    weightUnit: 'KILOGRAMS',
    unitSystem: 'METRIC_SYSTEM',
    taxesIncluded: false,
    taxShipping: false,
    setupRequired: false,
    checkoutApiSupported: true,
    createdAt: ctx.store.createdAt,
    updatedAt: ctx.store.createdAt,
    url: `https://${config.domain}`,
    primaryDomain: {
      id: gid('Domain', 1),
      host: config.domain,
      url: `https://${config.domain}`,
      sslEnabled: true,
    },
    plan: {
      displayName,
      publicDisplayName: displayName,
      partnerDevelopment: config.developmentStore,
      shopifyPlus: config.plan === 'plus' || config.plan === 'enterprise',
    },
    orderNumberFormatPrefix: '#',
    orderNumberFormatSuffix: '',
    ...metafieldFields(ctx, 'PRODUCT', []),
  };
}

/** AccessScope.description of the scopes the emulator knows (in the words of Shopify's scope list). */
const scopeDescriptions: Record<string, string> = {
  read_products: 'Read products, variants, and collections',
  write_products: 'Modify products, variants, and collections',
  read_customers: 'Read customer details and customer groups',
  write_customers: 'Modify customer details and customer groups',
  read_orders: 'Read orders, transactions, and fulfillments',
  write_orders: 'Modify orders, transactions, and fulfillments',
  read_all_orders: 'Read all orders, not only those of the last 60 days',
  read_inventory: 'Read inventory',
  write_inventory: 'Modify inventory',
  read_locations: 'Read locations',
  read_online_store_navigation: 'Read online store navigation and URL redirects',
  write_online_store_navigation: 'Modify online store navigation and URL redirects',
  write_merchant_managed_fulfillment_orders: 'Modify fulfillment orders assigned to the shop',
  read_discounts: 'Read discounts',
  write_discounts: 'Modify discounts',
};

/**
 * The installation of the app the request's access token belongs to: the scopes the merchant
 * granted when installing it (OAuth) or configured on the custom app, as Shopify lists them.
 */
export function appInstallationView(ctx: ViewContext): View {
  return {
    __typename: 'AppInstallation',
    id: gid('AppInstallation', 1),
    accessScopes: [...ctx.scopes].map((handle) => ({
      __typename: 'AccessScope',
      handle,
      description: scopeDescriptions[handle] ?? handle.replace(/_/g, ' '),
    })),
  };
}

export function redirectView(r: { id: number; path: string; target: string }): View {
  return {
    __typename: 'UrlRedirect',
    id: gid('UrlRedirect', r.id),
    path: r.path,
    target: r.target,
  };
}

// ------------------------------------------------------------------ discounts

export const discountSortKeys: Record<string, (d: DiscountRec) => string | number> = {
  ID: (d) => d.id,
  CREATED_AT: (d) => d.createdAt,
  UPDATED_AT: (d) => d.updatedAt,
  STARTS_AT: (d) => d.startsAt,
  ENDS_AT: (d) => d.endsAt ?? '',
  TITLE: (d) => d.title.toLowerCase(),
  RELEVANCE: (d) => d.id,
};

const discountTypeNames = {
  basic: 'DiscountCodeBasic',
  freeShipping: 'DiscountCodeFreeShipping',
  bxgy: 'DiscountCodeBxgy',
  app: 'DiscountCodeApp',
} as const;

/** Search fields of the discount queries (codeDiscountNodes, discountNodesCount). */
export function discountSearchValues(ctx: ViewContext, d: DiscountRec): FieldValues {
  return (field) => {
    switch (field) {
      case 'id':
        return [d.id];
      case 'code':
        return d.codes.map((c) => c.code);
      case 'title':
        return [d.title];
      case 'method':
        return ['code'];
      case 'status':
        return [discountStatus(d, ctx.store.now()).toLowerCase()];
      case 'type':
      case 'discount_type':
        return [
          d.kind === 'freeShipping'
            ? 'free_shipping'
            : d.kind === 'basic'
              ? d.value && 'percentage' in d.value
                ? 'percentage'
                : 'fixed_amount'
              : d.kind,
        ];
      case 'starts_at':
        return [d.startsAt];
      case 'ends_at':
        return [d.endsAt];
      case 'created_at':
        return [d.createdAt];
      case 'updated_at':
        return [d.updatedAt];
      case 'times_used':
        return [d.codes.reduce((n, c) => n + c.asyncUsageCount, 0)];
      case 'tag':
        return d.tags;
      default:
        return undefined;
    }
  };
}

export function searchDiscounts(ctx: ViewContext, query: unknown): DiscountRec[] {
  const node = parseSearchQuery(typeof query === 'string' ? query : null);
  return [...ctx.store.discounts.values()].filter((d) =>
    matchesSearch(node, discountSearchValues(ctx, d), [d.title, ...d.codes.map((c) => c.code)]),
  );
}

function moneyV2(ctx: ViewContext, amount: string): View {
  const currency = ctx.store.config.currency;
  return {
    __typename: 'MoneyV2',
    amount: decimalOf(toMinorUnits(amount, currency), currency),
    currencyCode: currency,
  };
}

function formatted(ctx: ViewContext, amount: string): string {
  const currency = ctx.store.config.currency;
  return `${decimalOf(toMinorUnits(amount, currency), currency)} ${currency}`;
}

/** Shopify's one-line description of a discount, as the admin shows it. */
function discountSummary(ctx: ViewContext, d: DiscountRec, short: boolean): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  let what: string;
  if (d.kind === 'freeShipping') what = 'Free shipping on all products';
  else if (d.kind !== 'basic' || !d.value) what = d.title;
  else {
    const value =
      'percentage' in d.value
        ? `${Math.round(d.value.percentage * 10_000) / 100}%`
        : formatted(ctx, d.value.amount);
    const each = 'amount' in d.value && d.value.appliesOnEachItem ? ' each' : '';
    const items =
      'all' in d.items
        ? 'entire order'
        : 'collectionIds' in d.items
          ? plural(d.items.collectionIds.length, 'collection')
          : plural(d.items.productIds.length + d.items.variantIds.length, 'product');
    what = `${value} off${each} ${items}`;
  }
  if (short) return what;
  const parts = [what];
  const minimum = d.minimumRequirement;
  if (minimum && 'subtotal' in minimum)
    parts.push(`Minimum purchase of ${formatted(ctx, minimum.subtotal)}`);
  if (minimum && 'quantity' in minimum) parts.push(`Minimum quantity of ${minimum.quantity} items`);
  parts.push(d.customerIds ? `For ${plural(d.customerIds.length, 'customer')}` : 'All customers');
  if (d.usageLimit !== null) parts.push(`Limit of ${plural(d.usageLimit, 'use')}`);
  if (d.appliesOncePerCustomer) parts.push('one use per customer');
  return parts.join(' • ');
}

function discountItemsView(ctx: ViewContext, d: DiscountRec): View {
  const items = d.items;
  if ('all' in items) return { __typename: 'AllDiscountItems', allItems: true };
  if ('collectionIds' in items)
    return {
      __typename: 'DiscountCollections',
      collections: (args: Args) =>
        connection(
          ctx,
          items.collectionIds
            .map((id) => ctx.store.collections.get(id))
            .filter((c): c is CollectionRec => c !== undefined),
          args,
          (c) => [c.id],
          (c) => collectionView(ctx, c),
        ),
    };
  return {
    __typename: 'DiscountProducts',
    products: (args: Args) =>
      connection(
        ctx,
        items.productIds
          .map((id) => ctx.store.products.get(id))
          .filter((p): p is ProductRec => p !== undefined),
        args,
        (p) => [p.id],
        (p) => productView(ctx, p),
      ),
    productVariants: (args: Args) =>
      connection(
        ctx,
        items.variantIds.flatMap((id) => {
          const found = ctx.store.findVariant(id);
          return found ? [found] : [];
        }),
        args,
        (f) => [f.variant.id],
        (f) => variantView(ctx, f.product, f.variant),
      ),
  };
}

function discountCustomers(ctx: ViewContext, d: DiscountRec): View[] {
  return (d.customerIds ?? [])
    .map((id) => ctx.store.customers.get(id))
    .filter((c): c is CustomerRec => c !== undefined)
    .map((c) => customerView(ctx, c));
}

/** The discount's own object (the DiscountCode union member of its kind). */
function codeDiscountView(ctx: ViewContext, d: DiscountRec): View {
  const usage = d.codes.reduce((n, c) => n + c.asyncUsageCount, 0);
  const classes =
    d.kind === 'freeShipping'
      ? ['SHIPPING']
      : d.kind === 'basic' && !('all' in d.items)
        ? ['PRODUCT']
        : ['ORDER'];
  const common: View = {
    __typename: discountTypeNames[d.kind],
    title: d.title,
    codes: (args: Args) =>
      connection(
        ctx,
        d.codes,
        args,
        (c) => [c.id],
        (c) => ({
          __typename: 'DiscountRedeemCode',
          id: gid('DiscountRedeemCode', c.id),
          code: c.code,
          asyncUsageCount: c.asyncUsageCount,
          createdBy: null,
        }),
      ),
    codesCount: { count: d.codes.length, precision: 'EXACT' },
    asyncUsageCount: usage,
    appliesOncePerCustomer: d.appliesOncePerCustomer,
    combinesWith: { ...d.combinesWith, productDiscountsWithTagsOnSameCartLine: null },
    context: d.customerIds
      ? { __typename: 'DiscountCustomers', customers: () => discountCustomers(ctx, d) }
      : { __typename: 'DiscountBuyerSelectionAll', all: 'ALL' },
    customerSelection: d.customerIds
      ? { __typename: 'DiscountCustomers', customers: () => discountCustomers(ctx, d) }
      : { __typename: 'DiscountCustomerAll', allCustomers: true },
    discountClass: classes[0],
    discountClasses: classes,
    startsAt: d.startsAt,
    endsAt: d.endsAt,
    status: () => discountStatus(d, ctx.store.now()),
    summary: () => discountSummary(ctx, d, false),
    shortSummary: () => discountSummary(ctx, d, true),
    hasTimelineComment: false,
    shareableUrls: [],
    tags: d.tags,
    totalSales: null,
    usageLimit: d.usageLimit,
    recurringCycleLimit: d.recurringCycleLimit,
    appliesOnOneTimePurchase: d.appliesOnOneTimePurchase,
    appliesOnSubscription: d.appliesOnSubscription,
    minimumRequirement: !d.minimumRequirement
      ? null
      : 'subtotal' in d.minimumRequirement
        ? {
            __typename: 'DiscountMinimumSubtotal',
            greaterThanOrEqualToSubtotal: moneyV2(ctx, d.minimumRequirement.subtotal),
          }
        : {
            __typename: 'DiscountMinimumQuantity',
            greaterThanOrEqualToQuantity: d.minimumRequirement.quantity,
          },
    createdAt: d.createdAt,
    updatedAt: d.updatedAt,
  };
  if (d.kind === 'freeShipping')
    return {
      ...common,
      maximumShippingPrice: d.maximumShippingPrice ? moneyV2(ctx, d.maximumShippingPrice) : null,
      destinationSelection: d.countries
        ? { __typename: 'DiscountCountries', countries: d.countries, includeRestOfWorld: false }
        : { __typename: 'DiscountCountryAll', allCountries: true },
    };
  const value = d.value ?? { percentage: 0 };
  return {
    ...common,
    customerGets: {
      appliesOnOneTimePurchase: d.appliesOnOneTimePurchase,
      appliesOnSubscription: d.appliesOnSubscription,
      items: () => discountItemsView(ctx, d),
      value:
        'percentage' in value
          ? { __typename: 'DiscountPercentage', percentage: value.percentage }
          : {
              __typename: 'DiscountAmount',
              amount: moneyV2(ctx, value.amount),
              appliesOnEachItem: value.appliesOnEachItem,
            },
    },
  };
}

/** A code discount as a DiscountNode (discountNodes, discountNode): same id, `discount` field. */
export function discountNodeView(ctx: ViewContext, d: DiscountRec): View {
  const { codeDiscount, ...node } = codeDiscountNodeView(ctx, d);
  return { ...node, __typename: 'DiscountNode', discount: codeDiscount };
}

export function codeDiscountNodeView(ctx: ViewContext, d: DiscountRec): View {
  return {
    __typename: 'DiscountCodeNode',
    id: gid('DiscountCodeNode', d.id),
    codeDiscount: codeDiscountView(ctx, d),
    events: (args: Args) =>
      connection(
        ctx,
        [],
        args,
        () => [],
        () => null,
      ),
    ...metafieldFields(ctx, 'DISCOUNT', d.metafields),
  };
}

export { count as countView };
