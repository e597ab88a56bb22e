import { randomBytes, timingSafeEqual } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import spec from '../../specs/woocommerce/wp-v2-index.wordpress-7.1.json' with { type: 'json' };
import type { EmulatorRequest, EmulatorResponse } from '../framework/server.ts';
import { compileRoutePattern, type ArgSchema } from './route-table.ts';
import type { WooStore } from './shop.ts';
import {
  argsErrorResponse,
  parsePhpQuery,
  RestError,
  validateArgs,
  wpError,
  type QueryValue,
} from './wp-rest.ts';
import { escHtml, renderForView, sanitizeTitle } from './wp-text.ts';

/**
 * WordPress's own REST API (wp/v2) as a WordPress 7.1 store with WooCommerce 11.0.1 answers it:
 * pages, posts, media, categories, tags and users, with the arguments of the store's own
 * description (specs/woocommerce/wp-v2-index.wordpress-7.1.json). WooCommerce's keys do not open
 * it: requests are signed in with HTTP Basic and a WordPress user's application password, which
 * the store's environment type ('local', as the WooCommerce kit's stores are) allows over plain
 * http too. The rules are those a real store showed (see the connector's
 * real-store/observed-behaviour.ts).
 */

export type WpPostType = 'page' | 'post';
export type WpStatus = 'publish' | 'future' | 'draft' | 'pending' | 'private' | 'trash';

export interface WpUser {
  id: number;
  username: string;
  name: string;
  slug: string;
  email: string;
  roles: string[];
  /** Application passwords, without their spaces. */
  applicationPasswords: string[];
}

export interface WpPost {
  id: number;
  type: WpPostType;
  title: string;
  slug: string;
  content: string;
  excerpt: string;
  status: WpStatus;
  /** GMT, 'YYYY-MM-DDTHH:MM:SS' (the site's offset is 0, so the local date is the same). */
  date: string;
  modified: string;
  author: number;
  featuredMedia: number;
  parent: number;
  menuOrder: number;
  template: string;
  commentStatus: 'open' | 'closed';
  pingStatus: 'open' | 'closed';
  password: string;
  sticky: boolean;
  format: string;
  categories: number[];
  tags: number[];
}

export type WpTaxonomy = 'category' | 'post_tag';

export interface WpTerm {
  id: number;
  taxonomy: WpTaxonomy;
  name: string;
  slug: string;
  description: string;
  parent: number;
}

interface Route {
  regex: RegExp;
  pattern: string;
  endpoints: { methods: string[]; args: Record<string, ArgSchema> }[];
}

const routes: Route[] = Object.entries(
  (spec as unknown as { routes: Record<string, { endpoints: Route['endpoints'] }> }).routes,
).map(([pattern, r]) => ({ pattern, regex: compileRoutePattern(pattern), endpoints: r.endpoints }));

/** Arguments WordPress checks with callbacks of its own rather than their schema. */
const customArgs = new Set(['title', 'content', 'excerpt', 'meta', 'caption', 'description']);

const wpDate = (ms: number) => new Date(ms).toISOString().slice(0, 19);

function parseWpDate(value: string): number {
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(value);
  return Date.parse(hasZone ? value : `${value.replace(' ', 'T')}Z`);
}

const textOf = (value: unknown): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && 'raw' in value) return String((value as { raw: unknown }).raw);
  return String(value);
};

const imageTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** Decodes the HTML entities WordPress adds to names (esc_html), for lookups by name. */
const unescape = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'");

export class WpContent {
  readonly users = new Map<number, WpUser>();
  readonly posts = new Map<number, WpPost>();
  readonly terms = new Map<number, WpTerm>();
  private nextTermId = 1;
  home = '';
  readonly defaultCategoryId: number;

  private readonly store: WooStore;

