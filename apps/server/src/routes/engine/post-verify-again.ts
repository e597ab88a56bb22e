import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { migrationIdParamsSchema } from '@replatform/contracts/migrations-api';
import { verificationSchema } from '@replatform/contracts/progress';
import { requireUser } from '../../auth/require-user.ts';
import { notFound } from '../../http/errors.ts';
import { startVerification } from '../../jobs/start-verification.ts';

/**
 * POST /api/migrations/{id}/verify: "Verify again" on the detail page of a completed migration.
 * Compares both stores in full (the check after a run looks only at what it wrote) as a
 * background job; answers 202 with the verification as running, which
 * GET /api/migrations/{id}/verification reports until the result is in. 409 while a run is live.
 */
export const postVerifyAgain: FastifyPluginAsyncZod = async (app) => {
  const { migrations, engine } = app.services;
  app.post(
    '/api/migrations/:id/verify',
    { schema: { params: migrationIdParamsSchema, response: { 202: verificationSchema } } },
    async (request, reply) => {
      const user = await requireUser(request);
      const migration = await migrations.findForUser(request.params.id, user.id);
      if (!migration) throw notFound('The requested migration could not be found.');
      await startVerification(engine, migration);
      reply.status(202);
      return {
        status: 'running' as const,
        checkedAt: null,
        entities: {},
        knownDifferences: [],
        examples: [],
      };
    },
  );
};
