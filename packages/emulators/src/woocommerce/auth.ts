import { timingSafeEqual } from 'node:crypto';
import {
  parseAuthorizationHeader,
  verifySignature,
} from '@replatform/connectors/kit/oauth1/oauth1';
import type { EmulatorRequest, EmulatorResponse } from '../framework/server.ts';
import { wpError } from './wp-rest.ts';

/**
 * WC_REST_Authentication as a real store applies it. Over https: HTTP Basic with the consumer key
 * and secret, or `consumer_key`/`consumer_secret` in the query, and failing those an OAuth
 * signature. Over plain http only OAuth 1.0a one-legged signatures (HMAC-SHA1 or HMAC-SHA256, key
 * `consumer_secret&`), with timestamps outside 15 minutes and reused nonces refused. Anything
 * else is not authenticated, and the route's permission check then answers 401. A key has the
 * permissions it was made with (WooCommerce > Settings > Advanced > REST API): `read` keys may
 * only GET, `write` keys may only change, `read_write` keys may do both (check_permissions(),
 * run on rest_pre_dispatch before any route).
 */

export type KeyPermissions = 'read' | 'write' | 'read_write';

export interface ApiKey {
  consumerKey: string;
  consumerSecret: string;
  permissions: KeyPermissions;
}

export type AuthResult =
  | { kind: 'user'; key: ApiKey }
  | { kind: 'anonymous' }
  | { kind: 'error'; response: EmulatorResponse };

const oauthParams = [
  'oauth_consumer_key',
  'oauth_timestamp',
  'oauth_nonce',
  'oauth_signature',
  'oauth_signature_method',
] as const;

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export class WooAuthenticator {
  readonly keys: readonly ApiKey[];
  /** WooCommerce's window for OAuth timestamps and remembered nonces. */
  readonly windowSeconds = 15 * 60;
  private readonly nonces = new Map<string, number>();
  now: () => number = () => Date.now();

  constructor(keys: readonly ApiKey[]) {
    this.keys = keys;
  }

  /** The first key: what a store made with one key pair is reached with. */
  get consumerKey(): string {
    return this.keys[0]?.consumerKey ?? '';
  }

  get consumerSecret(): string {
    return this.keys[0]?.consumerSecret ?? '';
  }

  private keyOf(consumerKey: string): ApiKey | undefined {
    return this.keys.find((k) => k.consumerKey === consumerKey);
  }

  authenticate(request: EmulatorRequest, home: string, https: boolean): AuthResult {
    if (https) {
      const basic = this.basic(request);
      if (basic.kind !== 'anonymous') return basic;
    }
    return this.oauth(request, home);
  }

  /** check_permissions(): the key's own read/write permission, by request method. */
  permitted(key: ApiKey, method: string): AuthResult {
    const reading = method === 'GET' || method === 'HEAD';
    const writing = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method);
    if (method === 'OPTIONS') return { kind: 'user', key };
    if (reading && key.permissions !== 'read' && key.permissions !== 'read_write')
      return this.fail('The API key provided does not have read permissions.');
    if (writing && key.permissions !== 'write' && key.permissions !== 'read_write')
      return this.fail('The API key provided does not have write permissions.');
    if (!reading && !writing) return this.fail('Unknown request method.');
    return { kind: 'user', key };
  }

  private fail(message: string, code = 'woocommerce_rest_authentication_error'): AuthResult {
    return { kind: 'error', response: wpError(401, code, message) };
  }

  private basic(request: EmulatorRequest): AuthResult {
    let consumerKey = '';
    let consumerSecret = '';
    const queryKey = request.url.searchParams.get('consumer_key');
    const querySecret = request.url.searchParams.get('consumer_secret');
    if (queryKey && querySecret) {
      consumerKey = queryKey;
      consumerSecret = querySecret;
    }
    const header = request.headers.authorization;
    if (!consumerKey && header?.startsWith('Basic ')) {
      const decoded = Buffer.from(header.slice(6), 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon > 0) {
        consumerKey = decoded.slice(0, colon);
        consumerSecret = decoded.slice(colon + 1);
      }
    }
    if (!consumerKey || !consumerSecret) return { kind: 'anonymous' };
    // An unknown key is not an error here: the request simply is not authenticated.
    const key = this.keyOf(consumerKey);
    if (!key) return { kind: 'anonymous' };
    if (!sameSecret(consumerSecret, key.consumerSecret))
      return this.fail('Consumer secret is invalid.');
    return { kind: 'user', key };
  }

  private oauth(request: EmulatorRequest, home: string): AuthResult {
    const params: Record<string, string> = {};
    for (const [k, v] of request.url.searchParams) if (k.startsWith('oauth_')) params[k] = v;
    const header = parseAuthorizationHeader(request.headers.authorization);
    if (header) Object.assign(params, header);
    const missing = oauthParams.filter((p) => !params[p]);
    if (missing.length === oauthParams.length) return { kind: 'anonymous' };
    if (missing.length)
      return this.fail(
        `Missing OAuth parameter${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`,
        'woocommerce_rest_authentication_missing_parameter',
      );
    const key = this.keyOf(params.oauth_consumer_key ?? '');
    if (!key) return this.fail('Consumer key is invalid.');
    const method = params.oauth_signature_method;
    if (method !== 'HMAC-SHA1' && method !== 'HMAC-SHA256')
      return this.fail('Invalid signature - signature method is invalid.');
    // The signature covers the store's home URL with the request path, as WooCommerce rebuilds it.
    const signedUrl = `${home}${request.url.pathname}${request.url.search}`;
    const valid = verifySignature({
      method: request.method,
      url: signedUrl,
      oauth: params,
      consumerSecret: key.consumerSecret,
    });
    if (!valid) return this.fail('Invalid signature - provided signature does not match.');
    const timestamp = Number(params.oauth_timestamp);
    const nowSeconds = Math.floor(this.now() / 1000);
    if (
      !Number.isFinite(timestamp) ||
      timestamp < nowSeconds - this.windowSeconds ||
      timestamp > nowSeconds + this.windowSeconds
    )
      return this.fail('Invalid timestamp.');
    for (const [nonce, at] of this.nonces)
      if (at < nowSeconds - this.windowSeconds) this.nonces.delete(nonce);
    const nonceKey = `${key.consumerKey}:${params.oauth_nonce}`;
    if (this.nonces.has(nonceKey)) return this.fail('Invalid nonce - nonce has already been used.');
    this.nonces.set(nonceKey, timestamp);
    return { kind: 'user', key };
  }
}

/** The error a route's permission callback answers to an unauthenticated request. */
export function permissionError(
  method: string,
  kind: 'collection' | 'item' | 'batch',
): EmulatorResponse {
  if (kind === 'batch')
    return wpError(
      401,
      'woocommerce_rest_cannot_batch',
      'Sorry, you are not allowed to batch manipulate this resource.',
    );
  if (method === 'GET')
    return kind === 'collection'
      ? wpError(401, 'woocommerce_rest_cannot_view', 'Sorry, you cannot list resources.')
      : wpError(401, 'woocommerce_rest_cannot_view', 'Sorry, you cannot view this resource.');
  if (method === 'DELETE')
    return wpError(
      401,
      'woocommerce_rest_cannot_delete',
      'Sorry, you are not allowed to delete this resource.',
    );
  if (kind === 'collection')
    return wpError(
      401,
      'woocommerce_rest_cannot_create',
      'Sorry, you are not allowed to create resources.',
    );
  return wpError(
    401,
    'woocommerce_rest_cannot_edit',
    'Sorry, you are not allowed to edit this resource.',
  );
}
