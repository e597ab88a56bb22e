import { z } from 'zod';
import type { EntityType } from '@replatform/canonical/entities';
import { defaultWriteChoices, type WriteChoices } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { errorText, type BigCommerceClient, type QueryValue } from './client.ts';
import { storeUnits, type StoreUnits } from './map-catalog.ts';
import type { Json } from './native.ts';
import {
  brandSchema,
  collectionSchema,
  customerAttributeSchema,
  metafieldSchema,
  storeInfoSchema,
  treeSchema,
  type BcCustomerAttribute,
  type BcStoreInfo,
} from './payloads.ts';

/**
 * What one connection learns once and reuses: store information and units, the default category
 * tree, the brand list, and the indexes of the source-id markers this service leaves on records.
 */

export const markerNamespace = 'replatform';

/** A name as a natural key: Unicode-normalised and lower-cased, so 'Café' finds 'CAFÉ'. */
export const nameKey = (name: string) => name.normalize('NFC').toLowerCase();
export const markerKey = 'replatform_source_id';

/** Parses a platform answer; a shape we do not understand is a system error, not a retry. */
export function parseAnswer<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  throw new ConnectorError(
    'system',
    'unexpected_payload',
    `BigCommerce answered ${what} in an unexpected shape: ${result.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.')}: ${i.message}`)
      .join('; ')}`,
  );
}

const looseCollection = collectionSchema(z.unknown());

/** Every page of a v3 list (page/limit with meta.pagination). */
export async function allPages<T>(
  client: BigCommerceClient,
  path: string,
  query: Record<string, QueryValue>,
  item: z.ZodType<T>,
): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const answer = await client.ok('GET', path, { query: { ...query, page, limit: 250 } });
    const parsed = parseAnswer(collectionSchema(item), answer.body, `GET ${path}`);
    items.push(...parsed.data);
    const totalPages = parsed.meta?.pagination?.total_pages ?? page;
    if (page >= totalPages || parsed.data.length === 0) return items;
  }
}

export async function v3Total(
  client: BigCommerceClient,
  path: string,
  query: Record<string, QueryValue> = {},
): Promise<number> {
  const answer = await client.ok('GET', path, { query: { ...query, limit: 1 } });
  const parsed = parseAnswer(looseCollection, answer.body, `GET ${path}`);
  return parsed.meta?.pagination?.total ?? parsed.data.length;
}

/**
 * Source id -> destination id of the records this service created, kept as metafields
 * (namespace 'replatform', key 'replatform_source_id', value = source id) on the records. Loaded
 * once per connection with the batch metafield list, then kept up to date as records are created.
 */
export class MarkerIndex {
  readonly #client: BigCommerceClient;
  readonly #path: string;
  #loading: Promise<void> | undefined;
  readonly #bySource = new Map<string, number>();
  readonly #byResource = new Map<number, string>();
  /** Records whose marker is stored at the platform (the rest are claimed in memory only). */
  readonly #stored = new Set<number>();

  constructor(client: BigCommerceClient, path: string) {
    this.#client = client;
    this.#path = path;
  }

  ensure(): Promise<void> {
    this.#loading ??= this.#load().catch((error: unknown) => {
      this.#loading = undefined;
      throw error;
    });
    return this.#loading;
  }

  async #load(): Promise<void> {
    const metafields = await allPages(
      this.#client,
      this.#path,
      { key: markerKey, namespace: markerNamespace },
      metafieldSchema,
    );
    for (const m of metafields) this.#stored.add(this.claim(m.value, m.resource_id));
  }

  find(sourceId: string): number | undefined {
    return this.#bySource.get(sourceId);
  }

  sourceOf(resourceId: number): string | undefined {
    return this.#byResource.get(resourceId);
  }

  /** Records at once that a destination record belongs to a source record; add() stores it. */
  claim(sourceId: string, resourceId: number): number {
    this.#bySource.set(sourceId, resourceId);
    this.#byResource.set(resourceId, sourceId);
    return resourceId;
  }

  /**
   * Stores the markers of records just created or linked. The platform keeps one metafield per
   * (record, namespace, key), so a repeated request cannot double them; refused items are checked
   * against a fresh listing.
   */
  async add(entries: { sourceId: string; resourceId: number }[]): Promise<void> {
    for (const e of entries) this.claim(e.sourceId, e.resourceId);
    const missing = entries.filter((e) => !this.#stored.has(e.resourceId));
    for (let i = 0; i < missing.length; i += 50) {
      const chunk = missing.slice(i, i + 50);
      const answer = await this.#client.request('POST', this.#path, {
        idempotent: true,
        body: chunk.map((e) => ({
          resource_id: e.resourceId,
          namespace: markerNamespace,
          key: markerKey,
          value: e.sourceId,
          // Readable by other apps of the store, writable only by this one.
          permission_set: 'read',
          description: 'Source record id (Replatform migration)',
        })),
      });
      if (answer.status !== 200 && answer.status !== 207 && answer.status !== 422) {
        throw new ConnectorError(
          'system',
          'marker_failed',
          `Could not mark migrated records: ${errorText(answer.body)}`,
          {
            status: answer.status,
          },
        );
      }
      const created = parseAnswer(
        z.object({ data: z.array(metafieldSchema).default([]) }),
        answer.body ?? {},
        `POST ${this.#path}`,
      );
      for (const m of created.data) this.#stored.add(m.resource_id);
      if (chunk.every((e) => this.#stored.has(e.resourceId))) continue;
      // Refused items may already carry a marker (an earlier attempt got through): re-read them.
      const found = await allPages(
        this.#client,
        this.#path,
        { key: markerKey, namespace: markerNamespace },
        metafieldSchema,
      );
      for (const m of found)
        if (m.value === this.#byResource.get(m.resource_id)) this.#stored.add(m.resource_id);
      const still = chunk.filter((e) => !this.#stored.has(e.resourceId));
      if (still.length) {
        throw new ConnectorError(
          'system',
          'marker_failed',
          `Could not mark ${still.length} migrated record(s): ${errorText(answer.body)}`,
        );
      }
    }
  }
}

/**
 * At most `limit` tasks at a time, shared by everything that holds it. The engine keeps several
 * write() calls in flight per stream, so a limit per call would multiply; one per connection
 * does not.
 */
export class Slots {
  readonly #limit: number;
  #active = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.#limit) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#active += 1;
    }
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so the count stays as it is.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active -= 1;
    }
  }
}

