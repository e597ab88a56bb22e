import type { FastifyRequest } from 'fastify';
import type { CurrentUser } from './require-user.ts';

/** Resolves the request's session through the auth service built in app.ts. */
export async function sessionOf(request: FastifyRequest): Promise<CurrentUser | null> {
  return request.server.services.auth.currentUser(request);
}
