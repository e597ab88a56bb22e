import { z } from 'zod';
import type { EmulatorResponse } from '../framework/server.ts';
import type { CatalogContext } from './catalog.ts';
import { BcHttpError } from './http.ts';
import type { BcBlogPost, BcState, BcWebPage } from './state.ts';

/**
 * Web pages (pages.v3.yml, /v3/content/pages) and blog posts (store_content.v2.yml,
 * /v2/blog/posts), kept in specs/bigcommerce.
 *
 * Pages: a create takes one page or an array; `name` (1 to 100 characters, unique: "Must be
 * unique") and `type` are required, a `raw` page needs a `body`, a `link` its `link`, and `blog`
 * pages "can only be created in the store control panel". The storefront path is unique and, left
 * out, is made from the name. Invalid input answers 422 with ResponseErrorDetailed (`detail`); in
 * a bulk create the valid entries are still created. A page's body is answered only with
 * `include=body`. Deleting a parent moves its children to the top, hidden, unless
 * `delete_children=true`.
 *
 * Blog posts: `title` and `body` are required; `published_date` is an RFC 2822 string; the
 * `summary` is read-only, BigCommerce's own excerpt of the body; a post is a draft unless
 * `is_published` is sent true, on an update too ("you must set the field explicitly to true").
 * The path is unique (a repeat answers 409, as v2 does for a change it refuses on a condition of
 * its own) and, left out, is /blog/<title as a slug>/. `thumbnail_path` is a path of a file in the
 * store's WebDAV /product_images/ folder: the API uploads no image.
 */

const pageTypes = ['page', 'raw', 'contact_form', 'link', 'blog'] as const;

/** Pages with content of their own: not a menu link, not the blog's own page. */
export const contentPageTypes: ReadonlySet<string> = new Set(['page', 'raw', 'contact_form']);

const nullableText = z.string().nullable();

const pageFields = {
  channel_id: z.number().int().positive(),
  name: z.string().min(1).max(100),
  is_visible: z.boolean(),
  parent_id: z.number().int().nonnegative(),
  sort_order: z.number().int(),
  type: z.enum(pageTypes),
  body: nullableText,
  is_homepage: z.boolean(),
  is_customers_only: z.boolean(),
  email: z.string().max(255),
  meta_title: nullableText,
  link: z.string(),
  contact_fields: z.string(),
  meta_keywords: nullableText,
  meta_description: nullableText,
  search_keywords: nullableText,
  url: z.string(),
  content_type: z.string(),
};

/** One page of a create (typePage, typeRaw, typeContactForm, typeLink). */
export const pageCreateSchema = z
  .strictObject(pageFields)
  .partial()
  .required({ name: true, type: true });
export type PageCreate = z.infer<typeof pageCreateSchema>;

/** PagePutObj: every field optional; PagePutBulk adds the id. */
export const pageUpdateSchema = z.strictObject(pageFields).partial();
export type PageUpdate = z.infer<typeof pageUpdateSchema>;
export const pageBulkUpdateSchema = z
  .strictObject({ id: z.number().int(), ...pageFields })
  .partial();

const errorType = 'https://developer.bigcommerce.com/api-docs/getting-started/api-status-codes';

/** ResponseErrorDetailed / ResponseErrorBrief, as the pages API answers. */
export function pageError(error: BcHttpError): EmulatorResponse {
  const details = Object.entries(error.errors).map(([field, text]) => `${field}: ${text}`);
  return {
    status: error.status,
    body: {
      status: error.status,
      title: error.status === 422 ? 'Input is invalid' : error.message,
      type: errorType,
      ...(error.status === 404 ? {} : { detail: details.join('; ') || error.message }),
    },
  };
}

const invalid = (detail: string) => new BcHttpError(422, 'Input is invalid', { body: detail });

/** Lower-case words joined by hyphens, as BigCommerce makes a path from a name. */
export function slugOf(text: string): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'page'
  );
}

/** The path BigCommerce gives a record made without one: free, with -1, -2... when taken. */
function freePath(prefix: string, name: string, taken: (url: string) => boolean): string {
  const slug = slugOf(name);
  for (let n = 0; ; n++) {
    const url = `${prefix}${n === 0 ? slug : `${slug}-${n}`}/`;
    if (!taken(url)) return url;
  }
}

const pathKey = (url: string) => url.trim().toLowerCase();

