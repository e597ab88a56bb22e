import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getMigrationProgress } from './get-migration-progress.ts';
import { getReportCsv } from './get-report-csv.ts';
import { getVerification } from './get-verification.ts';
import { postStartMigration } from './post-start-migration.ts';

/** The migration engine's endpoints: start, progress, per-record report and verification. */
export const engineRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(postStartMigration);
  await app.register(getMigrationProgress);
  await app.register(getReportCsv);
  await app.register(getVerification);
};
