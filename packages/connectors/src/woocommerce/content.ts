import { z } from 'zod';
import type { Page as CanonicalPage, Post, ContentStatus } from '@replatform/canonical/content';
import { pageDefaults, postDefaults } from '@replatform/canonical/defaults';
import type { AssetRecord, Checkpoint, IdMap, Page, WriteOutcome } from '../kit/contract.ts';
import { ConnectorError, isTransient } from '../kit/errors.ts';
import { missingWordPressPassword, type WooClient } from './client.ts';
import { nextCheckpoint, pageOf } from './read.ts';
import { decodeEntities } from './slugs.ts';
import { termAsset } from './terms.ts';

/**
 * A WooCommerce store's web pages and blog posts, which are WordPress's (wp/v2: pages, posts,
 * media, categories, tags, users), opened by a WordPress user's application password, never by
 * WooCommerce's keys. Read with `context=edit` in every status a page or post can have
 * (publish, future, draft, pending, private: the bin is not read), so drafts and the raw HTML
 * (block comments included) come as the store keeps them.
 *
 * WordPress keeps no meta data of its own that wp/v2 lets a client write (only keys a plugin
 * registers), so nothing on the store says a page was written by a migration: a page or post is
 * found by the id map, else by its slug among pages (under the same parent) or posts in any
 * status. One found by slug that this connection sent unanswered is ours (a lost answer); any
 * other is the merchant's: linked, never changed.
 */

export type ContentEntity = 'pages' | 'posts';
const wpStatuses = 'publish,future,draft,pending,private';
export const contentPageSize = 100;
/** Attempts at a create that gets no answer, looking for what the store made in between. */
const createAttempts = 6;

const text = z.looseObject({ raw: z.string().optional(), rendered: z.string().optional() });
export const wpPostSchema = z.looseObject({
  id: z.number(),
  date_gmt: z.string().nullable().optional(),
  modified_gmt: z.string().nullable().optional(),
  slug: z.string(),
  status: z.string(),
  link: z.string(),
  title: text,
  content: text,
  excerpt: text,
  author: z.number().catch(0),
  featured_media: z.number().catch(0),
  parent: z.number().optional(),
  menu_order: z.number().optional(),
  password: z.string().optional(),
  categories: z.array(z.number()).optional(),
  tags: z.array(z.number()).optional(),
  template: z.string().optional(),
  comment_status: z.string().optional(),
  ping_status: z.string().optional(),
  sticky: z.boolean().optional(),
  format: z.string().optional(),
  meta: z.unknown().optional(),
});
export type WpPost = z.infer<typeof wpPostSchema>;

const wpTermSchema = z.looseObject({
  id: z.number(),
  name: z.string(),
  slug: z.string(),
  parent: z.number().optional(),
});
const wpUserSchema = z.looseObject({ id: z.number(), name: z.string() });

/** How a nested post category is named in the model: its path from the top. */
const categoryPathSeparator = ' > ';
const wpMediaSchema = z.looseObject({
  id: z.number(),
  source_url: z.string(),
  alt_text: z.string().catch(''),
});

const toStatus: Record<string, ContentStatus> = {
  publish: 'published',
  future: 'scheduled',
  draft: 'draft',
  pending: 'pending',
  private: 'private',
};
const fromStatus: Record<ContentStatus, string> = {
  published: 'publish',
  scheduled: 'future',
  draft: 'draft',
  pending: 'pending',
  private: 'private',
};

const gmt = (value: string | null | undefined) =>
  value ? `${value.replace(' ', 'T').slice(0, 19)}Z` : null;

/** What a read page or post lost: the native field and why (Page.losses). */
interface Loss {
  field: string;
  reason: string;
}

export const contentLossReasons = {
  password:
    'Protected by a password, which the model cannot carry and a migration never moves unseen: read as private (shown to the staff only) so it does not become public at the destination; protect it with a password there again.',
  template:
    "The page template is the theme's own (a file of the source's theme); the model keeps no template.",
  comment_status: 'Whether comments are open is not in the model (WordPress discussion setting).',
  ping_status: 'Whether pingbacks are accepted is not in the model (WordPress discussion setting).',
  sticky: 'A sticky post (kept at the top of the blog) has no place in the model.',
  format: 'A post format other than standard (aside, gallery, quote…) has no place in the model.',
} as const;

