import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { migrateToLatest, openDatabase, type Db } from '@replatform/db/database';
import { MigrationsRepository } from '@replatform/db/migrations-repository';
import type { Config } from './config.ts';
import { warnAboutUntrustedProxy } from './http/client-address.ts';
import { isApiPath, registerErrorHandling, sendNotFound } from './http/errors.ts';
import { chooseLogFormat, textLogStream } from './http/log-format.ts';
import { loggerOptions } from './http/logger.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { healthRoutes } from './routes/health/get-healthz.ts';
import type { AuthService } from './auth/auth-service.ts';
import { createAuthService, registerAuth } from './auth/register-auth.ts';
import { mappingChoicesRoutes } from './routes/migrations/mapping-choices-routes.ts';
import { migrationRoutes } from './routes/migrations/migration-routes.ts';
import { verifyRoutes } from './routes/connections/verify-routes.ts';
import { sandboxRoutes } from './routes/connections/sandbox-routes.ts';
import { shopifyInstallRoutes } from './routes/shopify/shopify-install-routes.ts';
import { routeToEmulators, SandboxStores } from './sandbox/sandbox-stores.ts';
import { sandboxSealer } from './sandbox/sandbox-sealer.ts';
import { startMigration } from './jobs/start-migration.ts';
import type { ConnectorHttp } from '@replatform/connectors/kit/contract';
import { StoreConnections, type ConnectorRegistry } from './connections/store-connections.ts';
import { connectorRegistry } from '@replatform/connectors/registry';
import { CredentialVault, loadVaultKey } from './security/credential-vault.ts';
import { createEngineServices, type EngineServices } from './jobs/engine-services.ts';
import { engineRoutes } from './routes/engine/engine-routes.ts';
import { NotificationsService } from './notifications/notifications.ts';
import { notificationRoutes } from './routes/notifications/notification-routes.ts';
import { paymentRoutes } from './routes/payments/payment-routes.ts';
import { PaymentsService } from './payments/payments-service.ts';
import { createStripeClient } from './payments/stripe-client.ts';
import { contactRoutes } from './routes/contact/contact-routes.ts';
import { enterpriseRoutes } from './routes/enterprise/post-enterprise-quote.ts';
import { preferencesRoutes } from './routes/preferences/preferences-routes.ts';