/**
 * Creates in flight at once per store, per endpoint. customers.v3.yml allows 3 concurrent
 * customer writes; products and orders have no published limit, and 3 keeps the quota's pace
 * without piling requests up behind the pacer.
 */
export const writeConcurrency = 3;

/**
 * What one connection knows of product reviews, which BigCommerce lists only product by product
 * (native.ts reads them, write-reviews.ts writes them).
 */
export class ReviewMemory {
  /**
   * How many reviews each product had when this connection last counted them (count walks every
   * product), and when: a read soon after skips the products that had none.
   */
  counted: { at: number; totals: Map<number, number> } | undefined;
  /** A destination product's reviews, listed once and kept up to date by this connection's writes. */
  readonly listed = new Map<number, Promise<Json[]>>();
  /** Destination review id -> source id of the review this connection wrote or linked to it. */
  readonly claimed = new Map<number, string>();
  readonly #queues = new Map<number, Promise<unknown>>();

  /**
   * Runs `task` once every task queued before it for the same product has ended: the reviews of
   * one product are written one at a time, so that a review's lookup sees the ones before it.
   */
  serial<T>(productId: number, task: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(productId) ?? Promise.resolve();
    const run = previous.then(task);
    const tail = run.catch(() => undefined);
    this.#queues.set(productId, tail);
    void tail.then(() => {
      if (this.#queues.get(productId) === tail) this.#queues.delete(productId);
    });
    return run;
  }
}

export interface Brand {
  id: number;
  name: string;
}

export class BcSession {
  readonly client: BigCommerceClient;
  readonly markers: {
    categories: MarkerIndex;
    brands: MarkerIndex;
    products: MarkerIndex;
    customers: MarkerIndex;
  };
  /** Shared by every write() of this connection. */
  readonly writeSlots = {
    customers: new Slots(writeConcurrency),
    products: new Slots(writeConcurrency),
    orders: new Slots(writeConcurrency),
  };
  /**
   * Coupon code (lower case) -> source id of the coupon this connection wrote or linked under it:
   * codes are unique in a store, so a second source coupon of the same code cannot follow.
   */
  readonly couponCodes = new Map<string, string>();
  readonly reviews = new ReviewMemory();
  #store: Promise<BcStoreInfo & { units: StoreUnits }> | undefined;
  #tree: Promise<number> | undefined;
  #brands: Promise<Map<number, Brand>> | undefined;
  #attributes: Promise<BcCustomerAttribute[]> | undefined;