/** Names and ids of the store's categories, tags and users, and its media by id. */
export interface ContentLookups {
  users: Map<number, string>;
  categories: Map<number, string>;
  tags: Map<number, string>;
  media: Map<number, { url: string; alt: string }>;
}

/** A page or post of wp/v2 in the model; a password-protected one is read as private. */
export function contentToCanonical(
  entity: ContentEntity,
  wp: WpPost,
  lookups: ContentLookups,
): { ok: true; record: CanonicalPage | Post; losses: Loss[] } | { ok: false; reason: string } {
  const status = toStatus[wp.status];
  if (!status) return { ok: false, reason: `WordPress status '${wp.status}' has no model form.` };
  const losses: Loss[] = [];
  const lose = (field: keyof typeof contentLossReasons) =>
    losses.push({ field, reason: contentLossReasons[field] });
  const isProtected = Boolean(wp.password);
  if (isProtected) lose('password');
  if (wp.template) lose('template');
  const defaultDiscussion = entity === 'posts' ? 'open' : 'closed';
  if (wp.comment_status && wp.comment_status !== defaultDiscussion) lose('comment_status');
  if (wp.ping_status && wp.ping_status !== defaultDiscussion) lose('ping_status');
  if (wp.sticky) lose('sticky');
  if (wp.format && wp.format !== 'standard') lose('format');
  const published = status === 'published' || status === 'scheduled' || status === 'private';
  const media = wp.featured_media ? lookups.media.get(wp.featured_media) : undefined;
  const pretty =
    (status === 'published' || status === 'private') && !/[?&](p|page_id)=/.test(wp.link);
  const common = {
    id: String(wp.id),
    title: wp.title.raw ?? decodeEntities(wp.title.rendered ?? ''),
    slug: wp.slug,
    body: wp.content.raw ?? '',
    excerpt: wp.excerpt.raw ?? '',
    status: isProtected && status === 'published' ? ('private' as const) : status,
    // A draft's date is the day it was started (WordPress fills it): no publication date, but
    // its creation date.
    publishedAt: published ? gmt(wp.date_gmt) : null,
    createdAt: published ? null : gmt(wp.date_gmt),
    updatedAt: gmt(wp.modified_gmt),
    authorName: lookups.users.get(wp.author) ?? '',
    featuredImageUrl: media?.url ?? null,
    featuredImageAlt: media?.alt ?? '',
    seoTitle: '',
    seoDescription: '',
    seoKeywords: [],
    metafields: [],
    sourceUrlPath: pretty && URL.canParse(wp.link) ? decodeURI(new URL(wp.link).pathname) : null,
  };
  if (entity === 'pages') {
    const page: CanonicalPage = {
      ...pageDefaults(),
      ...common,
      parentId: wp.parent ? String(wp.parent) : null,
      position: Math.max(0, wp.menu_order ?? 0),
    };
    return { ok: true, record: page, losses };
  }
  const names = (ids: number[] | undefined, map: Map<number, string>) =>
    (ids ?? []).map((id) => map.get(id)).filter((n): n is string => Boolean(n));
  const post: Post = {
    ...postDefaults(),
    ...common,
    blog: '',
    categories: names(wp.categories, lookups.categories),
    tags: names(wp.tags, lookups.tags),
  };
  return { ok: true, record: post, losses };
}

const route = (entity: ContentEntity) => `/wp-json/wp/v2/${entity}`;

/** Reads, counts and writes pages and posts through wp/v2 for one connection. */
export class ContentAccess {
  private readonly client: WooClient;
  private users: Promise<Map<number, string>> | undefined;
  private terms: Partial<Record<'categories' | 'tags', Map<number, string>>> = {};
  /** Featured images stored by this connection: source URL -> media id. */
  private readonly images = new Map<string, number>();
  /** Source ids of pages and posts whose create this connection sent without an answer. */
  readonly unanswered: Record<ContentEntity, Set<string>> = {
    pages: new Set(),
    posts: new Set(),
  };
  /** Destination ids this connection created. */
  private readonly created = new Set<number>();
  /** Pages this connection wrote: source id -> destination id (parents within one write). */
  private readonly written = new Map<string, string>();

