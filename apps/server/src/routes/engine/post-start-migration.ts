import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { migrationSchema } from '@replatform/contracts/migration';
import { migrationIdParamsSchema } from '@replatform/contracts/migrations-api';
import { requireUser } from '../../auth/require-user.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { startMigration } from '../../jobs/start-migration.ts';
import { presentMigration } from '../../migrations/present-migration.ts';

/**
 * POST /api/migrations/{id}/start: Start Migration (spec.md section 4). Refused unless both
 * stores are verified, data is selected and enough is paid for (demo accounts and sandbox
 * stores excepted); then step 4, in progress, and a background job. Idempotent while running.
 * A re-migration may name a day (`changedSince`, YYYY-MM-DD): records an earlier run wrote that
 * the source has not changed since then are left as they are (the "recent data" run).
 */
const startBodySchema = z
  .object({
    changedSince: z.iso.date('Give the day as YYYY-MM-DD').optional(),
  })
  .nullish();

export const postStartMigration: FastifyPluginAsyncZod = async (app) => {
  const { migrations, vault, engine } = app.services;
  app.post(
    '/api/migrations/:id/start',
    {
      schema: {
        params: migrationIdParamsSchema,
        body: startBodySchema,
        response: { 200: migrationSchema },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const migration = await migrations.findForUser(request.params.id, user.id);
      if (!migration) throw notFound('The requested migration could not be found.');
      await startMigration(engine, migration, user, {
        changedSince: request.body?.changedSince,
      });
      const current = await migrations.findForUser(migration.id, user.id);
      if (!current) throw new ApiError(409, 'conflict', 'The migration was deleted meanwhile.');
      return presentMigration(current, vault);
    },
  );
};
