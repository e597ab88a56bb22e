import type { ZodType } from 'zod';
import type { AssetRecord } from '../kit/contract.ts';
import { runBatch } from './batch.ts';
import type { WooClient } from './client.ts';
import { pageSize } from './read.ts';
import { nameKey } from './to-canonical.ts';
import {
  wcAttributeSchema,
  wcAttributeTermSchema,
  wcShippingClassSchema,
  wcTermSchema,
  type WcError,
} from './wc-schemas.ts';

/**
 * The store's own lists a product points into (tags, brands, store-wide attributes and their
 * terms, shipping classes), each found by its natural key before anything is created: a tag or
 * brand by its name, an attribute by its slug (else its name), a term by its name within its
 * attribute, a shipping class by its slug. Names are compared with WordPress's HTML escaping
 * undone, Unicode composed and case folded ('Café' written two ways is one tag). Where a store
 * already holds two terms with one key (left by an earlier tool), the oldest (lowest id) is used,
 * so a second run never re-points a product to the other copy.
 *
 * Creation is serialised per list within a connection: WordPress checks for a duplicate name only
 * before it inserts, so two writes creating the same term at once would both succeed.
 */

const errorText = (e: WcError) => `${e.message.replace(/<[^>]*>/g, '')} (${e.code})`;

/** Runs tasks one after another (a lock for one list). */
export class Serial {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(task: () => Promise<T>): Promise<T> {
    const next = this.tail.then(task, task);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

async function allPages<T>(
  client: WooClient,
  path: string,
  schema: ZodType<T>,
  query: Record<string, string | number> = {},
): Promise<T[]> {
  const all: T[] = [];
  for (let page = 1; ; page++) {
    const result = await client.page(
      path,
      { page, per_page: pageSize, orderby: 'id', order: 'asc', ...query },
      schema,
    );
    all.push(...result.items);
    if (page >= result.totalPages || result.items.length === 0) return all;
  }
}

/**
 * A term a write created at the destination, as an asset undo removes (removeAssets in
 * remove.ts): the key names its taxonomy and name, the destination id its taxonomy and id
 * ('product_tag:45'; an attribute's term 'attribute_term:3:17', the attribute 'attribute:3').
 */
export function termAsset(taxonomy: string, name: string, destinationId: string): AssetRecord {
  return {
    kind: 'term',
    key: `${taxonomy}:${name}`,
    destinationId: `${taxonomy}:${destinationId}`,
  };
}

export interface Ensured {
  /** Destination id per requested name (as given). */
  ids: Map<string, number>;
  /** The names this call created (the store had none of them), with their new ids. */
  created: Map<string, number>;
  /** Names that could not be created, with the store's reason. */
  failed: Map<string, string>;
}

/**
 * A flat list of named terms (tags, brands, an attribute's terms): listed once, matched by name,
 * the missing ones created in batches.
 */
export class NamedTerms {
  private readonly client: WooClient;
  private readonly route: string;
  private readonly schema: ZodType<{ id: number; name: string }>;
  private byKey: Map<string, number> | undefined;
  private readonly serial = new Serial();

  constructor(
    client: WooClient,
    route: string,
    schema: ZodType<{ id: number; name: string }> = wcTermSchema,
  ) {
    this.client = client;
    this.route = route;
    this.schema = schema;
  }

  private async load(): Promise<Map<string, number>> {
    if (this.byKey) return this.byKey;
    const map = new Map<string, number>();
    for (const term of await allPages(this.client, this.route, this.schema)) {
      const key = nameKey(term.name);
      // Listed by id: the first of two copies wins.
      if (!map.has(key)) map.set(key, term.id);
    }
    this.byKey = map;
    return map;
  }

  /**
   * Forgets the list, so the next use lists the store again: another writer of this connection
   * created or renamed terms in it (brands written as records of their own).
   */
  forget(): void {
    void this.serial.run(async () => {
      this.byKey = undefined;
    });
  }

  /** Ids of the named terms, creating the missing ones; what could not be created, and why. */
  ensure(names: string[], extra: (name: string) => Record<string, unknown> = () => ({})) {
    return this.serial.run(async (): Promise<Ensured> => {
      const map = await this.load();
      const failed = new Map<string, string>();
      const created = new Map<string, number>();
      const missing = new Map<string, string>();
      for (const n of names)
        if (n.trim() !== '' && !map.has(nameKey(n)) && !missing.has(nameKey(n)))
          missing.set(nameKey(n), n);
      const list = [...missing.values()];
      if (list.length) {
        const results = await runBatch(
          this.client,
          `${this.route}/batch`,
          {
            create: list.map((n, key) => ({ key, body: { name: n.trim(), ...extra(n) } })),
            update: [],
          },
          async () => new Map(),
        );
        list.forEach((n, key) => {
          const result = results.get(key);
          const term = result?.ok ? this.schema.safeParse(result.item) : undefined;
          if (term?.success) {
            map.set(nameKey(n), term.data.id);
            created.set(n, term.data.id);
          } else if (
            result &&
            !result.ok &&
            result.error.code === 'term_exists' &&
            typeof result.error.data?.resource_id === 'number'
          )
            map.set(nameKey(n), result.error.data.resource_id);
          else
            failed.set(
              n,
              result && !result.ok ? errorText(result.error) : 'no answer from the store',
            );
        });
      }
      const ids = new Map<string, number>();
      for (const n of names) {
        const id = map.get(nameKey(n));
        if (id !== undefined) ids.set(n, id);
      }
      return { ids, failed, created };
    });
  }
}

export interface SharedAttribute {
  slug: string;
  name: string;
  /** Settings the attribute is created with, where the source has them. */
  settings?: { has_archives: boolean; order_by: string };
}

/**
 * Store-wide attributes (`pa_<slug>`) and their terms. An attribute is found by its slug (the
 * store answers it with the pa_ prefix), else by its name, and created once; its terms are found
 * by name and the missing ones created before a product names them (WooCommerce would create
 * them itself, but not in a way two concurrent writes agree on).
 */
export class Attributes {
  private readonly client: WooClient;
  private bySlug: Map<string, number> | undefined;
  private byName = new Map<string, number>();
  private readonly terms = new Map<number, NamedTerms>();
  private readonly serial = new Serial();

