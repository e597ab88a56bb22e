import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { ConnectorHttp } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';

/**
 * Shopify app install (authorization code grant):
 * shopify.dev/docs/apps/build/authentication-authorization/access-tokens/authorization-code-grant.
 * Pure helpers; the server wires the routes, binds `state` to the signed-in session and stores the
 * token only after the callback's HMAC and shop were verified.
 */

/**
 * Access scopes the connector needs to read and write products, customers, orders, discount codes,
 * online-store content and files, and redirects.
 */
export const SHOPIFY_SCOPES = [
  'read_products',
  'write_products',
  'read_customers',
  'write_customers',
  'read_orders',
  'write_orders',
  // Orders older than 60 days are only visible with read_all_orders.
  'read_all_orders',
  'read_inventory',
  'write_inventory',
  'read_locations',
  'read_online_store_navigation',
  'write_online_store_navigation',
  'write_merchant_managed_fulfillment_orders',
  'read_discounts',
  'write_discounts',
  // Pages, blogs and blog articles of the online store.
  'read_content',
  'write_content',
  // Image files a migration stores once and reuses, which undoing the migration deletes.
  'read_files',
  'write_files',
] as const;

const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]*\.myshopify\.com$/;

/**
 * A shop's permanent domain, exactly `name.myshopify.com` in lower case: no scheme, port, path,
 * user info, whitespace or trailing dot, so it can safely be put into a URL.
 */
export function isValidShopDomain(shop: unknown): shop is string {
  if (typeof shop !== 'string' || shop.length > 255 || !SHOP_DOMAIN.test(shop)) return false;
  const label = shop.slice(0, -'.myshopify.com'.length);
  // A DNS label is at most 63 characters and cannot end with a hyphen.
  return label.length <= 63 && !label.endsWith('-');
}

export interface AuthorizeUrlInput {
  shop: string;
  apiKey: string;
  scopes: readonly string[];
  redirectUri: string;
  /** A random, single-use value bound to the signed-in session; checked on the callback. */
  state: string;
  /** 'per-user' asks for an online token; the migration needs the default offline token. */
  accessMode?: 'offline' | 'per-user';
}

export function buildAuthorizeUrl(input: AuthorizeUrlInput): string {
  if (!isValidShopDomain(input.shop)) throw new Error('Invalid shop domain');
  if (!input.apiKey) throw new Error('apiKey is required');
  if (input.state.length < 16)
    throw new Error('state must be a random value of at least 16 characters');
  const redirect = new URL(input.redirectUri);
  if (redirect.protocol !== 'https:' && redirect.protocol !== 'http:')
    throw new Error('redirectUri must be http(s)');
  const url = new URL(`https://${input.shop}/admin/oauth/authorize`);
  url.searchParams.set('client_id', input.apiKey);
  url.searchParams.set('scope', input.scopes.join(','));
  url.searchParams.set('redirect_uri', redirect.toString());
  url.searchParams.set('state', input.state);
  if (input.accessMode === 'per-user') url.searchParams.append('grant_options[]', 'per-user');
  return url.toString();
}

type QueryInput = URLSearchParams | string | Record<string, string | string[] | undefined>;

function pairsOf(query: QueryInput): [string, string][] | undefined {
  const params =
    typeof query === 'string'
      ? new URLSearchParams(query.startsWith('?') ? query.slice(1) : query)
      : query instanceof URLSearchParams
        ? query
        : undefined;
  const pairs: [string, string][] = [];
  if (params) for (const [k, v] of params) pairs.push([k, v]);
  else {
    for (const [k, v] of Object.entries(query as Record<string, string | string[] | undefined>)) {
      if (v === undefined) continue;
      if (Array.isArray(v)) return undefined;
      pairs.push([k, v]);
    }
  }
  // A repeated parameter is ambiguous (which value was signed?): refuse it.
  const names = pairs.map(([k]) => k);
  if (new Set(names).size !== names.length) return undefined;
  return pairs;
}

