import { z } from 'zod';
import { metafieldSchema } from './metafield.ts';

/**
 * A brand or manufacturer: WooCommerce's product brands, BigCommerce's brands, the options of
 * Magento's `manufacturer` attribute, and on Shopify the vendor its products name. Brands move
 * after categories and before products; a product names its brand in `vendor`, so a brand is
 * known on both stores by its name (the natural key: no two brands share a name).
 */
export const brandSchema = z.strictObject({
  /** The source platform's id, as a string (on Shopify, the vendor name itself). */
  id: z.string().min(1),
  /** Source id of the parent brand (WooCommerce brands form a tree); null for a top brand. */
  parentId: z.string().min(1).nullable(),
  /** The brand's name, as products name it in `vendor`. */
  name: z.string().min(1),
  /** URL key of the brand's page, lower case; '' when the platform gives brands no page. */
  slug: z.string(),
  /** HTML description; '' when none. */
  description: z.string(),
  /** Sort position among its siblings (0-based, lower first). */
  position: z.number().int().nonnegative(),
  /** Brand logo URL, or null. */
  imageUrl: z.url().nullable(),
  /** Alternative text of the logo, '' when none. */
  imageAlt: z.string(),
  /**
   * What the brand page shows, where the store lets the merchant choose: 'default' (the theme's
   * choice), 'products', 'subcategories' or 'both' (as for categories).
   */
  displayType: z.enum(['default', 'products', 'subcategories', 'both']),
  /** SEO page title, '' to use the name. */
  seoTitle: z.string(),
  /** SEO meta description, '' when none. */
  seoDescription: z.string(),
  /** SEO meta keywords, in the store's order; [] when none. */
  seoKeywords: z.array(z.string()),
  /** Extra words the storefront search finds the brand by, '' when none. */
  searchKeywords: z.string(),
  /** Custom fields of the brand (see metafieldSchema). */
  metafields: z.array(metafieldSchema),
  /** Path of the brand's page on the source storefront ('/brands/acme/'), or null if none. */
  sourceUrlPath: z.string().nullable(),
});
export type Brand = z.infer<typeof brandSchema>;
