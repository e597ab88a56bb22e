import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Builds the Fetch API request better-auth's handler takes from a Fastify request. The URL is
 * rebuilt on PUBLIC_URL (never on the Host header), the already-parsed JSON body is serialised
 * again, and x-forwarded-for is replaced by the address Fastify resolved (TRUST_PROXY decides
 * whether that came from a proxy), so a client cannot choose the address sessions record.
 */
export function toWebRequest(request: FastifyRequest, publicUrl: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (
      ['host', 'content-length', 'connection', 'transfer-encoding', 'x-forwarded-for'].includes(
        lower,
      )
    )
      continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, String(value));
  }
  headers.set('x-forwarded-for', request.ip);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  let body: string | undefined;
  if (hasBody) {
    body = JSON.stringify(request.body ?? {});
    headers.set('content-type', 'application/json');
  }
  return new Request(`${publicUrl}${request.url}`, { method: request.method, headers, body });
}

/** better-auth's error codes in our error shape, with messages a user can act on. */
const friendlyMessages: Record<string, string> = {
  INVALID_EMAIL_OR_PASSWORD: 'Invalid email or password.',
  INVALID_EMAIL: 'Please enter a valid email address.',
  INVALID_PASSWORD: 'Your current password is incorrect.',
  PASSWORD_TOO_SHORT: 'Use a password of at least 8 characters.',
  PASSWORD_TOO_LONG: 'Use a password of at most 128 characters.',
  USER_ALREADY_EXISTS: 'An account with this email already exists. Please sign in instead.',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL:
    'An account with this email already exists. Please sign in instead.',
  INVALID_TOKEN: 'This password reset link is invalid or has expired. Please request a new one.',
  SESSION_EXPIRED: 'For your security, please sign in again and then retry.',
  CREDENTIAL_ACCOUNT_NOT_FOUND:
    'This account has no password (it signs in with Google, or is a demo account).',
  EMAIL_NOT_VERIFIED:
    'Please confirm your e-mail address first: we have sent you a new link. Open it to sign in.',
  FAILED_TO_GET_SESSION: 'Please sign in to continue.',
  UNAUTHORIZED: 'Please sign in to continue.',
  INVALID_ORIGIN: 'Cross-site requests are not allowed.',
  MISSING_OR_NULL_ORIGIN: 'Cross-site requests are not allowed.',
  CROSS_SITE_NAVIGATION_LOGIN_BLOCKED: 'Cross-site requests are not allowed.',
};

function translateError(status: number, text: string): { code: string; message: string } {
  let parsed: { code?: unknown; message?: unknown } = {};
  try {
    parsed = text ? (JSON.parse(text) as typeof parsed) : {};
  } catch {
    // not JSON: fall through to a message by status
  }
  const rawCode = typeof parsed.code === 'string' ? parsed.code : '';
  const code = rawCode ? rawCode.toLowerCase() : status === 404 ? 'not_found' : 'auth_error';
  const message =
    friendlyMessages[rawCode] ??
    (status === 404
      ? 'No such API route.'
      : typeof parsed.message === 'string' && parsed.message
        ? parsed.message
        : 'An error occurred. Please try again.');
  return { code, message };
}

/**
 * Session tokens live only in the httpOnly cookie: better-auth also echoes them in JSON (sign-in,
 * sign-up, get-session, list-sessions), where page scripts could read them, so they are removed.
 */
function withoutTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTokens);
  if (!value || typeof value !== 'object') return value;
  const { token: _token, ...rest } = value as Record<string, unknown>;
  if (rest.session && typeof rest.session === 'object') rest.session = withoutTokens(rest.session);
  return rest;
}

/** Sends better-auth's answer through Fastify, errors in `{ error: { code, message } }`. */
export async function sendWebResponse(reply: FastifyReply, response: Response): Promise<void> {
  reply.status(response.status);
  response.headers.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (lower === 'set-cookie' || lower === 'content-length' || lower === 'content-encoding')
      return;
    reply.header(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length) reply.header('set-cookie', cookies);
  reply.header('cache-control', 'no-store');
  const text = await response.text();
  if (response.status >= 400) {
    await reply
      .type('application/json; charset=utf-8')
      .send({ error: translateError(response.status, text) });
    return;
  }
  if (text && response.headers.get('content-type')?.includes('application/json')) {
    await reply.send(JSON.stringify(withoutTokens(JSON.parse(text))));
    return;
  }
  await reply.send(text);
}
