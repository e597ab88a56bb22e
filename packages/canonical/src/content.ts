import { z } from 'zod';
import { metafieldSchema } from './metafield.ts';

/**
 * Where a page or post stands: shown on the storefront ('published'), to be shown at
 * `publishedAt` ('scheduled'), being written ('draft'), waiting for an editor's review
 * ('pending'), or shown only to the store's staff ('private'). Platforms that know fewer states
 * say in their field declarations what each becomes.
 */
export const contentStatuses = ['published', 'scheduled', 'draft', 'pending', 'private'] as const;
export type ContentStatus = (typeof contentStatuses)[number];

/** What web pages and blog posts share. */
const contentFields = {
  /** The source platform's id, as a string. */
  id: z.string().min(1),
  /** The title, as the store shows it ('' when the source has none: WordPress allows that). */
  title: z.string(),
  /** URL key of the page or post ('about-us'), lower case; '' when the source gives none. */
  slug: z.string(),
  /**
   * The content as HTML, as the source keeps it (WordPress block comments included); sanitised
   * only where the destination requires, which its declarations say.
   */
  body: z.string(),
  /** A short summary as HTML (WordPress excerpt, Shopify article summary), '' when none. */
  excerpt: z.string(),
  status: z.enum(contentStatuses),
  /** When it was or is to be published (ISO-8601); null when never (a draft may have none). */
  publishedAt: z.iso.datetime({ offset: true }).nullable(),
  /** When it was created at the source (ISO-8601), null when unknown. */
  createdAt: z.iso.datetime({ offset: true }).nullable(),
  /** When it was last changed at the source (ISO-8601), null when unknown. */
  updatedAt: z.iso.datetime({ offset: true }).nullable(),
  /** The author's name as the storefront shows it, '' when none. */
  authorName: z.string(),
  /** The featured image (WordPress featured image, Shopify article image), or null. */
  featuredImageUrl: z.url().nullable(),
  /** Alternative text of the featured image, '' when none. */
  featuredImageAlt: z.string(),
  /** SEO page title, '' to use the title. */
  seoTitle: z.string(),
  /** SEO meta description, '' when none. */
  seoDescription: z.string(),
  /** SEO meta keywords, in the store's order; [] when none. */
  seoKeywords: z.array(z.string()),
  /** Custom fields (see metafieldSchema). */
  metafields: z.array(metafieldSchema),
  /** Path of the page or post on the source storefront ('/about-us/'), or null if none. */
  sourceUrlPath: z.string().nullable(),
};

/**
 * A content page of the store's website (WordPress page, Shopify page, BigCommerce web page,
 * Magento CMS page). Pages may form a tree (WordPress and BigCommerce pages have a parent) and
 * move parents first, after the catalogue.
 */
export const pageSchema = z.strictObject({
  ...contentFields,
  /** Source id of the parent page, or null for a top page. */
  parentId: z.string().min(1).nullable(),
  /** Sort position among its siblings in the store's menus (0-based, lower first). */
  position: z.number().int().nonnegative(),
});
export type Page = z.infer<typeof pageSchema>;

/**
 * A blog post (WordPress post, Shopify blog article, BigCommerce blog post; core Magento has no
 * blog). Its categories and tags are carried by name: a destination finds or makes each by that
 * name.
 */
export const postSchema = z.strictObject({
  ...contentFields,
  /**
   * The blog it belongs to, by title, where a store has several (Shopify blogs); '' for a store
   * with one blog.
   */
  blog: z.string(),
  /**
   * The post's categories, in the store's order, each by its name, a nested one by its path from
   * the top ('Guides > Linen'); [] when none.
   */
  categories: z.array(z.string().min(1)),
  /** The post's tags, in the store's order; [] when none. */
  tags: z.array(z.string().min(1)),
});
export type Post = z.infer<typeof postSchema>;