  constructor(store: WooStore) {
    this.store = store;
    this.users.set(1, {
      id: 1,
      username: 'admin',
      name: 'admin',
      slug: 'admin',
      email: store.adminEmail,
      roles: ['administrator'],
      applicationPasswords: [],
    });
    this.defaultCategoryId = this.insertTerm('category', { name: 'Uncategorized' }).id;
  }

  get admin(): WpUser {
    return this.users.get(1) as WpUser;
  }

  addUser(username: string, name: string, roles = ['author']): WpUser {
    const user: WpUser = {
      id: this.store.userId(),
      username,
      name,
      slug: sanitizeTitle(username),
      email: `${username}@example.com`,
      roles,
      applicationPasswords: [],
    };
    this.users.set(user.id, user);
    return user;
  }

  /** Makes an application password for a user, as Users > Profile does (24 letters and digits). */
  makeApplicationPassword(user: WpUser = this.admin): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const bytes = randomBytes(24);
    const plain = [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
    user.applicationPasswords.push(plain);
    return plain.replace(/(.{4})(?!$)/g, '$1 ');
  }

  count(type: WpPostType): number {
    return [...this.posts.values()].filter((p) => p.type === type && p.status !== 'trash').length;
  }

  // -------------------------------------------------------------------------------------------
  // terms

  insertTerm(taxonomy: WpTaxonomy, input: Record<string, unknown>): WpTerm {
    const name = String(input.name ?? '').trim();
    if (!name) throw new RestError(400, 'empty_term_name', 'A name is required for this term.');
    const parent = Number(input.parent ?? 0);
    if (parent && this.terms.get(parent)?.taxonomy !== taxonomy)
      throw new RestError(400, 'rest_term_invalid', 'Parent term does not exist.');
    const same = [...this.terms.values()].find(
      (t) =>
        t.taxonomy === taxonomy &&
        t.parent === parent &&
        t.name.toLowerCase() === name.toLowerCase(),
    );
    if (same)
      throw new RestError(
        400,
        'term_exists',
        taxonomy === 'category'
          ? 'A term with the name provided already exists with this parent.'
          : 'A term with the name provided already exists in this taxonomy.',
        { term_id: same.id },
      );
    let slug = sanitizeTitle(String(input.slug ?? '') || name);
    const taken = (s: string) =>
      [...this.terms.values()].some((t) => t.taxonomy === taxonomy && t.slug === s);
    if (taken(slug)) {
      const parentSlug = this.terms.get(parent)?.slug;
      if (parentSlug && !taken(`${slug}-${parentSlug}`)) slug = `${slug}-${parentSlug}`;
      else {
        let n = 2;
        while (taken(`${slug}-${n}`)) n++;
        slug = `${slug}-${n}`;
      }
    }
    const term: WpTerm = {
      id: this.nextTermId++,
      taxonomy,
      name,
      slug,
      description: String(input.description ?? ''),
      parent,
    };
    this.terms.set(term.id, term);
    return term;
  }

  termByName(taxonomy: WpTaxonomy, name: string): WpTerm | undefined {
    return [...this.terms.values()].find(
      (t) => t.taxonomy === taxonomy && t.name.toLowerCase() === name.toLowerCase(),
    );
  }

  // -------------------------------------------------------------------------------------------
  // posts and pages

  private uniqueSlug(post: WpPost, wanted: string): string {
    // wp_unique_post_slug(): drafts and pending posts keep any slug; a page's slug is unique
    // among its siblings, a post's among all posts (any status but the bin's own copies).
    if (post.status === 'draft' || post.status === 'pending') return wanted;
    // A page's slug is also checked against media files (WordPress checks both together).
    const taken = (slug: string) =>
      [...this.posts.values()].some(
        (p) =>
          p.id !== post.id &&
          p.type === post.type &&
          p.slug === slug &&
          (post.type === 'post' || p.parent === post.parent),
      ) ||
      (post.type === 'page' &&
        post.parent === 0 &&
        // Only files stored before the page: a later one got a slug of its own ('-2').
        [...this.store.attachments.values()].some(
          (a) => a.id < post.id && sanitizeTitle(a.name) === slug,
        ));
    if (!taken(wanted)) return wanted;
    let n = 2;
    while (taken(`${wanted}-${n}`)) n++;
    return `${wanted}-${n}`;
  }

