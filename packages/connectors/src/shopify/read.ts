import type { Brand } from '@replatform/canonical/brand';
import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import type { Review } from '@replatform/canonical/review';
import type { Checkpoint, Page } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { isEmptyValue, splitNativePath, type SourceField } from '../kit/fields.ts';
import {
  gidNumber,
  gidType,
  runBulkQuery,
  type BulkOptions,
  type Grouped,
  type JsonlObject,
} from './bulk.ts';
import { articleToPost, pageToCanonical } from './content.ts';
import {
  ARTICLE_PAGE_SIZE,
  articleSchema,
  articlesPage,
  BLOG_PAGE_SIZE,
  blogsPage,
  PAGE_PAGE_SIZE,
  pageSchema,
  pagesPage,
  bulkCollectionsQuery,
  bulkCustomersQuery,
  bulkOrdersQuery,
  bulkProductsQuery,
  bulkVariantExtrasQuery,
  COLLECTION_PAGE_SIZE,
  collectionSchema,
  COUPON_PAGE_SIZE,
  couponItemsPage,
  couponSchema,
  couponsPage,
  collectionsPage,
  counts,
  CUSTOMER_PAGE_SIZE,
  customerAddressesPage,
  customerSchema,
  customersPage,
  metafieldsPage,
  ORDER_PAGE_SIZE,
  orderDiscountApplicationsPage,
  orderLinesPage,
  orderRefunds,
  orderSchema,
  orderShippingLinesPage,
  ordersPage,
  PRODUCT_PAGE_SIZE,
  productCollectionsPage,
  productMediaPage,
  productSchema,
  productsPage,
  productVariantsPage,
  refundLinesPage,
  REVIEW_PRODUCTS_PAGE,
  productReviewsPage,
  productVendorsPage,
  type ShopifyMetafield,
  VENDOR_PAGE_SIZE,
} from './documents.ts';
import type { Operation, ShopifyGraphqlClient } from './graphql-client.ts';
import { shopifyNativeFields } from './native-fields.ts';
import { isMarker } from './own-fields.ts';
import { parseReviewList, withoutReviewFields, type ReviewsMetafield } from './reviews.ts';
import {
  collectionToCategory,
  couponToCanonical,
  customerToCanonical,
  orderToCanonical,
  productToCanonical,
  reviewToCanonical,
  vendorToBrand,
  type Loss,
  type Mapped,
} from './to-canonical.ts';

/**
 * Reading a shop. Small stores are read page by page (cursor pagination, at most 250 per page and
 * 25,000 reachable); a store with more records than the bulk threshold is read with bulk queries
 * per entity, whose JSONL results are reassembled here. Both paths give the same native records
 * (the nodes the page queries answer, nested connections completed, without the migration marker)
 * and so the same canonical records. Reviews are the entries of the products' replatform.reviews
 * lists (reviews.ts), read by walking the products. Brands are the distinct vendors the products
 * name (productVendors), Shopify having no brand records.
 */

export interface ReadContext extends Omit<BulkOptions, 'client'> {
  client: ShopifyGraphqlClient;
  currency: () => Promise<string>;
  /** Above this many records an entity is read with a bulk operation. */
  bulkThreshold: number;
}

export const readPageSizes: Record<EntityType, number> = {
  categories: COLLECTION_PAGE_SIZE,
  brands: VENDOR_PAGE_SIZE,
  products: PRODUCT_PAGE_SIZE * 5,
  coupons: COUPON_PAGE_SIZE * 5,
  customers: CUSTOMER_PAGE_SIZE * 2,
  orders: ORDER_PAGE_SIZE * 8,
  reviews: REVIEW_PRODUCTS_PAGE,
  pages: PAGE_PAGE_SIZE,
  posts: ARTICLE_PAGE_SIZE,
};

interface Cursor {
  mode: 'page' | 'bulk';
  /** page: Shopify's endCursor; bulk: the last id read. */
  after: string | null;
}

function encode(cursor: Cursor): Checkpoint {
  return { version: 1, cursor: JSON.stringify(cursor) };
}

function decode(checkpoint: Checkpoint | null): Cursor | null {
  if (!checkpoint) return null;
  try {
    const parsed = JSON.parse(checkpoint.cursor) as Partial<Cursor>;
    if (
      (parsed.mode === 'page' || parsed.mode === 'bulk') &&
      (parsed.after === null || typeof parsed.after === 'string')
    )
      return { mode: parsed.mode, after: parsed.after };
  } catch {
    // fall through
  }
  throw new ConnectorError(
    'system',
    'bad_checkpoint',
    'The read checkpoint is not a Shopify checkpoint.',
  );
}

