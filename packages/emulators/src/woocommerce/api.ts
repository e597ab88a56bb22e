import { samplePng } from '../framework/sample-store.ts';
import type { EmulatorRequest, EmulatorResponse } from '../framework/server.ts';
import { permissionError, type WooAuthenticator } from './auth.ts';
import { matchRoute, routeTable, type ArgSchema } from './route-table.ts';
import type { Review } from './reviews.ts';
import { Serializer, type Context } from './serialize.ts';
import { emailTemplates, type Order, type WooStore } from './shop.ts';
import {
  asInt,
  asList,
  asObject,
  asString,
  parseWcDate,
  type GlobalAttribute,
  type Json,
  type Product,
  type Taxonomy,
  type Term,
} from './store.ts';
import { argsErrorResponse, parsePhpQuery, RestError, validateArgs, wpError } from './wp-rest.ts';

/**
 * The HTTP face of the emulated store: WordPress's REST server (route lookup, authentication,
 * permission checks, argument validation, pagination headers, batch rules) in front of the wc/v3
 * controllers. Routes and their arguments come from the 11.0.1 index (route-table.ts).
 */

interface Ctx {
  request: EmulatorRequest;
  params: Record<string, string>;
  args: Record<string, unknown>;
  body: Json;
}
type Handler = (ctx: Ctx) => Promise<EmulatorResponse> | EmulatorResponse;

/** WC_REST_Controller::check_batch_limit(): 100 items, creates, updates and deletes together. */
export const batchLimit = 100;

const collator = (a: unknown, b: unknown): number =>
  typeof a === 'number' && typeof b === 'number'
    ? a - b
    : String(a ?? '').localeCompare(String(b ?? ''));

function sortItems<T extends { id: number }>(
  items: T[],
  orderby: string,
  order: string,
  keys: Record<string, (t: T) => unknown>,
  include: number[],
): T[] {
  const sorted = [...items];
  if (orderby === 'include' || orderby === 'post__in') {
    sorted.sort((a, b) => include.indexOf(a.id) - include.indexOf(b.id));
    return sorted;
  }
  const key = keys[orderby] ?? ((t: T) => t.id);
  const direction = order === 'asc' ? 1 : -1;
  sorted.sort((a, b) => direction * (collator(key(a), key(b)) || a.id - b.id));
  return sorted;
}

/**
 * Arguments whose own sanitize_callback replaces WordPress's validation, so their enum is not
 * enforced: the reviews list's `status` goes through sanitize_key() only, and a real store lists
 * a status outside the documented ones (`any`: every status) as WP_Comment_Query reads it.
 */
const sanitizedOnly: Record<string, readonly string[]> = {
  'GET /wc/v3/products/reviews': ['status'],
};

function checkedArgs(
  method: string,
  pattern: string,
  args: Record<string, ArgSchema>,
): Record<string, ArgSchema> {
  const names = sanitizedOnly[`${method} ${pattern}`];
  if (!names) return args;
  const out = { ...args };
  for (const name of names) {
    const { enum: _enum, ...rest } = out[name] ?? {};
    out[name] = rest;
  }
  return out;
}

const ids = (v: unknown): number[] => asList(v).map(asInt);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(asString) : asString(v).split(',').filter(Boolean);

export class WooApi {
  readonly store: WooStore;
  readonly auth: WooAuthenticator;
  readonly https: boolean;
  /** Items per batch request; stores can lower it with the woocommerce_rest_batch_items_limit filter. */
  batchLimit = batchLimit;
  home = '';
  readonly handlers: Record<string, Handler>;

  constructor(store: WooStore, auth: WooAuthenticator, https = false) {
    this.store = store;
    this.auth = auth;
    this.https = https;
    this.handlers = this.buildHandlers();
  }

  private get out(): Serializer {
    return new Serializer(this.store, this.home);
  }

  async handle(request: EmulatorRequest): Promise<EmulatorResponse> {
    const path = request.url.pathname;
    if (
      request.method === 'GET' &&
      (path.startsWith('/media/') || path.startsWith('/wp-content/uploads/'))
    )
      return this.media(path);
    if (path !== '/wp-json' && !path.startsWith('/wp-json/'))
      return {
        status: 404,
        headers: { 'content-type': 'text/html' },
        body: '<html><body>Not Found</body></html>',
      };
    const restPath = path.replace(/^\/wp-json/, '').replace(/\/+$/, '') || '/';
    // WooCommerce authenticates requests to its own namespaces only; the root index is WordPress's.
    if (restPath === '/') return { status: 200, body: this.rootIndex() };
    // WordPress's own namespace: application passwords, not WooCommerce's keys (wp-content.ts).
    if (restPath === '/wp/v2' || restPath.startsWith('/wp/v2/')) {
      this.store.wp.home = this.home;
      return this.store.wp.handle(request, restPath);
    }

    let authResult = this.auth.authenticate(request, this.home, this.https);
    if (authResult.kind === 'error') return authResult.response;
    if (authResult.kind === 'user') {
      authResult = this.auth.permitted(authResult.key, request.method);
      if (authResult.kind === 'error') return authResult.response;
    }

    // WordPress takes the method from `_method` (clients that cannot send OPTIONS, PUT or DELETE)
    // once WooCommerce has authenticated the request by the method it was sent with.
    const override = request.url.searchParams.get('_method')?.toUpperCase();
    if ((override ?? request.method) === 'OPTIONS') return this.describeRoute(restPath);
    const method = override ?? (request.method === 'HEAD' ? 'GET' : request.method);
    const match = matchRoute(method, restPath);
    if (!match?.endpoint)
      return wpError(
        404,
        'rest_no_route',
        'No route was found matching the URL and request method.',
      );
    const isIndex = match.pattern === '/wc/v3';
    const kind = match.pattern.endsWith('/batch')
      ? 'batch'
      : Object.keys(match.params).some((k) => k === 'id' || k === 'group_id')
        ? 'item'
        : 'collection';
    if (!isIndex && authResult.kind !== 'user') return permissionError(method, kind);

    let body: Json = {};
    if (request.body.length > 0 && method !== 'GET') {
      try {
        const parsed: unknown = JSON.parse(request.body.toString('utf8'));
        body = asObject(parsed);
      } catch {
        return wpError(400, 'rest_invalid_json', 'Invalid JSON body passed.', {});
      }
    }
    const query = parsePhpQuery(request.url.search.slice(1));
    const merged: Record<string, unknown> = { ...query, ...body, ...match.params };
    for (const key of Object.keys(merged)) if (key.startsWith('oauth_')) delete merged[key];
    const validation = validateArgs(
      merged,
      checkedArgs(method, match.pattern, match.endpoint.args),
      {
        checkRequired: kind === 'collection' && method === 'POST',
      },
    );
    const invalid = argsErrorResponse(validation);
    if (invalid) return invalid;

    const verb =
      method === 'GET' || method === 'DELETE' ? method : kind === 'collection' ? 'POST' : 'EDIT';
    const handler = this.handlers[`${verb} ${match.pattern}`];
    if (!handler)
      return wpError(
        404,
        'rest_no_route',
        'No route was found matching the URL and request method.',
      );
    try {
      return await handler({ request, params: match.params, args: validation.values, body });
    } catch (error) {
      if (error instanceof RestError) return { status: error.status, body: error.toBody() };
      throw error;
    }
  }

