import { connectorRegistry } from '@replatform/connectors/registry';
import { runCli } from './cli.ts';

// Ctrl-C stops the run at a batch boundary (nothing is lost; run again to continue); a second
// Ctrl-C quits at once, which loses nothing either, since every batch is committed atomically.
const controller = new AbortController();
let stopping = false;
const stop = () => {
  if (stopping) process.exit(130);
  stopping = true;
  process.stderr.write('\nStopping after the batches in flight (Ctrl-C again to quit now)...\n');
  controller.abort();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

const code = await runCli(process.argv.slice(2), {
  registry: connectorRegistry,
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  signal: controller.signal,
});
process.exitCode = code;
// Nothing should be left running; if a socket lingers, do not keep the shell waiting.
setTimeout(() => process.exit(code), 2_000).unref();