  /**
   * False when the owner chose not to keep the source's slugs: pages and posts come without one,
   * WordPress makes it from the title, and what an earlier run wrote is found by the id map, else
   * by its title (under the same parent), never by slug.
   */
  slugsKept = true;

  constructor(client: WooClient) {
    this.client = client;
  }

  /** Forgets the categories and tags listed (undo deleted some): the next write lists again. */
  forgetTerms(): void {
    this.terms = {};
  }

  private ensurePassword(): void {
    if (!this.client.hasWordPressPassword) throw missingWordPressPassword();
  }

  async count(entity: ContentEntity): Promise<number> {
    this.ensurePassword();
    const { total } = await this.client.page(
      route(entity),
      { context: 'edit', status: wpStatuses, per_page: 1, page: 1, _fields: 'id' },
      z.unknown(),
    );
    return total;
  }

  private async allPages<T>(
    path: string,
    query: Record<string, string | number>,
    schema: z.ZodType<T>,
  ) {
    const out: T[] = [];
    for (let page = 1; ; page++) {
      const { items, totalPages } = await this.client.page(
        path,
        { ...query, per_page: contentPageSize, page },
        schema,
      );
      out.push(...items);
      if (page >= totalPages || items.length === 0) return out;
    }
  }

  private loadUsers(): Promise<Map<number, string>> {
    this.users ??= this.allPages('/wp-json/wp/v2/users', { context: 'edit' }, wpUserSchema)
      .then((list) => new Map(list.map((u) => [u.id, decodeEntities(u.name)])))
      .catch((error: unknown) => {
        this.users = undefined;
        throw error;
      });
    return this.users;
  }

  /**
   * The store's categories or tags by id: a tag by its name, a category by its path from the top
   * ('Guides > Linen'), so a nested category keeps its parent through the model.
   */
  private async loadTerms(kind: 'categories' | 'tags', refresh = false) {
    if (!refresh && this.terms[kind]) return this.terms[kind];
    const list = await this.allPages(`/wp-json/wp/v2/${kind}`, { context: 'edit' }, wpTermSchema);
    const byId = new Map(list.map((t) => [t.id, t]));
    const pathOf = (id: number, seen = new Set<number>()): string => {
      const term = byId.get(id);
      if (!term) return '';
      const name = decodeEntities(term.name);
      const parent = term.parent ?? 0;
      if (kind === 'tags' || parent === 0 || seen.has(id) || !byId.has(parent)) return name;
      return `${pathOf(parent, seen.add(id))}${categoryPathSeparator}${name}`;
    };
    const map = new Map(list.map((t) => [t.id, pathOf(t.id)]));
    this.terms[kind] = map;
    return map;
  }

  private async loadMedia(ids: number[]): Promise<ContentLookups['media']> {
    const media: ContentLookups['media'] = new Map();
    const wanted = [...new Set(ids.filter((id) => id > 0))];
    for (let i = 0; i < wanted.length; i += contentPageSize) {
      const chunk = wanted.slice(i, i + contentPageSize);
      const { items } = await this.client.page(
        '/wp-json/wp/v2/media',
        { context: 'edit', include: chunk.join(','), per_page: contentPageSize, page: 1 },
        wpMediaSchema,
      );
      for (const m of items) media.set(m.id, { url: m.source_url, alt: m.alt_text });
    }
    return media;
  }

