import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { migrationIdParamsSchema } from '@replatform/contracts/migrations-api';
import { verificationSchema, type Verification } from '@replatform/contracts/progress';
import type { VerificationResult } from '@replatform/engine/verification';
import { requireUser } from '../../auth/require-user.ts';
import { notFound } from '../../http/errors.ts';

/** The engine's verification result in the shape the detail page shows. */
export function presentVerification(result: VerificationResult): Verification {
  const entities: Verification['entities'] = {};
  for (const [entity, e] of Object.entries(result.entities)) {
    if (!e) continue;
    entities[entity] = {
      checked: e.source,
      matched: e.matched,
      mismatched: e.mismatched,
      missing: e.missing,
    };
  }
  return {
    status: result.status === 'passed' ? 'passed' : 'failed',
    checkedAt: result.checkedAt,
    ...(result.message ? { message: result.message } : {}),
    entities,
    knownDifferences: [
      ...(result.knownDifferences ?? []),
      ...(result.namedDifferences ?? []).map((d) => ({
        ...d,
        reason:
          "Differs at the destination for a reason that depends on the record's data; each record's row of the report says why.",
      })),
    ],
    examples: [
      ...result.examples.mismatched.map((x) => ({
        entity: x.entity,
        sourceId: x.sourceId,
        destinationId: x.destinationId,
        detail: x.namedInReport
          ? `Differs at the destination in: ${x.fields.join(', ')}. ${x.namedInReport}`
          : `Differs at the destination in: ${x.fields.join(', ')}`,
      })),
      ...result.examples.missing.map((x) => ({
        entity: x.entity,
        sourceId: x.sourceId,
        destinationId: null,
        detail: x.reason,
      })),
    ],
  };
}

/** GET /api/migrations/{id}/verification: the record-by-record check made after the run. */
export const getVerification: FastifyPluginAsyncZod = async (app) => {
  const { migrations, engine } = app.services;
  app.get(
    '/api/migrations/:id/verification',
    { schema: { params: migrationIdParamsSchema, response: { 200: verificationSchema } } },
    async (request, reply) => {
      const user = await requireUser(request);
      const migration = await migrations.findForUser(request.params.id, user.id);
      if (!migration) throw notFound('The requested migration could not be found.');
      reply.header('Cache-Control', 'no-store');
      const latest = await engine.repository.latestRun(migration.id);
      if (latest?.phase === 'verify') {
        return {
          status: 'running' as const,
          checkedAt: null,
          entities: {},
          knownDifferences: [],
          examples: [],
        };
      }
      const verified = await engine.repository.latestVerifiedRun(migration.id);
      if (!verified) {
        return {
          status: 'not-run' as const,
          checkedAt: null,
          entities: {},
          knownDifferences: [],
          examples: [],
        };
      }
      return presentVerification(verified.verification as VerificationResult);
    },
  );
};
