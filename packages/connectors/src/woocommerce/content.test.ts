import { describe, expect, it } from 'vitest';
import { contentToCanonical, type ContentLookups, type WpPost } from './content.ts';
import { destinationFields, nativeFields } from './native-fields.ts';

/** Pages and posts of wp/v2 into the model, and what is declared about them. */

const lookups: ContentLookups = {
  users: new Map([[1, 'Store Admin']]),
  categories: new Map([
    [1, 'Uncategorized'],
    [5, 'Guides & Tips'],
  ]),
  tags: new Map([[7, 'linen']]),
  media: new Map([[40, { url: 'https://shop.example/wp-content/uploads/a.png', alt: 'A' }]]),
};

function wp(overrides: Partial<WpPost> = {}): WpPost {
  return {
    id: 12,
    date_gmt: '2024-02-01T09:00:00',
    modified_gmt: '2024-03-15T12:30:00',
    slug: 'about-us',
    status: 'publish',
    link: 'https://shop.example/about-us/',
    title: { raw: 'About & us', rendered: 'About &amp; us' },
    content: { raw: '<!-- wp:paragraph --><p>Hi</p><!-- /wp:paragraph -->', rendered: '<p>Hi</p>' },
    excerpt: { raw: '', rendered: '' },
    author: 1,
    featured_media: 40,
    parent: 0,
    menu_order: 2,
    password: '',
    comment_status: 'closed',
    ping_status: 'closed',
    template: '',
    ...overrides,
  };
}

describe('WordPress pages and posts into the model', () => {
  it('carries the raw texts, dates with their offset, author, image, order and path', () => {
    const result = contentToCanonical('pages', wp(), lookups);
    expect(result).toMatchObject({
      ok: true,
      losses: [],
      record: {
        id: '12',
        title: 'About & us',
        body: '<!-- wp:paragraph --><p>Hi</p><!-- /wp:paragraph -->',
        status: 'published',
        publishedAt: '2024-02-01T09:00:00Z',
        updatedAt: '2024-03-15T12:30:00Z',
        createdAt: null,
        authorName: 'Store Admin',
        featuredImageUrl: 'https://shop.example/wp-content/uploads/a.png',
        featuredImageAlt: 'A',
        parentId: null,
        position: 2,
        sourceUrlPath: '/about-us/',
        seoTitle: '',
      },
    });
  });

  it('gives a draft no publication date and no path, and maps every status', () => {
    const draft = contentToCanonical(
      'pages',
      wp({ status: 'draft', link: 'https://shop.example/?page_id=12', parent: 3 }),
      lookups,
    );
    expect(draft).toMatchObject({
      record: { status: 'draft', publishedAt: null, sourceUrlPath: null, parentId: '3' },
    });
    const statuses = ['publish', 'future', 'draft', 'pending', 'private'].map((status) => {
      const r = contentToCanonical('posts', wp({ status }), lookups);
      return r.ok ? r.record.status : r.reason;
    });
    expect(statuses).toEqual(['published', 'scheduled', 'draft', 'pending', 'private']);
    expect(contentToCanonical('posts', wp({ status: 'trash' }), lookups)).toMatchObject({
      ok: false,
    });
  });

  it('reads a password-protected page as private and names the loss, never publicly', () => {
    const result = contentToCanonical('pages', wp({ password: 'secret' }), lookups);
    expect(result).toMatchObject({ record: { status: 'private' } });
    if (!result.ok) throw new Error(result.reason);
    expect(result.losses.map((l) => l.field)).toEqual(['password']);
    expect(JSON.stringify(result.record)).not.toContain('secret');
  });

  it('names a post’s categories and tags, and reports discussion settings, sticky and format', () => {
    const result = contentToCanonical(
      'posts',
      wp({
        categories: [5],
        tags: [7, 99],
        comment_status: 'closed',
        sticky: true,
        format: 'aside',
        template: 'wide',
      }),
      lookups,
    );
    if (!result.ok) throw new Error(result.reason);
    expect(result.record).toMatchObject({
      categories: ['Guides & Tips'],
      tags: ['linen'],
      blog: '',
    });
    expect(result.losses.map((l) => l.field).sort()).toEqual([
      'comment_status',
      'format',
      'ping_status',
      'sticky',
      'template',
    ]);
  });

  it('declares every field of a page and a post, and what the destination cannot hold', () => {
    for (const entity of ['pages', 'posts'] as const) {
      const fields = nativeFields[entity] ?? {};
      for (const key of ['title.raw', 'content.raw', 'excerpt.raw', 'status', 'date_gmt', 'link'])
        expect(fields[key], `${entity} ${key}`).toBeDefined();
      expect(fields.password).toHaveProperty('notCarried');
      expect(Object.keys(destinationFields[entity]?.unsupported ?? {})).toEqual(
        expect.arrayContaining(['seoTitle', 'seoDescription', 'seoKeywords', 'metafields']),
      );
    }
    expect(nativeFields.pages).toHaveProperty('parent');
    expect(nativeFields.posts).toHaveProperty('sticky');
  });
});