  /** Pages and posts in pages of 100 with checkpoints; pages are few and read in id order too. */
  async *read<E extends ContentEntity>(
    entity: E,
    checkpoint: Checkpoint | null,
  ): AsyncGenerator<Page<E>> {
    this.ensurePassword();
    let page = pageOf(checkpoint);
    for (;;) {
      const { items, totalPages } = await this.client.page(
        route(entity),
        {
          context: 'edit',
          status: wpStatuses,
          orderby: 'id',
          order: 'asc',
          per_page: contentPageSize,
          page,
        },
        wpPostSchema,
      );
      const lookups: ContentLookups = {
        users: await this.loadUsers(),
        categories: entity === 'posts' ? await this.loadTerms('categories') : new Map(),
        tags: entity === 'posts' ? await this.loadTerms('tags') : new Map(),
        media: await this.loadMedia(items.map((p) => p.featured_media)),
      };
      const records: (CanonicalPage | Post)[] = [];
      const rejected: { sourceId: string; reason: string }[] = [];
      const losses: { sourceId: string; field: string; reason: string }[] = [];
      for (const item of items) {
        const result = contentToCanonical(entity, item, lookups);
        if (!result.ok) rejected.push({ sourceId: String(item.id), reason: result.reason });
        else {
          records.push(result.record);
          for (const loss of result.losses) losses.push({ sourceId: String(item.id), ...loss });
        }
      }
      const next = nextCheckpoint(page, totalPages);
      yield {
        records,
        next,
        ...(rejected.length ? { rejected } : {}),
        ...(losses.length ? { losses } : {}),
      } as unknown as Page<E>;
      if (!next) return;
      page++;
    }
  }

  /** Reads pages or posts by their ids (verification). */
  async readByIds(
    entity: ContentEntity,
    ids: readonly string[],
  ): Promise<(CanonicalPage | Post)[]> {
    this.ensurePassword();
    const out: (CanonicalPage | Post)[] = [];
    for (let i = 0; i < ids.length; i += contentPageSize) {
      const chunk = ids.slice(i, i + contentPageSize);
      const { items } = await this.client.page(
        route(entity),
        {
          context: 'edit',
          status: wpStatuses,
          include: chunk.join(','),
          per_page: contentPageSize,
          page: 1,
        },
        wpPostSchema,
      );
      const lookups: ContentLookups = {
        users: await this.loadUsers(),
        categories: entity === 'posts' ? await this.loadTerms('categories') : new Map(),
        tags: entity === 'posts' ? await this.loadTerms('tags') : new Map(),
        media: await this.loadMedia(items.map((p) => p.featured_media)),
      };
      for (const item of items) {
        const result = contentToCanonical(entity, item, lookups);
        if (result.ok) out.push(result.record);
      }
    }
    return out;
  }

  // -------------------------------------------------------------------------------------------
  // writing

  /** The store's pages or posts with these ids and slugs, in every status. */
  /**
   * A draft or pending record of this exact title that has no slug yet, if the store has one; when
   * slugs are not kept, a record of this exact title (and parent) in any status, whatever its slug.
   */
  private async slugless(
    entity: ContentEntity,
    title: string,
    parent: number,
  ): Promise<WpPost | undefined> {
    const { items } = await this.client.page(
      route(entity),
      {
        context: 'edit',
        status: this.slugsKept ? 'draft,pending' : wpStatuses,
        search: title,
        per_page: contentPageSize,
        page: 1,
      },
      wpPostSchema,
    );
    return items
      .sort((a, b) => a.id - b.id)
      .find(
        (p) =>
          (p.title.raw ?? '') === title &&
          (this.slugsKept ? p.slug === '' : entity === 'posts' || (p.parent ?? 0) === parent),
      );
  }

  private async existing(
    entity: ContentEntity,
    query: { include?: number[]; slug?: string[] },
  ): Promise<WpPost[]> {
    const list = query.include ?? query.slug ?? [];
    if (list.length === 0) return [];
    const out: WpPost[] = [];
    for (let i = 0; i < list.length; i += contentPageSize) {
      const chunk = list.slice(i, i + contentPageSize);
      const { items } = await this.client.page(
        route(entity),
        {
          context: 'edit',
          status: wpStatuses,
          per_page: contentPageSize,
          page: 1,
          ...(query.include ? { include: chunk.join(',') } : { slug: chunk.join(',') }),
        },
        wpPostSchema,
      );
      out.push(...items);
    }
    return out;
  }

