import type { Page, Post } from '@replatform/canonical/content';
import { pageDefaults, postDefaults } from '@replatform/canonical/defaults';
import type { Metafield } from '@replatform/canonical/metafield';
import type { AssetRecord, IdMap, WriteOutcome } from '../kit/contract.ts';
import { ConnectorError, isTransient } from '../kit/errors.ts';
import {
  articleCreate,
  articlesSearch,
  articleUpdate,
  blogCreate,
  blogsPage,
  BLOG_PAGE_SIZE,
  pageCreate,
  pagesSearch,
  pageUpdate,
  type ShopifyArticle,
  type ShopifyMetafield,
  type ShopifyPage,
} from './documents.ts';
import { markerMetafield, shopifyMetafields, type MetafieldContext } from './from-canonical.ts';
import type { ShopifyGraphqlClient } from './graphql-client.ts';
import { BLOG_TERM } from './remove.ts';
import { isMarker, ownField, ownValue, splitMetafields } from './own-fields.ts';
import { canonicalTime, type Mapped } from './to-canonical.ts';

/**
 * Web pages and blog posts: Shopify's online store pages, and the articles of its blogs.
 *
 * Reading: a page or article is 'published' when Shopify shows it, 'scheduled' when it has a
 * publish date still to come, 'draft' when hidden (Shopify keeps no date for a hidden one). The
 * SEO title and description are the metafields global.title_tag / global.description_tag (what
 * the admin's search engine listing edits); the theme template is kept as the custom field
 * shopify.template_suffix; other metafields are custom fields 'shopify.<namespace>'. An article's
 * blog is its blog's title, its summary the excerpt, its image the featured image.
 *
 * Writing: pageCreate / articleCreate with the marker replatform.source_id among the metafields,
 * so a re-run (or a create whose answer was lost) finds the record again by its handle and the
 * marker; a page or article of that handle without our marker is the merchant's own: linked,
 * never changed.
 */

export const SEO_NAMESPACE = 'global';
export const SEO_TITLE_KEY = 'title_tag';
export const SEO_DESCRIPTION_KEY = 'description_tag';
/** The blog articles go to when the source names none and the shop has no blog. */
export const DEFAULT_BLOG_TITLE = 'News';

const isSeo = (m: { namespace: string; key: string }) =>
  m.namespace === SEO_NAMESPACE && (m.key === SEO_TITLE_KEY || m.key === SEO_DESCRIPTION_KEY);

const seoValue = (list: readonly ShopifyMetafield[], key: string) =>
  list.find((m) => m.namespace === SEO_NAMESPACE && m.key === key)?.value ?? '';

export function pageUrlPath(handle: string): string {
  return `/pages/${handle}`;
}

export function articleUrlPath(blogHandle: string, handle: string): string {
  return `/blogs/${blogHandle}/${handle}`;
}

/** Shopify's visibility as a status: shown, to be shown at its date, or hidden. */
export function statusOf(isPublished: boolean, publishedAt: string | null): Page['status'] {
  if (isPublished) return 'published';
  return publishedAt ? 'scheduled' : 'draft';
}

/** The metafields of a page or article as custom fields, without SEO fields and the marker. */
function customFields(list: readonly ShopifyMetafield[], templateSuffix: string | null) {
  const split = splitMetafields(
    list.filter((m) => !isSeo(m)),
    [],
  );
  const own: Metafield[] = templateSuffix
    ? [ownField('template_suffix', templateSuffix, 'single_line_text_field')]
    : [];
  return [...split.metafields, ...own];
}

const time = (value: string | null) => (value ? canonicalTime(value) : null);

export function pageToCanonical(p: ShopifyPage): Mapped<Page> {
  const metafields = p.metafields.nodes;
  return {
    record: {
      ...pageDefaults(),
      id: p.id,
      title: p.title,
      slug: p.handle,
      body: p.body,
      status: statusOf(p.isPublished, p.publishedAt),
      publishedAt: time(p.publishedAt),
      createdAt: time(p.createdAt),
      updatedAt: time(p.updatedAt),
      seoTitle: seoValue(metafields, SEO_TITLE_KEY),
      seoDescription: seoValue(metafields, SEO_DESCRIPTION_KEY),
      metafields: customFields(metafields, p.templateSuffix),
      sourceUrlPath: p.isPublished ? pageUrlPath(p.handle) : null,
    },
    losses: [],
  };
}

