import { buildApp } from './app.ts';
import { configOrExit, exitOnFailure, stopGracefully } from './process.ts';

async function main(): Promise<void> {
  const config = configOrExit();
  const app = await buildApp(config);
  stopGracefully(app);

  await app.listen({ host: config.host, port: config.port });
  // Background migrations (and those that were running when the server last stopped) resume now,
  // unless this server leaves them to worker processes (`npm run worker`, WORKERS=0 here).
  if (config.workers > 0) app.services.engine.runner.start();
  app.log.info(`Replatform is running at ${config.publicUrl}`);
}

main().catch(exitOnFailure);
