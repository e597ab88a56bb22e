import type { HttpClient } from '../../kit/http/http-client.ts';
import type { RealStore } from './real-stores.ts';

/**
 * A real store's records exactly as WooCommerce's REST API answers them (wc/v3, `context=edit`,
 * so texts come back as stored), for comparing two stores on WooCommerce's own fields. Only the
 * `_links` WordPress adds to every answer are left out.
 *
 * Sub-records a migration reads along with their record replace the list of ids the record
 * carries for them: a product's `variations` holds its variation records, an order's `refunds`
 * its refund records (the summaries the order answers with hold no lines), and an order's
 * `notes` its notes (which the order itself does not list).
 */
export type NativeRecord = Record<string, unknown> & { id: number };

export const nativeEntities = [
  'categories',
  'brands',
  'tags',
  'attributes',
  'products',
  'coupons',
  'customers',
  'orders',
  'reviews',
  'media',
  'pages',
  'posts',
  'postCategories',
  'postTags',
] as const;
export type NativeEntity = (typeof nativeEntities)[number];

export type NativeSnapshot = Record<NativeEntity, NativeRecord[]>;

/** What only a WordPress application password opens (WooCommerce's keys do not). */
const wordPressOnly = new Set<NativeEntity>(['pages', 'posts', 'postCategories', 'postTags']);

const perPage = 100;

export class NativeReader {
  readonly #http: HttpClient;
  readonly #store: RealStore;
  readonly #auth: string;

  constructor(http: HttpClient, store: RealStore) {
    this.#http = http;
    this.#store = store;
    const { consumerKey, consumerSecret } = store.credentials;
    this.#auth = `Basic ${Buffer.from(`${consumerKey}:${consumerSecret}`).toString('base64')}`;
  }

