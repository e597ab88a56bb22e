import type { EntityRecord, EntityType } from '@replatform/canonical/entities';
import type { Checkpoint, Page } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import {
  gidNumber,
  gidType,
  runBulkQuery,
  type BulkOptions,
  type Grouped,
  type JsonlObject,
} from './bulk.ts';
import {
  bulkCollectionsQuery,
  bulkCustomersQuery,
  bulkOrdersQuery,
  bulkProductsQuery,
  bulkVariantMediaQuery,
  COLLECTION_PAGE_SIZE,
  collectionSchema,
  collectionsPage,
  counts,
  CUSTOMER_PAGE_SIZE,
  customerAddressesPage,
  customerSchema,
  customersPage,
  ORDER_PAGE_SIZE,
  orderDiscountApplicationsPage,
  orderLinesPage,
  orderSchema,
  orderShippingLinesPage,
  ordersPage,
  PRODUCT_PAGE_SIZE,
  productCollectionsPage,
  productMediaPage,
  productMetafieldsPage,
  productSchema,
  productsPage,
  productVariantsPage,
  type ShopifyCustomer,
  type ShopifyOrder,
  type ShopifyProduct,
} from './documents.ts';
import type { Operation, ShopifyGraphqlClient } from './graphql-client.ts';
import {
  collectionToCategory,
  customerToCanonical,
  orderToCanonical,
  productToCanonical,
} from './to-canonical.ts';

/**
 * Reading a shop. Small stores are read page by page (cursor pagination, at most 250 per page and
 * 25,000 reachable); a store with more records than the bulk threshold is read with one bulk query
 * per entity, whose JSONL result is reassembled here. Both paths give identical records.
 */

export interface ReadContext extends Omit<BulkOptions, 'client'> {
  client: ShopifyGraphqlClient;
  currency: () => Promise<string>;
  /** Above this many records an entity is read with a bulk operation. */
  bulkThreshold: number;
}

export const readPageSizes: Record<EntityType, number> = {
  categories: COLLECTION_PAGE_SIZE,
  products: PRODUCT_PAGE_SIZE * 5,
  customers: CUSTOMER_PAGE_SIZE,
  orders: ORDER_PAGE_SIZE * 5,
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
  const { count } = await client.request(
    counts[entity] as Operation<{ count: { count: number } | null }>,
  );
  return count?.count ?? 0;
}

type Nested = { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: unknown[] };

/** Reads the rest of a nested connection that did not fit into the page query. */
async function completeNested<T>(
  first: Nested,
  fetch: (after: string | null) => Promise<Nested | undefined>,
): Promise<T[]> {
  const nodes = [...first.nodes] as T[];
  let info = first.pageInfo;
  while (info.hasNextPage) {
    const next = await fetch(info.endCursor);
    if (!next) break;
    nodes.push(...(next.nodes as T[]));
    info = next.pageInfo;
  }
  return nodes;
}

const done = { hasNextPage: false, endCursor: null };

async function completeProduct(
  client: ShopifyGraphqlClient,
  p: ShopifyProduct,
): Promise<ShopifyProduct> {
  const id = p.id;
  return {
    ...p,
    variants: {
      pageInfo: done,
      nodes: await completeNested(
        p.variants,
        async (after) =>
          (await client.request(productVariantsPage, { id, after })).product?.variants,
      ),
    },
    media: {
      pageInfo: done,
      nodes: await completeNested(
        p.media,
        async (after) => (await client.request(productMediaPage, { id, after })).product?.media,
      ),
    },
    metafields: {
      pageInfo: done,
      nodes: await completeNested(
        p.metafields,
        async (after) =>
          (await client.request(productMetafieldsPage, { id, after })).product?.metafields,
      ),
    },
    collections: {
      pageInfo: done,
      nodes: await completeNested(
        p.collections,
        async (after) =>
          (await client.request(productCollectionsPage, { id, after })).product?.collections,
      ),
    },
  };
}

async function completeCustomer(
  client: ShopifyGraphqlClient,
  c: ShopifyCustomer,
): Promise<ShopifyCustomer> {
  return {
    ...c,
    addressesV2: {
      pageInfo: done,
      nodes: await completeNested(
        c.addressesV2,
        async (after) =>
          (await client.request(customerAddressesPage, { id: c.id, after })).customer?.addressesV2,
      ),
    },
  };
}