export async function countOf(client: ShopifyGraphqlClient, entity: EntityType): Promise<number> {
  // Shopify counts no metafield entries: the lists are read and their entries counted.
  if (entity === 'reviews') {
    let n = 0;
    for await (const product of reviewProducts(client, null)) n += reviewEntries(product).length;
    return n;
  }
  // productVendors has no count: the vendors are walked, 1000 (2 points) a page.
  if (entity === 'brands') {
    let n = 0;
    for await (const page of vendorPages(client, null)) n += page.vendors.length;
    return n;
  }
  // There is no articlesCount at the root: each blog counts its articles.
  if (entity === 'posts') {
    let n = 0;
    let after: string | null = null;
    for (;;) {
      const {
        blogs,
      }: {
        blogs: {
          pageInfo: Nested['pageInfo'];
          nodes: { articlesCount: { count: number } | null }[];
        };
      } = await client.request(blogsPage, { first: BLOG_PAGE_SIZE, after });
      for (const b of blogs.nodes) n += b.articlesCount?.count ?? 0;
      if (!blogs.pageInfo.hasNextPage) return n;
      after = blogs.pageInfo.endCursor;
    }
  }
  const { count } = await client.request(
    counts[entity] as Operation<{ count: { count: number } | null }>,
  );
  return count?.count ?? 0;
}

type Node = Record<string, unknown>;
type Nested = { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: unknown[] };

const done = { hasNextPage: false, endCursor: null };

/** Reads the rest of a nested connection that did not fit into the page query. */
async function completeNested(
  first: Nested | undefined,
  fetch: (after: string | null) => Promise<Nested | undefined>,
): Promise<Nested> {
  const nodes = [...(first?.nodes ?? [])];
  let info = first?.pageInfo ?? done;
  while (info.hasNextPage) {
    const next = await fetch(info.endCursor);
    if (!next) break;
    nodes.push(...next.nodes);
    info = next.pageInfo;
  }
  return { pageInfo: done, nodes };
}

/** The record's metafields completed, without the migration's marker. */
async function completeMetafields(
  client: ShopifyGraphqlClient,
  id: string,
  first: Nested | undefined,
): Promise<Nested> {
  const all = await completeNested(
    first,
    async (after) => (await client.request(metafieldsPage, { id, after })).node?.metafields,
  );
  return {
    pageInfo: done,
    nodes: all.nodes.filter((m) => !isMarker(m as { namespace: string; key: string })),
  };
}

const nested = (node: Node, key: string) => node[key] as Nested | undefined;

/** A product's metafields without its reviews list and the stars worked out from it (reviews). */
const withoutReviews = (metafields: Nested): Nested => ({
  ...metafields,
  nodes: withoutReviewFields(metafields.nodes as ShopifyMetafield[]),
});

async function completeProduct(client: ShopifyGraphqlClient, p: Node): Promise<Node> {
  const id = String(p.id);
  const variants = await completeNested(
    nested(p, 'variants'),
    async (after) =>
      (await client.request(productVariantsPage, { id, after })).product?.variants as Nested,
  );
  const completedVariants: Node[] = [];
  for (const v of variants.nodes as Node[])
    completedVariants.push({
      ...v,
      metafields: await completeMetafields(client, String(v.id), nested(v, 'metafields')),
    });
  return {
    ...p,
    variants: { pageInfo: done, nodes: completedVariants },
    media: await completeNested(
      nested(p, 'media'),
      async (after) => (await client.request(productMediaPage, { id, after })).product?.media,
    ),
    metafields: withoutReviews(await completeMetafields(client, id, nested(p, 'metafields'))),
    collections: await completeNested(
      nested(p, 'collections'),
      async (after) =>
        (await client.request(productCollectionsPage, { id, after })).product?.collections,
    ),
  };
}

/** A page or article with all its metafields (the SEO fields among them). */
async function completeContent(client: ShopifyGraphqlClient, c: Node): Promise<Node> {
  return {
    ...c,
    metafields: await completeMetafields(client, String(c.id), nested(c, 'metafields')),
  };
}

