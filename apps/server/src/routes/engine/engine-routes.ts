import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { demoMigrationRoutes } from './demo-migration-routes.ts';
import { getMigrationProgress } from './get-migration-progress.ts';
import { getRedirectMap } from './get-redirect-map.ts';
import { getReportCsv } from './get-report-csv.ts';
import { getVerification } from './get-verification.ts';
import { postStartMigration } from './post-start-migration.ts';
import { postVerifyAgain } from './post-verify-again.ts';
import { undoMigrationRoutes } from './undo-migration-routes.ts';

/**
 * The migration engine's endpoints: start, the free demo migration, progress, per-record report,
 * redirect map, verification and verifying again, and undo.
 */
export const engineRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(postStartMigration);
  await app.register(demoMigrationRoutes);
  await app.register(getMigrationProgress);
  await app.register(getReportCsv);
  await app.register(getRedirectMap);
  await app.register(getVerification);
  await app.register(postVerifyAgain);
  await app.register(undoMigrationRoutes);
};
