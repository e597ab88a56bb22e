import type { z } from 'zod';

/** An error answered by our API, with its stable code and a message safe to show. */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  signal?: AbortSignal;
}

/**
 * Calls our own API (same origin, session cookie) and answers the parsed JSON body, unchecked;
 * an error answer becomes an ApiRequestError. For the few callers that check the body themselves.
 */
export async function apiFetch(path: string, options: RequestOptions = {}): Promise<unknown> {
  const url = new URL(path, window.location.origin);
  for (const [key, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, String(value));
  }
  const response = await fetch(url, {
    method: options.method ?? 'GET',
    credentials: 'same-origin',
    headers: options.body === undefined ? {} : { 'content-type': 'application/json' },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  const text = await response.text();
  const data: unknown = text ? safeJson(text) : undefined;
  if (!response.ok) {
    // Loaded with the first error: pages that meet none never load the schema code.
    const { apiErrorSchema } = await import('@replatform/contracts/api-error');
    const parsed = apiErrorSchema.safeParse(data);
    if (parsed.success) {
      throw new ApiRequestError(response.status, parsed.data.error.code, parsed.data.error.message);
    }
    throw new ApiRequestError(response.status, 'http_error', `Request failed (${response.status})`);
  }
  return data;
}

/**
 * Calls our own API (same origin, session cookie) and parses the answer with the shared contract
 * schema, so the web app and the server agree on every shape.
 */
export async function apiRequest<T extends z.ZodType>(
  path: string,
  schema: T,
  options: RequestOptions = {},
): Promise<z.infer<T>> {
  return schema.parse(await apiFetch(path, options));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
