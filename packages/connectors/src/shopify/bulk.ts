import type { ConnectorHttp } from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { bulkRun, bulkStatus } from './documents.ts';
import type { ShopifyGraphqlClient } from './graphql-client.ts';

/**
 * Runs a bulk query (bulkOperationRunQuery), polls bulkOperation(id) until it finishes and
 * downloads the JSONL result (shopify.dev/docs/api/usage/bulk-operations/queries). Nested
 * connection objects arrive as separate lines with `__parentId`; `groupByParent` puts them back.
 */

export interface BulkOptions {
  client: ShopifyGraphqlClient;
  http: ConnectorHttp;
  sleep: (ms: number) => Promise<void>;
  signal?: AbortSignal;
  /** First polling interval in ms (grows to 5 s). */
  pollMs?: number;
}

export type JsonlObject = Record<string, unknown> & { id?: string; __parentId?: string };

const FINISHED_WITHOUT_DATA = new Set(['FAILED', 'CANCELED', 'CANCELING', 'EXPIRED']);

async function download(url: string, options: BulkOptions): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      // The result URL is pre-signed: no access token is sent with it.
      const response = await options.http.request({ method: 'GET', url, retryable: true });
      if (response.status === 200) return new TextDecoder().decode(response.body);
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

export function parseJsonl(text: string): JsonlObject[] {
  const objects: JsonlObject[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      objects.push(JSON.parse(line) as JsonlObject);
    } catch (error) {
      throw new ConnectorError(
        'transient',
        'bulk_result_incomplete',
        'The bulk result file was cut off.',
        { cause: error },
      );
    }
  }
  return objects;
}

/** Starts a bulk query and answers its objects once it completed. */
export async function runBulkQuery(query: string, options: BulkOptions): Promise<JsonlObject[]> {
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
      if (!bulkOperation.url) return [];
      // A truncated download is fetched again (the file stays available for a week).
      for (let attempt = 1; ; attempt++) {
        try {
          return parseJsonl(await download(bulkOperation.url, options));
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

/** Root objects in file order, with the child objects of each, keyed by parent id. */
export function groupByParent(objects: JsonlObject[]): {
  roots: JsonlObject[];
  children: Map<string, JsonlObject[]>;
} {
  const roots: JsonlObject[] = [];
  const children = new Map<string, JsonlObject[]>();
  for (const object of objects) {
    const parent = object.__parentId;
    if (parent === undefined) roots.push(object);
    else {
      const list = children.get(parent) ?? [];
      const { __parentId: _parent, ...rest } = object;
      list.push(rest);
      children.set(parent, list);
    }
  }
  return { roots, children };
}

export function gidType(id: unknown): string | undefined {
  return typeof id === 'string' ? /^gid:\/\/shopify\/([A-Za-z]+)\//.exec(id)?.[1] : undefined;
}

export function gidNumber(id: string): string {
  return /\/(\d+)(\?.*)?$/.exec(id)?.[1] ?? '0';
}
