import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { migrationIdParamsSchema } from '@replatform/contracts/migrations-api';
import { reportCsv } from '@replatform/engine/report';
import { requireUser } from '../../auth/require-user.ts';
import { notFound } from '../../http/errors.ts';

/**
 * GET /api/migrations/{id}/report.csv: every record with its type, source id, destination id,
 * outcome and reason. Streamed from the id map, so it costs the same memory for any store size.
 */
export const getReportCsv: FastifyPluginAsyncZod = async (app) => {
  const { migrations, engine } = app.services;
  app.get(
    '/api/migrations/:id/report.csv',
    { schema: { params: migrationIdParamsSchema } },
    async (request, reply) => {
      const user = await requireUser(request);
      const migration = await migrations.findForUser(request.params.id, user.id);
      if (!migration) throw notFound('The requested migration could not be found.');
      const name = `replatform-report-${migration.id}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${name}"`)
        .header('Cache-Control', 'no-store')
        .send(reportCsv(engine.repository, migration.id));
    },
  );
};
