import { describe, expect, it } from 'vitest';
import { pageSchema, postSchema, type Page, type Post } from '@replatform/canonical/content';
import { pageDefaults, postDefaults } from '@replatform/canonical/defaults';
import {
  blogPostToCanonical,
  holdsPage,
  holdsPost,
  notContentReason,
  pageToBc,
  postDate,
  postToBc,
  rfc2822,
  thumbnailUrl,
  webPageToCanonical,
} from './map-content.ts';
import { blogPostSchema, webPageSchema } from './payloads.ts';

const rawPage = {
  id: 7,
  channel_id: 1,
  name: 'Contact',
  is_visible: false,
  parent_id: 3,
  sort_order: 2,
  type: 'contact_form',
  body: '<p>Write to us</p>',
  is_homepage: false,
  is_customers_only: true,
  url: '/contact-us/',
  meta_title: 'Contact the store',
  meta_keywords: 'contact, help,,',
  meta_description: 'How to reach us',
  search_keywords: 'email,phone',
  email: 'hello@example.com',
  contact_fields: 'fullname,phone',
};

const rawPost = {
  id: 4,
  title: 'Caring for linen',
  url: '/blog/caring-for-linen/',
  preview_url: '/blog/caring-for-linen/',
  body: '<p>Wash at 40°.</p>',
  tags: ['linen', 'care'],
  summary: 'Wash at 40°.',
  is_published: true,
  published_date: { date: '2024-05-02T08:00:00.000Z', timezone_type: 1, timezone: '+00:00' },
  published_date_iso8601: '2024-05-02T08:00:00+0000',
  meta_description: 'How to wash linen',
  meta_keywords: 'linen,care',
  author: 'Maja Lind',
  thumbnail_path: '/product_images/uploaded_images/linen.png',
};

const page = (over: Partial<Page> = {}): Page =>
  pageSchema.parse({
    ...pageDefaults(),
    id: '1',
    title: 'About us',
    slug: 'about-us',
    body: '<p>x</p>',
    status: 'published',
    sourceUrlPath: '/about-us/',
    ...over,
  });

const post = (over: Partial<Post> = {}): Post =>
  postSchema.parse({
    ...postDefaults(),
    id: '1',
    title: 'Hello',
    slug: 'hello',
    body: '<p>b</p>',
    status: 'published',
    publishedAt: '2024-05-02T08:00:00.000Z',
    sourceUrlPath: '/blog/hello/',
    ...over,
  });

