const suffix = ' — Replatform';

/** Pages whose title is fixed by their path (the browser tab and history list show it). */
const titles: Record<string, string> = {
  '/': 'Replatform — store migrations',
  '/login': `Sign in${suffix}`,
  '/signup': `Create account${suffix}`,
  '/confirm-email': `Confirm your e-mail${suffix}`,
  '/migrations': `Your migrations${suffix}`,
  '/migration-history': `Migration history${suffix}`,
  '/my-account': `My account${suffix}`,
  '/help': `Help${suffix}`,
  '/contact': `Contact${suffix}`,
  '/settings': `Settings${suffix}`,
  '/notifications': `Notifications${suffix}`,
  '/enterprise': `Enterprise${suffix}`,
  '/blogs': `Blog${suffix}`,
};

/** Pages that name themselves after what they load (a blog post, a landing page). */
const ownTitle = [/^\/blog\/[^/]+$/, /^\/magento-to-shopify$/];

/**
 * The document title for a path: null when the page sets its own. Unknown paths are the 404
 * page.
 */
export function titleFor(pathname: string, search = ''): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  if (ownTitle.some((pattern) => pattern.test(path))) return null;
  if (path === '/login' && new URLSearchParams(search).get('mode') === 'reset')
    return `Reset password${suffix}`;
  if (/^\/migrations\/[^/]+$/.test(path)) return `Migration${suffix}`;
  if (/^\/migration-history\/[^/]+$/.test(path)) return `Migration details${suffix}`;
  return titles[path] ?? `Page not found${suffix}`;
}