  readonly pageSizes: Record<EntityType, number>;
  /** How the owner chose to have records written (the connection's context, with defaults). */
  readonly choices: WriteChoices;

  constructor(
    client: BigCommerceClient,
    pageSizes: Record<EntityType, number>,
    choices: Partial<WriteChoices> = {},
  ) {
    this.client = client;
    this.pageSizes = pageSizes;
    this.choices = { ...defaultWriteChoices, ...choices };
    this.markers = {
      categories: new MarkerIndex(client, '/v3/catalog/categories/metafields'),
      brands: new MarkerIndex(client, '/v3/catalog/brands/metafields'),
      products: new MarkerIndex(client, '/v3/catalog/products/metafields'),
      customers: new MarkerIndex(client, '/v3/customers/metafields'),
    };
  }

  /** store_information.v2.yml getStoreInformation. */
  store(): Promise<BcStoreInfo & { units: StoreUnits }> {
    this.#store ??= (async () => {
      const answer = await this.client.ok('GET', '/v2/store');
      const info = parseAnswer(storeInfoSchema, answer.body, 'GET /v2/store');
      return {
        ...info,
        units: storeUnits(info.currency ?? 'USD', info.weight_units, info.dimension_units),
      };
    })().catch((error: unknown) => {
      this.#store = undefined;
      throw error;
    });
    return this.#store;
  }

  /** The category tree of the default storefront (channel 1), category-trees_catalog.v3.yml. */
  treeId(): Promise<number> {
    this.#tree ??= (async () => {
      const answer = await this.client.ok('GET', '/v3/catalog/trees', {
        query: { 'channel_id:in': [1] },
      });
      const trees = parseAnswer(
        collectionSchema(treeSchema),
        answer.body,
        'GET /v3/catalog/trees',
      ).data;
      const tree = trees.find((t) => t.channels.includes(1)) ?? trees[0];
      if (!tree)
        throw new ConnectorError(
          'config',
          'no_category_tree',
          'The store has no category tree for its storefront',
        );
      return tree.id;
    })().catch((error: unknown) => {
      this.#tree = undefined;
      throw error;
    });
    return this.#tree;
  }

  /**
   * The store's brands by id, listed once per connection and shared by the brand writer
   * (write-brands.ts) and brandFor, which both add what they create and match names by nameKey.
   */
  brands(): Promise<Map<number, Brand>> {
    this.#brands ??= allPages(this.client, '/v3/catalog/brands', {}, brandSchema)
      .then((list) => new Map(list.map((b) => [b.id, b])))
      .catch((error: unknown) => {
        this.#brands = undefined;
        throw error;
      });
    return this.#brands;
  }

  /**
   * Customer attributes this connection made (by id), which the writes record as term assets so
   * that undo can remove them; one found existing is the owner's and is never recorded.
   */
  readonly attributesMade = new Map<number, BcCustomerAttribute>();
  /** Those of attributesMade already recorded on a written customer's outcome. */
  readonly attributesRecorded = new Set<number>();

  /** Lists the customer attributes afresh next time (after undo removed some). */
  forgetAttributes(): void {
    this.#attributes = undefined;
  }

  /** The store's customer attributes (customers.v3.yml getCustomersAttributes). */
  customerAttributes(): Promise<BcCustomerAttribute[]> {
    this.#attributes ??= allPages(
      this.client,
      '/v3/customers/attributes',
      {},
      customerAttributeSchema,
    ).catch((error: unknown) => {
      this.#attributes = undefined;
      throw error;
    });
    return this.#attributes;
  }

  /**
   * The store's customer attributes by name (lower case, Unicode-normalised), after making those
   * of `wanted` it lacks. Names are the natural key: a second run or a second migration finds the
   * attribute instead of making another.
   */
  async ensureAttributes(
    wanted: { name: string; type: BcCustomerAttribute['type'] }[],
  ): Promise<Map<string, BcCustomerAttribute>> {
    const key = nameKey;
    const list = await this.customerAttributes();
    const byName = () => new Map(list.map((a) => [key(a.name), a]));
    const missing = [
      ...new Map(
        wanted
          .filter((w) => w.name.trim() && !byName().has(key(w.name)))
          .map((w) => [key(w.name), { name: w.name.slice(0, 255), type: w.type }]),
      ).values(),
    ];
    if (missing.length) {
      // customers.v3.yml createCustomersAttributes: names are unique, a repeat is refused.
      const answer = await this.client.request('POST', '/v3/customers/attributes', {
        idempotent: true,
        body: missing,
      });
      if (answer.status === 200) {
        const made = parseAnswer(
          z.object({ data: z.array(customerAttributeSchema) }),
          answer.body,
          'POST /v3/customers/attributes',
        ).data;
        list.push(...made);
        for (const attribute of made) this.attributesMade.set(attribute.id, attribute);
      } else {
        // Made meanwhile by another run (or by this one before its answer was lost): read again.
        // Those of `missing` now there were absent a moment ago: made by this request, whose
        // answer was lost, and recorded as this connection's.
        this.#attributes = undefined;
        list.splice(0, list.length, ...(await this.customerAttributes()));
        const sent = new Set(missing.map((m) => key(m.name)));
        for (const attribute of list)
          if (sent.has(key(attribute.name))) this.attributesMade.set(attribute.id, attribute);
      }
    }
    return byName();
  }

  /** Brand id for a vendor name, creating the brand when the store has none of that name. */
  async brandFor(name: string): Promise<number> {
    const wanted = name.trim();
    if (!wanted) return 0;
    const brands = await this.brands();
    const match = () => [...brands.values()].find((b) => nameKey(b.name) === nameKey(wanted))?.id;
    const known = match();
    if (known !== undefined) return known;
    // brands_catalog.v3.yml createBrand: names are unique, a repeat answers 409.
    const answer = await this.client.request('POST', '/v3/catalog/brands', {
      idempotent: true,
      body: { name: wanted.slice(0, 255) },
    });
    if (answer.status === 200) {
      const brand = parseAnswer(
        z.object({ data: brandSchema }),
        answer.body,
        'POST /v3/catalog/brands',
      ).data;
      brands.set(brand.id, brand);
      return brand.id;
    }
    if (answer.status === 409) {
      const found = await allPages(
        this.client,
        '/v3/catalog/brands',
        { name: wanted },
        brandSchema,
      );
      for (const b of found) brands.set(b.id, b);
      const id = match();
      if (id !== undefined) return id;
    }
    throw new ConnectorError(
      'system',
      'brand_failed',
      `Could not create brand '${wanted}': ${errorText(answer.body)}`,
      {
        status: answer.status,
      },
    );
  }
}
