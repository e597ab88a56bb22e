import type { Page } from '@replatform/canonical/content';
import { pageDefaults } from '@replatform/canonical/defaults';
import { pageSchema } from '@replatform/canonical/content';
import { describe, expect, it } from 'vitest';
import { magentoDestinationFields, magentoNativeFields } from './native-fields.ts';
import {
  fieldsNotKept,
  keywordsKept,
  pageMetafieldsKept,
  pagePayload,
  pageStatusKept,
  pageToCanonical,
  samePage,
  unwritable,
} from './page-mapping.ts';

const native = {
  id: 7,
  identifier: 'about-us',
  title: 'About us',
  page_layout: 'cms-full-width',
  meta_title: 'About',
  meta_keywords: 'team, story,, Portland ',
  meta_description: 'Who we are',
  content_heading: 'Hello',
  content: '<h2>Us</h2>',
  creation_time: '2024-02-01 09:00:00',
  update_time: '2024-03-15 12:30:00',
  sort_order: '3',
  custom_theme_from: '2024-04-01',
  active: true,
};

const page = (over: Partial<Page> = {}): Page => ({
  ...pageDefaults(),
  id: '1',
  title: 'About us',
  slug: 'about-us',
  body: '<p>x</p>',
  status: 'published',
  sourceUrlPath: '/about-us/',
  ...over,
});

describe('Magento CMS page to the model', () => {
  it('carries identifier, title, content, SEO fields, order, state, dates and the design settings', () => {
    const read = pageToCanonical(native);
    expect(pageSchema.parse(read)).toEqual(read);
    expect(read).toMatchObject({
      id: '7',
      slug: 'about-us',
      title: 'About us',
      body: '<h2>Us</h2>',
      status: 'published',
      publishedAt: null,
      createdAt: '2024-02-01T09:00:00Z',
      updatedAt: '2024-03-15T12:30:00Z',
      seoTitle: 'About',
      seoDescription: 'Who we are',
      seoKeywords: ['team', 'story', 'Portland'],
      sourceUrlPath: '/about-us',
      parentId: null,
      position: 3,
      excerpt: '',
      authorName: '',
      featuredImageUrl: null,
    });
    expect(read.metafields.map((m) => [m.key, m.value])).toEqual([
      ['content_heading', 'Hello'],
      ['page_layout', 'cms-full-width'],
      ['custom_theme_from', '2024-04-01'],
    ]);
  });

  it('reads an inactive page as a draft without a storefront address; an odd order as 0', () => {
    expect(pageToCanonical({ ...native, active: false, sort_order: '-2' })).toMatchObject({
      status: 'draft',
      sourceUrlPath: null,
      position: 0,
    });
    expect(pageToCanonical({ id: 1, identifier: 'bare' })).toMatchObject({
      title: '',
      body: '',
      createdAt: null,
      seoKeywords: [],
      metafields: [],
      status: 'draft',
    });
  });

  it('declares every field of the page interface', () => {
    const declared = Object.keys(magentoNativeFields.pages ?? {}).sort();
    expect(declared).toEqual(
      [
        'id',
        'identifier',
        'title',
        'page_layout',
        'meta_title',
        'meta_keywords',
        'meta_description',
        'content_heading',
        'content',
        'creation_time',
        'update_time',
        'sort_order',
        'layout_update_xml',
        'custom_theme',
        'custom_root_template',
        'custom_layout_update_xml',
        'custom_theme_from',
        'custom_theme_to',
        'active',
      ].sort(),
    );
  });
});

describe('the model to a Magento CMS page', () => {
  it('writes the fields a CMS page holds and the magento settings back', () => {
    const written = pagePayload(
      page({
        seoTitle: 'T',
        seoDescription: 'D',
        seoKeywords: ['a', 'b'],
        position: 4,
        metafields: [
          { namespace: 'magento', key: 'content_heading', value: 'H', type: 'string' },
          { namespace: 'magento', key: 'meta_keyword', value: 'x', type: 'string' },
          { namespace: 'wp', key: 'hero', value: 'x', type: 'string' },
        ],
      }),
    );
    expect(written).toEqual({
      identifier: 'about-us',
      title: 'About us',
      content: '<p>x</p>',
      meta_title: 'T',
      meta_description: 'D',
      meta_keywords: 'a, b',
      sort_order: '4',
      active: true,
      content_heading: 'H',
    });
  });

  it('makes every status but published an inactive page', () => {
    for (const status of ['draft', 'pending', 'private', 'scheduled'] as const)
      expect(pagePayload(page({ status })).active).toBe(false);
    expect(pageStatusKept('scheduled')).toBe('draft');
    expect(pageStatusKept('private')).toBe('draft');
    expect(pageStatusKept('published')).toBe('published');
  });

  it('compares a stored page with what would be written, as Magento answers it', () => {
    const payload = pagePayload(page());
    const stored = { id: 1, ...payload, meta_title: undefined, meta_keywords: undefined };
    expect(samePage(stored, payload)).toBe(true);
    expect(samePage({ ...stored, active: false }, payload)).toBe(false);
    expect(samePage({ ...stored, content: '<p>y</p>' }, payload)).toBe(false);
  });

  it('refuses a page without a URL key or with one too long, and names custom fields not kept', () => {
    expect(unwritable(page({ slug: '' }))).toContain('no URL key');
    expect(unwritable(page({ slug: 'a'.repeat(101) }))).toContain('100 characters');
    expect(unwritable(page())).toBeUndefined();
    expect(
      fieldsNotKept(
        page({
          metafields: [
            { namespace: 'magento', key: 'page_layout', value: '1column', type: 'string' },
            { namespace: 'wp', key: 'hero', value: 'x', type: 'string' },
          ],
        }),
      ),
    ).toEqual(['custom field wp.hero not kept: a Magento CMS page has no custom fields']);
  });

  it('compares keywords and custom fields in the form Magento keeps them', () => {
    expect(keywordsKept(['a, b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(
      pageMetafieldsKept([
        { namespace: 'magento', key: 'page_layout', value: '1column', type: 'string' },
        { namespace: 'wp', key: 'hero', value: 'x', type: 'string' },
      ]),
    ).toEqual([{ namespace: 'magento', key: 'page_layout', value: '1column', type: 'string' }]);
    const pages = magentoDestinationFields.pages;
    expect(Object.keys(pages.unsupported ?? {}).sort()).toEqual(
      [
        'authorName',
        'createdAt',
        'excerpt',
        'featuredImageAlt',
        'featuredImageUrl',
        'parentId',
        'publishedAt',
        'updatedAt',
      ].sort(),
    );
  });
});
