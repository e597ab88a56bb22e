import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const isLoopback = (address: string | undefined) =>
  Boolean(
    address && (address === '::1' || /^127\./.test(address) || /^::ffff:127\./i.test(address)),
  );

/** The address the proxy in front of us saw the client at: the last X-Forwarded-For entry. */
function forwardedClient(request: FastifyRequest): string | undefined {
  const header = request.headers['x-forwarded-for'];
  const value = Array.isArray(header) ? header.join(',') : header;
  const last = value?.split(',').at(-1)?.trim();
  return last && isIP(last) ? last : undefined;
}

/**
 * The address abuse limits count a request against. With TRUST_PROXY it is the client address
 * Fastify resolved. Without it, a request from a loopback peer that carries X-Forwarded-For came
 * through a reverse proxy on this machine: every client would share the proxy's address, so one
 * of them could exhaust the limits of all (and lock every account out), so the address the proxy
 * saw the client at is counted within the proxy's. Anywhere else the header is ignored, so a
 * client that talks to us directly cannot choose its own address.
 */
export function limitAddress(request: FastifyRequest, trustProxy: boolean): string {
  if (trustProxy) return request.ip;
  const peer = request.socket.remoteAddress;
  const forwarded = isLoopback(peer) ? forwardedClient(request) : undefined;
  return forwarded ? `${request.ip}>${forwarded}` : request.ip;
}

/**
 * Warns once when requests arrive through a proxy on this machine while TRUST_PROXY is off:
 * sessions then record the proxy's address for every client, and the operator should say so.
 */
export function warnAboutUntrustedProxy(app: FastifyInstance, trustProxy: boolean): void {
  if (trustProxy) return;
  let warned = false;
  app.addHook('onRequest', async (request) => {
    if (warned || request.headers['x-forwarded-for'] === undefined) return;
    if (!isLoopback(request.socket.remoteAddress)) return;
    warned = true;
    request.log.warn(
      "Requests arrive with X-Forwarded-For from a proxy on this machine, but TRUST_PROXY is off: every client appears at the proxy's address. Set TRUST_PROXY=true when the server runs behind a reverse proxy.",
    );
  });
}