function checkPage(state: BcState, page: BcWebPage): void {
  const others = state.webPages.filter((p) => p.id !== page.id);
  if (!page.name.trim()) throw invalid('the name must not be empty');
  if (others.some((p) => p.name.trim().toLowerCase() === page.name.trim().toLowerCase()))
    throw invalid(`a page named '${page.name}' already exists; page names must be unique`);
  if (page.type === 'raw' && (page.body === null || page.body === undefined))
    throw invalid('missing the required field: body');
  if (page.type === 'link' && !page.link) throw invalid('missing the required field: link');
  if (page.type === 'contact_form' && page.email) {
    const email = page.email.toLowerCase();
    if (others.some((p) => p.type === 'contact_form' && p.email?.toLowerCase() === email))
      throw invalid(`the contact e-mail address ${page.email} is used by another form`);
  }
  if (page.url) {
    if (!page.url.startsWith('/')) throw invalid('url must be a path starting with /');
    const clash = others.find(
      (p) => p.channel_id === page.channel_id && pathKey(p.url) === pathKey(page.url),
    );
    if (clash) throw invalid(`the url ${page.url} is used by page ${clash.id}`);
  }
  if (page.parent_id !== 0) {
    if (page.parent_id === page.id) throw invalid('a page cannot be its own parent');
    if (!others.some((p) => p.id === page.parent_id))
      throw invalid(`parent_id ${page.parent_id} is not a page of this store`);
  }
  if (page.is_homepage && page.type === 'link') throw invalid('a link cannot be the home page');
}

const usedUrl = (state: BcState, channel: number) => (url: string) =>
  state.webPages.some((p) => p.channel_id === channel && pathKey(p.url) === pathKey(url));

export function createPage(ctx: CatalogContext, input: PageCreate): BcWebPage {
  const { state } = ctx;
  if (input.type === 'blog')
    throw invalid('blog pages can only be created in the store control panel');
  const channel = input.channel_id ?? 1;
  const page: BcWebPage = {
    id: 0,
    channel_id: channel,
    name: input.name,
    is_visible: input.is_visible ?? true,
    parent_id: input.parent_id ?? 0,
    sort_order: input.sort_order ?? 0,
    type: input.type,
    body: input.type === 'link' ? null : (input.body ?? (input.type === 'raw' ? null : '')),
    is_homepage: input.is_homepage ?? false,
    is_customers_only: input.is_customers_only ?? false,
    url:
      input.type === 'link'
        ? ''
        : (input.url ?? freePath('/', input.name, usedUrl(state, channel))),
    meta_title: input.meta_title ?? '',
    meta_keywords: input.meta_keywords ?? '',
    meta_description: input.meta_description ?? '',
    search_keywords: input.search_keywords ?? '',
    ...(input.type === 'contact_form'
      ? { email: input.email ?? '', contact_fields: input.contact_fields ?? '' }
      : {}),
    ...(input.type === 'link' ? { link: input.link ?? '' } : {}),
    ...(input.type === 'raw' ? { content_type: input.content_type ?? 'text/html' } : {}),
  };
  checkPage(state, page);
  if (page.is_homepage) for (const p of state.webPages) p.is_homepage = false;
  page.id = state.nextId('web_page');
  state.webPages.push(page);
  return page;
}

export function updatePage(ctx: CatalogContext, page: BcWebPage, input: PageUpdate): void {
  const { id: _id, ...fields } = input as PageUpdate & { id?: number };
  if (fields.type === 'blog' && page.type !== 'blog')
    throw invalid('blog pages can only be created in the store control panel');
  const changed: BcWebPage = {
    ...page,
    ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
  };
  if (changed.type === 'raw' && changed.body === null)
    throw invalid('missing the required field: body');
  checkPage(ctx.state, changed);
  if (changed.is_homepage)
    for (const p of ctx.state.webPages) if (p.id !== page.id) p.is_homepage = false;
  Object.assign(page, changed);
}

/** Deletes a page; its children go to the top, hidden, or with it when `withChildren`. */
export function deletePage(state: BcState, page: BcWebPage, withChildren: boolean): void {
  const children = state.webPages.filter((p) => p.parent_id === page.id);
  for (const child of children) {
    if (withChildren) deletePage(state, child, true);
    else Object.assign(child, { parent_id: 0, is_visible: false });
  }
  const index = state.webPages.indexOf(page);
  if (index >= 0) state.webPages.splice(index, 1);
}

/** A page as the API answers it (the body only when asked for). */
export function pageJson(p: BcWebPage, withBody: boolean): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: p.id,
    channel_id: p.channel_id,
    name: p.name,
    is_visible: p.is_visible,
    parent_id: p.parent_id,
    sort_order: p.sort_order,
    type: p.type,
    is_homepage: p.is_homepage,
    is_customers_only: p.is_customers_only,
    url: p.url,
  };
  if (p.type !== 'link') {
    Object.assign(json, { search_keywords: p.search_keywords });
    if (p.type !== 'raw')
      Object.assign(json, {
        meta_title: p.meta_title,
        meta_keywords: p.meta_keywords,
        meta_description: p.meta_description,
      });
  }
  if (p.type === 'contact_form')
    Object.assign(json, { email: p.email ?? '', contact_fields: p.contact_fields ?? '' });
  if (p.type === 'link') json.link = p.link ?? '';
  if (p.type === 'raw') json.content_type = p.content_type ?? 'text/html';
  if (withBody && p.type !== 'link') json.body = p.body;
  return json;
}

// ------------------------------------------------------------------ blog posts

