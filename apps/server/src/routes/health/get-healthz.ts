import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema } from '@replatform/contracts/api-error';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', { schema: { response: { 200: healthSchema } } }, async () => {
    const { db } = app.services;
    await sql`select 1`.execute(db.kysely);
    return { status: 'ok' as const, database: db.dialect };
  });
};
