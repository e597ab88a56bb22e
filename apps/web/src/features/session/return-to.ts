const key = 'replatform.returnTo';

/**
 * A path of ours the visitor may be sent back to after signing in: same-origin absolute paths
 * only (never `//host` or a URL), and never the auth screen itself.
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || !value.startsWith('/')) return null;
  if (value.startsWith('//') || value.startsWith('/\\') || /[\s\\]/.test(value)) return null;
  const path = value.split(/[?#]/)[0] ?? '';
  if (path === '/login' || path === '/signup' || path === '/') return null;
  return value;
}

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    // Storage can be switched off; the router state still carries the page.
    return null;
  }
}

/**
 * Remembers the page a signed-out visitor first asked for. The router state carries it too, but
 * sessionStorage also survives reloads, the switch to /signup and the Google round trip.
 */
export function rememberReturnTo(path: string): void {
  const safe = safeReturnPath(path);
  if (safe) storage()?.setItem(key, safe);
}

/** The page to go to once signed in: the remembered one, else the router's, else none. */
export function returnTo(routerFrom?: unknown): string | null {
  return safeReturnPath(storage()?.getItem(key)) ?? safeReturnPath(routerFrom);
}

export function forgetReturnTo(): void {
  storage()?.removeItem(key);
}