/**
 * The message Shopify signs: every parameter but `hmac` and `signature`, sorted by name and
 * form-encoded as application/x-www-form-urlencoded (what URLSearchParams writes: spaces as '+',
 * and `!'()~` escaped), which is how Shopify's own libraries rebuild it.
 */
export function signedMessage(pairs: readonly (readonly [string, string])[]): string {
  const params = new URLSearchParams();
  for (const [k, v] of pairs
    .filter(([k]) => k !== 'hmac' && k !== 'signature')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    params.append(k, v);
  return params.toString();
}

/**
 * Verifies the `hmac` of an OAuth callback (or any Shopify-signed query): HMAC-SHA256 (hex) with
 * the app's secret over signedMessage(), compared in constant time.
 */
export function verifyCallbackHmac(query: QueryInput, apiSecret: string): boolean {
  if (!apiSecret) return false;
  const pairs = pairsOf(query);
  if (!pairs) return false;
  const given = pairs.find(([k]) => k === 'hmac')?.[1];
  if (!given || !/^[0-9a-f]{64}$/i.test(given)) return false;
  const expected = createHmac('sha256', apiSecret).update(signedMessage(pairs)).digest();
  const received = Buffer.from(given, 'hex');
  return received.length === expected.length && timingSafeEqual(received, expected);
}

/** True when the callback's timestamp is recent (replayed callbacks are refused). */
export function isFreshTimestamp(
  timestamp: unknown,
  nowMs = Date.now(),
  maxAgeSeconds = 600,
): boolean {
  const seconds = Number(timestamp);
  if (!Number.isInteger(seconds)) return false;
  return Math.abs(nowMs / 1000 - seconds) <= maxAgeSeconds;
}

const tokenResponseSchema = z.object({ access_token: z.string().min(1), scope: z.string() });

export interface ExchangeCodeInput {
  shop: string;
  code: string;
  apiKey: string;
  apiSecret: string;
}

export interface ShopifyToken {
  accessToken: string;
  scopes: string[];
}

/** POST https://{shop}/admin/oauth/access_token with the one-time code; answers the offline token. */
export async function exchangeCode(
  input: ExchangeCodeInput,
  http: ConnectorHttp,
): Promise<ShopifyToken> {
  if (!isValidShopDomain(input.shop))
    throw new ConnectorError(
      'config',
      'invalid_shop',
      'The shop domain is not a valid myshopify.com domain.',
    );
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(input.code))
    throw new ConnectorError(
      'config',
      'oauth_code_invalid',
      'The authorization code is not valid.',
    );
  let response;
  try {
    response = await http.request({
      method: 'POST',
      url: `https://${input.shop}/admin/oauth/access_token`,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        client_id: input.apiKey,
        client_secret: input.apiSecret,
        code: input.code,
      }),
      // A code is single use: never repeat the exchange automatically.
      retryable: false,
    });
  } catch (error) {
    throw new ConnectorError(
      'transient',
      'store_unreachable',
      'Shopify could not be reached to finish the installation.',
      { cause: error },
    );
  }
  if (response.status === 400 || response.status === 401 || response.status === 403)
    throw new ConnectorError(
      'config',
      'oauth_code_invalid',
      'Shopify refused the authorization code (expired, already used or for another app). Install the app again.',
      { status: response.status },
    );
  if (response.status >= 500 || response.status === 429)
    throw new ConnectorError(
      'transient',
      'store_unavailable',
      `Shopify answered ${response.status} to the token exchange.`,
      { status: response.status },
    );
  if (response.status !== 200)
    throw new ConnectorError(
      'system',
      'unexpected_response',
      `Shopify answered ${response.status} to the token exchange.`,
      { status: response.status },
    );
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(response.body));
  } catch (error) {
    throw new ConnectorError(
      'system',
      'unexpected_response',
      'The token exchange answer is not JSON.',
      { cause: error },
    );
  }
  const parsed = tokenResponseSchema.safeParse(body);
  if (!parsed.success)
    throw new ConnectorError(
      'system',
      'unexpected_response',
      'The token exchange answer has no access token.',
    );
  return {
    accessToken: parsed.data.access_token,
    scopes: parsed.data.scope
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
}
