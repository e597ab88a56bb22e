// A server process that runs migration jobs and nothing else, for the runner's crash test: the
// app as main.ts builds it (database, vault, store connections, notifications) from the
// environment, and the server's job runner with the lease and heartbeat given as JSON in argv
// (shorter than in production, so the test is quick). It runs until it is killed.
import { buildApp } from '../app.ts';
import { parseConfig } from '../config.ts';
import { createEngineServices } from './engine-services.ts';

const settings = JSON.parse(process.argv[2] ?? '{}') as { leaseMs?: number; heartbeatMs?: number };
const app = await buildApp(parseConfig(process.env));
const engine = createEngineServices({
  db: app.services.db,
  migrations: app.services.migrations,
  connections: app.services.connections,
  log: app.log,
  notifier: () => app.services.notifications,
  ...(settings.leaseMs === undefined ? {} : { leaseMs: settings.leaseMs }),
  ...(settings.heartbeatMs === undefined ? {} : { heartbeatMs: settings.heartbeatMs }),
  pollMs: 100,
});
engine.runner.start();
process.stdout.write(`runner ${engine.runner.owner}\n`);
process.on('SIGTERM', () => {
  void engine.runner
    .stop()
    .then(() => app.close())
    .finally(() => process.exit(0));
});
