import type { SamplePage, SamplePost } from '../framework/sample-store.ts';
import { ingestImage, type MediaHostPolicy } from './media.ts';
import { checkMetafields, type MetafieldInputValue } from './metafields.ts';
import { matchesSearch, parseSearchQuery, type FieldValues } from './search-query.ts';
import {
  dateTime,
  gid,
  handleize,
  isVisible,
  parseGid,
  shopifyTags,
  type ArticleRec,
  type BlogRec,
  type MediaRec,
  type MetafieldOwnerType,
  type MetafieldRec,
  type PageRec,
  type ShopStore,
} from './store.ts';
import {
  connection,
  countView,
  imageView,
  metafieldFields,
  requireScope,
  type ViewContext,
} from './views.ts';

/**
 * The online store's pages, blogs and articles (Admin GraphQL 2026-10): the `pages`, `blogs` and
 * `articles` connections and counts, `pageCreate` / `pageUpdate`, `blogCreate` and
 * `articleCreate` / `articleUpdate`, with their userErrors. Reading needs `read_content` (or
 * `write_content`), writing `write_content` (the fields' requiredAccess). A page or article is
 * visible when published and its publish date has come; a later date schedules it; hidden ones
 * have no date (Page.publishedAt: "null when the page isn't visible").
 */

type Args = Record<string, unknown>;
type Input = Record<string, unknown>;
type View = Record<string, unknown>;

