import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * OAuth 1.0a request signing (RFC 5849), as WooCommerce requires over plain http and Magento 2
 * integrations require for admin REST calls. Parameters of the query string and of
 * application/x-www-form-urlencoded bodies take part in the signature; JSON bodies do not.
 */

export type SignatureMethod = 'HMAC-SHA1' | 'HMAC-SHA256';

export interface OAuth1Credentials {
  consumerKey: string;
  consumerSecret: string;
  /** Absent for one-legged (consumer-only) signing, as WooCommerce uses. */
  token?: string;
  tokenSecret?: string;
}

/** RFC 3986 percent-encoding, which OAuth requires (encodeURIComponent leaves !*'() alone). */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!*'()]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Base string URI: scheme and host lower case, default port dropped, no query or fragment. */
export function baseStringUri(url: URL): string {
  const scheme = url.protocol.replace(':', '').toLowerCase();
  const host = url.hostname.toLowerCase();
  const defaultPort =
    (scheme === 'http' && url.port === '80') || (scheme === 'https' && url.port === '443');
  const port = url.port && !defaultPort ? `:${url.port}` : '';
  return `${scheme}://${host}${port}${url.pathname}`;
}

/** Normalised parameter string: every pair encoded, sorted by name then value, joined with '&'. */
export function normaliseParameters(pairs: [string, string][]): string {
  return pairs
    .map(([k, v]) => [percentEncode(k), percentEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak === bk ? (av < bv ? -1 : av > bv ? 1 : 0) : ak < bk ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

export function signatureBaseString(method: string, url: URL, pairs: [string, string][]): string {
  return [
    method.toUpperCase(),
    percentEncode(baseStringUri(url)),
    percentEncode(normaliseParameters(pairs)),
  ].join('&');
}

export function computeSignature(
  baseString: string,
  consumerSecret: string,
  tokenSecret: string,
  method: SignatureMethod,
): string {
  const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
  return createHmac(method === 'HMAC-SHA1' ? 'sha1' : 'sha256', key)
    .update(baseString)
    .digest('base64');
}

function queryPairs(url: URL): [string, string][] {
  return [...url.searchParams.entries()];
}

export interface SignOptions {
  method: string;
  url: string;
  credentials: OAuth1Credentials;
  signatureMethod?: SignatureMethod;
  /** Form-encoded body parameters (not JSON) that take part in the signature. */
  formParameters?: [string, string][];
  timestamp?: number;
  nonce?: string;
}

/** Returns the oauth_* parameters including oauth_signature. */
export function signRequest(options: SignOptions): Record<string, string> {
  const url = new URL(options.url);
  const oauth: Record<string, string> = {
    oauth_consumer_key: options.credentials.consumerKey,
    oauth_nonce: options.nonce ?? randomBytes(16).toString('hex'),
    oauth_signature_method: options.signatureMethod ?? 'HMAC-SHA256',
    oauth_timestamp: String(options.timestamp ?? Math.floor(Date.now() / 1000)),
    oauth_version: '1.0',
  };
  if (options.credentials.token) oauth.oauth_token = options.credentials.token;
  const pairs: [string, string][] = [
    ...queryPairs(url),
    ...(options.formParameters ?? []),
    ...Object.entries(oauth),
  ];
  const base = signatureBaseString(options.method, url, pairs);
  oauth.oauth_signature = computeSignature(
    base,
    options.credentials.consumerSecret,
    options.credentials.tokenSecret ?? '',
    oauth.oauth_signature_method as SignatureMethod,
  );
  return oauth;
}

/** `Authorization: OAuth ...` header value for signed parameters (Magento's form). */
export function authorizationHeader(oauth: Record<string, string>): string {
  return `OAuth ${Object.entries(oauth)
    .map(([k, v]) => `${percentEncode(k)}="${percentEncode(v)}"`)
    .join(', ')}`;
}

/** Parses an `Authorization: OAuth ...` header into its parameters; undefined if it is not one. */
export function parseAuthorizationHeader(
  header: string | undefined,
): Record<string, string> | undefined {
  if (!header || !/^OAuth\s/i.test(header)) return undefined;
  const params: Record<string, string> = {};
  for (const match of header.slice(6).matchAll(/([A-Za-z0-9_%.-]+)="([^"]*)"/g)) {
    const [, key, value] = match;
    if (key !== undefined && value !== undefined)
      params[decodeURIComponent(key)] = decodeURIComponent(value);
  }
  return params;
}

export interface VerifyInput {
  method: string;
  /** The full URL as the client addressed it (scheme, host and port of the server). */
  url: string;
  /** oauth_* parameters, from the header or the query string. */
  oauth: Record<string, string>;
  formParameters?: [string, string][];
  consumerSecret: string;
  tokenSecret?: string;
}

/** Recomputes the signature and compares it in constant time. */
export function verifySignature(input: VerifyInput): boolean {
  const url = new URL(input.url);
  const method = input.oauth.oauth_signature_method;
  if (method !== 'HMAC-SHA1' && method !== 'HMAC-SHA256') return false;
  const given = input.oauth.oauth_signature ?? '';
  const pairs: [string, string][] = [
    ...queryPairs(url).filter(([k]) => k !== 'oauth_signature'),
    ...(input.formParameters ?? []),
    ...Object.entries(input.oauth).filter(
      ([k]) => k !== 'oauth_signature' && !url.searchParams.has(k),
    ),
  ];
  const expected = computeSignature(
    signatureBaseString(input.method, url, pairs),
    input.consumerSecret,
    input.tokenSecret ?? '',
    method,
  );
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