describe('BigCommerce web pages to canonical', () => {
  it('carries name, body, path, parent, order, SEO fields and keeps its own fields', () => {
    const parsed = webPageSchema.parse(rawPage);
    const result = webPageToCanonical(parsed, rawPage);
    expect(pageSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({
      id: '7',
      title: 'Contact',
      slug: 'contact-us',
      body: '<p>Write to us</p>',
      status: 'draft',
      parentId: '3',
      position: 2,
      seoTitle: 'Contact the store',
      seoKeywords: ['contact', 'help'],
      seoDescription: 'How to reach us',
      sourceUrlPath: '/contact-us/',
      excerpt: '',
      authorName: '',
      publishedAt: null,
      featuredImageUrl: null,
    });
    expect(result.metafields.map((m) => [m.key, m.value])).toEqual([
      ['type', 'contact_form'],
      ['search_keywords', 'email,phone'],
      ['is_customers_only', 'true'],
      ['email', 'hello@example.com'],
      ['contact_fields', 'fullname,phone'],
    ]);
  });

  it('reads a top page with its neutral values and a negative order as 0', () => {
    const raw = { id: 2, name: 'A', type: 'page', parent_id: 0, sort_order: -3, url: '/a/' };
    const result = webPageToCanonical(webPageSchema.parse(raw), raw);
    expect(result).toMatchObject({ parentId: null, position: 0, status: 'published' });
    expect(result.metafields).toEqual([]);
  });

  it('names why links and the blog page are not read', () => {
    expect(notContentReason({ type: 'link', link: 'https://x.example' })).toMatch(
      /menu link to https:\/\/x.example/,
    );
    expect(notContentReason({ type: 'blog' })).toMatch(/blog's own page/);
  });
});

describe('canonical pages to BigCommerce', () => {
  it('writes every field, visible only when published, and names the status it changed', () => {
    const write = pageToBc(page({ status: 'private', seoKeywords: ['a', 'b'], position: 3 }), 9);
    expect(write).toEqual({
      ok: true,
      body: {
        name: 'About us',
        type: 'page',
        body: '<p>x</p>',
        is_visible: false,
        parent_id: 9,
        sort_order: 3,
        channel_id: 1,
        is_homepage: false,
        is_customers_only: false,
        search_keywords: '',
        meta_title: '',
        meta_keywords: 'a,b',
        meta_description: '',
        url: '/about-us/',
      },
      warnings: [expect.stringMatching(/'private' was written as hidden/)],
    });
  });

  it('gives back a BigCommerce page its kind and fields; names custom fields it cannot hold', () => {
    const source = webPageToCanonical(webPageSchema.parse(rawPage), rawPage);
    const write = pageToBc(
      {
        ...source,
        metafields: [
          ...source.metafields,
          { namespace: 'custom', key: 'x', value: '1', type: 'string' },
        ],
      },
      3,
    );
    if (!write.ok) throw new Error(write.reason);
    expect(write.body).toMatchObject({
      type: 'contact_form',
      email: 'hello@example.com',
      contact_fields: 'fullname,phone',
      is_customers_only: true,
      search_keywords: 'email,phone',
      is_visible: false,
      url: '/contact-us/',
    });
    expect(write.warnings.join()).toMatch(/custom.x not written/);
    const home = pageToBc(
      page({
        metafields: [
          { namespace: 'bigcommerce_fields', key: 'is_homepage', value: 'true', type: 'boolean' },
        ],
      }),
      0,
    );
    expect(home.ok && home.body.is_homepage).toBe(false);
    expect(home.ok && home.warnings.join()).toMatch(/not made the destination's home page/);
    expect(write.warnings.join()).not.toMatch(/bigcommerce_fields/);
  });

  it('sends a raw page without SEO fields and names them', () => {
    const write = pageToBc(
      page({
        seoTitle: 'T',
        metafields: [
          {
            namespace: 'bigcommerce_fields',
            key: 'type',
            value: 'raw',
            type: 'single_line_text_field',
          },
        ],
      }),
      0,
    );
    if (!write.ok) throw new Error(write.reason);
    expect(write.body.type).toBe('raw');
    expect(write.body).not.toHaveProperty('meta_title');
    expect(write.warnings.join()).toMatch(/raw BigCommerce page has no SEO fields: meta_title/);
  });

  it('takes a path from the slug, or leaves it to BigCommerce and says so', () => {
    const fromSlug = pageToBc(page({ sourceUrlPath: null }), 0);
    expect(fromSlug.ok && fromSlug.body.url).toBe('/about-us/');
    const none = pageToBc(page({ sourceUrlPath: 'not a path', slug: '' }), 0);
    expect(none.ok && none.body.url).toBeUndefined();
    expect(none.ok && none.warnings.join()).toMatch(/not one BigCommerce takes/);
  });

  it('refuses a page without a title or with one over 100 characters', () => {
    expect(pageToBc(page({ title: ' ' }), 0)).toMatchObject({ ok: false });
    expect(pageToBc(page({ title: 'x'.repeat(101) }), 0)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/100/),
    });
  });

  it('knows a copy that holds what would be written', () => {
    const write = pageToBc(page({ seoKeywords: ['a'] }), 0);
    if (!write.ok) throw new Error(write.reason);
    const copy = webPageSchema.parse({ id: 5, ...write.body, meta_keywords: 'a' });
    expect(holdsPage(copy, write.body)).toBe(true);
    expect(holdsPage({ ...copy, body: '<p>y</p>' }, write.body)).toBe(false);
    expect(holdsPage({ ...copy, parent_id: 2 }, write.body)).toBe(false);
  });
});

describe('BigCommerce blog posts to canonical', () => {
  it('carries title, path, body, tags, author, date, SEO fields, summary and thumbnail', () => {
    const result = blogPostToCanonical(blogPostSchema.parse(rawPost), 'https://shop.example');
    expect(postSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({
      id: '4',
      title: 'Caring for linen',
      slug: 'caring-for-linen',
      sourceUrlPath: '/blog/caring-for-linen/',
      tags: ['linen', 'care'],
      categories: [],
      blog: '',
      excerpt: 'Wash at 40°.',
      status: 'published',
      publishedAt: '2024-05-02T08:00:00.000Z',
      authorName: 'Maja Lind',
      seoTitle: '',
      seoDescription: 'How to wash linen',
      seoKeywords: ['linen', 'care'],
      featuredImageUrl: 'https://shop.example/product_images/uploaded_images/linen.png',
      featuredImageAlt: '',
    });
  });

  it('reads unpublished posts as drafts and dates in every form v2 gives them', () => {
    const draft = blogPostSchema.parse({ ...rawPost, is_published: false, thumbnail_path: '' });
    expect(blogPostToCanonical(draft, undefined)).toMatchObject({
      status: 'draft',
      featuredImageUrl: null,
    });
    const listed = blogPostSchema.parse({
      ...rawPost,
      published_date_iso8601: '',
      published_date: { date: '2018-05-18 08:26:42.000000', timezone: '+02:00' },
    });
    expect(postDate(listed)).toBe('2018-05-18T06:26:42.000Z');
    expect(
      postDate(
        blogPostSchema.parse({ ...rawPost, published_date: null, published_date_iso8601: '' }),
      ),
    ).toBeNull();
    expect(thumbnailUrl('https://cdn.example/a.png', undefined)).toBe('https://cdn.example/a.png');
  });
});

describe('canonical posts to BigCommerce', () => {
  it('writes a published post whole with an RFC 2822 date', () => {
    const write = postToBc(
      post({ tags: ['a', ' a ', 'b'], seoKeywords: ['k1', 'k2'], authorName: 'Tom' }),
    );
    expect(write).toEqual({
      ok: true,
      body: {
        title: 'Hello',
        body: '<p>b</p>',
        url: '/blog/hello/',
        tags: ['a', 'b'],
        is_published: true,
        published_date: 'Thu, 02 May 2024 08:00:00 +0000',
        meta_description: '',
        meta_keywords: 'k1,k2',
        author: 'Tom',
      },
      warnings: [],
    });
    expect(rfc2822('2024-05-02T10:00:00+02:00')).toBe('Thu, 02 May 2024 08:00:00 +0000');
  });

  it('writes scheduled, pending and private posts unpublished, and says so', () => {
    const scheduled = postToBc(post({ status: 'scheduled', publishedAt: '2031-01-01T00:00:00Z' }));
    expect(scheduled.ok && scheduled.body.is_published).toBe(false);
    expect(scheduled.ok && scheduled.body.published_date).toBe('Wed, 01 Jan 2031 00:00:00 +0000');
    expect(scheduled.ok && scheduled.warnings.join()).toMatch(/unpublished with its date/);
    const pending = postToBc(post({ status: 'pending' }));
    expect(pending.ok && pending.warnings.join()).toMatch(/'pending' was written as unpublished/);
  });

  it('names custom fields a post cannot hold and refuses a post without a title', () => {
    const write = postToBc(
      post({ metafields: [{ namespace: 'wp', key: 'views', value: '3', type: 'string' }] }),
    );
    expect(write.ok && write.warnings.join()).toMatch(/wp.views not written/);
    expect(postToBc(post({ title: '' }))).toMatchObject({ ok: false });
  });

  it('knows a copy that holds what would be written', () => {
    const write = postToBc(post({ tags: ['a'] }));
    if (!write.ok) throw new Error(write.reason);
    const copy = blogPostSchema.parse({
      ...rawPost,
      title: 'Hello',
      body: '<p>b</p>',
      url: '/blog/hello/',
      tags: ['a'],
      meta_description: '',
      meta_keywords: '',
      author: '',
    });
    expect(holdsPost(copy, write.body)).toBe(true);
    expect(holdsPost({ ...copy, is_published: false }, write.body)).toBe(false);
    expect(holdsPost({ ...copy, tags: ['b'] }, write.body)).toBe(false);
  });
});
