import type { ConnectorHttp, ConnectorHttpRequest, ConnectorHttpResponse } from '../contract.ts';

/**
 * ConnectorHttp for tests that talk to emulators on 127.0.0.1 only. It refuses every other host,
 * so a connector under test cannot reach anything else. It counts requests per method for
 * assertions. Production code uses the egress-guarded client of kit/http instead.
 */
export function loopbackHttp(): ConnectorHttp & { requests: ConnectorHttpRequest[] } {
  const requests: ConnectorHttpRequest[] = [];
  return {
    requests,
    async request(request: ConnectorHttpRequest): Promise<ConnectorHttpResponse> {
      const url = new URL(request.url);
      if (url.hostname !== '127.0.0.1') throw new Error(`loopbackHttp refuses ${url.origin}`);
      requests.push(request);
      const response = await fetch(url, {
        method: request.method,
        headers: request.headers,
        body: request.body as BodyInit | undefined,
        redirect: 'manual',
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, key) => {
        headers[key] = value;
      });
      return {
        status: response.status,
        headers,
        body: new Uint8Array(await response.arrayBuffer()),
      };
    },
  };
}
