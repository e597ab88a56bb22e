import { signRequest, type SignatureMethod } from '@replatform/connectors/kit/oauth1/oauth1';

/**
 * Test support: calls an emulated store the way a WooCommerce client must over plain http, with
 * a one-legged OAuth 1.0a signature in the query string, and records what was sent.
 */

export interface WcResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface WcCall {
  method: string;
  url: string;
  body?: string;
}

export interface WcClientOptions {
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  signatureMethod?: SignatureMethod;
}

export function signedUrl(
  options: WcClientOptions,
  method: string,
  url: string,
  overrides: { timestamp?: number; nonce?: string } = {},
): string {
  const oauth = signRequest({
    method,
    url,
    credentials: { consumerKey: options.consumerKey, consumerSecret: options.consumerSecret },
    signatureMethod: options.signatureMethod ?? 'HMAC-SHA256',
    ...overrides,
  });
  const signed = new URL(url);
  for (const [k, v] of Object.entries(oauth)) signed.searchParams.set(k, v);
  return signed.toString();
}

export function wcClient(options: WcClientOptions) {
  const calls: WcCall[] = [];
  async function call(
    method: string,
    path: string,
    init: { query?: Record<string, string | number>; body?: unknown; unsigned?: boolean } = {},
  ): Promise<WcResponse> {
    const url = new URL(`${options.baseUrl}/wp-json/wc/v3${path}`);
    for (const [k, v] of Object.entries(init.query ?? {})) url.searchParams.set(k, String(v));
    const target = init.unsigned ? url.toString() : signedUrl(options, method, url.toString());
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    calls.push({ method, url: target, ...(body === undefined ? {} : { body }) });
    const response = await fetch(target, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body,
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (media, HTML error pages): keep the text.
    }
    return { status: response.status, headers: response.headers, body: parsed };
  }
  return { call, calls };
}
