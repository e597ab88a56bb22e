import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminRecordUrl,
  demoMigrationSchema,
  type DemoMigration,
} from '@replatform/contracts/demo-migration';
import { platforms, type Platform } from '@replatform/contracts/migration';
import { migrationIdParamsSchema } from '@replatform/contracts/migrations-api';
import type { StoredMigration } from '@replatform/db/migrations-repository';
import type { VerificationResult } from '@replatform/engine/verification';
import { requireUser } from '../../auth/require-user.ts';
import { notFound } from '../../http/errors.ts';
import type { EngineServices } from '../../jobs/engine-services.ts';
import { startDemoMigration, type DemoLimits } from '../../jobs/start-demo.ts';
import { presentVerification } from './get-verification.ts';
import { sideRunState } from './side-run.ts';

/** Records of a demo listed with their links (a demo moves a few of each type). */
const LISTED = 200;

/** The last demo migration of a migration, as Select Data shows it. */
export async function presentDemo(
  engine: EngineServices,
  migration: StoredMigration,
  limits: DemoLimits,
): Promise<DemoMigration> {
  const [job, run, runsUsed] = await Promise.all([
    engine.jobs.latestJob(migration.id, 'demo'),
    engine.repository.latestRun(migration.id, 'demo'),
    engine.jobs.demoJobCount(migration.id),
  ]);
  const base = {
    limit: limits.limit,
    runsUsed,
    runsAllowed: limits.perMigration,
  };
  if (!job)
    return {
      ...base,
      state: 'none',
      startedAt: null,
      finishedAt: null,
      entities: {},
      verification: null,
      records: [],
    };
  const { ownRun, live, state } = sideRunState(job, run);
  const entities: DemoMigration['entities'] = {};
  if (ownRun?.stats)
    for (const [entity, s] of Object.entries(ownRun.stats))
      entities[entity] = { migrated: s.migrated, skipped: s.skipped, failed: s.failed };
  else if (ownRun)
    for (const row of await engine.repository.runCounts(migration.id, ownRun.id)) {
      const e = (entities[row.entity] ??= { migrated: 0, skipped: 0, failed: 0 });
      e[row.outcome] += row.count;
    }
  const platform = (platforms as readonly string[]).includes(migration.destinationStore)
    ? (migration.destinationStore as Platform)
    : undefined;
  const records = ownRun
    ? (await engine.repository.runRecords(migration.id, ownRun.id, LISTED)).map((r) => ({
        ...r,
        adminUrl: platform
          ? adminRecordUrl(platform, migration.destinationStoreUrl, r.entity, r.destinationId)
          : null,
      }))
    : [];
  const verification = ownRun?.verification
    ? presentVerification(ownRun.verification as VerificationResult)
    : null;
  const message =
    state === 'failed'
      ? (ownRun?.errorMessage ?? job.lastError ?? 'The demo migration stopped.')
      : undefined;
  return {
    ...base,
    state,
    startedAt: ownRun?.startedAt ?? job.createdAt,
    finishedAt: live ? null : (ownRun?.finishedAt ?? job.updatedAt),
    ...(message ? { message } : {}),
    entities,
    verification,
    records,
  };
}

/**
 * The free demo migration of Select Data: POST /api/migrations/{id}/demo starts one (a few
 * records of each selected type into the real destination, before payment), GET reads how the
 * last one went. Only the owner's migrations; refused beyond the per-migration and daily limits.
 */
export const demoMigrationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { migrations, engine, config } = app.services;
  const limits = config.demoMigration;
  app.get(
    '/api/migrations/:id/demo',
    { schema: { params: migrationIdParamsSchema, response: { 200: demoMigrationSchema } } },
    async (request, reply) => {
      const user = await requireUser(request);
      const migration = await migrations.findForUser(request.params.id, user.id);
      if (!migration) throw notFound('The requested migration could not be found.');
      reply.header('Cache-Control', 'no-store');
      return presentDemo(engine, migration, limits);
    },
  );
  app.post(
    '/api/migrations/:id/demo',
    { schema: { params: migrationIdParamsSchema, response: { 202: demoMigrationSchema } } },
    async (request, reply) => {
      const user = await requireUser(request);
      const migration = await migrations.findForUser(request.params.id, user.id);
      if (!migration) throw notFound('The requested migration could not be found.');
      await startDemoMigration(engine, migration, user, limits);
      return reply.code(202).send(await presentDemo(engine, migration, limits));
    },
  );
};
