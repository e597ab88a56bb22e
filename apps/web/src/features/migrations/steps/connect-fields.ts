import type { Platform } from '@replatform/contracts/migration';
import type { VerifyFields } from '../api/migrations-api.ts';

export interface FieldSpec {
  name: keyof VerifyFields;
  label: string;
  secret?: boolean;
  placeholder?: string;
  /** A field the connection works without (it opens more of the store when given). */
  optional?: boolean;
  /** One line under the field saying what it is for. */
  hint?: string;
}

/** The fields each platform asks for (spec.md section 2, Step 1), the same on both sides. */
export const platformFields: Record<Exclude<Platform, 'shopify'>, FieldSpec[]> = {
  magento2: [
    { name: 'sourceStoreUrl', label: 'Store URL', placeholder: 'https://store.example.com' },
    { name: 'consumerKey', label: 'Consumer Key', secret: true },
    { name: 'consumerSecret', label: 'Consumer Secret', secret: true },
    { name: 'accessToken', label: 'Access Token', secret: true },
    { name: 'accessTokenSecret', label: 'Access Token Secret', secret: true },
  ],
  woocommerce: [
    { name: 'sourceStoreUrl', label: 'Store URL', placeholder: 'https://store.example.com' },
    { name: 'consumerKey', label: 'Consumer Key', secret: true, placeholder: 'ck_…' },
    { name: 'consumerSecret', label: 'Consumer Secret', secret: true, placeholder: 'cs_…' },
    {
      name: 'wordpressUser',
      label: 'WordPress user name (optional)',
      optional: true,
    },
    {
      name: 'wordpressApplicationPassword',
      label: 'WordPress application password (optional)',
      secret: true,
      optional: true,
      placeholder: 'abcd efgh ijkl mnop qrst uvwx',
      hint: 'Only needed to move your pages and blog posts (drafts too): make one under Users › Profile › Application Passwords.',
    },
  ],
  bigcommerce: [
    { name: 'storeHash', label: 'Store Hash', placeholder: 'abc123xyz' },
    { name: 'accessToken', label: 'Access Token', secret: true },
  ],
};

export const verifyRoute: Record<Platform, string> = {
  magento2: '/verify-magento-connection',
  woocommerce: '/verify-woocommerce-connection',
  bigcommerce: '/verify-bigcommerce-connection',
  shopify: '/verify-shopify-connection',
};

/** Verify is enabled only when every field the platform needs is filled (spec.md section 5). */
export function canVerify(platform: Platform, values: VerifyFields): boolean {
  if (platform === 'shopify')
    return Boolean(values.sourceStoreUrl?.trim() && values.accessToken?.trim());
  const fields = platformFields[platform];
  const given = (f: FieldSpec) => Boolean(values[f.name]?.trim());
  // Optional fields come as a pair (a user and its password): both or neither.
  const optional = fields.filter((f) => f.optional);
  return (
    fields.filter((f) => !f.optional).every(given) &&
    (optional.every(given) || !optional.some(given))
  );
}

/** spec.md section 8's failure texts, by side and platform. */
export function failureText(side: 'source' | 'destination', platform: Platform): string {
  if (side === 'source') return 'Failed to verify connection. Please check your credentials.';
  if (platform === 'magento2')
    return 'Failed to verify Magento connection. Please check your credentials.';
  if (platform === 'bigcommerce')
    return 'Failed to verify BigCommerce connection. Please check your credentials.';
  if (platform === 'shopify')
    return 'Failed to verify Shopify connection. Please check your credentials.';
  return 'Failed to verify WooCommerce connection. Please check your credentials.';
}

/** A Shopify store address as the install flow needs it: the bare *.myshopify.com host. */
export function shopDomainOf(input: string): string {
  return input
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/\/.*$/, '');
}
