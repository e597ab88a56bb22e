import { describe, expect, it } from 'vitest';
import { pageSchema, postSchema, type Page, type Post } from '@replatform/canonical/content';
import { pageDefaults, postDefaults } from '@replatform/canonical/defaults';
import { contentComparable } from './comparable.ts';
import {
  articleInput,
  articleToPost,
  authorInput,
  holdsInput,
  pageInput,
  pageToCanonical,
  statusOf,
} from './content.ts';
import type { ShopifyArticle, ShopifyPage } from './documents.ts';
import { shopifyDestinationFields } from './native-fields.ts';

const none = { pageInfo: { hasNextPage: false, endCursor: null }, nodes: [] };

const shopifyPage = (more: Partial<ShopifyPage> = {}): ShopifyPage => ({
  id: 'gid://shopify/Page/1',
  handle: 'about-us',
  title: 'About us',
  body: '<p>Hi</p>',
  isPublished: true,
  publishedAt: '2024-02-01T09:00:00Z',
  templateSuffix: null,
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-03-01T00:00:00Z',
  metafields: none,
  ...more,
});

const shopifyArticle = (more: Partial<ShopifyArticle> = {}): ShopifyArticle => ({
  id: 'gid://shopify/Article/2',
  handle: 'linen',
  title: 'Linen',
  body: '<p>Wash</p>',
  summary: '<p>Short</p>',
  author: { name: 'Maja' },
  image: { url: 'https://cdn.example/l.png', altText: 'Linen' },
  tags: ['care', 'linen'],
  isPublished: true,
  publishedAt: '2024-05-02T08:00:00Z',
  templateSuffix: null,
  createdAt: '2024-05-01T00:00:00Z',
  updatedAt: null,
  blog: { id: 'gid://shopify/Blog/3', handle: 'news', title: 'News' },
  metafields: none,
  ...more,
});

const page = (more: Partial<Page> = {}): Page =>
  pageSchema.parse({
    ...pageDefaults(),
    id: '7',
    title: 'About',
    slug: 'about',
    body: '<p>x</p>',
    status: 'published',
    publishedAt: '2024-01-01T00:00:00.000Z',
    sourceUrlPath: null,
    ...more,
  });

const post = (more: Partial<Post> = {}): Post =>
  postSchema.parse({
    ...postDefaults(),
    id: '8',
    title: 'News',
    slug: 'news',
    body: '<p>y</p>',
    status: 'published',
    publishedAt: '2024-01-01T00:00:00.000Z',
    authorName: 'Ann',
    sourceUrlPath: null,
    ...more,
  });

describe('Shopify pages and articles to the model', () => {
  it('maps visibility to a status', () => {
    expect(statusOf(true, '2024-01-01T00:00:00Z')).toBe('published');
    expect(statusOf(false, '2099-01-01T00:00:00Z')).toBe('scheduled');
    expect(statusOf(false, null)).toBe('draft');
  });

  it('maps a page, its SEO metafields and template, and its address while shown', () => {
    const mapped = pageToCanonical(
      shopifyPage({
        templateSuffix: 'wide',
        metafields: {
          ...none,
          nodes: [
            { namespace: 'global', key: 'title_tag', type: 'single_line_text_field', value: 'T' },
            { namespace: 'global', key: 'description_tag', type: 'string', value: 'D' },
            { namespace: 'custom', key: 'note', type: 'single_line_text_field', value: 'n' },
          ],
        },
      }),
    );
    expect('record' in mapped && mapped.record).toEqual({
      ...pageDefaults(),
      id: 'gid://shopify/Page/1',
      title: 'About us',
      slug: 'about-us',
      body: '<p>Hi</p>',
      status: 'published',
      publishedAt: '2024-02-01T09:00:00.000Z',
      createdAt: '2024-01-01T00:00:00.000Z',
      updatedAt: '2024-03-01T00:00:00.000Z',
      seoTitle: 'T',
      seoDescription: 'D',
      metafields: [
        { namespace: 'shopify.custom', key: 'note', type: 'single_line_text_field', value: 'n' },
        {
          namespace: 'shopify',
          key: 'template_suffix',
          type: 'single_line_text_field',
          value: 'wide',
        },
      ],
      sourceUrlPath: '/pages/about-us',
    });
    const hidden = pageToCanonical(shopifyPage({ isPublished: false, publishedAt: null }));
    expect('record' in hidden && hidden.record.sourceUrlPath).toBeNull();
    expect('record' in hidden && hidden.record.status).toBe('draft');
  });

  it('maps an article with its blog, author, summary, image and tags', () => {
    const mapped = articleToPost(shopifyArticle());
    expect('record' in mapped && mapped.record).toMatchObject({
      blog: 'News',
      authorName: 'Maja',
      excerpt: '<p>Short</p>',
      featuredImageUrl: 'https://cdn.example/l.png',
      featuredImageAlt: 'Linen',
      tags: ['care', 'linen'],
      categories: [],
      updatedAt: null,
      sourceUrlPath: '/blogs/news/linen',
    });
  });
});

