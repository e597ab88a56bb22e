import type { Page, Post } from '@replatform/canonical/content';
import { pageDefaults, postDefaults } from '@replatform/canonical/defaults';
import { fieldsNamespace, readExtras, webPageExtras, writeExtras } from './extras.ts';
import { slugFromPath, usablePath, validUrl } from './map-catalog.ts';
import type { Json } from './native.ts';
import type { BcBlogPost, BcWebPage } from './payloads.ts';

/**
 * BigCommerce web pages (pages.v3.yml) and blog posts (store_content.v2.yml) <-> canonical pages
 * and posts.
 *
 * A web page has a name, a body, a storefront path, a parent and sort order, whether it is
 * visible, SEO title, keywords and description, search keywords, and its kind: `page` (HTML),
 * `raw` (markup of its own), `contact_form` (a page with BigCommerce's contact form), `link` (a
 * menu entry to another address) and `blog` (the blog's own page). Links and the blog page are no
 * content pages and are not read (reported). A page has no author, dates, excerpt or featured
 * image. Visible reads as published, hidden as draft.
 *
 * A blog post has a title, path, body, tags, author, published flag and date, SEO keywords and
 * description, a thumbnail (a path of a file in the store's WebDAV /product_images/ folder, which
 * the API cannot upload) and a summary BigCommerce makes from the body (read-only). It has no
 * categories, no SEO title, no alternative text and no custom fields.
 */

/** Why a page of another kind is not read. */
export function notContentReason(page: { type: string; link?: string | null }): string {
  if (page.type === 'link')
    return `a menu link to ${page.link || 'another address'}, not a page with content of its own; add it to the destination's menu by hand`;
  if (page.type === 'blog')
    return "the blog's own page, which lists the blog posts (carried as posts); the destination has its own";
  return `a page of kind '${page.type}', which is not a content page`;
}

/** Keywords kept as BigCommerce's comma-separated text, in their order, empty ones left out. */
export const splitKeywords = (text: string): string[] =>
  text
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');

export function webPageToCanonical(p: BcWebPage, raw: Json): Page {
  const path = p.url || null;
  return {
    ...pageDefaults(),
    id: String(p.id),
    title: p.name,
    slug: slugFromPath(path),
    body: p.body,
    status: p.is_visible === false ? 'draft' : 'published',
    seoTitle: p.meta_title,
    seoDescription: p.meta_description,
    seoKeywords: splitKeywords(p.meta_keywords),
    metafields: readExtras(raw, webPageExtras),
    sourceUrlPath: path,
    parentId: p.parent_id ? String(p.parent_id) : null,
    position: Math.max(0, p.sort_order ?? 0),
  };
}