async function completeCollection(client: ShopifyGraphqlClient, c: Node): Promise<Node> {
  return {
    ...c,
    metafields: await completeMetafields(client, String(c.id), nested(c, 'metafields')),
  };
}

/** A discount with all the products or collections it is limited to, and all its metafields. */
async function completeCoupon(client: ShopifyGraphqlClient, c: Node): Promise<Node> {
  const id = String(c.id);
  const discount = c.discount as Node;
  const gets = discount.customerGets as { items: Node } | undefined;
  let completed = discount;
  if (gets) {
    const items = { ...gets.items };
    for (const key of ['products', 'collections'] as const) {
      if (!items[key]) continue;
      items[key] = await completeNested(
        nested(gets.items, key),
        async (after) =>
          (await client.request(couponItemsPage, { id, after })).discountNode?.discount.customerGets
            ?.items[key],
      );
    }
    completed = { ...discount, customerGets: { ...gets, items } };
  }
  return {
    ...c,
    discount: completed,
    metafields: await completeMetafields(client, id, nested(c, 'metafields')),
  };
}

async function completeCustomer(client: ShopifyGraphqlClient, c: Node): Promise<Node> {
  const id = String(c.id);
  return {
    ...c,
    addressesV2: await completeNested(
      nested(c, 'addressesV2'),
      async (after) =>
        (await client.request(customerAddressesPage, { id, after })).customer?.addressesV2,
    ),
    metafields: await completeMetafields(client, id, nested(c, 'metafields')),
  };
}

async function completeRefunds(client: ShopifyGraphqlClient, refunds: Node[]): Promise<Node[]> {
  const out: Node[] = [];
  for (const r of refunds)
    out.push({
      ...r,
      refundLineItems: await completeNested(
        nested(r, 'refundLineItems'),
        async (after) =>
          (await client.request(refundLinesPage, { id: String(r.id), after })).refund
            ?.refundLineItems,
      ),
    });
  return out;
}

async function completeOrder(client: ShopifyGraphqlClient, o: Node): Promise<Node> {
  const id = String(o.id);
  return {
    ...o,
    refunds: await completeRefunds(client, (o.refunds as Node[] | undefined) ?? []),
    lineItems: await completeNested(
      nested(o, 'lineItems'),
      async (after) => (await client.request(orderLinesPage, { id, after })).order?.lineItems,
    ),
    shippingLines: await completeNested(
      nested(o, 'shippingLines'),
      async (after) =>
        (await client.request(orderShippingLinesPage, { id, after })).order?.shippingLines,
    ),
    discountApplications: await completeNested(
      nested(o, 'discountApplications'),
      async (after) =>
        (await client.request(orderDiscountApplicationsPage, { id, after })).order
          ?.discountApplications,
    ),
    metafields: await completeMetafields(client, id, nested(o, 'metafields')),
  };
}

// ------------------------------------------------------------------ native records -> model

/** Values of a native path ('variants.nodes[].sku') in a record, through the lists on its way. */
function valuesAt(value: unknown, parts: string[]): unknown[] {
  const [head, ...rest] = parts;
  if (head === undefined) return [value];
  if (head === '[]') return Array.isArray(value) ? value.flatMap((v) => valuesAt(v, rest)) : [];
  if (value === null || typeof value !== 'object') return [];
  return valuesAt((value as Node)[head], rest);
}

/** Native fields declared notCarried that a record has a value in: each a loss of that record. */
function staticLosses(record: unknown, catalogue: Readonly<Record<string, SourceField>>): Loss[] {
  const out: Loss[] = [];
  for (const [path, field] of Object.entries(catalogue)) {
    if (!('notCarried' in field)) continue;
    if (valuesAt(record, splitNativePath(path)).some((v) => !isEmptyValue(v)))
      out.push({ field: path, reason: field.notCarried });
  }
  return out;
}

type MappedPage<E extends EntityType> = Required<Pick<Page<E>, 'rejected' | 'losses'>> & {
  records: EntityRecord[E][];
};