describe('the model to Shopify pages and articles', () => {
  it('writes each status as the nearest Shopify visibility', () => {
    const built = (status: Page['status'], publishedAt: string | null = null) => {
      const result = pageInput(page({ status, publishedAt }));
      if ('failure' in result) throw new Error(result.failure);
      return result;
    };
    expect(built('published', '2024-01-01T00:00:00.000Z').input).toMatchObject({
      isPublished: true,
      publishDate: '2024-01-01T00:00:00.000Z',
    });
    expect(built('scheduled', '2099-01-01T00:00:00.000Z').input).toMatchObject({
      isPublished: true,
      publishDate: '2099-01-01T00:00:00.000Z',
    });
    for (const status of ['draft', 'pending', 'private'] as const) {
      const input = built(status, '2024-01-01T00:00:00.000Z').input;
      expect(input.isPublished).toBe(false);
      expect(input.publishDate).toBeUndefined();
    }
    const undated = built('scheduled');
    expect(undated.input.isPublished).toBe(false);
    expect(undated.warnings[0]).toMatch(/without a publish date/);
  });

  it('writes SEO fields as the global metafields and the template into its field', () => {
    const built = pageInput(
      page({
        seoTitle: 'T',
        seoDescription: 'D',
        metafields: [
          { namespace: 'shopify', key: 'template_suffix', value: 'wide', type: 'text' },
          { namespace: 'acf', key: 'hero', value: 'h', type: 'text' },
        ],
      }),
    );
    if ('failure' in built) throw new Error(built.failure);
    expect(built.input.templateSuffix).toBe('wide');
    expect(built.metafields).toEqual([
      { namespace: 'acf', key: 'hero', type: 'single_line_text_field', value: 'h' },
      { namespace: 'global', key: 'title_tag', type: 'single_line_text_field', value: 'T' },
      { namespace: 'global', key: 'description_tag', type: 'single_line_text_field', value: 'D' },
    ]);
  });

  it('refuses what Shopify would refuse, never inventing a value', () => {
    expect(pageInput(page({ title: '  ' }))).toMatchObject({ failure: expect.any(String) });
    expect(authorInput(post({ authorName: '' }))).toMatchObject({
      failure: expect.stringMatching(/author/),
    });
    expect(authorInput(post())).toEqual({ name: 'Ann' });
  });

  it('writes an article with its summary, tags and image', () => {
    const built = articleInput(
      post({
        excerpt: '<p>S</p>',
        tags: ['b', 'a'],
        featuredImageUrl: 'https://src.example/i.png',
        featuredImageAlt: 'Alt',
      }),
    );
    if ('failure' in built) throw new Error(built.failure);
    expect(built.input).toMatchObject({
      summary: '<p>S</p>',
      tags: ['b', 'a'],
      image: { url: 'https://src.example/i.png', altText: 'Alt' },
    });
  });

  it('sees a destination record that holds the input as unchanged, and a change as one', () => {
    const built = pageInput(page());
    if ('failure' in built) throw new Error(built.failure);
    const found = {
      id: 'gid://shopify/Page/1',
      marker: { value: '7' },
      title: 'About',
      handle: 'about',
      body: '<p>x</p>',
      isPublished: true,
      publishedAt: '2024-01-01T00:00:00Z',
      templateSuffix: null,
      metafields: { nodes: [] },
    };
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(holdsInput(found, built, now)).toBe(true);
    expect(holdsInput({ ...found, body: '<p>changed</p>' }, built, now)).toBe(false);
    expect(holdsInput({ ...found, isPublished: false, publishedAt: null }, built, now)).toBe(false);
  });
});

describe('declarations', () => {
  it('declares what pages and articles cannot hold, and compares statuses as Shopify keeps them', () => {
    expect(Object.keys(shopifyDestinationFields.pages?.unsupported ?? {})).toEqual(
      expect.arrayContaining(['parentId', 'position', 'authorName', 'excerpt', 'featuredImageUrl']),
    );
    expect(Object.keys(shopifyDestinationFields.posts?.unsupported ?? {})).toEqual(
      expect.arrayContaining(['categories', 'seoKeywords']),
    );
    const status = contentComparable.pages.status;
    expect(status?.('pending', {})).toBe('draft');
    expect(status?.('private', {})).toBe('draft');
    expect(status?.('scheduled', { publishedAt: null })).toBe('draft');
    expect(contentComparable.pages.publishedAt?.('2024-01-01', { status: 'draft' })).toBeNull();
    expect(contentComparable.posts.tags?.(['b', 'A', 'b'], {})).toEqual(['A', 'b']);
  });
});
