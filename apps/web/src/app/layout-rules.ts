/** Paths under which a signed-in user sees the app top bar (spec.md section 2, Layout). */
const topBarPrefixes = [
  '/migrations',
  '/migration-history',
  '/my-account',
  '/help',
  '/contact',
  '/settings',
  '/notifications',
];

/** Paths where a signed-in user sees no header at all (they carry their own). */
const noHeaderPaths = [
  '/',
  '/blogs',
  '/enterprise',
  '/magento-to-shopify',
  '/login',
  '/confirm-email',
];

const underPrefix = (path: string, prefix: string) =>
  path === prefix || path.startsWith(`${prefix}/`);

export type Chrome = 'top-bar' | 'header' | 'none';

export function chromeFor(path: string, signedIn: boolean): Chrome {
  if (!signedIn) return 'none';
  if (topBarPrefixes.some((p) => underPrefix(path, p))) return 'top-bar';
  if (noHeaderPaths.includes(path)) return 'none';
  return 'header';
}

/** Redirect target that keeps the current query string (spec.md: the redirect helper). */
export function withQuery(target: string, search: string): string {
  if (!search || search === '?') return target;
  return `${target}${search.startsWith('?') ? search : `?${search}`}`;
}
