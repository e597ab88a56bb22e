import type { ConnectorHttp } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { bulkRun, bulkStatus } from './documents.ts';
import type { ShopifyGraphqlClient } from './graphql-client.ts';

/**
 * Runs a bulk query (bulkOperationRunQuery), polls bulkOperation(id) until it finishes and reads
 * the JSONL result (shopify.dev/docs/api/usage/bulk-operations/queries). The result file is
 * fetched in byte ranges and parsed line by line as the bytes arrive, so a large store's file is
 * never held whole, as text or as a list of lines. Nested connection objects arrive as separate
 * lines with `__parentId`, after their parent but not necessarily right after it, so objects are
 * grouped under their parents as they are parsed and handed out once the file has been read.
 */

export interface BulkOptions {
  client: ShopifyGraphqlClient;
  http: ConnectorHttp;
  sleep: (ms: number) => Promise<void>;
  signal?: AbortSignal;
  /** First polling interval in ms (grows to 5 s). */
  pollMs?: number;
  /** Bytes asked for per request of the result file (default 8 MiB). */
  chunkBytes?: number;
}

export type JsonlObject = Record<string, unknown> & { id?: string; __parentId?: string };

const FINISHED_WITHOUT_DATA = new Set(['FAILED', 'CANCELED', 'CANCELING', 'EXPIRED']);
const DEFAULT_CHUNK_BYTES = 8 * 1024 * 1024;

/** One GET of the result file, retried through transient failures. */
async function fetchRange(
  url: string,
  range: string,
  options: BulkOptions,
): Promise<{ status: number; headers: Record<string, string>; body: Uint8Array }> {
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      // The result URL is pre-signed: no access token is sent with it.
      const response = await options.http.request({
        method: 'GET',
        url,
        headers: { range },
        retryable: true,
      });
      if (response.status === 200 || response.status === 206 || response.status === 416)
        return response;
      if (response.status < 500 && response.status !== 429)
        throw new ConnectorError(
          'system',
          'bulk_download_failed',
          `The bulk result could not be downloaded (HTTP ${response.status}).`,
          { status: response.status },
        );
    } catch (error) {
      if (error instanceof ConnectorError && error.errorClass !== 'transient') throw error;
      if (attempt >= 8)
        throw new ConnectorError(
          'transient',
          'bulk_download_failed',
          'The bulk result could not be downloaded.',
          { cause: error },
        );
    }
    await options.sleep(Math.min(5_000, 200 * 2 ** (attempt - 1)));
  }
}

/**
 * The result file's bytes, one range request at a time. A server that ignores Range answers the
 * whole file with 200, which is used as it is.
 */
export async function* resultChunks(url: string, options: BulkOptions): AsyncIterable<Uint8Array> {
  const size = Math.max(1, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  let offset = 0;
  for (;;) {
    const response = await fetchRange(url, `bytes=${offset}-${offset + size - 1}`, options);
    if (response.status === 416) return;
    if (response.status === 200) {
      yield offset === 0 ? response.body : response.body.subarray(offset);
      return;
    }
    const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers['content-range'] ?? '');
    const start = Number(range?.[1]);
    const end = Number(range?.[2]);
    if (!range || start !== offset || end < start || response.body.length !== end - start + 1)
      throw new ConnectorError(
        'transient',
        'bulk_result_incomplete',
        'The bulk result file arrived out of order.',
      );
    yield response.body;
    offset = end + 1;
    const total = range[3] === '*' ? undefined : Number(range[3]);
    if ((total !== undefined && offset >= total) || response.body.length < size) return;
  }
}

/** JSON objects of a JSONL byte stream, decoded and parsed one line at a time. */
export async function* parseJsonLines(
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): AsyncIterable<JsonlObject> {
  const decoder = new TextDecoder();
  let carry = '';
  const parse = (line: string): JsonlObject => {
    try {
      return JSON.parse(line) as JsonlObject;
    } catch (error) {
      throw new ConnectorError(
        'transient',
        'bulk_result_incomplete',
        'The bulk result file was cut off.',
        { cause: error },
      );
    }
  };
  for await (const chunk of chunks) {
    const text = carry + decoder.decode(chunk, { stream: true });
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      const line = text.slice(from, nl);
      from = nl + 1;
      if (line.trim()) yield parse(line);
    }
    carry = text.slice(from);
  }
  const last = carry + decoder.decode();
  if (last.trim()) yield parse(last);
}

/** Root objects in file order, with the child objects of each, keyed by parent id. */
export interface Grouped {
  roots: JsonlObject[];
  children: Map<string, JsonlObject[]>;
}

function addTo(grouped: Grouped, object: JsonlObject): void {
  const parent = object.__parentId;
  if (parent === undefined) {
    grouped.roots.push(object);
    return;
  }
  const { __parentId: _parent, ...rest } = object;
  const list = grouped.children.get(parent);
  if (list) list.push(rest);
  else grouped.children.set(parent, [rest]);
}

export function groupByParent(objects: Iterable<JsonlObject>): Grouped {
  const grouped: Grouped = { roots: [], children: new Map() };
  for (const object of objects) addTo(grouped, object);
  return grouped;
}

async function groupStream(objects: AsyncIterable<JsonlObject>): Promise<Grouped> {
  const grouped: Grouped = { roots: [], children: new Map() };
  for await (const object of objects) addTo(grouped, object);
  return grouped;
}

/** Starts a bulk query and answers its objects, grouped by parent, once it completed. */
export async function runBulkQuery(query: string, options: BulkOptions): Promise<Grouped> {
  const started = await options.client.request(bulkRun, { query });
  const payload = started.bulkOperationRunQuery;
  if (!payload?.bulkOperation)
    throw new ConnectorError(
      'system',
      'bulk_refused',
      `Shopify refused the bulk query: ${payload?.userErrors.map((e) => e.message).join('; ') ?? 'no answer'}`,
    );
  const id = payload.bulkOperation.id;
  let interval = options.pollMs ?? 100;
  for (;;) {
    const { bulkOperation } = await options.client.request(bulkStatus, { id });
    if (!bulkOperation)
      throw new ConnectorError('system', 'bulk_lost', 'The bulk operation disappeared.');
    if (bulkOperation.status === 'COMPLETED') {
      // Shopify answers no URL when the query matched nothing.
      const url = bulkOperation.url;
      if (!url) return { roots: [], children: new Map() };
      // A file that arrives cut off is read again (it stays available for a week).
      for (let attempt = 1; ; attempt++) {
        try {
          return await groupStream(parseJsonLines(resultChunks(url, options)));
        } catch (error) {
          if (
            !(error instanceof ConnectorError) ||
            error.code !== 'bulk_result_incomplete' ||
            attempt >= 5
          )
            throw error;
        }
      }
    }
    if (FINISHED_WITHOUT_DATA.has(bulkOperation.status))
      throw new ConnectorError(
        'transient',
        'bulk_failed',
        `The bulk operation ended ${bulkOperation.status} (${bulkOperation.errorCode ?? 'no error code'}).`,
      );
    await options.sleep(interval);
    interval = Math.min(5_000, Math.ceil(interval * 1.5));
  }
}

export function gidType(id: unknown): string | undefined {
  return typeof id === 'string' ? /^gid:\/\/shopify\/([A-Za-z]+)\//.exec(id)?.[1] : undefined;
}

export function gidNumber(id: string): string {
  return /\/(\d+)(\?.*)?$/.exec(id)?.[1] ?? '0';
}
