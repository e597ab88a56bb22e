import { z } from 'zod';

/**
 * What a store owner gives us for WooCommerce: the store address and a REST API key pair made
 * under WooCommerce > Settings > Advanced > REST API (read/write). The address is normalised to
 * the site root, so 'https://shop.example/', 'https://shop.example/wp-json' and
 * 'https://shop.example/wp-json/wc/v3' all mean the same store.
 */

export function normaliseStoreUrl(value: string): string {
  const url = new URL(value.trim());
  url.hash = '';
  url.search = '';
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/wp-json(\/wc\/v\d+)?$/i, '');
  return url.toString().replace(/\/+$/, '');
}

// One check that parses the address once: a refinement chain would go on to parse an address
// the first step already found unreadable, and throw.
const storeUrlSchema = z
  .string()
  .trim()
  .min(1, 'Enter the address of the store')
  .superRefine((value, ctx) => {
    const url = URL.canParse(value) ? new URL(value) : undefined;
    const problem = !url
      ? 'Enter the full store address, e.g. https://shop.example.com'
      : !/^https?:$/.test(url.protocol)
        ? 'The store address must start with https://'
        : url.username !== '' || url.password !== ''
          ? 'The store address must not contain a user name or password'
          : url.search !== ''
            ? 'The store address must not contain a query string'
            : undefined;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform(normaliseStoreUrl);

/**
 * WordPress's own REST API (`wp/v2`: the site's pages and blog posts) does not take WooCommerce's
 * keys: it takes a WordPress user's application password (Users > Profile > Application
 * Passwords). Optional: without it a WooCommerce store moves everything but its pages and posts.
 */
export const wooCommerceCredentialsSchema = z
  .strictObject({
    storeUrl: storeUrlSchema,
    consumerKey: z
      .string()
      .trim()
      .regex(/^ck_[A-Za-z0-9]+$/, 'A WooCommerce consumer key starts with ck_'),
    consumerSecret: z
      .string()
      .trim()
      .regex(/^cs_[A-Za-z0-9]+$/, 'A WooCommerce consumer secret starts with cs_'),
    /** The WordPress user name the application password belongs to. */
    wordpressUser: z.string().trim().max(200).optional(),
    /** The application password, as WordPress shows it (groups of four, spaces optional). */
    wordpressApplicationPassword: z
      .string()
      .trim()
      .regex(
        /^[A-Za-z0-9]{4}( ?[A-Za-z0-9]{4}){5}$/,
        'A WordPress application password is 24 letters and digits, as WordPress shows it (spaces may stay)',
      )
      .optional(),
  })
  .refine((c) => !c.wordpressUser === !c.wordpressApplicationPassword, {
    message: 'Enter both the WordPress user name and its application password, or neither',
    path: ['wordpressApplicationPassword'],
  });

export type WooCommerceCredentials = z.infer<typeof wooCommerceCredentialsSchema>;