  /**
   * The id of a tag of this name, or of a category of this path ('Guides > Linen'), made when the
   * store has none (a category's parents first).
   */
  private async termId(
    kind: 'categories' | 'tags',
    name: string,
    created: AssetRecord[],
  ): Promise<number> {
    const find = (map: Map<number, string>) =>
      [...map].find(
        ([, n]) => n.normalize('NFC').toLowerCase() === name.normalize('NFC').toLowerCase(),
      )?.[0];
    const known = find(await this.loadTerms(kind));
    if (known !== undefined) return known;
    const path = kind === 'categories' ? name.split(categoryPathSeparator) : [name];
    const own = path[path.length - 1] ?? name;
    const parent =
      path.length > 1
        ? await this.termId(kind, path.slice(0, -1).join(categoryPathSeparator), created)
        : undefined;
    for (let attempt = 1; ; attempt++) {
      try {
        const { data } = await this.client.request('POST', `/wp-json/wp/v2/${kind}`, {
          body: { name: own, ...(parent === undefined ? {} : { parent }) },
          schema: wpTermSchema,
        });
        this.terms[kind]?.set(data.id, name);
        // Made by this write: undo removes it with the post (removeAssets).
        const taxonomy = kind === 'categories' ? 'category' : 'post_tag';
        created.push(termAsset(taxonomy, name, String(data.id)));
        return data.id;
      } catch (error) {
        // Made meanwhile (term_exists), or by a create whose answer was lost: the list has it now.
        const again = find(await this.loadTerms(kind, true));
        if (again !== undefined) return again;
        if (!isTransient(error) || attempt >= createAttempts) throw error;
        await this.client.pause(attempt);
      }
    }
  }

  /** The WordPress user of the author's name, when the store has one. */
  private async authorId(name: string): Promise<number | undefined> {
    if (!name) return undefined;
    const users = await this.loadUsers();
    return [...users].find(([, n]) => n === name)?.[0];
  }

  /**
   * Copies a featured image into the media library (once per address per connection): the store
   * downloads it from the source's address itself (POST wp/v2/media with `url`, WordPress 7.1),
   * as WooCommerce does for product images. WordPress does not apply an alt_text sent with `url`,
   * so the alternative text is set by a second request.
   */
  private async featuredMedia(
    url: string,
    alt: string,
    idMap: IdMap,
  ): Promise<{ id: number } | { error: string }> {
    const mine = this.images.get(url);
    if (mine !== undefined) return { id: mine };
    const mapped = idMap.asset?.('image', url);
    if (mapped !== undefined && Number(mapped) > 0) return { id: Number(mapped) };
    let id: number;
    try {
      const { data } = await this.client.request('POST', '/wp-json/wp/v2/media', {
        body: { url },
        schema: wpMediaSchema,
      });
      id = data.id;
    } catch (error) {
      if (error instanceof ConnectorError && error.errorClass === 'config') throw error;
      return { error: `The store could not copy the featured image ${url}: ${messageOf(error)}` };
    }
    this.images.set(url, id);
    if (alt)
      await this.client.request('POST', `/wp-json/wp/v2/media/${id}`, {
        body: { alt_text: alt },
        schema: wpMediaSchema,
        retryable: true,
      });
    return { id };
  }