async function mapEntity<E extends EntityType>(
  ctx: ReadContext,
  entity: E,
  nodes: unknown[],
): Promise<MappedPage<E>> {
  const currency = await ctx.currency();
  const out: MappedPage<E> = { records: [], rejected: [], losses: [] };
  const catalogue = shopifyNativeFields[entity] ?? {};
  for (const node of nodes) {
    let mapped: Mapped<EntityRecord[EntityType]>;
    switch (entity) {
      case 'categories':
        mapped = collectionToCategory(collectionSchema.parse(node));
        break;
      case 'products':
        mapped = productToCanonical(productSchema.parse(node), currency);
        break;
      case 'coupons':
        mapped = couponToCanonical(couponSchema.parse(node), currency);
        break;
      case 'customers':
        mapped = customerToCanonical(customerSchema.parse(node));
        break;
      case 'pages':
        mapped = pageToCanonical(pageSchema.parse(node));
        break;
      case 'posts':
        mapped = articleToPost(articleSchema.parse(node));
        break;
      default:
        mapped = orderToCanonical(orderSchema.parse(node));
    }
    const sourceId = String((node as Node).id);
    if ('rejected' in mapped) {
      out.rejected.push({ sourceId, reason: mapped.rejected });
      continue;
    }
    out.records.push(mapped.record as EntityRecord[E]);
    for (const loss of [...staticLosses(node, catalogue), ...mapped.losses])
      out.losses.push({ sourceId, ...loss });
  }
  return out;
}

// ------------------------------------------------------------------ paged reads

/**
 * Entities read through their own API pages and mapped from nodes (reviews are read through the
 * products, brands from the list of vendors).
 */
type PagedEntity = Exclude<EntityType, 'reviews' | 'brands'>;

/** One API page of native records, each completed. */
async function fetchPage(
  client: ShopifyGraphqlClient,
  entity: PagedEntity,
  after: string | null,
): Promise<{ nodes: Node[]; next: string | null }> {
  const page = async <T extends { pageInfo: Nested['pageInfo']; nodes: unknown[] }>(
    connection: T,
    complete: (client: ShopifyGraphqlClient, node: Node) => Promise<Node>,
  ) => {
    const nodes: Node[] = [];
    for (const n of connection.nodes) nodes.push(await complete(client, n as Node));
    return {
      nodes,
      next: connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null,
    };
  };
  switch (entity) {
    case 'categories': {
      const { collections } = await client.request(collectionsPage, {
        first: COLLECTION_PAGE_SIZE,
        after,
      });
      return page(collections, completeCollection);
    }
    case 'products': {
      const { products } = await client.request(productsPage, { first: PRODUCT_PAGE_SIZE, after });
      return page(products, completeProduct);
    }
    case 'coupons': {
      const { discountNodes } = await client.request(couponsPage, {
        first: COUPON_PAGE_SIZE,
        after,
      });
      return page(discountNodes, completeCoupon);
    }
    case 'customers': {
      const { customers } = await client.request(customersPage, {
        first: CUSTOMER_PAGE_SIZE,
        after,
      });
      return page(customers, completeCustomer);
    }
    case 'orders': {
      const { orders } = await client.request(ordersPage, { first: ORDER_PAGE_SIZE, after });
      return page(orders, completeOrder);
    }
    case 'pages': {
      const { pages } = await client.request(pagesPage, { first: PAGE_PAGE_SIZE, after });
      return page(pages, completeContent);
    }
    case 'posts': {
      const { articles } = await client.request(articlesPage, {
        first: ARTICLE_PAGE_SIZE,
        after,
      });
      return page(articles, completeContent);
    }
  }
}

async function* readPaged<E extends PagedEntity>(
  ctx: ReadContext,
  entity: E,
  start: string | null,
): AsyncIterable<Page<E>> {
  let after = start;
  let first = true;
  for (;;) {
    const nodes: Node[] = [];
    let next: string | null = after;
    // Several API pages make one read page, so checkpoints stay few.
    do {
      const page = await fetchPage(ctx.client, entity, next);
      nodes.push(...page.nodes);
      next = page.next;
    } while (next !== null && nodes.length < readPageSizes[entity]);
    const mapped = await mapEntity(ctx, entity, nodes);
    if (nodes.length > 0 || first)
      yield {
        records: mapped.records,
        next: next === null ? null : encode({ mode: 'page', after: next }),
        ...(mapped.rejected.length ? { rejected: mapped.rejected } : {}),
        ...(mapped.losses.length ? { losses: mapped.losses } : {}),
      };
    first = false;
    if (next === null) return;
    after = next;
  }
}

/**
 * Every record of an entity as the connector reads it from Shopify (the native records the
 * catalogue of native-fields.ts describes), by page.
 */
