import { Agent, fetch as undiciFetch } from 'undici';
import type { ConnectorHttp, ConnectorHttpRequest, ConnectorHttpResponse } from '../contract.ts';
import { ConnectorError } from '../errors.ts';

export interface LoopbackHttpOptions {
  /**
   * Gives up on a request that has not been answered completely within this time, with a
   * transient ConnectorError 'timeout' as the production client does. Default 30 s.
   */
  timeoutMs?: number;
  /** Certificates (PEM) to trust, for emulators that serve https with a self-signed one. */
  ca?: string | readonly string[];
}

/**
 * ConnectorHttp for tests that talk to emulators on 127.0.0.1 only. It refuses every other host,
 * so a connector under test cannot reach anything else. It records every request for assertions.
 * Like the production client it honours the request's signal and limiter and times requests out;
 * unlike it, it never repeats a request. Production code uses the egress-guarded client of
 * kit/http instead.
 */
export function loopbackHttp(
  options: LoopbackHttpOptions = {},
): ConnectorHttp & { requests: ConnectorHttpRequest[]; close(): Promise<void> } {
  const requests: ConnectorHttpRequest[] = [];
  const timeoutMs = options.timeoutMs ?? 30_000;
  const dispatcher =
    options.ca === undefined ? undefined : new Agent({ connect: { ca: [options.ca].flat() } });
  return {
    requests,
    async request(request: ConnectorHttpRequest): Promise<ConnectorHttpResponse> {
      const url = new URL(request.url);
      if (url.hostname !== '127.0.0.1') throw new Error(`loopbackHttp refuses ${url.origin}`);
      request.signal?.throwIfAborted();
      requests.push(request);
      const release = request.limiter ? await request.limiter.acquire(request.signal) : () => {};
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      const onAbort = () => controller.abort(request.signal?.reason);
      request.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const init = {
          method: request.method,
          ...(request.headers ? { headers: request.headers } : {}),
          ...(request.body === undefined ? {} : { body: request.body }),
          redirect: 'manual' as const,
          signal: controller.signal,
        };
        // Node's own fetch takes no dispatcher; undici's, the same implementation, does.
        const response = dispatcher
          ? await undiciFetch(url, { ...init, dispatcher })
          : await fetch(url, init as RequestInit);
        const headers: Record<string, string> = {};
        response.headers.forEach((value, key) => {
          headers[key] = value;
        });
        return {
          status: response.status,
          headers,
          body: new Uint8Array(await response.arrayBuffer()),
        };
      } catch (error) {
        if (request.signal?.aborted) throw request.signal.reason;
        if (timedOut)
          throw new ConnectorError(
            'transient',
            'timeout',
            `${request.method} ${url.origin}${url.pathname}: no complete answer within ${timeoutMs} ms`,
          );
        throw error;
      } finally {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
        release();
      }
    },
    close: async () => {
      await dispatcher?.close();
    },
  };
}