export function articleToPost(a: ShopifyArticle): Mapped<Post> {
  const metafields = a.metafields.nodes;
  return {
    record: {
      ...postDefaults(),
      id: a.id,
      title: a.title,
      slug: a.handle,
      body: a.body,
      excerpt: a.summary ?? '',
      status: statusOf(a.isPublished, a.publishedAt),
      publishedAt: time(a.publishedAt),
      createdAt: time(a.createdAt),
      updatedAt: time(a.updatedAt),
      authorName: a.author?.name ?? '',
      featuredImageUrl: a.image?.url ?? null,
      featuredImageAlt: a.image?.altText ?? '',
      seoTitle: seoValue(metafields, SEO_TITLE_KEY),
      seoDescription: seoValue(metafields, SEO_DESCRIPTION_KEY),
      metafields: customFields(metafields, a.templateSuffix),
      blog: a.blog.title,
      tags: a.tags,
      sourceUrlPath: a.isPublished ? articleUrlPath(a.blog.handle, a.handle) : null,
    },
    losses: [],
  };
}

// ------------------------------------------------------------------ model -> Shopify

type Input = Record<string, unknown>;

export interface ContentInput {
  /** PageCreateInput / ArticleCreateInput without the blog, author and marker. */
  input: Input;
  /** The metafields written with it (custom fields and SEO), without the marker. */
  metafields: Record<string, string>[];
  warnings: string[];
}

/**
 * What a page or post holds that every Shopify page and article has: title, handle, body,
 * visibility and publish date, theme template, SEO fields and custom fields.
 */
function commonInput(
  kind: 'page' | 'post',
  r: Page | Post,
  ctx: MetafieldContext,
): ContentInput | { failure: string } {
  if (r.title.trim() === '')
    return {
      failure: `Shopify needs a title for every ${kind === 'page' ? 'page' : 'blog article'}, and this one has none at the source.`,
    };
  const warnings: string[] = [];
  const input: Input = { title: r.title, body: r.body };
  if (r.slug) input.handle = r.slug;
  switch (r.status) {
    case 'published':
      input.isPublished = true;
      if (r.publishedAt) input.publishDate = r.publishedAt;
      break;
    case 'scheduled':
      if (r.publishedAt) {
        input.isPublished = true;
        input.publishDate = r.publishedAt;
      } else {
        input.isPublished = false;
        warnings.push(
          'Scheduled without a publish date at the source: written hidden, to be published by hand.',
        );
      }
      break;
    default:
      // draft, pending review and private: Shopify has hidden only.
      input.isPublished = false;
  }
  const template = ownValue(r.metafields, 'template_suffix');
  input.templateSuffix = template ?? null;
  const metafields = shopifyMetafields(r.metafields, warnings, ctx);
  const seo = (key: string, value: string) => {
    if (!value) return;
    const at = metafields.findIndex((m) => m.namespace === SEO_NAMESPACE && m.key === key);
    if (at >= 0) metafields.splice(at, 1);
    metafields.push({
      namespace: SEO_NAMESPACE,
      key,
      type: /[\r\n]/.test(value) ? 'multi_line_text_field' : 'single_line_text_field',
      value,
    });
  };
  seo(SEO_TITLE_KEY, r.seoTitle);
  seo(SEO_DESCRIPTION_KEY, r.seoDescription);
  return { input, metafields, warnings };
}

export function pageInput(p: Page, ctx: MetafieldContext = {}): ContentInput | { failure: string } {
  return commonInput('page', p, ctx);
}

export function articleInput(
  p: Post,
  ctx: MetafieldContext = {},
): ContentInput | { failure: string } {
  const built = commonInput('post', p, ctx);
  if ('failure' in built) return built;
  const { input } = built;
  input.summary = p.excerpt || null;
  input.tags = p.tags;
  if (p.featuredImageUrl)
    input.image = {
      url: p.featuredImageUrl,
      ...(p.featuredImageAlt ? { altText: p.featuredImageAlt } : {}),
    };
  return built;
}

/** The author Shopify requires: the source's name, or the blog's shop when it has none. */
export function authorInput(p: Post): { name: string } | { failure: string } {
  if (p.authorName.trim()) return { name: p.authorName.trim() };
  return {
    failure:
      'Shopify needs an author name for every blog article, and this post has none at the source.',
  };
}

// ------------------------------------------------------------------ comparing with the destination

type Found = Record<string, unknown> & {
  id: string;
  marker: { value: string } | null;
};

const sameText = (a: unknown, b: unknown) => (a ?? '') === (b ?? '');

/**
 * Whether the destination's page or article already holds what would be written (so it is
 * skipped), field by field of the input; the image is compared by its alt text and presence
 * (Shopify serves its own copy, so the URL differs by design).
 */