  /** WooCommerce's keys for wc/v3; WordPress's own routes of pages and posts take the password. */
  #authFor(path: string): string {
    const { wordpressUser, wordpressApplicationPassword } = this.#store.credentials;
    if (!path.startsWith('wp/v2/')) return this.#auth;
    if (wordpressUser && wordpressApplicationPassword)
      return `Basic ${Buffer.from(`${wordpressUser}:${wordpressApplicationPassword.replace(/\s+/g, '')}`).toString('base64')}`;
    if (/^wp\/v2\/(pages|posts|users|categories|tags)/.test(path))
      throw new Error(
        `${this.#store.name}: WordPress's pages and posts need an application password (wordpress-password.ts makes one)`,
      );
    return this.#auth;
  }

  async #get(path: string, query: Record<string, string | number>) {
    const response = await this.#http.request({
      method: 'GET',
      url: `${this.#store.url}/wp-json/${path}`,
      query,
      headers: { authorization: this.#authFor(path), accept: 'application/json' },
    });
    if (!response.ok)
      throw new Error(
        `${this.#store.name}: GET ${path} answered ${response.status} ${response.text().slice(0, 300)}`,
      );
    return {
      items: response.json<NativeRecord[]>(),
      pages: Number(response.headers['x-wp-totalpages'] ?? 1),
    };
  }

  /**
   * One request to the store's REST API (for tests that write): the status and the parsed
   * answer, whatever the status.
   */
  async send(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await this.#http.request({
      method,
      url: `${this.#store.url}/wp-json/${path}`,
      headers: {
        authorization: this.#authFor(path),
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      retryable: method === 'GET',
    });
    return { status: response.status, body: response.json<Record<string, unknown>>() };
  }

  /** Every item of a list, page by page, in id order. */
  async list(path: string, query: Record<string, string | number> = {}): Promise<NativeRecord[]> {
    const all: NativeRecord[] = [];
    for (let page = 1; ; page += 1) {
      const { items, pages } = await this.#get(path, {
        per_page: perPage,
        page,
        orderby: 'id',
        order: 'asc',
        ...query,
      });
      all.push(...items.map(withoutLinks));
      if (page >= pages || items.length === 0) return all;
    }
  }

  async read(entity: NativeEntity): Promise<NativeRecord[]> {
    const edit = { context: 'edit' };
    switch (entity) {
      case 'categories':
        return this.list('wc/v3/products/categories', edit);
      case 'brands':
        return this.list('wc/v3/products/brands', edit);
      case 'tags':
        return this.list('wc/v3/products/tags', edit);
      case 'attributes': {
        // The attributes route answers every attribute at once and takes no paging.
        const { items } = await this.#get('wc/v3/products/attributes', edit);
        return Promise.all(
          items.map(async (attribute) => ({
            ...withoutLinks(attribute),
            terms: await this.list(`wc/v3/products/attributes/${attribute.id}/terms`, edit),
          })),
        );
      }
      case 'products':
        return inParallel(await this.list('wc/v3/products', edit), async (product) => ({
          ...product,
          variations:
            product.type === 'variable'
              ? await this.list(`wc/v3/products/${product.id}/variations`, edit)
              : [],
        }));
      case 'coupons':
        // Without a status WooCommerce lists only published and private coupons.
        return this.list('wc/v3/coupons', { ...edit, status: 'any' });
      case 'customers':
        return this.list('wc/v3/customers', edit);
      case 'orders':
        return inParallel(await this.list('wc/v3/orders', edit), async (order) => ({
          ...order,
          refunds: await this.list(`wc/v3/orders/${order.id}/refunds`, edit),
          // Notes come all at once, newest first; oldest first reads like the order's history.
          notes: (await this.#get(`wc/v3/orders/${order.id}/notes`, { ...edit, type: 'any' })).items
            .map(withoutLinks)
            .sort((a, b) => a.id - b.id),
        }));
      case 'reviews':
        return this.reviews();
      case 'media':
        // WooCommerce's keys do not sign WordPress's own routes: the public view of the library.
        return this.list('wp/v2/media', {});
      case 'postCategories':
        // WordPress's own categories and tags of posts (not WooCommerce's product terms).
        return this.list('wp/v2/categories', edit);
      case 'postTags':
        return this.list('wp/v2/tags', edit);
      case 'pages':
      case 'posts':
        // Every status but the bin, as stored (the application password opens edit context).
        return this.list(`wp/v2/${entity}`, {
          ...edit,
          status: 'publish,future,draft,pending,private',
        });
    }
  }

  /**
   * Every product review, from the lists that hold them between them (approved and held, spam,
   * the bin), in id order.
   */
  async reviews(): Promise<NativeRecord[]> {
    const lists = await Promise.all(
      ['all', 'spam', 'trash'].map((status) =>
        this.list('wc/v3/products/reviews', { context: 'edit', status }),
      ),
    );
    return lists.flat().sort((a, b) => a.id - b.id);
  }

  async snapshot(): Promise<NativeSnapshot> {
    const out = {} as NativeSnapshot;
    const { wordpressUser } = this.#store.credentials;
    for (const entity of nativeEntities)
      // WordPress's own records only with an application password in the credentials.
      out[entity] = wordPressOnly.has(entity) && !wordpressUser ? [] : await this.read(entity);
    return out;
  }
}

/** Maps the records a few at a time (a store serves a handful of PHP workers), keeping order. */
async function inParallel(
  records: NativeRecord[],
  map: (record: NativeRecord) => Promise<NativeRecord>,
  width = 4,
): Promise<NativeRecord[]> {
  const out: NativeRecord[] = [];
  for (let i = 0; i < records.length; i += width)
    out.push(...(await Promise.all(records.slice(i, i + width).map(map))));
  return out;
}

function withoutLinks(record: NativeRecord): NativeRecord {
  const { _links: _, ...rest } = record;
  return rest as NativeRecord;
}

/**
 * A product's store-wide (taxonomy) attribute lists its terms in the order the attribute's own
 * setting gives (order_by: menu_order, name, name_num, id), not in an order the product keeps.
 * With name_num, names that are not numbers tie, and WooCommerce answers them in whatever order
 * the database returns (seen changing between two reads of the same product). The setting and
 * the terms are compared on the attribute itself; the product's options are compared as a set.
 * A product's own attribute (id 0) keeps its options in the order it was given: compared as is.
 */
export function termOrderedOptions<T extends Record<string, unknown>>(attribute: T): T {
  const { id, options } = attribute;
  if (id === 0 || id === '0' || !Array.isArray(options)) return attribute;
  return { ...attribute, options: [...options].map(String).sort() };
}
