import type { Brand } from '@replatform/canonical/brand';
import type { Category } from '@replatform/canonical/category';
import type { Page as WebPage, Post } from '@replatform/canonical/content';
import type { Coupon } from '@replatform/canonical/coupon';
import {
  brandDefaults,
  categoryDefaults,
  couponDefaults,
  customerDefaults,
  pageDefaults,
  postDefaults,
  inventoryDefaults,
  orderDefaults,
  orderLineDefaults,
  productDefaults,
  variantDefaults,
} from '@replatform/canonical/defaults';
import type { Customer } from '@replatform/canonical/customer';
import { entityTypes, type EntityRecord, type EntityType } from '@replatform/canonical/entities';
import type { Order } from '@replatform/canonical/order';
import type { Product } from '@replatform/canonical/product';
import type { Review } from '@replatform/canonical/review';
import { z } from 'zod';
import type {
  AssetRecord,
  Capabilities,
  Connection,
  Connector,
  IdMap,
  Page,
  RateUsage,
  Redirect,
  StoreValues,
  WriteOutcome,
} from '@replatform/connectors/kit/contract';
import { ConnectorError } from '@replatform/connectors/kit/errors';

/**
 * An in-memory store behind the connector contract, for the engine's own unit tests: paged
 * reads with opaque checkpoints, writes that find earlier copies by id map or by a source-id
 * marker, and switches for the failures the engine must survive. Not a platform emulator.
 */
export class MemoryStore {
  readonly records: { [E in EntityType]: Map<string, EntityRecord[E]> } = {
    categories: new Map(),
    brands: new Map(),
    products: new Map(),
    coupons: new Map(),
    customers: new Map(),
    orders: new Map(),
    reviews: new Map(),
    pages: new Map(),
    posts: new Map(),
  };
  /** Source id -> our id, as a platform's metafield or meta_data marker would. */
  readonly markers: Record<EntityType, Map<string, string>> = {
    categories: new Map(),
    brands: new Map(),
    products: new Map(),
    coupons: new Map(),
    customers: new Map(),
    orders: new Map(),
    reviews: new Map(),
    pages: new Map(),
    posts: new Map(),
  };
  /** Write calls and records created, per entity. */
  readonly writeCalls: Record<EntityType, number> = {
    categories: 0,
    brands: 0,
    products: 0,
    coupons: 0,
    customers: 0,
    orders: 0,
    reviews: 0,
    pages: 0,
    posts: 0,
  };
  /** The store's own customer groups and tax classes (Connection.storeValues), none by default. */
  values: StoreValues = {};
  /** The currency check() reports, none by default. */
  currency: string | undefined;
  /** Files and terms stored beside the records (AssetRecord destination ids). */
  readonly assets = new Set<string>();
  /** 301 redirects the store serves: old path -> [id, new path]. */
  readonly redirects = new Map<string, [string, string]>();
  #next = 1;
  readonly #prefix: string;

  constructor(prefix = 'd') {
    this.#prefix = prefix;
  }

  static seeded(data: Partial<{ [E in EntityType]: EntityRecord[E][] }>): MemoryStore {
    const store = new MemoryStore('s');
    for (const entity of entityTypes) {
      for (const record of data[entity] ?? []) {
        (store.records[entity] as Map<string, EntityRecord[EntityType]>).set(record.id, record);
      }
    }
    return store;
  }

  newId(): string {
    return `${this.#prefix}${this.#next++}`;
  }
}

