import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { platformSchema } from '@replatform/contracts/migration';
import { requireUser } from '../../auth/require-user.ts';
import { ApiError } from '../../http/errors.ts';
import { sideSchema } from '../../migrations/store-credentials.ts';

/**
 * GET /api/sandbox-stores?platform=&side=[&migrationId=]: the connection details of a sandbox
 * store, to prefill the Connect step in mock mode or for a demo account. They only reach this
 * server's own emulators, so they carry no risk for anyone's real store. With a migration (the
 * owner's), the destination is an empty store made for that migration alone.
 */
export const sandboxRoutes: FastifyPluginAsyncZod = async (app) => {
  const { sandbox } = app.services;
  if (sandbox) {
    // A deleted account's migrations no longer need their destination stores.
    app.services.auth.onUserDeleted(async (userId) => {
      for (const migration of await app.services.migrations.listForUser(userId)) {
        await sandbox.forgetMigration(migration.id);
      }
    });
  }

  app.get(
    '/api/sandbox-stores',
    {
      schema: {
        querystring: z.object({
          platform: platformSchema,
          side: sideSchema,
          migrationId: z.string().min(1).max(64).optional(),
        }),
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
      const user = await requireUser(request);
      const { platform, side, migrationId } = request.query;
      if (!sandbox)
        throw new ApiError(
          404,
          'sandbox_unavailable',
          'Sandbox stores are switched off on this server.',
        );
      if (migrationId && !(await app.services.migrations.findForUser(migrationId, user.id)))
        throw new ApiError(404, 'not_found', 'Migration not found.');
      const fields =
        migrationId && side === 'destination'
          ? await sandbox.destinationFor(migrationId, platform)
          : sandbox.fields(platform, side);
      if (!fields)
        throw new ApiError(404, 'sandbox_unavailable', `No ${platform} sandbox store for ${side}.`);
      return { platform, side, fields };
    },
  );
};