  /** What wp/v2 is sent for a page or post, and what it could not take. */
  private async body(
    entity: ContentEntity,
    record: CanonicalPage | Post,
    idMap: IdMap,
    warnings: string[],
    assets: { key: string; destinationId: string }[],
    /** Leaves a new featured image to after the create (see writeOne). */
    imageLater = false,
    /** Post categories and tags this write creates. */
    createdTerms: AssetRecord[] = [],
  ): Promise<{ body: Record<string, unknown>; incomplete: boolean }> {
    const body: Record<string, unknown> = {
      title: record.title,
      // Without one (a draft's, or the owner chose not to keep slugs) WordPress makes it from the
      // title when the record is published.
      ...(record.slug ? { slug: record.slug } : {}),
      content: record.body,
      excerpt: record.excerpt,
      status: fromStatus[record.status],
    };
    if (record.publishedAt && record.status !== 'draft' && record.status !== 'pending')
      body.date_gmt = new Date(record.publishedAt).toISOString().slice(0, 19);
    // A draft keeps the day it was started as its date, as WordPress gives a draft one.
    else if (record.createdAt && (record.status === 'draft' || record.status === 'pending'))
      body.date_gmt = new Date(record.createdAt).toISOString().slice(0, 19);
    if (
      record.status === 'scheduled' &&
      record.publishedAt &&
      Date.parse(record.publishedAt) <= Date.now()
    )
      warnings.push(
        'Scheduled for a date already past: WordPress publishes it at once (status publish).',
      );
    const author = await this.authorId(record.authorName);
    if (author !== undefined) body.author = author;
    else if (record.authorName)
      warnings.push(
        `The store has no WordPress user named '${record.authorName}': written as the connected user's.`,
      );
    let incomplete = false;
    if (record.featuredImageUrl && imageLater) {
      // Set once the page exists.
    } else if (record.featuredImageUrl) {
      const media = await this.featuredMedia(
        record.featuredImageUrl,
        record.featuredImageAlt,
        idMap,
      );
      if ('id' in media) {
        body.featured_media = media.id;
        assets.push({ key: record.featuredImageUrl, destinationId: String(media.id) });
      } else {
        warnings.push(media.error);
        incomplete = true;
      }
    } else body.featured_media = 0;
    if (entity === 'pages') {
      const page = record as CanonicalPage;
      body.menu_order = page.position;
      if (page.parentId) {
        const parent = idMap.get('pages', page.parentId) ?? this.written.get(page.parentId);
        if (parent) body.parent = Number(parent);
        else {
          body.parent = 0;
          warnings.push(`Parent page ${page.parentId} was not migrated: written as a top page.`);
          incomplete = true;
        }
      } else body.parent = 0;
    } else {
      const post = record as Post;
      body.categories = await Promise.all(
        post.categories.map((n) => this.termId('categories', n, createdTerms)),
      );
      body.tags = await Promise.all(post.tags.map((n) => this.termId('tags', n, createdTerms)));
    }
    return { body, incomplete };
  }

  async write(
    entity: ContentEntity,
    records: (CanonicalPage | Post)[],
    idMap: IdMap,
  ): Promise<WriteOutcome[]> {
    this.ensurePassword();
    const mapped = new Map<string, number>();
    for (const r of records) {
      const id = idMap.get(entity, r.id);
      if (id && Number(id) > 0) mapped.set(r.id, Number(id));
    }
    const byId = new Map(
      (await this.existing(entity, { include: [...new Set(mapped.values())] })).map((p) => [
        p.id,
        p,
      ]),
    );
    const slugs = records
      .filter((r) => !byId.has(mapped.get(r.id) ?? 0) && r.slug)
      .map((r) => r.slug);
    const bySlug = await this.existing(entity, { slug: [...new Set(slugs)] });

    // Parents before their children when both are in this write.
    const outcomes = new Map<string, WriteOutcome>();
    for (const record of parentsFirst(records)) {
      let outcome: WriteOutcome;
      try {
        outcome = await this.writeOne(entity, record, idMap, mapped, byId, bySlug);
      } catch (error) {
        if (error instanceof ConnectorError && error.errorClass !== 'system') throw error;
        outcome = { sourceId: record.id, outcome: 'failed', reason: messageOf(error) };
      }
      if (entity === 'pages' && outcome.destinationId)
        this.written.set(record.id, outcome.destinationId);
      outcomes.set(record.id, outcome);
    }
    return records.map((r) => outcomes.get(r.id) as WriteOutcome);
  }