export interface MemoryConnectionOptions {
  pageSize?: number;
  batchSize?: number;
  /**
   * The merchant's own record at the destination that a record matches (same SKU, say), by its
   * id in the store: written as linked, not changed, as connectors do.
   */
  merchantOwn?: (entity: EntityType, record: EntityRecord[EntityType]) => string | undefined;
  /** A reason to refuse a record on write (a per-record failure). */
  refuse?: (entity: EntityType, record: EntityRecord[EntityType]) => string | undefined;
  /** A reason the source cannot turn a record into a canonical one (page.rejected). */
  reject?: (entity: EntityType, record: EntityRecord[EntityType]) => string | undefined;
  /** Chance that a write call fails transiently after applying part of the batch. */
  transientWriteRate?: number;
  /** Chance that a page read fails transiently. */
  transientReadRate?: number;
  /** Every call fails as if the credentials were revoked. */
  revoked?: () => boolean;
  /** Every call fails as if the store were down (502 from its proxy) while this says so. */
  down?: () => boolean;
  /** Throws a non-connector error for these records (a connector bug), to test isolation. */
  crashOn?: (record: EntityRecord[EntityType]) => boolean;
  random?: () => number;
  delayMs?: number;
  destinationFields?: Capabilities['destinationFields'];
  rateLimit?: Capabilities['rateLimit'];
  /**
   * A part of the record the store could not take this time (an image it could not fetch): the
   * record is written without it, with the warning, and reported incomplete.
   */
  incomplete?: (entity: EntityType, record: EntityRecord[EntityType]) => string | undefined;
  /**
   * Product images are stored once per store and reused (as a media library does): a write that
   * stores one for the first time names it among its outcome's assets.
   */
  sharedImages?: boolean;
  /** The store keeps 301 redirects (writeRedirects exists). */
  redirects?: boolean;
  /** Records the store refuses to delete, with its reason (remove answers failed). */
  refuseRemove?: (entity: EntityType, id: string) => string | undefined;
  /** Data types the store cannot delete (Capabilities.removeUnsupported). */
  removeUnsupported?: Capabilities['removeUnsupported'];
  /** What prepareImport and finishImport answer (neither exists when not given). */
  importNotes?: { prepare: string[]; finish: string[] };
  rateUsage?: () => RateUsage;
  /** Told when each page read and each write starts and ends ('read:products:start', ...). */
  trace?: (event: string) => void;
}

