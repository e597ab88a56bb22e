import { createHmac, randomBytes } from 'node:crypto';
import type { EmulatorRequest, EmulatorResponse } from '../framework/server.ts';
import type { ShopStore } from './store.ts';

/**
 * Shopify's app-install OAuth (authorization code grant,
 * shopify.dev/docs/apps/build/authentication-authorization/access-tokens/authorization-code-grant):
 * GET /admin/oauth/authorize sends the merchant back to the app's redirect_uri with code, hmac,
 * host, shop, state and timestamp; the hmac is HMAC-SHA256 (hex) with the app's secret over the
 * other parameters sorted by name and joined as `name=value&...`. POST /admin/oauth/access_token
 * exchanges a code (single use, ten minutes) for an offline access token.
 */

export interface OAuthApp {
  apiKey: string;
  apiSecret: string;
}

interface Grant {
  shop: string;
  scopes: string[];
  expiresAt: number;
}

const CODE_LIFETIME_MS = 10 * 60 * 1000;

/**
 * The message Shopify signs: parameters minus hmac/signature, sorted by name and form-encoded
 * (application/x-www-form-urlencoded, as URLSearchParams writes it).
 */
export function signedMessage(params: [string, string][]): string {
  const sorted = new URLSearchParams();
  for (const [k, v] of params
    .filter(([k]) => k !== 'hmac' && k !== 'signature')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    sorted.append(k, v);
  return sorted.toString();
}

export function signParams(params: [string, string][], secret: string): string {
  return createHmac('sha256', secret).update(signedMessage(params)).digest('hex');
}

function htmlError(status: number, message: string): EmulatorResponse {
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!DOCTYPE html><html><body><h1>Oauth error</h1><p>${message.replace(/[<>&]/g, '')}</p></body></html>`,
  };
}

export class OAuthServer {
  readonly #app: OAuthApp;
  readonly #grants = new Map<string, Grant>();
  readonly #now: () => number;

  constructor(app: OAuthApp, now: () => number) {
    this.#app = app;
    this.#now = now;
  }

  authorize(request: EmulatorRequest, store: ShopStore): EmulatorResponse {
    const q = request.url.searchParams;
    if (q.get('client_id') !== this.#app.apiKey)
      return htmlError(400, 'invalid_request: The client_id is not valid.');
    const redirectUri = q.get('redirect_uri');
    let target: URL;
    try {
      target = new URL(redirectUri ?? '');
    } catch {
      return htmlError(400, 'invalid_request: The redirect_uri is missing or not a valid URL.');
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:')
      return htmlError(400, 'invalid_request: The redirect_uri must be an http(s) URL.');
    const scopes = (q.get('scope') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const code = randomBytes(16).toString('hex');
    this.#grants.set(code, {
      shop: store.config.domain,
      scopes,
      expiresAt: this.#now() + CODE_LIFETIME_MS,
    });
    const shopName = store.config.domain.replace(/\.myshopify\.com$/, '');
    const params: [string, string][] = [
      ['code', code],
      [
        'host',
        Buffer.from(`admin.shopify.com/store/${shopName}`).toString('base64').replace(/=+$/, ''),
      ],
      ['shop', store.config.domain],
      ['state', q.get('state') ?? ''],
      ['timestamp', String(Math.floor(this.#now() / 1000))],
    ];
    params.push(['hmac', signParams(params, this.#app.apiSecret)]);
    for (const [k, v] of params) target.searchParams.set(k, v);
    return { status: 302, headers: { location: target.toString() }, body: '' };
  }

  accessToken(request: EmulatorRequest, store: ShopStore): EmulatorResponse {
    const type = String(request.headers['content-type'] ?? '');
    let body: Record<string, unknown> = {};
    try {
      body = type.includes('application/json')
        ? (JSON.parse(request.body.toString('utf8')) as Record<string, unknown>)
        : Object.fromEntries(new URLSearchParams(request.body.toString('utf8')));
    } catch {
      return {
        status: 400,
        body: { error: 'invalid_request', error_description: 'The request body is not valid.' },
      };
    }
    if (body.client_id !== this.#app.apiKey || body.client_secret !== this.#app.apiSecret)
      return {
        status: 401,
        body: { error: 'invalid_client', error_description: 'Client authentication failed.' },
      };
    const code = typeof body.code === 'string' ? body.code : '';
    const grant = this.#grants.get(code);
    // A code is single use: once the app presents it, it is forgotten whether or not it is valid.
    this.#grants.delete(code);
    if (!grant || grant.shop !== store.config.domain || grant.expiresAt < this.#now())
      return {
        status: 400,
        body: {
          error: 'invalid_request',
          error_description: 'The authorization code was not found or was already used',
        },
      };
    const token = `shpat_${randomBytes(16).toString('hex')}`;
    store.tokens.set(token, new Set(grant.scopes));
    return { status: 200, body: { access_token: token, scope: grant.scopes.join(',') } };
  }
}