export async function readNativeRecords(
  client: ShopifyGraphqlClient,
  entity: EntityType,
): Promise<{ id: string; record: Node }[]> {
  const out: { id: string; record: Node }[] = [];
  if (entity === 'reviews') {
    for await (const product of reviewProducts(client, null))
      for (const entry of reviewEntries(product))
        out.push({
          id: `${gidNumber(product.id)}:${entry.key}`,
          record: { product: { id: product.id }, ...entry },
        });
    return out;
  }
  // A vendor is a string: its native record holds it as { vendor }.
  if (entity === 'brands') {
    for await (const page of vendorPages(client, null))
      for (const vendor of page.vendors) out.push({ id: vendor, record: { vendor } });
    return out;
  }
  let after: string | null = null;
  do {
    const page = await fetchPage(client, entity, after);
    for (const record of page.nodes) out.push({ id: String(record.id), record });
    after = page.next;
  } while (after !== null);
  return out;
}

// ------------------------------------------------------------------ bulk reads

function connection(nodes: unknown[]) {
  return { pageInfo: done, nodes };
}

/** Nested objects as the page queries answer them: bulk-only ids and markers left out. */
const metafieldNodes = (objects: JsonlObject[]) =>
  objects
    .filter((m) => !isMarker(m as { namespace: string; key: string }))
    .map(({ id: _id, ...rest }) => rest);

/**
 * Puts one root object back together with its children, taking them out of `children` so that
 * what was handed on is not held twice.
 */
function assemble(
  entity: BulkEntity,
  root: JsonlObject,
  children: Grouped['children'],
  variantExtras: Map<string, { media: unknown[]; metafields: unknown[] }>,
): Node {
  const own = children.get(String(root.id)) ?? [];
  children.delete(String(root.id));
  const kids = (...types: string[]) =>
    own.filter((c) =>
      types.includes(gidType(c.id) ?? (c.index !== undefined ? 'DiscountApplication' : '')),
    );
  const metafields = connection(metafieldNodes(kids('Metafield')));
  switch (entity) {
    case 'categories':
      return { ...root, metafields };
    case 'products':
      return {
        ...root,
        variants: connection(
          kids('ProductVariant').map((v) => {
            const extras = variantExtras.get(String(v.id));
            return {
              ...v,
              media: { nodes: extras?.media.slice(0, 1) ?? [] },
              metafields: connection(extras?.metafields ?? []),
            };
          }),
        ),
        media: connection(kids('MediaImage', 'Video', 'ExternalVideo', 'Model3d')),
        metafields: withoutReviews(metafields),
        collections: connection(kids('Collection')),
      };
    case 'customers':
      return { ...root, addressesV2: connection(kids('MailingAddress')), metafields };

    case 'orders':
      return {
        ...root,
        lineItems: connection(kids('LineItem')),
        shippingLines: connection(kids('ShippingLine').map(({ id: _id, ...rest }) => rest)),
        discountApplications: connection(kids('DiscountApplication')),
        metafields,
      };
  }
}

/**
 * Coupons, pages and blog articles are read page by page only: shops hold few of them. Reviews
 * are read through the products' lists, brands from the list of vendors.
 */
type BulkEntity = Exclude<EntityType, 'coupons' | 'reviews' | 'brands' | 'pages' | 'posts'>;

const bulkQueries: Record<BulkEntity, (filter: string) => string> = {
  categories: bulkCollectionsQuery,
  products: bulkProductsQuery,
  customers: bulkCustomersQuery,
  orders: bulkOrdersQuery,
};

/** Each variant's image and metafields, read with a second bulk query. */
async function variantExtrasOf(
  filter: string,
  options: BulkOptions,
): Promise<Map<string, { media: unknown[]; metafields: unknown[] }>> {
  const variants = await runBulkQuery(bulkVariantExtrasQuery(filter), options);
  const extras = new Map<string, { media: unknown[]; metafields: unknown[] }>();
  for (const v of variants.roots) {
    const own = variants.children.get(String(v.id)) ?? [];
    extras.set(String(v.id), {
      media: own.filter((c) => gidType(c.id) !== 'Metafield').map((c) => ({ id: c.id })),
      metafields: metafieldNodes(own.filter((c) => gidType(c.id) === 'Metafield')),
    });
  }
  return extras;
}