  private async writeOne(
    entity: ContentEntity,
    record: CanonicalPage | Post,
    idMap: IdMap,
    mapped: Map<string, number>,
    byId: Map<number, WpPost>,
    bySlug: WpPost[],
  ): Promise<WriteOutcome> {
    const what = entity === 'pages' ? 'page' : 'post';
    let target = byId.get(mapped.get(record.id) ?? 0);
    let found = false;
    const parent =
      entity === 'pages' && (record as CanonicalPage).parentId
        ? Number(
            idMap.get('pages', (record as CanonicalPage).parentId ?? '') ??
              this.written.get((record as CanonicalPage).parentId ?? '') ??
              -1,
          )
        : 0;
    if (!target && record.slug) {
      target = bySlug.find(
        (p) => p.slug === record.slug && (entity === 'posts' || (p.parent ?? 0) === parent),
      );
      found = target !== undefined;
    } else if (!target && record.title) {
      // A draft WordPress has given no slug yet is found by its title among such drafts; when
      // slugs are not kept, any record of the title (WordPress made its slug).
      target = await this.slugless(entity, record.title, parent);
      found = target !== undefined;
    }
    if (target && found && !this.unanswered[entity].has(record.id) && !this.created.has(target.id))
      return {
        sourceId: record.id,
        outcome: 'skipped',
        destinationId: String(target.id),
        linked: true,
        reason: record.slug
          ? `The store already has a ${what} with the slug '${record.slug}' (id ${target.id}) that this migration did not write: it is the merchant's own and was linked, not changed.`
          : `The store already has a ${what} titled '${record.title}' (id ${target.id}) that this migration did not write: it is the merchant's own and was linked, not changed.`,
      };
    const warnings: string[] = [];
    const assets: { key: string; destinationId: string }[] = [];
    // WordPress keeps a page's slug unique among pages and media files alike: an image stored
    // first under the page's own slug ('contact.png' -> 'contact') would push a new page to
    // 'contact-2'. So a new page gets a featured image not stored yet after it exists.
    const imageLater =
      !target &&
      entity === 'pages' &&
      record.featuredImageUrl !== null &&
      !this.images.has(record.featuredImageUrl) &&
      !(Number(idMap.asset?.('image', record.featuredImageUrl)) > 0);
    const createdTerms: AssetRecord[] = [];
    const { body, incomplete: partial } = await this.body(
      entity,
      record,
      idMap,
      warnings,
      assets,
      imageLater,
      createdTerms,
    );
    let incomplete = partial;
    const assetRecords: AssetRecord[] = [
      ...assets.map((a) => ({ kind: 'image' as const, ...a })),
      ...createdTerms,
    ];
    const extras: Pick<WriteOutcome, 'warnings' | 'incomplete' | 'assets'> = {
      ...(warnings.length ? { warnings } : {}),
      ...(incomplete ? { incomplete: true } : {}),
      ...(assetRecords.length ? { assets: assetRecords } : {}),
    };
    if (target) {
      const lost = this.unanswered[entity].delete(record.id);
      if (sameContent(target, body))
        return {
          sourceId: record.id,
          outcome: lost ? 'created' : 'skipped',
          destinationId: String(target.id),
          ...(lost ? {} : { reason: 'Already up to date.' }),
          ...extras,
        };
      const { data } = await this.sendOrRefuse(`${route(entity)}/${target.id}`, body);
      if ('refused' in data)
        return { sourceId: record.id, outcome: 'failed', reason: String(data.refused) };
      return {
        sourceId: record.id,
        outcome: lost ? 'created' : 'updated',
        destinationId: String(data.id),
        ...extras,
      };
    }
    this.unanswered[entity].add(record.id);
    let data: WpPost | { refused: string } | undefined;
    for (let attempt = 1; !data; attempt++) {
      try {
        data = (await this.sendOrRefuse(route(entity), body)).data;
      } catch (error) {
        // Sent without an answer: the store may have made it. Found by its slug, it is the one
        // this connection sent (no such page existed before); else it is sent again.
        // Without a slug (not kept), by its title: no record of that title existed before.
        if (!isTransient(error) || attempt >= createAttempts) throw error;
        if (!record.slug && (this.slugsKept || !record.title)) throw error;
        if (record.slug) {
          const now = await this.existing(entity, { slug: [record.slug] });
          data = now.find((p) => !bySlug.some((b) => b.id === p.id) && !this.created.has(p.id));
        } else {
          const now = await this.slugless(entity, record.title, parent);
          data = now && !this.created.has(now.id) ? now : undefined;
        }
        if (!data) await this.client.pause(attempt);
      }
    }
    this.unanswered[entity].delete(record.id);
    if ('refused' in data)
      return { sourceId: record.id, outcome: 'failed', reason: String(data.refused) };
    this.created.add(data.id);
    if (imageLater && record.featuredImageUrl) {
      const media = await this.featuredMedia(
        record.featuredImageUrl,
        record.featuredImageAlt,
        idMap,
      );
      if ('id' in media) {
        await this.client.request('POST', `${route(entity)}/${data.id}`, {
          body: { featured_media: media.id },
          schema: wpPostSchema,
          retryable: true,
        });
        assetRecords.push({
          kind: 'image',
          key: record.featuredImageUrl,
          destinationId: String(media.id),
        });
        extras.assets = assetRecords;
      } else {
        warnings.push(media.error);
        incomplete = true;
        extras.incomplete = true;
      }
    }
    if (
      record.slug &&
      data.slug !== record.slug &&
      record.status !== 'draft' &&
      record.status !== 'pending'
    )
      warnings.push(
        `WordPress gave it the slug '${data.slug}': '${record.slug}' is taken by another ${what} of the store.`,
      );
    return {
      sourceId: record.id,
      outcome: 'created',
      destinationId: String(data.id),
      ...extras,
      ...(warnings.length ? { warnings } : {}),
    };
  }

