import { describe, expect, it } from 'vitest';
import type {
  ConnectorHttp,
  ConnectorHttpRequest,
  ConnectorHttpResponse,
} from '../kit/contract.ts';
import { ConnectorError } from '../kit/errors.ts';
import { groupByParent, parseJsonLines, resultChunks, type BulkOptions } from './bulk.ts';
import { ShopifyGraphqlClient } from './graphql-client.ts';

/** A result file served as cloud storage serves it, honouring Range unless told not to. */
function fileServer(content: string, options: { ignoreRange?: boolean } = {}) {
  const file = new TextEncoder().encode(content);
  const requests: ConnectorHttpRequest[] = [];
  const http: ConnectorHttp = {
    async request(request): Promise<ConnectorHttpResponse> {
      requests.push(request);
      const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers?.range ?? '');
      if (!range || options.ignoreRange) return { status: 200, headers: {}, body: file };
      const start = Number(range[1]);
      if (start >= file.length)
        return {
          status: 416,
          headers: { 'content-range': `bytes */${file.length}` },
          body: new Uint8Array(),
        };
      const end = Math.min(file.length - 1, Number(range[2]));
      return {
        status: 206,
        headers: { 'content-range': `bytes ${start}-${end}/${file.length}` },
        body: file.subarray(start, end + 1),
      };
    },
  };
  return { http, requests };
}

const optionsFor = (http: ConnectorHttp, chunkBytes: number): BulkOptions => ({
  http,
  chunkBytes,
  sleep: async () => {},
  client: new ShopifyGraphqlClient({ shopDomain: 's.myshopify.com', accessToken: 't', http }),
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

const lines = [
  { id: 'gid://shopify/Product/1', title: 'Crème brûlée 🍮' },
  { id: 'gid://shopify/ProductVariant/11', sku: 'A', __parentId: 'gid://shopify/Product/1' },
  { id: 'gid://shopify/Product/2', title: 'Second' },
  // A child may come after later parents.
  { id: 'gid://shopify/ProductVariant/12', sku: 'B', __parentId: 'gid://shopify/Product/1' },
];
const jsonl = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;

describe('bulk result files', () => {
  it('reads the file in ranges and parses lines across chunk borders, multi-byte characters included', async () => {
    const { http, requests } = fileServer(jsonl);
    const objects = await collect(
      parseJsonLines(resultChunks('https://files.example/r.jsonl', optionsFor(http, 7))),
    );
    expect(objects).toEqual(lines);
    expect(requests.length).toBeGreaterThan(10);
    expect(
      requests.every((r) => r.method === 'GET' && r.headers?.range?.startsWith('bytes=')),
    ).toBe(true);
    // The pre-signed URL gets no access token.
    expect(requests.every((r) => !('x-shopify-access-token' in (r.headers ?? {})))).toBe(true);
    const { roots, children } = groupByParent(objects);
    expect(roots.map((r) => r.id)).toEqual(['gid://shopify/Product/1', 'gid://shopify/Product/2']);
    expect(children.get('gid://shopify/Product/1')?.map((c) => c.sku)).toEqual(['A', 'B']);
  });

  it('takes the whole file from a server that ignores Range, and nothing from an empty one', async () => {
    const whole = fileServer(jsonl, { ignoreRange: true });
    expect(
      await collect(parseJsonLines(resultChunks('https://f.example/a', optionsFor(whole.http, 7)))),
    ).toEqual(lines);
    expect(whole.requests).toHaveLength(1);
    const empty = fileServer('');
    expect(
      await collect(parseJsonLines(resultChunks('https://f.example/b', optionsFor(empty.http, 7)))),
    ).toEqual([]);
  });

  it('says the file was cut off when its last line is not whole', async () => {
    const { http } = fileServer(jsonl.slice(0, -20));
    const error = await collect(
      parseJsonLines(resultChunks('https://f.example/c', optionsFor(http, 64))),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectorError);
    expect((error as ConnectorError).code).toBe('bulk_result_incomplete');
  });
});