const rfc2822Pattern =
  /^(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), )?\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}(?::\d{2})? (?:[+-]\d{4}|GMT|UT)$/;

const publishedDate = z
  .string()
  .refine((v) => rfc2822Pattern.test(v) && Number.isFinite(Date.parse(v)), {
    message: 'must be an RFC 2822 date',
  });

const postFields = {
  title: z.string().trim().min(1).max(255),
  url: z.string().regex(/^\//, 'must be a path starting with /'),
  body: z.string(),
  tags: z.array(z.string()),
  is_published: z.boolean(),
  meta_description: z.string(),
  meta_keywords: z.string(),
  author: z.string(),
  thumbnail_path: z.string(),
  published_date: publishedDate,
};

/** blogPost_Base_Post: title and body required; read-only fields (summary, id) refused. */
export const postCreateSchema = z
  .strictObject(postFields)
  .partial()
  .required({ title: true, body: true });
export type PostCreate = z.infer<typeof postCreateSchema>;

/** PUT takes blogPost_Base_Post too (its required fields with it). */
export const postUpdateSchema = postCreateSchema;

const cleanTags = (tags: readonly string[]) => [
  ...new Map(
    tags
      .map((t) => t.trim())
      .filter(Boolean)
      .map((t) => [t.toLowerCase(), t]),
  ).values(),
];

function checkPost(state: BcState, post: BcBlogPost): void {
  const clash = state.blogPosts.find(
    (p) => p.id !== post.id && pathKey(p.url) === pathKey(post.url),
  );
  if (clash)
    throw new BcHttpError(409, `The URL ${post.url} is already used by blog post ${clash.id}`, {
      url: 'must be unique',
    });
}

export function createPost(ctx: CatalogContext, input: PostCreate): BcBlogPost {
  const { state } = ctx;
  const post: BcBlogPost = {
    id: 0,
    title: input.title,
    url:
      input.url ??
      freePath('/blog/', input.title, (url) => state.blogPosts.some((p) => pathKey(p.url) === url)),
    body: input.body,
    tags: cleanTags(input.tags ?? []),
    is_published: input.is_published ?? false,
    published_date: input.published_date ? Date.parse(input.published_date) : ctx.now(),
    meta_description: input.meta_description ?? '',
    meta_keywords: input.meta_keywords ?? '',
    author: input.author ?? '',
    thumbnail_path: input.thumbnail_path ?? '',
  };
  checkPost(state, post);
  post.id = state.nextId('blog_post');
  state.blogPosts.push(post);
  return post;
}

export function updatePost(ctx: CatalogContext, post: BcBlogPost, input: PostCreate): void {
  const changed: BcBlogPost = {
    ...post,
    title: input.title,
    body: input.body,
    url: input.url ?? post.url,
    tags: input.tags ? cleanTags(input.tags) : post.tags,
    // "you must set the field explicitly to true, even if the blog post was already published"
    is_published: input.is_published ?? false,
    published_date: input.published_date ? Date.parse(input.published_date) : post.published_date,
    meta_description: input.meta_description ?? post.meta_description,
    meta_keywords: input.meta_keywords ?? post.meta_keywords,
    author: input.author ?? post.author,
    thumbnail_path: input.thumbnail_path ?? post.thumbnail_path,
  };
  checkPost(ctx.state, changed);
  Object.assign(post, changed);
}

/** BigCommerce's summary: the body's text, cut at a word after 280 characters with ' [...]'. */
export function summaryOf(body: string): string {
  const text = body
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text.length <= 280) return text;
  const cut = text.slice(0, 280);
  return `${cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : 280)} [...]`;
}

/** blogPost_Full as the API answers it. */
export function postJson(p: BcBlogPost): Record<string, unknown> {
  const date = new Date(p.published_date);
  return {
    id: p.id,
    title: p.title,
    url: p.url,
    preview_url: p.url,
    body: p.body,
    tags: [...p.tags],
    summary: summaryOf(p.body),
    is_published: p.is_published,
    published_date: {
      // As the description's examples of a single post give it (its list example has a space).
      date: date.toISOString(),
      timezone_type: 1,
      timezone: '+00:00',
    },
    published_date_iso8601: date.toISOString().replace(/\.\d{3}Z$/, '+0000'),
    meta_description: p.meta_description,
    meta_keywords: p.meta_keywords,
    author: p.author,
    thumbnail_path: p.thumbnail_path,
  };
}

/** GET /v2/blog/tags: each tag with the posts that carry it. */
export function blogTags(state: BcState): { tag: string; post_ids: number[] }[] {
  const tags = new Map<string, { tag: string; post_ids: number[] }>();
  for (const post of [...state.blogPosts].sort((a, b) => a.id - b.id))
    for (const tag of post.tags) {
      const entry = tags.get(tag.toLowerCase()) ?? { tag, post_ids: [] };
      entry.post_ids.push(post.id);
      tags.set(tag.toLowerCase(), entry);
    }
  return [...tags.values()];
}
