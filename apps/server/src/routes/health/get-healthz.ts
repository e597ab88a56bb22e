import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema } from '@replatform/contracts/api-error';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * GET /healthz for load balancers and operators: the database answers a query, and the job
 * queue answers (pg-boss's queue exists on PostgreSQL), with the jobs queued and running over
 * all processes. 503 when either fails, so a balancer stops sending requests to this server.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    { schema: { response: { 200: healthSchema, 503: healthSchema } } },
    async (_request, reply) => {
      const { db, engine } = app.services;
      const began = performance.now();
      let database: { ok: boolean; ms: number; error?: string };
      try {
        await sql`select 1`.execute(db.kysely);
        database = { ok: true, ms: Math.round(performance.now() - began) };
      } catch (error) {
        database = {
          ok: false,
          ms: Math.round(performance.now() - began),
          error: errorText(error),
        };
      }
      const queue = database.ok
        ? await engine.runner.health()
        : {
            kind: engine.runner.kind,
            ok: false,
            queued: 0,
            running: 0,
            workers: 0,
            error: 'the database does not answer',
          };
      const ok = database.ok && queue.ok;
      return reply.status(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'unavailable',
        database: db.dialect,
        checks: { database, queue },
      });
    },
  );
};
