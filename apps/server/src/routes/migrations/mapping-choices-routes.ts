import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { migrationIdParamsSchema } from '@replatform/contracts/migrations-api';
import { mappingChoicesSchema } from '@replatform/contracts/value-mappings';
import { requireUser } from '../../auth/require-user.ts';
import { notFound } from '../../http/errors.ts';
import { mappingChoices } from '../../migrations/mapping-choices.ts';

/**
 * GET /api/migrations/{id}/mapping-choices: the customer groups, tax classes and currencies of the
 * migration's two connected stores, read from the stores now, with a proposal per source value,
 * for the "Map fields" panel. Only for the migration's owner; 409 until both stores are connected.
 */
export const mappingChoicesRoutes: FastifyPluginAsyncZod = async (app) => {
  const { migrations, connections } = app.services;
  app.get(
    '/api/migrations/:id/mapping-choices',
    {
      schema: {
        params: migrationIdParamsSchema,
        response: { 200: mappingChoicesSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const migration = await migrations.findForUser(request.params.id, user.id);
      if (!migration) throw notFound('The requested migration could not be found.');
      reply.header('Cache-Control', 'no-store');
      return mappingChoices(connections, migration);
    },
  );
};
