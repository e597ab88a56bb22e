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

const storeUrlSchema = z
  .string()
  .trim()
  .min(1, 'Enter the address of the store')
  .refine((v) => URL.canParse(v), 'Enter the full store address, e.g. https://shop.example.com')
  .refine(
    (v) => /^https?:$/.test(new URL(v).protocol),
    'The store address must start with https://',
  )
  .refine(
    (v) => new URL(v).username === '' && new URL(v).password === '',
    'The store address must not contain a user name or password',
  )
  .refine((v) => new URL(v).search === '', 'The store address must not contain a query string')
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
