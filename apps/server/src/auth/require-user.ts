import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.ts';
import { sessionOf } from './session.ts';

/** The signed-in user as routes see it. */
export interface CurrentUser {
  id: string;
  email: string;
  name: string | null;
  isDemo: boolean;
}

/**
 * The user whose session cookie came with the request, or null. The session is looked up on the
 * server every time, so a revoked session (sign-out, password reset, deleted account) is refused
 * at once.
 */
export async function optionalUser(request: FastifyRequest): Promise<CurrentUser | null> {
  return sessionOf(request);
}

/** Like optionalUser, but answers 401 when nobody is signed in. */
export async function requireUser(request: FastifyRequest): Promise<CurrentUser> {
  const user = await optionalUser(request);
  if (!user) throw new ApiError(401, 'unauthenticated', 'Please sign in to continue.');
  return user;
}