function mapRefs<E extends EntityType>(
  entity: E,
  record: EntityRecord[E],
  idMap: IdMap,
): EntityRecord[E] {
  const copy = structuredClone(record) as EntityRecord[EntityType];
  switch (entity) {
    case 'categories': {
      const c = copy as Category;
      c.parentId = c.parentId ? (idMap.get('categories', c.parentId) ?? null) : null;
      break;
    }
    case 'products': {
      const p = copy as Product;
      p.categoryIds = p.categoryIds
        .map((id) => idMap.get('categories', id))
        .filter((id): id is string => Boolean(id));
      for (const key of ['upsellIds', 'crossSellIds', 'groupedProductIds'] as const)
        p[key] = p[key]
          .map((id) => idMap.get('products', id))
          .filter((id): id is string => Boolean(id));
      break;
    }
    case 'coupons': {
      const c = copy as Coupon;
      for (const [key, entity] of [
        ['productIds', 'products'],
        ['excludedProductIds', 'products'],
        ['categoryIds', 'categories'],
        ['excludedCategoryIds', 'categories'],
      ] as const)
        c[key] = c[key]
          .map((id) => idMap.get(entity, id))
          .filter((id): id is string => Boolean(id));
      break;
    }
    case 'orders': {
      const o = copy as Order;
      o.customerId = o.customerId ? (idMap.get('customers', o.customerId) ?? null) : null;
      for (const line of o.lines) {
        line.productId = line.productId ? (idMap.get('products', line.productId) ?? null) : null;
      }
      break;
    }
    case 'brands': {
      const b = copy as Brand;
      b.parentId = b.parentId ? (idMap.get('brands', b.parentId) ?? null) : null;
      break;
    }
    case 'pages': {
      const page = copy as WebPage;
      page.parentId = page.parentId ? (idMap.get('pages', page.parentId) ?? null) : null;
      break;
    }
    case 'reviews': {
      const r = copy as Review;
      r.productId = idMap.get('products', r.productId) ?? r.productId;
      break;
    }
  }
  return copy as EntityRecord[E];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A store shows the products, categories, brands, pages and posts written to it at its own
 * addresses ('/item/shoes/'), as platforms do, so the redirect map has old and new addresses to
 * pair.
 */
function atOwnAddress<E extends EntityType>(entity: E, record: EntityRecord[E]): EntityRecord[E] {
  const bases: Partial<Record<EntityType, string>> = {
    products: 'item',
    categories: 'department',
    brands: 'maker',
    pages: 'page',
    posts: 'news',
  };
  const base = bases[entity];
  if (base === undefined) return record;
  const shown = record as EntityRecord['products' | 'categories' | 'brands' | 'pages' | 'posts'];
  if (shown.sourceUrlPath === null || !shown.slug) return record;
  return { ...shown, sourceUrlPath: `/${base}/${shown.slug}/` } as EntityRecord[E];
}

/** The record as a store keeps it when its images could not be fetched. */
function withoutImages<R>(record: R): R {
  return 'images' in (record as object) ? { ...record, images: [] } : record;
}

export function memoryConnection(
  store: MemoryStore,
  options: MemoryConnectionOptions = {},
): { connection: Connection; capabilities: Capabilities } {
  const pageSize = options.pageSize ?? 10;
  const random = options.random ?? Math.random;
  const guard = async () => {
    if (options.delayMs) await sleep(options.delayMs);
    if (options.revoked?.()) {
      throw new ConnectorError('config', 'auth_failed', 'The store answered 401 Unauthorized');
    }
    if (options.down?.()) {
      throw new ConnectorError(
        'transient',
        'store_unavailable',
        'The store answered 502 Bad Gateway',
      );
    }
  };
  const capabilities: Capabilities = {
    read: entityTypes,
    write: entityTypes,
    batchSize: {
      categories: options.batchSize ?? 5,
      products: options.batchSize ?? 5,
      customers: options.batchSize ?? 5,
      orders: options.batchSize ?? 5,
    },
    pageSize: { categories: pageSize, products: pageSize, customers: pageSize, orders: pageSize },
    rateLimit: options.rateLimit ?? { description: 'unlimited' },
    nativeFields: {},
    destinationFields: options.destinationFields ?? {},
    ...(options.removeUnsupported ? { removeUnsupported: options.removeUnsupported } : {}),
  };

  const connection: Connection = {
    async check() {
      await guard();
      return {
        ok: true,
        storeName: 'Memory store',
        ...(store.currency ? { currency: store.currency } : {}),
      };
    },
    async storeValues() {
      await guard();
      return structuredClone(store.values);
    },
    async count(entity) {
      await guard();
      return store.records[entity].size;
    },
    async readByIds<E extends EntityType>(entity: E, ids: readonly string[]) {
      options.trace?.(`readByIds:${entity}:${ids.length}`);
      await guard();
      return ids.flatMap((id) => {
        const record = store.records[entity].get(id);
        return record ? [structuredClone(record) as EntityRecord[E]] : [];
      });
    },
    async *read<E extends EntityType>(entity: E, checkpoint: { cursor: string } | null) {
      let offset = checkpoint ? Number(checkpoint.cursor) : 0;
      let all: EntityRecord[E][] | undefined;
      for (;;) {
        options.trace?.(`read:${entity}:start`);
        await guard();
        if (options.transientReadRate && random() < options.transientReadRate) {
          throw new ConnectorError('transient', 'http_status', 'The store answered 503');
        }
        // Sorted once per read (a store changing during a read shows up on the next one).
        all ??= ([...store.records[entity].values()] as EntityRecord[E][]).sort((a, b) =>
          a.id.localeCompare(b.id, 'en', { numeric: true }),
        );
        const slice = all.slice(offset, offset + pageSize);
        offset += slice.length;
        const rejected = slice
          .map((r) => ({ sourceId: r.id, reason: options.reject?.(entity, r) }))
          .filter((r): r is { sourceId: string; reason: string } => Boolean(r.reason));
        const page: Page<E> = {
          records: slice.filter((r) => !rejected.some((x) => x.sourceId === r.id)),
          next: offset < all.length ? { version: 1, cursor: String(offset) } : null,
          ...(rejected.length ? { rejected } : {}),
        };
        options.trace?.(`read:${entity}:end`);
        yield page;
        if (!page.next) return;
      }
    },
    async write<E extends EntityType>(entity: E, records: EntityRecord[E][], idMap: IdMap) {
      options.trace?.(`write:${entity}:start`);
      try {
        return await writeBatch(entity, records, idMap);
      } finally {
        options.trace?.(`write:${entity}:end`);
      }
    },
    async remove(entity, ids) {
      options.trace?.(`remove:${entity}:${ids.length}`);
      await guard();
      return ids.map((id) => {
        const refused = options.refuseRemove?.(entity, id);
        if (refused) return { destinationId: id, outcome: 'failed' as const, reason: refused };
        const held = store.records[entity].delete(id);
        for (const [sourceId, ours] of store.markers[entity])
          if (ours === id) store.markers[entity].delete(sourceId);
        return { destinationId: id, outcome: held ? ('removed' as const) : ('gone' as const) };
      });
    },
    async removeAssets(assets) {
      await guard();
      return assets.map((a) => {
        if (a.kind === 'redirect') {
          const held = [...store.redirects].find(([, [id]]) => id === a.destinationId);
          if (held) store.redirects.delete(held[0]);
          return { destinationId: a.destinationId, outcome: held ? 'removed' : 'gone' } as const;
        }
        return {
          destinationId: a.destinationId,
          outcome: store.assets.delete(a.destinationId) ? ('removed' as const) : ('gone' as const),
        };
      });
    },
    ...(options.redirects
      ? {
          async writeRedirects(redirects: readonly Redirect[]) {
            options.trace?.(`redirects:${redirects.length}`);
            await guard();
            return redirects.map((r) => {
              const held = store.redirects.get(r.from);
              if (held)
                return held[1] === r.to
                  ? { from: r.from, outcome: 'existing' as const }
                  : {
                      from: r.from,
                      outcome: 'failed' as const,
                      reason: `The store already redirects it to ${held[1]}.`,
                    };
              const id = store.newId();
              store.redirects.set(r.from, [id, r.to]);
              return { from: r.from, outcome: 'created' as const, destinationId: id };
            });
          },
        }
      : {}),
    ...(options.importNotes
      ? {
          prepareImport: async () => [...(options.importNotes?.prepare ?? [])],
          finishImport: async () => [...(options.importNotes?.finish ?? [])],
        }
      : {}),
    ...(options.rateUsage ? { rateUsage: options.rateUsage } : {}),
  };

  async function writeBatch<E extends EntityType>(
    entity: E,
    records: EntityRecord[E][],
    idMap: IdMap,
  ): Promise<WriteOutcome[]> {
    await guard();
    store.writeCalls[entity] += 1;
    const failAfter =
      options.transientWriteRate && random() < options.transientWriteRate
        ? Math.floor(random() * (records.length + 1))
        : -1;
    const outcomes: WriteOutcome[] = [];
    const held = store.records[entity] as Map<string, EntityRecord[E]>;
    for (const [index, record] of records.entries()) {
      if (index === failAfter) {
        throw new ConnectorError('transient', 'timeout', 'The store timed out');
      }
      if (options.crashOn?.(record)) throw new TypeError(`Cannot read properties of undefined`);
      const refused = options.refuse?.(entity, record);
      if (refused) {
        outcomes.push({ sourceId: record.id, outcome: 'failed', reason: refused });
        continue;
      }
      const mapped = idMap.get(entity, record.id);
      const marked = store.markers[entity].get(record.id);
      const own = options.merchantOwn?.(entity, record);
      if (!mapped && !marked && own && held.has(own)) {
        outcomes.push({
          sourceId: record.id,
          outcome: 'skipped',
          destinationId: own,
          reason:
            'The merchant already has this record at the destination; it was linked, not changed.',
          linked: true,
        });
        continue;
      }
      const existing = mapped ?? marked;
      const left = options.incomplete?.(entity, record);
      const written = atOwnAddress(
        entity,
        left ? withoutImages(mapRefs(entity, record, idMap)) : mapRefs(entity, record, idMap),
      );
      const partial = left ? { warnings: [left], incomplete: true } : {};
      if (existing && held.has(existing)) {
        held.set(existing, { ...written, id: existing });
        outcomes.push({
          sourceId: record.id,
          outcome: mapped ? 'updated' : 'skipped',
          destinationId: existing,
          ...(mapped ? {} : { reason: 'Found at the destination by its source-id marker.' }),
          ...partial,
        });
        continue;
      }
      const id = store.newId();
      held.set(id, { ...written, id });
      store.markers[entity].set(record.id, id);
      const assets: AssetRecord[] = [];
      if (options.sharedImages && entity === 'products')
        for (const image of (record as Product).images) {
          if (idMap.asset?.('image', image.url) || assets.some((a) => a.key === image.url))
            continue;
          const file = `f${store.newId()}`;
          store.assets.add(file);
          assets.push({ kind: 'image', key: image.url, destinationId: file });
        }
      outcomes.push({
        sourceId: record.id,
        outcome: 'created',
        destinationId: id,
        ...partial,
        ...(assets.length ? { assets } : {}),
      });
    }
    if (failAfter === records.length) {
      throw new ConnectorError('transient', 'network_error', 'The connection was reset');
    }
    return outcomes;
  }
  return { connection, capabilities };
}

/**
 * A connector (as the registry holds them) whose stores are memory stores picked by URL, with
 * WooCommerce-shaped credentials, so server tests can verify and run migrations without HTTP.
 */
export function memoryConnector(
  stores: Record<string, MemoryStore>,
  options: MemoryConnectionOptions = {},
): Connector<{ storeUrl: string; consumerKey: string; consumerSecret: string }> {
  const credentialsSchema = z.strictObject({
    storeUrl: z.string(),
    consumerKey: z.string(),
    consumerSecret: z.string(),
  });
  const { capabilities } = memoryConnection(new MemoryStore(), options);
  return {
    platform: 'woocommerce',
    label: 'Memory',
    credentialsSchema,
    capabilities,
    connect(credentials) {
      const store = stores[credentials.storeUrl];
      if (!store || credentials.consumerSecret !== 'secret') {
        const refuse = async () => {
          throw new ConnectorError('config', 'auth_failed', 'The store answered 401');
        };
        return {
          check: refuse,
          count: refuse,
          read: () => ({ [Symbol.asyncIterator]: () => ({ next: refuse }) }),
          write: refuse,
        } as unknown as Connection;
      }
      return memoryConnection(store, options).connection;
    },
  };
}

const at = (i: number) => new Date(Date.UTC(2025, 0, 1) + i * 3_600_000).toISOString();

/** A small canonical store: a category tree, products with variants, customers and orders. */
export function sampleData(counts: {
  categories?: number;
  products: number;
  customers: number;
  orders: number;
  coupons?: number;
  reviews?: number;
  /** Brands, one per vendor the products name (default 0: products name no vendor). */
  brands?: number;
  /** Web pages (the third under the first) and blog posts (default 0). */
  pages?: number;
  posts?: number;
}): {
  [E in EntityType]: EntityRecord[E][];
} {
  const categoryCount = counts.categories ?? 6;
  const categories: Category[] = [];
  for (let i = 1; i <= categoryCount; i++) {
    // Children come before their parents in id order, so the engine must order the tree itself.
    const parentId = i > 2 ? String(((i - 1) % 2) + 1) : null;
    categories.push({
      id: String(i + (parentId ? 0 : 100)),
      parentId: parentId ? String(Number(parentId) + 100) : null,
      name: `Category ${i}`,
      slug: `category-${i}`,
      description: '',
      position: i,
      ...categoryDefaults(),
      sourceUrlPath: null,
    });
  }
  const products: Product[] = [];
  for (let i = 1; i <= counts.products; i++) {
    const variable = i % 3 === 0;
    const price = { amount: 1000 + i, currency: 'USD' };
    const variant = (id: string, sku: string, size?: string, position = 0) => ({
      ...variantDefaults(price),
      id,
      sku,
      optionValues: size ? [{ name: 'Size', value: size }] : [],
      weight: { value: 1, unit: 'kg' as const },
      inventory: { ...inventoryDefaults(), tracked: true, quantity: i % 7 },
      position,
    });
    products.push({
      ...productDefaults(),
      id: String(i),
      type: variable ? 'variable' : 'simple',
      name: i === 7 ? '=HYPERLINK("http://evil")' : `Product ${i}`,
      slug: `product-${i}`,
      sku: `P${i}`,
      descriptionHtml: `<p>Product, "number" ${i}</p>`,
      shortDescriptionHtml: '',
      status: 'active',
      vendor: 'Acme',
      options: variable
        ? [{ name: 'Size', values: ['S', 'M'], shared: null, visible: true, position: 0 }]
        : [],
      variants: variable
        ? [variant(`${i}-s`, `P${i}-S`, 'S', 0), variant(`${i}-m`, `P${i}-M`, 'M', 1)]
        : [variant(`${i}-v`, `P${i}`)],
      images: [{ url: `https://img.example.com/${i}.png`, alt: '', title: '', position: 0 }],
      categoryIds: categories.length ? [categories[i % categories.length]!.id] : [],
      tags: [],
      seoTitle: '',
      seoDescription: '',
      dimensions: null,
      sourceUrlPath: `/products/product-${i}`,
      createdAt: at(i),
      updatedAt: null,
    });
  }
  const customers: Customer[] = [];
  for (let i = 1; i <= counts.customers; i++) {
    customers.push({
      ...customerDefaults(),
      id: String(i),
      email: `customer${i}@example.com`,
      firstName: 'Ada',
      lastName: `Lovelace ${i}`,
      phone: '',
      acceptsMarketing: i % 2 === 0,
      addresses: [],
      note: '',
      tags: [],
      createdAt: at(i),
    });
  }
  const orders: Order[] = [];
  for (let i = 1; i <= counts.orders; i++) {
    const usd = (amount: number) => ({ amount, currency: 'USD' });
    const product = products[i % Math.max(1, products.length)];
    orders.push({
      ...orderDefaults('USD'),
      id: String(i),
      number: String(1000 + i),
      createdAt: at(i),
      updatedAt: null,
      currency: 'USD',
      customerId: customers.length ? customers[i % customers.length]!.id : null,
      email: `buyer${i}@example.com`,
      status: 'completed',
      paymentStatus: 'paid',
      fulfillmentStatus: 'fulfilled',
      lines: [
        {
          id: `${i}-1`,
          productId: product?.id ?? null,
          variantId: null,
          sku: product?.sku ?? 'X',
          name: product?.name ?? 'Gone',
          quantity: 1,
          unitPrice: usd(1000),
          tax: usd(0),
          total: usd(1000),
          ...orderLineDefaults(),
        },
      ],
      shippingLines: [],
      discounts: [],
      subtotal: usd(1000),
      taxTotal: usd(0),
      shippingTotal: usd(0),
      discountTotal: usd(0),
      grandTotal: usd(1000),
      billingAddress: null,
      shippingAddress: null,
      note: '',
    });
  }
  const coupons: Coupon[] = [];
  for (let i = 1; i <= (counts.coupons ?? 0); i++) {
    const percent = i % 2 === 1;
    coupons.push({
      ...couponDefaults(),
      id: `c${i}`,
      code: `SAVE${i}`,
      discountType: percent ? 'percent' : 'fixed_cart',
      percentOff: percent ? 10 : null,
      amountOff: percent ? null : { amount: 500, currency: 'USD' },
      productIds: products.length && i % 3 === 0 ? [products[0]!.id] : [],
      createdAt: '2024-01-01T00:00:00.000Z',
    });
  }
  const reviews: Review[] = [];
  for (let i = 1; i <= (counts.reviews ?? 0) && products.length; i++) {
    reviews.push({
      id: `r${i}`,
      productId: products[i % products.length]!.id,
      reviewerName: `Reviewer ${i}`,
      reviewerEmail: `reviewer${i}@example.com`,
      rating: (i % 5) + 1,
      title: '',
      body: `<p>Review ${i}</p>`,
      status: i % 4 === 0 ? 'pending' : 'approved',
      verified: i % 2 === 0,
      createdAt: at(i),
    });
  }
  const brands: Brand[] = [];
  for (let i = 1; i <= (counts.brands ?? 0); i++) {
    brands.push({
      ...brandDefaults(),
      id: `b${i}`,
      // The third brand sits under the first, as WooCommerce brands may.
      parentId: i === 3 ? 'b1' : null,
      name: `Brand ${i}`,
      slug: `brand-${i}`,
      description: `<p>Brand ${i}</p>`,
      position: i - 1,
      sourceUrlPath: `/brand/brand-${i}/`,
    });
  }
  if (brands.length)
    products.forEach((p, i) => {
      p.vendor = brands[i % brands.length]!.name;
    });
  const pages: WebPage[] = [];
  for (let i = 1; i <= (counts.pages ?? 0); i++) {
    pages.push({
      ...pageDefaults(),
      id: `pg${i}`,
      parentId: i === 3 ? 'pg1' : null,
      title: `Page ${i}`,
      slug: `page-${i}`,
      body: `<p>About page ${i}</p>`,
      position: i - 1,
      publishedAt: at(i),
      sourceUrlPath: `/page-${i}/`,
    });
  }
  const posts: Post[] = [];
  for (let i = 1; i <= (counts.posts ?? 0); i++) {
    posts.push({
      ...postDefaults(),
      id: `ps${i}`,
      title: `Post ${i}`,
      slug: `post-${i}`,
      body: `<p>News ${i}</p>`,
      status: i % 4 === 0 ? 'draft' : 'published',
      publishedAt: i % 4 === 0 ? null : at(i),
      authorName: 'Store team',
      categories: ['News'],
      tags: i % 2 ? ['spring'] : [],
      sourceUrlPath: i % 4 === 0 ? null : `/blog/post-${i}/`,
    });
  }
  return { categories, brands, products, coupons, customers, orders, reviews, pages, posts };
}
