/**
 * OAuth scopes of store-level API accounts, as each spec's X-Auth-Token security scheme lists them:
 * per area a `modify` parameter (store_v2_products) and a `read-only` one
 * (store_v2_products_read_only); an area left at None has neither. BigCommerce checks the scope
 * of a request's area before any route runs, so a token without it gets 403 ("You don't have a
 * required scope to access the endpoint") whatever the request carries, and a read-only scope
 * admits only GET.
 */

export type ScopeArea =
  'products' | 'customers' | 'orders' | 'information' | 'marketing' | 'content';

/** The `modify` parameter of each area (the read-only one adds `_read_only`). */
export const modifyScopes: Record<ScopeArea, string> = {
  products: 'store_v2_products',
  customers: 'store_v2_customers',
  orders: 'store_v2_orders',
  information: 'store_v2_information',
  // marketing.v2.yml X-Auth-Token: Marketing, for coupons.
  marketing: 'store_v2_marketing',
  // pages.v3.yml and store_content.v2.yml X-Auth-Token: Content, for web pages and the blog.
  content: 'store_v2_content',
};

/** Every area at modify: what the emulator's own access token is given. */
export const allScopes: readonly string[] = Object.values(modifyScopes);

export const missingScopeTitle = "You don't have a required scope to access the endpoint";

/** The area of a path under /stores/{hash} (`/v3/catalog/products`, `/v2/orders/1`, ...). */
function areaOf(path: string): ScopeArea | undefined {
  if (/^\/v3\/catalog(\/|$)/.test(path)) return 'products';
  if (/^\/v3\/customers(\/|$)/.test(path)) return 'customers';
  if (/^\/v2\/(orders|order_statuses)(\/|$)/.test(path)) return 'orders';
  if (/^\/v2\/(store|time)(\/|$)/.test(path)) return 'information';
  if (/^\/v2\/coupons(\/|$)/.test(path)) return 'marketing';
  // redirects.v3.yml X-Auth-Token: Content as well, for storefront redirects.
  if (/^\/(v3\/content|v2\/blog|v3\/storefront\/redirects)(\/|$)/.test(path)) return 'content';
  return undefined;
}

/** The scope a request needs and its token lacks, or undefined when the token may send it. */
export function missingScope(
  granted: ReadonlySet<string>,
  method: string,
  path: string,
): string | undefined {
  const area = areaOf(path);
  if (!area) return undefined;
  const modify = modifyScopes[area];
  if (granted.has(modify)) return undefined;
  const reading = method === 'GET' || method === 'HEAD';
  if (reading && granted.has(`${modify}_read_only`)) return undefined;
  return reading ? `${modify}_read_only` : modify;
}