async function completeOrder(client: ShopifyGraphqlClient, o: ShopifyOrder): Promise<ShopifyOrder> {
  const id = o.id;
  return {
    ...o,
    lineItems: {
      pageInfo: done,
      nodes: await completeNested(
        o.lineItems,
        async (after) => (await client.request(orderLinesPage, { id, after })).order?.lineItems,
      ),
    },
    shippingLines: {
      pageInfo: done,
      nodes: await completeNested(
        o.shippingLines,
        async (after) =>
          (await client.request(orderShippingLinesPage, { id, after })).order?.shippingLines,
      ),
    },
    discountApplications: {
      pageInfo: done,
      nodes: await completeNested(
        o.discountApplications,
        async (after) =>
          (await client.request(orderDiscountApplicationsPage, { id, after })).order
            ?.discountApplications,
      ),
    },
  };
}

type Mapped<E extends EntityType> = {
  records: EntityRecord[E][];
  rejected: { sourceId: string; reason: string }[];
};

function mapAll<E extends EntityType, S extends { id: string }>(
  sources: S[],
  map: (s: S) => EntityRecord[E] | { rejected: string },
): Mapped<E> {
  const out: Mapped<E> = { records: [], rejected: [] };
  for (const s of sources) {
    const result = map(s);
    if ('rejected' in result && typeof result.rejected === 'string')
      out.rejected.push({ sourceId: s.id, reason: result.rejected });
    else out.records.push(result as EntityRecord[E]);
  }
  return out;
}

async function mapEntity<E extends EntityType>(
  ctx: ReadContext,
  entity: E,
  nodes: unknown[],
  variantMedia?: Map<string, string>,
): Promise<Mapped<E>> {
  const currency = await ctx.currency();
  switch (entity) {
    case 'categories':
      return mapAll(
        nodes.map((n) => collectionSchema.parse(n)),
        (c) => collectionToCategory(c) as EntityRecord[E],
      );
    case 'products':
      return mapAll(
        nodes.map((n) => productSchema.parse(n)),
        (p) => productToCanonical(p, currency, variantMedia) as EntityRecord[E],
      );
    case 'customers':
      return mapAll(
        nodes.map((n) => customerSchema.parse(n)),
        (c) => customerToCanonical(c) as EntityRecord[E] | { rejected: string },
      );
    default:
      return mapAll(
        nodes.map((n) => orderSchema.parse(n)),
        (o) => orderToCanonical(o) as EntityRecord[E] | { rejected: string },
      );
  }
}

// ------------------------------------------------------------------ paged reads

async function fetchPage(
  ctx: ReadContext,
  entity: EntityType,
  after: string | null,
): Promise<{ nodes: unknown[]; next: string | null }> {
  const { client } = ctx;
  switch (entity) {
    case 'categories': {
      const { collections } = await client.request(collectionsPage, {
        first: COLLECTION_PAGE_SIZE,
        after,
      });
      return {
        nodes: collections.nodes,
        next: collections.pageInfo.hasNextPage ? collections.pageInfo.endCursor : null,
      };
    }
    case 'products': {
      const { products } = await client.request(productsPage, { first: PRODUCT_PAGE_SIZE, after });
      const nodes: ShopifyProduct[] = [];
      for (const p of products.nodes) nodes.push(await completeProduct(client, p));
      return { nodes, next: products.pageInfo.hasNextPage ? products.pageInfo.endCursor : null };
    }
    case 'customers': {
      const { customers } = await client.request(customersPage, {
        first: CUSTOMER_PAGE_SIZE,
        after,
      });
      const nodes: ShopifyCustomer[] = [];
      for (const c of customers.nodes) nodes.push(await completeCustomer(client, c));
      return { nodes, next: customers.pageInfo.hasNextPage ? customers.pageInfo.endCursor : null };
    }
    case 'orders': {
      const { orders } = await client.request(ordersPage, { first: ORDER_PAGE_SIZE, after });
      const nodes: ShopifyOrder[] = [];
      for (const o of orders.nodes) nodes.push(await completeOrder(client, o));
      return { nodes, next: orders.pageInfo.hasNextPage ? orders.pageInfo.endCursor : null };
    }
  }
}