  private taxClass(c: { slug: string; name: string }): Json {
    const collection = [{ href: `${this.home}/wp-json/wc/v3/taxes/classes` }];
    return { slug: c.slug, name: c.name, _links: { collection } };
  }

  /**
   * WordPress's answer to OPTIONS on a route (rest_handle_options_request): the route's
   * namespace, methods and endpoints with their arguments, whoever asks and without calling the
   * route. Argument descriptions and the route's schema, which the route table leaves out, are
   * not answered.
   */
  private describeRoute(restPath: string): EmulatorResponse {
    const match = matchRoute('GET', restPath);
    if (!match)
      return wpError(
        404,
        'rest_no_route',
        'No route was found matching the URL and request method.',
      );
    const { namespace, methods, endpoints } = match.route;
    return {
      status: 200,
      headers: { allow: methods.join(', ') },
      body: {
        namespace,
        methods,
        endpoints,
        _links: { self: [{ href: `${this.home}/wp-json${restPath}` }] },
      },
    };
  }

  private media(path: string): EmulatorResponse {
    const attachment = [...this.store.attachments.values()].find((a) => a.path === path);
    if (!attachment)
      return {
        status: 404,
        headers: { 'content-type': 'text/html' },
        body: '<html><body>Not Found</body></html>',
      };
    return {
      status: 200,
      headers: { 'content-type': attachment.contentType, 'cache-control': 'max-age=31536000' },
      body: attachment.bytes ?? samplePng(path),
    };
  }

  private rootIndex() {
    return {
      name: this.store.settings.siteTitle,
      description: 'Just another WordPress site',
      url: this.home,
      home: this.home,
      gmt_offset: '0',
      timezone_string: '',
      namespaces: ['oembed/1.0', 'wc/v3', 'wp/v2'],
      authentication: [],
      routes: {},
    };
  }

  /** One page of a collection; only that page is turned into JSON. */
  private paginate<T>(
    ctx: Ctx,
    items: T[],
    path: string,
    toJson: (item: T) => unknown,
  ): EmulatorResponse {
    const perPage = asInt(ctx.args.per_page) || 10;
    const page = asInt(ctx.args.page) || 1;
    const offset = ctx.args.offset === undefined ? (page - 1) * perPage : asInt(ctx.args.offset);
    const total = items.length;
    const totalPages = Math.ceil(total / perPage);
    const base = new URL(`${this.home}/wp-json${path}`);
    for (const [k, v] of ctx.request.url.searchParams)
      if (!k.startsWith('oauth_')) base.searchParams.append(k, v);
    const link = (p: number, rel: string) => {
      const url = new URL(base);
      url.searchParams.set('page', String(p));
      return `<${url.toString()}>; rel="${rel}"`;
    };
    const links = [];
    if (page > 1 && page <= totalPages + 1) links.push(link(page - 1, 'prev'));
    if (page < totalPages) links.push(link(page + 1, 'next'));
    return {
      status: 200,
      headers: {
        'X-WP-Total': String(total),
        'X-WP-TotalPages': String(totalPages),
        ...(links.length ? { Link: links.join(', ') } : {}),
      },
      body: items.slice(offset, offset + perPage).map(toJson),
    };
  }

  // -------------------------------------------------------------------------------------------
  // Generic batch: {create, update, delete}, 100 items at most, errors per item.

  private async batch(
    ctx: Ctx,
    ops: {
      create: (item: Json) => Promise<unknown>;
      update: (id: number, item: Json) => Promise<unknown>;
      delete: (id: number) => Promise<unknown>;
    },
  ): Promise<EmulatorResponse> {
    const create = asList(ctx.body.create);
    const update = asList(ctx.body.update);
    const del = asList(ctx.body.delete);
    if (create.length + update.length + del.length > this.batchLimit)
      return wpError(
        413,
        'woocommerce_rest_request_entity_too_large',
        `Unable to accept more than ${this.batchLimit} items for this request.`,
      );
    const errorItem = (id: number, error: unknown) => {
      if (!(error instanceof RestError)) throw error;
      return { id, error: error.toBody() };
    };
    const out: Record<string, unknown[]> = {};
    const nothing = [create, update, del].every((list) => list.length === 0);
    // PHP encodes the empty answer array of batch_items() as a JSON list.
    if (nothing) return { status: 200, body: [] };
    if (ctx.body.create !== undefined) {
      out.create = [];
      for (const item of create) {
        try {
          const body = asObject(item);
          if (body.id)
            throw new RestError(
              400,
              'woocommerce_rest_item_exists',
              'Cannot create existing resource.',
            );
          out.create.push(await ops.create(body));
        } catch (error) {
          out.create.push(errorItem(0, error));
        }
      }
    }
    if (ctx.body.update !== undefined) {
      out.update = [];
      for (const item of update) {
        const body = asObject(item);
        const id = asInt(body.id);
        try {
          out.update.push(await ops.update(id, body));
        } catch (error) {
          out.update.push(errorItem(id, error));
        }
      }
    }
    if (ctx.body.delete !== undefined) {
      out.delete = [];
      for (const raw of del) {
        const id = asInt(raw);
        try {
          out.delete.push(await ops.delete(id));
        } catch (error) {
          out.delete.push(errorItem(id, error));
        }
      }
    }
    return { status: 200, body: out };
  }

  // -------------------------------------------------------------------------------------------
  // Products and variations

