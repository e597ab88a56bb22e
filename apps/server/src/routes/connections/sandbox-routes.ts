import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { platformSchema } from '@replatform/contracts/migration';
import { requireUser } from '../../auth/require-user.ts';
import { ApiError } from '../../http/errors.ts';
import { sideSchema } from '../../migrations/store-credentials.ts';

/**
 * GET /api/sandbox-stores?platform=&side=: the connection details of a sandbox store, to prefill
 * the Connect step in mock mode or for a demo account. They only reach this server's own
 * emulators, so they carry no risk for anyone's real store.
 */
export const sandboxRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/sandbox-stores',
    {
      schema: {
        querystring: z.object({ platform: platformSchema, side: sideSchema }),
        response: {
          200: z.object({
            platform: platformSchema,
            side: sideSchema,
            fields: z.record(z.string(), z.string()),
          }),
        },
      },
    },
    async (request) => {
      await requireUser(request);
      const { sandbox } = app.services;
      const fields = sandbox?.fields(request.query.platform, request.query.side);
      if (!fields)
        throw new ApiError(
          404,
          'sandbox_unavailable',
          'Sandbox stores are switched off on this server.',
        );
      return { platform: request.query.platform, side: request.query.side, fields };
    },
  );
};