  /** wp_insert_post() through the REST controller: creates or updates. */
  savePost(type: WpPostType, input: Record<string, unknown>, existing?: WpPost): WpPost {
    const now = wpDate(this.store.now());
    const post: WpPost = existing
      ? { ...existing }
      : {
          id: this.store.postId(),
          type,
          title: '',
          slug: '',
          content: '',
          excerpt: '',
          status: 'draft',
          date: now,
          modified: now,
          author: this.admin.id,
          featuredMedia: 0,
          parent: 0,
          menuOrder: 0,
          template: '',
          commentStatus: type === 'post' ? 'open' : 'closed',
          pingStatus: type === 'post' ? 'open' : 'closed',
          password: '',
          sticky: false,
          format: 'standard',
          categories: [],
          tags: [],
        };
    const title = textOf(input.title);
    const content = textOf(input.content);
    const excerpt = textOf(input.excerpt);
    if (title !== undefined) post.title = title;
    if (content !== undefined) post.content = content;
    if (excerpt !== undefined) post.excerpt = excerpt;
    if (!existing && !post.title && !post.content && !post.excerpt)
      throw new RestError(400, 'empty_content', 'Content, title, and excerpt are empty.');
    if (input.author !== undefined) {
      const author = Number(input.author);
      if (!this.users.has(author))
        throw new RestError(400, 'rest_invalid_author', 'Invalid author ID.');
      post.author = author;
    }
    if (type === 'page' && input.parent !== undefined) {
      const parent = Number(input.parent);
      if (parent && (parent === post.id || this.posts.get(parent)?.type !== 'page'))
        throw new RestError(400, 'rest_post_invalid_id', 'Invalid post parent ID.');
      post.parent = parent;
    }
    if (type === 'page' && input.menu_order !== undefined)
      post.menuOrder = Number(input.menu_order);
    if (input.status !== undefined) post.status = input.status as WpStatus;
    const givenDate = (input.date_gmt ?? input.date) as string | null | undefined;
    if (givenDate) {
      const ms = parseWpDate(givenDate);
      if (Number.isNaN(ms)) throw new RestError(400, 'rest_invalid_date', 'Invalid date.');
      post.date = wpDate(ms);
    }
    // A scheduled date in the past publishes; a published date in the future schedules.
    const future = Date.parse(`${post.date}Z`) > this.store.now();
    if (post.status === 'future' && !future) post.status = 'publish';
    else if (post.status === 'publish' && future) post.status = 'future';
    if (input.password !== undefined) post.password = String(input.password);
    if (input.comment_status !== undefined)
      post.commentStatus = input.comment_status as WpPost['commentStatus'];
    if (input.ping_status !== undefined)
      post.pingStatus = input.ping_status as WpPost['pingStatus'];
    if (input.template !== undefined) {
      const template = String(input.template);
      if (template !== '' && !/^[\w-]+$/.test(template))
        throw new RestError(400, 'rest_invalid_param', 'Invalid parameter(s): template', {
          params: { template: `template is not one of .` },
        });
      post.template = template;
    }
    if (input.featured_media !== undefined) {
      // A missing attachment is left out without a word, as the store does.
      const media = Number(input.featured_media);
      post.featuredMedia = this.store.attachments.has(media) ? media : 0;
    }
    if (type === 'post') {
      if (input.sticky !== undefined) post.sticky = Boolean(input.sticky);
      if (input.format !== undefined) post.format = String(input.format);
      const terms = (value: unknown, taxonomy: WpTaxonomy) =>
        (value as number[]).filter((id) => this.terms.get(Number(id))?.taxonomy === taxonomy);
      if (input.categories !== undefined) post.categories = terms(input.categories, 'category');
      else if (!existing) post.categories = [this.defaultCategoryId];
      if (input.tags !== undefined) post.tags = terms(input.tags, 'post_tag');
    }
    const slugInput = input.slug === undefined ? undefined : sanitizeTitle(String(input.slug));
    const wanted =
      slugInput ||
      (post.slug ||
      post.status === 'draft' ||
      post.status === 'pending' ||
      (existing && slugInput === undefined)
        ? post.slug
        : sanitizeTitle(post.title) || String(post.id));
    post.slug = this.uniqueSlug(post, wanted);
    post.modified = now;
    this.posts.set(post.id, post);
    return post;
  }