/** A v2 date ('2024-05-02T08:00:00+0000', or published_date's date and zone) as ISO-8601. */
export function postDate(p: BcBlogPost): string | null {
  const candidates = [
    p.published_date_iso8601,
    p.published_date
      ? `${p.published_date.date.replace(' ', 'T').replace(/(\.\d{3})\d*/, '$1')}${/[zZ]|[+-]\d\d:?\d\d$/.test(p.published_date.date) ? '' : (p.published_date.timezone ?? '+00:00')}`
      : '',
  ];
  for (const text of candidates) {
    if (!text) continue;
    const ms = Date.parse(text.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
    if (Number.isFinite(ms)) return new Date(ms).toISOString();
  }
  return null;
}

/** The address of a thumbnail: its /product_images/ path on the storefront. */
export function thumbnailUrl(path: string, storefront: string | undefined): string | null {
  if (!path) return null;
  if (/^https?:\/\//i.test(path)) return validUrl(path);
  if (!storefront) return null;
  try {
    const base = storefront.endsWith('/') ? storefront : `${storefront}/`;
    return validUrl(new URL(path.replace(/^\/+/, ''), base).href);
  } catch {
    return null;
  }
}

export function blogPostToCanonical(p: BcBlogPost, storefront: string | undefined): Post {
  const path = p.url || null;
  return {
    ...postDefaults(),
    id: String(p.id),
    title: p.title,
    slug: slugFromPath(path),
    body: p.body,
    excerpt: p.summary,
    status: p.is_published ? 'published' : 'draft',
    publishedAt: postDate(p),
    authorName: p.author,
    featuredImageUrl: thumbnailUrl(p.thumbnail_path, storefront),
    seoDescription: p.meta_description,
    seoKeywords: splitKeywords(p.meta_keywords),
    tags: p.tags.filter((t) => t.trim() !== ''),
    sourceUrlPath: path,
  };
}

// ------------------------------------------------------------------ writing

/** The body of a page create or update (pages.v3.yml typePage / typeRaw / typeContactForm). */
export interface PageBody {
  name: string;
  type: 'page' | 'raw' | 'contact_form';
  body: string;
  is_visible: boolean;
  parent_id: number;
  sort_order: number;
  channel_id: number;
  is_homepage: boolean;
  is_customers_only: boolean;
  search_keywords: string;
  meta_title?: string;
  meta_keywords?: string;
  meta_description?: string;
  url?: string;
  email?: string;
  contact_fields?: string;
}

export type ContentWrite<B> =
  { ok: true; body: B; warnings: string[] } | { ok: false; reason: string };

const statusWarning = (status: string, became: string) =>
  status === 'published' ? undefined : `its status '${status}' was written as ${became} (status)`;

/** The storefront path of a page or post: the source's, else one from the slug, else none. */
export function contentPath(record: Page | Post, prefix: string): string | undefined {
  const fromSlug = record.slug
    ? `${prefix}${encodeURIComponent(record.slug).replace(/%2F/gi, '-')}/`
    : undefined;
  return usablePath(record.sourceUrlPath) ?? usablePath(fromSlug);
}

/** Custom fields BigCommerce pages and posts have no place for, named in the report row. */
function lostMetafields(record: Page | Post, kept: (key: string) => boolean): string[] {
  const lost = record.metafields.filter((m) => m.namespace !== fieldsNamespace || !kept(m.key));
  return lost.length
    ? [
        `BigCommerce ${'parentId' in record ? 'web pages' : 'blog posts'} have no custom fields: ${lost.map((m) => `${m.namespace}.${m.key}`).join(', ')} not written (metafields)`,
      ]
    : [];
}

/**
 * The BigCommerce web page of a canonical page. `parentId` is the destination id of its parent
 * (0 at the top). A name is required and at most 100 characters: a longer or empty title fails
 * rather than being invented or cut. Every field is sent, so an update leaves nothing behind.
 */
export function pageToBc(page: Page, parentId: number): ContentWrite<PageBody> {
  const name = page.title.trim();
  if (!name) return { ok: false, reason: 'the page has no title, which BigCommerce requires' };
  if (name.length > 100)
    return {
      ok: false,
      reason: `the title is ${name.length} characters long; BigCommerce allows 100 for a page name`,
    };
  const warnings: string[] = [];
  const extras = writeExtras(page.metafields, webPageExtras);
  const kind = extras.fields.get('type');
  const type = kind === 'raw' || kind === 'contact_form' ? kind : 'page';
  const body: PageBody = {
    name,
    type,
    body: page.body,
    is_visible: page.status === 'published',
    parent_id: parentId,
    sort_order: page.position,
    channel_id: numberOr(extras.fields.get('channel_id'), 1),
    // Never made the destination's home page: that would take the flag from the store's own.
    is_homepage: false,
    is_customers_only: extras.fields.get('is_customers_only') === true,
    search_keywords: textOr(extras.fields.get('search_keywords')),
  };
  const seo = {
    meta_title: page.seoTitle,
    meta_keywords: page.seoKeywords.join(','),
    meta_description: page.seoDescription,
  };
  if (type === 'raw') {
    // A raw page has no SEO fields (pages.v3.yml typeRaw).
    const held = Object.entries(seo).filter(([, v]) => v !== '');
    if (held.length)
      warnings.push(
        `a raw BigCommerce page has no SEO fields: ${held.map(([k]) => k).join(', ')} not written (seoTitle, seoKeywords, seoDescription)`,
      );
  } else Object.assign(body, seo);
  if (type === 'contact_form') {
    body.email = textOr(extras.fields.get('email'));
    body.contact_fields = textOr(extras.fields.get('contact_fields'));
  }
  if (extras.fields.get('is_homepage') === true)
    warnings.push(
      "it is the source store's home page; it was not made the destination's home page, which would replace the store's own (metafields: bigcommerce_fields.is_homepage)",
    );
  const path = contentPath(page, '/');
  if (path) body.url = path;
  else
    warnings.push(
      page.sourceUrlPath
        ? `the storefront path '${page.sourceUrlPath}' is not one BigCommerce takes; BigCommerce made one from the name (sourceUrlPath)`
        : 'the page has no storefront path at the source; BigCommerce made one from the name (sourceUrlPath)',
    );
  const status = statusWarning(page.status, 'hidden, BigCommerce pages being visible or hidden');
  if (status) warnings.push(status);
  warnings.push(...lostMetafields(page, (key) => webPageExtras.some((e) => e.field === key)));
  if (extras.unknown.length)
    warnings.push(
      `BigCommerce page fields it does not know were left out: ${extras.unknown.join(', ')} (metafields)`,
    );
  return { ok: true, body, warnings };
}

const numberOr = (value: unknown, fallback: number) =>
  typeof value === 'number' && Number.isInteger(value) ? value : fallback;
const textOr = (value: unknown) => (typeof value === 'string' ? value : '');

/** Whether a destination page already holds what `body` would write. */
export function holdsPage(current: BcWebPage, body: PageBody): boolean {
  return (
    current.name === body.name &&
    current.type === body.type &&
    current.body === body.body &&
    (current.is_visible ?? true) === body.is_visible &&
    (current.parent_id ?? 0) === body.parent_id &&
    (current.sort_order ?? 0) === body.sort_order &&
    (current.channel_id ?? 1) === body.channel_id &&
    (current.is_homepage ?? false) === body.is_homepage &&
    (current.is_customers_only ?? false) === body.is_customers_only &&
    current.search_keywords === body.search_keywords &&
    (body.meta_title === undefined || current.meta_title === body.meta_title) &&
    (body.meta_keywords === undefined ||
      splitKeywords(current.meta_keywords).join(',') === body.meta_keywords) &&
    (body.meta_description === undefined || current.meta_description === body.meta_description) &&
    (body.url === undefined || current.url === body.url) &&
    (body.email === undefined || current.email === body.email) &&
    (body.contact_fields === undefined || current.contact_fields === body.contact_fields)
  );
}

/** The body of a blog post create or update (store_content.v2.yml blogPost_Base_Post). */
export interface PostBody {
  title: string;
  body: string;
  url?: string;
  tags: string[];
  is_published: boolean;
  published_date?: string;
  meta_description: string;
  meta_keywords: string;
  author: string;
}

/** RFC 2822, as v2 takes a date ('Thu, 02 May 2024 08:00:00 +0000'). */
export const rfc2822 = (iso: string) => new Date(iso).toUTCString().replace('GMT', '+0000');

/**
 * The BigCommerce blog post of a canonical post. A title is required (at most 255 characters).
 * Only published posts are published; a scheduled one is written unpublished with its date, since
 * BigCommerce publishes no post by itself. The featured image cannot be given (a thumbnail is a
 * file uploaded to the store by WebDAV), nor categories, an SEO title or an excerpt: each is
 * named in the report row of a post that has one.
 */
export function postToBc(post: Post): ContentWrite<PostBody> {
  const title = post.title.trim();
  if (!title) return { ok: false, reason: 'the post has no title, which BigCommerce requires' };
  if (title.length > 255)
    return {
      ok: false,
      reason: `the title is ${title.length} characters long; BigCommerce allows 255`,
    };
  const warnings: string[] = [];
  const body: PostBody = {
    title,
    body: post.body,
    tags: [...new Set(post.tags.map((t) => t.trim()).filter(Boolean))],
    is_published: post.status === 'published',
    meta_description: post.seoDescription,
    meta_keywords: post.seoKeywords.join(','),
    author: post.authorName,
  };
  if (post.publishedAt) body.published_date = rfc2822(post.publishedAt);
  const path = contentPath(post, '/blog/');
  if (path) body.url = path;
  else
    warnings.push(
      post.sourceUrlPath
        ? `the storefront path '${post.sourceUrlPath}' is not one BigCommerce takes; BigCommerce made one from the title (sourceUrlPath)`
        : 'the post has no storefront path at the source; BigCommerce made one from the title (sourceUrlPath)',
    );
  const status = statusWarning(
    post.status,
    post.status === 'scheduled'
      ? 'unpublished with its date: BigCommerce does not publish a post by itself'
      : 'unpublished',
  );
  if (status) warnings.push(status);
  return { ok: true, body, warnings: [...warnings, ...lostMetafields(post, () => false)] };
}

/** Whether a destination post already holds what `body` would write. */
export function holdsPost(current: BcBlogPost, body: PostBody): boolean {
  const date = body.published_date === undefined ? undefined : Date.parse(body.published_date);
  const currentDate = postDate(current);
  return (
    current.title === body.title &&
    current.body === body.body &&
    (body.url === undefined || current.url === body.url) &&
    JSON.stringify(current.tags) === JSON.stringify(body.tags) &&
    (current.is_published ?? false) === body.is_published &&
    (date === undefined || (currentDate !== null && Date.parse(currentDate) === date)) &&
    current.meta_description === body.meta_description &&
    splitKeywords(current.meta_keywords).join(',') === body.meta_keywords &&
    current.author === body.author
  );
}
