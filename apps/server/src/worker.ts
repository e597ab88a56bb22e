import { buildApp } from './app.ts';
import { configOrExit, exitOnFailure, stopGracefully } from './process.ts';

/**
 * `npm run worker`: a process that runs migrations and serves nothing, for operators who need
 * more than one machine's workers. Any number of them (on any machines, with PostgreSQL) share
 * the job queue in the database with the web servers: jobs are claimed with leases, a dead
 * worker's jobs are taken over, and its runs resume from their last committed batch. Workers hold
 * no sandbox stores, so migrations between sandbox stores stay with the server that holds them.
 */
async function main(): Promise<void> {
  const config = configOrExit();
  if (config.workers < 1) exitOnFailure(new Error('A worker needs WORKERS of 1 or more.'));
  const app = await buildApp({ ...config, sandboxStores: false });
  stopGracefully(app);
  await app.ready();
  app.services.engine.runner.start({ keepAlive: true });
  app.log.info(
    { workers: config.workers, runner: app.services.engine.runner.owner },
    'Replatform worker is running migrations',
  );
}

main().catch(exitOnFailure);