  /** The permalink: /%postname%/ (pages under their parents' slugs); a preview link before. */
  link(post: WpPost): string {
    const pretty = (post.status === 'publish' || post.status === 'private') && post.slug;
    if (!pretty) return `${this.home}/?${post.type === 'page' ? 'page_id' : 'p'}=${post.id}`;
    const path = [post.slug];
    for (let p = this.posts.get(post.parent); p; p = this.posts.get(p.parent)) path.unshift(p.slug);
    return `${this.home}/${path.join('/')}/`;
  }

  // -------------------------------------------------------------------------------------------
  // JSON

  postJson(post: WpPost, context: string): Record<string, unknown> {
    const edit = context === 'edit';
    const text = (raw: string, rendered: string, extra: Record<string, unknown> = {}) => ({
      ...(edit ? { raw } : {}),
      rendered,
      ...extra,
    });
    const isProtected = post.password !== '';
    const out: Record<string, unknown> = {
      id: post.id,
      date: post.date,
      date_gmt: post.date,
      guid: text(`${this.home}/?${post.type === 'page' ? 'page_id' : 'p'}=${post.id}`, ''),
      modified: post.modified,
      modified_gmt: post.modified,
      ...(edit ? { password: post.password } : {}),
      slug: post.slug,
      status: post.status,
      type: post.type,
      link: this.link(post),
      title: text(post.title, post.title),
      content: text(post.content, renderForView(post.content), {
        protected: isProtected,
        ...(edit ? { block_version: post.content.includes('<!-- wp:') ? 1 : 0 } : {}),
      }),
      excerpt: text(post.excerpt, post.excerpt ? renderForView(post.excerpt) : '', {
        protected: isProtected,
      }),
      author: post.author,
      featured_media: post.featuredMedia,
      ...(post.type === 'page' ? { parent: post.parent, menu_order: post.menuOrder } : {}),
      comment_status: post.commentStatus,
      ping_status: post.pingStatus,
      ...(post.type === 'post' ? { sticky: post.sticky } : {}),
      template: post.template,
      ...(post.type === 'post' ? { format: post.format } : {}),
      meta: { footnotes: '' },
      ...(post.type === 'post' ? { categories: post.categories, tags: post.tags } : {}),
    };
    if (edit) out.generated_slug = post.slug || sanitizeTitle(post.title);
    return out;
  }

  termJson(term: WpTerm): Record<string, unknown> {
    const count = [...this.posts.values()].filter(
      (p) =>
        p.status === 'publish' &&
        (term.taxonomy === 'category' ? p.categories : p.tags).includes(term.id),
    ).length;
    const base = term.taxonomy === 'category' ? 'category' : 'tag';
    return {
      id: term.id,
      count,
      description: term.description,
      link: `${this.home}/${base}/${term.slug}/`,
      name: escHtml(term.name),
      slug: term.slug,
      taxonomy: term.taxonomy,
      ...(term.taxonomy === 'category' ? { parent: term.parent } : {}),
      meta: [],
    };
  }

  mediaJson(id: number): Record<string, unknown> | undefined {
    const a = this.store.attachments.get(id);
    if (!a) return undefined;
    return {
      id: a.id,
      date: wpDate(a.created),
      date_gmt: wpDate(a.created),
      slug: sanitizeTitle(a.name),
      status: 'inherit',
      type: 'attachment',
      link: `${this.home}${a.path}`,
      title: { raw: a.name, rendered: a.name },
      author: this.admin.id,
      alt_text: a.alt,
      media_type: 'image',
      mime_type: a.contentType,
      source_url: `${this.home}${a.path}`,
    };
  }

