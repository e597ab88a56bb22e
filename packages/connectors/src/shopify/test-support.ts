import type { ConnectorHttp, ConnectorHttpRequest } from '../kit/contract.ts';
import { loopbackHttp } from '../kit/testing/loopback-http.ts';

/**
 * Test plumbing: a ConnectorHttp that sends requests for `https://{shop}.myshopify.com/...` to the
 * emulator registered for that shop (on 127.0.0.1), naming the shop in X-Forwarded-Host as a
 * reverse proxy would, and records every request as the connector made it (before rewriting), so
 * tests can validate them against the Shopify schema. Everything else goes to loopbackHttp.
 */

const routes = new Map<string, string>();

export function routeShop(shopDomain: string, emulatorUrl: string): () => void {
  routes.set(shopDomain, emulatorUrl);
  return () => {
    if (routes.get(shopDomain) === emulatorUrl) routes.delete(shopDomain);
  };
}

export type RecordingHttp = ConnectorHttp & { requests: ConnectorHttpRequest[] };

/** Every request of every shopRoutingHttp() made in this process (for schema validation). */
export const allRecordedRequests: ConnectorHttpRequest[] = [];

export function shopRoutingHttp(): RecordingHttp {
  const inner = loopbackHttp();
  const requests: ConnectorHttpRequest[] = [];
  return {
    requests,
    request(request) {
      requests.push(request);
      allRecordedRequests.push(request);
      const url = new URL(request.url);
      const target = routes.get(url.hostname);
      if (!target) return inner.request(request);
      if (url.protocol !== 'https:')
        throw new Error(`Shopify is reached over https only: ${request.url}`);
      return inner.request({
        ...request,
        url: `${target}${url.pathname}${url.search}`,
        headers: { ...request.headers, 'x-forwarded-host': url.hostname },
      });
    },
  };
}

let counter = 0;
/** A fresh shop domain for a test store. */
export function testShopDomain(label: string): string {
  counter += 1;
  return `${label}-${process.pid}-${counter}.myshopify.com`;
}
