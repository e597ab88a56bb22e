import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { redirectFormats, redirectMap, type RedirectFormat } from '@replatform/engine/redirect-map';
import { requireUser } from '../../auth/require-user.ts';
import { notFound } from '../../http/errors.ts';

const files: Record<RedirectFormat, { type: string; name: (id: string) => string }> = {
  csv: { type: 'text/csv; charset=utf-8', name: (id) => `replatform-redirects-${id}.csv` },
  nginx: {
    type: 'text/plain; charset=utf-8',
    name: (id) => `replatform-redirects-${id}.nginx.conf`,
  },
  apache: {
    type: 'text/plain; charset=utf-8',
    name: (id) => `replatform-redirects-${id}.apache.conf`,
  },
};

/**
 * GET /api/migrations/{id}/redirect-map/{csv|nginx|apache}: the old and new storefront address
 * of every migrated product, category and brand (CSV), or the permanent redirects between them as
 * nginx or Apache rules. Streamed from the id map, only for the migration's owner.
 */
export const getRedirectMap: FastifyPluginAsyncZod = async (app) => {
  const { migrations, engine } = app.services;
  app.get(
    '/api/migrations/:id/redirect-map/:format',
    {
      schema: {
        params: z.object({ id: z.string().min(1).max(64), format: z.enum(redirectFormats) }),
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const migration = await migrations.findForUser(request.params.id, user.id);
      if (!migration) throw notFound('The requested migration could not be found.');
      const file = files[request.params.format];
      return reply
        .type(file.type)
        .header('Content-Disposition', `attachment; filename="${file.name(migration.id)}"`)
        .header('Cache-Control', 'no-store')
        .send(redirectMap(engine.repository, migration.id, request.params.format));
    },
  );
};