async function* readPaged<E extends EntityType>(
  ctx: ReadContext,
  entity: E,
  start: string | null,
): AsyncIterable<Page<E>> {
  let after = start;
  let first = true;
  for (;;) {
    const nodes: unknown[] = [];
    let next: string | null = after;
    // Several API pages make one read page, so checkpoints stay few.
    do {
      const page = await fetchPage(ctx, entity, next);
      nodes.push(...page.nodes);
      next = page.next;
    } while (next !== null && nodes.length < readPageSizes[entity]);
    const mapped = await mapEntity(ctx, entity, nodes);
    if (nodes.length > 0 || first)
      yield {
        records: mapped.records,
        next: next === null ? null : encode({ mode: 'page', after: next }),
        ...(mapped.rejected.length ? { rejected: mapped.rejected } : {}),
      };
    first = false;
    if (next === null) return;
    after = next;
  }
}

// ------------------------------------------------------------------ bulk reads

function connection(nodes: JsonlObject[]) {
  return { pageInfo: done, nodes };
}

/**
 * Puts one root object back together with its children, taking them out of `children` so that
 * what was handed on is not held twice.
 */
function assemble(entity: EntityType, root: JsonlObject, children: Grouped['children']): unknown {
  const own = children.get(String(root.id)) ?? [];
  children.delete(String(root.id));
  const kids = (...types: string[]) =>
    connection(
      own.filter((c) =>
        types.includes(gidType(c.id) ?? (c.index !== undefined ? 'DiscountApplication' : '')),
      ),
    );
  switch (entity) {
    case 'categories':
      return root;
    case 'products':
      return {
        ...root,
        variants: kids('ProductVariant'),
        media: kids('MediaImage', 'Video', 'ExternalVideo', 'Model3d'),
        metafields: kids('Metafield'),
        collections: kids('Collection'),
      };
    case 'customers':
      return { ...root, addressesV2: kids('MailingAddress') };
    case 'orders':
      return {
        ...root,
        lineItems: kids('LineItem'),
        shippingLines: kids('ShippingLine'),
        discountApplications: kids('DiscountApplication'),
      };
  }
}

const bulkQueries: Record<EntityType, (filter: string) => string> = {
  categories: bulkCollectionsQuery,
  products: bulkProductsQuery,
  customers: bulkCustomersQuery,
  orders: bulkOrdersQuery,
};

async function* readBulk<E extends EntityType>(
  ctx: ReadContext,
  entity: E,
  after: string | null,
): AsyncIterable<Page<E>> {
  const filter = after ? `id:>${gidNumber(after)}` : '';
  const options: BulkOptions = { ...ctx, client: ctx.client };
  let variantMedia: Map<string, string> | undefined;
  let grouped: Grouped;
  if (entity === 'products') {
    const [products, variants] = await Promise.all([
      runBulkQuery(bulkQueries.products(filter), options),
      runBulkQuery(bulkVariantMediaQuery(after ? `product_id:>${gidNumber(after)}` : ''), options),
    ]);
    grouped = products;
    variantMedia = new Map();
    for (const v of variants.roots) {
      const media = variants.children.get(String(v.id))?.[0];
      if (typeof v.id === 'string' && typeof media?.id === 'string')
        variantMedia.set(v.id, media.id);
    }
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
    const nodes = slice.map((root) => assemble(entity, root, children));
    // Pages already handed on need not stay in memory while the rest is read.
    roots.fill({}, i, i + slice.length);
    const mapped = await mapEntity(ctx, entity, nodes, variantMedia);
    const last = slice[slice.length - 1] as { id: string };
    yield {
      records: mapped.records,
      next: i + size >= roots.length ? null : encode({ mode: 'bulk', after: last.id }),
      ...(mapped.rejected.length ? { rejected: mapped.rejected } : {}),
    };
  }
}

export async function* readEntity<E extends EntityType>(
  ctx: ReadContext,
  entity: E,
  checkpoint: Checkpoint | null,
): AsyncIterable<Page<E>> {
  const cursor = decode(checkpoint);
  const mode =
    cursor?.mode ?? ((await countOf(ctx.client, entity)) > ctx.bulkThreshold ? 'bulk' : 'page');
  if (mode === 'bulk') yield* readBulk(ctx, entity, cursor?.after ?? null);
  else yield* readPaged(ctx, entity, cursor?.after ?? null);
}