export function holdsInput(found: Found, built: ContentInput, now: number): boolean {
  const { input } = built;
  if (!sameText(found.title, input.title) || !sameText(found.body, input.body)) return false;
  if (typeof input.handle === 'string' && found.handle !== input.handle) return false;
  if (!sameText(found.templateSuffix, input.templateSuffix)) return false;
  const publishedAt = found.publishedAt as string | null;
  if (input.isPublished === false) {
    if (found.isPublished || publishedAt) return false;
  } else {
    if (!publishedAt) return false;
    if (typeof input.publishDate === 'string') {
      if (Date.parse(publishedAt) !== Date.parse(input.publishDate)) return false;
    } else if (Date.parse(publishedAt) > now) return false;
  }
  if ('summary' in input && !sameText(found.summary, input.summary)) return false;
  if ('tags' in input) {
    const want = [...new Set(input.tags as string[])].sort();
    const have = [...((found.tags as string[] | undefined) ?? [])].sort();
    if (JSON.stringify(want) !== JSON.stringify(have)) return false;
  }
  if ('tags' in input) {
    const image = found.image as { altText: string | null } | null;
    const wanted = input.image as { altText?: string } | undefined;
    if (Boolean(image) !== Boolean(wanted)) return false;
    if (wanted && !sameText(image?.altText, wanted.altText)) return false;
  }
  const have = ((found.metafields as { nodes: ShopifyMetafield[] } | undefined)?.nodes ?? [])
    .filter((m) => !isMarker(m))
    .map((m) => `${m.namespace}.${m.key}=${m.value}`);
  return built.metafields.every((m) => have.includes(`${m.namespace}.${m.key}=${m.value}`));
}

// ------------------------------------------------------------------ writing

export interface ContentWriteContext {
  client: ShopifyGraphqlClient;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  maxAttempts?: number;
  backoffMs?: number;
  log?: (message: string, fields?: Record<string, unknown>) => void;
}

const messages = (errors: { field: string[] | null; message: string }[]) =>
  errors
    .map((e) => (e.field?.length ? `${e.field.join('.')}: ${e.message}` : e.message))
    .join('; ');

const quote = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const NOT_OURS = (what: string, handle: string) =>
  `The destination already has a ${what} with the handle ${handle}, not created by this migration: it was linked and left as it is.`;

type BlogsAnswer = {
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  nodes: { id: string; title: string }[];
};

type Lookup = () => Promise<Found | undefined>;
type Payload = {
  record: { id: string } | null;
  userErrors: { field: string[] | null; message: string; code?: string | null }[];
} | null;

export class ContentWriter {
  readonly #ctx: ContentWriteContext;
  #blogs: Promise<Map<string, string>> | undefined;
  #firstBlog: string | undefined;
  readonly #creatingBlogs = new Map<string, Promise<{ id: string } | { failure: string }>>();

  constructor(ctx: ContentWriteContext) {
    this.#ctx = ctx;
  }

