import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { readOutbox } from '../../auth/mailer.ts';

/**
 * The development outbox (mail kept in the database when SMTP_URL is unset), newest first.
 * Registered only when NODE_ENV is development or test: reset links in it are secrets.
 */
export const devOutboxRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/dev/outbox',
    { schema: { querystring: z.object({ to: z.string().optional() }) } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { mails: await readOutbox(app.services.db, request.query.to) };
    },
  );
};
