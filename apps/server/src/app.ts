import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { migrateToLatest, openDatabase, type Db } from '@replatform/db/database';
import { MigrationsRepository } from '@replatform/db/migrations-repository';
import type { Config } from './config.ts';
import { isApiPath, registerErrorHandling, sendNotFound } from './http/errors.ts';
import { loggerOptions } from './http/logger.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { healthRoutes } from './routes/health/get-healthz.ts';

export interface AppServices {
  config: Config;
  db: Db;
  migrations: MigrationsRepository;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
  }
}

export type App = FastifyInstance;

/**
 * Builds the whole HTTP application without listening, so tests drive it with `inject()` and
 * main.ts decides where it listens. Opens the database and applies pending schema migrations.
 */
export async function buildApp(config: Config): Promise<App> {
  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const db = openDatabase({ databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath });
  try {
    const applied = await migrateToLatest(db);
    if (applied.length) app.log.info({ applied }, 'database migrations applied');
  } catch (error) {
    await db.close();
    throw error;
  }
  app.decorate('services', { config, db, migrations: new MigrationsRepository(db) });
  app.addHook('onClose', async () => {
    await db.close();
  });

  registerSecurityHeaders(app, { https: config.publicUrl.startsWith('https://') });
  registerErrorHandling(app);

  await app.register(healthRoutes);

  const indexHtml = join(config.webDistDir, 'index.html');
  const hasWeb = existsSync(indexHtml);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: config.webDistDir,
      wildcard: false,
      index: false,
      // Vite fingerprints everything under assets/, so those never change under one name.
      setHeaders: (res, path) => {
        const fingerprinted = path.startsWith(join(config.webDistDir, 'assets'));
        res.header(
          'Cache-Control',
          fingerprinted ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (!wantsPage || isApiPath(request.url)) return sendNotFound(reply);
    if (request.url.startsWith('/assets/')) {
      return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    }
    if (!hasWeb) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app has not been built yet: run `npm run build`.');
    }
    // Client-side routes of the single-page app all load index.html.
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });

  return app;
}