  async #retrying<T>(run: () => Promise<T>, lost: () => Promise<T | undefined>): Promise<T> {
    const max = this.#ctx.maxAttempts ?? 8;
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        if (!isTransient(error) || attempt >= max) throw error;
        await this.#ctx.sleep(Math.min(5_000, (this.#ctx.backoffMs ?? 200) * 2 ** (attempt - 1)));
        // The failed attempt may have reached Shopify: its record carries the marker.
        const landed = await lost();
        if (landed !== undefined) return landed;
      }
    }
  }

  /**
   * The common path of a page and an article: find it (by the id map, else by handle), skip it
   * unchanged, update it changed, link the merchant's own, else create it with the marker.
   */
  async #write(
    what: 'page' | 'blog article',
    sourceId: string,
    built: ContentInput,
    known: string | undefined,
    byId: (id: string) => Promise<Found | undefined>,
    byHandle: Lookup,
    handle: string,
    create: (input: Input) => Promise<Payload>,
    update: (id: string, input: Input) => Promise<Payload>,
    holdsMore: (found: Found) => boolean = () => true,
  ): Promise<WriteOutcome> {
    const warnings = built.warnings;
    const extra = warnings.length ? { warnings } : {};
    const ours = (found: Found | undefined) => found?.marker?.value === sourceId;
    let found = known ? await byId(known) : undefined;
    if (!found) {
      const other = await byHandle();
      if (other && !ours(other))
        return {
          sourceId,
          outcome: 'skipped',
          destinationId: other.id,
          reason: NOT_OURS(what, handle),
          linked: true,
        };
      found = other;
    }
    const input = {
      ...built.input,
      metafields: [markerMetafield(sourceId), ...built.metafields],
    };
    if (found) {
      if (holdsInput(found, built, this.#ctx.now()) && holdsMore(found))
        return {
          sourceId,
          outcome: 'skipped',
          destinationId: found.id,
          reason: 'Already at the destination, unchanged.',
          ...extra,
        };
      const payload = await this.#retrying(
        () => update(found.id, input),
        async () => undefined,
      );
      if (!payload?.record)
        return {
          sourceId,
          outcome: 'failed',
          reason: `Shopify refused the change of the ${what}: ${messages(payload?.userErrors ?? [])}`,
          ...extra,
        };
      return { sourceId, outcome: 'updated', destinationId: payload.record.id, ...extra };
    }
    const payload = await this.#retrying(
      () => create(input),
      async () => {
        const landed = await byHandle();
        if (!landed || !ours(landed)) return undefined;
        return { record: { id: landed.id }, userErrors: [] };
      },
    );
    if (payload?.record)
      return {
        sourceId,
        outcome: 'created',
        destinationId: payload.record.id,
        ...extra,
      };
    const errors = payload?.userErrors ?? [];
    if (errors.some((e) => e.code === 'TAKEN')) {
      // Made meanwhile: ours (a create whose answer was lost) or the merchant's.
      const other = await byHandle();
      if (other && ours(other))
        return {
          sourceId,
          outcome: 'skipped',
          destinationId: other.id,
          reason: 'Already at the destination (found by its migration marker).',
          ...extra,
        };
      if (other)
        return {
          sourceId,
          outcome: 'skipped',
          destinationId: other.id,
          reason: NOT_OURS(what, handle),
          linked: true,
        };
    }
    return {
      sourceId,
      outcome: 'failed',
      reason: `Shopify refused the ${what}: ${messages(errors)}`,
      ...extra,
    };
  }

  writePage(p: Page, idMap: IdMap): Promise<WriteOutcome> {
    return withScope(p.id, 'page', () => this.#writePage(p, idMap));
  }

  writePost(p: Post, idMap: IdMap): Promise<WriteOutcome> {
    return withScope(p.id, 'blog article', () => this.#writePost(p, idMap));
  }

  async #writePage(p: Page, idMap: IdMap): Promise<WriteOutcome> {
    const built = pageInput(p, { idOf: (entity, id) => idMap.get(entity, id) });
    if ('failure' in built) return { sourceId: p.id, outcome: 'failed', reason: built.failure };
    const { client } = this.#ctx;
    const all = async (query: string) =>
      (await client.request(pagesSearch, { query })).pages.nodes as Found[];
    const search = async (query: string) => (await all(query))[0];
    const handle = p.slug;
    // Without a handle Shopify makes one from the title: only our own copy is looked for then.
    const byTitle = async () =>
      (await all(`title:${quote(p.title)}`)).find((n) => n.marker?.value === p.id);
    return this.#write(
      'page',
      p.id,
      built,
      idMap.get('pages', p.id),
      (id) => search(`id:${id.split('/').pop() ?? id}`),
      handle ? () => search(`handle:${quote(handle)}`) : byTitle,
      handle,
      async (input) => {
        const r = (await client.request(pageCreate, { page: input }, { idempotent: false }))
          .pageCreate;
        return r && { record: r.page, userErrors: r.userErrors };
      },
      async (id, input) => {
        const r = (await client.request(pageUpdate, { id, page: input })).pageUpdate;
        return r && { record: r.page, userErrors: r.userErrors };
      },
    );
  }

  /** The shop's blogs by title (the first of a title), read once per connection. */
  #blogMap(): Promise<Map<string, string>> {
    this.#blogs ??= (async () => {
      const map = new Map<string, string>();
      let after: string | null = null;
      for (;;) {
        const answer: { blogs: BlogsAnswer } = await this.#ctx.client.request(blogsPage, {
          first: BLOG_PAGE_SIZE,
          after,
        });
        const { blogs } = answer;
        for (const b of blogs.nodes) {
          this.#firstBlog ??= b.id;
          if (!map.has(b.title)) map.set(b.title, b.id);
        }
        if (!blogs.pageInfo.hasNextPage) break;
        after = blogs.pageInfo.endCursor;
      }
      return map;
    })();
    this.#blogs.catch(() => {
      this.#blogs = undefined;
    });
    return this.#blogs;
  }

  /** The blog of a post: by title, else created; '' is the shop's first blog (News if none). */
  async #blogOf(
    title: string,
  ): Promise<{ id: string; created?: AssetRecord } | { failure: string }> {
    const blogs = await this.#blogMap();
    if (title === '' && this.#firstBlog) return { id: this.#firstBlog };
    const wanted = title || DEFAULT_BLOG_TITLE;
    const known = blogs.get(wanted);
    if (known) return { id: known };
    // Posts of one new blog written side by side create it once; the post that created it
    // records it (a term asset, which undo removes).
    let creating = this.#creatingBlogs.get(wanted);
    const mine = !creating;
    if (!creating) {
      creating = this.#createBlog(wanted);
      this.#creatingBlogs.set(wanted, creating);
      void creating.finally(() => this.#creatingBlogs.delete(wanted));
    }
    const made = await creating;
    if ('failure' in made) return made;
    return mine
      ? {
          id: made.id,
          created: {
            kind: 'term',
            key: `${BLOG_TERM}:${wanted}`,
            destinationId: `${BLOG_TERM}:${made.id}`,
          },
        }
      : made;
  }

  async #createBlog(title: string): Promise<{ id: string } | { failure: string }> {
    const blogs = await this.#blogMap();
    const answer = (await this.#ctx.client.request(blogCreate, { blog: { title } })).blogCreate;
    if (!answer?.blog)
      return {
        failure: `Shopify refused the blog ${title}: ${messages(answer?.userErrors ?? [])}`,
      };
    blogs.set(title, answer.blog.id);
    this.#firstBlog ??= answer.blog.id;
    return { id: answer.blog.id };
  }

  async #writePost(p: Post, idMap: IdMap): Promise<WriteOutcome> {
    const built = articleInput(p, { idOf: (entity, id) => idMap.get(entity, id) });
    if ('failure' in built) return { sourceId: p.id, outcome: 'failed', reason: built.failure };
    const author = authorInput(p);
    if ('failure' in author) return { sourceId: p.id, outcome: 'failed', reason: author.failure };
    const blog = await this.#blogOf(p.blog);
    if ('failure' in blog) return { sourceId: p.id, outcome: 'failed', reason: blog.failure };
    const outcome = await this.#writeArticle(p, idMap, built, author, blog.id);
    return blog.created
      ? { ...outcome, assets: [...(outcome.assets ?? []), blog.created] }
      : outcome;
  }

  async #writeArticle(
    p: Post,
    idMap: IdMap,
    built: Exclude<ReturnType<typeof articleInput>, { failure: string }>,
    author: Exclude<ReturnType<typeof authorInput>, { failure: string }>,
    blogId: string,
  ): Promise<WriteOutcome> {
    const blog = { id: blogId };
    const { client } = this.#ctx;
    const all = async (query: string) =>
      (await client.request(articlesSearch, { query })).articles.nodes as Found[];
    const search = async (query: string) => (await all(query))[0];
    const handle = p.slug;
    const blogNumber = blog.id.split('/').pop() ?? blog.id;
    const byTitle = async () =>
      (await all(`blog_id:${blogNumber} AND title:${quote(p.title)}`)).find(
        (n) => n.marker?.value === p.id,
      );
    return this.#write(
      'blog article',
      p.id,
      built,
      idMap.get('posts', p.id),
      (id) => search(`id:${id.split('/').pop() ?? id}`),
      handle ? () => search(`blog_id:${blogNumber} AND handle:${quote(handle)}`) : byTitle,
      handle,
      async (input) => {
        const r = (
          await client.request(
            articleCreate,
            { article: { ...input, blogId: blog.id, author } },
            { idempotent: false },
          )
        ).articleCreate;
        return r && { record: r.article, userErrors: r.userErrors };
      },
      async (id, input) => {
        const r = (
          await client.request(articleUpdate, {
            id,
            article: { ...input, blogId: blog.id, author },
          })
        ).articleUpdate;
        return r && { record: r.article, userErrors: r.userErrors };
      },
      (found) =>
        (found.author as { name: string } | null)?.name === author.name &&
        (found.blog as { id: string } | undefined)?.id === blog.id,
    );
  }
}

/** A token without the content scopes: the record fails with the scope named, the run goes on. */
async function withScope(
  sourceId: string,
  what: string,
  write: () => Promise<WriteOutcome>,
): Promise<WriteOutcome> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ConnectorError && error.code === 'missing_scope')
      return {
        sourceId,
        outcome: 'failed',
        reason: `The ${what} was not written: the app lacks the write_content access scope (grant it to the app and run the migration again).`,
      };
    throw error;
  }
}