  constructor(client: WooClient) {
    this.client = client;
  }

  private async load(): Promise<Map<string, number>> {
    if (this.bySlug) return this.bySlug;
    const { data } = await this.client.get('/products/attributes', {}, wcAttributeSchema.array());
    const bySlug = new Map<string, number>();
    for (const a of [...data].sort((x, y) => x.id - y.id)) {
      const slug = a.slug.replace(/^pa_/, '');
      if (!bySlug.has(slug)) bySlug.set(slug, a.id);
      if (!this.byName.has(nameKey(a.name))) this.byName.set(nameKey(a.name), a.id);
    }
    this.bySlug = bySlug;
    return bySlug;
  }

  /** Forgets what was listed (undo deleted attributes or terms): the next use lists again. */
  forget(): void {
    void this.serial.run(async () => {
      this.bySlug = undefined;
      this.byName = new Map();
      this.terms.clear();
    });
  }

  /** Destination ids of the attributes (by slug); what could not be created, and why. */
  ensure(attributes: SharedAttribute[]) {
    return this.serial.run(async () => {
      let bySlug = await this.load();
      const failed = new Map<string, string>();
      /** Attributes this call created, by slug. */
      const created = new Map<string, number>();
      for (const a of attributes) {
        if (bySlug.has(a.slug)) continue;
        const named = this.byName.get(nameKey(a.name));
        if (named !== undefined) {
          bySlug.set(a.slug, named);
          continue;
        }
        try {
          const { data } = await this.client.request('POST', '/products/attributes', {
            body: { name: a.name, slug: a.slug, ...a.settings },
            retryable: false,
            schema: wcAttributeSchema,
          });
          bySlug.set(a.slug, data.id);
          this.byName.set(nameKey(a.name), data.id);
          created.set(a.slug, data.id);
        } catch (error) {
          // A create that reached the store before its answer was lost is in the list now.
          this.bySlug = undefined;
          bySlug = await this.load();
          if (!bySlug.has(a.slug))
            failed.set(a.slug, error instanceof Error ? error.message : String(error));
        }
      }
      return {
        ids: new Map([...bySlug].filter(([slug]) => attributes.some((a) => a.slug === slug))),
        failed,
        created,
      };
    });
  }

  /**
   * Ids of an attribute's terms by name, creating the missing ones (in the order given, with
   * what `extra` adds to a term's body).
   */
  ensureTerms(
    attributeId: number,
    names: string[],
    extra?: (name: string) => Record<string, unknown>,
  ): Promise<Ensured> {
    let terms = this.terms.get(attributeId);
    if (!terms) {
      terms = new NamedTerms(
        this.client,
        `/products/attributes/${attributeId}/terms`,
        wcAttributeTermSchema,
      );
      this.terms.set(attributeId, terms);
    }
    return terms.ensure(names, extra);
  }
}

/** Shipping classes by slug; a class the destination lacks is created with its slug as name. */
export class ShippingClasses {
  private readonly client: WooClient;
  private slugs: Set<string> | undefined;
  private readonly serial = new Serial();

  constructor(client: WooClient) {
    this.client = client;
  }

  /** Forgets what was listed (undo deleted classes): the next use lists again. */
  forget(): void {
    void this.serial.run(async () => {
      this.slugs = undefined;
    });
  }

  /** The slugs created (with their ids); the ones that could not be created, with the reason. */
  ensure(slugs: string[]) {
    return this.serial.run(async () => {
      if (!this.slugs)
        this.slugs = new Set(
          (await allPages(this.client, '/products/shipping_classes', wcShippingClassSchema)).map(
            (c) => c.slug,
          ),
        );
      const known = this.slugs;
      const created = new Map<string, number>();
      const failed = new Map<string, string>();
      for (const slug of new Set(slugs.filter((s) => s !== '' && !known.has(s)))) {
        try {
          const { data } = await this.client.request('POST', '/products/shipping_classes', {
            body: { name: slug, slug },
            retryable: false,
            schema: wcShippingClassSchema,
          });
          known.add(slug);
          created.set(slug, data.id);
        } catch (error) {
          // A create that reached the store before its answer was lost is in the list now.
          const now = await allPages(
            this.client,
            '/products/shipping_classes',
            wcShippingClassSchema,
          );
          if (now.some((c) => c.slug === slug)) known.add(slug);
          else failed.set(slug, error instanceof Error ? error.message : String(error));
        }
      }
      return { created, failed };
    });
  }
}
