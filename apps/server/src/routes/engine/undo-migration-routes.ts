import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { migrationIdParamsSchema } from '@replatform/contracts/migrations-api';
import {
  undoMigrationSchema,
  undoRequestSchema,
  type UndoMigration,
} from '@replatform/contracts/undo-migration';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import { undoReportCsv } from '@replatform/engine/undo';
import { requireUser } from '../../auth/require-user.ts';
import { notFound } from '../../http/errors.ts';
import type { EngineServices } from '../../jobs/engine-services.ts';
import { startUndo, undoUnavailable } from '../../jobs/start-undo.ts';
import { sideRunState } from './side-run.ts';

/** Records of an undo listed in its answer (those not removed first); the CSV has them all. */
const LISTED = 200;

/** The last undo of a migration, as its detail page shows it. */
export async function presentUndo(
  engine: EngineServices,
  migration: StoredMigration,
): Promise<UndoMigration> {
  const [job, run, created, unavailable] = await Promise.all([
    engine.jobs.latestJob(migration.id, 'undo'),
    engine.repository.latestRun(migration.id, 'undo'),
    engine.repository.undoTotals(migration.id),
    undoUnavailable(engine, migration),
  ]);
  const base = {
    available: !unavailable,
    ...(unavailable ? { unavailableReason: unavailable.message } : {}),
    confirmName: migration.storeName,
    created,
  };
  if (!job)
    return { ...base, state: 'none', startedAt: null, finishedAt: null, entities: {}, records: [] };
  const { ownRun, live, state } = sideRunState(job, run);
  const entities: UndoMigration['entities'] = {};
  if (ownRun) {
    for (const row of await engine.repository.undoCounts(ownRun.id)) {
      const e = (entities[row.entity] ??= { total: 0, removed: 0, gone: 0, kept: 0, failed: 0 });
      e[row.outcome] += row.count;
      e.total += row.count;
    }
    // While it runs, what is left to look at counts towards the totals too.
    if (live)
      for (const [entity, left] of Object.entries(created)) {
        const e = (entities[entity] ??= { total: 0, removed: 0, gone: 0, kept: 0, failed: 0 });
        e.total = Math.max(e.total, left);
      }
  }
  const records = ownRun ? await engine.repository.undoRecords(ownRun.id, LISTED) : [];
  const message =
    state === 'failed' ? (ownRun?.errorMessage ?? job.lastError ?? 'The undo stopped.') : undefined;
  return {
    ...base,
    state,
    startedAt: ownRun?.startedAt ?? job.createdAt,
    finishedAt: live ? null : (ownRun?.finishedAt ?? job.updatedAt),
    ...(message ? { message } : {}),
    entities,
    records: records.map((r) => ({
      entity: r.entity,
      sourceId: r.sourceId,
      destinationId: r.destinationId,
      outcome: r.outcome,
      reason: r.reason ?? null,
    })),
  };
}

/**
 * "Undo this migration": POST /api/migrations/{id}/undo starts one (confirmed with the store's
 * name), GET reads how the last one went, GET .../undo/report.csv lists every record it looked
 * at. Only the owner's migrations.
 */
export const undoMigrationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { migrations, engine } = app.services;
  app.get(
    '/api/migrations/:id/undo',
    { schema: { params: migrationIdParamsSchema, response: { 200: undoMigrationSchema } } },
    async (request, reply) => {
      const user = await requireUser(request);
      const migration = await migrations.findForUser(request.params.id, user.id);
      if (!migration) throw notFound('The requested migration could not be found.');
      reply.header('Cache-Control', 'no-store');
      return presentUndo(engine, migration);
    },
  );
  app.post(
    '/api/migrations/:id/undo',
    {
      schema: {
        params: migrationIdParamsSchema,
        body: undoRequestSchema,
        response: { 202: undoMigrationSchema },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const migration = await migrations.findForUser(request.params.id, user.id);
      if (!migration) throw notFound('The requested migration could not be found.');
      await startUndo(engine, migration, user, request.body.confirmName);
      return reply.code(202).send(await presentUndo(engine, migration));
    },
  );
  app.get(
    '/api/migrations/:id/undo/report.csv',
    { schema: { params: migrationIdParamsSchema } },
    async (request, reply) => {
      const user = await requireUser(request);
      const migration = await migrations.findForUser(request.params.id, user.id);
      if (!migration) throw notFound('The requested migration could not be found.');
      const run = await engine.repository.latestRun(migration.id, 'undo');
      if (!run) throw notFound('This migration has not been undone.');
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="replatform-undo-${migration.id}.csv"`)
        .header('Cache-Control', 'no-store')
        .send(undoReportCsv(engine.repository, run.id));
    },
  );
};
