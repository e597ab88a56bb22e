import { timingSafeEqual } from 'node:crypto';
import {
  parseAuthorizationHeader,
  verifySignature,
} from '@replatform/connectors/kit/oauth1/oauth1';

/**
 * Magento integration authentication (Magento\Framework\Oauth\Oauth::validateAccessTokenRequest):
 * an OAuth 1.0a signed request with the integration's consumer key/secret and access
 * token/secret. Magento refuses an unknown consumer or token, an unsupported signature method or
 * version, a timestamp more than 600 s away from the server clock, a nonce the consumer already
 * used, and a wrong signature. Since 2.4.4 the access token is not accepted as a bearer token
 * unless "Allow OAuth Access Tokens to be used as standalone Bearer tokens" is switched on.
 * Every refusal reaches the client as the same 401 "consumer isn't authorized" answer.
 */

export interface IntegrationCredentials {
  consumerKey: string;
  consumerSecret: string;
  accessToken: string;
  accessTokenSecret: string;
}

export type AuthRefusal =
  | 'missing'
  | 'bearer_disabled'
  | 'consumer_key_rejected'
  | 'token_rejected'
  | 'signature_method_rejected'
  | 'version_rejected'
  | 'timestamp_refused'
  | 'nonce_used'
  | 'signature_invalid'
  | 'parameter_absent';

export type AuthResult = { ok: true } | { ok: false; reason: AuthRefusal };

const TIMESTAMP_WINDOW_S = 600;

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export class OAuthGuard {
  readonly #credentials: IntegrationCredentials;
  readonly #allowBearer: boolean;
  readonly #now: () => number;
  /** nonce -> timestamp it came with; entries older than the window can no longer be replayed. */
  readonly #nonces = new Map<string, number>();
  readonly refusals: AuthRefusal[] = [];

  constructor(
    credentials: IntegrationCredentials,
    options: { allowBearer?: boolean; now?: () => number } = {},
  ) {
    this.#credentials = credentials;
    this.#allowBearer = options.allowBearer ?? false;
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  /**
   * Checks one request. `url` is the full URL as the client addressed it (the signature covers
   * scheme, host, port, path and query parameters; a JSON body is not signed).
   */
  verify(method: string, url: string, authorization: string | undefined): AuthResult {
    const result = this.#check(method, url, authorization);
    if (!result.ok) this.refusals.push(result.reason);
    return result;
  }

  #check(method: string, url: string, authorization: string | undefined): AuthResult {
    if (!authorization) return { ok: false, reason: 'missing' };
    const bearer = /^Bearer\s+(.+)$/i.exec(authorization);
    if (bearer) {
      if (!this.#allowBearer) return { ok: false, reason: 'bearer_disabled' };
      return sameText(bearer[1]?.trim() ?? '', this.#credentials.accessToken)
        ? { ok: true }
        : { ok: false, reason: 'token_rejected' };
    }
    const oauth = parseAuthorizationHeader(authorization);
    if (!oauth) return { ok: false, reason: 'missing' };
    for (const name of [
      'oauth_consumer_key',
      'oauth_signature_method',
      'oauth_signature',
      'oauth_nonce',
      'oauth_timestamp',
      'oauth_token',
    ]) {
      if (!oauth[name]) return { ok: false, reason: 'parameter_absent' };
    }
    if (!sameText(oauth.oauth_consumer_key ?? '', this.#credentials.consumerKey)) {
      return { ok: false, reason: 'consumer_key_rejected' };
    }
    if (oauth.oauth_version !== undefined && oauth.oauth_version !== '1.0') {
      return { ok: false, reason: 'version_rejected' };
    }
    const signatureMethod = oauth.oauth_signature_method;
    if (signatureMethod !== 'HMAC-SHA1' && signatureMethod !== 'HMAC-SHA256') {
      return { ok: false, reason: 'signature_method_rejected' };
    }
    const timestamp = Number(oauth.oauth_timestamp);
    const now = this.#now();
    if (!Number.isInteger(timestamp) || Math.abs(now - timestamp) > TIMESTAMP_WINDOW_S) {
      return { ok: false, reason: 'timestamp_refused' };
    }
    if (!sameText(oauth.oauth_token ?? '', this.#credentials.accessToken)) {
      return { ok: false, reason: 'token_rejected' };
    }
    const valid = verifySignature({
      method,
      url,
      oauth,
      consumerSecret: this.#credentials.consumerSecret,
      tokenSecret: this.#credentials.accessTokenSecret,
    });
    if (!valid) return { ok: false, reason: 'signature_invalid' };
    // The nonce is checked after the signature so that a forged request cannot burn a nonce.
    const nonce = oauth.oauth_nonce ?? '';
    this.#forgetOldNonces(now);
    if (this.#nonces.has(nonce)) return { ok: false, reason: 'nonce_used' };
    this.#nonces.set(nonce, timestamp);
    return { ok: true };
  }

  #forgetOldNonces(now: number): void {
    for (const [nonce, timestamp] of this.#nonces) {
      if (now - timestamp > TIMESTAMP_WINDOW_S * 2) this.#nonces.delete(nonce);
    }
  }
}