async function* readBulk<E extends BulkEntity>(
  ctx: ReadContext,
  entity: E,
  after: string | null,
): AsyncIterable<Page<E>> {
  const filter = after ? `id:>${gidNumber(after)}` : '';
  const options: BulkOptions = { ...ctx, client: ctx.client };
  let variantExtras = new Map<string, { media: unknown[]; metafields: unknown[] }>();
  let grouped: Grouped;
  if (entity === 'products') {
    const [products, extras] = await Promise.all([
      runBulkQuery(bulkQueries.products(filter), options),
      variantExtrasOf(after ? `product_id:>${gidNumber(after)}` : '', options),
    ]);
    grouped = products;
    variantExtras = extras;
  } else {
    grouped = await runBulkQuery(bulkQueries[entity](filter), options);
  }
  const { roots, children } = grouped;
  const size = readPageSizes[entity];
  if (roots.length === 0) {
    yield { records: [], next: null };
    return;
  }
  for (let i = 0; i < roots.length; i += size) {
    const slice = roots.slice(i, i + size);
    const nodes: Node[] = [];
    for (const root of slice) {
      const node = assemble(entity, root, children, variantExtras);
      // Refund lines would be a sixth connection of the bulk query: the few orders with refunds
      // have them read on their own.
      if (entity === 'orders' && Array.isArray(node.refunds) && node.refunds.length) {
        const answer = await ctx.client.request(orderRefunds, { id: String(node.id) });
        node.refunds = await completeRefunds(ctx.client, (answer.order?.refunds ?? []) as Node[]);
      }
      nodes.push(node);
    }
    // Pages already handed on need not stay in memory while the rest is read.
    roots.fill({}, i, i + slice.length);
    const mapped = await mapEntity(ctx, entity, nodes);
    const last = slice[slice.length - 1] as { id: string };
    yield {
      records: mapped.records,
      next: i + size >= roots.length ? null : encode({ mode: 'bulk', after: last.id }),
      ...(mapped.rejected.length ? { rejected: mapped.rejected } : {}),
      ...(mapped.losses.length ? { losses: mapped.losses } : {}),
    };
  }
}