  /** A create or update; a refusal of the record itself (4xx) becomes its failure reason. */
  private async sendOrRefuse(
    path: string,
    body: Record<string, unknown>,
  ): Promise<{ data: WpPost | { refused: string } }> {
    try {
      // An update may be sent again: it sets the same fields to the same values.
      const update = /\/\d+$/.test(path);
      const { data } = await this.client.request('POST', path, {
        body,
        schema: wpPostSchema,
        retryable: update,
      });
      return { data };
    } catch (error) {
      if (
        error instanceof ConnectorError &&
        error.errorClass === 'system' &&
        error.status !== undefined &&
        error.status >= 400 &&
        error.status < 500
      )
        return { data: { refused: `WordPress refused it: ${error.message}` } };
      throw error;
    }
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Records in an order that puts each page after its parent when both are among them. */
function parentsFirst(records: (CanonicalPage | Post)[]): (CanonicalPage | Post)[] {
  const ids = new Set(records.map((r) => r.id));
  const done = new Set<string>();
  const out: (CanonicalPage | Post)[] = [];
  const visit = (r: CanonicalPage | Post, depth: number) => {
    if (done.has(r.id)) return;
    const parentId = 'parentId' in r ? r.parentId : null;
    const parent =
      parentId && ids.has(parentId) ? records.find((p) => p.id === parentId) : undefined;
    if (parent && depth < records.length) visit(parent, depth + 1);
    done.add(r.id);
    out.push(r);
  };
  for (const r of records) visit(r, 0);
  return out;
}

/** Whether the store's page or post already holds what would be sent. */
function sameContent(wp: WpPost, body: Record<string, unknown>): boolean {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const sorted = (v: unknown) => [...((v as number[] | undefined) ?? [])].sort((x, y) => x - y);
  const checks: [unknown, unknown][] = [
    [wp.title.raw, body.title],
    [wp.content.raw, body.content],
    [wp.excerpt.raw, body.excerpt],
    // A slug WordPress made unique ('contact-2': the one asked for is another's) stays so.
    [
      body.slug === undefined ||
        new RegExp(`^${escapeRegExp(String(body.slug))}(-\\d+)?$`).test(wp.slug),
      true,
    ],
    [wp.status, body.status],
    [wp.featured_media, body.featured_media ?? wp.featured_media],
    [wp.author, body.author ?? wp.author],
  ];
  if (body.date_gmt !== undefined) checks.push([wp.date_gmt?.slice(0, 19), body.date_gmt]);
  if (body.parent !== undefined) checks.push([wp.parent ?? 0, body.parent]);
  if (body.menu_order !== undefined) checks.push([wp.menu_order ?? 0, body.menu_order]);
  if (body.categories !== undefined) checks.push([sorted(wp.categories), sorted(body.categories)]);
  if (body.tags !== undefined) checks.push([sorted(wp.tags), sorted(body.tags)]);
  return checks.every(([a, b]) => same(a, b));
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
