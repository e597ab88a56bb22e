import {
  authorizationHeader,
  signRequest,
  type SignatureMethod,
} from '@replatform/connectors/kit/oauth1/oauth1';
import type { IntegrationCredentials } from '../oauth-guard.ts';

/**
 * For tests: calls the emulator as a Magento integration would, signing with OAuth 1.0a in the
 * Authorization header. Options change one thing at a time so a test can show which mistake the
 * emulator refuses.
 */
export interface SignedFetchOptions {
  body?: unknown;
  signatureMethod?: SignatureMethod;
  /** Sign with these credentials instead of the emulator's (wrong secret, unknown consumer). */
  credentials?: Partial<IntegrationCredentials>;
  timestamp?: number;
  nonce?: string;
  headers?: Record<string, string>;
}

export interface SignedAnswer {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
}

export async function signedFetch(
  baseUrl: string,
  credentials: IntegrationCredentials,
  method: string,
  path: string,
  options: SignedFetchOptions = {},
): Promise<SignedAnswer> {
  const url = `${baseUrl}${path}`;
  const c = { ...credentials, ...options.credentials };
  const oauth = signRequest({
    method,
    url,
    credentials: {
      consumerKey: c.consumerKey,
      consumerSecret: c.consumerSecret,
      token: c.accessToken,
      tokenSecret: c.accessTokenSecret,
    },
    signatureMethod: options.signatureMethod ?? 'HMAC-SHA256',
    ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
    ...(options.nonce === undefined ? {} : { nonce: options.nonce }),
  });
  const headers: Record<string, string> = {
    authorization: authorizationHeader(oauth),
    ...options.headers,
  };
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    ...(options.body === undefined
      ? {}
      : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (media files, HTML)
  }
  return { status: response.status, body, text, headers: response.headers };
}

/** searchCriteria query string from [field, value, condition] filter groups. */
export function searchQuery(options: {
  groups?: [string, string, string?][][];
  sort?: [string, 'ASC' | 'DESC'][];
  pageSize?: number;
  currentPage?: number;
}): string {
  const parts: string[] = [];
  (options.groups ?? []).forEach((group, g) =>
    group.forEach(([field, value, condition], f) => {
      const p = `searchCriteria[filter_groups][${g}][filters][${f}]`;
      parts.push(
        `${p}[field]=${encodeURIComponent(field)}`,
        `${p}[value]=${encodeURIComponent(value)}`,
      );
      if (condition) parts.push(`${p}[condition_type]=${condition}`);
    }),
  );
  (options.sort ?? []).forEach(([field, direction], i) =>
    parts.push(
      `searchCriteria[sortOrders][${i}][field]=${field}`,
      `searchCriteria[sortOrders][${i}][direction]=${direction}`,
    ),
  );
  if (options.pageSize !== undefined) parts.push(`searchCriteria[pageSize]=${options.pageSize}`);
  if (options.currentPage !== undefined)
    parts.push(`searchCriteria[currentPage]=${options.currentPage}`);
  return parts.join('&');
}