export interface AppServices {
  config: Config;
  db: Db;
  migrations: MigrationsRepository;
  vault: CredentialVault;
  connections: StoreConnections;
  /** Built-in emulators of the four platforms, when SANDBOX_STORES is on. */
  sandbox: SandboxStores | undefined;
  auth: AuthService;
  engine: EngineServices;
  notifications: NotificationsService;
  /** Quotes, Stripe Checkout and demo payments, receipts. */
  payments: PaymentsService;
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
export interface AppOptions {
  /** Connectors by platform; tests may substitute their own. */
  registry?: ConnectorRegistry;
  /** Where log lines go (tests read them to prove no secret is logged); default stdout. */
  logStream?: NodeJS.WritableStream;
}

/** Logging to standard output: readable lines in a terminal, else pino's own JSON lines. */
function stdoutLogger(config: Config) {
  const format = chooseLogFormat({ isTTY: process.stdout.isTTY, requested: config.logFormat });
  const options = loggerOptions(config.logLevel);
  return format === 'text' ? { ...options, stream: textLogStream(process.stdout) } : options;
}

export async function buildApp(config: Config, options: AppOptions = {}): Promise<App> {
  const app = Fastify({
    logger: options.logStream
      ? { ...loggerOptions(config.logLevel), stream: options.logStream }
      : stdoutLogger(config),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    // Addresses the router cannot read (bad escapes, a path parameter too long) answer in our
    // error shape like everything else.
    frameworkErrors: (_error, _request, reply) =>
      (reply as FastifyReply)
        .status(400)
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send({
          error: { code: 'invalid_address', message: 'The address of the request is not valid.' },
        }),
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
  const vault = new CredentialVault(
    loadVaultKey({ configuredKey: config.encryptionKey, keyFile: config.credentialKeyFile }),
  );
  // Sandbox stores start before the egress client so their origins join the allow-list.
  const [products, customers, orders] = config.sandboxCounts ?? [];
  const sandbox = config.sandboxStores
    ? await SandboxStores.start(config.sandboxCounts ? { products, customers, orders } : {})
    : undefined;
  // Emulated BigCommerce and Shopify stores (tests and local runs, e.g. `npm run load`): their
  // API hosts are fixed, so requests for the configured hashes and shops go to the emulators.
  const emulated = config.emulatedStores;
  const routesOf = (platform: string) =>
    new Map(emulated.filter((e) => e.platform === platform).map((e) => [e.key, e.origin]));
  const [shopRoutes, hashRoutes] = [routesOf('shopify'), routesOf('bigcommerce')];
  const route = (http: ConnectorHttp) => {
    const routed = sandbox ? sandbox.route(http) : http;
    return emulated.length ? routeToEmulators(routed, shopRoutes, hashRoutes) : routed;
  };
  const connections = new StoreConnections({
    registry: options.registry ?? connectorRegistry,
    vault,
    egressAllowlist: [
      ...config.egressAllowlist,
      ...(sandbox?.origins() ?? []),
      ...emulated.map((e) => e.origin),
    ],
    egressAllowHttp: config.egressAllowHttp,
    ...(sandbox || emulated.length ? { route } : {}),
  });
  const auth = await createAuthService({
    config,
    db,
    log: app.log,
    sandbox: sandbox && sandboxSealer({ sandbox, vault, connections }),
    startDemoRun:
      sandbox &&
      (async (migrationId, userId) => {
        const migration = await app.services.migrations.findForUser(migrationId, userId);
        if (migration) await startMigration(app.services.engine, migration, { isDemo: true });
      }),
  });
  const migrations = new MigrationsRepository(db);
  const notifications = new NotificationsService(db);
  const engine = createEngineServices({
    db,
    migrations: new MigrationsRepository(db),
    connections,
    log: app.log,
    notifier: () => app.services.notifications,
    sandbox,
    stripe: Boolean(config.stripe.secretKey),
    workers: config.workers,
    demoLimit: config.demoMigration.limit,
  });
  app.decorate('services', {
    config,
    db,
    migrations,
    vault,
    auth,
    connections,
    sandbox,
    notifications,
    engine,
    payments: new PaymentsService({
      config,
      db,
      migrations,
      connections,
      notifications,
      log: app.log,
      stripe: createStripeClient(config.stripe),
      isSandbox: (migration) => engine.isSandbox(migration),
    }),
  });
  // The job queue (pg-boss on PostgreSQL) is ready before anything can queue a job.
  try {
    await app.services.engine.runner.prepare();
  } catch (error) {
    await connections.close();
    await sandbox?.close();
    await db.close();
    throw error;
  }
  // A deleted account's running migrations stop wherever they run before their rows go.
  auth.onUserDeleted(async (userId) => {
    const live = await app.services.engine.jobs.liveJobs();
    for (const job of live.filter((j) => j.userId === userId))
      await app.services.engine.cancel(job.migrationId, 'The account was deleted.');
  });
  // Running jobs stop at a batch boundary and are handed back before the database closes.
  app.addHook('preClose', async () => {
    await app.services.engine.runner.stop();
    await app.services.engine.runner.close();
  });
  app.addHook('onClose', async () => {
    await connections.close();
    await sandbox?.close();
    await db.close();
  });

  registerSecurityHeaders(app, { https: config.publicUrl.startsWith('https://') });
  registerErrorHandling(app);
  warnAboutUntrustedProxy(app, config.trustProxy);
  await registerAuth(app);

  await app.register(healthRoutes);
  await app.register(migrationRoutes);
  await app.register(mappingChoicesRoutes);
  await app.register(verifyRoutes);
  await app.register(sandboxRoutes);
  await app.register(shopifyInstallRoutes);
  await app.register(engineRoutes);
  await app.register(notificationRoutes);
  await app.register(paymentRoutes);
  await app.register(contactRoutes);
  await app.register(enterpriseRoutes);
  await app.register(preferencesRoutes);

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
