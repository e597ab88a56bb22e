import type { FastifyInstance } from 'fastify';

const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses state-changing requests a browser sent from another site: the Origin header (or, when a
 * browser left it out, Sec-Fetch-Site) must name one of ours (PUBLIC_URL's). The session cookie is
 * already SameSite=Lax; this covers every route, including ones that need no cookie (sign-in,
 * demo). Requests with neither header come from non-browser clients (webhooks, scripts), which
 * carry no ambient cookies to abuse.
 */
export function registerCrossSiteCheck(
  app: FastifyInstance,
  trustedOrigins: readonly string[],
): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!stateChanging.has(request.method)) return;
    const origin = request.headers.origin;
    const site = request.headers['sec-fetch-site'];
    const crossSite = origin
      ? !trustedOrigins.includes(origin)
      : site !== undefined && site !== 'same-origin' && site !== 'none';
    if (!crossSite) return;
    request.log.warn({ origin }, 'cross-site request refused');
    return reply
      .status(403)
      .type('application/json; charset=utf-8')
      .send({
        error: { code: 'cross_site_request', message: 'Cross-site requests are not allowed.' },
      });
  });
}
