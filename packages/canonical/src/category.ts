import { z } from 'zod';
import { metafieldSchema } from './metafield.ts';

/** A product category (Shopify: a collection). Categories form a tree through parentId. */
export const categorySchema = z.strictObject({
  /** The source platform's id, as a string. */
  id: z.string().min(1),
  /** Source id of the parent category; null for a root category. */
  parentId: z.string().min(1).nullable(),
  /** Display name. The natural key, with the parent: no two siblings share a name. */
  name: z.string().min(1),
  /** URL key / handle, lower case; used to build redirects when the destination's URL differs. */
  slug: z.string(),
  /** HTML description; sanitised before we ever render it. */
  description: z.string(),
  /** Sort position among its siblings (0-based, lower first). */
  position: z.number().int().nonnegative(),
  /** Category image URL, or null. */
  imageUrl: z.url().nullable(),
  /** Alternative text of the category image, '' when none. */
  imageAlt: z.string(),
  /** Title of the category image (its name in the store's media library), '' when none. */
  imageTitle: z.string(),
  /**
   * What the category page shows, where the store lets the merchant choose: 'default' (the
   * theme's choice), 'products', 'subcategories' or 'both'.
   */
  displayType: z.enum(['default', 'products', 'subcategories', 'both']),
  /** SEO page title, '' to use the name. */
  seoTitle: z.string(),
  /** SEO meta description, '' when none. */
  seoDescription: z.string(),
  /** Custom fields of the category (see metafieldSchema). */
  metafields: z.array(metafieldSchema),
  /** Path of the category on the source storefront ('/shoes/running'), or null if unknown. */
  sourceUrlPath: z.string().nullable(),
});
export type Category = z.infer<typeof categorySchema>;