  private product(id: number, status = 404): Product {
    const product = this.store.products.get(id);
    if (!product) throw new RestError(status, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
    return product;
  }

  private listProducts(ctx: Ctx): EmulatorResponse {
    const a = ctx.args;
    const include = ids(a.include);
    const exclude = ids(a.exclude);
    const skus = a.sku
      ? new Set(
          asString(a.sku)
            .split(',')
            .map((s) => s.trim()),
        )
      : undefined;
    const search = asString(a.search).toLowerCase();
    const after = parseWcDate(a.after);
    const before = parseWcDate(a.before);
    const status = asString(a.status) || 'any';
    let items = [...this.store.products.values()].filter((p) => {
      if (status === 'any' ? p.status === 'trash' : p.status !== status) return false;
      if (include.length && !include.includes(p.id)) return false;
      if (exclude.includes(p.id)) return false;
      if (skus && !skus.has(p.sku)) return false;
      if (a.slug && p.slug !== asString(a.slug)) return false;
      if (a.type && p.type !== a.type) return false;
      if (
        a.category &&
        !strings(a.category)
          .map(Number)
          .some((c) => p.categoryIds.includes(c))
      )
        return false;
      if (
        a.tag &&
        !strings(a.tag)
          .map(Number)
          .some((t) => p.tagIds.includes(t))
      )
        return false;
      if (ids(a.parent).length && !ids(a.parent).includes(p.parentId)) return false;
      if (a.stock_status && p.stockStatus !== a.stock_status) return false;
      if (a.featured !== undefined && p.featured !== a.featured) return false;
      if (after !== undefined && p.created <= after) return false;
      if (before !== undefined && p.created >= before) return false;
      if (
        search &&
        ![p.name, p.description, p.shortDescription].some((t) => t.toLowerCase().includes(search))
      )
        return false;
      return true;
    });
    items = sortItems(
      items,
      asString(a.orderby),
      asString(a.order),
      {
        date: (p) => p.created,
        modified: (p) => p.modified,
        title: (p) => p.name.toLowerCase(),
        slug: (p) => p.slug,
        menu_order: (p) => p.menuOrder,
        price: (p) => Number(p.salePrice || p.regularPrice || 0),
        popularity: (p) => p.totalSales,
      },
      include,
    );
    const context = asString(a.context) as Context;
    const meta = { include: strings(a.include_meta), exclude: strings(a.exclude_meta) };
    return this.paginate(ctx, items, '/wc/v3/products', (p) => this.out.product(p, context, meta));
  }

  private variationOf(productId: number, id: number, status = 404) {
    const variation = this.store.variations.get(id);
    if (!variation || variation.parentId !== productId)
      throw new RestError(status, 'woocommerce_rest_product_variation_invalid_id', 'Invalid ID.');
    return variation;
  }

  private listVariations(ctx: Ctx): EmulatorResponse {
    const a = ctx.args;
    const productId = asInt(ctx.params.product_id);
    const parent = this.store.products.get(productId);
    if (!parent) throw new RestError(404, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
    const include = ids(a.include);
    const exclude = ids(a.exclude);
    const skus = a.sku
      ? new Set(
          asString(a.sku)
            .split(',')
            .map((s) => s.trim()),
        )
      : undefined;
    let items = this.store
      .variationsOf(productId)
      .filter(
        (v) =>
          (!include.length || include.includes(v.id)) &&
          !exclude.includes(v.id) &&
          (!skus || skus.has(v.sku)) &&
          (asString(a.status) === 'any' || !a.status || v.status === a.status),
      );
    items = sortItems(
      items,
      asString(a.orderby),
      asString(a.order),
      {
        date: (v) => v.created,
        modified: (v) => v.modified,
        menu_order: (v) => v.menuOrder,
        title: (v) => v.id,
      },
      include,
    );
    const context = asString(a.context) as Context;
    const meta = { include: strings(a.include_meta), exclude: strings(a.exclude_meta) };
    return this.paginate(ctx, items, `/wc/v3/products/${productId}/variations`, (v) =>
      this.out.variation(v, context, meta),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Terms

  private term(taxonomy: Taxonomy, id: number, status = 404): Term {
    const term = this.store.terms.get(id);
    if (!term || term.taxonomy !== taxonomy)
      throw new RestError(status, 'woocommerce_rest_term_invalid', 'Resource does not exist.');
    return term;
  }

  private async termImage(input: Json): Promise<number | undefined> {
    if (input.image === undefined) return undefined;
    const image = asObject(input.image);
    if (!Object.keys(image).length) return 0;
    // The terms controller answers wc_rest_upload_image_from_url's own error (a real store:
    // woocommerce_rest_invalid_remote_image_url for a src it cannot download).
    return this.store.resolveImage(
      image,
      'woocommerce_rest_invalid_remote_image_url',
      'woocommerce_rest_invalid_image_id',
    );
  }

  private async createTerm(taxonomy: Taxonomy, input: Json) {
    // The term is only kept when its image could be stored (the controller deletes it otherwise).
    const imageId = taxonomy === 'product_tag' ? 0 : ((await this.termImage(input)) ?? 0);
    return this.out.term(this.store.insertTerm(taxonomy, input, imageId));
  }

  private async updateTerm(taxonomy: Taxonomy, id: number, input: Json, status = 404) {
    const term = this.term(taxonomy, id, status);
    const draft = structuredClone(term);
    this.store.updateTerm(draft, input);
    const imageId = taxonomy === 'product_tag' ? undefined : await this.termImage(input);
    if (imageId !== undefined) draft.imageId = imageId;
    Object.assign(term, draft);
    return this.out.term(term);
  }

  private termHandlers(base: string, taxonomy: Taxonomy): Record<string, Handler> {
    const item = `${base}/(?P<id>[\\d]+)`;
    return {
      [`GET ${base}`]: (ctx) => {
        const a = ctx.args;
        const include = ids(a.include);
        const exclude = ids(a.exclude);
        const slugs = a.slug === undefined ? undefined : strings(a.slug);
        const search = asString(a.search).toLowerCase();
        let items = this.store.termsOf(taxonomy).filter((t) => {
          if (include.length && !include.includes(t.id)) return false;
          if (exclude.includes(t.id)) return false;
          if (slugs && !slugs.includes(t.slug)) return false;
          if (a.parent !== undefined && t.parent !== asInt(a.parent)) return false;
          if (search && !t.name.toLowerCase().includes(search) && !t.slug.includes(search))
            return false;
          if (a.hide_empty === true && this.store.termCount(t) === 0) return false;
          if (a.product && !this.productTerms(asInt(a.product)).includes(t.id)) return false;
          return true;
        });
        items = sortItems(
          items,
          asString(a.orderby),
          asString(a.order),
          {
            name: (t) => t.name.toLowerCase(),
            slug: (t) => t.slug,
            description: (t) => t.description,
            count: (t) => this.store.termCount(t),
            term_group: () => 0,
          },
          include,
        );
        return this.paginate(ctx, items, base, (t) => this.out.term(t));
      },
      [`POST ${base}`]: async (ctx) => ({
        status: 201,
        body: await this.createTerm(taxonomy, ctx.body),
      }),
      [`GET ${item}`]: (ctx) => ({
        status: 200,
        body: this.out.term(this.term(taxonomy, asInt(ctx.params.id))),
      }),
      [`EDIT ${item}`]: async (ctx) => ({
        status: 200,
        body: await this.updateTerm(taxonomy, asInt(ctx.params.id), ctx.body),
      }),
      [`DELETE ${item}`]: (ctx) => {
        const term = this.term(taxonomy, asInt(ctx.params.id));
        if (ctx.args.force !== true)
          throw new RestError(
            501,
            'woocommerce_rest_trash_not_supported',
            'Resource does not support trashing.',
          );
        const previous = this.out.term(term);
        this.store.deleteTerm(term);
        return { status: 200, body: previous };
      },
      [`EDIT ${base}/batch`]: (ctx) =>
        this.batch(ctx, {
          create: (body) => this.createTerm(taxonomy, body),
          update: (id, body) => this.updateTerm(taxonomy, id, body, 400),
          delete: async (id) => {
            const term = this.term(taxonomy, id);
            const previous = this.out.term(term);
            this.store.deleteTerm(term);
            return previous;
          },
        }),
    };
  }

  private productTerms(productId: number): number[] {
    const p = this.store.products.get(productId);
    return p ? [...p.categoryIds, ...p.tagIds, ...p.brandIds] : [];
  }

  // -------------------------------------------------------------------------------------------
  // Orders

  private order(id: number, status = 404): Order {
    const order = this.store.orders.get(id);
    if (!order)
      throw new RestError(status, 'woocommerce_rest_shop_order_invalid_id', 'Invalid ID.');
    return order;
  }

  private listOrders(ctx: Ctx): EmulatorResponse {
    const a = ctx.args;
    const include = ids(a.include);
    const exclude = ids(a.exclude);
    const statuses = strings(a.status);
    const createdVia = a.created_via === undefined ? undefined : strings(a.created_via);
    const search = asString(a.search).toLowerCase();
    const after = parseWcDate(a.after);
    const before = parseWcDate(a.before);
    let items = [...this.store.orders.values()].filter((o) => {
      if (
        statuses.includes('any') || !statuses.length
          ? ['trash', 'checkout-draft', 'auto-draft'].includes(o.status)
          : !statuses.includes(o.status)
      )
        return false;
      if (include.length && !include.includes(o.id)) return false;
      if (exclude.includes(o.id)) return false;
      if (a.customer !== undefined && o.customerId !== asInt(a.customer)) return false;
      if (a.product !== undefined && !o.lineItems.some((i) => i.productId === asInt(a.product)))
        return false;
      if (createdVia && !createdVia.includes(o.createdVia)) return false;
      if (ids(a.parent).length && !ids(a.parent).includes(o.parentId)) return false;
      if (after !== undefined && o.created <= after) return false;
      if (before !== undefined && o.created >= before) return false;
      if (search) {
        // HPOS search: order id, customer e-mail, names and addresses, and item names.
        const haystack = [
          String(o.id),
          ...Object.values(o.billing),
          ...Object.values(o.shipping),
          ...o.lineItems.map((i) => i.name),
        ]
          .join(' ')
          .toLowerCase();
        if (!haystack.includes(search)) return false;
      }
      return true;
    });
    items = sortItems(
      items,
      asString(a.orderby),
      asString(a.order),
      {
        date: (o) => o.created,
        modified: (o) => o.modified,
        title: (o) => o.id,
        slug: (o) => o.orderKey,
      },
      include,
    );
    const meta = { include: strings(a.include_meta), exclude: strings(a.exclude_meta) };
    return this.paginate(ctx, items, '/wc/v3/orders', (o) => this.out.order(o, meta));
  }

  // -------------------------------------------------------------------------------------------
  // Settings

  private settingsGroups() {
    const groups = [
      { id: 'general', label: 'General', description: '', parent_id: '', sub_groups: [] },
      { id: 'products', label: 'Products', description: '', parent_id: '', sub_groups: [] },
      {
        id: 'email',
        label: 'Emails',
        description: '',
        parent_id: '',
        sub_groups: Object.keys(emailTemplates).map((t) => `email_${t}`),
      },
      ...Object.entries(emailTemplates).map(([id, label]) => ({
        id: `email_${id}`,
        label,
        description: '',
        parent_id: 'email',
        sub_groups: [],
      })),
    ];
    return groups.map((g) => ({
      ...g,
      _links: { options: [{ href: `${this.home}/wp-json/wc/v3/settings/${g.id}` }] },
    }));
  }

  private groupSettings(group: string): Record<string, unknown>[] {
    const s = this.store.settings;
    const wrap = (list: Record<string, unknown>[]) =>
      list.map((item) => ({ ...item, group_id: group }));
    if (group === 'general')
      return wrap([
        {
          id: 'woocommerce_currency',
          label: 'Currency',
          description:
            'This controls what currency prices are listed at in the catalog and which currency gateways will take payments in.',
          type: 'select',
          default: 'USD',
          options: Object.fromEntries(
            ['USD', 'EUR', 'GBP', 'CAD', 'AUD', 'JPY'].map((c) => [c, c]),
          ),
          tip: '',
          value: s.currency,
        },
        {
          id: 'woocommerce_price_num_decimals',
          label: 'Number of decimals',
          description: '',
          type: 'number',
          default: '2',
          tip: '',
          value: '2',
        },
      ]);
    if (group === 'products')
      return wrap([
        {
          id: 'woocommerce_weight_unit',
          label: 'Weight unit',
          description: 'This controls what unit you will define weights in.',
          type: 'select',
          default: 'kg',
          options: { kg: 'kg', g: 'g', lbs: 'lbs', oz: 'oz' },
          tip: 'This controls what unit you will define weights in.',
          value: s.weightUnit,
        },
        {
          id: 'woocommerce_dimension_unit',
          label: 'Dimensions unit',
          description: 'This controls what unit you will define lengths in.',
          type: 'select',
          default: 'cm',
          options: { m: 'm', cm: 'cm', mm: 'mm', in: 'in', yd: 'yd' },
          tip: 'This controls what unit you will define lengths in.',
          value: s.dimensionUnit,
        },
      ]);
    if (group.startsWith('email_')) {
      const list = this.out.emailSettings(group.slice('email_'.length));
      if (list) return list;
    }
    throw new RestError(404, 'rest_setting_setting_group_invalid', 'Invalid setting group.');
  }

  private updateSetting(group: string, id: string, value: unknown) {
    const current = this.groupSettings(group).find((s) => s.id === id);
    if (!current) throw new RestError(404, 'rest_setting_invalid', 'Invalid setting.');
    let next = asString(value);
    if (current.type === 'checkbox') {
      if (value === undefined || value === '') next = asString(current.default);
      else if (next !== 'yes' && next !== 'no')
        throw new RestError(
          400,
          'rest_setting_value_invalid',
          'An invalid setting value was passed.',
        );
    }
    if (current.type === 'select' && !(next in asObject(current.options)))
      throw new RestError(
        400,
        'rest_setting_value_invalid',
        'An invalid setting value was passed.',
      );
    if (group === 'general' && id === 'woocommerce_currency') this.store.settings.currency = next;
    else if (group === 'products' && id === 'woocommerce_weight_unit')
      this.store.settings.weightUnit = next;
    else if (group === 'products' && id === 'woocommerce_dimension_unit')
      this.store.settings.dimensionUnit = next;
    else if (group.startsWith('email_')) {
      const setting = this.store.emails.get(group.slice('email_'.length));
      if (setting && id in setting) (setting as unknown as Record<string, string>)[id] = next;
      else if (id !== 'woocommerce_price_num_decimals')
        throw new RestError(404, 'rest_setting_invalid', 'Invalid setting.');
    }
    return this.groupSettings(group).find((s) => s.id === id);
  }

  private systemStatus() {
    const s = this.store.settings;
    return {
      environment: {
        home_url: this.home,
        site_url: this.home,
        store_id: 'e0b7c5b2-replatform-sandbox',
        version: s.version ?? '11.0.1',
        log_directory: '/var/www/html/wp-content/uploads/wc-logs/',
        log_directory_writable: true,
        wp_version: '7.1',
        wp_multisite: false,
        wp_memory_limit: 268435456,
        wp_debug_mode: false,
        wp_cron: true,
        wp_environment_type: 'production',
        language: 'en_US',
        server_info: 'nginx/1.27',
        server_architecture: 'Linux 6.1 x86_64',
        php_version: '8.2.28',
        php_post_max_size: 67108864,
        php_max_execution_time: 300,
        php_max_input_vars: 1000,
        curl_version: '8.5.0, OpenSSL/3.0.13',
        suhosin_installed: false,
        max_upload_size: 67108864,
        mysql_version: '10.11.11',
        mysql_version_string: '10.11.11-MariaDB',
        default_timezone: 'UTC',
        fsockopen_or_curl_enabled: true,
        soapclient_enabled: false,
        domdocument_enabled: true,
        gzip_enabled: true,
        mbstring_enabled: true,
        remote_post_successful: true,
        remote_post_response: '200',
        remote_get_successful: true,
        remote_get_response: '200',
      },
      database: {
        wc_database_version: s.version ?? '11.0.1',
        database_prefix: 'wp_',
        maxmind_geoip_database: '',
        database_tables: ['wp_woocommerce_order_items', 'wp_wc_orders', 'wp_wc_order_addresses'],
      },
      active_plugins: [
        {
          plugin: 'woocommerce/woocommerce.php',
          name: 'WooCommerce',
          version: s.version ?? '11.0.1',
          version_latest: '11.0.1',
          url: 'https://woocommerce.com/',
          author_name: 'Automattic',
          author_url: 'https://woocommerce.com',
          network_activated: false,
        },
      ],
      inactive_plugins: [],
      dropins_mu_plugins: [],
      theme: {
        name: 'Twenty Twenty-Five',
        version: '1.3',
        version_latest: '1.3',
        author_url: 'https://wordpress.org/',
        is_child_theme: false,
        is_block_theme: true,
        has_woocommerce_support: true,
        has_woocommerce_file: false,
        has_outdated_templates: false,
        overrides: [],
        parent_name: '',
        parent_version: '',
        parent_author_url: '',
      },
      settings: {
        api_enabled: true,
        force_ssl: false,
        currency: s.currency,
        currency_symbol: s.currency === 'USD' ? '&#36;' : s.currency,
        currency_position: 'left',
        thousand_separator: ',',
        decimal_separator: '.',
        number_of_decimals: 2,
        geolocation_enabled: false,
        taxonomies: ['external', 'grouped', 'simple', 'variable'],
        product_visibility_terms: [
          'exclude-from-catalog',
          'exclude-from-search',
          'featured',
          'outofstock',
        ],
        wccom_connected: 'no',
        enforce_approved_download_dirs: true,
        HPOS_enabled: true,
        order_datastore:
          'Automattic\\WooCommerce\\Internal\\DataStores\\Orders\\OrdersTableDataStore',
        HPOS_sync_enabled: false,
        enabled_features: ['analytics', 'product_block_editor', 'custom_order_tables'],
      },
      security: { secure_connection: this.https, hide_errors: true },
      pages: [],
      post_type_counts: [],
      logging: {
        logging_enabled: true,
        default_handler: 'Automattic\\WooCommerce\\Internal\\Admin\\Logging\\LogHandlerFileV2',
        retention_period_days: 30,
        level_threshold: 'none',
        log_directory_size: '0 B',
      },
    };
  }

  // -------------------------------------------------------------------------------------------

  private buildHandlers(): Record<string, Handler> {
    const P = '/wc/v3/products';
    const V = `${P}/(?P<product_id>[\\d]+)/variations`;
    const item = (base: string) => `${base}/(?P<id>[\\d]+)`;
    const ctxOf = (ctx: Ctx) => asString(ctx.args.context) as Context;
    return {
      'GET /wc/v3': () => ({
        status: 200,
        body: {
          namespace: 'wc/v3',
          routes: Object.fromEntries(
            Object.entries(routeTable).map(([pattern, route]) => [pattern, route]),
          ),
          _links: { up: [{ href: `${this.home}/wp-json/` }] },
        },
      }),
      'GET /wc/v3/system_status': () => ({ status: 200, body: this.systemStatus() }),
      // WC_REST_Tax_Classes_V1_Controller: the standard class first, then the store's by name.
      'GET /wc/v3/taxes/classes': () => ({
        status: 200,
        body: [{ slug: 'standard', name: 'Standard rate' }, ...this.store.taxClasses].map((c) =>
          this.taxClass(c),
        ),
      }),
      'POST /wc/v3/taxes/classes': (ctx) => ({
        status: 201,
        body: this.taxClass(this.store.addTaxClass(asString(ctx.body.name))),
      }),

      [`GET ${P}`]: (ctx) => this.listProducts(ctx),
      [`POST ${P}`]: async (ctx) => ({
        status: 201,
        body: this.out.product(await this.store.saveProduct(ctx.body), 'edit'),
      }),
      [`GET ${item(P)}`]: (ctx) => {
        const product = this.product(asInt(ctx.params.id));
        return { status: 200, body: this.out.product(product, ctxOf(ctx)) };
      },
      [`EDIT ${item(P)}`]: async (ctx) => {
        const product = this.product(asInt(ctx.params.id), 400);
        return {
          status: 200,
          body: this.out.product(await this.store.saveProduct(ctx.body, product), 'edit'),
        };
      },
      [`DELETE ${item(P)}`]: (ctx) => {
        const product = this.product(asInt(ctx.params.id));
        const previous = this.out.product(product, 'edit');
        if (ctx.args.force === true) this.store.deleteProduct(product);
        else product.status = 'trash';
        return {
          status: 200,
          body: ctx.args.force === true ? previous : this.out.product(product, 'edit'),
        };
      },
      [`EDIT ${P}/batch`]: (ctx) =>
        this.batch(ctx, {
          create: async (body) => this.out.product(await this.store.saveProduct(body), 'edit'),
          update: async (id, body) =>
            this.out.product(await this.store.saveProduct(body, this.product(id, 400)), 'edit'),
          delete: async (id) => {
            const product = this.product(id);
            const previous = this.out.product(product, 'edit');
            this.store.deleteProduct(product);
            return previous;
          },
        }),

      [`GET ${V}`]: (ctx) => this.listVariations(ctx),
      [`POST ${V}`]: async (ctx) => ({
        status: 201,
        body: this.out.variation(
          await this.store.saveVariation(this.product(asInt(ctx.params.product_id)), ctx.body),
          'edit',
        ),
      }),
      [`GET ${item(V)}`]: (ctx) => ({
        status: 200,
        body: this.out.variation(
          this.variationOf(asInt(ctx.params.product_id), asInt(ctx.params.id)),
          ctxOf(ctx),
        ),
      }),
      [`EDIT ${item(V)}`]: async (ctx) => {
        const parent = this.product(asInt(ctx.params.product_id));
        const variation = this.variationOf(parent.id, asInt(ctx.params.id), 400);
        return {
          status: 200,
          body: this.out.variation(
            await this.store.saveVariation(parent, ctx.body, variation),
            'edit',
          ),
        };
      },
      [`DELETE ${item(V)}`]: (ctx) => {
        const variation = this.variationOf(asInt(ctx.params.product_id), asInt(ctx.params.id));
        if (ctx.args.force !== true)
          throw new RestError(
            501,
            'woocommerce_rest_trash_not_supported',
            'Variations do not support trashing.',
          );
        const previous = this.out.variation(variation, 'edit');
        this.store.variations.delete(variation.id);
        return { status: 200, body: previous };
      },
      [`EDIT ${V}/batch`]: (ctx) => {
        const parent = this.product(asInt(ctx.params.product_id));
        return this.batch(ctx, {
          create: async (body) =>
            this.out.variation(await this.store.saveVariation(parent, body), 'edit'),
          update: async (id, body) =>
            this.out.variation(
              await this.store.saveVariation(parent, body, this.variationOf(parent.id, id, 400)),
              'edit',
            ),
          delete: async (id) => {
            const variation = this.variationOf(parent.id, id, 400);
            const previous = this.out.variation(variation, 'edit');
            this.store.variations.delete(id);
            return previous;
          },
        });
      },

      ...this.termHandlers(`${P}/categories`, 'product_cat'),
      ...this.termHandlers(`${P}/tags`, 'product_tag'),
      ...this.termHandlers(`${P}/brands`, 'product_brand'),

      ...this.termHandlers(`${P}/shipping_classes`, 'product_shipping_class'),
      ...this.attributeHandlers(),

      'GET /wc/v3/customers': (ctx) => {
        const a = ctx.args;
        const include = ids(a.include);
        const exclude = ids(a.exclude);
        const search = asString(a.search).toLowerCase();
        const role = asString(a.role) || 'customer';
        let items = [...this.store.customers.values()].filter(
          (c) =>
            (role === 'all' || c.role === role) &&
            (!include.length || include.includes(c.id)) &&
            !exclude.includes(c.id) &&
            (!a.email || c.email.toLowerCase() === asString(a.email).toLowerCase()) &&
            (!search ||
              [c.email, c.username, `${c.firstName} ${c.lastName}`].some((t) =>
                t.toLowerCase().includes(search),
              )),
        );
        items = sortItems(
          items,
          asString(a.orderby),
          asString(a.order),
          { name: (c) => c.username, registered_date: (c) => c.created },
          include,
        );
        return this.paginate(ctx, items, '/wc/v3/customers', (c) => this.out.customer(c));
      },
      'POST /wc/v3/customers': (ctx) => ({
        status: 201,
        body: this.out.customer(this.store.createCustomer(ctx.body)),
      }),
      [`GET ${item('/wc/v3/customers')}`]: (ctx) => ({
        status: 200,
        body: this.out.customer(this.customer(asInt(ctx.params.id))),
      }),
      [`EDIT ${item('/wc/v3/customers')}`]: (ctx) => ({
        status: 200,
        body: this.out.customer(
          this.store.updateCustomer(this.customer(asInt(ctx.params.id), 400), ctx.body),
        ),
      }),
      [`DELETE ${item('/wc/v3/customers')}`]: (ctx) => {
        const customer = this.deletedCustomer(asInt(ctx.params.id));
        if (ctx.args.force !== true)
          throw new RestError(
            501,
            'woocommerce_rest_trash_not_supported',
            'Customers do not support trashing.',
          );
        this.store.deleteCustomer(customer);
        return { status: 200, body: this.out.customer(customer) };
      },
      'EDIT /wc/v3/customers/batch': (ctx) =>
        this.batch(ctx, {
          create: async (body) => this.out.customer(this.store.createCustomer(body)),
          update: async (id, body) =>
            this.out.customer(this.store.updateCustomer(this.customer(id, 400), body)),
          delete: async (id) => {
            const customer = this.deletedCustomer(id);
            this.store.deleteCustomer(customer);
            return this.out.customer(customer);
          },
        }),

      'GET /wc/v3/orders': (ctx) => this.listOrders(ctx),
      'POST /wc/v3/orders': (ctx) => ({
        status: 201,
        body: this.out.order(this.store.saveOrder(ctx.body)),
      }),
      [`GET ${item('/wc/v3/orders')}`]: (ctx) => ({
        status: 200,
        body: this.out.order(this.order(asInt(ctx.params.id))),
      }),
      [`EDIT ${item('/wc/v3/orders')}`]: (ctx) => ({
        status: 200,
        body: this.out.order(this.store.saveOrder(ctx.body, this.order(asInt(ctx.params.id), 400))),
      }),
      [`DELETE ${item('/wc/v3/orders')}`]: (ctx) => {
        const order = this.order(asInt(ctx.params.id));
        const previous = this.out.order(order);
        if (ctx.args.force === true) this.store.orders.delete(order.id);
        else order.status = 'trash';
        return { status: 200, body: ctx.args.force === true ? previous : this.out.order(order) };
      },
      'EDIT /wc/v3/orders/batch': (ctx) =>
        this.batch(ctx, {
          create: async (body) => this.out.order(this.store.saveOrder(body)),
          update: async (id, body) =>
            this.out.order(this.store.saveOrder(body, this.order(id, 400))),
          delete: async (id) => {
            const order = this.order(id);
            this.store.orders.delete(id);
            return this.out.order(order);
          },
        }),

      ...this.refundHandlers(),
      ...this.noteHandlers(),

      'GET /wc/v3/coupons': (ctx) => {
        // WC_REST_Coupons_Controller passes `status` on to the query although the route does not
        // list it: without one, WP_Query lists what an administrator may read (published and
        // private); 'any' is every status but the bin. The code filter goes through
        // wc_get_coupon_id_by_code(): a published coupon only.
        const status = asString(ctx.request.url.searchParams.get('status') ?? '');
        const statuses = status === '' ? ['publish', 'private'] : status.split(',');
        const shown = (c: { status: string }) =>
          statuses.includes('any') ? c.status !== 'trash' : statuses.includes(c.status);
        const code = asString(ctx.args.code);
        const byCode = code ? this.store.couponByCode(code) : undefined;
        const items = [...this.store.coupons.values()].filter(
          (c) => shown(c) && (!code || c === byCode),
        );
        const sorted = sortItems(
          items,
          asString(ctx.args.orderby),
          asString(ctx.args.order),
          { date: (c) => c.created, title: (c) => c.code, modified: (c) => c.modified },
          ids(ctx.args.include),
        );
        return this.paginate(ctx, sorted, '/wc/v3/coupons', (c) => this.out.coupon(c));
      },
      'POST /wc/v3/coupons': (ctx) => ({
        status: 201,
        body: this.out.coupon(this.store.createCoupon(ctx.body)),
      }),
      [`GET ${item('/wc/v3/coupons')}`]: (ctx) => ({
        status: 200,
        body: this.out.coupon(this.coupon(asInt(ctx.params.id))),
      }),
      [`EDIT ${item('/wc/v3/coupons')}`]: (ctx) => ({
        status: 200,
        body: this.out.coupon(
          this.store.updateCoupon(this.coupon(asInt(ctx.params.id), 400), ctx.body),
        ),
      }),
      [`DELETE ${item('/wc/v3/coupons')}`]: (ctx) => {
        // Without force a coupon goes to the bin (a post status), as products and orders do.
        const coupon = this.coupon(asInt(ctx.params.id));
        const previous = this.out.coupon(coupon);
        if (ctx.args.force === true) this.store.coupons.delete(coupon.id);
        else coupon.status = 'trash';
        return { status: 200, body: previous };
      },
      // Batch items are not checked against the route's arguments (WC_REST_Controller::batch_items
      // calls the item callbacks directly): the coupon's own setters refuse what they cannot hold.
      'EDIT /wc/v3/coupons/batch': (ctx) =>
        this.batch(ctx, {
          create: async (body) => this.out.coupon(this.store.createCoupon(body)),
          update: async (id, body) =>
            this.out.coupon(this.store.updateCoupon(this.coupon(id, 400), body)),
          delete: async (id) => {
            const coupon = this.coupon(id);
            this.store.coupons.delete(id);
            return this.out.coupon(coupon);
          },
        }),

      ...this.reviewHandlers(),

      'GET /wc/v3/settings': () => ({ status: 200, body: this.settingsGroups() }),
      'GET /wc/v3/settings/(?P<group_id>[\\w-]+)': (ctx) => ({
        status: 200,
        body: this.groupSettings(ctx.params.group_id ?? ''),
      }),
      'GET /wc/v3/settings/(?P<group_id>[\\w-]+)/(?P<id>[\\w-]+)': (ctx) => {
        const setting = this.groupSettings(ctx.params.group_id ?? '').find(
          (s) => s.id === ctx.params.id,
        );
        if (!setting) throw new RestError(404, 'rest_setting_invalid', 'Invalid setting.');
        return { status: 200, body: setting };
      },
      'EDIT /wc/v3/settings/(?P<group_id>[\\w-]+)/(?P<id>[\\w-]+)': (ctx) => ({
        status: 200,
        body: this.updateSetting(ctx.params.group_id ?? '', ctx.params.id ?? '', ctx.body.value),
      }),
    };
  }

  // -------------------------------------------------------------------------------------------
  // Store-wide attributes and their terms

  private attribute(id: number, status = 404): GlobalAttribute {
    const attribute = this.store.attributes.get(id);
    if (!attribute)
      throw new RestError(status, 'woocommerce_rest_taxonomy_invalid', 'Resource does not exist.');
    return attribute;
  }

  private attributeHandlers(): Record<string, Handler> {
    const A = '/wc/v3/products/attributes';
    const item = `${A}/(?P<id>[\\d]+)`;
    const terms = `${A}/(?P<attribute_id>[\\d]+)/terms`;
    // The terms of an attribute that is no more: the route finds no taxonomy.
    const taxonomyOf = (ctx: Ctx) => {
      const attribute = this.store.attributes.get(asInt(ctx.params.attribute_id));
      if (!attribute)
        throw new RestError(404, 'woocommerce_rest_taxonomy_invalid', 'Taxonomy does not exist.');
      return attribute.slug as Taxonomy;
    };
    return {
      [`GET ${A}`]: () => ({
        status: 200,
        body: [...this.store.attributes.values()].map((a) => this.out.attribute(a)),
      }),
      [`POST ${A}`]: (ctx) => ({
        status: 201,
        body: this.out.attribute(this.store.createAttribute(ctx.body)),
      }),
      [`GET ${item}`]: (ctx) => ({
        status: 200,
        body: this.out.attribute(this.attribute(asInt(ctx.params.id))),
      }),
      [`EDIT ${item}`]: (ctx) => ({
        status: 200,
        body: this.out.attribute(
          this.store.updateAttribute(this.attribute(asInt(ctx.params.id), 400), ctx.body),
        ),
      }),
      [`DELETE ${item}`]: (ctx) => {
        const attribute = this.attribute(asInt(ctx.params.id));
        if (ctx.args.force !== true)
          throw new RestError(
            501,
            'woocommerce_rest_trash_not_supported',
            'Resource does not support trashing.',
          );
        this.store.deleteAttribute(attribute);
        return { status: 200, body: this.out.attribute(attribute) };
      },
      [`EDIT ${A}/batch`]: (ctx) =>
        this.batch(ctx, {
          create: async (body) => this.out.attribute(this.store.createAttribute(body)),
          update: async (id, body) =>
            this.out.attribute(this.store.updateAttribute(this.attribute(id, 400), body)),
          delete: async (id) => {
            const attribute = this.attribute(id, 400);
            this.store.deleteAttribute(attribute);
            return this.out.attribute(attribute);
          },
        }),
      [`GET ${terms}`]: (ctx) => {
        const taxonomy = taxonomyOf(ctx);
        const items = sortItems(
          this.store.termsOf(taxonomy),
          asString(ctx.args.orderby),
          asString(ctx.args.order),
          {
            name: (t) => t.name.toLowerCase(),
            slug: (t) => t.slug,
            menu_order: (t) => t.menuOrder,
            count: (t) => this.store.termCount(t),
          },
          ids(ctx.args.include),
        );
        return this.paginate(
          ctx,
          items,
          `/wc/v3/products/attributes/${ctx.params.attribute_id}/terms`,
          (t) => this.out.term(t),
        );
      },
      [`POST ${terms}`]: async (ctx) => ({
        status: 201,
        body: await this.createTerm(taxonomyOf(ctx), ctx.body),
      }),
      [`GET ${terms}/(?P<id>[\\d]+)`]: (ctx) => ({
        status: 200,
        body: this.out.term(this.term(taxonomyOf(ctx), asInt(ctx.params.id))),
      }),
      [`EDIT ${terms}/(?P<id>[\\d]+)`]: async (ctx) => ({
        status: 200,
        body: await this.updateTerm(taxonomyOf(ctx), asInt(ctx.params.id), ctx.body),
      }),
      [`DELETE ${terms}/(?P<id>[\\d]+)`]: (ctx) => {
        const term = this.term(taxonomyOf(ctx), asInt(ctx.params.id));
        if (ctx.args.force !== true)
          throw new RestError(
            501,
            'woocommerce_rest_trash_not_supported',
            'Resource does not support trashing.',
          );
        const previous = this.out.term(term);
        this.store.deleteTerm(term);
        return { status: 200, body: previous };
      },
      [`EDIT ${terms}/batch`]: (ctx) => {
        const taxonomy = taxonomyOf(ctx);
        return this.batch(ctx, {
          create: (body) => this.createTerm(taxonomy, body),
          update: (id, body) => this.updateTerm(taxonomy, id, body, 400),
          delete: async (id) => {
            const term = this.term(taxonomy, id);
            const previous = this.out.term(term);
            this.store.deleteTerm(term);
            return previous;
          },
        });
      },
    };
  }

  // -------------------------------------------------------------------------------------------
  // Refunds and notes

  private refundHandlers(): Record<string, Handler> {
    const R = '/wc/v3/orders/(?P<order_id>[\\d]+)/refunds';
    const refundOf = (ctx: Ctx, status = 404) => {
      const order = this.order(asInt(ctx.params.order_id), status);
      const refund = this.store.refunds.get(asInt(ctx.params.id));
      if (!refund || refund.parentId !== order.id)
        throw new RestError(status, 'woocommerce_rest_shop_order_refund_invalid_id', 'Invalid ID.');
      return refund;
    };
    const list = (ctx: Ctx, parents: number[] | undefined, path: string, withParent = false) => {
      const include = ids(ctx.args.include);
      const items = [...this.store.refunds.values()].filter(
        (r) =>
          (!parents?.length || parents.includes(r.parentId)) &&
          (!include.length || include.includes(r.id)),
      );
      return this.paginate(
        ctx,
        sortItems(
          items,
          asString(ctx.args.orderby),
          asString(ctx.args.order),
          { date: (r) => r.created, id: (r) => r.id },
          include,
        ),
        path,
        (r) => (withParent ? { ...this.out.refund(r), parent_id: r.parentId } : this.out.refund(r)),
      );
    };
    return {
      [`GET ${R}`]: (ctx) => {
        const order = this.order(asInt(ctx.params.order_id));
        return list(ctx, [order.id], `/wc/v3/orders/${order.id}/refunds`);
      },
      [`POST ${R}`]: (ctx) => {
        const order = this.order(asInt(ctx.params.order_id));
        return { status: 201, body: this.out.refund(this.store.createRefund(order, ctx.body)) };
      },
      [`GET ${R}/(?P<id>[\\d]+)`]: (ctx) => ({ status: 200, body: this.out.refund(refundOf(ctx)) }),
      [`DELETE ${R}/(?P<id>[\\d]+)`]: (ctx) => {
        const refund = refundOf(ctx);
        if (ctx.args.force !== true)
          throw new RestError(
            501,
            'woocommerce_rest_trash_not_supported',
            'Refunds do not support trashing.',
          );
        this.store.refunds.delete(refund.id);
        return { status: 200, body: this.out.refund(refund) };
      },
      // WooCommerce 11.0.1 ignores this route's `parent` filter: every refund is listed.
      'GET /wc/v3/refunds': (ctx) => list(ctx, undefined, '/wc/v3/refunds', true),
    };
  }

  private noteHandlers(): Record<string, Handler> {
    const N = '/wc/v3/orders/(?P<order_id>[\\d]+)/notes';
    const noteOf = (ctx: Ctx) => {
      const order = this.order(asInt(ctx.params.order_id));
      const note = order.notes.find((n) => n.id === asInt(ctx.params.id));
      if (!note) throw new RestError(404, 'woocommerce_rest_invalid_id', 'Invalid resource ID.');
      return { order, note };
    };
    return {
      [`GET ${N}`]: (ctx) => {
        const order = this.order(asInt(ctx.params.order_id));
        const type = asString(ctx.args.type) || 'any';
        const notes = order.notes
          .filter((n) => type === 'any' || (type === 'customer') === n.customerNote)
          // Newest first by the second they are dated (get_comments() on comment_date_gmt);
          // notes of one second in the order they were added, as a real store lists them.
          .sort(
            (a, b) => Math.floor(b.created / 1000) - Math.floor(a.created / 1000) || a.id - b.id,
          );
        return { status: 200, body: notes.map((n) => this.out.note(order, n)) };
      },
      [`POST ${N}`]: (ctx) => {
        const order = this.order(asInt(ctx.params.order_id));
        const content = asString(ctx.body.note);
        if (!content.trim())
          throw new RestError(
            400,
            'woocommerce_rest_invalid_order_note',
            'Cannot create order note, please try again.',
          );
        const note = this.store.addNote(
          order,
          content,
          ctx.body.customer_note === true,
          ctx.body.added_by_user === true,
        );
        return { status: 201, body: this.out.note(order, note) };
      },
      [`GET ${N}/(?P<id>[\\d]+)`]: (ctx) => {
        const { order, note } = noteOf(ctx);
        return { status: 200, body: this.out.note(order, note) };
      },
      [`DELETE ${N}/(?P<id>[\\d]+)`]: (ctx) => {
        const { order, note } = noteOf(ctx);
        // The real message names webhooks (a copy in WooCommerce's notes controller).
        if (ctx.args.force !== true)
          throw new RestError(
            501,
            'woocommerce_rest_trash_not_supported',
            'Webhooks do not support trashing.',
          );
        order.notes = order.notes.filter((n) => n !== note);
        return { status: 200, body: this.out.note(order, note) };
      },
    };
  }

  // -------------------------------------------------------------------------------------------
  // Product reviews (reviews.ts)

  private reviewHandlers(): Record<string, Handler> {
    const R = '/wc/v3/products/reviews';
    const item = `${R}/(?P<id>[\\d]+)`;
    const reviews = this.store.reviews;
    const edit = (review: Review) => this.out.review(review, 'edit');
    const removed = (review: Review) => ({ deleted: true, previous: edit(review) });
    return {
      [`GET ${R}`]: (ctx) =>
        this.paginate(ctx, reviews.list(ctx.args), R, (r) =>
          this.out.review(r, asString(ctx.args.context) as Context),
        ),
      [`POST ${R}`]: (ctx) => ({ status: 201, body: edit(reviews.create(ctx.args, this.home)) }),
      [`GET ${item}`]: (ctx) => ({
        status: 200,
        body: this.out.review(
          reviews.get(asInt(ctx.params.id)),
          asString(ctx.args.context) as Context,
        ),
      }),
      [`EDIT ${item}`]: (ctx) => ({
        status: 200,
        body: edit(reviews.update(reviews.get(asInt(ctx.params.id)), ctx.args, this.home)),
      }),
      [`DELETE ${item}`]: (ctx) => {
        const review = reviews.get(asInt(ctx.params.id));
        const force = ctx.args.force === true;
        const previous = removed(review);
        reviews.remove(review, force);
        return { status: 200, body: force ? previous : edit(review) };
      },
      // Batch items skip the routes' argument checks (no required fields, no types); a create
      // still gets the status default. Deletes are forced.
      [`EDIT ${R}/batch`]: (ctx) =>
        this.batch(ctx, {
          create: async (body) => edit(reviews.create(body, this.home)),
          update: async (id, body) => edit(reviews.update(reviews.get(id), body, this.home)),
          delete: async (id) => {
            const review = reviews.get(id);
            const previous = removed(review);
            reviews.remove(review, true);
            return previous;
          },
        }),
    };
  }

  private coupon(id: number, status = 404) {
    const coupon = this.store.coupons.get(id);
    if (!coupon)
      throw new RestError(status, 'woocommerce_rest_shop_coupon_invalid_id', 'Invalid ID.');
    return coupon;
  }

  /** A customer to delete: a missing one is WordPress's wc_user_invalid_id (404). */
  private deletedCustomer(id: number) {
    const customer = this.store.customers.get(id);
    if (!customer) throw new RestError(404, 'wc_user_invalid_id', 'Invalid user ID.');
    return customer;
  }

  private customer(id: number, status = 404) {
    const customer = this.store.customers.get(id);
    if (!customer)
      throw new RestError(
        status,
        'woocommerce_rest_invalid_id',
        status === 404 ? 'Invalid resource ID.' : 'Invalid resource id.',
      );
    return customer;
  }
}
