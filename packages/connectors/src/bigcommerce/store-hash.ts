/**
 * Store owners paste their BigCommerce store in many forms: the bare store hash, the API path
 * their API account shows (https://api.bigcommerce.com/stores/{hash}/v3/), or the control panel's
 * address (https://store-{hash}.mybigcommerce.com/manage). The hash is read from the text alone:
 * nothing the owner typed is ever fetched, and any other host (a custom storefront domain, a look-
 * alike of api.bigcommerce.com) yields nothing.
 */

const hashPattern = /^[a-z0-9]+$/;

/** The store hash in a pasted store identifier, or undefined when there is none in it. */
export function bigCommerceStoreHash(input: string): string | undefined {
  const text = input.trim();
  if (!text) return undefined;
  if (/^[A-Za-z0-9]+$/.test(text)) return text.toLowerCase();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const host = url.hostname.toLowerCase();
  let hash: string | undefined;
  if (host === 'api.bigcommerce.com') {
    hash = /^\/stores\/([^/]+)(?:\/|$)/.exec(url.pathname)?.[1];
  } else {
    hash = /^store-([^.]+)\.mybigcommerce\.com$/.exec(host)?.[1];
  }
  const lower = hash?.toLowerCase();
  return lower !== undefined && hashPattern.test(lower) ? lower : undefined;
}
