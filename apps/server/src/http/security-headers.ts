import type { FastifyInstance } from 'fastify';
import { isApiPath } from './errors.ts';

/**
 * Headers on every response. The CSP allows only our own origin for scripts, frames nobody may
 * embed us, and images may come from store CDNs (product images are shown in reports). API
 * answers (migrations, accounts, payments, errors) are never kept by a browser or a proxy cache
 * unless their route says otherwise.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('Content-Security-Policy', csp);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
    reply.header('Cross-Origin-Resource-Policy', 'same-origin');
    reply.header('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(self)');
    if (options.https)
      reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    const json = String(reply.getHeader('content-type') ?? '').includes('json');
    if ((json || isApiPath(request.url)) && !reply.hasHeader('cache-control'))
      reply.header('Cache-Control', 'no-store');
    return payload;
  });
}