export async function* readEntity<E extends EntityType>(
  ctx: ReadContext,
  entity: E,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<E>> {
  if (entity === 'reviews') {
    yield* readReviews(ctx, checkpoint) as AsyncIterable<Page<E>>;
    return;
  }
  if (entity === 'brands') {
    yield* readBrands(ctx, checkpoint) as AsyncIterable<Page<E>>;
    return;
  }
  const paged = entity as PagedEntity;
  const cursor = decode(checkpoint);
  const mode =
    paged === 'coupons' || paged === 'pages' || paged === 'posts'
      ? 'page'
      : (cursor?.mode ??
        ((await countOf(ctx.client, paged)) > ctx.bulkThreshold ? 'bulk' : 'page'));
  if (mode === 'bulk' && paged !== 'coupons' && paged !== 'pages' && paged !== 'posts')
    yield* readBulk(ctx, paged, cursor?.after ?? null) as AsyncIterable<Page<E>>;
  else yield* readPaged(ctx, paged, cursor?.after ?? null) as AsyncIterable<Page<E>>;
}

// ------------------------------------------------------------------ reviews

/** Objects one search of products can page through (Shopify's pagination limit). */
const REACHABLE = 25_000;

type ReviewProduct = { id: string; reviews: ReviewsMetafield | null };

/**
 * Every product in id order with its reviews list, from the product `from` on (its number; all
 * when null). Shopify's search cannot filter by a json metafield, so every product is walked,
 * REVIEW_PRODUCTS_PAGE at a time; past 25,000 products a new search starts after the last one.
 */
async function* reviewProducts(
  client: ShopifyGraphqlClient,
  from: string | null,
): AsyncIterable<ReviewProduct> {
  let query: string | null = from === null ? null : `id:>=${from}`;
  let after: string | null = null;
  let walked = 0;
  for (;;) {
    const { products }: { products: { pageInfo: Nested['pageInfo']; nodes: ReviewProduct[] } } =
      await client.request(productReviewsPage, {
        first: REVIEW_PRODUCTS_PAGE,
        after,
        query,
      });
    for (const product of products.nodes) yield product;
    const last = products.nodes[products.nodes.length - 1];
    if (!products.pageInfo.hasNextPage || !last) return;
    walked += products.nodes.length;
    if (walked + REVIEW_PRODUCTS_PAGE > REACHABLE) {
      query = `id:>${gidNumber(last.id)}`;
      after = null;
      walked = 0;
    } else after = products.pageInfo.endCursor;
  }
}

/**
 * The reviews of a product's list. A list in another shape is not Replatform's: it is no reviews
 * and stays the product's own metafield (read with the product).
 */
function reviewEntries(product: ReviewProduct) {
  const parsed = parseReviewList(product.reviews);
  return 'entries' in parsed ? parsed.entries : [];
}

/** Where a reviews read stands: from product `from` (its number) on, its first `skip` entries read. */
interface ReviewCursor {
  from: string;
  skip: number;
}

function decodeReviews(checkpoint: Checkpoint | null): ReviewCursor | null {
  if (!checkpoint) return null;
  try {
    const parsed = JSON.parse(checkpoint.cursor) as Partial<ReviewCursor> & { mode?: unknown };
    if (
      parsed.mode === 'reviews' &&
      typeof parsed.from === 'string' &&
      /^\d+$/.test(parsed.from) &&
      typeof parsed.skip === 'number'
    )
      return { from: parsed.from, skip: parsed.skip };
  } catch {
    // fall through
  }
  throw new ConnectorError(
    'system',
    'bad_checkpoint',
    'The read checkpoint is not a Shopify reviews checkpoint.',
  );
}

/**
 * Reviews page by page, REVIEW_PRODUCTS_PAGE at a time; a checkpoint names the product and how
 * many of its entries were read, so a product with many reviews may span pages (entries are
 * added at the end of a list, so those read stay first).
 */
async function* readReviews(
  ctx: ReadContext,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<'reviews'>> {
  const start = decodeReviews(checkpoint);
  const size = readPageSizes.reviews;
  let records: Review[] = [];
  let yielded = false;
  for await (const product of reviewProducts(ctx.client, start?.from ?? null)) {
    const number = gidNumber(product.id);
    const entries = reviewEntries(product);
    const skip = start && number === start.from ? start.skip : 0;
    for (let i = skip; i < entries.length; i++) {
      records.push(reviewToCanonical(product.id, entries[i] as (typeof entries)[number]));
      if (records.length < size) continue;
      yield {
        records,
        next: {
          version: 1,
          cursor: JSON.stringify({ mode: 'reviews', from: number, skip: i + 1 }),
        },
      };
      yielded = true;
      records = [];
    }
  }
  if (records.length || !yielded) yield { records, next: null };
}

// ------------------------------------------------------------------ brands

/**
 * The shop's vendors (QueryRoot.productVendors: each vendor the products name, once), one API page
 * at a time from the cursor `after` (from the start when null), with the cursor after each page.
 */
async function* vendorPages(
  client: ShopifyGraphqlClient,
  after: string | null,
): AsyncIterable<{ vendors: string[]; next: string | null }> {
  let cursor = after;
  for (;;) {
    const { productVendors } = await client.request(productVendorsPage, {
      first: VENDOR_PAGE_SIZE,
      after: cursor,
    });
    const vendors = productVendors?.nodes ?? [];
    const next =
      productVendors?.pageInfo.hasNextPage && productVendors.pageInfo.endCursor
        ? productVendors.pageInfo.endCursor
        : null;
    yield { vendors, next };
    if (next === null) return;
    cursor = next;
  }
}

function decodeBrands(checkpoint: Checkpoint | null): string | null {
  if (!checkpoint) return null;
  try {
    const parsed = JSON.parse(checkpoint.cursor) as { mode?: unknown; after?: unknown };
    if (parsed.mode === 'vendors' && typeof parsed.after === 'string') return parsed.after;
  } catch {
    // fall through
  }
  throw new ConnectorError(
    'system',
    'bad_checkpoint',
    'The read checkpoint is not a Shopify brands checkpoint.',
  );
}

/**
 * Brands page by page: each page of vendors Shopify answers (up to 1000) is one read page, its
 * checkpoint the connection's cursor. A vendor's name is its id, so a vendor renamed on every
 * product between two reads is a brand gone and a new one.
 */
async function* readBrands(
  ctx: ReadContext,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<'brands'>> {
  for await (const page of vendorPages(ctx.client, decodeBrands(checkpoint))) {
    const records: Brand[] = page.vendors.map(vendorToBrand);
    yield {
      records,
      next:
        page.next === null
          ? null
          : { version: 1, cursor: JSON.stringify({ mode: 'vendors', after: page.next }) },
    };
  }
}
