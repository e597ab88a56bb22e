import { createHttpClient, type HttpClient } from '../../kit/http/http-client.ts';
import type { RealStore } from './real-stores.ts';

type Json = Record<string, unknown>;
/** What most routes answer: a record with its id. */
type WcRecord = Json & { id: number };

/**
 * A real store's REST API (wc/v3) over https with its consumer key and the kit's CA: for the
 * scripts that fill test stores and the benchmark's baseline, not for migrations (those go
 * through the connector).
 */
export class WooRest {
  readonly #base: string;
  readonly #auth: string;
  readonly #http: HttpClient;

  /**
   * wc/v3 with the store's WooCommerce keys, or WordPress's wp/v2 (pages, posts, media, terms)
   * with the application password in the credentials.
   */
  constructor(
    store: Pick<RealStore, 'url' | 'credentials' | 'ca'>,
    namespace: 'wc/v3' | 'wp/v2' = 'wc/v3',
  ) {
    this.#base = `${store.url}/wp-json/${namespace}`;
    const { consumerKey, consumerSecret, wordpressUser, wordpressApplicationPassword } =
      store.credentials;
    if (namespace === 'wp/v2' && !(wordpressUser && wordpressApplicationPassword))
      throw new Error('wp/v2 needs a WordPress application password in the credentials');
    const pair =
      namespace === 'wp/v2'
        ? `${wordpressUser ?? ''}:${(wordpressApplicationPassword ?? '').replace(/\s+/g, '')}`
        : `${consumerKey}:${consumerSecret}`;
    this.#auth = `Basic ${Buffer.from(pair).toString('base64')}`;
    this.#http = createHttpClient({
      allowlist: [new URL(store.url).origin],
      ca: store.ca,
      timeoutMs: 300_000,
    });
  }

  async call<T>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<{ data: T; total: number; pages: number }> {
    const response = await this.#http.request({
      method,
      url: `${this.#base}/${path}`,
      headers: {
        authorization: this.#auth,
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
      // Sent once: a write repeated after a failure could create twice.
      retryable: method === 'GET',
    });
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${response.text().slice(0, 500)}`);
    return {
      data: response.json<T>(),
      total: Number(response.headers['x-wp-total'] ?? 0),
      pages: Number(response.headers['x-wp-totalpages'] ?? 0),
    };
  }

  get = async <T = WcRecord>(path: string) => (await this.call<T>('GET', path)).data;
  post = async <T = WcRecord>(path: string, body: unknown) =>
    (await this.call<T>('POST', path, body)).data;
  total = async (path: string) => (await this.call<unknown[]>('GET', path)).total;

  /** Every record of a list, 100 per page. */
  async all(path: string): Promise<Json[]> {
    const out: Json[] = [];
    const join = path.includes('?') ? '&' : '?';
    for (let page = 1; ; page += 1) {
      const { data, pages } = await this.call<Json[]>(
        'GET',
        `${path}${join}per_page=100&page=${page}`,
      );
      out.push(...data);
      if (page >= pages || data.length === 0) return out;
    }
  }

  /**
   * A batch write; throws when a record of it was refused (the answer's per-record `error`), so
   * a fill or a baseline that silently lost records cannot pass for a complete one.
   */
  async batch(path: string, body: { create?: unknown[]; update?: unknown[] }): Promise<Json[]> {
    const answer = await this.post<{ create?: Json[]; update?: Json[] }>(path, body);
    const records = [...(answer.create ?? []), ...(answer.update ?? [])];
    const refused = records.filter((r) => r.error);
    if (refused.length > 0)
      throw new Error(
        `${path}: ${refused.length} of ${records.length} refused, e.g. ${JSON.stringify(refused[0]?.error)}`,
      );
    return records;
  }

  close = () => this.#http.close();
}