interface UserError {
  field: string[] | null;
  message: string;
  code: string | null;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function uniqueHandle(taken: (handle: string) => boolean, base: string): string {
  const root = base || 'untitled';
  if (!taken(root)) return root;
  for (let i = 1; ; i++) if (!taken(`${root}-${i}`)) return `${root}-${i}`;
}

// ------------------------------------------------------------------ views

export function pageView(ctx: ViewContext, p: PageRec): View {
  const visible = isVisible(p, ctx.store.now());
  return {
    __typename: 'Page',
    id: gid('Page', p.id),
    handle: p.handle,
    title: p.title,
    body: p.body,
    bodySummary: stripTags(p.body).slice(0, 150),
    isPublished: visible,
    publishedAt: p.publishedAt,
    templateSuffix: p.templateSuffix,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    defaultCursor: Buffer.from(String(p.id)).toString('base64'),
    ...metafieldFields(ctx, 'PAGE', p.metafields),
  };
}

export function blogView(ctx: ViewContext, b: BlogRec): View {
  const articles = () => [...ctx.store.articles.values()].filter((a) => a.blogId === b.id);
  return {
    __typename: 'Blog',
    id: gid('Blog', b.id),
    handle: b.handle,
    title: b.title,
    commentPolicy: b.commentPolicy,
    templateSuffix: b.templateSuffix,
    tags: shopifyTags(articles().flatMap((a) => a.tags)),
    feed: null,
    createdAt: b.createdAt,
    updatedAt: b.updatedAt,
    articles: (args: Args) =>
      connection(
        ctx,
        articles(),
        args,
        (a) => [a.id],
        (a) => articleView(ctx, a),
      ),
    articlesCount: (args: Args) => countView(articles().length, args),
    ...metafieldFields(ctx, 'BLOG', b.metafields),
  };
}

export function articleView(ctx: ViewContext, a: ArticleRec): View {
  const blog = ctx.store.blogs.get(a.blogId);
  return {
    __typename: 'Article',
    id: gid('Article', a.id),
    handle: a.handle,
    title: a.title,
    body: a.body,
    summary: a.summary,
    author: a.authorName === null ? null : { name: a.authorName },
    blog: () => (blog ? blogView(ctx, blog) : null),
    image: () => (a.image ? imageView(ctx, a.image) : null),
    tags: a.tags,
    isPublished: isVisible(a, ctx.store.now()),
    publishedAt: a.publishedAt,
    templateSuffix: a.templateSuffix,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    defaultCursor: Buffer.from(String(a.id)).toString('base64'),
    commentsCount: (args: Args) => countView(0, args),
    ...metafieldFields(ctx, 'ARTICLE', a.metafields),
  };
}

function stripTags(html: string): string {
  return html
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

// ------------------------------------------------------------------ queries

const sortKeys = {
  ID: (r: { id: number }) => r.id,
  TITLE: (r: { title: string }) => r.title.toLowerCase(),
  UPDATED_AT: (r: { updatedAt: string }) => r.updatedAt,
  PUBLISHED_AT: (r: { publishedAt: string | null }) => r.publishedAt ?? '',
} as const;

function sortKeyOf(args: Args): (r: PageRec | ArticleRec | BlogRec) => string | number {
  const key = String(args.sortKey ?? 'ID') as keyof typeof sortKeys;
  const fn = (sortKeys[key] ?? sortKeys.ID) as (r: unknown) => string | number;
  return fn;
}

function publishedValues(r: { publishedAt: string | null }, now: number): string {
  return isVisible(r, now) ? 'published' : 'unpublished';
}

function pageSearchValues(p: PageRec, now: number): FieldValues {
  return (field) => {
    switch (field) {
      case 'id':
        return [p.id];
      case 'handle':
        return [p.handle];
      case 'title':
        return [p.title];
      case 'created_at':
        return [p.createdAt];
      case 'updated_at':
        return [p.updatedAt];
      case 'published_at':
        return [p.publishedAt];
      case 'published_status':
        return [publishedValues(p, now)];
      default:
        return undefined;
    }
  };
}

function articleSearchValues(store: ShopStore, a: ArticleRec): FieldValues {
  return (field) => {
    switch (field) {
      case 'id':
        return [a.id];
      case 'handle':
        return [a.handle];
      case 'title':
        return [a.title];
      case 'blog_id':
        return [a.blogId];
      case 'blog_title':
        return [store.blogs.get(a.blogId)?.title ?? null];
      case 'author':
        return [a.authorName];
      case 'tag':
        return a.tags;
      case 'created_at':
        return [a.createdAt];
      case 'updated_at':
        return [a.updatedAt];
      case 'published_at':
        return [a.publishedAt];
      case 'published_status':
        return [publishedValues(a, store.now())];
      default:
        return undefined;
    }
  };
}

function blogSearchValues(b: BlogRec): FieldValues {
  return (field) => {
    switch (field) {
      case 'id':
        return [b.id];
      case 'handle':
        return [b.handle];
      case 'title':
        return [b.title];
      default:
        return undefined;
    }
  };
}

const idOf = (value: unknown, type: string): number => {
  const parsed = parseGid(value);
  return parsed && parsed.type === type ? parsed.id : -1;
};

/** The QueryRoot fields of pages, blogs and articles. */
export function contentQueries(ctx: ViewContext): Record<string, unknown> {
  const { store } = ctx;
  const read = (field: string) => requireScope(ctx, 'read_content', field);
  const search = (args: Args) =>
    parseSearchQuery(typeof args.query === 'string' ? args.query : null);
  const pages = (args: Args) => {
    const node = search(args);
    return [...store.pages.values()].filter((p) =>
      matchesSearch(node, pageSearchValues(p, store.now()), [p.title, p.handle]),
    );
  };
  const blogs = (args: Args) => {
    const node = search(args);
    return [...store.blogs.values()].filter((b) =>
      matchesSearch(node, blogSearchValues(b), [b.title, b.handle]),
    );
  };
  return {
    pages: (args: Args) => {
      read('pages');
      const key = sortKeyOf(args);
      return connection(
        ctx,
        pages(args),
        args,
        (p) => [key(p), p.id],
        (p) => pageView(ctx, p),
      );
    },
    page: (args: Args) => {
      read('page');
      const p = store.pages.get(idOf(args.id, 'Page'));
      return p ? pageView(ctx, p) : null;
    },
    pagesCount: (args: Args) => {
      read('pagesCount');
      return countView(store.pages.size, args);
    },
    blogs: (args: Args) => {
      read('blogs');
      const key = sortKeyOf(args);
      return connection(
        ctx,
        blogs(args),
        args,
        (b) => [key(b), b.id],
        (b) => blogView(ctx, b),
      );
    },
    blog: (args: Args) => {
      read('blog');
      const b = store.blogs.get(idOf(args.id, 'Blog'));
      return b ? blogView(ctx, b) : null;
    },
    blogsCount: (args: Args) => {
      read('blogsCount');
      return countView(blogs(args).length, args);
    },
    articles: (args: Args) => {
      read('articles');
      const node = search(args);
      const key = sortKeyOf(args);
      const matching = [...store.articles.values()].filter((a) =>
        matchesSearch(node, articleSearchValues(store, a), [a.title, a.handle]),
      );
      return connection(
        ctx,
        matching,
        args,
        (a) => [key(a), a.id],
        (a) => articleView(ctx, a),
      );
    },
    article: (args: Args) => {
      read('article');
      const a = store.articles.get(idOf(args.id, 'Article'));
      return a ? articleView(ctx, a) : null;
    },
  };
}

/** A page, blog or article by its global id (QueryRoot.node), or undefined for another type. */
export function contentNode(ctx: ViewContext, type: string, id: number): unknown {
  switch (type) {
    case 'Page': {
      const p = ctx.store.pages.get(id);
      return p ? pageView(ctx, p) : null;
    }
    case 'Blog': {
      const b = ctx.store.blogs.get(id);
      return b ? blogView(ctx, b) : null;
    }
    case 'Article': {
      const a = ctx.store.articles.get(id);
      return a ? articleView(ctx, a) : null;
    }
    default:
      return undefined;
  }
}

/** The record of a Page, Blog or Article id, for metafieldsSet / metafieldsDelete. */
export function contentOwner(
  store: ShopStore,
  type: string,
  id: number,
): { type: MetafieldOwnerType; owner: { id: number; metafields: MetafieldRec[] } } | undefined {
  const owner =
    type === 'Page'
      ? store.pages.get(id)
      : type === 'Blog'
        ? store.blogs.get(id)
        : type === 'Article'
          ? store.articles.get(id)
          : undefined;
  if (!owner) return undefined;
  return { type: type.toUpperCase() as MetafieldOwnerType, owner };
}

// ------------------------------------------------------------------ mutations

export interface ContentMutationContext extends ViewContext {
  mediaHosts: MediaHostPolicy;
}

/** Validation shared by pages and articles: title, handle, publish date, template, metafields. */
function checkCommon(
  store: ShopStore,
  input: Input,
  existing: { id: number; title: string; handle: string; publishedAt: string | null } | null,
  ownerType: MetafieldOwnerType,
  taken: (handle: string) => boolean,
  errors: UserError[],
): {
  title: string;
  handle: string;
  publishedAt: string | null;
  applyMetafields: (m: MetafieldRec[]) => MetafieldRec[];
} {
  let title = existing?.title ?? '';
  if (!existing || input.title !== undefined) {
    title = str(input.title)?.trim() ?? '';
    if (!title) errors.push({ field: ['title'], message: "Title can't be blank", code: 'BLANK' });
    else if (title.length > 255)
      errors.push({
        field: ['title'],
        message: 'Title is too long (maximum is 255 characters)',
        code: 'TOO_LONG',
      });
  }
  let handle = existing?.handle ?? '';
  if (typeof input.handle === 'string' && input.handle.trim() !== '') {
    handle = handleize(input.handle);
    if (!handle) errors.push({ field: ['handle'], message: 'Handle is invalid', code: 'INVALID' });
    else if (handle !== existing?.handle && taken(handle))
      errors.push({ field: ['handle'], message: 'Handle has already been taken', code: 'TAKEN' });
  } else if (!existing) {
    handle = uniqueHandle(taken, handleize(title));
  }
  let publishedAt = existing?.publishedAt ?? null;
  const date = input.publishDate;
  if (typeof date === 'string' && Number.isNaN(Date.parse(date)))
    errors.push({
      field: ['publishDate'],
      message: 'Publish date is invalid',
      code: 'INVALID_PUBLISH_DATE',
    });
  else if (input.isPublished === false) publishedAt = null;
  else if (typeof date === 'string') publishedAt = dateTime(date);
  else if (input.isPublished === true || !existing)
    publishedAt = existing?.publishedAt ?? store.timestamp();
  const metafields = checkMetafields(
    store,
    ownerType,
    existing?.id ?? null,
    (Array.isArray(input.metafields) ? input.metafields : []) as MetafieldInputValue[],
  );
  for (const p of metafields.problems)
    errors.push({
      field: ['metafields', String(p.index), p.field],
      message: p.message,
      code: p.code === 'INVALID_TYPE' ? 'INVALID_TYPE' : 'INVALID_VALUE',
    });
  return { title, handle, publishedAt, applyMetafields: (m) => metafields.apply(m) };
}

function pageMutation(ctx: ContentMutationContext, args: Args, existing: PageRec | null): View {
  const { store } = ctx;
  const input = (args.page ?? {}) as Input;
  const errors: UserError[] = [];
  const taken = (h: string) => [...store.pages.values()].some((p) => p.handle === h);
  const common = checkCommon(store, input, existing, 'PAGE', taken, errors);
  if (errors.length) return { page: null, userErrors: errors };
  const now = store.timestamp();
  const page: PageRec = existing ?? {
    id: store.nextId(),
    handle: common.handle,
    title: common.title,
    body: '',
    publishedAt: null,
    templateSuffix: null,
    metafields: [],
    createdAt: now,
    updatedAt: now,
  };
  page.title = common.title;
  page.handle = common.handle;
  page.publishedAt = common.publishedAt;
  if (input.body !== undefined) page.body = str(input.body) ?? '';
  if (input.templateSuffix !== undefined) page.templateSuffix = str(input.templateSuffix) || null;
  page.metafields = common.applyMetafields(page.metafields);
  page.updatedAt = now;
  store.pages.set(page.id, page);
  return { page: pageView(ctx, page), userErrors: [] };
}

function pageCreate(ctx: ContentMutationContext, args: Args): View {
  return pageMutation(ctx, args, null);
}

function pageUpdate(ctx: ContentMutationContext, args: Args): View {
  const page = ctx.store.pages.get(idOf(args.id, 'Page'));
  if (!page)
    return {
      page: null,
      userErrors: [{ field: ['id'], message: 'Page does not exist', code: 'NOT_FOUND' }],
    };
  return pageMutation(ctx, args, page);
}

/** A new blog (blogCreate, or articleCreate's `blog` input); the caller checked the title. */
export function addBlog(store: ShopStore, title: string, handle?: string): BlogRec {
  const taken = (h: string) => [...store.blogs.values()].some((b) => b.handle === h);
  const now = store.timestamp();
  const blog: BlogRec = {
    id: store.nextId(),
    handle: handle ?? uniqueHandle(taken, handleize(title)),
    title,
    commentPolicy: 'CLOSED',
    templateSuffix: null,
    metafields: [],
    createdAt: now,
    updatedAt: now,
  };
  store.blogs.set(blog.id, blog);
  return blog;
}

function blogCreate(ctx: ContentMutationContext, args: Args): View {
  const { store } = ctx;
  const input = (args.blog ?? {}) as Input;
  const errors: UserError[] = [];
  const title = str(input.title)?.trim() ?? '';
  if (!title) errors.push({ field: ['title'], message: "Title can't be blank", code: 'BLANK' });
  const taken = (h: string) => [...store.blogs.values()].some((b) => b.handle === h);
  let handle: string | undefined;
  if (typeof input.handle === 'string' && input.handle.trim() !== '') {
    handle = handleize(input.handle);
    if (taken(handle))
      errors.push({ field: ['handle'], message: 'Handle has already been taken', code: 'TAKEN' });
  }
  const metafields = checkMetafields(
    store,
    'BLOG',
    null,
    (Array.isArray(input.metafields) ? input.metafields : []) as MetafieldInputValue[],
  );
  for (const p of metafields.problems)
    errors.push({
      field: ['metafields', String(p.index), p.field],
      message: p.message,
      code: 'INVALID',
    });
  if (errors.length) return { blog: null, userErrors: errors };
  const blog = addBlog(store, title, handle);
  if (typeof input.commentPolicy === 'string')
    blog.commentPolicy = input.commentPolicy as BlogRec['commentPolicy'];
  blog.templateSuffix = str(input.templateSuffix) || null;
  blog.metafields = metafields.apply([]);
  return { blog: blogView(ctx, blog), userErrors: [] };
}

async function articleMutation(
  ctx: ContentMutationContext,
  args: Args,
  existing: ArticleRec | null,
): Promise<View> {
  const { store } = ctx;
  const input = (args.article ?? {}) as Input;
  const blogInput = args.blog as Input | null | undefined;
  const errors: UserError[] = [];
  // The blog: an existing one by id, or a new one by title (not both).
  let blogId = existing?.blogId ?? null;
  let newBlogTitle: string | null = null;
  if (input.blogId !== undefined && input.blogId !== null && blogInput)
    errors.push({
      field: ['blog'],
      message: 'Provide either a blog id or a new blog, not both',
      code: 'AMBIGUOUS_BLOG',
    });
  else if (input.blogId !== undefined && input.blogId !== null) {
    const id = idOf(input.blogId, 'Blog');
    if (!store.blogs.has(id))
      errors.push({ field: ['blogId'], message: 'Blog does not exist', code: 'NOT_FOUND' });
    else blogId = id;
  } else if (blogInput) {
    newBlogTitle = str(blogInput.title)?.trim() ?? '';
    if (!newBlogTitle)
      errors.push({ field: ['blog', 'title'], message: "Title can't be blank", code: 'BLANK' });
  } else if (!existing)
    errors.push({
      field: ['blogId'],
      message: 'A blog id or a new blog is required',
      code: 'BLOG_REFERENCE_REQUIRED',
    });
  // The author: a name or a staff member (this emulator has no staff, so a name).
  let authorName = existing?.authorName ?? null;
  const author = input.author as Input | null | undefined;
  if (author !== undefined) {
    if (author?.name !== undefined && author?.name !== null && author?.userId)
      errors.push({
        field: ['author'],
        message: 'Provide either an author name or a user id, not both',
        code: 'AMBIGUOUS_AUTHOR',
      });
    else if (author?.userId)
      errors.push({
        field: ['author', 'userId'],
        message: 'Author must exist',
        code: 'AUTHOR_MUST_EXIST',
      });
    else if (!str(author?.name)?.trim())
      errors.push({
        field: ['author'],
        message: 'An author name or user id is required',
        code: 'AUTHOR_FIELD_REQUIRED',
      });
    else authorName = String(author?.name).trim();
  }
  const inBlog = (h: string) =>
    [...store.articles.values()].some(
      (a) => a.blogId === blogId && a.handle === h && a !== existing,
    );
  const common = checkCommon(store, input, existing, 'ARTICLE', inBlog, errors);
  const image = input.image as Input | null | undefined;
  if (image && !str(image.url))
    errors.push({ field: ['image', 'url'], message: 'Image url is required', code: 'BLANK' });
  if (errors.length) return { article: null, userErrors: errors };

  let media: MediaRec | null | undefined;
  if (image) {
    media = await ingestImage(
      store,
      String(image.url),
      str(image.altText) ?? '',
      ctx.mediaHosts,
      false,
    );
    if (media.status === 'FAILED')
      return {
        article: null,
        userErrors: [
          {
            field: ['image', 'url'],
            message: `Image could not be downloaded from ${String(image.url)}`,
            code: 'UPLOAD_FAILED',
          },
        ],
      };
  } else if (image === null) media = null;
  if (newBlogTitle !== null) blogId = addBlog(store, newBlogTitle).id;
  const now = store.timestamp();
  const article: ArticleRec = existing ?? {
    id: store.nextId(),
    blogId: blogId ?? 0,
    handle: '',
    title: '',
    body: '',
    summary: null,
    authorName: null,
    image: null,
    tags: [],
    publishedAt: null,
    templateSuffix: null,
    metafields: [],
    createdAt: now,
    updatedAt: now,
  };
  article.blogId = blogId ?? article.blogId;
  article.title = common.title;
  article.handle = common.handle;
  article.publishedAt = common.publishedAt;
  article.authorName = authorName;
  if (input.body !== undefined) article.body = str(input.body) ?? '';
  if (input.summary !== undefined) article.summary = str(input.summary) || null;
  if (input.tags !== undefined) article.tags = shopifyTags(input.tags);
  if (input.templateSuffix !== undefined)
    article.templateSuffix = str(input.templateSuffix) || null;
  if (media !== undefined) article.image = media;
  article.metafields = common.applyMetafields(article.metafields);
  article.updatedAt = now;
  store.articles.set(article.id, article);
  return { article: articleView(ctx, article), userErrors: [] };
}

function articleUpdate(ctx: ContentMutationContext, args: Args): Promise<View> | View {
  const article = ctx.store.articles.get(idOf(args.id, 'Article'));
  if (!article)
    return {
      article: null,
      userErrors: [{ field: ['id'], message: 'Article does not exist', code: 'NOT_FOUND' }],
    };
  return articleMutation(ctx, args, article);
}

/** The Mutation fields of pages, blogs and articles (each needs write_content). */
export function contentMutations(
  ctx: ContentMutationContext,
): Record<string, (args: Args) => unknown> {
  return {
    pageCreate: (args) => pageCreate(ctx, args),
    pageUpdate: (args) => pageUpdate(ctx, args),
    blogCreate: (args) => blogCreate(ctx, args),
    articleCreate: (args) => articleMutation(ctx, args, null),
    articleUpdate: (args) => articleUpdate(ctx, args),
  };
}

export const contentMutationScopes: Record<string, string> = {
  pageCreate: 'write_content',
  pageUpdate: 'write_content',
  blogCreate: 'write_content',
  articleCreate: 'write_content',
  articleUpdate: 'write_content',
};

// ------------------------------------------------------------------ seed

/**
 * The sample store's pages (Shopify pages have no parent, position, author, excerpt or image:
 * those are left out) and its posts as articles of one blog, "News" (their categories have no
 * place in Shopify and are left out; tags stay). SEO titles and descriptions are the
 * global.title_tag / global.description_tag metafields, as the admin keeps them.
 */
export function seedContent(
  store: ShopStore,
  pages: SamplePage[],
  posts: SamplePost[],
  image: (path: string, alt: string, at: string) => MediaRec,
): void {
  const seo = (s: { seoTitle: string; seoDescription: string }, at: string): MetafieldRec[] => {
    const out: MetafieldRec[] = [];
    const add = (key: string, value: string) => {
      if (value)
        out.push({
          id: store.nextId(),
          namespace: 'global',
          key,
          type: 'single_line_text_field',
          value,
          createdAt: at,
          updatedAt: at,
        });
    };
    add('title_tag', s.seoTitle);
    add('description_tag', s.seoDescription);
    return out;
  };
  // A theme template on the contact page and the first article, as merchants give them.
  const template = (key: string) => (key === 'page-contact' ? 'contact' : null);
  for (const p of pages) {
    const taken = (h: string) => [...store.pages.values()].some((x) => x.handle === h);
    const page: PageRec = {
      id: store.nextId(),
      handle: uniqueHandle(taken, handleize(p.slug)),
      title: p.title,
      body: p.body,
      publishedAt: p.status === 'published' ? dateTime(p.publishedAt ?? p.createdAt) : null,
      templateSuffix: template(p.key),
      metafields: seo(p, p.createdAt),
      createdAt: dateTime(p.createdAt),
      updatedAt: dateTime(p.updatedAt),
    };
    store.pages.set(page.id, page);
  }
  if (posts.length === 0) return;
  const blog = addBlog(store, 'News');
  for (const p of posts) {
    const taken = (h: string) =>
      [...store.articles.values()].some((x) => x.blogId === blog.id && x.handle === h);
    const article: ArticleRec = {
      id: store.nextId(),
      blogId: blog.id,
      handle: uniqueHandle(taken, handleize(p.slug)),
      title: p.title,
      body: p.body,
      summary: p.excerpt || null,
      authorName: p.authorName || null,
      image: p.imagePath ? image(p.imagePath, p.imageAlt, p.createdAt) : null,
      tags: shopifyTags(p.tags),
      publishedAt: p.status === 'published' ? dateTime(p.publishedAt ?? p.createdAt) : null,
      templateSuffix: store.articles.size === 0 ? 'featured' : null,
      metafields: seo(p, p.createdAt),
      createdAt: dateTime(p.createdAt),
      updatedAt: dateTime(p.updatedAt),
    };
    store.articles.set(article.id, article);
  }
}
