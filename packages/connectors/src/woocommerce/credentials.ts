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

export const wooCommerceCredentialsSchema = z.strictObject({
  storeUrl: storeUrlSchema,
  consumerKey: z
    .string()
    .trim()
    .regex(/^ck_[A-Za-z0-9]+$/, 'A WooCommerce consumer key starts with ck_'),
  consumerSecret: z
    .string()
    .trim()
    .regex(/^cs_[A-Za-z0-9]+$/, 'A WooCommerce consumer secret starts with cs_'),
});

export type WooCommerceCredentials = z.infer<typeof wooCommerceCredentialsSchema>;