  userJson(user: WpUser, context: string): Record<string, unknown> {
    return {
      id: user.id,
      ...(context === 'edit' ? { username: user.username, email: user.email } : {}),
      name: user.name,
      url: '',
      description: '',
      link: `${this.home}/author/${user.slug}/`,
      slug: user.slug,
      ...(context === 'edit' ? { roles: user.roles } : {}),
    };
  }

  // -------------------------------------------------------------------------------------------
  // HTTP

  /** Basic auth with an application password; undefined when the request carries none. */
  private authenticate(request: EmulatorRequest): WpUser | EmulatorResponse | undefined {
    const header = request.headers.authorization;
    if (!header?.startsWith('Basic ')) return undefined;
    const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    const username = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1).replace(/\s+/g, '');
    const user = [...this.users.values()].find(
      (u) => u.username === username || u.email === username,
    );
    if (!user)
      return wpError(
        401,
        'invalid_username',
        '<strong>Error:</strong> Unknown username. Check again or try your email address.',
      );
    const ok = user.applicationPasswords.some(
      (p) => p.length === password.length && timingSafeEqual(Buffer.from(p), Buffer.from(password)),
    );
    if (!ok)
      return wpError(
        401,
        'incorrect_password',
        'The provided password is an invalid application password.',
      );
    return user;
  }

  async handle(request: EmulatorRequest, restPath: string): Promise<EmulatorResponse> {
    const auth = this.authenticate(request);
    if (auth && 'status' in auth) return auth;
    const user = auth;
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    let found: { route: Route; params: Record<string, string> } | undefined;
    for (const route of routes) {
      const m = route.regex.exec(restPath);
      if (m) {
        found = { route, params: { ...m.groups } };
        break;
      }
    }
    const endpoint = found?.route.endpoints.find((e) => e.methods.includes(method));
    if (!found || !endpoint)
      return wpError(
        404,
        'rest_no_route',
        'No route was found matching the URL and request method.',
      );
    const isMedia = found.route.pattern.startsWith('/wp/v2/media');
    let body: Record<string, unknown> = {};
    const raw =
      isMedia &&
      method === 'POST' &&
      !found.params.id &&
      !String(request.headers['content-type'] ?? '').includes('json');
    if (!raw && request.body.length > 0 && method !== 'GET') {
      try {
        const parsed: unknown = JSON.parse(request.body.toString('utf8'));
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
          body = parsed as Record<string, unknown>;
      } catch {
        return wpError(400, 'rest_invalid_json', 'Invalid JSON body passed.');
      }
    }
    const query = parsePhpQuery(request.url.search.slice(1)) as Record<string, QueryValue>;
    const merged: Record<string, unknown> = { ...query, ...body, ...found.params };
    const args = Object.fromEntries(
      Object.entries(endpoint.args).filter(([name]) => !customArgs.has(name)),
    );
    const validation = validateArgs(merged, args, { checkRequired: true });
    const invalid = argsErrorResponse(validation);
    if (invalid) return invalid;
    const values = { ...merged, ...validation.values };
    try {
      return await this.route(found.route.pattern, method, values, user, request);
    } catch (error) {
      if (error instanceof RestError) return { status: error.status, body: error.toBody() };
      throw error;
    }
  }

  private list<T>(
    items: T[],
    values: Record<string, unknown>,
    toJson: (item: T) => unknown,
  ): EmulatorResponse {
    const perPage = Number(values.per_page ?? 10);
    const page = Number(values.page ?? 1);
    const offset = values.offset === undefined ? (page - 1) * perPage : Number(values.offset);
    const total = items.length;
    const totalPages = Math.ceil(total / perPage);
    if (page > 1 && page > totalPages)
      return wpError(
        400,
        'rest_post_invalid_page_number',
        'The page number requested is larger than the number of pages available.',
      );
    return {
      status: 200,
      headers: { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(totalPages) },
      body: items.slice(offset, offset + perPage).map(toJson),
    };
  }

  private async route(
    pattern: string,
    method: string,
    values: Record<string, unknown>,
    user: WpUser | undefined,
    request: EmulatorRequest,
  ): Promise<EmulatorResponse> {
    const context = String(values.context ?? 'view');
    const id = Number(values.id ?? 0);
    const [, , , base] = pattern.split('/');
    const need = (what: string) => {
      if (!user) throw new RestError(401, what, 'Sorry, you are not allowed to do that.');
    };
    if (context === 'edit' && !user)
      throw new RestError(
        401,
        'rest_forbidden_context',
        base === 'users'
          ? 'Sorry, you are not allowed to list users.'
          : 'Sorry, you are not allowed to edit posts in this post type.',
      );
    if (base === 'users') {
      if (pattern.endsWith('/me')) {
        if (!user)
          throw new RestError(401, 'rest_not_logged_in', 'You are not currently logged in.');
        return { status: 200, body: this.userJson(user, context) };
      }
      const users = [...this.users.values()];
      if (id) {
        const one = this.users.get(id);
        if (!one) throw new RestError(404, 'rest_user_invalid_id', 'Invalid user ID.');
        return { status: 200, body: this.userJson(one, context) };
      }
      return this.list(users, values, (u) => this.userJson(u, context));
    }
    if (base === 'categories' || base === 'tags') {
      const taxonomy: WpTaxonomy = base === 'categories' ? 'category' : 'post_tag';
      if (method === 'GET' && !id) {
        let terms = [...this.terms.values()].filter((t) => t.taxonomy === taxonomy);
        const slugs = values.slug as string[] | undefined;
        if (slugs?.length) terms = terms.filter((t) => slugs.includes(t.slug));
        const search = values.search as string | undefined;
        if (search)
          terms = terms.filter((t) => t.name.toLowerCase().includes(search.toLowerCase()));
        terms.sort((a, b) => a.name.localeCompare(b.name));
        return this.list(terms, values, (t) => this.termJson(t));
      }
      if (method === 'POST' && !id) {
        need('rest_cannot_create');
        const term = this.insertTerm(taxonomy, { ...values, name: unescape(String(values.name)) });
        return { status: 201, body: this.termJson(term) };
      }
      const term = this.terms.get(id);
      if (term?.taxonomy !== taxonomy)
        throw new RestError(404, 'rest_term_invalid', 'Term does not exist.');
      if (method === 'GET') return { status: 200, body: this.termJson(term) };
      need('rest_cannot_update');
      if (method === 'DELETE') {
        if (!values.force)
          throw new RestError(
            501,
            'rest_trash_not_supported',
            "Terms do not support trashing. Set 'force=true' to delete.",
          );
        // The default post category is refused (wp_delete_term() will not delete it); children
        // of a deleted category move up to its parent, and posts lose the term.
        if (taxonomy === 'category' && id === this.defaultCategoryId)
          throw new RestError(
            403,
            'rest_cannot_delete',
            'Sorry, you are not allowed to delete this term.',
          );
        const previous = this.termJson(term);
        this.terms.delete(id);
        for (const t of this.terms.values()) if (t.parent === id) t.parent = term.parent;
        for (const p of this.posts.values()) {
          p.categories = p.categories.filter((c) => c !== id);
          p.tags = p.tags.filter((t) => t !== id);
          if (p.type === 'post' && p.categories.length === 0)
            p.categories = [this.defaultCategoryId];
        }
        return { status: 200, body: { deleted: true, previous } };
      }
      if (values.name !== undefined) term.name = String(values.name);
      if (values.description !== undefined) term.description = String(values.description);
      if (values.slug !== undefined) term.slug = sanitizeTitle(String(values.slug));
      return { status: 200, body: this.termJson(term) };
    }
    if (base === 'media') return this.mediaRoute(method, id, values, user, request);
    const type: WpPostType = base === 'pages' ? 'page' : 'post';
    if (method === 'GET' && !id) {
      const given = values.status ?? 'publish';
      const statuses = Array.isArray(given) ? (given as string[]) : String(given).split(',');
      const wanted = statuses.includes('any')
        ? ['publish', 'future', 'draft', 'pending', 'private']
        : statuses;
      if (!user && wanted.some((s) => s !== 'publish'))
        throw new RestError(400, 'rest_invalid_param', 'Invalid parameter(s): status', {
          params: { status: 'Status is forbidden.' },
        });
      let posts = [...this.posts.values()].filter(
        (p) => p.type === type && wanted.includes(p.status),
      );
      const slugs = values.slug as string[] | undefined;
      if (slugs?.length) posts = posts.filter((p) => slugs.includes(p.slug));
      const include = values.include as number[] | undefined;
      if (include?.length) posts = posts.filter((p) => include.includes(p.id));
      const parents = values.parent as number[] | undefined;
      if (type === 'page' && parents?.length)
        posts = posts.filter((p) => parents.includes(p.parent));
      const orderby = String(values.orderby ?? 'date');
      const sign = values.order === 'asc' ? 1 : -1;
      const key = (p: WpPost): string | number =>
        orderby === 'id'
          ? p.id
          : orderby === 'menu_order'
            ? p.menuOrder
            : orderby === 'slug'
              ? p.slug
              : orderby === 'title'
                ? p.title
                : orderby === 'modified'
                  ? p.modified
                  : p.date;
      posts.sort((a, b) => {
        const x = key(a);
        const y = key(b);
        return (x < y ? -1 : x > y ? 1 : 0) * sign || (a.id - b.id) * sign;
      });
      return this.list(posts, values, (p) => this.postJson(p, context));
    }
    if (method === 'POST' && !id) {
      if (!user)
        throw new RestError(
          401,
          'rest_cannot_create',
          'Sorry, you are not allowed to create posts as this user.',
        );
      const post = this.savePost(type, values);
      return { status: 201, body: this.postJson(post, 'edit') };
    }
    const post = this.posts.get(id);
    if (post?.type !== type) throw new RestError(404, 'rest_post_invalid_id', 'Invalid post ID.');
    if (method === 'GET') {
      if (!user && post.status !== 'publish')
        throw new RestError(401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
      return { status: 200, body: this.postJson(post, context) };
    }
    if (!user)
      throw new RestError(
        401,
        method === 'DELETE' ? 'rest_cannot_delete' : 'rest_cannot_edit',
        'Sorry, you are not allowed to edit this post.',
      );
    if (method === 'DELETE') {
      const previous = this.postJson(post, 'edit');
      if (values.force) {
        // wp_delete_post(): the children of a page deleted for good move up to its parent (a
        // page in the bin keeps its children).
        this.posts.delete(id);
        for (const p of this.posts.values()) if (p.parent === id) p.parent = post.parent;
        return { status: 200, body: { deleted: true, previous } };
      }
      if (post.status === 'trash')
        throw new RestError(410, 'rest_already_trashed', 'The post has already been deleted.');
      post.status = 'trash';
      return { status: 200, body: this.postJson(post, 'edit') };
    }
    const saved = this.savePost(type, values, post);
    return { status: 200, body: this.postJson(saved, 'edit') };
  }

  /**
   * POST wp/v2/media with `url`: the store downloads the image itself (WordPress 7.1). As a real
   * store answers: an address it may not reach is an invalid parameter, an answer other than 2xx
   * is a 500 named after its status (http_404), a file that is no image is rest_invalid_url; the
   * alt_text of the same request is not applied.
   */
  private async sideload(values: Record<string, unknown>): Promise<EmulatorResponse> {
    const url = String(values.url);
    let fetched: { bytes: Buffer; contentType: string };
    try {
      fetched = await this.store.fetchImage(url);
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      const status = Object.entries(STATUS_CODES).find(([, text]) => text === message)?.[0];
      if (status) throw new RestError(500, `http_${status}`, message, { code: Number(status) });
      if (/file type/.test(message))
        throw new RestError(
          400,
          'rest_invalid_url',
          'The provided URL does not point to a supported image file.',
        );
      throw new RestError(400, 'rest_invalid_param', 'Invalid parameter(s): url', {
        params: {
          url: 'Invalid URL. Provide a valid, publicly reachable HTTP or HTTPS image URL.',
        },
      });
    }
    const fileName = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? 'image').replace(
      /[^A-Za-z0-9._-]/g,
      '-',
    );
    const attachment = this.store.addAttachment(
      this.store.uniqueUploadPath(fileName),
      '',
      this.store.now(),
      fileName.replace(/\.[^.]+$/, ''),
    );
    attachment.bytes = fetched.bytes;
    attachment.contentType = fetched.contentType;
    attachment.source = url;
    return { status: 201, body: this.mediaJson(attachment.id) };
  }

  private async mediaRoute(
    method: string,
    id: number,
    values: Record<string, unknown>,
    user: WpUser | undefined,
    request: EmulatorRequest,
  ): Promise<EmulatorResponse> {
    if (method === 'GET' && !id) {
      const ids = [...this.store.attachments.keys()].sort((a, b) => b - a);
      return this.list(ids, values, (i) => this.mediaJson(i));
    }
    if (method === 'POST' && !id) {
      if (!user)
        throw new RestError(
          401,
          'rest_cannot_create',
          'Sorry, you are not allowed to upload media on this site.',
        );
      if (values.url !== undefined) return this.sideload(values);
      if (request.body.length === 0)
        throw new RestError(400, 'rest_upload_no_data', 'No data supplied.');
      const disposition = String(request.headers['content-disposition'] ?? '');
      const fileName = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
      if (!fileName)
        throw new RestError(
          400,
          'rest_upload_no_content_disposition',
          'No Content-Disposition supplied.',
        );
      const clean = decodeURIComponent(fileName).replace(/[^A-Za-z0-9._-]/g, '-');
      const ext = clean.split('.').pop()?.toLowerCase() ?? '';
      const contentType = imageTypes[ext];
      if (!contentType)
        throw new RestError(
          500,
          'rest_upload_sideload_error',
          'Sorry, you are not allowed to upload this file type.',
        );
      const attachment = this.store.addAttachment(
        this.store.uniqueUploadPath(clean),
        String(values.alt_text ?? ''),
        this.store.now(),
        textOf(values.title) ?? clean.replace(/\.[^.]+$/, ''),
      );
      attachment.bytes = Buffer.from(request.body);
      attachment.contentType = contentType;
      return { status: 201, body: this.mediaJson(attachment.id) };
    }
    const attachment = this.store.attachments.get(id);
    if (!attachment) throw new RestError(404, 'rest_post_invalid_id', 'Invalid post ID.');
    if (method === 'GET') return { status: 200, body: this.mediaJson(id) };
    if (!user)
      throw new RestError(401, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
    if (method === 'DELETE') {
      if (!values.force)
        throw new RestError(
          501,
          'rest_trash_not_supported',
          "The post does not support trashing. Set 'force=true' to delete.",
        );
      // wp_delete_attachment(): the file goes, and no page or post keeps it as featured image.
      const previous = this.mediaJson(id);
      this.store.attachments.delete(id);
      for (const p of this.posts.values()) if (p.featuredMedia === id) p.featuredMedia = 0;
      return { status: 200, body: { deleted: true, previous } };
    }
    if (values.alt_text !== undefined) attachment.alt = String(values.alt_text);
    return { status: 200, body: this.mediaJson(id) };
  }
}
